// picks.cu -- the column pick (sum f32, 132 SMs, vw 4, CA.SV in the spectrum) of the headers it is built with, a line a shape:
//   nvcc -std=c++17 -I HEADERS picks.cu -o picks && ./picks M N ...   (before: the headers of 62b0c75)
#include "sum_cols_f32.h"
#include <cstdio>
#include <cstdlib>
int main(int argc, char **argv) {
  for (int i = 1; i + 1 < argc; i += 2) {
    unsigned long long m = strtoull(argv[i], 0, 10), n = strtoull(argv[i + 1], 0, 10);
    tgm_cols_pick k = tgm_cols_pick_of(m, n, 132, 4, 1);
    printf("%llu x %llu %s b%u g%u p%u\n", m, n, k.atomic ? "CA.SV" : "CT.SV", k.block, k.groups, k.parts);
  }
}
