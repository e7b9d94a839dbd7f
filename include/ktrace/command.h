/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_COMMAND_H
#define KTRACE_COMMAND_H

#include <stddef.h>

/*
 * What a command needs before it runs. The dispatcher in main.c does that setup once, with
 * one clear message when it fails, so that commands never repeat it.
 */
enum kt_command_flags {
	NEED_ROOT = 1 << 0,	/* refuse with one sentence when not root */
	NEED_TRACEFS = 1 << 1,	/* mount tracefs when it is not mounted */
	USAGE_EXIT_255 = 1 << 2,	/* a usage error exits 255, not 1 (as trace-cmd report) */
	/* find tracefs as NEED_TRACEFS does, but run without it (sqlhist -t: a copy of it) */
	TRACEFS_OPTIONAL = 1 << 3,
};

struct kt_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	unsigned int flags;
	const char *summary;
};

/*
 * Each command returns the process exit status (0 on success), or an enum kt_result of
 * ktrace/options.h (help shown, usage error, failure) that the dispatcher maps to one.
 */
int cmd_report(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_hist(int argc, char **argv);
int cmd_mem(int argc, char **argv);
int cmd_sql(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_start(int argc, char **argv);
int cmd_set(int argc, char **argv);
int cmd_stop(int argc, char **argv);
int cmd_extract(int argc, char **argv);
int cmd_save(int argc, char **argv);
int cmd_reset(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_listen(int argc, char **argv);
int cmd_agent(int argc, char **argv);
int cmd_stream(int argc, char **argv);
int cmd_snapshot(int argc, char **argv);
int cmd_stack(int argc, char **argv);
int cmd_restart(int argc, char **argv);
int cmd_clear(int argc, char **argv);
int cmd_options(int argc, char **argv);
int cmd_check_events(int argc, char **argv);
int cmd_split(int argc, char **argv);
int cmd_restore(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_setup_guest(int argc, char **argv);
int cmd_sqlhist(int argc, char **argv);

struct strbuf;
/*
 * Chooses the tracefs every command then uses: dir (--tracefs), else $KTRACE_TRACEFS, else
 * /sys/kernel/tracing, else a tracefs found in /proc/self/mountinfo, else one mounted at
 * /sys/kernel/tracing. 0, or negative errno with the reason in err.
 */
int kt_tracefs_locate(const char *dir, struct strbuf *err);

/*
 * `ktrace __complete ...` (argv[0] is "__complete"): the candidates of the bash completion, from
 * the command table and the commands' option tables (cmd_complete.c).
 */
int kt_complete(int argc, char **argv, const struct kt_command *commands, size_t n);

#endif
