#!/bin/bash
# The last lines of make check and make check-debug: every step that
# passed and the test results of all of them, summed.
#   summary.sh SUMMARY-FILE
# The file holds "step NAME" for each step that passed and "results LABEL
# BASE PASSED FAILED SKIPPED" for each run report.sh counted.
. "$(dirname "$0")/lib.sh"

f=$1
[ -f "$f" ] || die "no summary file $f"
awk '
$1 == "step"    { steps = steps (steps ? ", " : "") $2 }
$1 == "results" { base = $3; p += $4; fl += $5; s += $6
		  runs = runs (runs ? ", " : "") $2 " " $4 "/" $5 "/" $6 }
END {
	printf "[harness] summary: steps passed: %s\n", steps
	printf "[harness] summary: results (passed/failed/skipped): %s\n", runs
	printf "%s: %d passed, %d failed, %d skipped\n", base ? base : "unknown", p, fl, s
	exit fl ? 1 : 0
}' "$f"
