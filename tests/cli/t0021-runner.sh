#!/bin/sh
# t0021-runner.sh - the --runner options of kmig boot, bisect and branch
# test: bad values and combinations are usage errors (exit 2, one line),
# each --help names them.  The runs themselves are tests/qemu/t0610-t0611.
. "$(dirname "$0")/../lib.sh"

for cmd in boot bisect "branch test"; do
	# shellcheck disable=SC2086
	t_exit "$cmd --runner nope" 2 "$KMIG" $cmd --runner nope
	t_ok "$cmd --runner nope: one line naming the runners" \
		sh -c "test \$(wc -l < '$TRASH/.stderr') -eq 1 && grep -q 'kmig or lava' '$TRASH/.stderr'"
	# shellcheck disable=SC2086
	t_exit "$cmd --lava-identity without --runner lava" 2 \
		"$KMIG" $cmd --lava-identity lab --artifact-url http://h/a --artifact-dir /tmp
	t_ok "$cmd: the error names --runner lava" grep -q 'needs --runner lava' "$TRASH/.stderr"
	# shellcheck disable=SC2086
	t_exit "$cmd --lava-identity without artifacts" 2 \
		"$KMIG" $cmd --runner lava --lava-identity lab
	t_ok "$cmd: the error names --artifact-url" grep -q 'artifact-url' "$TRASH/.stderr"
	# shellcheck disable=SC2086
	t_exit "$cmd --artifact-url that is no URL" 2 \
		"$KMIG" $cmd --runner lava --lava-identity lab --artifact-url /srv --artifact-dir /srv
	# shellcheck disable=SC2086
	t_exit "$cmd --help" 0 "$KMIG" $cmd --help
	t_ok "$cmd --help names --runner and --lava-identity" \
		sh -c "grep -q -- '--runner R' '$TRASH/.stdout' && grep -q -- '--lava-identity NAME' '$TRASH/.stdout'"
done
t_exit "branch test --jobs 0" 2 "$KMIG" branch test --jobs 0
t_exit "branch test --jobs x" 2 "$KMIG" branch test --jobs x
t_ok "branch test --help names --jobs" sh -c "'$KMIG' branch test --help | grep -q -- '--jobs N'"
t_done
