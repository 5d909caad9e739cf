// SPDX-License-Identifier: GPL-2.0
/*
 * lexbench.c - the lexer's throughput on one core, and a digest of what
 * it finds (bench/README.md, "The lexer's throughput").
 *
 *   lexbench [--rounds N] [--sites] [--dump FILE] [--floor] [--full] PATH...
 *
 * Every PATH is a file or a directory, searched recursively for *.c and
 * *.h (in sorted order, so the file order is stable).  All files are read
 * into memory first; then each round lexes all of them in a row with
 * lex_buffer_with(), in one thread with one struct lex_scratch, and is
 * timed in CPU time (the process's: it has one thread) and wall time.
 * The summary line gives the best and the median round in CPU seconds
 * and the median's MB/s (10^6 bytes) per core; the wall times follow, as
 * they differ when the machine is busy.
 *
 * With --sites, one more (untimed) round feeds a SHA-1 with, for each
 * file in order, every site (rule, line, function, text, vla
 * dependencies) and the call graph facts (struct site_list.funcs), and
 * prints it: two builds of the
 * lexer find the same sites exactly when their digests are equal.
 * --dump FILE also writes that text, to diff when they are not.
 *
 * With --floor, the same rounds time two floors over the same files:
 * pass 1 alone (lex_tokenize(), the token array every later pass reads,
 * with the tokens per byte) and one read of every byte (a sum over 8
 * bytes at a time, what the memory gives one core).  They say how much
 * of a round no cleverness in pass 2 or the matchers can take away.
 *
 * With --full, every round and the digest lex every function body token
 * by token (struct lex_scratch.full): the reference the skimmed bodies
 * (lex-token.c) must give the same digest as.  A line after the summary
 * says how many bodies a round skimmed and how many buffers it lexed
 * twice (a skimmed body that pass 2 did not open as a function).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lex-internal.h"
#include "lexer.h"
#include "rules.h"

struct file {
	char *path;
	char *buf;
	size_t len;
};

static struct file *files;
static size_t nfiles, afiles;

static void die(const char *what, const char *path)
{
	fprintf(stderr, "lexbench: %s: %s: %s\n", what, path, strerror(errno));
	exit(2);
}

static void *xalloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "lexbench: out of memory\n");
		exit(2);
	}
	return p;
}

static void add_path(const char *path)
{
	if (nfiles == afiles) {
		afiles = afiles ? afiles * 2 : 1024;
		files = xalloc(files, afiles * sizeof(*files));
	}
	files[nfiles].path = strdup(path);
	files[nfiles].buf = NULL;
	files[nfiles].len = 0;
	if (!files[nfiles].path)
		die("strdup", path);
	nfiles++;
}

static int want(const char *name)
{
	size_t n = strlen(name);

	return n >= 3 && name[n - 2] == '.' &&
	       (name[n - 1] == 'c' || name[n - 1] == 'h');
}

static void walk(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		die("opendir", dir);
	while ((de = readdir(d))) {
		char *p;
		struct stat st;

		if (de->d_name[0] == '.' &&
		    (!de->d_name[1] || (de->d_name[1] == '.' && !de->d_name[2])))
			continue;
		if (asprintf(&p, "%s/%s", dir, de->d_name) < 0)
			die("asprintf", dir);
		if (lstat(p, &st))
			die("lstat", p);
		if (S_ISDIR(st.st_mode))
			walk(p);
		else if (S_ISREG(st.st_mode) && want(de->d_name))
			add_path(p);
		free(p);
	}
	closedir(d);
}

static int path_cmp(const void *a, const void *b)
{
	return strcmp(((const struct file *)a)->path,
		      ((const struct file *)b)->path);
}

static void load(struct file *f)
{
	int fd = open(f->path, O_RDONLY);
	struct stat st;
	size_t got = 0;

	if (fd < 0 || fstat(fd, &st))
		die("open", f->path);
	f->buf = xalloc(NULL, (size_t)st.st_size);
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, f->buf + got, (size_t)st.st_size - got);

		if (n < 0)
			die("read", f->path);
		if (!n)
			break;
		got += (size_t)n;
	}
	f->len = got;
	close(fd);
}

static double now(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void lex_or_die(const struct file *f, struct site_list *sl,
		       struct lex_scratch *scratch)
{
	if (lex_buffer_with(f->buf, f->len, sl, scratch)) {
		fprintf(stderr, "lexbench: %s: lex_buffer_with failed\n",
			f->path);
		exit(2);
	}
}

static void put(EVP_MD_CTX *md, FILE *dump, const char *s, size_t n)
{
	EVP_DigestUpdate(md, s, n);
	if (dump && fwrite(s, 1, n, dump) != n)
		die("write", "dump");
}

/* The digest round: every site and the funcs text of every file. */
static void digest(FILE *dump, bool full)
{
	struct lex_scratch scratch = LEX_SCRATCH_INIT;
	struct site_list sl = SITE_LIST_INIT;
	unsigned char h[EVP_MAX_MD_SIZE];
	unsigned int hn, k;
	size_t i, j, nsites = 0;
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	char line[64];

	scratch.full = full;
	if (!md || !EVP_DigestInit_ex(md, EVP_sha1(), NULL)) {
		fprintf(stderr, "lexbench: no SHA-1\n");
		exit(2);
	}
	for (i = 0; i < nfiles; i++) {
		lex_or_die(&files[i], &sl, &scratch);
		snprintf(line, sizeof(line), "F %zu %zu\n", i, sl.n);
		put(md, dump, line, strlen(line));
		if (dump)
			fprintf(dump, "# %s\n", files[i].path);
		for (j = 0; j < sl.n; j++) {
			const struct site *s = &sl.v[j];

			snprintf(line, sizeof(line), "S %s %u ",
				 s->rule >= 0 && s->rule < RULE__COUNT ?
				 rules[s->rule].id : "?", s->line);
			put(md, dump, line, strlen(line));
			put(md, dump, s->func ? s->func : "-",
			    s->func ? strlen(s->func) + 1 : 2);
			put(md, dump, s->text ? s->text : "",
			    s->text ? strlen(s->text) + 1 : 1);
			put(md, dump, s->deps ? s->deps : "-",
			    s->deps ? strlen(s->deps) + 1 : 2);
			put(md, dump, "\n", 1);
		}
		nsites += sl.n;
		if (sl.funcs)
			put(md, dump, sl.funcs, strlen(sl.funcs));
		put(md, dump, "E\n", 2);
		site_list_clear(&sl);
	}
	EVP_DigestFinal_ex(md, h, &hn);
	EVP_MD_CTX_free(md);
	printf("lexbench: %zu sites, sha1 ", nsites);
	for (k = 0; k < hn; k++)
		printf("%02x", h[k]);
	printf("\n");
	lex_scratch_release(&scratch);
}

/* Pass 1 alone over every file; returns the tokens it wrote. */
static size_t tokenize_all(struct lex_scratch *scratch)
{
	size_t k, ntok = 0;

	for (k = 0; k < nfiles; k++) {
		struct lexer lx;

		memset(&lx, 0, sizeof(lx));
		lx.buf = files[k].buf;
		lx.len = files[k].len;
		lx.t = scratch->tok;
		lx.at = scratch->alloc;
		if (lx.len)
			lex_tok_reserve(&lx, lx.len / 4 + 64);
		lex_tokenize(&lx);
		ntok += lx.nt;
		scratch->tok = lx.t;
		scratch->alloc = lx.at;
		free(lx.skb);	/* the skimmed bodies, their calls, constants */
		free(lx.skc);
		free(lx.skk);
	}
	return ntok;
}

/* One read of every byte; the sum keeps the compiler from dropping it. */
static uint64_t read_all(void)
{
	uint64_t sum = 0;
	size_t k, j;

	for (k = 0; k < nfiles; k++) {
		const char *b = files[k].buf;
		size_t n = files[k].len;
		uint64_t w;

		for (j = 0; j + 8 <= n; j += 8) {
			memcpy(&w, b + j, 8);
			sum += w;
		}
		for (; j < n; j++)
			sum += (unsigned char)b[j];
	}
	return sum;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), dbl_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* --floor: the two floors, each timed over @rounds rounds. */
static void floors(int rounds, double total_mb, struct lex_scratch *scratch)
{
	double *t1 = xalloc(NULL, (size_t)rounds * sizeof(*t1));
	double *t2 = xalloc(NULL, (size_t)rounds * sizeof(*t2));
	volatile uint64_t sink = 0;
	size_t ntok = 0;
	int r;

	for (r = 0; r < rounds; r++) {
		double t0 = now(CLOCK_PROCESS_CPUTIME_ID);

		ntok = tokenize_all(scratch);
		t1[r] = now(CLOCK_PROCESS_CPUTIME_ID) - t0;
		t0 = now(CLOCK_PROCESS_CPUTIME_ID);
		sink += read_all();
		t2[r] = now(CLOCK_PROCESS_CPUTIME_ID) - t0;
	}
	(void)sink;
	printf("lexbench: floor pass 1 (lex_tokenize alone): median %.3f s, "
	       "%.1f MB/s per core, %zu tokens (%.2f bytes/token, %.2f "
	       "ns/token)\n", median(t1, rounds), total_mb / median(t1, rounds),
	       ntok, ntok ? total_mb * 1e6 / (double)ntok : 0.0,
	       ntok ? median(t1, rounds) * 1e9 / (double)ntok : 0.0);
	printf("lexbench: floor one read of every byte: median %.3f s, "
	       "%.1f MB/s per core\n", median(t2, rounds),
	       total_mb / median(t2, rounds));
	free(t1);
	free(t2);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: lexbench [--rounds N] [--sites] [--dump FILE] [--floor] [--full] PATH...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct lex_scratch scratch = LEX_SCRATCH_INIT;
	struct site_list sl = SITE_LIST_INIT;
	const char *dump_path = NULL;
	int rounds = 3, sites = 0, floor = 0, i, r;
	double *secs, *wall, med, wmed, total_mb = 0;
	size_t k, nstart;
	struct stat st;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
			rounds = atoi(argv[++i]);
			if (rounds < 1)
				usage();
		} else if (!strcmp(argv[i], "--sites")) {
			sites = 1;
		} else if (!strcmp(argv[i], "--full")) {
			scratch.full = true;
		} else if (!strcmp(argv[i], "--floor")) {
			floor = 1;
		} else if (!strcmp(argv[i], "--dump") && i + 1 < argc) {
			dump_path = argv[++i];
			sites = 1;
		} else {
			usage();
		}
	}
	if (i == argc)
		usage();
	for (; i < argc; i++) {
		if (stat(argv[i], &st))
			die("stat", argv[i]);
		nstart = nfiles;
		if (S_ISDIR(st.st_mode)) {
			walk(argv[i]);
			qsort(files + nstart, nfiles - nstart, sizeof(*files),
			      path_cmp);
		} else {
			add_path(argv[i]);
		}
	}
	for (k = 0; k < nfiles; k++) {
		load(&files[k]);
		total_mb += files[k].len / 1e6;
	}

	secs = xalloc(NULL, (size_t)rounds * sizeof(*secs));
	wall = xalloc(NULL, (size_t)rounds * sizeof(*wall));
	for (r = 0; r < rounds; r++) {
		double t0 = now(CLOCK_PROCESS_CPUTIME_ID);
		double w0 = now(CLOCK_MONOTONIC);

		for (k = 0; k < nfiles; k++) {
			lex_or_die(&files[k], &sl, &scratch);
			site_list_clear(&sl);
		}
		secs[r] = now(CLOCK_PROCESS_CPUTIME_ID) - t0;
		wall[r] = now(CLOCK_MONOTONIC) - w0;
		fprintf(stderr, "lexbench: round %d: %.3f s CPU, %.3f s wall, "
			"%.1f MB/s\n", r + 1, secs[r], wall[r],
			total_mb / secs[r]);
	}
	qsort(secs, (size_t)rounds, sizeof(*secs), dbl_cmp);
	qsort(wall, (size_t)rounds, sizeof(*wall), dbl_cmp);
	med = rounds % 2 ? secs[rounds / 2] :
	      (secs[rounds / 2 - 1] + secs[rounds / 2]) / 2;
	wmed = rounds % 2 ? wall[rounds / 2] :
	       (wall[rounds / 2 - 1] + wall[rounds / 2]) / 2;
	printf("lexbench: %zu files, %.1f MB, best %.3f s, median %.3f s, "
	       "%.1f MB/s per core (CPU time; wall: best %.3f s, median "
	       "%.3f s)\n", nfiles, total_mb, secs[0], med, total_mb / med,
	       wall[0], wmed);
	printf("lexbench: %lu function bodies skimmed (%.1f %% of the bytes), "
	       "%lu of %zu buffers lexed twice, per round%s\n",
	       scratch.skimmed / (unsigned long)rounds,
	       total_mb ? scratch.skimmed_bytes / 1e4 / rounds / total_mb : 0.0,
	       scratch.relexed / (unsigned long)rounds, nfiles,
	       scratch.full ? " (--full: no skimming)" : "");
	if (floor)
		floors(rounds, total_mb, &scratch);
	if (sites) {
		FILE *dump = NULL;

		if (dump_path && !(dump = fopen(dump_path, "w")))
			die("fopen", dump_path);
		digest(dump, scratch.full);
		if (dump && fclose(dump))
			die("fclose", dump_path);
	}
	lex_scratch_release(&scratch);
	free(secs);
	free(wall);
	for (k = 0; k < nfiles; k++) {
		free(files[k].path);
		free(files[k].buf);
	}
	free(files);
	return 0;
}
