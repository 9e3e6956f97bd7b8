# shellcheck shell=bash
# Common settings for the harness scripts.  Sourced, never executed.

set -euo pipefail

HARNESS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$HARNESS_DIR/.." && pwd)

say() { printf '[harness] %s\n' "$*" >&2; }
die() { printf '[harness] error: %s\n' "$*" >&2; exit 1; }

# The base: KERNEL=6.12 (the default: Debian's linux-source-6.12, suite
# trixie) or KERNEL=7.3 (linux-source-7.3, trixie-backports).  The owned
# files are the same for both; what differs per base is the patches to
# base files (harness/patches/ for 6.12, harness/patches-<KERNEL>/ else)
# and the version last verified (harness/base-version[-<KERNEL>]).
KERNEL=${KERNEL:-6.12}
case $KERNEL in
6.12)	BASE_SUITE=trixie ;;
7.3)	BASE_SUITE=trixie-backports ;;
*)	die "KERNEL=$KERNEL: the bases are 6.12 and 7.3" ;;
esac
export KERNEL
BASE_VERSION=$KERNEL
BASE_PKG=linux-source-$BASE_VERSION

# Everything big lives outside the work tree so a fresh clone reuses it;
# a base other than 6.12 has its own trees and builds below it.
CACHE_ROOT=${HARNESS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hist-harness}
CACHE_DIR=$CACHE_ROOT
PATCH_DIR=$HARNESS_DIR/patches
BASE_VERIFIED_FILE=$HARNESS_DIR/base-version
if [ "$KERNEL" != 6.12 ]; then
	CACHE_DIR=$CACHE_ROOT/kernel-$KERNEL
	PATCH_DIR=$HARNESS_DIR/patches-$KERNEL
	BASE_VERIFIED_FILE=$HARNESS_DIR/base-version-$KERNEL
fi
BASE_DIR=$CACHE_DIR/base/linux-source-$BASE_VERSION

# A kernel report in a guest console line (report.sh, fuzz.sh): any of
# these fails a run.  Extended regular expression; read it from the
# environment in awk (ENVIRON), so backslashes stay as they are.
KERNEL_REPORT_RE='^(\[ *[0-9.]+\] )?(WARNING:|BUG:|Oops|KASAN:|UBSAN:|kmemleak: leaks|unreferenced object|Kernel panic|general protection fault|Call Trace:|.*possible circular locking|.*possible recursive locking|.*inconsistent lock state|.*DEBUG_LOCKS_WARN_ON|INFO: (task .* blocked|lockdep))'
export KERNEL_REPORT_RE

# The source tree of a variant, as its last build left it: ours is the
# overlay (overlay.sh), stock a hard-link copy of the base (stock_tree).
# A variant's build directories live inside its tree, as
# <tree>/build-<variant>[-debug], reached through the symlinks
# <cache>/build-<variant>[-debug]: so Kbuild names every file relative to
# the build (srctree ".."), the compiler sees the same command for a file
# both trees share, and ccache serves it to whichever variant is built
# second (a fresh machine compiles the base once, not twice).
variant_src() {	# ours|stock|step
	echo "$CACHE_DIR/src-$1"
}

# Make (once per base) and print the stock tree: the base, hard-linked.
# Out-of-tree builds never write into it.
stock_tree() {
	local base src=$CACHE_DIR/src-stock id
	base=$("$HARNESS_DIR/fetch-base.sh")
	id="$base $(base_version "$base") $(cat "$base/.harness-unpacked" 2>/dev/null || true)"
	if [ "$(cat "$src/.harness/created" 2>/dev/null)" != "$id" ]; then
		say "stock tree: creating $src from the base (hard links)"
		rm -rf "$src"
		cp -al "$base" "$src"
		mkdir -p "$src/.harness"
		echo "$id" >"$src/.harness/created"
	fi
	echo "$src"
}

# The build directory of a variant (ours|stock) and debug (0|1): built
# now, or with NO_BUILD=1 as the last build left it (another build may be
# running).
build_dir() {
	local d
	if [ "${NO_BUILD:-0}" = 1 ]; then
		d=$CACHE_DIR/build-$1
		[ "$2" = 1 ] && d=$d-debug
		echo "$d"
	else
		"$HARNESS_DIR/build.sh" "$1" "$2" | tail -n 1
	fi
}

# The config lines of harness/config/features.txt for a variant built
# from the tree src.  ours: every option on, and a project file an option
# needs that the repository lacks is an error (never an option quietly
# left off: its tests would skip); stock: the options its Kconfig has.
features_config() {	# variant src
	local variant=$1 src=$2 opt val files f have
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$HARNESS_DIR/config/features.txt" |
	while read -r opt val files; do
		have=1
		if [ "$variant" = ours ]; then
			for f in $files; do
				[ -f "$REPO_DIR/$f" ] ||
					die "$opt needs $f, which the repository does not have"
			done
		else
			grep -rqsxE --include='Kconfig*' "(menu)?config ${opt#CONFIG_}[[:space:]]*" "$src" || have=0
		fi
		if [ $have = 1 ]; then
			echo "$opt=$val"
		else
			echo "# $opt is not set"
		fi
	done
}

# The base tree's kernel version (e.g. 6.12.117), read from its Makefile.
base_version() {
	local mk=${1:-$BASE_DIR}/Makefile
	[ -f "$mk" ] || { echo unknown; return; }
	awk -F' = ' '$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
		$1 == "SUBLEVEL" { s = $2 } END { print v "." p "." s }' "$mk"
}

# Apply a patch to a tree with no fuzz and, unless the third argument is
# "offset-ok", at exactly the lines it names.  On failure the patch is not
# applied at all and what did not match is printed (file and hunk).
apply_exact() {	# tree patch [offset-ok]
	local tree=$1 pf=$2 out
	if ! out=$(patch -p1 -d "$tree" --dry-run --batch --forward --fuzz=0 \
			-r - --no-backup-if-mismatch <"$pf" 2>&1); then
		printf '%s\n' "$out" | grep -E 'FAILED|checking file|patching file|malformed|[Rr]eversed|can.t find' >&2
		return 1
	fi
	if [ "${3:-}" != offset-ok ] && printf '%s\n' "$out" | grep -qE 'offset|fuzz'; then
		printf '%s\n' "$out" | grep -E 'checking file|offset|fuzz' >&2
		printf '%s\n' "(context found at other lines: regenerate the patch on this base)" >&2
		return 1
	fi
	patch -s -p1 -d "$tree" --batch --forward --fuzz=0 -r - --no-backup-if-mismatch <"$pf"
}

# The base version last verified (make check green, make diff and make
# series-check on it) is one line of BASE_VERIFIED_FILE, in the repository.

# One line naming the base; a warning when it is not the verified one.
base_banner() {
	local v verified deb
	v=$(base_version)
	deb=$(cat "$BASE_DIR/.harness-unpacked" 2>/dev/null || true)
	verified=$(cat "$BASE_VERIFIED_FILE" 2>/dev/null || echo none)
	say "base: Linux $v (Debian $BASE_PKG ${deb:-?}); last verified: $verified"
	if [ "${OFFLINE:-0}" = 1 ]; then
		say "base: OFFLINE=1: the archive was not asked for a newer $BASE_PKG"
	fi
	if [ "$v" != "$verified" ]; then
		say "WARNING: the base is $v but the project was last verified on $verified"
		say "WARNING: (harness/$(basename "$BASE_VERIFIED_FILE")); results may differ from the last green run"
	fi
}

# Apply one of the base's patches (PATCH_DIR) to a tree exactly (apply_exact), or stop
# the run naming the patch, the base and the hunk that did not match.
apply_base_patch() {	# tree patch-file
	apply_exact "$1" "$2" ||
		die "patch $(basename "$2") does not apply exactly to the base $(base_version "$1") (above: the hunk)"
}
