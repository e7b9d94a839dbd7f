// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace reset: tracing back to the kernel's defaults (trace-cmd reset's meaning), or with
 * --restore, the settings a killed ktrace had saved in its undo journal.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "ktrace/command.h"
#include "ktrace/flight_lock.h"
#include "ktrace/options.h"
#include "ktrace/tfs.h"

enum { OPT_RESTORE = 256 };

struct reset_args {
	char **instances;
	bool all, top, delete, restore;
	unsigned int keep_dynevents;	/* -k: enum tfs_dynevent_kind */
	struct tfs_reset_ctx ctx;
};

static int keep_kind(void *ctx, int id, const char *arg)
{
	struct reset_args *a = ctx;
	unsigned int kinds;

	(void)id;
	if (tfs_dynevent_kind_by_name(arg, &kinds))
		return kt_option_error("reset", "-k", arg, "is not one of kprobe, kretprobe, "
				       "uprobe, uretprobe, eprobe, synth, all");
	a->keep_dynevents |= kinds;
	return 0;
}

static const struct kt_option reset_options[] = {
	KT_INT('b', NULL, "KB", struct reset_args, ctx.buffer_kb, 1, 1 << 30,
	       "set the buffers to KB per CPU (default: boot size)"),
	KT_STRING_LIST('B', NULL, "INSTANCE", struct reset_args, instances,
		       "reset INSTANCE (repeatable)"),
	KT_BOOL('a', NULL, struct reset_args, all, "reset every instance and the top one"),
	KT_BOOL('t', NULL, struct reset_args, top, "reset the top instance too (with -B)"),
	KT_BOOL('d', NULL, struct reset_args, delete, "delete the -B/-a instances after the reset"),
	KT_CALLBACK('k', NULL, KT_ARG_REQUIRED, "KIND", keep_kind,
		    "keep the dynamic events of KIND: kprobe, kretprobe, uprobe, uretprobe, "
		    "eprobe, synth or all (repeatable)"),
	KT_BOOL(OPT_RESTORE, "restore", struct reset_args, restore,
		"undo what a killed ktrace record/start changed (from its journal)"),
	{ 0 },
};

static const struct kt_command_help reset_help = {
	.name = "reset",
	.usage = "[-b KB] [-B INSTANCE]... [-a] [-t] [-d] [-k KIND]... | --restore",
	.summary = "Disable tracing and put tracefs back to its defaults: nop tracer, events off, "
		   "filters, triggers and pid lists cleared, local clock, all CPUs, default "
		   "options and buffer size, tracing_on=1.",
	.options = reset_options,
};

static int parse_args(struct reset_args *a, int argc, char **argv)
{
	int ret = kt_parse_options(&reset_help, argc, argv, a, NULL);

	if (!ret && a->delete && !a->all && !a->instances)
		ret = kt_usage_error("reset", "-d", "", "needs -B or -a (the top instance stays)");
	return ret;
}

static int collect_all(struct reset_args *a)
{
	char **list = NULL;
	int i, ret = tfs_instances(&list);

	for (i = 0; list && list[i] && !ret; i++)
		ret = strv_push(&a->instances, list[i]);
	strv_free(list);
	return ret;
}

static int reset_named(struct reset_args *a, const char *name)
{
	struct strbuf dir = STRBUF_INIT;
	int ret = 0;

	if (!tracefs_instance_exists(name)) {
		fprintf(stderr, "ktrace reset: -B '%s': no such instance\n", name);
		return -ENOENT;
	}
	tfs_reset_instance(&a->ctx, name);
	if (a->delete) {
		tfs_path(&dir, name, "");
		if (rmdir(dir.buf)) {
			ret = -errno;
			fprintf(stderr, "ktrace reset: cannot delete %s: %s\n", dir.buf,
				strerror(errno));
		}
	}
	strbuf_release(&dir);
	return ret;
}

/*
 * kprobes, uprobes, eprobes and synthetic events are global: resetting the top instance removes
 * them as trace-cmd reset does, but for the kinds -k keeps.
 */
static int remove_dynamic_events(unsigned int keep)
{
	struct strbuf err = STRBUF_INIT;
	int ret = tfs_dynevents_remove(keep, &err);

	if (ret)
		fprintf(stderr, "ktrace reset: %s\n", err.len ? err.buf : tfs_cause(ret));
	strbuf_release(&err);
	return ret;
}

static int restore_journals(void)
{
	int n = tfs_undo_replay_stale(stdout, true);
	/* a killed flight recorder also left its lock: nobody holds it, it goes */
	int locks = flight_lock_remove_stale(stdout);

	if (n < 0) {
		fprintf(stderr, "ktrace reset: cannot read %s: %s\n", KT_UNDO_JOURNAL_DIR,
			strerror(-n));
		return 1;
	}
	if (!n && locks <= 0)
		printf("nothing to restore: no journal of a killed ktrace in %s\n",
		       KT_UNDO_JOURNAL_DIR);
	return 0;
}

int cmd_reset(int argc, char **argv)
{
	struct reset_args a = { 0 };
	int i, ret, err = 0;

	ret = parse_args(&a, argc, argv);
	if (!ret && a.all && collect_all(&a))
		ret = KT_ERR_FAILED;
	if (ret) {
		strv_free(a.instances);
		return ret;
	}
	if (a.restore) {
		strv_free(a.instances);
		return restore_journals();
	}
	/* Defaults make the journals of killed runs meaningless: replaying them later would undo
	 * this reset. */
	tfs_undo_replay_stale(NULL, false);
	/* Like trace-cmd: -B alone leaves the top instance alone; -a includes it. */
	if (a.top || a.all || !a.instances) {
		tfs_reset_instance(&a.ctx, NULL);
		if (remove_dynamic_events(a.keep_dynevents) && !err)
			err = -1;
	}
	for (i = 0; a.instances && a.instances[i]; i++)
		if (reset_named(&a, a.instances[i]) && !err)
			err = -1;
	strv_free(a.instances);
	return a.ctx.err || err ? 1 : 0;
}
