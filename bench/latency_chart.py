#!/usr/bin/env python3
# SPDX-License-Identifier: AGPL-3.0-or-later
"""Latency against offered load: one point per run of casa-loadgen --rate.

    bench/latency_chart.py --out chart.png curve.jsonl [more.jsonl ...]

Each input line is casa-loadgen's JSON report of one open-loop run; every file
becomes one set of lines (p50, p99, p99.9), labelled with the file's name, so a
before/after pair shares one chart. Needs matplotlib (scripts/deps.sh charts).
"""
import argparse
import json
import os
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("latency_chart.py needs matplotlib (scripts/deps.sh charts)", file=sys.stderr)
        return 2
    fig, ax = plt.subplots(figsize=(7, 4.5))
    styles = {"p50": "-", "p99": "--", "p99.9": ":"}
    for path in args.files:
        runs = [json.loads(line) for line in open(path) if line.strip()]
        runs.sort(key=lambda r: r["offered_rate"])
        label = os.path.splitext(os.path.basename(path))[0]
        x = [r["moves_per_s"] for r in runs]
        for key, style in styles.items():
            y = [r["latency_us"][key] / 1000.0 for r in runs]
            ax.plot(x, y, style, marker="o", label=f"{label} {key}")
        for r in runs:
            print(f"{label}: offered {r['offered_rate']:.0f}/s achieved {r['moves_per_s']:.0f}/s "
                  + " ".join(f"{k} {r['latency_us'][k] / 1000:.2f} ms" for k in ("p50", "p90", "p99", "p99.9", "max")))
    ax.set_xlabel("moves per second (achieved, open loop)")
    ax.set_ylabel("move -> accepted latency (ms)")
    ax.set_yscale("log")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
