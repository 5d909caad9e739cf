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
git_commit_all "$W" one
git -C "$W" tag v1.0
git -C "$W" tag 'v1.1+<b>&"q'"'"

t_exit "scan" 0 k scan --tags 'v*'
# (find races sort's redirection: the listing leaves itself out)
find "$TRASH" -path "$TRASH/out" -prune -o -print | sort | grep -vxF "$TRASH/before" > "$TRASH/before"
t_exit "web" 0 k web -o "$SITE"
find "$TRASH" -path "$TRASH/out" -prune -o -print | sort | grep -v '/\.std\(out\|err\)$' | grep -v '/after$' | grep -vxF "$TRASH/before" > "$TRASH/after"
t_is "nothing written outside the output directory" "" \
	"$(grep -v '/\.std\(out\|err\)$' "$TRASH/before" | diff - "$TRASH/after" | grep '^[<>]' | grep -v "kmig.db-\(wal\|shm\)$")"
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
t_done
