#!/bin/sh
# Two kmig processes on one database.  The store uses WAL, a 30 s busy
# timeout and one BEGIN IMMEDIATE transaction per release: a second
# writer waits for the first (and stops with "database is locked" after
# 30 s), readers never wait.  Checked: two scans at once end with exactly
# the database of one scan (nothing lost, nothing counted twice); a scan
# started while another process holds the write lock waits for it; reports
# and kmig web during a scan succeed; the integrity check passes.
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
REF="$TRASH/ref.db"
DB="$TRASH/kmig.db"

# 12 releases of 150 files; each release rewrites 30 of them.
git init -q "$W"
python3 "$TOP/tests/mkhistory.py" "$W" 12 150 4 v2.
git -C "$W" repack -a -d -q


t_exit "reference scan" 0 "$KMIG" --repo "$W" --db "$REF" scan
db_canonical "$REF" > "$TRASH/ref.canon"

# Two scans at once, from an empty database.  Each either succeeds or,
# after waiting 30 s for the other, stops with "database is locked".
"$KMIG" --repo "$W" --db "$DB" scan > "$TRASH/o1" 2> "$TRASH/e1" &
p1=$!
"$KMIG" --repo "$W" --db "$DB" scan > "$TRASH/o2" 2> "$TRASH/e2" &
p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
verdict() {
	case $1 in
	0) echo ok ;;
	2) grep -q "^kmig: .*database is locked" "$2" && echo locked || echo "exit 2: $(tail -n 1 "$2")" ;;
	*) echo "exit $1" ;;
	esac
}
v1=$(verdict $r1 "$TRASH/e1") v2=$(verdict $r2 "$TRASH/e2")
echo "# concurrent scans: $v1, $v2"
t_ok "first scan: success or a clear 'locked'" test "$v1" = ok -o "$v1" = locked
t_ok "second scan: success or a clear 'locked'" test "$v2" = ok -o "$v2" = locked
t_ok "at least one of them finished" test "$v1" = ok -o "$v2" = ok
t_is "integrity_check" ok "$(sqlite3 "$DB" 'PRAGMA integrity_check')"
db_canonical "$DB" > "$TRASH/canon"
t_ok "the database is exactly that of one scan" cmp "$TRASH/ref.canon" "$TRASH/canon"

# Another process holds the write lock for 3 s: the scan waits for it.
git -C "$W" commit -q --allow-empty -m r12 && git -C "$W" tag v2.12
rm -f "$TRASH/locked" "$TRASH/released"
python3 - "$DB" "$TRASH" <<'EOP' &
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute('BEGIN IMMEDIATE')
open(sys.argv[2] + '/locked', 'w').close()
time.sleep(3)
open(sys.argv[2] + '/released', 'w').close()
c.execute('COMMIT')
EOP
holder=$!
t_ok "the other process holds the lock (within 20 s)" wait_until 200 test -f "$TRASH/locked"
t_exit "scan while another process holds the write lock" 0 "$KMIG" --repo "$W" --db "$DB" scan
t_ok "it finished only after the lock was released" test -f "$TRASH/released"
wait $holder
t_ok "and stored the new release" grep -q '^v2.12: 150 files, 0 blobs lexed' "$TRASH/.stdout"

# Readers during a scan: a database holding 6 releases gets the other 7
# while reports and dashboards are made from it.  WAL readers see the
# last committed release and never wait.
D2="$TRASH/readers.db"
t_exit "scan of the first 6 releases" 0 "$KMIG" --repo "$W" --db "$D2" scan --tags 'v2.[0-5]'
"$KMIG" --repo "$W" --db "$D2" scan > "$TRASH/o3" 2> "$TRASH/e3" &
p3=$!
bad=0
n=0
while [ $n -lt 8 ]; do
	n=$((n + 1))
	"$KMIG" --db "$D2" report --trend --format csv > /dev/null 2> "$TRASH/re" || bad=$((bad + 1))
	"$KMIG" --db "$D2" web -o "$TRASH/site" > /dev/null 2> "$TRASH/we" || bad=$((bad + 1))
done
wait $p3
t_is "the scan alongside readers succeeded" 0 "$?"
t_is "16 reports and dashboards during it, none failed" 0 "$bad"
t_is "integrity_check at the end" ok "$(sqlite3 "$D2" 'PRAGMA integrity_check')"
t_is "each release once" "13 13" "$(sqlite3 "$D2" 'SELECT COUNT(*), COUNT(DISTINCT tag) FROM releases' | tr '|' ' ')"
t_done
