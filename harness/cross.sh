#!/bin/bash
# make cross [ARCHES="arm powerpc"]: build the project's kernel files for
# other architectures with Debian's cross compilers: i386, arm (32-bit,
# ARMv7), arm64, powerpc (32-bit) and riscv64.  Each gets a small config
# (tinyconfig, the tracing options and every feature of features.txt
# that has a file of ours); the project's objects are built with W=1.
# Fails on:
#   - a feature option that did not stick on an architecture;
#   - a warning in a file of ours;
#   - an object of ours that needs a symbol no 32-bit kernel links: a
#     libgcc helper for 64-bit division or shifts, or the stand-ins the
#     atomic fallbacks leave for a missing cmpxchg64() or 64-bit xchg.
# The x86_64 build (make check) is not repeated here.
. "$(dirname "$0")/lib.sh"

arches=${ARCHES:-"i386 arm arm64 powerpc riscv64"}

cross_prefix() {	# arch
	case $1 in
	i386)	echo "" ;;	# the host's gcc, -m32
	arm)	echo arm-linux-gnueabihf- ;;
	arm64)	echo aarch64-linux-gnu- ;;
	powerpc) echo powerpc-linux-gnu- ;;
	riscv64) echo riscv64-linux-gnu- ;;
	*)	die "make cross: no compiler known for '$1'" ;;
	esac
}
kernel_arch() {		# arch
	case $1 in
	riscv64) echo riscv ;;
	*)	echo "$1" ;;
	esac
}

pkgs=()
for a in $arches; do
	p=$(cross_prefix "$a")
	[ -n "$p" ] && pkgs+=("gcc-${p%-}")
done
"$HARNESS_DIR/host-deps.sh" "${pkgs[@]}"

src=$("$HARNESS_DIR/overlay.sh")
export CCACHE_DIR=${CCACHE_DIR:-$CACHE_DIR/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export KBUILD_BUILD_TIMESTAMP='2024-01-01 00:00:00 UTC' KBUILD_BUILD_USER=harness KBUILD_BUILD_HOST=harness

own_src=$(cd "$REPO_DIR" && git ls-files --cached --others --exclude-standard -- \
	'kernel/*.[ch]' 'samples/*.[ch]' | while read -r f; do if [ -f "$f" ]; then echo "$f"; fi; done)
own_c=$(for f in $own_src; do case $f in *.c) echo "$f" ;; esac; done)
# libgcc helpers for 64-bit division (x86, arm EABI, powerpc and riscv
# names) the kernel does not provide (64-bit shifts it does), and the
# stand-ins the atomic fallbacks leave for an operation an architecture
# lacks (a link error)
bad_syms='^(__u?(div|mod)di3|__u?divmoddi4|__aeabi_u?ldivmod|raw_(cmp)?xchg(64|128)?(_[a-z]+)?_not_implemented|__bad_(cmp)?xchg|__(cmp)?xchg_called_with_bad_pointer)$'
series=$(base_version "$src" | cut -d. -f1,2)
# Options a base cannot have on an architecture, with the reason:
# harness/config/cross-unavailable.txt, "<base> <arch> <option>...".
unavailable() { # arch
	sed -e 's/#.*//' "$HARNESS_DIR/config/cross-unavailable.txt" |
		awk -v s="$series" -v a="$1" '$1 == s && $2 == a { for (i = 3; i <= NF; i++) print $i }'
}

# i386 is booted too: every KUnit suite built in runs at boot, so the
# 32-bit map (its u32 slots, the hash in the element) is run, not only
# built.  No userspace: the kernel stops when it finds no init.
cross_boot_i386() {	# build dir
	local out=$1 log=$1/kunit-console.log want pass skip
	say "cross i386: kernel build and KUnit boot (log: $log)"
	"${kmake[@]}" bzImage >>"$out/cross.log" 2>&1 ||
		{ grep -E 'error|Error' "$out/cross.log" | head -20 >&2; return 1; }
	# Single-threaded TCG, as harness/run.sh has: multi-threaded TCG let
	# a vCPU run a stale int3 after the other patched a static call's
	# trampoline ("Oops: int3" in __SCT__tp_func_sched_switch).
	timeout 900 qemu-system-i386 -M pc -accel tcg,thread=single -m 1024 -smp 2 \
		-nographic -no-reboot \
		-kernel "$out/arch/x86/boot/bzImage" \
		-append "console=ttyS0 panic=-1 oops=panic" >"$log" 2>&1 </dev/null || true
	if grep -qE 'Oops|BUG:|WARNING:|Kernel panic - not syncing: (Fatal|Oops)' "$log"; then
		grep -E -m5 'Oops|BUG:|WARNING:|panic' "$log" >&2
		return 1
	fi
	if grep -q 'Marking TSC unstable' "$log"; then
		say "cross i386: the guest marked its TSC unstable: $(grep -m1 -E 'tsc: Marking' "$log")"
	fi
	# suites only (a parameterised case's subtests are indented deeper)
	want=$(grep -cE '^    # Subtest: ' "$log" || true)
	if grep -qE '^[[:space:]]*not ok [0-9]+ ' "$log" || [ "$want" -eq 0 ]; then
		grep -E '^[[:space:]]*not ok' "$log" >&2
		say "cross i386: KUnit failed or did not run ($want suites)"
		return 1
	fi
	pass=$(sed -n 's/^# Totals: pass:\([0-9]*\) .*/\1/p' "$log" | awk '{ s += $1 } END { print s + 0 }')
	skip=$(sed -n 's/^# Totals: .* skip:\([0-9]*\) .*/\1/p' "$log" | awk '{ s += $1 } END { print s + 0 }')
	say "cross i386: KUnit: $want suites, $pass cases passed, $skip skipped"
	if [ "$skip" -ne 0 ]; then
		grep -E '# SKIP' "$log" >&2
		return 1
	fi
	[ "$(grep -c '^# Totals: ' "$log")" -eq "$want" ] && [ "$pass" -gt 0 ]
}

failed=()
for a in $arches; do
	karch=$(kernel_arch "$a")
	prefix=$(cross_prefix "$a")
	out=$src/build-cross-$a
	mkdir -p "$out"
	kmake=(make -s -C "$src" O="$out" ARCH="$karch" CROSS_COMPILE="$prefix"
	       "CC=ccache ${prefix}gcc" -j"$(nproc)")
	frag=$out/harness.config
	{
		cat "$HARNESS_DIR/config/cross.config"
		[ -f "$HARNESS_DIR/config/cross-$a.config" ] &&
			cat "$HARNESS_DIR/config/cross-$a.config"
		features_config ours "$src"
	} >"$frag.new"
	if ! cmp -s "$frag.new" "$frag" || [ ! -f "$out/.config" ]; then
		"${kmake[@]}" tinyconfig >/dev/null
		(cd "$out" && "$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$frag.new" >/dev/null)
		"${kmake[@]}" olddefconfig >/dev/null
		mv "$frag.new" "$frag"
	else
		rm -f "$frag.new"
	fi
	# every option must stick, but those the base cannot have here
	missing=$(grep -E '^CONFIG_[A-Z0-9_]+=[ym]$' "$frag" | while IFS='=' read -r opt val; do
		grep -qxF "$opt=$val" "$out/.config" && continue
		unavailable "$a" | grep -qxF "$opt" || echo "$opt=$val"
	done)
	if [ -n "$missing" ]; then
		say "cross $a: options that did not stick: $(echo $missing)"
		failed+=("$a (config)")
		continue
	fi
	na=$(unavailable "$a" | while read -r opt; do
		grep -qE "^$opt=" "$out/.config" || echo "$opt"
	done)
	[ -z "$na" ] || say "cross $a: not available on $series here (cross-unavailable.txt): $(echo $na)"
	# The directories of our files, whole (W=1): a file kbuild does not
	# build on its own (#included by another) or whose option is off
	# has no object.  Warnings count only in our files.
	dirs=$(for f in $own_c; do dirname "$f"; done | sort -u | sed 's|$|/|')
	for f in $own_c; do rm -f "$out/${f%.c}.o"; done
	say "cross $a: building $(echo $dirs) (log: $out/cross.log)"
	# shellcheck disable=SC2086
	if ! "${kmake[@]}" W=1 $dirs >"$out/cross.log" 2>&1; then
		grep -E 'error|Error' "$out/cross.log" | head -20 >&2
		failed+=("$a (build)")
		continue
	fi
	command -v "${prefix}nm" >/dev/null || die "cross $a: no ${prefix}nm"
	built=0
	for f in $own_c; do
		o=${f%.c}.o
		[ -f "$out/$o" ] || continue
		built=$((built + 1))
		syms=$("${prefix}nm" -u "$out/$o") || die "cross $a: ${prefix}nm $o failed"
		syms=$(echo "$syms" | awk '{ print $NF }' | { grep -E "$bad_syms" || true; })
		if [ -n "$syms" ]; then
			say "cross $a: $o needs $(echo $syms)"
			failed+=("$a ($o)")
		fi
	done
	warn=$({ grep -E 'warning:' "$out/cross.log" || true; } | while read -r l; do
		for f in $own_src; do
			case $l in *"$f:"*) echo "$l"; break ;; esac
		done
	done | sort -u)
	if [ -n "$warn" ]; then
		echo "$warn" >&2
		failed+=("$a (warnings)")
	fi
	say "cross $a: $built objects of ours built, $(echo -n "$warn" | grep -c . || true) warnings in them"
	[ "$built" -gt 0 ] || failed+=("$a (nothing built)")
	if [ "$a" = i386 ] && [ "${CROSS_BOOT:-1}" = 1 ]; then
		cross_boot_i386 "$out" || failed+=("i386 (KUnit)")
	fi
done
[ ${#failed[@]} -eq 0 ] || die "make cross failed: ${failed[*]}"
say "cross: ok ($arches, Linux $(base_version "$src"))"
