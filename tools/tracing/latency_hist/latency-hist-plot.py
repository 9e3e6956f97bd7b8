#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Plot the histograms of latency_hist/ as a PNG.

Reads every <type>/CPUx file below a latency_hist directory (the one in
tracefs, /sys/kernel/tracing/latency_hist, or a copy of it, in which a
file may leave out the buckets that hold no samples) and draws the
samples of each microsecond on a logarithmic scale, one line per type
and CPU that has samples, as long-term latency plots usually show them.

    latency-hist-plot.py [-o latency-hist.png] [-t TITLE] [DIR]
"""

import argparse
import os
import re
import sys

# The types in the order of the reference's directories.
TYPES = ["preemptoff", "irqsoff", "preemptirqsoff", "wakeup",
         "wakeup/sharedprio", "missed_timer_offsets"]

CPU_FILE = re.compile(r"^CPU(\d+)$")
BUCKET = re.compile(r"^\s*(-?\d+)\t\s*(\d+)$")


def read_cpu_file(path):
    """The samples per microsecond of one CPUx file, as {usecs: count}.

    Header lines (#...) are skipped; bucket lines are "<usecs>\\t<count>".
    A line that is neither stops with an error naming the file and line.
    """
    buckets = {}
    with open(path, encoding="ascii") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            m = BUCKET.match(line)
            if not m:
                raise ValueError("%s:%d: not a histogram line: %r" %
                                 (path, n, line))
            if int(m.group(2)):
                buckets[int(m.group(1))] = int(m.group(2))
    return buckets


def collect(top):
    """[(label, {usecs: count})] for every type and CPU with samples."""
    series = []
    for t in TYPES:
        d = os.path.join(top, t)
        if not os.path.isdir(d):
            continue
        cpus = sorted((int(m.group(1)), name) for name in os.listdir(d)
                      for m in [CPU_FILE.match(name)] if m)
        for cpu, name in cpus:
            buckets = read_cpu_file(os.path.join(d, name))
            if buckets:
                series.append(("%s CPU%d" % (t, cpu), buckets))
    return series


def plot(series, out, title):
    """Draw @series into the PNG @out; returns the figure."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(10, 6))
    for label, buckets in series:
        # every microsecond up to the largest sample: an empty bucket is
        # a gap in the line, not a slope to the next sample
        xs = list(range(min(0, min(buckets)), max(buckets) + 1))
        ys = [buckets.get(x, float("nan")) for x in xs]
        ax.plot(xs, ys, label=label, linewidth=1, marker=".", markersize=3)
    ax.set_yscale("log")
    ax.set_ylim(bottom=0.8)    # a bucket with one sample stays visible
    ax.set_xlabel("latency (microseconds)")
    ax.set_ylabel("samples")
    ax.set_title(title)
    ax.grid(True, which="both", linewidth=0.3)
    if series:
        ax.legend(fontsize="small", ncol=2)
    else:
        ax.text(0.5, 0.5, "no samples", transform=ax.transAxes,
                ha="center")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    return fig


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", nargs="?",
                    default="/sys/kernel/tracing/latency_hist",
                    help="a latency_hist directory or a copy of it")
    ap.add_argument("-o", "--output", default="latency-hist.png")
    ap.add_argument("-t", "--title", default="latency_hist")
    args = ap.parse_args(argv)
    if not os.path.isdir(args.dir):
        sys.exit("%s: no such directory" % args.dir)
    series = collect(args.dir)
    plot(series, args.output, args.title)
    print("%s: %d line(s)" % (args.output, len(series)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
