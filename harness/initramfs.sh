#!/bin/bash
# Pack the guest's initramfs.
#   initramfs.sh VARIANT BUILD_DIR MODE OUT.cpio.gz
# Environment: TESTS (regex on test paths/names), EXTRA_TESTS (a directory
# of .tc files run as one more suite), FUZZ_SCRIPT and FUZZ_FLAGS (mode fuzz),
# STRESS_SHORT (the length of make stress's cases), DEBIAN_USERLAND (the
# series' tests under a Debian userland: below).
. "$(dirname "$0")/lib.sh"

variant=$1 build=$2 mode=$3 out=$4
case $variant in
ours|stock|step)	src=$(variant_src "$variant") ;;
esac

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,etc,root,harness,lib64}

# busybox for almost everything ...
cp /bin/busybox "$root/bin/busybox"
for a in $(/bin/busybox --list); do
	[ -e "$root/bin/$a" ] || ln -s busybox "$root/bin/$a"
done
# ... plus what it lacks or does differently: dash (real exec of every
# command, needed for comm-based tests), nice (not in Debian's busybox).
copy_prog() {	# host path, guest path
	cp -L "$1" "$root/$2"
	ldd "$1" 2>/dev/null | grep -oE '/[^ ]+\.so[^ ]*' | while read -r lib; do
		mkdir -p "$root/$(dirname "$lib")"
		cp -L "$lib" "$root/$lib"
	done
}
rm -f "$root/bin/sh"
copy_prog /bin/dash bin/dash
ln -s dash "$root/bin/sh"
copy_prog /usr/bin/nice usr/bin/nice
# Small guest tools of our own (busybox has no such applets), one per
# harness/guest/*.c, linked statically so that they need no libraries:
# fuzz (the make fuzz executor),
# ... Each becomes /bin/<name>.
for c in "$HARNESS_DIR"/guest/*.c; do
	gcc -static -O2 -Wall -pthread -o "$root/bin/$(basename "$c" .c)" "$c" ||
		die "cannot build $c (needs gcc and a static libc)"
done
# Real clients of the tracefs ABI, from Debian's packages (make diff's
# clients-*.tc probes): trace-cmd with its libraries, and
# harness/clients/tracefs-client.c linked statically with libtracefs.
copy_prog /usr/bin/trace-cmd bin/trace-cmd
# shellcheck disable=SC2046
gcc -static -O2 -Wall -Werror -o "$root/bin/tracefs-client" "$HARNESS_DIR/clients/tracefs-client.c" \
	$(pkg-config --cflags --libs --static libtracefs) -ldl 2>"$root/tracefs-client.log" || {
	cat "$root/tracefs-client.log" >&2
	die "cannot build harness/clients/tracefs-client.c against libtracefs"
}
rm -f "$root/tracefs-client.log"
echo 'root:x:0:0:root:/root:/bin/sh' >"$root/etc/passwd"
echo 'root:x:0:' >"$root/etc/group"
printf '127.0.0.1\tlocalhost\n::1\tlocalhost\n' >"$root/etc/hosts"

# Kernel modules.
[ -d "$build/modroot/lib/modules" ] && cp -a "$build/modroot/lib" "$root/"

# Test suites: ftracetest and its test.d from the build's source tree (the
# base's upstream tests; for "ours" also the project's own cases), with our
# own cases added from the repository for both variants.
cp -rL "$src/tools/testing/selftests/ftrace" "$root/ftrace"
(cd "$REPO_DIR" && git ls-files --cached --others --exclude-standard -- tools/testing/selftests/ftrace) |
	while read -r f; do
		[ -f "$REPO_DIR/$f" ] || continue
		mkdir -p "$root/ftrace/$(dirname "${f#tools/testing/selftests/ftrace/}")"
		cp "$REPO_DIR/$f" "$root/ftrace/${f#tools/testing/selftests/ftrace/}"
	done
# The helper programs the selftest Makefile builds (TEST_GEN_FILES: 7.3's
# poll, our hist-poll and latency-sleeper), which the tests run as
# $FTRACETEST_ROOT/<name>.  Ours: by that Makefile (so that it is proved
# to build them), linked statically; stock's tree lacks our Makefile
# change, so there (and for any program it leaves out) by gcc.
if [ "$variant" = ours ]; then
	gen=$(mktemp -d)
	make -s -C "$src/tools/testing/selftests/ftrace" OUTPUT="$gen" LDFLAGS=-static \
		CFLAGS='-O2 -Wall -Werror' >&2 ||
		{ rm -rf "$gen"; die "the ftrace selftest Makefile does not build its programs"; }
	for c in "$root"/ftrace/*.c; do
		[ -f "$c" ] || continue
		[ -x "$gen/$(basename "$c" .c)" ] ||
			{ rm -rf "$gen"; die "the ftrace selftest Makefile does not build $(basename "$c" .c)"; }
		cp "$gen/$(basename "$c" .c)" "${c%.c}"
	done
	rm -rf "$gen"
fi
for c in "$root"/ftrace/*.c; do
	[ -f "$c" ] && [ ! -x "${c%.c}" ] || continue
	gcc -static -O2 -Wall -Werror -o "${c%.c}" "$c" || die "cannot build the selftests' $(basename "$c")"
done

# Upstream tests of features the project has not written yet: not run on
# our kernel, reported as skipped with the reason (harness/config/pending.txt).
pending=$root/harness/pending
: >"$pending"
if [ "$variant" = ours ]; then
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$HARNESS_DIR/config/pending.txt" >"$pending"
fi
# Upstream tests with a race of their own (harness/config/racy-tests.txt):
# "suite file" per line, rerun by the guest when they fail.
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$HARNESS_DIR/config/racy-tests.txt" |
	awk -F '\t' 'NF >= 3 { print $1, $2 }' >"$root/harness/racy"
# ours must not race: only upstream's suites may be listed
awk '$1 !~ /^upstream-/ { exit 1 }' "$root/harness/racy" ||
	die "harness/config/racy-tests.txt lists a test that is not upstream's"
is_pending() { awk -v t="$1" '$1 == t { found = 1 } END { exit !found }' "$pending"; }

select_tc() {	# files or dirs (relative to /ftrace) -> filtered list
	local p
	for p in "$@"; do
		if [ -d "$root/ftrace/$p" ]; then
			(cd "$root/ftrace" && find "$p" -name '*.tc' | sort)
		elif [ -f "$root/ftrace/$p" ]; then
			echo "$p"
		fi
	done | { if [ -n "${TESTS:-}" ]; then grep -E -- "$TESTS" || true; else cat; fi; } |
	while read -r t; do is_pending "$t" || echo "$t"; done
}
# The harness's own checks of the guest (harness/guest/tests/, not part of
# the kernel series) run in the same suite, as test.d/harness/.
mkdir -p "$root/ftrace/test.d/harness"
cp "$HARNESS_DIR"/guest/tests/*.tc "$root/ftrace/test.d/harness/"

# The runnable examples of the project's Documentation/trace/*.rst (ours
# only: the base's documents have none), each one test case of its own,
# test.d/harness/docex-NNN-name.tc, which runs it with
# harness/guest/docex/lib.sh.
mkdir -p "$root/harness/docex"
if [ "$variant" = ours ]; then
	(cd "$REPO_DIR" && python3 "$HARNESS_DIR/docs/examples.py" gen "$root/harness/docex" \
		$(git ls-files --cached --others --exclude-standard -- 'Documentation/trace/*.rst')) ||
		die "the runnable examples of Documentation/trace do not parse"
	cp "$HARNESS_DIR/guest/docex/lib.sh" "$root/harness/docex-lib.sh"
	n=0
	for ex in "$root"/harness/docex/*.sh; do
		[ -f "$ex" ] || continue
		n=$((n + 1))
		stem=$(basename "$ex" .sh)
		where=$(sed -n '2s/^# \(.*\): example .*/\1/p' "$ex")
		{
			echo '#!/bin/sh'
			echo '# SPDX-License-Identifier: GPL-2.0'
			echo "# description: harness - documentation example $stem ($where) runs as shown"
			echo '# requires: events/sched/sched_waking/inject'
			echo '. /harness/docex-lib.sh'
			echo "run_example /harness/docex/$stem"
			echo 'exit 0'
		} >"$root/ftrace/test.d/harness/docex-$stem.tc"
	done
	[ "$n" -gt 0 ] || die "no runnable example in Documentation/trace"
fi
# A Debian userland in /debian/bin: bash, coreutils, grep, sed and gawk
# (as awk) from the host, with their libraries.  gawk is not installed on
# the host (it would become the host's awk): its package and its library's
# are unpacked into the cache.
debian_userland() {
	local d=$CACHE_DIR/debian-userland p deb lib
	if [ ! -x "$d/usr/bin/gawk" ]; then
		rm -rf "$d.new" && mkdir -p "$d.new/debs"
		# (a machine whose package lists are empty updates them first)
		(cd "$d.new/debs" && { apt-get download gawk libsigsegv2 >/dev/null 2>&1 ||
			{ apt-get update -qq >/dev/null && apt-get download gawk libsigsegv2 >/dev/null 2>&1; }; }) ||
			die "cannot download gawk and libsigsegv2 from the package archive"
		for deb in "$d.new"/debs/*.deb; do
			dpkg-deb -x "$deb" "$d.new" || die "cannot unpack $deb"
		done
		rm -rf "$d" && mv "$d.new" "$d"
	fi
	mkdir -p "$root/debian/bin"
	for p in /usr/bin/bash /usr/bin/grep /usr/bin/sed \
		$(dpkg -L coreutils | grep -E '^(/usr)?/bin/[^/]+$'); do
		[ -x "$p" ] && [ ! -L "$p" ] || continue
		copy_prog "$p" "debian/bin/$(basename "$p")"
	done
	# gawk and the library the host lacks
	cp "$d/usr/bin/gawk" "$root/debian/bin/gawk"
	ln -s gawk "$root/debian/bin/awk"
	LD_LIBRARY_PATH=$d/usr/lib/x86_64-linux-gnu ldd "$d/usr/bin/gawk" |
		grep -oE '/[^ ]+\.so[^ ]*' | while read -r lib; do
			mkdir -p "$root/$(dirname "${lib#"$d"}")"
			cp -L "$lib" "$root/${lib#"$d"}"
		done
	for p in bash grep sed env echo; do
		[ -x "$root/debian/bin/$p" ] || die "no $p in the Debian userland"
	done
	LD_LIBRARY_PATH=$root/usr/lib/x86_64-linux-gnu "$root/debian/bin/gawk" 'BEGIN { exit 0 }' ||
		die "the Debian userland's gawk does not run"
}
# the series' own cases (not the harness's checks of the guest)
series_tc=$(cd "$REPO_DIR" && git ls-files --cached --others --exclude-standard -- 'tools/testing/selftests/ftrace/test.d/*.tc' |
	sed 's|^tools/testing/selftests/ftrace/||')
ours_tc=$( (cd "$REPO_DIR" && git ls-files --cached --others --exclude-standard -- 'tools/testing/selftests/ftrace/test.d/*.tc' |
	sed 's|^tools/testing/selftests/ftrace/||'); cd "$root/ftrace" && ls test.d/harness/*.tc)
# The series' cases under a Debian userland (/debian/bin first in PATH,
# ftracetest run by bash), in make check of our kernel.  DEBIAN_USERLAND:
# 1, under busybox and again under Debian; only, under Debian alone; 0
# (the default), under busybox alone.  .ci/run asks for "only" on the 7.3
# base: each base runs them once, under busybox on 6.12 and under Debian
# on 7.3.
debian_tc=$(select_tc $series_tc)
du=${DEBIAN_USERLAND:-0}
case $du in
0|1|only) ;;
*) die "DEBIAN_USERLAND=$du: 0, 1 or only" ;;
esac
if [ "$variant" != ours ] || [ "$mode" != check ] || [ "${BOOT_CHECK:-0}" = 1 ] ||
	[ -z "$debian_tc" ]; then
	du=0
fi
[ "$du" = 0 ] || debian_userland
{
	# suite name, then its files
	# a step of the series (make series-check): the tests of the base
	# that the step's tree has, not the project's
	if [ "$variant" = step ]; then
		:
	elif [ "$du" = only ]; then
		echo "ours $(select_tc $ours_tc | { grep -vxF "$series_tc" || true; } | tr '\n' ' ')"
	else
		echo "ours $(select_tc $ours_tc | tr '\n' ' ')"
	fi
	# upstream's trigger tests: test.d/trigger but the series' cases there
	echo "upstream-trigger $(select_tc test.d/trigger | { grep -vxF "$series_tc" || true; } | tr '\n' ' ')"
	echo "upstream-synth $(select_tc test.d/dynevent/add_remove_synth.tc \
		test.d/dynevent/test_duplicates.tc test.d/dynevent/clear_select_events.tc \
		test.d/dynevent/generic_clear_event.tc | tr '\n' ' ')"
	if [ "$du" != 0 ]; then
		echo "ours-debian $(echo "$debian_tc" | tr '\n' ' ')"
	fi
	if [ -n "${EXTRA_TESTS:-}" ]; then
		[ -d "$EXTRA_TESTS" ] || die "EXTRA_TESTS=$EXTRA_TESTS is not a directory"
		mkdir -p "$root/ftrace/test.d/extra"
		find "$EXTRA_TESTS" -maxdepth 1 -name '*.tc' -exec cp {} "$root/ftrace/test.d/extra/" \;
		echo "extra $(select_tc test.d/extra | tr '\n' ' ')"
	fi
} | awk 'NF > 1' >"$root/harness/suites"
# make check's boot step (harness/boot.sh): harness/guest/boot-check.sh
# instead of every suite and module
if [ "${BOOT_CHECK:-0}" = 1 ]; then
	: >"$root/harness/suites"
	cp "$HARNESS_DIR/guest/boot-check.sh" "$root/harness/boot-check.sh"
fi

# What report.sh must find results for: per suite the number of results
# ftracetest gives for the files sent (twice for "flags: instance"), the
# test modules, and the KUnit suites of the options built in.
manifest=$out.manifest
{
	while read -r name files; do
		n=0
		for f in $files; do
			n=$((n + 1))
			grep -qE '^# flags:.*\binstance\b' "$root/ftrace/$f" && n=$((n + 1))
		done
		echo "suite $name $n"
	done <"$root/harness/suites"
	if [ "${BOOT_CHECK:-0}" = 1 ]; then
		echo "suite boot-$BOOT_PART $(sed -n "s/^# results-$BOOT_PART: //p" "$root/harness/boot-check.sh")"
	fi
} >"$manifest"

# Test modules: loaded one at a time by the guest ("modules" suite).
kver=$(ls "$root/lib/modules" 2>/dev/null | head -n 1)
{
	ko=lib/modules/$kver/kernel/kernel/trace/synth_event_gen_test.ko
	[ -n "$kver" ] && [ -f "$root/$ko" ] && echo "synth_event_gen_test /$ko"
	ext=$build/ext-upstream/synth_event_gen_test_upstream.ko
	if [ -f "$ext" ]; then
		mkdir -p "$root/harness/modules"
		cp "$ext" "$root/harness/modules/"
		echo "synth_event_gen_test_upstream /harness/modules/synth_event_gen_test_upstream.ko"
	fi
} | { if [ -n "${TESTS:-}" ]; then grep -E -- "$TESTS" || true; else cat; fi; } >"$root/harness/modtests"
[ "${BOOT_CHECK:-0}" = 1 ] && : >"$root/harness/modtests"
awk '{ print "module " $1 }' "$root/harness/modtests" >>"$manifest"
if [ -z "${TESTS:-}" ] && [ "$mode" = check ] && [ "${BOOT_CHECK:-0}" != 1 ]; then
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$HARNESS_DIR/config/kunit-suites.txt" |
	while read -r opt suites; do
		grep -qx "$opt=y" "$build/.config" || continue
		for k in $suites; do echo "kunit $k"; done
	done >>"$manifest"
fi

# make stress's cases (harness/stress/cases/, in whatever suite they run)
# take their helpers and test module from /harness/stress; STRESS_SHORT=1,
# the default, is the short run (make check's smoke), make stress asks for
# the full one with STRESS_SHORT=0.
mkdir -p "$root/harness/stress"
cp "$HARNESS_DIR/stress/lib.sh" "$root/harness/stress/lib.sh"
if [ -f "$build/stress-module/hist_stress.ko" ]; then
	cp "$build/stress-module/hist_stress.ko" "$root/harness/stress/"
fi
{
	echo "MODE=$mode"
	echo "BOOT_CHECK=${BOOT_CHECK:-0}"
	echo "BOOT_PART=${BOOT_PART:-}"
	echo "VARIANT=$variant"
	echo "STRESS_SHORT=${STRESS_SHORT:-1}"
	echo "FUZZ_FLAGS='${FUZZ_FLAGS:-}'"
	echo "BENCH_N=${BENCH_N:-200000}"
	echo "BENCH_PROFILE='${BENCH_PROFILE:-}'"
	echo "BENCH_SMP=${BENCH_SMP:-0}"
	echo "BENCH_MEM_ONLY=${BENCH_MEM_ONLY:-0}"
	echo "BENCH_LH_ONLY=${BENCH_LH_ONLY:-0}"
	echo "BENCH_SMP_N=${BENCH_SMP_N:-200000}"
} >"$root/harness/env"
# make fuzz: the generated script.
if [ "$mode" = fuzz ]; then
	[ -f "${FUZZ_SCRIPT:-}" ] || die "mode fuzz needs FUZZ_SCRIPT"
	cp "$FUZZ_SCRIPT" "$root/harness/fuzz.script"
fi
cp "$HARNESS_DIR/guest/init" "$root/init"
cp "$HARNESS_DIR/guest/demo.sh" "$root/harness/demo.sh"
cp "$HARNESS_DIR/guest/bench.sh" "$root/harness/bench.sh"
chmod +x "$root/init"

(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$out"
