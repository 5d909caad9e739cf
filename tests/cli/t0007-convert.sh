#!/bin/sh
# kmig convert on a fixture: Coccinelle's strlcpy and alloc-arith semantic
# patches over exactly the files that use the rule, one format-patch per
# MAINTAINERS section with a kernel commit message, appended to the series;
# the uses it cannot convert are reported; git am and kmig branch apply
# take the result.
. "$(dirname "$0")/../lib.sh"

t_need_spatch

W="$TRASH/work"
S="$TRASH/series"
DB="$TRASH/kmig.db"
k() { SOURCE_DATE_EPOCH=1700000000 "$KMIG" --repo "$W" --db "$DB" "$@"; }

git init -q "$W"
mkdir -p "$W/drivers/foo" "$W/net/bar" "$W/Documentation/process" "$S"
cat > "$W/MAINTAINERS" <<'EOF'
List of maintainers

Maintainers List
----------------

FOO DRIVER
M:	Foo <foo@example.org>
L:	foo-list@example.org
F:	drivers/foo/

NET BAR
M:	Bar <bar@example.org>
R:	Rev <rev@example.org>
F:	net/bar/
EOF
cat > "$W/Documentation/process/deprecated.rst" <<'EOF'
Deprecated Interfaces
=====================

strncpy() on NUL-terminated strings
-----------------------------------
Use of strncpy() does not guarantee NUL termination.

strlcpy()
---------
strlcpy() reads the entire source buffer first (since the return value
is meant to match that of strlen()). This read may exceed the destination
size limit. The safe replacement is ``strscpy()``.

%p format specifier
-------------------
Nothing here.
EOF
cat > "$W/drivers/foo/a.c" <<'EOF'
#include <linux/string.h>

static char name[16];

int foo_set(const char *s)
{
	size_t len;

	strlcpy(name, s, sizeof(name));
	len = strlcpy(name, s, sizeof(name));
	return len >= sizeof(name) ? -E2BIG : 0;
}
EOF
cat > "$W/net/bar/b.c" <<'EOF'
#include "b.h"

void bar_init(struct bar *b, const char *label)
{
	strlcpy(b->label, label,
		sizeof(b->label));
	if (strlcpy(b->alias, label, sizeof(b->alias)) >= sizeof(b->alias))
		b->truncated = 1;
}
EOF
cat > "$W/net/bar/b.h" <<'EOF'
struct bar {
	char label[8];
	char alias[8];
	int truncated;
};

static inline void bar_copy(struct bar *d, const struct bar *s)
{
	strlcpy(d->label, s->label, sizeof(d->label));
}
EOF
cat > "$W/drivers/foo/alloc.c" <<'EOF'
void *foo_table(int n)
{
	int *p = kmalloc(n * sizeof(*p), GFP_KERNEL);
	void *q = kmalloc(2 * 4, GFP_KERNEL);

	return kzalloc(sizeof(struct foo) * n, GFP_KERNEL) ? p : q;
}
EOF
printf 'int untouched(void) { return 0; }\n' > "$W/net/bar/c.c"
git_commit_all "$W" one && git -C "$W" tag v1.0

t_exit "convert before any scan" 2 k convert strlcpy --base v1.0 --series "$S"
t_is "one clear line" "kmig: release 'v1.0' is not scanned (run 'kmig scan')" "$(cat "$TRASH/.stderr")"
t_exit "scan" 0 k scan
t_exit "convert strlcpy" 0 k convert strlcpy --base v1.0 --series "$S" --jobs 1
t_is "what was written and what was not converted" \
"not converted: drivers/foo/a.c:10: len = strlcpy(name, s, sizeof(name)); (its return value is used)
wrote 0001-foo-a-Replace-strlcpy-with-strscpy.patch: FOO DRIVER, 1 file, 1 use converted
not converted: net/bar/b.c:7: if (strlcpy(b->alias, label, sizeof(b->alias)) >= sizeof(b->alias)) (its return value is used)
wrote 0002-net-bar-Replace-strlcpy-with-strscpy.patch: NET BAR, 2 files, 2 uses converted
strlcpy: 2 patches, 3 uses converted, 2 not converted" "$(cat "$TRASH/.stdout")"
t_is "appended to the series" "0001-foo-a-Replace-strlcpy-with-strscpy.patch
0002-net-bar-Replace-strlcpy-with-strscpy.patch" "$(cat "$S/series")"
cat > "$TRASH/expect" <<'EOF'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: kmig <kmig@localhost>
Date: Tue, 14 Nov 2023 22:13:20 +0000
Subject: [PATCH] net: bar: Replace strlcpy() with strscpy()

strlcpy() reads the entire source buffer first (since the return value
is meant to match that of strlen()). This read may exceed the
destination size limit. The safe replacement is strscpy().

The return value of strlcpy() is not used at any call site changed
here, so strscpy() is a drop-in replacement.

Generated with the Coccinelle semantic patch strlcpy.cocci
(kmig convert strlcpy --base v1.0), for the MAINTAINERS section
"NET BAR".

Kmig-Rule: strlcpy
Signed-off-by: kmig <kmig@localhost>
---
 net/bar/b.c | 2 +-
 net/bar/b.h | 2 +-
 2 files changed, 2 insertions(+), 2 deletions(-)

diff --git a/net/bar/b.c b/net/bar/b.c
index ca8ceed35a09..a2f83d2aa45e 100644
--- a/net/bar/b.c
+++ b/net/bar/b.c
@@ -2,7 +2,7 @@
 
 void bar_init(struct bar *b, const char *label)
 {
-	strlcpy(b->label, label,
+	strscpy(b->label, label,
 		sizeof(b->label));
 	if (strlcpy(b->alias, label, sizeof(b->alias)) >= sizeof(b->alias))
 		b->truncated = 1;
diff --git a/net/bar/b.h b/net/bar/b.h
index 6c75c31c8a70..5f072f21cb85 100644
--- a/net/bar/b.h
+++ b/net/bar/b.h
@@ -6,5 +6,5 @@ struct bar {
 
 static inline void bar_copy(struct bar *d, const struct bar *s)
 {
-	strlcpy(d->label, s->label, sizeof(d->label));
+	strscpy(d->label, s->label, sizeof(d->label));
 }
-- 
kmig 0.1.0

EOF
t_ok "the expected patch for NET BAR (multi-line call keeps its layout, header converted)" \
	cmp "$TRASH/expect" "$S/0002-net-bar-Replace-strlcpy-with-strscpy.patch"
t_ok "FOO DRIVER patch: subject, trailers, only the unused return value converted" sh -c "
	p='$S/0001-foo-a-Replace-strlcpy-with-strscpy.patch' &&
	grep -q '^Subject: \[PATCH\] foo: a: Replace strlcpy() with strscpy()$' \"\$p\" &&
	grep -q '^Kmig-Rule: strlcpy$' \"\$p\" && grep -q '^Signed-off-by: kmig <kmig@localhost>$' \"\$p\" &&
	grep -q '^-	strlcpy(name, s, sizeof(name));$' \"\$p\" &&
	grep -q '^+	strscpy(name, s, sizeof(name));$' \"\$p\" &&
	grep -q '^ 	len = strlcpy(name, s, sizeof(name));$' \"\$p\""
t_ok "the series applies with git am" sh -c "
	git clone -q '$W' '$TRASH/am' && cd '$TRASH/am' && git checkout -q v1.0 &&
	git am -q '$S'/0001-*.patch '$S'/0002-*.patch &&
	test \"\$(git log --format=%s v1.0..HEAD | tr '\n' '|')\" = 'net: bar: Replace strlcpy() with strscpy()|foo: a: Replace strlcpy() with strscpy()|' &&
	test \"\$(git grep -c strlcpy HEAD -- drivers net | sed 's/^HEAD://' | tr '\n' ' ')\" = 'drivers/foo/a.c:1 net/bar/b.c:1 '"
t_exit "and with kmig branch apply" 0 k branch apply --base v1.0 --series "$S"
t_is "both applied" "applied applied" \
	"$(grep -v '^ ' "$TRASH/.stdout" | sed '$d' | cut -d' ' -f1 | tr '\n' ' ' | sed 's/ $//')"
t_is "the branch tree is the git am tree" "$(git -C "$TRASH/am" rev-parse 'HEAD^{tree}')" \
	"$(git -C "$W" rev-parse 'kmig/v1.0^{tree}')"

# export --send: ready for git send-email
t_exit "branch export --send" 0 k branch export --base v1.0 --send "$TRASH/send"
t_is "two patches and a cover letter" "0000-cover-letter.patch
0001-foo-a-Replace-strlcpy-with-strscpy.patch
0002-net-bar-Replace-strlcpy-with-strscpy.patch" "$(ls "$TRASH/send")"
P1="$TRASH/send/0001-foo-a-Replace-strlcpy-with-strscpy.patch"
P2="$TRASH/send/0002-net-bar-Replace-strlcpy-with-strscpy.patch"
t_is "To: M:/R:, Cc: L: of the fixture MAINTAINERS" "Subject: [PATCH 1/2] foo: a: Replace strlcpy() with strscpy()
To: Foo <foo@example.org>
Cc: foo-list@example.org
Subject: [PATCH 2/2] net: bar: Replace strlcpy() with strscpy()
To: Bar <bar@example.org>, Rev <rev@example.org>" "$(grep -h '^Subject:\|^To:\|^Cc:' "$P1" "$P2")"
t_ok "no Kmig-* trailer in what is sent" sh -c "! grep -q '^Kmig-' '$P1' '$P2' '$TRASH/send/0000-cover-letter.patch'"
t_is "base-commit: in each" "$(git -C "$W" rev-parse v1.0) $(git -C "$W" rev-parse v1.0) $(git -C "$W" rev-parse v1.0)" \
	"$(grep -h '^base-commit: ' "$TRASH/send"/*.patch | cut -d' ' -f2 | tr '\n' ' ' | sed 's/ $//')"
C="$TRASH/send/0000-cover-letter.patch"
t_ok "cover letter: subject, recipients of all patches" sh -c "
	grep -q '^Subject: \[PATCH 0/2\] Deprecated API conversions on v1.0$' '$C' &&
	grep -q '^To: Foo <foo@example.org>, Bar <bar@example.org>, Rev <rev@example.org>$' '$C' &&
	grep -q '^Cc: foo-list@example.org$' '$C'"
t_ok "cover letter: the rule's deprecated.rst paragraph, uses removed, diffstat, tests" sh -c "
	grep -q '^strlcpy: 3 uses removed.$' '$C' &&
	grep -q '^strlcpy() reads the entire source buffer first' '$C' &&
	grep -q '^ 3 files changed, 3 insertions(+), 3 deletions(-)$' '$C' &&
	grep -q '^  1/2 foo: a: Replace strlcpy() with strscpy(): not tested$' '$C'"
t_exit "export --send again to the same directory" 0 k branch export --base v1.0 --send "$TRASH/send"
printf 'stale\n' > "$TRASH/send/0003-old-subject.patch"
t_exit "export --send to a directory with a stale patch" 2 k branch export --base v1.0 --send "$TRASH/send"
t_is "one line naming it" "kmig: '$TRASH/send/0003-old-subject.patch' is not of this export: git send-email would send it too (remove it, or send to an empty directory)" \
	"$(cat "$TRASH/.stderr")"
rm "$TRASH/send/0003-old-subject.patch"
mkdir "$TRASH/send/notes.patch"
t_exit "a directory named *.patch is no stale patch" 0 k branch export --base v1.0 --send "$TRASH/send"
rmdir "$TRASH/send/notes.patch"
printf 'notes\n' > "$TRASH/send.txt"
t_exit "export --send to a file" 2 k branch export --base v1.0 --send "$TRASH/send.txt"
t_is "one line saying why" "kmig: cannot read '$TRASH/send.txt': Not a directory" \
	"$(cat "$TRASH/.stderr")"
t_is "the file as it was" "notes" "$(cat "$TRASH/send.txt")"
t_ok "the sent patches apply with git am" sh -c "
	git clone -q '$W' '$TRASH/am2' && cd '$TRASH/am2' && git checkout -q v1.0 && git am -q '$P1' '$P2'"
mkdir -p "$TRASH/home"
git config --file "$TRASH/home/.gitconfig" user.name "Ann Author"
git config --file "$TRASH/home/.gitconfig" user.email "ann@example.org"
mkdir "$TRASH/s8"
t_exit "convert takes the author from git's user.name/user.email" 0 \
	env HOME="$TRASH/home" "$KMIG" --repo "$W" --db "$DB" convert strlcpy --base v1.0 --series "$TRASH/s8" --max-patches 1
t_ok "From: and Signed-off-by:" sh -c "grep -q '^From: Ann Author <ann@example.org>$' '$TRASH/s8'/0001-*.patch &&
	grep -q '^Signed-off-by: Ann Author <ann@example.org>$' '$TRASH/s8'/0001-*.patch"
t_ok "help convert says so" sh -c "'$KMIG' help convert | tr '\n' ' ' | grep -q \"else git's user.name and user.email, else kmig <kmig@localhost>\""
t_exit "KMIG_IDENTITY overrides it" 0 env HOME="$TRASH/home" KMIG_IDENTITY="Kay <kay@example.org>" \
	"$KMIG" --repo "$W" --db "$DB" convert strlcpy --base v1.0 --series "$TRASH/s8" --subsystem "NET BAR"
t_ok "its From:" grep -q '^From: Kay <kay@example.org>$' "$TRASH/s8"/0002-*.patch

t_exit "again: nothing new" 0 k convert strlcpy --base v1.0 --series "$S"
t_ok "already in the series" grep -q '^skipped NET BAR: "net: bar: Replace strlcpy() with strscpy()" is already in the series$' "$TRASH/.stdout"
t_is "series unchanged" 2 "$(wc -l < "$S/series")"

mkdir "$TRASH/s2" "$TRASH/s4"
# --series of a directory that does not exist yet: made, as export makes it
t_exit "--subsystem" 0 k convert strlcpy --base v1.0 --series "$TRASH/s2" --subsystem "NET BAR"
t_is "only that section" "0001-net-bar-Replace-strlcpy-with-strscpy.patch" "$(cat "$TRASH/s2/series")"
t_exit "--max-patches" 0 k convert strlcpy --base v1.0 --series "$TRASH/s3" --max-patches 1
t_is "one patch" "0001-foo-a-Replace-strlcpy-with-strscpy.patch" "$(cat "$TRASH/s3/series")"
t_ok "spatch did not run on the other section" grep -q '^1 section not looked at (--max-patches)$' "$TRASH/.stdout"
t_ok "nor listed its uses" sh -c "! grep -q net/bar '$TRASH/.stdout'"
t_exit "--dry-run" 0 k convert strlcpy --base v1.0 --series "$TRASH/s4" --dry-run
t_ok "dry run writes nothing" sh -c "grep -q '^would write 0002-net-bar' '$TRASH/.stdout' && test -z \"\$(ls '$TRASH/s4')\""
t_ok "it shows the patches it would write, with their diffs" sh -c "
	grep -q '^Subject: \\[PATCH\\] net: bar: Replace strlcpy() with strscpy()$' '$TRASH/.stdout' &&
	grep -q '^+	strscpy(d->label, s->label, sizeof(d->label));$' '$TRASH/.stdout'"
t_exit "numbering continues after the existing series" 0 \
	k convert strlcpy --base v1.0 --series "$TRASH/s2" --subsystem "FOO DRIVER"
t_is "appended as 0002" "0001-net-bar-Replace-strlcpy-with-strscpy.patch
0002-foo-a-Replace-strlcpy-with-strscpy.patch" "$(cat "$TRASH/s2/series")"
# a patch file the series no longer lists (commented out, edited by
# hand) is never overwritten: the next free number; and a series file
# without a final newline gets one before the new entry
echo "# edited by hand" >> "$TRASH/s2/0002-foo-a-Replace-strlcpy-with-strscpy.patch"
printf '0001-net-bar-Replace-strlcpy-with-strscpy.patch\n# 0002-foo-a-Replace-strlcpy-with-strscpy.patch' > "$TRASH/s2/series"
t_exit "again, the file of 0002 kept" 0 \
	k convert strlcpy --base v1.0 --series "$TRASH/s2" --subsystem "FOO DRIVER"
t_ok "the edited file kept" grep -q "^# edited by hand$" "$TRASH/s2/0002-foo-a-Replace-strlcpy-with-strscpy.patch"
t_is "written as 0003, on a line of its own" "0001-net-bar-Replace-strlcpy-with-strscpy.patch
# 0002-foo-a-Replace-strlcpy-with-strscpy.patch
0003-foo-a-Replace-strlcpy-with-strscpy.patch" "$(cat "$TRASH/s2/series")"
# a section of another release only is no section of the base
t_exit "--subsystem not in the base's MAINTAINERS" 2 \
	k convert strlcpy --base v1.0 --series "$TRASH/s2" --subsystem "NO SUCH SECTION"
t_is "said" "kmig: unknown subsystem 'NO SUCH SECTION': no section of v1.0's MAINTAINERS" "$(cat "$TRASH/.stderr")"

mkdir "$TRASH/alloc"
t_exit "convert alloc-arith with a configured identity" 0 \
	env KMIG_IDENTITY="Jane Dev <jane@example.org>" "$KMIG" --repo "$W" --db "$DB" \
	convert alloc-arith --base v1.0 --series "$TRASH/alloc"
t_is "kmalloc_array and kcalloc; a constant product left alone" \
"-	int *p = kmalloc(n * sizeof(*p), GFP_KERNEL);
+	int *p = kmalloc_array(n, sizeof(*p), GFP_KERNEL);
-	return kzalloc(sizeof(struct foo) * n, GFP_KERNEL) ? p : q;
+	return kcalloc(n, sizeof(struct foo), GFP_KERNEL) ? p : q;" \
	"$(sed -n '/^diff --git/,$p' "$TRASH/alloc"/0001-*.patch | grep '^[-+]	')"
t_ok "identity in From: and Signed-off-by:" sh -c "
	grep -q '^From: Jane Dev <jane@example.org>$' '$TRASH/alloc'/0001-*.patch &&
	grep -q '^Signed-off-by: Jane Dev <jane@example.org>$' '$TRASH/alloc'/0001-*.patch &&
	grep -q '^Kmig-Rule: alloc-arith$' '$TRASH/alloc'/0001-*.patch"

t_exit "a rule without a semantic patch" 2 k convert bug-on --base v1.0 --series "$S"
t_is "one clear line" "kmig: no semantic patch for rule 'bug-on' (have: strlcpy, strcpy, alloc-arith, alloc-obj)" "$(cat "$TRASH/.stderr")"

# v1.1: strcpy uses, a kernel with kmalloc_objs() and its own semantic patch
mkdir -p "$W/include/linux" "$W/scripts/coccinelle/api"
cat > "$W/drivers/foo/s.c" <<'EOF'
struct foo_dev {
	char name[16];
	char *label;
};

void foo_name(struct foo_dev *d, const char *s)
{
	char buf[8];

	strcpy(buf, s);
	strcpy(d->name, buf);
	strcpy(d->label, s);
	if (strcpy(buf, s))
		d->label = buf;
}

void foo_one(char *a, char *b) { strcpy(a, b); }
char *foo_two(char *a, char *b) { return strcpy(a, b); }
EOF
cat > "$W/drivers/foo/obj.c" <<'EOF'
struct foo *foo_new(int n)
{
	struct foo *f;
	struct foo *t;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	t = kmalloc(n * sizeof(*t), GFP_KERNEL);
	return f ? f : t;
}
EOF
printf '#define kmalloc_objs(VAR_OR_TYPE, COUNT, ...) x\n' > "$W/include/linux/slab.h"
cat > "$W/scripts/coccinelle/api/kmalloc_objs.cocci" <<'EOF'
/// A fixture's own in-tree semantic patch
// Options: --no-includes --include-headers

virtual patch

@direct depends on patch@
expression VAR, GFP;
@@
-	VAR = kzalloc(sizeof(*VAR), GFP)
+	VAR = kzalloc_obj(*VAR, GFP)
EOF
git_commit_all "$W" two && git -C "$W" tag v1.1
t_exit "scan v1.1" 0 k scan
mkdir "$TRASH/s5" "$TRASH/s6" "$TRASH/s7"
t_exit "convert strcpy --dry-run (the newest release is the default base)" 0 \
	k convert strcpy --series "$TRASH/s5" --dry-run
t_ok "strscpy(dst, src) into char arrays" sh -c "
	grep -q '^+	strscpy(buf, s);$' '$TRASH/.stdout' && grep -q '^+	strscpy(d->name, buf);$' '$TRASH/.stdout'"
t_is "the other uses, with the reason (a function on one line too)" "not converted: drivers/foo/s.c:12: strcpy(d->label, s); (the destination is not a char array of known size)
not converted: drivers/foo/s.c:13: if (strcpy(buf, s)) (its return value is used)
not converted: drivers/foo/s.c:17: void foo_one(char *a, char *b) { strcpy(a, b); } (the destination is not a char array of known size)
not converted: drivers/foo/s.c:18: char *foo_two(char *a, char *b) { return strcpy(a, b); } (its return value is used)" \
	"$(grep '^not converted' "$TRASH/.stdout")"
t_ok "on v1.1" grep -q '^(kmig convert strcpy --base v1.1), for the MAINTAINERS section$' "$TRASH/.stdout"
t_is "dry run: nothing written" "" "$(ls "$TRASH/s5")"
t_exit "convert alloc-obj: the base tree's own semantic patch" 0 \
	k convert alloc-obj --series "$TRASH/s6"
t_ok "read from the tree, as make coccicheck COCCI= runs it" sh -c "
	grep -q '^+	f = kzalloc_obj(\*f, GFP_KERNEL);$' '$TRASH/s6'/0001-*.patch &&
	grep -q '^Generated with the kernel.s own semantic patch scripts/coccinelle/api/kmalloc_objs.cocci of v1.1$' '$TRASH/s6'/0001-*.patch"
t_exit "convert alloc-arith where the base has kmalloc_objs()" 0 \
	k convert alloc-arith --series "$TRASH/s7" --subsystem "FOO DRIVER"
t_ok "a typed pointer gets kmalloc_objs()" \
	grep -q '^+	t = kmalloc_objs(\*t, n, GFP_KERNEL);$' "$TRASH/s7"/0001-*.patch
t_exit "--cocci naming a file the base does not have" 2 \
	k convert alloc-obj --series "$TRASH/s6" --cocci scripts/coccinelle/api/nope.cocci
t_is "one clear line" "kmig: v1.1 has no 'scripts/coccinelle/api/nope.cocci'" "$(cat "$TRASH/.stderr")"

# real history: the subject prefix the file's own commits used (git log)
sed -i 's/^static char name\[16\];$/static char name[32];/' "$W/drivers/foo/a.c"
git -C "$W" add -A && git -C "$W" commit -q -m "FOO: a-driver: make the name longer"
printf '/* x */\n' >> "$W/drivers/foo/a.c"
git -C "$W" add -A && git -C "$W" commit -q -m "FOO: a-driver: a comment" && git -C "$W" tag v1.2
t_exit "scan v1.2" 0 k scan
mkdir "$TRASH/s9"
t_exit "convert on a history with real commits" 0 k convert strlcpy --base v1.2 --series "$TRASH/s9" --dry-run --subsystem "FOO DRIVER"
t_ok "the prefix git log of the file shows" grep -q '^Subject: \[PATCH\] FOO: a-driver: Replace strlcpy() with strscpy()$' "$TRASH/.stdout"
# two sections in one directory: the same subject, two patches
mkdir -p "$W/drivers/qux"
for f in x1 x2 y1 y2; do
	printf 'static char n[8];\nvoid %s(const char *s)\n{\n\tstrlcpy(n, s, sizeof(n));\n}\n' $f > "$W/drivers/qux/$f.c"
done
printf '\nQUX X\nM:\tX <x@example.org>\nF:\tdrivers/qux/x*\n\nQUX Y\nM:\tY <y@example.org>\nF:\tdrivers/qux/y*\n' >> "$W/MAINTAINERS"
git_commit_all "$W" "qux" && git -C "$W" tag v1.3
t_exit "scan v1.3" 0 k scan
mkdir "$TRASH/s10"
t_exit "convert one of two sections sharing a directory" 0 \
	k convert strlcpy --base v1.3 --series "$TRASH/s10" --subsystem "QUX X"
t_exit "then the other" 0 k convert strlcpy --base v1.3 --series "$TRASH/s10" --subsystem "QUX Y"
t_ok "written, not skipped for the other's subject" \
	grep -q '^wrote 0002-qux-Replace-strlcpy-with-strscpy.patch: QUX Y, 2 files, 2 uses converted$' "$TRASH/.stdout"
t_exit "and again" 0 k convert strlcpy --base v1.3 --series "$TRASH/s10" --subsystem "QUX Y"
t_ok "now skipped: its own patch is in the series" \
	grep -q '^skipped QUX Y: "qux: Replace strlcpy() with strscpy()" is already in the series$' "$TRASH/.stdout"
t_is "two patches" 2 "$(wc -l < "$TRASH/s10/series")"
t_exit "unknown rule" 2 k convert nope --series "$S"
t_exit "missing rule" 2 k convert
t_exit "unknown base" 2 k convert strlcpy --base v0.1 --series "$S"
t_exit "bad --max-patches" 2 k convert strlcpy --max-patches 0
t_exit "--jobs without a value" 2 k convert strlcpy --jobs
t_is "one line" 1 "$(wc -l < "$TRASH/.stderr")"
# a patch convert cannot write (a file size limit here, a full disk alike)
# leaves no part of it in the series directory: the series as it was, and
# the next run writes that patch under the same number
F="$TRASH/big"
git init -q "$F"
mkdir -p "$F/drivers" "$TRASH/fser"
printf 'DRV\nF:\tdrivers/\n' > "$F/MAINTAINERS"
{ echo 'void g(char *a, char *b)'; echo '{'
  seq 1 3000 | sed 's/.*/\tstrlcpy(a, b, &);/'; echo '}'; } > "$F/drivers/b.c"
git_commit_all "$F" one && git -C "$F" tag v1.0
printf '# mine\n' > "$TRASH/fser/series"
t_exit "a release of 3000 uses" 0 "$KMIG" --repo "$F" --db "$TRASH/f.db" scan
t_exit "convert that cannot write its patch" 2 sh -c \
	"trap '' XFSZ; ulimit -f 128; exec \"\$0\" --repo '$F' --db '$TRASH/f.db' convert strlcpy --series '$TRASH/fser'" \
	"$KMIG"
t_is "one line naming it" \
	"kmig: cannot write '$TRASH/fser/0001-drivers-b-Replace-strlcpy-with-strscpy.patch': File too large" \
	"$(cat "$TRASH/.stderr")"
t_is "no part of a patch left" "series" "$(ls "$TRASH/fser")"
t_is "the series as it was" "# mine" "$(cat "$TRASH/fser/series")"
t_exit "convert without the limit" 0 "$KMIG" --repo "$F" --db "$TRASH/f.db" convert strlcpy --series "$TRASH/fser"
t_is "the patch under its number" "0001-drivers-b-Replace-strlcpy-with-strscpy.patch series" \
	"$(ls "$TRASH/fser" | tr '\n' ' ' | sed 's/ $//')"
# a semantic patch spatch rejects: the error names spatch's log, which
# stays for the reader beside the run's temporary directory, which goes
mkdir -p "$TRASH/badcocci" "$TRASH/bser"
printf '@@\nthis is no semantic patch\n' > "$TRASH/badcocci/strlcpy.cocci"
t_exit "convert with a semantic patch spatch rejects" 2 \
	env KMIG_COCCI_DIR="$TRASH/badcocci" "$KMIG" --repo "$F" --db "$TRASH/f.db" \
	convert strlcpy --series "$TRASH/bser"
t_is "... one line" 1 "$(wc -l < "$TRASH/.stderr")"
t_ok "... naming the log" grep -q "^kmig: spatch failed with status [0-9]* (see '$KMIG_HOME/tmp/convert\.[^/]*\.log')\$" \
	"$TRASH/.stderr"
LOG=$(sed -n "s/.*(see '\(.*\)')\$/\1/p" "$TRASH/.stderr")
t_ok "... which is there" test -s "$LOG"
t_is "... and no temporary directory" "" "$(find "$KMIG_HOME/tmp" -mindepth 1 -maxdepth 1 -type d)"
t_is "... and nothing in the series" "" "$(ls -A "$TRASH/bser")"
t_done
