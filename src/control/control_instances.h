/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_CONTROL_INSTANCES_H
#define KTRACE_CONTROL_INSTANCES_H

/*
 * The instances a -B/-a command acts on (clear, restart): every name is checked before any
 * of them is touched, so that a bad -B changes nothing.
 */

/*
 * Appends the name of every instance of tracefs to *names (strv). 0 or negative errno, after
 * "ktrace CMD: ..." naming what could not be read.
 */
int control_add_all_instances(const char *cmd, char ***names);

/* 0 when every instance of names exists; else -ENOENT after "ktrace CMD: -B 'NAME': ...". */
int control_check_instances(const char *cmd, char *const *names);

#endif
