// rule_p.cu -- which column cells (sum f32, 132 SMs) the first variant of tgm_cols_pick_of (call2.sh)
// moves: with atomics, parts for one block a SM in all (2 before), blocks of 512 from 2^22 elements.
// Made by a script from tests/embed/headers/sum_cols_f32.h (the function before, its last branch
// edited); the committed rule adds vw >= 4, n % vw == 0, at most 2 aligned tiles and m n < 2^24.
// Against the headers before the change (git show 62b0c75:tests/embed/headers/sum_cols_f32.h > h/sum_cols_f32.h):
//   nvcc -std=c++17 -I h rule_p.cu -o q && ./q M N ...
#include "sum_cols_f32.h"
#include <cstdio>
#include <cstdlib>
static inline struct tgm_cols_pick tgm_cols_pick_new(unsigned long long m, unsigned long long n, unsigned sms,
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
  else if (atomics) { // NEW: one block a SM in all, 512 threads from 2^22
    k.block = m * n >= (1ull << 22) ? 512 : 256;
    parts = aligned ? (sms + aligned - 1) / aligned : 1;
    most = m / ((unsigned long long)(k.block / k.groups) * 4);
    if ((most < parts ? most : parts) <= 1)
      k.block = 256, most = m / ((unsigned long long)(k.block / k.groups) * 4);
  } else
    parts = aligned ? (4ull * sms + aligned - 1) / aligned : 1;
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

int main(int argc, char **argv) {
  for (int i = 1; i + 1 < argc; i += 2) {
    unsigned long long m = strtoull(argv[i], 0, 10), n = strtoull(argv[i + 1], 0, 10);
    for (unsigned vw : {4u, 1u}) {
    tgm_cols_pick a = tgm_cols_pick_of(m, n, 132, vw, 1), b = tgm_cols_pick_new(m, n, 132, vw, 1);
    if (a.block != b.block || a.parts != b.parts || a.groups != b.groups || a.atomic != b.atomic)
      printf("vw%u %llu x %llu: %s b%u g%u p%u -> %s b%u g%u p%u\n", vw, m, n, a.atomic ? "CA" : "CT", a.block, a.groups, a.parts,
             b.atomic ? "CA" : "CT", b.block, b.groups, b.parts);
    }
  }
}
