#!/bin/sh
# kmig convert strcpy converts only destinations that are char arrays of a
# size the compiler knows: a parameter declared as an array ("char buf[]",
# "char buf[16]") is a pointer in C, and a flexible array member ("char
# name[]", "char name[0]") has no size, and a one-element array (the
# old-style flexible array member "char name[1]", or a "char x[1]"
# variable) has sizeof() 1; the two-argument strscpy() of any of them
# would not build (__must_be_array) or copy nothing.  They are left alone
# (also in a typedef'd struct) and listed as not converted, with the reason.
. "$(dirname "$0")/../lib.sh"

t_need_spatch

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

struct foo_old {
	int len;
	char tag[1];
};

typedef struct {
	int len;
	char text[0];
	char id[2];
} foo_t;

static char one[1];

void foo_set(const char *s, char param[], char sized[16], struct foo_dev *d,
	     struct foo_msg *m, char tbl[][16], struct foo_old *o, foo_t *t)
{
	char buf[8];
	char tiny[1] = "";

	strcpy(name, s);
	strcpy(param, s);
	strcpy(sized, s);
	strcpy(buf, s);
	strcpy(d->label, s);
	strcpy(d->flex, s);
	strcpy(m->data, s);
	strcpy(tbl[1], s);
	strcpy(o->tag, s);
	strcpy(t->text, s);
	strcpy(t->id, s);
	strcpy(one, s);
	strcpy(tiny, s);
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
+	strscpy(t->id, s);
+	strscpy(param, s);" "$(grep '^+	' "$TRASH/.stdout")"
ONE="the destination is a one-element array: strscpy() would copy only the NUL and return -E2BIG"
t_is "array parameters, flexible and one-element arrays left, with the reason" \
"not converted: drivers/foo/a.c:33: strcpy(param, s); (the destination is not a char array of known size)
not converted: drivers/foo/a.c:34: strcpy(sized, s); (the destination is not a char array of known size)
not converted: drivers/foo/a.c:37: strcpy(d->flex, s); (the destination is not a char array of known size)
not converted: drivers/foo/a.c:38: strcpy(m->data, s); (the destination is not a char array of known size)
not converted: drivers/foo/a.c:40: strcpy(o->tag, s); ($ONE)
not converted: drivers/foo/a.c:41: strcpy(t->text, s); (the destination is not a char array of known size)
not converted: drivers/foo/a.c:43: strcpy(one, s); ($ONE)
not converted: drivers/foo/a.c:44: strcpy(tiny, s); ($ONE)" \
	"$(grep '^not converted' "$TRASH/.stdout")"
t_ok "counted" grep -q '^strcpy: 1 patch, 6 uses converted, 8 not converted$' "$TRASH/.stdout"
t_done
