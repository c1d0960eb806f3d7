#include <stdio.h>
#include <stdlib.h>
#ifdef OLD
#include "old_rule.h"
#else
#include "new_rule.h"
#endif
int main(int argc, char **argv) {
  for (int i = 1; i + 1 < argc; i += 2) {
    unsigned long long m = strtoull(argv[i], 0, 10), n = strtoull(argv[i + 1], 0, 10);
    struct tgm_cols_pick k = tgm_cols_pick_of(m, n, 132, 4, 1);
    printf("cols:%llux%llu:b%u,g%u,p%u %s\n", m, n, k.block, k.groups, k.parts, k.atomic ? "CA" : "CT");
  }
}
