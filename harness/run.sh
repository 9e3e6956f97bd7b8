#!/bin/bash
# Build, boot and run the guest.
#   run.sh check|run|shell|bench
# Environment: BASE=ours|stock, DEBUG=0|1, TESTS, EXTRA_TESTS, GUEST_TIMEOUT,
# NO_BUILD=1 (boot the existing build), QEMU_ACCEL, QEMU_SMP, RUN_TAG;
# BOOT_CHECK, BOOT_ARGS, BOOTCONFIG, BOOTCONFIG_TOOL: see harness/boot.sh.
. "$(dirname "$0")/lib.sh"

mode=${1:-check}
"$HARNESS_DIR/fetch-base.sh" >/dev/null
base_banner
HARNESS_BASE_VERSION=$(base_version)
export HARNESS_BASE_VERSION
[ "$mode" = check ] && "$HARNESS_DIR/selftest.sh"
variant=${BASE:-ours}
debug=${DEBUG:-0}
build=$(build_dir "$variant" "$debug")
[ -f "$build/arch/x86/boot/bzImage" ] || die "no kernel image in $build"

tag=$variant
[ "$debug" = 1 ] && tag=$tag-debug
# RUN_TAG keeps the logs of concurrent runs apart (make fuzz uses it).
[ -n "${RUN_TAG:-}" ] && tag=$tag-$RUN_TAG
logdir=$CACHE_DIR/logs
mkdir -p "$logdir"
initrd=$logdir/initramfs-$tag.cpio.gz
log=$logdir/console-$tag-$mode.log
say "initramfs: $initrd"
"$HARNESS_DIR/initramfs.sh" "$variant" "$build" "$mode" "$initrd"

mem=1024
[ "$debug" = 1 ] && mem=3072
timeout=${GUEST_TIMEOUT:-2700}
[ "$debug" = 1 ] && timeout=${GUEST_TIMEOUT:-5400}
# KVM does not work on these machines: always TCG.  Single-threaded TCG:
# QEMU 7.2's multi-threaded TCG lets a vCPU run stale code after another
# one patched it (an "Oops: int3" at a static call site being switched,
# reproduced on the stock kernel under trigger churn); both vCPUs still
# interleave.  QEMU_ACCEL=tcg brings multi-threaded TCG back.
# make bench: one vCPU and -icount shift=0, so a guest nanosecond is one
# guest instruction and timings repeat.
smp=${QEMU_SMP:-2}
icount=()
# BENCH_SMP=1: make bench's throughput boot, 2 vCPUs in real time.
if [ "$mode" = bench ] && [ "${BENCH_SMP:-0}" != 1 ]; then
	smp=1
	icount=(-icount shift=0)
fi
# oops=panic: a kernel that oopsed can hang the rest of the run on a lock
# it held (stock 7.3 did, for 45 minutes): the guest stops at once, and
# the Oops in the console log fails the run.  OOPS_PANIC=0 lets the run go
# on after an oops (a BASE=stock run through tests that crash stock).
oops=oops=panic
[ "${OOPS_PANIC:-1}" = 0 ] && oops=
# make bench: no KUnit at boot.  Its suites create and free maps and
# triggers (latency_hist enables a whole group), which leaves free memory
# in slabs and per-CPU lists that the memory mode would then not see.
kargs=
[ "$mode" = bench ] && kargs=kunit.enable=0
# The stress boot (two vCPUs really in parallel) counts only the map's
# KUnit cases: it runs only those.  The other suites' enabling and
# disabling of tracepoints there once met an int3 left in place by the
# emulator after a completed text_poke_bp() (an Oops in
# ttwu_do_activate, on the vCPU that had just patched it).
[ "${RUN_TAG:-}" = stress ] && kargs="kunit.filter_glob=tracing_map*"
# make check's boot step (harness/boot.sh): its kernel arguments, and a
# bootconfig appended to a copy of the initramfs; no KUnit there, the
# tests boot runs it
boot_initrd=$initrd
if [ -n "${BOOTCONFIG:-}" ]; then
	boot_initrd=$initrd.boot
	cp "$initrd" "$boot_initrd"
	"${BOOTCONFIG_TOOL:?}" -a "$BOOTCONFIG" "$boot_initrd" >/dev/null ||
		die "cannot append $BOOTCONFIG to the initramfs"
	kargs="$kargs bootconfig"
fi
[ "${BOOT_CHECK:-0}" = 1 ] && kargs="$kargs kunit.enable=0 ${BOOT_ARGS:-}"
qemu=(qemu-system-x86_64 -machine pc -accel "${QEMU_ACCEL:-tcg,thread=single}" -cpu max -smp "$smp" "${icount[@]}" -m "$mem"
      -kernel "$build/arch/x86/boot/bzImage" -initrd "$boot_initrd"
      -append "console=ttyS0 $oops $kargs panic=-1 rdinit=/init"
      -no-reboot -nic none)
# make profile: a gdb stub on localhost
[ -n "${QEMU_GDB_PORT:-}" ] && qemu+=(-gdb "tcp:127.0.0.1:$QEMU_GDB_PORT")

if [ "$mode" = shell ]; then
	exec "${qemu[@]}" -nographic
fi

results=$logdir/results-$tag-$mode.log
say "boot: $tag guest, console log $log (timeout ${timeout}s)"
start=$(date +%s)
# Every log starts by naming the base and the kernel it is a log of.
header="@@BASE Linux $HARNESS_BASE_VERSION ($variant, debug=$debug, $mode)"
echo "$header" >"$log"
echo "$header" >"$results"
set +e
# ttyS0: kernel console (for KUnit and kernel reports); ttyS1: test results.
timeout --foreground -k 10 "$timeout" "${qemu[@]}" -display none -monitor none \
	-chardev "file,id=con0,path=$log,append=on" -serial chardev:con0 \
	-serial stdio </dev/null | stdbuf -o0 tr -d '\r' | tee -a "$results" |
	awk -v mode="$mode" '
		/^@@SUITE /      { print "[harness] suite: " $2; fflush(); next }
		/^@@SUITE-END /  { print "[harness] suite done: " $2 " " $3; fflush(); next }
		/^@@LOG /        { print "[harness] log of " $2 " " $3 ":"; show = 1; next }
		/^@@LOG-END/     { show = 0; next }
		/^@@FILE /       { file = 1; next }
		/^@@FILE-END/    { file = 0; next }
		file             { next }
		/^@@/            { next }
		/^\[[0-9]+\]/   { print "  " $0; fflush(); next }
		show || mode != "check" { print "  " $0; fflush() }
	'
qrc=${PIPESTATUS[0]}
set -e
say "guest finished in $(( $(date +%s) - start ))s (qemu exit $qrc)"
[ "$qrc" = 124 ] && say "guest timed out after ${timeout}s"
manifest=/dev/null
[ "$mode" = check ] && manifest=$initrd.manifest
"$HARNESS_DIR/report.sh" "$mode" "$log" "$results" "$build/.config" "$manifest"
[ "$mode" = run ] && "$HARNESS_DIR/run-plot.sh" "$results"
exit 0
