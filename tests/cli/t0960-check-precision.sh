#!/bin/sh
# kmig check reports only what a change really adds: a call re-wrapped
# around its %p format (the format moved to or from the call's line) is
# the same use.
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }

git init -q "$W"
mkdir -p "$W/net"
printf 'Maintainers List\n----------------\n\nNET\nF:\tnet/\n\nTHE REST\nF:\t*\nF:\t*/\n' \
	> "$W/MAINTAINERS"

# 1. printk-p: the format's line break moved within the call's arguments
cat > "$W/net/p.c" <<'EOF'
void show(struct device *dev, void *p, void *q)
{
	dev_info(dev,
		 "a %p\n", p);
	dev_info(dev, "b %p\n",
		 q);
	dev_err(dev, "c: %u bytes at "
		"%p\n", 4, p);
}
EOF
git_commit_all "$W" base
cat > "$W/net/p.c" <<'EOF'
void show(struct device *dev, void *p, void *q)
{
	dev_info(dev, "a %p\n", p);
	dev_info(dev,
		 "b %p\n", q);
	dev_err(dev, "c: %u bytes at " "%p\n",
		4, p);
}
EOF
git_commit_all "$W" "net: re-wrap the dev_info() calls"
t_exit "printk-p: calls re-wrapped around their formats" 0 k check --removed HEAD
t_is "... nothing new, nothing removed" "0 new deprecated uses (0 allowed)" \
	"$(tail -n +2 "$TRASH/.stdout" | grep -v '^$')"
cat >> "$W/net/p.c" <<'EOF'
void show2(struct device *dev, void *p)
{
	dev_info(dev,
		 "a %p\n", p);
}
EOF
git_commit_all "$W" "net: a second copy"
t_exit "printk-p: a second copy of a wrapped call" 1 k check HEAD
t_ok "... is new, its text from the call's name" \
	grep -qx '	dev_info(dev, "a %p\\n", p);' "$TRASH/.stdout"
t_ok "... on the format's line" grep -q '^>> net/p.c:12: printk-p:' "$TRASH/.stdout"

t_done
