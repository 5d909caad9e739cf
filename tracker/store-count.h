/* SPDX-License-Identifier: GPL-2.0 */
/*
 * store-count.h - the SQL that decides what a release's counts are: which
 * rule each stored site counts under (reach, constant vlas) and the file
 * counts built from them.  Shared by the store-*.c files (through
 * store-internal.h).
 *
 * This header is in the release hash (the Makefile's RELEASE_SRC,
 * release_hash()): a change here changes what every release counts, so
 * every release is counted again from its cached blobs.  Keep only that
 * SQL here; queries that read the counts (the trend, the web) belong in
 * their own files.
 */
#ifndef KMIG_STORE_COUNT_H
#define KMIG_STORE_COUNT_H

/*
 * Is the site bs of file @path a vla of constant size in release @rel
 * (release_vlaconst: the release's headers define the names it depends
 * on)?  Such a site is no use of any rule.
 */
#define SITE_VLA_CONST(rel, path) \
	"(bs.deps IS NOT NULL AND EXISTS (SELECT 1 FROM release_vlaconst rv " \
	"  WHERE rv.release_id = " rel " AND rv.path = " path " AND rv.line = bs.line " \
	"  AND rv.deps = bs.deps))"

/*
 * The rule a site bs (a row of blob_sites) of file @path (an SQL
 * expression) counts under in release @rel: a warn-on site user space
 * reaches (release_reach, reach.h) is warn-on-user instead; NULL for a
 * vla of constant size (SITE_VLA_CONST), which does not count.
 */
#define SITE_RULE(rel, path) \
	"(CASE WHEN bs.rule = 'warn-on' AND EXISTS (SELECT 1 FROM release_reach rr " \
	"  WHERE rr.release_id = " rel " AND rr.path = " path " AND rr.line = bs.line) " \
	"  THEN 'warn-on-user' " \
	"  WHEN " SITE_VLA_CONST(rel, path) " THEN NULL ELSE bs.rule END)"

/*
 * The file counts of a release's files (all, or those @where selects):
 * a row for each file and rule with at least one counted site, none for
 * a file without one.  The web's sites and the trend's comparisons rely
 * on that (TREND_COUNTED, store_web_sites()): it is here, in the
 * release hash, so a change to it re-counts every release.
 */
#define FILE_COUNTS_SQL(where) \
	"INSERT INTO file_counts(release_id, path, rule, count) " \
	"SELECT rf.release_id, rf.path, " SITE_RULE("rf.release_id", "rf.path") " AS srule, count(*) " \
	"FROM release_files rf JOIN releases r ON r.id = rf.release_id " \
	"JOIN blob_sites bs ON bs.oid = rf.oid AND bs.ruleset = r.ruleset " \
	"WHERE rf.release_id = ?1 " where " GROUP BY rf.path, srule HAVING srule IS NOT NULL"

#endif
