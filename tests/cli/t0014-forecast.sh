#!/bin/sh
# The forecast over time: a least-squares line of count on release date.
# A fixture history with releases dated 15 June 2021, 2022 and 2023 (365
# days apart) holding 3, 2 and 1 strcpy() calls: the line falls by one a
# release, so the last call goes 365 days after the newest release, on
# 2024-06-14: "zero by 2024-06".  WARN_ON() rises 1, 2, 3 (not converging)
# and strlcpy() goes 1, 0, 0 (reached zero in the second release).
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
DB="$TRASH/kmig.db"
k() { "$KMIG" --repo "$W" --db "$DB" "$@"; }

# release DATE STRCPY WARN_ON STRLCPY TAG - commit the counts at DATE
release() {
	{
		echo 'void f(char *a, char *b)'
		echo '{'
		i=0; while [ $i -lt "$2" ]; do echo '	strcpy(a, b);'; i=$((i + 1)); done
		i=0; while [ $i -lt "$3" ]; do echo '	WARN_ON(!a);'; i=$((i + 1)); done
		i=0; while [ $i -lt "$4" ]; do echo '	strlcpy(a, b, 4);'; i=$((i + 1)); done
		echo '}'
	} > "$W/net/core/a.c"
	GIT_COMMITTER_DATE="$1T12:00:00Z" git_commit_all "$W" "$5" && git -C "$W" tag "$5"
}

git init -q "$W"
mkdir -p "$W/net/core"
printf 'NETWORKING [GENERAL]\nF:\tnet/\n' > "$W/MAINTAINERS"
release 2021-06-15 3 1 1 v1.0
release 2022-06-15 2 2 0 v1.1
release 2023-06-15 1 3 0 v1.2
t_exit "scan" 0 k scan
t_is "the releases' dates are the commit dates" "2021-06-15|2022-06-15|2023-06-15" \
	"$(sqlite3 "$DB" "SELECT date(date, 'unixepoch') FROM releases ORDER BY sort_key" | tr '\n' '|' | sed 's/|$//')"

# text: a line per rule after the table, the method in its heading
t_exit "text report" 0 k report
t_ok "existing lines unchanged" grep -q '^strcpy  *1  *-1$' "$TRASH/.stdout"
t_ok "method and releases stated" grep -qx 'forecast (least squares of count on release date, over 3 releases):' "$TRASH/.stdout"
# -1 a release of 365 days is -365.2425 / 365 = -1.0007 a year
t_ok "strcpy: zero by 2024-06" grep -qx '  strcpy  *zero by 2024-06 at this pace (-1.0/year)' "$TRASH/.stdout"
t_ok "warn-on: not converging" grep -qx '  warn-on  *not converging (+1.0/year)' "$TRASH/.stdout"
t_ok "strlcpy: reached zero in v1.1" grep -qx '  strlcpy  *reached zero (2022-06)' "$TRASH/.stdout"
t_ok "strncpy: no uses" grep -qx '  strncpy  *no uses' "$TRASH/.stdout"
# the total: 5, 4, 4 (f is not a handler: no warn-on-user)
t_ok "total: 5, 4, 4 falls by 0.5 a release, 4 / 0.5 = 8 releases after 2023-06-15" \
	grep -qx '  total  *zero by 2031-06 at this pace (-0.5/year)' "$TRASH/.stdout"

# an older release: the forecast over the releases up to it
t_exit "text report of v1.1" 0 k report v1.1 --rule strcpy
t_is "v1.1: 3, 2 fall by one a release, 2 more releases (730 days) after 2022-06-15" \
	"forecast (least squares of count on release date, over 2 releases):
  strcpy               zero by 2024-06 at this pace (-1.0/year)" \
	"$(grep -A1 '^forecast' "$TRASH/.stdout")"

# JSON: an object per rule and one for the total; strncpy's line is flat
t_exit "JSON report" 0 k report --format json
t_is "JSON forecasts" "strcpy -1.0007 2024-06 True 3
warn-on 1.0007 None False 3
strlcpy -0.5003 2022-06 True 3
strncpy 0.0000 None False 3
total -0.5003 2031-06 True 3
least squares of count on release date" \
	"$(python3 - "$TRASH/.stdout" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
fs = [(r, d["rules"][r]["forecast"]) for r in ("strcpy", "warn-on", "strlcpy", "strncpy")]
fs.append(("total", d["forecast"]))
for name, f in fs:
	s = f["slope_per_year"]
	print(name, "None" if s is None else "%.4f" % s, f["zero_by"], f["converging"], f["releases"])
print(*{f["method"] for _, f in fs})
PY
)"
t_is "JSON: counts and deltas as before" "1 -1" \
	"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["rules"]["strcpy"]["count"], d["rules"]["strcpy"]["delta"])' "$TRASH/.stdout")"

# --trend: a final forecast line in text; CSV keeps its shape
t_exit "trend of strcpy" 0 k report --trend --rule strcpy
t_is "trend: the forecast last" \
	"forecast: zero by 2024-06 at this pace (-1.0/year); least squares of count on release date, over 3 releases" \
	"$(tail -n 1 "$TRASH/.stdout")"
t_is "trend CSV: no forecast row" "release,count,delta,added,removed,moved
v1.0,3,,,,
v1.1,2,-1,0,1,0
v1.2,1,-1,0,1,0" "$(k report --trend --rule strcpy --format csv)"
t_is "report CSV by rule: no forecast column" "release,rule,count" \
	"$(k report --format csv --by rule | head -n 1)"
t_exit "report by subsystem" 0 k report --by subsystem --rule warn-on
t_ok "by subsystem: the rule's forecast" grep -qx '  warn-on  *not converging (+1.0/year)' "$TRASH/.stdout"

# too few releases: one release, or releases at one date
t_exit "scan one release into another database" 0 \
	"$KMIG" --repo "$W" --db "$TRASH/one.db" scan --tags v1.2
t_exit "report of one release" 0 "$KMIG" --repo "$W" --db "$TRASH/one.db" report --rule strcpy
t_ok "one release: too few releases" grep -qx '  strcpy  *not converging (too few releases)' "$TRASH/.stdout"
t_is "one release, JSON: no slope, no zero date" "None None False" \
	"$("$KMIG" --repo "$W" --db "$TRASH/one.db" report --format json | python3 -c 'import json,sys; f=json.load(sys.stdin)["rules"]["strcpy"]["forecast"]; print(f["slope_per_year"], f["zero_by"], f["converging"])')"
W2="$TRASH/same"
git init -q "$W2"
mkdir -p "$W2/net/core"
cp "$W/MAINTAINERS" "$W2/"
for n in 3 2 1; do
	printf 'void f(char *a)\n{\n' > "$W2/net/core/a.c"
	i=0; while [ $i -lt $n ]; do printf '\tstrcpy(a, "x");\n' >> "$W2/net/core/a.c"; i=$((i + 1)); done
	printf '}\n' >> "$W2/net/core/a.c"
	GIT_COMMITTER_DATE="2023-06-15T12:00:00Z" git_commit_all "$W2" "c$n" && git -C "$W2" tag "v2.$((4 - n))"
done
t_exit "scan three releases of one date" 0 "$KMIG" --repo "$W2" --db "$TRASH/same.db" scan
t_is "one date: too few releases" \
	"forecast: not converging (too few releases); least squares of count on release date, over 3 releases" \
	"$("$KMIG" --repo "$W2" --db "$TRASH/same.db" report --trend --rule strcpy | tail -n 1)"

# a release dated 1970-01-01 (a commit of date 0) has no date: the trend's
# forecast counts the releases its line is fitted to, as report's does
W3="$TRASH/epoch"
git init -q "$W3"
mkdir -p "$W3/net/core"
cp "$W/MAINTAINERS" "$W3/"
n=4
for d in '@0 +0000' 2022-06-15T12:00:00Z 2023-06-15T12:00:00Z 2024-06-15T12:00:00Z; do
	printf 'void f(char *a)\n{\n' > "$W3/net/core/a.c"
	i=0; while [ $i -lt $n ]; do printf '\tstrcpy(a, "x");\n' >> "$W3/net/core/a.c"; i=$((i + 1)); done
	printf '}\n' >> "$W3/net/core/a.c"
	GIT_COMMITTER_DATE="$d" git_commit_all "$W3" "c$n" && git -C "$W3" tag "v3.$((5 - n))"
	n=$((n - 1))
done
t_exit "scan four releases, one of date 0" 0 "$KMIG" --repo "$W3" --db "$TRASH/epoch.db" scan
t_is "report: over 3 releases" \
	"forecast (least squares of count on release date, over 3 releases):" \
	"$("$KMIG" --repo "$W3" --db "$TRASH/epoch.db" report --rule strcpy | grep '^forecast (')"
t_is "trend: over 3 releases too" \
	"forecast: zero by 2025-06 at this pace (-1.0/year); least squares of count on release date, over 3 releases" \
	"$("$KMIG" --repo "$W3" --db "$TRASH/epoch.db" report --trend --rule strcpy | tail -n 1)"

# the dashboard: the same forecast, the method stated
t_exit "web" 0 k web
t_is "web: strcpy's forecast cell" "zero by 2024-06 (−1.0/year)" \
	"$(python3 "$TOP/tests/web/site.py" cell "$KMIG_HOME/web/index.html" rules strcpy 7)"
t_ok "web: method stated" grep -q 'Least squares of count on release date' "$KMIG_HOME/web/index.html"

# Debian point releases of one kernel line: the forecast takes the line's
# date for each (migration 5), which the list of releases did not show: it
# showed three own dates a year apart beside "too few releases" and a
# tooltip asking for two dates a day apart.  The list shows the line date
# the forecast took where it is not the release's own, and the tooltip
# says which dates it means.
cp "$DB" "$TRASH/line.db"
sqlite3 "$TRASH/line.db" "UPDATE releases SET date_source = 'debian-changelog', line_date = 1600000000"
t_exit "web: one kernel line" 0 "$KMIG" --db "$TRASH/line.db" web -o "$TRASH/line-site"
t_is "web: the list of releases shows the date the forecast takes" \
	"2022-06-15 (Debian) forecast: line 2020-09-13" \
	"$(python3 "$TOP/tests/web/site.py" cell "$TRASH/line-site/index.html" releases v1.1 1)"
t_is "web: one line: too few releases" "too few releases" \
	"$(python3 "$TOP/tests/web/site.py" cell "$TRASH/line-site/index.html" rules strcpy 7)"
t_ok "web: the tooltip names the line dates" \
	grep -q 'title="needs two releases whose dates as the forecast takes them (a Debian package: its kernel line&rsquo;s, as in the list of releases) are a day or more apart">too few releases<' \
	"$TRASH/line-site/index.html"
t_ok "web: a release's own date alone where the forecast takes it" \
	grep -q '<td>2021-06-15</td>' "$KMIG_HOME/web/index.html"

t_done
