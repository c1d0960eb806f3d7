// tgm_sim.cpp - the fiber scheduler behind tgm_sim.h.
//
// Fibers: every thread of a block runs on its own mmap'd stack (with a guard
// page).  On x86-64 a switch is six pushes, a stack swap and six pops
// (tgm_sim_swap below); elsewhere a fiber is created with makecontext() and
// switched with _setjmp/_longjmp (glibc's longjmp also walks the thread's
// cleanup handlers: 1 M threads at 6 barriers each take 2.3x as long).  A fiber loops forever: park, run one
// GPU thread, park... so stacks and contexts are reused across blocks and
// launches.  A fiber that is abandoned mid-kernel (launch error) is
// re-created before its next use.
//
// Scheduling: one block at a time.  A FIFO run queue holds the runnable
// threads of the block; a thread runs until it blocks (barrier or warp
// rendezvous) or returns, and then switches straight to the next thread in
// the queue (to the scheduler only when the queue is empty or the launch
// failed).  When a barrier / rendezvous completes, all its threads (the last
// arriver included) are queued in the configured thread order.  An empty
// queue with unfinished threads is a deadlock, reported as barrier
// divergence or warp-collective deadlock.

// glibc's fortified longjmp (__longjmp_chk) refuses to jump between stacks.
#ifdef _FORTIFY_SOURCE
#undef _FORTIFY_SOURCE
#endif

#include <setjmp.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdarg>

#if defined(__SANITIZE_ADDRESS__)
#define TGM_SIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TGM_SIM_ASAN 1
#endif
#endif
#ifdef TGM_SIM_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define TGM_SIM_VALGRIND 1
#endif

#include "tgm_sim.h"

// ---------------------------------------------------------------- contexts

#if defined(__x86_64__) && !defined(TGM_SIM_SETJMP)
#define TGM_SIM_SWAP 1
// tgm_sim_swap(&from, to): pushes the callee-saved registers of the System V
// ABI (rbp, rbx, r12-r15) on the current stack, stores the stack pointer in
// *from, and pops and returns on the stack `to`.  The SSE and x87 control
// words are the same in every fiber and left alone.
extern "C" void tgm_sim_swap(void **from, void *to);
asm(".text\n"
    ".p2align 4\n"
    ".globl tgm_sim_swap\n"
    ".type tgm_sim_swap, @function\n"
    "tgm_sim_swap:\n"
    "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
    "  movq %rsp, (%rdi)\n"
    "  movq %rsi, %rsp\n"
    "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n"
    "  ret\n"
    ".size tgm_sim_swap, .-tgm_sim_swap\n");
#endif

uint3 threadIdx = {0, 0, 0};
uint3 blockIdx = {0, 0, 0};
dim3 blockDim = dim3(1, 1, 1);
dim3 gridDim = dim3(1, 1, 1);
int warpSize = 32;

namespace tgm_sim {
namespace detail {
namespace {

constexpr unsigned kMaxThreads = 1024;
constexpr std::size_t kDefaultStack = 64 * 1024;

enum class tstate : unsigned char { runnable, at_barrier, at_warp, done };

struct thread_slot {
  tstate st = tstate::runnable;
  int bar_kind = 0, bar_pred = 0, bar_result = 0, bar_line = 0;
  const char *bar_file = nullptr;
  warp_call *call = nullptr; // on the thread's own stack while st == at_warp
};

// Where a suspended fiber (or the scheduler) resumes.
#ifdef TGM_SIM_SWAP
struct context {
  void *sp = nullptr;
};
__attribute__((always_inline)) inline void switch_context(context &from, context &to) {
  tgm_sim_swap(&from.sp, to.sp);
}
#else
struct context {
  jmp_buf jb;
};
__attribute__((noinline)) void switch_context(context &from, context &to) {
  if (!_setjmp(from.jb))
    _longjmp(to.jb, 1);
}
#endif

struct fiber {
  context ctx;
#ifndef TGM_SIM_SWAP
  ucontext_t boot;
#endif
  char *map = nullptr; // guard page + stack
  std::size_t map_size = 0;
  char *stack_lo = nullptr;
  std::size_t stack_size = 0;
  bool parked = false; // waiting at the top of its loop for a new thread
  unsigned vg_id = 0;
  void *asan_fake = nullptr;
};

struct sim_state {
  // options
  order block_ord = order::forward, thread_ord = order::forward;
  unsigned long long block_seed = 1, thread_seed = 1;
  bool strict = false;
  std::size_t stack_size = kDefaultStack;
  int default_ws = 32;

  // fibers
  std::vector<std::unique_ptr<fiber>> fibers;
  context sched;
  fiber *booting = nullptr;
  const void *main_bottom = nullptr;
  std::size_t main_size = 0;
  void *main_fake = nullptr;

  // current launch / block
  bool in_launch = false, in_fiber = false;
  void (*fn)(void *) = nullptr;
  void *ctx = nullptr;
  unsigned nthreads = 0, ws = 32, ws_log = 5; // ws = 1 << ws_log
  std::vector<uint3> tid_of;
  std::vector<thread_slot> th;
  // per warp (thread / ws): lanes that exited, lanes waiting in a warp
  // operation; they keep the per-arrival checks O(1) instead of O(lanes)
  std::vector<unsigned long long> wdone, wwait;
  std::vector<unsigned> queue; // ring buffer, each thread at most once
  std::size_t qhead = 0, qcount = 0;
  std::vector<unsigned> scratch;
  unsigned cur = 0, bar_arrived = 0, ndone = 0;
  unsigned long long rng = 1;
  // shared declarations this block reached (fresh_shared), and the junk's source
  std::vector<const void *> fresh_seen;
  unsigned long long junk = 0x9e3779b97f4a7c15ull;
  bool failed = false;
  std::string err;

  // results
  std::string last_text;
  status pending = status::success;
  std::string errbuf;

  ~sim_state();
};

// The one state, made at first use (a static initialiser in the kernel's
// file sets the warp size); S() is on every fiber switch, hence the cached
// pointer that lets it inline.
__attribute__((noinline)) sim_state *make_state() {
  static sim_state s;
  return &s;
}
sim_state *the_state;
inline sim_state &S() {
  if (__builtin_expect(!the_state, 0))
    the_state = make_state();
  return *the_state;
}

// ---------------------------------------------------------------- helpers

std::string fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char *f, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, f);
  vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

unsigned long long splitmix(unsigned long long &x) {
  unsigned long long z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

template <class T> void arrange(std::vector<T> &v, order o, unsigned long long &rng) {
  if (o == order::reverse)
    std::reverse(v.begin(), v.end());
  if (o == order::random)
    for (std::size_t i = v.size(); i > 1; --i)
      std::swap(v[i - 1], v[splitmix(rng) % i]);
}

const char *base_name(const char *path) {
  const char *s = std::strrchr(path ? path : "?", '/');
  return s ? s + 1 : (path ? path : "?");
}

std::string block_text() {
  if (gridDim.y == 1 && gridDim.z == 1)
    return fmt("block %u", blockIdx.x);
  return fmt("block (%u,%u,%u)", blockIdx.x, blockIdx.y, blockIdx.z);
}

std::string mask_text(unsigned long long m) {
  return S().ws == 64 ? fmt("0x%016llx", m) : fmt("0x%08llx", m);
}

// "0-15,17,20-21"
std::string lanes_text(unsigned long long m) {
  std::string r;
  for (int i = 0; i < 64;) {
    if (!((m >> i) & 1)) {
      ++i;
      continue;
    }
    int j = i;
    while (j + 1 < 64 && ((m >> (j + 1)) & 1))
      ++j;
    if (!r.empty())
      r += ",";
    r += (i == j) ? fmt("%d", i) : fmt("%d-%d", i, j);
    i = j + 1;
  }
  return r.empty() ? "none" : r;
}

const char *barrier_name(int kind) {
  static const char *const names[] = {"__syncthreads", "__syncthreads_count", "__syncthreads_and",
                                      "__syncthreads_or"};
  return names[kind & 3];
}

// --------------------------------------------------------- fiber switching

#ifdef TGM_SIM_ASAN
inline void asan_start(void **save, const void *bottom, std::size_t size) {
  __sanitizer_start_switch_fiber(save, bottom, size);
}
inline void asan_finish(void *save, const void **bottom, std::size_t *size) {
  __sanitizer_finish_switch_fiber(save, bottom, size);
}
#else
inline void asan_start(void **, const void *, std::size_t) {}
inline void asan_finish(void *, const void **, std::size_t *) {}
#endif

void fiber_main();
unsigned pop();

// scheduler -> fiber
__attribute__((noinline)) void run_fiber(fiber &f) {
  sim_state &s = S();
  asan_start(&s.main_fake, f.stack_lo, f.stack_size);
  switch_context(s.sched, f.ctx);
  asan_finish(s.main_fake, nullptr, nullptr);
}

// fiber -> scheduler
__attribute__((noinline)) void yield_fiber(fiber &f) {
  sim_state &s = S();
  asan_start(&f.asan_fake, s.main_bottom, s.main_size);
  switch_context(f.ctx, s.sched);
  asan_finish(f.asan_fake, nullptr, nullptr);
}

// fiber -> the next thread in the run queue (itself: no switch), or the
// scheduler when the queue is empty or the launch failed.
__attribute__((noinline)) void switch_away(fiber &f) {
  sim_state &s = S();
  if (s.failed || !s.qcount) {
    yield_fiber(f);
    return;
  }
  unsigned next = pop();
  s.cur = next;
  threadIdx = s.tid_of[next];
  fiber &g = *s.fibers[next];
  if (&g == &f)
    return;
  asan_start(&f.asan_fake, g.stack_lo, g.stack_size);
  switch_context(f.ctx, g.ctx);
  asan_finish(f.asan_fake, nullptr, nullptr);
}

void free_stack(fiber &f) {
  if (!f.map)
    return;
#ifdef TGM_SIM_VALGRIND
  VALGRIND_STACK_DEREGISTER(f.vg_id);
#endif
  munmap(f.map, f.map_size);
  f.map = nullptr;
}

// (Re)creates the fiber's context and runs it up to its first park.
bool boot_fiber(fiber &f) {
  sim_state &s = S();
  if (!f.map || f.stack_size != s.stack_size) {
    free_stack(f);
    long page = sysconf(_SC_PAGESIZE);
    std::size_t size = (s.stack_size + page - 1) / page * page;
    void *m = mmap(nullptr, size + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
                   0);
    if (m == MAP_FAILED)
      return false;
    f.map = static_cast<char *>(m);
    f.map_size = size + page;
    mprotect(f.map, page, PROT_NONE); // guard page: stack overflow faults
    f.stack_lo = f.map + page;
    f.stack_size = s.stack_size;
#ifdef TGM_SIM_VALGRIND
    f.vg_id = VALGRIND_STACK_REGISTER(f.stack_lo, f.stack_lo + f.stack_size);
#endif
  }
#ifdef TGM_SIM_ASAN
  __asan_unpoison_memory_region(f.stack_lo, f.stack_size);
#endif
  f.parked = false;
  f.asan_fake = nullptr;
  s.booting = &f;
#ifdef TGM_SIM_SWAP
  // the frame tgm_sim_swap pops: six registers, then fiber_main as its
  // return address, entered with the stack 8 off a 16-byte boundary (as if
  // called; the slot above it, its own return address, is never used)
  void **sp = reinterpret_cast<void **>(f.stack_lo + f.stack_size);
  *--sp = nullptr;
  *--sp = reinterpret_cast<void *>(&fiber_main);
  for (int i = 0; i < 6; i++)
    *--sp = nullptr;
  f.ctx.sp = sp;
  run_fiber(f);
#else
  getcontext(&f.boot);
  f.boot.uc_stack.ss_sp = f.stack_lo;
  f.boot.uc_stack.ss_size = f.stack_size;
  f.boot.uc_link = nullptr;
  makecontext(&f.boot, fiber_main, 0);
  asan_start(&s.main_fake, f.stack_lo, f.stack_size);
  if (!_setjmp(s.sched.jb))
    setcontext(&f.boot);
  asan_finish(s.main_fake, nullptr, nullptr);
#endif
  return f.parked;
}

sim_state::~sim_state() {
  for (auto &f : fibers)
    free_stack(*f);
}

// ------------------------------------------------------------ run queue

void push(unsigned t) {
  sim_state &s = S();
  std::size_t i = s.qhead + s.qcount;
  s.queue[i >= s.nthreads ? i - s.nthreads : i] = t;
  ++s.qcount;
}

unsigned pop() {
  sim_state &s = S();
  unsigned t = s.queue[s.qhead];
  if (++s.qhead == s.nthreads)
    s.qhead = 0;
  --s.qcount;
  return t;
}

// Makes the threads in s.scratch runnable, in the configured thread order.
void release_scratch() {
  sim_state &s = S();
  arrange(s.scratch, s.thread_ord, s.rng);
  for (unsigned t : s.scratch) {
    if (s.th[t].st == tstate::at_warp)
      s.wwait[t >> s.ws_log] &= ~(1ull << (t & (s.ws - 1)));
    s.th[t].st = tstate::runnable;
    push(t);
  }
  s.scratch.clear();
}

void set_error(std::string text) {
  sim_state &s = S();
  if (s.failed)
    return;
  s.failed = true;
  s.err = std::move(text);
}

// Gives up the current fiber after an error: it is never resumed.  Callers
// must not hold objects with destructors (they would never run).
[[noreturn]] void abandon() {
  sim_state &s = S();
  yield_fiber(*s.fibers[s.cur]);
  __builtin_unreachable();
}

// Parks the current thread (already marked blocked) until it is resumed.
void block_current() {
  sim_state &s = S();
  unsigned me = s.cur;
  if (s.failed)
    abandon();
  switch_away(*s.fibers[me]);
}

// ------------------------------------------------------------ warps

unsigned warp_base(unsigned t) { return t & ~(S().ws - 1); }

unsigned lanes_in_warp(unsigned base) { return std::min(S().ws, S().nthreads - base); }

unsigned long long low_bits(unsigned n) { return n >= 64 ? ~0ull : ((1ull << n) - 1); }

unsigned long long live_mask(unsigned base) {
  sim_state &s = S();
  return low_bits(lanes_in_warp(base)) & ~s.wdone[base >> s.ws_log];
}

bool is_shuffle(int op) { return op <= op_shfl_xor; }

// Source lane of a shuffle, CUDA/PTX shfl.sync semantics (HIP agrees).
unsigned source_lane(const warp_call &c, unsigned lane) {
  unsigned w = unsigned(c.width), ws = S().ws;
  unsigned seg_lo = lane & ~(w - 1), seg_hi = seg_lo + w; // [seg_lo, seg_hi)
  unsigned b = unsigned(c.b) & (ws - 1);
  switch (c.op) {
  case op_shfl_idx: return seg_lo | (b & (w - 1));
  case op_shfl_up: return (lane < seg_lo + b) ? lane : lane - b;
  case op_shfl_down: return (lane + b >= seg_hi) ? lane : lane + b;
  default: { // xor: may reach earlier segments, never later ones
    unsigned j = lane ^ b;
    return j >= seg_hi ? lane : j;
  }
  }
}

unsigned u32(const unsigned char *p) {
  unsigned v;
  std::memcpy(&v, p, 4);
  return v;
}

// Computes the results of a complete rendezvous of lanes `part` of a warp.
void complete(unsigned base, unsigned long long part) {
  sim_state &s = S();
  const warp_call &c0 = *s.th[base + unsigned(__builtin_ctzll(part))].call;
  if (is_shuffle(c0.op)) {
    for (unsigned l = 0; l < 64; ++l) {
      if (!((part >> l) & 1))
        continue;
      warp_call &c = *s.th[base + l].call;
      unsigned j = source_lane(c, l);
      if ((part >> j) & 1) {
        std::memcpy(c.out, s.th[base + j].call->in, std::size_t(c.size));
      } else if (s.strict) {
        set_error(fmt("%s at %s, warp %u: lane %u reads lane %u, which does not take part "
                      "(lanes %s do); the value is undefined on a GPU",
                      c.name, block_text().c_str(), base >> s.ws_log, l, j,
                      lanes_text(part).c_str()));
        return;
      } else {
        std::memset(c.out, 0x7f, sizeof c.out);
      }
    }
    return;
  }
  unsigned long long r = 0;
  bool first = true;
  for (unsigned l = 0; l < 64; ++l) {
    if (!((part >> l) & 1))
      continue;
    unsigned v = u32(s.th[base + l].call->in);
    switch (c0.op) {
    case op_ballot:
      if (v)
        r |= 1ull << l;
      break;
    case op_all: r = first ? v : (r && v); break;
    case op_any: r = first ? v : (r || v); break;
    case op_red_add: r = unsigned(r + v); break;
    case op_red_min_s: r = first ? v : unsigned(std::min(int(r), int(v))); break;
    case op_red_min_u: r = first ? v : std::min<unsigned>(unsigned(r), v); break;
    case op_red_max_s: r = first ? v : unsigned(std::max(int(r), int(v))); break;
    case op_red_max_u: r = first ? v : std::max<unsigned>(unsigned(r), v); break;
    case op_red_and: r = first ? v : (r & v); break;
    case op_red_or: r |= v; break;
    case op_red_xor: r ^= v; break;
    default: break; // syncwarp
    }
    first = false;
  }
  for (unsigned l = 0; l < 64; ++l) {
    if (!((part >> l) & 1))
      continue;
    warp_call &c = *s.th[base + l].call;
    if (c.op >= op_red_add) {
      unsigned v = unsigned(r);
      std::memcpy(c.out, &v, 4);
    } else {
      std::memcpy(c.out, &r, 8);
    }
  }
}

// Completes the rendezvous of the group lane `lane` waits in, if everyone
// it needs is there.  Mismatches are left to deadlock detection.
bool try_complete(unsigned base, unsigned lane) {
  sim_state &s = S();
  const warp_call &c0 = *s.th[base + lane].call;
  unsigned long long part = c0.live ? live_mask(base) : c0.mask;
  if ((s.wwait[base >> s.ws_log] & part) != part)
    return false; // someone is not there yet
  for (unsigned long long m = part; m; m &= m - 1) {
    unsigned l = unsigned(__builtin_ctzll(m));
    const thread_slot &t = s.th[base + l];
    if (t.st != tstate::at_warp)
      return false;
    const warp_call &c = *t.call;
    if (c.op != c0.op || c.live != c0.live || c.size != c0.size || (!c0.live && c.mask != c0.mask))
      return false;
  }
  complete(base, part);
  for (unsigned long long m = part; m; m &= m - 1)
    s.scratch.push_back(base + unsigned(__builtin_ctzll(m)));
  release_scratch();
  return true;
}

// Checks made when a lane arrives at a warp operation.  Returns false (with
// the error set) if the call can never complete.
bool check_arrival(warp_call &c, unsigned me) {
  sim_state &s = S();
  unsigned base = warp_base(me), lane = me - base, n = lanes_in_warp(base);
  auto where = [&] {
    return fmt("%s at %s, warp %u", c.name, block_text().c_str(), base >> s.ws_log);
  };
  if (is_shuffle(c.op) && (c.width < 1 || c.width > int(s.ws) || (c.width & (c.width - 1)) != 0)) {
    set_error(
        fmt("%s: invalid width %d (must be a power of two <= %u)", where().c_str(), c.width, s.ws));
    return false;
  }
  if (c.live)
    return true;
  c.mask &= low_bits(s.ws);
  if (!((c.mask >> lane) & 1)) {
    set_error(fmt("%s: lane %u calls it with mask %s, which does not include the lane",
                  where().c_str(), lane, mask_text(c.mask).c_str()));
    return false;
  }
  if (c.mask & ~low_bits(n)) {
    set_error(fmt("%s: mask %s names lanes %s, which do not exist (the block has %u threads, "
                  "so this warp has %u lanes)",
                  where().c_str(), mask_text(c.mask).c_str(),
                  lanes_text(c.mask & ~low_bits(n)).c_str(), s.nthreads, n));
    return false;
  }
  if (unsigned long long gone = c.mask & s.wdone[base >> s.ws_log]) {
    set_error(fmt("%s: lane %u named in mask %s has exited (returned) and can never arrive",
                  where().c_str(), unsigned(__builtin_ctzll(gone)), mask_text(c.mask).c_str()));
    return false;
  }
  return true;
}

// ------------------------------------------------------------ thread exit

void thread_exit() {
  sim_state &s = S();
  unsigned me = s.cur, base = warp_base(me), lane = me - base;
  s.th[me].st = tstate::done;
  s.wdone[base >> s.ws_log] |= 1ull << lane;
  ++s.ndone;
  int live_waiter = -1;
  for (unsigned long long m = s.wwait[base >> s.ws_log]; m; m &= m - 1) { // lanes that wait
    unsigned l = unsigned(__builtin_ctzll(m));
    const thread_slot &t = s.th[base + l];
    if (t.call->live) {
      live_waiter = int(l);
    } else if ((t.call->mask >> lane) & 1) {
      set_error(fmt("%s at %s, warp %u: lane %u named in mask %s exited (returned) while "
                    "lane %u waits for it",
                    t.call->name, block_text().c_str(), base >> s.ws_log, lane,
                    mask_text(t.call->mask).c_str(), l));
      return;
    }
  }
  if (live_waiter >= 0)
    try_complete(base, unsigned(live_waiter));
}

void fiber_main() {
  sim_state &s = S();
  fiber &f = *s.booting;
  asan_finish(nullptr, &s.main_bottom, &s.main_size);
  f.parked = true;
  yield_fiber(f); // booted
  for (;;) {
    f.parked = false;
    bool threw = false;
    try {
      s.fn(s.ctx);
    } catch (...) {
      threw = true;
    }
    if (threw)
      set_error(fmt("thread (%u,%u,%u) of %s threw a C++ exception", threadIdx.x, threadIdx.y,
                    threadIdx.z, block_text().c_str()));
    else
      thread_exit();
    if (s.failed)
      abandon();
    f.parked = true;
    switch_away(f);
  }
}

// ------------------------------------------------------------ deadlock

std::string describe_deadlock() {
  sim_state &s = S();
  unsigned at_bar = 0, at_warp = 0, done = 0;
  std::vector<std::pair<std::string, unsigned>> sites;
  int first_warp_waiter = -1;
  for (unsigned t = 0; t < s.nthreads; ++t) {
    const thread_slot &ts = s.th[t];
    if (ts.st == tstate::done)
      ++done;
    if (ts.st == tstate::at_warp) {
      ++at_warp;
      if (first_warp_waiter < 0)
        first_warp_waiter = int(t);
    }
    if (ts.st != tstate::at_barrier)
      continue;
    ++at_bar;
    std::string site = fmt("%s:%d", base_name(ts.bar_file), ts.bar_line);
    auto it = std::find_if(sites.begin(), sites.end(),
                           [&](const auto &p) { return p.first == site; });
    if (it == sites.end())
      sites.emplace_back(site, 1u);
    else
      ++it->second;
  }
  std::string r;
  if (at_bar) {
    unsigned t0 = 0;
    while (s.th[t0].st != tstate::at_barrier)
      ++t0;
    r = fmt("barrier divergence: %u of %u threads reached %s at %s (", at_bar, s.nthreads,
            barrier_name(s.th[t0].bar_kind), block_text().c_str());
    for (std::size_t i = 0; i < sites.size(); ++i)
      r += (i ? ", " : "") + (sites.size() > 1 ? fmt("%u at ", sites[i].second) : "") +
           sites[i].first;
    r += ")";
    if (done)
      r += fmt("; %u exited without reaching it", done);
    if (at_warp) {
      const thread_slot &w = s.th[unsigned(first_warp_waiter)];
      unsigned base = warp_base(unsigned(first_warp_waiter));
      r += fmt("; %u wait in warp operations (first: lane %u of warp %u in %s", at_warp,
               unsigned(first_warp_waiter) - base, base >> s.ws_log, w.call->name);
      r += w.call->live ? std::string(")") : ", mask " + mask_text(w.call->mask) + ")";
    }
    return r;
  }
  if (first_warp_waiter < 0)
    return fmt("deadlock at %s: %u of %u threads never finished", block_text().c_str(),
               s.nthreads - done, s.nthreads);
  // only warp waiters: describe the first stuck warp
  unsigned base = warp_base(unsigned(first_warp_waiter)), n = lanes_in_warp(base);
  r = fmt("warp collective deadlock at %s, warp %u:", block_text().c_str(), base >> s.ws_log);
  std::vector<unsigned char> seen(n, 0);
  for (unsigned l = 0; l < n; ++l) {
    const thread_slot &t = s.th[base + l];
    if (seen[l] || t.st != tstate::at_warp)
      continue;
    unsigned long long group = 0;
    for (unsigned k = l; k < n; ++k) {
      const thread_slot &u = s.th[base + k];
      if (u.st == tstate::at_warp && u.call->op == t.call->op && u.call->live == t.call->live &&
          u.call->mask == t.call->mask) {
        group |= 1ull << k;
        seen[k] = 1;
      }
    }
    r += fmt(" lanes %s wait in %s", lanes_text(group).c_str(), t.call->name);
    r += t.call->live ? std::string(";") : " (mask " + mask_text(t.call->mask) + ");";
  }
  unsigned long long gone = low_bits(n) & ~live_mask(base);
  if (gone)
    r += " lanes " + lanes_text(gone) + " exited;";
  r.pop_back();
  return r;
}

// ------------------------------------------------------------ launch

// Nothing can run.  A HIP (no-mask) warp operation waits for every
// non-exited lane; if the missing lanes are blocked elsewhere, they took
// another branch: like the hardware's exec mask, the operation completes
// among the lanes that reached it.  Resolves one such group (lowest warp).
bool resolve_divergent_group() {
  sim_state &s = S();
  for (unsigned base = 0; base < s.nthreads; base += s.ws) {
    unsigned n = lanes_in_warp(base), first = n;
    unsigned long long part = 0;
    for (unsigned l = 0; l < n; ++l) {
      const thread_slot &t = s.th[base + l];
      if (t.st != tstate::at_warp || !t.call->live)
        continue;
      if (first == n)
        first = l;
      const warp_call &c0 = *s.th[base + first].call;
      if (t.call->op == c0.op && t.call->size == c0.size)
        part |= 1ull << l;
    }
    if (!part)
      continue;
    complete(base, part);
    for (unsigned l = 0; l < n; ++l)
      if ((part >> l) & 1)
        s.scratch.push_back(base + l);
    release_scratch();
    return true;
  }
  return false;
}

void run_block() {
  sim_state &s = S();
  for (auto &t : s.th)
    t = thread_slot{};
  std::fill(s.wdone.begin(), s.wdone.end(), 0ull);
  std::fill(s.wwait.begin(), s.wwait.end(), 0ull);
  s.bar_arrived = 0;
  s.ndone = 0;
  s.qhead = s.qcount = 0;
  s.fresh_seen.clear();
  for (unsigned t = 0; t < s.nthreads; ++t)
    s.scratch.push_back(t);
  release_scratch();
  do {
    while (s.qcount && !s.failed) {
      s.cur = pop();
      threadIdx = s.tid_of[s.cur];
      s.in_fiber = true;
      run_fiber(*s.fibers[s.cur]);
      s.in_fiber = false;
    }
  } while (!s.failed && s.ndone != s.nthreads && resolve_divergent_group());
  if (!s.failed && s.ndone != s.nthreads)
    set_error(describe_deadlock());
}

std::string dims(dim3 d) { return fmt("(%u,%u,%u)", d.x, d.y, d.z); }

status launch_checked(dim3 grid, dim3 block) {
  sim_state &s = S();
  unsigned long long nt = 1ull * block.x * block.y * block.z;
  if (nt == 0 || nt > kMaxThreads || block.z > 64) {
    s.last_text = "invalid configuration: block " + dims(block) +
                  " (need 1..1024 threads, z <= 64)";
    return status::invalid_configuration;
  }
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.x > 0x7fffffffu || grid.y > 65535 ||
      grid.z > 65535) {
    s.last_text = "invalid configuration: grid " + dims(grid);
    return status::invalid_configuration;
  }
  if (1ull * grid.x * grid.y * grid.z > (1ull << 26)) {
    s.last_text = "invalid configuration: grid " + dims(grid) +
                  " has more blocks than the sim "
                  "runs (2^26)";
    return status::invalid_configuration;
  }
  s.nthreads = unsigned(nt);
  s.ws = unsigned(warpSize);
  s.ws_log = s.ws == 64 ? 6 : 5;
  while (s.fibers.size() < s.nthreads)
    s.fibers.push_back(std::make_unique<fiber>());
  for (unsigned t = 0; t < s.nthreads; ++t) {
    fiber &f = *s.fibers[t];
    if ((!f.parked || f.stack_size != s.stack_size) && !boot_fiber(f)) {
      s.last_text = "tgm_sim: cannot allocate fiber stacks";
      return status::kernel_error;
    }
  }
  s.th.assign(s.nthreads, thread_slot{});
  s.wdone.assign((s.nthreads + s.ws - 1) / s.ws, 0);
  s.wwait.assign((s.nthreads + s.ws - 1) / s.ws, 0);
  s.queue.assign(s.nthreads, 0);
  s.tid_of.resize(s.nthreads);
  for (unsigned t = 0; t < s.nthreads; ++t)
    s.tid_of[t] = uint3{t % block.x, t / block.x % block.y, t / (block.x * block.y)};
  gridDim = grid;
  blockDim = block;
  s.rng = s.thread_seed;
  unsigned long long rng_blocks = s.block_seed;
  unsigned long long nb = 1ull * grid.x * grid.y * grid.z;
  std::vector<unsigned long long> blocks(nb);
  for (unsigned long long b = 0; b < nb; ++b)
    blocks[b] = b;
  arrange(blocks, s.block_ord, rng_blocks);
  s.failed = false;
  s.err.clear();
  for (unsigned long long b : blocks) {
    blockIdx = uint3{unsigned(b % grid.x), unsigned(b / grid.x % grid.y),
                     unsigned(b / (1ull * grid.x * grid.y))};
    run_block();
    if (s.failed)
      break;
  }
  if (s.failed) { // abandoned fibers (not parked) are rebuilt on next use
    s.last_text = s.err;
    return status::kernel_error;
  }
  return status::success;
}

} // namespace

// ------------------------------------------------------------ kernel side

void warp_collective(warp_call &c) {
  sim_state &s = S();
  if (!s.in_fiber) { // called outside a kernel: behave like a lone lane
    std::memcpy(c.out, c.in, sizeof c.out);
    return;
  }
  unsigned me = s.cur;
  if (!check_arrival(c, me))
    abandon();
  s.th[me].st = tstate::at_warp;
  s.th[me].call = &c;
  s.wwait[me >> s.ws_log] |= 1ull << (me & (s.ws - 1));
  try_complete(warp_base(me), me - warp_base(me));
  block_current();
}

int block_barrier(int kind, int pred, const char *file, int line) {
  sim_state &s = S();
  if (!s.in_fiber)
    return kind == 1 ? (pred != 0) : pred;
  unsigned me = s.cur;
  thread_slot &t = s.th[me];
  t.st = tstate::at_barrier;
  t.bar_kind = kind;
  t.bar_pred = pred != 0;
  t.bar_file = file;
  t.bar_line = line;
  if (++s.bar_arrived == s.nthreads) {
    s.bar_arrived = 0;
    int count = 0;
    bool same = true;
    for (const thread_slot &u : s.th) {
      count += u.bar_pred;
      same = same && u.bar_kind == kind && u.bar_line == line &&
             (u.bar_file == file || std::strcmp(base_name(u.bar_file), base_name(file)) == 0);
    }
    if (!same) {
      std::string sites;
      for (unsigned i = 0; i < s.nthreads; ++i) {
        const thread_slot &u = s.th[i];
        std::string site = fmt("%s:%d", base_name(u.bar_file), u.bar_line);
        if (sites.find(site) == std::string::npos)
          sites += (sites.empty() ? "" : ", ") + site;
      }
      set_error(fmt("barrier divergence at %s: all %u threads reached a barrier, but at "
                    "different call sites (%s)",
                    block_text().c_str(), s.nthreads, sites.c_str()));
    } else {
      for (unsigned i = 0; i < s.nthreads; ++i) {
        thread_slot &u = s.th[i];
        u.bar_result = kind == 1   ? count
                       : kind == 2 ? int(count == int(s.nthreads))
                       : kind == 3 ? int(count > 0)
                                   : 0;
        s.scratch.push_back(i);
      }
      release_scratch();
    }
  }
  block_current();
  return s.th[me].bar_result;
}

unsigned long long active_lanes() {
  sim_state &s = S();
  if (!s.in_fiber)
    return 1;
  return live_mask(warp_base(s.cur));
}

unsigned int lane_id() {
  sim_state &s = S();
  return s.in_fiber ? (s.cur & (s.ws - 1)) : 0;
}

void fresh_shared(void *p, std::size_t n) {
  sim_state &s = S();
  if (!s.in_fiber || std::find(s.fresh_seen.begin(), s.fresh_seen.end(), p) != s.fresh_seen.end())
    return; // outside a kernel, or this block's memory already
  s.fresh_seen.push_back(p);
  unsigned char *b = static_cast<unsigned char *>(p);
  for (std::size_t i = 0; i < n; ++i) {
    unsigned long long &x = s.junk; // xorshift64
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    b[i] = static_cast<unsigned char>(x >> 32);
  }
}

void trap(const char *file, int line) {
  sim_state &s = S();
  if (!s.in_fiber)
    return;
  set_error(fmt("__trap() at %s:%d by thread (%u,%u,%u) of %s", base_name(file), line, threadIdx.x,
                threadIdx.y, threadIdx.z, block_text().c_str()));
  abandon();
}

// ------------------------------------------------------------ host side

status launch_impl(dim3 grid, dim3 block, void (*fn)(void *), void *ctx) {
  sim_state &s = S();
  if (s.in_launch) {
    // Called from inside a kernel: the error cannot abort the running one.
    s.last_text = "nested launch from a kernel (dynamic parallelism) is not supported";
    return status::invalid_configuration;
  }
  s.in_launch = true;
  s.fn = fn;
  s.ctx = ctx;
  s.last_text.clear();
  status r = launch_checked(grid, block);
  if (r == status::success)
    s.last_text.clear(); // a nested launch may have set it
  s.in_launch = false;
  threadIdx = blockIdx = uint3{0, 0, 0};
  return r;
}

void set_pending(status st) {
  sim_state &s = S();
  if (st != status::success && s.pending == status::success)
    s.pending = st;
}

int take_pending(bool clear) {
  sim_state &s = S();
  status p = s.pending;
  if (clear)
    s.pending = status::success;
  return p == status::success ? 0 : p == status::invalid_configuration ? 9 : 719;
}

const char *error_name(int code, bool hip) {
  switch (code) {
  case 0: return hip ? "hipSuccess" : "cudaSuccess";
  case 1: return hip ? "hipErrorInvalidValue" : "cudaErrorInvalidValue";
  case 2: return hip ? "hipErrorOutOfMemory" : "cudaErrorMemoryAllocation";
  case 9: return hip ? "hipErrorInvalidConfiguration" : "cudaErrorInvalidConfiguration";
  case 719: return hip ? "hipErrorLaunchFailure" : "cudaErrorLaunchFailure";
  default: return hip ? "hipErrorUnknown" : "cudaErrorUnknown";
  }
}

const char *error_string(int code) {
  sim_state &s = S();
  switch (code) {
  case 0: return "no error";
  case 1: return "invalid argument";
  case 2: return "out of memory";
  case 9: s.errbuf = "invalid configuration argument"; break;
  case 719: s.errbuf = "unspecified launch failure"; break;
  default: return "unknown error";
  }
  if (!s.last_text.empty())
    s.errbuf += " (tgm_sim: " + s.last_text + ")";
  return s.errbuf.c_str();
}

} // namespace detail

// ------------------------------------------------------------ options

void set_block_order(order o, unsigned long long seed) {
  detail::S().block_ord = o;
  detail::S().block_seed = seed;
}

void set_thread_order(order o, unsigned long long seed) {
  detail::S().thread_ord = o;
  detail::S().thread_seed = seed;
}

bool set_warp_size(int ws) {
  if ((ws != 32 && ws != 64) || detail::S().in_launch)
    return false;
  warpSize = ws;
  return true;
}

bool detail::set_default_warp_size(int ws) {
  if (!set_warp_size(ws))
    return false;
  S().default_ws = ws;
  return true;
}

int get_warp_size() { return warpSize; }

void set_strict_shuffle(bool strict) { detail::S().strict = strict; }

void set_stack_size(std::size_t bytes) {
  detail::S().stack_size = std::max<std::size_t>(bytes, 16 * 1024);
}

void reset_options() {
  detail::sim_state &s = detail::S();
  s.block_ord = s.thread_ord = order::forward;
  s.block_seed = s.thread_seed = 1;
  s.strict = false;
  s.stack_size = detail::kDefaultStack;
  warpSize = s.default_ws;
}

const char *last_error_text() { return detail::S().last_text.c_str(); }

void release_resources() {
  detail::sim_state &s = detail::S();
  if (s.in_launch)
    return;
  for (auto &f : s.fibers)
    detail::free_stack(*f);
  s.fibers.clear();
}

} // namespace tgm_sim
