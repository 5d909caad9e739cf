// SPDX-License-Identifier: GPL-2.0
/// Open-coded multiplication in allocator size arguments -> the 2-factor
/// allocators, which check the product for overflow
/// (Documentation/process/deprecated.rst, "open-coded arithmetic in
/// allocator arguments"):
///   kmalloc(n * size, gfp) -> kmalloc_array(n, size, gfp)
///   kzalloc(n * size, gfp) -> kcalloc(n, size, gfp)
///   vmalloc(n * size)      -> vmalloc(array_size(n, size))
///   vzalloc(n * size)      -> vzalloc(array_size(n, size))
/// A sizeof() first factor becomes the size argument.  A product of two constants cannot overflow at run time and is left
/// alone (the compiler folds it).
//
// Options: --no-includes --include-headers

virtual patch

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
)
