#!/bin/bash
# Read a guest console log and say what happened.
#   report.sh MODE CONSOLE_LOG RESULTS_LOG KERNEL_CONFIG
# Prints a result per suite, the names of failed and skipped tests, and a
# last line "<base version>: N passed, N failed, N skipped".  Exits non-zero on any failure,
# on a kernel warning/splat anywhere in the log, or if the guest did not
# finish.
. "$(dirname "$0")/lib.sh"

mode=$1 log=$2 results=$3 config=$4
# What was sent (initramfs.sh): "suite NAME N" (N results expected),
# "module NAME", "kunit SUITE"; empty for modes other than check.
manifest=${5:-/dev/null}
# The expected skips of the base (6.12: expected-skips.txt, else
# expected-skips-<KERNEL>.txt).
skips_file=$HARNESS_DIR/config/expected-skips.txt
[ "$KERNEL" = 6.12 ] || skips_file=$HARNESS_DIR/config/expected-skips-$KERNEL.txt
skips=${EXPECTED_SKIPS:-$skips_file}
# Upstream tests with a race of their own, passed by a rerun
racy=${RACY_TESTS:-$HARNESS_DIR/config/racy-tests.txt}
[ -f "$log" ] || die "no console log $log"
[ -f "$results" ] || die "no results log $results"
[ "$manifest" = /dev/null ] || [ -f "$manifest" ] || die "no manifest $manifest"

# hist.json documents the tests sent: valid JSON, checked on the host
json_ok=1
if [ "$mode" = check ]; then
	python3 "$HARNESS_DIR/json-check.py" "$results" || json_ok=0
fi

awk -v mode="$mode" -v config="$config" -v tests="${TESTS:-}" -v boot="${BOOT_CHECK:-0}" -v json_ok="$json_ok" \
	-v base="${HARNESS_BASE_VERSION:-unknown}" -v manifest="$manifest" -v skips="$skips" -v racy="$racy" \
	-v summary="${HARNESS_SUMMARY:-}" -v label="${RUN_LABEL:-$mode}" '
# A skip fails unless expected-skips.txt lists it (or it is pending).
function skip_ok(suite, name,   i) {
	if (suite == "pending")
		return 1
	for (i = 1; i <= nskip; i++)
		if (skip_suite[i] == suite && name ~ skip_re[i])
			return 1
	return 0
}
function add(suite, name, res) {
	if (tests != "" && suite == "kunit" && name !~ tests)
		return
	if (res == "skipped" && !skip_ok(suite, name)) {
		res = "failed"
		name = name " (skipped, not in expected-skips.txt)"
	}
	if (!(suite in seen)) { order[++nsuites] = suite; seen[suite] = 1 }
	n[suite, res]++
	total[res]++
	if (res != "passed")
		names[suite, res] = names[suite, res] "\n    " name
	if (res == "failed")
		failed[suite, ++nfailed[suite]] = name
}
# A failed test of racy-tests.txt whose file a rerun passed (the guest
# prints "@@RETRY" lines): counted as passed, and named.  The failure
# log names the file: "@@LOG suite N-file-log.X" for the result "[N] ...".
function apply_retries(   s, i, k, nm, num, f, left) {
	for (i = 1; i <= nsuites; i++) {
		s = order[i]
		left = ""
		for (k = 1; k <= nfailed[s]; k++) {
			nm = failed[s, k]
			num = nm
			sub(/^\[/, "", num); sub(/\].*/, "", num)
			f = logfile[s, num]
			if (f != "" && ((s, f) in is_racy) && ((s, f) in retry_ok)) {
				n[s, "failed"]--; total["failed"]--
				n[s, "passed"]++; total["passed"]++
				retried[s] = retried[s] "\n    " nm " (" f ", passed on rerun " retry_ok[s, f] ")"
			} else {
				left = left "\n    " nm
			}
		}
		names[s, "failed"] = left
	}
}
BEGIN {
	while ((getline line < config) > 0)
		if (line ~ /^CONFIG_KUNIT=y/) kunit_on = 1
	bad_re = ENVIRON["KERNEL_REPORT_RE"]
	while ((getline line < manifest) > 0) {
		split(line, f, " ")
		if (f[1] == "suite") { sent[f[2]] = f[3]; sent_order[++nsent] = f[2] }
		else if (f[1] == "module") modules_sent++
		else if (f[1] == "kunit") { ksent[f[2]] = 1; ksent_order[++nksent] = f[2] }
	}
	while ((getline line < racy) > 0) {
		if (line ~ /^#/ || split(line, f, "\t") < 3)
			continue
		nf = split(f[2], parts, "/")
		is_racy[f[1], parts[nf]] = 1
	}
	while ((getline line < skips) > 0) {
		if (line ~ /^#/ || line !~ /\t/)
			continue
		split(line, f, "\t")
		skip_suite[++nskip] = f[1]
		skip_re[nskip] = f[2]
	}
}
{ sub(/\r$/, "") }
# The kernel console (first file): reports, KUnit, the end marker.
FILENAME == ARGV[1] && $0 ~ bad_re { bad[++nbad] = FNR ": " $0 }
FILENAME == ARGV[1] && /^@@DONE/ { done = 1 }
# KUnit (KTAP): test cases are the 4-space-indented results of a suite,
# after its plan "    1..N"; the result of the suite itself is not indented.
FILENAME == ARGV[1] && /^    # Subtest: / { ksuite = $3; kseen[ksuite] = 1; kcases[ksuite] = 0 }
FILENAME == ARGV[1] && /^    1\.\.[0-9]+$/ { kplan[ksuite] = substr($1, 4) + 0; next }
FILENAME == ARGV[1] && /^(not )?ok [0-9]+ [^ ]/ {
	line = $0
	st = line ~ /^not ok/ ? "not ok" : "ok"
	sub(/^(not )?ok [0-9]+ /, "", line)
	skipped_suite = line ~ /# SKIP/
	sub(/ # .*/, "", line)
	kdone[line] = st
	# a whole suite skipped: only if expected-skips.txt lists the suite
	if (st == "not ok" || (skipped_suite && !skip_ok("kunit", line)))
		kbad[++nkbad] = line (skipped_suite ? " (skipped)" : " (failed outside or across its cases)")
	next
}
FILENAME == ARGV[1] && /^    (not )?ok [0-9]+ / {
	line = $0
	sub(/^    /, "", line)
	res = "passed"
	if (line ~ /^not ok/) { res = "failed"; sub(/^not ok [0-9]+ /, "", line) }
	else sub(/^ok [0-9]+ /, "", line)
	if (line ~ /# SKIP/) res = "skipped"
	sub(/ # .*/, "", line)
	kcases[ksuite]++
	add("kunit", ksuite "." line, res)
	next
}
FILENAME == ARGV[1] { next }
# The results port (second file): ftracetest suites.
/^@@LOG / {
	in_log = 1
	num = $3; sub(/-.*/, "", num)
	lf = $3; sub(/^[0-9]+-/, "", lf); sub(/-log\.[^.]*$/, "", lf)
	logfile[$2, num] = lf
	next
}
/^@@RETRY / {
	nf = split($3, parts, "/")
	if ($5 == "rc=0" && !(($2, parts[nf]) in retry_ok)) {
		att = $4; sub(/^attempt=/, "", att)
		retry_ok[$2, parts[nf]] = att
	}
	next
}
/^@@LOG-END/ { in_log = 0; next }
in_log { next }
/^@@SUITE / { suite = $2; in_suite = 1; started[suite] = 1; if (!(suite in seen)) { order[++nsuites] = suite; seen[suite] = 1 }; next }
/^@@SUITE-END / {
	ended[$2] = 1; in_suite = 0
	rc = $3; sub(/^rc=/, "", rc); src[$2] = rc + 0
	next
}
# the totals ftracetest prints, to compare with the result lines read
in_suite && /^# of [a-z()]+[a-z ()]*: +[0-9]+$/ { ftotal[suite] += $NF; has_ftotal[suite] = 1; next }
# A test that writes to this port itself (the differential probes) puts
# its output between its name and its result.
in_suite && /^\[[0-9]+\] / && !/\t\[[A-Z]+\]$/ { split_name = $0; next }
in_suite && split_name != "" && /^\t\[[A-Z]+\]$/ { $0 = split_name $0; split_name = "" }
in_suite && /^\[[0-9]+\].*\t\[[A-Z]+\]$/ {
	split_name = ""
	res = $0
	sub(/.*\t\[/, "", res); sub(/\]$/, "", res)
	name = $0
	sub(/\t\[[A-Z]+\]$/, "", name)
	if (res == "PASS" || res == "XFAIL") r = "passed"
	else if (res == "UNSUPPORTED" || res == "UNTESTED") r = "skipped"
	else r = "failed"
	add(suite, name, r)
	nres[suite]++
}
END {
	fail = 0
	apply_retries()
	for (i = 1; i <= nsuites; i++) {
		s = order[i]
		printf "%-18s %d passed, %d failed, %d skipped\n", s ":", n[s, "passed"], n[s, "failed"], n[s, "skipped"]
		if (names[s, "failed"] != "") printf "  failed:%s\n", names[s, "failed"]
		if (names[s, "skipped"] != "") printf "  skipped:%s\n", names[s, "skipped"]
		if (retried[s] != "") printf "  passed on a rerun (racy-tests.txt):%s\n", retried[s]
		if (s != "kunit" && !(s in ended)) {
			printf "  suite did not finish\n"
			fail = 1
		}
	}
	# (the boot step of make check boots without KUnit: the tests boot runs it)
	if (mode == "check" && kunit_on && !("kunit" in seen) && tests == "" && boot != 1) {
		print "kunit: no KUnit results in the console log"
		fail = 1
	}
	# Everything sent must have run, every result counted.
	for (i = 1; i <= nsent; i++) {
		s = sent_order[i]
		if (!(s in started)) {
			printf "%s: suite missing (%d tests sent, no result)\n", s, sent[s]
			fail = 1
			continue
		}
		if (nres[s] != sent[s]) {
			printf "%s: %d results for %d tests sent\n", s, nres[s] + 0, sent[s]
			fail = 1
		}
		if (s in ended && !has_ftotal[s]) {
			printf "%s: ftracetest printed no totals (aborted?)\n", s
			fail = 1
		} else if (s in ended && ftotal[s] != nres[s]) {
			printf "%s: ftracetest counted %d results, %d read\n", s, ftotal[s], nres[s] + 0
			fail = 1
		}
		if (s in ended && src[s] != 0 && n[s, "failed"] == 0 && !(retried[s] != "" && src[s] == 1)) {
			printf "%s: ftracetest exited %d with no failed test\n", s, src[s]
			fail = 1
		}
	}
	if (modules_sent && n["modules", "passed"] + n["modules", "failed"] < 2 * modules_sent) {
		printf "modules: %d results for %d modules sent\n", n["modules", "passed"] + n["modules", "failed"], modules_sent
		fail = 1
	}
	for (i = 1; i <= nksent; i++) {
		k = ksent_order[i]
		if (!(k in kseen) || !(k in kdone)) {
			printf "kunit: suite %s did not run to its end\n", k
			fail = 1
		} else if (!(k in kplan) || kplan[k] != kcases[k]) {
			printf "kunit: suite %s printed %d cases of its plan of %d\n", k, kcases[k], kplan[k]
			fail = 1
		}
	}
	for (i = 1; i <= nkbad; i++) {
		printf "kunit: suite %s\n", kbad[i]
		fail = 1
	}
	if (!done) { print "guest did not finish (no @@DONE): crash, hang or timeout"; fail = 1 }
	if (!json_ok) { print "hist.json: invalid documents (above)"; fail = 1 }
	if (nbad) {
		print "kernel reported problems:"
		for (i = 1; i <= nbad && i <= 20; i++) print "  line " bad[i]
		fail = 1
	}
	if (mode == "check") {
		printf "%s: %d passed, %d failed, %d skipped\n", base, total["passed"], total["failed"] + fail, total["skipped"]
		if (summary != "")
			printf "results %s %s %d %d %d\n", label, base, total["passed"], total["failed"] + fail, total["skipped"] >> summary
	}
	exit (fail || total["failed"]) ? 1 : 0
}' "$log" "$results"
