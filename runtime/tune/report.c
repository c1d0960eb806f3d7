// report.c — the report folder: a markdown table per size and an SVG plot
// of time against size for tgm and CUB (drawn here: no plotting tool).
#include "tune.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../src/internal.h" // tgm__fail

static void size_str(int log2n, char *buf, size_t len) { snprintf(buf, len, "2^%d", log2n); }

static int is_both(const tune_report *r) { return !strcmp(r->key->mode, "both"); }

static void ratio_str(double cub, double us, char *t, char *rt, size_t len) {
  snprintf(t, len, "-"), snprintf(rt, len, "-");
  if (cub > 0 && us > 0) {
    snprintf(t, len, "%.2f", cub);
    snprintf(rt, len, "%.2fx", cub / us);
  }
}

// One size: markdown (md) or the terminal's table. --mode both adds the
// graph mode's time, CUB's and the ratio.
static void row_line(FILE *f, const tune_result *r, int md, int both) {
  char sz[16], knobs[64];
  size_str(r->log2n, sz, sizeof sz);
  tune_knobs k = {0, r->block, r->items, r->cap};
  tune_knobs_str(&k, knobs, sizeof knobs);
  char cub[32], ratio[32], cubg[32], ratiog[32], us[64];
  ratio_str(r->cub_us, r->us, cub, ratio, sizeof cub);
  ratio_str(r->cub_us_graph, r->us_graph, cubg, ratiog, sizeof cubg);
  snprintf(us, sizeof us, both ? "%.2f / %.2f" : "%.2f", r->us, r->us_graph);
  if (both) { // "stream / graph"
    char c2[80], r2[80];
    snprintf(c2, sizeof c2, "%s / %s", cub, cubg);
    snprintf(r2, sizeof r2, "%s / %s", ratio, ratiog);
    snprintf(cub, sizeof cub, "%.31s", c2);
    snprintf(ratio, sizeof ratio, "%.31s", r2);
  }
  // the runner-up and the margin: +3.1% [+1.2, +5.0]
  char ru[TUNE_ID_MAX + 80] = "-", margin[64] = "-";
  if (r->runner_up[0]) {
    tune_knobs rk = {0, r->ru_block, r->ru_items, r->ru_cap};
    char rknobs[64];
    tune_knobs_str(&rk, rknobs, sizeof rknobs);
    snprintf(ru, sizeof ru, "%s %s", r->runner_up, rknobs);
    snprintf(margin, sizeof margin, "%+.1f%% [%+.1f, %+.1f]", 100 * r->margin, 100 * r->margin_lo,
             100 * r->margin_hi);
  }
  if (md)
    fprintf(f, "| %s | %s | %s | %s | %.1f | %s | %s | %s | %s | %s |\n", sz, r->variant, knobs, us,
            r->gbps, cub, ratio, ru, margin, r->chosen_by[0] ? r->chosen_by : "-");
  else
    fprintf(f, "%-6s %-14s %-30s %15s %8.1f %15s %15s  %-24s %s\n", sz, r->variant, knobs, us,
            r->gbps, cub, ratio, margin, r->chosen_by);
}

// CUB/tgm in one mode (graph: --mode both's graph times)
static double ratio_of(const tune_result *x, int graph) {
  double cub = graph ? x->cub_us_graph : x->cub_us, us = graph ? x->us_graph : x->us;
  return cub > 0 && us > 0 ? cub / us : 0;
}

static double geomean_ratio(const tune_report *r, int lo, int hi, int graph, int *count) {
  double s = 0;
  int n = 0;
  for (int i = 0; i < r->n_rows; i++) {
    const tune_result *x = &r->rows[i];
    if (x->log2n < lo || x->log2n > hi || ratio_of(x, graph) <= 0)
      continue;
    s += log(ratio_of(x, graph));
    n++;
  }
  *count = n;
  return n ? exp(s / n) : 0;
}

static void summary(FILE *f, const tune_report *r, const char *pre) {
  // the largest size's rate: tgm's and CUB's (its bytes at CUB's time), of the peak
  const tune_result *big = NULL;
  for (int i = 0; i < r->n_rows; i++)
    if (r->rows[i].gbps > 0 && (!big || r->rows[i].log2n > big->log2n))
      big = &r->rows[i];
  if (big && r->peak_gbps > 0) {
    fprintf(f, "%sat 2^%d: %.1f GB/s, %.1f%% of the peak %.0f GB/s", pre, big->log2n, big->gbps,
            100 * big->gbps / r->peak_gbps, r->peak_gbps);
    const double cub_gbps = big->cub_us > 0 ? big->gbps * big->us / big->cub_us : 0;
    if (cub_gbps > 0)
      fprintf(f, "; CUB %.1f GB/s, %.1f%%", cub_gbps, 100 * cub_gbps / r->peak_gbps);
    fprintf(f, "\n");
  }
  for (int graph = 0; graph <= is_both(r); graph++) {
    const char *m = !is_both(r) ? "" : graph ? " (graph)" : " (stream)";
    int n;
    double g = geomean_ratio(r, 14, 22, graph, &n);
    if (n)
      fprintf(f, "%sgeomean CUB/tgm%s over 2^14..2^22: %.3fx (%d sizes)\n", pre, m, g, n);
    g = geomean_ratio(r, 0, 99, graph, &n);
    if (n)
      fprintf(f, "%sgeomean CUB/tgm%s over all sizes: %.3fx (%d sizes)\n", pre, m, g, n);
    double worst = 1e30;
    int worst_at = -1;
    for (int i = 0; i < r->n_rows; i++)
      if (ratio_of(&r->rows[i], graph) > 0 && ratio_of(&r->rows[i], graph) < worst)
        worst = ratio_of(&r->rows[i], graph), worst_at = r->rows[i].log2n;
    if (worst_at >= 0)
      fprintf(f, "%slowest ratio CUB/tgm%s: %.3fx at 2^%d\n", pre, m, worst, worst_at);
  }
  int beyond = 0, within = 0;
  for (int i = 0; i < r->n_rows; i++) {
    beyond += !strcmp(r->rows[i].chosen_by, "faster") ||
              !strcmp(r->rows[i].chosen_by, "better worst case");
    within += !strncmp(r->rows[i].chosen_by, "within noise", 12);
  }
  if (beyond + within)
    fprintf(f,
            "%swinners better than the runner-up beyond noise: %d of %d sizes; within noise, "
            "chosen by the rule: %d\n",
            pre, beyond, r->n_rows, within);
}

void tune_report_table(void *file, const tune_report *r) {
  FILE *f = file;
  int both = is_both(r);
  fprintf(f, "%-6s %-14s %-30s %15s %8s %15s %15s  %-24s %s\n", "size", "winner", "knobs",
          both ? "us strm/graph" : "us", "GB/s", both ? "CUB strm/graph" : "CUB us", "CUB/tgm",
          "margin [95%]", "chosen by");
  for (int i = 0; i < r->n_rows; i++)
    row_line(f, &r->rows[i], 0, both);
  summary(f, r, "");
}

static void svg(FILE *f, const tune_report *r) {
  const double W = 720, H = 440, L = 70, R = 20, T = 40, B = 50;
  double ymin = 1e30, ymax = 0;
  int xmin = 99, xmax = 0;
  for (int i = 0; i < r->n_rows; i++) {
    const tune_result *x = &r->rows[i];
    if (x->us > 0)
      ymin = fmin(ymin, x->us), ymax = fmax(ymax, x->us);
    if (x->cub_us > 0)
      ymin = fmin(ymin, x->cub_us), ymax = fmax(ymax, x->cub_us);
    xmin = x->log2n < xmin ? x->log2n : xmin;
    xmax = x->log2n > xmax ? x->log2n : xmax;
  }
  if (r->n_rows == 0 || ymax <= 0)
    ymin = 1, ymax = 10, xmin = 10, xmax = 30;
  if (xmax == xmin)
    xmax = xmin + 1;
  double ly0 = floor(log10(ymin)), ly1 = ceil(log10(ymax));
  if (ly1 <= ly0)
    ly1 = ly0 + 1;
#define PX(l2) (L + ((l2)-xmin) * (W - L - R) / (double)(xmax - xmin))
#define PY(us) (H - B - (log10(us) - ly0) * (H - T - B) / (ly1 - ly0))
  fprintf(f,
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
          "font-family=\"sans-serif\" font-size=\"12\">\n",
          W, H);
  fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
  fprintf(f,
          "<text x=\"%.0f\" y=\"22\" font-size=\"14\">%s %s (%s mode) on %s: time per "
          "reduction</text>\n",
          L, r->key->op, r->key->type, r->key->mode, r->key->device);
  for (double d = ly0; d <= ly1; d++) {
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L,
            PY(pow(10, d)), W - R, PY(pow(10, d)));
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g us</text>\n", L - 4,
            PY(pow(10, d)) + 4, pow(10, d));
  }
  for (int x = xmin; x <= xmax; x += 2)
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">2^%d</text>\n", PX(x),
            H - B + 16, x);
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">elements</text>\n",
          (L + W - R) / 2, H - 12);
  const char *colors[2] = {"#d62728", "#1f77b4"};
  const char *names[2] = {"tgm (tuned)", "CUB"};
  for (int s = 0; s < 2; s++) {
    fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", colors[s]);
    for (int i = 0; i < r->n_rows; i++) {
      double us = s == 0 ? r->rows[i].us : r->rows[i].cub_us;
      if (us > 0)
        fprintf(f, "%.1f,%.1f ", PX(r->rows[i].log2n), PY(us));
    }
    fprintf(f, "\"/>\n");
    fprintf(f,
            "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"4\" fill=\"%s\"/>"
            "<text x=\"%.0f\" y=\"%.0f\">%s</text>\n",
            L + 10, T + 6 + 16.0 * s, colors[s], L + 28, T + 11 + 16.0 * s, names[s]);
  }
  fprintf(f, "</svg>\n");
#undef PX
#undef PY
}

tgm_status tune_report_write(const char *dir, const tune_report *r) {
  char path[4096];
  const char *sp = r->spectrum ? r->spectrum : r->key->op;
  snprintf(path, sizeof path, "%s/report-%s-%s-%s.md", dir, sp, r->key->type, r->key->mode);
  FILE *f = fopen(path, "w");
  if (!f)
    return tgm__fail(TGM_ERR_IO, "%s: cannot write", path);
  const tune_key *k = r->key;
  fprintf(f, "# tgm-tune: %s %s (%s), %s mode\n\n", sp, k->type, k->op, k->mode);
  if (r->meaning)
    fprintf(f, "- computes: %s%s%s\n", r->meaning, k->params[0] ? ", with " : "", k->params);
  fprintf(f, "- device: %s (cc %s, %d SMs), driver %d, %s\n", k->device, k->cc, k->sm_count,
          k->driver, k->compiler);
  if (r->peak_gbps > 0)
    fprintf(f,
            "- memory bandwidth: %.0f GB/s peak (2 x memory clock x bus width, as the device "
            "reports them)\n",
            r->peak_gbps);
  fprintf(f, "- manifest source hash %s; %s variants, L2 %s\n", k->source_hash,
          k->deterministic ? "deterministic" : "all", k->hot ? "hot" : "cold (flushed per sample)");
  fprintf(f, "- command: `%s`\n", r->command ? r->command : "?");
  fprintf(f, "- %d variants, %d knob settings verified; %d timings; compile %.1f s; tune %.1f s\n",
          r->n_variants, r->n_settings, r->n_measured, r->compile_seconds, r->tune_seconds);
  if (r->cub_what)
    fprintf(f, "- CUB: %s, timed in the same harness\n", r->cub_what);
  else if (r->cub_note)
    fprintf(f, "- no CUB column: %s\n", r->cub_note);
  if (is_both(r))
    fprintf(f, "- mode both: every finalist timed back to back (stream) and in a CUDA graph; the\n"
               "  winner has the best worst-case ratio against CUB across the two, and times,\n"
               "  CUB's times and ratios below are \"stream / graph\". The margin is in that\n"
               "  worst-case ratio\n");
  char large[64] = "";
  if (r->noise_large > 0 && r->noise_large < r->noise)
    snprintf(large, sizeof large, " (from 2^%d elements %.1f%%)", TUNE_NOISE_LARGE_LOG2,
             100 * r->noise_large);
  fprintf(f,
          "- margin: the runner-up's time over the winner's, minus 1, with its 95%% bootstrap\n"
          "  interval over 8 interleaved A/B rounds. A winner is faster beyond noise when the\n"
          "  interval's low end exceeds the run-to-run noise, %.1f%%%s; otherwise the settings\n"
          "  within that noise of the fastest tie and the rule chose (deterministic, fewer\n"
          "  launches, no memset, the neighbour's choice, the faster median, then a fixed\n"
          "  order): no claim\n",
          100 * r->noise, large);
  fprintf(f,
          "\n| size | winner | knobs | us%s | GB/s | CUB us%s | CUB/tgm%s | runner-up | margin "
          "[95%%] | chosen by |\n",
          is_both(r) ? " (stream / graph)" : "", is_both(r) ? " (stream / graph)" : "",
          is_both(r) ? " (stream / graph)" : "");
  fprintf(f, "| ---: | --- | --- | ---: | ---: | ---: | ---: | --- | ---: | --- |\n");
  for (int i = 0; i < r->n_rows; i++)
    row_line(f, &r->rows[i], 1, is_both(r));
  fprintf(f, "\n");
  summary(f, r, "- ");
  fprintf(f, "\n## Buckets (neighbouring sizes with the same winner merged)\n\n");
  fprintf(f, "| sizes | winner | knobs |\n| --- | --- | --- |\n");
  for (int i = 0; i < r->n_rows;) {
    int j = i;
    while (j + 1 < r->n_rows && r->rows[j + 1].log2n == r->rows[j].log2n + 1 &&
           !strcmp(r->rows[j + 1].variant, r->rows[i].variant) &&
           r->rows[j + 1].block == r->rows[i].block && r->rows[j + 1].items == r->rows[i].items &&
           r->rows[j + 1].cap == r->rows[i].cap)
      j++;
    char knobs[64];
    tune_knobs kk = {0, r->rows[i].block, r->rows[i].items, r->rows[i].cap};
    tune_knobs_str(&kk, knobs, sizeof knobs);
    if (j > i)
      fprintf(f, "| 2^%d..2^%d | %s | %s |\n", r->rows[i].log2n, r->rows[j].log2n,
              r->rows[i].variant, knobs);
    else
      fprintf(f, "| 2^%d | %s | %s |\n", r->rows[i].log2n, r->rows[i].variant, knobs);
    i = j + 1;
  }
  fprintf(f, "\n![time vs size](plot-%s-%s-%s.svg)\n", sp, k->type, k->mode);
  fprintf(f, "\n## Excluded (failed verification): %d\n\n", r->n_excluded);
  for (int i = 0; i < r->n_excluded; i++)
    fprintf(f, "- %s\n", r->excluded[i]);
  fclose(f);
  snprintf(path, sizeof path, "%s/plot-%s-%s-%s.svg", dir, sp, k->type, k->mode);
  f = fopen(path, "w");
  if (!f)
    return tgm__fail(TGM_ERR_IO, "%s: cannot write", path);
  svg(f, r);
  fclose(f);
  return TGM_OK;
}
