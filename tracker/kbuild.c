// SPDX-License-Identifier: GPL-2.0
/*
 * kbuild.c - kmig's worktree and kernel build; see kbuild.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "child.h"
#include "kbuild.h"
#include "repo.h"

/* Bump when the configuration recipe changes in a way the hash misses. */
#define KBUILD_RECIPE "kmig-config-1 tinyconfig+merge_config+olddefconfig\n"

struct kbuild {
	git_repository *repo;
	char *dir;		/* $KMIG_HOME/work/<id> */
	char *src;
	char *out;
	char *images;
	char *logs;
	char *state_path;
	char *ccache_dir;
	int lock_fd;
	char state_commit[41];	/* "" when src/ is unknown */
	char state_config[41];	/* recipe hash of build/.config, or "" */
};

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
	va_list ap;

	if (!isatty(2) && !getenv("KMIG_PROGRESS"))
		return;
	va_start(ap, fmt);
	fputs("kmig: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

const char *kbuild_data_dir(void)
{
	static char *dir;
	char exe[PATH_MAX], *slash;
	const char *env = getenv("KMIG_QEMU_DIR");
	ssize_t n;
	struct stat st;

	if (dir)
		return dir;
	if (env && *env) {
		dir = xstrdup(env);
		return dir;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			dir = xasprintf("%s/qemu", exe);
			if (!stat(dir, &st) && S_ISDIR(st.st_mode))
				return dir;
			free(dir);
			/* build/tests/test-* and build-asan/tests/test-*. */
			dir = xasprintf("%s/../../qemu", exe);
			if (!stat(dir, &st) && S_ISDIR(st.st_mode))
				return dir;
			free(dir);
			dir = NULL;
		}
	}
	kmig_err("cannot find kmig's qemu/ directory (set KMIG_QEMU_DIR)");
	return NULL;
}

/* hash_hex - SHA-1 of @len bytes, as git would name a blob of them. */
static void hash_hex(char out[41], const void *data, size_t len)
{
	git_oid oid;

	git_odb_hash(&oid, data, len, GIT_OBJECT_BLOB);
	git_oid_tostr(out, 41, &oid);
}

static int read_state(struct kbuild *kb)
{
	struct sbuf sb = SBUF_INIT;
	char *line, *save = NULL;

	kb->state_commit[0] = kb->state_config[0] = '\0';
	if (access(kb->state_path, F_OK))
		return 0;
	if (sbuf_read_file(&sb, kb->state_path))
		return -1;
	for (line = strtok_r(sb.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "commit ", 7) && strlen(line + 7) == 40)
			memcpy(kb->state_commit, line + 7, 41);
		else if (!strncmp(line, "config ", 7) && strlen(line + 7) == 40)
			memcpy(kb->state_config, line + 7, 41);
	}
	sbuf_release(&sb);
	return 0;
}

static int write_state(struct kbuild *kb)
{
	char *tmp = xasprintf("%s.tmp", kb->state_path);
	FILE *f = fopen(tmp, "w");
	int ret = 0;

	if (!f) {
		ret = kmig_err("cannot write '%s': %s", tmp, strerror(errno));
		goto out_free;
	}
	if (kb->state_commit[0])
		fprintf(f, "commit %s\n", kb->state_commit);
	if (kb->state_config[0])
		fprintf(f, "config %s\n", kb->state_config);
	if (fclose(f) || rename(tmp, kb->state_path))
		ret = kmig_err("cannot write '%s': %s", kb->state_path,
			       strerror(errno));
out_free:
	free(tmp);
	return ret;
}

static int take_lock(struct kbuild *kb)
{
	char *path = xasprintf("%s/lock", kb->dir);
	int ret = 0;

	kb->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (kb->lock_fd < 0) {
		ret = kmig_err("cannot open '%s': %s", path, strerror(errno));
		goto out_free;
	}
	if (flock(kb->lock_fd, LOCK_EX | LOCK_NB)) {
		fprintf(stderr, "kmig: waiting for another kmig using '%s'\n",
			kb->dir);
		if (flock(kb->lock_fd, LOCK_EX))
			ret = kmig_err("cannot lock '%s': %s", path,
				       strerror(errno));
	}
out_free:
	free(path);
	return ret;
}

int kbuild_open(struct kbuild **out, const char *home, const char *repo_path)
{
	struct kbuild *kb = xcalloc(1, sizeof(*kb));
	char real[PATH_MAX], id[41];
	const char *cc_env = getenv("CCACHE_DIR");

	*out = NULL;
	kb->lock_fd = -1;
	if (!realpath(repo_path, real)) {
		kmig_err("cannot open repository '%s': %s", repo_path,
			 strerror(errno));
		goto out_free;
	}
	if (repo_open(&kb->repo, real))
		goto out_free;
	hash_hex(id, real, strlen(real));
	id[16] = '\0';
	kb->dir = xasprintf("%s/work/%s", home, id);
	kb->src = xasprintf("%s/src", kb->dir);
	kb->out = xasprintf("%s/build", kb->dir);
	kb->images = xasprintf("%s/images", kb->dir);
	kb->logs = xasprintf("%s/logs", kb->dir);
	kb->state_path = xasprintf("%s/state", kb->dir);
	kb->ccache_dir = cc_env && *cc_env ? xstrdup(cc_env) :
		xasprintf("%s/ccache", home);
	if (mkdir_p(kb->out) || mkdir_p(kb->images) || mkdir_p(kb->logs))
		goto out_close;
	if (take_lock(kb) || read_state(kb))
		goto out_close;
	*out = kb;
	return 0;
out_close:
	kbuild_close(kb);
	return -1;
out_free:
	free(kb);
	return -1;
}

void kbuild_close(struct kbuild *kb)
{
	if (!kb)
		return;
	if (kb->lock_fd >= 0)
		close(kb->lock_fd);
	git_repository_free(kb->repo);
	free(kb->dir);
	free(kb->src);
	free(kb->out);
	free(kb->images);
	free(kb->logs);
	free(kb->state_path);
	free(kb->ccache_dir);
	free(kb);
}

const char *kbuild_dir(const struct kbuild *kb)
{
	return kb->dir;
}

const char *kbuild_src_dir(const struct kbuild *kb)
{
	return kb->src;
}

int kbuild_resolve(struct kbuild *kb, const char *rev, char out[41],
		   char **subject)
{
	git_commit *c;

	if (repo_resolve_commit(&c, kb->repo, rev))
		return -1;
	git_oid_tostr(out, 41, git_commit_id(c));
	if (subject) {
		const char *s = git_commit_summary(c);

		*subject = xstrdup(s ? s : "");
	}
	git_commit_free(c);
	return 0;
}

/* ---- writing the worktree ---- */

static int write_blob(struct kbuild *kb, const char *path,
		      const git_oid *oid, git_filemode_t mode)
{
	char *full = xasprintf("%s/%s", kb->src, path);
	git_blob *blob = NULL;
	const void *data;
	size_t len;
	int fd, ret = 0;

	if (mode == GIT_FILEMODE_COMMIT)	/* submodule: nothing to write */
		goto out_free;
	if (git_blob_lookup(&blob, kb->repo, oid)) {
		ret = kmig_err_git(path);
		goto out_free;
	}
	data = git_blob_rawcontent(blob);
	len = (size_t)git_blob_rawsize(blob);
	if (unlink(full) && errno != ENOENT) {
		ret = kmig_err("cannot remove '%s': %s", full, strerror(errno));
		goto out_blob;
	}
	if (mode == GIT_FILEMODE_LINK) {
		char *target = xstrndup(data, len);

		if (symlink(target, full))
			ret = kmig_err("cannot create '%s': %s", full,
				       strerror(errno));
		free(target);
		goto out_blob;
	}
	fd = open(full, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		  mode == GIT_FILEMODE_BLOB_EXECUTABLE ? 0755 : 0644);
	if (fd < 0 && errno == ENOENT) {
		char *dir = xstrdup(full);

		*strrchr(dir, '/') = '\0';
		if (!mkdir_p(dir))
			fd = open(full, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
				  mode == GIT_FILEMODE_BLOB_EXECUTABLE ?
				  0755 : 0644);
		free(dir);
	}
	if (fd < 0) {
		ret = kmig_err("cannot create '%s': %s", full, strerror(errno));
		goto out_blob;
	}
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = kmig_err("cannot write '%s': %s", full,
				       strerror(errno));
			break;
		}
		data = (const char *)data + n;
		len -= (size_t)n;
	}
	if (close(fd) && !ret)
		ret = kmig_err("cannot write '%s': %s", full, strerror(errno));
out_blob:
	git_blob_free(blob);
out_free:
	free(full);
	return ret;
}

/* Remove @path and then its parent directories while they are empty. */
static int remove_path(struct kbuild *kb, const char *path)
{
	char *full = xasprintf("%s/%s", kb->src, path);
	size_t top = strlen(kb->src);
	char *slash;
	int ret = 0;

	if (unlink(full) && errno != ENOENT)
		ret = kmig_err("cannot remove '%s': %s", full, strerror(errno));
	while ((slash = strrchr(full, '/')) && (size_t)(slash - full) > top) {
		*slash = '\0';
		if (rmdir(full))
			break;
	}
	free(full);
	return ret;
}

struct walk_ctx {
	struct kbuild *kb;
	int ret;
	size_t files;
};

static int walk_cb(const char *root, const git_tree_entry *e, void *payload)
{
	struct walk_ctx *w = payload;
	char *path;

	if (git_tree_entry_type(e) == GIT_OBJECT_TREE) {
		path = xasprintf("%s/%s%s", w->kb->src, root,
				 git_tree_entry_name(e));
		if (mkdir(path, 0755) && errno != EEXIST)
			w->ret = kmig_err("cannot create '%s': %s", path,
					  strerror(errno));
		free(path);
		return w->ret ? -1 : 0;
	}
	path = xasprintf("%s%s", root, git_tree_entry_name(e));
	w->ret = write_blob(w->kb, path, git_tree_entry_id(e),
			    git_tree_entry_filemode(e));
	free(path);
	w->files++;
	return w->ret ? -1 : 0;
}

static int full_checkout(struct kbuild *kb, git_tree *tree)
{
	struct walk_ctx w = { kb, 0, 0 };
	double start = mono_now();

	note("writing the worktree '%s'", kb->src);
	if (rm_rf(kb->src) || mkdir_p(kb->src))
		return -1;
	if (git_tree_walk(tree, GIT_TREEWALK_PRE, walk_cb, &w) && !w.ret)
		w.ret = kmig_err_git("cannot walk the tree");
	if (!w.ret)
		note("wrote %zu files in %.1fs", w.files, mono_now() - start);
	return w.ret;
}

static bool is_config_path(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return !strncmp(base, "Kconfig", 7) ||
	       !strncmp(path, "kernel/configs/", 15) ||
	       !strncmp(path, "arch/x86/configs/", 17) ||
	       !strncmp(path, "scripts/kconfig/", 16);
}

/*
 * Apply the old→new tree diff to src/: deletions first (a directory may
 * become a file), then additions and modifications.  Sets *@kconfig when
 * a file that can change the configuration differs.
 */
static int incremental_checkout(struct kbuild *kb, git_tree *old,
				git_tree *new, bool *kconfig)
{
	git_diff_options opts;
	git_diff *diff = NULL;
	size_t i, n, changed = 0;
	int pass, ret = 0;

	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	if (git_diff_tree_to_tree(&diff, kb->repo, old, new, &opts))
		return kmig_err_git("cannot diff the trees");
	n = git_diff_num_deltas(diff);
	for (pass = 0; pass < 2 && !ret; pass++) {
		for (i = 0; i < n && !ret; i++) {
			const git_diff_delta *d = git_diff_get_delta(diff, i);

			if (is_config_path(d->old_file.path) ||
			    is_config_path(d->new_file.path))
				*kconfig = true;
			if (pass == 0 && (d->status == GIT_DELTA_DELETED ||
					  d->status == GIT_DELTA_TYPECHANGE))
				ret = remove_path(kb, d->old_file.path);
			if (pass == 1 && d->status != GIT_DELTA_DELETED) {
				ret = write_blob(kb, d->new_file.path,
						 &d->new_file.id,
						 d->new_file.mode);
				changed++;
			}
		}
	}
	git_diff_free(diff);
	if (!ret)
		note("worktree moved: %zu files written, %zu deltas", changed, n);
	return ret;
}

static int tree_of(git_tree **out, struct kbuild *kb, const char *hex)
{
	git_oid oid;
	git_commit *c;
	int ret;

	if (git_oid_fromstr(&oid, hex) || git_commit_lookup(&c, kb->repo, &oid))
		return kmig_err_git(hex);
	ret = git_commit_tree(out, c);
	git_commit_free(c);
	return ret ? kmig_err_git(hex) : 0;
}

/* Move src/ to @commit; *@kconfig: the configuration may have changed. */
static int checkout(struct kbuild *kb, const char *commit, bool *kconfig)
{
	git_tree *old = NULL, *new = NULL;
	struct stat st;
	int ret;

	*kconfig = false;
	if (!strcmp(kb->state_commit, commit) && !stat(kb->src, &st))
		return 0;
	if (tree_of(&new, kb, commit))
		return -1;
	if (kb->state_commit[0] && !stat(kb->src, &st) &&
	    !tree_of(&old, kb, kb->state_commit)) {
		/* Forget the state first: an interrupted move is redone in full. */
		kb->state_commit[0] = '\0';
		ret = write_state(kb);
		if (!ret)
			ret = incremental_checkout(kb, old, new, kconfig);
	} else {
		kb->state_commit[0] = '\0';
		ret = write_state(kb);
		if (!ret)
			ret = full_checkout(kb, new);
		*kconfig = true;
	}
	if (!ret) {
		memcpy(kb->state_commit, commit, 41);
		ret = write_state(kb);
	}
	git_tree_free(old);
	git_tree_free(new);
	return ret;
}

int kbuild_checkout(struct kbuild *kb, const char *commit)
{
	bool kconfig;

	if (checkout(kb, commit, &kconfig))
		return -1;
	if (kconfig) {
		/* build/.config is stale now for kbuild_commit(). */
		kb->state_config[0] = '\0';
		return write_state(kb);
	}
	return 0;
}

/* ---- configure and make ---- */

struct make_env {
	char *cc;		/* "CC=..." */
	char *jobs;		/* "-jN" */
	char *outdir;		/* "O=..." */
	char *envv[4];
};

static bool have_ccache(void)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;
	bool found = false;

	if (getenv("KMIG_NO_CCACHE"))
		return false;
	copy = xstrdup(path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(copy, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/ccache", dir);

		found = !access(p, X_OK);
		free(p);
	}
	free(copy);
	return found;
}

static void make_env_init(struct make_env *me, struct kbuild *kb)
{
	me->cc = xstrdup(have_ccache() ? "CC=ccache gcc" : "CC=gcc");
	me->jobs = xasprintf("-j%d", ncpus());
	me->outdir = xasprintf("O=%s", kb->out);
	me->envv[0] = xasprintf("CCACHE_DIR=%s", kb->ccache_dir);
	me->envv[1] = xstrdup("KBUILD_BUILD_USER=kmig");
	me->envv[2] = xstrdup("KBUILD_BUILD_HOST=kmig");
	/*
	 * No CCACHE_BASEDIR: ccache would make the compiler's paths
	 * relative ("../src/net/..."), defeating the kernel's
	 * -fmacro-prefix-map, and WARNING lines would not name the file as
	 * the tree does ("net/rds/rdma.c:564").
	 */
	me->envv[3] = NULL;
}

static void make_env_release(struct make_env *me)
{
	size_t i;

	free(me->cc);
	free(me->jobs);
	free(me->outdir);
	for (i = 0; me->envv[i]; i++)
		free(me->envv[i]);
}

/* Run a build step into the log; 0 ok, 1 the step failed, <0 error. */
static int step(struct kbuild *kb, struct make_env *me, const char *log,
		char *const argv[])
{
	struct child_opts o = {
		.argv = argv,
		.dir = kb->src,
		.out_path = log,
		.append = true,
		.env = me->envv,
		.kill_signal = SIGTERM,
	};
	struct child_status st;

	if (child_run(&o, &st))
		return -1;
	if (st.code == 127)
		return kmig_err("cannot run '%s'", argv[0]);
	return st.code ? 1 : 0;
}

/* Every "CONFIG_X=v" / "# CONFIG_X is not set" of @frag must hold. */
static int check_fragment(const char *frag, const char *config, char **missing)
{
	struct sbuf fs = SBUF_INIT, cs = SBUF_INIT, out = SBUF_INIT;
	char *line, *save = NULL;
	int ret = 0;

	*missing = NULL;
	if (sbuf_read_file(&fs, frag) || sbuf_read_file(&cs, config)) {
		ret = -1;
		goto out_release;
	}
	for (line = strtok_r(fs.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[128], *want;
		bool ok;

		if (!strncmp(line, "CONFIG_", 7)) {
			want = xasprintf("\n%s\n", line);
			ok = strstr(cs.buf, want) != NULL;
			free(want);
		} else if (sscanf(line, "# %127s is not set", name) == 1 &&
			   !strncmp(name, "CONFIG_", 7)) {
			want = xasprintf("\n%s=", name);
			ok = strstr(cs.buf, want) == NULL;
			free(want);
		} else {
			continue;
		}
		if (!ok) {
			char *eq = strchr(line, '=');
			if (line[0] == '#')
				sbuf_addf(&out, "%s%s=n", out.len ? " " : "",
					  name);
			else
				sbuf_addf(&out, "%s%.*s", out.len ? " " : "",
					  (int)(eq ? eq - line : (long)strlen(line)),
					  line);
		}
	}
	if (out.len)
		*missing = sbuf_detach(&out);
out_release:
	sbuf_release(&fs);
	sbuf_release(&cs);
	sbuf_release(&out);
	return ret;
}

static char *first_error(const char *log)
{
	struct sbuf sb = SBUF_INIT;
	char *line, *save = NULL, *found = NULL;

	if (sbuf_read_file(&sb, log))
		return NULL;
	for (line = strtok_r(sb.buf, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strstr(line, "error:") || strstr(line, "Error:"))
			found = xstrdup(line);
	}
	if (!found) {
		save = NULL;
		sbuf_reset(&sb);
		if (!sbuf_read_file(&sb, log))
			for (line = strtok_r(sb.buf, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save))
				if (strstr(line, "***") || strstr(line, "Error ")) {
					found = xstrdup(line);
					break;
				}
	}
	sbuf_release(&sb);
	return found;
}

static int write_all_str(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(s, f) == EOF || fclose(f))
		return kmig_err("cannot write '%s': %s", path, strerror(errno));
	return 0;
}

static int recipe_hash(char out[41], const char *frag)
{
	struct sbuf sb = SBUF_INIT;

	sbuf_addstr(&sb, KBUILD_RECIPE);
	if (sbuf_read_file(&sb, frag)) {
		sbuf_release(&sb);
		return -1;
	}
	hash_hex(out, sb.buf, sb.len);
	sbuf_release(&sb);
	return 0;
}

static int copy_file(const char *from, const char *to)
{
	struct sbuf sb = SBUF_INIT;
	char *tmp = xasprintf("%s.tmp", to);
	FILE *f;
	int ret = 0;

	if (sbuf_read_file(&sb, from)) {
		ret = -1;
		goto out_free;
	}
	f = fopen(tmp, "wb");
	if (!f || fwrite(sb.buf, 1, sb.len, f) != sb.len ||
	    fclose(f) || rename(tmp, to))
		ret = kmig_err("cannot write '%s': %s", to, strerror(errno));
out_free:
	sbuf_release(&sb);
	free(tmp);
	return ret;
}

static int configure(struct kbuild *kb, struct make_env *me, const char *log,
		     const char *frag, struct kbuild_result *res)
{
	char *config = xasprintf("%s/.config", kb->out);
	char *tiny[] = { "make", me->outdir, me->cc, "tinyconfig", NULL };
	char *merge[] = { "sh", "scripts/kconfig/merge_config.sh", "-m",
			  "-O", kb->out, config, (char *)frag, NULL };
	char *old[] = { "make", me->outdir, me->cc, "olddefconfig", NULL };
	int ret;

	note("configuring: tinyconfig + %s", frag);
	kb->state_config[0] = '\0';
	ret = write_state(kb);
	if (!ret)
		ret = step(kb, me, log, tiny);
	if (!ret)
		ret = step(kb, me, log, merge);
	if (!ret)
		ret = step(kb, me, log, old);
	if (!ret)
		ret = check_fragment(frag, config, &res->missing);
	if (!ret) {
		memcpy(kb->state_config, res->config_hash, 41);
		ret = write_state(kb);
	}
	free(config);
	return ret;
}

int kbuild_commit(struct kbuild *kb, const char *rev, unsigned int flags,
		  struct kbuild_result *res)
{
	struct make_env me;
	const char *data = kbuild_data_dir();
	char *frag = NULL, *built = NULL;
	char *make[] = { "make", NULL, NULL, NULL, "bzImage", NULL };
	double start = mono_now();
	bool kconfig = false;
	struct stat st;
	int ret;

	memset(res, 0, sizeof(*res));
	if (!data)
		return -1;
	if (kbuild_resolve(kb, rev, res->commit, &res->subject))
		return -1;
	frag = xasprintf("%s/kmig.config", data);
	if (recipe_hash(res->config_hash, frag)) {
		ret = -1;
		goto out_free;
	}
	res->image = xasprintf("%s/%s-%.12s.bzImage", kb->images, res->commit,
			       res->config_hash);
	if (!(flags & KBUILD_REBUILD) && !stat(res->image, &st)) {
		res->status = KBUILD_OK;
		res->cached = true;
		note("reusing the image of %.12s %s", res->commit, res->subject);
		ret = 0;
		goto out_free;
	}

	make_env_init(&me, kb);
	res->log_path = xasprintf("%s/build-%.12s.log", kb->logs, res->commit);
	unlink(res->log_path);
	note("building %.12s %s (log: %s)", res->commit, res->subject,
	     res->log_path);
	ret = checkout(kb, res->commit, &kconfig);
	if (ret)
		goto out_env;
	built = xasprintf("%s/.config", kb->out);
	if (kconfig || strcmp(kb->state_config, res->config_hash) ||
	    access(built, F_OK)) {
		ret = configure(kb, &me, res->log_path, frag, res);
		if (ret < 0)
			goto out_env;
	}
	if (!ret) {
		make[1] = me.outdir;
		make[2] = me.cc;
		make[3] = me.jobs;
		ret = step(kb, &me, res->log_path, make);
	}
	if (ret < 0)
		goto out_env;
	free(built);
	built = xasprintf("%s/arch/x86/boot/bzImage", kb->out);
	if (ret == 0 && copy_file(built, res->image) == 0) {
		res->status = KBUILD_OK;
	} else if (ret == 0) {
		ret = -1;
		goto out_env;
	} else {
		res->status = KBUILD_FAILED;
		res->error = first_error(res->log_path);
		ret = 0;
	}
	res->seconds = mono_now() - start;
	note("build %s in %.1fs", res->status == KBUILD_OK ? "ok" : "failed",
	     res->seconds);
out_env:
	make_env_release(&me);
out_free:
	if (res->status != KBUILD_OK || ret) {
		free(res->image);
		res->image = NULL;
	}
	free(built);
	free(frag);
	return ret;
}

/*
 * @file failed at res->commit: compile it at the first parent.  If it
 * fails there too, it is inherited (0, added to @inherited); if it
 * compiles, the step broke it (1).  src/ is back at res->commit either way.
 */
static int compile_at_parent(struct kbuild *kb, struct make_env *me,
			     struct kbuild_result *res, char **one,
			     const char *file, struct sbuf *inherited)
{
	char *rev = xasprintf("%s^", res->commit), parent[41];
	bool kconfig;
	int ret, back;

	ret = kbuild_resolve(kb, rev, parent, NULL);
	free(rev);
	if (ret)
		return 1;	/* a root commit: the step's failure */
	note("%s failed: compiling it at the parent %.12s", file, parent);
	ret = checkout(kb, parent, &kconfig);
	if (!ret)
		ret = step(kb, me, res->log_path, one);
	back = checkout(kb, res->commit, &kconfig);
	if (ret < 0 || back)
		return -1;
	if (ret == 0)
		return 1;	/* compiles at the parent: the step broke it */
	sbuf_addf(inherited, "%s%s", inherited->len ? " " : "", file);
	return 0;
}

int kbuild_compile_check(struct kbuild *kb, const char *base, const char *rev,
			 const char *const *files, size_t nfiles,
			 struct kbuild_result *res)
{
	struct make_env me;
	char base_id[41], *wide, *stamp, *outdir;
	char *all[] = { "make", NULL, NULL, "allmodconfig", NULL };
	char *one[] = { "make", NULL, NULL, NULL, "W=1", NULL, NULL };
	struct sbuf inherited = SBUF_INIT;
	double start = mono_now();
	bool kconfig;
	size_t i;
	int ret = 0;

	memset(res, 0, sizeof(*res));
	if (kbuild_resolve(kb, base, base_id, NULL) ||
	    kbuild_resolve(kb, rev, res->commit, &res->subject))
		return -1;
	wide = xasprintf("%s/wide-%.12s", kb->dir, base_id);
	stamp = xasprintf("%s/.kmig-configured", wide);
	outdir = xasprintf("O=%s", wide);
	make_env_init(&me, kb);
	res->log_path = xasprintf("%s/check-%.12s.log", kb->logs, res->commit);
	unlink(res->log_path);
	all[1] = one[1] = outdir;
	all[2] = one[2] = me.cc;
	one[3] = me.jobs;

	if (access(stamp, F_OK)) {
		note("preparing allmodconfig for %.12s in '%s'", base_id, wide);
		ret = checkout(kb, base_id, &kconfig);
		if (!ret)
			ret = mkdir_p(wide);
		if (!ret)
			ret = step(kb, &me, res->log_path, all);
		if (ret < 0)
			goto out_free;
		if (ret == 0 && write_all_str(stamp, base_id))
			ret = -1;
		if (ret)
			goto out_failed;
	}
	ret = checkout(kb, res->commit, &kconfig);
	if (ret)
		goto out_free;
	if (kconfig) {
		kb->state_config[0] = '\0';
		if (write_state(kb)) {
			ret = -1;
			goto out_free;
		}
	}
	for (i = 0; i < nfiles && !ret; i++) {
		size_t len = strlen(files[i]);
		char *obj;

		if (len < 3 || strcmp(files[i] + len - 2, ".c"))
			continue;
		obj = xasprintf("%.*s.o", (int)(len - 2), files[i]);
		one[5] = obj;
		note("compile-checking %s", files[i]);
		ret = step(kb, &me, res->log_path, one);
		if (ret == 1)
			ret = compile_at_parent(kb, &me, res, one, files[i],
						&inherited);
		else if (ret == 0)
			res->compiled++;
		free(obj);
	}
	if (ret < 0)
		goto out_free;
	if (inherited.len)
		res->inherited = sbuf_detach(&inherited);
out_failed:
	res->status = ret ? KBUILD_FAILED : KBUILD_OK;
	if (ret)
		res->error = first_error(res->log_path);
	res->seconds = mono_now() - start;
	ret = 0;
out_free:
	sbuf_release(&inherited);
	make_env_release(&me);
	free(wide);
	free(stamp);
	free(outdir);
	return ret;
}

void kbuild_result_release(struct kbuild_result *res)
{
	free(res->subject);
	free(res->log_path);
	free(res->image);
	free(res->missing);
	free(res->error);
	free(res->inherited);
	memset(res, 0, sizeof(*res));
}
