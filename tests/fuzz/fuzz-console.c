// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-console.c - libFuzzer harness for the QEMU console classifier
 * (qemu_classify()).
 *
 * The first input byte chooses the expected tests (bits 0-2: "boot",
 * "rds", "hang") and whether the boot timed out (bit 3); the rest is the
 * console log.  Checked: the verdict is consistent with the findings
 * (a pass has the marker and no findings, a timeout is a timeout, the
 * findings string holds exactly nfindings lines).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "qemu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = { "boot", "rds", "hang" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *tests[3];
	struct qemu_verdict v;
	size_t ntests = 0, i, nl = 0;
	bool timed_out;
	char *buf;

	if (!size)
		return 0;
	for (i = 0; i < 3; i++)
		if (data[0] & (1u << i))
			tests[ntests++] = names[i];
	timed_out = data[0] & 8;
	data++;
	size--;
	buf = malloc(size ? size : 1);
	if (!buf)
		abort();
	memcpy(buf, data, size);
	qemu_classify(buf, size, tests, ntests, timed_out, &v);
	if (timed_out && v.status != QEMU_TIMEOUT)
		abort();
	if (!timed_out && v.status == QEMU_TIMEOUT)
		abort();
	if (v.status == QEMU_PASS && (!v.marker || v.nfindings))
		abort();
	if (!v.nfindings != !v.findings)
		abort();
	if (v.findings) {
		for (i = 0; v.findings[i]; i++)
			nl += v.findings[i] == '\n';
		if (nl != v.nfindings)
			abort();
	}
	qemu_verdict_release(&v);
	free(buf);
	return 0;
}
