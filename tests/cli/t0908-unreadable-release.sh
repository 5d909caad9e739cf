#!/bin/sh
# t0908-unreadable-release.sh - a tag whose commit libgit2 cannot parse (a
# corrupt object: a timestamp out of range) is skipped with a warning
# naming it, and the other releases of the run are scanned and kept; the
# run ends with status 2 and one line saying how many were not scanned.
. "$(dirname "$0")/../lib.sh"

R="$TRASH/repo" D="$TRASH/kmig.db"
k() { "$KMIG" --repo "$R" --db "$D" "$@"; }
git init -q "$R"
printf 'void f(char *a, char *b) { strcpy(a, b); }\n' > "$R/a.c"
git_commit_all "$R" one && git -C "$R" tag v1.0
T=$(git -C "$R" write-tree)
P=$(git -C "$R" rev-parse HEAD)
C=$(printf 'tree %s\nparent %s\nauthor A <a@b> 99999999999999999999 +0000\ncommitter A <a@b> 99999999999999999999 +0000\n\nbad\n' \
	"$T" "$P" | git -C "$R" hash-object -t commit --literally -w --stdin)
git -C "$R" update-ref refs/tags/v1.1 "$C"
printf 'void g(char *a, char *b) { strcpy(a, b); }\n' > "$R/b.c"
git_commit_all "$R" two && git -C "$R" tag v1.2

t_exit "scan with an unreadable release" 2 k scan
t_ok "... a warning naming its tag" grep -q "^kmig: warning: v1.1: cannot read object $C .*: skipped\$" \
	"$TRASH/.stderr"
t_is "... and one error line last" "kmig: 1 of 3 releases not scanned: their commits cannot be read (see the warnings)" \
	"$(tail -n 1 "$TRASH/.stderr")"
t_exit "report" 0 k report --format csv --trend
t_is "... the other releases kept" "v1.0 v1.2" \
	"$(tail -n +2 "$TRASH/.stdout" | cut -d, -f1 | sort -u | tr '\n' ' ' | sed 's/ $//')"
t_exit "a second scan" 2 k scan
t_ok "... skips it again, the others up to date" grep -q "^v1.0: up to date" "$TRASH/.stdout"
t_done
