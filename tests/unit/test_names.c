/* Unit tests of codegen/names.c: every name codegen's passes declare in the
 * code (a string literal given to mk_decl or mk_param) is one names.c keeps
 * the user's names apart from, so a new one cannot slip past it. */
#include "../check.h"
#include "tgm.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool invented(const char *name, size_t len) {
  if (len >= 4 && strncmp(name, "tgm_", 4) == 0)
    return true; /* names.c keeps the prefix tgm_ for itself */
  for (int i = 0; i < names_invented_count; i++)
    if (strlen(names_invented[i]) == len && strncmp(names_invented[i], name, len) == 0)
      return true;
  return false;
}

/* The literal names in calls `mk_decl(a, loc, "NAME"` and `mk_param(...` of one source. */
static int check_source(const char *path, int *found) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return 0;
  static char text[1 << 20];
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = 0;
  int missing = 0;
  static const char *const calls[] = {"mk_decl(", "mk_param("};
  for (size_t c = 0; c < sizeof calls / sizeof *calls; c++)
    for (const char *p = strstr(text, calls[c]); p; p = strstr(p + 1, calls[c])) {
      const char *q = strchr(p, '"'), *end = strchr(p, ';');
      if (!q || (end && q > end))
        continue; /* not a literal: made from the user's (names_derive: in_size) */
      const char *e = strchr(q + 1, '"');
      if (!e || memchr(q + 1, '%', (size_t)(e - q - 1)))
        continue; /* a name formatted from another's */
      ++*found;
      if (!invented(q + 1, (size_t)(e - q - 1))) {
        fprintf(stderr, "%s: %s\"%.*s\" is not in names_invented (codegen/names.c)\n", path,
                calls[c], (int)(e - q - 1), q + 1);
        missing++;
      }
    }
  return missing;
}

static void test_invented_cover_the_passes(void) {
  char dir[1024];
  snprintf(dir, sizeof dir, "%s/codegen", TGM_SOURCE_DIR);
  DIR *d = opendir(dir);
  CHECK(d != NULL);
  int found = 0, missing = 0;
  for (struct dirent *e; d && (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    if (len < 3 || strcmp(e->d_name + len - 2, ".c") != 0)
      continue;
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    missing += check_source(path, &found);
  }
  if (d)
    closedir(d);
  CHECK(found >= 20); /* the scan sees the passes' names at all */
  CHECK(missing == 0);
}

int main(void) {
  test_invented_cover_the_passes();
  CHECK_DONE();
}
