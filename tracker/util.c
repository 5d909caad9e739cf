// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - errors, memory, buffers, processes, versions, progress, output.
 */
#define _GNU_SOURCE 1
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <ftw.h>
#include <git2.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

static __thread char err_buf[1024];

/*
 * Formatted apart first: callers may pass kmig_errmsg() itself as an
 * argument ("kmig_err("patch '%s': %s", name, kmig_errmsg())").
 */
static void err_vset(const char *fmt, va_list ap)
{
	char tmp[sizeof(err_buf)];

	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	memcpy(err_buf, tmp, sizeof(tmp));
}

int kmig_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vset(fmt, ap);
	va_end(ap);
	return KMIG_EGENERIC;
}

int kmig_errcode(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vset(fmt, ap);
	va_end(ap);
	return code;
}

const char *kmig_errmsg(void)
{
	return err_buf[0] ? err_buf : "unknown error";
}

int kmig_err_git(const char *what)
{
	const git_error *e = git_error_last();

	return kmig_err("%s: %s", what, e && e->message ? e->message : "libgit2 error");
}

static void *check_alloc(void *p)
{
	if (!p) {
		fputs("kmig: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *xmalloc(size_t n)
{
	return check_alloc(malloc(n ? n : 1));
}

/*
 * glibc's calloc() (2.36, Debian 12's) takes the arena's lock for every
 * block, where malloc() serves a small one from the thread's cache; the
 * scan's threads share one arena (scan.c), and its lock was their main
 * wait.  A small block is zeroed here instead.
 */
#define CALLOC_CACHED ((size_t)1024)

void *xcalloc(size_t nmemb, size_t size)
{
	size_t n;

	nmemb = nmemb ? nmemb : 1;
	size = size ? size : 1;
	if (!__builtin_mul_overflow(nmemb, size, &n) && n <= CALLOC_CACHED)
		return memset(xmalloc(n), 0, n);
	return check_alloc(calloc(nmemb, size));
}

void *xrealloc(void *p, size_t n)
{
	return check_alloc(realloc(p, n ? n : 1));
}

/*
 * AddressSanitizer and MemorySanitizer check only the blocks malloc()
 * gives and takes back: a mapping of our own would hide a use after free
 * from them.
 */
#if KMIG_ASAN
#define BIG_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define BIG_SANITIZED 1
#endif
#endif
#ifndef BIG_SANITIZED
#define BIG_SANITIZED 0
#endif

static bool big_mapped(size_t n)
{
	return !BIG_SANITIZED && n >= BIG_MAPPED;
}

/*
 * A whole number of huge pages: from Linux 6.7 on the kernel then aligns
 * the mapping to one (before, it may not: small pages in part, no harm).
 */
static size_t big_round(size_t n)
{
	return (n + BIG_MAPPED - 1) & ~(BIG_MAPPED - 1);
}

static void *big_advise(void *p, size_t n)
{
	if (p == MAP_FAILED)
		return check_alloc(NULL);
#ifdef MADV_HUGEPAGE
	/* a hint: without transparent huge pages, small pages it is */
	madvise(p, big_round(n), MADV_HUGEPAGE);
#endif
	return p;
}

size_t big_footprint(size_t n)
{
	return big_mapped(n) ? big_round(n) : n;
}

void *big_alloc(size_t n)
{
	if (!big_mapped(n))
		return xmalloc(n);
	return big_advise(mmap(NULL, big_round(n), PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), n);
}

void big_free(void *p, size_t n)
{
	if (!p)
		return;
	if (big_mapped(n))
		munmap(p, big_round(n));
	else
		free(p);
}

void *big_realloc(void *p, size_t old, size_t n)
{
	void *q;

	if (!p)
		return big_alloc(n);
	if (!big_mapped(old) && !big_mapped(n))
		return xrealloc(p, n);
	if (big_mapped(old) && big_mapped(n)) {
		if (big_round(old) == big_round(n))
			return p;
		return big_advise(mremap(p, big_round(old), big_round(n),
					 MREMAP_MAYMOVE), n);
	}
	q = big_alloc(n);
	memcpy(q, p, old < n ? old : n);
	big_free(p, old);
	return q;
}

char *xstrdup(const char *s)
{
	return check_alloc(strdup(s));
}

char *xstrdup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

char *xstrndup(const char *s, size_t n)
{
	return check_alloc(strndup(s, n));
}

char *xasprintf(const char *fmt, ...)
{
	struct sbuf sb = SBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return sbuf_detach(&sb);
}

void sbuf_grow(struct sbuf *sb, size_t extra)
{
	size_t want = sb->len + extra + 1;

	if (want <= sb->alloc)
		return;
	if (want < sb->alloc * 2)
		want = sb->alloc * 2;
	if (want < 64)
		want = 64;
	sb->buf = xrealloc(sb->buf, want);
	if (!sb->alloc)		/* a string from the start: sbuf_detach() */
		sb->buf[0] = '\0';
	sb->alloc = want;
}

void sbuf_add(struct sbuf *sb, const void *data, size_t len)
{
	sbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void sbuf_addstr(struct sbuf *sb, const char *s)
{
	sbuf_add(sb, s, strlen(s));
}

void sbuf_addch(struct sbuf *sb, int c)
{
	char ch = (char)c;

	sbuf_add(sb, &ch, 1);
}

void sbuf_vaddf(struct sbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	sbuf_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void sbuf_addf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void sbuf_reset(struct sbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void sbuf_release(struct sbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

void free_strv(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char *sbuf_detach(struct sbuf *sb)
{
	char *s;

	sbuf_grow(sb, 0);
	s = sb->buf;
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	return s;
}

int sbuf_read_fd(struct sbuf *sb, int fd, const char *name, size_t max)
{
	char tmp[65536];
	size_t start = sb->len;
	struct stat st;
	ssize_t n;

	/* a file that says its size is refused before any of it is read */
	if (max && !fstat(fd, &st) && S_ISREG(st.st_mode) &&
	    (unsigned long long)st.st_size > max)
		return kmig_err("'%s' is larger than %zu MiB", name, max >> 20);
	while ((n = read(fd, tmp, sizeof(tmp))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return kmig_err("cannot read '%s': %s", name, strerror(errno));
		}
		if (max && sb->len - start + (size_t)n > max)
			return kmig_err("'%s' is larger than %zu MiB", name,
					max >> 20);
		sbuf_add(sb, tmp, (size_t)n);
	}
	sbuf_grow(sb, 0);
	return 0;
}

int sbuf_read_file_max(struct sbuf *sb, const char *path, size_t max)
{
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return kmig_err("cannot open '%s': %s", path, strerror(errno));
	ret = sbuf_read_fd(sb, fd, path, max);
	close(fd);
	return ret;
}

int sbuf_read_file(struct sbuf *sb, const char *path)
{
	return sbuf_read_file_max(sb, path, 0);
}

/* Write @data to the file @path; errors name @name. */
static int write_named(const char *path, const char *name, const void *data,
		       size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return kmig_err("cannot write '%s': %s", name, strerror(errno));
	if ((len && fwrite(data, 1, len, f) != len) || ferror(f)) {
		int err = errno;

		fclose(f);
		return kmig_err("cannot write '%s': %s", name, strerror(err));
	}
	if (fclose(f))
		return kmig_err("cannot write '%s': %s", name, strerror(errno));
	return 0;
}

int write_file(const char *path, const void *data, size_t len)
{
	return write_named(path, path, data, len);
}

/*
 * write_file_stage - the first half of write_file_replace(): @data in
 * "@path.kmig-new" (beside the file a symbolic link names), errors naming
 * @path; *@tmp and *@dst receive that name and the one rename() gives it
 * (malloc'd, NULL on error).
 */
static int write_file_stage(const char *path, const void *data, size_t len,
			    char **tmp, char **dst)
{
	char *real = realpath(path, NULL);	/* a link: the file it names */
	int ret;

	*dst = real ? real : xstrdup(path);
	*tmp = xasprintf("%s.kmig-new", *dst);
	ret = write_named(*tmp, path, data, len);
	if (ret) {
		unlink(*tmp);
		free(*tmp);
		free(*dst);
		*tmp = *dst = NULL;
	}
	return ret;
}

int write_file_replace(const char *path, const void *data, size_t len)
{
	char *tmp, *dst;
	int ret = write_file_stage(path, data, len, &tmp, &dst);

	if (ret)
		return ret;
	if (rename(tmp, dst)) {
		ret = kmig_err("cannot write '%s': %s", path, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	free(dst);
	return ret;
}

int file_set_add(struct file_set *s, const char *path, const void *data,
		 size_t len)
{
	char *parent = path_parent(path), *made = NULL, *tmp, *dst;
	struct stat st;
	int ret;

	ret = mkdir_p_made(parent, &made);
	free(parent);
	if (made) {
		ALLOC_GROW(s->made, s->nmade + 1, s->amade);
		s->made[s->nmade++] = made;
	}
	if (ret)
		return ret;
	/* rename() would refuse it only once other files are in place */
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return kmig_err("cannot write '%s': %s", path, strerror(EISDIR));
	ret = write_file_stage(path, data, len, &tmp, &dst);
	if (ret)
		return ret;
	if (s->n == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 8;
		s->path = xrealloc(s->path, s->alloc * sizeof(*s->path));
		s->tmp = xrealloc(s->tmp, s->alloc * sizeof(*s->tmp));
		s->dst = xrealloc(s->dst, s->alloc * sizeof(*s->dst));
	}
	s->path[s->n] = xstrdup(path);
	s->tmp[s->n] = tmp;
	s->dst[s->n] = dst;
	s->n++;
	return 0;
}

int file_set_commit(struct file_set *s)
{
	for (; s->done < s->n; s->done++)
		if (rename(s->tmp[s->done], s->dst[s->done]))
			return kmig_err("cannot write '%s': %s", s->path[s->done],
					strerror(errno));
	return 0;
}

void file_set_clear(struct file_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (i >= s->done)
			unlink(s->tmp[i]);
		free(s->path[i]);
		free(s->tmp[i]);
		free(s->dst[i]);
	}
	/* the directories made, when nothing was put in them (newest first) */
	for (i = s->nmade; i-- > 0;) {
		if (!s->done)
			rm_rf(s->made[i]);
		free(s->made[i]);
	}
	free(s->path);
	free(s->tmp);
	free(s->dst);
	free(s->made);
	memset(s, 0, sizeof(*s));
}

char *normalize_ws(const char *s, size_t len)
{
	char *out = xmalloc(len + 1);
	size_t i, o = 0;
	bool space = false;

	for (i = 0; i < len; i++) {
		char c = s[i];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
		    c == '\v' || c == '\f') {
			space = o > 0;
			continue;
		}
		if (space)
			out[o++] = ' ';
		space = false;
		out[o++] = c;
	}
	out[o] = '\0';
	return out;
}

int mkdir_p(const char *path)
{
	return mkdir_p_made(path, NULL);
}

int mkdir_p_made(const char *path, char **made)
{
	char *p = xstrdup(path), *s;
	int ret = 0;

	if (made)
		*made = NULL;
	for (s = p + 1; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char save = *s;

		*s = '\0';
		if (mkdir(p, 0777) == 0) {
			if (made && !*made)
				*made = xstrdup(p);
		} else if (errno != EEXIST) {
			ret = kmig_err("cannot create directory '%s': %s", p,
				       strerror(errno));
			break;
		}
		*s = save;
		if (!save)
			break;
	}
	free(p);
	return ret;
}

static int rm_one(const char *path, const struct stat *sb, int flag,
		  struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path);
	return unlink(path);
}

int rm_rf(const char *path)
{
	struct stat st;

	/* ENOTDIR: a parent is a file, so @path is not there either */
	if (lstat(path, &st) < 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 :
			kmig_err("cannot remove '%s': %s", path, strerror(errno));
	if (nftw(path, rm_one, 32, FTW_DEPTH | FTW_PHYS) < 0)
		return kmig_err("cannot remove '%s': %s", path, strerror(errno));
	return 0;
}

char *path_parent(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	return xstrndup(path, slash == path ? 1 : (size_t)(slash - path));
}

bool dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	bool empty = true;

	if (!d)
		return false;
	while (empty && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = false;
	closedir(d);
	return empty;
}

void rm_stale(const char *dir, const char *prefix, const char *suffix,
	      bool (*ours)(const char *path))
{
	size_t plen = strlen(prefix);
	DIR *dh = opendir(dir);
	struct dirent *de;

	while (dh && (de = readdir(dh))) {
		const char *digits = de->d_name + plen, *end;
		char *path;
		long pid;

		if (strncmp(de->d_name, prefix, plen))
			continue;
		for (end = digits; *end >= '0' && *end <= '9'; end++)
			;
		if (end == digits || end - digits > 9 ||
		    (*end && (!suffix || strcmp(end, suffix))))
			continue;
		pid = strtol(digits, NULL, 10);
		if (pid <= 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		if (!ours || ours(path))
			rm_rf(path);
		free(path);
	}
	if (dh)
		closedir(dh);
}

int parse_ulong(const char *s, unsigned long min, unsigned long max,
		unsigned long *out)
{
	unsigned long v = 0;
	const char *p;

	for (p = s; *p >= '0' && *p <= '9'; p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (v > (ULONG_MAX - d) / 10)
			goto out_bad;
		v = v * 10 + d;
	}
	if (p == s || *p || v < min || v > max)
		goto out_bad;
	*out = v;
	return 0;

out_bad:
	return kmig_errcode(KMIG_EUSAGE, "'%s' is not a number between %lu and %lu",
			    s, min, max);
}

long long source_date(void)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	unsigned long v;

	/* up to 9999-12-31T23:59:59Z; anything else is no date: now */
	if (sde && !parse_ulong(sde, 0, 253402300799UL, &v))
		return (long long)v;
	return (long long)time(NULL);
}

double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

/*
 * The start time (field 22) of /proc/@pid/stat; false when there is no
 * such process, or only its zombie (it has ended).
 */
static bool proc_start(long pid, unsigned long long *start)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd, i;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* after the command name, which may hold blanks and parentheses */
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || p[2] == 'Z')
		return false;
	for (i = 2; p && i < 22; i++)
		p = strchr(p + 1, ' ');
	return p && sscanf(p + 1, "%llu", start) == 1;
}

/* The first line of @path into @buf, or "-" when it cannot be read. */
static void read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");

	if (!f || !fgets(buf, (int)size, f))
		snprintf(buf, size, "-");
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/* This process's boot id, pid namespace and host name. */
static void proc_where(char *boot, char *ns, char *host, size_t size)
{
	ssize_t n;

	read_line("/proc/sys/kernel/random/boot_id", boot, size);
	n = readlink("/proc/self/ns/pid", ns, size - 1);
	if (n > 0)
		ns[n] = '\0';
	else
		snprintf(ns, size, "-");
	if (gethostname(host, size - 1))
		snprintf(host, size, "-");
	host[size - 1] = '\0';
	/* one word each */
	boot[strcspn(boot, " \t")] = '\0';
	ns[strcspn(ns, " \t")] = '\0';
	host[strcspn(host, " \t")] = '\0';
}

char *proc_owner(void)
{
	char boot[256], ns[256], host[256];
	unsigned long long start = 0;

	proc_where(boot, ns, host, sizeof(boot));
	proc_start((long)getpid(), &start);
	return xasprintf("%ld %llu %s %s %s", (long)getpid(), start, boot, ns,
			 host);
}

bool proc_owner_gone(const char *owner)
{
	char boot[256], ns[256], host[256], oboot[256], ons[256], ohost[256];
	unsigned long long start, now;
	long pid;

	if (!owner || sscanf(owner, "%ld %llu %255s %255s %255s", &pid, &start,
			     oboot, ons, ohost) != 5 || pid <= 0)
		return false;
	proc_where(boot, ns, host, sizeof(boot));
	if (strcmp(ohost, host))
		return false;		/* another host's: cannot tell */
	if (strcmp(oboot, boot))
		return true;		/* this host rebooted since */
	if (strcmp(ons, ns))
		return false;		/* another pid namespace's */
	return !proc_start(pid, &now) || now != start;
}

const char *kmig_home(void)
{
	static char *home;
	const char *e;

	if (home)
		return home;
	e = getenv("KMIG_HOME");
	if (e && *e) {
		home = xstrdup(e);
	} else if ((e = getenv("XDG_CACHE_HOME")) && *e) {
		home = xasprintf("%s/kmig", e);
	} else {
		e = getenv("HOME");
		home = xasprintf("%s/.cache/kmig", e && *e ? e : "/tmp");
	}
	return home;
}

/*
 * Version keys: every run of digits is zero-padded to 10 characters, a
 * final release ends in '#' and "-rc" becomes '!', both below '.', so
 * v6.1-rc1 < v6.1 < v6.1.1 < v6.1.10 < v6.12.
 */
char *version_sort_key(const char *tag)
{
	struct sbuf sb = SBUF_INIT;
	const char *p = tag;
	bool rc = false;

	while (*p) {
		if (*p >= '0' && *p <= '9') {
			const char *q;
			size_t n;

			while (*p == '0' && p[1] >= '0' && p[1] <= '9')
				p++;
			for (q = p; *q >= '0' && *q <= '9'; q++)
				;
			for (n = (size_t)(q - p); n < 10; n++)
				sbuf_addch(&sb, '0');
			sbuf_add(&sb, p, (size_t)(q - p));
			p = q;
			continue;
		}
		if (!strncmp(p, "-rc", 3)) {
			rc = true;
			sbuf_addch(&sb, '!');
			p += 3;
			continue;
		}
		sbuf_addch(&sb, *p++);
	}
	if (!rc)
		sbuf_addch(&sb, '#');
	return sbuf_detach(&sb);
}

int version_cmp(const char *a, const char *b)
{
	char *ka = version_sort_key(a), *kb = version_sort_key(b);
	int r = strcmp(ka, kb);

	free(ka);
	free(kb);
	return r;
}

/* A number of 1 to 10 digits without a leading zero: its length, or 0. */
static size_t version_number_len(const char *s)
{
	size_t n = strspn(s, "0123456789");

	if (!n || n > 10 || (s[0] == '0' && n > 1))
		return 0;
	return n;
}

size_t kernel_version_len(const char *s)
{
	size_t len = 0, n;
	int numbers = 0;

	for (;;) {
		n = version_number_len(s + len);
		if (!n)
			break;
		numbers++;
		len += n;
		if (s[len] != '.' || !version_number_len(s + len + 1))
			break;
		len++;
	}
	return numbers >= 2 ? len : 0;
}

bool is_release_tag(const char *tag)
{
	size_t n;

	if (tag[0] != 'v' || strlen(tag) > KMIG_TAG_MAX)
		return false;
	n = kernel_version_len(tag + 1);
	if (!n)
		return false;
	tag += 1 + n;
	if (!*tag)
		return true;
	if (strncmp(tag, "-rc", 3) || tag[3] == '0')
		return false;
	n = version_number_len(tag + 3);
	return n && !tag[3 + n];
}

struct progress {
	char *title;
	uint64_t total;
	double start;
	double last;
	bool tty;
};

bool progress_enabled(void)
{
	if (getenv("KMIG_NO_PROGRESS"))
		return false;
	return isatty(2) || getenv("KMIG_PROGRESS");
}

void progress_note(const char *fmt, ...)
{
	va_list ap;

	if (!progress_enabled())
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

struct progress *progress_start(const char *title, uint64_t total)
{
	struct progress *p = xcalloc(1, sizeof(*p));

	p->title = xstrdup(title);
	p->total = total;
	p->start = mono_now();
	p->tty = progress_enabled();
	return p;
}

void progress_update(struct progress *p, uint64_t done, const char *extra)
{
	double t;

	if (!p || !p->tty)
		return;
	t = mono_now();
	if (t - p->last < 0.2 && done != p->total)
		return;
	p->last = t;
	if (p->total)
		fprintf(stderr, "\r%s: %3u%% (%llu/%llu)%s%s\033[K", p->title,
			(unsigned int)(done * 100 / p->total),
			(unsigned long long)done, (unsigned long long)p->total,
			extra ? ", " : "", extra ? extra : "");
	else
		fprintf(stderr, "\r%s: %llu%s%s\033[K", p->title,
			(unsigned long long)done, extra ? ", " : "",
			extra ? extra : "");
}

void progress_stop(struct progress *p)
{
	if (!p)
		return;
	if (p->tty)
		fprintf(stderr, "\r%s: done in %.1fs\033[K\n", p->title,
			mono_now() - p->start);
	free(p->title);
	free(p);
}

void csv_field(FILE *f, const char *s)
{
	if (!s)
		s = "";
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* Does @c make sbuf_add_cquoted() quote its string (with @flags)? */
static bool cquote_byte(unsigned char c, unsigned int flags)
{
	return c < 0x20 || c == 0x7f || c == '"' || c == '\\' ||
	       (c >= 0x80 && (flags & CQUOTE_HIGH));
}

/* Append @c, a byte cquote_byte() holds, as a C escape: \n, \033. */
static void add_escaped(struct sbuf *sb, unsigned char c)
{
	static const char esc[] = "\a\b\t\n\v\f\r";
	const char *e = c ? strchr(esc, c) : NULL;

	if (c == '"' || c == '\\')
		sbuf_addf(sb, "\\%c", c);
	else if (e)
		sbuf_addf(sb, "\\%c", "abtnvfr"[e - esc]);
	else
		sbuf_addf(sb, "\\%03o", c);
}

bool sbuf_add_cquoted(struct sbuf *sb, const char *s, unsigned int flags)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++)
		if (cquote_byte(*p, flags))
			break;
	if (!*p && !(flags & CQUOTE_ALWAYS)) {
		sbuf_addstr(sb, s);
		return false;
	}
	sbuf_addch(sb, '"');
	for (p = (const unsigned char *)s; *p; p++) {
		if (cquote_byte(*p, flags))
			add_escaped(sb, *p);
		else
			sbuf_addch(sb, (char)*p);
	}
	sbuf_addch(sb, '"');
	return true;
}

void fput_line_escaped(FILE *f, const char *s)
{
	struct sbuf sb = SBUF_INIT;
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++) {
		/* C1 controls as bytes, escaped */
		size_t n = *p >= 0x80 ? utf8_printable(p) : 1;

		if (*p < 0x20 || *p == 0x7f || !n) {
			add_escaped(&sb, *p);
		} else {
			sbuf_add(&sb, p, n);
			p += n - 1;
		}
	}
	if (sb.len)
		fwrite(sb.buf, 1, sb.len, f);
	sbuf_release(&sb);
}

void text_name(FILE *f, const char *s)
{
	struct sbuf sb = SBUF_INIT;

	sbuf_add_cquoted(&sb, s ? s : "", 0);
	if (sb.len)
		fwrite(sb.buf, 1, sb.len, f);
	sbuf_release(&sb);
}

void json_date(FILE *f, long long t, bool quoted)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char buf[40];

	if (!gmtime_r(&tt, &tm) ||
	    !strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S+00:00", &tm))
		snprintf(buf, sizeof(buf), "%lld", t);
	fprintf(f, quoted ? "\"%s\"" : "%s", buf);
}

size_t utf8_valid(const unsigned char *s)
{
	size_t n, i;
	unsigned int cp;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* the NUL ends it here too */
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

size_t utf8_printable(const unsigned char *s)
{
	size_t n = utf8_valid(s);

	return n == 2 && s[0] == 0xc2 && s[1] < 0xa0 ? 0 : n;
}

void json_string(FILE *f, const char *s)
{
	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		default:
			if (c < 0x20) {
				fprintf(f, "\\u%04x", c);
			} else if (c < 0x80) {
				fputc(c, f);
			} else {
				/* JSON is UTF-8: a byte of another encoding is U+FFFD */
				size_t n = utf8_valid((const unsigned char *)s);

				if (n) {
					fwrite(s, 1, n, f);
					s += n - 1;
				} else {
					fputs("\\ufffd", f);
				}
			}
		}
	}
	fputc('"', f);
}

/*
 * fnmatch(3) without escapes: for patterns without '[' this is exactly the
 * '*' and '?' matcher kmig had (checked on millions of random patterns);
 * brackets are fnmatch's character classes.
 */
bool glob_match(const char *pat, const char *str, bool pathname)
{
	return !fnmatch(pat, str, FNM_NOESCAPE | (pathname ? FNM_PATHNAME : 0));
}
