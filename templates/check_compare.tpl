// What C++ leaves undefined, trapping in the scalar codelet as tgm wrote it:
// an integer division by zero (SIGFPE: an epilogue dividing by in.Size() at
// n = 0) and a shift by its type's width or more (SIGILL: the harness is
// built with -fsanitize=shift-exponent, trapping; a CPU masks the count, a
// GPU does not), where a GPU gives another value: tgm-gen reads the line and
// reports it at the codelet, not as a crash.
static volatile unsigned long long tgm_reference_n;
static void tgm_reference_trap(int sig) {
  char line[64];
  int len = std::snprintf(line, sizeof line, "REFERENCE\t%s\t%llu\n", sig == SIGFPE ? "FPE" : "UB",
                          tgm_reference_n);
  if (len > 0)
    (void)!write(1, line, (size_t)len);
  _exit(3);
}
static void tgm_reference_guard(bool on) {
  std::signal(SIGFPE, on ? tgm_reference_trap : SIG_DFL);
  std::signal(SIGILL, on ? tgm_reference_trap : SIG_DFL);
}
{{?pair}}

// (value, index) results (argmax, argmin): both exactly, a NaN value equal
// to a NaN.
static bool close_enough(R got, const R want[3]) {
  bool same = got.value == want[0].value || (got.value != got.value && want[0].value != want[0].value);
  return same && got.key == want[0].key;
}

static void print_got(R got, const R want[3]) {
  std::printf("got index %llu, value %.9g; want index %llu, value %.9g\n", (unsigned long long)got.key,
              (double)got.value, (unsigned long long)want[0].key, (double)want[0].value);
}
{{/pair}}
{{?scalar_result}}

// The reference exactly, or (floating-point sums and products) between the
// epilogue of the accumulated value -/+ the bound: the reference kernel's
// want[1] and want[2], which are want[0] where the fold is exact.
static bool close_enough(R got, const R want[3]) {
  if (std::is_integral<R>::value) // exactly, or an integer epilogue of a float fold: between its ends
    return got == want[0] || (got >= std::min(want[1], want[2]) && got <= std::max(want[1], want[2]));
  double g = (double)got, w = (double)want[0], a = (double)want[1], b = (double)want[2];
  if (std::isnan(g) || std::isnan(w))
    return std::isnan(g) && std::isnan(w);
  if (g == w) // -inf equals -inf where a bound left the domain (log(0 - bound))
    return true;
  if (std::isnan(a) || std::isnan(b)) { // the bound left the epilogue's domain (sqrt(< 0));
    double end = std::isnan(a) ? b : a;  // an infinite reference is only itself (not g)
    return !std::isinf(w) && (std::isnan(end) || std::fabs(g - w) <= std::fabs(end - w));
  }
  return g >= std::fmin(a, b) && g <= std::fmax(a, b);
}

static void print_got(R got, const R want[3]) {
  if (std::is_integral<R>::value && want[1] == want[2])
    std::printf("got %lld, want %lld\n", (long long)got, (long long)want[0]);
  else if (std::is_integral<R>::value)
    std::printf("got %lld, want %lld (within [%lld, %lld])\n", (long long)got, (long long)want[0],
                (long long)want[1], (long long)want[2]);
  else
    std::printf("got %.9g, want %.9g (within [%.9g, %.9g])\n", (double)got, (double)want[0],
                (double)want[1], (double)want[2]);
}
{{/scalar_result}}

// An element: floating point in -1..1; integers of -1000..1000 (unsigned
// 0..2000), but one in 8 of 64 bits past 32 bits (a cooperative codelet's
// int partial of a long long sum drops them: probe9 #2) and of 32-bit
// unsigned past 2^31 (an int one of an unsigned max misorders them).
static T random_value(std::mt19937_64 &rng) {
  if (std::is_floating_point<T>::value)
    return (T)std::uniform_real_distribution<double>(-1, 1)(rng);
  const unsigned long long r = rng();
  const long long small = std::is_signed<T>::value ? (long long)(r % 2001) - 1000 : (long long)(r % 2001);
  if (r >> 61 == 7 && sizeof(T) == 8)
    return (T)(small * ((1ll << 33) + 1));
  if (r >> 61 == 7 && sizeof(T) == 4 && !std::is_signed<T>::value)
    return (T)(0x80000000u + (unsigned)small);
  return (T)small;
}

// The scalar codelet compiled as C++ (the oracle, check_oracle.tpl: last in
// the file) over x[0..NIN) of n elements agrees with want, tgm's reference;
// else its ORACLE line.
static bool tgm_oracle_agrees(const T *const *x, unsigned long long n, const R *want, const char *where);

// The RESULT line of a variant right at every block it ran in.
static int report_ok(const char *id) {
  std::printf("RESULT\t%s\tok\n", id);
  return 0;
}

// Runs one variant in a child process: a crash or a hang is its failure.
template <typename F> static void isolated(const char *id, F f) {
  std::fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    alarm(SECONDS);
    int bad = f();
    std::fflush(stdout);
    _exit(bad);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid)
    std::printf("RESULT\t%s\tFAIL\tcould not run it (fork)\n", id);
  else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
    std::printf("RESULT\t%s\tFAIL\tran for more than %d s (a loop that never ends?)\n", id, SECONDS);
  else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGILL) // the harness's sanitizer
    std::printf("RESULT\t%s\tFAIL\ttrapped: an index past the end of a fixed-size array (a "
                "__shared array smaller than the block, or read beyond it), a shift by the width or "
                "more, or a float converted to an integer out of its range\n",
                id);
  else if (WIFSIGNALED(status))
    std::printf("RESULT\t%s\tFAIL\tcrashed: %s\n", id, strsignal(WTERMSIG(status)));
}
