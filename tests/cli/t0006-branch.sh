#!/bin/sh
# kmig branch apply/status/rebase/export on a fixture repository: a patch
# that applies, two already upstream (reverse-applies; patch-id), one
# superseded, one conflict, one applying after the conflict; evidence,
# commits, trailers, the database, --stop-on-conflict, export round trip;
# the RDS patch on a fixture built from its own pre-image.
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
S="$TRASH/series"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }
commit() { git -C "$W" add -A -f && git -C "$W" commit -q -m "$1"; }
patch_of() { git -C "$W" format-patch -1 --stdout "$1"; }

git init -q "$W"
mkdir -p "$W/drivers" "$W/net" "$W/lib" "$S"
cat > "$W/drivers/one.c" <<'EOF'
int one(char *d, const char *s)
{
	strcpy(d, s);
	return 0;
}
EOF
cat > "$W/drivers/six.c" <<'EOF'
int six(char *d)
{
	BUG_ON(!d);
	return 0;
}
EOF
cat > "$W/net/up.c" <<'EOF'
int up(void)
{
	int x;

	x = 1;
	return x;
}
EOF
cat > "$W/net/pid.c" <<'EOF'
int pid(void)
{
	int a, b;

	a = 1;
	b = 2;
	return a + b;
}
EOF
cat > "$W/lib/s.c" <<'EOF'
void s(char *name, const char *src)
{
	strlcpy(name, src, 16);
}
EOF
cat > "$W/lib/c.c" <<'EOF'
void c(char *d, const char *s)
{
	int x = 0;
	strlcpy(d, s, 8);
}
EOF
commit "initial" && git -C "$W" tag v0.9
# patches made against the old state of lib/
git -C "$W" checkout -q -b old
sed -i 's/strlcpy(name, src, 16);/strscpy(name, src, 16);/' "$W/lib/s.c"
commit "lib: s: use strscpy"
patch_of HEAD > "$S/0004-lib-s-use-strscpy.patch"
sed -i 's/strlcpy(d, s, 8);/strscpy(d, s, 8);/' "$W/lib/c.c"
commit "lib: c: use strscpy"
patch_of HEAD > "$S/0005-lib-c-use-strscpy.patch"
git -C "$W" checkout -q master
# upstream history up to v1.0
sed -i 's/x = 1;/x = 2;/' "$W/net/up.c"
commit "net: up: two" && U=$(git -C "$W" rev-parse HEAD)
patch_of HEAD > "$S/0002-net-up-two.patch"
sed -i 's/a = 1;/a = 10;/' "$W/net/pid.c"
commit "net: pid: ten" && P=$(git -C "$W" rev-parse HEAD)
patch_of HEAD > "$S/0003-net-pid-ten.patch"
sed -i 's/b = 2;/b = 20;/' "$W/net/pid.c"
commit "net: pid: twenty"
cat > "$W/lib/s.c" <<'EOF'
void s(char *name, const char *src)
{
	ssize_t ret;

	ret = strscpy(name, src, 16);
}
EOF
sed -i 's/int x = 0;/int unrelated = 1;/' "$W/lib/c.c"
commit "lib: upstream rework" && git -C "$W" tag v1.0
# the series' own patches on v1.0
git -C "$W" checkout -q -b new
sed -i 's/strcpy(d, s);/strscpy(d, s, 16);/' "$W/drivers/one.c"
GIT_AUTHOR_NAME="Ada Author" GIT_AUTHOR_EMAIL="ada@example.org" \
GIT_AUTHOR_DATE="2020-02-03T04:05:06+0100" commit "drivers: one: use strscpy

The destination is 16 bytes.

Signed-off-by: Ada Author <ada@example.org>"
patch_of HEAD > "$S/0001-drivers-one-use-strscpy.patch"
sed -i 's/BUG_ON(!d);/if (!d)\n\t\treturn -EINVAL;/' "$W/drivers/six.c"
commit "drivers: six: no BUG_ON"
patch_of HEAD > "$S/0006-drivers-six-no-BUG_ON.patch"
git -C "$W" checkout -q -b shifted v1.0
sed -i '1i /* one */' "$W/drivers/one.c"
commit "drivers: one: a comment" && git -C "$W" tag v1.1
git -C "$W" checkout -q master
git -C "$W" branch -q -D new old shifted
printf '# fixture series\n0001-drivers-one-use-strscpy.patch\n0002-net-up-two.patch\n0003-net-pid-ten.patch\n0004-lib-s-use-strscpy.patch\n0005-lib-c-use-strscpy.patch\n\n0006-drivers-six-no-BUG_ON.patch\n' > "$S/series"
HEAD0=$(git -C "$W" rev-parse HEAD)

t_exit "apply with a conflict" 1 k branch apply --base v1.0 --series "$S"
OUT=$(cat "$TRASH/.stdout")
t_is "no progress on stderr when it is not a terminal" "" "$(cat "$TRASH/.stderr")"
t_is "one status line per patch, in order" \
"applied
upstream
upstream
superseded
conflict
applied" "$(printf '%s\n' "$OUT" | grep -v '^ ' | sed '$d' | cut -d' ' -f1)"
t_is "summary line" "kmig/v1.0 at $(git -C "$W" rev-parse --short=12 kmig/v1.0) on v1.0: 2 applied, 2 upstream, 1 superseded, 1 conflict" \
	"$(printf '%s\n' "$OUT" | tail -n 1)"
t_ok "upstream by reverse-apply" grep -q "the patch reverse-applies: the tree already has this change" "$TRASH/.stdout"
t_ok "upstream by patch-id names the commit" grep -q "patch-id matches commit $P reachable from the base" "$TRASH/.stdout"
t_ok "superseded: the removed use is absent" \
	grep -q 'lib/s.c hunk 1/1 @@ -1,4 +1,4 @@: pre-image not found; removes strlcpy "strlcpy(name, src, 16);" (absent)' "$TRASH/.stdout"
t_ok "superseded: summary of the evidence" \
	grep -q "every tracked use the patch removes (1) is absent from the tree" "$TRASH/.stdout"
t_ok "conflict: the removed use is still present" \
	grep -q 'lib/c.c hunk 1/1 @@ -1,5 +1,5 @@: pre-image not found; removes strlcpy "strlcpy(d, s, 8);" (present)' "$TRASH/.stdout"
t_ok "conflict: evidence summary" \
	grep -q "1 of the 1 tracked uses the patch removes are still present" "$TRASH/.stdout"

t_is "the branch has the two applied commits on v1.0" \
"drivers: six: no BUG_ON
drivers: one: use strscpy" "$(git -C "$W" log --format=%s v1.0..kmig/v1.0)"
t_is "author and date kept" "Ada Author <ada@example.org> 2020-02-03T04:05:06+01:00" \
	"$(git -C "$W" log -1 --format='%an <%ae> %aI' kmig/v1.0~1)"
t_is "message kept, Kmig-Patch trailer added to the trailer block" \
"drivers: one: use strscpy

The destination is 16 bytes.

Signed-off-by: Ada Author <ada@example.org>
Kmig-Patch: 0001-drivers-one-use-strscpy.patch" "$(git -C "$W" log -1 --format=%B kmig/v1.0~1)"
t_is "trailer in a new paragraph when there was no trailer block" \
	"Kmig-Patch: 0006-drivers-six-no-BUG_ON.patch" \
	"$(git -C "$W" log -1 --format=%B kmig/v1.0 | sed -n '3p')"
t_is "the commit's change is the patch" "$(sed -n '/^diff --git/,/^-- $/p' "$S/0001-drivers-one-use-strscpy.patch" | sed '$d' | grep '^[-+]')" \
	"$(git -C "$W" show --format= kmig/v1.0~1 | grep '^[-+]')"
t_is "working tree, index and current branch untouched" "refs/heads/master $HEAD0 0" \
	"$(git -C "$W" symbolic-ref HEAD) $(git -C "$W" rev-parse HEAD) $(git -C "$W" status --porcelain | wc -l)"
t_exit "re-applying gives the same commits (committer date = author date)" 1 \
	k branch apply --base v1.0 --series "$S"
t_is "same tip" "$(printf '%s\n' "$OUT" | tail -n 1)" "$(tail -n 1 "$TRASH/.stdout")"

t_is "steps recorded in the database" \
"kmig/v1.0|v1.0|1|0001-drivers-one-use-strscpy.patch|drivers: one: use strscpy|applied|1
kmig/v1.0|v1.0|2|0002-net-up-two.patch|net: up: two|upstream|0
kmig/v1.0|v1.0|3|0003-net-pid-ten.patch|net: pid: ten|upstream|0
kmig/v1.0|v1.0|4|0004-lib-s-use-strscpy.patch|lib: s: use strscpy|superseded|0
kmig/v1.0|v1.0|5|0005-lib-c-use-strscpy.patch|lib: c: use strscpy|conflict|0
kmig/v1.0|v1.0|6|0006-drivers-six-no-BUG_ON.patch|drivers: six: no BUG_ON|applied|1" \
	"$(sqlite3 "$DB" "SELECT branch, base, position, patch, subject, status, commit_id IS NOT NULL FROM branch_steps ORDER BY position")"
t_is "evidence stored for the conflict" 1 \
	"$(sqlite3 "$DB" "SELECT count(*) FROM branch_steps WHERE status = 'conflict' AND evidence LIKE '%(present)%'")"

t_exit "status" 0 k branch status
C1=$(git -C "$W" rev-parse --short=12 kmig/v1.0~1)
C6=$(git -C "$W" rev-parse --short=12 kmig/v1.0)
t_is "status text: one line per patch and a summary" \
"branch kmig/v1.0 on v1.0
   1  applied     $C1  0001-drivers-one-use-strscpy.patch  drivers: one: use strscpy
   2  upstream    -             0002-net-up-two.patch  net: up: two
   3  upstream    -             0003-net-pid-ten.patch  net: pid: ten
   4  superseded  -             0004-lib-s-use-strscpy.patch  lib: s: use strscpy
   5  conflict    -             0005-lib-c-use-strscpy.patch  lib: c: use strscpy
   6  applied     $C6  0006-drivers-six-no-BUG_ON.patch  drivers: six: no BUG_ON
6 patches: 2 applied, 2 upstream, 1 superseded, 1 conflict" "$(cat "$TRASH/.stdout")"
t_exit "status csv" 0 k branch status --base v1.0 --format csv
t_is "csv header and rows" "position,patch,subject,status,commit,test_status
5,0005-lib-c-use-strscpy.patch,lib: c: use strscpy,conflict,,
7" "$(sed -n '1p' "$TRASH/.stdout"; grep '^5,' "$TRASH/.stdout"; wc -l < "$TRASH/.stdout")"
t_exit "status json" 0 k branch status --format json
t_ok "json summary" grep -q '"summary": {"patches": 6, "applied": 2, "upstream": 2, "superseded": 1, "conflict": 1}' "$TRASH/.stdout"
t_ok "json is an object with the patches" grep -q '^{"branch": "kmig/v1.0", "base": "v1.0", "patches": \[' "$TRASH/.stdout"

t_exit "--stop-on-conflict stops at the conflict" 1 \
	k branch apply --base v1.0 --series "$S" --name test/stop --stop-on-conflict
t_is "five steps, the last a conflict" "applied upstream upstream superseded conflict" \
	"$(grep -v '^ ' "$TRASH/.stdout" | sed '$d' | cut -d' ' -f1 | tr '\n' ' ' | sed 's/ $//')"
t_is "only the first patch is on the stopped branch" "drivers: one: use strscpy" \
	"$(git -C "$W" log --format=%s v1.0..test/stop)"

t_exit "rebase --onto v0.9: everything applies there" 0 \
	k branch rebase --onto v0.9 --series "$S"
t_ok "rebase summary" grep -q "^kmig/v0.9 at .* on v0.9: 6 applied, 0 upstream, 0 superseded, 0 conflict$" "$TRASH/.stdout"
t_is "rebased branch has six commits" 6 "$(git -C "$W" rev-list --count v0.9..kmig/v0.9)"
t_exit "rebase --onto v1.1, where drivers/one.c moved down a line" 1 \
	k branch rebase --onto v1.1 --series "$S"
t_ok "the first patch applies there" grep -q "^applied .*0001-drivers-one-use-strscpy.patch$" "$TRASH/.stdout"
t_is "with offsets, as git apply does" 1 \
	"$(sqlite3 "$DB" "SELECT count(*) FROM branch_steps WHERE branch = 'kmig/v1.1' AND position = 1 AND evidence LIKE 'applies with offsets%'")"

# the matrix: every patch on the branch kmig/<TAG> of each imported release
t_exit "branch status --matrix before any scan" 2 k branch status --matrix
t_ok "scan the three releases" k scan
t_exit "branch status --matrix" 0 k branch status --matrix
t_is "matrix header and the first rows" "patches x bases (main base v1.1; status[:test], - not applied there)
patch v0.9 v1.0 v1.1" \
	"$(sed -n 1,2p "$TRASH/.stdout" | sed 's/ *$//' | tr -s ' ')"
t_is "the first patch on every base" "0001-drivers-one-use-strscpy.patch applied applied applied" \
	"$(grep '^0001' "$TRASH/.stdout" | sed 's/ *$//' | tr -s ' ')"
t_is "upstream on v1.0 and v1.1, applied on v0.9" "0002-net-up-two.patch applied upstream upstream" \
	"$(grep '^0002' "$TRASH/.stdout" | sed 's/ *$//' | tr -s ' ')"
t_ok "summary line" grep -q '^6 patches on 3 bases$' "$TRASH/.stdout"
t_exit "matrix csv" 0 k branch status --matrix --format csv
t_is "csv: a column per base" "patch,subject,v0.9,v1.0,v1.1
0005-lib-c-use-strscpy.patch,lib: c: use strscpy,applied,conflict,conflict" \
	"$(sed -n '1p;6p' "$TRASH/.stdout")"
t_exit "matrix json" 0 k branch status --matrix --format json
t_ok "json: the evidence of each base" sh -c "python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d[\"main_base\"] == \"v1.1\" and d[\"bases\"] == [\"v0.9\", \"v1.0\", \"v1.1\"]
p = [x for x in d[\"patches\"] if x[\"patch\"].startswith(\"0002\")][0]
assert p[\"bases\"][\"v1.0\"][\"status\"] == \"upstream\"
assert p[\"bases\"][\"v1.0\"][\"evidence\"]
' '$TRASH/.stdout'"
t_exit "--matrix with --base" 2 k branch status --matrix --base v1.0
t_exit "--matrix is for status" 2 k branch apply --matrix --series "$S"

# apply keeps a step's test results when its commit did not change
sqlite3 "$DB" "UPDATE branch_steps SET test_status = 'pass' WHERE branch = 'kmig/v0.9'"
t_exit "re-apply the same series on v0.9" 0 k branch apply --base v0.9 --series "$S"
t_is "the same commits keep their results" "pass pass pass pass pass pass" \
	"$(sqlite3 "$DB" "SELECT test_status FROM branch_steps WHERE branch = 'kmig/v0.9' ORDER BY position" | tr '\n' ' ' | sed 's/ $//')"
k branch status --matrix > "$TRASH/matrix.txt"
t_ok "the matrix shows them" grep -q '^0001-drivers-one-use-strscpy.patch  *applied:pass ' "$TRASH/matrix.txt"
SOURCE_DATE_EPOCH= KMIG_IDENTITY="Other <other@example.org>" \
	"$KMIG" --repo "$W" --db "$DB" branch apply --base v0.9 --series "$S" > /dev/null
t_is "a new committer: new commits, results dropped" "" \
	"$(sqlite3 "$DB" "SELECT test_status FROM branch_steps WHERE branch = 'kmig/v0.9' AND test_status IS NOT NULL")"
k branch apply --series "$S" --name test/main > "$TRASH/main.txt"
t_ok "apply without --base uses the newest imported release" grep -q '^test/main at .* on v1.1: ' "$TRASH/main.txt"

# export: edit the branch with git, export, the edit comes back
cp -r "$S" "$TRASH/series2"
git -C "$W" branch -q -f edit kmig/v1.0
(
	cd "$TRASH" && git clone -q "$W" ed && cd ed && git checkout -q edit &&
	git commit -q --amend -m "drivers: six: return -EINVAL instead of BUG_ON

Kmig-Patch: 0006-drivers-six-no-BUG_ON.patch" &&
	echo '/* new */' >> drivers/six.c && git commit -q -a -m "drivers: six: a new commit made with git" &&
	git push -q -f origin edit:kmig/v1.0
) > /dev/null 2>&1
t_exit "export" 0 k branch export --base v1.0 --series "$TRASH/series2"
t_is "export output" "wrote $TRASH/series2/0001-drivers-one-use-strscpy.patch
wrote $TRASH/series2/0006-drivers-six-no-BUG_ON.patch
wrote $TRASH/series2/0007-drivers-six-a-new-commit-made-with-git.patch
exported 3 commits of kmig/v1.0 to $TRASH/series2 (series: 7 patches)" "$(cat "$TRASH/.stdout")"
t_ok "the edited message is in the patch, without the Kmig-Patch trailer" \
	sh -c "grep -q '^Subject: \[PATCH\] drivers: six: return -EINVAL instead of BUG_ON$' '$TRASH/series2/0006-drivers-six-no-BUG_ON.patch' && ! grep -q Kmig-Patch '$TRASH/series2/0006-drivers-six-no-BUG_ON.patch'"
t_is "series kept in order with its comment and blank line, the new commit appended" \
	"$(cat "$S/series"; echo 0007-drivers-six-a-new-commit-made-with-git.patch)" \
	"$(cat "$TRASH/series2/series")"
t_exit "the exported series applies again" 1 \
	k branch apply --base v1.0 --series "$TRASH/series2" --name test/exported
t_is "same statuses after the round trip" "applied upstream upstream superseded conflict applied applied" \
	"$(grep -v '^ ' "$TRASH/.stdout" | sed '$d' | cut -d' ' -f1 | tr '\n' ' ' | sed 's/ $//')"
t_ok "exported patch applies with git am too" sh -c "
	git clone -q '$W' '$TRASH/am' && cd '$TRASH/am' && git checkout -q v1.0 &&
	git am -q '$TRASH/series2/0001-drivers-one-use-strscpy.patch' '$TRASH/series2/0006-drivers-six-no-BUG_ON.patch' &&
	test \"\$(git log -1 --format=%s)\" = 'drivers: six: return -EINVAL instead of BUG_ON'"
t_exit "kmig never rewrites the checked-out branch" 2 k branch apply --base v1.0 --series "$S" --name master
t_is "one clear line" "kmig: 'refs/heads/master' is the current branch; kmig never rewrites it" "$(cat "$TRASH/.stderr")"
# nor the branch of another worktree
git -C "$W" worktree add -q "$TRASH/wt" test/exported
wt_tip=$(git -C "$W" rev-parse test/exported)
t_exit "kmig never rewrites a branch checked out in a worktree" 2 \
	k branch apply --base v1.0 --series "$TRASH/series2" --name test/exported --stop-on-conflict
t_is "worktree: one clear line" "kmig: 'refs/heads/test/exported' is checked out in a worktree; kmig never rewrites it" \
	"$(cat "$TRASH/.stderr")"
t_is "worktree: the branch as it was" "$wt_tip" "$(git -C "$W" rev-parse test/exported)"
t_is "worktree: clean" "" "$(git -C "$TRASH/wt" status --short)"
git -C "$W" worktree remove "$TRASH/wt"
# names git branch refuses
t_exit "--name HEAD" 2 k branch apply --base v1.0 --series "$S" --name HEAD
t_is "--name HEAD: said" "kmig: invalid branch name 'HEAD'" "$(cat "$TRASH/.stderr")"
t_exit "--name -x" 2 k branch apply --base v1.0 --series "$S" --name=-x
t_exit "--name refs/heads/x" 2 k branch apply --base v1.0 --series "$S" --name refs/heads/x
t_is "... said" "kmig: --name takes a branch name, not the reference 'refs/heads/x'" \
	"$(cat "$TRASH/.stderr")"
t_is "... no branch made" "" "$(git -C "$W" for-each-ref 'refs/heads/refs/*')"
for sub in apply status export; do
	t_exit "branch $sub --base ''" 2 k branch $sub --base ''
	t_is "... said so" "kmig branch: --base needs a revision (see 'kmig help branch')" \
		"$(cat "$TRASH/.stderr")"
done
t_exit "branch status --name ''" 2 k branch status --name ''
t_is "... said so" "kmig branch: --name needs a branch name (see 'kmig help branch')" \
	"$(cat "$TRASH/.stderr")"
t_is "no such branches" "" "$(git -C "$W" for-each-ref refs/heads/HEAD refs/heads/-x)"
# a base that is no tag names no default branch: kmig/HEAD would say
# nothing of the base, kmig/v1.1~1 is no branch name
IDV=$(git -C "$W" rev-parse v1.0)
# (branch test first: no kmig/HEAD to build even where apply made one)
t_exit "branch test --base HEAD" 2 k branch test --base HEAD
t_is "... said" "kmig branch test: --base 'HEAD' is not a tag: name the branch with --name BRANCH (see 'kmig help branch test')" \
	"$(cat "$TRASH/.stderr")"
t_exit "apply --base HEAD without --name" 2 k branch apply --base HEAD --series "$S"
t_is "... said, one line" "kmig branch: --base 'HEAD' is not a tag: name the branch with --name BRANCH (see 'kmig help branch')" \
	"$(cat "$TRASH/.stderr")"
t_exit "apply --base v1.1~1 without --name" 2 k branch apply --base v1.1~1 --series "$S"
t_is "... said" "kmig branch: --base 'v1.1~1' is not a tag: name the branch with --name BRANCH (see 'kmig help branch')" \
	"$(cat "$TRASH/.stderr")"
t_exit "rebase --onto a commit id without --name" 2 k branch rebase --onto "$IDV" --series "$S"
t_is "... said" "kmig branch: --onto '$IDV' is not a tag: name the branch with --name BRANCH (see 'kmig help branch')" \
	"$(cat "$TRASH/.stderr")"
t_exit "export --base HEAD without --name" 2 k branch export --base HEAD --series "$TRASH/s-head"
t_is "no branch made, no step recorded" "|0" \
	"$(git -C "$W" for-each-ref 'refs/heads/kmig/HEAD' "refs/heads/kmig/$IDV")|$(sqlite3 "$DB" "SELECT count(*) FROM branch_steps WHERE branch NOT GLOB 'kmig/v[0-9].[0-9]' AND branch NOT GLOB 'test/*' AND branch NOT GLOB 'rds/*'")"
t_exit "an unknown base is said unknown" 2 k branch apply --base v9.9~1 --series "$S"
t_ok "... not a tag to name" sh -c "! grep -q 'not a tag' '$TRASH/.stderr'"
t_exit "--base HEAD with --name" 1 k branch apply --base HEAD --series "$S" --name test/head
t_is "... on HEAD's commit" "$(git -C "$W" rev-parse HEAD)" \
	"$(git -C "$W" rev-parse test/head~2)"
t_ok "a base that is no tag in the help" sh -c "'$KMIG' help branch | grep -q 'A base that is no'"
# a branch that cannot be written (refs/heads/test/... exist): an error,
# and no step recorded
t_exit "a branch git cannot create" 2 k branch apply --base v1.0 --series "$S" --name test
t_ok "the error names the ref" grep -q "^kmig: cannot update 'refs/heads/test'" "$TRASH/.stderr"
t_is "no steps recorded for it" 0 "$(sqlite3 "$DB" "SELECT count(*) FROM branch_steps WHERE branch = 'test'")"
t_exit "so never applied" 2 k branch status --name test

# errors: exit 2 and one line
t_exit "no subcommand" 2 k branch
t_exit "unknown option" 2 k branch apply --bogus
t_is "one line naming it" "kmig branch: apply: unknown option or missing value '--bogus' (see 'kmig help branch')" \
	"$(cat "$TRASH/.stderr")"
t_exit "rebase without --onto" 2 k branch rebase --series "$S"
t_exit "unknown base" 2 k branch apply --base v9.9 --series "$S"
t_is "one clear line" 1 "$(wc -l < "$TRASH/.stderr")"
printf 'not a patch\n' > "$S/0007-bad.patch"
printf '0007-bad.patch\n' >> "$S/series"
t_exit "a file that is not a format-patch message" 2 k branch apply --base v1.0 --series "$S" --name test/bad
t_ok "the error names the patch" grep -q "^kmig: patch '0007-bad.patch': not a git format-patch message" "$TRASH/.stderr"
t_exit "missing series" 2 k branch apply --base v1.0 --series "$TRASH/nowhere"
t_exit "status of a branch never applied" 2 k branch status --name nothing/here
t_exit "branch test of a branch never applied" 2 k branch test --name nothing/here
t_ok "branch test names the branch" grep -q "no steps recorded for branch 'nothing/here'" "$TRASH/.stderr"
t_exit "branch test with a bad option" 2 k branch test --bogus
t_exit "branch test with --base and --name" 2 k branch test --base v1.0 --name x

# the RDS fix applies on a tree built from its own pre-image
R="$TRASH/rds"
RDS="$TOP/branch-patches/0001-net-rds-remove-user-triggered-WARN_ON-in-rds_sendmsg.patch"
git init -q "$R"
awk -v dir="$R" '
/^-- $/ { exit }
/^diff --git / { out = dir "/" substr($4, 3); d = out; sub(/\/[^\/]*$/, "", d)
	system("mkdir -p " d); line = 1; inhunk = 0; next }
out == "" { next }
/^@@ / { split($2, r, ","); start = substr(r[1], 2) + 0
	while (line < start) { print "/* filler " line " */" > out; line++ }
	inhunk = 1; next }
inhunk && /^[ -]/ { print substr($0, 2) > out; line++; next }
' "$RDS"
commit_rds() { git -C "$R" add -A && git -C "$R" commit -q -m pre && git -C "$R" tag pre; }
t_ok "pre-image fixture" commit_rds
t_exit "the RDS patch applies on its pre-image" 0 \
	"$KMIG" --repo "$R" --db "$DB" branch apply --base pre --series "$TOP/branch-patches" --name rds/pre
t_ok "applied first; the strlcpy patches have no files there" \
	sh -c "grep -v '^ ' '$TRASH/.stdout' | head -n 1 | grep -q '^applied .*0001-net-rds-remove-user-triggered-WARN_ON-in-rds_sendmsg.patch$'"
t_is "the RDS commit keeps author and date" "shamir rabinovitch <shamir.rabinovitch@oracle.com> 2018-12-16" \
	"$(git -C "$R" log --format='%an <%ae> %as' pre..rds/pre)"
t_is "its tree is the post-image" "$(grep -c '^+' "$RDS" | tr -d ' ')" \
	"$(git -C "$R" diff pre rds/pre | grep -c '^+')"

# a patch whose author and subject are not ASCII: git format-patch writes
# them as RFC 2047 encoded words, the branch commit has them decoded
N="$TRASH/nonascii"
git init -q "$N"
printf 'int a(void)\n{\n\treturn 0;\n}\n' > "$N/a.c"
git_commit_all "$N" one && git -C "$N" tag v1.0
git -C "$N" checkout -q -b side
sed -i 's/return 0;/return 1;/' "$N/a.c"
GIT_AUTHOR_NAME='Jörg Müller' git -C "$N" commit -q -a -m 'net: Ω café'
mkdir -p "$TRASH/nser"
git -C "$N" format-patch -q -1 -o "$TRASH/nser"
(cd "$TRASH/nser" && ls -- *.patch > series)
git -C "$N" checkout -q master
t_ok "format-patch encoded them" grep -q '^Subject: .*=?UTF-8?q?' "$TRASH/nser"/*.patch
t_exit "apply it" 0 "$KMIG" --repo "$N" --db "$TRASH/n.db" branch apply --base v1.0 --series "$TRASH/nser"
t_is "the branch commit's author and subject, decoded" "Jörg Müller|net: Ω café" \
	"$(git -C "$N" log -1 --format='%an|%s' kmig/v1.0)"

# a use upstream only re-spaced is still present: a conflict, not superseded
R="$TRASH/respace"
git init -q "$R"
printf 'void r(char *d, const char *s)\n{\n\tstrcpy(d, s);\n}\n' > "$R/r.c"
git_commit_all "$R" "r" && git -C "$R" tag v0.9
sed -i 's/strcpy(d, s);/strscpy(d, s, 8);/' "$R/r.c"
git_commit_all "$R" "r: use strscpy"
mkdir -p "$TRASH/rser"
git -C "$R" format-patch -q -1 -o "$TRASH/rser"
(cd "$TRASH/rser" && ls -- *.patch > series)
git -C "$R" reset -q --hard v0.9
sed -i 's/strcpy(d, s);/strcpy( d,s );/' "$R/r.c"
git_commit_all "$R" "r: spacing" && git -C "$R" tag v1.0
t_exit "a patch whose use upstream re-spaced" 1 \
	"$KMIG" --repo "$R" --db "$TRASH/r.db" branch apply --base v1.0 --series "$TRASH/rser"
t_ok "... is a conflict: the use it removes is present" \
	grep -q 'removes strcpy "strcpy(d, s);" (present)' "$TRASH/.stdout"
# ... as is one whose use upstream only gave a comment
sed -i 's|strcpy( d,s );|strcpy(d, s); /* FIXME: bounded? */|' "$R/r.c"
git_commit_all "$R" "r: a comment" && git -C "$R" tag v1.1
t_exit "a patch whose use upstream commented" 1 \
	"$KMIG" --repo "$R" --db "$TRASH/r.db" branch apply --base v1.1 --series "$TRASH/rser"
t_ok "... is a conflict: the use it removes is present" \
	grep -q 'removes strcpy "strcpy(d, s);" (present)' "$TRASH/.stdout"
# ... and one whose use upstream gave another size (the context changed too)
printf 'void r(char *d, const char *s)\n{\n\tint n = 0;\n\tstrlcpy(d, s, 8);\n}\n' > "$R/r.c"
git_commit_all "$R" "r: strlcpy" && git -C "$R" tag v2.0
sed -i 's/strlcpy(d, s, 8);/strscpy(d, s, 8);/' "$R/r.c"
git_commit_all "$R" "r: use strscpy"
mkdir -p "$TRASH/rser2"
git -C "$R" format-patch -q -1 -o "$TRASH/rser2"
(cd "$TRASH/rser2" && ls -- *.patch > series)
git -C "$R" reset -q --hard v2.0
sed -i 's/strlcpy(d, s, 8);/strlcpy(d, s, 16);/; s/int n = 0;/int len = 0;/' "$R/r.c"
git_commit_all "$R" "r: a longer name" && git -C "$R" tag v2.1
t_exit "a patch whose use upstream gave another size" 1 \
	"$KMIG" --repo "$R" --db "$TRASH/r.db" branch apply --base v2.1 --series "$TRASH/rser2"
t_ok "... is a conflict, not superseded: strlcpy(d, ...) is still there" \
	sh -c "grep -q '^conflict ' '$TRASH/.stdout' &&
		grep -q 'removes strlcpy \"strlcpy(d, s, 8);\" (present)' '$TRASH/.stdout'"
# ... but another call of the file with the same first argument, one
# the patch leaves, is not the use it removes: superseded
printf 'int a(const char *buf)\n{\n\tunsigned long val;\n\n\tval = simple_strtoul(buf, NULL, 10);\n\treturn val;\n}\n\nint b(const char *buf)\n{\n\tunsigned long val;\n\tchar *end;\n\n\tval = simple_strtoul(buf, &end, 10);\n\treturn end - buf + val;\n}\n' > "$R/st.c"
git_commit_all "$R" "st: two stores" && git -C "$R" tag v3.0
sed -i 's/val = simple_strtoul(buf, NULL, 10);/if (kstrtoul(buf, 10, \&val))\n\t\treturn -1;/' "$R/st.c"
git_commit_all "$R" "st: use kstrtoul"
mkdir -p "$TRASH/rser3"
git -C "$R" format-patch -q -1 -o "$TRASH/rser3"
(cd "$TRASH/rser3" && ls -- *.patch > series)
git -C "$R" reset -q --hard v3.0
sed -i 's/val = simple_strtoul(buf, NULL, 10);/if (kstrtoul(buf, 0, \&val))\n\t\treturn -EINVAL;/' "$R/st.c"
git_commit_all "$R" "st: kstrtoul, base 0" && git -C "$R" tag v3.1
t_exit "a patch whose use upstream converted, another call keyed alike left" 0 \
	"$KMIG" --repo "$R" --db "$TRASH/r.db" branch apply --base v3.1 --series "$TRASH/rser3"
t_ok "... is superseded: simple_strtoul(buf, &end, 10) is another call" \
	sh -c "grep -q '^superseded ' '$TRASH/.stdout' &&
		grep -q 'removes simple-strto \"val = simple_strtoul(buf, NULL, 10);\" (absent)' '$TRASH/.stdout'"

# a patch with a mode change, applied with offsets: the mode comes too
M="$TRASH/mode"
git init -q "$M"
(echo '#!/bin/sh'; for i in 1 2 3 4 5 6 7 8 9 10; do echo "echo $i"; done) > "$M/s.sh"
git_commit_all "$M" "s" && git -C "$M" tag v1.0
chmod +x "$M/s.sh" && sed -i 's/echo 8/echo eight/' "$M/s.sh"
git_commit_all "$M" "s: executable, eight"
mkdir -p "$TRASH/mser"
git -C "$M" format-patch -q -1 -o "$TRASH/mser"
(cd "$TRASH/mser" && ls -- *.patch > series)
git -C "$M" reset -q --hard v1.0
sed -i '1a # two lines\n# more' "$M/s.sh"
git_commit_all "$M" "s: comments" && git -C "$M" tag v1.1
t_exit "a mode change and a hunk two lines down" 0 \
	"$KMIG" --repo "$M" --db "$TRASH/m.db" branch apply --base v1.1 --series "$TRASH/mser"
t_is "applied with offsets, executable as git am makes it" "100755" \
	"$(git -C "$M" ls-tree kmig/v1.1 s.sh | cut -d' ' -f1)"

# export replaces each patch whole: a write that fails (a file size limit
# here, a full disk alike) leaves the series' patch as it was, not cut short
X="$TRASH/xfsz"
git init -q "$X"
printf 'int a;\n' > "$X/a.c"
git_commit_all "$X" init && git -C "$X" tag v1.0
printf 'int b;\n' >> "$X/a.c"
git_commit_all "$X" "a: b"
mkdir "$TRASH/xser"
git -C "$X" format-patch -q -1 -o "$TRASH/xser"
(cd "$TRASH/xser" && ls -- *.patch > series)
git -C "$X" reset -q --hard v1.0
t_exit "a series to export again" 0 \
	"$KMIG" --repo "$X" --db "$TRASH/x.db" branch apply --base v1.0 --series "$TRASH/xser"
# its commit amended on the branch to a patch of a megabyte
git -C "$X" worktree add -q "$TRASH/xwt" kmig/v1.0
seq 1 100000 | sed 's/^/int x/; s/$/;/' >> "$TRASH/xwt/a.c"
git -C "$TRASH/xwt" commit -q -a --amend --no-edit
git -C "$X" worktree remove --force "$TRASH/xwt"
XP=$(ls "$TRASH/xser"/*.patch)
xsum=$(md5sum < "$XP")
t_exit "export that cannot write the patch" 2 sh -c \
	"trap '' XFSZ; ulimit -f 1024; exec \"\$0\" --repo '$X' --db '$TRASH/x.db' branch export --base v1.0 --series '$TRASH/xser'" \
	"$KMIG"
t_is "one line naming it" "kmig: cannot write '$XP': File too large" "$(cat "$TRASH/.stderr")"
t_is "the patch as it was" "$xsum" "$(md5sum < "$XP")"
t_is "no other file left" "$(basename "$XP") series" "$(ls "$TRASH/xser" | tr '\n' ' ' | sed 's/ $//')"
t_exit "export without the limit" 0 \
	"$KMIG" --repo "$X" --db "$TRASH/x.db" branch export --base v1.0 --series "$TRASH/xser"
t_ok "the amended patch written" grep -q '^+int x100000;$' "$XP"

t_done
