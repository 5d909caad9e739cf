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
/// the array, so such destinations (pointers into it) are left alone;
/// it types a parameter declared "char buf[]" or "char buf[16]" as an
/// array too, but C makes it a pointer (sizeof() is that of a pointer,
/// and strscpy()'s __must_be_array() a build error), and a flexible
/// array member ("char name[]", "char name[0]") has no size: both are
/// left alone as well.  So is a one-element array: sizeof() of the
/// old-style flexible array member "char name[1]" is 1, and strscpy()
/// into it copies nothing (only the NUL) and returns -E2BIG; a "char
/// x[1]" variable only ever holds "".  Members and variables are known
/// by their names (a strcpy() into a member or variable of that name is
/// left alone even where it is another's).
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

// a parameter: "char buf[16]" in a parameter list is a pointer
@param depends on patch@
identifier f, P;
type T;
expression src;
position p;
@@
f(..., T P, ...)
{
<...
  strcpy@p(P, src);
...>
}

// a flexible array member ("char name[]", "char name[0]") or a
// one-element array ("char name[1]", the old-style flexible array) member
// of a struct the file defines, by its name
@flex depends on patch@
identifier S, F, V;
type T, N;
@@
(
  struct S { ... \( T F[]; \| T F[0]; \| T F[1]; \) ... };
|
  struct S { ... \( T F[]; \| T F[0]; \| T F[1]; \) ... } V;
|
  typedef struct { ... \( T F[]; \| T F[0]; \| T F[1]; \) ... } N;
)

@flex_use depends on patch@
identifier flex.F;
expression E, src;
position p;
@@
(
  strcpy@p(E->F, src);
|
  strcpy@p(E.F, src);
)

// a one-element array variable: only "" fits, by its name
@one depends on patch@
identifier X;
type T;
expression I;
@@
(
  T X[1];
|
  T X[1] = I;
)

@one_use depends on patch@
identifier one.X;
expression src;
position p;
@@
  strcpy@p(X, src);

@strcpy_array depends on patch@
char [] dst;
expression src;
position p != {offset.p, param.p, flex_use.p, one_use.p};
@@
- strcpy@p
+ strscpy
  (dst, src);
