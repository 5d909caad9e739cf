// SPDX-License-Identifier: GPL-2.0
/*
 * init.c - /init of kmig's QEMU guests (built with gcc -static by kmig).
 *
 * Runs the tests named in /kmig-tests (one name a line, written by kmig
 * into the initramfs), prints one line per test on the console (through
 * /dev/kmsg, see say()):
 *
 *	KMIG-TEST <name> PASS|FAIL <detail>
 *
 * then the final marker "KMIG-DONE", and reboots so that QEMU (started
 * with -no-reboot) exits.  A test that makes the kernel warn or oops never
 * reaches the marker: the kernel command line has panic_on_warn=1
 * oops=panic panic=-1, and kmig classifies the console.
 *
 * Tests:
 *	boot	user space was reached: pid 1, /proc and /sys mounted
 *	rds	AF_RDS over the loopback transport: a payload sent to itself
 *		is received, and invalid RDMA/atomic control messages are
 *		refused with the expected errno (see rds_cases[])
 *	hang	never finishes (exercises kmig's timeout)
 *
 * /kmig-fail, when kmig writes it (its KMIG_DEBUG_FAIL_BOOTS hook, see
 * tracker/qemu.h), names a test that reports FAIL without running: the
 * flaky-boot fixture of kmig's own tests.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <linux/rds.h>

#ifndef AF_RDS
#define AF_RDS 21
#endif

#define RDS_PORT 4000
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static int failures;

/*
 * Where say() writes: /dev/kmsg once setup() opened it, else stdout.
 *
 * A line written to the console's tty can be split by a kernel message
 * printed at the same time (on 7.x the console is printed by its own
 * thread, later than the printk() that queued it: rds_sendmsg()'s
 * "rdma_op ... conn xmit_rdma" notice has been seen glued to the end of
 * the "KMIG-TEST rds PASS" line).  A line written to /dev/kmsg is a
 * record of the kernel's log like any other: printed whole, in order
 * with the kernel's own messages, and flushed by the kernel at reboot.
 */
static int say_fd = 1;
static int say_kmsg;		/* say_fd is /dev/kmsg */

static void say(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n, skip = 0;

	/* The log level of kmsg records: KERN_NOTICE, on the console. */
	memcpy(line, "<5>", 3);
	va_start(ap, fmt);
	n = vsnprintf(line + 3, sizeof(line) - 4, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(line) - 5)
		n = sizeof(line) - 5;
	n += 3;
	line[n++] = '\n';
	if (!say_kmsg)
		skip = 3;	/* the tty: no log level */
	/* One write per line: one record, never half a line. */
	if (write(say_fd, line + skip, n - skip) >= 0 || !say_kmsg)
		return;
	if (write(1, line + 3, n - 3) < 0)	/* refused: the tty after all */
		return;
}

static void result(const char *test, int ok, const char *detail)
{
	if (!ok)
		failures++;
	say("KMIG-TEST %s %s %s", test, ok ? "PASS" : "FAIL", detail);
}

/* ---- boot ---- */

static void test_boot(void)
{
	struct utsname u;
	struct stat st;
	char detail[256];

	if (getpid() != 1) {
		result("boot", 0, "not running as pid 1");
		return;
	}
	if (stat("/proc/self/stat", &st) || stat("/sys/kernel", &st)) {
		result("boot", 0, "/proc or /sys not mounted");
		return;
	}
	uname(&u);
	snprintf(detail, sizeof(detail), "user space reached on %s %s",
		 u.sysname, u.release);
	result("boot", 1, detail);
}

/* ---- rds ---- */

static int lo_up(void)
{
	struct ifreq ifr;
	int fd, ret = -1;

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
		ret = ioctl(fd, SIOCSIFFLAGS, &ifr);
	}
	close(fd);
	return ret;
}

static struct sockaddr_in self_addr(void)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(RDS_PORT),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	return sin;
}

/* Local buffers the RDMA and atomic arguments point at. */
static char rdma_buf[4096] __attribute__((aligned(4096)));
static uint64_t atomic_word __attribute__((aligned(8)));
static struct rds_iovec local_vec[2];

/* Room for two control messages of the largest argument type. */
union cmsg_space {
	char buf[2 * CMSG_SPACE(sizeof(struct rds_atomic_args))];
	struct cmsghdr align;
};

struct cmsg_builder {
	struct msghdr msg;
	union cmsg_space space;
	struct cmsghdr *next;
	struct sockaddr_in to;
	struct iovec iov;
};

static void cb_init(struct cmsg_builder *cb, const void *payload, size_t len)
{
	memset(cb, 0, sizeof(*cb));
	cb->to = self_addr();
	cb->msg.msg_name = &cb->to;
	cb->msg.msg_namelen = sizeof(cb->to);
	cb->iov.iov_base = (void *)payload;
	cb->iov.iov_len = len;
	cb->msg.msg_iov = &cb->iov;
	cb->msg.msg_iovlen = 1;
	cb->msg.msg_control = cb->space.buf;
	cb->msg.msg_controllen = sizeof(cb->space.buf);
	cb->next = CMSG_FIRSTHDR(&cb->msg);
	cb->msg.msg_controllen = 0;
}

/* Append a SOL_RDS control message; @len_override: a short cmsg_len. */
static void cb_add(struct cmsg_builder *cb, int type, const void *data,
		   size_t len, size_t len_override)
{
	struct cmsghdr *c = cb->next;

	c->cmsg_level = SOL_RDS;
	c->cmsg_type = type;
	c->cmsg_len = len_override ? len_override : CMSG_LEN(len);
	memcpy(CMSG_DATA(c), data, len);
	cb->msg.msg_controllen += CMSG_SPACE(len);
	cb->next = (struct cmsghdr *)((char *)c + CMSG_SPACE(len));
}

static struct rds_rdma_args rdma_args(uint64_t nr_local, uint64_t bytes)
{
	struct rds_rdma_args a;

	memset(&a, 0, sizeof(a));
	local_vec[0].addr = (uintptr_t)rdma_buf;
	local_vec[0].bytes = bytes;
	local_vec[1] = local_vec[0];
	a.local_vec_addr = (uintptr_t)local_vec;
	a.nr_local = nr_local;
	a.remote_vec.addr = 0x10000;
	a.remote_vec.bytes = bytes;
	a.cookie = 0x1234;
	a.flags = RDS_RDMA_READWRITE;
	return a;
}

static struct rds_atomic_args atomic_args(uint64_t local_addr)
{
	struct rds_atomic_args a;

	memset(&a, 0, sizeof(a));
	a.local_addr = local_addr;
	a.remote_addr = 0x10000;
	a.fadd.add = 1;
	a.cookie = 0x1234;
	return a;
}

/*
 * One sendmsg() case: the control messages it carries and the errno it
 * must fail with.  Checked on v6.1.192 and v6.12.118, which answer alike
 * for every case here (the checks in rds_rm_size(), rds_rdma_bytes(),
 * rds_rdma_extra_size(), rds_cmsg_rdma_args(), rds_cmsg_atomic() and
 * rds_sendmsg() are the same in both).  The loopback transport has
 * neither xmit_rdma nor xmit_atomic, so well-formed RDMA and atomic
 * requests end in EOPNOTSUPP after all argument checks passed.
 */
enum rds_case {
	C_NR_LOCAL_ZERO,
	C_NR_LOCAL_HUGE,
	C_ZERO_IOVEC,
	C_VALID_NO_TRANSPORT,
	C_SHORT_CMSG,
	C_ATOMIC,
	C_ATOMIC_UNALIGNED,
	C_ATOMIC_SHORT_CMSG,
	C_MIXED_PAYLOAD_RDMA,
	C_TWO_RDMA_ARGS,
	C_ARGS_WITH_DEST,
	C_UNKNOWN_TYPE,
};

static const struct {
	enum rds_case c;
	const char *name;
	int want;
} rds_cases[] = {
	/* rds_rdma_extra_size(): no local vectors */
	{ C_NR_LOCAL_ZERO, "rdma-nr_local-0", EINVAL },
	/* rds_rdma_extra_size(): more than UIO_MAXIOV local vectors */
	{ C_NR_LOCAL_HUGE, "rdma-nr_local-above-UIO_MAXIOV", EMSGSIZE },
	/* rds_pages_in_vec() is 0 for a zero-length vector */
	{ C_ZERO_IOVEC, "rdma-zero-length-iovec", EINVAL },
	/* every check passes; the loop transport cannot do RDMA */
	{ C_VALID_NO_TRANSPORT, "rdma-valid-no-transport", EOPNOTSUPP },
	/* rds_rdma_bytes(): cmsg_len < CMSG_LEN(sizeof(rds_rdma_args)) */
	{ C_SHORT_CMSG, "rdma-short-cmsg_len", EINVAL },
	/* atomic: well formed, the loop transport has no xmit_atomic */
	{ C_ATOMIC, "atomic-fadd-no-transport", EOPNOTSUPP },
	/* rds_cmsg_atomic(): local_addr must be 8-byte aligned */
	{ C_ATOMIC_UNALIGNED, "atomic-unaligned-local_addr", EFAULT },
	/* rds_cmsg_atomic(): short cmsg_len */
	{ C_ATOMIC_SHORT_CMSG, "atomic-short-cmsg_len", EINVAL },
	/* a payload and RDMA in one message: the RDMA still has no transport */
	{ C_MIXED_PAYLOAD_RDMA, "payload-with-rdma", EOPNOTSUPP },
	/* rds_cmsg_rdma_args(): a second RDMA_ARGS in one message */
	{ C_TWO_RDMA_ARGS, "rdma-args-twice", EINVAL },
	/* rds_rm_size(): (DEST, MAP) never together with (ARGS, ATOMIC) */
	{ C_ARGS_WITH_DEST, "rdma-args-with-dest", EINVAL },
	/* rds_rm_size(): unknown SOL_RDS control message type */
	{ C_UNKNOWN_TYPE, "unknown-cmsg-type", EINVAL },
};

static int rds_send_case(int fd, enum rds_case c)
{
	static const char payload[] = "kmig-rds-mixed";
	struct cmsg_builder cb;
	struct rds_rdma_args ra;
	struct rds_atomic_args aa;
	rds_rdma_cookie_t cookie = 0x1234;
	uint64_t junk = 0;

	cb_init(&cb, NULL, 0);
	switch (c) {
	case C_NR_LOCAL_ZERO:
		ra = rdma_args(0, sizeof(rdma_buf));
		cb_add(&cb, RDS_CMSG_RDMA_ARGS, &ra, sizeof(ra), 0);
		break;
	case C_NR_LOCAL_HUGE:
		ra = rdma_args(UIO_MAXIOV + 1, sizeof(rdma_buf));
		cb_add(&cb, RDS_CMSG_RDMA_ARGS, &ra, sizeof(ra), 0);
		break;
	case C_ZERO_IOVEC:
		ra = rdma_args(1, 0);
		cb_add(&cb, RDS_CMSG_RDMA_ARGS, &ra, sizeof(ra), 0);
		break;
	case C_VALID_NO_TRANSPORT:
		ra = rdma_args(1, sizeof(rdma_buf));
		cb_add(&cb, RDS_CMSG_RDMA_ARGS, &ra, sizeof(ra), 0);
		break;
	case C_SHORT_CMSG:
		ra = rdma_args(1, sizeof(rdma_buf));
		cb_add(&cb, RDS_CMSG_RDMA_ARGS, &ra, sizeof(ra),
		       CMSG_LEN(sizeof(uint64_t)));
		break;
	case C_ATOMIC:
		aa = atomic_args((uintptr_t)&atomic_word);
		cb_add(&cb, RDS_CMSG_ATOMIC_FADD, &aa, sizeof(aa), 0);
		break;
	case C_ATOMIC_UNALIGNED:
		aa = atomic_args((uintptr_t)&atomic_word + 1);
		cb_add(&cb, RDS_CMSG_ATOMIC_FADD, &aa, sizeof(aa), 0);
		break;
	case C_ATOMIC_SHORT_CMSG:
		aa = atomic_args((uintptr_t)&atomic_word);
		cb_add(&cb, RDS_CMSG_ATOMIC_FADD, &aa, sizeof(aa),
		       CMSG_LEN(sizeof(uint64_t)));
		break;
	case C_MIXED_PAYLOAD_RDMA:
		cb.iov.iov_base = (void *)payload;
		cb.iov.iov_len = sizeof(payload);
		ra = rdma_args(1, sizeof(rdma_buf));
		cb_add(&cb, RDS_CMSG_RDMA_ARGS, &ra, sizeof(ra), 0);
		break;
	case C_TWO_RDMA_ARGS:
		ra = rdma_args(1, sizeof(rdma_buf));
		cb_add(&cb, RDS_CMSG_RDMA_ARGS, &ra, sizeof(ra), 0);
		cb_add(&cb, RDS_CMSG_RDMA_ARGS, &ra, sizeof(ra), 0);
		break;
	case C_ARGS_WITH_DEST:
		ra = rdma_args(1, sizeof(rdma_buf));
		cb_add(&cb, RDS_CMSG_RDMA_ARGS, &ra, sizeof(ra), 0);
		cb_add(&cb, RDS_CMSG_RDMA_DEST, &cookie, sizeof(cookie), 0);
		break;
	case C_UNKNOWN_TYPE:
		cb_add(&cb, 200, &junk, sizeof(junk), 0);
		break;
	}
	return sendmsg(fd, &cb.msg, 0);
}

/* Send @payload to ourselves and receive it back. */
static int rds_echo(int fd, const char *payload, char *why, size_t whylen)
{
	struct sockaddr_in to = self_addr();
	char buf[256];
	ssize_t n;

	n = sendto(fd, payload, strlen(payload), 0, (struct sockaddr *)&to,
		   sizeof(to));
	if (n != (ssize_t)strlen(payload)) {
		snprintf(why, whylen, "sendto: %s", n < 0 ? strerror(errno) :
			 "short send");
		return -1;
	}
	n = recv(fd, buf, sizeof(buf) - 1, 0);
	if (n < 0) {
		snprintf(why, whylen, "recv: %s", strerror(errno));
		return -1;
	}
	buf[n] = '\0';
	if (strcmp(buf, payload)) {
		snprintf(why, whylen, "received '%.64s', sent '%.64s'", buf, payload);
		return -1;
	}
	return 0;
}

static void test_rds(void)
{
	struct sockaddr_in sin = self_addr();
	struct timeval tv = { .tv_sec = 10 };
	char why[256], detail[512];
	size_t i, bad = 0;
	int fd;

	if (lo_up()) {
		snprintf(detail, sizeof(detail), "cannot bring lo up: %s",
			 strerror(errno));
		result("rds", 0, detail);
		return;
	}
	fd = socket(AF_RDS, SOCK_SEQPACKET, 0);
	if (fd < 0) {
		snprintf(detail, sizeof(detail), "socket(AF_RDS): %s",
			 strerror(errno));
		result("rds", 0, detail);
		return;
	}
	/* a send or receive that blocks in RDS fails the test, not the boot */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin))) {
		snprintf(detail, sizeof(detail), "bind 127.0.0.1: %s",
			 strerror(errno));
		goto fail;
	}
	if (rds_echo(fd, "kmig-rds-hello", why, sizeof(why))) {
		snprintf(detail, sizeof(detail), "loopback payload: %s", why);
		goto fail;
	}

	detail[0] = '\0';
	for (i = 0; i < ARRAY_LEN(rds_cases); i++) {
		int ret = rds_send_case(fd, rds_cases[i].c);
		int err = ret < 0 ? errno : 0;
		int ok = ret < 0 && err == rds_cases[i].want;

		say("KMIG-CASE rds %s %s want %s got %s", rds_cases[i].name,
		    ok ? "ok" : "BAD", strerrorname_np(rds_cases[i].want),
		    ret < 0 ? strerrorname_np(err) : "success");
		if (!ok && !bad++)
			snprintf(detail, sizeof(detail),
				 "%s: want %s, got %s", rds_cases[i].name,
				 strerrorname_np(rds_cases[i].want),
				 ret < 0 ? strerrorname_np(err) : "success");
	}
	if (bad)
		goto fail;

	/* The socket still works after every refused message. */
	if (rds_echo(fd, "kmig-rds-again", why, sizeof(why))) {
		snprintf(detail, sizeof(detail), "payload after cases: %s",
			 why);
		goto fail;
	}
	close(fd);
	snprintf(detail, sizeof(detail),
		 "loopback payload received, %zu sendmsg errno cases checked",
		 ARRAY_LEN(rds_cases));
	result("rds", 1, detail);
	return;
fail:
	close(fd);
	result("rds", 0, detail);
}

/* ---- hang ---- */

static void test_hang(void)
{
	say("KMIG-CASE hang sleeping forever");
	for (;;)
		pause();
}

/* ---- main ---- */

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
	{ "boot", test_boot },
	{ "rds", test_rds },
	{ "hang", test_hang },
};

static char fail_test[64];

static void run_test(const char *name)
{
	size_t i;

	if (fail_test[0] && !strcmp(fail_test, name)) {
		result(name, 0, "failed on purpose (/kmig-fail: kmig's KMIG_DEBUG_FAIL_BOOTS hook)");
		return;
	}
	for (i = 0; i < ARRAY_LEN(tests); i++) {
		if (!strcmp(tests[i].name, name)) {
			tests[i].fn();
			return;
		}
	}
	result(name, 0, "no such test in this guest");
}

/* The first bytes of file @path, NUL-terminated; false when unreadable. */
static int read_small(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return 0;
	buf[n] = '\0';
	return 1;
}

/*
 * Send say()'s lines to /dev/kmsg when it takes them without the
 * ratelimit a writer gets by default (ten lines in five seconds; the rds
 * test alone says more): printk.devkmsg=on on the command line (kmig's
 * runners pass it), or the sysctl set here.  Otherwise they stay on
 * stdout, the console's tty.
 */
static void say_setup(void)
{
	char buf[1024];
	int fd, on = 0;

	fd = open("/proc/sys/kernel/printk_devkmsg", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		/* Refused when the command line set it: read below. */
		on = write(fd, "on\n", 3) == 3;
		close(fd);
	}
	if (on) {
		/* set here */
	} else if (read_small("/proc/sys/kernel/printk_devkmsg", buf,
			      sizeof(buf))) {
		on = !strncmp(buf, "on", 2);
	} else if (read_small("/proc/cmdline", buf, sizeof(buf))) {
		/* no sysctl (no CONFIG_PROC_SYSCTL): the last setting counts */
		const char *p = buf, *last = NULL;

		while ((p = strstr(p, "printk.devkmsg=")) != NULL) {
			p += strlen("printk.devkmsg=");
			last = p;
		}
		on = last && !strncmp(last, "on", 2) &&
		     (!last[2] || last[2] == ' ' || last[2] == '\n');
	}
	if (!on)
		return;
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		say_fd = fd;
		say_kmsg = 1;
	}
}

static void setup(void)
{
	mkdir("/proc", 0555);
	mkdir("/sys", 0555);
	mkdir("/dev", 0755);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	say_setup();
}

int main(void)
{
	char line[128];
	FILE *f;
	int n = 0;

	setup();
	/* "kmsg": the lines go through /dev/kmsg, "tty": straight to it */
	say("KMIG-START %s", say_kmsg ? "kmsg" : "tty");
	f = fopen("/kmig-fail", "r");
	if (f) {
		if (fgets(fail_test, sizeof(fail_test), f))
			fail_test[strcspn(fail_test, "\r\n")] = '\0';
		fclose(f);
	}
	f = fopen("/kmig-tests", "r");
	if (!f) {
		result("init", 0, "cannot open /kmig-tests");
	} else {
		while (fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\r\n")] = '\0';
			if (!line[0])
				continue;
			run_test(line);
			n++;
		}
		fclose(f);
	}
	say("KMIG-DONE tests=%d failed=%d", n, failures);
	sync();
	reboot(RB_AUTOBOOT);
	/* Never returns; pid 1 must not exit (the kernel would panic). */
	for (;;)
		pause();
}
