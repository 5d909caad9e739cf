#!/bin/sh
# kmig scan of releases it scanned before: at another --reach-depth (the
# graph again, which moves WARN sites between warn-on and warn-on-user).
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

t_done
