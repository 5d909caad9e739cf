#!/bin/sh
# kmig web, found in review: the files at the top of the tree are one
# directory of the drill-down even where a directory sorts between them,
# a log that is gone does not put its machine path into the site, and a
# C1 control character (U+0080 to U+009F) is written as U+FFFD, as a
# control byte is; a long evidence's summary is not cut inside a character.
. "$(dirname "$0")/../lib.sh"
S() { python3 "$TOP/tests/web/site.py" "$@"; }

# a.c < a/x.c < b.c in path order: the top-level files are not adjacent
W="$TRASH/top"
DB="$TRASH/top.db"
git init -q "$W"
mkdir -p "$W/a"
for f in a.c a/x.c b.c; do
	printf 'void f(void)\n{\n\tstrcpy(a, b);\n}\n' > "$W/$f"
done
git_commit_all "$W" one && git -C "$W" tag v1.0
t_exit "scan of top-level files around a directory" 0 "$KMIG" --repo "$W" --db "$DB" scan
t_exit "its web" 0 "$KMIG" --db "$DB" web -o "$TRASH/topsite"
rel=$(ls "$TRASH"/topsite/release-v1-0-*.html)
t_is "release page: one row per top directory" "(top level)|a/" \
	"$(S column "$rel" dirs 0 | paste -sd'|')"
t_is "... with the files and uses of each" "2 2|1 1" \
	"$(paste -d' ' "$(S column "$rel" dirs 1 > "$TRASH/c1"; echo "$TRASH/c1")" \
		"$(S column "$rel" dirs 2 > "$TRASH/c2"; echo "$TRASH/c2")" | paste -sd'|')"
t_is "one drill-down page per top directory" 2 "$(ls "$TRASH"/topsite/files-v1-0-*.html | wc -l)"
t_is "no page is a part of a directory's" "" \
	"$(grep -l '(part [0-9]* of' "$TRASH"/topsite/files-*.html)"
top=$(grep -l '<h1>v1.0: (top level)</h1>' "$TRASH"/topsite/files-v1-0-*.html)
t_is "the top-level page lists both files" "a.c|b.c" \
	"$(S column "${top:-/dev/null}" files 0 | paste -sd'|')"
t_is "every use site listed once" 3 \
	"$(S sites "$TRASH/topsite" "$(basename "$(ls "$TRASH"/topsite/files-v1-0-*-1.html)" | sed 's/-1\.html$//')")"
t_is "every link and anchor resolves" "" "$(S links "$TRASH/topsite")"
t_exit "with one use site a page" 0 "$KMIG" --db "$DB" web -o "$TRASH/topsite1" --sites-per-page 1
t_is "... three pages, two of the top level" "3 2" \
	"$(ls "$TRASH"/topsite1/files-v1-0-*.html | wc -l) $(grep -l '(top level) (part [12] of 2)' "$TRASH"/topsite1/files-*.html | wc -l)"
t_is "... every use site listed once" 3 \
	"$(S sites "$TRASH/topsite1" "$(basename "$(ls "$TRASH"/topsite1/files-v1-0-*-1.html)" | sed 's/-1\.html$//')")"
t_is "... every link and anchor resolves" "" "$(S links "$TRASH/topsite1")"

# a build and a boot whose logs are gone: "not available", no path
GONE="$TRASH/gone-logs"
commit=$(git -C "$W" rev-parse v1.0)
sqlite3 "$DB" "INSERT INTO builds VALUES (1, '$commit', 'cfg1', 'ok', 1.5, '$GONE/build.log', 10);
	INSERT INTO boots VALUES (1, 1, 'boot', 'pass', 2.5, NULL, '$GONE/console.log', 11, 1, 'KMIG-TEST boot PASS up');
	INSERT INTO base_boots VALUES ('v1.0', '0001.0000', '$commit', 1, 1, 12);"
t_exit "web with logs that are gone" 0 "$KMIG" --db "$DB" web -o "$TRASH/logsite"
t_is "... each said to be not available" 4 \
	"$(grep -o 'not available' "$TRASH/logsite/branch.html" | wc -l)"
t_is "... no machine path in the site" "" "$(grep -rl "$GONE" "$TRASH/logsite")"

# a step's evidence over 100 bytes: its summary, its first 100 bytes,
# ends before a character they would cut (a, then two-byte characters)
EV="a$(python3 -c 'print("\u00e9" * 60)')"
sqlite3 "$DB" "INSERT INTO branch_steps VALUES ('kmig/x', 'v1.0', 1, '0001-x.patch', 'x', 'conflict', NULL, '$EV', NULL, 1)"
t_exit "web with a long evidence" 0 "$KMIG" --db "$DB" web -o "$TRASH/evsite"
t_is "... its summary: whole characters" \
	"<summary>a$(python3 -c 'print("\u00e9" * 49)')&hellip;</summary>" \
	"$(grep -o '<summary>a[^<]*</summary>' "$TRASH/evsite/branch.html")"

# C1 controls (CSI U+009B, NEL U+0085) in a section, a path and a source
# line: control characters, which HTML does not allow in its text
C="$TRASH/ctl"
C1=$(printf '\302\233')
git init -q "$C"
mkdir -p "$C/d"
printf 'C1 %s2J SECTION\nF:\td/\n' "$C1" > "$C/MAINTAINERS"
printf 'void f(void)\n{\n\tstrcpy(a, "%s2J\302\205");\n}\n' "$C1" > "$C/d/x${C1}y.c"
git_commit_all "$C" one && git -C "$C" tag v1.0
t_exit "scan of names and a line with C1 controls" 0 "$KMIG" --repo "$C" --db "$TRASH/c1.db" scan
t_exit "its web" 0 "$KMIG" --db "$TRASH/c1.db" web -o "$TRASH/c1site"
t_is "... no C1 control in any page" "" \
	"$(LC_ALL=C grep -l "$(printf '\302[\200-\237]')" "$TRASH"/c1site/*.html)"
t_ok "... the section name with U+FFFD" \
	grep -qF '<h1>Subsystem C1 &#xFFFD;&#xFFFD;2J SECTION</h1>' "$TRASH"/c1site/sub-*.html
t_ok "... the source line with U+FFFD" \
	grep -qF '<td class="src">strcpy(a, &quot;&#xFFFD;&#xFFFD;2J&#xFFFD;&#xFFFD;&quot;);</td>' \
	"$TRASH"/c1site/files-*.html

t_done
