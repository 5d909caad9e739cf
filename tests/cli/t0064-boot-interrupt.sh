#!/bin/sh
# t0064-boot-interrupt.sh - what an interrupted kmig branch test --jobs
# leaves: the fixture's fake images (boot_fixture in lib.sh) booted by a
# fake qemu-system-x86_64 first on PATH, so no kernel is built or booted.
# The boots in the background must not outlive kmig, and their
# directories must not pile up in the work area.
. "$(dirname "$0")/../lib.sh"
export KMIG_NO_PROGRESS=1

R="$TRASH/repo" S="$TRASH/series" D="$TRASH/kmig.db"
k() { "$KMIG" --repo "$R" --db "$D" "$@"; }
t_ok "fixture: five commits with fake images" boot_fixture "$R" "$D"
mkdir -p "$S" "$TRASH/bin" "$TRASH/pids"
git -C "$R" format-patch -q -2 -o "$S" HEAD
(cd "$S" && ls ./*.patch | sed 's|^\./||') > "$S/series"
t_exit "fixture: a branch of two steps" 0 k branch apply --base v1.0 --series "$S" --name t/x
hash=$(sqlite3 "$D" "SELECT substr(config_hash, 1, 12) FROM builds LIMIT 1")
for c in $(git -C "$R" rev-list t/x); do
	for d in "$KMIG_HOME"/work/*/images; do
		[ -e "$d/$c-$hash.bzImage" ] || head -c 4096 /dev/urandom > "$d/$c-$hash.bzImage"
	done
done
fake_qemu_hanging "$TRASH/bin"
export FAKE_PIDS="$TRASH/pids"
boots() { ls "$KMIG_HOME"/work/*/boots 2> /dev/null | grep -c .; }

# as Ctrl-C does (a background job of sh ignores SIGINT: undo that)
PATH="$TRASH/bin:$PATH" env --default-signal=INT "$KMIG" --repo "$R" --db "$D" \
	branch test --name t/x --no-compile-check --jobs 2 > "$TRASH/int.out" 2>&1 &
pid=$!
wait_files "$TRASH/pids" 2
t_is "both steps boot in the background" 2 "$(boots)"
kill -INT $pid
wait $pid
t_is "SIGINT ends kmig" 130 "$?"
wait_gone "$TRASH/pids"
t_is "... and what its boots ran" "" "$(pids_alive "$TRASH/pids")"
kill_sleeps "$TRASH/pids"

t_exit "the next branch test --jobs 2" 1 env FAKE_FAST=1 PATH="$TRASH/bin:$PATH" \
	"$KMIG" --repo "$R" --db "$D" branch test --name t/x --no-compile-check --jobs 2
t_ok "... boots both steps (fail)" test "$(grep -c '^000[12] boot-fail ' "$TRASH/.stdout")" -eq 2
t_is "... and leaves no boot directory, not even the killed run's" 0 "$(boots)"
t_done
