// SPDX-License-Identifier: GPL-2.0-only
/* kt_parse_options: the one option parser of every command (getopt_long underneath), and -h. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/options.h"
#include "ktrace/strv.h"

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

/* getopt_long's tables for help's options; free *longopts. */
static int build_tables(const struct kt_command_help *help, char *shortopts, size_t size,
			struct option **longopts)
{
	size_t n = count_options(help->options);
	struct option *lo;
	size_t i, j = 0, len;

	lo = calloc(n + 2, sizeof(*lo));
	if (!lo)
		return -ENOMEM;
	/* '+': stop at the first non-option so that `record CMD -x` leaves -x to CMD. */
	strcpy(shortopts, "+:h");
	len = strlen(shortopts);
	for (i = 0; i < n; i++) {
		const struct kt_option *o = &help->options[i];

		if (o->id > 0 && o->id < 256 && len + 3 < size) {
			shortopts[len++] = (char)o->id;
			strcpy(shortopts + len, arg_suffix(o->arg));
			len = strlen(shortopts);
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
	*longopts = lo;
	/* 0, not 1: glibc then forgets the state of an earlier parse (a half-read "-abc") */
	optind = 0;
	opterr = 0;
	return 0;
}

int kt_option_error(const char *cmd, const char *flag, const char *value, const char *why)
{
	if (value && *value)
		fprintf(stderr, "ktrace %s: %s '%s' %s\n", cmd, flag, value, why);
	else
		fprintf(stderr, "ktrace %s: %s %s\n", cmd, flag, why);
	return -EINVAL;
}

int kt_usage_error(const char *cmd, const char *flag, const char *value, const char *why)
{
	kt_option_error(cmd, flag, value, why);
	return KT_ERR_USAGE;
}

int kt_result_of(int err)
{
	if (!err || (err >= KT_HELP_SHOWN && err <= KT_ERR_FAILED))
		return err;
	return err == -EINVAL ? KT_ERR_USAGE : KT_ERR_FAILED;
}

/* The row's name in messages: "-b", or "--name" for a long-only option. */
static const char *row_name(const struct kt_option *o, char *buf, size_t size)
{
	if (o->id < 256)
		snprintf(buf, size, "-%c", o->id);
	else
		snprintf(buf, size, "--%s", o->long_name);
	return buf;
}

static const struct kt_option *find_row(const struct kt_command_help *help, int id)
{
	const struct kt_option *o;

	for (o = help->options; o && o->id; o++)
		if (o->id == id)
			return o;
	return NULL;
}

static int set_int(const struct kt_command_help *help, const struct kt_option *o,
		   const char *arg, int *out)
{
	char why[96], name[64];
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < o->min || v > o->max) {
		snprintf(why, sizeof(why), "is not a number from %ld to %ld", o->min, o->max);
		return kt_option_error(help->name, row_name(o, name, sizeof(name)), arg, why);
	}
	*out = (int)v;
	return 0;
}

/* Does what row o says with arg; 0 or negative errno (-EINVAL after a message). */
static int apply_row(const struct kt_command_help *help, const struct kt_option *o,
		     const char *arg, void *ctx)
{
	char *target = (char *)ctx + o->offset;
	kt_option_fn *fn = o->fn ? o->fn : help->option;

	switch (o->type) {
	case KT_OPT_BOOL:
		*(bool *)target = true;
		return 0;
	case KT_OPT_INT:
		return set_int(help, o, arg, (int *)target);
	case KT_OPT_STRING:
		if ((o->flags & KT_OPT_ONCE) && *(const char **)target) {
			char name[64];

			return kt_option_error(help->name, row_name(o, name, sizeof(name)), arg,
					       "is a second one: only one is taken");
		}
		*(const char **)target = arg;
		return 0;
	case KT_OPT_STRING_LIST:
		return strv_push((char ***)target, arg);
	case KT_OPT_BITS:
		*(unsigned int *)target |= (unsigned int)o->min;
		return 0;
	case KT_OPT_NOOP:
		return 0;
	case KT_OPT_CALLBACK:
		break;
	}
	return fn ? fn(ctx, o->id, arg) : -ENOSYS;
}

/* The flag getopt_long stopped at, as the user typed it. */
static const char *bad_flag(char **argv, char *buf, size_t size)
{
	const char *arg = optind > 0 ? argv[optind - 1] : NULL;

	if (optopt && optopt < 256)
		snprintf(buf, size, "-%c", optopt);
	else
		snprintf(buf, size, "%s", arg ? arg : "?");
	return buf;
}

/* KT_OPT_NEXT_WORD: an optional argument may be the next word, when it is not an option. */
static const char *next_word_arg(const struct kt_option *o, const char *arg, int argc,
				 char **argv)
{
	if (!arg && o && o->arg == KT_ARG_OPTIONAL && (o->flags & KT_OPT_NEXT_WORD) &&
	    optind < argc && argv[optind][0] != '-')
		return argv[optind++];
	return arg;
}

/* One option getopt_long returned: 0, or an enum kt_result after its message. */
static int take_option(const struct kt_command_help *help, int c, int argc, char **argv,
		       void *ctx)
{
	const struct kt_option *o;
	const char *arg = optarg;
	char name[64];
	int ret;

	if (c == 'h' && !find_row(help, 'h')) {
		kt_usage(stdout, help);
		return KT_HELP_SHOWN;
	}
	if (c == '?' || c == ':') {
		fprintf(stderr, c == '?' ? "ktrace %s: unknown option '%s' (see 'ktrace %s -h')\n" :
			"ktrace %s: option '%s' needs an argument (see 'ktrace %s -h')\n",
			help->name, bad_flag(argv, name, sizeof(name)), help->name);
		return KT_ERR_USAGE;
	}
	o = find_row(help, c);
	if (!o)
		return KT_ERR_FAILED;
	arg = next_word_arg(o, arg, argc, argv);
	ret = apply_row(help, o, arg, ctx);
	if (ret && ret != -EINVAL && ret < KT_HELP_SHOWN)
		fprintf(stderr, "ktrace %s: %s: %s\n", help->name, row_name(o, name, sizeof(name)),
			strerror(-ret));
	return kt_result_of(ret);
}

int kt_parse_options(const struct kt_command_help *help, int argc, char **argv, void *ctx,
		     int *first_arg)
{
	char shortopts[256];
	struct option *lo;
	int c, ret;

	if (argc > 1 && !strcmp(argv[1], KT_COMPLETION_FLAG)) {
		kt_completion_table(stdout, help);
		return KT_HELP_SHOWN;
	}
	ret = build_tables(help, shortopts, sizeof(shortopts), &lo);
	if (ret) {
		fprintf(stderr, "ktrace %s: %s\n", help->name, strerror(-ret));
		return KT_ERR_FAILED;
	}
	optopt = 0;
	while (!ret && (c = getopt_long(argc, argv, shortopts, lo, NULL)) != -1) {
		ret = take_option(help, c, argc, argv, ctx);
		optopt = 0;
	}
	free(lo);
	if (ret)
		return ret;
	if (first_arg) {
		*first_arg = optind;
	} else if (optind < argc) {
		fprintf(stderr, "ktrace %s: unexpected argument '%s' (see 'ktrace %s -h')\n",
			help->name, argv[optind], help->name);
		return KT_ERR_USAGE;
	}
	return 0;
}

int kt_walk_options(const struct kt_command_help *help, int argc, char **argv, void *ctx,
		    kt_walk_fn *fn)
{
	char shortopts[256];
	struct option *lo;
	int c, start, ret = build_tables(help, shortopts, sizeof(shortopts), &lo);

	if (ret)
		return ret;
	/* optind 0 (build_tables) restarts glibc's scan; the words counted start at 1 */
	start = 1;
	while (!ret && (c = getopt_long(argc, argv, shortopts, lo, NULL)) != -1) {
		const struct kt_option *o = c == '?' || c == ':' ? NULL : find_row(help, c);
		const char *arg = next_word_arg(o, optarg, argc, argv);
		/* a word ends when getopt moves past it: a cluster's options share one */
		int n = optind > start ? optind - start : 0;

		ret = fn(ctx, o, arg, start, n);
		start += n;
	}
	free(lo);
	return ret ? ret : optind;
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

static void completion_line(FILE *out, const char *dashes, const char *name,
			    const struct kt_option *o)
{
	const char *arg = o->arg_name ? o->arg_name : "ARG";

	fprintf(out, "%s%s\t", dashes, name);
	if (o->arg == KT_ARG_REQUIRED)
		fprintf(out, "%s", arg);
	else if (o->arg == KT_ARG_OPTIONAL)
		fprintf(out, "[%s]", arg);
	fputc('\n', out);
}

void kt_completion_table(FILE *out, const struct kt_command_help *help)
{
	static const struct kt_option help_row = { .id = 'h', .long_name = "help" };
	const struct kt_option *o;
	char name[2] = "";

	for (o = help->options; o && o->id; o++) {
		if (o->id < 256) {
			name[0] = (char)o->id;
			completion_line(out, "-", name, o);
		}
		if (o->long_name)
			completion_line(out, "--", o->long_name, o);
	}
	/* kt_usage's last line */
	completion_line(out, "-", "h", &help_row);
	completion_line(out, "--", "help", &help_row);
}
