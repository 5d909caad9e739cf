#!/bin/sh
# A point release's counts from the release before it: kmig scan copies
# the file counts of the files a release did not change and counts the
# rest from their sites.  The copy must give exactly what counting every
# file gives (a scan of the release alone, in a database of its own), also
# for unchanged files whose rule changes with another file: a WARN that
# stops or starts being reached, a vla whose size stops being a constant
# of the release's headers; for a file gone, a file new, a MAINTAINERS
# change; and with the base read back from the database (a later run).
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }

# reach TAG DB - the release's reached WARN sites with their paths, and
# its vla sites of constant size
reach() {
	sqlite3 "$2" "
	SELECT 'R', x.path, x.line, x.chain FROM release_reach x
		JOIN releases r ON r.id = x.release_id
		WHERE r.tag = '$1' ORDER BY 2, 3;
	SELECT 'V', x.path, x.line, x.deps FROM release_vlaconst x
		JOIN releases r ON r.id = x.release_id
		WHERE r.tag = '$1' ORDER BY 2, 3, 4;"
}

# counts TAG DB - the release's counts and file counts, by name
counts() {
	sqlite3 "$2" "
	SELECT 'C', s.name, c.rule, c.count FROM counts c
		JOIN releases r ON r.id = c.release_id
		JOIN subsystems s ON s.id = c.subsystem_id
		WHERE r.tag = '$1' ORDER BY 2, 3;
	SELECT 'P', c.path, c.rule, c.count FROM file_counts c
		JOIN releases r ON r.id = c.release_id
		WHERE r.tag = '$1' ORDER BY 2, 3;"
}

# files TAG DB - the release's file rows: path, blob and section, by name
files() {
	sqlite3 "$2" "
	SELECT 'F', f.path, f.oid, s.name FROM release_files f
		JOIN releases r ON r.id = f.release_id
		JOIN subsystems s ON s.id = f.subsystem_id
		WHERE r.tag = '$1' ORDER BY 2;"
}

# same_as_alone TAG [LABEL] - TAG scanned alone, into a database of its
# own, has the counts, file counts and file rows it has in $DB
same_as_alone() {
	t_exit "$2$1 alone, in a database of its own" 0 \
		"$KMIG" --repo "$W" --db "$TRASH/$1.db" scan --tags "$1"
	t_is "$2$1: the same counts and file counts" \
		"$(counts $1 "$TRASH/$1.db")" "$(counts $1 "$DB")"
	t_is "$2$1: the same file rows" \
		"$(files $1 "$TRASH/$1.db")" "$(files $1 "$DB")"
}

git init -q "$W"
mkdir -p "$W/net/rds" "$W/drivers/foo" "$W/include/linux"
cat > "$W/MAINTAINERS" <<'EOM'
Maintainers List
----------------

RDS - RELIABLE DATAGRAM SOCKETS
F:	net/rds/

DRIVERS FOO
F:	drivers/foo/
EOM
cat > "$W/net/rds/af_rds.c" <<'EOF2'
static const struct proto_ops rds_proto_ops = {
	.sendmsg =	rds_sendmsg,
};
EOF2
cat > "$W/net/rds/send.c" <<'EOF2'
int rds_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	struct rds_message *rm = rds_message_alloc(len);

	rm->sg = rds_message_alloc_sgs(rm, len);
	return 0;
}
EOF2
cat > "$W/net/rds/message.c" <<'EOF2'
struct scatterlist *rds_message_alloc_sgs(struct rds_message *rm, int nents)
{
	WARN_ON(rm->m_used_sgs + nents > rm->m_total_sgs);
	WARN_ON(!nents);
	return NULL;
}
EOF2
cat > "$W/net/rds/util.c" <<'EOF2'
int rds_util_check(struct rds_message *rm)
{
	WARN_ON(!rm);
	return 0;
}
EOF2
cat > "$W/net/rds/flip.c" <<'EOF2'
int rds_flip(int n)
{
	WARN_ON(n < 0);
	return n;
}
EOF2
cat > "$W/include/linux/rates.h" <<'EOF2'
#define Ar5416RateSize 16
EOF2
cat > "$W/drivers/foo/rate.c" <<'EOF2'
#include <linux/rates.h>

static int foo_rates(int n)
{
	int rates[Ar5416RateSize];

	rates[0] = n;
	return rates[0];
}
EOF2
cat > "$W/drivers/foo/gone.c" <<'EOF2'
void foo_gone(char *d, const char *s)
{
	strcpy(d, s);
}
EOF2
cat > "$W/drivers/foo/edit.c" <<'EOF2'
void foo_edit(char *d, const char *s)
{
	strcpy(d, s);
}
EOF2
i=1
while [ $i -le 24 ]; do
	cat > "$W/drivers/foo/f$i.c" <<EOF2
void foo_$i(char *d, const char *s, int n)
{
	BUG_ON(!d);
	strcpy(d, s);
	if (n == $i)
		strlcpy(d, s, n);
}
EOF2
	i=$((i + 1))
done
git_commit_all "$W" "v1.0" && git -C "$W" tag v1.0

# v1.1: rds_sendmsg calls the util helper instead of alloc_sgs (message.c
# unchanged, its WARNs no longer reached; util.c unchanged, reached now),
# the header drops the constant (rate.c unchanged, its array a vla now),
# one file gone, one edited, one new; flip.c changes, and rds_sendmsg
# calls it.
cat > "$W/net/rds/send.c" <<'EOF2'
int rds_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	struct rds_message *rm = rds_message_alloc(len);

	return rds_util_check(rm) + rds_flip(len);
}
EOF2
cp "$W/net/rds/flip.c" "$TRASH/flip.c"
sed -i '1i /* flipped */' "$W/net/rds/flip.c"
: > "$W/include/linux/rates.h"
rm "$W/drivers/foo/gone.c"
cat >> "$W/drivers/foo/edit.c" <<'EOF2'

void foo_edit2(char *d, const char *s)
{
	strcpy(d, s);
}
EOF2
cat > "$W/drivers/foo/new.c" <<'EOF2'
void foo_new(char *d, const char *s, size_t n)
{
	strlcpy(d, s, n);
}
EOF2
git_commit_all "$W" "v1.1" && git -C "$W" tag v1.1

# v1.2: f1.c moves to a section of its own; f2.c changes; flip.c is back
# at its v1.0 blob, which the run's graphs no longer have with its sites.
cp "$TRASH/flip.c" "$W/net/rds/flip.c"
cat >> "$W/MAINTAINERS" <<'EOM'

FOO ONE
F:	drivers/foo/f1.c
EOM
sed -i 's/BUG_ON(!d);/BUG_ON(!d || !s);/' "$W/drivers/foo/f2.c"
git_commit_all "$W" "v1.2" && git -C "$W" tag v1.2

KMIG_PROGRESS=1 t_exit "one run over the three releases" 0 k scan --jobs 2
t_ok "v1.1 counted from v1.0: 6 files changed" \
	grep -q "v1.1: counts from v1.0; changed files counted again: 6" "$TRASH/.stderr"
t_ok "v1.2 counted from v1.1: 2 files changed (MAINTAINERS is not counted)" \
	grep -q "v1.2: counts from v1.1; changed files counted again: 2" "$TRASH/.stderr"
t_ok "v1.0 counted from its sites" sh -c "! grep -q 'v1.0: counts from' '$TRASH/.stderr'"
t_ok "v1.1 shares v1.0's file rows (the same MAINTAINERS): 6 changed, 5 written, one gone" \
	grep -q "v1.1: file rows shared with v1.0; 6 files changed, 5 rows written, 1 gone" "$TRASH/.stderr"
t_ok "v1.2's file rows all written: MAINTAINERS changed" \
	sh -c "! grep -q 'v1.2: file rows shared' '$TRASH/.stderr'"
t_is "v1.0 and v1.1: the graph and its sites from memory, beside the file rows" 2 \
	"$(grep -c "^v1\.[01]: call graph: .* sites from memory beside the file rows and 0 blobs read" "$TRASH/.stderr")"
t_ok "v1.2: from memory, and flip.c's v1.0 blob's read from the store" \
	grep -q "^v1.2: call graph: .* sites from memory beside the file rows and 1 blobs read" "$TRASH/.stderr"

# What the fixture is for: unchanged files whose counts change.
t_is "message.c: reached in v1.0, not in v1.1" \
"P|net/rds/message.c|warn-on-user|2
P|net/rds/message.c|warn-on|2" \
	"$(counts v1.0 "$DB" | grep message.c; counts v1.1 "$DB" | grep message.c)"
t_is "util.c: not reached in v1.0, reached in v1.1" \
"P|net/rds/util.c|warn-on|1
P|net/rds/util.c|warn-on-user|1" \
	"$(counts v1.0 "$DB" | grep util.c; counts v1.1 "$DB" | grep util.c)"
t_is "flip.c: reached from v1.1 on, its v1.0 blob back in v1.2" \
"P|net/rds/flip.c|warn-on|1
P|net/rds/flip.c|warn-on-user|1
P|net/rds/flip.c|warn-on-user|1" \
	"$(for t in v1.0 v1.1 v1.2; do counts $t "$DB" | grep flip.c; done)"
t_is "rate.c: a constant in v1.0, a vla in v1.1" \
"P|drivers/foo/rate.c|vla|1" \
	"$(counts v1.0 "$DB" | grep rate.c; counts v1.1 "$DB" | grep rate.c)"
t_is "f1.c in its own section from v1.2" \
"C|FOO ONE|bug-on|1" "$(counts v1.2 "$DB" | grep '^C|FOO ONE|bug')"

for tag in v1.0 v1.1 v1.2; do
	same_as_alone $tag
done
# v1.1's rows: v1.0's of the files it kept with their blob, and its own of
# the files it changed or added, none of the file it dropped
git -C "$W" diff --name-only v1.0 v1.1 | grep -v '^MAINTAINERS$' | LC_ALL=C sort > "$TRASH/changed"
t_is "v1.1: 6 files changed, added or removed since v1.0" 6 "$(wc -l < "$TRASH/changed")"
sed 's/^/|/; s/$/|/' "$TRASH/changed" > "$TRASH/changed.pat"
t_is "v1.1's rows of the files it did not change are v1.0's" \
	"$(files v1.0 "$DB" | grep -v -F -f "$TRASH/changed.pat")" \
	"$(files v1.1 "$DB" | grep -v -F -f "$TRASH/changed.pat")"
t_is "v1.1's rows of the changed files: those it has, with their v1.1 blob" \
	"$(while read -r f; do b=$(git -C "$W" rev-parse -q --verify "v1.1:$f") &&
		echo "$f $b"; done < "$TRASH/changed")" \
	"$(files v1.1 "$DB" | grep -F -f "$TRASH/changed.pat" | awk -F'|' '{print $2, $3}')"

# A later run: v1.0 is up to date, its files read back as the base, and
# the graphs' cache the first run saved (DB-graph) has its blobs' facts
# and sites.
ONE_RUN="$DB"
DB="$TRASH/later.db"
t_exit "a run over v1.0 only" 0 k scan --tags v1.0
t_ok "it saved the graphs' cache" test -s "$DB-graph"
cp "$DB" "$TRASH/later-v1.0.db"
cp "$DB-graph" "$TRASH/later-v1.0.db-graph"
KMIG_PROGRESS=1 t_exit "a later run over all three" 0 k scan
t_ok "v1.0 up to date" grep -q "^v1.0: up to date" "$TRASH/.stdout"
t_ok "v1.1 counted from the stored v1.0" \
	grep -q "v1.1: counts from v1.0; changed files counted again: 6" "$TRASH/.stderr"
t_ok "v1.0's facts from the graphs' cache" \
	grep -q "^graph cache: the facts of [0-9]* blobs from '$DB-graph'" "$TRASH/.stderr"
t_ok "v1.1's graph: the sites from it too" \
	grep -q "^v1.1: call graph: .* sites from memory beside the file rows and 0 blobs read" "$TRASH/.stderr"
t_ok "the cache saved for the next run" \
	grep -q "^graph cache: the facts of [0-9]* blobs saved to '$DB-graph'" "$TRASH/.stderr"
t_ok "v1.1 shares the stored v1.0's file rows" \
	grep -q "v1.1: file rows shared with v1.0; 6 files changed, 5 rows written, 1 gone" "$TRASH/.stderr"
for tag in v1.1 v1.2; do
	t_is "later run, $tag: the same counts and file counts" \
		"$(counts $tag "$TRASH/$tag.db")" "$(counts $tag "$DB")"
	t_is "later run, $tag: the same file rows" \
		"$(files $tag "$TRASH/$tag.db")" "$(files $tag "$DB")"
	t_is "later run, $tag: the same reached sites and constant vlas as one run" \
		"$(reach $tag "$ONE_RUN")" "$(reach $tag "$DB")"
done

# Without the graphs' cache, with one cut short or of other rules: the
# facts and sites from the store, the same rows.
for how in none cut rules; do
	L="$TRASH/later-$how.db"
	cp "$TRASH/later-v1.0.db" "$L"
	case $how in
	cut)	head -c 200 "$TRASH/later-v1.0.db-graph" > "$L-graph" ;;
	rules)	cp "$TRASH/later-v1.0.db-graph" "$L-graph"
		printf 'other rules\0' | dd of="$L-graph" bs=1 seek=16 conv=notrunc 2> /dev/null ;;
	esac
	KMIG_PROGRESS=1 t_exit "a later run, graph cache: $how" 0 "$KMIG" --repo "$W" --db "$L" scan
	t_ok "... nothing restored" sh -c "! grep -q '^graph cache: .* from' '$TRASH/.stderr'"
	t_ok "... v1.1's sites joined in the store" \
		grep -q "^v1.1: call graph: .* sites joined in the store" "$TRASH/.stderr"
	t_ok "... v1.2's from memory: v1.1's join gave the cache its blobs' sites" \
		grep -q "^v1.2: call graph: .* sites from memory beside the file rows and 1 blobs read" "$TRASH/.stderr"
	for tag in v1.1 v1.2; do
		t_is "... $tag: the same reached sites and constant vlas as one run" \
			"$(reach $tag "$ONE_RUN")" "$(reach $tag "$L")"
	done
done
t_is "the fixture has reached sites and constant vlas" 1 \
	"$(sqlite3 "$ONE_RUN" "SELECT (SELECT count(*) FROM release_reach) > 0 AND (SELECT count(*) FROM release_vlaconst) > 0")"

# A release that changed too much is counted from its sites.
mkdir -p "$W/drivers/bar"
i=1
while [ $i -le 12 ]; do
	printf 'void bar_%s(char *d) { strcpy(d, "x"); }\n' $i > "$W/drivers/bar/b$i.c"
	i=$((i + 1))
done
git_commit_all "$W" "v2.0" && git -C "$W" tag v2.0
cp "$DB" "$TRASH/pre-v2.0.db"
cp "$DB-graph" "$TRASH/pre-v2.0.db-graph"
KMIG_PROGRESS=1 t_exit "scan v2.0 (12 files of 42 new)" 0 k scan
t_ok "v2.0 counted from its sites" sh -c "! grep -q 'v2.0: counts from' '$TRASH/.stderr'"
t_exit "v2.0 alone" 0 "$KMIG" --repo "$W" --db "$TRASH/v2.0.db" scan --tags v2.0
t_is "v2.0: the same counts" "$(counts v2.0 "$TRASH/v2.0.db")" "$(counts v2.0 "$DB")"

# The graphs' cache is read in a thread from the first release to write
# on, beside its tree walk and lexing; a release that lexes most of its
# files keeps only the facts of its own files.  Alone in a run (the
# releases before it up to date), from that run's database and cache:
# the same rows as the run that scanned it with the rest.
L="$TRASH/pre-v2.0.db"
KMIG_PROGRESS=1 t_exit "a later run: only v2.0 to write" 0 \
	"$KMIG" --repo "$W" --db "$L" scan --tags 'v[12].*'
t_ok "... the graphs' cache restored" \
	grep -q "^graph cache: the facts of [0-9]* blobs from '$L-graph'" "$TRASH/.stderr"
t_ok "... and saved again" \
	grep -q "^graph cache: the facts of [0-9]* blobs saved to '$L-graph'" "$TRASH/.stderr"
t_is "... v2.0: the same counts" "$(counts v2.0 "$DB")" "$(counts v2.0 "$L")"
t_is "... v2.0: the same reached sites and constant vlas" \
	"$(reach v2.0 "$DB")" "$(reach v2.0 "$L")"
KMIG_PROGRESS=1 t_exit "a run with nothing to write" 0 \
	"$KMIG" --repo "$W" --db "$L" scan
t_ok "... reads no graphs' cache" \
	sh -c "! grep -q '^graph cache' '$TRASH/.stderr'"

# The run's last release, with many new blobs, puts their facts into the
# graphs' cache in a thread beside their writes: the same rows as when it
# is not the last.  Its WARNs are reached from an entry point through a
# chain of its own files.
mkdir -p "$W/drivers/many"
cat > "$W/drivers/many/ops.c" <<'EOF2'
static const struct proto_ops many_ops = {
	.sendmsg =	many_1,
};
EOF2
i=1
while [ $i -le 300 ]; do
	printf 'int many_%s(void)\n{\n\tWARN_ON(1);\n\treturn many_%s();\n}\n' \
		$i $((i + 1)) > "$W/drivers/many/m$i.c"
	i=$((i + 1))
done
git_commit_all "$W" "v3.0" && git -C "$W" tag v3.0
printf '/* v3.1 */\n' >> "$W/drivers/many/m300.c"
git_commit_all "$W" "v3.1" && git -C "$W" tag v3.1
t_exit "v3.0 the last release of its run" 0 \
	"$KMIG" --repo "$W" --db "$TRASH/v3-last.db" scan --tags 'v[12].*' --tags v3.0
t_exit "v3.0 followed by v3.1" 0 \
	"$KMIG" --repo "$W" --db "$TRASH/v3-not.db" scan --tags 'v[123].*'
t_is "v3.0: the same counts either way" \
	"$(counts v3.0 "$TRASH/v3-not.db")" "$(counts v3.0 "$TRASH/v3-last.db")"
t_is "v3.0: the same reached sites either way" \
	"$(reach v3.0 "$TRASH/v3-not.db")" "$(reach v3.0 "$TRASH/v3-last.db")"
t_is "v3.0: its chain's WARNs within the reach depth (3 calls) are reached" 4 \
	"$(reach v3.0 "$TRASH/v3-last.db" | grep -c '^R|drivers/many/')"

# A later run's point release compares its tree with its base's tree,
# subtree by subtree, for the files that changed: every kind of change
# counts as the file lists would (a blob changed, gone or new, a directory
# gone or new whole, a file that became a symlink or one that stopped
# being one, a directory that became a file of the same name), and none
# that the lists do not have (a mode, a file out of scope).
E="$W/drivers/edge"
mkdir -p "$E/gonedir" "$E/y.c" "$W/tools/edge"
for f in mod.c exec.c gone.c gonedir/a.c gonedir/b.h y.c/a.c link.c; do
	printf 'int edge_%s(void)\n{\n\tBUG_ON(1);\n\treturn 0;\n}\n' \
		"$(echo "$f" | tr './' '__')" > "$E/$f"
done
ln -s mod.c "$E/wasl.c"
echo 'int t(void) { return 0; }' > "$W/tools/edge/t.c"
echo 'edge' > "$E/README"
git_commit_all "$W" "v4.0" && git -C "$W" tag v4.0
printf '/* v4.1 */\n' >> "$E/mod.c"
chmod +x "$E/exec.c"
rm -r "$E/gone.c" "$E/gonedir" "$E/y.c" "$E/link.c" "$E/wasl.c"
mkdir -p "$E/newdir/sub"
echo 'int edge_new(void) { BUG_ON(2); return 0; }' > "$E/new.c"
echo 'int edge_c(void) { return 0; }' > "$E/newdir/c.c"
echo 'int edge_d(void) { return 0; }' > "$E/newdir/sub/d.c"
echo 'int edge_y(void) { return 0; }' > "$E/y.c"
ln -s new.c "$E/link.c"
echo 'int edge_wasl(void) { return 0; }' > "$E/wasl.c"
echo 'int t(void) { return 1; }' > "$W/tools/edge/t.c"
echo 'edge 2' > "$E/README"
git_commit_all "$W" "v4.1" && git -C "$W" tag v4.1
DB="$TRASH/edge.db"
t_exit "v4.0 in a run of its own" 0 k scan --tags v4.0
KMIG_PROGRESS=1 t_exit "v4.1 in a later run" 0 k scan --tags v4.0 --tags v4.1
t_ok "v4.1: 11 files changed since v4.0, 6 rows written, 5 gone" \
	grep -q "^v4.1: file rows shared with v4.0; 11 files changed, 6 rows written, 5 gone" "$TRASH/.stderr"
t_exit "v4.1 alone" 0 "$KMIG" --repo "$W" --db "$TRASH/v4.1.db" scan --tags v4.1
t_is "v4.1 in a later run: the same file rows as alone" \
	"$(files v4.1 "$TRASH/v4.1.db")" "$(files v4.1 "$DB")"
t_is "v4.1 in a later run: the same counts as alone" \
	"$(counts v4.1 "$TRASH/v4.1.db")" "$(counts v4.1 "$DB")"
t_is "v4.1 has drivers/edge/y.c, not drivers/edge/y.c/a.c" "F|drivers/edge/y.c|" \
	"$(files v4.1 "$DB" | grep '|drivers/edge/y\.c' | cut -d'|' -f1,2 | tr '\n' '|')"

# Shared file rows (migration 13): a point release's own rows are its
# changed files (a dropped file a row of empty blob id), the rest its
# base's; the base of a release that shares another's passes that one on,
# so a chain is one deep.  Every release's file rows, counts and trend
# must be what writing every row gives.
W="$TRASH/w5"
DB="$TRASH/chain.db"
git init -q "$W"
mkdir -p "$W/drivers/five"
printf 'FIVE\nF:\tdrivers/five/\n' > "$W/MAINTAINERS"
i=1
while [ $i -le 40 ]; do
	printf 'void five_%s(char *d, const char *s)\n{\n\tstrcpy(d, s);\n}\n' $i \
		> "$W/drivers/five/f$i.c"
	i=$((i + 1))
done
git_commit_all "$W" "v5.0" && git -C "$W" tag v5.0
sed -i 's/^}/\tBUG_ON(!d);\n}/' "$W/drivers/five/f1.c"
rm "$W/drivers/five/f2.c"
printf 'void five_n1(char *d) { strcpy(d, "n"); }\n' > "$W/drivers/five/n1.c"
git_commit_all "$W" "v5.1" && git -C "$W" tag v5.1
git -C "$W" show v5.0:drivers/five/f2.c > "$W/drivers/five/f2.c"
sed -i 's/^}/\tBUG_ON(!s);\n}/' "$W/drivers/five/f3.c"
rm "$W/drivers/five/n1.c"
git_commit_all "$W" "v5.2" && git -C "$W" tag v5.2
i=10
while [ $i -le 18 ]; do
	sed -i 's/^}/\tBUG();\n}/' "$W/drivers/five/f$i.c"
	i=$((i + 1))
done
git_commit_all "$W" "v5.3" && git -C "$W" tag v5.3

# chain DB - each release's base and its own rows, tombstones apart
chain() {
	sqlite3 "$1" "SELECT r.tag, coalesce(b.tag, '-'),
		(SELECT count(*) FROM release_file_rows f WHERE f.release_id = r.id AND f.oid != ''),
		(SELECT count(*) FROM release_file_rows f WHERE f.release_id = r.id AND f.oid = '')
		FROM releases r LEFT JOIN releases b ON b.id = r.files_base ORDER BY r.sort_key"
}

KMIG_PROGRESS=1 t_exit "chain: one run over v5.0-v5.3" 0 k scan --jobs 2
t_ok "v5.1 shares v5.0's rows: f1 changed, f2 gone, n1 new" \
	grep -q "^v5.1: file rows shared with v5.0; 3 files changed, 2 rows written, 1 gone" "$TRASH/.stderr"
t_ok "v5.2 shares through v5.1: f2 back, f3 changed, n1 gone" \
	grep -q "^v5.2: file rows shared with v5.1; 3 files changed, 2 rows written, 1 gone" "$TRASH/.stderr"
t_ok "v5.3 writes every row: its own would be a quarter of its files" \
	sh -c "! grep -q '^v5.3: file rows shared' '$TRASH/.stderr'"
t_is "the chain: v5.1 and v5.2 share v5.0's rows (one deep), v5.3 its own" \
"v5.0|-|40|0
v5.1|v5.0|2|1
v5.2|v5.0|3|1
v5.3|-|40|0" "$(chain "$DB")"
for tag in v5.0 v5.1 v5.2 v5.3; do
	same_as_alone $tag "chain, "
done

# The same database with every row of its own: what the view gives.
cp "$DB" "$TRASH/whole.db"
sqlite3 "$TRASH/whole.db" "
	INSERT INTO release_file_rows(release_id, path, oid, subsystem_id)
		SELECT d.id, b.path, b.oid, b.subsystem_id FROM releases d
		JOIN release_file_rows b ON b.release_id = d.files_base
		WHERE NOT EXISTS (SELECT 1 FROM release_file_rows o
			WHERE o.release_id = d.id AND o.path = b.path);
	DELETE FROM release_file_rows WHERE oid = '';
	UPDATE releases SET files_base = NULL;"
t_is "every row written: no release shares" \
"v5.0|-|40|0
v5.1|-|40|0
v5.2|-|40|0
v5.3|-|40|0" "$(chain "$TRASH/whole.db")"
for args in "--trend --format csv" "--trend --by subsystem --format csv" \
	    "v5.2 --by file --format csv" "v5.1 --format json"; do
	# shellcheck disable=SC2086
	t_exit "report $args, rows shared" 0 "$KMIG" --db "$DB" report $args
	cp "$TRASH/.stdout" "$TRASH/shared.out"
	# shellcheck disable=SC2086
	t_exit "report $args, every row written" 0 "$KMIG" --db "$TRASH/whole.db" report $args
	t_is "report $args: the same either way" "$(cat "$TRASH/.stdout")" \
		"$(cat "$TRASH/shared.out")"
done
t_exit "the trend, rows shared" 0 "$KMIG" --db "$DB" report --trend --format csv
t_is "... has each release's changes: BUG_ON in f1, then f3; strcpy of f2 and n1 swapped; 9 BUG()s" \
"release,count,delta,added,removed,moved
v5.0,40,,,,
v5.1,41,1,2,1,0
v5.2,42,1,2,1,0
v5.3,51,9,9,0,0" "$(cat "$TRASH/.stdout")"

# Re-scanning a release the chain shares (its tag moved to another tree):
# the releases that share its rows get copies of them first.
sed -i 's/^}/\tBUG();\n}/' "$W/drivers/five/f40.c"
git_commit_all "$W" "v5.0 again" && git -C "$W" tag -f v5.0 > /dev/null
KMIG_PROGRESS=1 t_exit "chain: v5.0 moved, re-scanned" 0 k scan --jobs 2
t_is "v5.1 and v5.2 have every row of their own now; v5.0 its new ones" \
"v5.0|-|40|0
v5.1|-|40|0
v5.2|-|40|0
v5.3|-|40|0" "$(chain "$DB")"
for tag in v5.1 v5.2; do
	t_is "after the move, $tag: the same file rows as alone" \
		"$(files $tag "$TRASH/$tag.db")" "$(files $tag "$DB")"
done
t_exit "v5.0 moved, alone" 0 "$KMIG" --repo "$W" --db "$TRASH/v5.0-moved.db" scan --tags v5.0
t_is "after the move, v5.0: the same file rows as alone" \
	"$(files v5.0 "$TRASH/v5.0-moved.db")" "$(files v5.0 "$DB")"

t_done
