# shellcheck shell=sh
# Helpers of the make stress cases (harness/stress/cases/*.tc).  In the
# guest they are /harness/stress/lib.sh (harness/initramfs.sh puts them
# there, with the test module hist_stress.ko), sourced by every case:
#
#	. /harness/stress/lib.sh
#
# A case runs inside ftracetest: the current directory is the tracefs
# root, "set -e" is on, exit_fail and friends exist, $TMPDIR is private.
#
# Why the cases are safe under multi-threaded TCG (see harness/stress.sh):
# stress_begin turns record-cmd off and enables sys_enter_lseek and
# sys_exit_lseek in two instances of its own (tracing off there, so they
# record nothing) before any load starts, and stress_end removes them
# after the load stopped.  Every trace array with a syscall event
# registers one probe on the sys_enter / sys_exit tracepoint, so those
# tracepoints keep at least two probes while the load runs: adding or
# removing triggers, instances or their events only changes the probe
# array under RCU, never a static call or static key, so no kernel text
# is patched under a running vCPU.  Synthetic events have no tracepoint
# at all.  A case uses no other tracepoint.  stress_end checks that
# nothing was patched (no_text_patched).

set +x	# thousands of iterations: keep ftracetest's log readable

E=events/syscalls/sys_enter_lseek
X=events/syscalls/sys_exit_lseek
FD=4242		# the fd "hammer fire" passes (-f); nobody has it open
KEEPERS="stress_keep1 stress_keep2"
POKES=stress_pokes	# the instance that records text patching
# (7.3 renamed x86's batch patcher smp_text_poke_batch_finish(), which
# is also entered with nothing to patch: its sync of every CPU, which
# runs only once text was changed, is watched there instead)
POKE_FN=text_poke_bp_batch
grep -qw "$POKE_FN" /proc/kallsyms || POKE_FN=smp_text_poke_sync_each_cpu
SCALL_FN=arch_static_call_transform
MOD=/harness/stress/hist_stress.ko

ME=main		# names this process's temporary files (see churners)

STRESS_SHORT=$(sed -n 's/^STRESS_SHORT=//p' /harness/env 2>/dev/null || :)
[ -n "$STRESS_SHORT" ] || STRESS_SHORT=1

# pick <full> <short>: the value for the full run or for the short one
pick() {
	if [ "$STRESS_SHORT" = 1 ]; then echo "$2"; else echo "$1"; fi
}

# msg <text>: progress, in the test log and the kernel log (to place
# kernel reports)
msg() {
	echo "stress: $*"
	echo "stress: $*" >/dev/kmsg 2>/dev/null || :
}

# now: seconds since boot
now() {
	cut -d. -f1 /proc/uptime
}

# stress_begin <name> <seconds>: set up the keepers, arm the cleanup; the
# case then runs until "now" passes $DEADLINE (at least one round).  A
# case defines case_cleanup (undo whatever it made; must not fail).
# record-cmd goes off first, in the top level and so in every instance
# made afterwards: with it, the first event enabled anywhere (a trigger
# too) registers the sched_switch/sched_wakeup probes that record comms,
# and the last one disabled removes them, which patches the scheduler's
# text while the other vCPU schedules.
#
# The claim that nothing is patched is checked: kprobes on the functions
# every live text patch of x86 goes through (text_poke_bp_batch() for
# static keys, static calls, ftrace and the kprobe optimizer;
# arch_static_call_transform()) record into the instance stress_pokes,
# and stress_end fails if they fired after stress_begin returned.
stress_begin() {
	LOADS=
	CASE=$1
	trap stress_exit EXIT
	echo 0 >options/record-cmd
	echo "p:stress_pokes/poke $POKE_FN" >>kprobe_events
	echo "p:stress_pokes/static_call $SCALL_FN" >>kprobe_events
	mkdir instances/$POKES
	echo 1 >instances/$POKES/events/stress_pokes/enable
	for k in $KEEPERS; do
		mkdir instances/$k
		echo 0 >instances/$k/tracing_on
		echo 1 >instances/$k/$E/enable
		echo 1 >instances/$k/$X/enable
	done
	# Here the probes use ftrace (KPROBES_ON_FTRACE); int3 probes would
	# be rewritten by the kprobe optimizer a few ticks later: wait for it.
	sleep 1
	echo >instances/$POKES/trace
	DEADLINE=$(($(now) + $2))
	msg "$CASE: start, $2 s, short=$STRESS_SHORT"
}

# no_text_patched: nothing patched kernel text since stress_begin
no_text_patched() {
	if grep -v '^#' instances/$POKES/trace | grep -q .; then
		cat instances/$POKES/trace
		fail "kernel text was patched while the case ran"
	fi
}

# time_left: whether the case's time is not over yet
time_left() {
	[ "$(now)" -lt "$DEADLINE" ]
}

stress_exit() {
	set +e
	for p in $LOADS; do
		kill -TERM "$p" 2>/dev/null
	done
	for p in $LOADS; do
		wait "$p" 2>/dev/null
	done
	LOADS=
	case_cleanup
	for k in $KEEPERS; do
		[ -d instances/$k ] && rmdir instances/$k
	done
	if [ -d instances/$POKES ]; then
		echo 0 >instances/$POKES/events/stress_pokes/enable
		rmdir instances/$POKES
	fi
	echo '-:stress_pokes/poke' >>kprobe_events 2>/dev/null
	echo '-:stress_pokes/static_call' >>kprobe_events 2>/dev/null
	echo 1 >options/record-cmd
	:
}

# stress_end: the case passed; clean up while nothing runs any more
stress_end() {
	no_text_patched
	trap - EXIT
	stress_exit
	for k in $KEEPERS; do
		[ -d instances/$k ] && fail "cannot remove instance $k"
	done
	msg "$CASE: end"
}

# fail <text>: the case failed
fail() {
	msg "$CASE: FAIL: $*"
	exit_fail
}

# load_start <name> <hammer fire options>: start a load in the background;
# its report goes to $TMPDIR/<name>.out.  It runs niced, so that the
# case's shell gets a CPU when it wants one and the load everything else.
load_start() {
	_n=$1
	shift
	nice -n 19 hammer fire -f $FD "$@" >"$TMPDIR/$_n.out" &
	eval "LOAD_$_n=$!"
	LOADS="$LOADS $!"
}

# load_stop <name>: stop it and wait until it is gone; $FIRED is its
# total.  (Not in a command substitution: the load is a child of the
# case's shell.)
load_stop() {
	eval "_p=\$LOAD_$1"
	kill -TERM "$_p"
	wait "$_p" || fail "load $1 failed: $(cat "$TMPDIR/$1.out")"
	_l=
	for _q in $LOADS; do
		[ "$_q" = "$_p" ] || _l="$_l $_q"
	done
	LOADS=$_l
	FIRED=$(sed -n 's/^fired //p' "$TMPDIR/$1.out")
}

# bg_start <name> <command...>: run a shell function (a churner, a
# reader) in the background; bg_wait collects it
bg_start() {
	_n=$1
	shift
	"$@" &
	eval "BG_$_n=$!"
	LOADS="$LOADS $!"
}

# bg_wait <name>: wait for it; it must have succeeded
bg_wait() {
	eval "_p=\$BG_$1"
	wait "$_p" || fail "$1 failed"
	_l=
	for _q in $LOADS; do
		[ "$_q" = "$_p" ] || _l="$_l $_q"
	done
	LOADS=$_l
}

# bg_kill <name>: stop an endless one
bg_kill() {
	eval "_p=\$BG_$1"
	kill -TERM "$_p"
	wait "$_p" || :
	_l=
	for _q in $LOADS; do
		[ "$_q" = "$_p" ] || _l="$_l $_q"
	done
	LOADS=$_l
}

# burst <hammer fire options>: fire a counted number of events (-n) in the
# foreground; $FIRED is the total
burst() {
	hammer fire -f $FD "$@" >"$TMPDIR/burst.$ME.out" || fail "hammer fire $*"
	FIRED=$(sed -n 's/^fired //p' "$TMPDIR/burst.$ME.out")
}

# do_write <file> <text> <expected>: write with one write(2); the result
# ("OK" or an errno name) must be <expected>
do_write() {
	_r=$(hammer write "$1" "$2") || :
	[ "$_r" = "$3" ] || fail "writing '$2' to $1 gave $_r, expected $3"
}

# hist_total <hist file> <Hits|Entries|Dropped>: the sum over the file's
# histograms (one but for a named table shown in several files)
hist_total() {
	awk -v w="$2:" '$1 == w { n += $2 } END { print n + 0 }' "$1"
}

# hist_pairs <hist file> <key field> [<value field>]: "key hitcount
# [value]" per entry, sorted by key.  Entry lines look like
# "{ offset:        123 } hitcount:          4  whence:          2".
hist_pairs() {
	awk -v k="$2:" -v v="$3:" '
		/^\{/ {
			key = ""; hc = ""; val = ""
			for (i = 1; i < NF; i++) {
				if ($i == k) key = $(i + 1)
				else if ($i == "hitcount:") hc = $(i + 1)
				else if (v != ":" && $i == v) val = $(i + 1)
			}
			sub(/,$/, "", key)	# compound keys: "{ a: 1, b: 2 }"
			print key, hc (v != ":" ? " " val : "")
		}' "$1" | sort -n
}

# hist_sane <hist file> <key field> <lo> <hi>: a histogram read at any
# time, even under load, must be well formed: every entry has a hitcount
# >= 1 and, if it has the key field, a key in [lo, hi]; the Entries of
# the file's histograms add up to its entry lines.
hist_sane() {
	cat "$1" >"$TMPDIR/sane.$ME"
	awk -v k="$2:" -v lo="$3" -v hi="$4" '
		/^\{/ {
			n++; key = ""; hc = ""
			for (i = 1; i < NF; i++) {
				if ($i == k) key = $(i + 1)
				else if ($i == "hitcount:") hc = $(i + 1)
			}
			sub(/,$/, "", key)	# compound keys: "{ a: 1, b: 2 }"
			if ((key != "" && (key + 0 < lo + 0 || key + 0 > hi + 0)) ||
			    hc !~ /^[1-9][0-9]*$/) {
				print "bad entry: " $0; bad = 1
			}
		}
		$1 == "Entries:" { e += $2; seen = 1 }
		END {
			if (!seen) { print "no totals"; bad = 1 }
			else if (e != n) { print "Entries " e " but " n " entry lines"; bad = 1 }
			exit bad
		}' "$TMPDIR/sane.$ME" >"$TMPDIR/sane.$ME.why" || {
		cat "$TMPDIR/sane.$ME" "$TMPDIR/sane.$ME.why"
		fail "malformed $1"
	}
}

# hist_section <hist file> <text>: the histogram whose trigger info line
# contains <text>, from that line to its Dropped line
hist_section() {
	awk -v p="$2" '
		index($0, "# trigger info: ") == 1 { on = index($0, p) > 0 }
		on { print }
		on && $1 == "Dropped:" { on = 0 }' "$1"
}

# hist_exact <hist file> <hits> <entries> <dropped>: at rest, the totals
# and the hitcounts must agree: Hits is the sum of the entries' hitcounts,
# Entries the number of entries, and Hits + Dropped the events that
# reached the trigger.
hist_exact() {
	_h=$(hist_total "$1" Hits)
	_e=$(hist_total "$1" Entries)
	_d=$(hist_total "$1" Dropped)
	_s=$(awk '/^\{/ { for (i = 1; i < NF; i++) if ($i == "hitcount:") s += $(i + 1) } END { print s + 0 }' "$1")
	_l=$(grep -c '^{' "$1" || :)
	if [ "$_h" != "$2" ] || [ "$_e" != "$3" ] || [ "$_d" != "$4" ] ||
	   [ "$_s" != "$_h" ] || [ "$_l" != "$_e" ]; then
		cat "$1"
		fail "$1: Hits $_h Entries $_e Dropped $_d, sum of hitcounts $_s, $_l entries; expected Hits $2 Entries $3 Dropped $4"
	fi
}

# same_text <file a> <file b> <what>
same_text() {
	cmp -s "$1" "$2" || { diff "$1" "$2" || :; fail "$3"; }
}
