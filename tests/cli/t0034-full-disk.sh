#!/bin/sh
# The database on a full disk (a small tmpfs; needs root to mount one):
# a scan that runs out of space mid-way, and readers that cannot even
# make the -shm file, stop with one line that names the cause (exit 2);
# the releases scanned before stay, intact and reported.
. "$(dirname "$0")/../lib.sh"

D="$TRASH/full"
mkdir "$D"
if [ "$(id -u)" != 0 ] || ! mount -t tmpfs -o size=16m tmpfs "$D" 2> /dev/null; then
	t_skip "full disk" "needs root to mount a tmpfs"
	t_done
fi
trap 'umount "$D" 2> /dev/null' EXIT
trap 'exit 130' INT TERM

W="$TRASH/work"
git init -q "$W"
python3 "$TOP/tests/mkhistory.py" "$W" 6 100 4 v3.
DB="$D/kmig.db"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }
# fill [KB] - leave KB (default none) of the disk free
fill() {
	dd if=/dev/zero of="$(mktemp "$D/fill.XXXXXX")" bs=1k count=$(($(df -k --output=avail "$D" | tail -n 1) - ${1:-0})) 2> /dev/null
	return 0
}
# room - the disk free again, the database's WAL copied into it and removed
room() {
	rm -f "$D"/fill*
	sqlite3 "$DB" 'PRAGMA wal_checkpoint(TRUNCATE)' > /dev/null
}

t_exit "scan of the first two releases (4 MB)" 0 k scan --tags 'v3.[01]'
# 1 MB left: less than the next releases need
fill 1024
t_exit "scan on the full disk" 2 k scan
t_is "one line" 1 "$(wc -l < "$TRASH/.stderr")"
t_ok "it says the disk is full" grep -q "^kmig: .*database or disk is full" "$TRASH/.stderr"
room
t_is "integrity_check" ok "$(sqlite3 "$DB" 'PRAGMA integrity_check')"
t_exit "report after it" 0 k report --trend --format csv
t_ok "the first releases are still reported" grep -q '^v3\.1,' "$TRASH/.stdout"

# not a byte left: a reader cannot make its -shm file
room
t_ok "no -wal or -shm file" test ! -e "$DB-wal" -a ! -e "$DB-shm"
fill
for cmd in "report" "web -o $TRASH/site" "scan"; do
	# shellcheck disable=SC2086
	t_exit "$cmd without a byte left" 2 k $cmd
	t_is "$cmd: one line" 1 "$(wc -l < "$TRASH/.stderr")"
	t_ok "$cmd: it names the cause" grep -q "^kmig: database '$DB': .*No space left on device" "$TRASH/.stderr"
done
room
t_is "integrity_check once there is room" ok "$(sqlite3 "$DB" 'PRAGMA integrity_check')"
t_exit "report once there is room" 0 k report --trend --format csv
t_ok "the first releases are still reported" grep -q '^v3\.1,' "$TRASH/.stdout"
t_exit "and the scan goes on" 0 k scan
t_is "every release once" "6 6" \
	"$(sqlite3 "$DB" 'SELECT COUNT(*), COUNT(DISTINCT tag) FROM releases' | tr '|' ' ')"
umount "$D"
t_done
