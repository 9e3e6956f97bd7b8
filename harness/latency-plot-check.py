#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
# Selftest of tools/tracing/latency_hist/latency-hist-plot.py on a made-up
# latency_hist/ copy: one line per type and CPU with samples, log-scale
# counts over microseconds, a PNG written, and a malformed file refused.
import importlib.util
import os
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
path = os.path.join(here, "..", "tools", "tracing", "latency_hist",
                    "latency-hist-plot.py")
spec = importlib.util.spec_from_file_location("lhplot", path)
lhplot = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lhplot)

HEADER = """#Minimum latency: {min} microseconds
#Average latency: {avg} microseconds
#Maximum latency: {max} microseconds
#Total samples: {total}
#There are 0 samples lower than 0 microseconds.
#There are 0 samples greater or equal than 10240 microseconds.
#usecs\t         samples
"""


def write_cpu(path, buckets, full):
    total = sum(buckets.values())
    with open(path, "w") as f:
        if total:
            lo, hi = min(buckets), max(buckets)
            avg = sum(k * v for k, v in buckets.items()) // total
            f.write(HEADER.format(min=lo, avg=avg, max=hi, total=total))
        else:
            f.write(HEADER.format(min="<undef>", avg="<undef>",
                                  max="<undef>", total=0))
        for us in range(10240 if full else 0):
            f.write("%5d\t%16d\n" % (us, buckets.get(us, 0)))
        if not full:
            for us in sorted(buckets):
                f.write("%5d\t%16d\n" % (us, buckets[us]))


def fail(msg):
    sys.exit("latency plot selftest: " + msg)


with tempfile.TemporaryDirectory() as top:
    data = {
        ("wakeup", 0): {3: 10, 4: 200, 17: 1},
        ("wakeup", 1): {5: 7},
        ("wakeup/sharedprio", 0): {},
        ("wakeup/sharedprio", 1): {},
        ("missed_timer_offsets", 0): {0: 1000, 1: 30, 250: 2},
        ("missed_timer_offsets", 1): {},
    }
    for (t, cpu), b in data.items():
        os.makedirs(os.path.join(top, t), exist_ok=True)
        # full files as tracefs has them, and sparse copies
        write_cpu(os.path.join(top, t, "CPU%d" % cpu), b, cpu == 0)
    out = os.path.join(top, "plot.png")
    series = lhplot.collect(top)
    labels = [label for label, _ in series]
    want = ["wakeup CPU0", "wakeup CPU1", "missed_timer_offsets CPU0"]
    if labels != want:
        fail("lines %s, want %s" % (labels, want))
    if series[0][1] != data[("wakeup", 0)]:
        fail("wakeup CPU0 read as %s" % series[0][1])
    fig = lhplot.plot(series, out, "selftest")
    ax = fig.axes[0]
    if ax.get_yscale() != "log":
        fail("y axis is %s, not log" % ax.get_yscale())
    if ax.get_xlabel() != "latency (microseconds)" or ax.get_ylabel() != "samples":
        fail("axis labels %r, %r" % (ax.get_xlabel(), ax.get_ylabel()))
    lines = ax.get_lines()
    if [ln.get_label() for ln in lines] != want:
        fail("plotted %s" % [ln.get_label() for ln in lines])
    xs, ys = list(lines[2].get_xdata()), list(lines[2].get_ydata())
    # every microsecond from 0, empty ones a gap (NaN) in the line
    points = [(x, y) for x, y in zip(xs, ys) if y == y]
    if xs != list(range(251)) or points != [(0, 1000), (1, 30), (250, 2)]:
        fail("missed_timer_offsets CPU0 plotted as %s" % points)
    with open(out, "rb") as f:
        png = f.read()
    if png[:8] != b"\x89PNG\r\n\x1a\n" or len(png) < 10000:
        fail("%s is not a PNG of a plot (%d bytes)" % (out, len(png)))
    with open(os.path.join(top, "wakeup", "CPU1"), "a") as f:
        f.write("garbage\n")
    try:
        lhplot.collect(top)
        fail("a malformed CPUx file was accepted")
    except ValueError as e:
        if "wakeup/CPU1:" not in str(e):
            fail("malformed file: %s" % e)
print("latency plot ok")
