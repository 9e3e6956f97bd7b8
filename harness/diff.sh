#!/bin/bash
# Differential check: run every probe of harness/differential/ on the stock
# kernel (of the base KERNEL names) and on ours, and compare what they dump.
#
# A probe is an ftracetest case that writes "@@DUMP-BEGIN <name>" ...
# "@@DUMP-END" to the results port (/dev/ttyS1).  IDs and error_log
# timestamps are normalized away.  Where we differ from upstream on
# purpose, <name>.expected-diff holds the differing lines ("< stock",
# "> ours"); any other difference fails (harness/diff-compare.sh).
. "$(dirname "$0")/lib.sh"

probes=$HARNESS_DIR/differential
out=$CACHE_DIR/logs/diff
kernels="stock ours"
# DIFF_REUSE_STOCK=1: keep the stock dumps of the previous run (for quick
# iterations on our side; the probes must not have changed since).
if [ "${DIFF_REUSE_STOCK:-0}" = 1 ] && [ -d "$out/stock" ]; then
	kernels=ours
	find "$out" -mindepth 1 -maxdepth 1 ! -name stock ! -name stock.log -exec rm -rf {} +
else
	rm -rf "$out"
fi
mkdir -p "$out"

for v in $kernels; do
	say "diff: running the probes on the $v kernel"
	# Its own logs (RUN_TAG), on the non-debug kernel whatever DEBUG says:
	# never the results of another run.
	results=$CACHE_DIR/logs/results-$v-diff-check.log
	rm -f "$results"
	RUN_LABEL=diff-$v RUN_TAG=diff DEBUG=0 BASE=$v TESTS='^test.d/extra/' EXTRA_TESTS=$probes \
		"$HARNESS_DIR/run.sh" check >"$out/$v.log" 2>&1 ||
		{ tail -20 "$out/$v.log" >&2; die "probes failed on the $v kernel (see $out/$v.log)"; }
	[ -s "$results" ] || die "no results from the $v kernel ($results)"
	mkdir -p "$out/$v"
	awk -v dir="$out/$v" '
		/@@DUMP-BEGIN / { name = $NF; f = dir "/" name ".txt"; next }
		/@@DUMP-END/    { close(f); f = ""; next }
		f != ""         { print > f }
	' "$results"
done

"$HARNESS_DIR/diff-compare.sh" "$probes" "$out"
