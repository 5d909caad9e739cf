#!/bin/sh
# kmig web in a real browser: Debian's headless Chromium (installed by
# 'make deps') loads every page of the fixture site from file:// through the
# DevTools protocol (tests/web/browse.py): no page errors, no failed
# requests, nothing outside the site requested, sort.js ran, the payloads
# in a section title and a file name did not execute and show as text,
# the index chart has one point per scanned release and the tables have
# as many rows as the database.  Screenshots of the index (light and dark)
# are written to $KMIG_TEST_OUT/t0009 (default build/test-output/t0009).
. "$(dirname "$0")/../lib.sh"
if ! command -v chromium > /dev/null 2>&1; then
	t_skip "chromium is not installed (make deps installs it)"
	t_done
fi
. "$TOP/tests/web/fixture.sh"
q() { sqlite3 "$DB" "$@"; }
OUT=${KMIG_TEST_OUT:-$TOP/build/test-output}/t0009
SITE="$TRASH/site"
mkdir -p "$OUT"
rm -f "$OUT/index.png" "$OUT/index-dark.png"

# some data in every table, as the other commands record it
k log v1.9..v1.11 > /dev/null
echo 'build log' > "$TRASH/build.log"
t_ok "rows in every table" q "INSERT INTO branch_steps VALUES ('kmig/strcpy', 'v1.11', 1, '0001-x.patch', 'x: use strscpy <y>', 'applied', '$(git -C "$W" rev-parse v1.11)', 'applied cleanly', 'pass', 1);
   INSERT INTO builds VALUES (1, '$(git -C "$W" rev-parse v1.11)', 'cfg', 'ok', 1.5, '$TRASH/build.log', 10);
   INSERT INTO boots VALUES (1, 1, 'rds', 'pass', 2.5, NULL, NULL, 12, 1, NULL);
   INSERT INTO bisects(id, good, bad, tests, status, created_at)
	VALUES (1, 'v1.9', 'v1.11', 'rds', 'ambiguous', 13);"
t_exit "write the site" 0 k web -o "$SITE"

# sort the index's rules by uses (one click: descending), read the first row
SORT_JS='(() => {
  document.querySelectorAll("#rules thead th button")[2].click();
  const r = document.querySelector("#rules tbody tr");
  return r.cells[0].textContent + " " + r.cells[2].textContent + " " +
    document.querySelectorAll("#rules thead th")[2].getAttribute("aria-sort");
})()'
# a broken page outside the site proves the harness sees what it checks for
mkdir -p "$TRASH/bad"
cat > "$TRASH/bad/bad.html" <<'EOF'
<!DOCTYPE html><html><head><script src="missing.js"></script></head>
<body><script>throw new Error("boom")</script><p>bad</p></body></html>
EOF
pages="$(cd "$SITE" && ls *.html | grep -v '^index.html$') ../bad/bad.html"
# shellcheck disable=SC2086
t_ok "chromium loads every page" sh -c 'timeout 600 python3 "$1/tests/web/browse.py" --screenshot "$2/index.png" --dark-screenshot "$2/index-dark.png" --eval "$3" "$4" index.html $5 > "$6/pages.jsonl"' \
	sh "$TOP" "$OUT" "$SORT_JS" "$SITE" "$pages" "$TRASH"

check() {
	python3 - "$TRASH/pages.jsonl" "$SITE" "$@" <<'EOF'
import json, sys
pages = [json.loads(l) for l in open(sys.argv[1])]
site, what = sys.argv[2], sys.argv[3]
by = {p["page"]: p for p in pages}
bad = []
if what == "count":
    print(len(pages) - 1)
elif what == "harness":
    bad = by["../bad/bad.html"]
    print(int(any("boom" in e for e in bad["errors"])), len(bad["failed"]))
elif what == "clean":
    for p in pages:
        if p["page"] == "../bad/bad.html":
            continue
        for e in p["errors"] + p["failed"]:
            bad.append("%s: %s" % (p["page"], e))
        for u in p["requests"]:
            if not u.startswith("file://" + site + "/"):
                bad.append("%s: requested %s" % (p["page"], u))
        pr = p["probe"]
        if pr.get("js") != "ready" or pr.get("js_errors"):
            bad.append("%s: sort.js did not run cleanly: %r" % (p["page"], pr.get("js_errors")))
        if pr.get("css") != "1":
            bad.append("%s: style.css not applied" % p["page"])
    print("\n".join(bad))
elif what == "pwned":
    print(" ".join("%s:%s" % (p["page"], p["probe"].get("pwned")) for p in pages if p["probe"].get("pwned")))
elif what == "text":
    page = next(p for p in pages if p["page"].startswith(sys.argv[4]))
    print(int(sys.argv[5] in page["probe"]["text"]))
elif what == "chart":
    print(" ".join(map(str, sorted(set(by[sys.argv[4]]["probe"]["charts"][sys.argv[5]])))))
elif what == "series":
    print(len(by[sys.argv[4]]["probe"]["charts"][sys.argv[5]]))
elif what == "rows":
    page = next(p for p in pages if p["page"].startswith(sys.argv[4]))
    print(page["probe"]["rows"].get(sys.argv[5], 0))
elif what == "sites":
    print(sum(p["probe"]["site_rows"] for p in pages if p["page"].startswith(sys.argv[4])))
elif what == "eval":
    print(pages[0].get("eval"))
EOF
}
nrel=$(q "SELECT count(*) FROM releases")
t_is "the harness sees a page error and a failed request" "1 1" "$(check harness)"
t_is "every page visited" "$(ls "$SITE"/*.html | wc -l)" "$(check count)"
t_is "no page error, failed request or outside request; sort.js and style.css ran" "" "$(check clean)"
t_is "nothing executed from the repository's names" "" "$(check pwned)"
t_is "the section title shows as text" 1 \
	"$(check text subsystems.html "$EVIL_SECTION")"
t_is "the file name shows as text" 1 "$(check text files-v1-11 "$EVIL_FILE")"
t_is "index chart: one point per scanned release" "$nrel" "$(check chart index.html chart-rules)"
t_is "index chart: one line per rule" "$(k rules --format json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["rules"]))')" \
	"$(check series index.html chart-rules)"
t_is "rule page chart: one point per scanned release" "$nrel" \
	"$(check chart "$(cd "$SITE" && ls rule-strcpy-*.html)" chart-rule)"
t_is "index: release rows as in the database" "$nrel" "$(check rows index.html releases)"
t_is "subsystems: rows as in the database" "$(q "SELECT count(DISTINCT subsystem_id) FROM counts")" \
	"$(check rows subsystems.html subsystems)"
t_is "release v1.11: subsystem rows as in the database" \
	"$(q "SELECT count(*) FROM (SELECT DISTINCT subsystem_id FROM counts c JOIN releases r ON r.id = c.release_id WHERE r.tag = 'v1.11')")" \
	"$(check rows release-v1-11 subsystems)"
t_is "release v1.11: use sites as in the database" \
	"$(q "SELECT sum(count) FROM file_counts f JOIN releases r ON r.id = f.release_id WHERE r.tag = 'v1.11'")" \
	"$(check sites files-v1-11)"
t_is "branch page: rows as in the database" "1 1 1" \
	"$(echo $(check rows branch.html steps-1) $(check rows branch.html builds) $(check rows branch.html boots))"
t_is "log page: rows as in the database" "$(q "SELECT count(*) FROM commits")" "$(check rows log.html commits)"
t_is "clicking a header sorts the table" "strcpy 4 descending" "$(check eval)"
t_ok "screenshot of the index written" sh -c "test -s '$OUT/index.png' && test \"\$(head -c 8 '$OUT/index.png' | od -An -c | tr -d ' ')\" = '211PNG\\r\\n032\\n'"
t_ok "dark screenshot written" test -s "$OUT/index-dark.png"
t_done
