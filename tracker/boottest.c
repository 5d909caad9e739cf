// SPDX-License-Identifier: GPL-2.0
/*
 * boottest.c - build, boot and record one commit; see boottest.h.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "boottest.h"

char *boottest_tests_str(const struct boottest_opts *o)
{
	const char *const *tests = o->tests ? o->tests : qemu_default_tests;
	size_t n = o->tests ? o->ntests : qemu_ndefault_tests, i;
	struct sbuf sb = SBUF_INIT;

	for (i = 0; i < n; i++)
		sbuf_addf(&sb, "%s%s", i ? "," : "", tests[i]);
	return sbuf_detach(&sb);
}

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

int boottest_run(struct kbuild *kb, struct store *st, const char *rev,
		 const struct boottest_opts *o, struct boottest_result *r)
{
	struct qemu_opts qo = QEMU_OPTS_INIT;
	struct qemu_verdict *v;
	char *tests = NULL;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = kbuild_commit(kb, rev, o->rebuild ? KBUILD_REBUILD : 0,
			    &r->build);
	if (ret)
		return ret;
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
	qo.kernel = r->build.image;
	qo.tests = o->tests;
	qo.ntests = o->ntests;
	qo.timeout = o->timeout;
	qo.accel = o->accel;
	qo.console_path = r->console_path;
	ret = qemu_boot(&qo, &r->boot);
	if (ret)
		goto out_console;
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
out_console:
	unlink(r->console_path);
	free(r->console_path);
	r->console_path = NULL;
	return ret;
}

void boottest_result_release(struct boottest_result *r)
{
	kbuild_result_release(&r->build);
	qemu_result_release(&r->boot);
	free(r->console_path);
	memset(r, 0, sizeof(*r));
}

const char *boottest_first_finding(const struct boottest_result *r)
{
	static char line[1024];
	const char *f;
	size_t n;

	if (r->outcome == BOOTTEST_BUILD_FAILED)
		f = r->build.error ? r->build.error : "the kernel did not build";
	else
		f = r->boot.verdict.findings ? r->boot.verdict.findings : "";
	n = strcspn(f, "\n");
	if (n >= sizeof(line))
		n = sizeof(line) - 1;
	memcpy(line, f, n);
	line[n] = '\0';
	return line;
}
