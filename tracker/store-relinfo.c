// SPDX-License-Identifier: GPL-2.0
/*
 * store-relinfo.c - the per-release rule facts in the database
 * (relinfo.h; tables relinfo and releases.relinfo_key).
 */
#include <stdlib.h>
#include <string.h>

#include "relinfo.h"
#include "store-internal.h"

#define ZERO_OID "0000000000000000000000000000000000000000"

/* Set the bits of rule @r for the space-separated names of @list. */
static void repl_from_text(struct relinfo *ri, int r, const char *list)
{
	int i, n = rule_nrepl(r);

	for (i = 0; i < n && i < RULE_MAX_REPL; i++) {
		const char *name = rules[r].repl[i], *p = list;
		size_t len = strlen(name);

		while (p && (p = strstr(p, name))) {
			if ((p == list || p[-1] == ' ') &&
			    (p[len] == ' ' || !p[len])) {
				ri->repl[r] |= 1U << i;
				break;
			}
			p += len;
		}
	}
}

int store_relinfo_get(struct store *st, const char *key, struct relinfo *out)
{
	static const char sql[] =
		"SELECT rule, documented, replacements FROM relinfo WHERE key = ?";
	sqlite3_stmt *s = store_stmt(st, sql);
	int rc, r, n = 0;

	memset(out, 0, sizeof(*out));
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_text(s, 1, key, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		r = rule_lookup((const char *)sqlite3_column_text(s, 0));
		n++;
		if (r < 0)
			continue;
		out->documented[r] = sqlite3_column_int(s, 1) != 0;
		repl_from_text(out, r,
			       (const char *)sqlite3_column_text(s, 2));
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return store_dberr(st, "read relinfo");
	if (!n)
		return KMIG_ENOTFOUND;
	out->have_doc = strncmp(key, ZERO_OID ":", 41) != 0;
	out->have_include = strlen(key) > 82 &&
			    strncmp(key + 41, ZERO_OID ":", 41) != 0;
	return 0;
}

int store_relinfo_put(struct store *st, const char *key,
		      const struct relinfo *ri)
{
	static const char sql[] =
		"INSERT OR REPLACE INTO relinfo(key, rule, documented, replacements) "
		"VALUES (?, ?, ?, ?)";
	struct sbuf sb = SBUF_INIT;
	sqlite3_stmt *s;
	int r, i, ret = 0;

	if (store_need_txn(st, "store_relinfo_put"))
		return KMIG_EGENERIC;
	for (r = 0; !ret && r < RULE__COUNT; r++) {
		s = store_stmt(st, sql);
		if (!s)
			return KMIG_EGENERIC;
		sbuf_reset(&sb);
		for (i = 0; i < rule_nrepl(r); i++)
			if (ri->repl[r] & (1U << i))
				sbuf_addf(&sb, "%s%s", sb.len ? " " : "",
					  rules[r].repl[i]);
		sqlite3_bind_text(s, 1, key, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 2, rules[r].id, -1, SQLITE_STATIC);
		sqlite3_bind_int(s, 3, ri->documented[r]);
		sqlite3_bind_text(s, 4, sb.buf ? sb.buf : "", -1, SQLITE_TRANSIENT);
		ret = store_done(st, s, "write relinfo");
	}
	sbuf_release(&sb);
	return ret;
}

int store_release_relinfo_set(struct store *st, const char *tag,
			      const char *key)
{
	static const char sql[] = "UPDATE releases SET relinfo_key = ? WHERE tag = ?";
	sqlite3_stmt *s;

	s = store_txn_stmt(st, "store_release_relinfo_set", sql);
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_text(s, 1, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 2, tag, -1, SQLITE_TRANSIENT);
	if (store_done(st, s, "write release"))
		return KMIG_EGENERIC;
	return sqlite3_changes(st->db) ? 0 : KMIG_ENOTFOUND;
}

int store_release_relinfo(struct store *st, long long id, struct relinfo *out)
{
	static const char sql[] = "SELECT relinfo_key FROM releases WHERE id = ?";
	sqlite3_stmt *s = store_stmt(st, sql);
	char *key = NULL;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_int64(s, 1, id);
	ret = store_value(st, s, "read releases", NULL, &key);
	if (ret < 0)
		return ret;
	if (!key)
		return KMIG_ENOTFOUND;
	ret = store_relinfo_get(st, key, out);
	free(key);
	return ret;
}

int store_relinfo_masks(struct store *st, const char *facts, struct oidset *out)
{
	static const char sql[] =
		"SELECT oid, mask FROM relinfo_headers WHERE facts = ?";
	sqlite3_stmt *s = store_stmt(st, sql);
	git_oid oid;
	int rc;

	if (!s)
		return KMIG_EGENERIC;
	sqlite3_bind_text(s, 1, facts, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *hex = (const char *)sqlite3_column_text(s, 0);

		if (!hex || git_oid_fromstr(&oid, hex) < 0)
			continue;	/* not an id: read the header again */
		oidset_put(out, &oid,
			   (size_t)(uint64_t)sqlite3_column_int64(s, 1));
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return store_dberr(st, "read relinfo_headers");
	return 0;
}

int store_relinfo_mask_put(struct store *st, const char *facts,
			   const git_oid *oid, uint64_t mask)
{
	static const char sql[] =
		"INSERT OR REPLACE INTO relinfo_headers(oid, facts, mask) "
		"VALUES (?, ?, ?)";
	char hex[GIT_OID_HEXSZ + 1];
	sqlite3_stmt *s;

	s = store_txn_stmt(st, "store_relinfo_mask_put", sql);
	if (!s)
		return KMIG_EGENERIC;
	git_oid_tostr(hex, sizeof(hex), oid);
	sqlite3_bind_text(s, 1, hex, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 2, facts, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 3, (sqlite3_int64)mask);
	return store_done(st, s, "write relinfo_headers");
}
