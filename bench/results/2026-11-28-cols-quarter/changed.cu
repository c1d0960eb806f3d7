// changed.cu -- reads "m n" lines, prints "m n moved? old pick -> new": /tmp/oldrule.h is the
// tgm_cols_pick_of of git show HEAD~:tests/embed/headers/sum_cols_f32.h renamed tgm_cols_pick_old.
#include "sum_cols_f32.h"
#include "/tmp/oldrule.h"
#include <cstdio>
int main(int argc, char **argv) {
  // shapes from stdin "m n"; prints those whose pick changes
  unsigned long long m, n;
  while (std::scanf("%llu %llu", &m, &n) == 2) {
    tgm_cols_pick k = tgm_cols_pick_old(m, n, 132, 4, 1), q = tgm_cols_pick_of(m, n, 132, 4, 1);
    std::printf("%llu %llu %d b%u g%u -> b%u g%u\n", m, n, k.block != q.block || k.groups != q.groups || k.parts != q.parts || k.atomic != q.atomic, k.block, k.groups, q.block, q.groups);
  }
}
