-- kmig database schema.
--
-- The schema is a sequence of numbered migrations; each starts with a line
-- "-- migration: N".  kmig applies, in one transaction, the migrations above
-- the database's version and sets PRAGMA user_version to the last applied;
-- it refuses a database whose version is newer than the newest migration it
-- knows.  Before migration 3 the version was the row of table schema_version
-- (read from there when the table exists; migration 3 drops it).  Never edit
-- a migration once released: add one.
--
-- Conventions: commit and blob ids are 40-hex text; times are Unix seconds;
-- "ruleset" is rules_hash() of the rule table that produced a cached result.

-- migration: 1
CREATE TABLE schema_version (
	version INTEGER NOT NULL
);
INSERT INTO schema_version(version) VALUES (0);

-- One row per scanned release (a tag).
CREATE TABLE releases (
	id INTEGER PRIMARY KEY,
	tag TEXT NOT NULL UNIQUE,
	commit_id TEXT NOT NULL,
	sort_key TEXT NOT NULL,		-- version_sort_key(tag): version order
	date INTEGER,			-- commit time
	ruleset TEXT NOT NULL,
	maintainers_oid TEXT,		-- the release's MAINTAINERS blob
	files INTEGER NOT NULL DEFAULT 0,	-- in-scope files
	scanned_at INTEGER NOT NULL
);

-- Blob cache: every in-scope blob lexed under a rule set.
CREATE TABLE blobs (
	oid TEXT NOT NULL,
	ruleset TEXT NOT NULL,
	bytes INTEGER NOT NULL,
	PRIMARY KEY (oid, ruleset)
) WITHOUT ROWID;

-- Use sites of a blob (text: the whitespace-normalised source line).
CREATE TABLE blob_sites (
	oid TEXT NOT NULL,
	ruleset TEXT NOT NULL,
	rule TEXT NOT NULL,
	line INTEGER NOT NULL,
	func TEXT,
	text TEXT NOT NULL,
	FOREIGN KEY (oid, ruleset) REFERENCES blobs(oid, ruleset) ON DELETE CASCADE
);
CREATE INDEX blob_sites_oid ON blob_sites(oid, ruleset);

CREATE TABLE subsystems (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE
);

-- The in-scope files of a release, their blob and subsystem.
CREATE TABLE release_files (
	release_id INTEGER NOT NULL REFERENCES releases(id) ON DELETE CASCADE,
	path TEXT NOT NULL,
	oid TEXT NOT NULL,
	subsystem_id INTEGER NOT NULL REFERENCES subsystems(id),
	PRIMARY KEY (release_id, path)
) WITHOUT ROWID;
CREATE INDEX release_files_oid ON release_files(oid);	-- dropped in 2

-- Per release totals, materialised at scan time.
CREATE TABLE counts (
	release_id INTEGER NOT NULL REFERENCES releases(id) ON DELETE CASCADE,
	subsystem_id INTEGER NOT NULL REFERENCES subsystems(id),
	rule TEXT NOT NULL,
	count INTEGER NOT NULL,
	PRIMARY KEY (release_id, subsystem_id, rule)
) WITHOUT ROWID;

CREATE TABLE file_counts (
	release_id INTEGER NOT NULL REFERENCES releases(id) ON DELETE CASCADE,
	path TEXT NOT NULL,
	rule TEXT NOT NULL,
	count INTEGER NOT NULL,
	PRIMARY KEY (release_id, path, rule)
) WITHOUT ROWID;

-- Gate: per-commit attribution (kmig log).
CREATE TABLE commits (
	commit_id TEXT PRIMARY KEY,
	author TEXT NOT NULL,
	date INTEGER NOT NULL,
	subject TEXT NOT NULL,
	ruleset TEXT NOT NULL
);
CREATE TABLE commit_changes (
	commit_id TEXT NOT NULL REFERENCES commits(commit_id) ON DELETE CASCADE,
	subsystem TEXT NOT NULL,
	rule TEXT NOT NULL,
	added INTEGER NOT NULL,
	removed INTEGER NOT NULL,
	PRIMARY KEY (commit_id, subsystem, rule)
) WITHOUT ROWID;

-- Conversion branch steps.
CREATE TABLE branch_steps (
	branch TEXT NOT NULL,
	base TEXT NOT NULL,
	position INTEGER NOT NULL,
	patch TEXT NOT NULL,
	subject TEXT NOT NULL,
	status TEXT NOT NULL,		-- applied/upstream/superseded/conflict
	commit_id TEXT,
	evidence TEXT,
	test_status TEXT,		-- pass/compile-fail/build-fail/boot-fail
	updated_at INTEGER NOT NULL,
	PRIMARY KEY (branch, position)
);

-- Kernel builds and QEMU boots.
CREATE TABLE builds (
	id INTEGER PRIMARY KEY,
	commit_id TEXT NOT NULL,
	config_hash TEXT NOT NULL,
	status TEXT NOT NULL,		-- ok/failed
	seconds REAL NOT NULL,
	log_path TEXT,
	created_at INTEGER NOT NULL
);
CREATE TABLE boots (
	id INTEGER PRIMARY KEY,
	build_id INTEGER NOT NULL REFERENCES builds(id) ON DELETE CASCADE,
	tests TEXT NOT NULL,
	status TEXT NOT NULL,		-- pass/fail/timeout
	seconds REAL NOT NULL,
	findings TEXT,
	console_path TEXT,
	created_at INTEGER NOT NULL
);
CREATE TABLE bisects (
	id INTEGER PRIMARY KEY,
	good TEXT NOT NULL,
	bad TEXT NOT NULL,
	tests TEXT NOT NULL,
	first_bad TEXT,
	finding TEXT,
	status TEXT NOT NULL,
	created_at INTEGER NOT NULL
);
CREATE TABLE bisect_steps (
	bisect_id INTEGER NOT NULL REFERENCES bisects(id) ON DELETE CASCADE,
	seq INTEGER NOT NULL,
	commit_id TEXT NOT NULL,
	verdict TEXT NOT NULL,		-- good/bad/skip
	PRIMARY KEY (bisect_id, seq)
);

-- migration: 2
-- No query looks release files up by blob: every one goes by release (the
-- primary key).  The index cost a second B-tree insert per file of every
-- scanned release (~55 000 per kernel release) and a third of the table's
-- size.
DROP INDEX release_files_oid;

-- migration: 3
-- The schema version is PRAGMA user_version (in the database header, set by
-- kmig after each migration) instead of a one-row table.
DROP TABLE schema_version;

-- migration: 4
-- Where a release's date comes from: 'debian-changelog' when kmig import
-- took it from the package's Debian changelog entry (the commit message's
-- "Date-Source: debian-changelog" trailer); NULL: the commit time as such.
ALTER TABLE releases ADD COLUMN date_source TEXT;

-- migration: 5
-- The date the release's kernel line (X.Y) was first uploaded to Debian as
-- a release (the oldest changelog entry of an X.Y version without "~"; the
-- commit message's "Line-Date: UNIXTIME" trailer), or NULL.  The forecast
-- regresses counts on it: a Debian point release of a long-term line holds
-- that line's code, so its own upload date would put 6.1.192 after 7.3.4.
ALTER TABLE releases ADD COLUMN line_date INTEGER;

-- migration: 6
-- The ranges kmig log attributed, and their commits: the dashboard counts
-- per range (ranges overlap, or hold backports of the same change, so sums
-- across ranges count uses twice).  Recorded again by each run of a range.
CREATE TABLE log_ranges (
	id INTEGER PRIMARY KEY,
	range TEXT NOT NULL UNIQUE,	-- as given to kmig log, e.g. v6.1..v6.2
	from_commit TEXT NOT NULL,
	to_commit TEXT NOT NULL,
	recorded_at INTEGER NOT NULL
);
CREATE TABLE log_range_commits (
	range_id INTEGER NOT NULL REFERENCES log_ranges(id) ON DELETE CASCADE,
	commit_id TEXT NOT NULL REFERENCES commits(commit_id) ON DELETE CASCADE,
	PRIMARY KEY (range_id, commit_id)
) WITHOUT ROWID;
CREATE INDEX log_range_commits_commit ON log_range_commits(commit_id);

-- migration: 7
-- What a release's own tree says about each rule (relinfo.h): whether its
-- Documentation/process/deprecated.rst has the rule's section, and which
-- of the rule's replacements its include/ defines.  Keyed by content
-- ("<deprecated.rst blob>:<include/ tree>:<rule data hash>"), so a
-- re-scan, or a check on a base with the same files, reads them here.
CREATE TABLE relinfo (
	key TEXT NOT NULL,
	rule TEXT NOT NULL,
	documented INTEGER NOT NULL,	-- 1: deprecated.rst has its section
	replacements TEXT NOT NULL,	-- the defined replacements, space-separated
	PRIMARY KEY (key, rule)
) WITHOUT ROWID;
-- The relinfo key of the release's tree, NULL until recorded.
ALTER TABLE releases ADD COLUMN relinfo_key TEXT;

-- migration: 8
-- warn-on-user by reachability (reach.h).  Per blob, what the lexer found
-- about functions (the text of lexer.h's struct site_list.funcs: the
-- functions defined, the direct calls of each, the entry points named),
-- zlib-compressed in data, size bytes uncompressed; no row for a blob
-- without any.
CREATE TABLE blob_funcs (
	oid TEXT NOT NULL,
	ruleset TEXT NOT NULL,
	size INTEGER NOT NULL,
	data BLOB NOT NULL,
	PRIMARY KEY (oid, ruleset),
	FOREIGN KEY (oid, ruleset) REFERENCES blobs(oid, ruleset) ON DELETE CASCADE
) WITHOUT ROWID;
-- Per release, the warn-on sites user space reaches through direct calls
-- from an entry point, and the call path that shows it; such a site counts
-- as warn-on-user instead of warn-on (the counts are computed so).
CREATE TABLE release_reach (
	release_id INTEGER NOT NULL REFERENCES releases(id) ON DELETE CASCADE,
	path TEXT NOT NULL,
	line INTEGER NOT NULL,
	chain TEXT NOT NULL,
	PRIMARY KEY (release_id, path, line)
) WITHOUT ROWID;
-- The release's graph: the walk's depth (NULL: not computed, e.g. a
-- release scanned before this migration), entry points and functions
-- reached.
ALTER TABLE releases ADD COLUMN reach_depth INTEGER;
ALTER TABLE releases ADD COLUMN reach_entries INTEGER;
ALTER TABLE releases ADD COLUMN reach_reached INTEGER;

-- migration: 9
-- kmig boot --retries: every boot attempt of a build is a row; attempt 1
-- is the first boot, a retry after a failure counts on.  'flaky' is the
-- status of an attempt that passed after a failed one.  results: the
-- guest's "KMIG-TEST name PASS|FAIL detail" lines.
ALTER TABLE boots ADD COLUMN attempt INTEGER NOT NULL DEFAULT 1;
ALTER TABLE boots ADD COLUMN results TEXT;
-- The false-positive checks of a found first bad commit, as printed
-- ("verify PASS, revert n/a"); status 'unreliable' when one failed.
-- recipients: the report's "To:" and "Cc:" lines.
ALTER TABLE bisects ADD COLUMN checks TEXT;
ALTER TABLE bisects ADD COLUMN recipients TEXT;
-- kmig boot --bases: the newest build and boot of each default release.
CREATE TABLE base_boots (
	tag TEXT PRIMARY KEY,
	sort_key TEXT NOT NULL,		-- version_sort_key(tag)
	commit_id TEXT NOT NULL,
	build_id INTEGER REFERENCES builds(id) ON DELETE SET NULL,
	boot_id INTEGER REFERENCES boots(id) ON DELETE SET NULL,
	recorded_at INTEGER NOT NULL
);

-- migration: 10
-- vla sites whose size is constant unless some plain names the file does
-- not define are variables: those names, blank-separated (NULL for every
-- other site).  Whether they are constants is the release's (its headers'
-- enumerators and constant macros), so it is decided per release:
ALTER TABLE blob_sites ADD COLUMN deps TEXT;
-- the vla sites of a release whose names its headers all define as
-- constants: arrays of constant size, no use of any rule (not counted).
-- deps tells two arrays of one line apart (char a[hwmon_max], b[n];).
CREATE TABLE release_vlaconst (
	release_id INTEGER NOT NULL REFERENCES releases(id) ON DELETE CASCADE,
	path TEXT NOT NULL,
	line INTEGER NOT NULL,
	deps TEXT NOT NULL,
	PRIMARY KEY (release_id, path, line, deps)
) WITHOUT ROWID;

-- migration: 11
-- The rule sets that have blobs cached, kept by a trigger: kmig scan
-- prunes the blobs of a rule set no release uses any more (after the
-- rules changed) without reading every blob's row to find out.  The
-- trigger tests for the row instead of INSERT OR IGNORE: a trigger's
-- conflict clause gives way to the outer statement's (INSERT OR REPLACE
-- would rewrite the row for every blob).
CREATE TABLE blob_rulesets (
	ruleset TEXT PRIMARY KEY
) WITHOUT ROWID;
INSERT INTO blob_rulesets(ruleset) SELECT DISTINCT ruleset FROM blobs;
CREATE TRIGGER blobs_ruleset AFTER INSERT ON blobs
WHEN NOT EXISTS (SELECT 1 FROM blob_rulesets WHERE ruleset = NEW.ruleset)
BEGIN
	INSERT INTO blob_rulesets(ruleset) VALUES (NEW.ruleset);
END;

-- migration: 12
-- Which replacement names each include/ header defines (relinfo.c), by
-- header blob and rule data hash (relinfo_facts_hash()): bit k of mask is
-- the k-th replacement name of that rule data.  A release whose include/
-- changed reads only its new headers; the others come from here.
CREATE TABLE relinfo_headers (
	oid TEXT NOT NULL,
	facts TEXT NOT NULL,
	mask INTEGER NOT NULL,
	PRIMARY KEY (oid, facts)
) WITHOUT ROWID;

-- migration: 13
-- A point release shares its file list with an earlier release instead of
-- copying ~58,000 rows of it (most of a point release's write): its
-- files_base is that release, and its own rows in release_file_rows are
-- only the paths where it differs from there, a file it lacks a row with
-- oid '' (a tombstone).  A release with files_base NULL has every file as
-- its own row, and is the files_base of no release whose files_base is set
-- (a chain is one deep).  Readers read the view release_files: the same
-- rows the table of that name held.
ALTER TABLE release_files RENAME TO release_file_rows;
ALTER TABLE releases ADD COLUMN files_base INTEGER REFERENCES releases(id);
-- One join, which SQLite flattens into a reader's query: a lookup of
-- (release, path) is two primary-key probes, a release's files two ranges.
CREATE VIEW release_files(release_id, path, oid, subsystem_id) AS
SELECT r.id, f.path, f.oid, f.subsystem_id
FROM releases r JOIN release_file_rows f ON f.release_id IN (r.id, r.files_base)
WHERE f.oid != '' AND (f.release_id = r.id OR NOT EXISTS
	(SELECT 1 FROM release_file_rows o WHERE o.release_id = r.id AND o.path = f.path));
-- A walk of a release's files in path order merges its own rows and its
-- base's in C (store.c, struct file_walk).

-- migration: 14
-- A release's counts depend on its blobs' sites and facts (releases.ruleset,
-- the blob cache's key) and on the release step that counts them: the call
-- graph, the headers' constants and the counting SQL.  counted_by is the
-- release_hash() that counted it; a release counted under another is
-- counted again from its cached blobs, with no lexing.  NULL: counted
-- before this migration (counted again).
ALTER TABLE releases ADD COLUMN counted_by TEXT;

-- migration: 15
-- Who runs a bisection (util.h's proc_owner(): "PID START BOOT PIDNS
-- HOST"), so that one whose kmig is gone (Ctrl-C, SIGTERM, SIGKILL, a
-- reboot: no handler runs for some of them) reads as 'interrupted', not
-- 'running'; kmig bisect records it so when it starts another.  NULL:
-- started before this migration, by a kmig that never set it; such a row
-- still 'running' was interrupted (a kmig still running it sets its
-- final status at the end, over this).
ALTER TABLE bisects ADD COLUMN owner TEXT;
UPDATE bisects SET status = 'interrupted' WHERE status = 'running';

-- migration: 16
-- blob_funcs as a rowid table, its key a unique index.  A row of facts is
-- often larger than a page of a WITHOUT ROWID table holds in the cell
-- itself, and that table's every insert and lookup compared its key with
-- such rows, reading each whole, overflow pages included; its rows also
-- went where their blob ids fell, a random page for each new blob.  Now the
-- rows are appended and the search is in a small index.
CREATE TABLE blob_funcs_rows (
	oid TEXT NOT NULL,
	ruleset TEXT NOT NULL,
	size INTEGER NOT NULL,
	data BLOB NOT NULL,
	UNIQUE (oid, ruleset),
	FOREIGN KEY (oid, ruleset) REFERENCES blobs(oid, ruleset) ON DELETE CASCADE
);
-- (a row whose blob is gone, left by a writer without foreign keys, would
-- fail the new table's; it is dropped, as the cascade would have)
INSERT INTO blob_funcs_rows(oid, ruleset, size, data)
SELECT oid, ruleset, size, data FROM blob_funcs f
WHERE EXISTS (SELECT 1 FROM blobs b WHERE b.oid = f.oid AND b.ruleset = f.ruleset);
DROP TABLE blob_funcs;
ALTER TABLE blob_funcs_rows RENAME TO blob_funcs;
