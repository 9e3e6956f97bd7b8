#!/bin/bash
# Self-test of the harness's result parser: a fixed console and results log
# with every kind of outcome (pass, fail, skip, xfail, unresolved, an
# unfinished suite, a KUnit suite skipped whole with and without its
# declaration, a kernel WARNING, a KASAN use-after-free, a kmemleak
# leak, a failure log that looks like a result, a racy test passed or
# not by its rerun) must give exactly the
# expected report and a failing exit code;
# json-check.py must name every broken hist.json document; the fuzz
# oracle's nolog rules must decide each of their cases as listed; the
# latency_hist plot must draw what it reads.
. "$(dirname "$0")/lib.sh"

d=$HARNESS_DIR/selftest
out=$(TESTS='' HARNESS_SUMMARY= HARNESS_BASE_VERSION=6.12.0 EXPECTED_SKIPS="$d/expected-skips.txt" RACY_TESTS="$d/racy-tests.txt" "$HARNESS_DIR/report.sh" check "$d/console.log" "$d/results.log" "$d/kconfig" "$d/manifest") && rc=0 || rc=$?
if [ "$rc" = 0 ]; then
	die "selftest: report.sh passed a run with failures"
fi
if ! diff -u "$d/expected.txt" <(echo "$out") >&2; then
	die "selftest: report.sh output differs from harness/selftest/expected.txt"
fi
# hist.json documents: broken ones are named, a good one passes
out=$(python3 "$HARNESS_DIR/json-check.py" "$d/json-bad.log") &&
	die "selftest: json-check.py passed broken documents"
if ! diff -u "$d/json-bad.expected" <(echo "$out") >&2; then
	die "selftest: json-check.py output differs from harness/selftest/json-bad.expected"
fi
python3 "$HARNESS_DIR/json-check.py" "$d/json-good.log" >/dev/null ||
	die "selftest: json-check.py refused a valid document"
say "selftest: report parser ok"

# The fuzz oracle's list of rejections stock leaves unlogged: each case of
# nolog-cases.txt is excused or not exactly as it says.
python3 "$HARNESS_DIR/fuzz/nolog.py" "$HARNESS_DIR/fuzz/nolog.txt" "$d/nolog-cases.txt" >&2 ||
	die "selftest: harness/fuzz/nolog.txt decides a case of harness/selftest/nolog-cases.txt otherwise"
say "selftest: fuzz nolog rules ok"

# The latency_hist plot (tools/tracing/latency_hist/): its axes, one line
# per type and CPU with samples, a PNG, a malformed file refused.  With
# Debian's python and matplotlib.
"$HARNESS_DIR/host-deps.sh" python3-matplotlib
/usr/bin/python3 "$HARNESS_DIR/latency-plot-check.py" >/dev/null ||
	die "selftest: tools/tracing/latency_hist/latency-hist-plot.py (above)"
say "selftest: latency plot ok"

# Differential probes: the same dump, or one that differs only as its
# expected-diff (or its base's expected-diff-<KERNEL>) says, passes; an output that changed, or a probe with no
# dump, fails.
dt=$(mktemp -d)
mkdir -p "$dt/probes" "$dt/out/stock" "$dt/out/ours"
for p in same known changed nodump perkernel; do : >"$dt/probes/$p.tc"; done
printf 'ID: 12\nhitcount: 3\n' >"$dt/out/stock/same.txt"
printf 'ID: 40\nhitcount: 3\n' >"$dt/out/ours/same.txt"
printf 'a\nstock says\n' >"$dt/out/stock/known.txt"
printf 'a\nours says\n' >"$dt/out/ours/known.txt"
printf '< stock says\n> ours says\n' >"$dt/probes/known.expected-diff"
printf 'hitcount: 3\n' >"$dt/out/stock/changed.txt"
printf 'hitcount: 4\n' >"$dt/out/ours/changed.txt"
printf 'x\n' >"$dt/out/stock/nodump.txt"
# a base's own list of differences replaces the shared one
printf 'b\nstock %s says\n' "$KERNEL" >"$dt/out/stock/perkernel.txt"
printf 'b\nours says\n' >"$dt/out/ours/perkernel.txt"
printf '< stock says\n> ours says\n' >"$dt/probes/perkernel.expected-diff"
printf '< stock %s says\n> ours says\n' "$KERNEL" >"$dt/probes/perkernel.expected-diff-$KERNEL"
out=$(HARNESS_SUMMARY= "$HARNESS_DIR/diff-compare.sh" "$dt/probes" "$dt/out" 2>&1) &&
	{ rm -rf "$dt"; die "selftest: diff-compare.sh passed a changed probe output"; }
rm -rf "$dt"
want='[harness] diff: changed: DIFFERS from upstream beyond null:
    0a1,2
    > < hitcount: 3
    > > hitcount: 4
[harness] diff: known: only the known differences
[harness] diff: nodump: no dump from one of the kernels
[harness] diff: perkernel: only the known differences
[harness] diff: same: same
differential: 3 same, 2 differ'
if [ "$out" != "$want" ]; then
	diff -u <(echo "$want") <(echo "$out") >&2
	die "selftest: diff-compare.sh output differs from what the selftest expects"
fi
say "selftest: differential comparison ok"

# A feature whose project file is gone fails the build's configuration
# (its option is never quietly left off), and every option of
# features.txt is on when the files are all there.
out=$( (REPO_DIR=$(mktemp -d); trap 'rm -rf "$REPO_DIR"' EXIT
	(cd "$HARNESS_DIR/.." && git ls-files -- kernel samples) | while read -r f; do
		[ "$f" = kernel/trace/trace_latency_hist.c ] && continue
		mkdir -p "$REPO_DIR/$(dirname "$f")" && : >"$REPO_DIR/$f"
	done
	features_config ours /nonexistent) 2>&1) &&
	die "selftest: the build configured a feature whose file is missing"
case $out in
*"CONFIG_LATENCY_HIST needs kernel/trace/trace_latency_hist.c, which the repository does not have"*) ;;
*) die "selftest: a missing feature file did not stop the configuration: $out" ;;
esac
want=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$HARNESS_DIR/config/features.txt" | awk '{ print $1 "=" $2 }')
[ "$(features_config ours /nonexistent)" = "$want" ] ||
	die "selftest: features_config does not turn every feature on"
say "selftest: a missing feature file stops the build"

# Base patches apply exactly or stop the build naming patch and hunk: in
# series order, on the files they touch as the base has them with the
# patches before applied, each patch with one context line of its first
# hunk changed must fail and leave the tree as it was; then the patch
# itself must apply exactly.
base=$("$HARNESS_DIR/fetch-base.sh")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
series=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PATCH_DIR/series")
mkdir -p "$tmp/tree"
for p in $series; do
	grep -E '^\+\+\+ ' "$PATCH_DIR/$p" | sed -e 's/^+++ [^/]*\///' -e 's/[[:space:]].*//'
done | sort -u | while read -r f; do
	[ -e "$base/$f" ] || continue
	mkdir -p "$tmp/tree/$(dirname "$f")"
	cp "$base/$f" "$tmp/tree/$f"
done
for p in $series; do
	pf=$PATCH_DIR/$p
	rm -rf "$tmp/pristine"
	cp -a "$tmp/tree" "$tmp/pristine"
	# one line of context (a line starting with a blank) of the first hunk
	awk 'BEGIN { done = 0 } /^@@/ { hunk++ }
		hunk == 1 && !done && /^ [^ ]/ { print " XX-selftest" substr($0, 2); done = 1; next }
		{ print }' "$pf" >"$tmp/bad.patch"
	if ! cmp -s "$pf" "$tmp/bad.patch"; then
		cp "$tmp/bad.patch" "$tmp/$p"
		if out=$( (apply_base_patch "$tmp/tree" "$tmp/$p") 2>&1); then
			die "selftest: $p applied with a changed context line"
		fi
		case $out in
		*"patch $p does not apply exactly"*"Hunk #1 FAILED"*|*"Hunk #1 FAILED"*"patch $p does not apply exactly"*) ;;
		*) die "selftest: a changed context line of $p did not name the patch and hunk: $out" ;;
		esac
		diff -r "$tmp/pristine" "$tmp/tree" >/dev/null ||
			die "selftest: a failed $p left the tree changed"
		rm -f "$tmp/$p"
	fi
	apply_base_patch "$tmp/tree" "$pf"
done
say "selftest: base patches stop on a changed context line"
