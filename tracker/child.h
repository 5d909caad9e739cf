/* SPDX-License-Identifier: GPL-2.0 */
/*
 * child.h - kmig's one way to run a program: a kernel build, QEMU, git,
 * tar, spatch, apt-get.  The child runs in its own process group, with an
 * optional timeout, and is never left behind.
 *
 * While child_run() waits, SIGINT, SIGTERM and SIGHUP delivered to kmig
 * first kill the child's whole process group (child_opts.kill_signal),
 * then kill kmig with the same signal.  The child also gets
 * PR_SET_PDEATHSIG(SIGKILL), so it dies if kmig is killed outright.  On
 * timeout the group is killed with SIGKILL and reaped before returning.
 * One child at a time (kmig is single-threaded when it runs children).
 */
#ifndef KMIG_CHILD_H
#define KMIG_CHILD_H

#include <stdbool.h>

struct sbuf;

struct child_opts {
	char *const *argv;	/* argv[0] looked up in PATH */
	const char *dir;	/* working directory, NULL: kmig's */
	const char *out_path;	/* stdout and stderr go here; NULL: inherited */
	bool append;		/* append to out_path instead of truncating */
	struct sbuf *capture;	/* stdout appended here (stderr: as above) */
	char *const *env;	/* extra NAME=value settings, NULL-terminated */
	double timeout;		/* seconds; 0: none */
	int kill_signal;	/* sent to the group on kmig's signals; 0: SIGKILL */
	/*
	 * the size any file the child writes may reach (RLIMIT_FSIZE: a
	 * write beyond it raises SIGXFSZ, which ends the child); 0: none
	 */
	unsigned long long max_file;
};

struct child_status {
	int code;		/* exit status 0..255, or 128 + signal */
	bool timed_out;		/* killed by the timeout */
	double seconds;		/* wall-clock run time */
};

/*
 * child_run - run @o->argv and wait for it; stdin is /dev/null.  kmig's
 * stdio buffers are flushed first.  Returns 0 with @st filled in, or
 * negative (with the message recorded) when the child could not be
 * started.  A program that cannot be executed exits with status 127.
 */
int child_run(const struct child_opts *o, struct child_status *st);

/*
 * child_run_status - child_run() for the commands that only want the exit
 * status: 0..255, or 128 + signal.  Negative, with "cannot run '<argv[0]>'"
 * recorded, when the child could not be started or exited with 127 (could
 * not be executed, as the shell reports it).
 */
int child_run_status(const struct child_opts *o);

#endif
