// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-web.c - kmig web: write the static HTML dashboard.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "store.h"
#include "web.h"

static const char usage[] =
	"usage: kmig web [-o DIR] [--source-url TEMPLATE] [--sites-per-page N]\n"
	"\n"
	"Write a self-contained static HTML dashboard of the database to DIR\n"
	"(default $KMIG_HOME/web) and print the path of its index.html.  The\n"
	"site needs no network and opens from file:// or any static web server:\n"
	"an overview of every rule with sparklines and forecasts, a page per\n"
	"rule, per subsystem and per release (down to files and use sites), the\n"
	"conversion branch with builds, boots and bisections, and kmig log.\n"
	"The site is written aside and then moved over DIR, which must be a\n"
	"site written by kmig web, an empty directory, or not exist (a symbolic\n"
	"link: the directory it names).\n"
	"\n"
	"  -o, --output DIR         where to write the site\n"
	"  --source-url TEMPLATE    link use sites to a source browser: {tag},\n"
	"                           {path} and {line} are replaced, URL-escaped,\n"
	"                           e.g. https://host/linux/{tag}/source/{path}#L{line}\n"
	"  --sites-per-page N       use sites per file drill-down page (default 4000;\n"
	"                           a file's sites stay on one page, so a file with\n"
	"                           more has a page of its own)\n";

/* Drop trailing slashes; NULL for paths that cannot be renamed over. */
static char *site_dir(const char *arg)
{
	char *dir = xstrdup(arg), *base;
	size_t len = strlen(dir);

	while (len > 1 && dir[len - 1] == '/')
		dir[--len] = '\0';
	base = strrchr(dir, '/');
	base = base ? base + 1 : dir;
	if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) {
		free(dir);
		return NULL;
	}
	return dir;
}

/*
 * make_parent - make the directories above @dir that are missing; *@made
 * the topmost of them (NULL: none), for unmake_parent().
 */
static int make_parent(const char *dir, char **made)
{
	char *parent = xstrdup(dir), *slash = strrchr(parent, '/');
	int ret = 0;

	*made = NULL;
	if (slash && slash != parent) {
		*slash = '\0';
		ret = mkdir_p_made(parent, made);
	}
	free(parent);
	return ret;
}

/* Remove the directories make_parent() made for @dir, down to @made. */
static void unmake_parent(const char *dir, const char *made)
{
	char *p = xstrdup(dir), *slash;

	while (made && (slash = strrchr(p, '/')) && slash != p) {
		*slash = '\0';
		if (rmdir(p) < 0 || !strcmp(p, made))
			break;
	}
	free(p);
}

static void show_progress(void *data, size_t pages)
{
	progress_update(data, pages, NULL);
}

/* The first '{' of @tmpl that starts none of {tag}, {path}, {line}, or NULL. */
static const char *unknown_placeholder(const char *tmpl)
{
	static const char *const known[] = { "{tag}", "{path}", "{line}" };
	const char *p;
	size_t i;

	for (p = strchr(tmpl, '{'); p; p = strchr(p + 1, '{')) {
		for (i = 0; i < ARRAY_SIZE(known); i++)
			if (!strncmp(p, known[i], strlen(known[i])))
				break;
		if (i == ARRAY_SIZE(known))
			return p;
	}
	return NULL;
}

/*
 * A directory "kmig web" wrote: its marker is written first, so a run
 * interrupted before it left the directory empty.  Never a symlink.
 */
static bool web_leftover(const char *path)
{
	struct stat sb;
	char *marker;
	bool yes;

	if (lstat(path, &sb) < 0 || !S_ISDIR(sb.st_mode))
		return false;
	marker = xasprintf("%s/%s", path, WEB_MARKER);
	yes = !access(marker, F_OK) || dir_is_empty(path);
	free(marker);
	return yes;
}

/*
 * drop_stale - remove the DIR.tmp-PID and DIR.old-PID beside the site @dir
 * that an interrupted "kmig web" left (its process is gone, and they hold
 * a site of kmig web's or nothing).  Called once @dir is this run's site:
 * a DIR.old-PID is then never the only copy of a site.
 */
static void drop_stale(const char *dir)
{
	const char *slash = strrchr(dir, '/');
	char *parent = path_parent(dir);
	const char *base = slash ? slash + 1 : dir;
	char *tmp = xasprintf("%s.tmp-", base), *old = xasprintf("%s.old-", base);

	rm_stale(parent, tmp, NULL, web_leftover);
	rm_stale(parent, old, NULL, web_leftover);
	free(old);
	free(tmp);
	free(parent);
}

static int cmd_web_fn(struct kmig_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "source-url", required_argument, NULL, 's' },
		{ "sites-per-page", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	struct web_opts o = { 0 };
	struct store *st = NULL;
	const char *out = NULL;
	char *dir, *tmp, *dflt = NULL, *made = NULL, *left = NULL;
	struct stat sb;
	unsigned long n;
	bool exists;
	int opt, ret, status = KMIG_EXIT_ERROR;

	while ((opt = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			out = optarg;
			break;
		case 's': {
			const char *bad = unknown_placeholder(optarg);

			if (bad)
				return cmd_usage_error("web", "--source-url: unknown placeholder '%.*s' (known: {tag}, {path}, {line})",
						       (int)strcspn(bad, "}") + (bad[strcspn(bad, "}")] == '}'),
						       bad);
			if (!strstr(optarg, "{path}"))
				return cmd_usage_error("web", "--source-url needs {path}: every link would be '%s'",
						       optarg);
			o.source_url = optarg;
			break;
		}
		case 'n':
			if (opt_uint("web", "--sites-per-page", optarg, 1, INT_MAX, &n))
				return KMIG_EXIT_ERROR;
			o.sites_per_page = (size_t)n;
			break;
		default:
			return cmd_bad_option("web", argv);
		}
	}
	if (optind < argc)
		return cmd_usage_error("web", "unexpected argument '%s'", argv[optind]);
	if (!out)
		out = dflt = xasprintf("%s/web", ctx->home);
	dir = site_dir(out);
	if (dir && !lstat(dir, &sb) && S_ISLNK(sb.st_mode)) {
		/* a link to the site: the site it names is replaced, the link kept */
		char *real = realpath(dir, NULL);

		if (!real) {
			status = cmd_fail(KMIG_EXIT_ERROR, "cannot follow the link '%s': %s",
					  dir, strerror(errno));
			free(dir);
			free(dflt);
			return status;
		}
		free(dir);
		dir = site_dir(real);
		free(real);
	}
	if (!dir) {
		free(dflt);
		return cmd_usage_error("web", "-o needs a directory that can be replaced, not '%s'", out);
	}
	tmp = xasprintf("%s.tmp-%ld", dir, (long)getpid());

	/* a DIR that cannot be replaced fails before the site is written */
	if (web_replace_check(dir, &exists) ||
	    store_open_readonly(&st, ctx->db_path)) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_free;
	}
	if (make_parent(dir, &made) || rm_rf(tmp)) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_unmake_parent;
	}
	if (mkdir(tmp, 0777) < 0) {
		cmd_fail(KMIG_EXIT_ERROR, "cannot create directory '%s': %s", tmp, strerror(errno));
		goto out_unmake_parent;
	}
	o.page_written = show_progress;
	o.data = progress_start("web: pages written", 0);
	ret = web_generate(st, tmp, &o);
	progress_stop(o.data);
	if (ret) {
		cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_remove_tmp;
	}
	/* the result line first: a stdout that fails leaves the old site */
	printf("%s/index.html\n", dir);
	status = finish_stdout(KMIG_EXIT_OK);
	if (status)
		goto out_remove_tmp;
	if (web_replace(tmp, dir, &left)) {
		status = cmd_fail_last(KMIG_EXIT_ERROR);
		goto out_remove_tmp;
	}
	if (left) {
		cmd_warn("the old site is left in '%s': %s", left, kmig_errmsg());
		free(left);
	}
	drop_stale(dir);
	goto out_close;
out_remove_tmp:
	rm_rf(tmp);
out_unmake_parent:
	unmake_parent(dir, made);
out_close:
	store_close(st);
out_free:
	free(made);
	free(tmp);
	free(dir);
	free(dflt);
	return status;
}

const struct kmig_cmd cmd_web = {
	.name = "web",
	.fn = cmd_web_fn,
	.summary = "write the static HTML dashboard",
	.usage = usage,
};
