// SPDX-License-Identifier: GPL-2.0
/*
 * debian.c - Debian linux-source packages: list, download, unpack.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "child.h"
#include "debian.h"

void deb_version_clear(struct deb_version *v)
{
	free(v->package);
	free(v->upstream);
	free(v->debian);
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

static bool is_source_package(const char *p)
{
	const char *s = "linux-source-";

	if (strncmp(p, s, strlen(s)))
		return false;
	p += strlen(s);
	if (!*p)
		return false;
	for (; *p; p++)
		if (!(*p == '.' || (*p >= '0' && *p <= '9')))
			return false;
	return true;
}

/* "6.1.192-3" -> "6.1.192" (strip an epoch and the Debian revision). */
static char *upstream_of(const char *debver)
{
	const char *colon = strchr(debver, ':');
	const char *start = colon ? colon + 1 : debver;
	const char *dash = strrchr(start, '-');
	size_t n = dash ? (size_t)(dash - start) : strlen(start);
	const char *tilde = memchr(start, '~', n);

	if (tilde)
		n = (size_t)(tilde - start);
	return xstrndup(start, n);
}

static int packages(struct sbuf *names)
{
	char *argv[] = { "apt-cache", "search", "--names-only",
			 "^linux-source-[0-9.]+$", NULL };
	struct child_opts o = { .argv = argv, .capture = names,
				.kill_signal = SIGTERM };
	int ret = child_run_status(&o);

	if (ret < 0)
		return ret;
	if (ret)
		return kmig_err("apt-cache search failed with status %d", ret);
	return 0;
}

static int madison(struct deb_list *out, const char *pkg)
{
	struct sbuf sb = SBUF_INIT;
	char *argv[] = { "apt-cache", "madison", (char *)pkg, NULL };
	struct child_opts o = { .argv = argv, .capture = &sb,
				.kill_signal = SIGTERM };
	char *line, *save = NULL;
	int ret = child_run_status(&o);

	if (ret < 0)
		goto out;
	if (ret) {
		ret = kmig_err("apt-cache madison %s failed with status %d", pkg, ret);
		goto out;
	}
	for (line = strtok_r(sb.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[128], ver[128];
		struct deb_version *v;
		size_t i;
		bool dup = false;

		if (sscanf(line, " %127s | %127s |", name, ver) != 2 ||
		    strcmp(name, pkg))
			continue;
		for (i = 0; i < out->n; i++)
			if (!strcmp(out->v[i].package, pkg) &&
			    !strcmp(out->v[i].debian, ver))
				dup = true;
		if (dup)
			continue;
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		v = &out->v[out->n++];
		v->package = xstrdup(pkg);
		v->debian = xstrdup(ver);
		v->upstream = upstream_of(ver);
	}
	ret = 0;
out:
	sbuf_release(&sb);
	return ret;
}

int deb_available(struct deb_list *out, const char *package)
{
	struct sbuf names = SBUF_INIT;
	char *line, *save = NULL;
	int ret;

	if (package)
		return madison(out, package);
	ret = packages(&names);
	if (ret)
		goto out;
	for (line = strtok_r(names.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(line, ' ');

		if (sp)
			*sp = '\0';
		if (!is_source_package(line))
			continue;
		ret = madison(out, line);
		if (ret)
			break;
	}
out:
	sbuf_release(&names);
	return ret;
}

int deb_resolve(struct deb_version *out, const char *version)
{
	struct deb_list l = { 0 };
	const char *p = version;
	char *pkg;
	int dots = 0, ret;
	size_t i, n = 0;

	memset(out, 0, sizeof(*out));
	if (*p == 'v')
		p++;
	/* X.Y is the package series: digits and exactly one dot first */
	while (p[n] && p[n] != '-' && p[n] != '~') {
		if (p[n] == '.')
			dots++;
		else if (p[n] < '0' || p[n] > '9')
			break;
		n++;
	}
	if (dots < 1 || (p[n] && p[n] != '-' && p[n] != '~'))
		return kmig_errcode(KMIG_EUSAGE,
				    "'%s' is not a kernel version (like 6.1.192 or 6.1.192-3)",
				    version);
	{
		const char *dot2 = strchr(strchr(p, '.') + 1, '.');
		size_t series = dot2 && (size_t)(dot2 - p) < n ?
				(size_t)(dot2 - p) : n;

		pkg = xasprintf("linux-source-%.*s", (int)series, p);
	}
	ret = madison(&l, pkg);
	if (ret)
		goto out;
	for (i = 0; i < l.n; i++) {
		bool match = p[n] ? !strcmp(l.v[i].debian, p) :
			!strcmp(l.v[i].upstream, p);

		if (match) {	/* madison lists newest first */
			*out = l.v[i];
			memset(&l.v[i], 0, sizeof(l.v[i]));
			goto out;
		}
	}
	ret = kmig_errcode(KMIG_ENOTFOUND,
			   "version '%s' of %s is not offered by the package manager (see 'kmig import --list')",
			   version, pkg);
out:
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

int deb_fetch(char **path, const struct deb_version *v, const char *debs_dir)
{
	char *name = deb_filename(v), *spec;
	char *argv[] = { "apt-get", "download", "-q", NULL, NULL };
	int ret;

	*path = xasprintf("%s/%s", debs_dir, name);
	free(name);
	if (access(*path, R_OK) == 0)
		return 0;
	ret = mkdir_p(debs_dir);
	if (ret)
		return ret;
	spec = xasprintf("%s=%s", v->package, v->debian);
	argv[3] = spec;
	progress_note("downloading %s into %s\n", spec, debs_dir);
	ret = child_run_status(&(struct child_opts){ .argv = argv, .dir = debs_dir,
						     .kill_signal = SIGTERM });
	free(spec);
	if (ret > 0)
		ret = kmig_err("apt-get download %s=%s failed with status %d",
			       v->package, v->debian, ret);
	if (!ret && access(*path, R_OK) < 0)
		ret = kmig_err("apt-get download did not produce '%s'", *path);
	if (ret) {
		free(*path);
		*path = NULL;
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
		ret = kmig_err("cannot read the changelog in '%s' (a corrupt package? remove it to download it again)",
			       deb);
	if (!ret) {
		ret = deb_changelog_date(sb.buf, debver, &out->date, &out->tz);
		if (ret)
			ret = kmig_err("'%s': %s", deb, kmig_errmsg());
	}
	if (!ret)
		out->dated = true;
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
static int run_tar(char *const *argv, const char *log, const char *what)
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
			ret = run_tar(argv, log, deb);
	} else {
		char *argv[] = { "tar", "-xf", (char *)tarball, "-C", (char *)dir,
				 "--no-same-owner", "--no-same-permissions", NULL };

		if (access(tarball, R_OK) < 0)
			ret = kmig_err("cannot read tarball '%s': %s", tarball,
				       strerror(errno));
		else
			ret = run_tar(argv, log, tarball);
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
