#!/bin/bash
# Differential check: run every probe of harness/differential/ on the stock
# 6.12 kernel and on ours, and compare what they dump.
#
# A probe is an ftracetest case that writes "@@DUMP-BEGIN <name>" ...
# "@@DUMP-END" to the results port (/dev/ttyS1).  IDs and error_log
# timestamps are normalized away.  Where we differ from upstream on
# purpose, <name>.expected-diff holds the differing lines ("< stock",
# "> ours"); any other difference fails.
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
	BASE=$v TESTS='^test.d/extra/' EXTRA_TESTS=$probes "$HARNESS_DIR/run.sh" check >"$out/$v.log" 2>&1 ||
		{ tail -20 "$out/$v.log" >&2; die "probes failed on the $v kernel (see $out/$v.log)"; }
	mkdir -p "$out/$v"
	awk -v dir="$out/$v" '
		/@@DUMP-BEGIN / { name = $NF; f = dir "/" name ".txt"; next }
		/@@DUMP-END/    { close(f); f = ""; next }
		f != ""         { print > f }
	' "$CACHE_DIR/logs/results-$v-check.log"
done

normalize() {
	sed -E -e 's/^ID: [0-9]+$/ID: N/' -e 's/^\[ *[0-9]+\.[0-9]+\] //' "$1"
}

same=0 differ=0
for p in "$probes"/*.tc; do
	name=$(basename "$p" .tc)
	s=$out/stock/$name.txt o=$out/ours/$name.txt
	if [ ! -s "$s" ] || [ ! -s "$o" ]; then
		say "diff: $name: no dump from one of the kernels"
		differ=$((differ + 1))
		continue
	fi
	normalize "$s" >"$out/$name.stock"
	normalize "$o" >"$out/$name.ours"
	# -a: upstream output can hold NUL bytes; never let diff call it binary.
	diff -a "$out/$name.stock" "$out/$name.ours" | grep -a '^[<>]' >"$out/$name.diff" || true
	if ! cmp -s "$out/$name.stock" "$out/$name.ours" && [ ! -s "$out/$name.diff" ]; then
		echo "< (dumps differ in a way diff does not show)" >"$out/$name.diff"
	fi
	expected=$probes/$name.expected-diff
	[ -f "$expected" ] || expected=/dev/null
	if cmp -s "$expected" "$out/$name.diff"; then
		if [ -s "$expected" ]; then
			say "diff: $name: only the known differences"
		else
			say "diff: $name: same"
		fi
		same=$((same + 1))
	else
		say "diff: $name: DIFFERS from upstream beyond $(basename "$expected"):"
		diff -a "$expected" "$out/$name.diff" | sed 's/^/    /' >&2 || true
		differ=$((differ + 1))
	fi
done
echo "differential: $same same, $differ differ"
[ "$differ" = 0 ]
