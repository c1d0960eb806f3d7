#!/usr/bin/env python3
"""compare.py BEFORE.csv AFTER.csv -- the sweep cells whose pick differs between two
runs of bench/rows/embed.sh (gpu_rows --bench --sweep): tgm's (b) and (c), their ratio
before / after, and floor / tgm (b) before and after. Two device calls: the machines
differ by a few % (see ../2026-11-29-cols-parts, 2.), so a cell's ratio is indicative;
the A/Bs of one process are in the directories the README names."""
import csv
import sys


def load(p):
    return {(r["shape"], r["type"], int(r["m"]), int(r["n"])): r
            for r in csv.DictReader(l for l in open(p) if not l.startswith("#")) if r["set"] == "sweep"}


a, b = load(sys.argv[1]), load(sys.argv[2])
print("| shape | type | m x n | pick before -> after | (b) before / after | (c) before / after | floor/tgm (b) |")
print("| --- | --- | --- | --- | ---: | ---: | --- |")
for k in sorted(set(a) & set(b), key=lambda k: (k[0], k[1], k[2] * k[3], k[3])):
    x, y = a[k], b[k]
    if x["pick"] == y["pick"]:
        continue
    tb = [float(r["tgm_b"]) for r in (x, y)]
    tc = [float(r["tgm_c"]) for r in (x, y)]
    fl = [float(r["floor_b"]) / float(r["tgm_b"]) for r in (x, y)]
    print(f"| {k[0]} | {k[1]} | {k[2]} x {k[3]} | {x['pick']} -> {y['pick']} | {tb[0]:.1f} / {tb[1]:.1f} "
          f"({tb[0] / tb[1]:.2f}) | {tc[0]:.1f} / {tc[1]:.1f} ({tc[0] / tc[1]:.2f}) | {fl[0]:.2f} -> {fl[1]:.2f} |")
