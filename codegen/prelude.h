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
#ifndef TGM_PRELUDE_H
#define TGM_PRELUDE_H

#ifndef TGM_ELEM
#define TGM_ELEM int
#endif
typedef TGM_ELEM T;

#define __codelet __attribute__((annotate("tgm.codelet")))
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
  template <int D, typename E> operator Array<D, E>() const;
};

struct Vector {
  unsigned ThreadId() const;
  unsigned LaneId() const;
  unsigned VectorId() const;
  unsigned Size() const;
  unsigned MaxValue() const;
};

T max(T a, T b);
T min(T a, T b);
T Lowest();
T Highest();

#endif
