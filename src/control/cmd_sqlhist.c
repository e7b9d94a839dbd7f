// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace sqlhist: trace-cmd 3.4's sqlhist. An SQL statement becomes a synthetic event (a JOIN
 * of two events) or a histogram (one event) through libtracefs's tracefs_sql(); the command
 * prints the echo commands that make it, as trace-cmd does (libtracefs writes them), and with
 * -e runs them (sqlhist_apply.c, through the undo list). The SQL is checked first
 * (sqlhist_check.c): libtracefs's parser is not safe on every input.
 *
 * Where trace-cmd 3.4 differs: -s, -S and -T without -m or -c are a usage error here before
 * anything is read (there after the SQL was read); a synthetic event made without -n is named
 * "Anonymous" as there, but ktrace says so; an empty -f file is refused (trace-cmd hands a NULL
 * buffer on).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "ktrace/command.h"
#include "ktrace/options.h"
#include "ktrace/strbuf.h"
#include "ktrace/strv.h"
#include "ktrace/tfs.h"
#include "sqlhist_apply.h"
#include "sqlhist_check.h"

#define SQLHIST_DEFAULT_NAME "Anonymous"	/* trace-cmd 3.4's name without -n */

struct sqlhist_args {
	const char *name;	/* -n */
	bool execute;		/* -e */
	const char *trace_dir;	/* -t: a copy of tracefs with its events/ */
	const char *max_var;	/* -m */
	const char *change_var;	/* -c */
	bool snapshot;		/* -s */
	bool trace_snapshot;	/* -T */
	char **save;		/* -S, each a comma list */
	const char *instance;	/* -B */
	const char *file;	/* -f, "-" for stdin */
};

static const struct kt_option sqlhist_options[] = {
	KT_STRING('n', NULL, "NAME", struct sqlhist_args, name,
		  "name of the synthetic event (default: " SQLHIST_DEFAULT_NAME ")"),
	KT_BOOL('e', NULL, struct sqlhist_args, execute,
		"also run the commands (root): make the event or histogram"),
	KT_STRING('t', NULL, "DIR", struct sqlhist_args, trace_dir,
		  "read the event formats from a copy of tracefs (DIR/events)"),
	KT_STRING('m', NULL, "VAR", struct sqlhist_args, max_var,
		  "act when the variable VAR hits a new maximum"),
	KT_STRING('c', NULL, "VAR", struct sqlhist_args, change_var,
		  "act when the variable VAR changes"),
	KT_BOOL('s', NULL, struct sqlhist_args, snapshot,
		"take a snapshot instead of tracing the synthetic event (with -m/-c)"),
	KT_STRING_LIST('S', NULL, "FIELDS", struct sqlhist_args, save,
		       "save these end-event fields (comma list, with -m/-c)"),
	KT_BOOL('T', NULL, struct sqlhist_args, trace_snapshot,
		"trace the synthetic event and take a snapshot (with -m/-c)"),
	KT_STRING('B', NULL, "INSTANCE", struct sqlhist_args, instance,
		  "the instance of a histogram (not of a synthetic event: those are global)"),
	KT_STRING('f', NULL, "FILE", struct sqlhist_args, file,
		  "read the SQL from FILE ('-': standard input)"),
	{ 0 },
};

static const struct kt_command_help sqlhist_help = {
	.name = "sqlhist",
	.usage = "[-n NAME] [-e] [-t DIR] [-m VAR | -c VAR] [-s] [-S FIELDS] [-T] "
		 "[-B INSTANCE] (-f FILE | SQL...)",
	.summary = "Turn an SQL SELECT into a synthetic event or a histogram trigger: print the "
		   "commands that make it, and with -e run them.",
	.options = sqlhist_options,
};

static int check_args(const struct sqlhist_args *a)
{
	if (a->max_var && a->change_var)
		return kt_usage_error("sqlhist", "-m", a->max_var, "and -c cannot go together");
	if ((a->snapshot || a->trace_snapshot || a->save) && !a->max_var && !a->change_var)
		return kt_usage_error("sqlhist", a->snapshot ? "-s" : a->save ? "-S" : "-T", NULL,
				      "needs -m VAR or -c VAR (the variable that triggers it)");
	if (a->execute && geteuid() != 0) {
		fprintf(stderr, "ktrace sqlhist: -e changes tracefs: run it as root (e.g. with "
			"sudo), or print the commands without -e\n");
		return KT_ERR_FAILED;
	}
	return 0;
}

/* The SQL: the words after the options joined by spaces (as trace-cmd), or -f FILE's text. */
static int read_sql(const struct sqlhist_args *a, int argc, char **argv, int first,
		    struct strbuf *sql)
{
	int i, ret = 0;

	if (a->file) {
		if (first < argc)
			return kt_usage_error("sqlhist", "-f", a->file,
					      "reads the SQL: no SQL words after it");
		ret = strcmp(a->file, "-") ? strbuf_read_file(sql, a->file) :
		      strbuf_read_fd(sql, STDIN_FILENO);
		if (ret && ret != -ENOMEM)
			fprintf(stderr, "ktrace sqlhist: -f '%s': %s\n", a->file, strerror(-ret));
		return ret ? KT_ERR_FAILED : 0;
	}
	if (first >= argc)
		return kt_usage_error("sqlhist", "SQL", NULL,
				      "missing: give a SELECT statement or -f FILE");
	for (i = first; i < argc && !ret; i++)
		ret = strbuf_addf(sql, "%s%s", i > first ? " " : "", argv[i]);
	return ret ? KT_ERR_FAILED : 0;
}

/* -S's comma lists as one list of fields */
static int save_fields(char **save, char ***fields)
{
	char *copy, *tok, *state = NULL;
	int i, added, ret = 0;

	for (i = 0; save && save[i] && !ret; i++) {
		copy = strdup(save[i]);
		if (!copy)
			return -ENOMEM;
		added = 0;
		for (tok = strtok_r(copy, ",", &state); tok && !ret; tok = strtok_r(NULL, ",", &state)) {
			ret = strv_push(fields, tok);
			added++;
		}
		free(copy);
		/* each -S names a field of its own: "-S a -S ,," is refused at its second */
		if (!ret && !added)
			return kt_option_error("sqlhist", "-S", save[i], "names no field");
	}
	return ret;
}

/* The end of DIGITS "_" DIGITS at p, or NULL */
static const char *two_numbers(const char *p)
{
	const char *start = p;

	while (*p >= '0' && *p <= '9')
		p++;
	if (p == start || *p++ != '_')
		return NULL;
	start = p;
	while (*p >= '0' && *p <= '9')
		p++;
	return p == start ? NULL : p;
}

/*
 * libtracefs 1.6.4 names an SQL variable "lat" __lat_RAND_N in the histograms, and its -m/-c
 * actions look for "lat" itself, which is not there (fixed later: libtracefs 0567e2d, "Handle
 * hashed name variables"): the name as the histograms have it, or var when they have no such.
 */
static int hashed_var(struct tracefs_synth *synth, const char *var, struct strbuf *out)
{
	struct strbuf prefix = STRBUF_INIT;
	struct trace_seq seq;
	const char *p = NULL, *end = NULL;
	int ret;

	trace_seq_init(&seq);
	ret = strbuf_addf(&prefix, "__%s_", var);
	if (!ret && !tracefs_synth_echo_cmd(&seq, synth))
		trace_seq_terminate(&seq);
	if (!ret && seq.len && seq.state == TRACE_SEQ__GOOD)
		for (p = strstr(seq.buffer, prefix.buf); p; p = strstr(p + 1, prefix.buf)) {
			end = two_numbers(p + prefix.len);
			if (end && *end == '=' && (p[-1] == ':' || p[-1] == ','))
				break;
		}
	if (!ret)
		ret = p ? strbuf_add(out, p, (size_t)(end - p)) : strbuf_addstr(out, var);
	trace_seq_destroy(&seq);
	strbuf_release(&prefix);
	return ret;
}

/* -m/-c's actions on a synthetic event; trace by default, as trace-cmd */
static int add_actions(const struct sqlhist_args *a, struct tracefs_synth *synth)
{
	enum tracefs_synth_handler handler = a->max_var ? TRACEFS_SYNTH_HANDLE_MAX :
					     TRACEFS_SYNTH_HANDLE_CHANGE;
	const char *user_var = a->max_var ? a->max_var : a->change_var, *var, *what = NULL;
	bool snapshot = a->snapshot || a->trace_snapshot;
	struct strbuf name = STRBUF_INIT;
	char **fields = NULL;
	int ret = save_fields(a->save, &fields);

	if (!ret)
		ret = hashed_var(synth, user_var, &name);
	if (ret) {
		strv_free(fields);
		return ret;
	}
	var = name.buf;
	if (a->save && tracefs_synth_save(synth, handler, var, fields) < 0)
		what = "-S";
	/* the trace before the snapshot, so that the snapshot holds the event */
	if (!what && (a->trace_snapshot || (!snapshot && !a->save)) &&
	    tracefs_synth_trace(synth, handler, var) < 0)
		what = "the trace action";
	if (!what && snapshot && tracefs_synth_snapshot(synth, handler, var) < 0)
		what = a->snapshot ? "-s" : "-T";
	ret = what ? (errno ? -errno : -EINVAL) : 0;
	strv_free(fields);
	strbuf_release(&name);
	if (ret == -ENODEV)
		return kt_option_error("sqlhist", a->max_var ? "-m" : "-c", user_var,
				       "is not a variable of the SQL (one named with AS)");
	if (ret)
		fprintf(stderr, "ktrace sqlhist: cannot add %s on '%s': %s\n", what, user_var,
			strerror(-ret));
	return ret;
}

/* The echo commands of the synthetic event or the histogram, into seq */
static int echo_commands(const struct sqlhist_args *a, struct tracefs_synth *synth,
			 struct trace_seq *seq)
{
	struct tracefs_instance *inst = NULL;
	struct tracefs_hist *hist;
	int ret;

	if (tracefs_synth_complete(synth)) {
		if ((a->max_var || a->change_var) && (ret = add_actions(a, synth)))
			return ret;
		if (!a->name)
			fprintf(stderr, "ktrace sqlhist: no -n: the synthetic event is named '%s'\n",
				SQLHIST_DEFAULT_NAME);
		return tracefs_synth_echo_cmd(seq, synth) ? (errno ? -errno : -EIO) : 0;
	}
	hist = tracefs_synth_get_start_hist(synth);
	if (!hist) {
		fprintf(stderr, "ktrace sqlhist: the SQL makes no histogram: select a field of "
			"the event\n");
		return -EINVAL;
	}
	/* trace-cmd: the instance of the -t copy when printing, of tracefs when running */
	if (a->instance) {
		inst = tracefs_instance_alloc(a->execute ? NULL : a->trace_dir, a->instance);
		if (!inst) {
			tracefs_hist_free(hist);
			return kt_option_error("sqlhist", "-B", a->instance, a->trace_dir ?
					       "is not an instance of the -t copy" :
					       "is not an instance (-e makes it)");
		}
	}
	ret = tracefs_hist_echo_cmd(seq, inst, hist, 0) ? (errno ? -errno : -EIO) : 0;
	tracefs_instance_free(inst);
	tracefs_hist_free(hist);
	return ret;
}

static int run_sql(const struct sqlhist_args *a, const char *sql)
{
	const char *dir = a->trace_dir ? a->trace_dir : tracefs_tracing_dir();
	struct tracefs_synth *synth = NULL;
	struct strbuf why = STRBUF_INIT;
	struct tfs_undo *undo = NULL;
	struct tep_handle *tep;
	const char *instance;
	struct trace_seq seq;
	char *err = NULL;
	int ret = 0;

	if (tfs_formats_tep(dir, &tep, NULL)) {
		fprintf(stderr, "ktrace sqlhist: cannot read the event formats of %s%s\n",
			dir ? dir : "tracefs", a->trace_dir ? " (-t)" : "");
		return KT_ERR_FAILED;
	}
	if (sqlhist_check_fields(tep, sql, &why)) {
		kt_usage_error("sqlhist", a->file ? "-f" : "SQL", a->file, why.buf);
		strbuf_release(&why);
		tep_free(tep);
		return KT_ERR_USAGE;
	}
	synth = tracefs_sql(tep, a->name ? a->name : SQLHIST_DEFAULT_NAME, sql, &err);
	if (!synth) {
		if (err && *err)
			fprintf(stderr, "ktrace sqlhist: the SQL is refused:\n%s%s", err,
				err[strlen(err) - 1] == '\n' ? "" : "\n");
		else
			fprintf(stderr, "ktrace sqlhist: the SQL is refused (libtracefs gives no "
				"reason: a field the event does not have?)\n");
		free(err);
		tep_free(tep);
		return KT_ERR_USAGE;
	}
	/* -e -B: the instance is made first, its path is in the commands */
	instance = tracefs_synth_complete(synth) ? NULL : a->instance;
	if (a->execute)
		ret = sqlhist_apply_begin(&undo, instance);
	trace_seq_init(&seq);
	if (!ret)
		ret = echo_commands(a, synth, &seq);
	if (!ret) {
		trace_seq_terminate(&seq);
		if (seq.state != TRACE_SEQ__GOOD)
			ret = -ENOMEM;
	}
	if (ret == -ENOMEM)
		fprintf(stderr, "ktrace sqlhist: out of memory\n");
	ret = kt_result_of(ret);
	/* a write the kernel refused is a failure, not a usage error */
	if (!ret && a->execute && sqlhist_apply(undo, seq.buffer, instance))
		ret = KT_ERR_FAILED;
	sqlhist_apply_end(undo, ret);
	if (!ret)
		trace_seq_do_printf(&seq);
	trace_seq_destroy(&seq);
	tracefs_synth_free(synth);
	tep_free(tep);
	return ret;
}

int cmd_sqlhist(int argc, char **argv)
{
	struct sqlhist_args a = { 0 };
	struct strbuf sql = STRBUF_INIT, why = STRBUF_INIT;
	int first, ret = kt_parse_options(&sqlhist_help, argc, argv, &a, &first);

	if (!ret)
		ret = check_args(&a);
	if (!ret)
		ret = read_sql(&a, argc, argv, first, &sql);
	if (!ret && sqlhist_check(sql.buf ? sql.buf : "", sql.len, &why))
		ret = kt_usage_error("sqlhist", a.file ? "-f" : "SQL", a.file, why.buf);
	if (!ret)
		ret = run_sql(&a, sql.buf);
	strv_free(a.save);
	strbuf_release(&sql);
	strbuf_release(&why);
	return ret;
}
