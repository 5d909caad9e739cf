/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbuild-internal.h - what the kbuild*.c files share; not for other
 * modules (they use kbuild.h).
 *
 *	kbuild.c		the work area: open, lock, state file, progress
 *	kbuild-checkout.c	moving src/ from one commit to another
 *	kbuild-config.c		the QEMU configuration recipe
 *	kbuild-make.c		make's environment, build steps, kbuild_commit()
 *	kbuild-check.c		the wide-configuration compile check
 *
 * Same return convention as kbuild.h: 0 or negative with kmig_err()
 * recorded.
 */
#ifndef KMIG_KBUILD_INTERNAL_H
#define KMIG_KBUILD_INTERNAL_H

#include <git2.h>

#include "kbuild.h"
#include "util.h"

struct kbuild {
	git_repository *repo;
	char *dir;		/* $KMIG_HOME/work/<id> */
	char *src;
	char *out;
	char *images;
	char *logs;
	char *state_path;
	char *ccache_dir;
	int lock_fd;
	kbuild_note_fn *note;	/* progress, or NULL */
	void *note_data;
	char state_commit[41];	/* "" when src/ is unknown */
	char state_config[41];	/* recipe hash of build/.config, or "" */
};

/* kbuild_note - format a progress line for the caller's note callback. */
void kbuild_note(struct kbuild *kb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* kbuild_hash_hex - SHA-1 of @len bytes, as git would name a blob of them. */
void kbuild_hash_hex(char out[41], const void *data, size_t len);

/* kbuild_write_state - write kb->state_commit and state_config to disk. */
int kbuild_write_state(struct kbuild *kb);

/*
 * kbuild_move - move src/ to @commit (a full id); *@kconfig: a file that
 * can change the configuration differs (or src/ was written in full).
 */
int kbuild_move(struct kbuild *kb, const char *commit, bool *kconfig);

/* The compiler, -j and O= of make, and the environment of every step. */
struct make_env {
	char *cc;		/* "CC=..." */
	char *jobs;		/* "-jN" */
	char *outdir;		/* "O=..." */
	char *envv[4];
};

/* kbuild_make_env_init - make's arguments for @kb (release them after). */
void kbuild_make_env_init(struct make_env *me, struct kbuild *kb);
void kbuild_make_env_release(struct make_env *me);

/*
 * kbuild_step - run @argv in src/ with @me's environment, its output
 * appended to @log; 0 ok, 1 the step failed, <0 error.
 */
int kbuild_step(struct kbuild *kb, struct make_env *me, const char *log,
		char *const argv[]);

/* kbuild_first_error - the first error line of @log (caller frees), or NULL. */
char *kbuild_first_error(const char *log);

/*
 * kbuild_check_fragment - the options of the fragment @frag ("CONFIG_X=v",
 * "# CONFIG_X is not set") that the configuration @config does not hold,
 * space-separated, in *@missing (NULL: none).  0 or negative.
 */
int kbuild_check_fragment(const char *frag, const char *config, char **missing);

/* kbuild_recipe_hash - the hash of the recipe with the fragment @frag. */
int kbuild_recipe_hash(char out[41], const char *frag);

/*
 * kbuild_configure - make build/.config with the recipe (tinyconfig,
 * @frag merged, olddefconfig) for src/, output to @log; records
 * res->config_hash as the state's config, sets res->missing to the
 * fragment options that did not survive.  0, 1 a step failed, <0 error.
 */
int kbuild_configure(struct kbuild *kb, struct make_env *me, const char *log,
		     const char *frag, struct kbuild_result *res);

#endif
