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
# (report opens the database read-only and creates none: it names the path)
KMIG_DB="$TRASH/env.db" "$KMIG" report > /dev/null 2> "$TRASH/err"
t_ok "KMIG_DB names the database" grep -q "database '$TRASH/env.db' does not exist" "$TRASH/err"
KMIG_DB="$TRASH/env.db" "$KMIG" --db "$TRASH/opt.db" report > /dev/null 2> "$TRASH/err"
t_ok "--db wins over KMIG_DB" grep -q "database '$TRASH/opt.db' does not exist" "$TRASH/err"
t_ok "report created neither" test ! -e "$TRASH/env.db" -a ! -e "$TRASH/opt.db"
R="$TRASH/repo"
git init -q "$R"
printf 'int a;\n' > "$R/a.c"
git_commit_all "$R" one && git -C "$R" tag v1.0
KMIG_DB="$TRASH/env.db" "$KMIG" --repo "$R" scan > /dev/null 2>&1
t_ok "KMIG_DB creates the database there (a writing command)" test -f "$TRASH/env.db"
"$KMIG" --repo "$R" scan > /dev/null 2>&1
t_ok "default database under KMIG_HOME" test -f "$KMIG_HOME/kmig.db"
# a --db that is no file: said so, nothing written beside it
mkdir -p "$TRASH/dbdir"
for c in report scan; do
	t_exit "--db a directory: $c" 2 "$KMIG" --repo "$R" --db "$TRASH/dbdir" $c
	t_is "--db a directory: $c says so" "kmig: database '$TRASH/dbdir' is not a regular file" \
		"$(cat "$TRASH/.stderr")"
done
t_is "--db a directory: nothing beside it" "dbdir" "$(cd "$TRASH" && ls -d dbdir*)"
newest=$(sed -n 's/^-- migration: //p' "$TOP/db/schema.sql" | tail -n 1)
t_is "schema version recorded" "$newest" "$(sqlite3 "$KMIG_HOME/kmig.db" 'PRAGMA user_version')"
t_is "no schema version table (dropped in migration 3)" "" \
	"$(sqlite3 "$KMIG_HOME/kmig.db" "SELECT name FROM sqlite_master WHERE name = 'schema_version'")"
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
t_is "... and is migrated to the newest ($newest), its index and version table dropped" "$newest||" \
	"$(sqlite3 "$TRASH/v1.db" "SELECT (SELECT user_version FROM pragma_user_version), (SELECT name FROM sqlite_master WHERE name = 'release_files_oid'), (SELECT name FROM sqlite_master WHERE name = 'schema_version')")"

# a version-2 database (the version in table schema_version, before
# migration 3), with a scanned release, is upgraded and keeps its data
{ sed -n '/^-- migration: 1$/,/^-- migration: 3$/p' "$TOP/db/schema.sql"
  cat <<-'EOF'
	UPDATE schema_version SET version = 2;
	INSERT INTO releases(id, tag, commit_id, sort_key, date, ruleset, files, scanned_at)
		VALUES (1, 'v9.1', '0123456789012345678901234567890123456789', 'v9.1', 0, 'r', 2, 0);
	INSERT INTO subsystems(id, name) VALUES (1, 'NETWORKING'), (2, 'SOUND');
	INSERT INTO release_files(release_id, path, oid, subsystem_id)
		VALUES (1, 'net/a.c', '1111111111111111111111111111111111111111', 1),
		       (1, 'sound/b.c', '2222222222222222222222222222222222222222', 2);
	INSERT INTO counts(release_id, subsystem_id, rule, count)
		VALUES (1, 1, 'bug', 3), (1, 2, 'bug', 4);
	INSERT INTO branch_steps(branch, base, position, patch, subject, status, updated_at)
		VALUES ('kmig/v9.1', 'v9.1', 1, '0001-a.patch', 'a: b', 'applied', 0);
	INSERT INTO blobs(oid, ruleset, bytes)
		VALUES ('1111111111111111111111111111111111111111', 'r', 10),
		       ('2222222222222222222222222222222222222222', 'r', 10),
		       ('3333333333333333333333333333333333333333', 'old', 5);
	EOF
} | sqlite3 "$TRASH/v2.db"
t_is "a version-2 database" "2|0" \
	"$(sqlite3 "$TRASH/v2.db" "SELECT version, (SELECT user_version FROM pragma_user_version) FROM schema_version")"
t_exit "a version-2 database opens and reports its release" 0 \
	"$KMIG" --db "$TRASH/v2.db" report --format csv --by subsystem v9.1
t_is "... with its counts" "release,subsystem,rule,count,delta
v9.1,NETWORKING,bug,3,
v9.1,SOUND,bug,4," "$(cat "$TRASH/.stdout")"
t_is "... migrated to the newest ($newest), its version table dropped" "$newest|" \
	"$(sqlite3 "$TRASH/v2.db" "SELECT (SELECT user_version FROM pragma_user_version), (SELECT name FROM sqlite_master WHERE name = 'schema_version')")"
t_is "... its rows kept" "1|2|2|1" \
	"$(sqlite3 "$TRASH/v2.db" "SELECT (SELECT count(*) FROM releases), (SELECT count(*) FROM release_files), (SELECT count(*) FROM counts), (SELECT count(*) FROM branch_steps)")"
t_is "... the rule sets of its cached blobs listed (migration 11)" "old r" \
	"$(sqlite3 "$TRASH/v2.db" "SELECT ruleset FROM blob_rulesets ORDER BY ruleset" | tr '\n' ' ' | sed 's/ $//')"
t_exit "... and opens again as it is" 0 \
	"$KMIG" --db "$TRASH/v2.db" report --format csv --by subsystem v9.1
t_is "... with the same counts" 3 "$(grep -c . "$TRASH/.stdout")"

# a version-15 database's function facts (blob_funcs WITHOUT ROWID until
# migration 16) are kept, one a page's overflow
{ sed -n '/^-- migration: 1$/,/^-- migration: 16$/p' "$TOP/db/schema.sql"
  cat <<-'EOF'
	PRAGMA user_version = 15;
	INSERT INTO blobs(oid, ruleset, bytes)
		VALUES ('1111111111111111111111111111111111111111', 'r', 10),
		       ('2222222222222222222222222222222222222222', 'r', 10);
	INSERT INTO blob_funcs(oid, ruleset, size, data)
		VALUES ('1111111111111111111111111111111111111111', 'r', 3, x'010203'),
		       ('2222222222222222222222222222222222222222', 'r', 9000, zeroblob(9000)),
		       ('4444444444444444444444444444444444444444', 'r', 1, x'01');
	EOF
} | sqlite3 "$TRASH/v15.db"
t_ok "a version-15 database: blob_funcs without rowid" \
	sh -c "sqlite3 '$TRASH/v15.db' .schema | grep -q 'WITHOUT ROWID'"
# read where it cannot be written: read as it is (nobody's, in a directory
# only root writes)
mkdir -p "$TRASH/v15ro" && cp "$TRASH/v15.db" "$TRASH/v15ro/k.db"
chmod 755 "$TRASH" "$TRASH/v15ro" && chmod 644 "$TRASH/v15ro/k.db"
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null &&
   ! setpriv --reuid=65534 --regid=65534 --clear-groups sh -c ": > '$TRASH/v15ro/x'" 2> /dev/null; then
	t_exit "a version-15 database it cannot write: read as it is" 2 \
		setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$TRASH" \
		KMIG_HOME="$TRASH/v15ro/home" "$KMIG" --db "$TRASH/v15ro/k.db" report
	t_is "... nothing scanned, said as for any database" \
		"kmig: no release is scanned (run 'kmig scan')" "$(cat "$TRASH/.stderr")"
	t_is "... and left at version 15" 15 "$(sqlite3 "$TRASH/v15ro/k.db" 'PRAGMA user_version')"
else
	t_skip "a version-15 database it cannot write" "needs root and setpriv"
fi
t_exit "a version-15 database opens (report: nothing scanned yet)" 2 \
	"$KMIG" --db "$TRASH/v15.db" report
t_is "... is migrated to the newest ($newest)" "$newest" \
	"$(sqlite3 "$TRASH/v15.db" 'PRAGMA user_version')"
t_is "... its function facts kept, the one without its blob dropped" "1111111111111111111111111111111111111111|r|3|010203
2222222222222222222222222222222222222222|r|9000|9000" \
	"$(sqlite3 "$TRASH/v15.db" "SELECT oid, ruleset, size, CASE WHEN size = 3 THEN hex(data) ELSE length(data) END FROM blob_funcs ORDER BY oid")"
t_is "... in a rowid table, its key unique" "1|1" \
	"$(sqlite3 "$TRASH/v15.db" "SELECT (SELECT count(*) FROM blob_funcs WHERE rowid > 0) > 0, (SELECT count(*) FROM pragma_index_list('blob_funcs') WHERE \"unique\")")"
t_is "... deleted with their blob" 1 \
	"$(sqlite3 "$TRASH/v15.db" "PRAGMA foreign_keys = ON; DELETE FROM blobs WHERE oid LIKE '1%'; SELECT count(*) FROM blob_funcs")"

# a database newer than this kmig is refused, in one line
sqlite3 "$TRASH/env.db" 'PRAGMA user_version = 999'
t_exit "newer database refused" 2 "$KMIG" --db "$TRASH/env.db" report
t_ok "newer database: clear message" grep -q "schema version 999, newer than this kmig" "$TRASH/.stderr"
t_is "newer database: one line" 1 "$(wc -l < "$TRASH/.stderr")"
t_is "newer database: left as it was" 999 "$(sqlite3 "$TRASH/env.db" 'PRAGMA user_version')"
# ... and so is one whose version table (before migration 3) is newer
sqlite3 "$TRASH/v1.db" 'CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (998)'
t_exit "newer database (version table) refused" 2 "$KMIG" --db "$TRASH/v1.db" report
t_ok "newer database (version table): clear message" grep -q "schema version 998, newer than this kmig" "$TRASH/.stderr"
t_is "newer database (version table): one line" 1 "$(wc -l < "$TRASH/.stderr")"

# results to a closed stdout are an error, not a silent success
t_exit "write error on stdout" 2 sh -c "'$KMIG' rules > /dev/full"
t_done
