#!/bin/bash
# make stress: concurrency and teardown of hist triggers, synthetic events
# and tracing_map with truly parallel vCPUs.
#   stress.sh
# Environment: DEBUG (make passes 1 unless DEBUG is given), BASE, NO_BUILD=1
# (boot the existing build), STRESS_SHORT=1 (the short run: every case a
# few seconds, the smoke make check runs), GUEST_TIMEOUT, QEMU_ACCEL.
#
# Builds the kernel (unless NO_BUILD=1) and the test module
# (harness/stress-module.sh), then runs harness/stress/cases/*.tc as the
# ftracetest suite "extra" in one guest with two vCPUs under
# multi-threaded TCG, and reports as make check does: a failed case or
# any kernel report (WARNING, BUG, KASAN, lockdep, ...) fails the run.
# The load is lseek(2) on an fd nobody has open, from a thread pinned to
# each CPU (harness/guest/hammer.c), filtered on that fd, so the cases
# count exactly what they fired, whatever else runs; and synthetic events
# fired by the module's threads, which count what they recorded.
#
# What multi-threaded TCG (QEMU 7.2) can and cannot be trusted with:
#  - Trusted: the two vCPUs are two host threads running at the same time,
#    so events really race with each other and with trigger, instance,
#    synthetic event and module teardown on the other CPU: lost or doubled
#    updates, use-after-free (KASAN under DEBUG=1), lock order (lockdep).
#  - Not trusted: code patched while another vCPU may run it.  QEMU 7.2
#    can let a vCPU run its stale translation of kernel text that the
#    other vCPU just changed; the guest then dies in a way no real CPU
#    shows, typically "Oops: int3" where a static call or static key was
#    being switched (harness/stress/textpoke/textpoke.tc crashes the stock
#    kernel so).  Tracepoints patch text when their probe count goes
#    0 <-> 1 <-> 2 (static key, static call); function tracing, kprobes
#    and alternatives patch too.  A crash in such a window says nothing
#    about our code.
#  - Not covered: memory ordering weaker than x86's.  Guest and host are
#    both x86 (TSO), so a missing barrier that only matters on arm64 or
#    powerpc stays invisible here.  Timing is not a real machine's either:
#    a vCPU thread can be descheduled by the host for milliseconds in the
#    middle of anything, which widens races (good) but makes time-based
#    kernel warnings (RCU stalls, hung tasks, watchdogs) meaningless if the
#    host is overloaded.
# Why the cases patch no text while their load runs: every case first
# turns record-cmd off (otherwise the first event enabled anywhere,
# triggers included, registers the sched_switch/sched_wakeup probes that
# record comms, and the last one disabled removes them) and enables
# sys_enter_lseek and sys_exit_lseek in two instances of its own
# (tracing_on 0: they record nothing).  Each trace array with a syscall
# event enabled registers one probe on sys_enter / sys_exit, so both
# tracepoints keep two probes or more from before the load starts until
# after it stopped: adding and removing triggers, instances and their
# events only swaps the probe array under RCU.  Synthetic events have no
# tracepoint (our implementation keeps an RCU list of the files they are
# enabled in).  Loading the module writes only its own, not yet running,
# text; unloading frees it after its threads stopped.  The only
# transitions left (the keepers' first and last probe) happen while
# nothing but the case's shell runs, with the other vCPU idle.  Each case
# checks this: kprobes on text_poke_bp_batch(), which every live patch of
# static keys, static calls, ftrace and optimized kprobes goes through,
# and on arch_static_call_transform() record into an instance of their
# own, and the case fails ("kernel text was patched while the case ran")
# if they fired between its setup and its teardown
# (harness/stress/lib.sh).
. "$(dirname "$0")/lib.sh"

variant=${BASE:-ours}
debug=${DEBUG:-1}
build=$(build_dir "$variant" "$debug")
[ -f "$build/arch/x86/boot/bzImage" ] || die "no kernel image in $build"
"$HARNESS_DIR/stress-module.sh" "$variant" "$build" >/dev/null

short=${STRESS_SHORT:-0}
# Guest limits: the full run takes about 14 minutes of guest time under
# DEBUG=1 (11 for DEBUG=0: the cases run for a fixed time), the short one
# about 80 seconds on the non-debug kernel.
if [ "$short" = 1 ]; then
	timeout=${GUEST_TIMEOUT:-600}
else
	timeout=${GUEST_TIMEOUT:-1800}
fi
say "stress: $variant kernel (debug=$debug), short=$short, multi-threaded TCG"
# Logs: $CACHE_DIR/logs/{console,results}-<variant>[-debug]-stress-check.log
# The map's KUnit cases count too: this is the one boot where two vCPUs
# really run in parallel (tmk_test_concurrent, the pending sums).
NO_BUILD=1 DEBUG=$debug STRESS_SHORT=$short GUEST_TIMEOUT=$timeout \
	QEMU_ACCEL=${QEMU_ACCEL:-tcg} QEMU_SMP=2 RUN_TAG=stress \
	TESTS='^test.d/extra/|^tracing_map\.' EXTRA_TESTS="$HARNESS_DIR/stress/cases" \
	exec "$HARNESS_DIR/run.sh" check
