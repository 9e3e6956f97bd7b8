#!/bin/bash
# Build, boot and run the guest.
#   run.sh check|run|shell
# Environment: BASE=ours|stock, DEBUG=0|1, TESTS, EXTRA_TESTS, GUEST_TIMEOUT.
. "$(dirname "$0")/lib.sh"

mode=${1:-check}
variant=${BASE:-ours}
debug=${DEBUG:-0}
build=$("$HARNESS_DIR/build.sh" "$variant" "$debug" | tail -n 1)
[ -f "$build/arch/x86/boot/bzImage" ] || die "no kernel image in $build"

tag=$variant$([ "$debug" = 1 ] && echo -debug)
logdir=$CACHE_DIR/logs
mkdir -p "$logdir"
initrd=$logdir/initramfs-$tag.cpio.gz
log=$logdir/console-$tag-$mode.log
say "initramfs: $initrd"
"$HARNESS_DIR/initramfs.sh" "$variant" "$build" "$mode" "$initrd"

mem=1024
[ "$debug" = 1 ] && mem=3072
timeout=${GUEST_TIMEOUT:-$([ "$debug" = 1 ] && echo 5400 || echo 2700)}
# KVM does not work on these machines: always TCG.
qemu=(qemu-system-x86_64 -machine pc -accel tcg -cpu max -smp 2 -m "$mem"
      -kernel "$build/arch/x86/boot/bzImage" -initrd "$initrd"
      -append "console=ttyS0 panic=-1 rdinit=/init"
      -no-reboot -nic none)

if [ "$mode" = shell ]; then
	exec "${qemu[@]}" -nographic
fi

say "boot: $tag guest, console log $log (timeout ${timeout}s)"
start=$(date +%s)
set +e
timeout --foreground -k 10 "$timeout" "${qemu[@]}" -display none -monitor none \
	-serial stdio </dev/null | tr -d '\r' | tee "$log" |
	awk -v mode="$mode" '
		/^@@SUITE /      { print "[harness] suite: " $2; fflush(); next }
		/^@@SUITE-END /  { print "[harness] suite done: " $2 " " $3; fflush(); next }
		/^@@DEMO/        { show = 1; next }
		/^@@/            { next }
		mode != "check"  { if (show) print; fflush(); next }
		/^# (Subtest|Totals)|^# .*: pass:/ { print "[harness] kunit " $0; fflush() }
	'
qrc=${PIPESTATUS[0]}
set -e
say "guest finished in $(( $(date +%s) - start ))s (qemu exit $qrc)"
[ "$qrc" = 124 ] && say "guest timed out after ${timeout}s"
"$HARNESS_DIR/report.sh" "$mode" "$log" "$build/.config"
