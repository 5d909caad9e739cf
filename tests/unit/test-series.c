// SPDX-License-Identifier: GPL-2.0
/*
 * test-series.c - format-patch parsing and writing, dates, file names,
 * trailers and hunk reversal (series.c, branch.c helpers).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <git2.h>

#include "branch.h"
#include "series.h"
#include "unit-util.h"
#include "util.h"

static const char patch[] =
	"From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001\n"
	"From: \"Ada Author\" <ada@example.org>\n"
	"Date: Sun, 16 Dec 2018 09:01:08 +0200\n"
	"Subject: [PATCH v2 1/3] net/rds: a subject that is folded\n"
	" onto a second line\n"
	"\n"
	"The body.\n"
	"\n"
	"Signed-off-by: Ada Author <ada@example.org>\n"
	"---\n"
	" a.c | 3 ++-\n"
	" 1 file changed, 2 insertions(+), 1 deletion(-)\n"
	"\n"
	"diff --git a/a.c b/a.c\n"
	"index 1111111..2222222 100644\n"
	"--- a/a.c\n"
	"+++ b/a.c\n"
	"@@ -1,3 +1,4 @@ int f(void)\n"
	" one\n"
	"-two\n"
	"+TWO\n"
	"+2.5\n"
	" three\n"
	"diff --git a/new.c b/new.c\n"
	"new file mode 100644\n"
	"index 0000000..3333333\n"
	"--- /dev/null\n"
	"+++ b/new.c\n"
	"@@ -0,0 +1 @@\n"
	"+-- \n"
	"\\ No newline at end of file\n"
	"-- \n"
	"2.39.5\n"
	"\n";

static void test_parse(void **state)
{
	struct mbox_patch p;
	char *msg;

	(void)state;
	assert_int_equal(mbox_parse(&p, patch, strlen(patch), "t"), 0);
	assert_string_equal(p.commit, "1234567890abcdef1234567890abcdef12345678");
	assert_string_equal(p.author_name, "Ada Author");
	assert_string_equal(p.author_email, "ada@example.org");
	assert_int_equal(p.time, 1544943668);
	assert_int_equal(p.offset, 120);
	assert_string_equal(p.subject,
			    "net/rds: a subject that is folded onto a second line");
	assert_string_equal(p.body, "The body.\n\nSigned-off-by: Ada Author <ada@example.org>");
	assert_int_equal(p.nfiles, 2);
	assert_string_equal(p.files[0].old_path, "a.c");
	assert_string_equal(p.files[0].new_path, "a.c");
	assert_int_equal(p.files[0].nhunks, 1);
	assert_int_equal(p.files[0].hunks[0].old_start, 1);
	assert_int_equal(p.files[0].hunks[0].old_lines, 3);
	assert_int_equal(p.files[0].hunks[0].new_lines, 4);
	assert_null(p.files[1].old_path);
	assert_string_equal(p.files[1].new_path, "new.c");
	assert_string_equal(p.files[1].new_mode, "100644");
	/* the added line "-- " is content, the signature is not */
	assert_non_null(strstr(p.diff, "+-- \n\\ No newline at end of file\n"));
	assert_null(strstr(p.diff, "2.39.5"));
	msg = mbox_message(&p);
	assert_string_equal(msg, "net/rds: a subject that is folded onto a second line\n\n"
			    "The body.\n\nSigned-off-by: Ada Author <ada@example.org>\n");
	free(msg);
	mbox_patch_clear(&p);
}

static void test_not_a_patch(void **state)
{
	static const char *const bad[] = {
		"not a patch\n",
		"From: A <a@b>\nDate: Sun, 16 Dec 2018 09:01:08 +0200\nSubject: x\n\nno diff\n",
		"From: A <a@b>\nDate: yesterday\nSubject: x\n\ndiff --git a/x b/x\n",
		"From: A <a@b>\nDate: Sun, 16 Dec 2018 09:01:08 +0200\nSubject: x\n\n"
		"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n",
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct mbox_patch p;

		assert_int_not_equal(mbox_parse(&p, bad[i], strlen(bad[i]), "bad"), 0);
		mbox_patch_clear(&p);
	}
}

static void test_dates(void **state)
{
	char buf[64];
	long long t;
	int off;

	(void)state;
	rfc2822_date(buf, sizeof(buf), 1544943668, 120);
	assert_string_equal(buf, "Sun, 16 Dec 2018 09:01:08 +0200");
	rfc2822_date(buf, sizeof(buf), 1544943668, -330);
	assert_string_equal(buf, "Sun, 16 Dec 2018 01:31:08 -0530");
	assert_int_equal(rfc2822_parse(buf, &t, &off), 0);
	assert_int_equal(t, 1544943668);
	assert_int_equal(off, -330);
	assert_int_equal(rfc2822_parse("3 Jan 2020 04:05:06 +0000", &t, &off), 0);
	assert_int_equal(t, 1578024306);
	assert_int_not_equal(rfc2822_parse("2020-01-03", &t, &off), 0);
	/* the seconds are optional */
	assert_int_equal(rfc2822_parse("Fri, 3 Jan 2020 04:05 +0000", &t, &off), 0);
	assert_int_equal(t, 1578024300);
}

/* An entry appended to a series file whose last line has no newline. */
static void test_append(void **state)
{
	char *dir = test_tmpdir(), *path;
	struct sbuf sb = SBUF_INIT;
	FILE *f;

	(void)state;
	assert_non_null(dir);
	assert_int_equal(series_append(dir, "0001-a.patch"), 0);
	path = xasprintf("%s/series", dir);
	f = fopen(path, "a");
	assert_non_null(f);
	fputs("# mine\n0002-b.patch", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(series_append(dir, "0003-c.patch"), 0);
	assert_int_equal(sbuf_read_file(&sb, path), 0);
	assert_string_equal(sb.buf, "0001-a.patch\n# mine\n0002-b.patch\n0003-c.patch\n");
	sbuf_release(&sb);
	free(path);
	assert_int_equal(test_tmpdir_remove(dir), 0);
}

/* series_write() of @names over a series file holding @old: its text. */
static char *rewrite(const char *dir, const char *old, char *const *names,
		     size_t n)
{
	char *path = xasprintf("%s/series", dir);
	struct sbuf sb = SBUF_INIT;
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(old, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(series_write(dir, names, n), 0);
	assert_int_equal(sbuf_read_file(&sb, path), 0);
	free(path);
	return sbuf_detach(&sb);
}

/* A rewrite keeps the comments, blank lines and options where they were. */
static void test_write_keeps(void **state)
{
	char *dir = test_tmpdir(), *text;
	char *kept[] = { "0001-a.patch", "0003-c.patch", "0004-d.patch" };
	char *first[] = { "0000-z.patch", "0001-a.patch" };

	(void)state;
	assert_non_null(dir);
	/* 0002 dropped, 0004 new after 0003 */
	text = rewrite(dir,
		       "# top\n\n0001-a.patch -p1\n# about b\n0002-b.patch\n"
		       "\n# about c\n0003-c.patch # ours\n# end",
		       kept, 3);
	assert_string_equal(text,
			    "# top\n\n0001-a.patch -p1\n# about b\n\n# about c\n"
			    "0003-c.patch # ours\n0004-d.patch\n# end\n");
	free(text);
	/* a new first entry goes under the comments at the top */
	text = rewrite(dir, "# top\n0001-a.patch\n", first, 2);
	assert_string_equal(text, "# top\n0000-z.patch\n0001-a.patch\n");
	free(text);
	/* comments alone stay on top; an entry dropped at the end keeps its */
	text = rewrite(dir, "# only\n", kept, 1);
	assert_string_equal(text, "# only\n0001-a.patch\n");
	free(text);
	text = rewrite(dir, "0001-a.patch\n# b next\n0002-b.patch\n", kept, 1);
	assert_string_equal(text, "0001-a.patch\n# b next\n");
	free(text);
	/* a CR LF file stays CR LF, its new lines too */
	text = rewrite(dir, "# top\r\n0001-a.patch -p1\r\n0003-c.patch", kept, 3);
	assert_string_equal(text, "# top\r\n0001-a.patch -p1\r\n0003-c.patch\r\n"
			    "0004-d.patch\r\n");
	free(text);
	assert_int_equal(test_tmpdir_remove(dir), 0);
}

static void test_file_names(void **state)
{
	char *n;

	(void)state;
	/* as git format-patch names them (52-character slug) */
	n = patch_file_name(1, "net/rds: remove user triggered WARN_ON in rds_sendmsg");
	assert_string_equal(n, "0001-net-rds-remove-user-triggered-WARN_ON-in-rds_sendmsg.patch");
	free(n);
	n = patch_file_name(1, "rds: rdma: test the local vector count once in rds_rdma_extra_size()");
	assert_string_equal(n, "0001-rds-rdma-test-the-local-vector-count-once-in-rds_rdm.patch");
	free(n);
	n = patch_file_name(12, "scsi: aacraid: Replace strlcpy() with strscpy()");
	assert_string_equal(n, "0012-scsi-aacraid-Replace-strlcpy-with-strscpy.patch");
	free(n);
}

static void test_format_roundtrip(void **state)
{
	struct mbox_patch p, q;
	struct sbuf out = SBUF_INIT;
	char *msg;

	(void)state;
	assert_int_equal(mbox_parse(&p, patch, strlen(patch), "t"), 0);
	msg = mbox_message(&p);
	mbox_format(&out, p.commit, p.author_name, p.author_email, p.time, p.offset,
		    msg, " a.c | 3 ++-\n", p.diff);
	assert_int_equal(strncmp(out.buf, "From 1234567890abcdef1234567890abcdef12345678 "
				 "Mon Sep 17 00:00:00 2001\nFrom: Ada Author <ada@example.org>\n"
				 "Date: Sun, 16 Dec 2018 09:01:08 +0200\n"
				 "Subject: [PATCH] net/rds: a subject that is folded onto a "
				 "second line\n\nThe body.\n", 200), 0);
	assert_int_equal(mbox_parse(&q, out.buf, out.len, "u"), 0);
	assert_string_equal(q.subject, p.subject);
	assert_string_equal(q.body, p.body);
	assert_string_equal(q.diff, p.diff);
	assert_int_equal(q.time, p.time);
	free(msg);
	sbuf_release(&out);
	mbox_patch_clear(&p);
	mbox_patch_clear(&q);
}

static void test_reverse(void **state)
{
	struct mbox_patch p;
	struct sbuf out = SBUF_INIT;

	(void)state;
	assert_int_equal(mbox_parse(&p, patch, strlen(patch), "t"), 0);
	assert_int_equal(patch_file_text(&out, &p.files[0], NULL, true), 0);
	assert_string_equal(out.buf,
			    "diff --git a/a.c b/a.c\n--- a/a.c\n+++ b/a.c\n"
			    "@@ -1,4 +1,3 @@ int f(void)\n one\n+two\n-TWO\n-2.5\n three\n");
	sbuf_reset(&out);
	assert_int_equal(patch_file_text(&out, &p.files[1], NULL, true), 0);
	assert_string_equal(out.buf,
			    "diff --git a/new.c b/new.c\ndeleted file mode 100644\n"
			    "--- a/new.c\n+++ /dev/null\n@@ -1,1 +0,0 @@\n--- \n"
			    "\\ No newline at end of file\n");
	sbuf_release(&out);
	mbox_patch_clear(&p);
}

static void test_trailers(void **state)
{
	char *m, *v, *rest;

	(void)state;
	m = branch_message_add_trailer("subject\n\nbody\n\nSigned-off-by: A <a@b>\n",
				       "Kmig-Patch", "0001-x.patch");
	assert_string_equal(m, "subject\n\nbody\n\nSigned-off-by: A <a@b>\nKmig-Patch: 0001-x.patch\n");
	v = branch_message_trailer(m, "Kmig-Patch", &rest);
	assert_string_equal(v, "0001-x.patch");
	assert_string_equal(rest, "subject\n\nbody\n\nSigned-off-by: A <a@b>\n");
	free(m);
	free(v);
	free(rest);
	m = branch_message_add_trailer("subject only\n", "Kmig-Patch", "0002-y.patch");
	assert_string_equal(m, "subject only\n\nKmig-Patch: 0002-y.patch\n");
	v = branch_message_trailer(m, "Kmig-Patch", &rest);
	assert_string_equal(rest, "subject only\n");
	free(m);
	free(v);
	free(rest);
	m = branch_message_add_trailer("subject\n\na body: not a trailer block\n", "K", "v");
	assert_string_equal(m, "subject\n\na body: not a trailer block\n\nK: v\n");
	free(m);
	assert_null(branch_message_trailer("subject\n", "Kmig-Patch", NULL));
	/* a Kmig-Patch: line in the body is not the trailer, nor stripped */
	m = "subject\n\nKmig-Patch: 0009-body.patch\nin the body.\n\nSigned-off-by: A <a@b>\n";
	assert_null(branch_message_trailer(m, "Kmig-Patch", &rest));
	assert_string_equal(rest, m);
	free(rest);
}

static void test_diffstat(void **state)
{
	/* what git format-patch (--stat=72) writes for the same changes */
	static const struct diffstat_file small[] = {
		{ .name = "net/bar/b.c", .added = 1, .deleted = 1 },
		{ .name = "net/bar/b.h", .added = 1, .deleted = 1 },
	};
	static const struct diffstat_file wide[] = {
		{ .name = "drivers/gpu/drm/amd/display/dc/dml2/dml21/src/dml2_core/"
			  "dml2_core_dcn4_calcs_long_name.c", .added = 150, .deleted = 150 },
		{ .name = "drivers/gpu/drm/amd/x.c", .added = 1, .deleted = 1 },
		{ .name = "drivers/gpu/drm/amd/y.c", .added = 40, .deleted = 40 },
	};
	static const struct diffstat_file added[] = {
		{ .name = "a.c", .added = 3 },
	};
	struct sbuf out = SBUF_INIT;

	(void)state;
	diffstat_format(&out, small, ARRAY_SIZE(small), 72);
	assert_string_equal(out.buf, " net/bar/b.c | 2 +-\n net/bar/b.h | 2 +-\n"
			    " 2 files changed, 2 insertions(+), 2 deletions(-)\n");
	sbuf_release(&out);
	diffstat_format(&out, wide, ARRAY_SIZE(wide), 72);
	assert_string_equal(out.buf,
		" .../dml2_core_dcn4_calcs_long_name.c          | 300 +++++++++---------\n"
		" drivers/gpu/drm/amd/x.c                       |   2 +-\n"
		" drivers/gpu/drm/amd/y.c                       |  80 ++---\n"
		" 3 files changed, 191 insertions(+), 191 deletions(-)\n");
	sbuf_release(&out);
	diffstat_format(&out, added, ARRAY_SIZE(added), 72);
	assert_string_equal(out.buf, " a.c | 3 +++\n 1 file changed, 3 insertions(+)\n");
	sbuf_release(&out);
}

#define REN(o, n, sim) .old_name = (o), .name = (n), .similarity = (sim), \
			.old_mode = 0100644, .new_mode = 0100644

/* Renames, modes, created and deleted files, quoted names: git format-patch's. */
static void test_diffstat_summary(void **state)
{
	static const struct diffstat_file f[] = {
		{ REN("a.c", "b/a.c", 100) },
		{ REN("a/b.c", "c/d.c", 100) },
		{ .name = "caf\303\251.c", .added = 1, .new_mode = 0100644 },
		{ REN("drivers/old/sub/x.c", "drivers/new/sub/x.c", 100) },
		{ REN("lib/x.c", "lib/y/x.c", 100) },
		{ .name = "mode.sh", .old_mode = 0100644, .new_mode = 0100755 },
		{ .name = "q\"uo te.c", .added = 1, .old_mode = 0100644,
		  .new_mode = 0100644 },
		{ .old_name = "ren_mode.sh", .name = "ren_mode2.sh", .similarity = 100,
		  .old_mode = 0100644, .new_mode = 0100755 },
		{ REN("tab\there.c", "tab\there2.c", 100) },
	};
	struct sbuf out = SBUF_INIT;

	(void)state;
	diffstat_format(&out, f, ARRAY_SIZE(f), 72);
	assert_string_equal(out.buf,
		" a.c => b/a.c                    | 0\n"
		" a/b.c => c/d.c                  | 0\n"
		" \"caf\\303\\251.c\"                 | 1 +\n"
		" drivers/{old => new}/sub/x.c    | 0\n"
		" lib/{ => y}/x.c                 | 0\n"
		" mode.sh                         | 0\n"
		" \"q\\\"uo te.c\"                    | 1 +\n"
		" ren_mode.sh => ren_mode2.sh     | 0\n"
		" \"tab\\there.c\" => \"tab\\there2.c\" | 0\n"
		" 9 files changed, 2 insertions(+)\n"
		" rename a.c => b/a.c (100%)\n"
		" rename a/b.c => c/d.c (100%)\n"
		" create mode 100644 \"caf\\303\\251.c\"\n"
		" rename drivers/{old => new}/sub/x.c (100%)\n"
		" rename lib/{ => y}/x.c (100%)\n"
		" mode change 100644 => 100755 mode.sh\n"
		" rename ren_mode.sh => ren_mode2.sh (100%)\n"
		" mode change 100644 => 100755\n"
		" rename \"tab\\there.c\" => \"tab\\there2.c\" (100%)\n");
	sbuf_release(&out);
}

/* Binary files ("Bin"), a long rename shortened, a deleted file. */
static void test_diffstat_binary(void **state)
{
	static const struct diffstat_file f[] = {
		{ .name = "bin1.bin", .added = 123, .deleted = 100, .binary = true,
		  .old_mode = 0100644, .new_mode = 0100644 },
		{ .name = "bin2.bin", .added = 1, .new_mode = 0100644 },
		{ REN("drivers/net/ethernet/intel/ice/ice_main.c",
		      "drivers/net/ethernet/intel/ice/ice_main_renamed_for_test.c", 100) },
		{ REN("drivers/old/sub/x.c", "drivers/new/sub/x.c", 94), .added = 1,
		  .deleted = 1 },
		{ .name = "gone.c", .deleted = 10, .old_mode = 0100644 },
		{ .name = "newfile.c", .added = 1, .new_mode = 0100644 },
		{ .name = "scripts/x.sh", .old_mode = 0100644, .new_mode = 0100755 },
	};
	static const struct diffstat_file g[] = {
		{ .name = "drivers/gpu/drm/amd/display/dc/dml2/dml21/src/dml2_core/"
			  "dml2_core_dcn4_calcs_longer_name.c", .added = 111,
		  .deleted = 111, .old_mode = 0100644, .new_mode = 0100644 },
		{ .name = "fw/blob.bin", .added = 7, .deleted = 5, .binary = true,
		  .old_mode = 0100644, .new_mode = 0100644 },
		{ .name = "fw/new.bin", .added = 3, .binary = true, .new_mode = 0100644 },
	};
	static const struct diffstat_file h[] = {
		{ REN("drivers/gpu/drm/amd/display/dc/dml2/dml21/src/dml2_core/"
		      "dml2_core_dcn4_calcs_long_name.c",
		      "drivers/gpu/drm/amd/display/dc/dml2/dml21/src/dml2_core/"
		      "dml2_core_dcn4_calcs_longer_name.c", 100) },
		{ REN("drivers/old/sub/same.c", "drivers/new/sub/same.c", 100) },
	};
	struct sbuf out = SBUF_INIT;

	(void)state;
	diffstat_format(&out, f, ARRAY_SIZE(f), 72);
	assert_string_equal(out.buf,
		" bin1.bin                                        | Bin 100 -> 123 bytes\n"
		" bin2.bin                                        |   1 +\n"
		" .../{ice_main.c => ice_main_renamed_for_test.c} |   0\n"
		" drivers/{old => new}/sub/x.c                    |   2 +-\n"
		" gone.c                                          |  10 ----------\n"
		" newfile.c                                       |   1 +\n"
		" scripts/x.sh                                    |   0\n"
		" 7 files changed, 3 insertions(+), 11 deletions(-)\n"
		" create mode 100644 bin2.bin\n"
		" rename drivers/net/ethernet/intel/ice/{ice_main.c => ice_main_renamed_for_test.c} (100%)\n"
		" rename drivers/{old => new}/sub/x.c (94%)\n"
		" delete mode 100644 gone.c\n"
		" create mode 100644 newfile.c\n"
		" mode change 100644 => 100755 scripts/x.sh\n");
	sbuf_release(&out);
	diffstat_format(&out, g, ARRAY_SIZE(g), 72);
	assert_string_equal(out.buf,
		" .../dml2_core_dcn4_calcs_longer_name.c        | 222 +++++++++---------\n"
		" fw/blob.bin                                   | Bin 5 -> 7 bytes\n"
		" fw/new.bin                                    | Bin 0 -> 3 bytes\n"
		" 3 files changed, 111 insertions(+), 111 deletions(-)\n"
		" create mode 100644 fw/new.bin\n");
	sbuf_release(&out);
	diffstat_format(&out, h, ARRAY_SIZE(h), 72);
	assert_string_equal(out.buf,
		" ..._dcn4_calcs_long_name.c => dml2_core_dcn4_calcs_longer_name.c} | 0\n"
		" drivers/{old => new}/sub/same.c                                   | 0\n"
		" 2 files changed, 0 insertions(+), 0 deletions(-)\n"
		" rename drivers/gpu/drm/amd/display/dc/dml2/dml21/src/dml2_core/"
		"{dml2_core_dcn4_calcs_long_name.c => dml2_core_dcn4_calcs_longer_name.c} (100%)\n"
		" rename drivers/{old => new}/sub/same.c (100%)\n");
	sbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_not_a_patch),
		cmocka_unit_test(test_dates),
		cmocka_unit_test(test_append),
		cmocka_unit_test(test_write_keeps),
		cmocka_unit_test(test_file_names),
		cmocka_unit_test(test_format_roundtrip),
		cmocka_unit_test(test_reverse),
		cmocka_unit_test(test_trailers),
		cmocka_unit_test(test_diffstat),
		cmocka_unit_test(test_diffstat_summary),
		cmocka_unit_test(test_diffstat_binary),
	};

	git_libgit2_init();	/* diff_parse() reads diffs with libgit2 */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
