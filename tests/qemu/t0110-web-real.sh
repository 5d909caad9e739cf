#!/bin/sh
# kmig web on the real Debian kernel history (v6.1.192, v6.12.118): the
# site is written in well under a minute, its page count stays sane, the
# tables and use sites add up to the database, every link resolves, and
# the heaviest pages load in headless Chromium without errors.
. "$(dirname "$0")/../e2e-lib.sh"
S() { python3 "$TOP/tests/web/site.py" "$@"; }

DB="$TRASH/kmig.db"
SITE="$TRASH/site"
k() { "$KMIG" --repo "$E2E_REPO" --db "$DB" "$@"; }
q() { sqlite3 "$DB" "$@"; }

t_ok "default history is imported" e2e_ensure_history
# reuse the persistent database when it has both releases, else scan
if [ "$(sqlite3 "$E2E_HOME/kmig.db" "SELECT count(*) FROM releases WHERE tag IN ('$E2E_OLD', '$E2E_NEW')" 2>/dev/null)" = 2 ]; then
	sqlite3 "$E2E_HOME/kmig.db" ".backup '$DB'"
fi
t_exit "scan both releases" 0 k scan --tags "$E2E_OLD" --tags "$E2E_NEW"
# the index and subsystem pages show the newest scanned release: v6.12.118,
# or v7.3.4 when the reused database has the whole default history
NEWEST=$(q "SELECT tag FROM releases ORDER BY sort_key DESC LIMIT 1")

start=$(date +%s)
t_exit "write the site" 0 k web -o "$SITE"
secs=$(($(date +%s) - start))
t_ok "written in well under a minute (${secs}s)" test "$secs" -lt 45
pages=$(ls "$SITE"/*.html | wc -l)
t_ok "page count stays sane ($pages)" test "$pages" -lt 5000
# a section with uses in a release, or with changes (uses removed, or moved
# in with files) though it never had one: the sections of the trend
t_is "one page per subsystem with uses or changes" \
	"$(k report --trend --by subsystem --format csv | sed 1d | python3 -c 'import csv, sys; print(len({r[1] for r in csv.reader(sys.stdin)}))')" \
	"$(ls "$SITE"/sub-*.html | wc -l)"
t_is "index: one row per rule" 18 "$(S rows "$SITE/index.html" rules)"
k report "$NEWEST" --format csv --by rule | sed 1d | cut -d, -f3 > "$TRASH/expect"
S column "$SITE/index.html" rules 2 > "$TRASH/actual"
t_ok "index: counts are kmig report's" cmp "$TRASH/expect" "$TRASH/actual"
for tag in "$E2E_OLD" "$E2E_NEW"; do
	t_is "$tag: every use site listed" \
		"$(q "SELECT sum(count) FROM file_counts f JOIN releases r ON r.id = f.release_id WHERE r.tag = '$tag'")" \
		"$(S sites "$SITE" "files-v$(echo "${tag#v}" | tr . -)-")"
done
rds=$(grep -l '<h1>Subsystem RDS - RELIABLE DATAGRAM SOCKETS</h1>' "$SITE"/sub-*.html)
t_is "RDS page lists the net/rds files with uses" \
	"$(q "SELECT count(DISTINCT f.path) FROM file_counts f JOIN releases r ON r.id = f.release_id WHERE r.tag = '$NEWEST' AND f.path LIKE 'net/rds/%'")" \
	"$(S rows "$rds" files)"
t_is "every link and anchor resolves" "" "$(S links "$SITE")"
t_is "no external URL" "" "$(S external "$SITE")"

if command -v chromium > /dev/null 2>&1; then
	heavy=$(cd "$SITE" && ls -S files-*.html | head -n 1)
	rule=$(cd "$SITE" && ls rule-warn-on-[0-9a-f]*.html)
	rel=$(cd "$SITE" && ls release-*.html | tail -n 1)
	t_ok "chromium loads the heaviest pages" sh -c 'cd "$1" && timeout 300 python3 "$2/tests/web/browse.py" "$1" index.html subsystems.html "$3" "$4" "$5" branch.html log.html > "$6/pages.jsonl"' \
		sh "$SITE" "$TOP" "$heavy" "$rule" "$rel" "$TRASH"
	t_is "no page error or failed request" "" "$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    p = json.loads(l)
    for e in p["errors"] + p["failed"]:
        print(p["page"], e)
    if p["probe"].get("js") != "ready":
        print(p["page"], "sort.js did not run")
' "$TRASH/pages.jsonl")"
else
	t_skip "chromium is not installed (make deps installs it)"
fi
t_done
