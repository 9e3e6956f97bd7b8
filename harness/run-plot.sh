#!/bin/bash
# make run: the guest's latency_hist/ histograms (the files demo.sh sent
# between @@FILE markers) as a copy under out/latency_hist/, drawn into
# out/latency-hist.png by tools/tracing/latency_hist/latency-hist-plot.py.
#   run-plot.sh RESULTS_LOG
. "$(dirname "$0")/lib.sh"

results=$1
out=$REPO_DIR/out
"$HARNESS_DIR/host-deps.sh" python3-matplotlib
rm -rf "$out/latency_hist"
mkdir -p "$out"
awk -v top="$out" '
	/^@@FILE latency_hist\/[a-z_\/]+\/CPU[0-9]+$/ {
		f = top "/" $2
		d = f
		sub(/\/[^\/]*$/, "", d)
		system("mkdir -p \"" d "\"")
		printf "" > f
		next
	}
	/^@@FILE-END/ { if (f != "") close(f); f = ""; next }
	f != "" { print > f }
' "$results"
[ -d "$out/latency_hist" ] || die "the guest sent no latency_hist/ histogram to plot"
/usr/bin/python3 "$REPO_DIR/tools/tracing/latency_hist/latency-hist-plot.py" \
	-t "latency_hist/ of make run (Linux $(base_version), QEMU)" \
	-o "$out/latency-hist.png" "$out/latency_hist" >&2 ||
	die "latency-hist-plot.py failed"
say "plot: $out/latency-hist.png (from $out/latency_hist/)"
