// SPDX-License-Identifier: GPL-2.0
/*
 * kbuild-config.c - the QEMU configuration recipe: tinyconfig, the
 * fragment merged with the tree's merge_config.sh, olddefconfig; see kbuild.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbuild-internal.h"

/* Bump when the configuration recipe changes in a way the hash misses. */
#define KBUILD_RECIPE "kmig-config-1 tinyconfig+merge_config+olddefconfig\n"

int kbuild_check_fragment(const char *frag, const char *config, char **missing)
{
	struct sbuf fs = SBUF_INIT, cs = SBUF_INIT, out = SBUF_INIT;
	char *line, *save = NULL;
	int ret = 0;

	*missing = NULL;
	if (sbuf_read_file(&fs, frag) || sbuf_read_file(&cs, config)) {
		ret = -1;
		goto out_release;
	}
	for (line = strtok_r(fs.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[128], *want;
		bool ok;

		if (!strncmp(line, "CONFIG_", 7)) {
			want = xasprintf("\n%s\n", line);
			ok = strstr(cs.buf, want) != NULL;
			free(want);
		} else if (sscanf(line, "# %127s is not set", name) == 1 &&
			   !strncmp(name, "CONFIG_", 7)) {
			want = xasprintf("\n%s=", name);
			ok = strstr(cs.buf, want) == NULL;
			free(want);
		} else {
			continue;
		}
		if (!ok) {
			char *eq = strchr(line, '=');
			if (line[0] == '#')
				sbuf_addf(&out, "%s%s=n", out.len ? " " : "",
					  name);
			else
				sbuf_addf(&out, "%s%.*s", out.len ? " " : "",
					  (int)(eq ? eq - line : (long)strlen(line)),
					  line);
		}
	}
	if (out.len)
		*missing = sbuf_detach(&out);
out_release:
	sbuf_release(&fs);
	sbuf_release(&cs);
	sbuf_release(&out);
	return ret;
}

int kbuild_recipe_hash(char out[41], const char *frag)
{
	struct sbuf sb = SBUF_INIT;

	sbuf_addstr(&sb, KBUILD_RECIPE);
	if (sbuf_read_file(&sb, frag)) {
		sbuf_release(&sb);
		return -1;
	}
	kbuild_hash_hex(out, sb.buf, sb.len);
	sbuf_release(&sb);
	return 0;
}

int kbuild_configure(struct kbuild *kb, struct make_env *me, const char *log,
		     const char *frag, struct kbuild_result *res)
{
	char *config = xasprintf("%s/.config", kb->out);
	char *tiny[] = { "make", me->outdir, me->cc, "tinyconfig", NULL };
	char *merge[] = { "sh", "scripts/kconfig/merge_config.sh", "-m",
			  "-O", kb->out, config, (char *)frag, NULL };
	char *old[] = { "make", me->outdir, me->cc, "olddefconfig", NULL };
	int ret;

	kbuild_note(kb, "configuring: tinyconfig + %s", frag);
	kb->state_config[0] = '\0';
	ret = kbuild_write_state(kb);
	if (!ret)
		ret = kbuild_step(kb, me, log, tiny);
	if (!ret)
		ret = kbuild_step(kb, me, log, merge);
	if (!ret)
		ret = kbuild_step(kb, me, log, old);
	if (!ret)
		ret = kbuild_check_fragment(frag, config, &res->missing);
	if (!ret) {
		memcpy(kb->state_config, res->config_hash, 41);
		ret = kbuild_write_state(kb);
	}
	free(config);
	return ret;
}
