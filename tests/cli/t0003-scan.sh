#!/bin/sh
# kmig scan / report on a fixture repository: exact counts per rule,
# subsystem and file; the blob cache; the trend; CSV and JSON shapes.
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }

git init -q "$W"
mkdir -p "$W/net/rds" "$W/net/core" "$W/net/excluded" "$W/drivers/foo" \
	"$W/drivers/misc" "$W/include/linux" "$W/tools/perf" "$W/Documentation"
cat > "$W/MAINTAINERS" <<'EOM'
List of maintainers and how to submit kernel changes

	F:	drivers/net/	(an example in the header, not a section)

Maintainers List
----------------

RDS - RELIABLE DATAGRAM SOCKETS
M:	Someone <someone@example.org>
F:	net/rds/

NETWORKING [GENERAL]
F:	net/
X:	net/excluded/

DRIVERS FOO
N:	foo

THE REST
F:	*
F:	*/
EOM
cat > "$W/net/rds/send.c" <<'EOF2'
#include <linux/string.h>
char *strcpy(char *dst, const char *src);
int rds_sendmsg(struct socket *sock)
{
	char buf[16];

	if (WARN_ON(!sock))
		return -EINVAL;
	strcpy(buf, "x");
	/* strcpy(buf, "in a comment"); */
	printk("strcpy(%p)\n", buf);
	BUG_ON(sock == NULL);
	return 0;
}
static const struct proto_ops rds_proto_ops = { .sendmsg = rds_sendmsg };
EOF2
# (neither allocation is an alloc-obj: n * sizeof(*p) is no sizeof() alone,
# 2 * PAGE_SIZE a byte buffer)
cat > "$W/net/core/dev.c" <<'EOF2'
static void f(int n)
{
	p = kmalloc(n * sizeof(*p), GFP_KERNEL);
	q = kmalloc(2 * PAGE_SIZE, GFP_KERNEL);
	strlcpy(a, b, sizeof(a));
	x->strcpy(a, b);
}
EOF2
cat > "$W/net/excluded/x.c" <<'EOF2'
void g(struct page *page)
{
	void *v = kmap(page);
}
EOF2
cat > "$W/drivers/foo/bar.c" <<'EOF2'
void h(void)
{
	BUG();
}
EOF2
cat > "$W/drivers/misc/clean.c" <<'EOF2'
int clean(void) { return 0; }
EOF2
cat > "$W/include/linux/m.h" <<'EOF2'
#define COPY(d, s) strcpy(d, s)
#define strcpy my_strcpy
struct s { int n; char data[0]; };
struct t { int n; char data[1]; };
EOF2
printf 'void t(void) { strcpy(a, b); BUG(); }\n' > "$W/tools/perf/t.c"
printf 'strcpy(a, b);\n' > "$W/Documentation/x.c"
# host and user-space programs elsewhere: arch/x86/tools/, a driver's
# Documentation/ example, samples/bpf/
mkdir -p "$W/arch/x86/tools" "$W/drivers/misc/Documentation" "$W/samples/bpf"
printf 'void r(int n) { char v[n]; strcpy(a, b); }\n' > "$W/arch/x86/tools/relocs.c"
printf 'void f(void) { strncpy(a, b, 1); }\n' > "$W/drivers/misc/Documentation/fw.c"
printf 'void u(int n) { char v[n]; }\n' > "$W/samples/bpf/x_user.c"
git_commit_all "$W" one && git -C "$W" tag v1.9

# v1.10: one blob changes, one new file is a copy of an existing blob
sed -i 's/strlcpy(a, b, sizeof(a));/strscpy(a, b, sizeof(a));\n\tstrcpy(a, b);/' "$W/net/core/dev.c"
cp "$W/net/rds/send.c" "$W/net/rds/send2.c"
git_commit_all "$W" two && git -C "$W" tag v1.10
printf 'void z(void) { BUG(); }\n' > "$W/drivers/misc/rc.c"
git_commit_all "$W" three && git -C "$W" tag -a -m rc v1.11-rc1

t_exit "scan" 0 k scan --jobs 2
t_is "releases in version order, rc excluded, only new blobs lexed" \
"v1.9: 6 files, 6 blobs lexed, 11 uses
v1.10: 7 files, 1 blobs lexed, 15 uses" "$(cat "$TRASH/.stdout")"

k report v1.9 --format csv --by rule > "$TRASH/actual"
cat > "$TRASH/expect" <<'EOF2'
release,rule,count
v1.9,deprecated-attr,0
v1.9,bug,1
v1.9,bug-on,1
v1.9,warn-on,0
v1.9,warn-on-user,1
v1.9,alloc-arith,1
v1.9,alloc-obj,0
v1.9,simple-strto,0
v1.9,strcpy,2
v1.9,strncpy,0
v1.9,strlcpy,1
v1.9,printk-p,1
v1.9,vla,0
v1.9,fallthrough-comment,0
v1.9,flex-array-zero,1
v1.9,flex-array-one,1
v1.9,kmap,1
v1.9,idr,0
EOF2
t_ok "v1.9 per-rule counts (every rule, zeros too)" cmp "$TRASH/expect" "$TRASH/actual"

k report v1.9 --format csv > "$TRASH/actual"
cat > "$TRASH/expect" <<'EOF2'
release,subsystem,rule,count,delta
v1.9,DRIVERS FOO,bug,1,
v1.9,NETWORKING [GENERAL],alloc-arith,1,
v1.9,NETWORKING [GENERAL],strlcpy,1,
v1.9,RDS - RELIABLE DATAGRAM SOCKETS,bug-on,1,
v1.9,RDS - RELIABLE DATAGRAM SOCKETS,printk-p,1,
v1.9,RDS - RELIABLE DATAGRAM SOCKETS,strcpy,1,
v1.9,RDS - RELIABLE DATAGRAM SOCKETS,warn-on-user,1,
v1.9,THE REST,flex-array-one,1,
v1.9,THE REST,flex-array-zero,1,
v1.9,THE REST,kmap,1,
v1.9,THE REST,strcpy,1,
EOF2
t_ok "v1.9 per-subsystem CSV (the default), X: and N: applied" cmp "$TRASH/expect" "$TRASH/actual"

k report v1.10 --format csv --by file --rule strcpy > "$TRASH/actual"
cat > "$TRASH/expect" <<'EOF2'
release,path,rule,count,delta
v1.10,include/linux/m.h,strcpy,1,0
v1.10,net/core/dev.c,strcpy,1,1
v1.10,net/rds/send.c,strcpy,1,0
v1.10,net/rds/send2.c,strcpy,1,1
EOF2
t_ok "v1.10 per-file CSV for one rule" cmp "$TRASH/expect" "$TRASH/actual"

k report --format csv --subsystem 'NETWORKING [GENERAL]' > "$TRASH/actual"
cat > "$TRASH/expect" <<'EOF2'
release,subsystem,rule,count,delta
v1.10,NETWORKING [GENERAL],alloc-arith,1,0
v1.10,NETWORKING [GENERAL],strcpy,1,1
v1.10,NETWORKING [GENERAL],strlcpy,0,-1
EOF2
t_ok "default release is the newest scanned; --subsystem filter" cmp "$TRASH/expect" "$TRASH/actual"

t_is "sites recorded with line, function and normalised text" \
	"net/rds/send.c|strcpy|9|rds_sendmsg|strcpy(buf, \"x\");" \
	"$(sqlite3 "$DB" "SELECT rf.path, bs.rule, bs.line, bs.func, bs.text FROM release_files rf
		JOIN releases r ON r.id = rf.release_id JOIN blob_sites bs ON bs.oid = rf.oid
		WHERE r.tag = 'v1.9' AND bs.rule = 'strcpy' AND rf.path = 'net/rds/send.c'")"

k report --trend --format csv > "$TRASH/actual"
cat > "$TRASH/expect" <<'EOF2'
release,count,delta,added,removed,moved
v1.9,11,,,,
v1.10,15,4,5,1,0
EOF2
t_ok "trend: count, delta, added and removed" cmp "$TRASH/expect" "$TRASH/actual"
k report --trend --format csv --rule strlcpy > "$TRASH/actual"
printf 'release,count,delta,added,removed,moved\nv1.9,1,,,,\nv1.10,0,-1,0,1,0\n' > "$TRASH/expect"
t_ok "trend for one rule" cmp "$TRASH/expect" "$TRASH/actual"

t_exit "text report" 0 k report
t_ok "text report has the delta column" grep -q '^strcpy  *4  *+2$' "$TRASH/.stdout"
t_ok "text report total" grep -q '^total  *15  *+4$' "$TRASH/.stdout"
t_exit "text report by subsystem" 0 k report --by subsystem --top 1
t_ok "top subsystem first" grep -q '^ *8  *+4  RDS - RELIABLE DATAGRAM SOCKETS$' "$TRASH/.stdout"
t_ok "the rest summarised" grep -q '3 more' "$TRASH/.stdout"

t_exit "text report of the top 2 rules" 0 k report --top 2
t_is "... the rules with most uses, most first" "strcpy bug-on" \
	"$(sed -n '/^rule /,/^total /p' "$TRASH/.stdout" | awk 'NR > 1 && $1 != "total" && $1 != "..." { printf "%s%s", s, $1; s = " " }')"
t_ok "... the rest summarised" grep -q '^\.\.\. 16 more (use --top)$' "$TRASH/.stdout"
t_ok "... the total is the release's" grep -q '^total  *15  *+4$' "$TRASH/.stdout"
t_exit "CSV report of the top rule" 0 k report --by rule --top 1 --format csv v1.10
t_is "... one row" "release,rule,count
v1.10,strcpy,4" "$(cat "$TRASH/.stdout")"
t_exit "JSON report of the top rule" 0 k report --top 1 --format json v1.10
t_is "... one rule, the total all" "['strcpy'] 15" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(list(d["rules"]), d["total"])' "$TRASH/.stdout")"

t_exit "JSON report" 0 k report v1.10 --format json
t_is "JSON parses; total, previous and a delta" "15 v1.9 2" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["total"], d["previous"], d["rules"]["strcpy"]["delta"])' "$TRASH/.stdout")"

t_exit "rescan" 0 k scan
t_is "rescan lexes nothing" "v1.9: up to date
v1.10: up to date" "$(cat "$TRASH/.stdout")"
t_exit "scan --tags of an -rc tag alone" 2 k scan --tags 'v1.11-rc*' --tags 'v1.11*'
t_is "said why, and what scans it" "kmig: no release tags to scan in '$W' (1 -rc tag left out: --include-rc scans them)" \
	"$(cat "$TRASH/.stderr")"
t_exit "scan with --include-rc" 0 k scan --include-rc
t_is "the rc tag: one new blob" "v1.11-rc1: 8 files, 1 blobs lexed, 16 uses" "$(tail -n 1 "$TRASH/.stdout")"
t_exit "scan --tags GLOB" 0 k scan --tags 'v1.9'
t_is "only the matching tag" "v1.9: up to date" "$(cat "$TRASH/.stdout")"
t_exit "scan --tags GLOB --tags NOSUCH" 2 k scan --tags 'v1.9' --tags 'v1.99*'
t_is "... names the pattern, scans nothing" "kmig: --tags 'v1.99*' matches no tag of the repository|" \
	"$(cat "$TRASH/.stderr")|$(cat "$TRASH/.stdout")"
t_exit "report on an unscanned tag" 2 k report v9.9
t_ok "a tag the repository lacks is named as such" grep -q "tag 'v9.9' does not exist" "$TRASH/.stderr"
t_exit "report on an unknown subsystem" 2 k report --subsystem 'NO SUCH'

# The same history from a pack (deltas, as git gc leaves a kernel tree)
# instead of loose objects: the same database, whatever the thread count.
db_canonical "$DB" > "$TRASH/loose.canon"
git -C "$W" repack -q -a -d -f --window=50 --depth=50
t_is "repacked: no loose objects left" "0 objects" \
	"$(git -C "$W" count-objects | cut -d, -f1)"
for j in 1 3; do
	rm -f "$TRASH/packed.db"
	t_exit "scan from the pack, --jobs $j" 0 \
		"$KMIG" --repo "$W" --db "$TRASH/packed.db" scan --include-rc --jobs $j
	db_canonical "$TRASH/packed.db" > "$TRASH/packed.canon"
	t_ok "the database equals the one from loose objects (--jobs $j)" \
		cmp -s "$TRASH/loose.canon" "$TRASH/packed.canon"
done

# A report prints its rows as it reads them: a database damaged under a
# later release's rows is an error with nothing on stdout, not the rows
# before it (a JSON array never closed).
D="$TRASH/damaged.db"
cp "$TRASH/packed.db" "$D"
sqlite3 "$D" 'PRAGMA wal_checkpoint(TRUNCATE)' > /dev/null
pg=$(sqlite3 "$D" "SELECT max(pageno) FROM dbstat WHERE name = 'release_file_rows'")
ps=$(sqlite3 "$D" 'PRAGMA page_size')
t_ok "a page of release_file_rows to damage" test -n "$pg"
head -c "$ps" /dev/zero | tr '\0' '\377' |
	dd of="$D" bs="$ps" seek=$((pg - 1)) conv=notrunc 2> /dev/null
for form in "--trend --format text" "--trend --format csv" "--trend --format json" \
	    "--trend --by subsystem --format csv" "--by file --format csv"; do
	# shellcheck disable=SC2086
	t_exit "damaged: report $form" 2 "$KMIG" --repo "$W" --db "$D" report $form
	t_is "damaged: report $form: nothing on stdout" "" "$(cat "$TRASH/.stdout")"
	t_ok "damaged: report $form: one line on stderr" \
		sh -c "grep -c . '$TRASH/.stderr' | grep -qx 1"
done
t_exit "undamaged: the same trend" 0 "$KMIG" --repo "$W" --db "$TRASH/packed.db" report --trend --format json
t_ok "undamaged: the trend is whole JSON" python3 -m json.tool "$TRASH/.stdout"
t_done
