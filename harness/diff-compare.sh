#!/bin/bash
# Compare the differential probes' dumps of the two kernels.
#
#   diff-compare.sh PROBES OUT
#
# PROBES holds the probes (<name>.tc) and their deliberate differences
# (<name>.expected-diff: the differing lines, "< stock" and "> ours";
# <name>.expected-diff-<KERNEL>, if there is one, for that base instead);
# OUT/stock/<name>.txt and OUT/ours/<name>.txt are what each kernel
# dumped.  IDs and error_log timestamps are normalized away.  A probe
# passes when its dumps differ in exactly the listed lines; a missing or
# empty dump, or any other difference, fails.  Prints one line per probe
# and "differential: N same, N differ" (and adds that to HARNESS_SUMMARY,
# if set); exits 1 if one differs.
. "$(dirname "$0")/lib.sh"

probes=$1 out=$2

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
	# KERNEL=7.3's upstream differs from 6.12's: its own list first
	expected=$probes/$name.expected-diff-$KERNEL
	[ -f "$expected" ] || expected=$probes/$name.expected-diff
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
# make check's summary: each probe compared is one result
if [ -n "${HARNESS_SUMMARY:-}" ]; then
	echo "results differential $(base_version) $same $differ 0" >>"$HARNESS_SUMMARY"
fi
[ "$differ" = 0 ]
