#!/bin/bash
# make docs: build Documentation/trace with the kernel's Sphinx setup and
# check the documentation of what the project owns.
#
#   1. scripts/kernel-doc -none on every C file the project owns: silent;
#   2. every runnable example of Documentation/trace/*.rst parses
#      (harness/docs/examples.py; the examples run in make check);
#   3. make htmldocs SPHINXDIRS=trace on the overlay and on the base: every
#      warning of ours that the base's build does not have fails.
# The HTML is in <cache>/docs-ours/Documentation/output/trace/.
. "$(dirname "$0")/lib.sh"

# Debian's Sphinx, run by Debian's python (not a python3 earlier in PATH).
"$HARNESS_DIR/host-deps.sh" python3-sphinx python3-sphinx-rtd-theme
export PATH=/usr/bin:$PATH
py=/usr/bin/python3

src=$("$HARNESS_DIR/overlay.sh")
base=$("$HARNESS_DIR/fetch-base.sh")
fail=0

say "docs: kernel-doc -none on the project's C files"
# 6.12's scripts/kernel-doc is Perl, 7.3's Python (with Debian's python)
kdoc=(perl scripts/kernel-doc)
head -n 1 "$src/scripts/kernel-doc" | grep -q python && kdoc=($py scripts/kernel-doc)
files=$(cd "$REPO_DIR" && git ls-files --cached --others --exclude-standard -- \
	'kernel/*.[ch]' 'include/*.h' 'samples/*.[ch]')
for f in $files; do
	[ -f "$REPO_DIR/$f" ] || continue
	w=$(cd "$src" && "${kdoc[@]}" -none -Wall "$f" 2>&1) ||
		w="$w${w:+
}kernel-doc failed on $f (exit $?)"
	if [ -n "$w" ]; then
		printf '%s\n' "$w" >&2
		fail=1
	fi
done

say "docs: runnable examples"
docs=$(cd "$REPO_DIR" && git ls-files --cached --others --exclude-standard -- 'Documentation/trace/*.rst')
n=$(cd "$REPO_DIR" && $py "$HARNESS_DIR/docs/examples.py" list $docs | wc -l) ||
	die "the examples of $docs do not parse"
[ "$n" -gt 0 ] || die "no runnable example found in $docs"
say "docs: $n runnable examples"

sphinx() { # tree outdir -> warnings, normalized, on stdout
	rm -rf "$2"
	mkdir -p "$2"
	make -s -C "$1" O="$2" PYTHON3=$py SPHINXDIRS=trace SPHINXOPTS=-q htmldocs \
		>"$2/sphinx.log" 2>&1 || { tail -n 30 "$2/sphinx.log" >&2; die "htmldocs failed in $1"; }
	{ grep -iE 'warning|error' "$2/sphinx.log" || true; } |
		sed -E -e "s|$1/||g" -e "s|$2/||g" -e 's|:[0-9]+:|:|' | sort -u
}

stock_out=$CACHE_DIR/docs-stock
if [ "$(cat "$stock_out/.base" 2>/dev/null)" != "$base" ]; then
	say "docs: htmldocs SPHINXDIRS=trace on the base (once)"
	sphinx "$base" "$stock_out" >"$CACHE_DIR/docs-stock.warnings"
	echo "$base" >"$stock_out/.base"
fi
say "docs: htmldocs SPHINXDIRS=trace on ours"
sphinx "$src" "$CACHE_DIR/docs-ours" >"$CACHE_DIR/docs-ours.warnings"
# No warning at all in a document of ours; elsewhere none the base lacks.
ours_docs=$(printf '%s\n' $docs | sed 's/[.]rst$//' | paste -sd'|')
new=$( { comm -13 "$CACHE_DIR/docs-stock.warnings" "$CACHE_DIR/docs-ours.warnings";
	grep -E "($ours_docs)[.]rst" "$CACHE_DIR/docs-ours.warnings" || true; } | sort -u)
if [ -n "$new" ]; then
	printf '%s\n' "$new" >&2
	say "docs: warnings the base's build does not have (above)"
	fail=1
fi
[ $fail = 0 ] || die "docs: see above"
say "docs: ok; HTML in $CACHE_DIR/docs-ours/Documentation/output/trace/index.html"
