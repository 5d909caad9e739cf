#!/bin/sh
# t0066-branch-status-base.sh - branch status --base names the branch as
# apply, rebase, export and test do: kmig/<TAG> from a tag only.  A base
# in another spelling (a commit id, HEAD, TAG~0, refs/tags/TAG) is the
# same usage line from each of them, not a lookup of kmig/<that spelling>
# that finds nothing ("run 'kmig branch apply'", which refuses it) or a
# branch the others refuse to name; with --name the branch is found.
. "$(dirname "$0")/../lib.sh"

R="$TRASH/repo" S="$TRASH/series" D="$TRASH/kmig.db"
k() { "$KMIG" --repo "$R" --db "$D" "$@"; }
one_patch_series "$R" "$S" -a -m v1.0
echo "int f3;" > "$R/f3.c"
git_commit_all "$R" "c3"
git -C "$R" tag v1.1
ID=$(git -C "$R" rev-parse v1.0^{commit})
export KMIG_NO_PROGRESS=1

# a tag: the branch apply made is the one status reports
t_exit "apply --base v1.0" 0 k branch apply --base v1.0 --series "$S"
t_ok "... made kmig/v1.0" grep -q '^kmig/v1.0 at .* on v1.0: 1 applied' "$TRASH/.stdout"
t_exit "status --base v1.0" 0 k branch status --base v1.0
t_is "... reports kmig/v1.0" "branch kmig/v1.0 on v1.0" "$(head -n 1 "$TRASH/.stdout")"

# the same commit as a commit id, with --name: apply's branch is found by
# --name; --base names no branch, as it names none for apply
t_exit "apply --base <commit id> --name work/byid" 0 \
	k branch apply --base "$ID" --series "$S" --name work/byid
t_exit "status --name work/byid" 0 k branch status --name work/byid
t_is "... on the commit id" "branch work/byid on $ID" "$(head -n 1 "$TRASH/.stdout")"
t_exit "status --format json --name work/byid" 0 k branch status --format json --name work/byid
t_ok "... the same branch and base" grep -q "^{\"branch\": \"work/byid\", \"base\": \"$ID\"" "$TRASH/.stdout"

# every other spelling of v1.0's commit: status says what apply, export
# and test say, one line, exit 2, nothing on stdout, no branch looked up
for b in "$ID" HEAD v1.0~0 refs/tags/v1.0 tags/v1.0; do
	want="--base '$b' is not a tag: name the branch with --name BRANCH"
	t_exit "apply --base $b" 2 k branch apply --base "$b" --series "$S"
	t_is "... said" "kmig branch: $want (see 'kmig help branch')" "$(cat "$TRASH/.stderr")"
	t_exit "status --base $b" 2 k branch status --base "$b"
	t_is "... said as apply says it" "kmig branch: $want (see 'kmig help branch')" \
		"$(cat "$TRASH/.stderr")"
	t_is "... nothing on stdout" "" "$(cat "$TRASH/.stdout")"
	t_exit "export --base $b" 2 k branch export --base "$b" --series "$TRASH/x"
	t_is "... said alike" "kmig branch: $want (see 'kmig help branch')" "$(cat "$TRASH/.stderr")"
	t_exit "test --base $b" 2 k branch test --base "$b"
	t_is "... said alike" "kmig branch test: $want (see 'kmig help branch test')" \
		"$(cat "$TRASH/.stderr")"
done
t_ok "no kmig/ branch but kmig/v1.0 made" \
	test "$(git -C "$R" for-each-ref --format='%(refname)' refs/heads/kmig/)" = refs/heads/kmig/v1.0

# a branch kmig/<commit id> (named so by hand, or by a kmig before the
# rule): export and test do not take it for --base <commit id>, nor does
# status; --name finds it
t_exit "apply --base <commit id> --name kmig/<commit id>" 0 \
	k branch apply --base "$ID" --series "$S" --name "kmig/$ID"
t_exit "export --base <commit id> refuses it" 2 k branch export --base "$ID" --series "$TRASH/x"
t_exit "status --base <commit id> too" 2 k branch status --base "$ID"
t_ok "... the same line" grep -q "^kmig branch: --base '$ID' is not a tag" "$TRASH/.stderr"
t_exit "status --name kmig/<commit id>" 0 k branch status --name "kmig/$ID"
t_is "... reports it" "branch kmig/$ID on $ID" "$(head -n 1 "$TRASH/.stdout")"

# a base that names no branch: one line, exit 2
t_exit "status --base of no revision" 2 k branch status --base v9.9
t_is "... unknown, as apply says" "kmig: unknown revision 'v9.9'" "$(cat "$TRASH/.stderr")"
t_exit "status --base of a tag never applied" 2 k branch status --base v1.1
t_is "... no steps of kmig/v1.1" "kmig: no steps recorded for branch 'kmig/v1.1' (run 'kmig branch apply')" \
	"$(cat "$TRASH/.stderr")"
t_exit "status --base in a missing repository" 2 \
	"$KMIG" --repo "$TRASH/nosuch" --db "$D" branch status --base v1.0
t_is "... one line naming it" "kmig: repository '$TRASH/nosuch' does not exist (run 'kmig import' or pass --repo)" \
	"$(cat "$TRASH/.stderr")"
t_exit "status --name needs no repository" 0 \
	"$KMIG" --repo "$TRASH/nosuch" --db "$D" branch status --name kmig/v1.0
t_exit "status --base and --name" 2 k branch status --base v1.0 --name kmig/v1.0

t_done
