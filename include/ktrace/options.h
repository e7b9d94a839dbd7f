/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_OPTIONS_H
#define KTRACE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Options are declared as data: one table per command drives parsing (getopt_long underneath),
 * `ktrace CMD -h`, the shell completion, and the test that every option is documented in the
 * man page.
 *
 * The table ends with an entry whose id is 0. An option with only a long name gets an id above
 * 255; one with a short name uses that character as its id.
 *
 * Each row says what it does with its argument: a typed target (a member of the context the
 * command hands to kt_parse_options, given as its offset) or a callback.
 */
enum kt_arg {
	KT_ARG_NONE,
	KT_ARG_REQUIRED,
	KT_ARG_OPTIONAL,
};

enum kt_opt_type {
	KT_OPT_CALLBACK,	/* the row's fn, or the table's option callback */
	KT_OPT_BOOL,		/* bool member set to true */
	KT_OPT_INT,		/* int member, a decimal number from min to max */
	KT_OPT_STRING,		/* const char * member: the argument in argv (the last wins) */
	KT_OPT_STRING_LIST,	/* char ** member, NULL-terminated copies (strv_free) */
	KT_OPT_BITS,		/* unsigned int member |= min */
	KT_OPT_NOOP,		/* accepted (trace-cmd has it), no effect */
};

enum kt_opt_flags {
	/* KT_ARG_OPTIONAL: the next word is the argument too when it does not start with '-' */
	KT_OPT_NEXT_WORD = 1 << 0,
	/* KT_OPT_STRING: given twice is a usage error (trace-cmd's -i/-o of one file) */
	KT_OPT_ONCE = 1 << 1,
};

/*
 * A callback gets the context, the option's id and its argument (NULL without one). It returns
 * 0, -EINVAL after printing one message (a usage error), or another negative errno.
 */
typedef int kt_option_fn(void *ctx, int id, const char *arg);

struct kt_option {
	int id;
	const char *long_name;	/* NULL when the option has only a short name */
	enum kt_arg arg;
	const char *arg_name;	/* e.g. "FILE", shown in the help */
	const char *help;
	enum kt_opt_type type;
	size_t offset;		/* of the typed target in the context */
	kt_option_fn *fn;	/* KT_OPT_CALLBACK: NULL for the table's callback */
	long min, max;		/* KT_OPT_INT's range; KT_OPT_BITS: min is the bits */
	unsigned int flags;	/* enum kt_opt_flags */
};

/*
 * Rows with a typed target: CTX is the context's type, MEMBER the target. Building a row fails
 * to compile when MEMBER has another type than the row's.
 */
#define KT_OPT_TARGET_(CTX, MEMBER, T) \
	(offsetof(CTX, MEMBER) + 0 * sizeof(char[__builtin_types_compatible_p( \
		__typeof__(((CTX *)0)->MEMBER), T) ? 1 : -1]))
#define KT_BOOL(ID, LONG, CTX, MEMBER, HELP) \
	{ .id = (ID), .long_name = (LONG), .arg = KT_ARG_NONE, .help = (HELP), \
	  .type = KT_OPT_BOOL, .offset = KT_OPT_TARGET_(CTX, MEMBER, bool) }
#define KT_INT(ID, LONG, ARG_NAME, CTX, MEMBER, MIN, MAX, HELP) \
	{ .id = (ID), .long_name = (LONG), .arg = KT_ARG_REQUIRED, .arg_name = (ARG_NAME), \
	  .help = (HELP), .type = KT_OPT_INT, .offset = KT_OPT_TARGET_(CTX, MEMBER, int), \
	  .min = (MIN), .max = (MAX) }
#define KT_STRING(ID, LONG, ARG_NAME, CTX, MEMBER, HELP) \
	{ .id = (ID), .long_name = (LONG), .arg = KT_ARG_REQUIRED, .arg_name = (ARG_NAME), \
	  .help = (HELP), .type = KT_OPT_STRING, \
	  .offset = KT_OPT_TARGET_(CTX, MEMBER, const char *) }
/* A KT_STRING that may be given once: a file, as trace-cmd takes one -i and one -o */
#define KT_STRING_ONCE(ID, LONG, ARG_NAME, CTX, MEMBER, HELP) \
	{ .id = (ID), .long_name = (LONG), .arg = KT_ARG_REQUIRED, .arg_name = (ARG_NAME), \
	  .help = (HELP), .type = KT_OPT_STRING, .flags = KT_OPT_ONCE, \
	  .offset = KT_OPT_TARGET_(CTX, MEMBER, const char *) }
#define KT_STRING_LIST(ID, LONG, ARG_NAME, CTX, MEMBER, HELP) \
	{ .id = (ID), .long_name = (LONG), .arg = KT_ARG_REQUIRED, .arg_name = (ARG_NAME), \
	  .help = (HELP), .type = KT_OPT_STRING_LIST, \
	  .offset = KT_OPT_TARGET_(CTX, MEMBER, char **) }
#define KT_BITS(ID, LONG, CTX, MEMBER, BITS, HELP) \
	{ .id = (ID), .long_name = (LONG), .arg = KT_ARG_NONE, .help = (HELP), \
	  .type = KT_OPT_BITS, .offset = KT_OPT_TARGET_(CTX, MEMBER, unsigned int), \
	  .min = (long)(BITS) }
#define KT_NOOP(ID, LONG, ARG, ARG_NAME, HELP) \
	{ .id = (ID), .long_name = (LONG), .arg = (ARG), .arg_name = (ARG_NAME), .help = (HELP), \
	  .type = KT_OPT_NOOP }
/* A row handled by the table's callback (kt_command_help.option) */
#define KT_OPT(ID, LONG, ARG, ARG_NAME, HELP) \
	{ .id = (ID), .long_name = (LONG), .arg = (ARG), .arg_name = (ARG_NAME), .help = (HELP) }
/* A row handled by FN */
#define KT_CALLBACK(ID, LONG, ARG, ARG_NAME, FN, HELP) \
	{ .id = (ID), .long_name = (LONG), .arg = (ARG), .arg_name = (ARG_NAME), .help = (HELP), \
	  .type = KT_OPT_CALLBACK, .fn = (FN) }

struct kt_command_help {
	const char *name;	/* "report" */
	const char *usage;	/* "[OPTIONS] [-i FILE]" */
	const char *summary;	/* one sentence */
	const struct kt_option *options;
	kt_option_fn *option;	/* the callback of KT_OPT_CALLBACK rows without their own */
};

/*
 * What kt_parse_options returns, and what a command may return instead of an exit status:
 * above 255 so that they never read as one. The dispatcher (main.c) maps them to the exit
 * status of each command.
 */
enum kt_result {
	KT_HELP_SHOWN = 256,	/* -h printed the usage: exit 0, nothing done */
	KT_ERR_USAGE,		/* a bad option, argument or combination; message printed */
	KT_ERR_FAILED,		/* something else failed (e.g. no memory); message printed */
};

/*
 * The hidden flag that makes kt_parse_options print the table for the shell completion (`ktrace
 * __complete options CMD` passes it as CMD's first argument) instead of parsing: one line per
 * spelling of an option, "FLAG<TAB>ARG", ARG empty without an argument, "NAME" when required,
 * "[NAME]" when optional; -h and --help included. kt_parse_options then returns KT_HELP_SHOWN.
 */
#define KT_COMPLETION_FLAG "--ktrace-completion-table"

/*
 * Parses the options of argv (argv[0] is the command name) into ctx, up to the first argument
 * that is not an option (so that `record CMD -x` leaves -x to CMD). -h/--help prints the
 * usage. With first_arg NULL, an argument is refused; else *first_arg is its index (argc when
 * there is none). Returns 0 or an enum kt_result; every message reads "ktrace CMD: ..." and
 * names the flag.
 */
int kt_parse_options(const struct kt_command_help *help, int argc, char **argv, void *ctx,
		     int *first_arg);

/*
 * Walks the options of argv as kt_parse_options() reads them, applying nothing: fn gets each
 * option's row (NULL for one the table lacks, or -h), its argument (NULL without one) and the
 * words it completes, argv[first] to argv[first + n - 1] (n is 0 for an option that shares its
 * word with a later one, "-qA"). Nothing is printed. Returns the index of the first word that
 * is not an option, or fn's non-zero result.
 */
typedef int kt_walk_fn(void *ctx, const struct kt_option *row, const char *arg, int first, int n);
int kt_walk_options(const struct kt_command_help *help, int argc, char **argv, void *ctx,
		    kt_walk_fn *fn);

/* The one usage message: "ktrace CMD: FLAG 'VALUE' WHY" (no quotes without a value); -EINVAL. */
int kt_option_error(const char *cmd, const char *flag, const char *value, const char *why);
/* kt_option_error's message, as the enum kt_result of a check after parsing */
int kt_usage_error(const char *cmd, const char *flag, const char *value, const char *why);
/*
 * A result as an enum kt_result: 0 and the enum's values stay, -EINVAL (a message was printed
 * about the input) is KT_ERR_USAGE, anything else KT_ERR_FAILED.
 */
int kt_result_of(int err);

void kt_usage(FILE *out, const struct kt_command_help *help);
/* The lines of KT_COMPLETION_FLAG */
void kt_completion_table(FILE *out, const struct kt_command_help *help);

#endif
