#!/bin/sh
# t0063-help-docs.sh - the help entry points agree (kmig --help X, kmig help
# X, X --help, kmig branch --help test), --version takes no argument, and
# every option a booting command's --help names is in its man page section
# and its bash completion.
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
t_done
