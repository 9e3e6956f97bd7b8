#!/bin/bash
# make profile MODE=<bench mode> [BASE=stock]: where one event's
# instructions go.  MODE=lh-<group>, lh-<group>-off, lh-<group>-ref: a
# latency_hist group's workload with the group on, off, or its budget
# (ours only).
#
# Boots the bench guest (one vCPU, -icount shift=0) with a gdb stub, lets
# harness/guest/bench.sh set up MODE's triggers and loop on lseek(), then
# single-steps one whole loop iteration (from __x64_sys_lseek to the next
# one: syscall exit, the user loop, syscall entry, the tracepoints and
# triggers) and prints the instructions executed per kernel function,
# most first.  A developer's tool for the performance work of make bench;
# exact, since every instruction is counted.  PROFILE_OUT keeps the raw
# program counters.
. "$(dirname "$0")/lib.sh"

mode=${MODE:?MODE=<bench mode>, e.g. MODE=keys=fd}
variant=${BASE:-ours}
build=$(build_dir "$variant" 0)
if [ "${NO_BUILD:-0}" != 1 ]; then
	"$HARNESS_DIR/build.sh" "$variant" 0 >/dev/null
fi
map=$build/System.map
[ -f "$map" ] || die "no System.map in $build"
# one loop iteration of the workload: from a system call to its next
# call (the latency_hist workloads: a pingpong round trip, from one
# task's pipe write past the other's to its own next one; one sleep)
hits=1
case $mode in
lh-wakeup*) at=__x64_sys_write hits=2 what="a pingpong round trip" ;;
lh-missed_timer_offsets*) at=__x64_sys_clock_nanosleep what="one 1 ns sleep" ;;
*) at=__x64_sys_lseek what="one lseek() loop iteration" ;;
esac
entry=$(awk -v f=$at '$3 == f { print $1 }' "$map")
[ -n "$entry" ] || die "no $at in $map"

port=$((20000 + RANDOM % 20000))
results=$CACHE_DIR/logs/results-$variant-profile-bench.log
rm -f "$results"
BASE=$variant DEBUG=0 NO_BUILD=1 RUN_TAG=profile BENCH_PROFILE=$mode \
	QEMU_GDB_PORT=$port GUEST_TIMEOUT=900 "$HARNESS_DIR/run.sh" bench \
	>/dev/null 2>&1 &
guest=$!
trap 'kill $guest 2>/dev/null || true; pkill -f "tcp:127.0.0.1:$port" 2>/dev/null || true' EXIT
for _ in $(seq 600); do
	grep -q '^@@PROFILE-READY' "$results" 2>/dev/null && break
	grep -q '^@@BENCH-ERROR' "$results" 2>/dev/null &&
		die "$(grep -A3 '^@@BENCH-ERROR' "$results")"
	kill -0 $guest 2>/dev/null || die "the guest stopped before the mode was set up"
	sleep 1
done
grep -q '^@@PROFILE-READY' "$results" || die "mode $mode never became ready"
sleep 2

pcs=${PROFILE_OUT:-$(mktemp)}
cat >"$pcs.gdb.py" <<EOF
import gdb
gdb.execute("set pagination off")
gdb.execute("target remote 127.0.0.1:$port")
gdb.execute("hbreak *0x$entry")
gdb.execute("continue")
gdb.execute("delete")
n = 0
hits = 0
with open("$pcs", "w") as out:
    while n < 200000:
        gdb.execute("stepi", to_string=True)
        pc = int(gdb.parse_and_eval("\$pc")) & 0xffffffffffffffff
        out.write("%x\n" % pc)
        n += 1
        if pc == 0x$entry:
            hits += 1
            if hits == $hits:
                break
gdb.execute("kill")
EOF
gdb -batch -nx -x "$pcs.gdb.py" >/dev/null 2>&1 || true
[ -s "$pcs" ] || die "gdb recorded nothing"

python3 - "$map" "$pcs" "$mode" "$variant" "$what" <<'EOF'
import bisect, collections, sys
syms = []
for line in open(sys.argv[1]):
    a, t, name = line.split()[:3]
    if t in "tTwW":
        syms.append((int(a, 16), name))
syms.sort()
addrs = [a for a, _ in syms]
count = collections.Counter()
total = 0
for line in open(sys.argv[2]):
    pc = int(line, 16)
    total += 1
    if pc < 0xffff800000000000:
        count["(user)"] += 1
        continue
    i = bisect.bisect_right(addrs, pc) - 1
    count[syms[i][1] if i >= 0 else "?"] += 1
print("profile of %s on %s: %d instructions in %s"
      % (sys.argv[3], sys.argv[4], total, sys.argv[5]))
for name, n in count.most_common():
    print("%7d  %s" % (n, name))
EOF
[ -n "${PROFILE_OUT:-}" ] || rm -f "$pcs"
rm -f "$pcs.gdb.py"
