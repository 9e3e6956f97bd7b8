#!/bin/sh
# make check's boot step, in the guest (harness/boot.sh): the kernel was
# booted with harness/boot/cmdline (BOOT_PART=cmdline) or with
# harness/boot/bootconfig (BOOT_PART=bootconfig).  Checks that what they
# set up is there, exactly, and works.  One result line per check, as
# ftracetest prints them; "@@" lines for the host.
# results-cmdline: 3
# results-bootconfig: 6
cd /sys/kernel/tracing || exit 1
n=0 rc=0 passed=0 failed=0
result() { # description, 0 (pass) or not
	n=$((n + 1))
	if [ "$2" = 0 ]; then
		printf '[%d] %s\t[PASS]\n' "$n" "$1"
		passed=$((passed + 1))
	else
		printf '[%d] %s\t[FAIL]\n' "$n" "$1"
		failed=$((failed + 1))
		rc=1
	fi
}
# the file's trigger lines, comments left out
trig() { grep -v '^#' "$1"; }
# "ok" if hist file $1 has an entry whose key $2 is $3 with a hitcount
has_key() {
	awk -v k="$2:" -v v="$3" '
		{ for (i = 1; i < NF; i++) if ($i == k && $(i + 1) == v) { print "ok"; exit } }' "$1"
}
show() { # what a failed check saw
	echo "--- $1:"
	cat "$1"
}

. /harness/env
echo "@@SUITE boot-$BOOT_PART"

case $BOOT_PART in
cmdline)
# trace_trigger= on the command line
want='hist:keys=parent_pid:vals=hitcount:sort=hitcount:size=512 [active]'
got=$(trig events/sched/sched_process_fork/trigger)
[ "$got" = "$want" ]; t=$?
result "boot - trace_trigger= sets a hist trigger on sched_process_fork, as written" $t
[ $t = 0 ] || echo "got: $got"

( : ) &
wait
[ "$(has_key events/sched/sched_process_fork/hist parent_pid $$)" = ok ]; t=$?
result "boot - the trace_trigger= histogram counts a fork after boot" $t
[ $t = 0 ] || show events/sched/sched_process_fork/hist

	;;
bootconfig)
# the synthetic event and the pipeline into it
want=$(printf 'boot_wake_lat\tpid_t pid; u64 lat')
[ "$(cat synthetic_events)" = "$want" ]; t=$?
result "boot - bootconfig defines the synthetic event boot_wake_lat" $t
[ $t = 0 ] || show synthetic_events

w='hist:keys=pid:vals=hitcount:boot_t0=common_timestamp.usecs:sort=hitcount:size=2048:clock=global [active]'
s='hist:keys=next_pid:vals=hitcount:boot_lat=common_timestamp.usecs-$boot_t0:sort=hitcount:size=2048:clock=global:onmatch(sched.sched_waking).trace(boot_wake_lat,next_pid,$boot_lat) [active]'
l='hist:keys=pid:vals=hitcount,lat:sort=pid:size=2048 [active]'
ok=0
[ "$(trig events/sched/sched_waking/trigger)" = "$w" ] || ok=1
[ "$(trig events/sched/sched_switch/trigger)" = "$s" ] || ok=1
[ "$(trig events/synthetic/boot_wake_lat/trigger)" = "$l" ] || ok=1
result "boot - bootconfig's hist triggers are set as written (keys, vars, onmatch)" $ok
if [ $ok != 0 ]; then
	show events/sched/sched_waking/trigger
	show events/sched/sched_switch/trigger
	show events/synthetic/boot_wake_lat/trigger
fi

# a task that sleeps is woken and switched to: its pid reaches the
# synthetic event's histogram through the boot-time pipeline
sleep 1 &
p=$!
wait $p
[ "$(has_key events/synthetic/boot_wake_lat/hist pid $p)" = ok ]; t=$?
result "boot - a wakeup after boot goes through the pipeline into boot_wake_lat's histogram" $t
[ $t = 0 ] || show events/synthetic/boot_wake_lat/hist

# an instance and its histogram
i=instances/boot_inst/events/sched/sched_process_exec
want='hist:keys=common_pid:vals=hitcount:sort=hitcount:size=256 [active]'
[ -d instances/boot_inst ] && [ "$(trig $i/trigger)" = "$want" ]; t=$?
result "boot - bootconfig makes the instance boot_inst with its hist trigger" $t
[ $t = 0 ] || { [ -d instances/boot_inst ] && show $i/trigger; }

/bin/busybox true &
p=$!
wait $p
[ "$(has_key $i/hist common_pid $p)" = ok ]; t=$?
result "boot - the instance's histogram counts an exec after boot" $t
[ $t = 0 ] || show $i/hist

	;;
*)
	result "boot - BOOT_PART=$BOOT_PART is known" 1
	;;
esac

# nothing of the boot's setup refused (trace_boot.c and trace_events.c
# say so on the console)
bad=$(dmesg | grep -E 'Failed to |hist[^ ]* (requires|exceeds)|CONFIG_[A-Z_]+ is not set')
[ -z "$bad" ]; t=$?
result "boot - the kernel refused nothing of the boot-time setup" $t
[ $t = 0 ] || echo "$bad"
# the totals, as ftracetest prints them (the host compares)
echo "# of passed:  $passed"
echo "# of failed:  $failed"
echo "@@SUITE-END boot-$BOOT_PART rc=$rc"
