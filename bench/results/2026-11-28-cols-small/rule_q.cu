// rule_q.cu -- which of the sweep's column cells (sum f32, 132 SMs) a variant of
// tgm_cols_pick_of would change: its few-tiles branch fitting the groups to
// blocks of 128 lanes x groups (4 rows a lane) instead of 512 (README, 2.).
// A copy of the committed header's function with two lines changed (made by
// a script from tests/embed/headers/sum_cols_f32.h):
//   nvcc -std=c++17 -I tests/embed/headers bench/results/2026-11-28-cols-small/rule_q.cu -o q && ./q
#include "sum_cols_f32.h"
#include <cstdio>
static inline struct tgm_cols_pick tgm_cols_pick_q(unsigned long long m, unsigned long long n, unsigned sms,
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
      unsigned long long want = m >= 512 ? m / 8 : m / 4, fit = 128 / (want > 1 ? want : 1);
      fit = tgm_pow2_floor(fit > 1 ? fit : 1);
      k.groups = fit < k.groups ? (unsigned)fit : k.groups;
      k.block = (want > 1 ? want : 1) * k.groups <= 128 ? 128 : (want > 1 ? want : 1) * k.groups <= 256 ? 256 : 512;
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
  const unsigned long long most = m / ((unsigned long long)(k.block / k.groups) * 4);
  // the tiles of a matrix at a 16-byte boundary, so that the blocks are spread evenly
  const unsigned long long aligned = tgm_cols_grid_of(0, n, k.groups, vw, 16 / vw);
  unsigned long long parts;
  if (big) // a block of 1024 a SM: tiles x parts at most sms
    parts = aligned && sms / aligned > 1 ? sms / aligned : 1;
  else // 1024 threads an SM; 512 where the parts combine by atomics
    parts = aligned ? ((atomics ? 2ull : 4ull) * sms + aligned - 1) / aligned : 1;
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

int main() {
  for (int e = 10; e <= 22; e += 2)
    for (int ln = 1; ln < e; ln += 2) {
      unsigned long long n = 1ull << ln, m = (1ull << e) / n;
      tgm_cols_pick k = tgm_cols_pick_of(m, n, 132, 4, 1), q = tgm_cols_pick_q(m, n, 132, 4, 1);
      if (k.block != q.block || k.groups != q.groups || k.parts != q.parts || k.atomic != q.atomic)
        std::printf("2^%d n=2^%d %llux%llu: %s b%u g%u p%u -> %s b%u g%u p%u\n", e, ln, m, n, k.atomic ? "CA" : "CT", k.block, k.groups, k.parts, q.atomic ? "CA" : "CT", q.block, q.groups, q.parts);
    }
}
