// SPDX-License-Identifier: GPL-2.0
/// Open-coded multiplication in allocator size arguments -> the 2-factor
/// allocators, which check the product for overflow
/// (Documentation/process/deprecated.rst, "open-coded arithmetic in
/// allocator arguments"):
///   kmalloc(n * size, gfp) -> kmalloc_array(n, size, gfp)
///   kzalloc(n * size, gfp) -> kcalloc(n, size, gfp)
///   vmalloc(n * size)      -> vmalloc(array_size(n, size))
///   vzalloc(n * size)      -> vzalloc(array_size(n, size))
///   kvmalloc(n * size, gfp) -> kvmalloc_array(n, size, gfp)
///   kvzalloc(n * size, gfp) -> kvcalloc(n, size, gfp)
///   krealloc(p, n * size, gfp) -> krealloc_array(p, n, size, gfp)
///   devm_kzalloc(dev, n * size, gfp) -> devm_kcalloc(dev, n, size, gfp)
///   devm_kmalloc(dev, n * size, gfp) -> devm_kmalloc_array(dev, n, size, gfp)
///   other sizes n * size   -> size_mul(n, size)
/// With -D objs (kmig convert passes it when the base's slab.h defines
/// kmalloc_objs()), an assignment to a typed pointer becomes
///   p = kmalloc(n * sizeof(*p), gfp) -> p = kmalloc_objs(*p, n, gfp)
///   p = kzalloc(n * sizeof(T), gfp)  -> p = kzalloc_objs(T, n, gfp)
/// (sizeof(T) only where p is a T *: kmalloc_objs(T, ...) is a T *, and
/// "u8 *buf = kmalloc_objs(u32, n, gfp)" would not build; other pointers
/// get kmalloc_array()).
/// A sizeof() first factor becomes the size argument.  A product of two constants cannot overflow at run time and is left
/// alone (the compiler folds it).
//
// Options: --no-includes --include-headers

virtual patch
virtual objs

@alloc_objs depends on patch && objs@
expression P, n, gfp;
type T;
T *Q;
constant C1, C2;
@@
(
  P = \(kmalloc\|kzalloc\)(C1 * C2, gfp)
|
- P = kmalloc(sizeof(*P) * n, gfp)
+ P = kmalloc_objs(*P, n, gfp)
|
- P = kmalloc(n * sizeof(*P), gfp)
+ P = kmalloc_objs(*P, n, gfp)
|
- P = kzalloc(sizeof(*P) * n, gfp)
+ P = kzalloc_objs(*P, n, gfp)
|
- P = kzalloc(n * sizeof(*P), gfp)
+ P = kzalloc_objs(*P, n, gfp)
|
- Q = kmalloc(sizeof(T) * n, gfp)
+ Q = kmalloc_objs(T, n, gfp)
|
- Q = kmalloc(n * sizeof(T), gfp)
+ Q = kmalloc_objs(T, n, gfp)
|
- Q = kzalloc(sizeof(T) * n, gfp)
+ Q = kzalloc_objs(T, n, gfp)
|
- Q = kzalloc(n * sizeof(T), gfp)
+ Q = kzalloc_objs(T, n, gfp)
)

@alloc_arith depends on patch@
expression n, size, gfp, E;
type T;
constant C1, C2;
@@
(
  kmalloc(C1 * C2, gfp)
|
- kmalloc(sizeof(T) * n, gfp)
+ kmalloc_array(n, sizeof(T), gfp)
|
- kmalloc(sizeof(E) * n, gfp)
+ kmalloc_array(n, sizeof(E), gfp)
|
- kmalloc(n * size, gfp)
+ kmalloc_array(n, size, gfp)
|
  kzalloc(C1 * C2, gfp)
|
- kzalloc(sizeof(T) * n, gfp)
+ kcalloc(n, sizeof(T), gfp)
|
- kzalloc(sizeof(E) * n, gfp)
+ kcalloc(n, sizeof(E), gfp)
|
- kzalloc(n * size, gfp)
+ kcalloc(n, size, gfp)
|
  vmalloc(C1 * C2)
|
- vmalloc(sizeof(T) * n)
+ vmalloc(array_size(n, sizeof(T)))
|
- vmalloc(sizeof(E) * n)
+ vmalloc(array_size(n, sizeof(E)))
|
- vmalloc(n * size)
+ vmalloc(array_size(n, size))
|
  vzalloc(C1 * C2)
|
- vzalloc(sizeof(T) * n)
+ vzalloc(array_size(n, sizeof(T)))
|
- vzalloc(sizeof(E) * n)
+ vzalloc(array_size(n, sizeof(E)))
|
- vzalloc(n * size)
+ vzalloc(array_size(n, size))
|
  kvmalloc(C1 * C2, gfp)
|
- kvmalloc(n * size, gfp)
+ kvmalloc_array(n, size, gfp)
|
  kvzalloc(C1 * C2, gfp)
|
- kvzalloc(n * size, gfp)
+ kvcalloc(n, size, gfp)
|
  krealloc(E, C1 * C2, gfp)
|
- krealloc(E, n * size, gfp)
+ krealloc_array(E, n, size, gfp)
|
  devm_kzalloc(E, C1 * C2, gfp)
|
- devm_kzalloc(E, n * size, gfp)
+ devm_kcalloc(E, n, size, gfp)
|
  devm_kmalloc(E, C1 * C2, gfp)
|
- devm_kmalloc(E, n * size, gfp)
+ devm_kmalloc_array(E, n, size, gfp)
)

@alloc_mul depends on patch@
expression n, size;
constant C1, C2;
identifier alloc = {kmalloc_node, kzalloc_node, kvmalloc_node, kvzalloc_node};
@@
(
  alloc(C1 * C2, ...)
|
  alloc(
- n * size
+ size_mul(n, size)
  , ...)
)
