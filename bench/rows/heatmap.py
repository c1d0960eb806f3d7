"""heatmap.py -- the report of the embedded row and column calls: the
tables and the heat maps of tests/embed/gpu_rows.cu --bench (tgm and CUB in
one process) and bench/rows/torch_rows.py --csv (torch, in another).

    python3 bench/rows/heatmap.py GPU_ROWS.csv TORCH.csv OUT_DIR

Writes OUT_DIR/report.md (the nine shapes of issue 12 for every type and op:
the three timings, TB/s, the ratio to each peer; the sweep: per m*n and n,
TB/s and the ratio to the better peer) and OUT_DIR/heat_{rows,cols}_{f32,i32}.svg:
one cell per (log2 m*n, log2 n), its colour and number the better peer's
time over tgm's in timing (b) (one call after an L2 flush; torch is timed
only so for that and (a)); above 1, tgm is faster. Where the csv has
floor_b (tests/embed/gpu_timing.h bytes_floor, the shape's input and
output bytes at a plain read's rate), the sweep tables and summaries
measure tgm against it too, and each sweep lists the cells that miss
each of issue 12's goals with their floor ("Goal by goal"). Plain Python: no plotting
library is needed on the GPU machine or here.
"""
import csv
import math
import os
import statistics
import sys

# Issue 12's goals: A, m n >= 2^(GOAL_A_LOG2) at GOAL_A_TBPS or more; B, GOAL_B_RATIO x the
# better peer where it reads below GOAL_B_PEER_TBPS; C, never below 1.0 x the better peer.
GOAL_A_LOG2, GOAL_A_TBPS, GOAL_B_RATIO, GOAL_B_PEER_TBPS = 24, 2.9, 1.5, 2.0


def load(path):
    lines = [line for line in open(path) if not line.startswith("#")]
    return list(csv.DictReader(lines))


def key(r):
    return (r["set"], r["shape"], r["type"], r["op"], int(r["m"]), int(r["n"]))


def tbps(m, n, us):
    return m * n * 4 / us / 1e6


def peer_b(r, torch):
    """The better peer's time in (b) and its name (CUB for rows, torch)."""
    best = []
    t = torch.get(key(r))
    if t:
        best.append((float(t["torch_b"]), "torch"))
    if r["shape"] == "rows" and float(r["cub_b"]) > 0:
        best.append((float(r["cub_b"]), "CUB"))
    return min(best) if best else (None, None)


def colour(ratio):
    """Red below 1 (tgm slower), white at 1, green above (to 4x)."""
    if ratio is None:
        return "#dddddd"
    x = max(-1.0, min(1.0, math.log(ratio) / math.log(4)))
    if x < 0:
        v = int(255 * (1 + x))
        return f"#ff{v:02x}{v:02x}"
    v = int(255 * (1 - x))
    return f"#{v:02x}ff{v:02x}"


def svg(cells, title, path):
    """cells: {(log2 total, log2 n): ratio}"""
    totals = sorted({c[0] for c in cells})
    ns = sorted({c[1] for c in cells})
    w, h, left, top = 46, 24, 70, 50
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + w * len(totals) + 20}" '
           f'height="{top + h * len(ns) + 50}" font-family="sans-serif" font-size="11">',
           f'<text x="{left}" y="20" font-size="13">{title}</text>']
    for i, t in enumerate(totals):
        out.append(f'<text x="{left + i * w + w / 2}" y="{top + h * len(ns) + 16}" '
                   f'text-anchor="middle">2^{t}</text>')
    out.append(f'<text x="{left + w * len(totals) / 2}" y="{top + h * len(ns) + 34}" '
               f'text-anchor="middle">m x n (elements)</text>')
    for j, n in enumerate(reversed(ns)):
        out.append(f'<text x="{left - 6}" y="{top + j * h + h / 2 + 4}" text-anchor="end">n = 2^{n}</text>')
        for i, t in enumerate(totals):
            r = cells.get((t, n))
            if r is None:
                continue
            x, y = left + i * w, top + j * h
            out.append(f'<rect x="{x}" y="{y}" width="{w - 1}" height="{h - 1}" fill="{colour(r)}"/>')
            out.append(f'<text x="{x + w / 2}" y="{y + h / 2 + 4}" text-anchor="middle">{r:.2f}</text>')
    out.append("</svg>")
    open(path, "w").write("\n".join(out) + "\n")


def summary(cells, big):
    """The issue's goals over one sweep: the geomean and the cells below the
    better peer, TB/s at m n >= 2^24, 1.5x where the peer reads < 2 TB/s;
    and, where the csv has the floor (gpu_timing.h bytes_floor: the shape's
    bytes, input and output, at a plain read's rate), the goals measured
    against it: >= 90 % of the floor's rate at m n >= 2^24, and where the
    peer reads < 2 TB/s at least min(1.5, 0.9 x floor rate / peer rate)."""
    rs = {c: r for c, r in cells.items() if r}
    if not rs:
        return []
    geo = math.exp(sum(math.log(r) for r in rs.values()) / len(rs))
    low = sorted((r, c) for c, r in rs.items() if r < 1.0)
    worst = ", ".join(f"2^{c[0]}/n=2^{c[1]} {r:.2f}" for r, c in low[:5])
    large = [b for b in big if b["total"] >= GOAL_A_LOG2]
    fast = [b for b in large if b["tbps"] >= GOAL_A_TBPS]
    slow_peer = [b for b in big if b["ratio"] and b["peer_tbps"] < GOAL_B_PEER_TBPS]
    won = [b for b in slow_peer if b["ratio"] >= GOAL_B_RATIO]
    out = [f"Summary: geomean better peer / tgm (b) {geo:.2f} over {len(rs)} cells; "
           f"{len(low)} below 1.0" + (f" (lowest: {worst})" if low else "") + "; "
           f"m n >= 2^24: {len(fast)} of {len(large)} cells at >= 2.9 TB/s; "
           f"where the better peer reads < 2 TB/s: {len(won)} of {len(slow_peer)} cells >= 1.5x."]
    if all(b["floor"] for b in big):
        near = [b for b in large if b["floor"] >= 0.9]
        lows = sorted(large, key=lambda b: b["floor"])[:4]
        capped = [b for b in slow_peer if b["ratio"] >= min(GOAL_B_RATIO, 0.9 * b["floor_ratio"])]
        out += ["", f"Against the floor: m n >= 2^24: {len(near)} of {len(large)} cells at >= 90 % of the "
                f"floor's rate (lowest: " + ", ".join(f"2^{b['total']}/n=2^{b['n']} {b['floor']:.2f}"
                                                       for b in lows) + "); "
                f"where the better peer reads < 2 TB/s: {len(capped)} of {len(slow_peer)} cells at >= "
                "min(1.5, 0.9 x the floor's speed-up over the peer)."]
        out += [""] + goal_misses(big, large, slow_peer)
    return out


def goal_misses(big, large, slow_peer):
    """Each of the issue's three goals, the cells that miss it and where
    they stand against their floor (floor/tgm 1.00: as fast as a plain read
    of the cell's bytes). For goal B, also how many of its misses the floor
    allows at all: 1.5x the peer is faster than a plain read where the
    peer's time is under 1.5x the floor's. large and slow_peer: summary's
    cells of goals A and B."""
    def spread(label, cells):
        fl = [b["floor"] for b in cells]
        if not fl:
            return f"- {label}: none."
        return (f"- {label}: {len(cells)}, floor/tgm {min(fl):.2f}-{max(fl):.2f} (median "
                f"{statistics.median(fl):.2f}), {sum(f >= 0.95 for f in fl)} at >= 0.95 of the floor.")
    b_miss = [b for b in slow_peer if b["ratio"] < GOAL_B_RATIO]
    reachable = [b for b in b_miss if b["floor_ratio"] >= GOAL_B_RATIO]
    return ["Goal by goal, the cells that miss it against their floor:", "",
            spread(f"A, m n >= 2^24 below 2.9 TB/s (of {len(large)})",
                   [b for b in large if b["tbps"] < GOAL_A_TBPS]),
            spread(f"B, below 1.5x a peer that reads < 2 TB/s (of {len(slow_peer)})", b_miss),
            spread("B's misses the floor allows (1.5x the peer slower than a plain read)", reachable),
            spread("C, below 1.0x the better peer", [b for b in big if b["ratio"] and b["ratio"] < 1.0])]


def main():
    tgm, torch_rows, outdir = load(sys.argv[1]), load(sys.argv[2]), sys.argv[3]
    torch = {key(r): r for r in torch_rows}
    header = open(sys.argv[1]).readline().lstrip("# ").strip()
    os.makedirs(outdir, exist_ok=True)
    md = [f"# The embedded row and column calls: {header}", "",
          "(a) 20 calls back to back, (b) one call after an L2 flush, (c) 20 calls in a CUDA graph; "
          "us per call, median of 15, cold L2 (tests/embed/gpu_timing.h). CUB: "
          "DeviceSegmentedReduce (rows only). torch: another process, (a) and (b) only "
          "(bench/rows/torch_rows.py --csv). TB/s: m n 4 bytes / (b).", ""]
    for set_name, title in (("issue", "The nine shapes of issue 12"),
                            ("rule", "Rows at the row rule's boundaries of n (every op)")):
        table = nine_table(tgm, torch, set_name, title)
        if table:
            md += ([""] if md[-1] else []) + table
    for shape in ("rows", "cols"):
        for ty in ("f32", "i32"):
            rows = [r for r in tgm if r["set"] == "sweep" and r["shape"] == shape and r["type"] == ty]
            if not rows:
                continue
            md += ["", f"## Sweep: {shape}, sum {ty}", "",
                   "| m x n | n | pick | tgm (b) us | TB/s | floor/tgm (b) | better peer (b) | peer/tgm (b) | "
                   "peer/tgm (a) |",
                   "| --- | --- | --- | ---: | ---: | ---: | --- | ---: | ---: |"]
            cells, big = {}, []
            for r in rows:
                m, n = int(r["m"]), int(r["n"])
                tb = float(r["tgm_b"])
                pt, pn = peer_b(r, torch)
                p = torch.get(key(r))
                pa = [float(p["torch_a"])] if p else []
                if shape == "rows":
                    pa.append(float(r["cub_a"]))
                ra = min(pa) / float(r["tgm_a"]) if pa else None
                lt, ln = int(math.log2(m * n)), int(math.log2(n))
                cells[(lt, ln)] = pt / tb if pt else None
                fb = float(r.get("floor_b") or 0)
                big.append({"total": lt, "n": ln, "tbps": tbps(m, n, tb), "peer_tbps": tbps(m, n, pt) if pt else None,
                            "ratio": pt / tb if pt else None, "floor": fb / tb if fb else None,
                            "floor_ratio": pt / fb if fb and pt else None})
                md.append(f"| 2^{lt} | 2^{ln} | {r['pick']} | {tb:.1f} | {tbps(m, n, tb):.2f} | "
                          + (f"{fb / tb:.2f}" if fb else "—") + f" | {pn or '—'} | "
                          + (f"{pt / tb:.2f}" if pt else "—") + " | " + (f"{ra:.2f}" if ra else "—") + " |")
            md += [""] + summary(cells, big)
            name = f"heat_{shape}_{ty}.svg"
            svg(cells, f"{shape}, sum {ty}, {header.split(';')[0]}: better peer / tgm, one call after a flush",
                os.path.join(outdir, name))
            md += ["", f"![{shape} {ty}]({name})"]
    md += disturbed(tgm)
    open(os.path.join(outdir, "report.md"), "w").write("\n".join(md) + "\n")


def nine_table(tgm, torch, set_name, title):
    """The table of one set of named shapes (the csv's `set`): every call's
    three timings, TB/s and its ratio to each peer; empty where the csv has
    none of the set."""
    out = []
    for r in tgm:
        if r["set"] != set_name:
            continue
        m, n = int(r["m"]), int(r["n"])
        t = [float(r[f"tgm_{x}"]) for x in "abc"]
        c = [float(r[f"cub_{x}"]) for x in "abc"]
        p = torch.get(key(r))
        cub = " | ".join(f"{c[i] / t[i]:.2f}" for i in range(3)) if r["shape"] == "rows" else "— | — | —"
        tor = (f"{float(p['torch_a']) / t[0]:.2f} | {float(p['torch_b']) / t[1]:.2f}" if p else "— | —")
        out.append(f"| {r['shape']} | {r['type']} | {r['op']} | {m} x {n} | {r['pick']} | {t[0]:.1f} | "
                   f"{t[1]:.1f} | {t[2]:.1f} | {tbps(m, n, t[1]):.2f} | {cub} | {tor} |")
    if not out:
        return []
    return [f"## {title}", "",
            "| shape | type | op | m x n | pick | tgm (a) | (b) | (c) | TB/s | CUB/tgm (a) | (b) | (c) | "
            "torch/tgm (a) | (b) |",
            "| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"] + out


def disturbed(tgm):
    """tgm's calls whose one-call time (b) exceeds the graph time (c) by more
    than max(5 us, 5 %): (b) launches its 15 samples from the host one by
    one, so a host stall of a few ms shows in (b) (and (a)) only; in the
    sweeps so far (b) - (c) is otherwise 0-3 us (launch latency the flush
    does not hide). Listed, not dropped: the tables and summaries above
    keep them."""
    out = []
    for r in tgm:
        b, c = float(r["tgm_b"]), float(r["tgm_c"])
        if c > 0 and b - c > max(5.0, 0.05 * c):
            out.append(f"| {r['set']} | {r['shape']} | {r['type']} | {r['op']} | {r['m']} x {r['n']} | "
                       f"{r['pick']} | {float(r['tgm_a']):.1f} | {b:.1f} | {c:.1f} |")
    if not out:
        return ["", "No disturbed measurement: every call's (b) within max(5 us, 5 %) of its (c)."]
    return ["", "## Disturbed measurements", "",
            "tgm's (b) more than max(5 us, 5 %) above its (c): likely a host stall during the one-call "
            "samples (the graph timing needs one host launch for 20 calls). Kept in the tables above.", "",
            "| set | shape | type | op | m x n | pick | (a) | (b) | (c) |",
            "| --- | --- | --- | --- | --- | --- | ---: | ---: | ---: |"] + out


if __name__ == "__main__":
    main()
