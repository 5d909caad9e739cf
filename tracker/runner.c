// SPDX-License-Identifier: GPL-2.0
/*
 * runner.c - the --runner options and one commit built, booted on the
 * runner and recorded; see runner.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

/*
 * --artifact-dir @path: a directory this process can write, or the
 * nearest ancestor that exists is one (mkdir_p() makes the rest).
 */
static int artifact_dir_check(const char *path)
{
	char *p = xstrdup(path), *up;
	struct stat sb;
	int ret = 0;

	while (stat(p, &sb) && errno == ENOENT) {
		up = path_parent(p);
		if (!strcmp(up, p)) {
			free(up);
			break;
		}
		free(p);
		p = up;
	}
	if (stat(p, &sb))
		ret = kmig_errcode(KMIG_EUSAGE, "--artifact-dir: cannot use '%s': %s",
				   path, strerror(errno));
	else if (!S_ISDIR(sb.st_mode))
		ret = kmig_errcode(KMIG_EUSAGE, "--artifact-dir: '%s' is not a directory",
				   p);
	else if (access(p, W_OK | X_OK))
		ret = kmig_errcode(KMIG_EUSAGE, "--artifact-dir: cannot write in '%s': %s",
				   p, strerror(errno));
	free(p);
	return ret;
}

int runner_check_host(const struct runner *rn, const char *accel)
{
	bool here = rn->kind == RUNNER_KMIG || !rn->lava_identity;

	if (here && qemu_accel_check(accel ? accel : "tcg"))
		return KMIG_EUSAGE;
	if (rn->artifact_dir && artifact_dir_check(rn->artifact_dir))
		return KMIG_EUSAGE;
	return 0;
}

const char *runner_name(const struct runner *rn)
{
	return rn->kind == RUNNER_LAVA ? "lava" : "kmig";
}

/* A name no other boot of this work area has. */
static char *boot_id(const char *commit)
{
	static unsigned seq;

	return xasprintf("kmig-%.12s-%ld-%d-%u", commit, (long)time(NULL),
			 (int)getpid(), seq++);
}

/* Boot the built image of @r as a LAVA job and fill in r->boot. */
static int boot_lava(const struct runner *rn, struct kbuild *kb,
		     const struct boottest_opts *o, struct boottest_result *r)
{
	struct lava_job j = { 0 };
	char *dir = NULL, *id = NULL, *initrd = NULL, kernel[PATH_MAX];
	int ret;

	if (!realpath(r->build.image, kernel))
		return kmig_err("cannot read the kernel image '%s': %s",
				r->build.image, strerror(errno));
	/* Each job its own id and directory. */
	id = boot_id(r->build.commit);
	dir = xasprintf("%s/lava/%s", kbuild_dir(kb), id);
	ret = mkdir_p(dir);
	if (ret)
		goto out_free;
	initrd = xasprintf("%s/initrd.cpio.gz", dir);
	j.tests = o->tests ? o->tests : qemu_default_tests;
	j.ntests = o->tests ? o->ntests : qemu_ndefault_tests;
	ret = qemu_initramfs(kmig_home(), j.tests, j.ntests, NULL, initrd);
	if (ret)
		goto out_free;
	j.id = id;
	j.dir = dir;
	j.kernel = kernel;
	j.initramfs = initrd;
	j.timeout = o->timeout;
	j.accel = o->accel;
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

/* boot_lava() as the boottest_boot_fn of boottest_run_on(), @data the runner. */
static int boot_lava_fn(void *data, struct kbuild *kb,
			const struct boottest_opts *o, struct boottest_result *r)
{
	return boot_lava(data, kb, o, r);
}

/* Boot the built image of @r on @rn: r->boot, the console at
 * r->console_path (the initramfs of the kmig runner goes next to it). */
static int boot_one(const struct runner *rn, struct kbuild *kb,
		    const struct boottest_opts *o, struct boottest_result *r)
{
	if (rn->kind == RUNNER_LAVA)
		return boot_lava(rn, kb, o, r);
	return boottest_boot_qemu(NULL, kb, o, r);
}

/* Build @rev and record the build (r->outcome BUILD_FAILED if it failed). */
static int build_one(struct kbuild *kb, struct store *st, const char *rev,
		     const struct boottest_opts *o, struct boottest_result *r)
{
	int ret;

	memset(r, 0, sizeof(*r));
	ret = kbuild_commit(kb, rev, o->rebuild ? KBUILD_REBUILD : 0,
			    &r->build);
	if (!ret)
		ret = boottest_record_build(st, r);
	if (!ret && r->build.status != KBUILD_OK)
		r->outcome = BOOTTEST_BUILD_FAILED;
	return ret;
}

static void drop_console(struct boottest_result *r)
{
	unlink(r->console_path);
	free(r->console_path);
	r->console_path = NULL;
}

/* The boot is over: its outcome, the console kept or not, its row. */
static int record_boot(struct store *st, const struct boottest_opts *o,
		       struct boottest_result *r)
{
	struct qemu_verdict *v = &r->boot.verdict;
	char *tests;
	int ret;

	r->outcome = v->status == QEMU_PASS ? BOOTTEST_PASS :
		     v->status == QEMU_TIMEOUT ? BOOTTEST_TIMEOUT :
		     BOOTTEST_FAIL;
	if (r->outcome == BOOTTEST_PASS && !o->keep_log)
		drop_console(r);
	tests = boottest_tests_str(o);
	r->attempts = 1;
	ret = store_boot_add(st, r->build_id, tests, &(struct store_boot){
				.status = qemu_status_name(v->status),
				.seconds = r->boot.seconds,
				.findings = v->findings,
				.console_path = r->console_path,
				.attempt = 1,
				.results = v->tests,
			     }, &r->boot_id);
	free(tests);
	return ret;
}

/* ---- boots in the background (runner_plan) ---- */

struct runner_slot {
	struct boottest_result r;
	char *dir;		/* the boot's own directory */
	pid_t pid;		/* its process while it runs, else 0 */
	int ret;		/* build_one()'s or the boot's error */
	char *error;		/* ... and its message */
	bool done;
};

struct runner_queue {
	struct kbuild *kb;
	struct store *st;
	const struct boottest_opts *o;
	const char *const *revs;
	size_t n, next, started;
	unsigned running;
	struct runner_slot *slots;
};

static void put_str(FILE *f, const char *s)
{
	fprintf(f, "%zu\n", s ? strlen(s) : (size_t)-1);
	if (s)
		fputs(s, f);
	fputc('\n', f);
}

static char *get_str(FILE *f)
{
	size_t n;
	char *s;

	if (fscanf(f, "%zu", &n) != 1 || fgetc(f) != '\n' || n == (size_t)-1)
		return NULL;
	s = xmalloc(n + 1);
	if (fread(s, 1, n, f) != n) {
		free(s);
		return NULL;
	}
	s[n] = '\0';
	fgetc(f);
	return s;
}

/* In the boot's process: boot, write the result file, exit. */
static void worker(const struct runner *rn, struct runner_queue *q,
		   struct runner_slot *sl)
{
	char *path = xasprintf("%s/result", sl->dir), *tmp;
	struct qemu_result *b = &sl->r.boot;
	int ret;
	FILE *f;

	ret = boot_one(rn, q->kb, q->o, &sl->r);
	tmp = xasprintf("%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		_exit(1);
	fprintf(f, "%d %d %d %.3f %zu\n", ret, (int)b->verdict.status,
		(int)b->verdict.marker, b->seconds, b->verdict.nfindings);
	put_str(f, b->verdict.findings);
	put_str(f, b->verdict.tests);
	put_str(f, ret ? kmig_errmsg() : NULL);
	if (fclose(f) || rename(tmp, path))
		_exit(1);
	_exit(0);
}

static int read_result(struct runner_slot *sl)
{
	char *path = xasprintf("%s/result", sl->dir);
	struct qemu_verdict *v = &sl->r.boot.verdict;
	int status, marker, ret = -1;
	FILE *f = fopen(path, "r");

	if (f && fscanf(f, "%d %d %d %lf %zu", &ret, &status, &marker,
			&sl->r.boot.seconds, &v->nfindings) == 5 &&
	    fgetc(f) == '\n') {
		v->status = (enum qemu_status)status;
		v->marker = marker;
		v->findings = get_str(f);
		v->tests = get_str(f);
		sl->error = get_str(f);
	} else {
		ret = -1;
		sl->error = xasprintf("the boot of %.12s ended without a result",
				      sl->r.build.commit);
	}
	if (f)
		fclose(f);
	free(path);
	return ret;
}

/* Build the next planned step and start its boot in the background. */
static void start_next(const struct runner *rn, struct runner_queue *q)
{
	struct runner_slot *sl = &q->slots[q->started++];
	pid_t parent = getpid();
	char *id;

	sl->ret = build_one(q->kb, q->st, q->revs[sl - q->slots], q->o, &sl->r);
	if (sl->ret || sl->r.outcome == BOOTTEST_BUILD_FAILED) {
		if (sl->ret)
			sl->error = xstrdup(kmig_errmsg());
		sl->done = true;
		return;
	}
	id = boot_id(sl->r.build.commit);
	sl->dir = xasprintf("%s/boots/%s", kbuild_dir(q->kb), id);
	free(id);
	rm_rf(sl->dir);
	if (mkdir_p(sl->dir)) {
		sl->ret = -1;
		sl->error = xstrdup(kmig_errmsg());
		sl->done = true;
		return;
	}
	sl->r.console_path = xasprintf("%s/console.log", sl->dir);
	fflush(NULL);
	sl->pid = fork();
	if (sl->pid == 0) {
		/*
		 * Dies with kmig, and by a signal child_run() catches: it
		 * kills the whole group of QEMU or lava-run then, the
		 * QEMU lava-run started included (SIGKILL would end this
		 * process alone, their own SIGKILL only the group leader).
		 */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(1);
		worker(rn, q, sl);
	}
	if (sl->pid < 0) {
		sl->pid = 0;
		sl->ret = kmig_err("cannot fork: %s", strerror(errno));
		sl->error = xstrdup(kmig_errmsg());
		sl->done = true;
		return;
	}
	q->running++;
}

/* Reap one finished boot. */
static int reap_one(struct runner_queue *q)
{
	int wstatus;
	pid_t pid;
	size_t i;

	do
		pid = waitpid(-1, &wstatus, 0);
	while (pid < 0 && errno == EINTR);
	if (pid < 0)
		return kmig_err("waitpid: %s", strerror(errno));
	for (i = 0; i < q->started; i++) {
		struct runner_slot *sl = &q->slots[i];

		if (sl->pid != pid)
			continue;
		sl->pid = 0;
		sl->done = true;
		q->running--;
		sl->ret = read_result(sl);
	}
	return 0;
}

/* The planned step q->next: wait for it, building ahead meanwhile. */
static int planned_run(const struct runner *rn, struct runner_queue *q,
		       struct boottest_result *r)
{
	struct runner_slot *sl = &q->slots[q->next];
	unsigned jobs = rn->jobs ? rn->jobs : 1;
	char *kept;
	int ret;

	while (!sl->done) {
		if (q->started < q->n && q->running < jobs) {
			start_next(rn, q);
			continue;
		}
		ret = reap_one(q);
		if (ret)
			return ret;
	}
	q->next++;
	/* Keep the lab busy while the caller looks at this one. */
	while (q->started < q->n && q->running < jobs && q->running)
		start_next(rn, q);

	*r = sl->r;
	memset(&sl->r, 0, sizeof(sl->r));
	ret = sl->ret;
	if (ret) {
		kmig_errcode(ret, "%s", sl->error ? sl->error : "boot failed");
		if (r->console_path)
			drop_console(r);
		goto out_dir;
	}
	if (r->outcome == BOOTTEST_BUILD_FAILED)
		goto out_dir;
	/* The console moves to logs/ as the one of a boot in the foreground. */
	kept = boottest_console_path(q->kb, r->build.commit);
	if (rename(r->console_path, kept)) {
		free(kept);
		ret = kmig_err("cannot keep the console of %.12s: %s",
			       r->build.commit, strerror(errno));
		goto out_dir;
	}
	free(r->console_path);
	r->console_path = kept;
	ret = record_boot(q->st, q->o, r);
out_dir:
	if (sl->dir)
		rm_rf(sl->dir);
	return ret;
}

int runner_plan(struct runner *rn, struct kbuild *kb, struct store *st,
		const char *const *revs, size_t n,
		const struct boottest_opts *o)
{
	struct runner_queue *q;
	char *boots;

	runner_release(rn);
	/*
	 * What boots of a killed kmig left (Ctrl-C): no other kmig uses the
	 * work area while we hold its lock (kbuild_open()).
	 */
	boots = xasprintf("%s/boots", kbuild_dir(kb));
	rm_rf(boots);
	free(boots);
	q = xcalloc(1, sizeof(*q));
	q->kb = kb;
	q->st = st;
	q->o = o;
	q->revs = revs;
	q->n = n;
	q->slots = xcalloc(n ? n : 1, sizeof(*q->slots));
	rn->q = q;
	return 0;
}

void runner_release(struct runner *rn)
{
	struct runner_queue *q = rn->q;
	size_t i;

	if (!q)
		return;
	for (i = 0; i < q->started; i++) {
		struct runner_slot *sl = &q->slots[i];

		if (sl->pid > 0) {
			kill(sl->pid, SIGKILL);
			while (waitpid(sl->pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
		if (sl->dir)
			rm_rf(sl->dir);
		free(sl->dir);
		free(sl->error);
		boottest_result_release(&sl->r);
	}
	free(q->slots);
	free(q);
	rn->q = NULL;
}

int runner_boottest_run(const struct runner *rn, struct kbuild *kb,
			struct store *st, const char *rev,
			const struct boottest_opts *o,
			struct boottest_result *r)
{
	struct runner_queue *q = rn->q;
	int ret;

	if (q && q->next < q->n && !strcmp(q->revs[q->next], rev) &&
	    q->kb == kb && q->st == st && q->o == o) {
		ret = planned_run(rn, q, r);
		goto out_release;
	}
	if (rn->kind == RUNNER_KMIG)
		return boottest_run(kb, st, rev, o, r);
	/* Retries, flaky verdict and rows as on the kmig runner. */
	ret = boottest_run_on(kb, st, rev, o, boot_lava_fn, (void *)rn, r);
out_release:
	if (ret)
		boottest_result_release(r);
	return ret;
}
