#!/bin/sh
# kmig check reports only what a change really adds: a call re-wrapped
# around its %p format (the format moved to or from the call's line) is
# the same use; a new fall-through comment is not taken for one worded
# otherwise that the change converts elsewhere; a split format string
# joined into one literal is the same use.
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

# 2. a fall-through comment added in one file while another, worded
#    otherwise, is converted to fallthrough; in another: one new, one removed
cat > "$W/net/s.c" <<'EOF'
int s1(int x)
{
	switch (x) {
	case 1:
		x++;
		/* fall through */
	case 2:
		break;
	}
	return x;
}
EOF
cat > "$W/net/t.c" <<'EOF'
int t1(int x)
{
	switch (x) {
	case 1:
		x++;
	case 2:
		break;
	}
	return x;
}
EOF
git_commit_all "$W" "net: two switches"
sed 's|^		/\* fall through \*/|		fallthrough;|' "$W/net/s.c" > "$TRASH/s.c"
mv "$TRASH/s.c" "$W/net/s.c"
sed 's|^		x++;|&\
		// FALLTHRU|' "$W/net/t.c" > "$TRASH/t.c"
mv "$TRASH/t.c" "$W/net/t.c"
git_commit_all "$W" "net: convert one fall-through comment, add another"
t_is "the change converted one comment and added one" "1 1" \
	"$(grep -c 'fallthrough;' "$W/net/s.c") $(grep -c FALLTHRU "$W/net/t.c")"
t_exit "fall-through comments of other wordings" 1 k check --removed HEAD
t_ok "... the added one is new" \
	grep -q '^>> net/t.c:6: fallthrough-comment:' "$TRASH/.stdout"
t_ok "... the converted one removed" \
	grep -q '^removed: net/s.c:6: fallthrough-comment:' "$TRASH/.stdout"
t_ok "... one new" grep -qx "1 new deprecated use (0 allowed)" "$TRASH/.stdout"
git -C "$W" checkout -q HEAD~1 -- net/s.c net/t.c
sed 's|/\* fall through \*/|//  fall through|' "$W/net/s.c" > "$TRASH/s.c"
mv "$TRASH/s.c" "$W/net/s.c"
git_commit_all "$W" "net: the comment as a // one"
t_exit "a fall-through comment rewritten with the same words" 0 k check --removed HEAD~2..HEAD
t_ok "... nothing new" grep -qx "0 new deprecated uses (0 allowed)" "$TRASH/.stdout"
t_ok "... nothing removed" sh -c "! grep -q '^removed' '$TRASH/.stdout'"

# 3. a split format string joined into one literal (checkpatch's "do not
#    split user-visible strings"): the same %p use
cat > "$W/net/j.c" <<'EOF'
void j(struct device *dev, void *p)
{
	dev_err(dev, "align check failed at "
		"%p\n", p);
}
EOF
git_commit_all "$W" "net: a split format"
cat > "$W/net/j.c" <<'EOF'
void j(struct device *dev, void *p)
{
	dev_err(dev, "align check failed at %p\n", p);
}
EOF
git_commit_all "$W" "net: do not split the format"
t_exit "a split format joined" 0 k check --removed HEAD
t_ok "... nothing new" grep -qx "0 new deprecated uses (0 allowed)" "$TRASH/.stdout"
t_ok "... nothing removed" sh -c "! grep -q '^removed' '$TRASH/.stdout'"

t_done
