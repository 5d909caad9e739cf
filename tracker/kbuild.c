// SPDX-License-Identifier: GPL-2.0
/*
 * kbuild.c - the work area: open, lock, state file, progress; see kbuild.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "kbuild-internal.h"
#include "repo.h"

static void vnote(struct kbuild *kb, enum kbuild_note kind, const char *fmt,
		  va_list ap)
{
	struct sbuf sb = SBUF_INIT;

	if (!kb->note)
		return;
	sbuf_vaddf(&sb, fmt, ap);
	kb->note(kb->note_data, kind, sb.buf);
	sbuf_release(&sb);
}

void kbuild_note(struct kbuild *kb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(kb, KBUILD_NOTE_PROGRESS, fmt, ap);
	va_end(ap);
}

static void note_wait(struct kbuild *kb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note_wait(struct kbuild *kb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(kb, KBUILD_NOTE_WAIT, fmt, ap);
	va_end(ap);
}

void kbuild_hash_hex(char out[41], const void *data, size_t len)
{
	git_oid oid;

	git_odb_hash(&oid, data, len, GIT_OBJECT_BLOB);
	git_oid_tostr(out, 41, &oid);
}

static int read_state(struct kbuild *kb)
{
	struct sbuf sb = SBUF_INIT;
	char *line, *save = NULL;

	kb->state_commit[0] = kb->state_config[0] = '\0';
	if (access(kb->state_path, F_OK))
		return 0;
	if (sbuf_read_file(&sb, kb->state_path))
		return -1;
	for (line = strtok_r(sb.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "commit ", 7) && strlen(line + 7) == 40)
			memcpy(kb->state_commit, line + 7, 41);
		else if (!strncmp(line, "config ", 7) && strlen(line + 7) == 40)
			memcpy(kb->state_config, line + 7, 41);
	}
	sbuf_release(&sb);
	return 0;
}

int kbuild_write_state(struct kbuild *kb)
{
	char *tmp = xasprintf("%s.tmp", kb->state_path);
	FILE *f = fopen(tmp, "w");
	int ret = 0;

	if (!f) {
		ret = kmig_err("cannot write '%s': %s", tmp, strerror(errno));
		goto out_free;
	}
	if (kb->state_commit[0])
		fprintf(f, "commit %s\n", kb->state_commit);
	if (kb->state_config[0])
		fprintf(f, "config %s\n", kb->state_config);
	if (fclose(f) || rename(tmp, kb->state_path))
		ret = kmig_err("cannot write '%s': %s", kb->state_path,
			       strerror(errno));
out_free:
	free(tmp);
	return ret;
}

static int take_lock(struct kbuild *kb)
{
	char *path = xasprintf("%s/lock", kb->dir);
	int ret = 0;

	kb->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (kb->lock_fd < 0) {
		ret = kmig_err("cannot open '%s': %s", path, strerror(errno));
		goto out_free;
	}
	if (flock(kb->lock_fd, LOCK_EX | LOCK_NB)) {
		note_wait(kb, "waiting for another kmig using '%s'", kb->dir);
		if (flock(kb->lock_fd, LOCK_EX))
			ret = kmig_err("cannot lock '%s': %s", path,
				       strerror(errno));
	}
out_free:
	free(path);
	return ret;
}

int kbuild_open(struct kbuild **out, const char *home, const char *repo_path,
		kbuild_note_fn *note, void *note_data)
{
	struct kbuild *kb = xcalloc(1, sizeof(*kb));
	char real[PATH_MAX], id[41];
	const char *cc_env = getenv("CCACHE_DIR");

	*out = NULL;
	kb->lock_fd = -1;
	kb->note = note;
	kb->note_data = note_data;
	if (!realpath(repo_path, real)) {
		kmig_err("cannot open repository '%s': %s", repo_path,
			 strerror(errno));
		goto out_free;
	}
	if (repo_open(&kb->repo, real))
		goto out_free;
	kbuild_hash_hex(id, real, strlen(real));
	id[16] = '\0';
	kb->dir = xasprintf("%s/work/%s", home, id);
	kb->src = xasprintf("%s/src", kb->dir);
	kb->out = xasprintf("%s/build", kb->dir);
	kb->images = xasprintf("%s/images", kb->dir);
	kb->logs = xasprintf("%s/logs", kb->dir);
	kb->state_path = xasprintf("%s/state", kb->dir);
	kb->ccache_dir = cc_env && *cc_env ? xstrdup(cc_env) :
		xasprintf("%s/ccache", home);
	if (mkdir_p(kb->out) || mkdir_p(kb->images) || mkdir_p(kb->logs))
		goto out_close;
	if (take_lock(kb) || read_state(kb))
		goto out_close;
	*out = kb;
	return 0;
out_close:
	kbuild_close(kb);
	return -1;
out_free:
	free(kb);
	return -1;
}

void kbuild_close(struct kbuild *kb)
{
	if (!kb)
		return;
	if (kb->lock_fd >= 0)
		close(kb->lock_fd);
	git_repository_free(kb->repo);
	free(kb->dir);
	free(kb->src);
	free(kb->out);
	free(kb->images);
	free(kb->logs);
	free(kb->state_path);
	free(kb->ccache_dir);
	free(kb);
}

const char *kbuild_dir(const struct kbuild *kb)
{
	return kb->dir;
}

const char *kbuild_src_dir(const struct kbuild *kb)
{
	return kb->src;
}

int kbuild_resolve(struct kbuild *kb, const char *rev, char out[41],
		   char **subject)
{
	git_commit *c;

	if (repo_resolve_commit(&c, kb->repo, rev))
		return -1;
	git_oid_tostr(out, 41, git_commit_id(c));
	if (subject) {
		const char *s = git_commit_summary(c);

		*subject = xstrdup(s ? s : "");
	}
	git_commit_free(c);
	return 0;
}

void kbuild_result_release(struct kbuild_result *res)
{
	free(res->subject);
	free(res->log_path);
	free(res->image);
	free(res->missing);
	free(res->error);
	free(res->inherited);
	free(res->configs);
	memset(res, 0, sizeof(*res));
}
