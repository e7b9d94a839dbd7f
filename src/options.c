// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/options.h"

static size_t count_options(const struct kt_option *opts)
{
	size_t n = 0;

	while (opts && opts[n].id)
		n++;
	return n;
}

static int has_arg_flag(enum kt_arg arg)
{
	switch (arg) {
	case KT_ARG_REQUIRED:
		return required_argument;
	case KT_ARG_OPTIONAL:
		return optional_argument;
	default:
		return no_argument;
	}
}

static const char *arg_suffix(enum kt_arg arg)
{
	switch (arg) {
	case KT_ARG_REQUIRED:
		return ":";
	case KT_ARG_OPTIONAL:
		return "::";
	default:
		return "";
	}
}

int kt_getopt_init(struct kt_getopt *g, const struct kt_command_help *help, int argc, char **argv)
{
	size_t n = count_options(help->options);
	struct option *lo;
	size_t i, j = 0, len;

	memset(g, 0, sizeof(*g));
	g->help = help;
	g->argc = argc;
	g->argv = argv;
	lo = calloc(n + 2, sizeof(*lo));
	if (!lo)
		return -ENOMEM;
	/* '+': stop at the first non-option so that `record CMD -x` leaves -x to CMD. */
	strcpy(g->shortopts, "+:h");
	len = strlen(g->shortopts);
	for (i = 0; i < n; i++) {
		const struct kt_option *o = &help->options[i];

		if (o->id > 0 && o->id < 256 && len + 3 < sizeof(g->shortopts)) {
			g->shortopts[len++] = (char)o->id;
			strcpy(g->shortopts + len, arg_suffix(o->arg));
			len = strlen(g->shortopts);
		}
		if (o->long_name) {
			lo[j].name = o->long_name;
			lo[j].has_arg = has_arg_flag(o->arg);
			lo[j].val = o->id;
			j++;
		}
	}
	lo[j].name = "help";
	lo[j].val = 'h';
	g->longopts = lo;
	optind = 1;
	opterr = 0;
	return 0;
}

static const char *flag_name(const struct kt_getopt *g, char *buf, size_t size)
{
	const char *arg = g->argv[optind - 1];

	if (optopt && optopt < 256)
		snprintf(buf, size, "-%c", optopt);
	else
		snprintf(buf, size, "%s", arg ? arg : "?");
	return buf;
}

int kt_getopt_next(struct kt_getopt *g)
{
	char name[64];
	int c;

	optopt = 0;
	c = getopt_long(g->argc, g->argv, g->shortopts, g->longopts, NULL);
	g->arg = optarg;
	if (c == '?') {
		fprintf(stderr, "ktrace %s: unknown option '%s' (see 'ktrace %s -h')\n", g->help->name,
			flag_name(g, name, sizeof(name)), g->help->name);
		return '?';
	}
	if (c == ':') {
		fprintf(stderr, "ktrace %s: option '%s' needs an argument (see 'ktrace %s -h')\n",
			g->help->name, flag_name(g, name, sizeof(name)), g->help->name);
		return '?';
	}
	return c;
}

int kt_getopt_index(const struct kt_getopt *g)
{
	(void)g;
	return optind;
}

void kt_getopt_skip(struct kt_getopt *g)
{
	if (optind < g->argc)
		optind++;
}

void kt_getopt_release(struct kt_getopt *g)
{
	free(g->longopts);
	g->longopts = NULL;
}

void kt_usage(FILE *out, const struct kt_command_help *help)
{
	const struct kt_option *o;
	char left[64];

	fprintf(out, "usage: ktrace %s %s\n\n%s\n\n", help->name, help->usage, help->summary);
	for (o = help->options; o && o->id; o++) {
		int n = 0;

		if (o->id < 256 && o->long_name)
			n = snprintf(left, sizeof(left), "-%c, --%s", o->id, o->long_name);
		else if (o->id < 256)
			n = snprintf(left, sizeof(left), "-%c", o->id);
		else
			n = snprintf(left, sizeof(left), "--%s", o->long_name);
		if (o->arg_name && n > 0 && (size_t)n < sizeof(left))
			snprintf(left + n, sizeof(left) - n, o->arg == KT_ARG_OPTIONAL ? "[=%s]" : " %s",
				 o->arg_name);
		fprintf(out, "  %-28s %s\n", left, o->help);
	}
	fprintf(out, "  %-28s %s\n", "-h, --help", "show this help");
}
