#!/bin/sh
# warn-on-user by reachability: a fixture in the shape of the RDS code
# before commit c75ab8a55ac1 (an ops structure naming rds_sendmsg in one
# file, rds_sendmsg in a second calling rds_message_alloc_sgs in a third,
# which holds two WARN_ONs), and after that fix; module init, function
# pointers, same-named static functions, a WARN in the entry point itself;
# kmig check of a new WARN in a reached helper, and the allowlist.
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }

git init -q "$W"
mkdir -p "$W/net/rds" "$W/drivers/foo"
cat > "$W/net/rds/af_rds.c" <<'EOF2'
static const struct proto_ops rds_proto_ops = {
	.family =	AF_RDS,
	.owner =	THIS_MODULE,
	.sendmsg =	rds_sendmsg,
	.recvmsg =	rds_recvmsg,
};

static int __init rds_init(void)
{
	rds_setup_once();
	return 0;
}
module_init(rds_init);
EOF2
cat > "$W/net/rds/send.c" <<'EOF2'
int rds_sendmsg(struct socket *sock, struct msghdr *msg, size_t payload_len)
{
	struct rds_message *rm;
	void (*done)(struct rds_message *) = rds_send_done;
	int num_sgs = ceil(payload_len, PAGE_SIZE);

	rm = rds_message_alloc(num_sgs, GFP_KERNEL);
	rm->data.op_sg = rds_message_alloc_sgs(rm, num_sgs);
	done(rm);
	return helper(rm);
}

static int helper(struct rds_message *rm)
{
	WARN_ON_ONCE(!rm);
	return 0;
}
EOF2
cat > "$W/net/rds/message.c" <<'EOF2'
static void rds_send_done(struct rds_message *rm)
{
	WARN_ON(rm->m_flags);
}

void rds_setup_once(void)
{
	WARN_ON(rds_ready);
}

/*
 * RDS ops use this to grab SG entries from the rm's sg pool.
 */
struct scatterlist *rds_message_alloc_sgs(struct rds_message *rm, int nents)
{
	struct scatterlist *sg_first = (struct scatterlist *) &rm[1];
	struct scatterlist *sg_ret;

	WARN_ON(rm->m_used_sgs + nents > rm->m_total_sgs);
	WARN_ON(!nents);

	if (rm->m_used_sgs + nents > rm->m_total_sgs)
		return NULL;

	sg_ret = &sg_first[rm->m_used_sgs];
	return sg_ret;
}
EOF2
cat > "$W/drivers/foo/foo.c" <<'EOF2'
static int helper(struct rds_message *rm)
{
	WARN_ON(rm);
	return 1;
}

int foo_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	WARN_ON(!len);
	return 0;
}

static const struct proto foo_proto = {
	.sendmsg = foo_sendmsg,
};
EOF2
git_commit_all "$W" "rds before the fix" && git -C "$W" tag v1.0

t_exit "scan the pre-fix release" 0 k scan --jobs 2
sites() {
	sqlite3 -separator ' ' "$DB" "SELECT rr.path, rr.line, rr.chain FROM release_reach rr
		JOIN releases r ON r.id = rr.release_id WHERE r.tag = '$1' ORDER BY rr.path, rr.line"
}
t_is "the WARNs user space reaches, with their call paths" \
"drivers/foo/foo.c 9 foo_sendmsg (drivers/foo/foo.c:7)
net/rds/message.c 19 rds_sendmsg (net/rds/send.c:1) → rds_message_alloc_sgs (net/rds/message.c:14)
net/rds/message.c 20 rds_sendmsg (net/rds/send.c:1) → rds_message_alloc_sgs (net/rds/message.c:14)
net/rds/send.c 15 rds_sendmsg (net/rds/send.c:1) → helper (net/rds/send.c:13)" "$(sites v1.0)"

k report v1.0 --format csv --by rule > "$TRASH/actual"
t_is "one use, one rule: 7 WARNs, 4 of them warn-on-user" \
"v1.0,warn-on,3
v1.0,warn-on-user,4" "$(grep ',warn-on' "$TRASH/actual")"
t_is "module init, a function pointer, a same-named static: plain warn-on" \
"drivers/foo/foo.c,1
net/rds/message.c,2" \
	"$(k report v1.0 --format csv --by file --rule warn-on | sed 1d | cut -d, -f2,4)"

t_exit "report --reach: the sites and their paths" 0 k report v1.0 --reach
cp "$TRASH/.stdout" "$TRASH/reach.out"
t_exit "report --reach of a tag the repository lacks" 2 k report v9.9 --reach
t_is "... says so, as report without --reach" "kmig: tag 'v9.9' does not exist in '$W'" \
	"$(cat "$TRASH/.stderr")"
cp "$TRASH/reach.out" "$TRASH/.stdout"
t_ok "report --reach shows the path and the WARN" grep -qF \
	"net/rds/message.c:20: rds_sendmsg (net/rds/send.c:1) → rds_message_alloc_sgs (net/rds/message.c:14): WARN_ON(!nents);" \
	"$TRASH/.stdout"
t_ok "report --reach gives the entry points" grep -q "^entry points: 2" "$TRASH/.stdout"

# the fix: rds_message_alloc_sgs reports with pr_warn and an error instead
cat > "$W/net/rds/message.c" <<'EOF2'
static void rds_send_done(struct rds_message *rm)
{
	WARN_ON(rm->m_flags);
}

void rds_setup_once(void)
{
	WARN_ON(rds_ready);
}

/*
 * RDS ops use this to grab SG entries from the rm's sg pool.
 */
struct scatterlist *rds_message_alloc_sgs(struct rds_message *rm, int nents,
					  int *ret)
{
	struct scatterlist *sg_first = (struct scatterlist *) &rm[1];
	struct scatterlist *sg_ret;

	if (nents <= 0) {
		pr_warn("rds: alloc sgs failed! nents <= 0\n");
		*ret = -EINVAL;
		return NULL;
	}
	if (rm->m_used_sgs + nents > rm->m_total_sgs) {
		*ret = -ENOMEM;
		return NULL;
	}
	sg_ret = &sg_first[rm->m_used_sgs];
	return sg_ret;
}
EOF2
git_commit_all "$W" "net/rds: remove user triggered WARN_ON in rds_sendmsg" && git -C "$W" tag v1.1
t_exit "scan the fixed release" 0 k scan --jobs 2
t_is "after the fix: no reached WARN in message.c" "" "$(sites v1.1 | grep message.c)"
t_is "after the fix: the others stay" 2 "$(sites v1.1 | wc -l)"

k report --trend --format csv --rule warn-on-user > "$TRASH/actual"
t_is "trend: the two warn-on-user uses removed" \
"release,count,delta,added,removed,moved
v1.0,4,,,,
v1.1,2,-2,0,2,0" "$(cat "$TRASH/actual")"

# a new WARN in the helper of another file, on the scanned base v1.1
sed -i 's|^\tif (nents <= 0) {|\tWARN_ON(nents < 0);\n\tif (nents <= 0) {|' "$W/net/rds/message.c"
git_commit_all "$W" "add a WARN to a helper user space reaches"
t_exit "check: a new WARN in a helper rds_sendmsg reaches fails" 1 k check HEAD
t_ok "check: counted once, as warn-on-user" grep -qx "1 new deprecated use (0 allowed)" "$TRASH/.stdout"
t_ok "check: the rule is warn-on-user" grep -q "message.c:20: warn-on-user:" "$TRASH/.stdout"
t_ok "check: the call path is the evidence" grep -qF \
	"reached: rds_sendmsg (net/rds/send.c:1) → rds_message_alloc_sgs (net/rds/message.c:14): WARN_ON(nents < 0);" \
	"$TRASH/.stdout"
t_ok "check: names the graph" grep -q "call graph of v1.1" "$TRASH/.stdout"
# the base's facts from the graph cache the scan of v1.1 left (DB-graph);
# without it, or with a damaged one, from the database: the same verdict
cp "$TRASH/.stdout" "$TRASH/with-cache"
t_ok "the scan left its graph cache" test -s "$DB-graph"
mv "$DB-graph" "$TRASH/graph.keep"
t_exit "check without the graph cache" 1 k check HEAD
t_is "... the same output" "$(cat "$TRASH/with-cache")" "$(cat "$TRASH/.stdout")"
head -c 100 "$TRASH/graph.keep" > "$DB-graph"
t_exit "check with a graph cache cut short" 1 k check HEAD
t_is "... the same output" "$(cat "$TRASH/with-cache")" "$(cat "$TRASH/.stdout")"
mv "$TRASH/graph.keep" "$DB-graph"
t_exit "check --format json" 1 k check --format json HEAD
t_ok "json: the path" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["new"]
assert len(s) == 1 and s[0]["rule"] == "warn-on-user", s
assert s[0]["reached"].startswith("rds_sendmsg (net/rds/send.c:1)"), s
assert d["reach"]["graph"] == "v1.1" and d["reach"]["by"] == "call graph", d["reach"]
' "$TRASH/.stdout"
printf 'net/rds/message.c warn-on  # checked by hand\n' > "$TRASH/allow"
t_exit "check: an allowlist entry for warn-on covers the warn-on-user use" 0 \
	k check --allow "$TRASH/allow" HEAD
t_ok "allowed" grep -qx "1 new deprecated use (1 allowed)" "$TRASH/.stdout"
t_exit "check --reach-depth 0: only entry points" 1 k check --reach-depth 0 HEAD
t_ok "depth 0: plain warn-on" grep -q "message.c:20: warn-on:" "$TRASH/.stdout"
t_exit "check without a database: by name" 1 "$KMIG" --repo "$W" --db "$TRASH/none.db" check HEAD
t_ok "no graph: the fallback says so" grep -q "by function name only" "$TRASH/.stdout"
t_ok "no graph: rds_message_alloc_sgs is no handler by name" grep -q "message.c:20: warn-on:" "$TRASH/.stdout"

t_exit "scan --reach-depth 0: the graph again, no lexing" 0 k scan --reach-depth 0 --tags v1.0
t_ok "said so" grep -q "v1.0: call graph again (reach depth 0)" "$TRASH/.stdout"
t_is "depth 0: only the entry point's own WARN" "drivers/foo/foo.c 9 foo_sendmsg (drivers/foo/foo.c:7)" "$(sites v1.0)"
t_exit "--reach-depth bad" 2 k scan --reach-depth x
# A release counted by another release step (a kmig whose call graph or
# counting SQL differs: releases.counted_by) is counted again from its
# blobs' cached sites and facts, lexing none, to the same counts.
t_exit "scan: the default depth again" 0 k scan
k report --by file --format csv > "$TRASH/counted.csv"
reached=$(sites v1.0; sites v1.1)
t_ok "reached sites to compare" test -n "$reached"
by=$(sqlite3 "$DB" "SELECT DISTINCT counted_by FROM releases")
t_is "counted_by: one value, the scan's" 1 "$(printf '%s\n' "$by" | grep -c .)"
sqlite3 "$DB" "UPDATE releases SET counted_by = NULL WHERE tag = 'v1.0'; UPDATE releases SET counted_by = 'another kmig' WHERE tag = 'v1.1'"
t_exit "scan: releases counted by another kmig" 0 k scan
t_is "each counted again from its cached blobs" "v1.0: counted again from its cached blobs (kmig's counting changed)
v1.1: counted again from its cached blobs (kmig's counting changed)" "$(cat "$TRASH/.stdout")"
t_is "the same counts" "$(cat "$TRASH/counted.csv")" "$(k report --by file --format csv)"
t_is "counted_by: this kmig's again" "$by" "$(sqlite3 "$DB" "SELECT DISTINCT counted_by FROM releases")"
t_is "the same reached sites" "$reached" "$(sites v1.0; sites v1.1)"
t_exit "scan: then up to date" 0 k scan
t_ok "up to date" sh -c "grep -c 'up to date' '$TRASH/.stdout' | grep -qx 2"
# A WARN whose file does not change becomes reached through another file's
# change: the trend compares its file too (warn-on removed, warn-on-user
# added), as it does every file whose reached lines differ.
W2="$TRASH/work2"
git init -q "$W2"
mkdir -p "$W2/net/rds"
printf 'RDS\nF:\tnet/rds/\n' > "$W2/MAINTAINERS"
cat > "$W2/net/rds/af_rds.c" <<'EOF2'
static const struct proto_ops rds_proto_ops = {
	.sendmsg =	rds_sendmsg,
};
EOF2
cat > "$W2/net/rds/send.c" <<'EOF2'
int rds_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	return 0;
}
EOF2
cat > "$W2/net/rds/message.c" <<'EOF2'
void rds_setup_once(void)
{
	WARN_ON(rds_ready);
}
EOF2
git_commit_all "$W2" "v1.0" && git -C "$W2" tag v1.0
sed -i 's|^\treturn 0;|\trds_setup_once();\n\treturn 0;|' "$W2/net/rds/send.c"
git_commit_all "$W2" "v1.1" && git -C "$W2" tag v1.1
t_exit "scan: a WARN reached from v1.1 on, its file unchanged" 0 \
	"$KMIG" --repo "$W2" --db "$TRASH/w2.db" scan
t_exit "its trend, warn-on-user" 0 \
	"$KMIG" --repo "$W2" --db "$TRASH/w2.db" report --trend --format csv --rule warn-on-user
t_is "... added in v1.1" "release,count,delta,added,removed,moved
v1.0,0,,,,
v1.1,1,1,1,0,0" "$(cat "$TRASH/.stdout")"
t_exit "its trend, warn-on" 0 \
	"$KMIG" --repo "$W2" --db "$TRASH/w2.db" report --trend --format csv --rule warn-on
t_is "... removed in v1.1" "release,count,delta,added,removed,moved
v1.0,1,,,,
v1.1,0,-1,0,1,0" "$(cat "$TRASH/.stdout")"
# Two WARNs on one reached line are two warn-on-user uses: report --reach
# lists (and counts) each of them, as report and web count them.
W3="$TRASH/work3"
git init -q "$W3"
mkdir -p "$W3/kernel"
cat > "$W3/kernel/kcov.c" <<'EOF2'
static const struct file_operations kcov_fops = {
	.unlocked_ioctl = kcov_ioctl,
};

long kcov_ioctl(struct file *filep, unsigned int cmd, unsigned long arg)
{
	if (WARN_ON(kcov->remote) || WARN_ON(kcov->t != t))
		return -EINVAL;
	WARN_ON_ONCE(!arg);
	return 0;
}
EOF2
git_commit_all "$W3" "v1.0" && git -C "$W3" tag v1.0
k3() { "$KMIG" --repo "$W3" --db "$TRASH/w3.db" "$@"; }
t_exit "scan: two WARNs on one reached line" 0 k3 scan
t_is "... counted as 3 warn-on-user uses" "v1.0,warn-on-user,3" \
	"$(k3 report --format csv --by rule | grep ',warn-on-user,')"
t_exit "report --reach" 0 k3 report --reach
t_ok "... 3 sites" grep -qx "warn-on-user sites: 3" "$TRASH/.stdout"
t_is "... one line per site" 2 "$(grep -c '^kernel/kcov.c:7: ' "$TRASH/.stdout")"
t_is "report --reach --format csv: a row per site" 3 \
	"$(k3 report --reach --format csv | sed 1d | wc -l)"
t_is "report --reach --format json: a site per use" 3 \
	"$(k3 report --reach --format json | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["sites"]))')"
t_done
