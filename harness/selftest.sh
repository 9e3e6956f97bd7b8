#!/bin/bash
# Self-test of the harness's result parser: a fixed console and results log
# with every kind of outcome (pass, fail, skip, xfail, unresolved, an
# unfinished suite, a kernel WARNING, a failure log that looks like a
# result) must give exactly the expected report and a failing exit code.
. "$(dirname "$0")/lib.sh"

d=$HARNESS_DIR/selftest
out=$(TESTS='' "$HARNESS_DIR/report.sh" check "$d/console.log" "$d/results.log" "$d/kconfig") && rc=0 || rc=$?
if [ "$rc" = 0 ]; then
	die "selftest: report.sh passed a run with failures"
fi
if ! diff -u "$d/expected.txt" <(echo "$out") >&2; then
	die "selftest: report.sh output differs from harness/selftest/expected.txt"
fi
say "selftest: report parser ok"
