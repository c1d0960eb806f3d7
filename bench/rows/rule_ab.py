"""rule_ab.py -- two versions of the untuned rule (launch_rule.tpl's
tgm_rows_pick_of / tgm_cols_pick_of) against each other: the csv files of
tests/embed/gpu_rows.cu --bench --sweep built with the new headers (NEW)
and the old ones (OLD), e.g. by bench/rows/tuned_ab.sh OLD_HEADERS OUTDIR
(there rule.csv is the working tree's headers, tuned.csv the ones given).
Per shape kind (rows, columns) and timing ((a) stream, (b) one call after
an L2 flush, (c) a CUDA graph): the geomean and range of old / new time
where the two rules pick differently, and the same where they pick the same
kernel (the runs' noise); and new against CUB where they differ.

    python3 bench/rows/rule_ab.py NEW.csv OLD.csv > OUT.md
"""
import sys

from tuned_ab import geo, load  # the same csv reader and geomean


def main():
    new, old = load(sys.argv[1]), load(sys.argv[2])
    print("# The rule, new against old (old / new time; above 1: the new rule is faster)\n")
    print(f"- new: `{sys.argv[1]}`, old: `{sys.argv[2]}`\n")
    for shape in ("rows", "cols"):
        keys = sorted(k for k in new if k[0] == shape and k in old)
        diff = [k for k in keys if new[k]["pick"] != old[k]["pick"]]
        same = [k for k in keys if new[k]["pick"] == old[k]["pick"]]
        print(f"## {shape}: {len(diff)} of {len(keys)} shapes pick differently\n")
        print("| timing | differ: geomean | min | max | same pick (noise): geomean | min | max |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        for t in "abc":
            d = [float(old[k][f"tgm_{t}"]) / float(new[k][f"tgm_{t}"]) for k in diff]
            s = [float(old[k][f"tgm_{t}"]) / float(new[k][f"tgm_{t}"]) for k in same]
            print(f"| ({t}) | {geo(d):.3f} | {min(d, default=float('nan')):.3f} | "
                  f"{max(d, default=float('nan')):.3f} | {geo(s):.3f} | "
                  f"{min(s, default=float('nan')):.3f} | {max(s, default=float('nan')):.3f} |")
        print()
        print("| type | m | n | old pick | new pick | old/new (a) | (b) | (c) | CUB/new (b) |")
        print("| --- | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: |")
        for k in diff:
            o, n = old[k], new[k]
            r = [float(o[f"tgm_{t}"]) / float(n[f"tgm_{t}"]) for t in "abc"]
            cub = float(n["cub_b"]) / float(n["tgm_b"]) if float(n["cub_b"]) > 0 else float("nan")
            print(f"| {k[1]} | {k[3]} | {k[4]} | {o['pick']} | {n['pick']} | "
                  f"{r[0]:.3f} | {r[1]:.3f} | {r[2]:.3f} | {cub:.2f} |")
        print()


main()
