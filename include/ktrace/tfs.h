/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_TFS_H
#define KTRACE_TFS_H

/*
 * The tracefs layer: paths, reads and writes of tracefs files (tfs_io.c), the kernel's
 * error_log (tfs_errlog.c), the undo list that puts every changed file back, with its
 * journal for a killed ktrace (tfs_undo.c), and the boot defaults `ktrace reset` restores
 * (tfs_defaults.c). It knows files, not plans: the plan layer above decides what to write.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ktrace/strbuf.h"
#include "ktrace/strv.h"

/* --- tracefs files (tfs_io.c) --- */

/*
 * The one way to a tracefs path: FILE in the instance (instance NULL: the top one; file NULL:
 * the instance's directory itself).
 */
int tfs_path(struct strbuf *out, const char *instance, const char *file);
/* Reads a whole file; 0 or negative errno. */
int tfs_read(const char *path, struct strbuf *out);
int tfs_inst_read(const char *instance, const char *file, struct strbuf *out);
/* Writes len bytes (looping over partial writes); async-signal-safe. */
int tfs_write(const char *path, const char *val, size_t len, bool truncate);
int tfs_inst_write(const char *instance, const char *file, const char *val);
/* The selected word of "a [b] c" files (trace_clock, current_tracer on some kernels). */
int tfs_selected(const char *text, struct strbuf *out);
/* Strips trailing newlines and spaces in place. */
void tfs_chomp(struct strbuf *sb);
/* Space/newline separated words of a file, NULL-terminated; free with strv_free. */
int tfs_words(const char *path, char ***out);
/* Event systems and events of the top instance; free with strv_free. */
int tfs_systems(char ***out);
int tfs_system_events(const char *system, char ***out);
/* The same under a tracing directory or a copy of one (NULL: the live tracefs). */
int tfs_dir_systems(const char *trace_dir, char ***out);
int tfs_dir_system_events(const char *trace_dir, const char *system, char ***out);
/*
 * A tep with the header page and every event format of `trace_dir` (NULL: the live tracefs),
 * the systems as libtracefs's tracefs_local_events() takes them, but not kallsyms, printk
 * formats or saved cmdlines, which a query of the formats never uses: /proc/kallsyms is
 * megabytes, read by libtracefs in 4 KB steps, each a realloc. A format that does not parse is
 * left out and counted in *failures (may be NULL). Caller frees with tep_free.
 */
struct tep_handle;
int tfs_formats_tep(const char *trace_dir, struct tep_handle **out, int *failures);
/* The names of the instances (instances/), in readdir order; free with strv_free. */
int tfs_instances(char ***out);
/* Calls fn for every event of the top instance's events/ (instances have the same ones). */
int tfs_for_each_event(void (*fn)(const char *sys, const char *event, void *arg), void *arg);
/*
 * After a write of TEXT failed with EINVAL: prints the kernel's error_log entry about it (its
 * message, the text and the caret under the fault); false when the log has none.
 */
bool tfs_print_error_log(const char *instance, const char *text);
/* "the kernel refuses writes to FILE (EPERM; lockdown?)" style cause of an errno. */
const char *tfs_cause(int err);

/* --- the undo list and its journal (tfs_undo.c) --- */

struct tfs_undo;

/* Saves the current content of PATH before it is changed (first save of a path wins). */
int tfs_undo_save_file(struct tfs_undo *undo, const char *path);
/* Records that ktrace created this instance directory: removed on undo. */
int tfs_undo_save_rmdir(struct tfs_undo *undo, const char *path);
/* Records a write to do on undo, appended (trigger removal "!trigger"). */
int tfs_undo_save_append(struct tfs_undo *undo, const char *path, const char *value);
int tfs_undo_new(struct tfs_undo **out);

/*
 * Restores every saved setting, newest first; async-signal-safe (no allocation, only
 * open/write/close/rmdir/unlink on paths prepared in advance) and idempotent.
 */
int tfs_undo_restore(struct tfs_undo *undo);
/* Dynamic events by type, as trace-cmd reset -k names them (tfs_dynevents.c) */
enum tfs_dynevent_kind {
	TFS_DYN_KPROBE = 1 << 0,
	TFS_DYN_KRETPROBE = 1 << 1,
	TFS_DYN_UPROBE = 1 << 2,
	TFS_DYN_URETPROBE = 1 << 3,
	TFS_DYN_EPROBE = 1 << 4,
	TFS_DYN_SYNTH = 1 << 5,
	TFS_DYN_OTHER = 1 << 6,		/* fprobes, tracepoint probes */
	TFS_DYN_ALL = (1 << 7) - 1,
};

/* The kind of one line of dynamic_events */
unsigned int tfs_dynevent_kind(const char *line);
/* "kprobe" ... "synth", "all" (reset -k's words) to kinds; -EINVAL for another word */
int tfs_dynevent_kind_by_name(const char *name, unsigned int *kinds);
/* The lines of dynamic_events (none when empty); strv_free() them */
int tfs_dynevents(char ***out);
/*
 * Removes every dynamic event whose kind is not in keep, event probes first, disabling one
 * that is still enabled in an instance; what could not be removed is named in err. -errno.
 */
int tfs_dynevents_remove(unsigned int keep, struct strbuf *err);

/* After a failed tfs_undo_restore(): the file it could not put back first (or NULL). */
const char *tfs_undo_failed_path(const struct tfs_undo *undo);
/* Forgets the saved settings without restoring them (start, record -k); removes the journal. */
void tfs_undo_keep(struct tfs_undo *undo);
void tfs_undo_free(struct tfs_undo *undo);

/*
 * While a plan is applied, its undo entries are also journaled in KT_UNDO_JOURNAL_DIR/undo-PID
 * so that `ktrace reset --restore` can undo the changes of a ktrace that was killed.
 * Replays (apply) the journals of dead processes, or (!apply) only removes the instances they
 * had created; the journals are deleted. Returns how many there were, or negative errno.
 */
#define KT_UNDO_JOURNAL_DIR "/run/ktrace"
int tfs_undo_replay_stale(FILE *log, bool apply);


/* --- boot defaults (tfs_defaults.c) --- */

/* What `ktrace reset` does to one instance; shared by reset and its kernel tests. */
struct tfs_reset_ctx {
	int buffer_kb;	/* -b, 0: the kernel default for the top instance, untouched for others */
	int err;	/* first error (negative errno); each one is printed with its file */
};

/* Puts the instance (NULL: top) back to boot defaults and tracing_on=1. 0 or ctx->err. */
int tfs_reset_instance(struct tfs_reset_ctx *ctx, const char *inst);
/* The kernel's default per-CPU buffer size in KB (trace_buf_size=, else 1408). */
int tfs_default_buffer_kb(void);

/* The boot value of a trace option, '0' or '1', or -1 when ktrace does not know it. */
int tfs_option_default(const char *name, bool instance);
/* The tracing_cpumask text that selects every CPU ("3", "ff,ffffffff"...). */
void tfs_all_cpus_mask(char *buf, size_t size);

#endif
