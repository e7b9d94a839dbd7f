/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_PLAN_INTERNAL_H
#define KTRACE_RECORD_PLAN_INTERNAL_H

/* Shared by the plan, tracefs and control-command files of src/record; not a public contract. */
#include <stdbool.h>
#include <stddef.h>

#include "ktrace/plan.h"
#include "ktrace/strbuf.h"
#include "ktrace/strv.h"

/* Prints "ktrace CMD: FLAG 'VALUE' WHY" and returns -EINVAL. */
int plan_err_flag(const struct plan *plan, const char *flag, const char *value, const char *why);
int plan_parse_int(const struct plan *plan, const char *flag, const char *arg, int min, int max,
		   int *out);

/* --- tracefs files (tracefs_io.c) --- */

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

/* --- the undo list (tracefs_undo.c) --- */

/* Saves the current content of PATH before it is changed (first save of a path wins). */
int undo_save_file(struct tracefs_undo *undo, const char *path);
/* Records that ktrace created this instance directory: removed on undo. */
int undo_save_rmdir(struct tracefs_undo *undo, const char *path);
/* Records a write to do on undo, appended (trigger removal "!trigger"). */
int undo_save_append(struct tracefs_undo *undo, const char *path, const char *value);
int undo_new(struct tracefs_undo **out);

/* --- events matching an -e (plan_events.c) --- */

struct resolved_event {
	char *system;
	char *name;	/* NULL: the whole system through its own enable file */
	const struct plan_event *ev;
};

struct resolved_instance {
	struct resolved_event *events;
	int nr_events;
};

/* Expands every -e of the plan; unknown events fail (suggesting names) unless -i. */
int plan_resolve_events(const struct plan *plan, struct resolved_instance **out);
void plan_resolved_free(const struct plan *plan, struct resolved_instance *res);

/* --- names checked against the kernel (plan_validate.c) --- */

int plan_validate(const struct plan *plan);
/*
 * -p TRACER is in available_tracers; else one message, naming the kernel config option a known
 * tracer needs ("-p irqsoff: ... CONFIG_IRQSOFF_TRACER") or suggesting close names.
 */
int plan_check_tracer(const struct plan *plan, const char *tracer);
/* Appends "; did you mean 'a', 'b'?" with the closest of candidates (nothing if none close). */
void plan_suggest(struct strbuf *msg, const char *word, char *const *candidates);

#endif
