// SPDX-License-Identifier: GPL-2.0
/*
 * kbuild-check.c - the compile check of "kmig branch test": C files
 * compiled under allmodconfig, and at the parent when they fail; see kbuild.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "kbuild-internal.h"

static int write_all_str(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(s, f) == EOF || fclose(f))
		return kmig_err("cannot write '%s': %s", path, strerror(errno));
	return 0;
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
	kbuild_note(kb, "%s failed: compiling it at the parent %.12s", file,
		    parent);
	ret = kbuild_move(kb, parent, &kconfig);
	if (!ret)
		ret = kbuild_step(kb, me, res->log_path, one);
	back = kbuild_move(kb, res->commit, &kconfig);
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
	kbuild_make_env_init(&me, kb);
	res->log_path = xasprintf("%s/check-%.12s.log", kb->logs, res->commit);
	unlink(res->log_path);
	all[1] = one[1] = outdir;
	all[2] = one[2] = me.cc;
	one[3] = me.jobs;

	if (access(stamp, F_OK)) {
		kbuild_note(kb, "preparing allmodconfig for %.12s in '%s'",
			    base_id, wide);
		ret = kbuild_move(kb, base_id, &kconfig);
		if (!ret)
			ret = mkdir_p(wide);
		if (!ret)
			ret = kbuild_step(kb, &me, res->log_path, all);
		if (ret < 0)
			goto out_free;
		if (ret == 0 && write_all_str(stamp, base_id))
			ret = -1;
		if (ret)
			goto out_failed;
	}
	ret = kbuild_move(kb, res->commit, &kconfig);
	if (ret)
		goto out_free;
	if (kconfig) {
		kb->state_config[0] = '\0';
		if (kbuild_write_state(kb)) {
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
		kbuild_note(kb, "compile-checking %s", files[i]);
		ret = kbuild_step(kb, &me, res->log_path, one);
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
		res->error = kbuild_first_error(res->log_path);
	res->seconds = mono_now() - start;
	ret = 0;
out_free:
	sbuf_release(&inherited);
	kbuild_make_env_release(&me);
	free(wide);
	free(stamp);
	free(outdir);
	return ret;
}
