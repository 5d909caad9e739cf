#!/bin/sh
# Defects static analysers found (GCC -fanalyzer, cppcheck), each shown
# where a failure can be provoked from outside: an LD_PRELOAD shim makes
# one system call fail for one path.
. "$(dirname "$0")/../lib.sh"

CC=${CC:-cc}
if ! command -v "$CC" > /dev/null 2>&1; then
	t_skip "static findings" "needs a C compiler for the LD_PRELOAD shim"
	t_done
fi

# fail-rename.so: rename() onto a path ending in $FAIL_RENAME fails (EIO)
cat > "$TRASH/fail-rename.c" <<'SHIM'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rename(const char *from, const char *to)
{
	int (*real)(const char *, const char *) =
		(int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
	const char *tail = getenv("FAIL_RENAME");
	size_t n = tail ? strlen(tail) : 0, m = strlen(to);

	if (n && m >= n && !strcmp(to + m - n, tail)) {
		errno = EIO;
		return -1;
	}
	return real(from, to);
}
SHIM
if ! "$CC" -shared -fPIC -o "$TRASH/fail-rename.so" "$TRASH/fail-rename.c" -ldl; then
	t_skip "static findings" "cannot build the LD_PRELOAD shim"
	t_done
fi

# kmig import: the journal cannot be renamed into place.  journal_write()
# closed its stream a second time (a double fclose(): glibc aborts).
SRC="$TRASH/src"
git init -q "$SRC"
python3 "$TOP/tests/mkhistory.py" "$SRC" 1 20 1 v1.
git -C "$SRC" archive --prefix=linux-1.0/ -o "$TRASH/linux-1.0.tar.gz" v1.0
# an ASan build (make asan) wants its runtime first among the preloaded
# libraries: the shim intercepts nothing ASan does, so the order is moot
t_exit "import whose journal cannot be renamed" 2 \
	env LD_PRELOAD="$TRASH/fail-rename.so" FAIL_RENAME=/kmig-import.journal \
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
	"$KMIG" --repo "$TRASH/linux.git" --db "$TRASH/kmig.db" import \
	--tarball "$TRASH/linux-1.0.tar.gz" --tag v1.0
t_ok "... one line naming the journal and the cause" \
	grep -q "^kmig: .*cannot write '.*/kmig-import.journal': Input/output error\$" \
	"$TRASH/.stderr"
t_is "... only that line" 1 "$(wc -l < "$TRASH/.stderr")"
t_ok "... no temporary journal left" \
	test ! -e "$TRASH/linux.git/kmig-import.journal.tmp"
t_exit "the import again, without the failure" 0 \
	"$KMIG" --repo "$TRASH/linux.git" --db "$TRASH/kmig.db" import \
	--tarball "$TRASH/linux-1.0.tar.gz" --tag v1.0

t_done
