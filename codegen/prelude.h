// tgm_prelude.h -- the codelet language, declared in C++ so that libclang
// (and an editor) can parse codelet files. tgm-gen includes it before every
// codelet file; TGM_ELEM is the element type chosen with --type.
//
//   __codelet            marks a codelet (several may share a name: a spectrum)
//   __coop               a cooperative codelet, run by the lanes of a Vector
//   __tag(name)          names one implementation in the spectrum
//   __tunable unsigned p;  a knob the tuner sets
//   __shared             block-shared storage; `__shared atomicAdd T x;`
//                        makes each assignment to x an atomic combine
//   Array<1,T>           the input: Size(), Stride(), [i]
//   Sequence, partition, Map   compound codelets (split and recurse)
//   Vector               the lanes: ThreadId(), LaneId(), VectorId(),
//                        Size(), MaxValue()
//   max(a, b), min(a, b), Lowest(), Highest()   for max/min reductions
//   Arg(value, in.Index(i))  an element's value and its index in the whole
//                        input, for argmax/argmin (max/min of two Args)
//   sqrt fabs abs exp log pow floor ceil   math, for every element type
//   sqrtf fabsf ... fmaxf fminf fmax fmin isnan isinf isfinite   C's forms
//   INT_MAX FLT_MAX ...  <climits>/<cfloat>'s limits, as numbers
//   __device             marks a helper function (any function the file
//                        defines is one), emitted with the kernels
#ifndef TGM_PRELUDE_H
#define TGM_PRELUDE_H

#ifndef TGM_ELEM
#define TGM_ELEM int
#define TGM_ELEM_ID 1
#endif
typedef TGM_ELEM T;
typedef unsigned long size_t; // <cstddef>'s, for an index or a length

// The arithmetic types as the declarations below spell them: T where it is
// the element type (TGM_ELEM_ID 1..5: int, unsigned, long long, float,
// double), so that max(acc, x) or sqrt(acc) over T is a T.
#if TGM_ELEM_ID == 1
#define TGM_I T
#else
#define TGM_I int
#endif
#if TGM_ELEM_ID == 2
#define TGM_U T
#else
#define TGM_U unsigned
#endif
#if TGM_ELEM_ID == 3
#define TGM_L T
#else
#define TGM_L long long
#endif
#if TGM_ELEM_ID == 4
#define TGM_F T
#else
#define TGM_F float
#endif
#if TGM_ELEM_ID == 5
#define TGM_D T
#else
#define TGM_D double
#endif

#define __codelet __attribute__((annotate("tgm.codelet")))
#define __device __attribute__((annotate("tgm.device")))
#define __device__ __attribute__((annotate("tgm.device")))
#define __host__
#define __forceinline__ inline
#define __coop __attribute__((annotate("tgm.coop")))
#define __tag(name) __attribute__((annotate("tgm.tag:" #name)))
#define __tunable __attribute__((annotate("tgm.tunable")))
#define __shared __attribute__((annotate("tgm.shared")))
#define __shared__ __attribute__((annotate("tgm.shared")))
#define atomicAdd __attribute__((annotate("tgm.atomic:+")))
#define atomicMul __attribute__((annotate("tgm.atomic:*")))
#define atomicMax __attribute__((annotate("tgm.atomic:max")))
#define atomicMin __attribute__((annotate("tgm.atomic:min")))
#define atomicAnd __attribute__((annotate("tgm.atomic:&")))
#define atomicOr __attribute__((annotate("tgm.atomic:|")))
#define atomicXor __attribute__((annotate("tgm.atomic:^")))

template <int D, typename E> struct Array {
  unsigned Size() const;
  unsigned Stride() const;
  const E &operator[](unsigned i) const;
  // The index in the whole input of the element in[i] (i counts within the
  // part being reduced), for Arg(in[i], in.Index(i)).
  unsigned long long Index(unsigned i) const;
};

struct Sequence {
  explicit Sequence(unsigned value);
  Sequence(unsigned first, unsigned step);
  Sequence(unsigned first, unsigned step, unsigned last);
};

template <typename E> struct Partition {};

template <int D, typename E>
Partition<E> partition(const Array<D, E> &in, unsigned parts, const Sequence &start,
                       const Sequence &inc, const Sequence &end);

struct Map {
  // The function type (not a template parameter) picks the spectrum out of
  // an overload set: `Map map(max, ...)` beside the helper max(a, b). The
  // spectrum may take more inputs and parameters: `return dot(mx, my);`,
  // `return count(map, threshold);`.
  template <typename R, typename... P, typename E>
  Map(R (*fn)(const Array<1, T>, P...), Partition<E> parts);
  // Any other function, so that clang passes a codelet that takes its
  // input later (`T f(T t, const Array<1,T> in)`) to tgm's located error.
  template <typename R, typename... P, typename E> Map(R (*fn)(P...), Partition<E> parts);
  template <int D, typename E> operator Array<D, E>() const;
};

struct Vector {
  unsigned ThreadId() const;
  unsigned LaneId() const;
  unsigned VectorId() const;
  unsigned Size() const;
  unsigned MaxValue() const;
};

// max and min of any two arithmetic types, of their common type (int <
// unsigned < long long < float < double), so that `max(acc, fabs(x[i]))`
// and `min(acc, 0)` resolve for every element type. (Plain overloads, not
// a template: `Map map(max, ...)` picks the spectrum out of this set.)
#define TGM_MINMAX(R, A, B) R max(A a, B b); R min(A a, B b);
TGM_MINMAX(TGM_I, TGM_I, TGM_I)
TGM_MINMAX(TGM_U, TGM_I, TGM_U)
TGM_MINMAX(TGM_L, TGM_I, TGM_L)
TGM_MINMAX(TGM_F, TGM_I, TGM_F)
TGM_MINMAX(TGM_D, TGM_I, TGM_D)
TGM_MINMAX(TGM_U, TGM_U, TGM_I)
TGM_MINMAX(TGM_U, TGM_U, TGM_U)
TGM_MINMAX(TGM_L, TGM_U, TGM_L)
TGM_MINMAX(TGM_F, TGM_U, TGM_F)
TGM_MINMAX(TGM_D, TGM_U, TGM_D)
TGM_MINMAX(TGM_L, TGM_L, TGM_I)
TGM_MINMAX(TGM_L, TGM_L, TGM_U)
TGM_MINMAX(TGM_L, TGM_L, TGM_L)
TGM_MINMAX(TGM_F, TGM_L, TGM_F)
TGM_MINMAX(TGM_D, TGM_L, TGM_D)
TGM_MINMAX(TGM_F, TGM_F, TGM_I)
TGM_MINMAX(TGM_F, TGM_F, TGM_U)
TGM_MINMAX(TGM_F, TGM_F, TGM_L)
TGM_MINMAX(TGM_F, TGM_F, TGM_F)
TGM_MINMAX(TGM_D, TGM_F, TGM_D)
TGM_MINMAX(TGM_D, TGM_D, TGM_I)
TGM_MINMAX(TGM_D, TGM_D, TGM_U)
TGM_MINMAX(TGM_D, TGM_D, TGM_L)
TGM_MINMAX(TGM_D, TGM_D, TGM_F)
TGM_MINMAX(TGM_D, TGM_D, TGM_D)
// unsigned long long (an index, a first-index-of's accumulator: probe9 #10,
// min(acc, (unsigned long long)in.Index(i)) was ambiguous), the wider rank
TGM_MINMAX(unsigned long long, unsigned long long, unsigned long long)
TGM_MINMAX(unsigned long long, unsigned long long, TGM_I)
TGM_MINMAX(unsigned long long, TGM_I, unsigned long long)
TGM_MINMAX(unsigned long long, unsigned long long, TGM_U)
TGM_MINMAX(unsigned long long, TGM_U, unsigned long long)
TGM_MINMAX(unsigned long long, unsigned long long, TGM_L)
TGM_MINMAX(unsigned long long, TGM_L, unsigned long long)
TGM_MINMAX(TGM_F, unsigned long long, TGM_F)
TGM_MINMAX(TGM_F, TGM_F, unsigned long long)
TGM_MINMAX(TGM_D, unsigned long long, TGM_D)
TGM_MINMAX(TGM_D, TGM_D, unsigned long long)
// and unsigned long (size_t here): with long long (a signed type that does
// not hold it) and unsigned long long, unsigned long long
TGM_MINMAX(unsigned long, unsigned long, unsigned long)
TGM_MINMAX(unsigned long, unsigned long, TGM_I)
TGM_MINMAX(unsigned long, TGM_I, unsigned long)
TGM_MINMAX(unsigned long, unsigned long, TGM_U)
TGM_MINMAX(unsigned long, TGM_U, unsigned long)
TGM_MINMAX(unsigned long long, unsigned long, TGM_L)
TGM_MINMAX(unsigned long long, TGM_L, unsigned long)
TGM_MINMAX(unsigned long long, unsigned long, unsigned long long)
TGM_MINMAX(unsigned long long, unsigned long long, unsigned long)
TGM_MINMAX(TGM_F, unsigned long, TGM_F)
TGM_MINMAX(TGM_F, TGM_F, unsigned long)
TGM_MINMAX(TGM_D, unsigned long, TGM_D)
TGM_MINMAX(TGM_D, TGM_D, unsigned long)
#undef TGM_MINMAX

// Math: float in, float out; double and the integers in, double out (as
// C++'s <cmath>; sema writes the integer's cast to double, which device
// code needs). abs keeps its argument's type; of an unsigned one it is
// sema's error (C++ has none).
// TGM_ON_ARITH(F, D, f): f of each arithmetic type, F of a float, D of the rest
#define TGM_ON_ARITH(F, D, f)                                                  \
  F f(TGM_F x);                                                                \
  D f(TGM_D x);                                                                \
  D f(TGM_I x);                                                                \
  D f(TGM_U x);                                                                \
  D f(TGM_L x);
TGM_ON_ARITH(TGM_F, TGM_D, sqrt)
TGM_ON_ARITH(TGM_F, TGM_D, fabs)
TGM_ON_ARITH(TGM_F, TGM_D, exp)
TGM_ON_ARITH(TGM_F, TGM_D, log)
TGM_ON_ARITH(TGM_F, TGM_D, floor)
TGM_ON_ARITH(TGM_F, TGM_D, ceil)
TGM_I abs(TGM_I x);
TGM_U abs(TGM_U x);
TGM_L abs(TGM_L x);
TGM_F abs(TGM_F x);
TGM_D abs(TGM_D x);
// pow, fmax and fmin of two values: float of two floats, else double
// (<cmath>: an integer side makes both double, pow(x, 2) of a float x is a
// double, as on the GPU; sema casts each argument to it).
#define TGM_POW(R, A, B) R pow(A x, B y); R fmax(A x, B y); R fmin(A x, B y);
TGM_POW(TGM_D, TGM_I, TGM_I)
TGM_POW(TGM_D, TGM_I, TGM_U)
TGM_POW(TGM_D, TGM_I, TGM_L)
TGM_POW(TGM_D, TGM_I, TGM_F)
TGM_POW(TGM_D, TGM_I, TGM_D)
TGM_POW(TGM_D, TGM_U, TGM_I)
TGM_POW(TGM_D, TGM_U, TGM_U)
TGM_POW(TGM_D, TGM_U, TGM_L)
TGM_POW(TGM_D, TGM_U, TGM_F)
TGM_POW(TGM_D, TGM_U, TGM_D)
TGM_POW(TGM_D, TGM_L, TGM_I)
TGM_POW(TGM_D, TGM_L, TGM_U)
TGM_POW(TGM_D, TGM_L, TGM_L)
TGM_POW(TGM_D, TGM_L, TGM_F)
TGM_POW(TGM_D, TGM_L, TGM_D)
TGM_POW(TGM_D, TGM_F, TGM_I)
TGM_POW(TGM_D, TGM_F, TGM_U)
TGM_POW(TGM_D, TGM_F, TGM_L)
TGM_POW(TGM_F, TGM_F, TGM_F)
TGM_POW(TGM_D, TGM_F, TGM_D)
TGM_POW(TGM_D, TGM_D, TGM_I)
TGM_POW(TGM_D, TGM_D, TGM_U)
TGM_POW(TGM_D, TGM_D, TGM_L)
TGM_POW(TGM_D, TGM_D, TGM_F)
TGM_POW(TGM_D, TGM_D, TGM_D)
#undef TGM_POW

// C's float forms and the classifications, as CUDA and HIP have
// them in device code (the generated code calls them by these names).
#define TGM_MATHF(f) TGM_F f(TGM_F x);
TGM_MATHF(sqrtf)
TGM_MATHF(fabsf)
TGM_MATHF(expf)
TGM_MATHF(logf)
TGM_MATHF(floorf)
TGM_MATHF(ceilf)
#undef TGM_MATHF
TGM_F powf(TGM_F x, TGM_F y);
TGM_F fmaxf(TGM_F a, TGM_F b);
TGM_F fminf(TGM_F a, TGM_F b);
// of an integer (false, false, true), as <cmath>: sema casts it to double
TGM_ON_ARITH(bool, bool, isnan)
TGM_ON_ARITH(bool, bool, isinf)
TGM_ON_ARITH(bool, bool, isfinite)
#undef TGM_ON_ARITH

// <climits> and <cfloat>'s limits, as numbers (what the generated code
// then holds). INT_MAX may start an int min (as Highest()); FLT_MAX is no
// float identity (that is an infinity: Highest()).
#define INT_MAX 2147483647
#define INT_MIN (-2147483647 - 1)
#define UINT_MAX 4294967295U
#define LLONG_MAX 9223372036854775807LL
#define LLONG_MIN (-9223372036854775807LL - 1)
#define ULLONG_MAX 18446744073709551615ULL
#define FLT_MAX 3.40282347e+38F
#define FLT_MIN 1.17549435e-38F
#define FLT_EPSILON 1.19209290e-07F
#define DBL_MAX 1.7976931348623157e+308
#define DBL_MIN 2.2250738585072014e-308
#define DBL_EPSILON 2.2204460492503131e-16
#define INFINITY __int_as_float(0x7f800000) // CUDA's and HIP's intrinsic; NVRTC has no __builtin_huge_valf
float __int_as_float(int x);

T Lowest();
T Highest();

// An element's value and its index in the whole input: argmax and argmin
// combine Arg(in[i], in.Index(i)) with max or min. max keeps the larger
// value, min the smaller, and on a tie the lower index (CUB's ArgMax and
// ArgMin). A value alone (Lowest(), Highest(): the identities) has no index
// and loses every tie.
struct Arg {
  unsigned long long key; // declared so that '.key' reads as tgm-gen's error, not clang's
  T value;
  Arg(); // for __shared arrays
  Arg(T value);
  Arg(T value, unsigned long long index);
};
Arg max(Arg a, Arg b);
Arg min(Arg a, Arg b);

// <cstdint>'s fixed-width integers (an int sum kept in an int64_t).
typedef int int32_t;
typedef unsigned uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;

// The std:: spellings a C++ programmer writes (std::max, std::sqrt, and
// std::numeric_limits<T>'s lowest(), max(), min(), infinity() and epsilon(),
// which read as the numbers above: tgm-gen inlines their return).
namespace std {
using ::abs;
using ::ceil;
using ::exp;
using ::fabs;
using ::floor;
using ::fmax;
using ::fmin;
using ::isfinite;
using ::isinf;
using ::isnan;
using ::log;
using ::max;
using ::min;
using ::pow;
using ::size_t;
using ::sqrt;
using ::int32_t;
using ::int64_t;
using ::uint32_t;
using ::uint64_t;
// std::max<float>(a, b): the type named, both arguments converted to it (a
// call without one picks the plain overloads above: a template never wins
// a tie with them)
template <class X> X max(X a, X b);
template <class X> X min(X a, X b);
template <class X> struct numeric_limits;
#define TGM_LIMITS_INT(X, LO, HI)                                             \
  template <> struct numeric_limits<X> {                                     \
    static X lowest() { return LO; }                                         \
    static X min() { return LO; }                                            \
    static X max() { return HI; }                                            \
  };
TGM_LIMITS_INT(int, INT_MIN, INT_MAX)
TGM_LIMITS_INT(unsigned, 0U, UINT_MAX)
TGM_LIMITS_INT(long long, LLONG_MIN, LLONG_MAX)
TGM_LIMITS_INT(unsigned long long, 0ULL, ULLONG_MAX)
#undef TGM_LIMITS_INT
#define TGM_LIMITS_FLOAT(X, MAX, MIN, EPS, INF)                               \
  template <> struct numeric_limits<X> {                                     \
    static X lowest() { return -MAX; }                                       \
    static X min() { return MIN; }                                           \
    static X max() { return MAX; }                                           \
    static X epsilon() { return EPS; }                                       \
    static X infinity() { return INF; }                                      \
  };
TGM_LIMITS_FLOAT(float, FLT_MAX, FLT_MIN, FLT_EPSILON, INFINITY)
TGM_LIMITS_FLOAT(double, DBL_MAX, DBL_MIN, DBL_EPSILON, (double)INFINITY)
#undef TGM_LIMITS_FLOAT
} // namespace std

#endif
