#!/bin/sh
# The machine-readable outputs a maintainer's script reads: every JSON
# parses and every CSV row is as wide as its header, with names holding
# quotes, backslashes, commas, newlines, tabs, control bytes and a byte of
# no UTF-8 character; their totals are the text's; and 'kmig rules
# --format json' has the same keys with or without a database (null where
# no scanned release tells).
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }

# json_ok FILE / csv_ok FILE: parses (csv: rows as wide as the header)
json_ok() { python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$1"; }
csv_ok() {
	python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8", errors="surrogateescape")))
assert rows and all(len(r) == len(rows[0]) for r in rows), rows' "$1"
}

# rules: without a database, the keys are there (null)
t_exit "rules as JSON without a database" 0 k rules --format json
t_is "... every rule has documented_since and replacement_since, null" "True" \
	"$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(all("documented_since" in r and "replacement_since" in r and
          r["documented_since"] is None and r["replacement_since"] is None for r in d["rules"]))' "$TRASH/.stdout")"
t_is "... and no database made" "no" "$([ -e "$DB" ] && echo yes || echo no)"

SEC1='QUOTE "SEC", back\slash'
SEC2=$(printf 'CTRL\tSEC\001x')
P="drv/$(printf 'a,b"c\\d\nnl\ttab\001\377.c')"
git init -q "$W"
mkdir -p "$W/drv" "$W/net"
printf 'Maintainers List\n----------------\n\n%s\nF:\tdrv/\n\n%s\nF:\tnet/\n\nTHE REST\nF:\t*\nF:\t*/\n' \
	"$SEC1" "$SEC2" > "$W/MAINTAINERS"
printf 'void f(char *a, char *b) { strcpy(a, b); BUG_ON(a); }\n' > "$W/drv/plain.c"
printf 'void g(char *a, char *b) { strcpy(a, b); strncpy(a, b, 1); }\n' > "$W/$P"
printf 'void h(char *a) { WARN_ON(a); }\n' > "$W/net/n.c"
git_commit_all "$W" one && git -C "$W" tag v1.0
printf 'void g(char *a, char *b) { strcpy(a, b); strcpy(b, a); }\n' > "$W/$P"
printf 'void h(char *a) { }\n' > "$W/net/n.c"
git_commit_all "$W" "$(printf 'two, "quoted"\tsubject\001')" && git -C "$W" tag 'v1.1,"x"'

t_exit "scan" 0 k scan

# each output parses, nothing on stderr
for args in "report --format json" "report --by file --format json" \
	"report --by subsystem --format json" "report --trend --format json" \
	"report --trend --by subsystem --format json" "report --reach --format json" \
	"rules --format json" "log --format json v1.0..HEAD" \
	"check --removed --format json HEAD"; do
	# shellcheck disable=SC2086
	k $args > "$TRASH/.stdout" 2> "$TRASH/.stderr"
	t_ok "$args: JSON parses" json_ok "$TRASH/.stdout"
	t_is "$args: stderr empty" "" "$(cat "$TRASH/.stderr")"
done
for args in "report --format csv" "report --by file --format csv" \
	"report --by rule --format csv" "report --trend --format csv" \
	"report --trend --by subsystem --format csv" "report --reach --format csv" \
	"log --format csv v1.0..HEAD"; do
	# shellcheck disable=SC2086
	k $args > "$TRASH/.stdout" 2> "$TRASH/.stderr"
	t_ok "$args: CSV rows as wide as the header" csv_ok "$TRASH/.stdout"
done

t_exit "rules as JSON with scanned releases" 0 k rules --format json
t_is "... the same keys" "True" \
	"$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(all("documented_since" in r and "replacement_since" in r for r in d["rules"]))' "$TRASH/.stdout")"

# the totals agree: text, CSV by file and subsystem, JSON
k report > "$TRASH/text"
k report --by file --format csv > "$TRASH/file.csv"
k report --by subsystem --format csv > "$TRASH/sub.csv"
k report --format json > "$TRASH/r.json"
t_is "text, CSV by file, CSV by section and JSON give one total" "4 4 4 4" \
	"$(python3 -c 'import csv, json, sys
t = [l.split()[1] for l in open(sys.argv[1]) if l.startswith("total ")][0]
s = lambda f: sum(int(r["count"]) for r in csv.DictReader(open(f, newline="", errors="surrogateescape")))
print(t, s(sys.argv[2]), s(sys.argv[3]), json.load(open(sys.argv[4]))["total"])' \
	"$TRASH/text" "$TRASH/file.csv" "$TRASH/sub.csv" "$TRASH/r.json")"
t_is "... the hostile names kept in CSV" "$SEC2|$SEC1|$P" \
	"$(python3 -c 'import csv, sys
f = lambda p, k: sorted({r[k] for r in csv.DictReader(open(p, newline="", encoding="utf-8", errors="surrogateescape"))})
s = f(sys.argv[1], "subsystem"); p = f(sys.argv[2], "path")
sys.stdout.buffer.write("|".join(s + [p[0]]).encode("utf-8", "surrogateescape"))' \
	"$TRASH/sub.csv" "$TRASH/file.csv")"

for c in report log rules check "branch status"; do
	# shellcheck disable=SC2086
	t_exit "$c --format xml" 2 k $c --format xml
	t_is "... one line, nothing on stdout" "1 0" \
		"$(wc -l < "$TRASH/.stderr") $(wc -c < "$TRASH/.stdout")"
done
t_done
