#!/bin/sh
# make bench, in the guest: for every mode, set the triggers up, run
# /bin/bench and print "@@BENCH <mode> <ns per lseek>" (guest instructions
# under -icount shift=0).  harness/bench.sh compares the two kernels.
cd /sys/kernel/tracing || exit 1
. /harness/env
N=${BENCH_N:-200000}
E=events/syscalls/sys_enter_lseek
X=events/syscalls/sys_exit_lseek
K=events/kprobes/bench_comm
M='if fd == 4242'

clear() {
	for f in $X/trigger $E/trigger events/synthetic/bench_lat/trigger $K/trigger; do
		[ -f $f ] && : > $f
	done
	[ -d events/synthetic/bench_lat ] && echo '!bench_lat u64 lat' >> synthetic_events
	[ -d $K ] && echo '-:kprobes/bench_comm' >> kprobe_events
	echo 0 > events/enable
	return 0
}

run() { # mode keys trigger...
	mode=$1 keys=$2
	shift 2
	# BENCH_LH_ONLY=1: only the latency_hist groups
	[ "${BENCH_LH_ONLY:-0}" != 1 ] || return 0
	[ -z "${BENCH_PROFILE:-}" ] || [ "$BENCH_PROFILE" = "$mode" ] || return 0
	clear
	for t in "$@"; do
		case $t in
		synth:*) echo "${t#synth:}" >> synthetic_events ;;
		exit:*) echo "${t#exit:}" >> $X/trigger ;;
		lat:*) echo "${t#lat:}" >> events/synthetic/bench_lat/trigger ;;
		kprobe:*) echo "${t#kprobe:}" >> kprobe_events ;;
		kp:*) echo "${t#kp:}" >> $K/trigger ;;
		*) echo "$t" >> $E/trigger ;;
		esac || { echo "@@BENCH-ERROR $mode: $t"; cat error_log; return; }
	done
	# pipeline-2048: 2,000 more pids in the common_pid histograms
	case $mode in pipeline-2048) /bin/bench fill 2000 ;; esac
	if [ -n "${BENCH_PROFILE:-}" ]; then
		# make profile: the host single-steps one event of this mode
		echo "@@PROFILE-READY $mode"
		exec /bin/bench 2000000000 $keys
	fi
	ns=$(/bin/bench $N $keys)
	# the mode must have counted what it was meant to: every lseek (the
	# synthetic event's histogram for the pipeline), none for nomatch
	want=$N hf=$E/hist
	[ -d events/synthetic/bench_lat ] && hf=events/synthetic/bench_lat/hist
	[ -d $K ] && hf=$K/hist
	case $mode in *nomatch) want=0 ;; esac
	if [ $mode != baseline ]; then
		hits=$(grep -m1 '^    Hits:' $hf | awk '{ print $2 }')
		bad=0
		if [ $want = 0 ]; then
			[ "${hits:-0}" = 0 ] || bad=1
		else
			[ "${hits:-0}" -ge $want ] || bad=1
		fi
		if [ $bad = 1 ]; then
			echo "@@BENCH-ERROR $mode: $hf counted ${hits:-nothing}, expected $want"
			return
		fi
	fi
	if [ $mode = pipeline-2048 ]; then
		entries=$(grep -m1 '^    Entries:' $E/hist | awk '{ print $2 }')
		if [ "${entries:-0}" -lt 2001 ]; then
			echo "@@BENCH-ERROR $mode: $E/hist has ${entries:-no} entries, expected 2001"
			return
		fi
	fi
	echo "@@BENCH $mode $ns"
}

# A mode whose cost depends on where its entries land (the pids of the
# boot, the map's random hash seed) is set up and measured R times, each
# with new maps and new pids; "@@BENCH" gets the mean, "@@BENCH-ROUNDS"
# every round.
run_rounds() { # rounds mode keys trigger...
	r=$1
	shift
	[ "${BENCH_LH_ONLY:-0}" != 1 ] || return 0
	if [ -n "${BENCH_PROFILE:-}" ]; then
		run "$@"
		return
	fi
	all=
	while [ "$r" -gt 0 ]; do
		out=$(run "$@")
		case $out in
		"@@BENCH $1 "*) all="$all ${out##* }" ;;
		*) echo "$out"; return ;;
		esac
		r=$((r - 1))
	done
	echo "@@BENCH-ROUNDS $1$all"
	echo "@@BENCH $1 $(echo $all | awk '{ for (i = 1; i <= NF; i++) s += $i; printf "%.1f", s / NF }')"
}

echo 0 > tracing_on

# Memory: free memory before and after hist triggers that never fire,
# on idle syscall events: "@@BENCH-MEM label kB".  First of all modes,
# the large ones first.  Free memory is MemFree plus the pages waiting
# on the per-CPU free lists (/proc/zoneinfo's pagesets), which MemFree
# does not count: a mode freed pages there, and the next one taking them
# back would otherwise not show.
memfree() {
	awk '/^MemFree:/ { kb = $2 }
	     /^ +pagesets/ { p = 1 }
	     p && /^ +count:/ { n += $2 }
	     END { print kb + n * 4 }' /proc/meminfo /proc/zoneinfo
}
mem_idle() { # label size count [hist parameters after keys=...]
	clear
	sync
	# what the previous mode freed (some of it after an RCU grace
	# period) must not be counted against this one
	sleep 2
	before=$(memfree)
	n=0
	for d in events/syscalls/sys_enter_*; do
		case $d in *lseek) continue ;; esac
		[ $n -lt $3 ] || break
		echo "hist:keys=${4:-common_pid}:size=$2" >> $d/trigger || {
			echo "@@BENCH-ERROR mem-$1: $d"
			cat error_log
			return
		}
		n=$((n + 1))
	done
	after=$(memfree)
	echo "@@BENCH-MEM $1 $((before - after))"
	n=0
	for d in events/syscalls/sys_enter_*; do
		case $d in *lseek) continue ;; esac
		[ $n -lt $3 ] || break
		: > $d/trigger
		n=$((n + 1))
	done
}
[ -z "${BENCH_PROFILE:-}" ] && [ "${BENCH_SMP:-0}" != 1 ] &&
	[ "${BENCH_LH_ONLY:-0}" != 1 ] && {
	mem_idle 1x131072 131072 1
	# per feature, one size=131072 trigger: harness/bench.sh shows
	# bytes per entry (a field that every event has: the preempt count)
	mem_idle 1x131072+value 131072 1 "common_pid:vals=common_preempt_count"
	mem_idle 1x131072+variable 131072 1 "common_pid:v0=common_preempt_count"
	mem_idle 1x131072+stack 131072 1 "common_stacktrace"
	# quantiles take at most 8192 entries: their row compares with this
	mem_idle 1x8192+value 8192 1 "common_pid:vals=common_preempt_count"
	if [ "$VARIANT" = ours ]; then
		mem_idle x-1x131072+min-max 131072 1 \
			"common_pid:vals=common_preempt_count.min,common_preempt_count.max"
		mem_idle x-1x131072+avg 131072 1 "common_pid:vals=common_preempt_count.avg"
		mem_idle x-1x8192+quantiles 8192 1 \
			"common_pid:vals=common_preempt_count.quantiles"
	fi
	mem_idle 64x2048 2048 64
}
[ "${BENCH_MEM_ONLY:-0}" = 1 ] && exit 0

# make bench's second boot (2 vCPUs, multi-threaded TCG, real time): the
# same key hammered by one task, then by two on both CPUs, best of three
# each: "@@BENCH-SMP tasks ns" for BENCH_SMP_N lseeks per task.  The same
# first with the nomatch trigger ("@@BENCH-SMP nomatch-tasks ns"): no
# histogram update, so no shared line written, which shows what the
# emulator and the host allow.
smp_run() { # tag prefix
	for p in 1 2; do
		best=
		for _ in 1 2 3; do
			ns=$(/bin/bench procs $p $SN) || { echo "@@BENCH-ERROR smp-$1$p"; exit 0; }
			[ -z "$best" ] || [ "$ns" -lt "$best" ] && best=$ns
		done
		echo "@@BENCH-SMP $1$p $best"
	done
}
if [ "${BENCH_SMP:-0}" = 1 ]; then
	SN=${BENCH_SMP_N:-200000}
	echo "hist:keys=fd if fd == 1" >> $E/trigger
	smp_run nomatch-
	: > $E/trigger
	echo "hist:keys=fd $M" >> $E/trigger
	smp_run ""
	hits=$(grep -m1 '^    Hits:' $E/hist | awk '{ print $2 }')
	[ "${hits:-0}" -ge $((SN * 9)) ] || echo "@@BENCH-ERROR smp: counted ${hits:-nothing}, expected $((SN * 9))"
	exit 0
fi

run baseline 1
run nomatch 1 "hist:keys=fd if fd == 1"
run keys=fd 1 "hist:keys=fd $M"
run keys=common_pid,fd 1 "hist:keys=common_pid,fd $M"
run key+value 1 "hist:keys=fd:vals=offset $M"
# hitcount and two sums: the most values stock takes
run 3-values 1 "hist:keys=fd:vals=offset,whence $M"
run log2-key 64 "hist:keys=offset.log2 $M"
run expr-var 1 "hist:keys=fd:x=offset+whence*2 $M"
run ts-var 1 "hist:keys=fd:ts=common_timestamp.usecs $M"
run stacktrace-key 1 "hist:keys=common_stacktrace $M"
run 2048-keys 2048 "hist:keys=offset $M"
run pipeline 1 "synth:bench_lat u64 lat" "hist:keys=common_pid:ts0=common_timestamp.usecs $M" \
	"exit:hist:keys=common_pid:lat=common_timestamp.usecs-\$ts0:onmatch(syscalls.sys_enter_lseek).trace(bench_lat,\$lat) if ret == -9" \
	"lat:hist:keys=lat.log2"
# the same with 2,001 live entries in both common_pid tables (filled by
# 2,000 short-lived processes before the timed loop; size=4096 so that
# both kernels keep them all): the cost must not grow with the entries
run_rounds 15 pipeline-2048 1 "synth:bench_lat u64 lat" "hist:keys=common_pid:ts0=common_timestamp.usecs:size=4096 $M" \
	"exit:hist:keys=common_pid:lat=common_timestamp.usecs-\$ts0:onmatch(syscalls.sys_enter_lseek).trace(bench_lat,\$lat):size=4096 if ret == -9" \
	"lat:hist:keys=lat.log2"

# Beyond upstream (ours only; "x-" modes): the offset of 64 lseeks kept
# as minimum, maximum and average (the whence as quantiles) instead of
# (or with) the sum that key+value keeps; harness/bench.sh shows what
# they cost over key+value.
run_ours() {
	[ "$VARIANT" = ours ] && run "$@"
	return 0
}
run_ours x-min-max 64 "hist:keys=fd:vals=offset.min,offset.max $M"
run_ours x-avg 64 "hist:keys=fd:vals=offset.avg $M"
run_ours x-min-max-avg 64 "hist:keys=fd:vals=offset,offset.min,offset.max,offset.avg $M"
# quantiles take unsigned values: whence (offset is an off_t)
run_ours x-quantiles 64 "hist:keys=fd:vals=whence.quantiles $M"

# A string key: the task's comm, fetched by a kprobe on __x64_sys_lseek
# ($comm, a dynamic string; fd is pt_regs->di, 112 bytes in), compared
# with the same kprobe and a trigger that never matches ("kp-" modes
# have kp-nomatch as their nomatch).
KP='kprobe:p:kprobes/bench_comm __x64_sys_lseek comm=$comm fd=+112(%di):s32'
run kp-nomatch 1 "$KP" "kp:hist:keys=comm if fd == 1"
run kp-string-key 1 "$KP" "kp:hist:keys=comm if fd == 4242"

# Reading a histogram of K entries: filled with K distinct offsets, then
# read whole: "@@BENCH-READ K ns bytes".
read_hist() { # entries
	[ "${BENCH_LH_ONLY:-0}" != 1 ] || return 0
	clear
	echo "hist:keys=offset:size=131072 $M" >> $E/trigger
	/bin/bench $1 $1 > /dev/null
	entries=$(grep -m1 '^    Entries:' $E/hist | awk '{ print $2 }')
	if [ "$entries" != $1 ]; then
		echo "@@BENCH-ERROR read-$1: $entries entries"
		return
	fi
	echo "@@BENCH-READ $1 $(/bin/bench read $E/hist)"
}
read_hist 1024
read_hist 32768
read_hist 131072

# latency_hist/ groups (ours only): guest instructions per operation of
# a workload with nothing on its events ("off"), with the group enabled
# ("on"), and with the budget ("ref"): the same latency measured by the
# plain pipeline, one hist trigger on each event and one synthetic event
# with its histogram, in the groups' instance.  "@@BENCH-LH <group> <workload> <off> <on> <ref>";
# the workloads: bench pingpong (a round trip: two wakeups and switches
# of SCHED_FIFO tasks), bench sleep (an hrtimer that wakes the task),
# lseek (and its preempt and irq toggles, counted by
# "@@BENCH-LH-TOGGLES <preempt pairs> <irq pairs>" per lseek; the ref
# measures the irqsoff latency).
LHN=${BENCH_LH_N:-20000}
LH=latency_hist
lh_work() { # workload
	case $1 in
	lseek) /bin/bench $LHN 1 ;;
	*) /bin/bench $1 $LHN ;;
	esac
}
lh_samples() { # histogram dir: samples on all CPUs
	cat $LH/$1/CPU* | sed -n 's/^#Total samples: //p' | awk '{ s += $1 } END { print s + 0 }'
}
# The ref runs in the groups' instance (its own clock and buffer on),
# with the group disabled.
LI=instances/latency_hist
lh_unref() { # the ref's triggers, then its synthetic event ($rs)
	# the referenced triggers go once those referring to them went
	for pass in 1 2 3; do
		for t in "$@"; do : > $LI/events/${t%%:*}/trigger 2> /dev/null || :; done
	done
	echo "!$rs" >> synthetic_events
	for t in "$@"; do
		if grep -v '^#' $LI/events/${t%%:*}/trigger | grep -q .; then
			echo "@@BENCH-ERROR lh ref: left on ${t%%:*}"
		fi
	done
	if grep -q "^${rs%% *} " synthetic_events; then
		echo "@@BENCH-ERROR lh ref: ${rs%% *} left"
	fi
}
# make profile MODE=lh-<group>[-off|-ref]: the workload runs for good
# with the group on, with nothing on its events, or with the budget
lh_profile() { # ref-trigger... (g, w, rs set)
	clear
	# the instance exists once a group was enabled
	echo 1 > $LH/enable/$g && echo 0 > $LH/enable/$g ||
		{ echo "@@BENCH-ERROR lh-$g: enable"; exit 1; }
	case $BENCH_PROFILE in
	*-off) ;;
	*-ref)
		echo "$rs" >> synthetic_events
		for t in "$@"; do
			echo "${t#*:}" >> $LI/events/${t%%:*}/trigger ||
				{ echo "@@BENCH-ERROR lh-$g ref: $t"; cat error_log; exit 1; }
		done ;;
	*) echo 1 > $LH/enable/$g || { echo "@@BENCH-ERROR lh-$g: enable"; exit 1; } ;;
	esac
	echo "@@PROFILE-READY $BENCH_PROFILE"
	case $w in
	lseek) exec /bin/bench 2000000000 1 ;;
	*) exec /bin/bench $w 2000000000 ;;
	esac
}
isnum() { case $1 in ''|*[!0-9.]*) return 1 ;; esac; }
lh_mode() { # group hist workload ref-synth ref-trigger...
	g=$1 h=$2 w=$3 rs=$4
	shift 4
	case ${BENCH_PROFILE:-} in
	'') ;;
	lh-$g|lh-$g-off|lh-$g-ref) lh_profile "$@" ;;
	*) return 0 ;;
	esac
	clear
	if [ ! -f $LH/enable/$g ]; then
		echo "@@BENCH-ERROR lh-$g: no latency_hist/enable/$g"
		return
	fi
	off=$(lh_work $w)
	echo 1 > $LH/enable/$g || { echo "@@BENCH-ERROR lh-$g: enable"; return; }
	on=$(lh_work $w)
	n=$(lh_samples $h)
	echo 0 > $LH/enable/$g || { echo "@@BENCH-ERROR lh-$g: disable"; return; }
	[ "$n" -gt 0 ] || { echo "@@BENCH-ERROR lh-$g: no sample in $h"; return; }
	echo "$rs" >> synthetic_events
	for t in "$@"; do
		echo "${t#*:}" >> $LI/events/${t%%:*}/trigger ||
			{ echo "@@BENCH-ERROR lh-$g ref: $t"; cat error_log; lh_unref "$@"; return; }
	done
	ref=$(lh_work $w)
	s=${rs%% *}
	hits=$(grep -m1 '^    Hits:' $LI/events/synthetic/$s/hist | awk '{ print $2 }')
	lh_unref "$@"
	[ "${hits:-0}" -gt 0 ] || { echo "@@BENCH-ERROR lh-$g ref: nothing counted"; return; }
	isnum "$off" && isnum "$on" && isnum "$ref" ||
		{ echo "@@BENCH-ERROR lh-$g: the workload failed ($off, $on, $ref)"; return; }
	echo "@@BENCH-LH $g $w $off $on $ref"
}
if [ "$VARIANT" = ours ]; then
	lh_mode wakeup wakeup/sharedprio pingpong "bench_wlat u64 lat" \
		"sched/sched_wakeup:hist:keys=pid:bw_t0=common_timestamp if prio < 100" \
		"sched/sched_switch:hist:keys=next_pid:lat=common_timestamp-\$bw_t0:onmatch(sched.sched_wakeup).trace(bench_wlat,\$lat) if next_prio < 100" \
		"synthetic/bench_wlat:hist:keys=lat.buckets=1000"
	lh_mode missed_timer_offsets missed_timer_offsets sleep "bench_tlat s64 lat" \
		"timer/hrtimer_start:hist:keys=hrtimer:bt_t0=expires" \
		"timer/hrtimer_expire_entry:hist:keys=hrtimer:lat=now-\$bt_t0:onmatch(timer.hrtimer_start).trace(bench_tlat,\$lat)" \
		"synthetic/bench_tlat:hist:keys=lat.buckets=1000"
	if [ -d events/preemptirq ]; then
		lh_mode preemptirqsoff preemptoff lseek "bench_plat u64 lat" \
			"preemptirq/irq_disable:hist:keys=common_cpu:bp_t0=common_timestamp" \
			"preemptirq/irq_enable:hist:keys=common_cpu:lat=common_timestamp-\$bp_t0:onmatch(preemptirq.irq_disable).trace(bench_plat,\$lat)" \
			"synthetic/bench_plat:hist:keys=lat.buckets=1000"
		# the toggles of one lseek: the bench task's / its lseeks
		clear
		echo 'hist:keys=common_pid if comm == "bench"' > events/preemptirq/preempt_disable/trigger
		echo 'hist:keys=common_pid if comm == "bench"' > events/preemptirq/irq_disable/trigger
		/bin/bench $LHN 1 > /dev/null
		p=$(sed -n 's/^ *Hits: //p' events/preemptirq/preempt_disable/hist)
		i=$(sed -n 's/^ *Hits: //p' events/preemptirq/irq_disable/hist)
		if [ "${i:-0}" = 0 ]; then
			echo "@@BENCH-ERROR lh-toggles: none counted"
			tail -8 events/preemptirq/preempt_disable/hist events/preemptirq/irq_disable/hist
		fi
		: > events/preemptirq/preempt_disable/trigger
		: > events/preemptirq/irq_disable/trigger
		echo "@@BENCH-LH-TOGGLES $(awk -v p=${p:-0} -v i=$i -v n=$((LHN + LHN / 10)) 'BEGIN { printf "%.2f %.2f", p / n, i / n }')"
	fi
fi

clear
