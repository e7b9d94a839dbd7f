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

static const struct kt_option *find_long(const struct kt_option *t, const char *name, size_t len)
{
	for (; t->id; t++)
		if (t->long_name && strlen(t->long_name) == len && !strncmp(t->long_name, name, len))
			return t;
	return NULL;
}

static const struct kt_option *find_short(const struct kt_option *t, int c)
{
	for (; t->id; t++)
		if (t->id == c && c < 256)
			return t;
	return NULL;
}

/*
 * The option at argv[i]: how many words it takes (1 or 2), its row (NULL if unknown) and its
 * argument (NULL without one).
 */
static int option_words(const struct kt_option *table, int argc, char **argv, int i,
			const struct kt_option **row, const char **arg)
{
	const char *a = argv[i], *eq;
	bool has_next = i + 1 < argc;
	int j;

	*arg = NULL;
	if (a[1] == '-') {
		eq = strchr(a, '=');
		*row = find_long(table, a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
		if (eq)
			*arg = eq + 1;
		if (!*row || eq || (*row)->arg == KT_ARG_NONE)
			return 1;
		if ((*row)->arg == KT_ARG_OPTIONAL &&
		    (!((*row)->flags & KT_OPT_NEXT_WORD) || !has_next || argv[i + 1][0] == '-'))
			return 1;
		*arg = has_next ? argv[i + 1] : NULL;
		return has_next ? 2 : 1;
	}
	/* a cluster of short options: the first one that takes an argument ends it */
	for (j = 1; a[j]; j++) {
		*row = find_short(table, (unsigned char)a[j]);
		if (!*row || (*row)->arg == KT_ARG_NONE)
			continue;
		if (a[j + 1] || (*row)->arg == KT_ARG_OPTIONAL) {
			*arg = a[j + 1] ? a + j + 1 : NULL;
			return 1;
		}
		*arg = has_next ? argv[i + 1] : NULL;
		return has_next ? 2 : 1;
	}
	*row = a[2] ? NULL : find_short(table, (unsigned char)a[1]);
	return 1;
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

static int split(const struct kt_option *table, int argc, char **argv, char **host,
		 int *nr_host, struct record_guests *gs)
{
	struct record_guest *cur = NULL;
	const struct kt_option *row;
	int i = 1, n, ret = 0, unnamed = 0;
	const char *arg;

	host[(*nr_host)++] = argv[0];
	while (!ret && i < argc) {
		if (argv[i][0] != '-' || !argv[i][1] || !strcmp(argv[i], "--"))
			break;
		n = option_words(table, argc, argv, i, &row, &arg);
		if (row && row->id == 'A' && argv[i][1] == 'A') {
			if (!arg)
				return kt_option_error("record", "-A", NULL, "needs a guest");
			ret = add_guest(gs, arg, &unnamed);
			cur = ret ? NULL : &gs->g[gs->nr - 1];
		} else if (row && row->long_name && !strcmp(row->long_name, "name")) {
			if (!cur)
				return kt_option_error("record", "--name", arg,
						       "names a guest: give it after -A");
			free(cur->name);
			cur->name = arg ? strdup(arg) : NULL;
			if (!cur->name)
				ret = -ENOMEM;
		} else {
			/* -B starts a host instance, which ends the guest's options */
			if (row && row->id == 'B' && argv[i][1] == 'B')
				cur = NULL;
			if (cur && row && row->id == 'C')
				cur->has_clock = true;
			ret = push_words(cur, host, nr_host, argv + i, n);
		}
		i += n;
	}
	/* the command and its arguments run on the host */
	while (i < argc)
		host[(*nr_host)++] = argv[i++];
	return ret;
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
