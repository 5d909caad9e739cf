// SPDX-License-Identifier: GPL-2.0
/// strlcpy() -> strscpy() where the return value is not used.
///
/// strlcpy() reads the whole source string to compute its return value,
/// even past the destination size, which overreads unterminated sources;
/// Documentation/process/deprecated.rst asks for strscpy().  The two
/// return different values (strscpy() returns -E2BIG on truncation), so
/// only calls used as statements, whose value is dropped, are converted;
/// "kmig convert" reports the others.  Only the function name changes,
/// so the arguments keep their layout.
//
// Options: --no-includes --include-headers

virtual patch

@strlcpy_unused depends on patch@
expression dst, src, size;
@@
- strlcpy
+ strscpy
  (dst, src, size);

@strlcpy_void depends on patch@
expression dst, src, size;
@@
- (void)strlcpy(dst, src, size);
+ strscpy(dst, src, size);
