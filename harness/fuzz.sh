#!/bin/bash
# make fuzz: generated command sequences against tracefs in the guest.
#
#   fuzz.sh                 state sequences on our kernel (DEBUG=1 default)
#   DIFF=1 fuzz.sh          single-command cases on stock and ours, compared
#
# Environment: SEED (default: the time; printed), FUZZ_COUNT (operations,
# default $FUZZ_DEFAULT_COUNT), SEQ=K (replay only sequence K of SEED),
# FUZZ_FIRST (number of the first sequence, default 0), FUZZ_SMOKE=1 (the
# short run of make check: a fixed seed, then FUZZ_FRESH_COUNT operations,
# default 300, of a fresh seed, FUZZ_FRESH_SEED, default the time; both
# printed with their replay commands; non-debug unless DEBUG=1),
# FUZZ_SCRIPT=<file> (run that script instead), FUZZ_FLAGS=-v (print every
# write's result), FUZZ_BASE=stock (run the script on the stock kernel,
# DEBUG=0, to see what it does), FUZZ_OUT (where the logs go), DEBUG, NO_BUILD,
# GUEST_TIMEOUT.
#
# The generator (harness/fuzz/gen.py) writes the script on the host; the
# guest's /bin/fuzz (harness/guest/fuzz.c) runs it with a background load
# and reports what the oracle does not accept.  A run fails on any kernel
# report (KASAN, kmemleak, lockdep, UBSAN, WARNING, BUG), on a rejected
# write with no error_log entry that harness/fuzz/nolog.txt does not list,
# on state a sequence left that cannot be removed, or (DIFF=1) on a
# difference between stock and ours that harness/fuzz/compare.py does not
# list as deliberate.  Each failure names its sequence and the command to
# replay it.
. "$(dirname "$0")/lib.sh"

# All of it in one function, read before it runs: editing this file while
# a long run goes on cannot change that run.
main() {

FUZZ_DEFAULT_COUNT=10000
out=${FUZZ_OUT:-$CACHE_DIR/logs/fuzz}
mkdir -p "$out"
seed=${SEED:-$(date +%s)}
count=${FUZZ_COUNT:-$FUZZ_DEFAULT_COUNT}
debug=${DEBUG:-1}
first=${FUZZ_FIRST:-0}
# The smoke's fresh-seed part numbers its sequences from here, so that a
# sequence number says which seed it belongs to.
FRESH_FIRST=1000000
fresh=
if [ "${FUZZ_SMOKE:-0}" = 1 ]; then
	seed=${SEED:-smoke}
	count=${FUZZ_COUNT:-1500}
	debug=${DEBUG:-0}
	fresh=${FUZZ_FRESH_SEED:-$(date +%s)}
	fresh_count=${FUZZ_FRESH_COUNT:-300}
fi
gen=(python3 "$HARNESS_DIR/fuzz/gen.py" --seed "$seed")

run_guest() {	# variant debug script flags
	local tag=$1 rtag
	[ "$2" = 1 ] && tag=$tag-debug
	# runs with different FUZZ_OUT may go on at the same time
	rtag=$(printf '%s' "$out" | md5sum | cut -c1-8)
	BASE=$1 DEBUG=$2 FUZZ_SCRIPT=$3 FUZZ_FLAGS=$4 TESTS= EXTRA_TESTS= RUN_TAG=$rtag \
		"$HARNESS_DIR/run.sh" fuzz >"$out/guest-$tag.log" 2>&1 && rc=0 || rc=$?
	cp "$CACHE_DIR/logs/console-$tag-$rtag-fuzz.log" "$out/console-$tag.log"
	cp "$CACHE_DIR/logs/results-$tag-$rtag-fuzz.log" "$out/results-$tag.log"
	rm -f "$CACHE_DIR/logs/console-$tag-$rtag-fuzz.log" "$CACHE_DIR/logs/results-$tag-$rtag-fuzz.log" \
		"$CACHE_DIR/logs/initramfs-$tag-$rtag.cpio.gz"
	return $rc
}

if [ "${DIFF:-0}" = 1 ]; then
	say "fuzz: differential, seed $seed, $count cases"
	"${gen[@]}" --diff --count "$count" >"$out/diff.script"
	fail=0
	for v in stock ours; do
		say "fuzz: running the cases on the $v kernel"
		if ! run_guest "$v" 0 "$out/diff.script" -d; then
			grep -A30 'kernel reported\|did not finish' "$out/guest-$v.log" >&2 || tail -20 "$out/guest-$v.log" >&2
			fail=1
		fi
	done
	[ $fail = 0 ] || die "fuzz: a guest failed (logs in $out)"
	python3 "$HARNESS_DIR/fuzz/compare.py" "$out/diff.script" \
		"$out/results-stock.log" "$out/results-ours.log" >"$out/diff-report.txt" && rc=0 || rc=$?
	cat "$out/diff-report.txt"
	exit $rc
fi

if [ -n "${FUZZ_SCRIPT:-}" ]; then
	say "fuzz: running the script $FUZZ_SCRIPT"
	cp "$FUZZ_SCRIPT" "$out/script"
elif [ -n "${SEQ:-}" ]; then
	say "fuzz: replaying sequence $SEQ of seed $seed"
	"${gen[@]}" --seq "$SEQ" >"$out/script"
else
	replay="make fuzz SEED=$seed FUZZ_COUNT=$count DEBUG=$debug"
	[ "$first" = 0 ] || replay="$replay FUZZ_FIRST=$first"
	say "fuzz: seed $seed, $count operations (replay: $replay)"
	"${gen[@]}" --count "$count" --first "$first" >"$out/script"
	if [ -n "$fresh" ]; then
		say "fuzz: fresh seed $fresh, $fresh_count operations (replay: make fuzz SEED=$fresh FUZZ_FIRST=$FRESH_FIRST FUZZ_COUNT=$fresh_count DEBUG=$debug)"
		python3 "$HARNESS_DIR/fuzz/gen.py" --seed "$fresh" --count "$fresh_count" \
			--first "$FRESH_FIRST" >>"$out/script"
	fi
fi
base=${FUZZ_BASE:-ours}
tag=$base
[ "$debug" = 1 ] && tag=$base-debug
run_guest "$base" "$debug" "$out/script" "${FUZZ_FLAGS:-}" && grc=0 || grc=$?
results=$out/results-$tag.log console=$out/console-$tag.log

# Tie every kernel report to the sequence that was running.
reports=$(awk '
	BEGIN { re = ENVIRON["KERNEL_REPORT_RE"] }
	/fuzz: sequence [0-9]+/ { s = $0; sub(/.*fuzz: sequence /, "", s); seq = s + 0; next }
	$0 ~ re && !(seq in seen) { seen[seq] = 1; print seq }' "$console")
python3 - "$out/script" "$results" "$HARNESS_DIR/fuzz/nolog.txt" "$seed" "$reports" \
	"${fresh:-}" "$FRESH_FIRST" "$debug" <<'EOF' && prc=0 || prc=$?
import os, re, sys
script, results, nolog, seed, reports, fresh, fresh_first, debug = sys.argv[1:9]
sys.path.insert(0, os.path.dirname(nolog))
import nolog as nolog_rules
allowed = nolog_rules.load(nolog)
seqs, cur = {}, None
for line in open(script, errors='replace'):
    if line.startswith('S\t'):
        cur = int(line.split('\t')[1])
        seqs[cur] = []
    elif cur is not None:
        seqs[cur].append(line.rstrip('\n'))
bad = {}
stats = ''
nolog_ok = 0
for line in open(results, errors='replace'):
    line = line.rstrip('\n')
    if line.startswith('@@FUZZ-STATS'):
        stats = line[len('@@FUZZ-STATS '):]
    m = re.match(r'@@FUZZ-(NOLOG|ODD|UNCLEAN|FIXTURE) (-?\d+) (.*)', line)
    if not m:
        continue
    kind, seq, rest = m.group(1), int(m.group(2)), m.group(3)
    if kind == 'NOLOG':
        err, cmd = rest.split(' ', 1)
        if nolog_rules.excused(allowed, err, cmd):
            nolog_ok += 1
            continue
        rest = 'rejected (errno %s) with no error_log entry: %s' % (err, cmd)
    bad.setdefault(seq, []).append('%s: %s' % (kind.lower(), rest[:600]))
for s in reports.split():
    bad.setdefault(int(s), []).insert(0, 'kernel report in the console log during this sequence')
print('[harness] fuzz: %s' % (stats or 'no statistics (the guest did not finish)'))
print('[harness] fuzz: %d rejected writes without error_log entry, as listed in harness/fuzz/nolog.txt' % nolog_ok)
for seq in sorted(bad):
    sseed = fresh if fresh and seq >= int(fresh_first) else seed
    print('[harness] fuzz: sequence %d failed (replay: make fuzz SEED=%s SEQ=%d DEBUG=%s)' % (seq, sseed, seq, debug))
    for b in bad[seq][:10]:
        print('    ' + b)
    print('  its commands:')
    for op in seqs.get(seq, [])[:200]:
        print('    ' + op[:400])
sys.exit(1 if bad or not stats else 0)
EOF
tail -n 25 "$out/guest-$tag.log" | grep -v '^\[harness\] \(initramfs\|boot\|build\)' >&2 || true
[ "$grc" = 0 ] && [ "$prc" = 0 ] || die "fuzz: failed (logs in $out)"
say "fuzz: passed"
}
main "$@"
exit
