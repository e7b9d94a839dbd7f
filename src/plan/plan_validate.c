// SPDX-License-Identifier: GPL-2.0-only
/*
 * Names of the plan checked against the running kernel before anything changes: tracers,
 * clocks, options, instances to delete, and whether the function tracer files accept writes.
 * A wrong name gets the closest valid ones as suggestions.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "plan_filter_check.h"
#include "plan_internal.h"

#define MAX_SUGGESTIONS 3

static int edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	int row[128], prev, tmp, best;

	if (lb >= sizeof(row) / sizeof(row[0]) || la >= 128)
		return 1000;
	for (j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = (int)i;
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			best = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

/* Inserts a candidate into the sorted, fixed-size list of the best ones. */
static void keep_best(const char **best, int *dist, const char *cand, int d)
{
	int k = MAX_SUGGESTIONS - 1;

	if (best[k] && dist[k] <= d)
		return;
	while (k > 0 && (!best[k - 1] || dist[k - 1] > d)) {
		best[k] = best[k - 1];
		dist[k] = dist[k - 1];
		k--;
	}
	best[k] = cand;
	dist[k] = d;
}

void plan_suggest(struct strbuf *msg, const char *word, char *const *candidates)
{
	const char *best[MAX_SUGGESTIONS] = { NULL };
	int dist[MAX_SUGGESTIONS] = { 0 }, i, k, limit = (int)strlen(word) / 3 + 1;

	if (!word)
		return;
	for (i = 0; candidates && candidates[i]; i++) {
		int d = edit_distance(word, candidates[i]);

		/* A name that contains the word (sched_switch for "switch") is close too. */
		if (d > limit && strstr(candidates[i], word) && strlen(word) >= 3)
			d = limit;
		if (d <= limit)
			keep_best(best, dist, candidates[i], d);
	}
	for (k = 0; k < MAX_SUGGESTIONS && best[k]; k++)
		strbuf_addf(msg, "%s'%s'", k ? ", " : "; did you mean ", best[k]);
	if (best[0])
		strbuf_addch(msg, '?');
}

static int unknown_name(const struct plan *plan, const char *flag, const char *word,
			const char *what, char *const *candidates, const char *list_cmd)
{
	struct strbuf msg = STRBUF_INIT;

	strbuf_addf(&msg, "ktrace %s: %s '%s': no such %s", plan->cmd, flag, word, what);
	plan_suggest(&msg, word, candidates);
	fprintf(stderr, "%s (see 'ktrace list %s')\n", msg.buf, list_cmd);
	strbuf_release(&msg);
	return -ENOENT;
}

static bool in_list(char *const *list, const char *word)
{
	int i;

	for (i = 0; list && list[i]; i++)
		if (!strcmp(list[i], word))
			return true;
	return false;
}

static int check_in_file(const struct plan *plan, const char *file, const char *flag,
			 const char *word, const char *what, const char *list_cmd)
{
	struct strbuf path = STRBUF_INIT;
	char **words = NULL;
	int ret;

	ret = tfs_path(&path, NULL, file);
	if (!ret)
		ret = tfs_words(path.buf, &words);
	if (ret)
		fprintf(stderr, "ktrace %s: cannot read %s: %s\n", plan->cmd, path.buf,
			strerror(-ret));
	else if (!in_list(words, word))
		ret = unknown_name(plan, flag, word, what, words, list_cmd);
	strv_free(words);
	strbuf_release(&path);
	return ret;
}

int plan_check_tracer(const struct plan *plan, const char *tracer)
{
	struct strbuf path = STRBUF_INIT;
	const char *config = plan_tracer_config(tracer);
	char **words = NULL;
	int ret;

	ret = tfs_path(&path, NULL, "available_tracers");
	if (!ret)
		ret = tfs_words(path.buf, &words);
	if (!ret && !in_list(words, tracer) && config) {
		fprintf(stderr, "ktrace %s: -p %s: this kernel has no %s tracer (not in %s; it needs "
			"a kernel built with %s)\n", plan->cmd, tracer, tracer, path.buf, config);
		ret = -ENOENT;
	}
	strv_free(words);
	strbuf_release(&path);
	return ret ? ret : check_in_file(plan, "available_tracers", "-p", tracer, "tracer", "-t");
}

/* The option names of options/ (what -O takes, without the "no" of trace_options). */
static int option_names(char ***out)
{
	struct strbuf path = STRBUF_INIT;
	char **words = NULL;
	int i, ret;

	*out = NULL;
	ret = tfs_path(&path, NULL, "trace_options");
	if (!ret)
		ret = tfs_words(path.buf, &words);
	for (i = 0; !ret && words && words[i]; i++) {
		tfs_path(&path, NULL, "options/");
		strbuf_addstr(&path, words[i] + 2);
		ret = strv_push(out, strncmp(words[i], "no", 2) || access(path.buf, F_OK) ?
				     words[i] : words[i] + 2);
	}
	strv_free(words);
	strbuf_release(&path);
	return ret;
}

/* Options are files of options/; "noNAME" clears NAME. */
static int check_option(const struct plan *plan, const char *opt)
{
	struct strbuf path = STRBUF_INIT;
	char **names = NULL;
	const char *name = opt;
	int ret = 0;

	tfs_path(&path, NULL, "options/");
	if (!strncmp(opt, "no", 2)) {
		strbuf_addstr(&path, opt + 2);
		if (!access(path.buf, F_OK))
			name = opt + 2;
		tfs_path(&path, NULL, "options/");
	}
	strbuf_addstr(&path, name);
	if (access(path.buf, F_OK)) {
		option_names(&names);
		ret = unknown_name(plan, "-O", name, "option", names, "-o");
	}
	strv_free(names);
	strbuf_release(&path);
	return ret;
}

/*
 * Under lockdown the function tracer's files refuse even an open for writing. Opening without
 * O_TRUNC changes nothing, so this probe is safe before any change.
 */
static int probe_function_files(const struct plan *plan)
{
	static const char *const files[] = { "set_ftrace_filter", "set_ftrace_notrace" };
	struct strbuf path = STRBUF_INIT;
	size_t i;
	int fd, ret = 0;

	for (i = 0; i < sizeof(files) / sizeof(files[0]) && !ret; i++) {
		tfs_path(&path, NULL, files[i]);
		fd = open(path.buf, O_WRONLY | O_APPEND | O_CLOEXEC);
		if (fd >= 0) {
			close(fd);
			continue;
		}
		ret = -errno;
		if (ret == -ENOENT)
			fprintf(stderr, "ktrace %s: this kernel has no function tracer (%s is missing)\n",
				plan->cmd, path.buf);
		else
			fprintf(stderr, "ktrace %s: the kernel refuses writes to %s (%s); function "
				"tracing (-p function, -l, -n, -g, --func-stack) is not available\n",
				plan->cmd, files[i], tfs_cause(ret));
	}
	strbuf_release(&path);
	return ret;
}

static int check_instance(const struct plan *plan, const struct plan_instance *inst)
{
	int i, ret = 0;

	if (inst->remove && !tracefs_instance_exists(inst->name)) {
		fprintf(stderr, "ktrace %s: -v -B '%s': no such instance\n", plan->cmd, inst->name);
		return -ENOENT;
	}
	ret = plan_check_function_globs(plan->cmd, inst);
	if (!ret && inst->tracer)
		ret = plan_check_tracer(plan, inst->tracer);
	if (!ret && inst->clock)
		ret = check_in_file(plan, "trace_clock", "-C", inst->clock, "clock", "-C");
	for (i = 0; inst->options && inst->options[i] && !ret; i++)
		ret = check_option(plan, inst->options[i]);
	return ret;
}

int plan_validate(const struct plan *plan)
{
	bool function = false;
	int i, ret = 0;

	for (i = 0; i < plan->nr_instances && !ret; i++) {
		ret = check_instance(plan, &plan->instances[i]);
		function |= plan_instance_wants_function(&plan->instances[i]);
	}
	if (!ret && function)
		ret = probe_function_files(plan);
	return ret;
}
