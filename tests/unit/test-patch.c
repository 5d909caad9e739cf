// SPDX-License-Identifier: GPL-2.0
/*
 * test-patch.c - the patch module (patch.c): mbox splitting, headers,
 * subjects, the diff of a message, trailers (the trailer block only) and
 * files and hunks read by libgit2.
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

#include "patch.h"
#include "util.h"

/* Two format-patch messages and a cover letter, as git send-email sends. */
static const char mbox[] =
	"From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
	"From: Ada <ada@example.org>\n"
	"Subject: [PATCH 0/2] the cover letter\n"
	"\n"
	"No diff here.\n"
	"From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001\n"
	"From: Ada <ada@example.org>\n"
	"Subject: [PATCH v2 1/2] lib: a subject that is\n"
	"\t folded\n"
	"\n"
	"From the body: not a message start.\n"
	"---\n"
	"diff --git a/a.c b/a.c\n"
	"--- a/a.c\n"
	"+++ b/a.c\n"
	"@@ -1 +1 @@\n"
	"-one\n"
	"+ONE\n"
	"-- \n"
	"2.39.5\n"
	"\n"
	"From 2222222222222222222222222222222222222222 Mon Sep 17 00:00:00 2001\n"
	"From: Ada <ada@example.org>\n"
	"Subject: Re: [PATCH 2/2] lib: b\n"
	"\n"
	"---\n"
	"diff --git a/b.c b/b.c\n"
	"--- a/b.c\n"
	"+++ b/b.c\n"
	"@@ -1 +1 @@\n"
	"-two\n"
	"+TWO\n";

static void test_mbox_split(void **state)
{
	struct patch_span *m = NULL;
	const char *ds, *de, *end = mbox + strlen(mbox);
	size_t n;
	char *s;

	(void)state;
	assert_true(patch_is_mbox(mbox, strlen(mbox)));
	assert_false(patch_is_mbox("diff --git a/x b/x\n", 19));
	n = patch_mbox_split(&m, mbox, strlen(mbox));
	assert_int_equal(n, 3);
	assert_ptr_equal(m[0].start, mbox);
	assert_ptr_equal(m[1].start, m[0].start + m[0].len);
	assert_ptr_equal(m[2].start + m[2].len, end);
	assert_true(patch_starts(m[2].start, end, "From 2222"));

	/* the cover letter has no diff; the others lose their signature */
	assert_false(patch_find_diff(m[0].start, m[0].start + m[0].len, &ds, &de));
	assert_null(ds);
	assert_true(patch_find_diff(m[1].start, m[1].start + m[1].len, &ds, &de));
	assert_true(patch_starts(ds, de, "diff --git a/a.c"));
	assert_true(patch_starts(de, end, "-- \n2.39.5"));
	assert_true(patch_find_diff(m[2].start, m[2].start + m[2].len, &ds, &de));
	assert_ptr_equal(de, end);

	s = patch_message_subject(m[1].start, m[1].len);
	assert_string_equal(s, "lib: a subject that is folded");
	free(s);
	s = patch_message_subject(m[2].start, m[2].len);
	assert_string_equal(s, "lib: b");
	free(s);
	free(m);
}

static void test_headers(void **state)
{
	const char msg[] = "From: \"Ada\" <ada@example.org>\n"
			   "Subject: one\n two\n"
			   "\n"
			   "Body: not a header\n";
	const char *p = msg, *end = msg + strlen(msg);
	struct sbuf hdr = SBUF_INIT;
	char *v;

	(void)state;
	assert_true(patch_header_next(&p, end, &hdr));
	v = patch_header_value(&hdr, "from");
	assert_string_equal(v, "\"Ada\" <ada@example.org>");
	free(v);
	assert_null(patch_header_value(&hdr, "Subject"));
	assert_true(patch_header_next(&p, end, &hdr));
	assert_string_equal(hdr.buf, "Subject: one two");
	assert_false(patch_header_next(&p, end, &hdr));
	assert_string_equal(p, "Body: not a header\n");
	sbuf_release(&hdr);
}

static void test_subjects(void **state)
{
	static const char *const cases[][2] = {
		{ "[PATCH] x: y", "x: y" },
		{ "  [PATCH v3 02/17]  [RFC]   x:\t y  ", "x: y" },
		{ "Re: [PATCH] x", "x" },
		{ "[PATCH] RE: re: x", "x" },
		{ "x [not a tag]", "x [not a tag]" },
		{ "[unclosed x", "[unclosed x" },
		{ "", "" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s = patch_subject(cases[i][0]);

		assert_string_equal(s, cases[i][1]);
		free(s);
	}
}

static void test_trailers(void **state)
{
	const char *line;
	size_t len;
	char *v;

	(void)state;
	v = patch_trailer("subject\n\nbody\n\nSigned-off-by: A <a@b>\nkmig-patch: 0001-x.patch\n",
			  "Kmig-Patch", &line, &len);
	assert_string_equal(v, "0001-x.patch");
	assert_int_equal(len, strlen("kmig-patch: 0001-x.patch\n"));
	assert_memory_equal(line, "kmig-patch: 0001-x.patch\n", len);
	free(v);

	/* a Kmig-Patch: line in the body, not in the trailer block */
	v = patch_trailer("subject\n\nKmig-Patch: 0009-body.patch\nis quoted here.\n\n"
			  "Signed-off-by: A <a@b>\n", "Kmig-Patch", &line, &len);
	assert_null(v);
	assert_null(line);
	v = patch_trailer("subject\n\nKmig-Patch: 0009-body.patch\nsays the body.\n\n"
			  "Signed-off-by: A <a@b>\nKmig-Patch: 0002-y.patch\n",
			  "Kmig-Patch", &line, &len);
	assert_string_equal(v, "0002-y.patch");
	assert_string_equal(line, "Kmig-Patch: 0002-y.patch\n");
	free(v);

	/* the subject alone is no trailer block */
	assert_null(patch_trailer("Kmig-Patch: 0001-x.patch\n", "Kmig-Patch",
				  NULL, NULL));
}

static const char diff[] =
	"diff --git a/a.c b/a.c\n"
	"index 1111111..2222222 100644\n"
	"--- a/a.c\n"
	"+++ b/a.c\n"
	"@@ -1,3 +1,3 @@ int f(void)\n"
	" one\n"
	"-two\n"
	"+TWO\n"
	" three\n"
	"@@ -10 +10,2 @@\n"
	" ten\n"
	"+-- \n"
	"diff --git a/gone.c b/gone.c\n"
	"deleted file mode 100644\n"
	"index 3333333..0000000\n"
	"--- a/gone.c\n"
	"+++ /dev/null\n"
	"@@ -1 +0,0 @@\n"
	"-x\n"
	"\\ No newline at end of file\n"
	"diff --git a/old.c b/new.c\n"
	"similarity index 100%\n"
	"rename from old.c\n"
	"rename to new.c\n"
	"-- \n"
	"2.39.5\n";

static void test_hunks(void **state)
{
	struct patch_file *f = NULL;
	size_t n = 0, alloc = 0, end;
	struct sbuf out = SBUF_INIT;

	(void)state;
	assert_int_equal(diff_parse(&f, &n, &alloc, diff, strlen(diff), &end), 0);
	assert_int_equal(n, 3);
	assert_string_equal(f[0].old_path, "a.c");
	assert_string_equal(f[0].new_path, "a.c");
	assert_int_equal(f[0].nhunks, 2);
	assert_int_equal(f[0].hunks[0].old_start, 1);
	assert_int_equal(f[0].hunks[0].old_lines, 3);
	assert_int_equal(f[0].hunks[1].new_start, 10);
	assert_int_equal(f[0].hunks[1].new_lines, 2);
	assert_true(patch_starts(f[0].hunks[0].text, diff + end, "@@ -1,3"));
	assert_int_equal(f[0].hunks[1].len, strlen("@@ -10 +10,2 @@\n ten\n+-- \n"));
	assert_false(f[0].special);

	assert_string_equal(f[1].old_path, "gone.c");
	assert_null(f[1].new_path);
	assert_string_equal(f[1].old_mode, "100644");
	assert_null(f[1].new_mode);
	assert_int_equal(f[1].nhunks, 1);
	assert_int_equal(f[1].hunks[0].len,
			 strlen("@@ -1 +0,0 @@\n-x\n\\ No newline at end of file\n"));

	assert_true(f[2].special);
	assert_string_equal(f[2].old_path, "old.c");
	assert_string_equal(f[2].new_path, "new.c");
	assert_int_equal(f[2].nhunks, 0);
	assert_int_equal(f[2].header_len, strlen("diff --git a/old.c b/new.c\n"
		"similarity index 100%\nrename from old.c\nrename to new.c\n"));
	/* the diff ends before the signature */
	assert_int_equal(end, strlen(diff) - strlen("-- \n2.39.5\n"));

	assert_int_equal(patch_file_text(&out, &f[0], (bool[]){ false, true }, false), 0);
	assert_string_equal(out.buf, "diff --git a/a.c b/a.c\n--- a/a.c\n+++ b/a.c\n"
			    "@@ -10 +10,2 @@\n ten\n+-- \n");
	sbuf_release(&out);
	patch_files_free(f, n);
}

static void test_bad_diffs(void **state)
{
	static const char *const bad[][2] = {
		{ "no diff\n", "no diff found" },
		{ "diff --git a/a.c b/a.c\n--- a/a.c\n+++ b/a.c\n@@ -1,3 +1,3 @@\n one\n",
		  "truncated hunk in 'a.c'" },
		{ "diff --git a/a.c b/a.c\n--- a/a.c\n+++ b/a.c\n@@ -x +1 @@\n one\n",
		  "malformed hunk header '@@ -x +1 @@'" },
		/* an unterminated quoted path (libgit2 1.5 leaks on it) */
		{ "diff --git a/old.c b/new.c\nsimilarity index 90%\n"
		  "rename from \"old.c\nrename to new.c\n",
		  "malformed file header 'diff --git a/old.c b/new.c'" },
		/* an escape git does not write (libgit2 1.5 leaks on it too) */
		{ "diff --git a/old.c b/new.c\nsimilarity index 90%\n"
		  "rename from \"old\\q.c\"\nrename to new.c\n",
		  "malformed file header 'diff --git a/old.c b/new.c'" },
		/* \000, a NUL no path holds */
		{ "diff --git a/old.c b/new.c\nsimilarity index 90%\n"
		  "rename from \"old\\000.c\"\nrename to new.c\n",
		  "malformed file header 'diff --git a/old.c b/new.c'" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct patch_file *f = NULL;
		size_t n = 0, alloc = 0, end;

		assert_int_not_equal(diff_parse(&f, &n, &alloc, bad[i][0],
						strlen(bad[i][0]), &end), 0);
		assert_string_equal(kmig_errmsg(), bad[i][1]);
		patch_files_free(f, n);
	}
}

/*
 * A path that begins or ends with a space is written quoted and reads back
 * the same; a header holding a NUL byte is malformed (libgit2 would cut
 * the path there).
 */
static void test_edge_paths(void **state)
{
	static const char diff[] = "diff --git a/ x b/ x\n--- a/ x\n"
				   "+++ b/ x\n@@ -1 +1 @@\n-a\n+b\n";
	static const char nul[] = "diff --git a/x b/x\n--- a/\0x\n+++ b/x\n"
				  "@@ -1 +1 @@\n-a\n+b\n";
	struct patch_file *f = NULL, *again = NULL;
	size_t n = 0, alloc = 0, nagain = 0, aagain = 0, end;
	struct sbuf out = SBUF_INIT;

	(void)state;
	assert_int_equal(diff_parse(&f, &n, &alloc, diff, strlen(diff), &end), 0);
	assert_int_equal(n, 1);
	assert_string_equal(f[0].old_path, " x");
	assert_int_equal(patch_file_text(&out, &f[0], NULL, false), 0);
	assert_string_equal(out.buf, "diff --git \"a/ x\" \"b/ x\"\n"
			    "--- \"a/ x\"\n+++ \"b/ x\"\n@@ -1 +1 @@\n-a\n+b\n");
	assert_int_equal(diff_parse(&again, &nagain, &aagain, out.buf, out.len,
				    &end), 0);
	assert_int_equal(nagain, 1);
	assert_string_equal(again[0].new_path, " x");
	patch_files_free(again, nagain);
	patch_files_free(f, n);
	sbuf_release(&out);

	f = NULL;
	n = alloc = 0;
	assert_int_not_equal(diff_parse(&f, &n, &alloc, nul, sizeof(nul) - 1,
					&end), 0);
	assert_string_equal(kmig_errmsg(), "malformed file header 'diff --git a/x b/x'");
	patch_files_free(f, n);
}

/* The lines that start an mbox message, and lines of a message that do not. */
static void test_from_lines(void **state)
{
	static const char *const yes[] = {
		"From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n",
		"From mboxrd@z Thu Jan  1 00:00:00 1970\n",
		"From git@z Thu Jan 1 00:00:00 1970 +0000\n",
		"From someone@example.org Fri Dec  4 09:30:00 2026\r\n",
		"From someone@example.org Fri Dec  4 9:30:00 2026",
	};
	static const char *const no[] = {
		"From: A Person <a@example.org>\n",
		"From the start of the series, the driver\n",
		"From 2019 on, this returns -EINVAL\n",
		"From mboxrd@z\n",
		"From mboxrd@z Thu Jan  1 1970\n",
		"From x Thu Jan  1 00:00:00 197\n",
		"From  Thu Jan  1 00:00:00 1970\n",
		">From mboxrd@z Thu Jan  1 00:00:00 1970\n",
		"From the boot log of 12 May at 10:30 on a board made in 2024\n",
		"From someone@example.org Fri Dec  4 9:30 2026\n",
		"From \n",
		"From ",
		"From x 0:00:00 1970",
		"From                   \r\n",
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(yes); i++)
		assert_true(patch_is_from_line(yes[i], yes[i] + strlen(yes[i])));
	for (i = 0; i < ARRAY_SIZE(no); i++)
		assert_false(patch_is_from_line(no[i], no[i] + strlen(no[i])));
}

/* Paths as a header names them: git's C quoting decoded, or as written. */
static void test_path_dup(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "  b/x.c \n", "b/x.c" },
		{ "\"b/caf\\303\\251.c\"", "b/caf\303\251.c" },
		{ "\"b/q\\\"t\\\\u\\tv.c\"", "b/q\"t\\u\tv.c" },
		{ "\"b/\\a\\b\\f\\n\\r\\v\"", "b/\a\b\f\n\r\v" },
		/* not as git writes them: as written */
		{ "\"b/open", "\"b/open" },
		{ "\"\"", "\"\"" },
		{ "\"b/x\" y", "\"b/x\" y" },
		{ "\"b/\\q\"", "\"b/\\q\"" },
		{ "\"b/\\000\"", "\"b/\\000\"" },
		{ "\"b/\\400\"", "\"b/\\400\"" },
		{ "\"b/\\\"", "\"b/\\\"" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char *p = patch_path_dup(cases[i].in, strlen(cases[i].in));

		assert_string_equal(p, cases[i].out);
		free(p);
	}
}

/*
 * A hunk whose last line is an empty context line (a patch whose blank
 * context lines lost their space in a mailer): the hunk ends at that
 * line's newline, not one byte into the next hunk.
 */
static void test_empty_context_line(void **state)
{
	static const char diff[] = "diff --git a/a.c b/a.c\n--- a/a.c\n+++ b/a.c\n"
				   "@@ -1,2 +1,2 @@\n-a\n+b\n\n"
				   "@@ -9,2 +9,2 @@\n-c\n+d\n \n";
	struct patch_file *f = NULL;
	size_t n = 0, alloc = 0, end;
	struct sbuf out = SBUF_INIT;

	(void)state;
	assert_int_equal(diff_parse(&f, &n, &alloc, diff, strlen(diff), &end), 0);
	assert_int_equal(n, 1);
	assert_int_equal(f[0].nhunks, 2);
	assert_int_equal(f[0].hunks[0].len, strlen("@@ -1,2 +1,2 @@\n-a\n+b\n\n"));
	assert_memory_equal(f[0].hunks[1].text, "@@ -9,2", 7);
	assert_int_equal(end, strlen(diff));
	/* written again, the empty line has its space, both ways */
	assert_int_equal(patch_file_text(&out, &f[0], (bool[]){ true, false }, false), 0);
	assert_string_equal(out.buf, "diff --git a/a.c b/a.c\n--- a/a.c\n+++ b/a.c\n"
			    "@@ -1,2 +1,2 @@\n-a\n+b\n \n");
	sbuf_reset(&out);
	assert_int_equal(patch_file_text(&out, &f[0], (bool[]){ true, false }, true), 0);
	assert_string_equal(out.buf, "diff --git a/a.c b/a.c\n--- a/a.c\n+++ b/a.c\n"
			    "@@ -1,2 +1,2 @@\n+a\n-b\n \n");
	sbuf_release(&out);
	patch_files_free(f, n);
}

/* RFC 2047 encoded words, as git format-patch writes them. */
static void test_header_decode(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "plain", "plain" },
		{ "=?UTF-8?q?J=C3=B6rg=20M=C3=BCller?=", "J\xc3\xb6rg M\xc3\xbcller" },
		{ "=?utf-8?B?SsO2cmc=?= <j@x.org>", "J\xc3\xb6rg <j@x.org>" },
		/* a folded subject: the blanks between two words go */
		{ "[PATCH] =?UTF-8?q?net:=20=CE=A9?= =?UTF-8?q?_caf=C3=A9?=",
		  "[PATCH] net: \xce\xa9 caf\xc3\xa9" },
		{ "=?ISO-8859-1?Q?Andr=E9?= Almeida", "Andr\xc3\xa9 Almeida" },
		{ "=?KOI8-R?Q?=F0?=", "=?KOI8-R?Q?=F0?=" },	/* not decoded */
		{ "=?UTF-8?q?a=00b?=", "=?UTF-8?q?a=00b?=" },	/* a NUL */
		{ "x =?UTF-8?q?broken", "x =?UTF-8?q?broken" },
		{ "a=?b", "a=?b" },
		{ "=?UTF-8?q?" "?=", "" },	/* empty (no trigraph) */
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = patch_header_decode(cases[i].in);

		assert_string_equal(got, cases[i].out);
		free(got);
	}
}

/* Message bodies in quoted-printable or base64, decoded as git am does. */
static void test_body_decode(void **state)
{
	static const struct {
		const char *in, *out;	/* out NULL: nothing to decode */
	} cases[] = {
		{ "Subject: x\n\n+\ta =3D b;\n", NULL },
		{ "Subject: x\nContent-Transfer-Encoding: 8bit\n\n=3D\n", NULL },
		{ "Subject: x\nContent-Transfer-Encoding: quoted-printable\n\n"
		  "+\tstrcpy(=\nd, s); a =3D b; =C3=A9\n=3d=\r\nx= \n= z\n",
		  "Subject: x\nContent-Transfer-Encoding: quoted-printable\n\n"
		  "+\tstrcpy(d, s); a = b; \xc3\xa9\n=x= z\n" },
		{ "Subject: x\ncontent-transfer-encoding:  Base64 \n\n"
		  "KwlzdHJjcHko\nZCwgcyk7Cg==\n",
		  "Subject: x\ncontent-transfer-encoding:  Base64 \n\n"
		  "+\tstrcpy(d, s);\n" },
		/* the encoding of the body, not of a line of it */
		{ "Subject: x\n\nContent-Transfer-Encoding: base64\n", NULL },
		/* a message part, then the patch attached as text/x-patch */
		{ "Subject: x\nMIME-Version: 1.0\n"
		  "Content-Type: multipart/mixed; boundary=\"=-b1\"\n\n"
		  "This is a multi-part message in MIME format.\n"
		  "--=-b1\nContent-Type: text/plain; charset=utf-8\n\n"
		  "Fix it.\n"
		  "--=-b1\nContent-Type: text/x-patch; name=\"0001-a.patch\"\n"
		  "Content-Disposition: attachment; filename=\"0001-a.patch\"\n\n"
		  "--- a/f.c\n+++ b/f.c\n"
		  "--=-b1--\nepilogue\n",
		  "Subject: x\nMIME-Version: 1.0\n"
		  "Content-Type: multipart/mixed; boundary=\"=-b1\"\n\n"
		  "Fix it.\n--- a/f.c\n+++ b/f.c\n" },
		/*
		 * alternative text and HTML, then a base64 attachment named
		 * *.diff of no text type; CR LF lines, an unquoted boundary
		 */
		{ "Subject: x\r\nContent-Type: MULTIPART/mixed;\r\n"
		  "\tboundary=outer\r\n\r\n"
		  "--outer\r\n"
		  "Content-Type: multipart/alternative; boundary=\"in\"\r\n\r\n"
		  "--in\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
		  "a =3D b\r\n"
		  "--in\r\nContent-Type: text/html\r\n\r\n<p>a = b</p>\r\n"
		  "--in--\r\n"
		  "--outer\r\nContent-Type: application/octet-stream\r\n"
		  "Content-Transfer-Encoding: base64\r\n"
		  "Content-Disposition: attachment; filename=fix.diff\r\n\r\n"
		  "KwlzdHJjcHko\r\nZCwgcyk7Cg==\r\n"
		  "--outer\r\nContent-Type: image/png\r\n\r\nPNG\r\n"
		  "--outer--\r\n",
		  "Subject: x\r\nContent-Type: MULTIPART/mixed;\r\n"
		  "\tboundary=outer\r\n\r\n"
		  "a = b\n+\tstrcpy(d, s);\n" },
		/*
		 * a patch forwarded as an attachment (message/rfc822): the
		 * forwarded mail's body, decoded by its own headers
		 */
		{ "Subject: fwd\nContent-Type: multipart/mixed; boundary=XX\n\n"
		  "--XX\nContent-Type: text/plain\n\nSee attached.\n"
		  "--XX\nContent-Type: message/rfc822\n\n"
		  "From: A <a@b>\nSubject: [PATCH] x\n"
		  "Content-Type: text/plain; charset=utf-8\n"
		  "Content-Transfer-Encoding: quoted-printable\n\n"
		  "--- a/f.c\n+++ b/f.c\n+a =3D 2;\n"
		  "--XX\nContent-Type: message/rfc822\n\n"
		  "Subject: html\nContent-Type: text/html\n\n<p>no</p>\n"
		  "--XX--\n",
		  "Subject: fwd\nContent-Type: multipart/mixed; boundary=XX\n\n"
		  "See attached.\n--- a/f.c\n+++ b/f.c\n+a = 2;\n" },
		/* a forwarded mail encoded to nothing: nothing */
		{ "Subject: x\nContent-Type: multipart/mixed; boundary=XX\n\n"
		  "--XX\nContent-Type: message/rfc822\n"
		  "Content-Transfer-Encoding: base64\n\n--XX--\n",
		  "Subject: x\nContent-Type: multipart/mixed; boundary=XX\n\n" },
		/* no closing delimiter: the last part ends at the end */
		{ "Subject: x\nContent-Type: multipart/mixed; boundary=XX\n\n"
		  "--XX\n\nhi\n--XX\nContent-Type: text/x-patch\n\n"
		  "--- a/f.c\n+++ b/f.c\n",
		  "Subject: x\nContent-Type: multipart/mixed; boundary=XX\n\n"
		  "hi\n--- a/f.c\n+++ b/f.c\n" },
		/* long attachment names in RFC 2231's form, continued */
		{ "Subject: x\nContent-Type: multipart/mixed; boundary=b\n\n"
		  "--b\nContent-Type: application/octet-stream\n"
		  "Content-Disposition: attachment;\n"
		  " filename*0*=utf-8''0001-a-very-long-name-that-;\n"
		  " filename*1=\"goes-on.patch\"\n\nA\n"
		  "--b\nContent-Type: application/octet-stream;\n"
		  " name*=utf-8''0002-b.diff\n\nB\n"
		  "--b\nContent-Type: application/octet-stream;\n"
		  " name*=utf-8''notes.txt\n\nC\n"
		  "--b--\n",
		  "Subject: x\nContent-Type: multipart/mixed; boundary=b\n\n"
		  "A\nB\n" },
		/* a multipart with no boundary, or an empty one: as it is */
		{ "Subject: x\nContent-Type: multipart/mixed\n\n--\nx\n", NULL },
		{ "Subject: x\nContent-Type: multipart/mixed; boundary=\"\"\n\n"
		  "--\nx\n", NULL },
	};
	size_t i, len;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = patch_body_decode(cases[i].in, strlen(cases[i].in),
					      &len);

		if (!cases[i].out) {
			assert_null(got);
			continue;
		}
		assert_non_null(got);
		assert_int_equal(len, strlen(cases[i].out));
		assert_memory_equal(got, cases[i].out, len);
		free(got);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mbox_split),
		cmocka_unit_test(test_from_lines),
		cmocka_unit_test(test_headers),
		cmocka_unit_test(test_subjects),
		cmocka_unit_test(test_trailers),
		cmocka_unit_test(test_hunks),
		cmocka_unit_test(test_bad_diffs),
		cmocka_unit_test(test_edge_paths),
		cmocka_unit_test(test_path_dup),
		cmocka_unit_test(test_empty_context_line),
		cmocka_unit_test(test_header_decode),
		cmocka_unit_test(test_body_decode),
	};

	git_libgit2_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
