/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_OPTIONS_H
#define KTRACE_OPTIONS_H

#include <stdio.h>

/*
 * Options are declared as data: one table per command drives parsing (getopt_long underneath),
 * `ktrace CMD -h`, and the test that every option is documented in the man page.
 *
 * The table ends with an entry whose id is 0. An option with only a long name gets an id above
 * 255; one with a short name uses that character as its id.
 */
enum kt_arg {
	KT_ARG_NONE,
	KT_ARG_REQUIRED,
	KT_ARG_OPTIONAL,
};

struct kt_option {
	int id;
	const char *long_name;	/* NULL when the option has only a short name */
	enum kt_arg arg;
	const char *arg_name;	/* e.g. "FILE", shown in the help */
	const char *help;
};

struct kt_command_help {
	const char *name;	/* "report" */
	const char *usage;	/* "[OPTIONS] [-i FILE]" */
	const char *summary;	/* one sentence */
	const struct kt_option *options;
};

/* The parser's state; kt_getopt() fills optarg-like `arg`. */
struct kt_getopt {
	const struct kt_command_help *help;
	int argc;
	char **argv;
	const char *arg;
	/* private */
	char shortopts[256];
	void *longopts;
	int started;
};

int kt_getopt_init(struct kt_getopt *g, const struct kt_command_help *help, int argc, char **argv);
/*
 * Returns the next option's id, -1 at the end of the options (then optind says where the
 * arguments start), 'h' for -h/--help, or '?' for an unknown option or a missing argument,
 * after printing a message that names the command and the flag.
 */
int kt_getopt_next(struct kt_getopt *g);
void kt_getopt_release(struct kt_getopt *g);
/* Index of the first non-option argument once kt_getopt_next returned -1. */
int kt_getopt_index(const struct kt_getopt *g);
/* Steps over the argument at kt_getopt_index(), so that the options after it are parsed too. */
void kt_getopt_skip(struct kt_getopt *g);

void kt_usage(FILE *out, const struct kt_command_help *help);

#endif
