#!/usr/bin/python3
# SPDX-License-Identifier: AGPL-3.0-or-later
"""Draws casa-arena summaries as one chart: the win rate of bot A in each match,
with its 95 % (Wilson) interval, one row per match. Needs Debian's matplotlib
(scripts/deps.sh charts), hence Debian's /usr/bin/python3.

    scripts/arena_chart.py --out docs/img/arena.png summary1.json summary2.json ...

A match's label is its game, player count and options, then "A vs B". Solo
matches (one seat) draw both bots' win rates.
"""
import argparse
import json
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402


def label(s):
    opts = s.get("options") or {}
    mode = opts.get("format", "")
    game = f"{s['game']} {s['players']}p" + (f" {mode}" if mode else "")
    return f"{game}: {s['a']} vs {s['b']}"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="the PNG file to write")
    p.add_argument("--title", default="casa-arena: win rate of A (95 % interval)")
    p.add_argument("summaries", nargs="+", help="casa-arena --json files")
    args = p.parse_args()

    rows = []  # (label, rate, low, high, games)
    for path in args.summaries:
        with open(path) as f:
            s = json.load(f)
        if s.get("mode") == "solo":
            for who in ("a", "b"):
                lo, hi = s[f"{who}_win_rate_ci95"]
                rows.append((f"{s['game']} solo: {s[who]} wins", s[f"{who}_win_rate"], lo, hi,
                             s["deals"]))
        else:
            lo, hi = s["win_rate_ci95"]
            rows.append((label(s), s["win_rate"], lo, hi, s["games"]))
    if not rows:
        sys.exit("arena_chart: no summaries")

    rows.reverse()  # the first file on top
    fig, ax = plt.subplots(figsize=(10, 0.5 * len(rows) + 1.4))
    ys = range(len(rows))
    rates = [r[1] for r in rows]
    errors = [[r[1] - r[2] for r in rows], [r[3] - r[1] for r in rows]]
    ax.errorbar(rates, ys, xerr=errors, fmt="o", capsize=4, color="tab:blue")
    for y, r in zip(ys, rows):
        ax.annotate(f"{r[1]:.0%} (n={r[4]})", (r[3], y), xytext=(6, -3),
                    textcoords="offset points", fontsize=8)
    ax.axvline(0.5, color="grey", linestyle=":", linewidth=1)
    ax.set_yticks(list(ys))
    ax.set_yticklabels([r[0] for r in rows], fontsize=8)
    ax.set_xlim(0, 1.12)
    ax.set_xlabel("win rate of A (draws count half)")
    ax.set_title(args.title, fontsize=10)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"arena_chart: wrote {args.out} ({len(rows)} rows)")


if __name__ == "__main__":
    main()
