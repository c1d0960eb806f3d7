#include <stdio.h>
#include <stdlib.h>
// The column picks of (m, n) pairs on 132 SMs, vw 4, with CA.SV:
//   git show 774518a:templates/launch_rule.tpl > /tmp/old_rule.h
//   gcc -DRULE='"/tmp/old_rule.h"' picks.c -o old && ./old 8192 2048 ...
//   gcc -DRULE='"../../../templates/launch_rule.tpl"' picks.c -o new && ./new 8192 2048 ...
#include RULE
int main(int argc, char **argv) {
  for (int i = 1; i + 1 < argc; i += 2) {
    unsigned long long m = strtoull(argv[i], 0, 10), n = strtoull(argv[i + 1], 0, 10);
    struct tgm_cols_pick k = tgm_cols_pick_of(m, n, 132, 4, 1);
    printf("cols:%llux%llu:b%u,g%u,p%u %s\n", m, n, k.block, k.groups, k.parts, k.atomic ? "CA" : "CT");
  }
}
