#!/bin/sh
# Text output C-quotes a path or section name holding a newline or tab as
# git does ("drv/new\nline\ttab.c"), so no record is split across lines
# or columns: report by file and by subsystem, the trend by subsystem,
# report --reach and its call paths, check's new, reached and removed
# uses.  An ordinary path prints as before; CSV and JSON are unchanged.
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }

P="drv/$(printf 'new\nline\ttab.c')"	# the file's real name
Q='"drv/new\nline\ttab.c"'		# as text output writes it
SEC=$(printf 'ODD\tSECTION')
git init -q "$W"
mkdir -p "$W/drv"
printf 'Maintainers List\n----------------\n\n%s\nF:\tdrv/\n\nTHE REST\nF:\t*\nF:\t*/\n' \
	"$SEC" > "$W/MAINTAINERS"
printf 'void f(char *a, char *b) { strcpy(a, b); }\n' > "$W/drv/plain.c"
cat > "$W/$P" <<'EOF'
static long x_ioctl(struct file *f, unsigned int c, unsigned long a)
{
	WARN_ON(c);
	return 0;
}

static const struct file_operations x_fops = { .unlocked_ioctl = x_ioctl };

void g(char *a, char *b)
{
	strcpy(a, b);
}
EOF
git_commit_all "$W" one && git -C "$W" tag v1.0

t_exit "scan" 0 k scan
t_is "... both files" "v1.0: 2 files, 2 blobs lexed, 3 uses" "$(cat "$TRASH/.stdout")"

t_exit "report by file" 0 k report v1.0 --by file
t_is "... the path quoted on one line, the ordinary one as it is" "release v1.0
    count  file
        2  $Q
        1  drv/plain.c
        3  total" "$(head -5 "$TRASH/.stdout")"
t_exit "report by subsystem" 0 k report v1.0 --by subsystem
t_is "... the section's tab quoted" "        3  \"ODD\\tSECTION\"" \
	"$(sed -n 3p "$TRASH/.stdout")"
t_exit "report of the section" 0 k report v1.0 --subsystem "$SEC"
t_is "... named quoted in the header" 'release v1.0, subsystem "ODD\tSECTION"' \
	"$(head -1 "$TRASH/.stdout")"
t_exit "trend by subsystem" 0 k report --trend --by subsystem
t_is "... a row per rule, the section last and quoted" \
"release          rule                       count     delta     added   removed     moved  subsystem
v1.0             strcpy                         2         -         -         -         -  \"ODD\\tSECTION\"
v1.0             warn-on-user                   1         -         -         -         -  \"ODD\\tSECTION\"" \
	"$(cat "$TRASH/.stdout")"
t_exit "report --reach" 0 k report v1.0 --reach
t_is "... the site and its call path quoted" \
	"$Q:3: \"x_ioctl (drv/new\\nline\\ttab.c:1)\": WARN_ON(c);" \
	"$(sed -n 5,\$p "$TRASH/.stdout")"

# CSV and JSON keep the name as they always did
t_exit "CSV by file" 0 k report v1.0 --by file --format csv
t_is "... the name in RFC 4180 quotes, its bytes as they are" \
	"$(printf 'release,path,rule,count,delta\nv1.0,"%s",strcpy,1,\nv1.0,"%s",warn-on-user,1,\nv1.0,drv/plain.c,strcpy,1,' "$P" "$P")" \
	"$(cat "$TRASH/.stdout")"
t_exit "JSON by file" 0 k report v1.0 --by file --format json
t_is "... the path a JSON string" \
	'["drv/new\nline\ttab.c", "drv/new\nline\ttab.c", "drv/plain.c"]' \
	"$(python3 -c 'import json, sys
print(json.dumps([c["path"] for c in json.load(open(sys.argv[1]))["counts"]]))' "$TRASH/.stdout")"
t_exit "CSV of --reach" 0 k report v1.0 --reach --format csv
t_is "... as it is" \
	"$(printf 'release,path,line,path_of_calls,text\nv1.0,"%s",3,"x_ioctl (%s:1)",WARN_ON(c);' "$P" "$P")" \
	"$(cat "$TRASH/.stdout")"

# a commit: a new WARN that x_ioctl reaches, a new strcpy, one removed
cat > "$W/$P" <<'EOF'
static void y(unsigned long a)
{
	WARN_ON(a > 8);
}

static long x_ioctl(struct file *f, unsigned int c, unsigned long a)
{
	WARN_ON(c);
	y(a);
	return 0;
}

static const struct file_operations x_fops = { .unlocked_ioctl = x_ioctl };

void g(char *a, char *b)
{
	strscpy(a, b, 8);
}

void h(char *d, char *s)
{
	strcpy(d, s);
}
EOF
git_commit_all "$W" two
t_exit "check --removed of the commit" 1 k check --removed HEAD
t_is "... every path and call path quoted" \
"kmig check: $(git -C "$W" rev-parse --short=12 HEAD) (\"two\")

>> $Q: In function 'y':
>> $Q:3: warn-on-user: WARN*() user space reaches through
   direct calls from an entry point (counted instead of warn-on) — user space
   must not be able to trigger a WARN*(); validate the input and return -EINVAL
   (or log with pr_*_ratelimited()) instead
   reached: \"x_ioctl (drv/new\\nline\\ttab.c:6) → y (drv/new\\nline\\ttab.c:1)\": WARN_ON(a > 8);
	WARN_ON(a > 8);
>> $Q: In function 'h':
>> $Q:22: strcpy: strcpy() call — use strscpy(), which
   always NUL-terminates and never writes past the destination
	strcpy(d, s);
removed: $Q:11: strcpy: strcpy() call
	strcpy(a, b);

2 new deprecated uses (0 allowed)
1 deprecated use removed
note: warn-on-user: call graph of v1.0 with the change, 3 calls deep" \
	"$(cat "$TRASH/.stdout")"
t_exit "check as JSON" 1 k check --removed --format json HEAD
t_is "... the paths JSON strings" \
	'["drv/new\nline\ttab.c", "drv/new\nline\ttab.c"] ["drv/new\nline\ttab.c"] x_ioctl (drv/new
line	tab.c:6) → y (drv/new
line	tab.c:1)' \
	"$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(json.dumps([s["path"] for s in d["new"]]), json.dumps([s["path"] for s in d["removed"]]),
      d["new"][0]["reached"])' "$TRASH/.stdout")"

# the name of a patch file with a newline and an escape sequence in it:
# check's header and an error name it on one line, nothing for a terminal
N="$TRASH/$(printf 'my\nfix\033[31m.patch')"
git -C "$W" format-patch -1 --stdout HEAD > "$N"
t_exit "check of a patch whose name holds a newline" 1 k check --patch "$N" --base v1.0
t_is "... the header one line, the name C-quoted" \
	"kmig check: \"$TRASH/my\\nfix\\033[31m.patch\" (\"two\") on v1.0" \
	"$(head -n 1 "$TRASH/.stdout")"
: > "$N"
t_exit "check of an empty patch of that name" 2 k check --patch "$N" --base v1.0
t_is "... one line on stderr, its control bytes escaped" \
	"kmig: patch '$TRASH/my\\nfix\\033[31m.patch' contains no diff" \
	"$(cat "$TRASH/.stderr")"
t_exit "an error naming a byte of no UTF-8 character" 2 k check --patch "$TRASH/x$(printf '\377')y-é.patch"
t_is "... escaped, the UTF-8 kept" "kmig: cannot open '$TRASH/x\\377y-é.patch': No such file or directory" \
	"$(cat "$TRASH/.stderr")"
t_exit "an error naming a C1 control (CSI)" 2 k check --patch "$TRASH/c$(printf '\302\233')31m.patch"
t_is "... escaped as its bytes" "kmig: cannot open '$TRASH/c\\302\\23331m.patch': No such file or directory" \
	"$(cat "$TRASH/.stderr")"
t_exit "a usage error naming a newline" 2 k report --format "$(printf 'te\nxt')"
t_is "... one line" 1 "$(wc -l < "$TRASH/.stderr")"
t_done
