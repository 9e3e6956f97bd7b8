#!/bin/bash
# make mutants: does the DEBUG=1 run catch a memory bug in a teardown
# path?  Each harness/mutants/<name>.txt names an owned file, a text in it
# and the text that replaces it (a leak, a use-after-free), the tests that
# walk the path and the kernel report the run must then print.  For each
# mutant: a copy of the repository with the change, its own DEBUG=1 run
# of those tests (NO_BUILD is never used: the copy's kernel is built),
# which must fail with that report.  The shared build keeps no object of a
# mutant: the mutated objects are deleted after each run.
#   mutants.sh [name...]
. "$(dirname "$0")/lib.sh"

names=("$@")
[ ${#names[@]} -gt 0 ] || names=($(cd "$HARNESS_DIR/mutants" && ls ./*.txt | sed 's|^\./||; s|\.txt$||'))
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
for name in "${names[@]}"; do
	spec=$HARNESS_DIR/mutants/$name.txt
	[ -f "$spec" ] || die "no mutant $name"
	file=$(sed -n 's/^file: //p' "$spec")
	tests=$(sed -n 's/^tests: //p' "$spec")
	expect=$(sed -n 's/^expect: //p' "$spec")
	copy=$work/$name
	rm -rf "$copy"
	mkdir -p "$copy"
	(cd "$REPO_DIR" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 cp -p --parents -t "$copy")
	python3 - "$spec" "$copy/$file" <<'PY' || die "mutant $name: its text is no longer in $file"
import sys
spec, path = sys.argv[1:3]
text = open(spec).read()
frm = text.split('--- from\n', 1)[1].split('--- to\n', 1)[0]
to = text.split('--- to\n', 1)[1]
src = open(path).read()
if src.count(frm) != 1:
    sys.exit(1)
open(path, 'w').write(src.replace(frm, to))
PY
	say "mutant $name: $file changed; DEBUG=1 run of $tests (logs: $work)"
	(cd "$copy" && git init -q && git add -A) # overlay.sh lists the copy's files with git
	DEBUG=1 TESTS="$tests" RUN_LABEL=mutant-$name HARNESS_SUMMARY= \
		"$copy/harness/run.sh" check >"$CACHE_DIR/logs/mutant-$name.log" 2>&1 && rc=0 || rc=$?
	# the mutated object must never serve a later build of the real tree
	rm -f "$CACHE_DIR/build-ours-debug/${file%.c}.o"
	if [ "$rc" = 0 ]; then
		say "mutant $name: SURVIVED (the run passed; log $CACHE_DIR/logs/mutant-$name.log)"
		fail=1
	elif ! grep -qF -- "$expect" "$CACHE_DIR/logs/mutant-$name.log" "$CACHE_DIR/logs/console-ours-debug-check.log"; then
		say "mutant $name: the run failed, but without '$expect' (log $CACHE_DIR/logs/mutant-$name.log)"
		fail=1
	else
		say "mutant $name: caught ($expect)"
	fi
done
[ "$fail" = 0 ] || die "mutants: a mutant was not caught as expected"
say "mutants: every mutant caught"
