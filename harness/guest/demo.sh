#!/bin/sh
# "make run": the wakeup-latency demo, then two single-event histograms.
#
# sched_waking keeps a timestamp per pid; sched_switch computes the
# wakeup latency of the task switched in, emits it as the synthetic event
# wakeup_latency, and keeps the worst latency per task with the context
# (onmax().save()).  A histogram on wakeup_latency shows the distribution
# per task.
echo "@@DEMO"
T=/sys/kernel/tracing
echo "== kernel $(uname -r), $(nproc) CPUs"
echo "== KUnit results from boot:"
dmesg | grep -E '^ *# (Subtest|Totals)|^ *(not )?ok [0-9]+ ' || echo "   (no KUnit suites in this kernel)"

if [ ! -e $T/events/sched/sched_switch/hist ]; then
	echo "== hist triggers are not built into this kernel yet"
	exit 0
fi

echo "== wakeup latency: sched_waking -> sched_switch into synthetic/wakeup_latency"
WT='hist:keys=pid:ts0=common_timestamp.usecs'
ST='hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($lat,next_pid,next_comm):onmax($lat).save(next_comm,prev_comm,prev_pid)'
LT='hist:keys=comm,lat.log2:sort=comm,lat'
echo 'wakeup_latency u64 lat; pid_t pid; char comm[16]' >>$T/synthetic_events
echo "$WT" >>$T/events/sched/sched_waking/trigger
echo "$ST" >>$T/events/sched/sched_switch/trigger
echo "$LT" >>$T/events/synthetic/wakeup_latency/trigger
for i in 1 2 3 4 5; do
	ping -c 2 -i 0.2 127.0.0.1 >/dev/null
	sleep 0.1
	ls -R /sys/kernel/tracing/events/sched >/dev/null
done
echo "-- per task, log2 buckets of the latency in usecs (events/synthetic/wakeup_latency/hist):"
cat $T/events/synthetic/wakeup_latency/hist
echo "-- worst latency per task with who was switched out for it (onmax().save()):"
cat $T/events/sched/sched_switch/hist
echo "!$LT" >>$T/events/synthetic/wakeup_latency/trigger
echo "!$ST" >>$T/events/sched/sched_switch/trigger
echo "!$WT" >>$T/events/sched/sched_waking/trigger
echo '!wakeup_latency' >>$T/synthetic_events

echo "== hist: which tasks exec'd and woke up most (sched events, keys=comm)"
echo 'hist:keys=comm:vals=hitcount:sort=hitcount.descending' >$T/events/sched/sched_waking/trigger
for i in 1 2 3; do ping -c 1 127.0.0.1 >/dev/null; ls / >/dev/null; done
sleep 1
cat $T/events/sched/sched_waking/hist
echo '!hist:keys=comm:vals=hitcount:sort=hitcount.descending' >$T/events/sched/sched_waking/trigger

echo "== hist: kmalloc request sizes, log2 buckets (kmem/kmalloc, keys=bytes_req.log2)"
echo 'hist:keys=bytes_req.log2:vals=hitcount,bytes_alloc:sort=bytes_req' >$T/events/kmem/kmalloc/trigger
for i in 1 2 3; do ls -R /sys/kernel/tracing/events/sched >/dev/null; done
cat $T/events/kmem/kmalloc/hist
echo '!hist:keys=bytes_req.log2:vals=hitcount,bytes_alloc:sort=bytes_req' >$T/events/kmem/kmalloc/trigger

L=$T/latency_hist
if [ -d $L ]; then
	echo "== latency_hist/: wakeup and missed timer histograms (the -rt format)"
	echo 1 >$L/enable/wakeup
	echo 1 >$L/enable/missed_timer_offsets
	[ ! -f $L/enable/preemptirqsoff ] || echo 1 >$L/enable/preemptirqsoff
	echo "-- the triggers enabling them made (events/sched/sched_switch/trigger):"
	grep -v '^#' $T/events/sched/sched_switch/trigger
	# a SCHED_FIFO task (priority 50) sleeping 40 times 2 ms, and some load
	/ftrace/latency-sleeper 40 2000 50 &
	for i in 1 2 3; do ls -R /sys/kernel/tracing/events >/dev/null; done
	wait
	for d in wakeup missed_timer_offsets; do
		for f in $L/$d/CPU*; do
			echo "-- grep -v \" 0\$\" latency_hist/$d/$(basename $f) | head -14"
			grep -v " 0$" $f | head -14
		done
		for f in $L/$d/max_latency-CPU*; do
			echo "-- latency_hist/$d/$(basename $f): $(cat $f)"
		done
	done
	# Every histogram with samples, for the host's plot (make run):
	# the header and the buckets that hold samples, between markers.
	for f in $(find $L -name 'CPU*'); do
		grep -q '^#Total samples: 0$' $f && continue
		echo "@@FILE ${f#$T/}"
		grep -v "	 *0$" $f
		echo "@@FILE-END"
	done
	[ ! -f $L/enable/preemptirqsoff ] || echo 0 >$L/enable/preemptirqsoff
	echo 0 >$L/enable/wakeup
	echo 0 >$L/enable/missed_timer_offsets
fi
