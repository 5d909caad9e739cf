// SPDX-License-Identifier: GPL-2.0
/*
 * kbuild-make.c - make's environment and steps, and kbuild_commit():
 * build one commit's bzImage; see kbuild.h.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "child.h"
#include "datadir.h"
#include "kbuild-internal.h"
#include "repo.h"

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

void kbuild_make_env_init(struct make_env *me, struct kbuild *kb)
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

void kbuild_make_env_release(struct make_env *me)
{
	size_t i;

	free(me->cc);
	free(me->jobs);
	free(me->outdir);
	for (i = 0; me->envv[i]; i++)
		free(me->envv[i]);
}

int kbuild_step(struct kbuild *kb, struct make_env *me, const char *log,
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

char *kbuild_first_error(const char *log)
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

static int copy_file(const char *from, const char *to)
{
	struct sbuf sb = SBUF_INIT;
	int ret;

	ret = sbuf_read_file(&sb, from);
	if (!ret)
		ret = write_file_replace(to, sb.buf, sb.len);
	sbuf_release(&sb);
	return ret;
}

/*
 * IMAGE.missing beside a built image: the fragment options its
 * configuration lacked (res->missing), so a boot that reuses the image
 * warns as the one that built it did.  No file: none lacked.
 */
static int missing_write(const char *path, const char *missing)
{
	if (!missing) {
		if (unlink(path) && errno != ENOENT)
			return kmig_err("cannot remove '%s': %s", path,
					strerror(errno));
		return 0;
	}
	return write_file(path, missing, strlen(missing));
}

static int missing_read(const char *path, char **missing)
{
	struct sbuf sb = SBUF_INIT;

	*missing = NULL;
	if (access(path, F_OK))
		return 0;
	if (sbuf_read_file(&sb, path))
		return -1;
	if (sb.len)
		*missing = sbuf_detach(&sb);
	sbuf_release(&sb);
	return 0;
}

int kbuild_commit(struct kbuild *kb, const char *rev, unsigned int flags,
		  struct kbuild_result *res)
{
	struct make_env me;
	const char *data = datadir_find(DATADIR_QEMU);
	char *frag = NULL, *built = NULL, *missing = NULL;
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
	if (kbuild_recipe_hash(res->config_hash, frag)) {
		ret = -1;
		goto out_free;
	}
	res->image = xasprintf("%s/%s-%.12s.bzImage", kb->images, res->commit,
			       res->config_hash);
	missing = xasprintf("%s.missing", res->image);
	if (!(flags & KBUILD_REBUILD) && !stat(res->image, &st)) {
		res->status = KBUILD_OK;
		res->cached = true;
		kbuild_note(kb, "reusing the image of %.12s %s", res->commit,
			    res->subject);
		ret = missing_read(missing, &res->missing);
		goto out_free;
	}

	kbuild_make_env_init(&me, kb);
	res->log_path = xasprintf("%s/build-%.12s.log", kb->logs, res->commit);
	unlink(res->log_path);
	kbuild_note(kb, "building %.12s %s (log: %s)", res->commit,
		    res->subject, res->log_path);
	ret = kbuild_move(kb, res->commit, &kconfig);
	if (ret)
		goto out_env;
	built = xasprintf("%s/.config", kb->out);
	if (kconfig || strcmp(kb->state_config, res->config_hash) ||
	    access(built, F_OK)) {
		ret = kbuild_configure(kb, &me, res->log_path, frag, res);
		if (ret < 0)
			goto out_env;
	} else {
		/* the .config of an earlier build: checked all the same */
		ret = kbuild_check_fragment(frag, built, &res->missing);
		if (ret < 0)
			goto out_env;
	}
	if (!ret) {
		make[1] = me.outdir;
		make[2] = me.cc;
		make[3] = me.jobs;
		ret = kbuild_step(kb, &me, res->log_path, make);
	}
	if (ret < 0)
		goto out_env;
	free(built);
	built = xasprintf("%s/arch/x86/boot/bzImage", kb->out);
	if (ret == 0 && copy_file(built, res->image) == 0 &&
	    missing_write(missing, res->missing) == 0) {
		res->status = KBUILD_OK;
	} else if (ret == 0) {
		ret = -1;
		goto out_env;
	} else {
		res->status = KBUILD_FAILED;
		res->error = kbuild_first_error(res->log_path);
		ret = 0;
	}
	res->seconds = mono_now() - start;
	kbuild_note(kb, "build %s in %.1fs",
		    res->status == KBUILD_OK ? "ok" : "failed", res->seconds);
out_env:
	kbuild_make_env_release(&me);
out_free:
	if (res->status != KBUILD_OK || ret) {
		free(res->image);
		res->image = NULL;
	}
	free(missing);
	free(built);
	free(frag);
	return ret;
}
