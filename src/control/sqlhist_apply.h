/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_SQLHIST_APPLY_H
#define KTRACE_SQLHIST_APPLY_H

/*
 * `ktrace sqlhist -e`: runs the echo commands the command prints (libtracefs's
 * tracefs_synth_echo_cmd / tracefs_hist_echo_cmd text, one "echo 'TEXT' >[>] PATH" a line),
 * each write saved in an undo list first, so that a write the kernel refuses puts back the
 * ones before it (the synthetic event, the start histogram). instance: the -B instance the
 * triggers go to (its error_log explains a refused trigger), NULL for the top one; created
 * when it does not exist (and removed again on failure). On success the changes stay, as
 * trace-cmd's; `ktrace reset` removes them.
 */
struct tfs_undo;

/* The undo list, and the -B instance made when missing. 0, or negative errno after a message */
int sqlhist_apply_begin(struct tfs_undo **undo, const char *instance);
/* Writes each line. 0, or negative errno after one message */
int sqlhist_apply(struct tfs_undo *undo, const char *commands, const char *instance);
/* ret 0: keeps the changes; else puts tracefs back. Frees undo. */
void sqlhist_apply_end(struct tfs_undo *undo, int ret);

#endif
