#!/bin/bash
# Self-test of the harness's result parser: a fixed console and results log
# with every kind of outcome (pass, fail, skip, xfail, unresolved, an
# unfinished suite, a kernel WARNING, a failure log that looks like a
# result) must give exactly the expected report and a failing exit code;
# json-check.py must name every broken hist.json document.
. "$(dirname "$0")/lib.sh"

d=$HARNESS_DIR/selftest
out=$(TESTS='' "$HARNESS_DIR/report.sh" check "$d/console.log" "$d/results.log" "$d/kconfig") && rc=0 || rc=$?
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
