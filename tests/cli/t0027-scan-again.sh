#!/bin/sh
# kmig scan of releases it scanned before: at another --reach-depth (the
# graph again, which moves WARN sites between warn-on and warn-on-user);
# a tag moved to another commit with the same tree (counts kept, the new
# commit's date and date trailers recorded with its id).
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }

# my_sendmsg -> f1 -> f2 -> f3 -> f4, whose WARN_ON is 4 calls away
git init -q "$W"
mkdir -p "$W/net"
cat > "$W/net/s.c" <<'EOF'
static void f4(int x) { WARN_ON(x); }
static void f3(int x) { f4(x); }
static void f2(int x) { f3(x); }
static void f1(int x) { f2(x); }
static int my_sendmsg(struct socket *sock) { f1(1); return 0; }
static const struct proto_ops ops = { .sendmsg = my_sendmsg };
EOF
git_commit_all "$W" one && git -C "$W" tag v1.0

warns() { k report v1.0 --by rule --format csv | grep ',warn-on' | tr '\n' ' '; }

t_exit "scan at the default depth" 0 k scan
t_is "depth 3: a plain warn-on" "v1.0,warn-on,1 v1.0,warn-on-user,0 " "$(warns)"
t_exit "scan --reach-depth 4" 0 k scan --reach-depth 4
t_is "the line gives the counts that changed, not 'counts kept'" \
	"v1.0: call graph again (reach depth 4), counted again: 1 warn-on-user, 0 warn-on" \
	"$(cat "$TRASH/.stdout")"
t_is "depth 4: the WARN is reached" "v1.0,warn-on,0 v1.0,warn-on-user,1 " "$(warns)"
t_exit "scan --reach-depth 3 again" 0 k scan --reach-depth 3
t_is "and back" \
	"v1.0: call graph again (reach depth 3), counted again: 0 warn-on-user, 1 warn-on" \
	"$(cat "$TRASH/.stdout")"

# v1.0 again at a commit of the same tree, with another date and kmig
# import's date trailers
GIT_COMMITTER_DATE='2024-06-01T00:00:00Z' git -C "$W" commit -q --amend -m 'one again

Date-Source: debian-changelog
Line-Date: 1700000000'
git -C "$W" tag -f v1.0 > /dev/null
t_exit "scan of the moved tag" 0 k scan
t_is "same tree: counts kept" "v1.0: same tree at a new commit, counts kept" \
	"$(cat "$TRASH/.stdout")"
t_is "the new commit with its date, date source and line date" \
	"$(git -C "$W" rev-parse v1.0)|1717200000|debian-changelog|1700000000" \
	"$(sqlite3 "$DB" "SELECT commit_id, date, date_source, line_date FROM releases WHERE tag = 'v1.0'")"
k report v1.0 --format json > "$TRASH/json"
t_ok "report: the new commit's date" \
	grep -q '"date": "2024-06-01T00:00:00+00:00", .*"date_source": "debian-changelog"' "$TRASH/json"

t_done
