# shellcheck shell=sh
# Sourced by the generated test.d/harness/docex-*.tc cases (initramfs.sh
# writes one per runnable example of the project's Documentation/trace/
# *.rst, harness/docs/examples.py gen): run_example runs one example from
# a clean state and compares its output, after the example's masks, with
# the text the document shows; every documented command must succeed.
# On a difference the actual output goes to the console between
# @@DOCEX-BEGIN and @@DOCEX-END, from which `examples.py update` rewrites
# the document.

fail() { #msg
	echo "$1"
	exit_fail
}

# Drop trailing blanks of lines and blank lines at the end of every
# command's output, expand tabs.
norm() { # maskfile file
	sed -E -f "$1" "$2" | expand | sed 's/[[:space:]]*$//' | awk '
		/^@@CMD / { blank = 0; print; next }
		/^@@RC / { next }
		/^[ \t]*$/ { blank++; next }
		{ while (blank > 0) { print ""; blank-- } print }'
}

# Triggers go first by truncating their files, in rounds (a trigger
# whose variables others use goes once they are gone): the text a hist
# trigger file shows cannot always be written back (sort=ptr.hex, as on
# upstream), which the ftracetest reset (initialize_ftrace, 7.3:
# initialize_system) relies on.
reset_all() {
	for round in 1 2 3 4; do
		files=$(grep -l '^[^#]' events/*/*/trigger 2> /dev/null || true)
		[ -n "$files" ] || break
		for f in $files; do
			: > "$f" 2> /dev/null || true
		done
	done
	if command -v initialize_system > /dev/null; then
		initialize_system
	else
		initialize_ftrace
	fi
	# instances/latency_hist is the kernel's, kept once a group was
	# enabled (rmdir: EBUSY)
	for i in instances/*; do
		if [ -d "$i" ] && [ "$i" != instances/latency_hist ]; then rmdir "$i"; fi
	done
	: > error_log
}

run_example() { # /harness/docex/NNN-name
	name=$1
	[ -f "$name.sh" ] || fail "${name##*/}: no such example"
	reset_all
	sh "$name.sh" > "$TMPDIR/docex.out" 2> "$TMPDIR/docex.err" || true
	norm "$name.mask" "$name.expected" > "$TMPDIR/docex.exp"
	norm "$name.mask" "$TMPDIR/docex.out" > "$TMPDIR/docex.act"
	reset_all
	# a mask sed cannot read would empty both sides
	grep -q '^@@CMD 1$' "$TMPDIR/docex.exp" && grep -q '^@@CMD 1$' "$TMPDIR/docex.act" ||
		fail "${name##*/}: cannot normalize (bad mask?) or the example did not run"
	if grep -q '^@@RC ' "$TMPDIR/docex.out"; then
		grep '^@@RC ' "$TMPDIR/docex.out"
		cat "$TMPDIR/docex.err"
		fail "${name##*/}: a documented command failed"
	fi
	if ! cmp -s "$TMPDIR/docex.exp" "$TMPDIR/docex.act"; then
		echo "== ${name##*/}: output differs from the document"
		diff -u "$TMPDIR/docex.exp" "$TMPDIR/docex.act" || true
		{
			echo "@@DOCEX-BEGIN ${name##*/}"
			grep -v '^@@RC ' "$TMPDIR/docex.out"
			echo "@@DOCEX-END ${name##*/}"
		} > /dev/console
		fail "${name##*/}: output differs from the document"
	fi
}
