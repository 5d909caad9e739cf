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
t_ok "v6.1.192 was lexed" grep -q "^$E2E_BASE: [0-9]* files, [0-9]* blobs lexed" "$TRASH/.stdout"

t_is "net/rds/* files map to the RDS section" "RDS - RELIABLE DATAGRAM SOCKETS" \
	"$(sqlite3 "$DB" "SELECT DISTINCT s.name FROM release_files rf
		JOIN releases r ON r.id = rf.release_id JOIN subsystems s ON s.id = rf.subsystem_id
		WHERE r.tag = '$E2E_BASE' AND rf.path LIKE 'net/rds/%'")"
t_is "every net/rds file of v6.1.192 is in scope" \
	"$(git -C "$E2E_REPO" ls-tree -r --name-only "$E2E_BASE" net/rds | grep -c '\.[ch]$')" \
	"$(sqlite3 "$DB" "SELECT count(*) FROM release_files rf JOIN releases r ON r.id = rf.release_id
		WHERE r.tag = '$E2E_BASE' AND rf.path LIKE 'net/rds/%'")"

for tag in $E2E_HISTORY; do
	k report "$tag" --by rule --format csv > "$TRASH/rules-$tag.csv"
	t_ok "$tag totals per rule as recorded" \
		cmp "$TOP/tests/qemu/expected-$tag-rules.csv" "$TRASH/rules-$tag.csv"
done
cp "$TRASH/rules-$E2E_NEXT.csv" "$TRASH/rules-next.csv"
t_is "the trend is in version order" "$(echo $E2E_HISTORY | tr ' ' '\n')" \
	"$(k report --trend --format csv | sed '1d; s/,.*//')"

t_is "subsystem rows add up to the release total" \
	"$(k report "$E2E_BASE" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')" \
	"$(k report "$E2E_BASE" --format csv --by subsystem | python3 -c 'import csv,sys; print(sum(int(r["count"]) for r in csv.DictReader(sys.stdin)))')"
t_is "file rows add up to the release total" \
	"$(k report "$E2E_BASE" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')" \
	"$(k report "$E2E_BASE" --format csv --by file | python3 -c 'import csv,sys; print(sum(int(r["count"]) for r in csv.DictReader(sys.stdin)))')"
t_is "strlcpy is gone upstream by v6.12 (counted as 0)" 0 \
	"$(awk -F, '$2 == "strlcpy" {print $3}' "$TRASH/rules-next.csv")"

# shellcheck disable=SC2086
t_exit "rescan" 0 k scan $tags
t_is "rescan lexes nothing" "$(for tag in $E2E_HISTORY; do echo "$tag: up to date"; done)" \
	"$(cat "$TRASH/.stdout")"
t_done
