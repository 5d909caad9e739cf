#!/bin/sh
# kmig report --subsystem NAME for a section of the release's MAINTAINERS
# that no scanned file is in (its files all out of the scan's scope, or its
# F: patterns matching nothing): zero counts in text, CSV and JSON, and in
# the trend; only a name that is no section of the release's MAINTAINERS
# is unknown.
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }

git init -q "$W"
mkdir -p "$W/net/rds" "$W/tools/perf"
cat > "$W/MAINTAINERS" <<'EOM'
Maintainers List
----------------

RDS - RELIABLE DATAGRAM SOCKETS
F:	net/rds/

PERF TOOLS
F:	tools/perf/

NOTHING MATCHES
F:	fs/nothing/
EOM
printf 'void f(char *a, char *b) { strcpy(a, b); }\n' > "$W/net/rds/send.c"
printf 'void t(char *a, char *b) { strcpy(a, b); BUG(); }\n' > "$W/tools/perf/t.c"
git_commit_all "$W" one && git -C "$W" tag v1.0
# v1.1: NOTHING MATCHES is gone from MAINTAINERS
sed -i '/^NOTHING MATCHES$/,$d' "$W/MAINTAINERS"
printf 'void g(void) { BUG(); }\n' >> "$W/net/rds/send.c"
git_commit_all "$W" two && git -C "$W" tag v1.1

t_exit "scan" 0 k scan
t_is "tools/ is out of scope" "v1.0: 1 files, 1 blobs lexed, 1 uses
v1.1: 1 files, 1 blobs lexed, 2 uses" "$(cat "$TRASH/.stdout")"

for sec in 'PERF TOOLS' 'NOTHING MATCHES'; do
	t_exit "$sec: text report of v1.0" 0 k report v1.0 --subsystem "$sec"
	t_ok "... total 0" grep -q '^total  *0$' "$TRASH/.stdout"
	t_ok "... says the section has no file in scope" grep -qx \
		"note: '$sec', a section of v1.0's MAINTAINERS, has no file in the scan's scope in any scanned release" \
		"$TRASH/.stdout"
	t_exit "$sec: CSV by rule" 0 k report v1.0 --subsystem "$sec" --format csv --by rule
	t_is "... every rule 0" "0" \
		"$(awk -F, 'NR > 1 { s += $3; n++ } END { print (n == 18 ? s : "rows " n) }' "$TRASH/.stdout")"
	t_exit "$sec: CSV by subsystem" 0 k report v1.0 --subsystem "$sec" --format csv
	t_is "... the header, no row" "release,subsystem,rule,count,delta" "$(cat "$TRASH/.stdout")"
	t_exit "$sec: JSON" 0 k report v1.0 --subsystem "$sec" --format json --by subsystem
	t_is "... total 0, no counts, the section named" "0 [] $sec" \
		"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["total"], d["counts"], d["subsystem"])' "$TRASH/.stdout" 2> /dev/null)"
	t_exit "$sec: trend" 0 k report --trend --subsystem "$sec" --format csv
	t_is "... zero in both releases" "release,count,delta,added,removed,moved
v1.0,0,,,,
v1.1,0,0,0,0,0" "$(cat "$TRASH/.stdout")"
done

t_exit "PERF TOOLS: the newest release" 0 k report --subsystem 'PERF TOOLS' --format json
t_is "... v1.1, total 0" "v1.1 0" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["release"], d["total"])' "$TRASH/.stdout" 2> /dev/null)"
t_exit "PERF TOOLS: trend by subsystem" 0 k report --trend --by subsystem --subsystem 'PERF TOOLS' --format csv
t_is "... the header, no row" "release,subsystem,rule,count,delta,added,removed,moved" "$(cat "$TRASH/.stdout")"

# a name the release's MAINTAINERS lacks is unknown, in every format
t_exit "NOTHING MATCHES in v1.1, whose MAINTAINERS lacks it" 2 \
	k report v1.1 --subsystem 'NOTHING MATCHES'
t_is "... unknown, naming the release" \
	"kmig: unknown subsystem 'NOTHING MATCHES': no section of v1.1's MAINTAINERS" "$(cat "$TRASH/.stderr")"
t_is "... nothing on stdout" "" "$(cat "$TRASH/.stdout")"
for f in text csv json; do
	t_exit "no such section ($f)" 2 k report --subsystem 'NO SUCH' --format $f
	t_is "... one line" "kmig: unknown subsystem 'NO SUCH': no section of v1.1's MAINTAINERS" \
		"$(cat "$TRASH/.stderr")"
done
t_exit "no such section in the trend" 2 k report --trend --subsystem 'NO SUCH'
t_is "... one line" "kmig: unknown subsystem 'NO SUCH': no section of a scanned release's MAINTAINERS" \
	"$(cat "$TRASH/.stderr")"
t_exit "a section with files is as before" 0 k report --subsystem 'RDS - RELIABLE DATAGRAM SOCKETS' --format csv
t_is "... its rows" "release,subsystem,rule,count,delta
v1.1,RDS - RELIABLE DATAGRAM SOCKETS,bug,1,1
v1.1,RDS - RELIABLE DATAGRAM SOCKETS,strcpy,1,0" "$(cat "$TRASH/.stdout")"
t_done
