// SPDX-License-Identifier: GPL-2.0
/*
 * child.c - child processes in their own process group; see child.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "util.h"

static volatile sig_atomic_t child_pgid;
static volatile sig_atomic_t child_killsig = SIGKILL;

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP };

static void on_signal(int sig)
{
	if (child_pgid > 0)
		kill(-(pid_t)child_pgid, child_killsig);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* An unlinked temporary file for the child's stdout. */
static int capture_open(void)
{
	char tmpl[] = "/tmp/kmig-capture.XXXXXX";
	int fd = mkostemp(tmpl, O_CLOEXEC);

	if (fd >= 0)
		unlink(tmpl);
	return fd;
}

static int capture_read(int fd, struct sbuf *out)
{
	char tmp[65536];
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return kmig_err("cannot read the output: %s", strerror(errno));
	while ((n = read(fd, tmp, sizeof(tmp))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return kmig_err("cannot read the output: %s", strerror(errno));
		}
		sbuf_add(out, tmp, (size_t)n);
	}
	return 0;
}

/* In the child, after fork(): never returns. */
static void child_exec(const struct child_opts *o, int out_fd, int cap_fd,
		       pid_t parent)
{
	int null_fd;
	size_t i;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	for (i = 0; i < ARRAY_SIZE(forwarded); i++)
		signal(forwarded[i], SIG_DFL);
	null_fd = open("/dev/null", O_RDONLY);
	if (null_fd >= 0) {
		dup2(null_fd, 0);
		close(null_fd);
	}
	if (out_fd >= 0) {
		dup2(out_fd, 1);
		dup2(out_fd, 2);
		close(out_fd);
	}
	if (cap_fd >= 0) {
		dup2(cap_fd, 1);
		close(cap_fd);
	}
	if (o->dir && chdir(o->dir))
		_exit(127);
	if (o->max_file) {
		struct rlimit fsize = { o->max_file, o->max_file };
		struct rlimit core = { 0, 0 };

		if (setrlimit(RLIMIT_FSIZE, &fsize) || setrlimit(RLIMIT_CORE, &core))
			_exit(127);
		/* an ignored signal stays so across exec: the cap ends it */
		signal(SIGXFSZ, SIG_DFL);
	}
	for (i = 0; o->env && o->env[i]; i++)
		putenv(o->env[i]);
	execvp(o->argv[0], o->argv);
	_exit(127);
}

int child_run(const struct child_opts *o, struct child_status *st)
{
	struct sigaction sa, old[ARRAY_SIZE(forwarded)];
	sigset_t block, prev;
	double start, deadline;
	int out_fd = -1, cap_fd = -1, wstatus, ret = 0;
	pid_t pid, parent = getpid();
	size_t i;

	memset(st, 0, sizeof(*st));
	if (o->out_path) {
		out_fd = open(o->out_path, O_WRONLY | O_CREAT | O_CLOEXEC |
			      (o->append ? O_APPEND : O_TRUNC), 0666);
		if (out_fd < 0)
			return kmig_err("cannot open '%s': %s", o->out_path,
					strerror(errno));
	}
	if (o->capture) {
		cap_fd = capture_open();
		if (cap_fd < 0) {
			ret = kmig_err("cannot create a temporary file: %s",
				       strerror(errno));
			goto out_close;
		}
	}
	fflush(NULL);

	/* Hold our signals until the child's group is known. */
	sigemptyset(&block);
	for (i = 0; i < ARRAY_SIZE(forwarded); i++)
		sigaddset(&block, forwarded[i]);
	sigprocmask(SIG_BLOCK, &block, &prev);

	start = mono_now();
	pid = fork();
	if (pid < 0) {
		ret = kmig_err("cannot run '%s': %s", o->argv[0], strerror(errno));
		goto out_unblock;
	}
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &prev, NULL);
		child_exec(o, out_fd, cap_fd, parent);
	}
	/* Both sides set the group: no window where a kill misses it. */
	setpgid(pid, pid);
	child_pgid = pid;
	child_killsig = o->kill_signal ? o->kill_signal : SIGKILL;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(forwarded); i++)
		sigaction(forwarded[i], &sa, &old[i]);
	sigprocmask(SIG_SETMASK, &prev, NULL);

	deadline = o->timeout > 0 ? start + o->timeout : 0;
	for (;;) {
		pid_t r = waitpid(pid, &wstatus, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			ret = kmig_err("waitpid: %s", strerror(errno));
			kill(-pid, SIGKILL);
			waitpid(pid, &wstatus, 0);
			break;
		}
		if (deadline && mono_now() >= deadline) {
			st->timed_out = true;
			kill(-pid, SIGKILL);
			while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
				;
			break;
		}
		sleep_ms(20);
	}
	/* Anything the leader left in its group goes with it. */
	kill(-pid, SIGKILL);
	st->seconds = mono_now() - start;
	if (WIFEXITED(wstatus))
		st->code = WEXITSTATUS(wstatus);
	else if (WIFSIGNALED(wstatus))
		st->code = 128 + WTERMSIG(wstatus);

	sigprocmask(SIG_BLOCK, &block, NULL);
	child_pgid = 0;
	for (i = 0; i < ARRAY_SIZE(forwarded); i++)
		sigaction(forwarded[i], &old[i], NULL);
out_unblock:
	sigprocmask(SIG_SETMASK, &prev, NULL);
	if (!ret && cap_fd >= 0)
		ret = capture_read(cap_fd, o->capture);
out_close:
	if (cap_fd >= 0)
		close(cap_fd);
	if (out_fd >= 0)
		close(out_fd);
	return ret;
}

int child_run_status(const struct child_opts *o)
{
	struct child_status st;

	if (child_run(o, &st))
		return KMIG_EGENERIC;
	if (st.code == 127)
		return kmig_err("cannot run '%s'", o->argv[0]);
	return st.code;
}
