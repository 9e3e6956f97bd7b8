#!/bin/bash
# Read a guest console log and say what happened.
#   report.sh MODE CONSOLE_LOG RESULTS_LOG KERNEL_CONFIG
# Prints a result per suite, the names of failed and skipped tests, and a
# last line "N passed, N failed, N skipped".  Exits non-zero on any failure,
# on a kernel warning/splat anywhere in the log, or if the guest did not
# finish.
. "$(dirname "$0")/lib.sh"

mode=$1 log=$2 results=$3 config=$4
[ -f "$log" ] || die "no console log $log"
[ -f "$results" ] || die "no results log $results"

# hist.json documents the tests sent: valid JSON, checked on the host
json_ok=1
if [ "$mode" = check ]; then
	python3 "$HARNESS_DIR/json-check.py" "$results" || json_ok=0
fi

awk -v mode="$mode" -v config="$config" -v tests="${TESTS:-}" -v json_ok="$json_ok" '
function add(suite, name, res) {
	if (tests != "" && suite == "kunit" && name !~ tests)
		return
	if (!(suite in seen)) { order[++nsuites] = suite; seen[suite] = 1 }
	n[suite, res]++
	total[res]++
	if (res != "passed")
		names[suite, res] = names[suite, res] "\n    " name
}
BEGIN {
	while ((getline line < config) > 0)
		if (line ~ /^CONFIG_KUNIT=y/) kunit_on = 1
	bad_re = ENVIRON["KERNEL_REPORT_RE"]
}
{ sub(/\r$/, "") }
# The kernel console (first file): reports, KUnit, the end marker.
FILENAME == ARGV[1] && $0 ~ bad_re { bad[++nbad] = FNR ": " $0 }
FILENAME == ARGV[1] && /^@@DONE/ { done = 1 }
# KUnit (KTAP): test cases are the 4-space-indented results of a suite.
FILENAME == ARGV[1] && /^    # Subtest: / { ksuite = $3 }
FILENAME == ARGV[1] && /^    (not )?ok [0-9]+ / {
	line = $0
	sub(/^    /, "", line)
	res = "passed"
	if (line ~ /^not ok/) { res = "failed"; sub(/^not ok [0-9]+ /, "", line) }
	else sub(/^ok [0-9]+ /, "", line)
	if (line ~ /# SKIP/) res = "skipped"
	sub(/ # .*/, "", line)
	add("kunit", ksuite "." line, res)
	next
}
FILENAME == ARGV[1] { next }
# The results port (second file): ftracetest suites.
/^@@LOG / { in_log = 1; next }
/^@@LOG-END/ { in_log = 0; next }
in_log { next }
/^@@SUITE / { suite = $2; in_suite = 1; started[suite] = 1; if (!(suite in seen)) { order[++nsuites] = suite; seen[suite] = 1 }; next }
/^@@SUITE-END / { ended[$2] = 1; in_suite = 0; next }
in_suite && /^\[[0-9]+\].*\t\[[A-Z]+\]$/ {
	res = $0
	sub(/.*\t\[/, "", res); sub(/\]$/, "", res)
	name = $0
	sub(/\t\[[A-Z]+\]$/, "", name)
	if (res == "PASS" || res == "XFAIL") r = "passed"
	else if (res == "UNSUPPORTED" || res == "UNTESTED") r = "skipped"
	else r = "failed"
	add(suite, name, r)
}
END {
	fail = 0
	for (i = 1; i <= nsuites; i++) {
		s = order[i]
		printf "%-18s %d passed, %d failed, %d skipped\n", s ":", n[s, "passed"], n[s, "failed"], n[s, "skipped"]
		if (names[s, "failed"] != "") printf "  failed:%s\n", names[s, "failed"]
		if (names[s, "skipped"] != "") printf "  skipped:%s\n", names[s, "skipped"]
		if (s != "kunit" && !(s in ended)) {
			printf "  suite did not finish\n"
			fail = 1
		}
	}
	if (mode == "check" && kunit_on && !("kunit" in seen) && tests == "") {
		print "kunit: no KUnit results in the console log"
		fail = 1
	}
	if (!done) { print "guest did not finish (no @@DONE): crash, hang or timeout"; fail = 1 }
	if (!json_ok) { print "hist.json: invalid documents (above)"; fail = 1 }
	if (nbad) {
		print "kernel reported problems:"
		for (i = 1; i <= nbad && i <= 20; i++) print "  line " bad[i]
		fail = 1
	}
	if (mode == "check")
		printf "%d passed, %d failed, %d skipped\n", total["passed"], total["failed"] + fail, total["skipped"]
	exit (fail || total["failed"]) ? 1 : 0
}' "$log" "$results"
