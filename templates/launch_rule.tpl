// How a variant is launched: the blocks of a launch shape (the manifest's
// "grid") and the temp storage of one launch (its "temp":
// align16(grid * sizeof(A)) + 16). One home for the rule
// (templates/launch_rule.tpl): every generated source and embedded header
// holds this text, and tgm-tune (runtime/tune/rule.c) and tgm_reduce
// compile it. Plain C, so both compilers read it.
#ifndef TGM_LAUNCH_RULE_DEFINED
#define TGM_LAUNCH_RULE_DEFINED
enum tgm_rule { TGM_ONE, TGM_TILES, TGM_TILES_VEC, TGM_STRIDED, TGM_STRIDED_VEC };

// Blocks of `block` threads, `items` elements (or 16-byte vectors, for the
// _VEC rules: the 16-byte aligned body of the input at address in_addr)
// each; strided grids capped at grid_cap blocks; at most 2^31 - 1.
static inline unsigned tgm_grid_of(enum tgm_rule rule, unsigned long long in_addr, unsigned long long n,
                                   unsigned block, unsigned items, unsigned grid_cap, size_t elem_bytes) {
  unsigned long long elems = n;
  if (rule == TGM_TILES_VEC || rule == TGM_STRIDED_VEC) {
    unsigned long long head = ((16 - (in_addr & 15)) & 15) / elem_bytes;
    elems = (n - (head < n ? head : n)) / (16 / elem_bytes);
  }
  unsigned long long per = (unsigned long long)block * items;
  unsigned long long g = (elems + per - 1) / per;
  if (rule == TGM_ONE || g == 0)
    g = 1;
  if ((rule == TGM_STRIDED || rule == TGM_STRIDED_VEC) && g > grid_cap)
    g = grid_cap;
  return g > 0x7fffffffull ? 0x7fffffffu : (unsigned)g;
}

// Does the output, out_bytes at out_addr, overlap an input, in_bytes at
// in_addr? Such a call is refused (invalid value): the kernels of several
// variants write the output (the global atomics add into it, from its
// identity on) while other blocks still read the input, and every kernel
// takes its input as __restrict__. A matrix's rows or columns are in_bytes
// = ((m - 1) * ld + n) elements.
static inline int tgm_overlaps(unsigned long long out_addr, unsigned long long out_bytes,
                               unsigned long long in_addr, unsigned long long in_bytes) {
  return out_bytes && in_bytes && out_addr < in_addr + in_bytes && in_addr < out_addr + out_bytes;
}

// The kernel a launch of `items` runs where the kernel is compiled for its
// loads in flight (the manifest's name expression holds ITEMS: the strided
// vector kernels, file.tpl's tgm_values_DS_SV): 16, 4 or 1 vectors a thread.
static inline unsigned tgm_items_path(unsigned items) {
  return items >= 16 ? 16u : items >= 4 ? 4u : 1u;
}

// The partials, one accumulator per block rounded up to 16 bytes, then 16
// bytes for the last-block counter.
static inline size_t tgm_temp_need(unsigned long long grid, size_t acc_bytes, int partials, int counter) {
  return (partials ? ((size_t)grid * acc_bytes + 15) / 16 * 16 : 0) + (counter ? 16 : 0);
}

// Rows (tgm-gen --rows): blocks for m rows, `group` threads a row and
// block / group rows a block (RW), or a block a row (RB, RL: group 0; RL's
// grid is this many rows of `parts` blocks); 0 past 2^31 - 1 blocks, a
// launch that cannot be made.
static inline unsigned tgm_rows_grid_of(unsigned long long m, unsigned block, unsigned group) {
  unsigned long long per = group && group < block ? block / group : 1;
  unsigned long long g = (m + per - 1) / per;
  return g > 0x7fffffffull ? 0u : (unsigned)g;
}

// Rows packed into 16-byte vectors of vw elements, as RW.SS's thread a row
// reads them (file.tpl's tgm_rows_packed decides the same in the kernel):
// one row after another (ld == n), n < vw and a divisor of it, at most 8
// rows a vector, and the matrix at in_addr with its 16-byte boundaries
// between rows. The rows a vector then; 0 where they are not packed.
static inline unsigned tgm_rows_packed_of(unsigned long long in_addr, unsigned long long n, unsigned long long ld,
                                          unsigned vw, size_t elem_bytes) {
  const unsigned long long head = ((16 - (in_addr & 15)) & 15) / elem_bytes; // elements before a boundary
  if (vw < 2 || ld != n || n == 0 || n >= vw || vw % n != 0 || vw / n > 8 || head % n != 0)
    return 0;
  return (unsigned)(vw / n);
}

// A thread a vector of packed rows (rows_vector of them, as
// tgm_rows_packed_of gives), block threads a block, the rows before the
// first boundary and after the last (under 2 rows_vector) one a thread.
static inline unsigned tgm_rows_packed_grid_of(unsigned long long m, unsigned block, unsigned rows_vector) {
  return tgm_rows_grid_of((m + rows_vector - 1) / rows_vector + 2ull * rows_vector, block, 1);
}

// Columns (tgm-gen --cols): the x blocks of a column launch, its tiles (y
// is its parts down the rows): `width` columns a block (CT.SS: vw = 1), or
// width groups of vw adjacent columns that start at the 16-byte boundaries
// of the matrix at in_addr (CT.SV), over n columns; 0 past 2^31 - 1.
static inline unsigned tgm_cols_grid_of(unsigned long long in_addr, unsigned long long n, unsigned width,
                                        unsigned vw, size_t elem_bytes) {
  unsigned long long span = n + (vw > 1 ? (in_addr & 15) / elem_bytes : 0), cols = (unsigned long long)width * vw;
  unsigned long long g = cols ? (span + cols - 1) / cols : 0;
  return g > 0x7fffffffull ? 0u : (unsigned)g;
}

// The widths a column launch of `block` threads takes: a power of two, 1 to
// the block (a block's lanes are block / width; none is no lane at all).
static inline int tgm_cols_width_ok(unsigned width, unsigned block) {
  return width != 0 && width <= block && (width & (width - 1)) == 0;
}

// RL's temp storage: a counter for each of up to TGM_ROWS_PARTS_MAX rows
// (row r's at word r, whatever m is: zero when temp is first used, and every
// call leaves them zero), then `parts` accumulators a row.
enum { TGM_ROWS_PARTS_MAX = 4096 };
static inline size_t tgm_rows_temp_need(unsigned long long m, unsigned parts, size_t acc_bytes) {
  return (size_t)TGM_ROWS_PARTS_MAX * 4 + (size_t)m * parts * acc_bytes;
}

// The tuned buckets over rows and columns (tgm-tune's database): m (or n)
// falls in the cell of the odd a with 2^(a-1) <= m < 2^(a+1) (m = 0: 1).
static inline int tgm_shape_cell(unsigned long long x) {
  int l = 0;
  while (x >> (l + 1))
    l++;
  return l | 1;
}

// Seed 003's schedule for m rows of n elements on a GPU with `sms` SMs and
// at most max_threads threads a block: the default row plan, which the
// tuner searches around. kind: 0 RW (per_row threads a row), 1 RB (a block
// a row), 2 RL (per_row blocks a row).
//   n < 32: efficiency: 32 / n rows a warp for n = 2, 4, 8, 16, else a
//     thread a row (the seed stages 32 rows a warp in shared memory);
//   m < sms: br = min(floor(sms / m), max(1, floor(n / minT))) blocks a row
//     (minT = 512), of wb = min(maxW, floor(n / (32 br))) warps;
//   else: wr = min(floor(maxW sms / m), floor(n / 32)) warps a row: a warp
//     a row (k rows a block) when wr <= 1, else a block of wr warps a row.
// Blocks are powers of two from 128 to max_threads.
struct tgm_rows_plan {
  int kind;
  unsigned per_row, block;
};
static inline unsigned tgm_rows_block_of(unsigned long long warps, unsigned max_threads) {
  unsigned b = 128;
  while (b * 2 <= warps * 32 && b * 2 <= max_threads)
    b *= 2;
  return b;
}
static inline struct tgm_rows_plan tgm_rows_plan_of(unsigned long long m, unsigned long long n, unsigned sms,
                                                    unsigned max_threads) {
  const unsigned long long max_w = max_threads / 32, min_t = 512;
  struct tgm_rows_plan p = {0, 32, 256};
  if (n < 32) {
    p.per_row = n == 2 || n == 4 || n == 8 || n == 16 ? (unsigned)n : 1;
    return p;
  }
  if (m < sms) {
    unsigned long long brn = sms / m, br = n / min_t > 1 ? n / min_t : 1;
    br = br < brn ? br : brn;
    unsigned long long wb = n / (32 * br) < max_w ? n / (32 * br) : max_w;
    p.block = tgm_rows_block_of(wb, max_threads);
    p.kind = br > 1 ? 2 : 1;
    p.per_row = br > 1 ? (unsigned)br : 0;
    return p;
  }
  unsigned long long wrn = max_w * sms / m, wr = n / 32 < wrn ? n / 32 : wrn;
  if (wr > 1) {
    p.kind = 1;
    p.per_row = 0;
    p.block = tgm_rows_block_of(wr, max_threads);
  }
  return p;
}

// The embedded row call (tgm-gen --rows --embed) takes one temp size for
// every shape: RL's counters, then at most TGM_ROWS_EMBED_PARTIALS
// accumulators (tgm_rows_pick_of keeps m * per_row within it). The column
// call's size depends on n alone, and serves every m and every smaller n:
// the counters, then n * parts accumulators for parts up to 4096, at most
// TGM_COLS_EMBED_PARTIALS in all (tgm_cols_pick_of keeps within it).
enum { TGM_ROWS_EMBED_PARTIALS = 32768, TGM_COLS_EMBED_PARTIALS = 1 << 20 };
static inline size_t tgm_rows_embed_temp(size_t acc_bytes) {
  return (size_t)TGM_ROWS_PARTS_MAX * 4 + (size_t)TGM_ROWS_EMBED_PARTIALS * acc_bytes;
}
static inline size_t tgm_cols_embed_temp(unsigned long long n, size_t acc_bytes) {
  unsigned long long most = TGM_COLS_EMBED_PARTIALS, partials = n < most / 4096 ? n * 4096 : most;
  return (size_t)TGM_ROWS_PARTS_MAX * 4 + (size_t)partials * acc_bytes;
}
static inline unsigned long long tgm_pow2_floor(unsigned long long x) {
  unsigned long long p = 1;
  while (p * 2 <= x)
    p *= 2;
  return p;
}

// What the embedded row call runs for m rows of n: seed 003's plan where
// bench/results/2026-11-25-rows-h100 found it within 8 % of the best (few
// long rows), and what the benchmarks measured best elsewhere, where the
// plan was 5-9x behind (bench/results/2026-11-25-embed-rows-h100; the
// blocks and the long-row cases from the A/B in
// bench/results/2026-11-26-embed-rows-picks).
// kind as in tgm_rows_plan_of; vec: vector loads (SV).
//   n < 128: a group of n / 4 threads a row (n < 64; a thread a row for
//     n < 8) or n / 8 (64 <= n < 128), blocks of 128 (256 for n < 4),
//     scalar loads: fewer threads a row keep a warp's loads coalesced
//     across rows, and 4-8 elements a thread pay for the group's shuffles;
//     rows of 1 and 2 packed one after another the thread a row's kernel
//     reads as vectors (tgm_rows_packed_of: 1.05-1.66x from 2^20-2^22
//     elements, bench/results/2026-11-28-packed-rows); where a SM's share
//     of the memory bandwidth (sm_gbps, tgm_sm_gbps; 0 unknown) is at
//     least TGM_ROWS_FAST_SM_GBPS, rows of 8, 16 and 32 from 2^22 elements
//     take more bytes a thread in flight, as Little's law asks of a faster
//     memory: a thread a row of 8 (scalar), else n / 16 threads a row,
//     vector loads, items 4 (H200, 37 GB/s a SM, the embedded call before
//     and after in separate processes: 1.04-1.14x in (c) at the 11 shapes
//     of 2^22-2^28, bench/results/2026-11-29-rows-h200; on the H100, 25
//     GB/s a SM, the same settings were 0.93-1.00x:
//     bench/results/2026-11-26-embed-rows-picks/ab-h100). Not for other n
//     of 8-63 (n = 12, 17, 24, 40, 48, 60, 63: 0.81-0.95x; n = 10 1.06x);
//   m < sms, n < 1024: a warp a row, vector loads, items 4, blocks of 128
//     (1.0-1.06x seed 003's block a row at 2^10-2^18 elements, where calls
//     take 4-5 us: bench/results/2026-11-26-h100-floor/ab-small);
//   m < sms: seed 003 (RL of br blocks a row, items 4) where rows have
//     n >= 65536, but for br <= 4 and n < 2^20 a block of 512 a row (RB,
//     items 1: 1.09-1.17x RL on the H100 at n = 2^17-2^19, 0.94x on the
//     H200 at 2^19, where from 2^21 RL is 1.18-1.22x RB:
//     bench/results/2026-11-26-embed-rows-picks), except where sm_gbps is
//     at least TGM_ROWS_FAST_SM_GBPS, the spectrum has RA and fewer than
//     0.3 sms rows hold 2^23 elements or more: m blocks of 512 on m SMs
//     read at most ~90 GB/s each (H200: 2.9 TB/s at 32 x 524288), so RA
//     (below) spreads the rows over every SM (H200, sum f32 and i32, the
//     embedded call before and after: 1.10-1.41x in (b), 1.16-1.51x in (c)
//     at 10 shapes of 27-39 rows; RA was 1.02-1.08x at 40 rows, 0.97-1.01x
//     at 44, 0.92-1.07x at 2^22: bench/results/2026-11-29-rows-spread);
//     and for shorter rows the seed's block a row (RB, items 1; RL's
//     counter memset and last-block finish cost more there), of at most
//     512 threads: tgm-tune's cells
//     (bench/results/2026-11-26-tune-shapes) found RB of 512 1.58-1.76x
//     the seed's RL at n = 2^15 (m = 2, 8) and 1.10-1.18x RB of 1024 at
//     32 x 8192, on the H100 and the H200; rows of n < 16384 in blocks
//     of n / 16 threads (128 to 512), items 4: all of a thread's four
//     vectors in flight (1.02-1.05x items 1: ab-small);
//     From 2^22 to 2^26 elements that RL takes blocks of 256, two a SM
//     (floor(2 sms / m) a row): 1.02-1.05x the seed's blocks of 1024, one
//     a SM, at 2^23-2^25 for m = 2-16, in (b) and (c), 1.01-1.02 at 2^22,
//     within 1 % at 2^26 and 1 % behind at 2^28
//     (bench/results/2026-11-26-rows-rl256); the floor keeps the blocks
//     in one wave of two a SM (a sum kernel takes 103 registers, too many
//     for three): ceil(2 sms / m), where m does not divide 2 sms, left a
//     last wave of a few blocks, 1.17-1.35x slower at 2^22-2^26 for m = 5,
//     7, 10, 16, 25, 50 on the H200 (bench/results/2026-11-27-h200/rl-floor);
//   long rows (n >= 8192) on sms <= m < 2 sms: RL of 2 blocks of 1024 a
//     row, items 4, so the GPU is full; but where sm_gbps is at least
//     TGM_ROWS_FAST_SM_GBPS, for n <= 262144, a block of 256 a row, items 1
//     (RB): on the H200, the embedded call before and after, all six
//     type/ops at 8 shapes of 132-256 rows of 8192-65536: 1.10-1.39x in
//     (b), 1.13-1.51x in (c), where RA was 0.66-0.98x CUB for f32 max/min
//     (bench/results/2026-11-29-rows-mid); pick_ab's grid (sum f32 and
//     i32) found RB of 256 1.03-1.13x RA at 140-256 rows of 65540-262144
//     in (b), 1.00-1.12x in (c), and 0.99x at 140 x 524288, left to RA
//     (bench/results/2026-11-29-rows-mid-long; the H100 keeps RL/RA,
//     unmeasured there);
//   where the spectrum has RA, RA instead of RL in both cases (below);
//   n < 1024, and n < 1536 on m >= 4 sms rows (a block of 128 a SM at
//     least): a group of n / 16 threads a row (16 elements each), up to a
//     warp, vector loads, items 4, blocks of 128 (at n = 1024 the warp a
//     row is 1.18-1.54x a block a row of 128, items 1, on 1000-262144
//     rows; on 132-300 rows 1.02-1.03x, where the block a row, items 4,
//     is 1.09-1.12x: bench/results/2026-11-28-rows-final/rw);
//   n < 4096: a block of 128 a row, items 4: all of a thread's vectors in
//     flight (against items 1, sum f32 on the H100, (b): 1.22-1.40x at
//     n = 1500-2000 (1.31x at 8192 x 1536), 1.00-1.03x at 2048; blocks
//     of n / 16 threads, items 4, as for m < sms, were 0.997-1.014x at
//     4096 and 8192 for sum but 0.80-0.88x for f32 max/min at 4096, blocks
//     of 256: rw/, rb/, rule/);
//   else a block of 128 a row, items 1 (512 for n >= 32768 from 2^26
//     elements: 1.01-1.03x at seven shapes of 2^26-2^28, 0.95-0.98x at
//     2^24-2^25: bench/results/2026-11-26-h100-floor/ab-big, ab-big2).
// With `atomics` (the spectrum has RA: its result the accumulator, no
// epilogue), wherever it takes RL it takes RA instead: blocks of 256,
// items 4, each block's value combined into out[row] with an atomic after
// a kernel sets out to the identity: no counters, partials, ticket or
// last-block fold, and no bound on the blocks from the partials. From 2^22
// elements 8 sms blocks in all (one wave of eight 256-thread blocks a SM),
// below 2 sms; floor(f sms / m) a row. Against the rule's RL, sum f32 in
// one process (H100, bench/results/2026-11-27-rows-ra, pick_ab): 1.24-1.32x
// in (b), 1.75-2.05x in (c) at 2^18-2^20, 1.09-1.14 / 1.34-1.38 at 2^22,
// 1.05-1.08 / 1.06-1.15 at 2^24, 1.03-1.05 at 2^26 and 1.01-1.02 at 2^28
// (4 sms blocks: 0.98-0.99 there). For sms <= m < 2 sms (rows of 8192
// and more, where RL took 2 blocks of 1024 a row), sum f32 at 8 shapes
// of 2^21-2^27 (rows-ra/mid): 1.02-1.57x in (b), 1.03-2.06x in (c). atomic
// is 1 where the pick runs RA (kind 2).
struct tgm_rows_pick {
  int kind, vec;
  unsigned per_row, block, items, atomic;
};
// RL's pick k as RA where the spectrum has it (atomics): blocks of 256,
// items 4, floor(f sms / m) a row (at least 1), f = 8 from 2^22 elements
// (one wave of eight 256-thread blocks a SM), 2 below.
static inline struct tgm_rows_pick tgm_rows_atomic_parts(struct tgm_rows_pick k, unsigned long long m,
                                                         unsigned long long n, unsigned sms, int atomics) {
  if (k.kind != 2 || !atomics || m == 0 || m > 65535)
    return k;
  const unsigned long long per_row = (m * n >= (1ull << 22) ? 8ull : 2ull) * sms / m;
  k.atomic = 1;
  k.block = 256;
  k.items = 4;
  k.per_row = per_row < 1 ? 1 : per_row > 65535 ? 65535 : (unsigned)per_row;
  return k;
}
// A SM's share of the memory bandwidth (GB/s) from which the rows of 8, 16
// and 32 read more bytes a thread, few long rows take RA over every SM and
// sms to 2 sms rows of 8192-262144 a block of 256 a row (tgm_rows_pick_of):
// an H200's 4.9 TB/s over 132 SMs is 37, an H100's 3.35 TB/s 25.
enum { TGM_ROWS_FAST_SM_GBPS = 32 };
// A device's memory bandwidth in whole GB/s from its memory clock (kHz) and
// bus width (bits), 2 transfers a clock; 0 where either is unknown.
static inline unsigned long long tgm_mem_gbps(int mem_khz, int bus_bits) {
  if (mem_khz <= 0 || bus_bits <= 0)
    return 0;
  return 2ull * (unsigned long long)mem_khz * ((unsigned long long)bus_bits / 8) / 1000000;
}
// A SM's share of a bandwidth of gbps GB/s over sms SMs, whole GB/s, at most
// 65535; 0 where either is unknown. The embedded call reads gbps from
// tgm_mem_gbps, tgm-tune and tgm_reduce from their device's peak_gbps, which
// the runtime's backends compute with tgm_mem_gbps too.
static inline unsigned tgm_sm_gbps(unsigned long long gbps, int sms) {
  if (gbps == 0 || sms <= 0)
    return 0;
  const unsigned long long share = gbps / (unsigned long long)sms;
  return share < 65535 ? (unsigned)share : 65535u;
}
static inline struct tgm_rows_pick tgm_rows_pick_of(unsigned long long m, unsigned long long n, unsigned sms,
                                                    unsigned max_threads, unsigned sm_gbps, int atomics) {
  struct tgm_rows_pick k = {0, 1, 32, 128, 1, 0};
  if (n < 128 || m == 0) {
    unsigned long long g = tgm_pow2_floor(n < 64 ? (n / 4 > 1 ? n / 4 : 1) : n / 8);
    k.per_row = g < 32 ? (unsigned)g : 32;
    k.vec = 0;
    k.block = n < 4 ? 256 : 128;
    if (sm_gbps >= TGM_ROWS_FAST_SM_GBPS && (n == 8 || n == 16 || n == 32) && m * n >= (1ull << 22)) {
      // more bytes a thread in flight: a thread a row of 8, else n / 16
      // threads a row, 16-byte vectors, four of them in flight
      k.per_row = n == 8 ? 1 : (unsigned)(n / 16);
      k.vec = n > 8;
      k.items = n > 8 ? 4 : 1;
    }
    return k;
  }
  if (m < sms && n < 1024) {
    k.items = 4;
    return k;
  }
  if (m < sms && m <= TGM_ROWS_PARTS_MAX) {
    struct tgm_rows_plan p = tgm_rows_plan_of(m, n, sms, max_threads);
    // few rows on a fast memory, with atomics: RA's blocks over every SM, not m blocks of 512
    const int spread = atomics && sm_gbps >= TGM_ROWS_FAST_SM_GBPS && 10 * m < 3ull * sms && m * n >= (1ull << 23);
    const int rb512 = !spread && p.kind == 2 && (n < 65536 || (p.per_row <= 4 && n < (1ull << 20))) &&
                      max_threads >= 512;
    k.kind = n >= 16384 && p.kind == 2 && !rb512 ? 2 : 1;
    k.per_row = k.kind == 2 ? p.per_row : 0;
    k.block = k.kind == 2 ? p.block : n >= 16384 && rb512 ? 512 : p.block < 512 ? p.block : 512;
    k.items = k.kind == 2 ? 4 : 1;
    if (k.kind == 2 && m * n >= (1ull << 22) && m * n < (1ull << 26)) {
      k.block = 256; // two blocks a SM, one wave: floor(2 sms / m) a row (m < sms: at least 2)
      k.per_row = (unsigned)(2ull * sms / m);
    }
    k = tgm_rows_atomic_parts(k, m, n, sms, atomics);
    if (n < 16384) {
      const unsigned long long b = tgm_pow2_floor(n / 16);
      k.block = b < 128 ? 128 : b > 512 || b > max_threads ? (max_threads < 512 ? max_threads : 512) : (unsigned)b;
      k.items = 4;
    }
    return k;
  }
  if (sm_gbps >= TGM_ROWS_FAST_SM_GBPS && n >= 8192 && n <= 262144 && m < 2ull * sms && max_threads >= 256) {
    k.kind = 1; // a block of 256 a row, items 1 (m >= sms here)
    k.per_row = 0;
    k.block = 256;
    return k;
  }
  if (n >= 8192 && m < 2ull * sms && m <= TGM_ROWS_PARTS_MAX && max_threads >= 1024) {
    k.kind = 2;
    k.per_row = (unsigned)((2ull * sms + m - 1) / m);
    k.block = 1024;
    k.items = 4;
    return tgm_rows_atomic_parts(k, m, n, sms, atomics);
  }
  if (n < 1024 || (n < 1536 && m >= 4ull * sms)) {
    unsigned long long g = tgm_pow2_floor(n / 16);
    k.per_row = g < 32 ? (unsigned)g : 32;
    k.items = 4;
    return k;
  }
  k.kind = 1;
  k.per_row = 0;
  if (n < 4096)
    k.items = 4;
  else if (n >= 32768 && m * n >= (1ull << 26) && max_threads >= 512)
    k.block = 512;
  return k;
}

// What the embedded column call runs (CT.SV) for the n columns of m rows,
// from the settings the A/B of bench/results/2026-11-26-embed-rows-picks
// measured best and the sweeps there and in -25-embed-rows-h100:
// `groups` of vw adjacent columns a block, pow2_floor(n / vw) up to 32 (128
// for m <= 32: a lane's rows are few, its columns many); one part (no
// counters, no memset, no finish) where a lane of a block of 1024 has at
// most 16 rows, or at most 64 and the tiles give the GPU at least 256
// threads an SM, in blocks of 128 (at least 4 sms tiles), 512 (at least
// sms) or 1024 — but fewer tiles than SMs of at most 2^22 elements take 4
// rows a lane (8 from m = 512), groups cut to what a block of 512 leaves,
// blocks of 256 or 512 (tgm-tune's cells, bench/results/2026-11-26-
// tune-shapes: 1.09-1.37x the blocks of 1024 on the H100 and the H200).
// For 2^22 < m n <= 2^24 with m >= 1024 (16-byte vectors of vw >= 4
// elements), where 8 groups make one part by that test the block takes 8
// groups (1.03-1.16x 32 groups in parts or in one part at 8192 x 2048,
// 4096 x 4096, 2048 x 8192; the same at 512 x 32768 and 0.91x at 128 x
// 131072, hence m >= 1024: bench/results/2026-11-26-cols-narrow).
// Else, up to 2^24 elements with n >= 8 vw (vw >= 4), one part of tiles
// of 2 groups where a lane of a block of 1024 has at most 8 rows (m <=
// 4096) or the tiles are at least twice its rows (n >= 256 for m = 8192,
// n >= 512 for 16384), in blocks of 512 (m <= 2048) or 1024: more tiles
// rather than parts, whose counter memset and finish cost 3-5 us (1.06-1.73x
// the parts at 21 shapes of 2^17-2^24: bench/results/2026-11-26-cols-tiles).
// Else `parts` blocks down the rows, at least 4 rows a lane each, at most
// 4096, the tiles at most TGM_ROWS_PARTS_MAX and n * parts at most
// TGM_COLS_EMBED_PARTIALS: up to 2^24 elements at most 8 groups a tile,
// blocks of 256, 1024 threads an SM over the tiles of a 16-byte aligned
// matrix (1.02-1.18x up to 32 groups in blocks of 512 over the tiles
// counted for any skew, which left 512 threads an SM where one tile was
// counted as two, at 28 of 30 shapes of 2^17-2^24 with n = 16-1024;
// 0.97-1.00x at 65536 x 32 and 131072 x 32: cols-tiles; n <= 8 keeps its
// setting, now so counted);
// above 2^24 groups up to 128 and blocks of 1024, one a SM: parts =
// floor(sms / tiles), the tiles counted for a 16-byte aligned matrix, so
// that the blocks are spread evenly (1.00-1.10x 2048 threads an SM, ceil
// of 2 sms over the tiles counted for any skew, at eleven shapes of
// 2^26-2^28 with n = 32-8192 once the parts took the rows in turn:
// bench/results/2026-11-26-cols-big; 176 blocks of 1024 for 65536 x 1024
// left 44 SMs with two).
// With `atomics` (the spectrum has CA.SV: its result the accumulator, no
// epilogue), a setting in parts runs CA.SV: the parts combine into out with
// atomics after a kernel sets out to the identity, instead of CT.SV's last
// part folding their partials after their counters are cleared: no
// counters, no ticket, no fold. The same settings in one process (H100,
// bench/results/2026-11-27-cols-atomic): 1.02-1.38x in (b), 1.02-1.66x in
// (c) at 16 shapes of 2^16-2^28 with n = 2-8192. Up to 2^24 CA.SV takes
// half the parts, 512 threads an SM (half the atomics on each column):
// at the 26 shapes of 2^20-2^24 (n = 2-512) whose parts it halves, 1.03x
// the 1024 in (b), 1.06x in (c) geomean, 0.95-1.16x and 0.99-1.27x each
// (H100, bench/results/2026-11-27-h200/ca-parts). Below 2^24, for rows of
// whole 16-byte vectors of 4-byte elements or smaller (n a multiple of vw
// >= 4) in at most 2 tiles (of an aligned matrix: n <= 64 for 4-byte
// elements), it takes half of those again, one block a SM in all (blocks
// of 512 from 2^22, of 256 below), where that leaves 2 parts or more of at
// least 4 rows a lane (half the atomics on each column again). Against 2
// sms blocks of 256 (H200, sum f32, bench/results/2026-11-29-cols-parts:
// the embedded call before and after, separate processes, three runs
// each; (c) within 1 % from run to run), at the 23 shapes of 2^19.6-2^23.6
// with n = 4-64 it moves: 0.99-1.19x in (c), 1.06x geomean (32768 x 32
// 6.80 -> 5.74 us, 16384 x 64 1.17x; 65536 x 24 the 0.99), 0.99-1.16x in
// (b), 1.06x. Left as they were: 4 tiles (n = 100-128: 0.98-1.07x, 1.00x
// geomean), 8 tiles (n = 256: 0.94-0.98x), 2^24 (0.95-1.04x), n = 2
// (0.97-1.00x) and rows off the vectors' boundaries (100000 x 10:
// 0.74-0.78x).
// atomic is 1 where the pick runs CA.SV.
struct tgm_cols_pick {
  unsigned groups, parts, block, atomic;
};
// The tiles of `groups` groups of vw columns over n columns, at most (the
// matrix's skew from its 16-byte boundary unknown here).
static inline unsigned long long tgm_cols_tiles_most(unsigned long long n, unsigned groups, unsigned vw) {
  unsigned long long cols = (unsigned long long)groups * vw;
  return (n + vw + cols - 1) / cols;
}

// Whether the embedded call's temp storage holds a setting: RL's per_row
// blocks a row over m rows (a counter a row, m x per_row partials), CT's
// parts over n columns in tiles of width groups of vw (a counter a tile,
// parts x n partials). tgm-tune chooses only settings that fit; the call
// runs the rule's pick where a tuned one would not (a larger shape of its
// cell).
static inline int tgm_rows_parts_fit(unsigned long long m, unsigned per_row) {
  return m <= TGM_ROWS_PARTS_MAX && m * per_row <= TGM_ROWS_EMBED_PARTIALS;
}
static inline int tgm_cols_parts_fit(unsigned long long n, unsigned width, unsigned vw, unsigned parts) {
  return parts <= 1 || (parts <= 4096 && n * parts <= TGM_COLS_EMBED_PARTIALS &&
                        tgm_cols_tiles_most(n, width, vw) <= TGM_ROWS_PARTS_MAX);
}

// Whether one part serves: a lane of a block of 1024 has at most 16 rows,
// or at most 64 and the tiles give the GPU at least 256 threads an SM.
static inline int tgm_cols_one_part(unsigned long long lane_rows, unsigned long long tiles, unsigned sms) {
  return lane_rows <= 16 || (lane_rows <= 64 && tiles * 1024 >= (unsigned long long)sms * 256);
}

// A one-part pick of at least 512 rows, n <= 128 and at most 2^22
// elements, where the spectrum has CA.SV: its groups in blocks of 128 and
// parts for about 4 rows a lane (packed rows, n <= 2: 4 vectors a thread),
// at most 4 sms blocks, combined with atomics, where that makes 4 parts or
// more. Against the one-part picks (H100, bench/results/2026-11-27-cols-
// atomic: p1grid, one process, f32; the sweeps, f32 and i32): 1.07-1.99x
// in (b), 1.15-2.37x in (c) at 512-16384 rows with n = 2-128 (f32), i32
// 0.98-1.20x; with 2 parts (0.83-0.96x), n >= 256 (0.86-1.17x) or fewer
// rows (0.94-1.19x, geomean 1.00) one part stays.
// The same from 2^22 to 2^24 elements at any n where the tiles (of a
// 16-byte aligned matrix) leave at least half the SMs idle: 8192 x 2048
// and 4096 x 2048 in 64 tiles of 8 groups, one block of 1024 each, took
// 31.1 and 18.9 us in (b); CA.SV in 8 parts of 128 28.1 and 16.4 (1.11x,
// 1.15x; H100, bench/results/2026-11-27-h200/ca-parts), where 128 tiles
// (4096 x 4096, 2048 x 4096) gained 1.01-1.07x and 256 tiles lost; the
// picks it moves against their one part at 11 shapes (n = 1024-8000):
// 1.05-1.43x in (b), 1.08-1.47x in (c) (bench/results/2026-11-27-cols-few-tiles).
static inline struct tgm_cols_pick tgm_cols_atomic_parts(struct tgm_cols_pick k, unsigned long long m,
                                                         unsigned long long n, unsigned sms, unsigned vw,
                                                         int atomics) {
  if (!atomics || m < 512 || k.groups > 128 || m * n > (1ull << 24))
    return k;
  const unsigned long long lanes = 128 / k.groups, rows = n * 2 <= vw ? m * n / vw : m,
                           tiles = tgm_cols_grid_of(0, n, k.groups, vw, 16 / vw);
  if (m * n > (1ull << 22) ? 2 * tiles > sms : n > 128)
    return k;
  unsigned long long parts = (rows + lanes * 4 - 1) / (lanes * 4), most = 4ull * sms / (tiles ? tiles : 1);
  if (parts > most)
    parts = most;
  if (parts >= 4) {
    k.block = 128;
    k.parts = (unsigned)parts;
    k.atomic = 1;
  }
  return k;
}

static inline struct tgm_cols_pick tgm_cols_pick_of(unsigned long long m, unsigned long long n, unsigned sms,
                                                    unsigned vw, int atomics) {
  struct tgm_cols_pick k = {1, 1, 1024, 0};
  if (n == 0)
    return k;
  unsigned long long g = tgm_pow2_floor((n + vw - 1) / vw), cap = m <= 32 ? 128 : 32;
  k.groups = g < cap ? (unsigned)g : (unsigned)cap;
  unsigned long long tiles = tgm_cols_tiles_most(n, k.groups, vw);
  unsigned long long lane_rows = m / (1024 / k.groups); // in blocks of 1024
  if (m >= 1024 && vw >= 4 && k.groups > 8 && m * n > (1ull << 22) && m * n <= (1ull << 24)) {
    // 8 groups a block where they make one part (more lanes, fewer rows each)
    const unsigned long long tiles8 = tgm_cols_tiles_most(n, 8, vw), rows8 = m / 128;
    if (tgm_cols_one_part(rows8, tiles8, sms))
      k.groups = 8, tiles = tiles8, lane_rows = rows8;
  }
  if (tgm_cols_one_part(lane_rows, tiles, sms) || tiles > TGM_ROWS_PARTS_MAX) {
    k.block = tiles >= 4ull * sms ? 128 : tiles >= sms ? 512 : 1024;
    if (k.block == 1024 && m * n <= (1ull << 22)) {
      // few tiles of a small matrix: 4 rows a lane (8 from 512 rows), the
      // groups what a block of 512 leaves them, blocks of 256 or 512
      unsigned long long want = m >= 512 ? m / 8 : m / 4, fit = 512 / (want > 1 ? want : 1);
      fit = tgm_pow2_floor(fit > 1 ? fit : 1);
      k.groups = fit < k.groups ? (unsigned)fit : k.groups;
      k.block = (want > 1 ? want : 1) * k.groups <= 256 ? 256 : 512;
      // Where that stays one part of 16-512 rows (vectors, 4 groups or
      // more) and the tiles stay at most 4 sms: a quarter of the groups a
      // block, so four times the tiles and the SMs on a read this small,
      // lanes for 4 rows each, blocks of 128 to 512. The earlier form came
      // from tgm-tune's cells, which stopped a step short of this on the
      // H100 and the H200 alike. With tgm_columns_vec's last rows in
      // flight, against both before (H200, sum f32, separate processes, 2
      // runs; bench/results/2026-11-28-cols-quarter): at 24 shapes of
      // 2^10-2^20 it moves 0.99-1.29x in (b), 0.99-1.49x in (c), 1.10x /
      // 1.18x in geomean (96 x 640, 24 x 3000, 48 x 1536 1.25-1.29x /
      // 1.47-1.49x); rows of 8 stay (0.95-1.05x so moved, either way).
      const struct tgm_cols_pick parts = tgm_cols_atomic_parts(k, m, n, sms, vw, atomics);
      if (parts.atomic || vw < 4 || m < 16 || m > 512 || k.groups < 4 ||
          tgm_cols_tiles_most(n, k.groups / 4, vw) > 4ull * sms)
        return parts;
      const unsigned long long b = m / 4 * (k.groups / 4);
      k.groups /= 4;
      k.block = b <= 128 ? 128 : b <= 256 ? 256 : 512;
      return k;
    }
    return tgm_cols_atomic_parts(k, m, n, sms, vw, atomics);
  }
  const int big = m * n > (1ull << 24);
  if (!big && vw >= 4 && k.groups >= 8) {
    // one part of tiles of 2 groups where a lane of 512 has at most 8 rows,
    // or the tiles are at least twice its rows: more tiles, not parts
    const unsigned long long tiles2 = tgm_cols_tiles_most(n, 2, vw), rows2 = m / 512;
    if (rows2 <= 8 || tiles2 >= 2 * rows2) {
      k.groups = 2;
      k.block = m <= 2048 ? 512 : 1024;
      return tgm_cols_atomic_parts(k, m, n, sms, vw, atomics);
    }
  }
  // above 2^24 up to 128 groups a tile, else up to 8
  k.groups = big ? (g < 128 ? (unsigned)g : 128) : (k.groups < 8 ? k.groups : 8);
  tiles = tgm_cols_tiles_most(n, k.groups, vw);
  k.block = big ? 1024 : 256;
  unsigned long long most = m / ((unsigned long long)(k.block / k.groups) * 4);
  // the tiles of a matrix at a 16-byte boundary, so that the blocks are spread evenly
  const unsigned long long aligned = tgm_cols_grid_of(0, n, k.groups, vw, 16 / vw);
  unsigned long long parts;
  if (big) // a block of 1024 a SM: tiles x parts at most sms
    parts = aligned && sms / aligned > 1 ? sms / aligned : 1;
  else { // 1024 threads an SM; 512 where the parts combine by atomics
    parts = aligned ? ((atomics ? 2ull : 4ull) * sms + aligned - 1) / aligned : 1;
    if (atomics && vw >= 4 && n % vw == 0 && aligned <= 2 && m * n < (1ull << 24)) {
      // below 2^24, rows of whole vectors in at most 2 tiles: one block a SM in all
      // (fewer atomics on each column), of 512 from 2^22
      const unsigned block = m * n >= (1ull << 22) ? 512 : 256;
      const unsigned long long one = aligned ? (sms + aligned - 1) / aligned : 1,
                               rows = m / ((unsigned long long)(block / k.groups) * 4);
      if ((one < rows ? one : rows) > 1)
        k.block = block, parts = one, most = rows;
    }
  }
  if (most < parts)
    parts = most;
  if (parts > 4096)
    parts = 4096;
  if (parts > TGM_COLS_EMBED_PARTIALS / n)
    parts = TGM_COLS_EMBED_PARTIALS / n;
  k.parts = parts < 1 || tiles > TGM_ROWS_PARTS_MAX ? 1 : (unsigned)parts;
  k.atomic = atomics && k.parts > 1;
  return k;
}

// The first launch of CA.SV and RA (tgm_init_out: out[0..count) = the
// identity; count: CA's n columns, RA's m rows): blocks of 256, each thread
// an output, then every (grid x 256)-th; at most 1024.
static inline unsigned tgm_init_out_grid(unsigned long long count) {
  unsigned long long g = (count + 255) / 256;
  return g == 0 ? 1u : g > 1024 ? 1024u : (unsigned)g;
}
#endif
