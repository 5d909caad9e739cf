#!/bin/sh
# kmig web, found in review: a log that is gone does not put its machine
# path into the site.
. "$(dirname "$0")/../lib.sh"
S() { python3 "$TOP/tests/web/site.py" "$@"; }

W="$TRASH/top"
DB="$TRASH/top.db"
git init -q "$W"
mkdir -p "$W/a"
for f in a.c a/x.c b.c; do
	printf 'void f(void)\n{\n\tstrcpy(a, b);\n}\n' > "$W/$f"
done
git_commit_all "$W" one && git -C "$W" tag v1.0
t_exit "scan" 0 "$KMIG" --repo "$W" --db "$DB" scan

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

t_done
