#!/bin/sh
# kmig log: per-commit added/removed uses over a range, oldest first,
# merges skipped, filters, CSV/JSON, and the rows in the database.
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }
rev() { git -C "$W" rev-parse "$1"; }
commit_at() {	# commit_at N MSG: commit everything with date N
	GIT_AUTHOR_DATE="@$1 +0000" GIT_COMMITTER_DATE="@$1 +0000" \
		git_commit_all "$W" "$2"
}

git init -q "$W"
mkdir -p "$W/net" "$W/drivers"
cat > "$W/MAINTAINERS" <<'EOF'
Maintainers List
----------------

NETWORKING
F:	net/

DRIVERS
F:	drivers/
EOF
cat > "$W/net/b.c" <<'EOF'
int net_init(int x)
{
	if (x < 0)
		return -1;
	return 0;
}

void net_copy(char *d, const char *s)
{
	d[0] = s[0];
}
EOF
cat > "$W/drivers/a.c" <<'EOF'
void copy_name(char *d, const char *s)
{
	strcpy(d, s);
}

int keep(void)
{
	return 0;
}
EOF
commit_at 1700000000 "base" && git -C "$W" tag c1

# c2: move copy_name() to another file; c3: rename it
printf 'int keep(void)\n{\n\treturn 0;\n}\n' > "$W/drivers/a.c"
printf '/* moved */\nvoid copy_name(char *d, const char *s)\n{\n    strcpy(d,  s);\n}\n' > "$W/drivers/c.c"
commit_at 1700000100 "move copy_name()" && git -C "$W" tag c2
git -C "$W" mv drivers/c.c drivers/d.c
commit_at 1700000200 "rename c.c" && git -C "$W" tag c3
# c4: +1 bug-on, +1 strcpy in net
sed -i 's/^\tif (x < 0)$/\tBUG_ON(x > 100);\n&/; s/^\td\[0\] = s\[0\];$/\tstrcpy(d, s);/' "$W/net/b.c"
commit_at 1700000300 "net: add a check, Ω" && git -C "$W" tag c4
# c5: -1 bug-on (net), -1 strcpy (drivers)
sed -i '/BUG_ON/d' "$W/net/b.c"
sed -i 's/strcpy(d,  s);/strscpy(d, s, 16);/' "$W/drivers/d.c"
commit_at 1700000400 "remove, \"quoted\"" && git -C "$W" tag c5
# c6: +2 strcpy, +1 kmap in drivers; -1 warn-on, in a new and an edited file
printf 'void legacy(char *d)\n{\n\tstrcpy(d, "a");\n\tstrcpy(d, "b");\n\tkmap(p);\n}\n' > "$W/drivers/legacy.c"
commit_at 1700000500 "drivers: legacy" && git -C "$W" tag c6
# a side branch (c8) merged with a merge commit (skipped)
git -C "$W" checkout -q -b side
printf 'void side(void)\n{\n\tBUG();\n}\n' > "$W/drivers/side.c"
commit_at 1700000600 "side: BUG()" && git -C "$W" tag c8
git -C "$W" checkout -q master
printf 'docs\n' > "$W/README"
commit_at 1700000700 "docs only" && git -C "$W" tag c7
GIT_AUTHOR_DATE="@1700000800 +0000" GIT_COMMITTER_DATE="@1700000800 +0000" \
	git -C "$W" merge -q --no-ff -m "merge side" side && git -C "$W" tag m9

t_exit "log c1..c6" 0 k log c1..c6
cat > "$TRASH/expect" <<EOF
$(rev c4 | cut -c1-12) 2023-11-14 Kmig Test  net: add a check, Ω
    bug-on                 +1      -0
    strcpy                 +1      -0
$(rev c5 | cut -c1-12) 2023-11-14 Kmig Test  remove, "quoted"
    bug-on                 +0      -1
    strcpy                 +0      -1
$(rev c6 | cut -c1-12) 2023-11-14 Kmig Test  drivers: legacy
    strcpy                 +2      -0
    kmap                   +1      -0
total c1..c6: 5 commits, 3 with changes
    bug-on                 +1      -1
    strcpy                 +3      -1
    kmap                   +1      -0
EOF
t_ok "text: exact per-commit numbers, oldest first, totals" diff -u "$TRASH/expect" "$TRASH/.stdout"

t_exit "log with merges" 0 k log --format csv c1..m9
cat > "$TRASH/expect" <<EOF
commit,date,author,email,subject,rule,added,removed
$(rev c4),2023-11-14T22:18:20+00:00,Kmig Test,test@kmig.invalid,"net: add a check, Ω",bug-on,1,0
$(rev c4),2023-11-14T22:18:20+00:00,Kmig Test,test@kmig.invalid,"net: add a check, Ω",strcpy,1,0
$(rev c5),2023-11-14T22:20:00+00:00,Kmig Test,test@kmig.invalid,"remove, ""quoted""",bug-on,0,1
$(rev c5),2023-11-14T22:20:00+00:00,Kmig Test,test@kmig.invalid,"remove, ""quoted""",strcpy,0,1
$(rev c6),2023-11-14T22:21:40+00:00,Kmig Test,test@kmig.invalid,drivers: legacy,strcpy,2,0
$(rev c6),2023-11-14T22:21:40+00:00,Kmig Test,test@kmig.invalid,drivers: legacy,kmap,1,0
EOF
head -n 7 "$TRASH/.stdout" > "$TRASH/actual"
t_ok "csv: rows and RFC 4180 quoting" diff -u "$TRASH/expect" "$TRASH/actual"
t_is "csv: the side commit once, the merge skipped" \
	"$(rev c8),2023-11-14T22:23:20+00:00,Kmig Test,test@kmig.invalid,side: BUG(),bug,1,0" \
	"$(tail -n +8 "$TRASH/.stdout")"

t_is "db: every non-merge commit recorded" "7" "$(sqlite3 "$DB" 'SELECT count(*) FROM commits')"
t_is "db: the merge is not recorded" "0" "$(sqlite3 "$DB" "SELECT count(*) FROM commits WHERE commit_id = '$(rev m9)'")"
t_is "db: commit row" "Kmig Test <test@kmig.invalid>|1700000300|net: add a check, Ω" \
	"$(sqlite3 "$DB" "SELECT author, date, subject FROM commits WHERE commit_id = '$(rev c4)'")"
t_is "db: changes per subsystem and rule" "$(rev c4)|NETWORKING|bug-on|1|0
$(rev c4)|NETWORKING|strcpy|1|0
$(rev c5)|DRIVERS|strcpy|0|1
$(rev c5)|NETWORKING|bug-on|0|1
$(rev c6)|DRIVERS|kmap|1|0
$(rev c6)|DRIVERS|strcpy|2|0
$(rev c8)|DRIVERS|bug|1|0" \
	"$(sqlite3 "$DB" 'SELECT commit_id, subsystem, rule, added, removed FROM commit_changes ORDER BY commit_id = '"'$(rev c8)'"', (SELECT date FROM commits c WHERE c.commit_id = commit_changes.commit_id), subsystem, rule')"

t_exit "filter --rule strcpy" 0 k log --rule strcpy c1..c6
t_is "--rule: totals" "total c1..c6: 5 commits, 3 with changes
    strcpy                 +3      -1" "$(tail -n 2 "$TRASH/.stdout")"
t_exit "filter --subsystem DRIVERS" 0 k log --subsystem DRIVERS --format csv c1..c6
t_is "--subsystem: only drivers rows" "strcpy,0,1
strcpy,2,0
kmap,1,0" "$(tail -n +2 "$TRASH/.stdout" | awk -F, '{print $(NF-2)","$(NF-1)","$NF}')"
t_exit "--all lists commits without changes" 0 k log --all c1..c3
t_is "--all: two commits, no rules" "2" "$(grep -c '^[0-9a-f]\{12\} ' "$TRASH/.stdout")"

t_exit "json" 0 k log --format json c1..c6
t_ok "json: totals" grep -q '{"rule": "strcpy", "added": 3, "removed": 1}' "$TRASH/.stdout"
t_ok "json: subsystems" grep -q '{"subsystem": "DRIVERS", "rule": "strcpy", "added": 2, "removed": 0}' "$TRASH/.stdout"
if command -v python3 > /dev/null; then
	t_ok "json parses" python3 -m json.tool "$TRASH/.stdout"
fi

# a commit's subsystems in subsystem and rule order, on the run that
# computes them as on the next, which reads them back (c6 adds strcpy on
# lines 3-4 before kmap on line 5)
"$KMIG" --repo "$W" --db "$TRASH/order.db" log --format json c5..c6 > "$TRASH/json1"
"$KMIG" --repo "$W" --db "$TRASH/order.db" log --format json c5..c6 > "$TRASH/json2"
t_ok "json: subsystems in order on the first run" grep -q \
	'"subsystems": \[{"subsystem": "DRIVERS", "rule": "kmap", "added": 1, "removed": 0}, {"subsystem": "DRIVERS", "rule": "strcpy"' \
	"$TRASH/json1"
t_ok "json: the same output when read back" cmp "$TRASH/json1" "$TRASH/json2"

# a second run reads the recorded commits back: same output, no lexing
k log c1..c6 > "$TRASH/first"
t_exit "second run" 0 k log c1..c6
t_ok "second run: same output" cmp "$TRASH/first" "$TRASH/.stdout"
# the commits are recorded under the release hash, which covers reach.c
# (log classifies WARNs with it) as well as the lexer: the hash a scan
# records as its releases' counted_by; and log's own version (cmd-log.c's
# LOG_VERSION), so a change of its attribution alone is recorded again
git -C "$W" tag v9.0 c6
t_exit "a scan, for its release hash" 0 "$KMIG" --repo "$W" --db "$TRASH/hash.db" scan --tags v9.0
t_is "commits recorded under the release hash and log's version" \
	"$(sqlite3 "$TRASH/hash.db" 'SELECT DISTINCT counted_by FROM releases').2" \
	"$(sqlite3 "$DB" 'SELECT DISTINCT ruleset FROM commits')"
git -C "$W" tag -d v9.0 > /dev/null

# a commit recorded again (its record is an older rule set's) stays in
# the ranges recorded before, which the dashboard sums
in_range() {
	sqlite3 "$DB" "SELECT count(*) FROM log_ranges r JOIN log_range_commits c
		ON c.range_id = r.id WHERE r.range = '$1'"
}
t_is "c1..c6 recorded with its 5 commits" 5 "$(in_range c1..c6)"
sqlite3 "$DB" "UPDATE commits SET ruleset = 'older' WHERE commit_id = '$(rev c6)'"
t_exit "log of a commit recorded under another rule set" 0 k log c5..c6
t_is "... recorded again under this one" 0 \
	"$(sqlite3 "$DB" "SELECT count(*) FROM commits WHERE ruleset = 'older'")"
t_is "... with its changes once" "DRIVERS|kmap|1|0
DRIVERS|strcpy|2|0" \
	"$(sqlite3 "$DB" "SELECT subsystem, rule, added, removed FROM commit_changes WHERE commit_id = '$(rev c6)' ORDER BY 1, 2")"
t_is "... and c1..c6 keeps its 5 commits" 5 "$(in_range c1..c6)"

# a section of the range's MAINTAINERS is known though the database has
# no use in it yet (a fresh database; c6 only touches drivers/)
t_exit "--subsystem of a quiet section" 0 \
	"$KMIG" --repo "$W" --db "$TRASH/fresh.db" log --subsystem NETWORKING c5..c6
t_is "... no change in it" "total c5..c6: 1 commit, 0 with changes" "$(cat "$TRASH/.stdout")"
t_exit "--subsystem that no MAINTAINERS has" 2 \
	"$KMIG" --repo "$W" --db "$TRASH/fresh.db" log --subsystem NETWORKIN c5..c6
t_is "... named" "kmig: unknown subsystem 'NETWORKIN'" "$(cat "$TRASH/.stderr")"
# a mistyped name: said before the range is lexed and recorded, and no
# database is created for it
t_exit "--subsystem mistyped, a new database" 2 \
	"$KMIG" --repo "$W" --db "$TRASH/typo.db" log --subsystem NETWORKIN c1..c6
t_is "... named" "kmig: unknown subsystem 'NETWORKIN'" "$(cat "$TRASH/.stderr")"
t_ok "... no database created" test ! -e "$TRASH/typo.db"
t_exit "--subsystem mistyped, the database" 2 \
	"$KMIG" --repo "$W" --db "$TRASH/fresh.db" log --subsystem NETWORKIN c1..c6
t_is "... nothing recorded of the range" "" \
	"$(sqlite3 "$TRASH/fresh.db" "SELECT range FROM log_ranges WHERE range = 'c1..c6'")"

# no call graph: a vla whose size a header defines counts, a WARN is
# warn-on-user by its function's name; the text says so
V="$TRASH/vla"
git init -q "$V" && mkdir -p "$V/include/linux" "$V/drivers"
printf '#define foo_len 16\n' > "$V/include/linux/foo.h"
printf '#include <linux/foo.h>\nint f(int n)\n{\n\treturn n;\n}\n' > "$V/drivers/a.c"
git_commit_all "$V" base && git -C "$V" tag v1
printf '#include <linux/foo.h>\nint f(int n)\n{\n\tchar buf[foo_len];\n\tchar vbuf[n];\n\treturn buf[0] + vbuf[0];\n}\nint a_ioctl(int n)\n{\n\tWARN_ON(n);\n\treturn 0;\n}\n' > "$V/drivers/a.c"
git_commit_all "$V" arrays && git -C "$V" tag v2
t_exit "log of a vla and a WARN" 0 "$KMIG" --repo "$V" --db "$TRASH/vla.db" log v1..v2
t_is "... notes how it counted them" "total v1..v2: 1 commit, 1 with changes
    warn-on-user           +1      -0
    vla                    +2      -0
note: warn-on-user by function name only (*_sendmsg, *_recvmsg, *_setsockopt, *_getsockopt, *_ioctl, *_store); kmig scan and 'kmig report' count it by the call graph
note: vla sizes judged by the changed files' own definitions only: a size the headers make constant counts here, not in kmig scan and 'kmig report'" \
	"$(sed -n '/^total/,$p' "$TRASH/.stdout")"
t_exit "... csv" 0 "$KMIG" --repo "$V" --db "$TRASH/vla.db" log --format csv v1..v2
t_ok "... has no note" sh -c "! grep -q note '$TRASH/.stdout'"

# a section only the middle of the range has (added after its start,
# renamed before its end), its commits' changes attributed to it: known
M="$TRASH/mid"
git init -q "$M"
mkdir -p "$M/net"
printf 'NETWORKING\nF:\tnet/\n' > "$M/MAINTAINERS"
printf 'int f(void)\n{\n\treturn 0;\n}\n' > "$M/net/a.c"
git_commit_all "$M" m1 && git -C "$M" tag m1
printf 'NET CORE\nF:\tnet/\n' > "$M/MAINTAINERS"
git_commit_all "$M" m2
printf 'void f(char *d)\n{\n\tstrcpy(d, "x");\n}\n' > "$M/net/a.c"
git_commit_all "$M" m3
printf 'NET STACK\nF:\tnet/\n' > "$M/MAINTAINERS"
git_commit_all "$M" m4 && git -C "$M" tag m4
t_exit "--subsystem of the range's middle only, a new database" 0 \
	"$KMIG" --repo "$M" --db "$TRASH/mid.db" log --subsystem "NET CORE" m1..m4
t_ok "... its commit's change" grep -q "strcpy *+1 *-0" "$TRASH/.stdout"
t_exit "... a name no commit of it has is still unknown" 2 \
	"$KMIG" --repo "$M" --db "$TRASH/mid2.db" log --subsystem "NET COR" m1..m4
t_ok "... and creates no database" test ! -e "$TRASH/mid2.db"

t_exit "bad revision" 2 k log c1..nosuch
t_is "bad revision: one line naming the side" "kmig: unknown revision 'nosuch' in 'c1..nosuch'" \
	"$(cat "$TRASH/.stderr")"
t_exit "not a range" 2 k log c4
t_ok "not a range: named" grep -q "'c4' is not a range A..B" "$TRASH/.stderr"
t_exit "no range" 2 k log
t_exit "unknown rule" 2 k log --rule nosuchrule c1..c6
t_is "unknown rule: one line, one hint" "kmig: --rule: unknown rule 'nosuchrule' (see 'kmig rules')" \
	"$(cat "$TRASH/.stderr")"
t_exit "unknown format" 2 k log --format xml c1..c6
t_exit "unwritable database" 2 "$KMIG" --repo "$W" --db /proc/nonexistent/kmig.db log c1..c6
t_exit "log --help" 0 "$KMIG" log --help
t_ok "help shows usage" grep -q '^usage: kmig log' "$TRASH/.stdout"

t_done
