#!/bin/sh
# kmig check on patches as they arrive: plain diff -u, diff -ruN, git diff
# --no-prefix and git format-patch; a hunk at an offset (applied by git
# apply on a temporary index, the repository untouched); a series whose
# uses name the patch that added them; the review-mail text; allowlist
# entries that match nothing; errors that name what failed.
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }
rev() { git -C "$W" rev-parse "$1"; }

git init -q "$W"
mkdir -p "$W/net" "$W/drivers"
cat > "$W/net/b.c" <<'EOC'
#include <linux/string.h>

int net_init(int x)
{
	if (x < 0)
		return -1;
	return 0;
}

static int net_helper(int y)
{
	y = y + 1;
	y = y * 2;
	y = y - 3;
	y = y / 4;
	return y;
}

void net_copy(char *d, const char *s)
{
	d[0] = s[0];
}

void net_old(char *d, const char *s)
{
	strcpy(d, s);
}
EOC
cat > "$W/drivers/a.c" <<'EOC'
#include <linux/string.h>

int keep(void)
{
	return 0;
}
EOC
git_commit_all "$W" "base" && git -C "$W" tag v1.0

# the change every patch format carries: a strcpy() in net/b.c and a new
# file with a BUG_ON()
sed -i 's/^\td\[0\] = s\[0\];$/\tstrcpy(d, s);/' "$W/net/b.c"
cat > "$W/drivers/new.c" <<'EOC'
void new_init(int x)
{
	BUG_ON(x);
}
EOC
git_commit_all "$W" "net: copy the whole name; drivers: new.c" && git -C "$W" tag c2
t_exit "the commit" 1 k check c2
tail -n +2 "$TRASH/.stdout" > "$TRASH/c2.uses"
t_ok "the commit: two new uses" grep -qx "2 new deprecated uses (0 allowed)" "$TRASH/c2.uses"

# plain diff -u a/... b/... and diff -ruN of two exported trees
mkdir -p "$TRASH/a" "$TRASH/b"
git -C "$W" archive v1.0 | tar -x -C "$TRASH/a"
git -C "$W" archive c2 | tar -x -C "$TRASH/b"
(cd "$TRASH" && diff -u a/net/b.c b/net/b.c > u.diff; diff -u /dev/null b/drivers/new.c >> u.diff; true)
(cd "$TRASH" && diff -ruN a b > ruN.diff; true)
git -C "$W" diff --no-prefix v1.0 c2 > "$TRASH/noprefix.diff"
git -C "$W" format-patch -q -1 --stdout c2 > "$TRASH/c2.mbox"
(cd "$TRASH/b" && diff -u ../a/net/b.c net/b.c | sed 's|^--- ../a/|--- |' > ../p0.diff; true)
for f in u.diff ruN.diff noprefix.diff c2.mbox p0.diff; do
	t_exit "patch format $f" 1 k check --patch "$TRASH/$f" --base v1.0
	t_is "patch format $f: stderr silent" "" "$(cat "$TRASH/.stderr")"
done
t_exit "diff -u (two files)" 1 k check --patch "$TRASH/u.diff" --base v1.0
t_is "diff -u: the commit's uses" "$(cat "$TRASH/c2.uses")" "$(tail -n +2 "$TRASH/.stdout")"
t_exit "diff -ruN (a new file)" 1 k check --patch "$TRASH/ruN.diff" --base v1.0
t_is "diff -ruN: the commit's uses" "$(cat "$TRASH/c2.uses")" "$(tail -n +2 "$TRASH/.stdout")"
t_exit "git diff --no-prefix" 1 k check --patch "$TRASH/noprefix.diff" --base v1.0
t_is "--no-prefix: the commit's uses" "$(cat "$TRASH/c2.uses")" "$(tail -n +2 "$TRASH/.stdout")"
t_exit "git format-patch" 1 k check --patch "$TRASH/c2.mbox" --base v1.0
t_is "format-patch: the commit's uses" "$(cat "$TRASH/c2.uses")" "$(tail -n +2 "$TRASH/.stdout")"
t_exit "-p0 diff -u" 1 k check --patch "$TRASH/p0.diff" --base v1.0
t_ok "-p0 diff -u: the strcpy" grep -q "^>> net/b.c:21: strcpy: " "$TRASH/.stdout"
t_exit "json names the prefix" 1 k check --format json --patch "$TRASH/noprefix.diff" --base v1.0
t_ok "json: strip 0" grep -q '"series": \[{"file": "[^"]*noprefix.diff", "subject": null, "strip": 0}\]' "$TRASH/.stdout"

# paths that are in the base tree under neither prefix
sed 's|net/b.c|nosuch/b.c|g' "$TRASH/noprefix.diff" > "$TRASH/nowhere.diff"
t_exit "paths in neither -p1 nor -p0" 2 k check --patch "$TRASH/nowhere.diff" --base v1.0
t_is "the error says what was tried" "kmig: patch '$TRASH/nowhere.diff' does not apply: 'nosuch/b.c' is not in the base tree, tried -p1 ('b.c') and -p0 ('nosuch/b.c')" "$(cat "$TRASH/.stderr")"

# a hunk away from where its header says: three lines more at the top
git -C "$W" checkout -q -b shift-branch v1.0
sed -i '1i /* one */\n/* two */\n/* three */' "$W/net/b.c"
git_commit_all "$W" "three lines more" && git -C "$W" tag shifted
git -C "$W" checkout -q master
git -C "$W" diff v1.0 c2 -- net/b.c > "$TRASH/offset.diff"
before() {
	git -C "$W" status --porcelain
	cksum < "$W/.git/index"
	git -C "$W" for-each-ref
	find "$W/.git/objects" -type f | sort
}
before > "$TRASH/repo.before"
t_exit "a hunk at an offset" 1 k check --patch "$TRASH/offset.diff" --base shifted
t_ok "offset reported" grep -qx "note: net/b.c: hunk #1 applied at line 21 (offset +3 lines)" "$TRASH/.stdout"
t_ok "offset: the use on the shifted line" grep -q "^>> net/b.c:24: strcpy: " "$TRASH/.stdout"
t_exit "offset: json" 1 k check --format json --patch "$TRASH/offset.diff" --base shifted
t_ok "offset: json" grep -q '"offsets": \[{"patch": 1, "path": "net/b.c", "hunk": 1, "line": 21, "offset": 3}\]' "$TRASH/.stdout"
before > "$TRASH/repo.after"
t_ok "index, worktree, refs and objects untouched" cmp "$TRASH/repo.before" "$TRASH/repo.after"
mkdir "$TRASH/tmp"
t_exit "temporary files: in TMPDIR" 1 env TMPDIR="$TRASH/tmp" "$KMIG" --repo "$W" --db "$DB" check --patch "$TRASH/offset.diff" --base shifted
t_is "temporary files: none left" "" "$(ls "$TRASH/tmp")"
t_is "git's own index is not locked or replaced" "" "$(ls "$W/.git" | grep -i 'index\.' || true)"

# a hand-edited hunk whose line counts are wrong: --recount
sed 's/^@@ -18,7 +18,7 @@/@@ -18,9 +18,9 @@/' "$TRASH/offset.diff" > "$TRASH/recount.diff"
t_ok "the hunk header was changed" sh -c "! cmp -s '$TRASH/offset.diff' '$TRASH/recount.diff'"
t_exit "wrong line counts" 1 k check --patch "$TRASH/recount.diff" --base v1.0
t_ok "wrong line counts: the strcpy" grep -q "^>> net/b.c:21: strcpy: " "$TRASH/.stdout"

# a series of 3: the uses name the patch that added them
git -C "$W" checkout -q -b series v1.0
sed -i 's/^\td\[0\] = s\[0\];$/\tstrcpy(d, s);/' "$W/net/b.c"
git_commit_all "$W" "net: copy the whole name"
sed -i 's/^\treturn 0;$/\tBUG_ON(1);\n\treturn 0;/' "$W/drivers/a.c"
git_commit_all "$W" "drivers: a BUG_ON() in keep()"
sed -i 's/^\ty = y \/ 4;$/\ty = y \/ 5;/' "$W/net/b.c"
git_commit_all "$W" "net: divide by five"
git -C "$W" checkout -q master
git -C "$W" format-patch -q --cover-letter -o "$TRASH/s3" v1.0..series
cat "$TRASH"/s3/*.patch > "$TRASH/s3.mbox"
t_exit "a series with a cover letter" 1 k check --patch "$TRASH/s3.mbox" --base v1.0
t_is "series: the header names the cover letter" "kmig check: $TRASH/s3.mbox: \"[PATCH 0/3] *** SUBJECT HERE ***\" (3 patches) on v1.0" "$(head -n 1 "$TRASH/.stdout")"
t_ok "series: strcpy from patch 1" sh -c "grep -A2 '^>> net/b.c:21: strcpy' '$TRASH/.stdout' | grep -qx '   in \[PATCH 1/3\] net: copy the whole name'"
t_ok "series: BUG_ON from patch 2" sh -c "grep -A2 '^>> drivers/a.c:5: bug-on' '$TRASH/.stdout' | grep -qx '   in \[PATCH 2/3\] drivers: a BUG_ON() in keep()'"
t_ok "series: nothing from patch 3" sh -c "! grep -q 'PATCH 3/3' '$TRASH/.stdout'"
t_exit "series: json" 1 k check --format json --patch "$TRASH/s3.mbox" --base v1.0
t_ok "json: the cover letter" grep -q '"cover": "\[PATCH 0/3\] \*\*\* SUBJECT HERE \*\*\*"' "$TRASH/.stdout"
t_ok "json: the patch of a use" grep -q '"rule": "bug-on", .*"patch": 2, "patch_subject": "\[PATCH 2/3\] drivers: a BUG_ON() in keep()"' "$TRASH/.stdout"
if command -v python3 > /dev/null; then
	t_ok "series json parses" python3 -m json.tool "$TRASH/.stdout"
fi
rm "$TRASH"/s3/0000-*
t_exit "a series as three --patch files" 1 k check $(for f in "$TRASH"/s3/*.patch; do printf -- '--patch %s ' "$f"; done) --base v1.0
t_is "no cover letter: the header names the first patch" "kmig check: $(ls "$TRASH"/s3/*.patch | tr '\n' ',' | sed 's/,$//; s/,/, /g'): series of 3 patches: \"[PATCH 1/3] net: copy the whole name\" … on v1.0" "$(head -n 1 "$TRASH/.stdout")"
t_ok "three files: BUG_ON from patch 2" sh -c "grep -A2 '^>> drivers/a.c:5: bug-on' '$TRASH/.stdout' | grep -qx '   in \[PATCH 2/3\] drivers: a BUG_ON() in keep()'"

# a use a later patch only re-spaces is still the patch's that added it
git -C "$W" checkout -q -b respace v1.0
sed -i 's/^\td\[0\] = s\[0\];$/\tstrcpy( d,s );/' "$W/net/b.c"
git_commit_all "$W" "net: copy the whole name"
sed -i 's/^\tstrcpy( d,s );$/\tstrcpy(d, s);/; s/^\ty = y \/ 4;$/\ty = y \/ 5;/' "$W/net/b.c"
git_commit_all "$W" "net: spacing, and divide by five"
git -C "$W" checkout -q master
git -C "$W" format-patch -q --stdout v1.0..respace > "$TRASH/respace.mbox"
t_exit "a series whose second patch re-spaces the first's use" 1 \
	k check --patch "$TRASH/respace.mbox" --base v1.0
t_ok "... the use is patch 1's" sh -c "grep -A2 '^>> net/b.c:21: strcpy' '$TRASH/.stdout' | grep -qx '   in \[PATCH 1/2\] net: copy the whole name'"
t_ok "... one new use" grep -qx "1 new deprecated use (0 allowed)" "$TRASH/.stdout"

# the text for a review mail
git -C "$W" diff v1.0 series~2 > "$TRASH/one.diff"
t_exit "one new use" 1 k check --patch - --base v1.0 < "$TRASH/one.diff"
t_is "singular, <stdin>, the base by its tag" "kmig check: <stdin> on v1.0" "$(head -n 1 "$TRASH/.stdout")"
t_ok "singular summary" grep -qx "1 new deprecated use (0 allowed)" "$TRASH/.stdout"
# standard input read twice: the second is empty, not "contains no diff"
t_exit "--patch - twice" 2 k check --patch - --patch - --base v1.0 < "$TRASH/one.diff"
t_is "--patch - twice: one line saying so" \
	"kmig check: --patch -: standard input can be read once, not 2 times (see 'kmig help check')" \
	"$(cat "$TRASH/.stderr")"
t_exit "base between tags" 1 k check --patch "$TRASH/one.diff" --base shifted
t_is "the base by its tag" "kmig check: $TRASH/one.diff on shifted" "$(head -n 1 "$TRASH/.stdout")"
git -C "$W" checkout -q -b after-tag v1.0
echo '/* more */' >> "$W/drivers/a.c"
git_commit_all "$W" "drivers: a comment"
git -C "$W" checkout -q master
t_exit "a commit after a tag" 1 k check --patch "$TRASH/one.diff" --base after-tag
t_is "described as git describe --tags does" "kmig check: $TRASH/one.diff on $(git -C "$W" describe --tags --abbrev=12 after-tag)" "$(head -n 1 "$TRASH/.stdout")"
t_ok "described: tag-N-gHASH" sh -c "head -n 1 '$TRASH/.stdout' | grep -Eqx 'kmig check: .*one.diff on v1.0-1-g[0-9a-f]{12}'"
k check c2 > "$TRASH/c2.out"
k check --patch "$TRASH/s3.mbox" --base v1.0 > "$TRASH/s3.out"
t_is "no line longer than 80 columns (but the header's file name)" "" "$(tail -q -n +2 "$TRASH/c2.out" "$TRASH/s3.out" | sed 's/\xe2\x80[\x94\xa6]/-/g' | expand | awk 'length > 80')"
t_ok "the advice is wrapped, not cut" grep -qx "   error, or use WARN_ON_ONCE() and recover; do not crash the kernel" "$TRASH/c2.out"

# --removed lists the removed uses
git -C "$W" checkout -q -b rm v1.0
sed -i '/^\tstrcpy(d, s);$/d' "$W/net/b.c"
git_commit_all "$W" "net: no strcpy() in net_old()" && git -C "$W" tag rm1
git -C "$W" checkout -q master
t_exit "removed: without --removed" 0 k check rm1
t_ok "removed: only the count" sh -c "! grep -q '^removed:' '$TRASH/.stdout'"
t_ok "removed: singular count" grep -qx "1 deprecated use removed" "$TRASH/.stdout"
t_exit "removed: --removed" 0 k check --removed rm1
t_ok "removed: listed" grep -qx "removed: net/b.c:26: strcpy: strcpy() call" "$TRASH/.stdout"
t_ok "removed: with its source line" grep -qx "	strcpy(d, s);" "$TRASH/.stdout"

# git C-quotes a path with a '"', a '\\' or a non-ASCII byte: the patch's
# path is decoded before it is looked up in the base tree
git -C "$W" checkout -q -b quoted v1.0
printf 'int f(void)\n{\n\treturn 0;\n}\n' > "$W/drivers/café.c"
printf 'int g(void)\n{\n\treturn 0;\n}\n' > "$W/drivers/q\"t.c"
git_commit_all "$W" "quoted names" && git -C "$W" tag q0
sed -i 's/^\treturn 0;$/\tstrcpy(d, s);/' "$W/drivers/café.c" "$W/drivers/q\"t.c"
git_commit_all "$W" "strcpy in quoted names" && git -C "$W" tag q1
git -C "$W" format-patch -q -1 --stdout q1 > "$TRASH/quoted.patch"
git -C "$W" checkout -q master
t_ok "the patch quotes both paths" grep -qF '+++ "b/drivers/caf\303\251.c"' "$TRASH/quoted.patch"
t_exit "a patch with C-quoted paths" 1 k check --base q0 --patch "$TRASH/quoted.patch"
t_ok "quoted: the non-ASCII name" grep -qx ">> drivers/café.c:3: strcpy: strcpy() call .*" "$TRASH/.stdout"
t_ok "quoted: the name with a quote, C-quoted as git does" grep -qx '>> "drivers/q\\"t.c":3: strcpy: strcpy() call .*' "$TRASH/.stdout"
t_ok "quoted: both" grep -qx "2 new deprecated uses (0 allowed)" "$TRASH/.stdout"
t_is "quoted: as the commit itself" "$(grep '^>>' "$TRASH/.stdout")" "$(k check q1 | grep '^>>')"

# allowlist entries that match nothing are warned about
printf 'net strcpy # a directory without its slash\nnosuch/*.c bug-on\nnet/*.c strcpy\ndrivers/ bug-on\n' > "$TRASH/allow"
t_exit "allowlist with entries matching nothing" 0 k check --allow "$TRASH/allow" c2
t_is "warned on stderr, one line each" "kmig: warning: $TRASH/allow:1: 'net' matches no file (a directory: write 'net/')
kmig: warning: $TRASH/allow:2: 'nosuch/*.c' matches no file" "$(cat "$TRASH/.stderr")"
t_ok "the matching entries still allow" grep -qx "2 new deprecated uses (2 allowed)" "$TRASH/.stdout"

# errors name what failed
t_exit "range to no revision" 2 k check v1.0..nosuch
t_is "names nosuch" "kmig: unknown revision 'nosuch' in 'v1.0..nosuch'" "$(cat "$TRASH/.stderr")"
t_exit "range from no revision" 2 k check nosuch...c2
t_is "names the left side" "kmig: unknown revision 'nosuch' in 'nosuch...c2'" "$(cat "$TRASH/.stderr")"
t_exit "help check" 0 "$KMIG" help check
t_ok "help check: --patch" grep -q '^  --patch FILE' "$TRASH/.stdout"
t_ok "help check: --base" grep -q '^  --base REV' "$TRASH/.stdout"
t_ok "help check: --removed" grep -q '^  --removed' "$TRASH/.stdout"

t_done
