/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_FLIGHT_LOCK_H
#define KTRACE_FLIGHT_LOCK_H

/*
 * An armed flight recorder (record --flight-recorder) holds an flock on
 * KT_UNDO_JOURNAL_DIR/flight[-INSTANCE].lock for each instance it records. The file says its pid
 * and the last file it saved; `ktrace save` finds the recorder there, and a second recorder on
 * the same instance is refused with the first one's pid. The lock dies with its process, so a
 * killed recorder leaves only a file nobody holds, which `ktrace reset --restore` removes.
 */
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "ktrace/strbuf.h"

/* instance NULL: the top one. 0 with *fd held; -EBUSY with *holder when another pid holds it. */
int flight_lock_take(const char *instance, int *fd, pid_t *holder);
/* Writes "PID\nLAST\n" into the held lock file (last: the last saved file, or NULL). */
int flight_lock_note(int fd, const char *last);
/* Releases and removes it. */
void flight_lock_drop(const char *instance, int fd);
/*
 * The armed recorder of instance (NULL: the top one). With any, the only armed recorder of any
 * instance, whose name goes into inst (empty for the top one). 0, -ENOENT when none is armed,
 * -EEXIST when any finds several. last (may be NULL) gets its last saved file.
 */
int flight_lock_find(const char *instance, bool any, pid_t *pid, struct strbuf *inst,
		     struct strbuf *last);
/* Removes the lock files nobody holds (a killed recorder's); how many, or negative errno. */
int flight_lock_remove_stale(FILE *log);

#endif
