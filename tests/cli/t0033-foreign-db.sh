#!/bin/sh
# A database file that is no kmig database, or one newer than this kmig:
# every command that opens it, writing or reading, stops with one line
# that says so (exit 2) and leaves the file byte for byte as it was (no
# kmig tables added, no switch to WAL mode, no -wal or -shm left).
. "$(dirname "$0")/../lib.sh"

W="$TRASH/work"
git init -q "$W"
mkdir -p "$W/lib"
printf 'void f(char *d, const char *s)\n{\n\tstrcpy(d, s);\n}\n' > "$W/lib/a.c"
git_commit_all "$W" one && git -C "$W" tag v1.0
# a series of one patch, for branch apply
S="$TRASH/series"
mkdir "$S"
sed -i 's/strcpy(d, s);/strscpy(d, s, 8);/' "$W/lib/a.c"
git_commit_all "$W" "lib: a: use strscpy"
git -C "$W" format-patch -q -1 -o "$S" HEAD
(cd "$S" && ls *.patch) > "$S/series"
git -C "$W" reset -q --hard v1.0
t_exit "a kmig database to start from" 0 "$KMIG" --repo "$W" --db "$TRASH/kmig.db" scan

F="$TRASH/f.db"
# make_db KIND - $F as a database of that kind
make_db() {
	rm -f "$F" "$F-wal" "$F-shm" "$F-graph"
	case $1 in
	sqlite)	# another program's SQLite database, in rollback-journal mode
		sqlite3 "$F" 'CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT);
			INSERT INTO notes(text) VALUES ('"'keep me'"')' ;;
	versioned) # ... that sets a user_version of its own
		sqlite3 "$F" 'CREATE TABLE notes (text TEXT); PRAGMA user_version = 5' ;;
	text)
		echo "not a database" > "$F" ;;
	newer)	# a kmig database from a newer kmig, in rollback-journal mode
		cp "$TRASH/kmig.db" "$F" &&
		sqlite3 "$F" 'PRAGMA journal_mode = DELETE; PRAGMA user_version = 999' > /dev/null ;;
	esac
}

for kind in sqlite versioned text newer; do
	case $kind in
	newer) msg="database '$F' has schema version 999, newer than this kmig" ;;
	*) msg="database '$F' is not a kmig database" ;;
	esac
	for cmd in "scan" "report" "web -o $TRASH/site" "rules" "log v1.0..HEAD" \
		   "branch status" "branch apply --base v1.0 --series $S"; do
		make_db $kind
		sum=$(cksum < "$F")
		# shellcheck disable=SC2086
		t_exit "$kind: $cmd refused" 2 "$KMIG" --repo "$W" --db "$F" $cmd
		t_is "$kind: $cmd: one line" 1 "$(wc -l < "$TRASH/.stderr")"
		t_ok "$kind: $cmd: it says why" grep -qF "kmig: $msg" "$TRASH/.stderr"
		t_is "$kind: $cmd: the file unchanged" "$sum" "$(cksum < "$F")"
		t_is "$kind: $cmd: nothing beside it" "f.db" "$(cd "$TRASH" && ls f.db*)"
	done
done
make_db sqlite
t_is "the other program's rows are still there" "keep me" \
	"$(sqlite3 "$F" 'SELECT text FROM notes')"
t_is "and no kmig table" "notes" "$(sqlite3 "$F" .tables | tr -s ' \n' ' ' | sed 's/ $//')"

# an empty file is a new database: a writing command makes one in it
: > "$F"
t_exit "scan into an empty file" 0 "$KMIG" --repo "$W" --db "$F" scan
t_exit "which is then a kmig database" 0 "$KMIG" --repo "$W" --db "$F" report
t_done
