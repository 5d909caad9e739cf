#!/bin/sh
# t0062-branch-test.sh - kmig branch test without a kernel build: a
# one-patch branch whose step fails to build at once (the fixture has no
# kernel tree).  Progress lines follow KMIG_NO_PROGRESS / KMIG_PROGRESS
# and a terminal, like every other command's.
. "$(dirname "$0")/../lib.sh"

R="$TRASH/repo" S="$TRASH/series" D="$TRASH/kmig.db"
k() { "$KMIG" --repo "$R" --db "$D" "$@"; }
git init -q "$R"
for i in 1 2; do
	echo "int f$i;" > "$R/f$i.c"
	git_commit_all "$R" "c$i"
done
git -C "$R" tag v1.0 HEAD~1
mkdir -p "$S"
git -C "$R" format-patch -1 --stdout HEAD > "$S/0001-c2.patch"
echo 0001-c2.patch > "$S/series"
git -C "$R" reset -q --hard v1.0
t_exit "fixture: branch apply" 0 env KMIG_NO_PROGRESS=1 "$KMIG" --repo "$R" --db "$D" \
	branch apply --base v1.0 --series "$S"

t_exit "branch test, KMIG_NO_PROGRESS=1: the step fails to build" 1 \
	env KMIG_NO_PROGRESS=1 KMIG_PROGRESS=1 "$KMIG" --repo "$R" --db "$D" \
	branch test --no-compile-check
t_ok "... its line" grep -q "^0001 build-fail   c2: " "$TRASH/.stdout"
t_is "... no progress line" "" "$(cat "$TRASH/.stderr")"
t_exit "branch test, stderr no terminal" 1 k branch test --no-compile-check
t_is "... no progress line" "" "$(cat "$TRASH/.stderr")"
t_exit "branch test, KMIG_PROGRESS=1" 1 \
	env KMIG_PROGRESS=1 "$KMIG" --repo "$R" --db "$D" branch test --no-compile-check
t_ok "... the progress line" grep -q "^\[1/1\] testing 0001-c2.patch$" "$TRASH/.stderr"
t_done
