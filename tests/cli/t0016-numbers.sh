#!/bin/sh
# Numbers that agree (issue 19): the trend per path across a MAINTAINERS
# change, read-only commands on the database, names checked, help.
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }

git init -q "$W"
mkdir -p "$W/lib" "$W/drivers"
cat > "$W/MAINTAINERS" <<'EOM'
Maintainers List
----------------

DRIVERS
F:	drivers/

THE REST
F:	*
F:	*/
EOM
printf 'void a(void)\n{\n\tBUG_ON(1);\n\tBUG_ON(2);\n\tstrcpy(x, y);\n}\n' > "$W/lib/a.c"
printf 'void b(void)\n{\n\tBUG_ON(3);\n}\n' > "$W/lib/b.c"
printf 'void d(void)\n{\n\tBUG_ON(4);\n\tstrcpy(p, q);\n}\n' > "$W/drivers/d.c"
printf 'void e(void)\n{\n\tBUG_ON(5);\n}\n' > "$W/drivers/e.c"
git_commit_all "$W" one && git -C "$W" tag v1.0

# v2.0: a new section takes lib/ (a.c unchanged, b.c gains a use), drivers/e.c
# moves to lib/e.c (its use is removed there and added here), d.c loses one
cat > "$W/MAINTAINERS" <<'EOM'
Maintainers List
----------------

DRIVERS
F:	drivers/

LIBRARY CODE
F:	lib/

THE REST
F:	*
F:	*/
EOM
printf 'void b(void)\n{\n\tBUG_ON(3);\n\tBUG_ON(6);\n}\n' > "$W/lib/b.c"
git -C "$W" mv drivers/e.c lib/e.c
printf 'void d(void)\n{\n\tstrcpy(p, q);\n}\n' > "$W/drivers/d.c"
git_commit_all "$W" two && git -C "$W" tag v2.0

t_exit "scan" 0 k scan

csv_row() { sed -n 3p "$TRASH/.stdout"; }
t_exit "trend of the new section" 0 k report --trend --subsystem "LIBRARY CODE" --rule bug-on --format csv
t_is "LIBRARY CODE bug-on: a.c moved in (not added); b.c's new use and the renamed e.c are added" \
	"v2.0,5,2,2,0,3" "$(csv_row)"
t_exit "trend of the section that lost lib/" 0 k report --trend --subsystem "THE REST" --rule bug-on --format csv
t_is "THE REST bug-on: nothing added or removed, the files moved out" \
	"v2.0,0,0,0,0,-3" "$(csv_row)"
t_exit "trend of DRIVERS" 0 k report --trend --subsystem DRIVERS --rule bug-on --format csv
t_is "DRIVERS bug-on: d.c lost one, e.c left (removed at its old path)" \
	"v2.0,0,-2,0,2,0" "$(csv_row)"

# delta = added - removed, and count - previous count = delta + moved, for
# every section and rule of either release
check_rows() {
	bad=0
	k report v1.0 --by subsystem --format csv | sed 1d > "$TRASH/rows"
	k report v2.0 --by subsystem --format csv | sed 1d >> "$TRASH/rows"
	cut -d, -f2 "$TRASH/rows" | sort -u > "$TRASH/subs"
	cut -d, -f3 "$TRASH/rows" | sort -u > "$TRASH/rules"
	while read -r sub; do
		while read -r rule; do
			k report --trend --subsystem "$sub" --rule "$rule" --format csv |
				sed 1d > "$TRASH/t"
			awk -F, -v s="$sub" -v r="$rule" 'NR > 1 {
				if ($3 != $4 - $5) { print s, r, "delta", $0; bad = 1 }
				if ($2 - prev != $3 + $6) { print s, r, "moved", $0; bad = 1 }
			} { prev = $2 } END { exit bad }' "$TRASH/t" || bad=1
		done < "$TRASH/rules"
	done < "$TRASH/subs"
	return $bad
}
t_ok "every section and rule: delta = added - removed" check_rows
by_section() {
	bad=0
	k report --trend --by subsystem --format csv | grep '^v2\.0,' > "$TRASH/bysec"
	while IFS=, read -r rel sub rule rest; do
		one=$(k report --trend --subsystem "$sub" --rule "$rule" --format csv | sed -n 3p | cut -d, -f2-)
		[ "$one" = "$rest" ] || { echo "$sub $rule: $one != $rest"; bad=1; }
	done < "$TRASH/bysec"
	return $bad
}
t_ok "--trend --by subsystem: each row as --subsystem --rule" by_section
t_is "--trend --by subsystem: rows of sections a MAINTAINERS change emptied" \
	"v2.0,THE REST,bug-on,0,0,0,0,-3" \
	"$(k report --trend --by subsystem --format csv | grep '^v2\.0,THE REST,bug-on')"
t_is "without a section nothing moves" "v2.0,7,0,2,2,0" \
	"$(k report --trend --format csv | sed -n 3p)"
t_ok "the text trend names the definitions" sh -c \
	"'$KMIG' --repo '$W' --db '$DB' report --trend | grep -q 'delta = added - removed'"

# JSON and CSV: one date form, --top by count, the delta the text shows
t_ok "report JSON: the date is ISO 8601 with its offset" sh -c \
	"'$KMIG' --repo '$W' --db '$DB' report --format json --by file |
	python3 -c 'import json, sys, datetime; d = json.load(sys.stdin)[\"date\"]; assert datetime.datetime.fromisoformat(d).utcoffset() is not None, d'"
t_is "--top 2 lists the 2 largest files, largest first (CSV)" "lib/a.c lib/b.c" \
	"$(k report --format csv --by file --top 2 | sed 1d | cut -d, -f2 | uniq | tr '\n' ' ' | sed 's/ $//')"
t_is "--top 2 lists the 2 largest files, largest first (JSON)" "lib/a.c lib/b.c" \
	"$(k report --format json --by file --top 2 | python3 -c 'import json, sys
seen = []
for r in json.load(sys.stdin)["counts"]:
    if r["path"] not in seen: seen.append(r["path"])
print(" ".join(seen))')"
# per file: the deltas of the CSV rows add up to the delta of the text
k report --by file --top 100 | awk '$1 ~ /^[0-9]+$/ && NF == 3 && $3 != "total" { print $3 "," $2 + 0 }' | sort > "$TRASH/text-delta"
k report --by file --format csv | sed 1d | awk -F, '{ d[$2] += $5 } END { for (f in d) print f "," d[f] }' | sort > "$TRASH/csv-delta"
t_ok "CSV --by file: per-file deltas as the text" cmp "$TRASH/text-delta" "$TRASH/csv-delta"
t_ok "a file gone since is a row of count 0 (CSV and text)" sh -c \
	"'$KMIG' --repo '$W' --db '$DB' report --by file --format csv | grep -q '^v2.0,drivers/e.c,[a-z-]*,0,-1$' &&
	 '$KMIG' --repo '$W' --db '$DB' report --by file | grep -q '^ *0 *-1  drivers/e.c$'"
t_is "--top 2: the rows and deltas of those files as without --top" \
	"$(k report --by file --format csv | grep -E '^v2\.0,lib/[ab]\.c,' | sort)" \
	"$(k report --by file --top 2 --format csv | sed 1d | sort)"
t_is "the files' deltas add up to the release's" \
	"$(k report --format csv | sed 1d | awk -F, '{ s += $5 } END { print s }')" \
	"$(k report --by file --format csv | sed 1d | awk -F, '{ s += $5 } END { print s }')"
k report --by subsystem --top 100 | awk '$1 ~ /^[0-9]+$/ && $NF != "total" { d = $2; $1 = $2 = ""; sub(/^ +/, ""); print $0 "," d + 0 }' | sort > "$TRASH/text-delta"
k report --by subsystem --format json | python3 -c 'import json, sys
d = {}
for r in json.load(sys.stdin)["counts"]:
    d[r["subsystem"]] = d.get(r["subsystem"], 0) + r["delta"]
for k in d: print("%s,%d" % (k, d[k]))' | sort > "$TRASH/json-delta"
t_ok "JSON --by subsystem: per-subsystem deltas as the text" cmp "$TRASH/text-delta" "$TRASH/json-delta"
t_ok "a rule a file lost is a row of count 0" sh -c \
	"'$KMIG' --repo '$W' --db '$DB' report --by file --format csv | grep -qx 'v2.0,drivers/d.c,bug-on,0,-1'"
t_ok "log JSON: dates ISO 8601 with the offset" sh -c \
	"'$KMIG' --repo '$W' --db '$DB' log --format json v1.0..v2.0 | grep -q '\"date\": \"[0-9-]*T[0-9:]*+00:00\"'"

# --trend with --by or --top
t_exit "--trend --by file is an error" 2 k report --trend --by file
t_exit "--trend --by rule is an error" 2 k report --trend --by rule
t_exit "--trend --top is an error" 2 k report --trend --top 3

# names
t_exit "report of a tag the repository lacks" 2 k report nosuch
t_ok "it says the tag does not exist" grep -q "tag 'nosuch' does not exist" "$TRASH/.stderr"
git -C "$W" tag v3.0
t_exit "report of a tag not scanned" 2 k report v3.0
t_ok "it says not scanned" grep -q "release 'v3.0' is not scanned" "$TRASH/.stderr"
t_exit "log --subsystem NO SUCH" 2 k log --subsystem "NO SUCH" v1.0..v2.0
t_ok "log names the section" grep -q "unknown subsystem 'NO SUCH'" "$TRASH/.stderr"
t_exit "log --subsystem of a known section" 0 k log --subsystem DRIVERS v1.0..v2.0
t_exit "convert --subsystem NO SUCH SECTION" 2 k convert strlcpy --base v2.0 --subsystem "NO SUCH SECTION"
t_ok "convert names the section" grep -q "unknown subsystem 'NO SUCH SECTION'" "$TRASH/.stderr"
t_exit "web --source-url with an unknown placeholder" 2 \
	k web -o "$TRASH/site" --source-url 'https://x/{tag}/{file}#L{line}'
t_ok "web names the placeholder" grep -q "unknown placeholder '{file}'" "$TRASH/.stderr"
t_ok "and writes nothing" test ! -e "$TRASH/site"

# log.html: one row per range and rule, never a sum across ranges
S() { python3 "$TOP/tests/web/site.py" "$@"; }
git -C "$W" tag v2.0-again v2.0
t_exit "log of a second range with the same commits" 0 k log v1.0..v2.0-again
t_exit "web" 0 k web -o "$TRASH/site"
t_is "log page: a row per range and rule" \
	"$(sqlite3 "$DB" "SELECT 2 * count(DISTINCT rule) FROM commit_changes")" \
	"$(S rows "$TRASH/site/log.html" log-ranges)"
t_is "log page: each range's bug-on removed as in the database, not doubled" \
	"$(sqlite3 "$DB" "SELECT sum(removed) FROM commit_changes WHERE rule = 'bug-on'")" \
	"$(S cell "$TRASH/site/log.html" log-ranges v1.0..v2.0-again 4 | tr -d -)"

# the subsystem pages: delta = added - removed, as the trend, and the moved count
delta_ok() {	# PAGE TABLE DELTA-COLUMN: every row's delta is added - removed
	python3 -c '
import re, subprocess, sys
page, table, col = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = subprocess.run([sys.executable, sys.argv[4], "column", page, table, "0"],
		      capture_output=True, text=True, check=True).stdout.splitlines()
bad = 0
for name in rows:
	c = [subprocess.run([sys.executable, sys.argv[4], "cell", page, table, name, str(col + k)],
			    capture_output=True, text=True, check=True).stdout.strip() for k in range(3)]
	d = int(c[0].split()[0])
	if d != int(c[1]) + int(c[2]):
		print(name, c); bad = 1
sys.exit(bad)' "$@" "$TOP/tests/web/site.py"
}
t_ok "subsystems page: every delta = added - removed" delta_ok "$TRASH/site/subsystems.html" subsystems 3
t_is "subsystems page: LIBRARY CODE's delta and moved, added, removed" "+2 (+4 moved) +2 0" \
	"$(for c in 3 4 5; do S cell "$TRASH/site/subsystems.html" subsystems "LIBRARY CODE" $c; done | tr '\n' ' ' | sed 's/ $//')"
t_is "subsystems page: THE REST lost its files, added and removed nothing" "0 (-4 moved)" \
	"$(S cell "$TRASH/site/subsystems.html" subsystems "THE REST" 3)"
t_ok "subsystems page: says what delta and moved mean" \
	grep -q "delta = added &minus; removed, over the files of the section now; moved:" "$TRASH/site/subsystems.html"
lib=$(grep -o 'href="sub-[^"]*library[^"]*"' "$TRASH/site/subsystems.html" | head -n 1 | cut -d'"' -f2)
t_is "LIBRARY CODE page: bug-on as the trend (delta 2, added 2, removed 0, moved +3)" "+2 (+3 moved) +2 0" \
	"$(for c in 3 4 5; do S cell "$TRASH/site/$lib" rules bug-on $c; done | tr '\n' ' ' | sed 's/ $//')"
t_ok "LIBRARY CODE page: the delta card is added - removed" grep -q "<b>+2</b>since the previous release (delta)" "$TRASH/site/$lib"
t_ok "LIBRARY CODE page: the moved card" grep -q "<b>+4</b>moved with files changing section" "$TRASH/site/$lib"
rel=$(grep -oh 'href="release-v2[^"]*\.html"' "$TRASH/site/"*.html | head -n 1 | cut -d'"' -f2)
t_is "release page: LIBRARY CODE's delta and moved" "+2 (+4 moved)" \
	"$(S cell "$TRASH/site/$rel" subsystems "LIBRARY CODE" 2)"
rm -rf "$TRASH/site"

# a repository owned by another user: git refuses it as of dubious ownership
if [ "$(id -u)" = 0 ]; then
	git init -q "$TRASH/theirs" && git -C "$TRASH/theirs" commit -q --allow-empty -m x &&
		chown -R 65534:65534 "$TRASH/theirs"
	t_exit "scan of a repository owned by another user" 2 \
		"$KMIG" --repo "$TRASH/theirs" --db "$TRASH/theirs.db" scan
	t_ok "it says dubious ownership, in one line" sh -c \
		"test \$(wc -l < '$TRASH/.stderr') = 1 && grep -q 'dubious ownership' '$TRASH/.stderr'"
	chown -R "$(id -u):$(id -g)" "$TRASH/theirs"
else
	t_skip "repository owned by another user" "needs root to chown"
fi

# read-only commands never create the database
NX="$TRASH/nonexist/dir/x.db"
t_exit "report on a missing database" 2 "$KMIG" --repo "$W" --db "$NX" report
t_is "one line" 1 "$(wc -l < "$TRASH/.stderr")"
t_exit "web on a missing database" 2 "$KMIG" --repo "$W" --db "$NX" web -o "$TRASH/s2"
t_exit "check without a database still works (1: a new use)" 1 "$KMIG" --repo "$W" --db "$NX" check v1.0..v2.0
t_ok "nothing was created" test ! -e "$TRASH/nonexist"
cp "$DB" "$TRASH/copy.db"
sum_before=$(cksum < "$TRASH/copy.db")
t_exit "report reads a database" 0 "$KMIG" --repo "$W" --db "$TRASH/copy.db" report --trend
t_is "report does not write it" "$sum_before" "$(cksum < "$TRASH/copy.db")"

# a directory the user cannot write: as root, run as nobody (setpriv)
RO="$TRASH/ro"
mkdir "$RO" && cp "$DB" "$RO/x.db" && chmod 644 "$RO/x.db" && chmod 555 "$RO"
chmod 755 "$TRASH"
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
else
	as_user() { "$@"; }
fi
if as_user sh -c "touch '$RO/probe'" 2> /dev/null; then
	t_skip "report in a read-only directory" "cannot make a directory unwritable here"
else
	t_exit "report in a read-only directory" 0 as_user "$KMIG" --repo "$W" --db "$RO/x.db" report
	t_exit "trend in a read-only directory" 0 as_user "$KMIG" --repo "$W" --db "$RO/x.db" report --trend
	t_is "no -wal or -shm left behind" "x.db" "$(ls "$RO")"
fi
chmod 755 "$RO"

# help
t_exit "kmig help help" 0 k help help
t_ok "it shows help's usage" grep -q '^usage: kmig help' "$TRASH/.stdout"
t_exit "branch test --help" 0 k branch test --help
for o in --keep-log --rebuild --accel; do
	t_ok "branch test --help shows $o" grep -q -- "$o" "$TRASH/.stdout"
done
t_exit "kmig help branch test" 0 k help branch test
t_ok "the same usage" grep -q -- "--keep-log" "$TRASH/.stdout"
t_done
