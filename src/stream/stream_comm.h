/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_STREAM_COMM_H
#define KTRACE_STREAM_COMM_H

/*
 * Task names for a live stream. The tep's pid -> comm table is loaded from saved_cmdlines, but
 * tasks keep appearing (and a forked child is saved under its parent's name until it execs),
 * so a pid printed for the first time makes the table be re-read, overriding older names.
 */
#include <stdbool.h>

struct tep_handle;
struct stream_comm;

int stream_comm_new(struct tep_handle *tep, struct stream_comm **out);
/*
 * Before printing a record of pid: re-reads saved_cmdlines at most once per round. True when
 * it did: names the tep gave before may have changed.
 */
bool stream_comm_check(struct stream_comm *sc, int pid);
/* A new round (a new batch of pages) may re-read the table again. */
void stream_comm_round(struct stream_comm *sc);
void stream_comm_free(struct stream_comm *sc);

#endif
