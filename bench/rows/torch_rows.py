"""torch_rows.py -- the peer anchors of issue 12 on the GPU at hand: torch's
row (dim=1) and column (dim=0) reductions, sum, amax and amin over f32 and
i32, for the shapes rows_bench times, timed as rows_bench times (cold: one
call after a 256 MiB write, median of 7; warm: 20 calls back to back,
median of 5). Another process than rows_bench: its numbers are a peer's,
not an A/B in one process.
    python3 bench/rows/torch_rows.py OUT.md
    python3 bench/rows/torch_rows.py --csv OUT.csv [--sweep]
The CSV form times what tests/embed/gpu_rows.cu --bench times (the nine
shapes for sum/max/min, with --sweep also its sweep for sum), rows and
columns: one call after a 256 MiB write, median of 15 (as gpu_rows' (b));
and 20 calls back to back after that write, per call (as its (a), but on
one copy of the input, which favours torch on matrices L2 holds).
"""
import sys
import torch

SHAPES = [(16, 128), (768, 4096), (25, 1 << 20), (1 << 20, 8), (1 << 20, 32),
          (4096, 4096), (4, 1 << 26), (1 << 24, 4), (1 << 22, 64)]


def timed(f):
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    f()
    cold = []
    for _ in range(7):
        flush.fill_(1)
        a.record()
        f()
        b.record()
        b.synchronize()
        cold.append(a.elapsed_time(b) * 1000)
    warm = []
    for _ in range(5):
        a.record()
        for _ in range(20):
            f()
        b.record()
        b.synchronize()
        warm.append(a.elapsed_time(b) * 1000 / 20)
    return sorted(cold)[3], sorted(warm)[2]


def timed_csv(f):
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    f()
    one, batch = [], []
    for _ in range(15):
        flush.fill_(1)
        a.record()
        f()
        b.record()
        b.synchronize()
        one.append(a.elapsed_time(b) * 1000)
    for _ in range(7):
        flush.fill_(1)
        a.record()
        for _ in range(20):
            f()
        b.record()
        b.synchronize()
        batch.append(a.elapsed_time(b) * 1000 / 20)
    return sorted(batch)[3], sorted(one)[7]


def main_csv(path, sweep):
    out = open(path, "w")
    name = torch.cuda.get_device_name(0)
    out.write(f"# torch {torch.__version__} on {name}; us per call: a (20 back to back after a flush), b (one after a flush)\n")
    out.write("set,shape,type,op,m,n,torch_a,torch_b\n")
    ops = (("sum", torch.sum), ("max", torch.amax), ("min", torch.amin))
    runs = [("issue", m, n, ops) for m, n in SHAPES]
    if sweep:
        runs += [("sweep", 1 << (e - k), 1 << k, ops[:1]) for e in range(10, 29, 2) for k in range(1, min(e, 26) + 1, 2)]
    for dt, tn in ((torch.float32, "f32"), (torch.int32, "i32")):
        for dim, shape in ((1, "rows"), (0, "cols")):
            for tag, m, n, these in runs:
                x = torch.randint(-1000, 1001, (m, n), device="cuda", dtype=torch.int32).to(dt)
                for op, f in these:
                    ta, tb = timed_csv(lambda: f(x, dim=dim))
                    out.write(f"{tag},{shape},{tn},{op},{m},{n},{ta:.3f},{tb:.3f}\n")
                    out.flush()
                del x
    out.close()


def main():
    if sys.argv[1] == "--csv":
        return main_csv(sys.argv[2], "--sweep" in sys.argv[3:])
    out = open(sys.argv[1], "w")
    name = torch.cuda.get_device_name(0)
    out.write(f"# torch {torch.__version__} on {name}: rows (dim=1) and columns (dim=0)\n\n")
    out.write("| type | op | m x n | rows cold us | rows TB/s | rows warm us | cols cold us | cols TB/s | cols warm us |\n")
    out.write("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
    for dt, tn in ((torch.float32, "f32"), (torch.int32, "i32")):
        for m, n in SHAPES:
            x = (torch.randint(-1000, 1001, (m, n), device="cuda", dtype=torch.int32)).to(dt)
            if dt == torch.float32:
                x = x / 1000
            nbytes = m * n * 4
            for op, f in (("sum", torch.sum), ("max", torch.amax), ("min", torch.amin)):
                rc, rw = timed(lambda: f(x, dim=1))
                cc, cw = timed(lambda: f(x, dim=0))
                out.write(f"| {tn} | {op} | {m} x {n} | {rc:.1f} | {nbytes / rc / 1e6:.2f} | {rw:.1f} | "
                          f"{cc:.1f} | {nbytes / cc / 1e6:.2f} | {cw:.1f} |\n")
                out.flush()
            del x
    out.close()


if __name__ == "__main__":
    main()
