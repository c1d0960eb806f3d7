"""tune_heatmap.py -- heat maps of a tgm-tune database over rows and columns
(runtime/tune/shapes.c): for every entry (GPU, type, operator, rows or
columns), one cell per (log2 m*n, log2 n), its colour and number the rule's
time over the tuned choice's (launch_rule.tpl's pick against tgm-tune's
best; 1.00 where the rule was kept), and a table of the same per kind of the
rule's choice.

    python3 bench/rows/tune_heatmap.py DB.json OUT_DIR

Writes OUT_DIR/tune_heat_{rows,cols}_{TYPE}_{OP}_{GPU}.svg and
OUT_DIR/tune_heat.md. Plain Python (heatmap.py's drawing).
"""
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from heatmap import svg  # noqa: E402


def main():
    db, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    lines = ["# The rule against tgm-tune's choice, per cell", "",
             f"From `{db}`: rule / choice is the time of the rule's pick (launch_rule.tpl) "
             "over the time of the setting tgm-tune keeps (the same A/B rounds); 1.00 where "
             "the rule was kept or won. A cell 2^a x 2^b holds m in [2^(a-1), 2^(a+1)).", ""]
    for e in json.load(open(db))["entries"]:
        k = e["key"]
        if "shape" not in k:
            continue
        cells, kinds = {}, {}
        for r in e["results"]:
            f = r.get("formula")
            if not f:
                continue
            ratio = f["us"] / r["us"] if r["variant"] != f["variant"] or any(
                r.get(x) != f.get(x) for x in ("block", "items", "per_row", "width", "parts")) else 1.0
            cells[(r["log2m"] + r["log2n"], r["log2n"])] = ratio
            kinds.setdefault(f["variant"], []).append(ratio)
        gpu = re.sub(r"[^A-Za-z0-9]+", "_", k["device"]).strip("_")
        name = f"tune_heat_{k['shape']}_{k['type']}_{k['op']}_{gpu}.svg"
        svg(cells, f"{k['device']}: {k['op']} {k['type']} {k['shape']}, rule / tuned choice "
                   f"({k['mode']} mode)", os.path.join(out, name))
        lines += [f"## {k['device']}: {k['op']} {k['type']} {k['shape']} ([map]({name}))", "",
                  "| rule's variant | cells | geomean rule / choice | worst | cells > 1.10 |",
                  "| --- | ---: | ---: | ---: | ---: |"]
        for v, rs in sorted(kinds.items()):
            geo = math.exp(sum(math.log(x) for x in rs) / len(rs))
            lines.append(f"| {v} | {len(rs)} | {geo:.3f} | {max(rs):.3f} | "
                         f"{sum(1 for x in rs if x > 1.10)} |")
        allr = list(cells.values())
        if allr:
            geo = math.exp(sum(math.log(x) for x in allr) / len(allr))
            lines.append(f"| all | {len(allr)} | {geo:.3f} | {max(allr):.3f} | "
                         f"{sum(1 for x in allr if x > 1.10)} |")
        lines.append("")
    open(os.path.join(out, "tune_heat.md"), "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
