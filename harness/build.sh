#!/bin/bash
# Configure and build a guest kernel plus modules.
#   build.sh ours|stock|step [debug] prints the build directory
# step: the tree of one step of the series, which make series-check puts
# in <cache>/src-step (harness/series-check.sh), built like stock.
. "$(dirname "$0")/lib.sh"

variant=${1:-ours}
debug=${2:-0}
"$HARNESS_DIR/host-deps.sh"

case $variant in
ours)	src=$("$HARNESS_DIR/overlay.sh") ;;
stock)	src=$(stock_tree) ;;
step)	src=$(variant_src step)
	[ -f "$src/.harness-step" ] || die "no series step in $src (make series-check puts one there)" ;;
*)	die "unknown variant '$variant' (ours, stock or step)" ;;
esac
# Inside the tree, reached through the cache's symlink (see variant_src).
name=build-$variant
[ "$debug" = 1 ] && name=$name-debug
out=$src/$name
link=$CACHE_DIR/$name
mkdir -p "$out"
if [ "$(readlink "$link" 2>/dev/null)" != "$out" ]; then
	rm -rf "$link"	# a symlink to a tree made again, or an old build directory
	ln -s "$out" "$link"
fi

# The config fragment: base (+ debug) + the features this variant has.
frag=$out/harness.config
{
	cat "$HARNESS_DIR/config/base.config"
	[ "$debug" = 1 ] && cat "$HARNESS_DIR/config/debug.config"
	features_config "$variant" "$src"
} >"$frag.new"

export CCACHE_DIR=${CCACHE_DIR:-$CACHE_DIR/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export KBUILD_BUILD_TIMESTAMP='2024-01-01 00:00:00 UTC' KBUILD_BUILD_USER=harness KBUILD_BUILD_HOST=harness
kmake=(make -s -C "$src" O="$out" ARCH=x86_64 "CC=ccache gcc" -j"$(nproc)")

if ! cmp -s "$frag.new" "$frag" || [ ! -f "$out/.config" ]; then
	say "configure: $variant (debug=$debug) in $out"
	"${kmake[@]}" tinyconfig >/dev/null
	(cd "$out" && "$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$frag.new" >/dev/null)
	"${kmake[@]}" olddefconfig >/dev/null
	# Every option asked for must have stuck (a missing dependency would
	# otherwise silently drop it).
	bad=$(grep -E '^CONFIG_' "$frag.new" | while IFS='=' read -r opt val; do
		if [ "$val" = n ]; then
			grep -qE "^$opt=" "$out/.config" && echo "$opt=n"
		else
			grep -qxF "$opt=$val" "$out/.config" || echo "$opt=$val"
		fi
	done
	grep '^# CONFIG_.* is not set' "$frag.new" | while read -r _ opt _; do
		grep -qE "^$opt=" "$out/.config" && echo "$opt (project files missing)"
	done) || true
	if [ -n "$bad" ]; then
		rm -f "$out/.config"
		die "these config settings did not stick: $(echo $bad)"
	fi
	mv "$frag.new" "$frag"
else
	rm -f "$frag.new"
fi

say "build: $variant kernel on Linux $(base_version "$src") (log: $out/build.log)"
start=$(date +%s)
echo "# base: Linux $(base_version "$src") ($variant, debug=$debug)" >"$out/build.log"
if ! "${kmake[@]}" bzImage modules >>"$out/build.log" 2>&1; then
	grep -E 'error|Error' "$out/build.log" | head -40 >&2
	die "kernel build failed, see $out/build.log"
fi
# No warning in a file of ours, at W=1 too: the project's C files are
# compiled once more with W=1 (ccache keeps both builds cheap).
own_c=$(cd "$REPO_DIR" && git ls-files --cached --others --exclude-standard -- \
	'kernel/*.c' 'samples/*.c' | while read -r f; do [ -f "$f" ] && echo "$f"; done)
own_o=$(for f in $own_c; do
	o=${f%.c}.o
	if [ -f "$out/$o" ]; then echo "$o"; fi
done)
: >"$out/build-w1.log"
if [ "$variant" = ours ] && [ -n "$own_o" ]; then
	# shellcheck disable=SC2086
	"${kmake[@]}" W=1 $own_o >"$out/build-w1.log" 2>&1 ||
		{ cat "$out/build-w1.log" >&2; die "W=1 build of the project's files failed"; }
fi
warn=$(cat "$out/build.log" "$out/build-w1.log" | { grep -E 'warning:' || true; } |
	while read -r l; do
		for f in $own_c; do
			case $l in *"$f:"*) echo "$l"; break ;; esac
		done
	done | sort -u)
grep -E 'warning:' "$out/build.log" >&2 || true
if [ "$variant" = ours ] && [ -n "$warn" ]; then
	echo "$warn" >&2
	die "warnings in the project's files (above): fix them"
fi
rm -rf "$out/modroot"
"${kmake[@]}" INSTALL_MOD_PATH="$out/modroot" INSTALL_MOD_STRIP=1 modules_install >/dev/null 2>&1 ||
	die "modules_install failed"
# The base's own synth_event_gen_test.c, built out of tree against our
# kernel as synth_event_gen_test_upstream.ko: proves the exported
# synth_event_* API is compatible.  Built here, never shipped.
rm -rf "$out/ext-upstream"
if [ "$variant" = ours ] && grep -q '^CONFIG_SYNTH_EVENTS=y' "$out/.config"; then
	base=$("$HARNESS_DIR/fetch-base.sh")
	mkdir -p "$out/ext-upstream"
	cp "$base/kernel/trace/synth_event_gen_test.c" "$out/ext-upstream/synth_event_gen_test_upstream.c"
	echo 'obj-m := synth_event_gen_test_upstream.o' >"$out/ext-upstream/Kbuild"
	"${kmake[@]}" M="$out/ext-upstream" modules >"$out/ext-upstream/build.log" 2>&1 ||
		{ cat "$out/ext-upstream/build.log" >&2; die "upstream synth_event_gen_test does not build against our kernel"; }
fi
say "build: done in $(( $(date +%s) - start ))s"
echo "$link"
