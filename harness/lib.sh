# shellcheck shell=bash
# Common settings for the harness scripts.  Sourced, never executed.

set -euo pipefail

HARNESS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$HARNESS_DIR/.." && pwd)

# Everything big lives outside the work tree so a fresh clone reuses it.
CACHE_DIR=${HARNESS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hist-harness}
BASE_VERSION=6.12
BASE_PKG=linux-source-$BASE_VERSION
BASE_SUITE=trixie
BASE_DIR=$CACHE_DIR/base/linux-source-$BASE_VERSION

say() { printf '[harness] %s\n' "$*" >&2; }
die() { printf '[harness] error: %s\n' "$*" >&2; exit 1; }

# A kernel report in a guest console line (report.sh, fuzz.sh): any of
# these fails a run.  Extended regular expression; read it from the
# environment in awk (ENVIRON), so backslashes stay as they are.
KERNEL_REPORT_RE='^(\[ *[0-9.]+\] )?(WARNING:|BUG:|Oops|KASAN:|UBSAN:|kmemleak: leaks|unreferenced object|Kernel panic|general protection fault|Call Trace:|.*possible circular locking|.*possible recursive locking|.*inconsistent lock state|.*DEBUG_LOCKS_WARN_ON|INFO: (task .* blocked|lockdep))'
export KERNEL_REPORT_RE

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
