"""tuned_ab.py -- the embedded calls with and without tgm-tune's cells
(bench/rows/tuned_ab.sh): per sweep shape of sum f32/i32 rows and columns,
the rule's header time over the tuned header's, in the three timings of
tests/embed/gpu_timing.h ((a) stream, (b) one call after an L2 flush, (c) a
CUDA graph), split by what the database has for the shape's cell: a setting
other than the rule's (the tuned header runs it), the rule's own (both run
the same kernel: the two runs' noise), or no cell (both run the rule).

    python3 bench/rows/tuned_ab.py OUTDIR DB.json

Reads OUTDIR/rule.csv and OUTDIR/tuned.csv, writes OUTDIR/tuned_ab.md.
"""
import csv
import json
import math
import sys


def cell(x):
    """launch_rule.tpl's tgm_shape_cell: the odd a with 2^(a-1) <= x < 2^(a+1)."""
    return max(x, 1).bit_length() - 1 | 1


def load(path):
    rows = [line for line in open(path) if not line.startswith("#")]
    return {(r["shape"], r["type"], r["op"], int(r["m"]), int(r["n"])): r
            for r in csv.DictReader(rows) if r["set"] == "sweep"}


def geo(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    out, db = sys.argv[1], sys.argv[2]
    rule, tuned = load(f"{out}/rule.csv"), load(f"{out}/tuned.csv")
    chosen = {}
    for e in json.load(open(db))["entries"]:
        k = e["key"]
        for r in e["results"] if "shape" in k else []:
            f = r.get("formula") or {}
            same = f.get("variant") == r["variant"] and all(
                f.get(x) == r.get(x) for x in ("block", "items", "per_row", "width", "parts"))
            chosen[(k["shape"], k["type"], k["op"], r["log2m"], r["log2n"])] = (same, r)
    lines = ["# The embedded calls: the rule's header against the tuned header", "",
             "Per sweep shape, time with the rule's pick over time with tgm-tune's cells "
             "(above 1: the tuned header is faster), in each timing.", ""]
    groups = {}
    detail = []
    for key in sorted(rule):
        if key not in tuned:
            continue
        shape, typ, op, m, n = key
        c = chosen.get((shape, typ, op, cell(m), cell(n)))
        kind = "no cell" if c is None else "the rule kept" if c[0] else "a tuned setting"
        ratios = [float(rule[key][f"tgm_{t}"]) / float(tuned[key][f"tgm_{t}"]) for t in "abc"]
        groups.setdefault((shape, typ, kind), []).append(ratios)
        if c is not None and not c[0]:
            r = c[1]
            detail.append(f"| {shape} | {typ} | {m} | {n} | {rule[key]['pick']} | {r['variant']} b{r['block']} "
                          f"i{r['items']} r{r['per_row']} w{r['width']} p{r['parts']} | "
                          + " | ".join(f"{x:.3f}" for x in ratios) + " |")
    lines += ["| shape | type | the cell has | shapes | (a) geomean | (b) geomean | (c) geomean | "
              "(b) lowest | (b) highest |", "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for (shape, typ, kind), rs in sorted(groups.items()):
        b = [r[1] for r in rs]
        lines.append(f"| {shape} | {typ} | {kind} | {len(rs)} | {geo([r[0] for r in rs]):.3f} | "
                     f"{geo(b):.3f} | {geo([r[2] for r in rs]):.3f} | {min(b):.3f} | {max(b):.3f} |")
    lines += ["", "## Shapes whose cell has a tuned setting", "",
              "| shape | type | m | n | the rule's pick | the tuned setting | (a) | (b) | (c) |",
              "| --- | --- | ---: | ---: | --- | --- | ---: | ---: | ---: |"] + detail
    open(f"{out}/tuned_ab.md", "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
