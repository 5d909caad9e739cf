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

int boottest_record_build(struct store *st, struct boottest_result *r)
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

const char *boottest_outcome_name(enum boottest_outcome o)
{
	switch (o) {
	case BOOTTEST_PASS:
		return "pass";
	case BOOTTEST_FAIL:
		break;
	case BOOTTEST_TIMEOUT:
		return "timeout";
	case BOOTTEST_BUILD_FAILED:
		return "build-failed";
	case BOOTTEST_FLAKY:
		return "flaky";
	}
	return "fail";
}

/*
 * Boot the built image once in QEMU here with the tests of @o, console to
 * r->console_path: the boottest_boot_fn of boottest_run() (qemu.h).
 */
int boottest_boot_qemu(void *data, struct kbuild *kb,
		       const struct boottest_opts *o,
		       struct boottest_result *r)
{
	struct qemu_opts qo = QEMU_OPTS_INIT;

	(void)data;
	(void)kb;
	qo.kernel = r->build.image;
	qo.tests = o->tests;
	qo.ntests = o->ntests;
	qo.timeout = o->timeout;
	qo.accel = o->accel;
	qo.console_path = r->console_path;
	return qemu_boot(&qo, &r->boot);
}

char *boottest_console_path(struct kbuild *kb, const char *commit)
{
	static unsigned int seq;

	return xasprintf("%s/logs/console-%.12s-%ld-%d-%u.log", kbuild_dir(kb),
			 commit, (long)time(NULL), (int)getpid(),
			 __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED));
}

int boottest_run(struct kbuild *kb, struct store *st, const char *rev,
		 const struct boottest_opts *o, struct boottest_result *r)
{
	return boottest_run_on(kb, st, rev, o, boottest_boot_qemu, NULL, r);
}

int boottest_run_on(struct kbuild *kb, struct store *st, const char *rev,
		    const struct boottest_opts *o, boottest_boot_fn *boot,
		    void *data, struct boottest_result *r)
{
	struct qemu_verdict *v;
	char *tests = NULL;
	bool failed_before = false;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = kbuild_commit(kb, rev, o->rebuild ? KBUILD_REBUILD : 0,
			    &r->build);
	if (ret)
		return ret;
	ret = boottest_record_build(st, r);
	if (ret)
		return ret;
	if (r->build.status != KBUILD_OK) {
		r->outcome = BOOTTEST_BUILD_FAILED;
		return 0;
	}

	tests = boottest_tests_str(o);
	for (;;) {
		struct store_boot sb;

		r->attempts++;
		r->console_path = boottest_console_path(kb, r->build.commit);
		ret = boot(data, kb, o, r);
		if (ret) {
			unlink(r->console_path);
			free(r->console_path);
			r->console_path = NULL;
			break;
		}
		v = &r->boot.verdict;
		r->outcome = v->status == QEMU_PASS ? BOOTTEST_PASS :
			     v->status == QEMU_TIMEOUT ? BOOTTEST_TIMEOUT :
			     BOOTTEST_FAIL;
		if (r->outcome == BOOTTEST_PASS && failed_before)
			r->outcome = BOOTTEST_FLAKY;
		if (r->outcome == BOOTTEST_PASS && !o->keep_log) {
			unlink(r->console_path);
			free(r->console_path);
			r->console_path = NULL;
		}
		sb = (struct store_boot){
			.status = r->outcome == BOOTTEST_FLAKY ? "flaky" :
				  qemu_status_name(v->status),
			.seconds = r->boot.seconds,
			.findings = v->findings,
			.console_path = r->console_path,
			.attempt = r->attempts,
			.results = v->tests,
		};
		ret = store_boot_add(st, r->build_id, tests, &sb, &r->boot_id);
		if (ret || r->outcome == BOOTTEST_PASS ||
		    r->outcome == BOOTTEST_FLAKY ||
		    r->attempts > (int)o->retries)
			break;
		/* Failed, a retry left: keep the first failure's evidence. */
		if (!failed_before) {
			r->flaky_finding = xstrdup(boottest_first_finding(r));
			r->flaky_console = r->console_path;
		} else {
			free(r->console_path);
		}
		r->console_path = NULL;
		failed_before = true;
		qemu_result_release(&r->boot);
	}
	if (r->outcome != BOOTTEST_FLAKY) {
		free(r->flaky_finding);
		free(r->flaky_console);
		r->flaky_finding = r->flaky_console = NULL;
	}
	free(tests);
	return ret;
}

void boottest_result_release(struct boottest_result *r)
{
	kbuild_result_release(&r->build);
	qemu_result_release(&r->boot);
	free(r->console_path);
	free(r->flaky_finding);
	free(r->flaky_console);
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

char *boottest_finding_class(const char *f)
{
	static const char *const kinds[] = {
		"WARNING", "BUG", "Oops", "Kernel panic",
		"general protection fault", "UBSAN", "KASAN", "Call Trace",
	};
	const char *at, *end;
	size_t i;

	if (!strncmp(f, "KMIG-TEST ", 10)) {
		/* "KMIG-TEST rds FAIL detail" / "KMIG-TEST rds: no result" */
		end = f + 10 + strcspn(f + 10, " :");
		return xasprintf("%.*s %s", (int)(end - f), f,
				 *end == ':' ? "no result" : "FAIL");
	}
	if (!strncmp(f, "timeout", 7))
		return xstrdup("timeout");
	if (!strncmp(f, "no KMIG-DONE", 12))
		return xstrdup("no marker");
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		const char *k = strstr(f, kinds[i]);

		if (!k)
			continue;
		/*
		 * The source file the splat names, without its line: "at
		 * net/rds/rdma.c:596 fn+0x.." (or "WARNING: net/rds/rdma.c:596
		 * at fn+0x..", the newer layout): a word "DIR/FILE:LINE".
		 */
		for (at = k; *at; at = end + (*end != '\0')) {
			const char *colon;

			at += strspn(at, " ");
			end = at + strcspn(at, " ,");
			colon = memchr(at, ':', (size_t)(end - at));
			if (colon && colon > at && colon[1] >= '0' &&
			    colon[1] <= '9' &&
			    memchr(at, '/', (size_t)(colon - at)))
				return xasprintf("%s in %.*s", kinds[i],
						 (int)(colon - at), at);
		}
		return xstrdup(kinds[i]);
	}
	return xstrdup(f);
}
