// SPDX-License-Identifier: GPL-2.0
/*
 * scan.c - walk trees for in-scope files; lex blobs in a pool of worker
 * threads reading them from the packs (packread.h).
 */
#include <malloc.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "facts.h"
#include "packread.h"
#include "repo.h"
#include "scan.h"

void scan_files_clear(struct scan_files *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->v[i].path);
	free(f->v);
	memset(f, 0, sizeof(*f));
}

struct walk_ctx {
	struct scan_files *out;
	git_oid *maintainers;
	struct sbuf path;
};

static int walk_cb(const char *root, const git_tree_entry *e, void *payload)
{
	struct walk_ctx *w = payload;
	const char *name = git_tree_entry_name(e);
	struct scan_file *f;

	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB)
		return 0;
	if (!*root && !strcmp(name, "MAINTAINERS")) {
		git_oid_cpy(w->maintainers, git_tree_entry_id(e));
		return 0;
	}
	if (git_tree_entry_filemode(e) == GIT_FILEMODE_LINK)
		return 0;
	sbuf_reset(&w->path);
	sbuf_addstr(&w->path, root);
	sbuf_addstr(&w->path, name);
	if (!path_in_scope(w->path.buf))
		return 0;
	ALLOC_GROW(w->out->v, w->out->n + 1, w->out->alloc);
	f = &w->out->v[w->out->n++];
	f->path = xstrdup(w->path.buf);
	git_oid_cpy(&f->oid, git_tree_entry_id(e));
	return 0;
}

int scan_file_cmp(const void *a, const void *b)
{
	return strcmp((*(const struct scan_file *const *)a)->path,
		      (*(const struct scan_file *const *)b)->path);
}

/*
 * A path listed twice: only a corrupt tree does that (git fsck's
 * duplicateEntries), and the store, keyed by path, would fail on it
 * without naming it.  A valid tree walks in byte order of the paths, so
 * one pass decides; a tree out of order (corrupt too) is sorted first.
 */
static int check_unique_paths(const struct scan_files *f)
{
	const struct scan_file **v;
	bool sorted = true;
	size_t i;
	int ret = 0;

	for (i = 1; i < f->n; i++) {
		int c = strcmp(f->v[i - 1].path, f->v[i].path);

		if (!c)
			return kmig_err("the tree lists '%s' twice (a corrupt tree: see git fsck)",
					f->v[i].path);
		if (c > 0)
			sorted = false;
	}
	if (sorted)
		return 0;
	v = xcalloc(f->n, sizeof(*v));
	for (i = 0; i < f->n; i++)
		v[i] = &f->v[i];
	qsort(v, f->n, sizeof(*v), scan_file_cmp);
	for (i = 1; i < f->n && !ret; i++)
		if (!strcmp(v[i - 1]->path, v[i]->path))
			ret = kmig_err("the tree lists '%s' twice (a corrupt tree: see git fsck)",
				       v[i]->path);
	free(v);
	return ret;
}

int scan_tree_files(struct scan_files *out, git_oid *maintainers,
		    git_tree *tree)
{
	struct walk_ctx w = { out, maintainers, SBUF_INIT };
	int ret = 0;

	memset(maintainers, 0, sizeof(*maintainers));
	if (git_tree_walk(tree, GIT_TREEWALK_PRE, walk_cb, &w) < 0)
		ret = kmig_err_git("cannot walk tree");
	else
		ret = check_unique_paths(out);
	sbuf_release(&w.path);
	return ret;
}

/*
 * scan_tree_changes(): two trees compared entry by entry, a subtree only
 * when its id differs, the paths gathered in c->v.  c->path is the
 * directory of the entries at hand ("" or "dir/sub/").
 */
struct changes_ctx {
	git_repository *repo;
	struct sbuf path;
	char **v;
	size_t n, alloc;
};

/* Entry @e's blob when scan_tree_files() would list it, else NULL. */
static const git_oid *listed_blob(struct changes_ctx *c, const git_tree_entry *e)
{
	size_t len = c->path.len;
	bool in;

	if (!e || git_tree_entry_type(e) != GIT_OBJECT_BLOB ||
	    git_tree_entry_filemode(e) == GIT_FILEMODE_LINK)
		return NULL;
	sbuf_addstr(&c->path, git_tree_entry_name(e));
	in = path_in_scope(c->path.buf);
	c->path.len = len;
	c->path.buf[len] = '\0';
	return in ? git_tree_entry_id(e) : NULL;
}

static void add_change(struct changes_ctx *c, const char *name)
{
	ALLOC_GROW(c->v, c->n + 1, c->alloc);
	c->v[c->n++] = xasprintf("%s%s", c->path.buf, name);
}

static int diff_entry(struct changes_ctx *c, const git_tree_entry *a,
		      const git_tree_entry *b);

/*
 * The entries of trees @a and @b (either NULL: empty) by name; the
 * entry @e names the directory they are, pushed on c->path meanwhile.
 */
static int diff_trees(struct changes_ctx *c, const git_tree_entry *e,
		      const git_oid *a, const git_oid *b)
{
	git_tree *ta = NULL, *tb = NULL;
	size_t len = c->path.len, i;
	int ret = 0;

	if ((a && git_tree_lookup(&ta, c->repo, a) < 0) ||
	    (b && git_tree_lookup(&tb, c->repo, b) < 0)) {
		ret = kmig_err_git("cannot read tree");
		goto out_free_trees;
	}
	sbuf_addstr(&c->path, git_tree_entry_name(e));
	sbuf_addch(&c->path, '/');
	for (i = 0; !ret && tb && i < git_tree_entrycount(tb); i++) {
		const git_tree_entry *y = git_tree_entry_byindex(tb, i);

		ret = diff_entry(c, ta ? git_tree_entry_byname(ta, git_tree_entry_name(y)) :
				 NULL, y);
	}
	for (i = 0; !ret && ta && i < git_tree_entrycount(ta); i++) {
		const git_tree_entry *x = git_tree_entry_byindex(ta, i);

		if (!tb || !git_tree_entry_byname(tb, git_tree_entry_name(x)))
			ret = diff_entry(c, x, NULL);
	}
	c->path.len = len;
	c->path.buf[len] = '\0';
out_free_trees:
	git_tree_free(ta);
	git_tree_free(tb);
	return ret;
}

/* Entries @a and @b of the same name (either NULL: none). */
static int diff_entry(struct changes_ctx *c, const git_tree_entry *a,
		      const git_tree_entry *b)
{
	const git_tree_entry *e = a ? a : b;
	const git_oid *oa = listed_blob(c, a), *ob = listed_blob(c, b);
	bool ta = a && git_tree_entry_type(a) == GIT_OBJECT_TREE;
	bool tb = b && git_tree_entry_type(b) == GIT_OBJECT_TREE;

	if ((oa || ob) && (!oa || !ob || !git_oid_equal(oa, ob)))
		add_change(c, git_tree_entry_name(e));
	if (ta && tb && git_oid_equal(git_tree_entry_id(a), git_tree_entry_id(b)))
		return 0;
	if (!ta && !tb)
		return 0;
	return diff_trees(c, ta ? a : b, ta ? git_tree_entry_id(a) : NULL,
			  tb ? git_tree_entry_id(b) : NULL);
}

int scan_tree_changes(git_repository *repo, git_tree *a, git_tree *b,
		      char ***out, size_t *n)
{
	struct changes_ctx c = { .repo = repo, .path = SBUF_INIT };
	size_t i;
	int ret = 0;

	sbuf_addstr(&c.path, "");
	for (i = 0; !ret && i < git_tree_entrycount(b); i++) {
		const git_tree_entry *y = git_tree_entry_byindex(b, i);

		ret = diff_entry(&c, git_tree_entry_byname(a, git_tree_entry_name(y)), y);
	}
	for (i = 0; !ret && i < git_tree_entrycount(a); i++) {
		const git_tree_entry *x = git_tree_entry_byindex(a, i);

		if (!git_tree_entry_byname(b, git_tree_entry_name(x)))
			ret = diff_entry(&c, x, NULL);
	}
	sbuf_release(&c.path);
	if (ret) {
		free_strv(c.v, c.n);
		return ret;
	}
	if (c.n)	/* c.v is NULL when nothing changed */
		qsort(c.v, c.n, sizeof(*c.v), cmp_strp);
	*out = c.v;
	*n = c.n;
	return 0;
}

/*
 * Pack order.  Blobs read in the order of the tree walk jump around the
 * pack, and the delta bases they share would be inflated again and again.
 * Read in pack order (what "git cat-file --unordered" does), a delta's
 * base was usually inflated just before and is still in the reader's
 * cache.  Workers take runs of CHUNK consecutive blobs so that each keeps
 * that locality.  The order only changes the speed: results are stored by
 * index.  So the reader's cache need not be large: 4 MB inflates no more
 * than 8 MB did, for 4 MB less resident per worker.
 */
#define CHUNK		64
#define WORKER_NICE	5
#define READER_CACHE	((size_t)4 << 20)

/*
 * Giant blobs (the amd register headers: up to 24 MB, next to each other
 * in pack order) are lexed one at a time: the blob and its token array
 * take 30-40 MB, and two workers meeting them together made the scan's
 * peak resident set.  A worker that finds the other one on a giant puts
 * its own off to the end of its run and lexes the rest first.
 */
#define GIANT_BYTES	((uint64_t)4 << 20)

struct pack_pos {
	uint64_t pos;		/* packread position; PACK_POS_NONE: loose */
	size_t i;
};

/*
 * Delta bases across batches.  A release's blob is most often a delta
 * against the blob at its path in the release before it (what kmig import
 * writes; git's own packs more often hold the reverse, which lex_follow()
 * reads from the chain of the blob it has just read), and in a scan of
 * several releases that base is a blob of the batch before.  Lexed in its own
 * batch, a second later, the base has long left the reader's cache and is
 * inflated again, with its own chain: in a cold scan of two releases as
 * many bytes were inflated for bases as for the blobs themselves.  So a
 * batch submitted while the one before it is still being lexed lists its
 * blobs by their delta base (struct follow), and a worker that has just
 * read such a base lexes those blobs at once, the base still cached.
 * Each blob of a batch is claimed once (claimed[]), by whichever worker
 * takes it first; the results go where they would have gone.
 */
struct follow {
	uint64_t base;		/* the delta base's position */
	size_t k;		/* the blob: an index into the batch's order */
};

static int cmp_follow(const void *a, const void *b)
{
	const struct follow *x = a, *y = b;

	if (x->base != y->base)
		return x->base < y->base ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

static int cmp_pack_pos(const void *a, const void *b)
{
	const struct pack_pos *x = a, *y = b;

	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static struct pack_pos *pack_order(const struct packset *ps,
				   const git_oid *oids, size_t n)
{
	struct pack_pos *pos = xcalloc(n, sizeof(*pos));
	size_t i;

	for (i = 0; i < n; i++) {
		pos[i].i = i;
		if (packset_find(ps, &oids[i], &pos[i].pos))
			pos[i].pos = PACK_POS_NONE;
	}
	qsort(pos, n, sizeof(*pos), cmp_pack_pos);
	return pos;
}

/*
 * The pool.  Batches are lexed in the order they were queued; within a
 * batch, workers take runs of CHUNK blobs in pack order.  The submitting
 * thread goes on (it walks the next tree, writes the last release) and
 * waits for a batch only when it needs its results.
 */
struct scan_batch {
	struct pack_pos *order;
	const git_oid *oids;
	struct site_list *results;
	uint64_t *bytes;
	struct facts_z *facts;		/* NULL: the facts stay text */
	size_t n, next, done;
	size_t busy;			/* runs taken, not yet counted */
	bool finished;			/* batch_check_finished() */
	int ret;
	char err[512];
	struct scan_batch *queue_next;
	unsigned char *claimed;		/* by order index: taken by a worker */
	struct follow *follow;		/* sorted by base */
	size_t nfollow, followed;
	/*
	 * Linked while the earlier batch is not done, under the pool's lock:
	 * its workers read @succ (atomically), and the later batch is not
	 * freed while @pred is set.
	 */
	struct scan_batch *succ, *pred;
};

struct scan_pool {
	char *repo_path;
	struct packset *ps;
	pthread_t *tids;
	int nthreads;
	pthread_mutex_t lock;
	pthread_cond_t work;		/* a batch was queued, or stop */
	pthread_cond_t done;		/* a batch finished */
	struct scan_batch *head, *tail;	/* batches with runs not taken */
	struct scan_batch *last;	/* the last submitted, until done */
	struct pack_reader *peek;	/* the submitting thread's, for bases */
	bool held;			/* scan_pool_hold() */
	bool stop;
	pthread_mutex_t giant;		/* held while lexing a giant blob */
};

static void batch_fail(struct scan_pool *p, struct scan_batch *b)
{
	pthread_mutex_lock(&p->lock);
	if (!b->ret) {
		b->ret = KMIG_EGENERIC;
		snprintf(b->err, sizeof(b->err), "%s", kmig_errmsg());
	}
	pthread_mutex_unlock(&p->lock);
}

/*
 * Under p->lock, when a run or a follow-on has counted blobs of @b: once
 * each of its blobs is counted, every run handed out (it is off the queue)
 * and none held by a worker, no worker reads it or its successor any
 * more.  It may then be freed, its successor too, and it is no longer the
 * batch a new one follows.  Follow-ons may have counted every blob while
 * runs of it were still queued: the worker that takes the last such run
 * (each of its blobs already claimed) finishes it.
 */
static void batch_check_finished(struct scan_pool *p, struct scan_batch *b)
{
	if (b->finished || b->next < b->n || b->done < b->n || b->busy)
		return;
	b->finished = true;
	if (b->succ) {
		b->succ->pred = NULL;
		__atomic_store_n(&b->succ, NULL, __ATOMIC_RELEASE);
	}
	if (p->last == b)
		p->last = NULL;
	pthread_cond_broadcast(&p->done);
}

/* A loose blob (or one in no readable pack), through libgit2. */
static int read_loose(const char *repo_path, git_odb **odb,
		      const git_oid *oid, git_odb_object **blob)
{
	git_repository *repo = NULL;

	if (!*odb) {
		if (git_repository_open(&repo, repo_path) < 0 ||
		    repo_guard_loose(repo) < 0 ||
		    git_repository_odb(odb, repo) < 0) {
			git_repository_free(repo);
			return kmig_err_git("cannot open repository");
		}
		git_repository_free(repo);
	}
	if (git_odb_read(blob, *odb, oid) < 0)
		return kmig_err("cannot read blob %s: %s", repo_oid_str(oid),
				git_error_last() ? git_error_last()->message :
						   "unknown error");
	return 0;
}

struct worker {
	struct scan_pool *pool;
	struct pack_reader *rd;
	git_odb *odb;
	struct lex_scratch scratch;
	struct facts_packer *packer;
};

static int lex_one(struct worker *w, struct scan_batch *b,
		   const struct pack_pos *pp)
{
	const git_oid *oid = &b->oids[pp->i];
	git_odb_object *blob = NULL;
	struct pack_object obj;
	int ret;

	if (pp->pos != PACK_POS_NONE) {
		ret = pack_reader_read(w->rd, pp->pos, &obj);
		if (ret)
			return kmig_err("cannot read blob %s: %s",
					repo_oid_str(oid), kmig_errmsg());
		if (obj.type != GIT_OBJECT_BLOB)
			return kmig_err("%s is not a blob", repo_oid_str(oid));
	} else {
		ret = read_loose(w->pool->repo_path, &w->odb, oid, &blob);
		if (ret)
			return ret;
		obj.data = git_odb_object_data(blob);
		obj.len = git_odb_object_size(blob);
	}
	b->bytes[pp->i] = (uint64_t)obj.len;
	ret = lex_buffer_with((const char *)obj.data, obj.len,
			      &b->results[pp->i], &w->scratch);
	git_odb_object_free(blob);
	if (!ret && b->facts && b->results[pp->i].funcs) {
		/* compressed here, off the thread that writes */
		ret = facts_pack(w->packer, b->results[pp->i].funcs,
				 &b->facts[pp->i]);
		free(b->results[pp->i].funcs);
		b->results[pp->i].funcs = NULL;
	}
	return ret;
}

/* Whether the blob at @pp is giant, when its size can be known cheaply. */
static bool is_giant(struct worker *w, const struct pack_pos *pp)
{
	uint64_t size;

	return pp->pos != PACK_POS_NONE &&
	       !pack_reader_size(w->rd, pp->pos, &size) && size >= GIANT_BYTES;
}

/* Lex giant blob @pp holding the pool's giant lock; then let it go. */
static int lex_giant(struct worker *w, struct scan_batch *b,
		     const struct pack_pos *pp)
{
	int ret = lex_one(w, b, pp);

	pack_reader_trim(w->rd);
	pthread_mutex_unlock(&w->pool->giant);
	return ret;
}

/* Take blob @k of @b's order; false when another worker has it. */
static bool claim(struct scan_batch *b, size_t k)
{
	return !__atomic_exchange_n(&b->claimed[k], 1, __ATOMIC_ACQ_REL);
}

/*
 * The first of the @n records of @size bytes at @v whose uint64_t at
 * offset @off is @key or more (they are sorted by it); @n when none is.
 */
static size_t first_at_least(const void *v, size_t n, size_t size,
			     size_t off, uint64_t key)
{
	const unsigned char *p = v;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t k;

		memcpy(&k, p + mid * size + off, sizeof(k));
		if (k < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The first of @s's follow entries whose base is at @pos or after. */
static size_t follow_find(const struct scan_batch *s, uint64_t pos)
{
	return first_at_least(s->follow, s->nfollow, sizeof(*s->follow),
			      offsetof(struct follow, base), pos);
}

/* The index in @s's order of the blob at @pos, or s->n. */
static size_t order_find(const struct scan_batch *s, uint64_t pos)
{
	size_t k = first_at_least(s->order, s->n, sizeof(*s->order),
				  offsetof(struct pack_pos, pos), pos);

	return k < s->n && s->order[k].pos == pos ? k : s->n;
}

#define FOLLOW_MAX 64

/*
 * The blobs of @b's successor that this worker's reader holds now, having
 * just read the blob at @pos: those whose delta base it is (a release's
 * blob as a delta of the one before it: what kmig import writes), and
 * those it went through as its own delta bases (the older as a delta of
 * the newer: what git's packs mostly hold).  Lexed now, from its cache
 * (giant ones are left to their turn, under the giant lock; at most
 * FOLLOW_MAX of them); one that fails sets the successor's error.  Not
 * on from those to the batch after: that would lex a third release ahead
 * of the one being written (a cold scan of the five lines peaked 7 MB
 * higher, at 300 MB).
 */
static void lex_follow(struct worker *w, struct scan_batch *b, uint64_t pos)
{
	struct scan_batch *s = __atomic_load_n(&b->succ, __ATOMIC_ACQUIRE);
	uint64_t bases[FOLLOW_MAX];
	size_t take[FOLLOW_MAX], ntake = 0, nb, i, n = 0;

	if (!s || pos == PACK_POS_NONE)
		return;
	/* before any of them is read: the reader's chain is the last read's */
	nb = pack_reader_bases(w->rd, bases, FOLLOW_MAX);
	for (i = 0; i < nb && ntake < FOLLOW_MAX; i++) {
		size_t k = order_find(s, bases[i]);

		if (k < s->n)
			take[ntake++] = k;
	}
	for (i = follow_find(s, pos);
	     i < s->nfollow && s->follow[i].base == pos && ntake < FOLLOW_MAX;
	     i++)
		take[ntake++] = s->follow[i].k;
	for (i = 0; i < ntake; i++) {
		const struct pack_pos *pp = &s->order[take[i]];

		if (__atomic_load_n(&s->claimed[take[i]], __ATOMIC_RELAXED) ||
		    is_giant(w, pp) || !claim(s, take[i]))
			continue;
		n++;
		if (lex_one(w, s, pp))
			batch_fail(w->pool, s);
	}
	if (n) {
		pthread_mutex_lock(&w->pool->lock);
		s->followed += n;
		s->done += n;
		batch_check_finished(w->pool, s);
		pthread_mutex_unlock(&w->pool->lock);
	}
}

/*
 * Lex blobs @first to @end of @b's order that no other worker has
 * claimed; true when one failed (the rest of the run is then claimed and
 * not lexed).  *@ndone: how many this run claimed.  A giant blob waits
 * for the other workers' giant only once the rest is done.
 */
static bool lex_run(struct worker *w, struct scan_batch *b, size_t first,
		    size_t end, size_t *ndone)
{
	size_t later[CHUNK], nlater = 0, i;
	bool failed = false;

	*ndone = 0;
	for (i = first; i < end && !failed; i++) {
		const struct pack_pos *pp = &b->order[i];

		if (!claim(b, i))
			continue;	/* lexed beside its delta base */
		++*ndone;
		if (!is_giant(w, pp)) {
			failed = lex_one(w, b, pp) != 0;
			if (!failed)
				lex_follow(w, b, pp->pos);
		} else if (pthread_mutex_trylock(&w->pool->giant)) {
			later[nlater++] = i;
		} else {
			failed = lex_giant(w, b, pp) != 0;
		}
	}
	for (; i < end; i++)
		if (claim(b, i))
			++*ndone;
	for (i = 0; i < nlater && !failed; i++) {
		pthread_mutex_lock(&w->pool->giant);
		failed = lex_giant(w, b, &b->order[later[i]]) != 0;
	}
	return failed;
}

/* The queue of batches with runs not taken yet; under p->lock. */
static void queue_push(struct scan_pool *p, struct scan_batch *b)
{
	if (p->tail)
		p->tail->queue_next = b;
	else
		p->head = b;
	p->tail = b;
}

static void queue_pop(struct scan_pool *p)
{
	p->head = p->head->queue_next;
	if (!p->head)
		p->tail = NULL;
}

static void *pool_worker(void *arg)
{
	struct worker *w = arg;
	struct scan_pool *p = w->pool;

	/*
	 * Below the submitting thread: its tree walks and database writes
	 * are the scan's critical path, the lexing fills the rest.
	 */
	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), WORKER_NICE);

	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct scan_batch *b;
		size_t first, end, ndone, i;
		bool failed;

		while (!p->stop && (!p->head || p->held))
			pthread_cond_wait(&p->work, &p->lock);
		if (!p->head)
			break;		/* stopping, nothing queued */
		b = p->head;
		first = b->next;
		end = first + CHUNK < b->n ? first + CHUNK : b->n;
		b->next = end;
		b->busy++;
		if (end == b->n)	/* every blob taken: off the queue */
			queue_pop(p);
		pthread_mutex_unlock(&p->lock);

		failed = lex_run(w, b, first, end, &ndone);
		if (failed)
			batch_fail(p, b);

		pthread_mutex_lock(&p->lock);
		b->done += ndone;
		b->busy--;
		if (failed && b->next < b->n) {
			/* still at the head: nobody lexes the rest */
			for (i = b->next; i < b->n; i++)
				b->done += claim(b, i);
			b->next = b->n;
			queue_pop(p);
		}
		batch_check_finished(p, b);
	}
	pthread_mutex_unlock(&p->lock);
	lex_scratch_release(&w->scratch);
	facts_packer_free(w->packer);
	pack_reader_free(w->rd);
	git_odb_free(w->odb);
	free(w);
	return NULL;
}

/*
 * The workers allocate the lexing results that the submitting thread
 * frees once it has written them, and the submitting thread builds the
 * call graph meanwhile.  With an arena per thread (glibc's default) the
 * memory the results leave free sits in the workers' arenas where the
 * graph cannot reuse it, and the resident set holds both peaks: one
 * arena shared by every thread holds about the larger of them.  The
 * per-thread caches keep the small allocations off the arena's lock.
 *
 * A fixed mmap threshold: glibc raises it (up to 32 MB) each time a
 * large block is freed, and the giant blobs' buffers (inflated blob,
 * tokens, facts) then come from the arena, whose top it keeps up to twice
 * that.  Mapped on their own, they go back to the system when freed.
 */
static void pool_tune_malloc(void)
{
#ifdef M_ARENA_MAX
	mallopt(M_ARENA_MAX, 1);
	mallopt(M_MMAP_THRESHOLD, 1 << 20);
	mallopt(M_TRIM_THRESHOLD, 8 << 20);
#endif
}

int scan_pool_start(struct scan_pool **out, const char *repo_path, int jobs)
{
	struct scan_pool *p = xcalloc(1, sizeof(*p));
	struct worker *w;
	int i, ret;

	*out = NULL;
	scan_tune_libgit2();
	pool_tune_malloc();
	ret = packset_open(&p->ps, repo_path);
	if (ret) {
		free(p);
		return ret;
	}
	p->repo_path = xstrdup(repo_path);
	if (jobs < 1)
		jobs = 1;
	pthread_mutex_init(&p->lock, NULL);
	pthread_mutex_init(&p->giant, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	p->tids = xcalloc((size_t)jobs, sizeof(*p->tids));
	for (i = 0; i < jobs; i++) {
		w = xcalloc(1, sizeof(*w));
		w->pool = p;
		w->rd = pack_reader_new(p->ps, READER_CACHE);
		w->scratch = (struct lex_scratch)LEX_SCRATCH_INIT;
		w->packer = facts_packer_new();
		if (!w->rd || pthread_create(&p->tids[i], NULL, pool_worker, w)) {
			pack_reader_free(w->rd);
			free(w);
			ret = kmig_err("cannot start the lexing threads");
			break;
		}
		p->nthreads++;
	}
	*out = p;
	if (ret) {
		scan_pool_stop(p);
		*out = NULL;
	}
	return ret;
}

/*
 * @b's blobs that are deltas, by their bases (struct follow), for the
 * workers of the batch before it.  An entry that cannot be read is left
 * out: lexed in its turn, it reports why.
 */
static void follow_bases(struct scan_pool *p, struct scan_batch *b)
{
	size_t k;

	if (!p->peek)
		p->peek = pack_reader_new(p->ps, 0);
	if (!p->peek)
		return;
	b->follow = xcalloc(b->n, sizeof(*b->follow));
	for (k = 0; k < b->n; k++) {
		uint64_t base;

		if (b->order[k].pos == PACK_POS_NONE ||
		    pack_reader_base(p->peek, b->order[k].pos, &base) ||
		    base == PACK_POS_NONE)
			continue;
		b->follow[b->nfollow].base = base;
		b->follow[b->nfollow++].k = k;
	}
	qsort(b->follow, b->nfollow, sizeof(*b->follow), cmp_follow);
}

struct scan_batch *scan_pool_submit(struct scan_pool *p, const git_oid *oids,
				    size_t n, struct site_list *results,
				    uint64_t *bytes, struct facts_z *facts)
{
	struct scan_batch *b = xcalloc(1, sizeof(*b));
	bool follows;

	b->oids = oids;
	b->n = n;
	b->results = results;
	b->bytes = bytes;
	b->facts = facts;
	b->order = pack_order(p->ps, oids, n);
	if (!n) {
		b->finished = true;	/* nothing to lex: never queued */
		return b;
	}
	b->claimed = xcalloc(n, 1);
	pthread_mutex_lock(&p->lock);
	follows = p->last != NULL;
	pthread_mutex_unlock(&p->lock);
	if (follows)
		follow_bases(p, b);
	/* until the next batch, only a ref-delta's base is looked up */
	packset_drop_pages(p->ps);
	pthread_mutex_lock(&p->lock);
	if (follows && p->last) {
		b->pred = p->last;
		__atomic_store_n(&p->last->succ, b, __ATOMIC_RELEASE);
	}
	p->last = b;
	queue_push(p, b);
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
	return b;
}

void scan_pool_hold(struct scan_pool *p, bool hold)
{
	pthread_mutex_lock(&p->lock);
	p->held = hold;
	if (!hold)
		pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
}

int scan_pool_wait(struct scan_pool *p, struct scan_batch *b,
		   struct progress *prog, size_t *beside)
{
	int ret;

	pthread_mutex_lock(&p->lock);
	while (!b->finished || b->pred) {
		struct timespec ts;

		if (!prog) {
			pthread_cond_wait(&p->done, &p->lock);
			continue;
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 200 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&p->done, &p->lock, &ts);
		progress_update(prog, b->done, NULL);
	}
	pthread_mutex_unlock(&p->lock);
	if (prog)
		progress_update(prog, b->n, NULL);
	ret = b->ret ? kmig_err("%s", b->err) : 0;
	if (beside)
		*beside = b->followed;
	free(b->follow);
	free(b->claimed);
	free(b->order);
	free(b);
	return ret;
}

void scan_pool_stop(struct scan_pool *p)
{
	int i;

	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
	for (i = 0; i < p->nthreads; i++)
		pthread_join(p->tids[i], NULL);
	free(p->tids);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->done);
	pthread_mutex_destroy(&p->lock);
	pthread_mutex_destroy(&p->giant);
	pack_reader_free(p->peek);
	packset_free(p->ps);
	free(p->repo_path);
	free(p);
}

void scan_tune_libgit2(void)
{
	/*
	 * zlib already checks every inflated object (Adler-32); hashing each
	 * blob again with SHA-1 (collision-detecting) would cost about a fifth
	 * of the scan.  git cat-file does not re-hash either.
	 */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	/*
	 * Pack windows count in the resident set: map 16 MB at a time and
	 * at most 64 MB of them (libgit2 maps 1 GB windows, up to 8 GB, by
	 * default).  Loose blobs and trees still come through libgit2.
	 */
	git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, (size_t)16 << 20);
	git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, (size_t)64 << 20);
	/*
	 * The object cache keeps the trees of every release walked (256 MB
	 * by default).  A walk reads each tree once, and the cache counts
	 * only an object's raw size, not a parsed tree's entries: no tree is
	 * cached at all (13-15 MB less at the 21-release scan's peak, in the
	 * same time).  Commits and tags stay, within 4 MB.
	 */
	git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, (ssize_t)4 << 20);
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE,
			 (size_t)0);
}

int scan_lex_blobs(const char *repo_path, const git_oid *oids, size_t n,
		   int jobs, struct site_list *results, uint64_t *bytes,
		   struct progress *prog)
{
	struct scan_pool *p;
	int ret;

	if (!n)
		return 0;
	if ((size_t)jobs > (n + CHUNK - 1) / CHUNK)
		jobs = (int)((n + CHUNK - 1) / CHUNK);
	ret = scan_pool_start(&p, repo_path, jobs);
	if (ret)
		return ret;
	ret = scan_pool_wait(p, scan_pool_submit(p, oids, n, results, bytes, NULL),
			     prog, NULL);
	scan_pool_stop(p);
	return ret;
}
