#!/bin/sh
# t0062-branch-test.sh - kmig branch test without a kernel build: a
# one-patch branch whose step fails to build at once (the fixture has no
# kernel tree).  Progress lines follow KMIG_NO_PROGRESS / KMIG_PROGRESS
# and a terminal, like every other command's.
. "$(dirname "$0")/../lib.sh"

R="$TRASH/repo" S="$TRASH/series" D="$TRASH/kmig.db"
k() { "$KMIG" --repo "$R" --db "$D" "$@"; }
one_patch_series "$R" "$S"
# one_line "desc" command... - exits 2 with exactly one line on stderr,
# nothing on stdout
one_line() {
	_ol_desc=$1; shift
	t_exit "$_ol_desc" 2 "$@"
	t_is "$_ol_desc: one line on stderr" 1 "$(wc -l < "$TRASH/.stderr")"
	t_is "$_ol_desc: nothing on stdout" "" "$(cat "$TRASH/.stdout")"
}

# a run that fails on its repository, tag or branch creates no database
N="$TRASH/none/kmig.db"
n() { "$KMIG" --repo "$R" --db "$N" branch test "$@"; }
one_line "branch test --base of a missing tag" n --base v9
t_is "... said so" "kmig: unknown revision 'v9'" "$(cat "$TRASH/.stderr")"
one_line "branch test --name of no branch" n --name nosuch
t_is "... said so" "kmig: no steps recorded for branch 'nosuch' (run 'kmig branch apply')" \
	"$(cat "$TRASH/.stderr")"
one_line "branch test --name ''" n --name ''
t_is "... said so" "kmig branch test: --name needs a branch name (see 'kmig help branch test')" \
	"$(cat "$TRASH/.stderr")"
one_line "branch test --base ''" n --base ''
# the last of them won: a skipped check ran (allmodconfig, minutes), or
# an asked one did not
for o in "--no-compile-check --compile-config x86_64" "--compile-config arm64 --no-compile-check"; do
	# shellcheck disable=SC2086
	one_line "branch test $o" n --name x $o
	t_is "... said so" \
		"kmig branch test: --no-compile-check and --compile-config exclude each other (see 'kmig help branch test')" \
		"$(cat "$TRASH/.stderr")"
done
one_line "branch test before any apply" n
t_is "... said so" "kmig: no branch applied yet: no database '$N' (run 'kmig branch apply')" \
	"$(cat "$TRASH/.stderr")"
one_line "branch test in a missing repository" \
	"$KMIG" --repo "$TRASH/nosuch" --db "$N" branch test --name x
t_ok "... the repository's error" grep -q "$TRASH/nosuch" "$TRASH/.stderr"
t_ok "... not a missing step" sh -c "! grep -q 'no steps' '$TRASH/.stderr'"
t_ok "no database made by any of them" test ! -e "$TRASH/none"

t_exit "fixture: branch apply" 0 env KMIG_NO_PROGRESS=1 "$KMIG" --repo "$R" --db "$D" \
	branch apply --base v1.0 --series "$S"

t_exit "branch test, KMIG_NO_PROGRESS=1: the step fails to build" 1 \
	env KMIG_NO_PROGRESS=1 KMIG_PROGRESS=1 "$KMIG" --repo "$R" --db "$D" \
	branch test --no-compile-check
t_ok "... its line" grep -q "^0001 build-fail   c2: " "$TRASH/.stdout"
t_is "... no progress line" "" "$(cat "$TRASH/.stderr")"
t_exit "branch test, stderr no terminal" 1 k branch test --no-compile-check
t_is "... no progress line" "" "$(cat "$TRASH/.stderr")"
t_ok "... the summary counts one step, singular" \
	grep -qx "kmig/v1.0: 1 step tested, 0 passed, 1 failed, 0 untested, 0 not applied" \
	"$TRASH/.stdout"
t_exit "branch test, KMIG_PROGRESS=1" 1 \
	env KMIG_PROGRESS=1 "$KMIG" --repo "$R" --db "$D" branch test --no-compile-check
t_ok "... the progress line" grep -q "^\[1/1\] testing 0001-c2.patch$" "$TRASH/.stderr"
one_line "branch test --base of a missing tag, a database there" k branch test --base v9
t_exit "branch test --base v1.0" 1 k branch test --base v1.0 --no-compile-check
t_ok "... its step" grep -q "^0001 build-fail   c2: " "$TRASH/.stdout"
# a branch applied on a commit id (any revision; one that is no tag needs
# --name, kmig/<id> would name nothing)
id=$(git -C "$R" rev-parse v1.0)
t_exit "branch test --base a commit id, no --name" 2 k branch test --base "$id" --no-compile-check
t_ok "... says to name the branch" grep -q "is not a tag: name the branch with --name" "$TRASH/.stderr"
t_exit "fixture: branch apply --base a commit id --name" 0 env KMIG_NO_PROGRESS=1 "$KMIG" \
	--repo "$R" --db "$D" branch apply --base "$id" --name t/byid --series "$S"
t_exit "branch test --name of that branch" 1 k branch test --name t/byid --no-compile-check
t_ok "... its step" grep -q "^0001 build-fail   c2: " "$TRASH/.stdout"
# one patch on one release: the matrix's counts are singular
t_ok "scan v1.0" k scan
t_exit "branch status --matrix" 0 k branch status --matrix
t_is "... one patch on one base" "1 patch on 1 base" "$(tail -n 1 "$TRASH/.stdout")"
t_exit "branch status" 0 k branch status
t_is "... one patch" "1 patch: 1 applied, 0 upstream, 0 superseded, 0 conflict" \
	"$(tail -n 1 "$TRASH/.stdout")"
t_done
