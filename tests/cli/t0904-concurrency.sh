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
python3 - "$W" <<'EOP'
import os, random, subprocess, sys
w = sys.argv[1]
rnd = random.Random(4)
uses = ['strcpy(a, b);', 'BUG_ON(!p);', 'WARN_ON(x);', 'strlcpy(d, s, n);',
	'p = kmalloc(n * sizeof(*p), GFP_KERNEL);', 'kmap(page);', 'x = 1;']
dirs = ['net/core', 'net/rds', 'drivers/a', 'fs/x', 'kernel']
files = ['%s/f%03d.c' % (dirs[i % len(dirs)], i) for i in range(150)]
for d in dirs:
	os.makedirs(os.path.join(w, d), exist_ok=True)
with open(os.path.join(w, 'MAINTAINERS'), 'w') as f:
	f.write('NET\nF:\tnet/\n\nRDS\nF:\tnet/rds/\n\nTHE REST\nF:\t*\nF:\t*/\n')
def write(path, gen):
	with open(os.path.join(w, path), 'w') as f:
		for fn in range(30):
			f.write('int fn_%d_%d(int n)\n{\n' % (gen, fn))
			for l in range(8):
				f.write('\t%s\n' % rnd.choice(uses))
			f.write('\treturn 0;\n}\n\n')
for p in files:
	write(p, 0)
for rel in range(12):
	if rel:
		for p in rnd.sample(files, 30):
			write(p, rel)
	subprocess.run(['git', '-C', w, 'add', '-A'], check=True)
	subprocess.run(['git', '-C', w, 'commit', '-q', '-m', 'r%d' % rel], check=True)
	subprocess.run(['git', '-C', w, 'tag', 'v2.%d' % rel], check=True)
EOP
git -C "$W" repack -a -d -q

canonical() {
	sqlite3 "$1" "
	SELECT 'R', tag, commit_id, sort_key, date, ruleset, maintainers_oid, files
		FROM releases ORDER BY tag;
	SELECT 'B', oid, ruleset, bytes FROM blobs ORDER BY oid;
	SELECT 'S', oid, rule, line, func, text FROM blob_sites
		ORDER BY oid, rule, line, func, text;
	SELECT 'F', r.tag, f.path, f.oid, s.name FROM release_files f
		JOIN releases r ON r.id = f.release_id
		JOIN subsystems s ON s.id = f.subsystem_id ORDER BY r.tag, f.path;
	SELECT 'C', r.tag, s.name, c.rule, c.count FROM counts c
		JOIN releases r ON r.id = c.release_id
		JOIN subsystems s ON s.id = c.subsystem_id ORDER BY 2, 3, 4;
	SELECT 'P', r.tag, c.path, c.rule, c.count FROM file_counts c
		JOIN releases r ON r.id = c.release_id ORDER BY 2, 3, 4;"
}

t_exit "reference scan" 0 "$KMIG" --repo "$W" --db "$REF" scan
canonical "$REF" > "$TRASH/ref.canon"

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
canonical "$DB" > "$TRASH/canon"
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
while [ ! -f "$TRASH/locked" ]; do sleep 0.1; done
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
