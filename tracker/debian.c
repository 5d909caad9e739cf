// SPDX-License-Identifier: GPL-2.0
/*
 * debian.c - Debian linux-source packages: list, download, unpack, through
 * kmig's own apt configuration under $KMIG_HOME/apt.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "datadir.h"
#include "debian.h"

#define DEB_KEYRING "/usr/share/keyrings/debian-archive-keyring.gpg"

/* One "suite" record of the suites data. */
struct deb_suite {
	char *url;		/* http://deb.debian.org/debian */
	char *suite;		/* bookworm-security */
	char *component;	/* main */
	char *options;		/* "signed-by=..." or the record's own */
	bool failed;		/* named by the last apt-get update's errors */
};

/*
 * The module's state: the suites data (read once) and the apt directory.
 * kmig runs apt from one thread; see debian.h.
 */
static struct {
	bool loaded;		/* suites data read, apt.dir and apt.opt set */
	bool current;		/* sources.list written, lists fresh */
	char *data;		/* the suites file */
	struct deb_suite *suites;
	size_t nsuites, asuites;
	char **defaults;	/* "6.1" */
	size_t ndefaults, adefaults;
	char *dir;		/* $KMIG_HOME/apt */
	char *opt[12];		/* the -o settings every apt command gets */
	size_t nopt;
} apt;

static char *const apt_env[] = { "LC_ALL=C", NULL };

void deb_version_clear(struct deb_version *v)
{
	free(v->package);
	free(v->upstream);
	free(v->debian);
	free(v->suite);
	memset(v, 0, sizeof(*v));
}

void deb_list_clear(struct deb_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		deb_version_clear(&l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* "6.1", "5.10": digits, one dot, digits. */
static bool is_line(const char *p)
{
	size_t a = strspn(p, "0123456789"), b;

	if (!a || p[a] != '.')
		return false;
	b = strspn(p + a + 1, "0123456789");
	return b && !p[a + 1 + b];
}

static bool is_source_package(const char *p)
{
	const char *s = "linux-source-";

	return !strncmp(p, s, strlen(s)) && is_line(p + strlen(s));
}

/*
 * The length of the release candidate suffix @s starts with: "~rcN" (as
 * Debian writes it: 6.13~rc7-1~exp1) or "-rcN" (as the kernel does),
 * followed by nothing or a Debian revision ('-'); 0 when it is none.
 */
static size_t rc_suffix_len(const char *s)
{
	size_t n;

	if ((*s != '~' && *s != '-') || strncmp(s + 1, "rc", 2) || s[3] == '0')
		return 0;
	n = strspn(s + 3, "0123456789");
	if (!n || (s[3 + n] && s[3 + n] != '-'))
		return 0;
	return 3 + n;
}

/*
 * "6.1.192-3" -> "6.1.192" (strip an epoch and the Debian revision); a
 * release candidate "6.13~rc7-1~exp1" -> "6.13-rc7", the kernel's name.
 * Any other '~' stays, so it makes no release tag (it is no release).
 */
static char *upstream_of(const char *debver)
{
	const char *colon = strchr(debver, ':');
	const char *start = colon ? colon + 1 : debver;
	const char *dash = strrchr(start, '-');
	size_t n = dash ? (size_t)(dash - start) : strlen(start);
	const char *tilde = memchr(start, '~', n);

	if (tilde && rc_suffix_len(tilde) == n - (size_t)(tilde - start))
		return xasprintf("%.*s-%.*s", (int)(tilde - start), start,
				 (int)(n - (size_t)(tilde - start) - 1), tilde + 1);
	return xstrndup(start, n);
}

/* Split @line at blanks into at most @max fields; returns the count. */
static size_t split_fields(char *line, char **f, size_t max)
{
	size_t n = 0;
	char *save = NULL, *t;

	for (t = strtok_r(line, " \t", &save); t && n < max;
	     t = strtok_r(NULL, " \t", &save))
		f[n++] = t;
	return n;
}

/* Parse the suites data @path (kept in apt.data). */
static int suites_parse(const char *path)
{
	char *line, *next;
	int lineno = 0;

	for (line = apt.data; line; line = next) {
		char *f[16], *hash;
		size_t n;

		lineno++;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		n = split_fields(line, f, ARRAY_SIZE(f));
		if (!n)
			continue;
		if (!strcmp(f[0], "suite") && n >= 4) {
			struct deb_suite *s;
			struct sbuf o = SBUF_INIT;
			bool signer = false;
			size_t i;

			for (i = 4; i < n; i++) {
				if (!strchr(f[i], '=') || strchr(f[i], ']')) {
					sbuf_release(&o);
					return kmig_err("%s:%d: apt option '%s' is not key=value",
							path, lineno, f[i]);
				}
				if (!strncmp(f[i], "signed-by=", 10) ||
				    !strncmp(f[i], "trusted=", 8))
					signer = true;
				sbuf_addf(&o, "%s%s", o.len ? " " : "", f[i]);
			}
			if (!signer)
				sbuf_addf(&o, "%ssigned-by=%s", o.len ? " " : "",
					  DEB_KEYRING);
			ALLOC_GROW(apt.suites, apt.nsuites + 1, apt.asuites);
			s = &apt.suites[apt.nsuites++];
			memset(s, 0, sizeof(*s));
			s->url = f[1];
			s->suite = f[2];
			s->component = f[3];
			s->options = sbuf_detach(&o);
		} else if (!strcmp(f[0], "default") && n == 2 && is_line(f[1])) {
			ALLOC_GROW(apt.defaults, apt.ndefaults + 1, apt.adefaults);
			apt.defaults[apt.ndefaults++] = f[1];
		} else {
			return kmig_err("%s:%d: not 'suite URL SUITE COMPONENT [OPTION...]' nor 'default X.Y'",
					path, lineno);
		}
	}
	if (!apt.nsuites)
		return kmig_err("%s names no suite", path);
	return 0;
}

/* Forget a suites data that did not parse. */
static void suites_clear(void)
{
	size_t i;

	for (i = 0; i < apt.nsuites; i++)
		free(apt.suites[i].options);
	free(apt.suites);
	free(apt.defaults);
	free(apt.data);
	apt.suites = NULL;
	apt.defaults = NULL;
	apt.data = NULL;
	apt.nsuites = apt.asuites = apt.ndefaults = apt.adefaults = 0;
}

/* Read the suites data and fix the apt directory and options, once. */
static int apt_load(void)
{
	struct sbuf sb = SBUF_INIT;
	char *path;
	int ret;

	if (apt.loaded)
		return 0;
	path = datadir_file(DATADIR_DEBIAN, "suites");
	if (!path)
		return KMIG_EGENERIC;
	ret = sbuf_read_file(&sb, path);
	if (ret)
		goto out;
	apt.data = sbuf_detach(&sb);
	ret = suites_parse(path);
	if (ret) {
		suites_clear();
		goto out;
	}
	apt.dir = xasprintf("%s/apt", kmig_home());
	apt.opt[apt.nopt++] = xasprintf("Dir::Etc::SourceList=%s/sources.list",
					apt.dir);
	apt.opt[apt.nopt++] = xstrdup("Dir::Etc::SourceParts=/dev/null");
	apt.opt[apt.nopt++] = xasprintf("Dir::State::Lists=%s/lists", apt.dir);
	apt.opt[apt.nopt++] = xasprintf("Dir::Cache=%s/cache", apt.dir);
	/* a binary cache of the lists: apt-cache in ms, not seconds */
	apt.opt[apt.nopt++] = xstrdup("Dir::Cache::pkgcache=pkgcache.bin");
	apt.opt[apt.nopt++] = xstrdup("Dir::Cache::srcpkgcache=");
	/* kmig's own lists: no need for the machine's lock (nor root) */
	apt.opt[apt.nopt++] = xstrdup("Debug::NoLocking=1");
	/* only the Packages indexes (target=Packages in the sources), kept
	 * compressed, whatever the machine's apt.conf.d says */
	apt.opt[apt.nopt++] = xstrdup("Acquire::Languages=none");
	apt.opt[apt.nopt++] = xstrdup("Acquire::GzipIndexes=true");
	/* as root, apt would drop to _apt, which cannot reach $KMIG_HOME */
	if (geteuid() == 0)
		apt.opt[apt.nopt++] = xstrdup("APT::Sandbox::User=root");
	apt.loaded = true;
out:
	sbuf_release(&sb);
	free(path);
	return ret;
}

/*
 * Run @prog with kmig's options, then @args (NULL-terminated).  stdout
 * goes to @capture or @log; stderr to @log (or is inherited).  Returns the
 * exit status, or negative.
 */
static int apt_run(const char *prog, char *const *args, struct sbuf *capture,
		   const char *log, const char *dir)
{
	size_t n = 0, i;
	char **argv;
	int ret;

	while (args[n])
		n++;
	argv = xcalloc(1 + 2 * apt.nopt + n + 1, sizeof(*argv));
	argv[0] = (char *)prog;
	for (i = 0; i < apt.nopt; i++) {
		argv[1 + 2 * i] = "-o";
		argv[2 + 2 * i] = apt.opt[i];
	}
	memcpy(argv + 1 + 2 * apt.nopt, args, n * sizeof(*argv));
	ret = child_run_status(&(struct child_opts){ .argv = argv, .dir = dir,
		.capture = capture, .out_path = log, .env = apt_env,
		.kill_signal = SIGTERM });
	free(argv);
	return ret;
}

/* apt-cache ARGS... with its stdout in @out; 0 or negative. */
static int apt_cache(char *const *args, struct sbuf *out)
{
	int ret = apt_run("apt-cache", args, out, NULL, NULL);

	if (ret > 0)
		ret = kmig_err("apt-cache %s failed with status %d", args[0], ret);
	return ret;
}

/* The sources.list kmig writes from the suites data. */
static char *sources_text(void)
{
	struct sbuf sb = SBUF_INIT;
	size_t i;

	sbuf_addstr(&sb, "# written by kmig from its Debian suites data; do not edit\n");
	for (i = 0; i < apt.nsuites; i++)
		sbuf_addf(&sb, "deb [target=Packages %s] %s %s %s\n", apt.suites[i].options,
			  apt.suites[i].url, apt.suites[i].suite,
			  apt.suites[i].component);
	return sbuf_detach(&sb);
}

/* Write @text to @path through a temporary file and rename(). */
static int write_replace(const char *path, const char *text)
{
	char *tmp = xasprintf("%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	bool bad;
	int ret = 0;

	if (!f) {
		ret = kmig_err("cannot write '%s': %s", tmp, strerror(errno));
		goto out;
	}
	bad = fputs(text, f) < 0;
	if (fclose(f))
		bad = true;
	if (bad || rename(tmp, path)) {
		ret = kmig_err("cannot write '%s': %s", path, strerror(errno));
		unlink(tmp);
	}
out:
	free(tmp);
	return ret;
}

/* @path holds exactly @text. */
static bool file_is(const char *path, const char *text)
{
	struct sbuf sb = SBUF_INIT;
	bool same = !sbuf_read_file(&sb, path) && !strcmp(sb.buf, text);

	sbuf_release(&sb);
	return same;
}

/* apt's spelling of a source URI: "file:///x/" -> "file:/x". */
static char *uri_norm(const char *uri, size_t len)
{
	while (len > 1 && uri[len - 1] == '/')
		len--;
	if (len > 7 && !strncmp(uri, "file://", 7)) {
		uri += 5;
		len -= 5;
		while (len > 1 && uri[0] == '/' && uri[1] == '/') {
			uri++;
			len--;
		}
		return xasprintf("file:%.*s", (int)len, uri);
	}
	return xstrndup(uri, len);
}

/* The suite whose URI and suite are @uri and @suite ("bookworm/main"). */
static struct deb_suite *suite_named(const char *uri, const char *suite)
{
	size_t i, slen = strcspn(suite, "/");
	char *want = uri_norm(uri, strlen(uri));
	struct deb_suite *found = NULL;

	for (i = 0; i < apt.nsuites && !found; i++) {
		struct deb_suite *s = &apt.suites[i];
		char *have = uri_norm(s->url, strlen(s->url));

		if (!strcmp(have, want) && strlen(s->suite) == slen &&
		    !strncmp(s->suite, suite, slen))
			found = s;
		free(have);
	}
	free(want);
	return found;
}

/*
 * Mark the suites apt-get update could not fetch: "Err:N URI SUITE..."
 * lines of its log, and the suites "apt-cache policy" has no index of.
 */
static int mark_failed(const char *log)
{
	struct sbuf sb = SBUF_INIT;
	char *line, *save = NULL, *args[] = { "policy", NULL };
	size_t i;
	int ret;

	for (i = 0; i < apt.nsuites; i++)
		apt.suites[i].failed = false;
	if (!sbuf_read_file(&sb, log) && sb.len) {
		for (line = strtok_r(sb.buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char *f[3];
			struct deb_suite *s;

			if (strncmp(line, "Err:", 4) ||
			    split_fields(line, f, 3) != 3)
				continue;
			s = suite_named(f[1], f[2]);
			if (s)
				s->failed = true;
		}
	}
	sbuf_reset(&sb);
	ret = apt_cache(args, &sb);
	if (ret)
		goto out;
	sbuf_addch(&sb, '\n');	/* never NULL */
	for (i = 0; i < apt.nsuites; i++) {
		struct deb_suite *s = &apt.suites[i];
		char *uri = uri_norm(s->url, strlen(s->url));
		char *want = xasprintf(" %s %s/%s ", uri, s->suite, s->component);

		if (!strstr(sb.buf, want))
			s->failed = true;
		free(uri);
		free(want);
	}
out:
	sbuf_release(&sb);
	return ret;
}

/* The last "E: " line of @log, or "" (caller frees). */
static char *last_error(const char *log)
{
	struct sbuf sb = SBUF_INIT;
	char *line, *save = NULL, *last = NULL;

	if (!sbuf_read_file(&sb, log) && sb.len)
		for (line = strtok_r(sb.buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			if (!strncmp(line, "E: ", 3))
				last = line + 3;
	last = xstrdup(last ? last : "");
	sbuf_release(&sb);
	return last;
}

static int apt_update(const char *stamp, const char *sources)
{
	char *log = xasprintf("%s/update.log", apt.dir);
	char *args[] = { "update", NULL }, *why;
	struct sbuf names = SBUF_INIT;
	size_t i, bad = 0;
	int status, ret;

	progress_note("updating the package lists of %zu Debian suites in %s\n",
		      apt.nsuites, apt.dir);
	unlink(stamp);
	status = apt_run("apt-get", args, NULL, log, NULL);
	if (status < 0) {
		ret = status;
		goto out;
	}
	ret = mark_failed(log);
	if (ret)
		goto out;
	for (i = 0; i < apt.nsuites; i++) {
		if (!apt.suites[i].failed)
			continue;
		sbuf_addf(&names, "%s%s (%s)", bad++ ? ", " : "",
			  apt.suites[i].suite, apt.suites[i].url);
	}
	if (bad) {
		ret = kmig_err("cannot reach the Debian suite%s %s (apt-get update, see %s)",
			       bad > 1 ? "s" : "", names.buf, log);
		goto out;
	}
	if (status) {
		why = last_error(log);
		ret = kmig_err("apt-get update failed with status %d%s%s (see %s)",
			       status, *why ? ": " : "", why, log);
		free(why);
		goto out;
	}
	ret = write_replace(stamp, sources);
out:
	sbuf_release(&names);
	free(log);
	return ret;
}

int deb_setup(bool update)
{
	char *lists = NULL, *cache = NULL, *list = NULL, *stamp = NULL;
	char *sources = NULL, *lock = NULL;
	struct stat st;
	int ret, fd = -1;

	ret = apt_load();
	if (ret)
		return ret;
	if (apt.current && !update)
		return 0;
	lists = xasprintf("%s/lists/partial", apt.dir);
	cache = xasprintf("%s/cache/archives/partial", apt.dir);
	list = xasprintf("%s/sources.list", apt.dir);
	stamp = xasprintf("%s/lists.stamp", apt.dir);
	lock = xasprintf("%s/lock", apt.dir);
	ret = mkdir_p(lists);
	if (!ret)
		ret = mkdir_p(cache);
	if (ret)
		goto out;
	/* one kmig at a time writes the sources and the lists */
	fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || flock(fd, LOCK_EX)) {
		ret = kmig_err("cannot lock '%s': %s", lock, strerror(errno));
		goto out;
	}
	sources = sources_text();
	if (!file_is(list, sources)) {
		ret = write_replace(list, sources);
		if (ret)
			goto out;
	}
	/* the stamp holds the sources the lists were made from */
	if (update || stat(stamp, &st) ||
	    st.st_mtime + DEB_LISTS_MAX_AGE < time(NULL) ||
	    !file_is(stamp, sources)) {
		ret = apt_update(stamp, sources);
		if (ret)
			goto out;
	}
	apt.current = true;
out:
	if (fd >= 0)
		close(fd);
	free(lock);
	free(lists);
	free(cache);
	free(list);
	free(stamp);
	free(sources);
	return ret;
}

int deb_default_lines(char *const **lines, size_t *n)
{
	int ret = apt_load();

	*lines = apt.defaults;
	*n = ret ? 0 : apt.ndefaults;
	return ret;
}

/* The linux-source-X.Y packages the suites offer, in version order. */
static int packages(char ***names, size_t *n)
{
	struct sbuf sb = SBUF_INIT;
	char *args[] = { "search", "--names-only", "^linux-source-[0-9.]+$",
			 NULL };
	char *line, *save = NULL;
	size_t alloc = 0, i, j;
	int ret = apt_cache(args, &sb);

	*names = NULL;
	*n = 0;
	if (ret || !sb.len)
		goto out;
	for (line = strtok_r(sb.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		line[strcspn(line, " ")] = '\0';
		if (!is_source_package(line))
			continue;
		ALLOC_GROW(*names, *n + 1, alloc);
		(*names)[(*n)++] = xstrdup(line);
	}
	/* insertion sort: a handful of names */
	for (i = 1; i < *n; i++)
		for (j = i; j && version_cmp((*names)[j - 1], (*names)[j]) > 0; j--) {
			char *t = (*names)[j];

			(*names)[j] = (*names)[j - 1];
			(*names)[j - 1] = t;
		}
out:
	sbuf_release(&sb);
	return ret;
}

static void names_free(char **names, size_t n)
{
	while (n)
		free(names[--n]);
	free(names);
}

/* The suite of a madison line's source: "URI SUITE/COMPONENT ARCH Packages". */
static char *suite_of(char *source)
{
	char *f[4];

	if (split_fields(source, f, 4) < 4 || strcmp(f[3], "Packages"))
		return NULL;
	return xstrndup(f[1], strcspn(f[1], "/"));
}

/*
 * Every version of the packages @pkgs (@n of them) in @out, in the order
 * apt-cache madison gives: package by package, newest first.  A version
 * several suites offer is one entry naming them all.
 */
static int madison(struct deb_list *out, char *const *pkgs, size_t n)
{
	struct sbuf sb = SBUF_INIT;
	char **args = xcalloc(n + 2, sizeof(*args));
	char *line, *save = NULL;
	int ret;

	args[0] = "madison";
	memcpy(args + 1, pkgs, n * sizeof(*args));
	ret = deb_setup(false);
	if (!ret)
		ret = apt_cache(args, &sb);
	if (ret || !sb.len)
		goto out;
	for (line = strtok_r(sb.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f[3], *bar1 = strchr(line, '|'), *bar2, *suite;
		struct deb_version *v = NULL;
		size_t i;

		bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
		if (!bar2)
			continue;
		*bar1 = *bar2 = '\0';
		if (split_fields(line, f, 2) != 1 ||
		    split_fields(bar1 + 1, f + 1, 2) != 1 ||
		    !is_source_package(f[0]))
			continue;
		suite = suite_of(bar2 + 1);
		if (!suite)
			continue;
		for (i = 0; i < out->n && !v; i++)
			if (!strcmp(out->v[i].package, f[0]) &&
			    !strcmp(out->v[i].debian, f[1]))
				v = &out->v[i];
		if (v) {
			char *both = xasprintf("%s,%s", v->suite, suite);

			free(v->suite);
			free(suite);
			v->suite = both;
			continue;
		}
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		v = &out->v[out->n++];
		v->package = xstrdup(f[0]);
		v->debian = xstrdup(f[1]);
		v->upstream = upstream_of(f[1]);
		v->suite = suite;
	}
out:
	free(args);
	sbuf_release(&sb);
	return ret;
}

int deb_available(struct deb_list *out, const char *package)
{
	char **names = NULL;
	size_t n = 0;
	int ret;

	if (package)
		return madison(out, (char *const *)&package, 1);
	ret = deb_setup(false);
	if (!ret)
		ret = packages(&names, &n);
	if (!ret && n)
		ret = madison(out, names, n);
	names_free(names, n);
	return ret;
}

/* Record "no linux-source-X.Y in the Debian suites; the lines are ...". */
static int no_such_line(const char *pkg)
{
	struct sbuf sb = SBUF_INIT;
	char **names = NULL;
	size_t n = 0, i;
	int ret = packages(&names, &n);

	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		sbuf_addf(&sb, "%s%s", i ? ", " : "",
			  names[i] + strlen("linux-source-"));
	ret = kmig_errcode(KMIG_ENOTFOUND,
			   "no %s in the Debian suites; the lines are %s", pkg,
			   n ? sb.buf : "none (see 'kmig import --update')");
	names_free(names, n);
	sbuf_release(&sb);
	return ret;
}

/* Record "no VERSION in Debian; PKG has A, B, ..." (@l: PKG's versions). */
static int no_such_version(const char *version, const char *pkg,
			   const struct deb_list *l)
{
	struct sbuf sb = SBUF_INIT;
	size_t i, shown = 0, distinct = 0;
	int ret;

	for (i = 0; i < l->n; i++) {
		if (i && !strcmp(l->v[i].upstream, l->v[i - 1].upstream))
			continue;
		distinct++;
		if (shown < DEB_VERSIONS_SHOWN) {
			sbuf_addf(&sb, "%s%s", shown ? ", " : "", l->v[i].upstream);
			shown++;
		}
	}
	if (shown < distinct)
		sbuf_addf(&sb, ", ... (%zu in all, see 'kmig import --list')",
			  distinct);
	ret = kmig_errcode(KMIG_ENOTFOUND, "no %s in Debian; %s has %s", version,
			   pkg, sb.buf);
	sbuf_release(&sb);
	return ret;
}

/*
 * The kernel version @version names (after an optional 'v'): into *@p and
 * its length; 0, or KMIG_EUSAGE with the message recorded.  What follows
 * the version is nothing, or a Debian revision or "~" suffix: '-' or '~'
 * and at least one character Debian versions are made of.
 */
static int version_split(const char *version, const char **p, size_t *n)
{
	const char *s = version + (*version == 'v');
	size_t len = kernel_version_len(s);
	const char *rest = s + len;

	*p = s;
	*n = len;
	if (len && (!*rest ||
		    ((*rest == '-' || *rest == '~') && rest[1] &&
		     strspn(rest + 1, "0123456789abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ.+~-") == strlen(rest + 1))))
		return 0;
	return kmig_errcode(KMIG_EUSAGE,
			    "'%s' is not a kernel version (like 6.1.192 or 6.1.192-3)",
			    version);
}

/*
 * The kernel version @version (split by version_split() into @p, @n)
 * names, without the 'v': "6.1.192" for "6.1.192-3", "6.13-rc7" for
 * "6.13~rc7-1~exp1", "6.13~rc7" and "6.13-rc7".
 */
static char *version_upstream(const char *p, size_t n)
{
	size_t rc = rc_suffix_len(p + n);

	if (rc)
		return xasprintf("%.*s-%.*s", (int)n, p, (int)rc - 1, p + n + 1);
	return xstrndup(p, n);
}

int deb_version_tag(char **tag, const char *version)
{
	const char *p;
	size_t n;
	int ret = version_split(version, &p, &n);
	char *up;

	*tag = NULL;
	if (ret)
		return ret;
	up = version_upstream(p, n);
	*tag = xasprintf("v%s", up);
	free(up);
	return 0;
}

int deb_resolve(struct deb_version *out, const char *version)
{
	struct deb_list l = { 0 };
	const char *p, *dot;
	char *pkg, *up;
	bool by_debian;
	int ret;
	size_t i, n, series;

	memset(out, 0, sizeof(*out));
	ret = version_split(version, &p, &n);
	if (ret)
		return ret;
	/* a Debian version names one package; else the newest of a kernel version */
	up = version_upstream(p, n);
	by_debian = p[n] && rc_suffix_len(p + n) != strlen(p + n);
	/* X.Y, the version's first two numbers, is the package series */
	dot = strchr(p, '.');
	series = (size_t)(dot + 1 - p) + strspn(dot + 1, "0123456789");
	pkg = xasprintf("linux-source-%.*s", (int)series, p);
	ret = madison(&l, &pkg, 1);
	if (ret)
		goto out;
	if (!l.n) {
		ret = no_such_line(pkg);
		goto out;
	}
	for (i = 0; i < l.n; i++) {
		bool match = by_debian ? !strcmp(l.v[i].debian, p) :
			!strcmp(l.v[i].upstream, up);

		if (match) {	/* madison lists newest first */
			*out = l.v[i];
			memset(&l.v[i], 0, sizeof(l.v[i]));
			goto out;
		}
	}
	ret = no_such_version(version, pkg, &l);
out:
	free(up);
	free(pkg);
	deb_list_clear(&l);
	return ret;
}

/* apt-get download names files pkg_VERSION_all.deb, ':' as "%3a". */
static char *deb_filename(const struct deb_version *v)
{
	struct sbuf sb = SBUF_INIT;
	const char *p;

	sbuf_addf(&sb, "%s_", v->package);
	for (p = v->debian; *p; p++) {
		if (*p == ':')
			sbuf_addstr(&sb, "%3a");
		else
			sbuf_addch(&sb, *p);
	}
	sbuf_addstr(&sb, "_all.deb");
	return sbuf_detach(&sb);
}

/* What the package lists say a .deb is (one record of its version). */
struct deb_meta {
	unsigned long long size;
	char sha256[65];	/* "" when the record has none */
};

/*
 * The Size and SHA256 of each record of @v in kmig's package lists
 * ("apt-cache show PKG=VERSION": a version several suites offer may be
 * several records) into *@m, *@n of them; 0 or negative.
 */
static int deb_metadata(const struct deb_version *v, struct deb_meta **m,
			size_t *n)
{
	char *spec = xasprintf("%s=%s", v->package, v->debian);
	char *args[] = { "show", "-q", spec, NULL };
	struct sbuf sb = SBUF_INIT;
	char *line, *save = NULL;
	size_t alloc = 0;
	bool in_record = false;
	int ret;

	*m = NULL;
	*n = 0;
	ret = apt_cache(args, &sb);
	if (ret || !sb.len)
		goto out;
	for (line = strtok_r(sb.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "Package: ", 9)) {
			ALLOC_GROW(*m, *n + 1, alloc);
			memset(&(*m)[(*n)++], 0, sizeof(**m));
			in_record = true;
		} else if (in_record && !strncmp(line, "Size: ", 6)) {
			(*m)[*n - 1].size = strtoull(line + 6, NULL, 10);
		} else if (in_record && !strncmp(line, "SHA256: ", 8) &&
			   strlen(line + 8) == 64) {
			memcpy((*m)[*n - 1].sha256, line + 8, 65);
		}
	}
out:
	sbuf_release(&sb);
	free(spec);
	return ret;
}

/* The SHA256 of the file @path, in hex; 0 or negative. */
static int file_sha256(const char *path, char hex[65])
{
	unsigned char buf[65536], md[EVP_MAX_MD_SIZE];
	EVP_MD_CTX *ctx;
	unsigned int len = 0, i;
	ssize_t got;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return kmig_err("cannot read '%s': %s", path, strerror(errno));
	ctx = EVP_MD_CTX_new();
	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL)) {
		ret = kmig_err("cannot hash '%s': no SHA256", path);
		goto out_free;
	}
	while ((got = read(fd, buf, sizeof(buf))) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			ret = kmig_err("cannot read '%s': %s", path, strerror(errno));
			goto out_free;
		}
		EVP_DigestUpdate(ctx, buf, (size_t)got);
	}
	EVP_DigestFinal_ex(ctx, md, &len);
	for (i = 0; i < len && i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	hex[2 * i] = '\0';
out_free:
	EVP_MD_CTX_free(ctx);
	close(fd);
	return ret;
}

/*
 * check_deb - is @path the package of one of the @n records @m (its size,
 * then its SHA256 where the record has one)?  0; KMIG_EDATA with what
 * differs recorded ("'F' is 2000 bytes, not 81234 as the package lists
 * say"); other negative codes when it cannot be read.  No record (n 0):
 * nothing to check against, 0.
 */
static int check_deb(const char *path, const struct deb_meta *m, size_t n)
{
	char hex[65] = "";
	struct stat st;
	size_t i;
	int ret;

	if (!n)
		return 0;
	if (stat(path, &st) < 0)
		return kmig_err("cannot stat '%s': %s", path, strerror(errno));
	for (i = 0; i < n; i++)
		if ((unsigned long long)st.st_size == m[i].size)
			break;
	if (i == n)
		return kmig_errcode(KMIG_EDATA,
				    "'%s' is %lld bytes, not %llu as the package lists say",
				    path, (long long)st.st_size, m[0].size);
	for (i = 0; i < n; i++) {
		if ((unsigned long long)st.st_size != m[i].size)
			continue;
		if (!*m[i].sha256)
			return 0;
		if (!*hex) {
			ret = file_sha256(path, hex);
			if (ret)
				return ret;
		}
		if (!strcmp(hex, m[i].sha256))
			return 0;
	}
	return kmig_errcode(KMIG_EDATA,
			    "'%s' has SHA256 %.16s..., not the package lists' %.16s...",
			    path, hex, m[0].sha256);
}

/*
 * apt-get download writes straight to its file's final name (a download
 * cut short leaves part of it there): it downloads into a directory of
 * its own, .download-PID in @debs_dir, and the package is renamed into
 * @path once it is checked.
 */
static int download(const char *path, const char *name,
		    const struct deb_version *v, const char *debs_dir,
		    const struct deb_meta *m, size_t n)
{
	char *dir = xasprintf("%s/.download-%d", debs_dir, (int)getpid());
	char *got = xasprintf("%s/%s", dir, name);
	char *spec = xasprintf("%s=%s", v->package, v->debian);
	char *log = xasprintf("%s/download.log", apt.dir);
	char *args[] = { "download", "-q", spec, NULL }, *why;
	int ret;

	rm_stale(debs_dir, ".download-", NULL, NULL);
	ret = rm_rf(dir);
	if (!ret)
		ret = mkdir_p(dir);
	if (ret)
		goto out_free;
	progress_note("downloading %s into %s\n", spec, debs_dir);
	ret = apt_run("apt-get", args, NULL, log, dir);
	if (ret > 0) {
		why = last_error(log);
		ret = kmig_err("apt-get download %s failed with status %d%s%s (see %s)",
			       spec, ret, *why ? ": " : "", why, log);
		free(why);
	}
	if (!ret && access(got, R_OK) < 0)
		ret = kmig_err("apt-get download did not produce '%s'", path);
	if (!ret && (ret = check_deb(got, m, n)) == KMIG_EDATA)
		ret = kmig_errcode(KMIG_EDATA, "apt-get download %s: %s", spec,
				   kmig_errmsg());
	if (!ret && rename(got, path) < 0)
		ret = kmig_err("cannot rename '%s' to '%s': %s", got, path,
			       strerror(errno));
	rm_rf(dir);
out_free:
	free(log);
	free(spec);
	free(got);
	free(dir);
	return ret;
}

int deb_fetch(char **path, char **bad, const struct deb_version *v,
	      const char *debs_dir)
{
	char *name = deb_filename(v);
	struct deb_meta *m = NULL;
	size_t n = 0;
	int ret;

	*bad = NULL;
	*path = xasprintf("%s/%s", debs_dir, name);
	ret = mkdir_p(debs_dir);
	if (!ret)
		ret = deb_setup(false);
	if (!ret)
		ret = deb_metadata(v, &m, &n);
	if (ret)
		goto out;
	if (access(*path, F_OK) == 0) {
		ret = check_deb(*path, m, n);
		if (ret != KMIG_EDATA)
			goto out;
		/* not the package: out of the way, and downloaded again */
		*bad = xstrdup(kmig_errmsg());
		if (unlink(*path) < 0) {
			ret = kmig_err("%s; cannot delete it: %s", *bad,
				       strerror(errno));
			goto out;
		}
	}
	ret = download(*path, name, v, debs_dir, m, n);
out:
	free(m);
	free(name);
	if (ret) {
		free(*path);
		*path = NULL;
		free(*bad);
		*bad = NULL;
	}
	return ret;
}

/* The tree's root: the archive's single top-level directory, if any. */
static char *tree_root(const char *dir)
{
	DIR *dh = opendir(dir);
	struct dirent *de;
	char *only = NULL;
	int n = 0;

	if (!dh)
		return xstrdup(dir);
	while ((de = readdir(dh))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		n++;
		free(only);
		only = xasprintf("%s/%s", dir, de->d_name);
	}
	closedir(dh);
	if (n == 1) {
		struct stat st;

		if (lstat(only, &st) == 0 && S_ISDIR(st.st_mode))
			return only;
	}
	free(only);
	return xstrdup(dir);
}

/*
 * True when symlink target @target, in a directory @depth levels below the
 * tree's top, stays inside the tree (judged on the text: never followed).
 */
static bool link_inside(const char *target, int depth)
{
	const char *p = target;

	if (*p == '/')
		return false;
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 2 && !strncmp(p, "..", 2)) {
			if (--depth < 0)
				return false;
		} else if (n && !(n == 1 && *p == '.')) {
			depth++;
		}
		p += n;
		p += strspn(p, "/");
	}
	return true;
}

/*
 * check_tree - after tar: every entry below @dir is a directory, a regular
 * file or a symlink pointing inside @top; @what names the archive.
 */
static int check_tree(const char *top, const char *dir, int depth,
		      const char *what)
{
	DIR *dh = opendir(dir);
	struct dirent *de;
	int ret = 0;

	if (!dh)
		return kmig_err("cannot read '%s': %s", dir, strerror(errno));
	while (!ret && (de = readdir(dh))) {
		char *p, target[4096];
		struct stat st;
		ssize_t n;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		if (lstat(p, &st) < 0) {
			ret = kmig_err("cannot stat '%s': %s", p, strerror(errno));
		} else if (S_ISDIR(st.st_mode)) {
			ret = check_tree(top, p, depth + 1, what);
		} else if (S_ISLNK(st.st_mode)) {
			n = readlink(p, target, sizeof(target) - 1);
			if (n < 0)
				ret = kmig_err("cannot read link '%s': %s", p,
					       strerror(errno));
			else if (target[n] = '\0', !link_inside(target, depth))
				ret = kmig_errcode(KMIG_EUSAGE,
						   "'%s' holds a symlink pointing outside its tree: %s -> %s",
						   what, p + strlen(top) + 1, target);
		}
		free(p);
	}
	closedir(dh);
	return ret;
}

/* Days since 1970-01-01 of the proleptic Gregorian date @y-@m-@d. */
static long long days_from_civil(long long y, int m, int d)
{
	long long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* "Sun, 15 Nov 2026 23:30:52 +0100" (RFC 5322, as dpkg writes it). */
static int parse_rfc5322(const char *s, long long *when, int *tz)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	char mon[4], sign;
	int d, y, hh, mm, ss, off, n = 0;
	const char *m;

	if (strchr(s, ','))
		s = strchr(s, ',') + 1;
	if (sscanf(s, " %d %3s %d %d:%d:%d %c%4d%n", &d, mon, &y, &hh, &mm, &ss,
		   &sign, &off, &n) != 8 || (sign != '+' && sign != '-'))
		return -1;
	m = strstr(months, mon);
	if (strlen(mon) != 3 || !m || (m - months) % 3 || d < 1 || d > 31 ||
	    y < 1970 || hh > 23 || mm > 59 || ss > 60 || off % 100 > 59 ||
	    off > 1400)
		return -1;
	*tz = (sign == '-' ? -1 : 1) * (off / 100 * 60 + off % 100);
	*when = days_from_civil(y, (int)((m - months) / 3) + 1, d) * 86400 +
		hh * 3600 + mm * 60 + ss - *tz * 60LL;
	return 0;
}

int deb_changelog_date(const char *text, const char *version, long long *when,
		       int *tz)
{
	const char *open = strchr(text, '('), *close, *nl = strchr(text, '\n');
	const char *p;

	if (!open || !nl || open > nl || !(close = strchr(open, ')')) ||
	    close > nl)
		return kmig_errcode(KMIG_ENOTFOUND, "the changelog has no first entry");
	if (version && ((size_t)(close - open - 1) != strlen(version) ||
			strncmp(open + 1, version, strlen(version))))
		return kmig_errcode(KMIG_ENOTFOUND,
				    "the changelog's first entry is %.*s, not %s",
				    (int)(close - open - 1), open + 1, version);
	/* the entry's trailer: " -- Name <mail>  date"; the next entry starts unindented */
	for (p = nl + 1; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		const char *gt;

		if (!strncmp(p, " -- ", 4)) {
			char line[256];
			size_t n = strcspn(p, "\n");

			snprintf(line, sizeof(line), "%.*s", (int)n, p);
			gt = strstr(line, ">  ");
			if (!gt || parse_rfc5322(gt + 3, when, tz))
				return kmig_errcode(KMIG_ENOTFOUND,
						    "the changelog's trailer has no date: %s",
						    line);
			return 0;
		}
		if (*p != ' ' && *p != '\t' && *p != '\n')
			break;
	}
	return kmig_errcode(KMIG_ENOTFOUND, "the changelog's first entry has no trailer");
}

int deb_changelog_line_date(const char *text, const char *debver,
			    long long *when)
{
	const char *p, *dot = strchr(debver, '.');
	size_t n;
	bool found = false;

	if (!dot)
		return kmig_errcode(KMIG_ENOTFOUND, "'%s' names no kernel line", debver);
	n = (size_t)(dot - debver) + 1 + strspn(dot + 1, "0123456789");
	/* entries are newest first: the last match is the oldest */
	for (p = text; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		const char *v = p + strlen("linux (");
		size_t vlen;
		long long w;
		int tz;

		if (strncmp(p, "linux (", strlen("linux (")))
			continue;
		vlen = strcspn(v, ")\n");
		if (vlen <= n || strncmp(v, debver, n) ||
		    (v[n] != '.' && v[n] != '-') || memchr(v, '~', vlen))
			continue;
		if (!deb_changelog_date(p, NULL, &w, &tz)) {
			*when = w;
			found = true;
		}
	}
	if (!found)
		return kmig_errcode(KMIG_ENOTFOUND,
				    "the changelog has no release of the %.*s line",
				    (int)n, debver);
	return 0;
}

/* The date of @debver from the changelog.Debian.gz inside @deb. */
static int deb_date(struct unpacked *out, const char *deb, const char *debver,
		    const char *log)
{
	static const char script[] =
		"set -e; dpkg-deb --fsys-tarfile \"$1\" | "
		"tar -xOf - --wildcards './usr/share/doc/linux-source-*/changelog.Debian.gz' | "
		"gzip -dc";
	char *argv[] = { "sh", "-c", (char *)script, "sh", (char *)deb, NULL };
	struct sbuf sb = SBUF_INIT;
	int ret;

	ret = child_run_status(&(struct child_opts){ .argv = argv, .capture = &sb,
						     .out_path = log,
						     .kill_signal = SIGTERM });
	if (ret > 0 || (!ret && !sb.len))
		ret = kmig_err("cannot read the changelog in '%s' (a corrupt package? delete it and kmig import downloads it again)",
			       deb);
	if (!ret) {
		ret = deb_changelog_date(sb.buf, debver, &out->date, &out->tz);
		if (ret)
			ret = kmig_err("'%s': %s", deb, kmig_errmsg());
	}
	if (!ret) {
		out->dated = true;
		/* a changelog without the line's first release: no line date */
		if (deb_changelog_line_date(sb.buf, debver, &out->line_date))
			out->line_date = 0;
	}
	sbuf_release(&sb);
	return ret;
}

void unpacked_clear(struct unpacked *u)
{
	free(u->root);
	memset(u, 0, sizeof(*u));
}

/*
 * run_tar - run the unpacking @argv with its messages in @log; a failure
 * or a member tar had to rename (absolute, "../") is an error naming @what.
 */
static int run_tar(char *const *argv, const char *log, const char *what,
		   bool is_deb)
{
	struct sbuf msg = SBUF_INIT;
	int ret;

	ret = child_run_status(&(struct child_opts){ .argv = argv, .out_path = log,
						     .kill_signal = SIGTERM });
	if (ret < 0)
		return ret;
	sbuf_read_file(&msg, log);
	sbuf_addch(&msg, '\0');	/* a string even when tar said nothing */
	if (strstr(msg.buf, "Removing leading") ||
	    strstr(msg.buf, "contains '..'"))
		ret = kmig_errcode(KMIG_EUSAGE,
				   "'%s' has members outside its top directory (absolute or '../' names): refused",
				   what);
	else if (ret && is_deb)
		ret = kmig_err("cannot unpack '%s' (a corrupt package? delete it and kmig import downloads it again): %.*s",
			       what, (int)strcspn(msg.buf, "\n"), msg.buf);
	else if (ret)
		ret = kmig_err("cannot unpack '%s' (corrupt?): %.*s", what,
			       (int)strcspn(msg.buf, "\n"), msg.buf);
	sbuf_release(&msg);
	return ret;
}

int unpack_source(struct unpacked *out, const char *deb, const char *debver,
		  const char *tarball, const char *dir)
{
	char *log = xasprintf("%s.log", dir);
	int ret;

	memset(out, 0, sizeof(*out));
	ret = mkdir_p(dir);
	if (ret)
		goto out;
	if (deb) {
		/* dpkg-deb | tar: pick usr/src/linux-source-*.tar.xz, unpack it */
		static const char script[] =
			"set -e; dpkg-deb --fsys-tarfile \"$1\" | "
			"tar -xf - -O --wildcards './usr/src/linux-source-*.tar.*' | "
			"tar -xJf - -C \"$2\" --no-same-owner --no-same-permissions";
		char *argv[] = { "sh", "-c", (char *)script, "sh", (char *)deb,
				 (char *)dir, NULL };

		ret = deb_date(out, deb, debver, log);
		if (!ret)
			ret = run_tar(argv, log, deb, true);
	} else {
		char *argv[] = { "tar", "-xf", (char *)tarball, "-C", (char *)dir,
				 "--no-same-owner", "--no-same-permissions", NULL };

		if (access(tarball, R_OK) < 0)
			ret = kmig_err("cannot read tarball '%s': %s", tarball,
				       strerror(errno));
		else
			ret = run_tar(argv, log, tarball, false);
	}
	if (ret)
		goto out;
	out->root = tree_root(dir);
	ret = check_tree(out->root, out->root, 0, deb ? deb : tarball);
out:
	if (ret)
		unpacked_clear(out);
	unlink(log);
	free(log);
	return ret;
}
