// SPDX-License-Identifier: GPL-2.0
/*
 * test-recipients.c - the To: and Cc: of kmig bisect's report: the
 * author and the M: of the touched files' MAINTAINERS sections in To:,
 * the trailer people, R: and L: in Cc:, each address once; a commit of a
 * fixture repository with its own MAINTAINERS; the finding classes that
 * decide whether two failing runs failed the same way.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <git2.h>

#include "boottest.h"
#include "recipients.h"
#include "util.h"
#include "unit-util.h"

static const char maint[] =
	"List of maintainers\n"
	"===================\n"
	"\n"
	"\tM: *Mail* patches to: FullName <address@domain>\n"
	"\n"
	"RDS - RELIABLE DATAGRAM SOCKETS\n"
	"M:\tAlice Maint <alice@maint.invalid>\n"
	"R:\tRay Review <ray@review.invalid>\n"
	"L:\tnetdev@vger.invalid\n"
	"L:\trds-devel@oss.invalid (moderated for non-subscribers)\n"
	"S:\tSupported\n"
	"F:\tnet/rds/\n"
	"\n"
	"NETWORKING [GENERAL]\n"
	"M:\tBob Net <bob@net.invalid>\n"
	"L:\tnetdev@vger.invalid\n"
	"F:\tnet/\n"
	"F:\tinclude/net/\n"
	"\n"
	"THE REST\n"
	"M:\tLinus <linus@rest.invalid>\n"
	"L:\tlkml@vger.invalid\n"
	"F:\t*\n"
	"F:\t*/\n";

static const char message[] =
	"rds: rdma: warn\n"
	"\n"
	"Body text, Signed-off-by: Not A Trailer <no@body.invalid>\n"
	"\n"
	"Reported-by: Rita Reporter <rita@reporter.invalid>\n"
	"Reviewed-by: Ray Review <RAY@review.invalid>\n"
	"Acked-by: Ada Acker <ada@acker.invalid>\n"
	"Tested-by: Tess Tester <tess@tester.invalid> # v7.3\n"
	"Link: https://lore.invalid/x\n"
	"Cc: Not Taken <cc@trailer.invalid>\n"
	"Signed-off-by: Author Person <author@person.invalid>\n";

static void test_recipients_from(void **state)
{
	const char *paths[] = { "net/rds/rdma.c", "include/net/foo.h" };
	struct recipients r;
	char *s;

	(void)state;
	assert_int_equal(recipients_from("Author Person <author@person.invalid>",
					 message, maint, strlen(maint), paths, 2,
					 &r), 0);
	assert_int_equal(r.nsections, 2);
	assert_string_equal(r.sections[0], "RDS - RELIABLE DATAGRAM SOCKETS");
	assert_string_equal(r.sections[1], "NETWORKING [GENERAL]");
	s = recipients_format(&r);
	assert_string_equal(s,
		"To: Author Person <author@person.invalid>, Alice Maint <alice@maint.invalid>, "
		"Bob Net <bob@net.invalid>\n"
		"Cc: Ray Review <RAY@review.invalid>, Ada Acker <ada@acker.invalid>, "
		"Tess Tester <tess@tester.invalid>, Rita Reporter <rita@reporter.invalid>, "
		"netdev@vger.invalid, rds-devel@oss.invalid\n");
	free(s);
	recipients_release(&r);

	/* No MAINTAINERS: only the author and the trailers. */
	assert_int_equal(recipients_from("Author Person <author@person.invalid>",
					 message, NULL, 0, paths, 2, &r), 0);
	assert_int_equal(r.nsections, 0);
	assert_int_equal(r.nto, 1);
	assert_int_equal(r.ncc, 4);
	recipients_release(&r);

	/* A file only THE REST matches: its M: and L:. */
	paths[0] = "Makefile";
	assert_int_equal(recipients_from(NULL, "x\n", maint, strlen(maint),
					 paths, 1, &r), 0);
	s = recipients_format(&r);
	assert_string_equal(s, "To: Linus <linus@rest.invalid>\nCc: lkml@vger.invalid\n");
	free(s);
	recipients_release(&r);
}

static void test_recipients_of_commit(void **state)
{
	char *tmp = test_tmpdir(), *path, *mfile, id[64] = "";
	git_repository *repo;
	struct recipients r;
	FILE *f, *p;
	char *cmd, *s;

	(void)state;
	assert_non_null(tmp);
	mfile = xasprintf("%s/MAINTAINERS.in", tmp);
	f = fopen(mfile, "w");
	assert_non_null(f);
	fputs(maint, f);
	fclose(f);
	test_sh("cd %s && git init -q repo && cd repo && mkdir -p net/rds && "
		"cp ../MAINTAINERS.in MAINTAINERS && echo a > net/rds/rdma.c && "
		"git add . && git -c user.name=T -c user.email=t@t commit -q -m base && "
		"echo b > net/rds/rdma.c && git add . && "
		"git -c user.name='Author Person' -c user.email=author@person.invalid "
		"commit -q -m 'rds: change' -m 'Reviewed-by: Rob R <rob@r.invalid>' "
		"-m 'Signed-off-by: Author Person <author@person.invalid>'", tmp);
	cmd = xasprintf("git -C %s/repo rev-parse HEAD", tmp);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(id, sizeof(id), p));
	pclose(p);
	id[strcspn(id, "\n")] = '\0';
	path = xasprintf("%s/repo", tmp);
	assert_int_equal(git_repository_open(&repo, path), 0);
	assert_int_equal(recipients_of_commit(repo, id, &r), 0);
	s = recipients_format(&r);
	/* git commit -m makes paragraphs: only the last is the trailer block. */
	assert_string_equal(s,
		"To: Author Person <author@person.invalid>, Alice Maint <alice@maint.invalid>\n"
		"Cc: Ray Review <ray@review.invalid>, netdev@vger.invalid, rds-devel@oss.invalid\n");
	free(s);
	recipients_release(&r);
	git_repository_free(repo);
	assert_int_equal(test_tmpdir_remove(tmp), 0);
	free(cmd);
	free(path);
	free(mfile);
}

static void test_finding_class(void **state)
{
	static const struct {
		const char *finding, *class;
	} cases[] = {
		{ "WARNING: CPU: 0 PID: 1 at net/rds/rdma.c:596 rds_rdma_extra_size+0x2f/0x90",
		  "WARNING in net/rds/rdma.c" },
		{ "WARNING: net/rds/rdma.c:600 at rds_rdma_extra_size+0x1/0x2, CPU#0: init/1",
		  "WARNING in net/rds/rdma.c" },
		{ "WARNING: CPU: 0 PID: 1 at rds_rdma_extra_size+0x2f/0x90", "WARNING" },
		{ "BUG: kernel NULL pointer dereference, address: 0000000000000000", "BUG" },
		{ "Kernel panic - not syncing: panic_on_warn set ...", "Kernel panic" },
		{ "KMIG-TEST rds FAIL sendmsg nr_local=0: errno 0, want EINVAL",
		  "KMIG-TEST rds FAIL" },
		{ "KMIG-TEST boot: no result (the guest did not finish it)",
		  "KMIG-TEST boot no result" },
		{ "timeout: the guest did not finish in time (no KMIG-DONE)", "timeout" },
		{ "no KMIG-DONE marker: the guest did not finish", "no marker" },
		{ "something else", "something else" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char *c = boottest_finding_class(cases[i].finding);

		assert_string_equal(c, cases[i].class);
		free(c);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recipients_from),
		cmocka_unit_test(test_recipients_of_commit),
		cmocka_unit_test(test_finding_class),
	};
	int ret;

	git_libgit2_init();
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	git_libgit2_shutdown();
	return ret;
}
