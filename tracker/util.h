/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util.h - small helpers shared by every kmig module.
 *
 * Error convention (as in git and libgit2): functions return 0 on success
 * and a negative code on failure.  Library modules never print; they record
 * a message with kmig_err() which the command layer prints once, as
 * "kmig: <message>", before choosing the exit status.
 *
 * struct sbuf is a growable NUL-terminated byte buffer.  The buffer owns
 * .buf; sbuf_release() frees it and re-initialises the struct.  A zeroed
 * struct sbuf (SBUF_INIT) is valid and empty.  Allocation failure aborts:
 * kmig is a command-line tool and has nothing sensible to do without memory.
 */
#ifndef KMIG_UTIL_H
#define KMIG_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Exit statuses shared by every command (the command-line contract). */
enum {
	KMIG_EXIT_OK = 0,
	KMIG_EXIT_VERDICT = 1,	/* negative verdict: new uses, boot failed */
	KMIG_EXIT_ERROR = 2,	/* usage, I/O, repository, database */
	KMIG_EXIT_SKIP = 125,	/* cannot test this commit (bisect skip) */
};

/* Negative return codes. */
enum {
	KMIG_EGENERIC = -1,
	KMIG_ENOTFOUND = -2,
	KMIG_EUSAGE = -3,
	KMIG_ECONFLICT = -4,
	KMIG_EDATA = -5,	/* a file is not what it should be (a bad download) */
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * kmig_err - record the current error message; returns KMIG_EGENERIC so
 * callers can write "return kmig_err("cannot open '%s'", path);".
 * Messages are lowercase, without a final full stop, subjects quoted.
 * Thread-local: each worker thread has its own message.
 */
int kmig_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* kmig_errcode - like kmig_err() but returns @code. */
int kmig_errcode(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* kmig_errmsg - the last recorded message ("unknown error" if none). */
const char *kmig_errmsg(void);
/* kmig_err_git - record "<what>: <libgit2's last error>"; returns -1. */
int kmig_err_git(const char *what);

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);

/*
 * KMIG_ASAN - 1 under AddressSanitizer: memory kept for reuse is marked
 * with kmig_poison() while kept, kmig_unpoison() when given out again.
 */
#if defined(__SANITIZE_ADDRESS__)
#define KMIG_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KMIG_ASAN 1
#endif
#endif
#ifndef KMIG_ASAN
#define KMIG_ASAN 0
#endif
#if KMIG_ASAN
#include <sanitizer/asan_interface.h>
#define kmig_poison(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define kmig_unpoison(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define kmig_poison(p, n) ((void)(p), (void)(n))
#define kmig_unpoison(p, n) ((void)(p), (void)(n))
#endif

/*
 * big_alloc - @n bytes for a large buffer that is filled once and soon
 * freed (an inflated blob, a token array).  From BIG_MAPPED bytes on it is
 * a mapping of its own that the kernel may back with transparent huge
 * pages: one page fault per 2 MB instead of 512, and its memory back to
 * the system when freed.  Smaller ones (and every one under a sanitizer,
 * which checks only malloc's) come from malloc.  Never NULL.
 * big_free - free @p (NULL: no-op), allocated with the same @n.
 * big_realloc - resize @p of @old bytes to @n, keeping the contents up to
 * the smaller size.
 * big_footprint - the memory a big_alloc() of @n bytes takes (a mapping
 * is a whole number of huge pages).
 */
#define BIG_MAPPED ((size_t)2 << 20)
void *big_alloc(size_t n);
void big_free(void *p, size_t n);
void *big_realloc(void *p, size_t old, size_t n);
size_t big_footprint(size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* xstrdup_or_null - xstrdup() of @s, NULL for NULL. */
char *xstrdup_or_null(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* free_strv - free the @n strings of @v and @v itself. */
void free_strv(char **v, size_t n);
/* cmp_strp - qsort()/bsearch() order of an array of strings (strcmp()). */
int cmp_strp(const void *a, const void *b);

/* Grow an array @v of @n used and @alloc allocated elements to hold @want. */
#define ALLOC_GROW(v, want, alloc)                                           \
	do {                                                                 \
		if ((size_t)(want) > (alloc)) {                              \
			size_t grow_ = (alloc) ? (alloc) * 2 : 16;           \
			if (grow_ < (size_t)(want))                          \
				grow_ = (want);                              \
			(v) = xrealloc((v), grow_ * sizeof(*(v)));           \
			(alloc) = grow_;                                     \
		}                                                            \
	} while (0)

struct sbuf {
	char *buf;
	size_t len;
	size_t alloc;
};
#define SBUF_INIT { NULL, 0, 0 }

void sbuf_grow(struct sbuf *sb, size_t extra);
void sbuf_add(struct sbuf *sb, const void *data, size_t len);
void sbuf_addstr(struct sbuf *sb, const char *s);
void sbuf_addch(struct sbuf *sb, int c);
void sbuf_addf(struct sbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sbuf_vaddf(struct sbuf *sb, const char *fmt, va_list ap);
void sbuf_reset(struct sbuf *sb);
void sbuf_release(struct sbuf *sb);
/* sbuf_detach - hand the string to the caller (never NULL; "" when empty). */
char *sbuf_detach(struct sbuf *sb);
/* Read a whole file; 0 or negative with the message recorded. */
int sbuf_read_file(struct sbuf *sb, const char *path);
/*
 * sbuf_read_fd - append what @fd holds up to its end (errors name @name),
 * at most @max bytes (0: no limit): more is KMIG_EGENERIC, "'@name' is
 * larger than N MiB", before the rest is read (before any of it, for a
 * regular file whose size says so).  @fd is not closed.
 * sbuf_read_file_max - sbuf_read_file() with sbuf_read_fd()'s @max.
 */
int sbuf_read_fd(struct sbuf *sb, int fd, const char *name, size_t max);
int sbuf_read_file_max(struct sbuf *sb, const char *path, size_t max);
/*
 * write_file - create or truncate @path with the @len bytes at @data; 0 or
 * negative with "cannot write '@path': <reason>" recorded.
 */
int write_file(const char *path, const void *data, size_t len);
/*
 * write_file_replace - write_file() through "@path.kmig-new" and rename():
 * @path is the old file or the new one, never a part (a full disk, a
 * write error); a symbolic link's file is replaced, the link kept.
 */
int write_file_replace(const char *path, const void *data, size_t len);

/*
 * struct file_set - files replaced together, all or none (an export's
 * patches and its series): file_set_add() writes each beside its place
 * as write_file_replace() does (the directories it needs made), and
 * file_set_commit() renames them all into place once every one is
 * written.  An error before the commit (a write that fails, a directory
 * where a file should go) leaves every file as it was: file_set_clear()
 * removes what was written, and the directories made for it.
 */
struct file_set {
	char **path, **tmp, **dst;	/* asked for, written, renamed to */
	char **made;			/* directories file_set_add() made */
	size_t n, alloc, nmade, amade;
	size_t done;			/* renamed into place */
};
#define FILE_SET_INIT { 0 }

int file_set_add(struct file_set *s, const char *path, const void *data,
		 size_t len);
int file_set_commit(struct file_set *s);
void file_set_clear(struct file_set *s);

/* is_ident_char - a letter, digit or '_': a byte of a C identifier. */
static inline bool is_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* Whitespace-normalise: runs of blanks become one space, ends trimmed. */
char *normalize_ws(const char *s, size_t len);

/* Directory helpers (processes: child.h). */
int mkdir_p(const char *path);			/* like mkdir -p */
/*
 * mkdir_p_made - mkdir_p(), and *@made the topmost directory it created
 * (NULL: none; the caller frees), so that a caller that fails later can
 * remove what it made and no more.
 */
int mkdir_p_made(const char *path, char **made);
int rm_rf(const char *path);			/* like rm -rf */
/* path_parent - the directory @path is in: "." without a '/', "/" at the root (caller frees). */
char *path_parent(const char *path);
/* dir_is_empty - is @path a directory with no entry but "." and ".."? */
bool dir_is_empty(const char *path);
/*
 * rm_stale - remove (rm_rf()) each entry of @dir named @prefix<PID>, or
 * @prefix<PID>@suffix when @suffix is not NULL (PID: decimal digits only),
 * whose process is gone and which @ours (NULL: any) says is such a
 * leftover: what a killed run left.  An entry of a live process stays;
 * errors are ignored (a leftover costs only space).
 */
void rm_stale(const char *dir, const char *prefix, const char *suffix,
	      bool (*ours)(const char *path));

/*
 * parse_ulong - @s as a decimal integer between @min and @max into @out.
 * Strict: one or more ASCII digits and nothing else (no sign, blanks,
 * base prefix or suffix).  Returns 0, or KMIG_EUSAGE with the message
 * "'<s>' is not a number between <min> and <max>" recorded.
 */
int parse_ulong(const char *s, unsigned long min, unsigned long max,
		unsigned long *out);

/*
 * source_date - the time kmig writes into what should be reproducible (a
 * patch's Date:, the dashboard's footer): $SOURCE_DATE_EPOCH when it is a
 * number of seconds since the epoch (decimal digits, at most the end of
 * 9999), else now.
 */
long long source_date(void);

/* mono_now - the monotonic clock (CLOCK_MONOTONIC), in seconds. */
double mono_now(void);

/* Number of CPUs online (at least 1). */
int ncpus(void);

/*
 * proc_owner - who this process is, for a database row that says "a kmig
 * is doing this" (a running bisection): "PID START BOOT PIDNS HOST", its
 * process id, its start time (clock ticks after boot, /proc/PID/stat),
 * the kernel's boot id, its pid namespace and the host name.  Caller
 * frees.
 */
char *proc_owner(void);
/*
 * proc_owner_gone - is the process @owner (proc_owner()'s text) gone: it
 * ran on this host, and the host rebooted since or no process of that id
 * and start time is left?  false when it may still run: it does, another
 * host or pid namespace ran it (which cannot be told from here), or
 * @owner is NULL or not proc_owner()'s form.
 */
bool proc_owner_gone(const char *owner);

/*
 * FNV-1a hashes (Fowler/Noll/Vo), 32 and 64 bit.  Incremental: start from
 * FNV32_INIT / FNV64_INIT and feed bytes with fnv32_add() / fnv64_add()
 * (or one byte with fnv32_byte()); the value after the last byte is the
 * hash.  fnv32() hashes one buffer.  The values are persisted (the rules
 * hash in the database, page names in the site): never change them.
 */
#define FNV32_INIT 2166136261u
#define FNV32_PRIME 16777619u
#define FNV64_INIT 0xcbf29ce484222325ULL
#define FNV64_PRIME 0x100000001b3ULL

static inline uint32_t fnv32_byte(uint32_t h, unsigned char c)
{
	return (h ^ c) * FNV32_PRIME;
}

static inline uint32_t fnv32_add(uint32_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len--)
		h = fnv32_byte(h, *p++);
	return h;
}

static inline uint32_t fnv32(const void *data, size_t len)
{
	return fnv32_add(FNV32_INIT, data, len);
}

/*
 * hash_mem32 - a hash of @len bytes at @data for in-memory tables only: 8
 * bytes a step (fnv32() multiplies once a byte, one after the other,
 * which is most of interning a name).  Its values may change with any
 * build: never persist them, nor let anything emitted depend on them.
 */
static inline uint32_t hash_mem32(const void *data, size_t len)
{
	const unsigned char *s = data;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, w;
	uint32_t a, b;
	size_t n = len;

	while (n > 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
		s += 8;
		n -= 8;
	}
	/*
	 * The last 1 to 8 bytes in loads of a fixed size that stay inside
	 * (overlapping the bytes already hashed, or each other): a copy of
	 * a variable length into w would be byte stores that the load of w
	 * waits for.
	 */
	if (len >= 8) {
		memcpy(&w, s + n - 8, 8);
	} else if (n >= 4) {
		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		w = (uint64_t)a << 32 | b;
	} else if (n) {
		w = (uint64_t)s[0] | (uint64_t)s[n / 2] << 8 |
		    (uint64_t)s[n - 1] << 16;
	} else {
		w = 0;			/* len 0: nothing to mix in */
	}
	if (n) {
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	h *= 0xc4ceb9fe1a85ec53ULL;
	return (uint32_t)(h >> 32);
}

static inline uint64_t fnv64_add(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len--) {
		h ^= *p++;
		h *= FNV64_PRIME;
	}
	return h;
}

/* kmig_home - $KMIG_HOME or ${XDG_CACHE_HOME:-$HOME/.cache}/kmig (static). */
const char *kmig_home(void);

/*
 * Version ordering for kernel tags: "v6.1.9" < "v6.1.10" < "v6.12";
 * "-rcN" sorts before the release.  version_cmp() compares two tags;
 * version_sort_key() returns a string whose strcmp() order is that order.
 */
int version_cmp(const char *a, const char *b);
char *version_sort_key(const char *tag);
/*
 * kernel_version_len - the length of the kernel version @s starts with:
 * two or more numbers joined by single dots ("6.1", "6.1.192"), each of
 * 1 to 10 digits without a leading zero (a lone "0" is one).  0 when @s
 * does not start with one ("6", "6.", ".1", "6..1", "06.1"); the caller
 * judges what follows ("6.1.x" gives 3: "6.1" then ".x").
 */
size_t kernel_version_len(const char *s);
/*
 * is_release_tag - is @tag a kernel release tag kmig import writes:
 * "v", a kernel version, and optionally "-rcN" (N from 1, no leading
 * zero), at most KMIG_TAG_MAX characters: "v6.1", "v6.1.192", "v6.2-rc3".
 * Every such tag is a valid git tag name.
 */
#define KMIG_TAG_MAX 64
bool is_release_tag(const char *tag);

/*
 * Progress on stderr, gated by progress_enabled(): the one gate for every
 * progress line and progress bar kmig prints.
 */
struct progress;
struct progress *progress_start(const char *title, uint64_t total);
void progress_update(struct progress *p, uint64_t done, const char *extra);
void progress_stop(struct progress *p);
/*
 * progress_enabled - true when KMIG_NO_PROGRESS is unset and stderr is a
 * terminal or KMIG_PROGRESS is set (the tests force progress with it).
 */
bool progress_enabled(void);
/* progress_note - a progress line on stderr, only when progress_enabled(). */
void progress_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Output helpers. */
void csv_field(FILE *f, const char *s);		/* RFC 4180 quoting */
void json_string(FILE *f, const char *s);	/* quoted JSON string */
/*
 * sbuf_add_cquoted - append @s as git's quote_c_style() writes a path: as
 * it is, or, when it holds a control byte, '"' or '\\', in double quotes
 * with \" \\ \a \b \t \n \v \f \r and three octal digits (\033) for the
 * other control bytes: a file "a<TAB>b.c" is written "a\tb.c", quotes
 * and all.  CQUOTE_HIGH: a byte >= 0x80 too, in octal (git's default
 * core.quotePath: "caf\303\251.c"); CQUOTE_ALWAYS: in double quotes even
 * when no byte needs it.  Returns whether it quoted.
 */
#define CQUOTE_HIGH	1u
#define CQUOTE_ALWAYS	2u
bool sbuf_add_cquoted(struct sbuf *sb, const char *s, unsigned int flags);
/*
 * fput_line_escaped - write @s to @f with its control bytes (C0, DEL, and
 * C1 as UTF-8: U+0080-U+009F) and the bytes of no well-formed UTF-8
 * sequence as C escapes (\n, \t, \033, \302\233, \377),
 * the rest as it is: a message naming what the user or a repository gave
 * (a file "a<LF>b", a line with an escape sequence, binary garbage) stays
 * one line and drives no terminal.  No newline is added.
 */
void fput_line_escaped(FILE *f, const char *s);
/*
 * text_name - @s, a path, function or section name from a repository or a
 * patch, in text output: C-quoted as sbuf_add_cquoted() without flags, so
 * a newline or tab in it splits no line or column; an ordinary name (UTF-8
 * included) is written as it is.  NULL is "".
 */
void text_name(FILE *f, const char *s);
/*
 * utf8_valid - the length of the well-formed UTF-8 sequence at @s (of a
 * byte >= 0x80), or 0: no overlong form, surrogate or code point above
 * U+10FFFF (RFC 3629).
 */
size_t utf8_valid(const unsigned char *s);
/*
 * utf8_printable - utf8_valid(), but 0 for a C1 control character
 * (U+0080-U+009F: CSI, OSC, NEL), which a terminal acts on and HTML
 * does not allow: the length of a character fit to be written as it is.
 */
size_t utf8_printable(const unsigned char *s);
/*
 * json_date - @t (seconds since the epoch) as a quoted ISO 8601 string in
 * UTC with its offset ("2024-01-31T12:00:00+00:00"), the one form of a
 * date in every JSON and CSV output.  @quoted: with the JSON quotes.
 */
void json_date(FILE *f, long long t, bool quoted);
/*
 * glob_match - fnmatch(3) of @str against @pat, with FNM_NOESCAPE ('\' is
 * an ordinary character) and, when @pathname, FNM_PATHNAME ('*', '?' and
 * brackets do not match '/').  Leading dots are ordinary characters.
 */
bool glob_match(const char *pat, const char *str, bool pathname);

/*
 * plural, plural_es - the ending of a count's noun: "%zu base%s" with
 * plural(n), "%zu patch%s" with plural_es(n); "" for one.
 */
static inline const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

static inline const char *plural_es(size_t n)
{
	return n == 1 ? "" : "es";
}

#endif
