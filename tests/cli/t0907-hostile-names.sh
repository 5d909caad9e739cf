#!/bin/sh
# Hostile names from a repository reach kmig web's dashboard escaped and
# as safe file names: MAINTAINERS titles with markup, path traversal,
# 4000 characters, names equal but for case or punctuation; file names
# and a tag name with markup and quotes.  Nothing is written outside the
# output directory.  (Regression test; t0008 covers escaping in depth.)
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
DB="$TRASH/kmig.db"
SITE="$TRASH/out/site"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }

LONG=$(python3 -c 'print("LONG " + "x" * 4000)')
git init -q "$W"
mkdir -p "$W/a" "$W/b" "$W/c" "$W/d" "$W/e" "$W/f" "$W/g/<svg onload=alert(7)>"
cat > "$W/MAINTAINERS" <<EOM
Maintainers List
----------------

../../../../../tmp/kmig-evil
F:	a/

A/B <img src=x onerror=alert(1)>
F:	b/

a/b <img src=x onerror=alert(1)>
F:	c/

$LONG
F:	d/

...
F:	e/

Ünïcödé ☃ & "quotes" 'single'
F:	f/

THE REST
F:	*
F:	*/
EOM
for d in a b c d e f; do
	printf 'void %s(void) { strcpy(x, y); }\n' "$d" > "$W/$d/$d.c"
done
printf 'void g(void) { BUG(); }\n' > "$W/g/<svg onload=alert(7)>/x \"q\" &amp;.c"
mkdir -p "$W/h"
# control bytes and a latin-1 byte (not UTF-8) in a file name
printf 'void h(void) { strcpy(x, y); }\n' > "$W/h/$(printf 'ctl\033[31m\001caf\351.c')"
git_commit_all "$W" one
git -C "$W" tag v1.0
git -C "$W" tag 'v1.1+<b>&"q'"'"

t_exit "scan" 0 k scan --tags 'v*'
# (find races sort's redirection: the listing leaves itself out)
find "$TRASH" -path "$TRASH/out" -prune -o -print | sort | grep -avxF "$TRASH/before" > "$TRASH/before"
t_exit "web" 0 k web -o "$SITE"
find "$TRASH" -path "$TRASH/out" -prune -o -print | sort | grep -av '/\.std\(out\|err\)$' | grep -av '/after$' | grep -avxF "$TRASH/before" > "$TRASH/after"
t_is "nothing written outside the output directory" "" \
	"$(grep -av '/\.std\(out\|err\)$' "$TRASH/before" | diff - "$TRASH/after" | grep -a '^[<>]' | grep -av "kmig.db-\(wal\|shm\)$")"
t_is "no /tmp/kmig-evil" "" "$(ls -d /tmp/kmig-evil* "$TRASH"/../kmig-evil* 2> /dev/null)"
t_is "page names are safe and short" "" \
	"$(ls -A "$SITE" | grep -v '^[a-z0-9][a-z0-9.-]*$' | grep -v '^\.kmig-web$'; ls -A "$SITE" | awk 'length($0) > 200')"
t_is "one page per subsystem: titles equal but for case do not collide" \
	"$(sqlite3 "$DB" 'SELECT COUNT(*) FROM subsystems') 7" "$(ls "$SITE" | grep -c '^sub-') 7"
t_is "no raw markup from the repository" "" \
	"$(grep -l '<img\|<svg onload\|<b>&' "$SITE"/*.html)"
t_ok "titles escaped" grep -qF 'A/B &lt;img src=x onerror=alert(1)&gt;' "$SITE/subsystems.html"
t_ok "traversal title shown as text" grep -qF '../../../../../tmp/kmig-evil' "$SITE/subsystems.html"
t_ok "unicode and quotes escaped" grep -qF '&amp; &quot;quotes&quot; &#39;single&#39;' "$SITE/subsystems.html"
t_ok "file name escaped" grep -qF 'g/&lt;svg onload=alert(7)&gt;/x &quot;q&quot; &amp;amp;.c' "$SITE"/*.html
t_ok "tag name escaped" grep -qF 'v1.1+&lt;b&gt;&amp;&quot;q&#39;' "$SITE/index.html"
t_is "no control byte or other encoding's byte in a page" "" \
	"$(LC_ALL=C grep -l "$(printf '[\001-\010\013\014\016-\037\177]')" "$SITE"/*.html; \
	   python3 -c 'import sys
for f in sys.argv[1:]:
	try:
		open(f, encoding="utf-8").read()
	except UnicodeDecodeError:
		print(f)' "$SITE"/*.html)"
t_ok "... they are U+FFFD there" grep -qF 'h/ctl&#xFFFD;[31m&#xFFFD;caf&#xFFFD;.c' "$SITE"/*.html
t_exit "report by file" 0 k report --by file v1.0
t_ok "... its text has no escape byte" sh -c "! LC_ALL=C grep -q \"\$(printf '\033')\" '$TRASH/.stdout'"
t_ok "... the name C-quoted, its control bytes in octal" grep -qF '"h/ctl\033[31m\001caf' "$TRASH/.stdout"
printf 'void i(void) { strcpy(x, y); }\n' > "$W/h/$(printf 'new\033]0;title\007.c')"
git_commit_all "$W" two
t_exit "check of a commit adding such a file" 1 k check HEAD
t_ok "... its text has no escape byte" sh -c "! LC_ALL=C grep -q \"\$(printf '\033')\" '$TRASH/.stdout'"
t_ok "... the name C-quoted" grep -qF '>> "h/new\033]0;title\a.c":1: strcpy' "$TRASH/.stdout"
t_exit "log of it" 0 k log HEAD~1..HEAD
t_ok "... no escape byte either" sh -c "! LC_ALL=C grep -q \"\$(printf '\033')\" '$TRASH/.stdout'"
t_done
