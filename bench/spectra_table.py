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
        sizes = re.findall(r"^\| 2\^(\d+) \| (\S+) \| [^|]* \| ([\d.]+) \| ([\d.]+) \| ([\d.-]+) \| ([\d.]+)x \|", md, re.M)
        geo = re.search(r"geomean CUB/tgm over 2\^14..2\^22: ([\d.]+)x", md)
        geo_all = re.search(r"geomean CUB/tgm over all sizes: ([\d.]+)x", md)
        low = re.search(r"lowest ratio CUB/tgm: ([\d.]+)x at (2\^\d+)", md)
        below = [f"2^{s[0]}" for s in sizes if float(s[5]) < 1.0]
        big = [s for s in sizes if int(s[0]) == max(int(x[0]) for x in sizes)] if sizes else []
        cub = re.search(r"^- CUB: ([^,\s]+)", md, re.M)
        rows.append((title.group(1), title.group(2), title.group(4), title.group(3).replace("|", "\\|"),
                     geo.group(1) if geo else "-", geo_all.group(1) if geo_all else "-",
                     f"{low.group(1)}x ({low.group(2)})" if low else "-",
                     ", ".join(below) or "-",
                     f"{float(big[0][3]):.0f} GB/s at 2^{big[0][0]}" if big else "-",
                     cub.group(1) if cub else "none"))
rows.sort()
print("| spectrum | type | mode | op | geomean CUB/tgm 2^14..2^22 | geomean all sizes | lowest | sizes below 1.00x | tgm at the largest size | CUB program |")
print("| --- | --- | --- | --- | ---: | ---: | ---: | --- | ---: | --- |")
for r in rows:
    print("| " + " | ".join(r) + " |")
