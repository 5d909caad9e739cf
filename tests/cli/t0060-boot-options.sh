#!/bin/sh
# kmig boot and kmig bisect option errors (--retries, --bases, --verify,
# --report): exit 2 with one line naming the option, nothing on stdout,
# before any repository, build or QEMU is touched.
. "$(dirname "$0")/../lib.sh"

# one_line "desc" command... - exits 2 with exactly one line on stderr
# and nothing on stdout
one_line() {
	_ol_desc=$1; shift
	t_exit "$_ol_desc" 2 "$@"
	t_is "$_ol_desc: one line on stderr" 1 "$(wc -l < "$TRASH/.stderr")"
	t_is "$_ol_desc: nothing on stdout" "" "$(cat "$TRASH/.stdout")"
}

for c in boot "bisect A B"; do
	cmd=${c%% *}
	# shellcheck disable=SC2086
	one_line "$cmd --retries 2x" "$KMIG" $c --retries 2x
	t_is "$cmd --retries 2x: named with its range" \
		"kmig $cmd: --retries: '2x' is not a number between 0 and 10 (see 'kmig help $cmd')" \
		"$(cat "$TRASH/.stderr")"
	# shellcheck disable=SC2086
	one_line "$cmd --retries 11" "$KMIG" $c --retries 11
	# shellcheck disable=SC2086
	one_line "$cmd --retries -1" "$KMIG" $c --retries -1
	# shellcheck disable=SC2086
	one_line "$cmd --retries without a value" "$KMIG" $c --retries
done

one_line "boot --bases with a REV" "$KMIG" boot --bases HEAD
t_is "boot --bases with a REV: said so" \
	"kmig boot: --bases takes no REV (see 'kmig help boot')" "$(cat "$TRASH/.stderr")"
one_line "boot --bases=x" "$KMIG" boot --bases=x

one_line "bisect --verify 0" "$KMIG" bisect A B --verify 0
t_is "bisect --verify 0: named with its range" \
	"kmig bisect: --verify: '0' is not a number between 1 and 10 (see 'kmig help bisect')" \
	"$(cat "$TRASH/.stderr")"
one_line "bisect --verify 11" "$KMIG" bisect A B --verify 11
one_line "bisect --verify x" "$KMIG" bisect A B --verify x
one_line "bisect --report ''" "$KMIG" bisect A B --report ''
t_ok "bisect --report '': named" grep -q "^kmig bisect: --report needs a file name" "$TRASH/.stderr"
one_line "bisect --report without a value" "$KMIG" bisect A B --report
one_line "bisect --bases is not an option" "$KMIG" bisect A B --bases

# what every step needs, checked before a bisect is recorded: no database
# made, no step started
W="$TRASH/work"
git init -q "$W"
printf 'int a;\n' > "$W/a.c"
git_commit_all "$W" one && git -C "$W" tag v1.0
printf 'int b;\n' > "$W/b.c"
git_commit_all "$W" two
b() { "$KMIG" --repo "$W" --db "$TRASH/b.db" bisect v1.0 HEAD "$@"; }
one_line "bisect --report in a missing directory" b --report "$TRASH/nodir/report.txt"
t_is "... named" "kmig: --report: cannot write in '$TRASH/nodir': No such file or directory" \
	"$(cat "$TRASH/.stderr")"
mkdir -p "$TRASH/adir"
one_line "bisect --report a directory" b --report "$TRASH/adir"
t_is "... named" "kmig: --report: '$TRASH/adir' is a directory" "$(cat "$TRASH/.stderr")"
one_line "bisect without kmig's qemu/ data" env KMIG_QEMU_DIR="$TRASH/noqemu" \
	"$KMIG" --repo "$W" --db "$TRASH/b.db" bisect v1.0 HEAD
t_is "... named" "kmig: cannot read '$TRASH/noqemu/kmig.config': No such file or directory" \
	"$(cat "$TRASH/.stderr")"
t_ok "no database made by any of them" test ! -e "$TRASH/b.db"

# --artifact-dir and --accel kvm are checked before anything is built: one
# line, exit 2, no database, no build log
printf 'not a directory\n' > "$TRASH/afile"
lab="--runner lava --lava-identity lab --artifact-url http://h/a"
for c in "boot HEAD" "bisect v1.0 HEAD" "branch test --name x"; do
	# shellcheck disable=SC2086
	one_line "$c --artifact-dir a file" "$KMIG" --repo "$W" --db "$TRASH/c.db" \
		$c $lab --artifact-dir "$TRASH/afile"
	t_is "$c --artifact-dir a file: named" \
		"kmig: --artifact-dir: '$TRASH/afile' is not a directory" "$(cat "$TRASH/.stderr")"
	# shellcheck disable=SC2086
	one_line "$c --artifact-dir under a file" "$KMIG" --repo "$W" --db "$TRASH/c.db" \
		$c $lab --artifact-dir "$TRASH/afile/sub"
	t_is "$c --artifact-dir under a file: named" \
		"kmig: --artifact-dir: cannot use '$TRASH/afile/sub': Not a directory" \
		"$(cat "$TRASH/.stderr")"
	if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		t_skip "$c --accel kvm: /dev/kvm is usable here (test-runner.c checks the check)"
	else
		# shellcheck disable=SC2086
		one_line "$c --accel kvm without a usable /dev/kvm" \
			"$KMIG" --repo "$W" --db "$TRASH/c.db" $c --accel kvm
		t_ok "$c --accel kvm: named" grep -q "^kmig: --accel kvm: cannot use '/dev/kvm'" \
			"$TRASH/.stderr"
	fi
done
t_ok "... no database made" test ! -e "$TRASH/c.db"
t_ok "... nothing built" sh -c "! ls '$KMIG_HOME'/work/*/logs/build-* > /dev/null 2>&1"

t_ok "boot --help names --retries and --bases" sh -c \
	"'$KMIG' boot --help | grep -q -- '--retries N' && '$KMIG' boot --help | grep -q -- '--bases'"
t_ok "bisect --help names --verify, --retries and --report" sh -c \
	"'$KMIG' bisect --help | grep -q -- '--verify N' && '$KMIG' bisect --help | grep -q -- '--retries N' &&
	 '$KMIG' bisect --help | grep -q -- '--report FILE'"
t_done
