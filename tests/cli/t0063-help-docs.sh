#!/bin/sh
# t0063-help-docs.sh - the help entry points agree (kmig --help X, kmig help
# X, X --help, kmig branch --help test), --version takes no argument, and
# the documentation agrees with the option tables of tracker/: every option
# a command accepts (long and short, from its getopt_long() table) is in
# its --help, its man page section, its README section and (long forms)
# its bash completion, which offers no option or command that does not
# exist; the global options, the command list, each branch subcommand's
# options and the values completed for --format and convert's RULE too.
. "$(dirname "$0")/../lib.sh"

t_exit "kmig --help boot" 0 "$KMIG" --help boot
t_is "... is boot's help" "$("$KMIG" boot --help)" "$(cat "$TRASH/.stdout")"
t_exit "kmig --help branch test" 0 "$KMIG" --help branch test
t_is "... is branch test's help" "$("$KMIG" branch test --help)" "$(cat "$TRASH/.stdout")"
t_exit "kmig branch --help test" 0 "$KMIG" branch --help test
t_is "... is branch test's help" "$("$KMIG" help branch test)" "$(cat "$TRASH/.stdout")"
t_exit "kmig branch --help" 0 "$KMIG" branch --help
t_is "... is branch's help" "$("$KMIG" help branch)" "$(cat "$TRASH/.stdout")"
t_exit "kmig --help" 0 "$KMIG" --help
t_ok "... the command list" grep -q "^  bisect " "$TRASH/.stdout"
t_exit "kmig --help nosuch" 2 "$KMIG" --help nosuch
t_is "... one line" "kmig: unknown command 'nosuch'" "$(cat "$TRASH/.stderr")"
t_exit "kmig --help boot extra" 2 "$KMIG" --help boot extra
t_is "... one line" 1 "$(wc -l < "$TRASH/.stderr")"
t_exit "kmig --version" 0 "$KMIG" --version
t_exit "kmig --version extra" 2 "$KMIG" --version extra
t_is "... one line naming it" \
	"kmig: --version takes no argument, not 'extra' (see 'kmig --help')" "$(cat "$TRASH/.stderr")"
t_is "... nothing on stdout" "" "$(cat "$TRASH/.stdout")"

# man page section (roff, "\-" as "-") and completion of each command;
# the boot and runner options of bisect and branch test are in boot's
# section ("[boot options] [runner options]")
MAN="$TOP/doc/kmig.1" COMP="$TOP/doc/kmig.bash-completion"
complete_opts() {
	bash -c ". '$COMP'
	c() { COMP_WORDS=(\"\$@\"); COMP_CWORD=\$((\$# - 1)); _kmig; echo \"\${COMPREPLY[*]}\"; }
	c kmig $1 -"
}
for c in boot bisect "branch test"; do
	sec=${c%% *}
	# shellcheck disable=SC2086
	opts=$("$KMIG" $c --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u |
		grep -v -x -e --help -e --repo -e --db)
	man=$(sed -n -e "/^\.SS $sec\$/,/^\.SS /p" -e '/^\.SS boot$/,/^\.SS /p' "$MAN" |
		sed 's/\\-/-/g')
	comp=$(complete_opts "$c")
	missing_man= missing_comp=
	for o in $opts; do
		printf '%s\n' "$man" | grep -q -- "$o\\b" || missing_man="$missing_man $o"
		case " $comp " in *" $o "*) ;; *) missing_comp="$missing_comp $o" ;; esac
	done
	t_is "$c: every --help option in the man page's $sec section" "" "$missing_man"
	t_is "$c: every --help option in the completion" "" "$missing_comp"
done
t_ok "man page: bisect's exit 1 is ambiguous or unreliable" \
	sh -c "sed -n '/^\.SS bisect\$/,/^\.SS /p' '$MAN' | grep -q unreliable"

# --- the documentation against the option tables of tracker/ ---
README="$TOP/README.md"

# src_opts FILE - the options FILE's getopt_long() accepts, one a line:
# "--long" from its struct option table (the *_LONGOPTS macros of
# tracker/*.h expanded) and "-x" from its short option string
src_opts() {
	cat "$TOP"/tracker/*.h | awk '
	function macro(name,   i, l, on) {
		for (i = 1; i <= nh; i++) {
			l = h[i]
			if (l ~ "^#define " name "[ \t\\\\]*$") { on = 1; continue }
			if (!on)
				continue
			while (match(l, /\{ "[a-z0-9-]+"/)) {
				print "--" substr(l, RSTART + 3, RLENGTH - 4)
				l = substr(l, RSTART + RLENGTH)
			}
			if (l !~ /\\$/)
				on = 0
		}
	}
	FILENAME == "-" { h[++nh] = $0; next }
	/struct option [a-z]*opts\[\] = \{/ { on = 1; next }
	on && /NULL, 0, NULL, 0/ { on = 0 }
	on && /\{ "/ {
		match($0, /"[a-z0-9-]+"/)
		print "--" substr($0, RSTART + 1, RLENGTH - 2)
	}
	on && /^[ \t]*[A-Z_]+_LONGOPTS,?[ \t]*$/ { n = $1; sub(/,$/, "", n); macro(n) }
	/getopt_long\(argc, argv, "/ {
		match($0, /argv, "[^"]*"/)
		s = substr($0, RSTART + 7, RLENGTH - 8)
		gsub(/[+:]/, "", s)
		for (i = 1; i <= length(s); i++)
			print "-" substr(s, i, 1)
	}' - "$1" | sort -u
}

# doc_opts - the options named on standard input (roff's "\-" read as
# "-"): --long anywhere, -x alone (not -p1, -rc)
doc_opts() {
	sed 's/\\-/-/g' | grep -o -E -- '(--[a-z][a-z0-9-]*|(^|[][ ,(`|])-[a-zA-Z]([][ ,`)|]|$))' |
		grep -o -E -- '-+[a-z0-9-]+' | sort -u
}

# man_sec NAME - the man page's ".SS NAME" (or ".SH NAME") section
man_sec() {
	sed -n -e "/^\.S[SH] $1\$/,/^\.S[SH] /p" "$MAN"
}

# readme_sec CMD - the README's "## " sections whose heading names
# 'kmig CMD' (not 'kmig CMD SUB': "kmig branch" is not "kmig branch test")
readme_sec() {
	awk -v c="$1" '
	/^## / { on = match($0, "kmig " c "([^ a-z-]|$| [^a-z])") }
	on' "$README"
}

# comp_words WORD... - what the completion offers after "kmig WORD..."
comp_words() {
	bash -c ". '$COMP'
	c() { COMP_WORDS=(\"\$@\"); COMP_CWORD=\$((\$# - 1)); _kmig; echo \"\${COMPREPLY[*]}\"; }
	c kmig \"\$@\"" sh "$@" | tr ' ' '\n' | grep . | sort -u
}

# missing WANT HAVE - the lines of WANT not in HAVE, on one line
missing() {
	printf '%s\n' "$1" | grep . | grep -v -x -F -e "$2" -e '' | tr '\n' ' ' | sed 's/ $//'
}

commands=$("$KMIG" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
t_ok "the command list is read from kmig --help" test -n "$commands"
t_is "completion: the commands (and help)" \
	"$(printf '%s\nhelp\n' "$commands" | sort)" "$(comp_words '')"
t_is "completion: kmig help COMMAND" \
	"$(printf '%s\n' "$commands" | sort)" "$(comp_words help '')"
t_is "completion: kmig help branch SUBCOMMAND" "test" "$(comp_words help branch '')"

# global options: kmig.c's table, kmig --help, the man page's SYNOPSIS and
# GLOBAL OPTIONS, the README's "Global options and conventions"
src=$(src_opts "$TOP/tracker/kmig.c")
t_is "global: --help names every global option" "" \
	"$(missing "$src" "$("$KMIG" --help | doc_opts)")"
t_is "global: the man page names every global option" "" \
	"$(missing "$src" "$( (man_sec SYNOPSIS; man_sec 'GLOBAL OPTIONS') | doc_opts)")"
t_is "global: the README names every global option" "" \
	"$(missing "$src" "$(sed -n '/^## Global options/,/^## /p' "$README" | doc_opts)")"
t_is "global: completion offers the long global options, no other" \
	"$(printf '%s\n' "$src" | grep -e '^--')" "$(comp_words -)"

# every command: its table against its --help, man page section, README
# section and completion (bisect and branch test: the boot and runner
# options in boot's sections too, "[boot options] [runner options]")
for c in $commands "branch test"; do
	file=$TOP/tracker/cmd-$(printf '%s' "$c" | tr ' ' -).c
	t_ok "$c: tracker/cmd-*.c exists" test -f "$file"
	src=$(src_opts "$file")
	t_ok "$c: options read from its table" test -n "$src"
	[ "$c" = branch ] && continue	# its subcommands: below
	sec=${c%% *}
	# shellcheck disable=SC2086
	help=$("$KMIG" $c --help | doc_opts)
	man=$( (man_sec "$sec"; case $c in bisect | "branch test") man_sec boot ;; esac) | doc_opts)
	rd=$( (readme_sec "$c"; case $c in bisect | "branch test") readme_sec boot ;; esac) | doc_opts)
	t_is "$c: --help names every option it takes" "" "$(missing "$src" "$help")"
	t_is "$c: the man page names every option it takes" "" "$(missing "$src" "$man")"
	t_is "$c: the README names every option it takes" "" "$(missing "$src" "$rd")"
	# shellcheck disable=SC2086
	t_is "$c: completion offers its long options and --help, no other" \
		"$(printf '%s\n--help\n' "$src" | grep -e '^--' | sort -u)" "$(comp_words $c -)"
done

# branch's subcommands: the options each takes (asked of kmig: "--X is
# not an option of 'kmig branch SUB'"), in its usage line of kmig branch
# --help, its man page synopsis, its README heading and its completion
src=$(src_opts "$TOP/tracker/cmd-branch.c")
subs=$("$KMIG" branch --help | sed -n 's/^\(usage:\)* *kmig branch \([a-z]*\) .*/\2/p' | grep -v -x test)
t_ok "branch: subcommands read from kmig branch --help" test -n "$subs"
for sub in $subs; do
	takes=
	for o in $src; do
		"$KMIG" --repo "$TRASH/nosuch" --db "$TRASH/nosuch.db" branch "$sub" "$o=x" 2>&1 |
			grep -q "is not an option of" && continue
		"$KMIG" --repo "$TRASH/nosuch" --db "$TRASH/nosuch.db" branch "$sub" "$o" 2>&1 |
			grep -q "is not an option of" && continue
		takes="$takes$o
"
	done
	t_ok "branch $sub: takes options" test -n "$takes"
	usage=$("$KMIG" branch --help | awk -v s="$sub" '
		/^(usage:)? *kmig branch / { on = $0 ~ "kmig branch " s " " } /^$/ { on = 0 } on' | doc_opts)
	man=$(sed -n "/^\.B kmig branch $sub\\b/,/^\.\(br\|PP\)\$/p" "$MAN" | doc_opts)
	rd=$(grep "^### \`kmig branch $sub " "$README" | doc_opts)
	t_is "branch $sub: its --help usage line names its options" "" "$(missing "$takes" "$usage")"
	t_is "branch $sub: its man page synopsis names its options" "" "$(missing "$takes" "$man")"
	t_is "branch $sub: its README heading names its options" "" "$(missing "$takes" "$rd")"
	t_is "branch $sub: completion offers its options and --help, no other" \
		"$(printf '%s--help\n' "$takes" | sort -u)" "$(comp_words branch "$sub" -)"
done

# values: --format as each command's --help gives them; convert's RULE as
# kmig names the semantic patches it has
for c in $commands; do
	# shellcheck disable=SC2086
	f=$("$KMIG" $c --help | grep -o -- '--format [a-z|]*' | head -1 | cut -d' ' -f2)
	[ -n "$f" ] || continue
	# shellcheck disable=SC2086
	t_is "$c: completion of --format" "$(printf '%s\n' "$f" | tr '|' '\n' | sort)" \
		"$(comp_words $c --format '')"
done
"$KMIG" --repo "$TRASH/nosuch" --db "$TRASH/nosuch.db" convert strncpy 2> "$TRASH/.err"
have=$(sed -n 's/.*(have: \(.*\))$/\1/p' "$TRASH/.err" | sed 's/, /\n/g' | sort)
t_ok "convert: the rules with a semantic patch, from kmig" test -n "$have"
t_is "convert: completion of RULE" "$have" "$(comp_words convert '')"
t_is "convert: the man page names every RULE" "" \
	"$(missing "$have" "$(man_sec convert | sed 's/\\-/-/g' | grep -o -E '[a-z][a-z-]*' | sort -u)")"
t_done
