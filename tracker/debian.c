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

int unpack_source(char **root, const char *deb, const char *tarball,
		  const char *dir)
{
	int ret;

	*root = NULL;
	ret = mkdir_p(dir);
	if (ret)
		return ret;
	if (deb) {
		/* dpkg-deb | tar: pick usr/src/linux-source-*.tar.xz, unpack it */
		char *script = xasprintf(
			"set -e; dpkg-deb --fsys-tarfile \"$1\" | "
			"tar -xf - -O --wildcards './usr/src/linux-source-*.tar.*' | "
			"tar -xJf - -C \"$2\"");
		char *argv[] = { "sh", "-c", script, "sh", (char *)deb,
				 (char *)dir, NULL };

		ret = child_run_status(&(struct child_opts){ .argv = argv,
							     .kill_signal = SIGTERM });
		free(script);
		if (ret > 0)
			ret = kmig_err("cannot unpack the kernel source in '%s'", deb);
	} else {
		char *argv[] = { "tar", "-xf", (char *)tarball, "-C", (char *)dir,
				 NULL };

		if (access(tarball, R_OK) < 0)
			return kmig_err("cannot read tarball '%s': %s", tarball,
					strerror(errno));
		ret = child_run_status(&(struct child_opts){ .argv = argv,
							     .kill_signal = SIGTERM });
		if (ret > 0)
			ret = kmig_err("cannot unpack tarball '%s' (tar status %d)",
				       tarball, ret);
	}
	if (ret)
		return ret;
	*root = tree_root(dir);
	return 0;
}
