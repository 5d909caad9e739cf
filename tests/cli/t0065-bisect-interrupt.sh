#!/bin/sh
# t0065-bisect-interrupt.sh - what an interrupted kmig bisect leaves: the
# fixture's fake images (boot_fixture in lib.sh) booted by a fake
# qemu-system-x86_64 first on PATH that never ends, so the bisect is
# killed in its first step (SIGINT as Ctrl-C sends it, SIGTERM as a CI
# timeout does, SIGKILL, which no handler sees).  Its bisects row must not
# read 'running' once its kmig is gone, and the repository's checkout and
# git bisect state are untouched (kmig bisect works in its own worktree).
. "$(dirname "$0")/../lib.sh"
export KMIG_NO_PROGRESS=1

R="$TRASH/repo" D="$TRASH/kmig.db"
k() { "$KMIG" --repo "$R" --db "$D" "$@"; }
q() { sqlite3 "$D" "$@"; }
t_ok "fixture: five commits with fake images" boot_fixture "$R" "$D"
t_ok "fixture: v1.0 scanned (kmig web needs a release)" k scan
mkdir -p "$TRASH/bin" "$TRASH/pids"
fake_qemu_hanging "$TRASH/bin"
export FAKE_PIDS="$TRASH/pids"
head=$(git -C "$R" rev-parse HEAD)

# interrupted SIG - run a bisect, kill it with SIG in its first boot;
# its exit status in $TRASH/rc
interrupted() {
	rm -f "$TRASH"/pids/*
	# a background job of sh ignores SIGINT: undo that
	PATH="$TRASH/bin:$PATH" env --default-signal=INT "$KMIG" --repo "$R" --db "$D" \
		bisect v1.0 master --verify 1 > "$TRASH/int.out" 2>&1 &
	_pid=$!
	wait_files "$TRASH/pids" 1
	kill "-$1" $_pid
	wait $_pid 2> /dev/null
	echo $? > "$TRASH/rc"
	kill_sleeps "$TRASH/pids"
}

# web_status - "ID|STATUS" of each bisection on kmig web's branch page
web_status() {
	k web -o "$TRASH/site" > /dev/null 2>&1 || return 1
	sed -n 's/^<h3 id="bisect-\([0-9]*\)">.*/\1/p
		s/^<p>Good .*: <span class="st-[a-z-]*">\([a-z]*\)<.*/\1/p' \
		"$TRASH/site/branch.html" | paste -d'|' - - | sort -n | tr '\n' ' ' |
		sed 's/ $//'
}

interrupted INT
t_is "SIGINT ends kmig bisect" 130 "$(cat "$TRASH/rc")"
t_is "... its bisection is recorded" 1 "$(q 'SELECT count(*) FROM bisects')"
t_is "... the web page shows it interrupted, not running" "1|interrupted" "$(web_status)"
t_is "... the checkout is where it was" "$head" "$(git -C "$R" rev-parse HEAD)"
t_is "... and clean" "" "$(git -C "$R" status --porcelain)"
t_exit "... no git bisect was started in it" 1 git -C "$R" bisect log

interrupted TERM
t_is "SIGTERM ends kmig bisect" 143 "$(cat "$TRASH/rc")"
interrupted KILL
t_is "SIGKILL ends kmig bisect" 137 "$(cat "$TRASH/rc")"
t_is "the web page shows all three interrupted" "1|interrupted 2|interrupted 3|interrupted" \
	"$(web_status)"

# a bisect running at once is running, not interrupted
rm -f "$TRASH"/pids/*
PATH="$TRASH/bin:$PATH" "$KMIG" --repo "$R" --db "$D" bisect v1.0 master --verify 1 \
	> /dev/null 2>&1 &
pid=$!
wait_files "$TRASH/pids" 1
t_is "a bisect in its first boot reads running" \
	"1|interrupted 2|interrupted 3|interrupted 4|running" "$(web_status)"
kill -TERM $pid
wait $pid 2> /dev/null
kill_sleeps "$TRASH/pids"

# the next bisect records the interrupted ones so, and ends with its own
t_exit "the next bisect (every boot fails at once)" 1 env FAKE_FAST=1 \
	PATH="$TRASH/bin:$PATH" "$KMIG" --repo "$R" --db "$D" bisect v1.0 master --verify 1
t_is "... the rows of the killed ones say interrupted" \
	"1|interrupted 2|interrupted 3|interrupted 4|interrupted 5|unreliable" \
	"$(q 'SELECT id, status FROM bisects ORDER BY id' | tr '\n' ' ' | sed 's/ $//')"
t_is "... each recorded who ran it" 5 "$(q "SELECT count(*) FROM bisects WHERE owner LIKE '% % % % %'")"

# a row of another host may still run there: it is left running
q "INSERT INTO bisects(good, bad, tests, status, created_at, owner)
	VALUES ('$head', '$head', 'boot', 'running', 1, '1 1 b pid:[1] elsewhere.invalid')"
t_is "another host's running bisection reads running" \
	"1|interrupted 2|interrupted 3|interrupted 4|interrupted 5|unreliable 6|running" \
	"$(web_status)"

# a database of schema 14, before bisects.owner: a row left running by an
# older kmig reads interrupted once migrated
cp "$D" "$TRASH/v14.db"
sqlite3 "$TRASH/v14.db" "ALTER TABLE bisects DROP COLUMN owner;
	UPDATE bisects SET status = 'running' WHERE id = 1;
	PRAGMA user_version = 14"
t_exit "an older database is migrated" 0 "$KMIG" --repo "$R" --db "$TRASH/v14.db" scan
t_is "... its running bisection is interrupted" "interrupted" \
	"$(sqlite3 "$TRASH/v14.db" 'SELECT status FROM bisects WHERE id = 1')"
t_done
