#!/bin/bash
# checkpatch.pl --strict on every C file and header the project owns or adds.
. "$(dirname "$0")/lib.sh"

base=$("$HARNESS_DIR/fetch-base.sh")
cd "$REPO_DIR"
files=$(git ls-files --cached --others --exclude-standard -- '*.c' '*.h')
[ -n "$files" ] || { say "checkpatch: no C files"; exit 0; }
rc=0
for f in $files; do
	# checkpatch exits non-zero on findings; keep its text, judge by that
	out=$("$base/scripts/checkpatch.pl" --strict --no-tree --terse --show-types -f "$f" || true)
	if echo "$out" | grep -E 'ERROR|WARNING|CHECK'; then
		rc=1
	fi
done
[ $rc = 0 ] && say "checkpatch: clean ($(echo "$files" | wc -w) files)"
exit $rc
