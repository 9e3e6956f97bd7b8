#!/bin/bash
# Self-test of the harness's result parser: a fixed console and results log
# with every kind of outcome (pass, fail, skip, xfail, unresolved, an
# unfinished suite, a kernel WARNING, a failure log that looks like a
# result) must give exactly the expected report and a failing exit code;
# json-check.py must name every broken hist.json document.
. "$(dirname "$0")/lib.sh"

d=$HARNESS_DIR/selftest
out=$(TESTS='' HARNESS_SUMMARY= HARNESS_BASE_VERSION=6.12.0 EXPECTED_SKIPS="$d/expected-skips.txt" "$HARNESS_DIR/report.sh" check "$d/console.log" "$d/results.log" "$d/kconfig" "$d/manifest") && rc=0 || rc=$?
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

# Base patches apply exactly or stop the build naming patch and hunk: each
# patch on the files it touches, as the base has them, then again with
# one context line of its first hunk changed.
base=$("$HARNESS_DIR/fetch-base.sh")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for pf in "$HARNESS_DIR"/patches/[0-9]*.patch; do
	p=$(basename "$pf")
	rm -rf "$tmp/tree" && mkdir -p "$tmp/tree"
	grep -E '^\+\+\+ ' "$pf" | sed -e 's/^+++ [^/]*\///' -e 's/[[:space:]].*//' | while read -r f; do
		[ -e "$base/$f" ] || continue
		mkdir -p "$tmp/tree/$(dirname "$f")"
		cp "$base/$f" "$tmp/tree/$f"
	done
	cp -a "$tmp/tree" "$tmp/pristine"
	# one line of context (a line starting with a blank) of the first hunk
	awk 'BEGIN { done = 0 } /^@@/ { hunk++ }
		hunk == 1 && !done && /^ [^ ]/ { print " XX-selftest" substr($0, 2); done = 1; next }
		{ print }' "$pf" >"$tmp/bad.patch"
	cmp -s "$pf" "$tmp/bad.patch" && { rm -rf "$tmp/pristine"; continue; }
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
	rm -rf "$tmp/pristine" "$tmp/$p"
done
say "selftest: base patches stop on a changed context line"
