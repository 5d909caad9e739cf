#!/bin/sh
# kmig convert strcpy converts only destinations that are char arrays of a
# size the compiler knows: a parameter declared as an array ("char buf[]",
# "char buf[16]") is a pointer in C, and a flexible array member ("char
# name[]", "char name[0]") has no size; the two-argument strscpy() of
# either would not build (__must_be_array) or copy nothing.  They are left
# alone and listed as not converted, with the reason.
. "$(dirname "$0")/../lib.sh"

if ! command -v spatch > /dev/null 2>&1; then
	t_skip "spatch (coccinelle) is not installed: make deps"
	t_done
fi

W="$TRASH/work"
DB="$TRASH/kmig.db"
k() { SOURCE_DATE_EPOCH=1700000000 "$KMIG" --repo "$W" --db "$DB" "$@"; }

git init -q "$W"
mkdir -p "$W/drivers/foo"
printf 'FOO DRIVER\nM:\tFoo <foo@example.org>\nF:\tdrivers/foo/\n' > "$W/MAINTAINERS"
cat > "$W/drivers/foo/a.c" <<'EOF'
static char name[16];

struct foo_dev {
	char label[16];
	char flex[];
};

struct foo_msg {
	int len;
	char data[0];
};

void foo_set(const char *s, char param[], char sized[16], struct foo_dev *d,
	     struct foo_msg *m, char tbl[][16])
{
	char buf[8];

	strcpy(name, s);
	strcpy(param, s);
	strcpy(sized, s);
	strcpy(buf, s);
	strcpy(d->label, s);
	strcpy(d->flex, s);
	strcpy(m->data, s);
	strcpy(tbl[1], s);
}

static void foo_other(const char *s)
{
	char param[4];

	strcpy(param, s);
}
EOF
git_commit_all "$W" one && git -C "$W" tag v1.0
t_exit "scan" 0 k scan
t_exit "convert strcpy --dry-run" 0 k convert strcpy --series "$TRASH/s" --dry-run --jobs 1
t_is "only the arrays of known size converted" \
"+	strscpy(name, s);
+	strscpy(buf, s);
+	strscpy(d->label, s);
+	strscpy(tbl[1], s);
+	strscpy(param, s);" "$(grep '^+	' "$TRASH/.stdout")"
t_is "array parameters and flexible array members left, with the reason" \
"not converted: drivers/foo/a.c:19: strcpy(param, s); (the destination is not a char array of known size)
not converted: drivers/foo/a.c:20: strcpy(sized, s); (the destination is not a char array of known size)
not converted: drivers/foo/a.c:23: strcpy(d->flex, s); (the destination is not a char array of known size)
not converted: drivers/foo/a.c:24: strcpy(m->data, s); (the destination is not a char array of known size)" \
	"$(grep '^not converted' "$TRASH/.stdout")"
t_ok "counted" grep -q '^strcpy: 1 patch, 5 uses converted, 4 not converted$' "$TRASH/.stdout"
t_done
