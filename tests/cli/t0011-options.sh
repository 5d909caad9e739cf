#!/bin/sh
# Option parsing: strict integers and one error line for every usage error;
# the one progress gate (KMIG_PROGRESS, KMIG_NO_PROGRESS).
. "$(dirname "$0")/../lib.sh"

# one_line "desc" STATUS command... - exits STATUS with exactly one line on
# stderr and nothing on stdout
one_line() {
	_ol_desc=$1; shift
	t_exit "$_ol_desc" "$@"
	t_is "$_ol_desc: one line on stderr" 1 "$(wc -l < "$TRASH/.stderr")"
	t_is "$_ol_desc: nothing on stdout" "" "$(cat "$TRASH/.stdout")"
}

# --jobs takes a whole number from 1: nothing after it, no zero, no sign
for c in import scan check log convert; do
	one_line "$c --jobs 2x" 2 "$KMIG" $c --jobs 2x
	t_is "$c --jobs 2x: the line names the option and the value" \
		"kmig $c: --jobs: '2x' is not a number between 1 and 1024 (see 'kmig help $c')" \
		"$(cat "$TRASH/.stderr")"
	one_line "$c --jobs 0" 2 "$KMIG" $c --jobs 0
	t_ok "$c --jobs 0: named" grep -q "^kmig $c: --jobs: '0' is not a number" "$TRASH/.stderr"
	one_line "$c --jobs -1" 2 "$KMIG" $c --jobs -1
	one_line "$c --jobs ''" 2 "$KMIG" $c --jobs ''
	one_line "$c --jobs ' 2'" 2 "$KMIG" $c --jobs ' 2'
	one_line "$c --jobs 99999999999999999999" 2 "$KMIG" $c --jobs 99999999999999999999
	one_line "$c --jobs without a value" 2 "$KMIG" $c --jobs
	t_ok "$c --jobs without a value: named" \
		grep -q "^kmig $c: unknown option or missing value '--jobs'" "$TRASH/.stderr"
done

# the other integer options
one_line "report --top 1x" 2 "$KMIG" report --top 1x
one_line "report --top -1" 2 "$KMIG" report --top -1
one_line "report --top 0 (no rows: a request for nothing)" 2 "$KMIG" report --top 0
one_line "convert --max-patches 0" 2 "$KMIG" convert strlcpy --max-patches 0
one_line "convert --max-patches 3q" 2 "$KMIG" convert strlcpy --max-patches 3q
one_line "web --sites-per-page 0" 2 "$KMIG" web --sites-per-page 0
one_line "web --sites-per-page 1.5" 2 "$KMIG" web --sites-per-page 1.5

# --timeout: whole seconds, 1 to a day
for c in boot bisect "branch test"; do
	one_line "$c --timeout 1.5" 2 "$KMIG" $c --timeout 1.5
	t_is "$c --timeout 1.5: named" \
		"kmig $c: --timeout: '1.5' is not a number between 1 and 86400 (see 'kmig help $c')" \
		"$(cat "$TRASH/.stderr")"
	one_line "$c --timeout 0" 2 "$KMIG" $c --timeout 0
	one_line "$c --timeout nan" 2 "$KMIG" $c --timeout nan
	one_line "$c --timeout 86401" 2 "$KMIG" $c --timeout 86401
done

# unknown options: one line naming them, for every command
for c in import scan report rules check log boot bisect convert web; do
	one_line "$c --bogus" 2 "$KMIG" $c --bogus
	t_is "$c --bogus: the line names it" \
		"kmig $c: unknown option or missing value '--bogus' (see 'kmig help $c')" \
		"$(cat "$TRASH/.stderr")"
done
one_line "check -z" 2 "$KMIG" check -z
t_ok "check -z: named" grep -q "unknown option or missing value '-z'" "$TRASH/.stderr"
one_line "branch test --bogus" 2 "$KMIG" branch test --bogus
one_line "branch status --bogus" 2 "$KMIG" branch status --bogus

# an option another subcommand of branch takes, or two that exclude each
# other: refused, not ignored
one_line "branch apply --send" 2 "$KMIG" branch apply --send "$TRASH/out"
t_is "branch apply --send: named" \
	"kmig branch: --send is not an option of 'kmig branch apply' (see 'kmig help branch')" \
	"$(cat "$TRASH/.stderr")"
one_line "branch apply --onto" 2 "$KMIG" branch apply --onto v1.0
t_ok "branch apply --onto: named" grep -q -- "--onto is not an option of 'kmig branch apply'" "$TRASH/.stderr"
one_line "branch rebase --base" 2 "$KMIG" branch rebase --onto v1.0 --base v1.0
t_ok "branch rebase --base: named" grep -q -- "--base is not an option of 'kmig branch rebase'" "$TRASH/.stderr"
one_line "branch status --series" 2 "$KMIG" branch status --series "$TRASH/s"
t_ok "branch status --series: named" grep -q -- "--series is not an option of 'kmig branch status'" "$TRASH/.stderr"
one_line "branch export --matrix" 2 "$KMIG" branch export --matrix
t_ok "branch export --matrix: named" grep -q -- "--matrix is not an option of 'kmig branch export'" "$TRASH/.stderr"
one_line "branch status --base --name" 2 "$KMIG" branch status --base v1.0 --name kmig/v1.1
t_ok "branch status --base --name: named" grep -q "base and --name exclude each other" "$TRASH/.stderr"
one_line "branch export --series --send" 2 "$KMIG" branch export --series "$TRASH/s" --send "$TRASH/d"
t_ok "branch export --series --send: named" grep -q "series and --send exclude each other" "$TRASH/.stderr"
one_line "scan --tags ''" 2 "$KMIG" scan --tags ''
t_ok "scan --tags '': named" grep -q "\-\-tags: empty pattern" "$TRASH/.stderr"
one_line "help of an unknown subcommand" 2 "$KMIG" help branch frob
t_is "help of an unknown subcommand: named" \
	"kmig help: 'branch' has no subcommand 'frob' (see 'kmig help help')" "$(cat "$TRASH/.stderr")"
one_line "help of a command without subcommands" 2 "$KMIG" help scan frob
t_exit "help of a subcommand" 0 "$KMIG" help branch test
one_line "help help with an argument" 2 "$KMIG" help help extra
# "--help" after a subcommand that does not exist is that typo, not the help
for w in "frob --help" "--help frob" "-h list"; do
	# shellcheck disable=SC2086
	one_line "branch $w" 2 "$KMIG" branch $w
done
t_is "branch -h list: named" \
	"kmig branch: 'branch' has no subcommand 'list' (see 'kmig help branch')" \
	"$(cat "$TRASH/.stderr")"
t_exit "branch --help" 0 "$KMIG" branch --help
t_exit "branch -h status" 0 "$KMIG" branch -h status
t_ok "branch -h status: its usage" grep -q "^usage: kmig branch apply" "$TRASH/.stdout"
t_exit "branch --help test" 0 "$KMIG" branch --help test
t_ok "branch --help test: its usage" grep -q "^usage: kmig branch test" "$TRASH/.stdout"

# log filters by one rule and one subsystem: a second is no silent override
one_line "log --rule twice" 2 "$KMIG" log --rule strcpy --rule bug
t_is "log --rule twice: said so" \
	"kmig log: --rule given twice ('strcpy', 'bug'): log takes one (see 'kmig help log')" \
	"$(cat "$TRASH/.stderr")"
one_line "log --subsystem twice" 2 "$KMIG" log --subsystem A --subsystem B
t_is "log --subsystem twice: said so" \
	"kmig log: --subsystem given twice ('A', 'B'): log takes one (see 'kmig help log')" \
	"$(cat "$TRASH/.stderr")"
one_line "report --subsystem twice" 2 "$KMIG" report --subsystem A --subsystem B
t_is "report --subsystem twice: said so (the last one won)" \
	"kmig report: --subsystem given twice ('A', 'B'): report takes one (see 'kmig help report')" \
	"$(cat "$TRASH/.stderr")"

# an empty directory or tag is no value: "" would make "/series" and
# "/0001-....patch" of --series '' and --send ''; each is named before
# anything is opened
mkdir -p "$TRASH/empty-opts" && cd "$TRASH/empty-opts" || exit 1
for o in "apply --series:directory" "rebase --series:directory" "rebase --onto:tag" \
	 "export --series:directory" "export --send:directory"; do
	opt=${o%:*}
	# shellcheck disable=SC2086
	one_line "branch $opt ''" 2 "$KMIG" --db "$TRASH/none/e.db" branch $opt ''
	t_is "branch $opt '': said so" \
		"kmig branch: ${opt#* } needs a ${o#*:} (see 'kmig help branch')" \
		"$(cat "$TRASH/.stderr")"
done
for o in "--series:a directory" "--cocci:a path in the tree" "--base:a tag"; do
	one_line "convert ${o%:*} ''" 2 "$KMIG" --db "$TRASH/none/e.db" convert strcpy "${o%:*}" ''
	t_is "convert ${o%:*} '': said so" \
		"kmig convert: ${o%:*} needs ${o#*:} (see 'kmig help convert')" \
		"$(cat "$TRASH/.stderr")"
done
t_is "nothing written for them" "" "$(ls -A "$TRASH/empty-opts")"
t_ok "nor a database" test ! -e "$TRASH/none/e.db"
cd "$TRASH" || exit 1
one_line "global --bogus" 2 "$KMIG" --bogus rules
t_ok "global --bogus: named" grep -q "^kmig: unknown option or missing value '--bogus'" "$TRASH/.stderr"
one_line "a global option with a newline and an escape" 2 "$KMIG" "--a$(printf '\nb\033')" rules
t_is "... escaped" "kmig: unknown option or missing value '--a\\nb\\033' (see 'kmig --help')" \
	"$(cat "$TRASH/.stderr")"

# one progress gate: a terminal or KMIG_PROGRESS turns it on, KMIG_NO_PROGRESS
# always off (stderr is a file here)
W="$TRASH/work"
git init -q "$W"
printf 'void f(void) { strcpy(a, b); }\n' > "$W/f.c"
printf 'CORE\nF:\t*\n' > "$W/MAINTAINERS"
git_commit_all "$W" one
git -C "$W" tag v1.0
printf 'void g(void) { strcpy(c, d); }\n' > "$W/g.c"
git_commit_all "$W" two
k() { "$KMIG" --repo "$W" --db "$TRASH/kmig.db" "$@"; }

# a patch of more than 256 MiB (/dev/zero given by mistake) is refused
# before it fills the memory
one_line "check --patch /dev/zero" 2 k check --patch /dev/zero --base v1.0
t_is "check --patch /dev/zero: said so" "kmig: '/dev/zero' is larger than 256 MiB" \
	"$(cat "$TRASH/.stderr")"

# a command that fails, or finds nothing to read, creates no database
one_line "scan of no tag" 2 "$KMIG" --repo "$W" --db "$TRASH/none/a.db" scan --tags 'zz*'
one_line "branch status before any apply" 2 "$KMIG" --repo "$W" --db "$TRASH/none/b.db" branch status
t_is "branch status before any apply: said so" \
	"kmig: no branch applied yet: no database '$TRASH/none/b.db' (run 'kmig branch apply')" \
	"$(cat "$TRASH/.stderr")"
one_line "branch status --matrix before any scan" 2 \
	"$KMIG" --repo "$W" --db "$TRASH/none/c.db" branch status --matrix
one_line "branch export before any apply" 2 "$KMIG" --repo "$W" --db "$TRASH/none/d.db" branch export
one_line "log of a bad range" 2 "$KMIG" --repo "$W" --db "$TRASH/none/e.db" log v1.0..nosuch
one_line "convert before any scan" 2 "$KMIG" --repo "$W" --db "$TRASH/none/f.db" convert strlcpy
t_is "convert before any scan: said so" \
	"kmig: no release scanned yet (run 'kmig scan')" "$(cat "$TRASH/.stderr")"
one_line "boot of an unknown revision" 2 "$KMIG" --repo "$W" --db "$TRASH/none/g.db" boot nosuch
# an empty REV is an unknown revision too, not a broken reference to HEAD
# (git_reference_dwim("") resolves): repo_resolve_commit(), shared
one_line "boot ''" 2 "$KMIG" --repo "$W" --db "$TRASH/none/h.db" boot ''
t_is "boot '': said so" "kmig: unknown revision ''" "$(cat "$TRASH/.stderr")"
one_line "bisect '' HEAD" 2 "$KMIG" --repo "$W" --db "$TRASH/none/h.db" bisect '' HEAD
t_is "bisect '' HEAD: said so" "kmig: unknown revision ''" "$(cat "$TRASH/.stderr")"
one_line "bisect v1.0 ''" 2 "$KMIG" --repo "$W" --db "$TRASH/none/h.db" bisect v1.0 ''
t_is "bisect v1.0 '': said so" "kmig: unknown revision ''" "$(cat "$TRASH/.stderr")"
t_ok "no database, no directory" test ! -e "$TRASH/none"
# an empty --db or --repo is an error, not SQLite's temporary database (a
# scan's results gone, exit 0, and its call graph written to ./-graph)
mkdir "$TRASH/cwd"
one_line "scan --db ''" 2 sh -c "cd '$TRASH/cwd' && '$KMIG' --repo '$W' --db '' scan"
t_is "scan --db '': said so" "kmig: --db needs a file, not '' (see 'kmig --help')" \
	"$(cat "$TRASH/.stderr")"
t_is "scan --db '': nothing written where it ran" "" "$(ls -A "$TRASH/cwd")"
one_line "log --db ''" 2 sh -c "cd '$TRASH/cwd' && '$KMIG' --repo '$W' --db '' log v1.0..HEAD"
one_line "report --repo ''" 2 "$KMIG" --repo '' --db "$TRASH/kmig.db" report
t_is "report --repo '': said so" "kmig: --repo needs a directory, not '' (see 'kmig --help')" \
	"$(cat "$TRASH/.stderr")"
# a --db ending in '/' names a directory: a scan would create it, then fail
one_line "scan --db DIR/" 2 "$KMIG" --repo "$W" --db "$TRASH/dbdir/" scan
t_is "scan --db DIR/: said so" \
	"kmig: --db needs a file, not the directory '$TRASH/dbdir/' (see 'kmig --help')" \
	"$(cat "$TRASH/.stderr")"
t_ok "... no directory made" test ! -e "$TRASH/dbdir"
# an empty file: the read-only commands write no schema into it
: > "$TRASH/zero.db"
one_line "report on an empty database file" 2 "$KMIG" --db "$TRASH/zero.db" report
t_is "... said so" "kmig: database '$TRASH/zero.db' is empty (run 'kmig scan' first)" \
	"$(cat "$TRASH/.stderr")"
t_exit "rules with an empty database file" 0 "$KMIG" --db "$TRASH/zero.db" rules
t_exit "web with an empty database file" 2 "$KMIG" --db "$TRASH/zero.db" web -o "$TRASH/zsite"
t_is "... the file still empty" 0 "$(wc -c < "$TRASH/zero.db")"
unset KMIG_PROGRESS KMIG_NO_PROGRESS
t_exit "scan, stderr not a terminal" 0 k scan
t_is "... no progress" "" "$(cat "$TRASH/.stderr")"
one_line "convert without its semantic patches" 2 \
	env KMIG_COCCI_DIR="$TRASH/nococci" "$KMIG" --repo "$W" --db "$TRASH/kmig.db" convert strlcpy --dry-run
t_is "... says where it looked" \
	"kmig: cannot read '$TRASH/nococci/strlcpy.cocci': No such file or directory" \
	"$(cat "$TRASH/.stderr")"
t_exit "scan with KMIG_PROGRESS=1" 0 env KMIG_PROGRESS=1 "$KMIG" --repo "$W" --db "$TRASH/p.db" scan
t_ok "... progress lines" grep -q '^\[1/1\] scanning v1.0$' "$TRASH/.stderr"
t_exit "scan with KMIG_PROGRESS=1 KMIG_NO_PROGRESS=1" 0 \
	env KMIG_PROGRESS=1 KMIG_NO_PROGRESS=1 "$KMIG" --repo "$W" --db "$TRASH/q.db" scan
t_is "... none" "" "$(cat "$TRASH/.stderr")"
t_exit "check, stderr not a terminal" 1 k check HEAD
t_is "... no statistics line" "" "$(cat "$TRASH/.stderr")"
t_exit "check with KMIG_PROGRESS=1" 1 env KMIG_PROGRESS=1 "$KMIG" --repo "$W" --db "$TRASH/kmig.db" check HEAD
t_ok "... the statistics line, through the same gate" \
	grep -q '^kmig check: 1 files touched, ' "$TRASH/.stderr"
t_exit "check with KMIG_PROGRESS=1 KMIG_NO_PROGRESS=1" 1 \
	env KMIG_PROGRESS=1 KMIG_NO_PROGRESS=1 "$KMIG" --repo "$W" --db "$TRASH/kmig.db" check HEAD
t_is "... none" "" "$(cat "$TRASH/.stderr")"
# a reader that closes the pipe ends kmig quietly, also when the caller
# ignores SIGPIPE: 2,000 files' rows are more than a pipe holds
P="$TRASH/pipe"
git init -q "$P"
mkdir -p "$P/d"
i=0
while [ $i -lt 2000 ]; do
	printf 'void f%d(char *a, char *b) { strcpy(a, b); }\n' $i > "$P/d/file-with-a-long-name-$i.c"
	i=$((i + 1))
done
git_commit_all "$P" many && git -C "$P" tag v1.0
"$KMIG" --repo "$P" --db "$TRASH/pipe.db" scan > /dev/null 2>&1
sh -c "trap '' PIPE; '$KMIG' --repo '$P' --db '$TRASH/pipe.db' report --by file --format csv | true" \
	2> "$TRASH/pipe.err"
t_is "a closed pipe, SIGPIPE ignored: nothing on stderr" "" "$(cat "$TRASH/pipe.err")"
t_ok "... the output is larger than a pipe" sh -c \
	"test \$('$KMIG' --repo '$P' --db '$TRASH/pipe.db' report --by file --format csv | wc -c) -gt 65536"
t_done
