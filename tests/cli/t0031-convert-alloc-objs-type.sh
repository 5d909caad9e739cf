#!/bin/sh
# kmig convert alloc-arith on a base with kmalloc_objs(): "p =
# kmalloc(n * sizeof(T))" becomes kmalloc_objs(T, n, ...), a T *, only
# where p is a T *; a u8 * or void * buffer sized in u32s gets
# kmalloc_array()/kcalloc(), since "buf = kmalloc_objs(u32, ...)" into
# a u8 * would not build (incompatible pointer types).
. "$(dirname "$0")/../lib.sh"

t_need_spatch

W="$TRASH/work"
DB="$TRASH/kmig.db"
k() { SOURCE_DATE_EPOCH=1700000000 "$KMIG" --repo "$W" --db "$DB" "$@"; }

git init -q "$W"
mkdir -p "$W/drivers/foo" "$W/include/linux"
printf 'FOO DRIVER\nM:\tFoo <foo@example.org>\nF:\tdrivers/foo/\n' > "$W/MAINTAINERS"
printf '#define kmalloc_objs(VAR_OR_TYPE, COUNT, ...) x\n' > "$W/include/linux/slab.h"
cat > "$W/drivers/foo/a.c" <<'EOF'
struct foo { int x; };

void foo_alloc(int n)
{
	u8 *buf;
	struct foo *fp;
	void *v;
	u32 *w;

	buf = kmalloc(sizeof(u32) * n, GFP_KERNEL);
	fp = kmalloc(sizeof(struct foo) * n, GFP_KERNEL);
	v = kzalloc(n * sizeof(struct foo), GFP_KERNEL);
	w = kmalloc(n * sizeof(u32), GFP_KERNEL);
	fp = kzalloc(n * sizeof(*fp), GFP_KERNEL);
}
EOF
git_commit_all "$W" one && git -C "$W" tag v1.0
t_exit "scan" 0 k scan
t_exit "convert alloc-arith --dry-run" 0 k convert alloc-arith --series "$TRASH/s" --dry-run --jobs 1
t_is "kmalloc_objs(T, ...) only into a T *" \
"+	buf = kmalloc_array(n, sizeof(u32), GFP_KERNEL);
+	fp = kmalloc_objs(struct foo, n, GFP_KERNEL);
+	v = kcalloc(n, sizeof(struct foo), GFP_KERNEL);
+	w = kmalloc_objs(u32, n, GFP_KERNEL);
+	fp = kzalloc_objs(*fp, n, GFP_KERNEL);" "$(grep '^+	' "$TRASH/.stdout")"
t_done
