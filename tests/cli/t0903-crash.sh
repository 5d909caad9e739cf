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
python3 - "$W" <<'EOP'
import os, random, subprocess, sys
w = sys.argv[1]
rnd = random.Random(9)
uses = ['strcpy(a, b);', 'BUG_ON(!p);', 'WARN_ON(x);', 'strlcpy(d, s, n);',
	'p = kmalloc(n * sizeof(*p), GFP_KERNEL);', 'v = simple_strtoul(s, NULL, 0);',
	'kmap(page);', 'x = 1;', 'y = 2;', 'z = 3;']
dirs = ['net/core', 'net/rds', 'drivers/a', 'drivers/b', 'fs/x', 'mm', 'kernel']
files = ['%s/f%03d.c' % (dirs[i % len(dirs)], i) for i in range(200)]
for d in dirs:
	os.makedirs(os.path.join(w, d), exist_ok=True)
with open(os.path.join(w, 'MAINTAINERS'), 'w') as f:
	f.write('NET\nF:\tnet/\n\nRDS\nF:\tnet/rds/\n\nDRIVERS\nF:\tdrivers/\n\n'
		'THE REST\nF:\t*\nF:\t*/\n')
def write(path, gen):
	with open(os.path.join(w, path), 'w') as f:
		for fn in range(30):
			f.write('int fn_%d_%d(int n)\n{\n' % (gen, fn))
			for l in range(8):
				f.write('\t%s\n' % rnd.choice(uses))
			f.write('\treturn 0;\n}\n\n')
for p in files:
	write(p, 0)
for rel in range(16):
	if rel:
		for p in rnd.sample(files, 30):
			write(p, rel)
	subprocess.run(['git', '-C', w, 'add', '-A'], check=True)
	subprocess.run(['git', '-C', w, 'commit', '-q', '-m', 'r%d' % rel], check=True)
	subprocess.run(['git', '-C', w, 'tag', 'v1.%d' % rel], check=True)
EOP
git -C "$W" repack -a -d -q

# Everything a scan records, without row ids and timestamps.
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
canonical "$REF" > "$TRASH/ref.canon"
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
canonical "$DB" > "$TRASH/canon"
t_ok "database content identical to the uninterrupted scan's" cmp "$TRASH/ref.canon" "$TRASH/canon"
reports "$DB" > "$TRASH/reports"
t_ok "reports identical to the uninterrupted scan's" cmp "$TRASH/ref.reports" "$TRASH/reports"
t_is "no release stored twice" 16 "$(sqlite3 "$DB" 'SELECT COUNT(DISTINCT tag) FROM releases')"
t_exit "a further scan finds nothing to do" 0 k "$DB"
t_is "every release up to date" 16 "$(grep -c ': up to date$' "$TRASH/.stdout")"
t_done
