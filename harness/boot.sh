#!/bin/bash
# make check's boot step: hist triggers and synthetic events set up at
# boot.  Boots the kernel make check built (BASE, DEBUG as for run.sh)
# twice, and runs harness/guest/boot-check.sh instead of the suites
# (suites boot-cmdline and boot-bootconfig, reported like make check's):
#   - with harness/boot/cmdline on its command line (trace_trigger=);
#   - with harness/boot/bootconfig appended to its initramfs (the base's
#     tools/bootconfig, built here).
# Two boots, not one: the stock kernel (6.12.117) hangs at boot, before
# init, when a trace_trigger= trigger (any, a stacktrace one too) meets
# an instance made by bootconfig.  Ours does the same; that is the
# base's trace_trigger= code, not ours.
. "$(dirname "$0")/lib.sh"

base=$("$HARNESS_DIR/fetch-base.sh")
tool=$CACHE_DIR/bootconfig/bootconfig
stamp="$base $(base_version "$base") $(cat "$base/.harness-unpacked" 2>/dev/null || true)"
if [ ! -x "$tool" ] || [ "$(cat "$tool.src" 2>/dev/null)" != "$stamp" ]; then
	say "boot: building tools/bootconfig of the base"
	rm -rf "$CACHE_DIR/bootconfig"
	mkdir -p "$CACHE_DIR/bootconfig"
	make -s -C "$base/tools/bootconfig" OUTPUT="$CACHE_DIR/bootconfig/" \
		"$CACHE_DIR/bootconfig/bootconfig" >"$CACHE_DIR/bootconfig/build.log" 2>&1 ||
		{ cat "$CACHE_DIR/bootconfig/build.log" >&2; die "cannot build tools/bootconfig"; }
	echo "$stamp" >"$tool.src"
fi
# (a bootconfig that does not parse fails run.sh's "bootconfig -a")

tag=${RUN_TAG:-boot}
BOOT_CHECK=1 BOOT_PART=cmdline \
	BOOT_ARGS="$(sed -e 's/#.*//' "$HARNESS_DIR/boot/cmdline" | tr '\n' ' ')" \
	RUN_TAG=$tag-cmdline NO_BUILD=1 "$HARNESS_DIR/run.sh" check
BOOT_CHECK=1 BOOT_PART=bootconfig \
	BOOTCONFIG_TOOL=$tool BOOTCONFIG=$HARNESS_DIR/boot/bootconfig \
	RUN_TAG=$tag-bootconfig NO_BUILD=1 "$HARNESS_DIR/run.sh" check
