#!/bin/sh
# kmig branch apply on bad series: a series naming a missing file, patches
# with '../', absolute or .git paths, a truncated patch: exit 2 with one
# line naming the patch, before anything changes: the branch of the apply
# before, its recorded steps and their test results are left as they were
# (and nothing is written outside the repository); a binary patch applies,
# one that does not is a conflict naming the file, and the series goes on.
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
S="$TRASH/series"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }

git init -q "$W"
mkdir -p "$W/lib" "$S"
printf 'void f(char *d, const char *s)\n{\n\tstrcpy(d, s);\n}\n' > "$W/lib/a.c"
printf 'int g(void)\n{\n\treturn 1;\n}\n' > "$W/lib/b.c"
git_commit_all "$W" init && git -C "$W" tag v1.0
git -C "$W" checkout -q -b tmp
sed -i 's/strcpy(d, s);/strscpy(d, s, 16);/' "$W/lib/a.c"
git -C "$W" commit -q -a -m "lib: a: strscpy"
git -C "$W" format-patch -q -1 --stdout > "$S/0001-a.patch"
sed -i 's/return 1;/return 2;/' "$W/lib/b.c"
git -C "$W" commit -q -a -m "lib: b: two"
git -C "$W" format-patch -q -1 --stdout > "$S/0003-b.patch"
printf '\000\001\002binary' > "$W/lib/blob.bin"
git_commit_all "$W" "lib: a binary file"
git -C "$W" format-patch -q --binary -1 --stdout > "$S/0002-bin.patch"
printf '\000\001\002binary, changed' > "$W/lib/blob.bin"
git_commit_all "$W" "lib: the binary file changed"
git -C "$W" format-patch -q --binary -1 --stdout > "$S/0004-bin-changed.patch"
git -C "$W" checkout -q master && git -C "$W" branch -q -D tmp

# The apply before: 0001 and 0003, its first step tested (as "kmig branch
# test" records it, minutes of QEMU).
G="$TRASH/good"
mkdir -p "$G"
cp "$S/0001-a.patch" "$S/0003-b.patch" "$G/"
printf '0001-a.patch\n0003-b.patch\n' > "$G/series"
t_exit "the apply before" 0 k branch apply --base v1.0 --series "$G"
sqlite3 "$DB" "UPDATE branch_steps SET test_status = 'pass' WHERE position = 1"
steps() {
	sqlite3 "$DB" "SELECT position, status, commit_id, test_status FROM branch_steps WHERE branch = 'kmig/v1.0' ORDER BY position" |
		tr '\n' ' '
}
PREV=$(git -C "$W" rev-parse kmig/v1.0)
STEPS=$(steps)
t_is "the apply before: two steps, the first tested" "1|applied|pass 2|applied|" \
	"$(echo "$STEPS" | sed 's/|[0-9a-f]\{40\}|/|/g;s/ $//')"

# bad SECOND - apply 0001, SECOND, 0003: exit 2 naming SECOND, nothing
# changed.
bad() {
	printf '0001-a.patch\n%s\n0003-b.patch\n' "$2" > "$S/series"
	t_exit "$1" 2 k branch apply --base v1.0 --series "$S"
	t_is "$1: one line naming the patch" "kmig: $3" "$(cat "$TRASH/.stderr")"
	t_is "$1: the branch is as it was" "$PREV" "$(git -C "$W" rev-parse kmig/v1.0)"
	t_is "$1: so are its steps and their test results" "$STEPS" "$(steps)"
}

bad "a series naming a missing file" 0002-missing.patch \
	"cannot open '$S/0002-missing.patch': No such file or directory"

bad "a series with a reversed patch (quilt's -R)" "0002-bin.patch -R" \
	"$S/series:2: option '-R' of '0002-bin.patch': kmig applies git format-patch patches with -p1 only"
bad "a series with -p0" "0002-bin.patch	-p0" \
	"$S/series:2: option '-p0' of '0002-bin.patch': kmig applies git format-patch patches with -p1 only"

head -n 14 "$S/0001-a.patch" > "$S/0002-trunc.patch"
bad "a truncated patch" 0002-trunc.patch \
	"patch '0002-trunc.patch': truncated hunk in 'lib/a.c'"

newfile() {
	cat <<EOP
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Eve <eve@example.org>
Date: Sun, 16 Dec 2018 09:01:08 +0200
Subject: [PATCH] a new file

---
diff --git a/$1 b/$1
new file mode 100644
index 0000000..1111111
--- /dev/null
+++ b/$1
@@ -0,0 +1 @@
+int evil;
-- 
2.39.2
EOP
}
newfile ../evil.c > "$S/0002-dotdot.patch"
bad "a patch creating '../evil.c'" 0002-dotdot.patch \
	"patch '0002-dotdot.patch': unsafe path '../evil.c'"
newfile "$TRASH/evil.c" > "$S/0002-abs.patch"
bad "a patch creating an absolute path" 0002-abs.patch \
	"patch '0002-abs.patch': unsafe path '$TRASH/evil.c'"
newfile lib/../../evil.c > "$S/0002-mid.patch"
bad "a patch with '..' inside its path" 0002-mid.patch \
	"patch '0002-mid.patch': unsafe path 'lib/../../evil.c'"
newfile .git/hooks/pre-commit > "$S/0002-git.patch"
bad "a patch writing into .git" 0002-git.patch \
	"patch '0002-git.patch': unsafe path '.git/hooks/pre-commit'"
sed 's#lib/b.c#../../b.c#g' "$S/0003-b.patch" > "$S/0002-modify.patch"
bad "a patch modifying '../../b.c'" 0002-modify.patch \
	"patch '0002-modify.patch': unsafe path '../../b.c'"
t_ok "nothing written outside the repository" test ! -e "$TRASH/evil.c" -a ! -e "$W/../evil.c"
t_is "no stray paths in any branch" "" \
	"$(git -C "$W" log --all --format= --name-only | grep -e '\.\.' -e '^/' -e '^\.git' -e evil)"

# a binary patch applies as git am applies it; one whose file is not
# there (its patch before it left out) is a conflict naming the file, and
# the series goes on
printf '0001-a.patch -p1\n0002-bin.patch -pab # quilt\n0003-b.patch\n' > "$S/series"
t_exit "a binary patch (the series with -p1 and -pab)" 0 k branch apply --base v1.0 --series "$S"
t_ok "applied" grep -q '^applied  *[0-9a-f]*  *0002-bin.patch$' "$TRASH/.stdout"
t_is "its content" "$(printf '\000\001\002binary' | git hash-object --stdin)" \
	"$(git -C "$W" rev-parse kmig/v1.0:lib/blob.bin)"
printf '0001-a.patch\n0004-bin-changed.patch\n0003-b.patch\n' > "$S/series"
t_exit "a binary patch that does not apply" 1 k branch apply --base v1.0 --series "$S"
t_ok "a conflict naming the patch" grep -q '^conflict  *-  *0004-bin-changed.patch$' "$TRASH/.stdout"
t_ok "evidence names the file" grep -q 'lib/blob.bin: rename, copy or binary change' "$TRASH/.stdout"
t_is "the series goes on" "lib: b: two
lib: a: strscpy" "$(git -C "$W" log --format=%s v1.0..kmig/v1.0)"
t_done
