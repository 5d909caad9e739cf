// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-patch.c - libFuzzer harness for the patch parsers: the patch
 * module (mbox splitting, subjects, the diff of a message, trailers,
 * diff_parse(); patch.h), the git format-patch message parser of the
 * conversion series (mbox_parse(), series.h), what is then derived
 * from a parsed patch (mbox_message(), patch_file_text() forward and
 * reversed, patch_file_name()), and the kmig check allowlist parser
 * (gate_allow_parse(), gate.h).
 *
 * Checked: a parsed patch has files, each hunk lies inside the diff text,
 * the diff proper is no longer than the input, and a file's regenerated
 * text parses again as a diff with the same number of hunks, mbox
 * messages cover the input in order, a found diff lies inside its message.
 */
#include <git2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "series.h"
#include "util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	git_libgit2_init();	/* diff_parse() reads diffs with libgit2 */
	return 0;
}

/* The patch module's mbox reading and trailers on @buf. */
static void check_mbox(const char *buf, size_t size)
{
	struct patch_span *msgs = NULL;
	size_t n = patch_mbox_split(&msgs, buf, size), i, at = 0;
	char *text, *v;

	for (i = 0; i < n; i++) {
		const char *m = msgs[i].start, *end = m + msgs[i].len, *ds, *de;
		char *subject;

		if (m != buf + at)
			abort();
		at += msgs[i].len;
		subject = patch_message_subject(m, msgs[i].len);
		free(subject);
		if (patch_find_diff(m, end, &ds, &de) &&
		    (ds < m || de > end || de < ds))
			abort();
	}
	if (at != size)
		abort();
	free(msgs);
	text = xstrndup(buf, size);	/* trailers read C strings */
	v = patch_trailer(text, "Kmig-Patch", NULL, NULL);
	free(v);
	free(text);
}

static void check_files(const struct patch_file *files, size_t nfiles,
			const char *text, size_t len)
{
	size_t i, j;

	for (i = 0; i < nfiles; i++) {
		const struct patch_file *f = &files[i];
		struct patch_file *again = NULL;
		size_t nagain = 0, aagain = 0, end;
		struct sbuf sb = SBUF_INIT;

		if (f->header < text || f->header + f->header_len > text + len)
			abort();
		for (j = 0; j < f->nhunks; j++)
			if (f->hunks[j].text < text ||
			    f->hunks[j].text + f->hunks[j].len > text + len)
				abort();
		if (!patch_file_text(&sb, f, NULL, false) && sb.len &&
		    !f->special && f->nhunks) {
			if (diff_parse(&again, &nagain, &aagain, sb.buf, sb.len,
				       &end))
				abort();
			if (nagain != 1 || again[0].nhunks != f->nhunks)
				abort();
		}
		patch_files_free(again, nagain);
		sbuf_reset(&sb);
		(void)patch_file_text(&sb, f, NULL, true);
		sbuf_release(&sb);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mbox_patch p;
	struct patch_file *files = NULL;
	struct gate_allow allow;
	size_t nfiles = 0, afiles = 0, end;
	char *buf = malloc(size ? size : 1);

	if (!buf)
		abort();
	memcpy(buf, data, size);	/* exact size: over-reads are caught */

	if (!mbox_parse(&p, buf, size, "fuzz.patch")) {
		char *msg = mbox_message(&p), *name;

		if (!p.nfiles || !p.subject || p.diff_len > size)
			abort();
		check_files(p.files, p.nfiles, p.diff, p.diff_len);
		name = patch_file_name(1, p.subject);
		if (strncmp(name, "0001-", 5) || strstr(name, "/"))
			abort();
		free(name);
		free(msg);
	}
	mbox_patch_clear(&p);

	if (!diff_parse(&files, &nfiles, &afiles, buf, size, &end)) {
		if (!nfiles || end > size)
			abort();
		check_files(files, nfiles, buf, size);
	}
	patch_files_free(files, nfiles);

	check_mbox(buf, size);

	{
		/* the MIME decoding: each byte of a part goes out once */
		size_t dlen = 0;
		char *dec = patch_body_decode(buf, size, &dlen);

		if (dec && dlen > 2 * size + 1)
			abort();
		free(dec);
	}

	if (!gate_allow_parse(&allow, "fuzz.allow", buf, size))
		gate_allow_clear(&allow);
	free(buf);
	return 0;
}
