// status.c — status messages and the per-thread last-error text.
#include "internal.h"
#include <stdio.h>

static _Thread_local char last_error[1024];

const char *tgm_strerror(tgm_status s) {
  switch (s) {
#define TGM_X(name, value, msg) \
  case name: return msg;
    TGM_STATUS_LIST(TGM_X)
#undef TGM_X
  }
  return "unknown status";
}

const char *tgm_last_error(void) { return last_error; }

void tgm__clear_error(void) { last_error[0] = 0; }

tgm_status tgm__fail(tgm_status s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_error, sizeof last_error, fmt, ap);
  va_end(ap);
  return s;
}
