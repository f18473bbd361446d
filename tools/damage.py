#!/usr/bin/env python3
"""Damaged logs: how many findings does one slip of the recorder give?

A good log (a shipped sample) is damaged one slip at a time, and each
damaged log is audited with `canasta audit --format json`; the errors and
warnings are counted. One slip should give one finding (docs/readings.md,
R117-R132). The damages:

    lines   each line after the header, in turn: deleted, written twice,
            swapped with the next, and (a move) given the next seat
    deal    a card of a deal's hand written as another (random, --count)
    draw    a draw written with the stock's next card too (--count)

    tools/damage.py KIND SAMPLE [--canasta BIN] [--base BIN] [--count N] [--seed S] [--show N]

SAMPLE is a log (samples/classic/game.jsonl). With --base, each log is
audited with both binaries and the logs that give more findings with
--canasta than with --base are listed (a regression check). With --show N,
the damaged logs that give N findings or more are listed, most first. Prints
how many damaged logs give 0, 1, 2, ... findings.
"""
import argparse
import collections
import json
import os
import random
import subprocess
import sys
import tempfile


def count_findings(binary, path):
    p = subprocess.run([binary, "audit", path, "--format", "json"], capture_output=True, timeout=60)
    if p.returncode not in (0, 1):
        return -1  # the tool could not do its job: shown as -1
    report = json.loads(p.stdout)
    found = []
    for f in report["files"]:
        found += f["findings"]
        for g in f["games"]:
            found += g["findings"]
    return sum(1 for f in found if f["severity"] in ("error", "warning"))


def line_damages(lines):
    players = len(json.loads(lines[0]).get("players", [])) or 4
    for i in range(1, len(lines)):
        event = json.loads(lines[i])
        kind = event.get("type", "?")
        yield f"line {i + 1} {kind} deleted", lines[:i] + lines[i + 1:]
        yield f"line {i + 1} {kind} twice", lines[:i + 1] + [lines[i]] + lines[i + 1:]
        if i + 1 < len(lines):
            yield f"line {i + 1} {kind} swapped", lines[:i] + [lines[i + 1], lines[i]] + lines[i + 2:]
        if "player" in event:
            event["player"] = (event["player"] + 1) % players
            yield f"line {i + 1} {kind} reseated", lines[:i] + [json.dumps(event)] + lines[i + 1:]


def deal_damages(lines, count, rng):
    faces = [r + s for r in "3456789TJQKA2" for s in "CDHS"] + ["JK"]
    deals = [i for i, l in enumerate(lines) if json.loads(l).get("type") == "deal"]
    for _ in range(count):
        i = rng.choice(deals)
        deal = json.loads(lines[i])
        seat = rng.randrange(len(deal["hands"]))
        k = rng.randrange(len(deal["hands"][seat]))
        old = deal["hands"][seat][k]
        deal["hands"][seat][k] = rng.choice([f for f in faces if f != old])
        name = f"line {i + 1} seat {seat} {old} as {deal['hands'][seat][k]}"
        yield name, lines[:i] + [json.dumps(deal, separators=(",", ":"))] + lines[i + 1:]


def draw_damages(lines, count):
    events = [json.loads(l) for l in lines]
    made = 0
    for i, e in enumerate(events):
        if made >= count:
            return
        if e.get("type") != "draw" or e.get("bonus"):
            continue
        following = None  # the next card taken from the stock in this hand
        for later in events[i + 1:]:
            if later.get("type") in ("deal", "end_hand"):
                break
            if later.get("type") == "draw" and later.get("cards"):
                following = later["cards"][0]
                break
            if later.get("type") == "three" and later.get("replacement"):
                following = later["replacement"]
                break
        if not following:
            continue
        longer = dict(e, cards=e["cards"] + [following])
        made += 1
        yield f"line {i + 1} draw with {following}", lines[:i] + [json.dumps(longer)] + lines[i + 1:]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=["lines", "deal", "draw"])
    parser.add_argument("sample")
    parser.add_argument("--canasta", default="build/canasta")
    parser.add_argument("--base")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--show", type=int, help="list the logs with this many findings or more")
    args = parser.parse_args()
    lines = open(args.sample).read().splitlines()
    if args.kind == "lines":
        damages = line_damages(lines)
    elif args.kind == "deal":
        damages = deal_damages(lines, args.count, random.Random(args.seed))
    else:
        damages = draw_damages(lines, args.count)
    histogram = collections.Counter()
    worse = []
    shown = []
    fewer = 0
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "damaged.jsonl")
        for name, damaged in damages:
            with open(path, "w") as f:
                f.write("\n".join(damaged) + "\n")
            n = count_findings(args.canasta, path)
            histogram[n] += 1
            if args.show is not None and n >= args.show:
                shown.append((n, name))
            if args.base:
                b = count_findings(args.base, path)
                if n > b:
                    worse.append((n - b, b, n, name))
                elif n < b:
                    fewer += 1
    total = sum(histogram.values())
    print(f"{args.sample}: {total} damaged logs ({args.kind})")
    print("findings: " + ", ".join(f"{k}: {v}" for k, v in sorted(histogram.items())))
    for n, name in sorted(shown, key=lambda x: -x[0]):
        print(f"  {name}: {n}")
    if args.base:
        print(f"against --base: {fewer} fewer, {len(worse)} more")
        for more, b, n, name in sorted(worse, reverse=True)[:20]:
            print(f"  {name}: {b} -> {n}")
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main())
