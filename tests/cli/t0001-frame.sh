#!/bin/sh
# Command-line frame: help, version, usage errors, exit statuses.
. "$(dirname "$0")/../lib.sh"

t_exit "kmig --version" 0 "$KMIG" --version
t_ok "version names kmig" grep -q '^kmig [0-9]' "$TRASH/.stdout"
t_exit "kmig --help" 0 "$KMIG" --help
t_ok "help lists the commands" grep -q '^  scan ' "$TRASH/.stdout"
t_exit "kmig help scan" 0 "$KMIG" help scan
t_ok "help scan shows its usage" grep -q '^usage: kmig scan' "$TRASH/.stdout"
for c in import scan report rules; do
	t_exit "kmig $c --help" 0 "$KMIG" $c --help
	t_ok "$c --help shows usage" grep -q "^usage: kmig $c" "$TRASH/.stdout"
done
t_exit "no command" 2 "$KMIG"
t_exit "unknown command" 2 "$KMIG" frobnicate
t_is "unknown command: one line" 1 "$(wc -l < "$TRASH/.stderr")"
t_ok "unknown command is named" grep -q "'frobnicate' is not a kmig command" "$TRASH/.stderr"
t_exit "unknown global option" 2 "$KMIG" --bogus rules
t_exit "help for an unknown command" 2 "$KMIG" help frobnicate
t_exit "unknown scan option" 2 "$KMIG" scan --bogus
t_exit "report --by nonsense" 2 "$KMIG" report --by nonsense
t_exit "report --rule unknown" 2 "$KMIG" report --rule nosuchrule
t_ok "unknown rule is named" grep -q "unknown rule 'nosuchrule'" "$TRASH/.stderr"
t_exit "rules --format xml" 2 "$KMIG" rules --format xml

# missing repository
t_exit "scan of a missing repository" 2 "$KMIG" --repo "$TRASH/nope" --db "$TRASH/db" scan
t_is "missing repository: one line" 1 "$(wc -l < "$TRASH/.stderr")"
t_ok "missing repository is named" grep -q "repository '$TRASH/nope' does not exist" "$TRASH/.stderr"
mkdir -p "$TRASH/notgit"
t_exit "scan of a non-repository" 2 "$KMIG" --repo "$TRASH/notgit" --db "$TRASH/db" scan
t_ok "non-repository is named" grep -q "is not a git repository" "$TRASH/.stderr"

# unwritable database path
mkdir -p "$TRASH/ro" && chmod 555 "$TRASH/ro"
if [ "$(id -u)" -eq 0 ]; then
	# root writes anywhere: a path below a regular file is never writable
	: > "$TRASH/file"
	dbpath="$TRASH/file/kmig.db"
else
	dbpath="$TRASH/ro/kmig.db"
fi
t_exit "unwritable database" 2 "$KMIG" --db "$dbpath" report
t_is "unwritable database: one line" 1 "$(wc -l < "$TRASH/.stderr")"
t_ok "unwritable database is named" grep -q "database '$dbpath'" "$TRASH/.stderr"

# environment and options: --db overrides KMIG_DB, which overrides KMIG_HOME
KMIG_DB="$TRASH/env.db" "$KMIG" report > /dev/null 2>&1
t_ok "KMIG_DB creates the database there" test -f "$TRASH/env.db"
KMIG_DB="$TRASH/env.db" "$KMIG" --db "$TRASH/opt.db" report > /dev/null 2>&1
t_ok "--db wins over KMIG_DB" test -f "$TRASH/opt.db"
"$KMIG" report > /dev/null 2>&1
t_ok "default database under KMIG_HOME" test -f "$KMIG_HOME/kmig.db"
t_is "schema version recorded" 2 "$(sqlite3 "$KMIG_HOME/kmig.db" 'SELECT version FROM schema_version')"
t_is "WAL mode" wal "$(sqlite3 "$KMIG_HOME/kmig.db" 'PRAGMA journal_mode')"

t_is "no index of release files by blob (dropped in migration 2)" "" \
	"$(sqlite3 "$KMIG_HOME/kmig.db" "SELECT name FROM sqlite_master WHERE name = 'release_files_oid'")"

# a version-1 database (before migration 2) is upgraded on open
{ sed -n '/^-- migration: 1$/,/^-- migration: 2$/p' "$TOP/db/schema.sql"
  echo 'UPDATE schema_version SET version = 1;'; } | sqlite3 "$TRASH/v1.db"
t_is "a version-1 database" "1|release_files_oid" \
	"$(sqlite3 "$TRASH/v1.db" "SELECT version, (SELECT name FROM sqlite_master WHERE name = 'release_files_oid') FROM schema_version")"
t_exit "a version-1 database opens (report: nothing scanned yet)" 2 \
	"$KMIG" --db "$TRASH/v1.db" report
t_ok "... and only says so" grep -q 'no release is scanned' "$TRASH/.stderr"
t_is "... and is migrated to 2, its index dropped" "2|" \
	"$(sqlite3 "$TRASH/v1.db" "SELECT version, (SELECT name FROM sqlite_master WHERE name = 'release_files_oid') FROM schema_version")"

# a database newer than this kmig is refused
sqlite3 "$TRASH/env.db" 'UPDATE schema_version SET version = 999'
t_exit "newer database refused" 2 "$KMIG" --db "$TRASH/env.db" report
t_ok "newer database: clear message" grep -q "schema version 999, newer than this kmig" "$TRASH/.stderr"

# results to a closed stdout are an error, not a silent success
t_exit "write error on stdout" 2 sh -c "'$KMIG' rules > /dev/full"
t_done
