#!/bin/sh
# kmig check: only the deprecated uses a commit, a range or a patch adds;
# moved and renamed code is not new; allowlist; patch forms; errors.
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }
rev() { git -C "$W" rev-parse "$1"; }

git init -q "$W"
mkdir -p "$W/net" "$W/drivers"
cat > "$W/net/b.c" <<'EOF'
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
	y = y + 5;
	y = y * 6;
	y = y - 7;
	return y;
}

void net_copy(char *d, const char *s)
{
	d[0] = s[0];
}
EOF
cat > "$W/drivers/a.c" <<'EOF'
#include <linux/string.h>

void copy_name(char *d, const char *s)
{
	strcpy(d, s);
}

int keep(void)
{
	return 0;
}
EOF
printf 'strcpy(a, b); BUG_ON(1);\n' > "$W/README"
git_commit_all "$W" "base" && git -C "$W" tag c1

# c2: move copy_name() to another file, with other indentation and spacing
cat > "$W/drivers/a.c" <<'EOF'
#include <linux/string.h>

int keep(void)
{
	return 0;
}
EOF
cat > "$W/drivers/c.c" <<'EOF'
#include <linux/string.h>

/* moved here */
void copy_name(char *d, const char *s)
{
        strcpy(d,  s);
}
EOF
git_commit_all "$W" "move copy_name() to c.c" && git -C "$W" tag c2

# c3: a pure rename
git -C "$W" mv drivers/c.c drivers/d.c
git -C "$W" commit -q -m "rename c.c to d.c" && git -C "$W" tag c3

# c4: one new BUG_ON() and one new strcpy() (a copy of the moved line)
sed -i 's/^{$/{\n\tBUG_ON(x > 100);/; t; ' "$W/net/b.c"
sed -i '0,/^\tBUG_ON/!{/^\tBUG_ON/d}' "$W/net/b.c"
sed -i 's/^\td\[0\] = s\[0\];$/\tstrcpy(d, s);/' "$W/net/b.c"
git_commit_all "$W" "net: add a check and copy the whole name" && git -C "$W" tag c4

# c5: remove uses
sed -i '/BUG_ON(x > 100);/d' "$W/net/b.c"
sed -i 's/strcpy(d,  s);/strscpy(d, s, 16);/' "$W/drivers/d.c"
git_commit_all "$W" "remove a BUG_ON() and a strcpy()" && git -C "$W" tag c5

# c6: a new use that the tree's allowlist allows
mkdir -p "$W/drivers/legacy"
cat > "$W/drivers/legacy/old.c" <<'EOF'
void legacy_init(char *d)
{
	strcpy(d, "old");
}
EOF
cat > "$W/.kmig-allow" <<'EOF'
# kmig allowlist: PATH[:FUNCTION] RULE  # reason
drivers/legacy/*.c:legacy_* strcpy  # legacy board code, goes away with the board
net/*.c:nothing_* bug-on
EOF
git_commit_all "$W" "legacy board support" && git -C "$W" tag c6

# c7: a second copy of an existing line in the same file is new
cat >> "$W/net/b.c" <<'EOF'

void net_copy2(char *d, const char *s)
{
	strcpy(d, s);
}
EOF
git_commit_all "$W" "net: a second copy" && git -C "$W" tag c7

t_exit "moved function" 0 k check c2
t_is "moved function: nothing new" "kmig check: $(rev c2 | cut -c1-12) (\"move copy_name() to c.c\")
0 new deprecated uses (0 allowed)" "$(cat "$TRASH/.stdout")"
t_is "moved function: stderr silent" "" "$(cat "$TRASH/.stderr")"
t_exit "rename" 0 k check c3
t_ok "rename: nothing new" grep -qx "0 new deprecated uses (0 allowed)" "$TRASH/.stdout"

t_exit "new strcpy() and BUG_ON()" 1 k check c4
cat > "$TRASH/expect" <<EOF
kmig check: $(rev c4 | cut -c1-12) ("net: add a check and copy the whole name")

>> net/b.c: In function 'net_init':
>> net/b.c:5: bug-on: BUG_ON() call — handle the condition and return an error,
   or use WARN_ON_ONCE() and recover; do not crash the kernel
	BUG_ON(x > 100);
>> net/b.c: In function 'net_copy':
>> net/b.c:25: strcpy: strcpy() call — use strscpy(), which always
   NUL-terminates and never writes past the destination
	strcpy(d, s);

2 new deprecated uses (0 allowed)
EOF
cp "$TRASH/.stdout" "$TRASH/c4.out"
t_ok "new uses: exactly those two, with lines and functions" diff -u "$TRASH/expect" "$TRASH/c4.out"

t_exit "removed uses" 0 k check c5
t_is "removed uses: reported as a bonus line" "0 new deprecated uses (0 allowed)
2 deprecated uses removed" "$(tail -n 2 "$TRASH/.stdout")"

t_exit "allowlisted use" 0 k check c6
t_ok "allowed use listed as allowed" grep -qx "allowed: drivers/legacy/old.c:3: strcpy: strcpy() call (.kmig-allow:2: legacy board code, goes away with the board)" "$TRASH/.stdout"
t_ok "allowed: summary (singular)" grep -qx "1 new deprecated use (1 allowed)" "$TRASH/.stdout"
t_ok "allowed: no >> line" sh -c "! grep -q '^>>' '$TRASH/.stdout'"

t_exit "second copy in the same file" 1 k check c7
t_ok "second copy: the added line" grep -qx ">> net/b.c:29: strcpy: .*" "$TRASH/.stdout"
t_ok "second copy: one new use" grep -qx "1 new deprecated use (0 allowed)" "$TRASH/.stdout"

# ranges
t_exit "range c1..c4" 1 k check c1..c4
t_ok "range: the same two uses" sh -c "grep '^>> net/b.c:[0-9]*: ' '$TRASH/.stdout' | cut -d: -f1-3 | tr '\n' ' ' | grep -qx '>> net/b.c:5: bug-on >> net/b.c:25: strcpy '"
t_is "range: the matching note after the summary" \
	"note: uses are matched across files (a use moved to another file is neither added nor removed); 'kmig report --trend' matches per file" "$(tail -n 1 "$TRASH/.stdout")"
t_exit "range c3..c5: added then removed" 0 k check c3..c5
t_ok "range with nothing added or removed: no note" sh -c "! grep -q '^note: uses are matched' '$TRASH/.stdout'"
t_exit "range c4...c6 (from the merge base)" 0 k check c4...c6
t_is "merge-base range: allowed and removed, then the note" "1 new deprecated use (1 allowed)
2 deprecated uses removed
note: uses are matched across files (a use moved to another file is neither added nor removed); 'kmig report --trend' matches per file" "$(tail -n 3 "$TRASH/.stdout")"

# patches: mbox (git format-patch) and plain diff, on --base
git -C "$W" format-patch -q -1 --stdout c4 > "$TRASH/c4.mbox"
git -C "$W" diff c3 c4 > "$TRASH/c4.diff"
t_exit "mbox patch" 1 k check --patch "$TRASH/c4.mbox" --base c3
t_is "mbox header" "kmig check: $TRASH/c4.mbox (\"net: add a check and copy the whole name\") on c3" "$(head -n 1 "$TRASH/.stdout")"
t_is "mbox: same uses as the commit" "$(tail -n +2 "$TRASH/c4.out")" "$(tail -n +2 "$TRASH/.stdout")"
t_exit "plain diff" 1 k check --patch "$TRASH/c4.diff" --base c3
t_is "plain diff: same uses as the commit" "$(tail -n +2 "$TRASH/c4.out")" "$(tail -n +2 "$TRASH/.stdout")"
git -C "$W" checkout -q c3
t_exit "patch on the default base (HEAD)" 1 k check --patch "$TRASH/c4.diff"
git -C "$W" checkout -q master
t_is "the patch did not touch the repository" "" "$(git -C "$W" status --porcelain)"
t_exit "a patch on standard input" 1 sh -c "'$KMIG' --repo '$W' --db '$DB' check --patch - --base c3 < '$TRASH/c4.diff'"
t_is "stdin: same uses as the commit" "$(tail -n +2 "$TRASH/c4.out")" "$(tail -n +2 "$TRASH/.stdout")"
git -C "$W" format-patch -q -o "$TRASH/series" c3..c5
cat "$TRASH"/series/*.patch > "$TRASH/series.mbox"
t_exit "an mbox series" 0 k check --patch "$TRASH/series.mbox" --base c3
t_is "series: header names the series" "kmig check: $TRASH/series.mbox: series of 2 patches: \"[PATCH 1/2] net: add a check and copy the whole name\" … on c3" "$(head -n 1 "$TRASH/.stdout")"

# a patch that does not apply: the second hunk's context is wrong
sed 's/^ \tif (x < 0)$/ \tif (x < 1)/' "$TRASH/c4.diff" > "$TRASH/bad.diff"
t_exit "patch that does not apply" 2 k check --patch "$TRASH/bad.diff" --base c3
t_is "not applying: one line naming file and hunk" \
"kmig: patch '$TRASH/bad.diff' does not apply: net/b.c: hunk #1 (@@ -2,6 +2,7 @@) does not match" \
"$(cat "$TRASH/.stderr")"
sed 's/^ void net_copy(char \*d/ void net_copy(const char *d/' "$TRASH/c4.diff" > "$TRASH/bad2.diff"
t_exit "second hunk does not apply" 2 k check --patch "$TRASH/bad2.diff" --base c3
t_ok "names hunk #2" grep -q "does not apply: net/b.c: hunk #2 (@@ " "$TRASH/.stderr"
t_exit "patch on the wrong base" 2 k check --patch "$TRASH/c4.diff" --base c4
t_exit "not a patch" 2 k check --patch "$W/net/b.c" --base c3
t_exit "missing patch file" 2 k check --patch "$TRASH/nope.diff"

# allowlist errors and --allow
printf 'drivers/legacy/old.c strcpy\nthis line is wrong # really\n' > "$TRASH/bad-allow"
t_exit "malformed allowlist" 2 k check --allow "$TRASH/bad-allow" c6
t_is "malformed allowlist names file:line" "kmig: $TRASH/bad-allow:2: malformed allowlist line (expected 'PATH[:FUNCTION] RULE  # reason')" "$(cat "$TRASH/.stderr")"
printf 'net/b.c nosuchrule\n' > "$TRASH/bad-rule"
t_exit "allowlist with an unknown rule" 2 k check --allow "$TRASH/bad-rule" c4
t_ok "unknown rule named" grep -q "bad-rule:1: unknown rule 'nosuchrule'" "$TRASH/.stderr"
printf 'net/ bug-on # directory\nnet/b.c:net_copy strcpy\n' > "$TRASH/allow"
t_exit "--allow FILE allows both" 0 k check --allow "$TRASH/allow" c4
t_ok "--allow: summary" grep -qx "2 new deprecated uses (2 allowed)" "$TRASH/.stdout"
printf 'net/b.c:other_func strcpy\n' > "$TRASH/allow2"
t_exit "--allow with another function" 1 k check --allow "$TRASH/allow2" c4

# JSON
t_exit "json" 1 k check --format json c4
t_ok "json: summary" grep -q '"summary": {"new": 2, "allowed": 0, "removed": 0, "matching": "across files"}' "$TRASH/.stdout"
t_ok "json: a site" grep -q '{"path": "net/b.c", "line": 5, "function": "net_init", "rule": "bug-on", "text": "BUG_ON(x > 100);"' "$TRASH/.stdout"
if command -v python3 > /dev/null; then
	t_ok "json parses" python3 -m json.tool "$TRASH/.stdout"
fi

# no database at all, and a cache-filled database give the same answer
t_exit "without a usable database" 1 "$KMIG" --repo "$W" --db /proc/nonexistent/kmig.db check c4
t_is "no database: same output" "$(cat "$TRASH/c4.out")" "$(cat "$TRASH/.stdout")"
# check opens the database read-only (issue 19): it never creates one
t_ok "check created no database" test ! -e "$DB"
t_exit "a scan fills the blob cache" 0 k scan --tags c3 --tags c4
t_exit "check with the cache" 1 k check c4
t_is "cache-filled database: same output" "$(cat "$TRASH/c4.out")" "$(cat "$TRASH/.stdout")"
# ... which check only reads: c7's blob of net/b.c was never scanned
blobs=$(sqlite3 "$DB" 'SELECT count(*) FROM blobs')
t_exit "check of a commit with an unscanned blob" 1 k check c7
t_is "... leaves the blob cache as it was" "$blobs" "$(sqlite3 "$DB" 'SELECT count(*) FROM blobs')"
t_ok "... as its help says" sh -c "'$KMIG' help check | grep -q 'check opens it read-only and never fills it'"

# a path as long as the kernel's: ">> path:line:" stays on one line
L=drivers/gpu/drm/amd/display/dc/dml2/dml21/src/dml2_core/dml2_core_dcn4_calcs.c
mkdir -p "$W/$(dirname "$L")"
printf 'void f(void)\n{\n\tBUG();\n}\n' > "$W/$L"
git_commit_all "$W" "a long path"
t_exit "check of a long path" 1 k check HEAD
t_ok "... its use on a '>> path:line:' line" grep -q "^>> $L:3:" "$TRASH/.stdout"
t_ok "... no '>>' alone" sh -c "! grep -qx '>>' '$TRASH/.stdout'"

# a change of spacing alone inside a line is no new use (nor a removed one)
sed -i 's/^\tstrcpy(d, s);$/\tstrcpy( d,s );/' "$W/net/b.c"
git_commit_all "$W" "net: reformat"
t_is "the reformat touched both strcpy() lines of net/b.c" 2 \
	"$(grep -c 'strcpy( d,s );' "$W/net/b.c")"
t_exit "check of a spacing change" 0 k check HEAD
t_ok "... nothing new" grep -qx "0 new deprecated uses (0 allowed)" "$TRASH/.stdout"
t_ok "... nothing removed" sh -c "! grep -q 'removed' '$TRASH/.stdout'"
# the trend has the same identity of a use
git -C "$W" tag r1 HEAD~1 && git -C "$W" tag r2 HEAD
t_exit "scan before and after the reformat" 0 \
	"$KMIG" --repo "$W" --db "$TRASH/trend.db" scan --tags r1 --tags r2
t_exit "the trend" 0 "$KMIG" --db "$TRASH/trend.db" report --trend --format csv --rule strcpy
t_is "... the reformat adds and removes no strcpy" "r2,3,0,0,0,0" "$(grep '^r2,' "$TRASH/.stdout")"
sed -i 's/^\tstrcpy( d,s );$/\tstrcpy(d,s);/' "$W/net/b.c"
printf '\nvoid net_u(int x)\n{\n\tBUG_ON(x>100);\n}\n' >> "$W/net/b.c"
git_commit_all "$W" "net: reformat again, and a new BUG_ON"
t_exit "check of a spacing change and a new use" 1 k check HEAD
t_ok "... the new use" grep -q "^>> net/b.c:[0-9]*: bug-on:" "$TRASH/.stdout"
t_ok "... only it" grep -qx "1 new deprecated use (0 allowed)" "$TRASH/.stdout"

# ... nor is a comment on a use's line
sed -i 's|^\tstrcpy(d,s);$|\tstrcpy(d,s); /* bounded by the caller */|' "$W/net/b.c"
git_commit_all "$W" "net: a comment"
t_exit "check of a comment added on a use's line" 0 k check --removed HEAD
t_ok "... nothing new" grep -qx "0 new deprecated uses (0 allowed)" "$TRASH/.stdout"
t_ok "... nothing removed" sh -c "! grep -q 'removed' '$TRASH/.stdout'"

# ... but a change inside a string is one
sed -i 's/^\tBUG_ON(x>100);$/\tBUG_ON(x>100 \&\& printk("%s %s", "a", "b"));/' "$W/net/b.c"
git_commit_all "$W" "net: a message"
sed -i 's/printk("%s %s"/printk("%s%s"/' "$W/net/b.c"
git_commit_all "$W" "net: the message's spacing"
t_exit "check of a change of spacing inside a string" 1 k check HEAD
t_ok "... a new use" grep -qx "1 new deprecated use (0 allowed)" "$TRASH/.stdout"

# a call re-wrapped onto two lines is the same use, in check and the trend
sed -i 's|^\tstrcpy(d,s); /\* bounded by the caller \*/$|\tstrcpy(d,\n\t       s);|' "$W/net/b.c"
git_commit_all "$W" "net: re-wrap a strcpy()"
t_is "the re-wrap split both strcpy() lines" 2 "$(grep -c '^	strcpy(d,$' "$W/net/b.c")"
t_exit "check of a call re-wrapped" 0 k check --removed HEAD
t_ok "... nothing new" grep -qx "0 new deprecated uses (0 allowed)" "$TRASH/.stdout"
t_ok "... nothing removed" sh -c "! grep -q 'removed' '$TRASH/.stdout'"
git -C "$W" tag r3 HEAD~1 && git -C "$W" tag r4 HEAD
t_exit "scan before and after the re-wrap" 0 \
	"$KMIG" --repo "$W" --db "$TRASH/trend.db" scan --tags r3 --tags r4
t_exit "the trend over the re-wrap" 0 "$KMIG" --db "$TRASH/trend.db" report --trend --format csv --rule strcpy
t_is "... the re-wrap adds and removes no strcpy" "r4,3,0,0,0,0" "$(grep '^r4,' "$TRASH/.stdout")"
# ... but a change of the argument on its second line is a new use, shown whole
sed -i '0,/^\t       s);$/s//\t       s + 1);/' "$W/net/b.c"
git_commit_all "$W" "net: copy from the second byte"
t_exit "check of a change on a wrapped call's second line" 1 k check --removed HEAD
t_ok "... a new use" grep -qx "1 new deprecated use (0 allowed)" "$TRASH/.stdout"
t_ok "... its text joined" grep -qF "strcpy(d, s + 1);" "$TRASH/.stdout"
t_ok "... the old one removed" grep -qF "strcpy(d, s);" "$TRASH/.stdout"

# errors
t_exit "bad revision" 2 k check nosuchrev
t_is "bad revision: one line" "kmig: unknown revision 'nosuchrev'" "$(cat "$TRASH/.stderr")"
t_exit "bad range" 2 k check c1..nosuch
t_is "bad range: the side named" "kmig: unknown revision 'nosuch' in 'c1..nosuch'" "$(cat "$TRASH/.stderr")"
t_exit "unknown --rule" 2 k check --rule nosuchrule c1
t_is "unknown --rule: one line, one hint" \
	"kmig: --rule: unknown rule 'nosuchrule' (no rule id matches; see 'kmig rules')" \
	"$(cat "$TRASH/.stderr")"
t_exit "no change named" 2 k check
t_exit "both a revision and a patch" 2 k check c4 --patch "$TRASH/c4.diff"
t_exit "--base without --patch" 2 k check --base c1 c4
t_exit "unknown format" 2 k check --format xml c4
t_exit "check --help" 0 "$KMIG" check --help
t_ok "help shows usage" grep -q '^usage: kmig check' "$TRASH/.stdout"

t_done
