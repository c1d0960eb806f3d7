// test_report.c — the report folder: the markdown table with ratios and
// merged buckets, and the SVG plot.
#include "../check.h"
#include "tune.h"
#include <string.h>

#include "../../runtime/src/internal.h" // tgm__read_file

int main(void) {
  char dir[] = "/tmp/tgm-test-report-XXXXXX";
  if (!mkdtemp(dir))
    return 1;
  tune_key k = {0};
  snprintf(k.device, sizeof k.device, "Test GPU");
  snprintf(k.cc, sizeof k.cc, "9.0");
  snprintf(k.type, sizeof k.type, "i32");
  snprintf(k.op, sizeof k.op, "sum");
  snprintf(k.mode, sizeof k.mode, "stream");
  tune_result rows[4] = {
      {.log2n = 10,
       .variant = "B1.VR.SV",
       .block = 256,
       .items = 1,
       .us = 2.0,
       .gbps = 2.048,
       .cub_us = 3.0,
       .us_p25 = 1.9,
       .us_p75 = 2.1,
       .runner_up = "B1.VS.SV",
       .ru_block = 256,
       .ru_items = 1,
       .margin = 0.031,
       .margin_lo = 0.012,
       .margin_hi = 0.05,
       .chosen_by = "faster"},
      {.log2n = 11,
       .variant = "B1.VR.SV",
       .block = 256,
       .items = 1,
       .us = 2.5,
       .gbps = 3.2768,
       .cub_us = 3.0,
       .us_p25 = 2.4,
       .us_p75 = 2.6},
      {.log2n = 12,
       .variant = "DTL.VR.ST",
       .block = 256,
       .items = 4,
       .us = 4.0,
       .gbps = 4.096,
       .cub_us = 2.0,
       .us_p25 = 3.9,
       .us_p75 = 4.1,
       .runner_up = "DTA.VR.ST",
       .ru_block = 512,
       .ru_items = 4,
       .margin = -0.004,
       .margin_lo = -0.02,
       .margin_hi = 0.01,
       .chosen_by = "within noise: no memset"},
      {.log2n = 13,
       .variant = "DSA.VS.SV",
       .block = 512,
       .items = 4,
       .cap = 8,
       .us = 5.0,
       .gbps = 6.5536,
       .cub_us = 5.0,
       .us_p25 = 4.9,
       .us_p75 = 5.1},
  };
  const char *excluded[1] = {"DT.V.ST block=128 items=1: n=1000: got 1, want 2"};
  tune_report r = {&k,    rows, 4,    "tgm-tune m.json", excluded, 1, 12.5, 2.0, 3, 96, 500,
                   "sum", NULL, NULL, "sum_i32.cub.cu",  0.03,     0, 0};
  CHECK_EQ_INT(tune_report_write(dir, &r), TGM_OK);
  char path[256];
  snprintf(path, sizeof path, "%s/report-sum-i32-stream.md", dir);
  char *md = tgm__read_file(path, NULL);
  CHECK(md != NULL);
  if (md) {
    CHECK(strstr(md, "| 2^10 | B1.VR.SV | block=256 items=1 | 2.00 | 2.0 | 3.00 | 1.50x |"));
    CHECK(strstr(md, "| 2^12 | DTL.VR.ST | block=256 items=4 | 4.00 | 4.1 | 2.00 | 0.50x |"));
    CHECK(strstr(md, "| 2^13 | DSA.VS.SV | block=512 items=4 cap=8/SM |"));
    CHECK(strstr(md, "| 2^10..2^11 | B1.VR.SV | block=256 items=1 |"));
    CHECK(strstr(md, "lowest ratio CUB/tgm: 0.500x at 2^12"));
    CHECK(strstr(md, "Excluded (failed verification): 1"));
    CHECK(strstr(md, "got 1, want 2"));
    CHECK(strstr(md, "tgm-tune m.json"));
    CHECK(strstr(md, "- CUB: sum_i32.cub.cu, timed in the same harness"));
    CHECK(strstr(md, "exceeds the run-to-run noise, 3.0%"));
    CHECK(strstr(md, "| 1.50x | B1.VS.SV block=256 items=1 | +3.1% [+1.2, +5.0] | faster |"));
    CHECK(strstr(md, "| 0.50x | DTA.VR.ST block=512 items=4 | -0.4% [-2.0, +1.0] | within noise: "
                     "no memset |"));
    CHECK(strstr(md, "| 2^11 | B1.VR.SV | block=256 items=1 | 2.50 | 3.3 | 3.00 | 1.20x | - | - | "
                     "- |"));
    CHECK(strstr(md, "beyond noise: 1 of 4 sizes; within noise, chosen by the rule: 1"));
  }
  free(md);
  snprintf(path, sizeof path, "%s/plot-sum-i32-stream.svg", dir);
  char *svg = tgm__read_file(path, NULL);
  CHECK(svg && !strncmp(svg, "<svg ", 5) && strstr(svg, "</svg>\n"));
  CHECK(svg && strstr(svg, "<polyline"));
  free(svg);
  // the smaller figure from 2^25 on is stated where it applies
  r.noise_large = 0.02;
  CHECK_EQ_INT(tune_report_write(dir, &r), TGM_OK);
  snprintf(path, sizeof path, "%s/report-sum-i32-stream.md", dir);
  md = tgm__read_file(path, NULL);
  CHECK(md && strstr(md, "exceeds the run-to-run noise, 3.0% (from 2^25 elements 2.0%);"));
  free(md);
  // without the device's peak no line of it; with it, the largest size's
  // rate of the peak, tgm's and CUB's (2^13: 6.55 GB/s at 5 us, CUB 5 us)
  md = tgm__read_file(path, NULL);
  CHECK(md && !strstr(md, "of the peak") && !strstr(md, "memory bandwidth:"));
  free(md);
  r.peak_gbps = 100;
  CHECK_EQ_INT(tune_report_write(dir, &r), TGM_OK);
  md = tgm__read_file(path, NULL);
  CHECK(md && strstr(md, "- memory bandwidth: 100 GB/s peak"));
  CHECK(md && strstr(md, "- at 2^13: 6.6 GB/s, 6.6% of the peak 100 GB/s; CUB 6.6 GB/s, 6.6%\n"));
  free(md);
  r.peak_gbps = 0;
  // --mode both: stream / graph times, CUB's and ratios, per-mode summaries
  snprintf(k.mode, sizeof k.mode, "both");
  rows[0].us_graph = 1.6, rows[0].cub_us_graph = 2.0;
  rows[1].us_graph = 2.0, rows[1].cub_us_graph = 1.8;
  rows[2].us_graph = 3.0, rows[2].cub_us_graph = 3.3;
  rows[3].us_graph = 4.0, rows[3].cub_us_graph = 4.4;
  snprintf(rows[0].chosen_by, sizeof rows[0].chosen_by, "better worst case");
  CHECK_EQ_INT(tune_report_write(dir, &r), TGM_OK);
  snprintf(path, sizeof path, "%s/report-sum-i32-both.md", dir);
  md = tgm__read_file(path, NULL);
  CHECK(md != NULL);
  if (md) {
    CHECK(strstr(md, "| 2^10 | B1.VR.SV | block=256 items=1 | 2.00 / 1.60 | 2.0 | 3.00 / 2.00 | "
                     "1.50x / 1.25x |"));
    CHECK(strstr(md, "| us (stream / graph) |"));
    CHECK(strstr(md, "lowest ratio CUB/tgm (stream): 0.500x at 2^12"));
    CHECK(strstr(md, "lowest ratio CUB/tgm (graph): 0.900x at 2^11"));
    CHECK(strstr(md, "best worst-case ratio against CUB across the two"));
    CHECK(strstr(md, "beyond noise: 1 of 4 sizes"));
  }
  free(md);
  // an unwritable folder is an error, not a crash
  CHECK_EQ_INT(tune_report_write("/nonexistent/dir", &r), TGM_ERR_IO);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0)
    return 1;
  CHECK_DONE();
}
