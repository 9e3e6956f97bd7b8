#!/bin/bash
# make bench: the cost of hist triggers on the stock kernel and ours.
#
# Builds both kernels (same config), boots each once with one vCPU and
# QEMU -icount shift=0 (a guest nanosecond is a guest instruction, so
# runs repeat) and runs harness/guest/bench.sh: per mode, the guest
# instructions of one lseek() on an fd nobody has open, with the mode's
# triggers on sys_enter_lseek (and sys_exit_lseek).  Prints one table and
# saves it in out/bench/ (BENCH_OUT):
#   whole  = mode - baseline (the event and everything it runs)
#   hist   = mode - nomatch  (beyond a hist trigger whose filter never
#            matches: the event's record and filter are shared dispatch;
#            kp- modes, on a kprobe event, against kp-nomatch)
# BENCH_N sets the lseeks per mode (default 200000).  BENCH_SMP_ONLY=1
# boots only for the 2-vCPU throughput and takes the rest from the last
# run's guest logs (the instruction counts do not depend on host load,
# the throughput does: for a second measurement on a quiet host).
# BENCH_MEM_ONLY=1 measures and prints only the memory of idle triggers.
# BENCH_LH_ONLY=1 boots only ours and prints only the latency_hist
# groups' table.
. "$(dirname "$0")/lib.sh"

outdir=${BENCH_OUT:-$REPO_DIR/out/bench}
mkdir -p "$outdir"
declare -A cost
variants="stock ours"
[ "${BENCH_LH_ONLY:-0}" != 1 ] || variants=ours
for v in $variants; do
	if [ "${NO_BUILD:-0}" != 1 ]; then
		"$HARNESS_DIR/build.sh" "$v" 0 >/dev/null
	fi
	if [ "${BENCH_SMP_ONLY:-0}" != 1 ]; then
		BASE=$v DEBUG=0 NO_BUILD=1 "$HARNESS_DIR/run.sh" bench >&2 ||
			die "the $v guest failed (see its console log)"
	fi
	results=$CACHE_DIR/logs/results-$v-bench.log
	if grep -q '^@@BENCH-ERROR' "$results"; then
		grep -A3 '^@@BENCH-ERROR' "$results" >&2
		die "a mode could not be set up on $v"
	fi
	while read -r _ mode ns; do
		cost[$v,$mode]=$ns
	done < <(grep '^@@BENCH ' "$results")
	while read -r _ k ns bytes; do
		cost[$v,read$k]=$ns
		cost[$v,bytes$k]=$bytes
	done < <(grep '^@@BENCH-READ ' "$results")
	while read -r _ label kb; do
		cost[$v,mem$label]=$kb
	done < <(grep '^@@BENCH-MEM ' "$results")
	[ "${BENCH_LH_ONLY:-0}" = 1 ] && continue
	[ "${BENCH_MEM_ONLY:-0}" = 1 ] || [ -n "${cost[$v,baseline]:-}" ] ||
		die "no results from the $v guest"
	[ -n "${cost[$v,mem1x131072]:-}" ] || die "no memory results from the $v guest"
done

memory_table() {
	echo "memory (free memory drop, kB) of hist triggers on events that never fire;"
	echo "per entry (B/e): the drop of one trigger of size=N (1xN) / N (+value: vals=a"
	echo "field; +variable: a variable of it; +stack: keys=common_stacktrace)"
	printf '%-26s %9s %9s %7s %10s %10s\n' triggers stock ours ratio "stock B/e" "ours B/e"
	for l in $(grep '^@@BENCH-MEM ' "$CACHE_DIR/logs/results-stock-bench.log" | awk '{ print $2 }'); do
		awk -v l="$l" -v s="${cost[stock,mem$l]}" -v o="${cost[ours,mem$l]:-0}" 'BEGIN {
			n = l ~ /^1x[0-9]+/ ? substr(l, 3) + 0 : 0
			printf "%-26s %9d %9d %7.2f %10s %10s\n", l, s, o, (s > 0 ? o / s : 0),
				n ? sprintf("%.1f", s * 1024 / n) : "-",
				n ? sprintf("%.1f", o * 1024 / n) : "-"
		}'
	done
	echo "ours only: values keeping minima and maxima, averages, quantiles (per entry,"
	echo "over the +value trigger of the same size)"
	printf '%-26s %9s %10s %14s\n' triggers ours "ours B/e" "over +value"
	for l in $(grep '^@@BENCH-MEM x-' "$CACHE_DIR/logs/results-ours-bench.log" | awk '{ print $2 }'); do
		n=$(echo "$l" | sed -E 's/^x-1x([0-9]+).*/\1/')
		awk -v l="$l" -v n="$n" -v o="${cost[ours,mem$l]}" -v v="${cost[ours,mem1x${n}+value]}" 'BEGIN {
			printf "%-26s %9d %10.1f %+12.1f B\n", l, o, o * 1024 / n, (o - v) * 1024 / n
		}'
	done
}
lh_table() {
	echo "latency_hist groups (ours only): guest instructions per operation of a workload,"
	echo "the group off and on, and its budget (ref): the same latency from one plain hist"
	echo "trigger on each event and one synthetic event with its histogram.  per event:"
	echo "wakeup per wakeup and switch (2 a round trip), missed_timer_offsets per hrtimer,"
	echo "preemptirqsoff per preempt or irq off/on pair (ref: irqsoff only, per irq pair)"
	printf '%-22s %-9s %9s %9s %9s %9s %9s %7s\n' group workload off on ref \
		"on/event" "ref/event" goal
	toggles=$(grep -m1 '^@@BENCH-LH-TOGGLES ' "$CACHE_DIR/logs/results-ours-bench.log" | cut -d' ' -f2-)
	grep '^@@BENCH-LH ' "$CACHE_DIR/logs/results-ours-bench.log" |
		while read -r _ g w off on ref; do
			awk -v g="$g" -v w="$w" -v off="$off" -v on="$on" -v ref="$ref" \
				-v t="${toggles:-0 0}" 'BEGIN {
				split(t, tp, " ")
				if (w == "pingpong") { ne = 2; nr = 2 }
				else if (w == "sleep") { ne = 1; nr = 1 }
				else { ne = tp[1] + tp[2]; nr = tp[2] }
				pe = ne > 0 ? (on - off) / ne : 0
				pr = nr > 0 ? (ref - off) / nr : 0
				printf "%-22s %-9s %9.1f %9.1f %9.1f %9.1f %9.1f %7s\n", g, w, off, on, ref,
					pe, pr, pe <= pr ? "met" : "MISSED"
			}'
		done
	[ -z "$toggles" ] || echo "(an lseek: $(echo $toggles | cut -d' ' -f1) preempt and $(echo $toggles | cut -d' ' -f2) irq off/on pairs)"
}
if [ "${BENCH_LH_ONLY:-0}" = 1 ]; then
	grep -q '^@@BENCH-LH ' "$CACHE_DIR/logs/results-ours-bench.log" ||
		die "no latency_hist results from the guest"
	table=$outdir/bench-lh-$(date -u +%Y%m%d-%H%M%S).txt
	lh_table | tee "$table"
	say "bench: saved in $table"
	exit 0
fi
if [ "${BENCH_MEM_ONLY:-0}" = 1 ]; then
	table=$outdir/bench-mem-$(date -u +%Y%m%d-%H%M%S).txt
	memory_table | tee "$table"
	say "bench: saved in $table"
	exit 0
fi

# The throughput boot: 2 vCPUs, multi-threaded TCG, real time.
for v in stock ours; do
	BASE=$v DEBUG=0 NO_BUILD=1 RUN_TAG=smp BENCH_SMP=1 QEMU_SMP=2 \
		QEMU_ACCEL=tcg,thread=multi "$HARNESS_DIR/run.sh" bench >&2 ||
		die "the $v guest failed (see its console log)"
	results=$CACHE_DIR/logs/results-$v-smp-bench.log
	if grep -q '^@@BENCH-ERROR' "$results"; then
		grep -A3 '^@@BENCH-ERROR' "$results" >&2
		die "the throughput run failed on $v"
	fi
	while read -r _ p ns; do
		cost[$v,smp$p]=$ns
	done < <(grep '^@@BENCH-SMP ' "$results")
	[ -n "${cost[$v,smp2]:-}" ] || die "no throughput results from the $v guest"
done

table=$outdir/bench-$(date -u +%Y%m%d-%H%M%S).txt
{
	echo "make bench: guest instructions per lseek() (QEMU -icount shift=0, 1 vCPU), $(date -u +%F)"
	echo "whole = mode - baseline; hist = mode - nomatch (ratio: ours / stock)"
	echo
	printf '%-18s %10s %10s %10s %10s %10s %7s %7s\n' mode stock ours \
		"stock-whl" "ours-whl" "ours-hist" whole hist
	for mode in $(grep '^@@BENCH ' "$CACHE_DIR/logs/results-stock-bench.log" | awk '{ print $2 }'); do
		# kp- modes (a kprobe event) have their own nomatch
		nm=nomatch
		case $mode in kp-*) nm=kp-nomatch ;; esac
		awk -v m="$mode" -v s="${cost[stock,$mode]}" -v o="${cost[ours,$mode]:-nan}" \
			-v sb="${cost[stock,baseline]}" -v ob="${cost[ours,baseline]}" \
			-v sn="${cost[stock,$nm]}" -v on="${cost[ours,$nm]}" 'BEGIN {
			sw = s - sb; ow = o - ob; sh = s - sn; oh = o - on
			rw = sw > 0 ? sprintf("%.2f", ow / sw) : "-"
			rh = (sh > 0 && m !~ /nomatch$/) ? sprintf("%.2f", oh / sh) : "-"
			printf "%-18s %10.1f %10.1f %10.1f %10.1f %10s %7s %7s\n", m, s, o, sw, ow,
				m == "baseline" ? "-" : sprintf("%.1f", oh), rw, rh
		}'
	done
	# modes measured in rounds (each with new maps and pids): their spread
	for v in stock ours; do
		grep '^@@BENCH-ROUNDS ' "$CACHE_DIR/logs/results-$v-bench.log" |
			while read -r _ m r; do
				echo "$m on $v: mean of rounds $r"
			done
	done
	echo
	echo "beyond upstream (ours only): .min/.max/.avg/.quantiles values, and their cost over"
	echo "key+value (the same trigger summing offset: vals=offset)"
	printf '%-18s %10s %10s %10s\n' mode ours ours-hist "over k+v"
	for mode in $(grep '^@@BENCH x-' "$CACHE_DIR/logs/results-ours-bench.log" | awk '{ print $2 }'); do
		awk -v m="$mode" -v o="${cost[ours,$mode]}" -v on="${cost[ours,nomatch]}" \
			-v kv="${cost[ours,key+value]}" 'BEGIN {
			printf "%-18s %10.1f %10.1f %+10.1f\n", m, o, o - on, o - kv
		}'
	done
	echo
	lh_table
	echo
	echo "reading hist (guest instructions for the whole file, and per entry)"
	printf '%-18s %14s %14s %10s %10s %7s\n' entries stock ours stock/ent ours/ent ratio
	for k in $(grep '^@@BENCH-READ ' "$CACHE_DIR/logs/results-stock-bench.log" | awk '{ print $2 }'); do
		awk -v k="$k" -v s="${cost[stock,read$k]}" -v o="${cost[ours,read$k]:-0}" 'BEGIN {
			printf "%-18s %14.0f %14.0f %10.0f %10.0f %7.2f\n", k, s, o, s / k, o / k, o / s
		}'
	done
	echo
	memory_table
	echo
	echo "same key (keys=fd), 2 vCPUs, multi-threaded TCG, real time (NOISY: host load shows)"
	echo "speedup = events/s of two tasks on two CPUs / events/s of one task;"
	echo "nomatch: the same with a trigger that never matches (no shared line written)"
	printf '%-18s %14s %14s\n' kernel "1 task (ns)" "2 tasks (ns)"
	for v in stock ours; do
		for t in "" nomatch-; do
			awk -v v="$v${t:+ ${t%-}}" -v a="${cost[$v,smp${t}1]:-0}" \
				-v b="${cost[$v,smp${t}2]:-1}" 'BEGIN {
				printf "%-18s %14d %14d   speedup %.2f\n", v, a, b, 2 * a / b
			}'
		done
	done
} | tee "$table"
say "bench: saved in $table"
