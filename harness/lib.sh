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
