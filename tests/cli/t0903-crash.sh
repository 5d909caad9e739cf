#!/bin/sh
# Crash safety: a kmig scan of a history with many tags and blobs, killed
# with SIGKILL at 10 random moments and restarted each time, ends with
# exactly the database and reports of an uninterrupted scan, and SQLite's
# integrity check passes after every kill.
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
REF="$TRASH/ref.db"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$W" --db "$1" scan --jobs 2; }

# 16 releases of 200 files; each release rewrites 30 files (new blobs).
git init -q "$W"
python3 "$TOP/tests/mkhistory.py" "$W" 16 200 9 v1.
git -C "$W" repack -a -d -q

reports() {
	"$KMIG" --db "$1" report --trend --format csv
	for t in $(git -C "$W" tag); do
		"$KMIG" --db "$1" report "$t" --format csv --by file
		"$KMIG" --db "$1" report "$t" --format csv --by subsystem
	done
}

now_ms() { date +%s%3N; }
t0=$(now_ms)
t_exit "uninterrupted scan" 0 k "$REF"
dur=$(( $(now_ms) - t0 ))
t_is "16 releases scanned" 16 "$(grep -c ' uses$' "$TRASH/.stdout")"
db_canonical "$REF" > "$TRASH/ref.canon"
reports "$REF" > "$TRASH/ref.reports"

# Kill moments: uniform over a third of the time the releases not yet
# stored took in the uninterrupted scan, so that each kill lands in real
# work; seeded per run (the seed is printed, to replay a failure).
seed=${KMIG_CRASH_SEED:-$$}
echo "# seed $seed, uninterrupted scan ${dur} ms"
integrity=ok
stored=0
i=0
while [ $i -lt 10 ]; do
	i=$((i + 1))
	ms=$(awk -v s="$seed" -v i="$i" -v d="$dur" -v n="$stored" \
		'BEGIN { srand(s * 100 + i); printf "%d", rand() * d * (16 - n) / 16 / 3 }')
	"$KMIG" --repo "$W" --db "$DB" scan --jobs 2 > /dev/null 2>&1 &
	pid=$!
	sleep "$(awk -v ms="$ms" 'BEGIN { printf "%.3f", ms / 1000 }')"
	kill -KILL "$pid" 2> /dev/null
	wait "$pid" 2> /dev/null
	[ -f "$DB" ] || continue	# killed before it was created
	got=$(sqlite3 "$DB" 'PRAGMA integrity_check' 2>&1)
	[ "$got" = ok ] || integrity="kill $i: $got"
	stored=$(sqlite3 "$DB" 'SELECT COUNT(*) FROM releases' 2>/dev/null || echo 0)
	echo "# kill $i after ${ms} ms: $stored releases stored"
done
t_is "integrity_check ok after each of the 10 kills" ok "$integrity"
t_exit "the scan completes after the kills" 0 k "$DB"
t_is "integrity_check at the end" ok "$(sqlite3 "$DB" 'PRAGMA integrity_check')"
db_canonical "$DB" > "$TRASH/canon"
t_ok "database content identical to the uninterrupted scan's" cmp "$TRASH/ref.canon" "$TRASH/canon"
reports "$DB" > "$TRASH/reports"
t_ok "reports identical to the uninterrupted scan's" cmp "$TRASH/ref.reports" "$TRASH/reports"
t_is "no release stored twice" 16 "$(sqlite3 "$DB" 'SELECT COUNT(DISTINCT tag) FROM releases')"
t_exit "a further scan finds nothing to do" 0 k "$DB"
t_is "every release up to date" 16 "$(grep -c ': up to date$' "$TRASH/.stdout")"
t_done
