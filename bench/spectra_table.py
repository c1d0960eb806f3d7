#!/usr/bin/env python3
"""The summary table of a bench/spectra.sh run: per spectrum, type and mode,
the geomean and lowest CUB/tgm ratio, from the reports in reports.tar.gz.
   python3 bench/spectra_table.py bench/results/DIR > bench/results/DIR/summary.md"""
import re, sys, tarfile

d = sys.argv[1]
rows = []
with tarfile.open(f"{d}/reports.tar.gz") as t:
    for m in t.getmembers():
        if not re.search(r"/report-.*\.md$", m.name):
            continue
        md = t.extractfile(m).read().decode()
        title = re.search(r"^# tgm-tune: (\S+) (\S+) \((.*)\), (\S+) mode", md, re.M)
        cub = re.search(r"^- CUB: ([^,\s]+)", md, re.M)
        both = title.group(4) == "both"
        # a size's row: us, GB/s, CUB us, ratio; --mode both: "stream / graph" each
        num = r"([\d.]+) / ([\d.]+)" if both else r"([\d.]+)()"
        rat = r"([\d.]+)x / ([\d.]+)x" if both else r"([\d.]+)x()"
        sizes = re.findall(r"^\| 2\^(\d+) \| (\S+) \| [^|]* \| " + num + r" \| ([\d.]+) \| [^|]* \| " + rat + r" \|",
                           md, re.M)
        for k, mode in enumerate(["stream", "graph"] if both else [title.group(4)]):
            tag = f" \\({mode}\\)" if both else ""
            geo = re.search(r"geomean CUB/tgm" + tag + r" over 2\^14..2\^22: ([\d.]+)x", md)
            geo_all = re.search(r"geomean CUB/tgm" + tag + r" over all sizes: ([\d.]+)x", md)
            low = re.search(r"lowest ratio CUB/tgm" + tag + r": ([\d.]+)x at (2\^\d+)", md)
            below = [f"2^{x[0]}" for x in sizes if float(x[5 + k]) < 1.0]
            big = [x for x in sizes if int(x[0]) == max(int(y[0]) for y in sizes)] if sizes else []
            gbps = float(big[0][4]) if big else 0
            if big and k == 1:  # the graph time's bandwidth: GB/s scales with 1 / time
                gbps *= float(big[0][2]) / float(big[0][3])
            rows.append((title.group(1), title.group(2), ("both: " if both else "") + mode,
                         title.group(3).replace("|", "\\|"),
                         geo.group(1) if geo else "-", geo_all.group(1) if geo_all else "-",
                         f"{low.group(1)}x ({low.group(2)})" if low else "-",
                         ", ".join(below) or "-",
                         f"{gbps:.0f} GB/s at 2^{big[0][0]}" if big else "-",
                         cub.group(1) if cub else "none"))
rows.sort()
print("| spectrum | type | mode | op | geomean CUB/tgm 2^14..2^22 | geomean all sizes | lowest | sizes below 1.00x | tgm at the largest size | CUB program |")
print("| --- | --- | --- | --- | ---: | ---: | ---: | --- | ---: | --- |")
for r in rows:
    print("| " + " | ".join(r) + " |")
