// fuzz_input.h — the fuzz targets' one helper: the readers under test take
// a path, so each input is written to a temporary file of this process (on
// /dev/shm where there is one).
#ifndef TGM_FUZZ_INPUT_H
#define TGM_FUZZ_INPUT_H
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

static char fuzz_path[96];

static void fuzz_path_init(const char *what) {
  const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  snprintf(fuzz_path, sizeof fuzz_path, "%s/tgm-fuzz-%s-%ld", dir, what, (long)getpid());
}

static int fuzz_write(const uint8_t *data, size_t size) {
  FILE *f = fopen(fuzz_path, "wb");
  if (!f)
    return -1;
  size_t n = fwrite(data, 1, size, f);
  return fclose(f) == 0 && n == size ? 0 : -1;
}
#endif
