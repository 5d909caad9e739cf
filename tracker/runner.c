// SPDX-License-Identifier: GPL-2.0
/*
 * runner.c - the --runner options and one commit built, booted on the
 * runner and recorded; see runner.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runner.h"

int runner_set_option(struct runner *rn, int c, const char *arg)
{
	switch (c) {
	case RUNNER_OPT_RUNNER:
		if (!strcmp(arg, "kmig"))
			rn->kind = RUNNER_KMIG;
		else if (!strcmp(arg, "lava"))
			rn->kind = RUNNER_LAVA;
		else
			return kmig_errcode(KMIG_EUSAGE, "--runner is kmig or lava, not '%s'",
					    arg);
		return 0;
	case RUNNER_OPT_IDENTITY:
		if (!*arg)
			return kmig_errcode(KMIG_EUSAGE, "--lava-identity needs a name");
		rn->lava_identity = arg;
		return 0;
	case RUNNER_OPT_ARTIFACT_URL:
		if (!strstr(arg, "://"))
			return kmig_errcode(KMIG_EUSAGE, "--artifact-url needs a URL "
					    "(http://..., file://...), not '%s'", arg);
		rn->artifact_url = arg;
		return 0;
	case RUNNER_OPT_ARTIFACT_DIR:
		if (!*arg)
			return kmig_errcode(KMIG_EUSAGE, "--artifact-dir needs a directory");
		rn->artifact_dir = arg;
		return 0;
	}
	return kmig_errcode(KMIG_EUSAGE, "unknown runner option");
}

int runner_check(const struct runner *rn)
{
	if ((rn->artifact_url || rn->artifact_dir) && !rn->lava_identity)
		return kmig_errcode(KMIG_EUSAGE, "--artifact-url and --artifact-dir "
				    "go with --lava-identity");
	if (rn->lava_identity && rn->kind != RUNNER_LAVA)
		return kmig_errcode(KMIG_EUSAGE, "--lava-identity needs --runner lava");
	if (rn->lava_identity && (!rn->artifact_url || !rn->artifact_dir))
		return kmig_errcode(KMIG_EUSAGE, "--lava-identity needs --artifact-url "
				    "and --artifact-dir (where the lab fetches the "
				    "kernel and initramfs)");
	return 0;
}

const char *runner_name(const struct runner *rn)
{
	return rn->kind == RUNNER_LAVA ? "lava" : "kmig";
}

/* The build's row: a reused image reuses its row (as boottest.c). */
static int record_build(struct store *st, struct boottest_result *r)
{
	struct kbuild_result *b = &r->build;
	int ret;

	if (b->cached) {
		ret = store_build_find(st, b->commit, b->config_hash,
				       &r->build_id);
		if (ret != KMIG_ENOTFOUND)
			return ret;
	}
	return store_build_add(st, b->commit, b->config_hash,
			       b->status == KBUILD_OK ? "ok" : "failed",
			       b->seconds, b->log_path, &r->build_id);
}

/* Boot the built image of @r as a LAVA job and fill in r->boot. */
static int boot_lava(const struct runner *rn, struct kbuild *kb,
		     const struct boottest_opts *o, struct boottest_result *r)
{
	static unsigned seq;
	struct lava_job j = { 0 };
	char *dir = NULL, *id = NULL, *initrd = NULL, kernel[PATH_MAX];
	int ret;

	if (!realpath(r->build.image, kernel))
		return kmig_err("cannot read the kernel image '%s': %s",
				r->build.image, strerror(errno));
	/* Each job its own id and directory. */
	id = xasprintf("kmig-%.12s-%ld-%d-%u", r->build.commit, (long)time(NULL),
		       (int)getpid(), seq++);
	dir = xasprintf("%s/lava/%s", kbuild_dir(kb), id);
	ret = mkdir_p(dir);
	if (ret)
		goto out_free;
	initrd = xasprintf("%s/initrd.cpio.gz", dir);
	j.tests = o->tests ? o->tests : qemu_default_tests;
	j.ntests = o->tests ? o->ntests : qemu_ndefault_tests;
	ret = qemu_initramfs(kmig_home(), j.tests, j.ntests, initrd);
	if (ret)
		goto out_free;
	j.id = id;
	j.dir = dir;
	j.kernel = kernel;
	j.initramfs = initrd;
	j.timeout = o->timeout;
	j.commit = r->build.commit;
	j.config_hash = r->build.config_hash;
	ret = lava_run_job(rn, &j, r->console_path, &r->boot);
	unlink(initrd);
	/* The job's files stay for a boot that did not pass, and on error. */
	if (!ret && r->boot.verdict.status == QEMU_PASS && !o->keep_log)
		rm_rf(dir);
out_free:
	free(initrd);
	free(dir);
	free(id);
	return ret;
}

int runner_boottest_run(const struct runner *rn, struct kbuild *kb,
			struct store *st, const char *rev,
			const struct boottest_opts *o,
			struct boottest_result *r)
{
	struct qemu_verdict *v;
	char *tests;
	int ret;

	if (rn->kind == RUNNER_KMIG)
		return boottest_run(kb, st, rev, o, r);

	memset(r, 0, sizeof(*r));
	ret = kbuild_commit(kb, rev, o->rebuild ? KBUILD_REBUILD : 0,
			    &r->build);
	if (!ret)
		ret = record_build(st, r);
	if (ret)
		return ret;
	if (r->build.status != KBUILD_OK) {
		r->outcome = BOOTTEST_BUILD_FAILED;
		return 0;
	}
	r->console_path = xasprintf("%s/logs/console-%.12s-%ld-%d.log",
				    kbuild_dir(kb), r->build.commit,
				    (long)time(NULL), (int)getpid());
	ret = boot_lava(rn, kb, o, r);
	if (ret) {
		unlink(r->console_path);
		free(r->console_path);
		r->console_path = NULL;
		return ret;
	}
	v = &r->boot.verdict;
	r->outcome = v->status == QEMU_PASS ? BOOTTEST_PASS :
		     v->status == QEMU_TIMEOUT ? BOOTTEST_TIMEOUT :
		     BOOTTEST_FAIL;
	if (r->outcome == BOOTTEST_PASS && !o->keep_log) {
		unlink(r->console_path);
		free(r->console_path);
		r->console_path = NULL;
	}
	tests = boottest_tests_str(o);
	ret = store_boot_add(st, r->build_id, tests, qemu_status_name(v->status),
			     r->boot.seconds, v->findings, r->console_path,
			     &r->boot_id);
	free(tests);
	return ret;
}
