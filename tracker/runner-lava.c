// SPDX-License-Identifier: GPL-2.0
/*
 * runner-lava.c - kmig's boots as LAVA jobs: the job definition and the
 * local device description, LAVA's schema check, lava-run or lavacli,
 * and the job log back into kmig's verdict; see runner.h.
 *
 * What lava-run (lava-dispatcher 2023.01) needs, found by running it:
 * it renders no device-type templates, so the device file is complete
 * (the QEMU options included); the boot waits for the prompt KMIG-START,
 * which turns on LAVA's kernel-message checks until /init runs; a
 * "monitors" test action turns each KMIG-TEST line into a LAVA test case
 * and ends at KMIG-DONE or at the end of a kernel panic (panic_on_warn:
 * a WARNING in a test panics, and with panic=0 the guest then stops).
 * The log (stdout) is one record a line: {"dt", "lvl", "msg"}, not
 * strict JSON everywhere; the "target" and "feedback" records are the
 * console, the "results" records the test cases and the job's verdict.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "runner.h"
#include "util.h"

/*
 * kmig's command line (qemu.c) with panic=0: with panic=-1 and
 * -no-reboot QEMU exits at the panic, before LAVA's panic check saw it,
 * and LAVA reports the closed connection as an infrastructure failure.
 */
const char lava_cmdline[] = "console=ttyS0 panic=0 " QEMU_CMDLINE_OPTS;

#define LAVA_SCHEMA "/usr/share/lava-common/lava-schema.py"
/* lava-common's modules are in Debian's python3, not another one first
 * on PATH. */
#define LAVA_PYTHON "/usr/bin/python3"
/* Time for the deploy action (file:// or the lab's download). */
#define LAVA_DEPLOY_SECONDS 300

/* ---- writing ---- */

static void yaml_str(FILE *f, const char *s)
{
	json_string(f, s);	/* a JSON string is a YAML double-quoted one */
}

int lava_write_job(const struct lava_job *j, const char *kernel_url,
		   const char *initrd_url, const char *path)
{
	long t = j->timeout > 0 ? (long)(j->timeout + 0.5) : 120;
	char *arg, *name;
	FILE *f;
	size_t i;

	f = fopen(path, "w");
	if (!f)
		return kmig_err("cannot write '%s': %s", path, strerror(errno));
	name = xasprintf("kmig boot %.12s", j->commit ? j->commit : "");
	fputs("# written by kmig: one boot of a kmig-built kernel\njob_name: ", f);
	yaml_str(f, name);
	fputs("\ndevice_type: qemu\nvisibility: public\npriority: medium\n"
	      "context:\n  arch: x86_64\n", f);
	fprintf(f, "timeouts:\n  job: {seconds: %ld}\n  action: {seconds: %ld}\n",
		2 * t + LAVA_DEPLOY_SECONDS + 120, t + LAVA_DEPLOY_SECONDS);
	fputs("metadata:\n  kmig.job: ", f);
	yaml_str(f, j->id);
	fputs("\n  kmig.commit: ", f);
	yaml_str(f, j->commit ? j->commit : "");
	fputs("\n  kmig.config: ", f);
	yaml_str(f, j->config_hash ? j->config_hash : "");
	fputs("\n  kmig.tests: \"", f);
	for (i = 0; i < j->ntests; i++)
		fprintf(f, "%s%s", i ? "," : "", j->tests[i]);
	fprintf(f, "\"\nactions:\n- deploy:\n    to: tmpfs\n"
		"    timeout: {seconds: %d}\n    images:\n      kernel:\n"
		"        url: ", LAVA_DEPLOY_SECONDS);
	yaml_str(f, kernel_url);
	fputs("\n        image_arg: ", f);
	arg = xasprintf("-kernel {kernel} -append \"%s\"", lava_cmdline);
	yaml_str(f, arg);
	fputs("\n      initrd:\n        url: ", f);
	yaml_str(f, initrd_url);
	fputs("\n        image_arg: \"-initrd {initrd}\"\n", f);
	fprintf(f, "- boot:\n    method: qemu\n    media: tmpfs\n"
		"    timeout: {seconds: %ld}\n    prompts: [\"KMIG-START\"]\n", t);
	fprintf(f, "- test:\n    timeout: {seconds: %ld}\n    monitors:\n"
		"    - name: kmig\n      start: \"\"\n"
		"      end: \"KMIG-DONE|end Kernel panic\"\n"
		"      pattern: \"KMIG-TEST (?P<test_case_id>\\\\S+) (?P<result>PASS|FAIL)\"\n"
		"      fixupdict: {PASS: pass, FAIL: fail}\n", t);
	free(arg);
	free(name);
	if (fclose(f))
		return kmig_err("cannot write '%s': %s", path, strerror(errno));
	return 0;
}

int lava_write_device(const char *path, const char *accel)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return kmig_err("cannot write '%s': %s", path, strerror(errno));
	fputs("# written by kmig: the local QEMU of lava-run, which renders no\n"
	      "# device-type template, so the QEMU options are all here\n"
	      "device_type: qemu\n"
	      "available_architectures: [x86_64]\n"
	      "constants:\n"
	      "  kernel-start-message: \"Linux version [0-9]\"\n"
	      "  shutdown-message: \"reboot: Restarting system\"\n"
	      "  default-shell-prompt: \"lava-test: # \"\n"
	      "  spawn_maxread: \"4092\"\n"
	      "  failure_retry: 1\n"
	      "  boot_retry: 1\n"
	      "  posix:\n"
	      "    lava_test_sh_cmd: /bin/sh\n"
	      "    lava_test_results_dir: /lava-%s\n"
	      "    lava_test_shell_file: ~/.bashrc\n"
	      "parameters: {}\n"
	      "actions:\n"
	      "  deploy:\n"
	      "    methods:\n"
	      "      image:\n"
	      "        parameters: {}\n"
	      "  boot:\n"
	      "    connections:\n"
	      "      serial: {}\n"
	      "    methods:\n"
	      "      qemu:\n"
	      "        parameters:\n"
	      "          command: qemu-system-x86_64\n"
	      "          options:\n", f);
	fprintf(f, "          - -accel %s\n", accel && !strcmp(accel, "kvm") ?
		"kvm" : "tcg");
	fputs("          - -nographic\n"
	      "          - -no-reboot\n"
	      "          - -m 256\n"
	      "timeouts:\n"
	      "  actions: {}\n"
	      "  connections: {}\n", f);
	if (fclose(f))
		return kmig_err("cannot write '%s': %s", path, strerror(errno));
	return 0;
}

int lava_validate(const char *kind, const char *path)
{
	const char *python = access(LAVA_PYTHON, X_OK) ? "python3" : LAVA_PYTHON;
	char *argv[] = { (char *)python, LAVA_SCHEMA, (char *)kind, NULL, NULL,
			 NULL };
	struct sbuf out = SBUF_INIT;
	struct child_opts o = { .argv = argv, .capture = &out,
				.out_path = "/dev/null" };
	struct child_status st;
	const char *p;
	int ret;

	if (!strcmp(kind, "device")) {
		argv[3] = "--no-render";
		argv[4] = (char *)path;
	} else {
		argv[3] = (char *)path;
	}
	if (access(LAVA_SCHEMA, R_OK))
		return kmig_errcode(RUNNER_EINFRA, "cannot read %s: %s (is "
				    "lava-common installed? make deps)",
				    LAVA_SCHEMA, strerror(errno));
	ret = child_run(&o, &st);
	if (ret) {
		ret = RUNNER_EINFRA;
		goto out_free;
	}
	p = out.buf ? strstr(out.buf, "* ") : NULL;
	if (!p) {
		ret = kmig_errcode(RUNNER_EINFRA, "%s %s did not run (exit "
				   "status %d)", LAVA_SCHEMA, kind, st.code);
	} else if (st.code) {
		/* "  -> key: [...]" then "  -> mgs: ..." (sic) */
		char *msg = normalize_ws(p, strlen(p));

		ret = kmig_err("LAVA's schema check rejects the %s: %s", kind,
			       msg);
		free(msg);
	}
out_free:
	sbuf_release(&out);
	return ret;
}

/* ---- the log ---- */

/* Append the UTF-8 encoding of code point @c. */
static void add_utf8(struct sbuf *sb, unsigned long c)
{
	if (c < 0x80) {
		sbuf_addch(sb, (int)c);
	} else if (c < 0x800) {
		sbuf_addch(sb, (int)(0xc0 | (c >> 6)));
		sbuf_addch(sb, (int)(0x80 | (c & 0x3f)));
	} else if (c < 0x10000) {
		sbuf_addch(sb, (int)(0xe0 | (c >> 12)));
		sbuf_addch(sb, (int)(0x80 | ((c >> 6) & 0x3f)));
		sbuf_addch(sb, (int)(0x80 | (c & 0x3f)));
	} else {
		sbuf_addch(sb, (int)(0xf0 | (c >> 18)));
		sbuf_addch(sb, (int)(0x80 | ((c >> 12) & 0x3f)));
		sbuf_addch(sb, (int)(0x80 | ((c >> 6) & 0x3f)));
		sbuf_addch(sb, (int)(0x80 | (c & 0x3f)));
	}
}

static unsigned long hex_n(const char *p, const char *end, int n,
			   const char **next)
{
	unsigned long v = 0;
	int i;

	for (i = 0; i < n && p < end; i++, p++) {
		int c = *p;

		if (c >= '0' && c <= '9')
			v = v * 16 + (unsigned long)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (unsigned long)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v = v * 16 + (unsigned long)(c - 'A' + 10);
		else
			break;
	}
	*next = p;
	return v;
}

/*
 * The double-quoted string at @p (JSON, or YAML's double-quoted style
 * of "lavacli jobs logs --raw": \e, \xNN, \N ... too), or NULL when @p
 * is no string.  Caller frees.
 */
static char *read_str(const char *p, const char *end)
{
	struct sbuf sb = SBUF_INIT;

	if (p >= end || *p != '"')
		return NULL;
	for (p++; p < end && *p != '"'; p++) {
		if (*p != '\\' || p + 1 >= end) {
			sbuf_addch(&sb, *p);
			continue;
		}
		switch (*++p) {
		case 'n':
			sbuf_addch(&sb, '\n');
			break;
		case 't':
			sbuf_addch(&sb, '\t');
			break;
		case 'r':
			sbuf_addch(&sb, '\r');
			break;
		case 'e':
			sbuf_addch(&sb, 0x1b);
			break;
		case '0':
		case 'a':
		case 'b':
		case 'f':
		case 'v':
			break;	/* control characters: not console text */
		case 'x':
			add_utf8(&sb, hex_n(p + 1, end, 2, &p));
			p--;
			break;
		case 'u':
			add_utf8(&sb, hex_n(p + 1, end, 4, &p));
			p--;
			break;
		case 'U':
			add_utf8(&sb, hex_n(p + 1, end, 8, &p));
			p--;
			break;
		case 'N':
			add_utf8(&sb, 0x85);
			break;
		default:
			sbuf_addch(&sb, *p);	/* \" \\ \/ and the rest */
			break;
		}
	}
	if (!sb.buf)
		sbuf_addstr(&sb, "");
	return sbuf_detach(&sb);
}

/* The value of "@key": in [@p, @end) (the first one, or the last). */
static char *key_str(const char *p, const char *end, const char *key,
		     bool last)
{
	char *pat = xasprintf("\"%s\": ", key);
	size_t n = strlen(pat);
	const char *found = NULL, *q;
	char *ret;

	for (q = p; q + n <= end; q++) {
		q = memmem(q, (size_t)(end - q), pat, n);
		if (!q)
			break;
		found = q;
		if (!last)
			break;
	}
	ret = found ? read_str(found + n, end) : NULL;
	free(pat);
	return ret;
}

struct lava_case {
	char *name;
	char *result;
};

struct lava_log {
	struct sbuf console;
	struct lava_case *cases;
	size_t ncases, alloc;
	bool job_seen;
	char *job_result, *error_type, *error_msg;
};

static void parse_record(struct lava_log *lg, const char *p, const char *end)
{
	char *lvl = key_str(p, end, "lvl", false);
	const char *msg;

	if (!lvl)
		return;
	msg = memmem(p, (size_t)(end - p), "\"msg\": ", 7);
	if (!msg)
		goto out_free;
	msg += 7;
	if (!strcmp(lvl, "target") || !strcmp(lvl, "feedback")) {
		char *s = read_str(msg, end);

		if (s) {
			sbuf_addf(&lg->console, "%s\n", s);
			free(s);
		}
	} else if (!strcmp(lvl, "results") && *msg == '{') {
		char *def = key_str(msg, end, "definition", false);
		char *cs = key_str(msg, end, "case", false);
		/* "result" is the record's last key (sorted), after "extra" */
		char *res = key_str(msg, end, "result", true);

		if (def && cs && res && !strcmp(def, "lava") &&
		    !strcmp(cs, "job")) {
			lg->job_seen = true;
			free(lg->job_result);
			free(lg->error_type);
			free(lg->error_msg);
			lg->job_result = res;
			lg->error_type = key_str(msg, end, "error_type", false);
			lg->error_msg = key_str(msg, end, "error_msg", false);
			res = NULL;
		} else if (def && cs && res && !strcmp(def, "kmig")) {
			ALLOC_GROW(lg->cases, lg->ncases + 1, lg->alloc);
			lg->cases[lg->ncases].name = cs;
			lg->cases[lg->ncases].result = res;
			lg->ncases++;
			cs = res = NULL;
		}
		free(def);
		free(cs);
		free(res);
	}
out_free:
	free(lvl);
}

static void lava_log_release(struct lava_log *lg)
{
	size_t i;

	for (i = 0; i < lg->ncases; i++) {
		free(lg->cases[i].name);
		free(lg->cases[i].result);
	}
	free(lg->cases);
	free(lg->job_result);
	free(lg->error_type);
	free(lg->error_msg);
	sbuf_release(&lg->console);
}

static const char *case_result(const struct lava_log *lg, const char *name)
{
	size_t i;

	for (i = 0; i < lg->ncases; i++)
		if (!strcmp(lg->cases[i].name, name))
			return lg->cases[i].result;
	return NULL;
}

/* Append one finding line to @v (which qemu_classify() filled in). */
static void add_finding(struct qemu_verdict *v, const char *fmt, const char *a,
			const char *b)
{
	struct sbuf sb = SBUF_INIT;

	sbuf_addstr(&sb, v->findings ? v->findings : "");
	sbuf_addf(&sb, fmt, a, b);
	sbuf_addch(&sb, '\n');
	free(v->findings);
	v->findings = sbuf_detach(&sb);
	v->nfindings++;
}

/* The first line of @s, at most 300 bytes (static). */
static const char *first_line(const char *s)
{
	static char line[301];
	size_t n = s ? strcspn(s, "\r\n") : 0;

	if (n > sizeof(line) - 1)
		n = sizeof(line) - 1;
	memcpy(line, s ? s : "", n);
	line[n] = '\0';
	return line;
}

int lava_parse_log(const char *log, size_t len, const struct lava_job *j,
		   const char *console_path, struct qemu_verdict *v)
{
	struct lava_log lg = { .console = SBUF_INIT };
	const char *p = log, *end = log + len;
	bool failed, timed_out = false;
	size_t i;
	int ret = 0;

	memset(v, 0, sizeof(*v));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;

		if (e - p > 2 && p[0] == '-' && p[1] == ' ')
			p += 2;		/* lavacli jobs logs --raw */
		if (p < e && *p == '{')
			parse_record(&lg, p, e);
		p = nl ? nl + 1 : end;
	}

	if (!lg.job_seen) {
		ret = kmig_errcode(RUNNER_EINFRA, "LAVA job %s: no job result in its log",
				   j->id);
		goto out_free;
	}
	failed = strcmp(lg.job_result ? lg.job_result : "", "pass") != 0;
	if (failed) {
		const char *type = lg.error_type ? lg.error_type : "";

		/* Job and Test errors are the guest's (a panic LAVA saw, a
		 * timeout), everything else LAVA's own. */
		if (strcmp(type, "Job") && strcmp(type, "Test") &&
		    strcmp(type, "LAVATimeout")) {
			ret = kmig_errcode(RUNNER_EINFRA, "LAVA job %s: %s error: %s",
					   j->id, *type ? type : "unknown",
					   first_line(lg.error_msg));
			goto out_free;
		}
		if (!lg.console.len) {
			ret = kmig_errcode(RUNNER_EINFRA, "LAVA job %s never started "
					   "the kernel: %s", j->id,
					   first_line(lg.error_msg));
			goto out_free;
		}
		timed_out = lg.error_msg && strstr(lg.error_msg, "timed out");
	}

	ret = write_file(console_path, lg.console.buf, lg.console.len);
	if (ret)
		goto out_free;
	qemu_classify(lg.console.buf ? lg.console.buf : "", lg.console.len,
		      j->tests, j->ntests, timed_out, v);
	if (v->status != QEMU_PASS)
		goto out_free;
	/* The console passed: LAVA's own view must agree. */
	for (i = 0; i < j->ntests; i++) {
		const char *res = case_result(&lg, j->tests[i]);

		if (!res || strcmp(res, "pass")) {
			add_finding(v, "LAVA test case %s: %s", j->tests[i],
				    res ? res : "no result");
			v->status = QEMU_FAIL;
		}
	}
	if (failed) {
		add_finding(v, "LAVA job failed: %s%s", first_line(lg.error_msg),
			    "");
		v->status = QEMU_FAIL;
	}
out_free:
	lava_log_release(&lg);
	return ret;
}

/* ---- running ---- */

static int copy_file(const char *from, const char *to)
{
	struct sbuf sb = SBUF_INIT;
	int ret;

	ret = sbuf_read_file(&sb, from);
	if (ret)
		return ret;
	ret = write_file(to, sb.buf, sb.len);
	sbuf_release(&sb);
	return ret;
}

/* Run a LAVA tool: RUNNER_EINFRA unless it ran and exited 0 (or 1 for
 * lava-run, whose failed jobs exit 1). */
static int run_tool(char **argv, const char *what, const char *out_path,
		    bool append, struct sbuf *capture, double timeout, int ok_max)
{
	struct child_opts o = { .argv = argv, .out_path = out_path,
				.append = append, .capture = capture,
				.timeout = timeout };
	struct child_status st;

	if (child_run(&o, &st))
		return RUNNER_EINFRA;
	if (st.timed_out)
		return kmig_errcode(RUNNER_EINFRA, "%s did not finish in %.0fs",
				    what, timeout);
	if (st.code == 127)
		return kmig_errcode(RUNNER_EINFRA, "cannot run '%s' (make deps "
				    "installs lava-dispatcher and lavacli)",
				    argv[0]);
	if (st.code > ok_max)
		return kmig_errcode(RUNNER_EINFRA, "%s failed with exit status "
				    "%d (see '%s')", what, st.code, out_path);
	return 0;
}

static int run_local(const struct lava_job *j, const char *job_path,
		     const char *log_path, double limit)
{
	char *out = xasprintf("%s/out", j->dir);
	char *device = xasprintf("%s/device.yaml", j->dir);
	char *argv[] = { "lava-run", "--job-id", (char *)j->id, "--output-dir",
			 out, "--device", device, (char *)job_path, NULL };
	int ret;

	ret = lava_write_device(device, j->accel);
	if (!ret)
		ret = lava_validate("device", device);
	if (!ret)
		ret = run_tool(argv, "lava-run", log_path, false, NULL, limit, 1);
	rm_rf(out);
	free(out);
	free(device);
	return ret;
}

static int run_remote(const struct runner *rn, const struct lava_job *j,
		      const char *job_path, const char *log_path, double limit)
{
	char *argv[9] = { "lavacli", "--identity", (char *)rn->lava_identity,
			  "jobs" };
	struct sbuf out = SBUF_INIT;
	char *id = NULL, *wait = NULL, *submit_log;
	const char *p;
	int ret;

	submit_log = xasprintf("%s/lavacli.log", j->dir);
	argv[4] = "submit";
	argv[5] = (char *)job_path;
	ret = run_tool(argv, "lavacli jobs submit", submit_log, false, &out,
		       120, 0);
	if (ret)
		goto out_free;
	/* It prints the new job's id. */
	p = out.buf ? out.buf + strcspn(out.buf, "0123456789") : "";
	id = xstrndup(p, strspn(p, "0123456789"));
	if (!*id) {
		ret = kmig_errcode(RUNNER_EINFRA, "lavacli jobs submit printed "
				   "no job id (see '%s')", submit_log);
		goto out_free;
	}
	wait = xasprintf("%.0f", limit);
	argv[4] = "wait";
	argv[5] = id;
	argv[6] = "--timeout";
	argv[7] = wait;
	ret = run_tool(argv, "lavacli jobs wait", submit_log, true, NULL,
		       limit + 60, 0);
	if (ret)
		goto out_free;
	argv[4] = "logs";
	argv[5] = "--raw";
	argv[6] = id;
	argv[7] = NULL;
	ret = run_tool(argv, "lavacli jobs logs", log_path, false, NULL, 600, 0);
out_free:
	free(submit_log);
	free(wait);
	free(id);
	sbuf_release(&out);
	return ret;
}

int lava_run_job(const struct runner *rn, const struct lava_job *j,
		 const char *console_path, struct qemu_result *r)
{
	char *job_path = xasprintf("%s/job.yaml", j->dir);
	char *log_path = xasprintf("%s/lava.log", j->dir);
	char *kernel_url = NULL, *initrd_url = NULL, *pub = NULL;
	double t = j->timeout > 0 ? j->timeout : 120, start = mono_now();
	double limit = 2 * t + LAVA_DEPLOY_SECONDS + 180;
	struct sbuf log = SBUF_INIT;
	int ret;

	memset(r, 0, sizeof(*r));
	if (rn->lava_identity) {
		char *k, *i;

		pub = xasprintf("%s/%s", rn->artifact_dir, j->id);
		k = xasprintf("%s/bzImage", pub);
		i = xasprintf("%s/initrd.cpio.gz", pub);
		ret = mkdir_p(pub);
		if (!ret)
			ret = copy_file(j->kernel, k);
		if (!ret)
			ret = copy_file(j->initramfs, i);
		free(k);
		free(i);
		if (ret)
			goto out_free;
		kernel_url = xasprintf("%s/%s/bzImage", rn->artifact_url, j->id);
		initrd_url = xasprintf("%s/%s/initrd.cpio.gz", rn->artifact_url,
				       j->id);
	} else {
		kernel_url = xasprintf("file://%s", j->kernel);
		initrd_url = xasprintf("file://%s", j->initramfs);
	}
	ret = lava_write_job(j, kernel_url, initrd_url, job_path);
	if (!ret)
		ret = lava_validate("job", job_path);
	if (ret)
		goto out_free;
	if (rn->lava_identity)
		ret = run_remote(rn, j, job_path, log_path, limit);
	else
		ret = run_local(j, job_path, log_path, limit);
	if (ret)
		goto out_free;
	r->seconds = mono_now() - start;
	ret = sbuf_read_file(&log, log_path);
	if (!ret)
		ret = lava_parse_log(log.buf ? log.buf : "", log.len, j,
				     console_path, &r->verdict);
	if (ret == RUNNER_EINFRA) {
		char *msg = xstrdup(kmig_errmsg());

		kmig_errcode(RUNNER_EINFRA, "%s (see '%s')", msg, log_path);
		free(msg);
	}
out_free:
	if (pub)
		rm_rf(pub);
	free(pub);
	sbuf_release(&log);
	free(kernel_url);
	free(initrd_url);
	free(job_path);
	free(log_path);
	return ret;
}
