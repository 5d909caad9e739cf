// SPDX-License-Identifier: GPL-2.0
/*
 * qemu.c - guest initramfs, QEMU run and console classification; see
 * qemu.h.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <git2.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "datadir.h"
#include "qemu.h"
#include "util.h"

const char *const qemu_known_tests[] = { "boot", "rds", "hang" };
const size_t qemu_nknown_tests = ARRAY_SIZE(qemu_known_tests);
const char *const qemu_default_tests[] = { "boot", "rds" };
const size_t qemu_ndefault_tests = ARRAY_SIZE(qemu_default_tests);

#define QEMU_MARKER "KMIG-DONE"
#define QEMU_TEST_PREFIX "KMIG-TEST "
#define QEMU_APPEND QEMU_CMDLINE

bool qemu_test_known(const char *name)
{
	size_t i;

	for (i = 0; i < qemu_nknown_tests; i++)
		if (!strcmp(qemu_known_tests[i], name))
			return true;
	return false;
}

const char *qemu_status_name(enum qemu_status s)
{
	switch (s) {
	case QEMU_PASS:
		return "pass";
	case QEMU_FAIL:
		return "fail";
	case QEMU_TIMEOUT:
		return "timeout";
	}
	return "fail";
}

/* ---- console classification ---- */

/*
 * The first line of every kernel splat contains one of these, or is an
 * x86 die header (is_die_header()).  BUG_ON() prints "kernel BUG at
 * FILE:LINE!" (no "BUG:"), the only line that names its file.  "Call
 * Trace:" follows a splat's first line; it is a finding of its own only
 * when no first line came before it.
 */
static const char *const splat_heads[] = {
	"WARNING:", "BUG:", "Oops", "Kernel panic", "general protection fault",
	"UBSAN:", "KASAN:", "kernel BUG at ", "Kernel BUG at ",
};
#define CALL_TRACE "Call Trace:"

/*
 * x86's die() header, "STR: %04lx [#N]...": before 6.12 it has no
 * "Oops: " in front ("invalid opcode: 0000 [#1] PREEMPT" after a BUG_ON(),
 * "divide error: 0000 [#1]").
 */
static bool is_die_header(const char *line)
{
	const char *p = line;

	while ((p = strstr(p, " [#")) != NULL) {
		const char *d = p + 3;
		int i;

		p = d;
		if (d - line < 9 || d[-9] != ':' || d[-8] != ' ' ||
		    !isdigit((unsigned char)*d))
			continue;
		for (i = 4; i < 8; i++)
			if (!isxdigit((unsigned char)d[-i]))
				break;
		if (i < 8)
			continue;
		while (isdigit((unsigned char)*d))
			d++;
		if (*d == ']')
			return true;
	}
	return false;
}

static void add_finding(struct sbuf *f, size_t *n, const char *line, size_t len)
{
	const char *p = f->buf;

	/* The same line twice (a repeated warning) is one finding. */
	while (p && *p) {
		const char *nl = strchr(p, '\n');

		if ((size_t)(nl - p) == len && !memcmp(p, line, len))
			return;
		p = nl + 1;
	}
	sbuf_add(f, line, len);
	sbuf_addch(f, '\n');
	(*n)++;
}

/*
 * The console line of @len bytes at @p, NUL-terminated: without its NUL
 * bytes (serial noise, which would end the string early and hide the
 * rest of the line), the serial console's \r and surrounding blanks.
 */
static char *line_dup(const char *p, size_t len)
{
	char *line = xmalloc(len + 1), *q = line, *s = line;
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i])
			*q++ = p[i];
	while (q > line && (q[-1] == '\r' || q[-1] == ' ' || q[-1] == '\t'))
		q--;
	*q = '\0';
	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	if (s > line)
		memmove(line, s, (size_t)(q - s) + 1);
	return line;
}

struct test_seen {
	bool seen;
	bool pass;
	char *line;
};

void qemu_classify(const char *console, size_t len,
		   const char *const *tests, size_t ntests, bool timed_out,
		   struct qemu_verdict *v)
{
	struct sbuf splats = SBUF_INIT, other = SBUF_INIT, lines = SBUF_INIT;
	struct test_seen *seen = xcalloc(ntests ? ntests : 1, sizeof(*seen));
	const char *p = console, *end = console + len;
	size_t nsplats = 0, nother = 0, i;
	bool all_pass = true;

	memset(v, 0, sizeof(*v));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		const char *t;
		char *line;

		line = line_dup(p, (size_t)(e - p));
		p = nl ? nl + 1 : end;

		t = strstr(line, QEMU_TEST_PREFIX);
		if (t) {
			char name[64], verdict[8];

			sbuf_addf(&lines, "%s\n", t);
			if (sscanf(t + strlen(QEMU_TEST_PREFIX), "%63s %7s",
				   name, verdict) == 2) {
				for (i = 0; i < ntests; i++) {
					if (strcmp(tests[i], name) || seen[i].seen)
						continue;
					seen[i].seen = true;
					seen[i].pass = !strcmp(verdict, "PASS");
					seen[i].line = xstrdup(t);
				}
			}
		} else if (strstr(line, QEMU_MARKER)) {
			v->marker = true;
		} else if (!strstr(line, "KMIG-")) {
			for (i = 0; i < ARRAY_SIZE(splat_heads); i++)
				if (strstr(line, splat_heads[i]))
					break;
			if (i < ARRAY_SIZE(splat_heads) || is_die_header(line))
				add_finding(&splats, &nsplats, line, strlen(line));
			else if (strstr(line, CALL_TRACE) && !nsplats)
				add_finding(&splats, &nsplats, line, strlen(line));
		}
		free(line);
	}

	for (i = 0; i < ntests; i++) {
		if (!seen[i].seen) {
			char *s = xasprintf("KMIG-TEST %s: no result (the guest "
					    "did not finish it)", tests[i]);

			add_finding(&other, &nother, s, strlen(s));
			free(s);
			all_pass = false;
		} else if (!seen[i].pass) {
			add_finding(&other, &nother, seen[i].line,
				    strlen(seen[i].line));
			all_pass = false;
		}
		free(seen[i].line);
	}
	free(seen);
	if (!v->marker) {
		const char *s = timed_out ?
			"timeout: the guest did not finish in time (no " QEMU_MARKER ")" :
			"no " QEMU_MARKER " marker: the guest did not finish";

		add_finding(&other, &nother, s, strlen(s));
	} else if (timed_out) {
		/* The reboot after the marker hung: a timeout all the same. */
		const char *s = "timeout: the guest printed " QEMU_MARKER
				" but did not power off in time";

		add_finding(&other, &nother, s, strlen(s));
	}

	if (timed_out)
		v->status = QEMU_TIMEOUT;
	else if (v->marker && all_pass && !nsplats)
		v->status = QEMU_PASS;
	else
		v->status = QEMU_FAIL;
	sbuf_add(&splats, other.buf ? other.buf : "", other.len);
	v->nfindings = nsplats + nother;
	v->findings = v->nfindings ? sbuf_detach(&splats) : NULL;
	v->tests = lines.len ? sbuf_detach(&lines) : NULL;
	sbuf_release(&splats);
	sbuf_release(&other);
	sbuf_release(&lines);
}

void qemu_verdict_release(struct qemu_verdict *v)
{
	free(v->findings);
	free(v->tests);
	memset(v, 0, sizeof(*v));
}

/* ---- the guest ---- */

/* Build (or reuse) the static /init; *@out is the caller's to free. */
static int guest_init(const char *home, char **out)
{
	const char *data = datadir_find(DATADIR_QEMU);
	struct sbuf src = SBUF_INIT;
	char *src_path = NULL, *dir = NULL, *bin = NULL, *tmp = NULL, *log;
	char hex[41];
	git_oid oid;
	int ret = 0;

	*out = NULL;
	if (!data)
		return -1;
	src_path = xasprintf("%s/init.c", data);
	if (sbuf_read_file(&src, src_path)) {
		ret = -1;
		goto out_free;
	}
	git_odb_hash(&oid, src.buf, src.len, GIT_OBJECT_BLOB);
	git_oid_tostr(hex, sizeof(hex), &oid);
	dir = xasprintf("%s/guest", home);
	if (mkdir_p(dir)) {
		ret = -1;
		goto out_free;
	}
	bin = xasprintf("%s/init-%.12s", dir, hex);
	if (access(bin, X_OK)) {
		char *argv[] = { "gcc", "-static", "-O2", "-Wall", "-o", NULL,
				 src_path, NULL };
		struct child_opts o = { .argv = argv };
		struct child_status st;

		tmp = xasprintf("%s.tmp%d", bin, (int)getpid());
		log = xasprintf("%s/init-build.log", dir);
		argv[5] = tmp;
		o.out_path = log;
		ret = child_run(&o, &st);
		if (!ret && st.code)
			ret = kmig_err("cannot compile the guest '%s' (see '%s')",
				       src_path, log);
		if (!ret && rename(tmp, bin))
			ret = kmig_err("cannot write '%s': %s", bin,
				       strerror(errno));
		free(log);
	}
	if (!ret) {
		*out = bin;
		bin = NULL;
	}
out_free:
	if (tmp)
		unlink(tmp);
	free(tmp);
	free(bin);
	free(dir);
	free(src_path);
	sbuf_release(&src);
	return ret;
}

/* Append one newc cpio entry. */
static void cpio_entry(struct sbuf *cpio, const char *name, unsigned mode,
		       unsigned rmajor, unsigned rminor, const void *data,
		       size_t len)
{
	static unsigned ino = 721;
	size_t namesize = strlen(name) + 1;

	sbuf_addf(cpio, "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X"
		  "%08X%08X", ino++, mode, 0, 0, 1, 0, (unsigned)len, 0, 0,
		  rmajor, rminor, (unsigned)namesize, 0);
	sbuf_add(cpio, name, namesize);
	while (cpio->len % 4)
		sbuf_addch(cpio, '\0');
	if (len)
		sbuf_add(cpio, data, len);
	while (cpio->len % 4)
		sbuf_addch(cpio, '\0');
}

int qemu_initramfs(const char *home, const char *const *tests,
		   size_t ntests, const char *fail_test, const char *path)
{
	struct sbuf cpio = SBUF_INIT, init = SBUF_INIT, list = SBUF_INIT;
	char *bin = NULL, *raw = NULL, *gz = NULL;
	char *argv[] = { "gzip", "-n", "-f", NULL, NULL };
	struct child_opts o = { .argv = argv };
	struct child_status st;
	size_t i;
	int ret;

	ret = guest_init(home, &bin);
	if (ret)
		goto out_free;
	ret = sbuf_read_file(&init, bin);
	if (ret)
		goto out_free;
	for (i = 0; i < ntests; i++)
		sbuf_addf(&list, "%s\n", tests[i]);

	cpio_entry(&cpio, "dev", 040755, 0, 0, NULL, 0);
	cpio_entry(&cpio, "dev/console", 020600, 5, 1, NULL, 0);
	cpio_entry(&cpio, "proc", 040555, 0, 0, NULL, 0);
	cpio_entry(&cpio, "sys", 040555, 0, 0, NULL, 0);
	cpio_entry(&cpio, "init", 0100755, 0, 0, init.buf, init.len);
	cpio_entry(&cpio, "kmig-tests", 0100644, 0, 0, list.buf ? list.buf : "",
		   list.len);
	if (fail_test)
		cpio_entry(&cpio, "kmig-fail", 0100644, 0, 0, fail_test,
			   strlen(fail_test));
	cpio_entry(&cpio, "TRAILER!!!", 0, 0, 0, NULL, 0);

	raw = xasprintf("%s.cpio", path);
	gz = xasprintf("%s.cpio.gz", path);
	ret = write_file(raw, cpio.buf, cpio.len);
	if (ret)
		goto out_free;
	argv[3] = raw;
	ret = child_run(&o, &st);
	if (!ret && st.code)
		ret = kmig_err("gzip failed on '%s'", raw);
	if (!ret && rename(gz, path))
		ret = kmig_err("cannot write '%s': %s", path, strerror(errno));
out_free:
	if (raw)
		unlink(raw);
	if (gz)
		unlink(gz);
	free(raw);
	free(gz);
	free(bin);
	sbuf_release(&cpio);
	sbuf_release(&init);
	sbuf_release(&list);
	return ret;
}

/* ---- running QEMU ---- */

/*
 * The KMIG_DEBUG_FAIL_BOOTS hook (qemu.h): true when this boot is to
 * fail, the count in the file taken down by one.
 */
static int debug_fail_boot(bool *fail)
{
	const char *path = getenv("KMIG_DEBUG_FAIL_BOOTS");
	struct sbuf sb = SBUF_INIT;
	char *end, buf[32];
	long n;
	int ret = 0;

	*fail = false;
	if (!path || !*path)
		return 0;
	if (sbuf_read_file(&sb, path))
		return -1;
	n = strtol(sb.buf ? sb.buf : "", &end, 10);
	if (end == (sb.buf ? sb.buf : "") || n < 0) {
		ret = kmig_err("KMIG_DEBUG_FAIL_BOOTS: '%s' does not hold a count",
			       path);
		goto out_free;
	}
	if (n > 0) {
		snprintf(buf, sizeof(buf), "%ld\n", n - 1);
		ret = write_file(path, buf, strlen(buf));
		*fail = !ret;
	}
out_free:
	sbuf_release(&sb);
	return ret;
}

const char *qemu_kvm_device = "/dev/kvm";

int qemu_accel_check(const char *accel)
{
	if (strcmp(accel, "tcg") && strcmp(accel, "kvm"))
		return kmig_errcode(KMIG_EUSAGE, "unknown accelerator '%s' (tcg or kvm)",
				    accel);
	if (!strcmp(accel, "kvm") && access(qemu_kvm_device, R_OK | W_OK))
		return kmig_errcode(KMIG_EUSAGE, "--accel kvm: cannot use '%s': %s",
				    qemu_kvm_device, strerror(errno));
	return 0;
}

int qemu_boot(const struct qemu_opts *o, struct qemu_result *r)
{
	const char *const *tests = o->tests ? o->tests : qemu_default_tests;
	size_t ntests = o->tests ? o->ntests : qemu_ndefault_tests;
	const char *accel = o->accel ? o->accel : "tcg";
	char *initrd = NULL, *mem = NULL;
	const char *slash;
	struct sbuf console = SBUF_INIT;
	struct child_status st;
	unsigned long long max;
	struct stat sb;
	bool fail, capped;
	int ret;

	memset(r, 0, sizeof(*r));
	if (stat(o->kernel, &sb))
		return kmig_err("cannot read the kernel image '%s': %s",
				o->kernel, strerror(errno));
	if (qemu_accel_check(accel))
		return -1;

	/*
	 * One initramfs per directory, overwritten by each boot: callers
	 * hold the work area's lock, and a kmig killed mid-boot leaves no
	 * stray file behind.
	 */
	slash = strrchr(o->console_path, '/');
	initrd = slash ? xasprintf("%.*s/initrd.cpio.gz",
				   (int)(slash - o->console_path),
				   o->console_path) :
		 xstrdup("initrd.cpio.gz");
	ret = debug_fail_boot(&fail);
	if (ret)
		goto out_free;
	ret = qemu_initramfs(o->home ? o->home : kmig_home(), tests, ntests,
			     fail && ntests ? tests[0] : NULL, initrd);
	if (ret)
		goto out_free;

	mem = xasprintf("%d", o->memory_mb > 0 ? o->memory_mb : 256);
	max = o->console_max ? o->console_max : QEMU_CONSOLE_MAX;
	{
		char *argv[] = {
			"qemu-system-x86_64", "-accel", (char *)accel,
			"-m", mem, "-nographic", "-no-reboot",
			"-kernel", (char *)o->kernel, "-initrd", initrd,
			"-append", QEMU_APPEND, NULL,
		};
		struct child_opts co = {
			.argv = argv,
			.out_path = o->console_path,
			.timeout = o->timeout > 0 ? o->timeout : 120,
			.kill_signal = SIGKILL,
			.max_file = max,
		};

		ret = child_run(&co, &st);
	}
	if (ret)
		goto out_free;
	if (st.code == 127 && !st.timed_out) {
		ret = kmig_err("cannot run 'qemu-system-x86_64'");
		goto out_free;
	}
	r->seconds = st.seconds;
	ret = sbuf_read_file(&console, o->console_path);
	if (ret)
		goto out_free;
	qemu_classify(console.buf ? console.buf : "", console.len, tests,
		      ntests, st.timed_out, &r->verdict);
	/*
	 * A QEMU that ignores SIGXFSZ gets EFBIG at the cap instead: it may
	 * exit with an error or run on to the timeout, a console at the cap
	 * all the same.
	 */
	capped = st.code == 128 + SIGXFSZ || console.len >= max;
	if (capped || (st.code && !st.timed_out)) {
		/*
		 * With -no-reboot QEMU exits 0 when the guest reboots, panics
		 * included: anything else is QEMU itself failing (a crash).
		 */
		struct qemu_verdict *v = &r->verdict;
		char *f = capped ?
			xasprintf("the console reached %llu %s: QEMU stopped there (a message storm?)\n%s",
				  max % (1ULL << 20) ? max : max >> 20,
				  max % (1ULL << 20) ? "bytes" : "MB",
				  v->findings ? v->findings : "") :
			st.code > 128 ?
			xasprintf("qemu-system-x86_64 was killed by signal %d\n%s",
				  st.code - 128, v->findings ? v->findings : "") :
			xasprintf("qemu-system-x86_64 exited with status %d\n%s",
				  st.code, v->findings ? v->findings : "");

		free(v->findings);
		v->findings = f;
		v->nfindings++;
		v->status = QEMU_FAIL;
	}
out_free:
	if (initrd)
		unlink(initrd);
	free(initrd);
	free(mem);
	sbuf_release(&console);
	return ret;
}

void qemu_result_release(struct qemu_result *r)
{
	qemu_verdict_release(&r->verdict);
}
