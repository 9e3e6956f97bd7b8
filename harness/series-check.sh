#!/bin/bash
# make series-check: the series (make series) in a scratch tree.
#
#   1. git am onto the pristine base, in a branch of the series repository;
#      the result must be the tree make series committed;
#   2. scripts/checkpatch.pl --strict on every patch: nothing reported;
#   3. builds, with tinyconfig + harness/config/series.config, in
#      <cache>/build-series, incrementally with ccache: SERIES_BUILD=all
#      every commit in order (bisection; make series-check), last the
#      last one only (make series-check FULL=0, in .ci/run), none no build
#      (make check: series.sh has checked that the final tree is the
#      overlay make check built and tested, so only the lean config is
#      left to build, a kernel build of its own on a fresh machine).
#      A warning in a file the series touches fails the build.
#   4. unless SERIES_BUILD=none or SERIES_BOOT=0: every step marked
#      "check: upstream" (a tree that is not the final one, the new map
#      under the old hist code) is built with the harness's config and
#      booted with the base's tests (below): a kernel build and a boot of
#      its own per such step, in make series-check FULL=0 too.
. "$(dirname "$0")/lib.sh"

builds=${SERIES_BUILD:-last}
case $builds in all|last|none) ;; *) die "SERIES_BUILD=$builds: all, last or none" ;; esac
dir=$CACHE_DIR/series/out
repo=$CACHE_DIR/series/git
out=$CACHE_DIR/build-series
g() { git -C "$repo" "$@"; }

# checkpatch's SPDX check runs scripts/spdxcheck.py with python3: Debian's,
# with its modules.
"$HARNESS_DIR/host-deps.sh" python3-ply python3-git
export PATH=/usr/bin:$PATH
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1

# the series is only checked here: a stand-in signs it if this machine
# has no submitter identity (make series itself refuses then)
SERIES_STANDIN=1 "$HARNESS_DIR/series.sh" "$dir" >/dev/null
patches=$(ls "$dir"/[0-9]*.patch | grep -v '/0000-cover-letter.patch$')

say "series-check: git am of $(echo "$patches" | wc -l) patches onto the base"
g am --abort >/dev/null 2>&1 || true	# left by an interrupted run
g checkout -q -f -B check base
g clean -q -fdx
g -c user.name=harness -c user.email=harness@localhost am -q $patches ||
	{ g am --abort 2>/dev/null; die "the series does not apply with git am"; }
g diff --quiet series check || die "git am gave another tree than make series"
# DCO: every commit signed off by its author, as git am read them (a
# quoted or encoded From: is decoded)
for c in $(g rev-list base..check); do
	author=$(g log -1 --format='%an <%ae>' "$c")
	g log -1 --format=%B "$c" | grep -qxF "Signed-off-by: $author" ||
		die "$(g log -1 --format=%s "$c"): no Signed-off-by of its author ($author)"
done

# Cc: lines from get_maintainer.pl in every patch
for p in $patches; do
	grep -q '^Cc: ' "$p" || die "$(basename "$p"): no Cc: from get_maintainer.pl"
done

say "series-check: checkpatch --strict on every patch"
fails=0
log=$CACHE_DIR/series/checkpatch.log
: >"$log"
for p in $patches; do
	if ! (cd "$repo" && perl scripts/checkpatch.pl --strict -q "$p") >"$log.one" 2>&1; then
		head -n 60 "$log.one" >&2
		say "series-check: checkpatch: $(basename "$p"): $(grep -E '^total:' "$log.one" || echo failed)"
		fails=$((fails + 1))
	fi
	cat "$log.one" >>"$log"
done
rm -f "$log.one"
[ $fails = 0 ] || die "checkpatch reported on $fails patch(es)"

case $builds in
all)	commits=$(g rev-list --reverse base..check) ;;
last)	commits=$(g rev-parse check) ;;
none)	g checkout -q -f series
	say "series-check: ok ($(echo "$patches" | wc -l) patches, the overlay's tree; not built: SERIES_BUILD=none)"
	exit 0 ;;
esac
export CCACHE_DIR=${CCACHE_DIR:-$CACHE_DIR/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export KBUILD_BUILD_TIMESTAMP='2024-01-01 00:00:00 UTC' KBUILD_BUILD_USER=harness KBUILD_BUILD_HOST=harness
mkdir -p "$out"
kmake=(make -s -C "$repo" O="$out" ARCH=x86_64 "CC=ccache gcc" -j"$(nproc)")
n=0
for c in $commits; do
	n=$((n + 1))
	g checkout -q -f "$c"
	subject=$(g log -1 --format=%s "$c")
	say "series-check: build $n: $subject"
	"${kmake[@]}" tinyconfig >/dev/null
	(cd "$out" && "$repo/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" \
		"$HARNESS_DIR/config/series.config" >/dev/null)
	"${kmake[@]}" olddefconfig >/dev/null
	if ! "${kmake[@]}" bzImage modules >"$out/build.log" 2>&1; then
		grep -E 'error|Error' "$out/build.log" | head -n 40 >&2
		die "build of '$subject' failed, see $out/build.log"
	fi
	touched=$(g diff --name-only base "$c" | grep -E '\.[ch]$' || true)
	warn=$( (grep -E 'warning:' "$out/build.log" || true) | while read -r l; do
		for f in $touched; do
			case $l in *"$f:"*) echo "$l"; break ;; esac
		done
	done)
	[ -z "$warn" ] || { echo "$warn" >&2; die "'$subject' builds with warnings in its files"; }
done
# At the end every option of series.config is on.
bad=$(grep -E '^CONFIG_' "$HARNESS_DIR/config/series.config" | while read -r l; do
	grep -qxF "$l" "$out/.config" || echo "$l"
done)
[ -z "$bad" ] || die "these series.config settings did not stick: $(echo $bad)"
g checkout -q -f series

# Steps whose tree is not the final one but still has working hist
# triggers (the old hist code on the new map, say) name the base's test
# suites they must pass: "check: upstream" in the step file.  Their tree
# is built with the harness's config (variant step, <cache>/src-step: the
# base hard-linked, the files the step changed written anew) and booted
# with the base's trigger and synthetic event selftests, the test module
# and the KUnit suites it has.  SERIES_BOOT=0 leaves this out.
booted=0
if [ "${SERIES_BOOT:-1}" = 1 ]; then
	steps=("$HARNESS_DIR"/series/[0-9]*.txt)
	[ ${#steps[@]} = "$(g rev-list --count base..check)" ] ||
		die "${#steps[@]} step files but $(g rev-list --count base..check) commits"
	i=0
	for c in $(g rev-list --reverse base..check); do
		step=${steps[$i]}
		i=$((i + 1))
		sed -n '2,/^$/p' "$step" | grep -qx 'check:[[:space:]]*upstream' || continue
		subject=$(g log -1 --format=%s "$c")
		say "series-check: boot $i: $subject"
		src=$(variant_src step)
		rm -rf "$src"
		cp -al "$("$HARNESS_DIR/fetch-base.sh")" "$src"
		g diff --no-renames --name-status base "$c" | while read -r st f; do
			rm -f "$src/$f"
			[ "$st" = D ] && continue
			mkdir -p "$src/$(dirname "$f")"
			case $(g ls-tree "$c" -- "$f" | cut -d' ' -f1) in
			120000) ln -s "$(g cat-file blob "$c:$f")" "$src/$f" ;;
			100755) g cat-file blob "$c:$f" >"$src/$f" && chmod +x "$src/$f" ;;
			*) g cat-file blob "$c:$f" >"$src/$f" ;;
			esac
		done
		echo "$c $subject" >"$src/.harness-step"
		BASE=step DEBUG=0 NO_BUILD=0 TESTS= EXTRA_TESTS= RUN_TAG= \
			"$HARNESS_DIR/run.sh" check ||
			die "step $i ('$subject') does not pass the base's tests on its own"
		booted=$((booted + 1))
	done
fi
say "series-check: ok ($n build(s), $booted step(s) booted, $(echo "$patches" | wc -l) patches)"
