#!/bin/bash
# Build make stress's test module (harness/stress/module/) out of tree
# against a kernel build, into BUILD_DIR/stress-module (never into the
# repository).
#   stress-module.sh ours|stock BUILD_DIR      prints the .ko path
. "$(dirname "$0")/lib.sh"

variant=${1:-ours} build=$2
[ -f "$build/Module.symvers" ] || die "no module build in $build (build the kernel first)"
case $variant in
ours|stock)	src=$(variant_src "$variant") ;;
*)	die "unknown variant '$variant' (ours or stock)" ;;
esac

out=$build/stress-module
rm -rf "$out"
mkdir -p "$out"
cp "$HARNESS_DIR/stress/module/Kbuild" "$HARNESS_DIR/stress/module/hist_stress.c" "$out/"
export CCACHE_DIR=${CCACHE_DIR:-$CACHE_DIR/ccache}
export KBUILD_BUILD_TIMESTAMP='2024-01-01 00:00:00 UTC' KBUILD_BUILD_USER=harness KBUILD_BUILD_HOST=harness
if ! make -s -C "$src" O="$build" ARCH=x86_64 "CC=ccache gcc" M="$out" modules >"$out/build.log" 2>&1; then
	cat "$out/build.log" >&2
	die "the stress module does not build against $build"
fi
if grep -E 'warning:' "$out/build.log" >&2; then
	die "the stress module builds with warnings (see $out/build.log)"
fi
say "stress module: $out/hist_stress.ko"
echo "$out/hist_stress.ko"
