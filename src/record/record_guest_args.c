// SPDX-License-Identifier: GPL-2.0-only
/*
 * record -A: record's words split between the host and each guest (record_guest.h), walked as
 * the option parser walks them (the table says which options take the next word), and each -A
 * argument read as trace-cmd reads it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktrace/net_agent.h"
#include "ktrace/strv.h"
#include "record_guest.h"

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static int bad_spec(const char *spec, const char *why)
{
	return kt_option_error("record", "-A", spec, why);
}

/*
 * NAME@CID[:PORT] or CID[:PORT]: vsock; HOST:PORT (an address: it has a '.' or ':') and
 * [NAME]@HOST[:PORT]: TCP. The port is what follows the last ':', 823 without one. trace-cmd
 * also finds a bare NAME among the running qemu guests; that is not done here.
 */
static int parse_spec(struct record_guest *g, const char *spec, int *unnamed)
{
	char *s = strdup(spec), *colon, *at, *where;
	unsigned long v;
	int ret = 0;

	if (!s)
		return -ENOMEM;
	g->port = NET_AGENT_PORT;
	colon = strrchr(s, ':');
	if (colon && colon > s && !strchr(colon, ']')) {
		*colon = '\0';
		v = strtoul(colon + 1, NULL, 10);
		if (!all_digits(colon + 1) || !v || v > 0xffffffffUL)
			ret = bad_spec(spec, "expected a port number after the last ':'");
		g->port = (unsigned int)v;
	}
	at = strrchr(s, '@');
	where = at ? at + 1 : s;
	if (at)
		*at = '\0';
	if (ret) {
		/* reported */
	} else if (all_digits(where)) {
		v = strtoul(where, NULL, 10);
		if (v > 0xffffffffUL)
			ret = bad_spec(spec, "the vsock CID is too big");
		g->cid = (unsigned int)v;
	} else if (at || strchr(where, '.') || strchr(where, ':')) {
		if (!*where)
			ret = bad_spec(spec, "expected NAME@CID[:PORT], HOST:PORT or @HOST:PORT");
		else if (where[0] == '[' && where[strlen(where) - 1] == ']')
			g->host = strndup(where + 1, strlen(where) - 2);
		else
			g->host = strdup(where);
		if (!ret && !g->host)
			ret = -ENOMEM;
	} else {
		ret = bad_spec(spec, "guest not found: give NAME@CID[:PORT] or HOST:PORT");
	}
	/* trace-cmd names a guest reached by its address after that address */
	if (!ret && at && *s)
		g->name = strdup(s);
	else if (!ret && !at && g->host)
		g->name = strdup(g->host);
	else if (!ret)
		ret = asprintf(&g->name, "unnamed-%d", (*unnamed)++) < 0 ? -ENOMEM : 0;
	if (!ret && !g->name)
		ret = -ENOMEM;
	free(s);
	return ret;
}

static int add_guest(struct record_guests *gs, const char *spec, int *unnamed)
{
	struct record_guest *g = realloc(gs->g, sizeof(*g) * (size_t)(gs->nr + 1));

	if (!g)
		return -ENOMEM;
	gs->g = g;
	g = &gs->g[gs->nr++];
	memset(g, 0, sizeof(*g));
	g->fd = -1;
	g->stop_pipe[0] = g->stop_pipe[1] = -1;
	g->spec = strdup(spec);
	return g->spec ? parse_spec(g, spec, unnamed) : -ENOMEM;
}

static int push_words(struct record_guest *g, char **host, int *nr_host, char **words, int n)
{
	int k;

	for (k = 0; k < n; k++) {
		if (!g) {
			host[(*nr_host)++] = words[k];
		} else if (strv_push(&g->argv, words[k])) {
			return -ENOMEM;
		} else {
			g->argc++;
		}
	}
	return 0;
}

/* Where the words of the command line go while they are walked. */
struct split_walk {
	struct record_guests *gs;
	struct record_guest *cur;	/* the guest whose options these are, NULL: the host's */
	char **argv;
	char **host;
	int *nr_host;
	int unnamed;
	int end;			/* the first word not handed out yet */
};

static int split_option(void *ctx, const struct kt_option *row, const char *arg, int first,
			int n)
{
	struct split_walk *w = ctx;
	const char *word = w->argv[first];
	int ret = 0;

	w->end = first + n;
	if (row && row->id == 'A' && word[1] == 'A') {
		if (!arg)
			return kt_option_error("record", "-A", NULL, "needs a guest");
		ret = add_guest(w->gs, arg, &w->unnamed);
		w->cur = ret ? NULL : &w->gs->g[w->gs->nr - 1];
	} else if (row && row->long_name && !strcmp(row->long_name, "name")) {
		if (!w->cur)
			return kt_option_error("record", "--name", arg,
					       "names a guest: give it after -A");
		free(w->cur->name);
		w->cur->name = arg ? strdup(arg) : NULL;
		if (!w->cur->name)
			ret = -ENOMEM;
	} else {
		/* -B starts a host instance, which ends the guest's options */
		if (row && row->id == 'B' && word[1] == 'B')
			w->cur = NULL;
		if (w->cur && row && row->id == 'C')
			w->cur->has_clock = true;
		ret = push_words(w->cur, w->host, w->nr_host, w->argv + first, n);
	}
	return ret;
}

/* The options walked as record's parser reads them (kt_walk_options), each sent its way. */
static int split(const struct kt_option *table, int argc, char **argv, char **host,
		 int *nr_host, struct record_guests *gs)
{
	const struct kt_command_help help = { .name = "record", .options = table };
	struct split_walk w = {
		.gs = gs, .argv = argv, .host = host, .nr_host = nr_host, .end = 1,
	};
	int ret;

	host[(*nr_host)++] = argv[0];
	ret = kt_walk_options(&help, argc, argv, &w, split_option);
	if (ret < 0 || ret > argc)
		return ret < 0 ? ret : -EINVAL;
	/* a "--", then the command and its arguments: the host's */
	while (w.end < argc)
		host[(*nr_host)++] = argv[w.end++];
	return 0;
}

int record_guests_split(const struct kt_option *table, int argc, char **argv, int *host_argc,
			char ***host_argv, struct record_guests **out)
{
	struct record_guests *gs = calloc(1, sizeof(*gs));
	char **host = calloc((size_t)argc + 1, sizeof(*host));
	int ret = gs && host ? 0 : -ENOMEM;

	*host_argc = 0;
	if (!ret)
		ret = split(table, argc, argv, host, host_argc, gs);
	if (!ret && gs->nr)
		gs->trace_id = net_trace_id_new();
	if (ret || !gs->nr) {
		record_guests_free(gs);
		gs = NULL;
	}
	if (ret) {
		free(host);
		host = NULL;
		if (ret == -ENOMEM)
			fprintf(stderr, "ktrace record: out of memory\n");
		return kt_result_of(ret);
	}
	*host_argv = host;
	*out = gs;
	return 0;
}
