#!/bin/sh
# Precision of 'kmig log' and 'kmig report --trend' for a maintainer:
# which section a change is attributed to, and what counts as added or
# removed, on commits and releases made for each case.
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }

git init -q "$W"
mkdir -p "$W/drv/old" "$W/net"
cat > "$W/MAINTAINERS" <<'EOF'
Maintainers List
----------------

OLD DRIVER
F:	drv/old/

NETWORKING
F:	net/

THE REST
F:	*
F:	*/
EOF
printf 'void f(char *a, char *b)\n{\n\tBUG_ON(!a);\n\tstrcpy(a, b);\n}\n' > "$W/drv/old/a.c"
printf 'void g(char *a, char *b)\n{\n\tstrcpy(a, b);\n}\n' > "$W/net/n.c"
git_commit_all "$W" base && git -C "$W" tag v1.0

# a driver removed with its MAINTAINERS section, as the kernel removes one
git -C "$W" rm -q -r drv/old
sed -i '/^OLD DRIVER$/,/^$/d' "$W/MAINTAINERS"
git_commit_all "$W" "drv: remove the old driver" && git -C "$W" tag v1.1

t_exit "log of the removal" 0 k log --format csv v1.0..v1.1
t_ok "... the removed uses are the driver's section's (its parent's MAINTAINERS), not THE REST" \
	test "$(sqlite3 "$DB" 'SELECT subsystem, rule, added, removed FROM commit_changes ORDER BY rule')" = \
"OLD DRIVER|bug-on|0|1
OLD DRIVER|strcpy|0|1"
t_exit "log --subsystem of the removed section" 0 k log --subsystem 'OLD DRIVER' v1.0..v1.1
t_is "... shows the removal" "total v1.0..v1.1: 1 commit, 1 with changes
    bug-on                 +0      -1
    strcpy                 +0      -1" "$(tail -n 3 "$TRASH/.stdout")"
t_exit "scan" 0 k scan
t_exit "trend by section" 0 k report --trend --by subsystem --format csv
t_is "... agrees: the section the file had" "release,subsystem,rule,count,delta,added,removed,moved
v1.0,NETWORKING,strcpy,1,,,,
v1.0,OLD DRIVER,bug-on,1,,,,
v1.0,OLD DRIVER,strcpy,1,,,,
v1.1,NETWORKING,strcpy,1,0,0,0,0
v1.1,OLD DRIVER,bug-on,0,-1,0,1,0
v1.1,OLD DRIVER,strcpy,0,-1,0,1,0" "$(cat "$TRASH/.stdout")"

# a merge whose resolution adds a use: log attributes commits against
# their first parent and skips merges, so it says so, and check counts it
git -C "$W" checkout -q -b side v1.1
printf 'void s(void) { }\n' > "$W/net/s.c"
git_commit_all "$W" "net: side"
git -C "$W" checkout -q master
printf 'void m(void) { }\n' > "$W/net/m.c"
git_commit_all "$W" "net: main"
git -C "$W" merge -q --no-commit side > /dev/null
printf 'void s(char *a, char *b) { strcpy(a, b); }\n' > "$W/net/s.c"
git -C "$W" add -A && git -C "$W" commit -q -m "Merge branch 'side'"
git -C "$W" tag v1.2
t_exit "log of a range with a merge" 0 k log v1.1..v1.2
t_is "... the merge is no commit of its list, and the note says why" \
	"total v1.1..v1.2: 2 commits, 0 with changes
note: 1 merge commit not attributed: a use a merge's resolution adds or removes counts in 'kmig check v1.1..v1.2', not here" \
	"$(tail -n 2 "$TRASH/.stdout")"
t_exit "check of the same range" 1 k check v1.1..v1.2
t_ok "... counts the merge's strcpy" grep -q '^1 new deprecated use' "$TRASH/.stdout"
t_exit "log of a range without a merge" 0 k log v1.0..v1.1
t_ok "... has no such note" sh -c "! grep -q 'merge commit' '$TRASH/.stdout'"

t_done
