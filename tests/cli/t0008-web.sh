#!/bin/sh
# kmig web: the static dashboard of a scanned fixture repository.  Tables
# are checked against the database, names from the repository are
# escaped, links resolve, the site is replaced atomically, and the
# branch, boot, bisect and log tables show their data once it exists.
. "$(dirname "$0")/../lib.sh"
. "$TOP/tests/web/fixture.sh"
S() { python3 "$TOP/tests/web/site.py" "$@"; }
q() { sqlite3 "$DB" "$@"; }
SITE="$KMIG_HOME/web"

t_exit "web with the defaults" 0 k web
t_is "prints the path of index.html" "$SITE/index.html" "$(cat "$TRASH/.stdout")"
t_is "nothing on stderr" "" "$(cat "$TRASH/.stderr")"
t_ok "style sheet, script and marker written" \
	test -s "$SITE/style.css" -a -s "$SITE/sort.js" -a -f "$SITE/.kmig-web"
t_ok "the embedded style sheet is web/style.css" cmp "$TOP/web/style.css" "$SITE/style.css"
t_ok "the embedded script is web/sort.js" cmp "$TOP/web/sort.js" "$SITE/sort.js"

# index: one row per rule, counts as kmig report, one chart point per release
nrules=$(k rules --format json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["rules"]))')
t_is "index: one row per rule" "$nrules" "$(S rows "$SITE/index.html" rules)"
k report --format csv --by rule | sed 1d | cut -d, -f3 > "$TRASH/expect"
S column "$SITE/index.html" rules 2 > "$TRASH/actual"
t_ok "index: current counts are kmig report's" cmp "$TRASH/expect" "$TRASH/actual"
nrel=$(q "SELECT count(*) FROM releases")
t_is "index: one row per release" "$nrel" "$(S rows "$SITE/index.html" releases)"
t_is "index: chart has one point per release for each rule" \
	"$nrules series of $nrel points" \
	"$(python3 - "$SITE/index.html" <<'EOF'
import re, sys
svg = re.search(r'<svg class="chart" id="chart-rules".*?</svg>', open(sys.argv[1]).read(), re.S).group(0)
series = re.findall(r'<g class="series.*?</g>', svg, re.S)
points = {len(re.findall(r'<circle class="pt"', g)) for g in series}
print("%d series of %s points" % (len(series), ",".join(map(str, sorted(points)))))
EOF
)"
S column "$SITE/index.html" releases 0 > "$TRASH/tags"
S column "$SITE/index.html" releases 4 > "$TRASH/uses"
t_is "index: release order and totals as kmig report --trend" \
	"$(k report --trend --format csv | sed 1d | cut -d, -f1,2)" \
	"$(paste -d, "$TRASH/tags" "$TRASH/uses")"
S column "$SITE/index.html" releases 6 | tr -d '+—' > "$TRASH/added"
S column "$SITE/index.html" releases 7 | tr -d '—-' > "$TRASH/removed"
t_is "index: added and removed per release as kmig report --trend" \
	"$(k report --trend --format csv | sed 1d | cut -d, -f4,5)" \
	"$(paste -d, "$TRASH/added" "$TRASH/removed")"
t_ok "index: forecast method stated" grep -q 'id="forecast-method"' "$SITE/index.html"
# Forecasts over the release dates (one a year, 365 days apart): strlcpy 1, 0, 0
# has reached zero; idr never had a use; strcpy 2, 4, 4 rises by 1 a release,
# +1.0 a year; flex-array-zero 2, 2, 1 falls by 0.5 a release (-0.5 a year),
# so its last use goes 2 releases (730 days) after 2023-06-15: 2025-06-14.
t_is "index: forecasts, the month zero was reached as kmig report gives it" "reached zero (2022-06)|no uses|not converging (+1.0/year)|zero by 2025-06 (−0.5/year)" \
	"$(for r in strlcpy idr strcpy flex-array-zero; do S cell "$SITE/index.html" rules $r 7; done | tr '\n' '|' | sed 's/|$//')"

# per release: the content of kmig report, down to every use site
rel=$(ls "$SITE"/release-v1-10-*.html)
k report v1.10 --format csv --by rule | sed 1d | cut -d, -f3 > "$TRASH/expect"
S column "$rel" rules 1 > "$TRASH/actual"
t_ok "release v1.10: per-rule counts" cmp "$TRASH/expect" "$TRASH/actual"
t_is "release v1.10: one row per subsystem with uses" \
	"$(q "SELECT count(DISTINCT c.subsystem_id) FROM counts c JOIN releases r ON r.id = c.release_id WHERE r.tag = 'v1.10'")" \
	"$(S rows "$rel" subsystems)"
t_is "release v1.10: every use site listed" \
	"$(q "SELECT sum(count) FROM file_counts f JOIN releases r ON r.id = f.release_id WHERE r.tag = 'v1.10'")" \
	"$(S sites "$SITE" "$(basename "$(ls "$SITE"/files-v1-10-*-1.html)" | sed 's/-1\.html$//')")"
t_ok "release v1.10: a site with path:line, function and source line" \
	grep -q '<td class="path" data-v="7">net/rds/send.c:7</td><td>strcpy</td><td><code>rds_sendmsg</code></td><td class="src">strcpy(buf, &quot;x&quot;);</td>' \
	"$SITE"/files-v1-10-*.html
t_ok "release v1.10: a warn-on-user site shows its call path" \
	grep -q '<td class="src">if (WARN_ON(!sock))<br><span class="reach">reached: rds_sendmsg (net/rds/send.c:1)</span></td>' \
	"$SITE"/files-v1-10-*.html
t_is "one page per subsystem with uses" \
	"$(q "SELECT count(DISTINCT subsystem_id) FROM counts")" \
	"$(ls "$SITE"/sub-*.html | wc -l)"
t_is "subsystems page: one row each" \
	"$(q "SELECT count(DISTINCT subsystem_id) FROM counts")" \
	"$(S rows "$SITE/subsystems.html" subsystems)"
sub=$(grep -l '<h1>Subsystem RDS - RELIABLE DATAGRAM SOCKETS</h1>' "$SITE"/sub-*.html)
for c in 0 1 2 3; do S column "$sub" rules $c > "$TRASH/c$c"; done
t_is "subsystem page: rules x releases" "bug-on 1 2 2|warn-on-user 1 2 2|strcpy 1 2 2" \
	"$(paste -d' ' "$TRASH/c0" "$TRASH/c1" "$TRASH/c2" "$TRASH/c3" | tr '\n' '|' | sed 's/|$//')"
rule=$(ls "$SITE"/rule-strcpy-*.html)
t_is "rule page: trend rows" "$nrel" "$(S rows "$rule" trend)"
t_is "rule page: subsystems with strcpy uses" \
	"$(q "SELECT count(DISTINCT subsystem_id) FROM counts WHERE rule = 'strcpy'")" \
	"$(S rows "$rule" subsystems)"
t_is "rule page: added and removed as kmig report --trend" \
	"$(k report --trend --rule strcpy --format csv | sed '1,2d' | cut -d, -f4,5)" \
	"$(S column "$rule" trend 3 | sed 1d | tr -d + > "$TRASH/a"; S column "$rule" trend 4 | sed 1d | tr -d - > "$TRASH/r"; paste -d, "$TRASH/a" "$TRASH/r")"

# escaping and safety
t_ok "section title escaped" grep -qF \
	'EVIL &lt;script&gt;document.documentElement.setAttribute(&quot;data-pwned&quot;,&quot;1&quot;)&lt;/script&gt; &#39;QUOTED&#39; &quot;DRIVER&quot; &amp; CO' \
	"$SITE/subsystems.html"
t_ok "file name escaped" grep -qF \
	'drivers/evil/&quot;q&#39;&lt;script&gt;document.documentElement.setAttribute(&quot;data-pwned&quot;,&quot;3&quot;)&lt;/script&gt;.c' \
	"$SITE"/files-v1-11-*.html
t_ok "source line escaped" grep -qF \
	'strcpy(a, &quot;&lt;script&gt;document.documentElement' "$SITE"/files-v1-11-*.html
t_is "no <script> but the site's own" "" "$(S scripts "$SITE")"
t_is "no raw payload anywhere" "" "$(grep -l 'data-pwned"\|<script>doc' "$SITE"/*.html)"
t_is "no external URL" "" "$(S external "$SITE"; grep -l 'https\?://' "$SITE"/*.html "$SITE"/*.css "$SITE"/*.js)"
t_is "every link, anchor and resource resolves" "" "$(S links "$SITE")"
t_is "page names are safe" "" "$(ls -A "$SITE" | grep -v '^[a-z0-9][a-z0-9.-]*$' | grep -v '^\.kmig-web$')"
t_ok "subsystem page name from a slug and a hash" \
	sh -c "ls '$SITE' | grep -q '^sub-evil-script-document-documentelement-set-[0-9a-f]\{8\}\.html$'"

# --source-url and pagination
t_exit "web -o with --source-url and small pages" 0 \
	k web -o "$TRASH/site2/" --source-url 'https://src.invalid/linux/{tag}/source/{path}#L{line}' \
	--sites-per-page 2
t_is "-o DIR: path printed without the trailing slash" "$TRASH/site2/index.html" "$(cat "$TRASH/.stdout")"
t_ok "site link: tag, path and line URL-escaped" grep -qF \
	'href="https://src.invalid/linux/v1.11/source/drivers/evil/%22q%27%3Cscript%3Edocument.documentElement.setAttribute%28%22data-pwned%22%2C%223%22%29%3C/script%3E.c#L3"' \
	"$TRASH"/site2/files-v1-11-*.html
t_ok "sites split over pages" test "$(ls "$TRASH"/site2/files-v1-10-*.html | wc -l)" -gt \
	"$(ls "$SITE"/files-v1-10-*.html | wc -l)"
t_is "paginated: still every use site" \
	"$(q "SELECT sum(count) FROM file_counts f JOIN releases r ON r.id = f.release_id WHERE r.tag = 'v1.10'")" \
	"$(S sites "$TRASH/site2" "$(basename "$(ls "$SITE"/files-v1-10-*-1.html)" | sed 's/-1\.html$//')")"
t_is "paginated: every link resolves" "" "$(S links "$TRASH/site2")"

# branch, builds, boots, bisections and kmig log: empty, then filled
t_ok "branch page: no data yet" grep -q 'No data yet: no conversion branch' "$SITE/branch.html"
t_ok "branch page: no builds yet" grep -q 'No data yet: no kernel has been built' "$SITE/branch.html"
t_ok "log page: no data yet" grep -q 'No data yet: no commit has been attributed' "$SITE/log.html"
t_exit "kmig log fills the commits" 0 k log v1.9..v1.11
echo 'make: *** [vmlinux] <b>Error</b> 2' > "$TRASH/build.log"
printf 'Booting\nWARNING: CPU: 0 PID: 1 at net/rds/send.c:5\n' > "$TRASH/console.log"
q "INSERT INTO branch_steps VALUES ('kmig/strcpy-v1.10', 'v1.10', 1, '0001-net-rds-use-strscpy.patch', 'net/rds: use strscpy <x>', 'applied', '$(git -C "$W" rev-parse v1.11)', 'applied cleanly', 'boot-fail', 1);
   INSERT INTO branch_steps VALUES ('kmig/strcpy-v1.10', 'v1.10', 2, '0002-evil.patch', 'evil: \"quote\"', 'conflict', NULL, 'net/core/dev.c: hunk 1 <failed>', NULL, 1);
   INSERT INTO branch_steps VALUES ('kmig/strcpy-v1.11', 'v1.11', 1, '0001-net-rds-use-strscpy.patch', 'net/rds: use strscpy <x>', 'upstream', NULL, 'upstream in v1.11', NULL, 1);
   INSERT INTO builds VALUES (1, '$(git -C "$W" rev-parse v1.11)', 'cfg1', 'ok', 12.5, '$TRASH/build.log', 10);
   INSERT INTO builds VALUES (2, '$(git -C "$W" rev-parse v1.10)', 'cfg1', 'failed', 3, '$TRASH/missing.log', 11);
   INSERT INTO boots VALUES (1, 1, 'rds', 'fail', 2.5, 'WARNING: CPU: 0 PID: 1 at net/rds/send.c:5', '$TRASH/console.log', 12, 1, 'KMIG-TEST rds FAIL x');
   INSERT INTO boots VALUES (2, 1, 'boot,rds', 'flaky', 2.5, NULL, NULL, 13, 2, 'KMIG-TEST boot PASS up
KMIG-TEST rds PASS loopback payload received, 12 sendmsg errno cases checked');
   INSERT INTO base_boots VALUES ('v1.11', '0001.0011', '$(git -C "$W" rev-parse v1.11)', 1, 2, 14);
   INSERT INTO base_boots VALUES ('v1.10', '0001.0010', '$(git -C "$W" rev-parse v1.10)', 2, NULL, 14);
   INSERT INTO bisects VALUES (1, 'v1.9', 'v1.11', 'rds', '$(git -C "$W" rev-parse v1.10)', 'WARNING: <x>', 'found', 13, 'verify PASS, revert PASS', 'To: a@b.invalid', NULL);
   INSERT INTO bisect_steps VALUES (1, 1, '$(git -C "$W" rev-parse v1.10)', 'bad');
   INSERT INTO bisect_steps VALUES (1, 2, '$(git -C "$W" rev-parse v1.9)', 'good');"
t_exit "regenerate over the old site" 0 k web
t_is "no temporary or old directory left" "web" "$(ls "$KMIG_HOME" | grep web)"
t_is "branch page: patches x bases" "2" "$(S rows "$SITE/branch.html" matrix)"
t_is "branch page: steps per branch" "2 1" \
	"$(echo $(S rows "$SITE/branch.html" steps-1) $(S rows "$SITE/branch.html" steps-2))"
t_is "branch page: builds, boots as in the database" \
	"$(q "SELECT count(*) FROM builds") $(q "SELECT count(*) FROM boots")" \
	"$(S rows "$SITE/branch.html" builds) $(S rows "$SITE/branch.html" boots)"
t_is "branch page: bisection steps" "2" "$(S rows "$SITE/branch.html" bisect-steps-1)"
t_is "branch page: bases in version order" "v1.10 v1.11" \
	"$(S column "$SITE/branch.html" bases 0 | paste -sd' ')"
t_is "bases: build seconds, boot, RDS result and errno cases" "12.5|flaky|pass|12 checked" \
	"$(for n in 3 5 7 8; do S cell "$SITE/branch.html" bases v1.11 $n; done | paste -sd'|')"
t_is "bases: a failed build did not boot" "failed|not booted" \
	"$(for n in 2 5; do S cell "$SITE/branch.html" bases v1.10 $n; done | paste -sd'|')"
t_ok "build log copied into the site" cmp "$TRASH/build.log" "$SITE/logs/build-1.txt"
t_ok "console log copied into the site" cmp "$TRASH/console.log" "$SITE/logs/boot-1.txt"
t_ok "missing log said so" grep -q 'not available' "$SITE/branch.html"
t_ok "evidence escaped" grep -qF 'net/core/dev.c: hunk 1 &lt;failed&gt;' "$SITE/branch.html"
t_is "branch page links resolve" "" "$(S links "$SITE")"
t_is "log page: one row per commit with changes" \
	"$(q "SELECT count(DISTINCT commit_id) FROM commit_changes")" "$(S rows "$SITE/log.html" commits)"
t_is "log page: added and removed totals" \
	"$(q "SELECT sum(added) || ' ' || sum(removed) FROM commit_changes")" \
	"$(S column "$SITE/log.html" commits 4 | tr -d + | paste -sd+ | bc) $(S column "$SITE/log.html" commits 5 | tr -d - | paste -sd+ | bc)"

# errors: exit 2, one line
# a standard output that cannot be written: the old site stays
echo old > "$SITE/marker.txt"
t_exit "web > /dev/full" 2 sh -c "'$KMIG' --repo '$W' --db '$DB' web > /dev/full"
t_is "... one line" "kmig: cannot write standard output" "$(cat "$TRASH/.stderr")"
t_ok "... the old site kept" test -f "$SITE/marker.txt"
t_is "... nothing left aside" "web" "$(ls "$KMIG_HOME" | grep web)"
mkdir -p "$TRASH/precious" && echo keep > "$TRASH/precious/file"
t_exit "refuses to replace a directory it did not write" 2 k web -o "$TRASH/precious"
t_ok "one line naming it" sh -c "test \$(wc -l < '$TRASH/.stderr') = 1 && grep -q 'precious.*not a site written by kmig web' '$TRASH/.stderr'"
t_is "... no index.html path on standard output" "" "$(cat "$TRASH/.stdout")"
t_ok "the directory is untouched, nothing left aside" \
	sh -c "test \"\$(cat '$TRASH/precious/file')\" = keep && test -z \"\$(ls '$TRASH' | grep 'precious\.')\""
t_exit "unexpected argument" 2 k web extra
echo file > "$TRASH/afile"
t_exit "-o under a file" 2 k web -o "$TRASH/afile/site"
t_ok "-o under a file: the real failure" \
	grep -q "^kmig: cannot access '.*/afile/site': Not a directory$" "$TRASH/.stderr"
t_exit "-o naming a file" 2 k web -o "$TRASH/afile"
t_is "... one line, no index.html path on standard output" \
	"kmig: '$TRASH/afile' exists and is not a directory|" \
	"$(cat "$TRASH/.stderr")|$(cat "$TRASH/.stdout")"
t_ok "... refused before writing the site: nothing left aside" \
	sh -c "! ls -d '$TRASH'/afile.* 2> /dev/null"

# what an interrupted run left beside the site (a site of kmig web's, or
# an empty directory): removed once its process is gone and the new site
# is in place, kept while it lives; anything else of that name is kept
dead=$(cat /proc/sys/kernel/pid_max)	# never a live process id
mkdir -p "$TRASH/site4.tmp-$dead/x" "$TRASH/site4.old-$((dead + 1))" \
	"$TRASH/site4.tmp-$$" "$TRASH/site4.old-$((dead + 2))" "$TRASH/site4.tmp-+$dead"
touch "$TRASH/site4.tmp-$dead/.kmig-web" "$TRASH/site4.old-$((dead + 2))/notes.txt"
t_exit "a run after interrupted ones" 0 k web -o "$TRASH/site4"
t_ok "... their leftovers are gone" \
	test ! -e "$TRASH/site4.tmp-$dead" -a ! -e "$TRASH/site4.old-$((dead + 1))"
t_ok "... a live run's stays" test -d "$TRASH/site4.tmp-$$"
t_ok "... so do the user's (no site in it, no plain pid)" \
	test -f "$TRASH/site4.old-$((dead + 2))/notes.txt" -a -d "$TRASH/site4.tmp-+$dead"
# SOURCE_DATE_EPOCH sets the footer's time: the same site from the same database
t_exit "web with SOURCE_DATE_EPOCH" 0 env SOURCE_DATE_EPOCH=1700000000 "$KMIG" --repo "$W" --db "$DB" \
	web -o "$TRASH/sde"
t_ok "... its time in the footer" grep -q "Generated by kmig .* on 2023-11-14 22:13 UTC" "$TRASH/sde/index.html"
t_exit "web with SOURCE_DATE_EPOCH=0" 0 env SOURCE_DATE_EPOCH=0 "$KMIG" --repo "$W" --db "$DB" \
	web -o "$TRASH/sde"
t_ok "... the epoch in the footer" grep -q "Generated by kmig .* on 1970-01-01 00:00 UTC" "$TRASH/sde/index.html"
mkdir -p "$TRASH/docs" "$TRASH/docs.old-$dead"
echo keep > "$TRASH/docs/x"
t_exit "a directory it did not write" 2 k web -o "$TRASH/docs"
t_ok "... nothing beside it removed" test -d "$TRASH/docs.old-$dead"
t_exit "bad --sites-per-page" 2 k web --sites-per-page 0
t_exit "-o ." 2 k web -o .
t_exit "missing database" 2 "$KMIG" --db "$TRASH/empty.db" web -o "$TRASH/site3"
t_ok "missing database: one line, not created" sh -c "test \$(wc -l < '$TRASH/.stderr') = 1 && grep -q 'does not exist' '$TRASH/.stderr' && test ! -e '$TRASH/empty.db'"
"$KMIG" --repo "$W" --db "$TRASH/empty.db" log HEAD~1..HEAD > /dev/null 2>&1	# a database, no release
t_exit "empty database" 2 "$KMIG" --db "$TRASH/empty.db" web -o "$TRASH/site3"
t_ok "no release scanned: one line" sh -c "test \$(wc -l < '$TRASH/.stderr') = 1 && grep -q 'no release is scanned' '$TRASH/.stderr'"
t_ok "and no site left behind" test ! -e "$TRASH/site3"
# a section renamed while its uses went away: the new name never had a use,
# but its removals and moves show, so the sections add up to the release
S="$TRASH/secw"
git init -q "$S"
mkdir -p "$S/net" "$S/drv" "$S/zz"
printf 'NET\nF:\tnet/\n\nOLD\nF:\tdrv/\n\nZZZ LAST\nF:\tzz/\n\nTHE REST\nF:\t*\nF:\t*/\n' > "$S/MAINTAINERS"
printf 'void f(void)\n{\n\tstrcpy(a, b);\n}\n' > "$S/net/a.c"
printf 'void z(void)\n{\n\tstrcpy(a, b);\n\tBUG();\n}\n' > "$S/zz/z.c"
printf 'void g(void)\n{\n\tstrcpy(a, b);\n\tBUG_ON(1);\n}\n' > "$S/drv/b.c"
printf 'void x(void)\n{\n\tstrcpy(a, b);\n}\n' > "$S/x.c"
git_commit_all "$S" "one" && git -C "$S" tag v1.0
sed -i 's/^OLD$/NEW/' "$S/MAINTAINERS"
printf 'void g(void)\n{\n}\n' > "$S/drv/b.c"
printf 'void z(void)\n{\n\tstrcpy(a, b);\n}\n' > "$S/zz/z.c"
git_commit_all "$S" "two" && git -C "$S" tag v1.1
t_exit "scan of a section renamed as its uses went" 0 "$KMIG" --repo "$S" --db "$TRASH/sec.db" scan
t_exit "its web" 0 "$KMIG" --db "$TRASH/sec.db" web -o "$TRASH/secsite"
sec_rows() {	# the Subsystem table's rows of page $1: "name|cells..."
	python3 - "$1" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
i = t.index('id="subsystems"')
for row in re.findall(r'<tr>(.*?)</tr>', t[i:t.index('</table>', i)], re.S)[1:]:
	cells = [re.sub(r'<[^>]+>', '', c).strip() for c in re.findall(r'<t[dh][^>]*>(.*?)</t[dh]>', row, re.S)]
	print('|'.join(c for c in cells if c))
PY
}
sec_rows "$(ls "$TRASH"/secsite/release-v1-1-*.html)" > "$TRASH/secrel"
t_ok "... the release page lists the section with no use left" grep -q '^NEW|0|' "$TRASH/secrel"
t_is "... and its sections' deltas add up to the release's -3" "-3" \
	"$(sed 's/([^)]*)//g' "$TRASH/secrel" | awk -F'|' '{ s += $3 } END { print s }')"
sec_rows "$TRASH/secsite/subsystems.html" > "$TRASH/secsubs"
t_ok "... subsystems.html has the section that never had a use" grep -q '^NEW|' "$TRASH/secsubs"
sec_rows "$(ls "$TRASH"/secsite/rule-strcpy-*.html)" > "$TRASH/secrule"
t_ok "... so has the rule page" grep -q '^NEW|0|0|-1' "$TRASH/secrule"
t_ok "... and its page exists" sh -c "ls '$TRASH'/secsite/sub-new-*.html"
"$KMIG" --db "$TRASH/sec.db" report --trend --by subsystem --format csv | sed 1d | cut -d, -f2 | sort -u > "$TRASH/secnames"
t_is "... one page per section with uses or changes, no section twice" \
	"$(wc -l < "$TRASH/secnames") 0" \
	"$(ls "$TRASH"/secsite/sub-*.html | wc -l) $(ls "$TRASH"/secsite/sub-*.html | grep -c -- '-[0-9a-f]\{8\}-[0-9]*\.html$')"
t_exit "--source-url without {path}" 2 k web --source-url 'https://host/{tag}' -o "$TRASH/nosite"
t_ok "... one line naming it" sh -c "test \$(wc -l < '$TRASH/.stderr') = 1 && grep -q 'needs {path}' '$TRASH/.stderr'"
t_exit "--source-url ''" 2 k web --source-url '' -o "$TRASH/nosite"
# -o through a symbolic link: the site it names is replaced, the link kept
mkdir "$TRASH/linked"
ln -s linked "$TRASH/sitelink"
t_exit "web -o a link to an empty directory" 0 k web -o "$TRASH/sitelink"
t_ok "... the site is in the directory the link names" test -f "$TRASH/linked/index.html"
t_ok "... the link is still a link" test -L "$TRASH/sitelink"
t_exit "... and again, over the site" 0 k web -o "$TRASH/sitelink"
t_ok "... still a link to the site" sh -c "test -L '$TRASH/sitelink' && test -f '$TRASH/sitelink/index.html'"
ln -s nowhere "$TRASH/deadlink"
t_exit "web -o a dangling link" 2 k web -o "$TRASH/deadlink"
# a failing run leaves no directory it made
t_exit "web of an empty database into new directories" 2 "$KMIG" --db "$TRASH/empty.db" web -o "$TRASH/made/a/b/site"
t_ok "... none of them left" test ! -e "$TRASH/made"
mkdir -p "$TRASH/kept"
t_exit "... nor under one that was there" 2 "$KMIG" --db "$TRASH/empty.db" web -o "$TRASH/kept/a/site"
t_ok "... which stays" sh -c "test -d '$TRASH/kept' && test ! -e '$TRASH/kept/a'"
t_exit "web --help" 0 k web --help
t_ok "help shows usage" grep -q '^usage: kmig web' "$TRASH/.stdout"
# an old site the user may replace but not delete (root's, in a directory
# anyone writes): the new one is in place, exit 0, a warning names the copy
NB="$TRASH/nb"
mkdir -p "$NB/w" && k web -o "$NB/w/site" > /dev/null 2>&1
cp "$DB" "$NB/k.db"
chmod 755 "$TRASH" "$NB" && chmod 644 "$NB/k.db" && chmod 777 "$NB/w"
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null &&
   ! setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "rm -rf '$NB/w/site/index.html'" 2> /dev/null; then
	t_exit "web over a site it cannot delete" 0 setpriv --reuid=65534 --regid=65534 \
		--clear-groups env HOME="$NB" KMIG_HOME="$NB/home" "$KMIG" --db "$NB/k.db" web -o "$NB/w/site"
	t_is "... its result" "$NB/w/site/index.html" "$(cat "$TRASH/.stdout")"
	t_ok "... a warning naming the old copy" grep -q \
		"^kmig: warning: the old site is left in '$NB/w/site\.\(tmp\|old\)-[0-9]*': " "$TRASH/.stderr"
	t_is "... one line" 1 "$(wc -l < "$TRASH/.stderr")"
	t_ok "... the new site in place, nobody's" test "$(stat -c %u "$NB/w/site")" = 65534
else
	t_skip "web over a site it cannot delete" "needs root and setpriv"
fi
t_done
