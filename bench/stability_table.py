#!/usr/bin/env python3
"""Compares the tuner's choices between runs (bench/stability.sh): for every
spectrum, type, mode and size, whether the runs chose the same variant and
knobs, and whether each run's winner beat its runner-up beyond noise (the
margin's 95% interval above 0). The proof asked of the tuner: runs agree on
every size where a winner's margin exceeds its uncertainty.
   python3 bench/stability_table.py DIR|DB.json ...   (db-*.json in each DIR;
   with one database of each of two GPUs, the same table across the GPUs)"""
import glob, json, re, sys, tarfile
from collections import defaultdict

runs = []  # (label, {(spectrum hash, type, op, mode, params): {log2n: result}})
for d in sys.argv[1:]:
    paths = [d] if d.endswith(".json") else sorted(glob.glob(f"{d}/db-*.json")) or [f"{d}/db.json"]
    for path in paths:
        db = json.load(open(path))
        table = {}
        for e in db["entries"]:
            k = e["key"]
            key = (k["source_hash"], k["type"], k["op"], k["mode"], k.get("params", ""))
            table[key] = {r["log2n"]: r for r in e["results"]}
            device = k["device"]
        runs.append((f"{path} ({device})", table))

def choice(r):
    return (r["variant"], r["block"], r["items"], r.get("grid_cap_per_sm", 0))

def beyond(r):
    return r.get("chosen_by") == "faster"

# source hash -> spectrum name, from the reports (their title and hash line)
names = {}
for d in sys.argv[1:]:
    d = d.rsplit("/", 1)[0] if d.endswith(".json") else d
    try:
        with tarfile.open(f"{d}/reports.tar.gz") as t:
            for m in t.getmembers():
                if m.name.endswith(".md"):
                    md = t.extractfile(m).read().decode()
                    title = re.search(r"^# tgm-tune: (\S+) ", md, re.M)
                    h = re.search(r"manifest source hash (\S+);", md)
                    if title and h:
                        names[h.group(1)] = title.group(1)
    except FileNotFoundError:
        pass
rows, totals = [], defaultdict(int)
keys = sorted(set.intersection(*[set(t) for _, t in runs]))
for key in keys:
    sizes = sorted(set.intersection(*[set(t[key]) for _, t in runs]))
    agree = within = bad = 0
    bad_sizes = []
    for l in sizes:
        rs = [t[key][l] for _, t in runs]
        same = all(choice(r) == choice(rs[0]) for r in rs)
        if same:
            agree += 1
        elif any(beyond(r) for r in rs):
            # a winner beyond noise in one run that another run did not choose
            bad += 1
            bad_sizes.append(f"2^{l}: " + " / ".join(f"{r['variant']} b{r['block']} i{r['items']}"
                                                   f" ({r.get('chosen_by', '?')}, {100 * r.get('margin', {}).get('median', 0):+.1f}%)"
                                                   for r in rs))
        else:
            within += 1
    nb = sum(all(beyond(t[key][l]) for _, t in runs) for l in sizes)
    # differ, and every run's winner beat its runner-up beyond noise: across
    # GPUs, the evidence for tuning per GPU
    both = sum(all(beyond(t[key][l]) for _, t in runs) and
               not all(choice(t[key][l]) == choice(runs[0][1][key][l]) for _, t in runs) for l in sizes)
    rows.append((key, len(sizes), agree, within, bad, nb, both, bad_sizes))
    for name, v in (("sizes", len(sizes)), ("agree", agree), ("within", within), ("bad", bad),
                    ("beyond", nb), ("both", both)):
        totals[name] += v

print("Runs compared:\n")
for label, _ in runs:
    print(f"- {label}")
print("\n| spectrum | type | op | mode | params | sizes | same choice | differ, all within noise | differ, a winner beyond noise | beyond noise in every run | differ, beyond noise in every run |")
print("| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
for key, n, a, w, b, nb, both, _ in rows:
    print(f"| {names.get(key[0], key[0])} | {key[1]} | {key[2]} | {key[3]} | {key[4] or '-'} | {n} | {a} | {w} | {b} | {nb} | {both} |")
print(f"| all | | | | | {totals['sizes']} | {totals['agree']} | {totals['within']} | {totals['bad']} | {totals['beyond']} | {totals['both']} |")
bad = [(k, s) for k, *_, s in rows if s]
if bad:
    print("\nSizes where the runs differ although a winner beat its runner-up beyond noise:\n")
    for key, sizes in bad:
        for s in sizes:
            print(f"- {names.get(key[0], key[0])} {key[1]} {key[3]}: {s}")
