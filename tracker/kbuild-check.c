// SPDX-License-Identifier: GPL-2.0
/*
 * kbuild-check.c - the compile check of "kmig branch test": C files
 * compiled under x86_64 allmodconfig, then arm64 allmodconfig (Debian's
 * cross compiler) for those that do not compile there, and at the parent
 * when they fail; see kbuild.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "kbuild-internal.h"

/* The configurations of the compile check, tried in this order. */
static const struct wide_config {
	unsigned int flag;
	const char *name;	/* in notes and res->configs */
	const char *dir;	/* wide<dir>-<base> in the work area */
	const char *arch;	/* extra make arguments, or NULL */
	const char *cross;
	const char *cc;		/* the compiler */
} wide_configs[] = {
	{ KBUILD_CHECK_X86_64, "x86_64", "", NULL, NULL, "gcc" },
	{ KBUILD_CHECK_ARM64, "arm64", "-arm64", "ARCH=arm64",
	  "CROSS_COMPILE=aarch64-linux-gnu-", "aarch64-linux-gnu-gcc" },
};

/* make's command line for one configuration: make O= CC= [ARCH= CROSS_COMPILE=] ... */
struct wide_make {
	char *outdir, *cc, *stamp, *dir;
	char *argv[10];
	size_t fixed;		/* arguments before the target */
};

static void wide_make_init(struct wide_make *wm, struct kbuild *kb,
			   const struct wide_config *wc, const char *base_id,
			   const struct make_env *me)
{
	size_t n = 0;

	memset(wm, 0, sizeof(*wm));
	wm->dir = xasprintf("%s/wide%s-%.12s", kb->dir, wc->dir, base_id);
	wm->stamp = xasprintf("%s/.kmig-configured", wm->dir);
	wm->outdir = xasprintf("O=%s", wm->dir);
	wm->cc = xasprintf("CC=%s%s", strstr(me->cc, "ccache") ? "ccache " : "",
			   wc->cc);
	wm->argv[n++] = "make";
	wm->argv[n++] = wm->outdir;
	wm->argv[n++] = wm->cc;
	if (wc->arch) {
		wm->argv[n++] = (char *)wc->arch;
		wm->argv[n++] = (char *)wc->cross;
	}
	wm->argv[n++] = me->jobs;
	wm->fixed = n;
}

static void wide_make_release(struct wide_make *wm)
{
	free(wm->dir);
	free(wm->stamp);
	free(wm->outdir);
	free(wm->cc);
}

/* wide_run - make @target (and @extra, may be NULL) under @wm: 0, 1 failed, <0. */
static int wide_run(struct kbuild *kb, struct make_env *me, struct wide_make *wm,
		    const char *log, const char *extra, const char *target)
{
	size_t n = wm->fixed;

	if (extra)
		wm->argv[n++] = (char *)extra;
	wm->argv[n++] = (char *)target;
	wm->argv[n] = NULL;
	return kbuild_step(kb, me, log, wm->argv);
}

/*
 * wide_prepare - "make allmodconfig" of @wc in its own directory, once per
 * base (a stamp file remembers it).  src/ is left at @base_id when it had
 * to be configured.  0 ready, 1 the configuration failed, <0 error.
 */
static int wide_prepare(struct kbuild *kb, struct make_env *me,
			struct wide_make *wm, const struct wide_config *wc,
			const char *base_id, const char *log)
{
	bool kconfig;
	int ret;

	if (!access(wm->stamp, F_OK))
		return 0;
	kbuild_note(kb, "preparing %s allmodconfig for %.12s in '%s'", wc->name,
		    base_id, wm->dir);
	ret = kbuild_move(kb, base_id, &kconfig);
	if (!ret)
		ret = mkdir_p(wm->dir);
	if (!ret)
		ret = wide_run(kb, me, wm, log, NULL, "allmodconfig");
	if (ret == 0 && write_file(wm->stamp, base_id, strlen(base_id)))
		ret = -1;
	return ret;
}

/*
 * compile_one - make W=1 @obj under @wm at res->commit, and at its first
 * parent when it fails there: 0 compiled, 1 the step broke it (compiles
 * at the parent), 2 it fails at the parent too, <0 error.  src/ is back
 * at res->commit either way.
 */
static int compile_one(struct kbuild *kb, struct make_env *me,
		       struct wide_make *wm, const struct wide_config *wc,
		       struct kbuild_result *res, const char *file,
		       const char *obj)
{
	char *rev, parent[41];
	bool kconfig;
	int ret, back;

	kbuild_note(kb, "compile-checking %s (%s allmodconfig)", file, wc->name);
	ret = wide_run(kb, me, wm, res->log_path, "W=1", obj);
	if (ret <= 0)
		return ret;
	rev = xasprintf("%s^", res->commit);
	ret = kbuild_resolve(kb, rev, parent, NULL);
	free(rev);
	if (ret)
		return 1;	/* a root commit: the step's failure */
	kbuild_note(kb, "%s failed (%s): compiling it at the parent %.12s", file,
		    wc->name, parent);
	ret = kbuild_move(kb, parent, &kconfig);
	if (!ret)
		ret = wide_run(kb, me, wm, res->log_path, "W=1", obj);
	back = kbuild_move(kb, res->commit, &kconfig);
	if (ret < 0 || back)
		return -1;
	return ret == 0 ? 1 : 2;
}

int kbuild_compile_check(struct kbuild *kb, const char *base, const char *rev,
			 const char *const *files, size_t nfiles,
			 unsigned int configs, struct kbuild_result *res)
{
	struct wide_make wm[ARRAY_SIZE(wide_configs)];
	int ready[ARRAY_SIZE(wide_configs)] = { 0 };	/* 1 ready, -1 unusable */
	struct sbuf inherited = SBUF_INIT, used = SBUF_INIT;
	bool used_cfg[ARRAY_SIZE(wide_configs)] = { false };
	struct make_env me;
	char base_id[41];
	double start = mono_now();
	bool kconfig, failed = false;
	size_t i, k;
	int ret = 0;

	memset(res, 0, sizeof(*res));
	if (kbuild_resolve(kb, base, base_id, NULL) ||
	    kbuild_resolve(kb, rev, res->commit, &res->subject))
		return -1;
	kbuild_make_env_init(&me, kb);
	for (k = 0; k < ARRAY_SIZE(wide_configs); k++)
		wide_make_init(&wm[k], kb, &wide_configs[k], base_id, &me);
	res->log_path = xasprintf("%s/check-%.12s.log", kb->logs, res->commit);
	unlink(res->log_path);

	for (i = 0; i < nfiles && !failed; i++) {
		size_t len = strlen(files[i]);
		bool done = false;
		char *obj;

		if (len < 3 || strcmp(files[i] + len - 2, ".c"))
			continue;
		res->tried++;
		obj = xasprintf("%.*s.o", (int)(len - 2), files[i]);
		for (k = 0; k < ARRAY_SIZE(wide_configs) && !done; k++) {
			const struct wide_config *wc = &wide_configs[k];

			if (!(configs & wc->flag) || ready[k] < 0)
				continue;
			if (!ready[k]) {
				ret = wide_prepare(kb, &me, &wm[k], wc, base_id,
						   res->log_path);
				if (ret < 0)
					break;
				ready[k] = ret ? -1 : 1;
				if (ret)
					kbuild_note(kb, "%s allmodconfig cannot be made (see '%s'): not tried",
						    wc->name, res->log_path);
				ret = kbuild_move(kb, res->commit, &kconfig);
				if (!ret && kconfig) {
					kb->state_config[0] = '\0';
					ret = kbuild_write_state(kb);
				}
				if (ret)
					break;
				if (ready[k] < 0)
					continue;
			}
			ret = compile_one(kb, &me, &wm[k], wc, res, files[i], obj);
			if (ret < 0)
				break;
			if (ret == 0) {
				res->compiled++;
				used_cfg[k] = true;
				done = true;
			} else if (ret == 1) {
				failed = true;
				done = true;
			}
			ret = 0;	/* 2: try the next configuration */
		}
		if (!ret && !done)
			sbuf_addf(&inherited, "%s%s", inherited.len ? " " : "",
				  files[i]);
		free(obj);
		if (ret)
			break;
	}
	if (ret < 0)
		goto out_free;
	for (k = 0; k < ARRAY_SIZE(wide_configs); k++)
		if (used_cfg[k])
			sbuf_addf(&used, "%s%s", used.len ? " " : "",
				  wide_configs[k].name);
	if (used.len)
		res->configs = sbuf_detach(&used);
	if (inherited.len)
		res->inherited = sbuf_detach(&inherited);
	res->status = ret || failed ? KBUILD_FAILED : KBUILD_OK;
	if (res->status == KBUILD_FAILED)
		res->error = kbuild_first_error(res->log_path);
	res->seconds = mono_now() - start;
	ret = 0;
out_free:
	sbuf_release(&inherited);
	sbuf_release(&used);
	for (k = 0; k < ARRAY_SIZE(wide_configs); k++)
		wide_make_release(&wm[k]);
	kbuild_make_env_release(&me);
	return ret;
}
