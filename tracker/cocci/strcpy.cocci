// SPDX-License-Identifier: GPL-2.0
/// strcpy() -> strscpy(dst, src) where dst is a char array whose size the
/// compiler knows and the return value is not used.
///
/// strcpy() does no bounds checking on the destination
/// (Documentation/process/deprecated.rst).  The two-argument strscpy()
/// (since v6.8) takes the size from the array itself (sizeof(dst), and a
/// build error when dst is a pointer), so only destinations Coccinelle
/// knows to be char arrays (locals, globals, members of structs it can
/// see) are converted, and only calls used as statements; "kmig convert"
/// lists the others with the reason.  Coccinelle types "array + n" as
/// the array, so such destinations (pointers into it) are left alone.
//
// Options: --no-includes --include-headers

virtual patch

@offset depends on patch@
expression E1, E2, src;
position p;
@@
(
  strcpy@p(E1 + E2, src);
|
  strcpy@p(E1 - E2, src);
)

@strcpy_array depends on patch@
char [] dst;
expression src;
position p != offset.p;
@@
- strcpy@p
+ strscpy
  (dst, src);
