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

echo "== hist: kmalloc request sizes, log2 buckets (kmem/kmalloc, keys=bytes_req.log2)"
echo 'hist:keys=bytes_req.log2:vals=hitcount,bytes_alloc:sort=bytes_req' >$T/events/kmem/kmalloc/trigger
for i in 1 2 3; do ls -R /sys/kernel/tracing/events/sched >/dev/null; done
cat $T/events/kmem/kmalloc/hist
echo '!hist:keys=bytes_req.log2:vals=hitcount,bytes_alloc:sort=bytes_req' >$T/events/kmem/kmalloc/trigger
