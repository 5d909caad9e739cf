/* SPDX-License-Identifier: GPL-2.0 */
/*
 * builtin.h - the commands, one per cmd-<name>.c (as git's builtin.h).
 *
 * Each cmd-<name>.c defines one of these; kmig.c lists them all in its
 * dispatch table.  A new command adds its line here and to that table.
 */
#ifndef KMIG_BUILTIN_H
#define KMIG_BUILTIN_H

#include "kmig.h"

extern const struct kmig_cmd cmd_import;
extern const struct kmig_cmd cmd_scan;
extern const struct kmig_cmd cmd_report;
extern const struct kmig_cmd cmd_rules;
extern const struct kmig_cmd cmd_check;
extern const struct kmig_cmd cmd_log;
extern const struct kmig_cmd cmd_boot;
extern const struct kmig_cmd cmd_bisect;
extern const struct kmig_cmd cmd_branch;
extern const struct kmig_cmd cmd_convert;
extern const struct kmig_cmd cmd_web;

#endif
