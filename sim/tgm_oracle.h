// tgm_oracle.h -- the codelet language as plain C++ on a CPU, for the
// oracle of tgm-gen's check: the spectrum's scalar codelet as the user wrote
// it (the file's other codelet bodies blanked), compiled by the C++ compiler
// rather than translated by tgm, run sequentially on the check's data. Every
// variant is checked against tgm's own translation of that codelet
// (tgm_reference); the oracle checks the translation itself. A rule tgm
// applies in the codelet's types (max of an int and an unsigned, sqrt of an
// int, a float constant) that C++ reads otherwise shows up as a mismatch,
// at which tgm-gen writes nothing.
//
// These definitions are written from the language's documented meaning
// (codegen/prelude.h, README "The codelet language"), not from tgm's
// emitted code: max and min in C++'s common type of their arguments,
// `a < b ? b : a`; math of a float is float, of anything else double;
// Lowest() and Highest() the accumulator's extremes; Arg's ranking.
//
// Included inside `namespace tgm_oracle`, after <cmath>, <climits>,
// <cfloat>, <cstdint>, <limits>, <algorithm> and <type_traits>, with T (the
// element type) and tgm_value_t (the type Lowest() and Highest() give)
// declared; every other name it adds is the language's or starts tgm_.
#define __codelet
#define __device
#define __coop
#define __tag(name)
#define __tunable
#define __shared

// The input: n elements (a row, a column gathered). Its Stride() is 1 and
// Index(i) is i: the scalar codelet runs over all of it.
template <int D, typename E> struct Array {
  const E *p;
  unsigned long long n;
  explicit Array(const E *p, unsigned long long n) : p(p), n(n) {}
  unsigned Size() const { return (unsigned)n; }
  unsigned Stride() const { return 1; }
  const E &operator[](unsigned i) const { return p[i]; }
  unsigned long long Index(unsigned i) const { return i; }
};

// Lowest() and Highest(): the accumulator's (an Arg's value's) identities
// of max and min: an infinity where the type has one
inline tgm_value_t Lowest() {
  return ::std::numeric_limits<tgm_value_t>::has_infinity
             ? -::std::numeric_limits<tgm_value_t>::infinity()
             : ::std::numeric_limits<tgm_value_t>::lowest();
}
inline tgm_value_t Highest() {
  return ::std::numeric_limits<tgm_value_t>::has_infinity
             ? ::std::numeric_limits<tgm_value_t>::infinity()
             : ::std::numeric_limits<tgm_value_t>::max();
}

// max and min of two arithmetic values, in C++'s common type (the usual
// arithmetic conversions: two chars compare as ints)
template <typename X, typename Y>
using tgm_arith =
    typename ::std::enable_if<::std::is_arithmetic<X>::value && ::std::is_arithmetic<Y>::value,
                              decltype(X() + Y())>::type;
// (the leading int keeps these out of a call that names its type)
template <int tgm_deduced = 0, typename X, typename Y> tgm_arith<X, Y> max(X x, Y y) {
  const tgm_arith<X, Y> a = x, b = y;
  return a < b ? b : a;
}
template <int tgm_deduced = 0, typename X, typename Y> tgm_arith<X, Y> min(X x, Y y) {
  const tgm_arith<X, Y> a = x, b = y;
  return b < a ? b : a;
}
// std::max<float>(a, b) as C++'s: both arguments converted to the type named
template <typename X> using tgm_named = typename ::std::enable_if<true, X>::type;
template <typename X> X max(tgm_named<X> a, tgm_named<X> b) { return a < b ? b : a; }
template <typename X> X min(tgm_named<X> a, tgm_named<X> b) { return b < a ? b : a; }

// Math: of a float a float, of a double or an integer a double (<cmath>)
template <typename X>
using tgm_real = typename ::std::conditional<::std::is_same<X, float>::value, float, double>::type;
#define TGM_ORACLE_MATH(f)                                                              \
  template <typename X,                                                                 \
            typename = typename ::std::enable_if<::std::is_arithmetic<X>::value>::type> \
  tgm_real<X> f(X x) {                                                                  \
    return ::std::f((tgm_real<X>)x);                                                    \
  }
TGM_ORACLE_MATH(sqrt)
TGM_ORACLE_MATH(fabs)
TGM_ORACLE_MATH(exp)
TGM_ORACLE_MATH(log)
TGM_ORACLE_MATH(floor)
TGM_ORACLE_MATH(ceil)
#undef TGM_ORACLE_MATH
// abs keeps its argument's type (after promotion: a short's is an int)
inline int abs(int x) { return ::std::abs(x); }
inline long long abs(long long x) { return ::std::llabs(x); }
inline long abs(long x) { return ::std::labs(x); }
inline float abs(float x) { return ::std::fabs(x); }
inline double abs(double x) { return ::std::fabs(x); }
// pow: float of two floats, else double (an integer side makes both double)
template <typename X, typename Y>
using tgm_pow_type =
    typename ::std::conditional<::std::is_same<X, float>::value && ::std::is_same<Y, float>::value,
                                float, double>::type;
template <typename X, typename Y> tgm_pow_type<X, Y> pow(X x, Y y) {
  return ::std::pow((tgm_pow_type<X, Y>)x, (tgm_pow_type<X, Y>)y);
}
// fmax and fmin: as pow, float of two floats, else double
template <typename X, typename Y> tgm_pow_type<X, Y> fmax(X x, Y y) {
  return ::std::fmax((tgm_pow_type<X, Y>)x, (tgm_pow_type<X, Y>)y);
}
template <typename X, typename Y> tgm_pow_type<X, Y> fmin(X x, Y y) {
  return ::std::fmin((tgm_pow_type<X, Y>)x, (tgm_pow_type<X, Y>)y);
}
using ::std::isfinite;
using ::std::isinf;
using ::std::isnan;

// An element's value and its index: max keeps the larger value, min the
// smaller, on a tie the lower index. A value alone (an identity) has no
// index (~0) and loses every tie. Over floating point an Arg ranks: none <
// a NaN element < a number; NaN elements among themselves by the lower
// index.
struct Arg {
  unsigned long long key;
  T value;
  Arg() : key(~0ull), value(Lowest()) {}
  Arg(T value) : key(~0ull), value(value) {}
  Arg(T value, unsigned long long index) : key(index), value(value) {}
};
inline bool tgm_nan_outranks(const Arg &a, const Arg &b) { // b above a by the rank alone
  if (!::std::is_floating_point<T>::value || b.key == ~0ull)
    return false;
  bool a_low = a.key == ~0ull || a.value != a.value, b_number = b.value == b.value;
  return a_low && (b_number || b.key < a.key);
}
inline Arg max(Arg a, Arg b) {
  return b.value > a.value || (b.value == a.value && b.key < a.key) || tgm_nan_outranks(a, b) ? b
                                                                                              : a;
}
inline Arg min(Arg a, Arg b) {
  return b.value < a.value || (b.value == a.value && b.key < a.key) || tgm_nan_outranks(a, b) ? b
                                                                                              : a;
}

// `std::max`, `std::sqrt`, `std::numeric_limits<T>::lowest()` as a codelet
// writes them (the harness spells std as tgm_oracle_std over the codelets)
namespace tgm_oracle_std {
using ::std::int32_t;
using ::std::int64_t;
using ::std::numeric_limits;
using ::std::size_t;
using ::std::uint32_t;
using ::std::uint64_t;
using tgm_oracle::abs;
using tgm_oracle::ceil;
using tgm_oracle::exp;
using tgm_oracle::fabs;
using tgm_oracle::floor;
using tgm_oracle::fmax;
using tgm_oracle::fmin;
using tgm_oracle::isfinite;
using tgm_oracle::isinf;
using tgm_oracle::isnan;
using tgm_oracle::log;
using tgm_oracle::max;
using tgm_oracle::min;
using tgm_oracle::pow;
using tgm_oracle::sqrt;
} // namespace tgm_oracle_std
