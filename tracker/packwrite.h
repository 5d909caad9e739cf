/* SPDX-License-Identifier: GPL-2.0 */
/*
 * packwrite.h - write a git pack (version 2) and its version-2 index
 * directly, with objects deltified against a base pack.
 *
 * kmig keeps a release history in one growing pack.  A writer starts
 * from the pack that holds a given object (the previous release's tree):
 * that pack's bytes are copied verbatim (OBJ_OFS_DELTA offsets are
 * relative, and a pack header is always 12 bytes, so every copied object
 * keeps its offset; ids and CRCs come from its .idx), then new objects
 * are appended, each whole or as an OBJ_OFS_DELTA against an object of
 * the base pack (the same path's blob of the previous release) when the
 * delta is less than half the object.  The result is self-contained.
 *
 *	struct packwriter *pw;
 *	struct packwrite_worker *w;
 *
 *	packwrite_begin(&pw, git_repository_path(repo), base_tree_id);
 *	w = packwrite_worker_new(pw);		// one per thread
 *	packwrite_add(w, GIT_OBJECT_BLOB, data, len, &old_blob_id, &id);
 *	packwrite_worker_free(w);
 *	packwrite_finish(pw);			// or packwrite_abort(pw)
 *
 * Crash safety: the pack is written to objects/pack/tmp_pack_kmig_*,
 * locked with flock() while written (a later writer removes unlocked
 * leftovers of killed runs), fsync()ed with its index, renamed into
 * place .pack before .idx, the directory fsync()ed, and only then are the
 * packs removed whose every object is in the new one (the base pack, and
 * a pack a killed run had completed).  A SIGKILL at any moment leaves the
 * old pack, or both packs (the same objects twice, which git accepts;
 * the next writer removes the redundant one).
 */
#ifndef KMIG_PACKWRITE_H
#define KMIG_PACKWRITE_H

#include <stddef.h>
#include <stdint.h>

#include <git2.h>

struct packwriter;
struct packwrite_worker;

/* Delta chains stop at this depth (git's default for repack). */
#define PACKWRITE_MAX_DEPTH 50

/*
 * packwrite_begin - start a pack in @repo_path's objects/pack (the path
 * ends with '/', as git_repository_path() gives it).  When @base is
 * non-NULL and a pack holds it, that pack is the base pack: copied into
 * the new one and removed by packwrite_finish().  Objects of the base
 * pack are not written again.  Returns 0 with *@out the writer's, or
 * negative with the message recorded.
 */
int packwrite_begin(struct packwriter **out, const char *repo_path,
		    const git_oid *base);

/*
 * packwrite_set_large_offset - offsets at or above @limit go to the
 * index's 64-bit table (default 2^31, the format's limit; the tests use
 * a small limit to exercise the 64-bit table).
 */
void packwrite_set_large_offset(struct packwriter *pw, uint64_t limit);

/* packwrite_worker_new - per-thread state (compressor, base reader). */
struct packwrite_worker *packwrite_worker_new(struct packwriter *pw);
void packwrite_worker_free(struct packwrite_worker *w);

/*
 * packwrite_add - add the object of @type with content @data (@len
 * bytes) unless the pack holds it already; its id in *@oid.  @delta_base,
 * when non-NULL and an object of the base pack whose chain is shorter
 * than PACKWRITE_MAX_DEPTH, is tried as the delta base.  Thread-safe:
 * any number of workers of one writer add concurrently.  Returns 0, or
 * negative with the message recorded (the writer is then only good for
 * packwrite_abort()).
 */
int packwrite_add(struct packwrite_worker *w, git_object_t type,
		  const void *data, size_t len, const git_oid *delta_base,
		  git_oid *oid);

/*
 * packwrite_finish - write the trailer and the index, move both into
 * place, remove the packs it makes redundant (all of whose objects it
 * holds: the base pack), and free @pw.  With no new object, nothing is
 * written and the base pack stays.  Returns 0, or negative with
 * the message recorded (the temporary files are removed; the base pack
 * stays).  Every worker must be freed before.
 */
int packwrite_finish(struct packwriter *pw);
/* packwrite_abort - drop the pack being written and free @pw. */
void packwrite_abort(struct packwriter *pw);

/* Statistics of a writer, for tests and messages. */
struct packwrite_stats {
	size_t base_objects;	/* copied from the base pack */
	size_t objects;		/* new ones written */
	size_t deltas;		/* of which as OBJ_OFS_DELTA */
};
void packwrite_get_stats(const struct packwriter *pw,
			 struct packwrite_stats *st);

#endif
