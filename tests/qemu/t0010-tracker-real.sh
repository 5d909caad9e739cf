#!/bin/sh
# The tracker on the real Debian kernel history (the five default lines,
# v5.10.262 to v7.3.4):
# subsystem mapping, recorded totals per rule, consistency of the counts.
. "$(dirname "$0")/../e2e-lib.sh"

DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$E2E_REPO" --db "$DB" "$@"; }

t_ok "default history is imported" e2e_ensure_history
tags=
for tag in $E2E_HISTORY; do tags="$tags --tags $tag"; done
# shellcheck disable=SC2086
t_exit "scan the five releases" 0 k scan $tags
t_ok "v6.1.192 was lexed" grep -q "^$E2E_OLD: [0-9]* files, [0-9]* blobs lexed" "$TRASH/.stdout"

t_is "net/rds/* files map to the RDS section" "RDS - RELIABLE DATAGRAM SOCKETS" \
	"$(sqlite3 "$DB" "SELECT DISTINCT s.name FROM release_files rf
		JOIN releases r ON r.id = rf.release_id JOIN subsystems s ON s.id = rf.subsystem_id
		WHERE r.tag = '$E2E_OLD' AND rf.path LIKE 'net/rds/%'")"
t_is "every net/rds file of v6.1.192 is in scope" \
	"$(git -C "$E2E_REPO" ls-tree -r --name-only "$E2E_OLD" net/rds | grep -c '\.[ch]$')" \
	"$(sqlite3 "$DB" "SELECT count(*) FROM release_files rf JOIN releases r ON r.id = rf.release_id
		WHERE r.tag = '$E2E_OLD' AND rf.path LIKE 'net/rds/%'")"

for tag in $E2E_HISTORY; do
	k report "$tag" --by rule --format csv > "$TRASH/rules-$tag.csv"
	t_ok "$tag totals per rule as recorded" \
		cmp "$TOP/tests/qemu/expected-$tag-rules.csv" "$TRASH/rules-$tag.csv"
done
cp "$TRASH/rules-$E2E_NEW.csv" "$TRASH/rules-next.csv"

# each release's own deprecated.rst and include/ (relinfo): kmalloc_obj
# (section and macro) arrive with v6.12.118 of the five; kmap_local_page
# is not in v5.10.262
k rules > "$TRASH/rules.txt"
t_ok "alloc-obj documented and replaced since v6.12.118" \
	sh -c "grep -A5 '^alloc-obj ' '$TRASH/rules.txt' | grep -q 'documented since: v6.12.118; replacement since: v6.12.118'"
t_ok "kmap_local_page since v6.1.192" \
	sh -c "grep -A5 '^kmap ' '$TRASH/rules.txt' | grep -q 'replacement since: v6.1.192'"
t_ok "strcpy documented since the first" \
	sh -c "grep -A5 '^strcpy ' '$TRASH/rules.txt' | grep -q 'documented since: v5.10.262; replacement since: v5.10.262'"
# a new driver allocating a struct object (also the demo's example)
cp "$TOP/doc/examples/new-driver-kzalloc.patch" "$TRASH/obj.patch"
t_exit "a new kzalloc(sizeof(*p)) on v6.1.192 passes" 0 k check --patch "$TRASH/obj.patch" --base v6.1.192
t_ok "... listed as not deprecated there" grep -q '^info: drivers/misc/kmig-obj.c:6: alloc-obj' "$TRASH/.stdout"
t_exit "... and fails on v7.3.4" 1 k check --patch "$TRASH/obj.patch" --base v7.3.4
t_is "the trend is in version order" "$(echo $E2E_HISTORY | tr ' ' '\n')" \
	"$(k report --trend --format csv | sed '1d; s/,.*//')"

t_is "subsystem rows add up to the release total" \
	"$(k report "$E2E_OLD" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')" \
	"$(k report "$E2E_OLD" --format csv --by subsystem | python3 -c 'import csv,sys; print(sum(int(r["count"]) for r in csv.DictReader(sys.stdin)))')"
t_is "file rows add up to the release total" \
	"$(k report "$E2E_OLD" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')" \
	"$(k report "$E2E_OLD" --format csv --by file | python3 -c 'import csv,sys; print(sum(int(r["count"]) for r in csv.DictReader(sys.stdin)))')"
t_is "strlcpy is gone upstream by v6.12 (counted as 0)" 0 \
	"$(awk -F, '$2 == "strlcpy" {print $3}' "$TRASH/rules-next.csv")"

# the trend per section: uses are compared per path and counted in the
# section a file is in now, so delta = added - removed for every section
# and rule, and the count moved by a MAINTAINERS change is apart
k report --trend --by subsystem --format csv > "$TRASH/trend.csv"
t_ok "trend by section has rows of $E2E_NEW" grep -q "^$E2E_NEW," "$TRASH/trend.csv"
t_ok "every section and rule: delta = added - removed, count - previous = delta + moved" \
	python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
prev = {(r["subsystem"], r["rule"]): int(r["count"]) for r in rows if r["release"] == sys.argv[2]}
bad = 0
for r in rows:
    if r["release"] != sys.argv[3]:
        continue
    c, d, a, m, mv = (int(r[k]) for k in ("count", "delta", "added", "removed", "moved"))
    if d != a - m or c - prev.get((r["subsystem"], r["rule"]), 0) != d + mv:
        print(r); bad = 1
sys.exit(bad)' "$TRASH/trend.csv" "$E2E_OLD" "$E2E_NEW"
t_is "sections add up to the trend total (count, delta, added, removed; nothing moved)" \
	"$(k report --trend --format csv | grep "^$E2E_NEW," | cut -d, -f2-6)" \
	"$(awk -F, -v t="$E2E_NEW" '$1 == t { c += $(NF-4); d += $(NF-3); a += $(NF-2); r += $(NF-1); m += $NF }
		END { print c "," d "," a "," r "," m }' "$TRASH/trend.csv")"
for sub in "LIBRARY CODE" "THE REST"; do
	t_is "$sub bug-on: --subsystem --rule as the row by section" \
		"$(k report --trend --subsystem "$sub" --rule bug-on --format csv | grep "^$E2E_NEW," | cut -d, -f2-)" \
		"$(grep "^$E2E_NEW,$sub,bug-on," "$TRASH/trend.csv" | cut -d, -f4-)"
done
t_is "lib/assoc_array.c's BUG_ON moved into LIBRARY CODE, not added" 0 \
	"$(k report --trend --subsystem "LIBRARY CODE" --rule bug-on --format csv | grep "^$E2E_NEW," |
		awk -F, '{ print ($6 >= 30) ? 0 : 1 }')"

# shellcheck disable=SC2086
t_exit "rescan" 0 k scan $tags
t_is "rescan lexes nothing" "$(for tag in $E2E_HISTORY; do echo "$tag: up to date"; done)" \
	"$(cat "$TRASH/.stdout")"
t_done
