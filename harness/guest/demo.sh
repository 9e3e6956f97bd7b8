#!/bin/sh
# "make run": show what the kernel's hist support does today.  Later work
# turns this into the latency-histogram demo.
echo "@@DEMO"
T=/sys/kernel/tracing
echo "== kernel $(uname -r), $(nproc) CPUs"
echo "== KUnit results from boot:"
dmesg | grep -E '^ *# (Subtest|Totals)|^ *(not )?ok [0-9]+ ' || echo "   (no KUnit suites in this kernel)"

if [ ! -e $T/events/sched/sched_switch/hist ]; then
	echo "== hist triggers are not built into this kernel yet"
	exit 0
fi

echo "== hist: which tasks exec'd and woke up most (sched events, keys=comm)"
echo 'hist:keys=comm:vals=hitcount:sort=hitcount.descending' >$T/events/sched/sched_waking/trigger
for i in 1 2 3; do ping -c 1 127.0.0.1 >/dev/null; ls / >/dev/null; done
sleep 1
cat $T/events/sched/sched_waking/hist
echo '!hist:keys=comm:vals=hitcount:sort=hitcount.descending' >$T/events/sched/sched_waking/trigger

echo "== hist: trace_marker strings as keys"
echo 'hist:keys=buf' >$T/events/ftrace/print/trigger
for w in alpha beta beta gamma gamma gamma; do echo $w >$T/trace_marker; done
cat $T/events/ftrace/print/hist
echo '!hist:keys=buf' >$T/events/ftrace/print/trigger
