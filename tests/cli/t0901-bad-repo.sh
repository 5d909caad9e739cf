#!/bin/sh
# kmig scan on broken repositories: not a repository, no tags, a tag
# naming a blob, a missing or truncated loose object, a corrupt or
# truncated pack.  Each is exit 2 with one line on stderr naming what
# failed (the object id where one is at fault), and the database keeps
# exactly what it had.
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
DB="$TRASH/kmig.db"
# Each kmig run gets a time limit: a hang is a failure, never a stuck suite.
k() { timeout 60 "$KMIG" --db "$DB" "$@"; }
dump() { sqlite3 "$DB" .dump | md5sum; }
one_line() { test "$(grep -c '^kmig: ' "$TRASH/.stderr")" -eq 1 && tail -n 1 "$TRASH/.stderr" | grep -q '^kmig: '; }
loose() { echo "$1/.git/objects/$(echo "$2" | cut -c1-2)/$(echo "$2" | cut -c3-)"; }

git init -q "$W"
mkdir -p "$W/net"
printf 'void f(void) { strcpy(a, b); }\n' > "$W/net/a.c"
git_commit_all "$W" one && git -C "$W" tag v1.0
printf 'void g(void) { BUG(); }\n' > "$W/net/b.c"
git_commit_all "$W" two && git -C "$W" tag v1.1

# A database holding v1.0: every failure below must leave it as it is.
t_exit "scan v1.0 of the good repository" 0 k --repo "$W" scan --tags v1.0
good=$(dump)

mkdir "$TRASH/plain"
t_exit "not a git repository" 2 k --repo "$TRASH/plain" scan
t_ok "not a git repository: named" grep -q "'$TRASH/plain' is not a git repository" "$TRASH/.stderr"
t_ok "not a git repository: one line" one_line
t_exit "missing repository" 2 k --repo "$TRASH/nowhere" scan
t_ok "missing repository: named" grep -q "repository '$TRASH/nowhere' does not exist" "$TRASH/.stderr"

git init -q "$TRASH/notags"
cp "$W/net/a.c" "$TRASH/notags/" && git_commit_all "$TRASH/notags" one
t_exit "no tags" 2 k --repo "$TRASH/notags" scan
t_ok "no tags: said so" grep -q "no release tags to scan in '$TRASH/notags'" "$TRASH/.stderr"
t_ok "no tags: one line" one_line
git init -q "$TRASH/empty"
t_exit "empty repository" 2 k --repo "$TRASH/empty" scan
t_is "database unchanged by the above" "$good" "$(dump)"

# A tag naming a blob, sorted between the releases: skipped, said, and
# every release around it scanned (an error there stopped every later
# scan at the same tag, and lost the releases planned with it).
R="$TRASH/blobtag"
git clone -q "$W" "$R"
blob=$(git -C "$R" rev-parse v1.0:net/a.c)
git -C "$R" tag v1.0.5 "$blob"
git -C "$R" tag -a -m "a blob" v1.0.6 "$blob"
t_exit "tags naming a blob" 0 "$KMIG" --repo "$R" --db "$TRASH/blob.db" scan
t_is "tags naming a blob: a warning each" "warning: v1.0.5 names a blob, not a commit: skipped
warning: v1.0.6 names a blob, not a commit: skipped" "$(grep blob "$TRASH/.stderr")"
t_is "tags naming a blob: the commits' releases scanned" "v1.0: 1 files, 1 blobs lexed, 1 uses
v1.1: 2 files, 1 blobs lexed, 2 uses" "$(cat "$TRASH/.stdout")"

# A tag naming a tree (linux.git's v2.6.11) has no commit: skipped, said.
R="$TRASH/treetag"
git clone -q "$W" "$R"
git -C "$R" tag -a -m "a tree" v0.8 "$(git -C "$R" rev-parse v1.0^{tree})"
t_exit "a tag naming a tree" 0 "$KMIG" --repo "$R" --db "$TRASH/tree.db" scan
t_ok "a tag naming a tree: a warning" grep -q '^warning: v0.8 names a tree, not a commit: skipped$' "$TRASH/.stderr"
t_is "a tag naming a tree: the commits' releases scanned" "v1.0: 1 files, 1 blobs lexed, 1 uses
v1.1: 2 files, 1 blobs lexed, 2 uses" "$(cat "$TRASH/.stdout")"

R="$TRASH/missing"
cp -R "$W" "$R"
oid=$(git -C "$R" rev-parse v1.1:net/b.c)
rm -f "$(loose "$R" "$oid")"
t_exit "a missing blob" 2 k --repo "$R" scan
t_ok "a missing blob: object named" grep -q "$oid" "$TRASH/.stderr"
t_ok "a missing blob: one line" one_line
t_is "database unchanged" "$good" "$(dump)"

R="$TRASH/truncated"
cp -R "$W" "$R"
oid=$(git -C "$R" rev-parse v1.1:net/b.c)
chmod u+w "$(loose "$R" "$oid")"
truncate -s 12 "$(loose "$R" "$oid")"
t_exit "a truncated loose blob" 2 k --repo "$R" scan
t_ok "a truncated loose blob: object named" grep -q "$oid" "$TRASH/.stderr"
t_ok "a truncated loose blob: one line" one_line
t_is "database unchanged" "$good" "$(dump)"

R="$TRASH/truncated-tree"
cp -R "$W" "$R"
oid=$(git -C "$R" rev-parse v1.1:net)
chmod u+w "$(loose "$R" "$oid")"
truncate -s 12 "$(loose "$R" "$oid")"
t_exit "a truncated loose tree" 2 k --repo "$R" scan
t_ok "a truncated loose tree: object named" grep -q "$oid" "$TRASH/.stderr"
t_is "database unchanged" "$good" "$(dump)"

# deprecated.rst and include/ are read beside the release's write (a
# thread of their own): a truncated one fails the same way, never hangs.
# deprecated.rst is no lexed file, so the release is written before; an
# include/ header is, so its release is not.
for f in Documentation/process/deprecated.rst include/linux/string.h; do
	R="$TRASH/truncated-$(basename "$f")"
	cp -R "$W" "$R"
	mkdir -p "$R/$(dirname "$f")"
	printf '/* %s */\n#define strscpy(d, s, n) 0\n' "$f" > "$R/$f"
	git_commit_all "$R" three && git -C "$R" tag v1.2
	oid=$(git -C "$R" rev-parse "v1.2:$f")
	chmod u+w "$(loose "$R" "$oid")"
	truncate -s 12 "$(loose "$R" "$oid")"
	cp "$DB" "$TRASH/trunc.db"
	t_exit "a truncated loose $f" 2 timeout 60 "$KMIG" --repo "$R" \
		--db "$TRASH/trunc.db" scan
	t_ok "... object named" grep -q "$oid" "$TRASH/.stderr"
	t_ok "... one line" one_line
	t_is "... v1.2 not scanned" "" \
		"$(sqlite3 "$TRASH/trunc.db" "SELECT tag FROM releases WHERE tag = 'v1.2' AND relinfo_key IS NOT NULL")"
done

# Packed: flip the bytes of the second half of the pack (objects written
# last: v1.1's), or cut its end off.
R="$TRASH/badpack"
cp -R "$W" "$R"
git -C "$R" repack -a -d -q
pack=$(ls "$R"/.git/objects/pack/*.pack)
chmod u+w "$pack"
python3 - "$pack" <<'EOP'
import sys
with open(sys.argv[1], "r+b") as f:
	d = bytearray(f.read())
	for i in range(12 + 1, len(d) - 20):
		d[i] ^= 0x55
	f.seek(0)
	f.write(d)
EOP
t_exit "a corrupt pack" 2 k --repo "$R" scan
t_ok "a corrupt pack: one line" one_line
t_ok "a corrupt pack: names an object" grep -q "[0-9a-f]\{40\}\|'v1\.1'" "$TRASH/.stderr"
t_is "database unchanged" "$good" "$(dump)"

# Only the compressed data of v1.1's new blob is damaged.
R="$TRASH/badblob"
cp -R "$W" "$R"
git -C "$R" repack -a -d -q
oid=$(git -C "$R" rev-parse v1.1:net/b.c)
pack=$(ls "$R"/.git/objects/pack/*.pack)
set -- $(git -C "$R" verify-pack -v "${pack%.pack}.idx" | grep "^$oid ")
chmod u+w "$pack"
python3 - "$pack" "$5" "$4" <<'EOP'
import sys
off, n = int(sys.argv[2]), int(sys.argv[3])
with open(sys.argv[1], "r+b") as f:
	f.seek(off + 2)
	d = bytearray(f.read(n - 2))
	f.seek(off + 2)
	f.write(bytes(b ^ 0x5a for b in d))
EOP
t_exit "a corrupt blob in a pack" 2 k --repo "$R" scan
t_ok "a corrupt blob in a pack: object named" grep -q "$oid" "$TRASH/.stderr"
t_ok "a corrupt blob in a pack: one line" one_line
t_is "database unchanged" "$good" "$(dump)"

R="$TRASH/shortpack"
cp -R "$W" "$R"
git -C "$R" repack -a -d -q
pack=$(ls "$R"/.git/objects/pack/*.pack)
chmod u+w "$pack"
truncate -s -60 "$pack"
t_exit "a truncated pack" 2 k --repo "$R" scan
t_ok "a truncated pack: one line" one_line
t_is "database unchanged" "$good" "$(dump)"

# A tree listing a path twice (git fsck's duplicateEntries), its
# entries in order and out of order: the error names the path, where the
# store's key on the path failed without naming it.
for order in sorted unsorted; do
	R="$TRASH/dup-$order"
	git clone -q "$W" "$R"
	a=$(git -C "$R" rev-parse v1.1:net/a.c)
	b=$(git -C "$R" rev-parse v1.1:net/b.c)
	python3 - "$order" "$a" "$b" > "$TRASH/net.tree" <<'EOP'
import sys
a, b = bytes.fromhex(sys.argv[2]), bytes.fromhex(sys.argv[3])
ea, eb = b"100644 a.c\0" + a, b"100644 b.c\0" + b
sys.stdout.buffer.write(ea + eb + eb if sys.argv[1] == "sorted" else eb + ea + eb)
EOP
	net=$(git -C "$R" hash-object -t tree --literally -w "$TRASH/net.tree")
	top=$(printf '040000 tree %s\tnet\n' "$net" | git -C "$R" mktree --missing)
	c=$(echo dup | git -C "$R" -c user.name=t -c user.email=t@t \
		commit-tree "$top" -p v1.1)
	git -C "$R" tag v1.2 "$c"
	cp "$DB" "$TRASH/dup.db"
	t_exit "a path listed twice ($order)" 2 timeout 60 "$KMIG" --repo "$R" \
		--db "$TRASH/dup.db" scan
	t_ok "... the path named" grep -q "^kmig: scan of v1.2 failed: the tree lists 'net/b.c' twice" "$TRASH/.stderr"
	t_ok "... one line" one_line
	t_is "... v1.2 not scanned" "" \
		"$(sqlite3 "$TRASH/dup.db" "SELECT tag FROM releases WHERE tag = 'v1.2'")"
done

t_exit "the good repository still scans" 0 k --repo "$W" scan
t_is "and adds v1.1" "v1.0: up to date
v1.1: 2 files, 1 blobs lexed, 2 uses" "$(cat "$TRASH/.stdout")"
t_is "integrity" "ok" "$(sqlite3 "$DB" 'PRAGMA integrity_check')"
t_done
