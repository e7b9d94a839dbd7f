// SPDX-License-Identifier: GPL-2.0-only
/*
 * The front end of the commands that read one trace.dat file through report's filters
 * (report, export, hist): the input file, the filter flags, the parse loop, and the
 * run -> one message -> release skeleton. The commands keep only their own options and work,
 * so that an input or filter flag means, and fails with, the same words everywhere.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/options.h"
#include "ktrace/report.h"
#include "report_opts.h"

static int add_input(struct report_opts *o, const char *file)
{
	struct report_input *grown = realloc(o->more_inputs,
					     (o->nr_more_inputs + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	o->more_inputs = grown;
	memset(&grown[o->nr_more_inputs], 0, sizeof(*grown));
	grown[o->nr_more_inputs++].path = file;
	return 0;
}

/* -i FILE (bare: a FILE without -i, which trace-cmd takes only as the one input) */
static int set_input(const struct report_cli *cli, const char *file, bool bare)
{
	struct report_opts *o = cli->o;

	if (!o->input) {
		o->input = file;
		/*
		 * trace-cmd 3.4 keeps the -F given so far as global filters, and the first file's
		 * list is that global one: what follows is added to it.
		 */
		o->filters_every_file = o->nr_filters > 0;
		return 0;
	}
	if (cli->multi_input && !bare)
		return add_input(o, file);
	if (cli->multi_input)
		fprintf(stderr, "ktrace %s: '%s': give every input file with -i, as '%s' is\n",
			cli->help->name, file, o->input);
	else
		fprintf(stderr, "ktrace %s: only one input file is supported ('%s' and '%s')\n",
			cli->help->name, o->input, file);
	return -EINVAL;
}

/* What kt_parse_options hands to one_option: the command, and -v seen (the filters' state) */
struct cli_parse {
	const struct report_cli *cli;
	bool neg;
};

static int one_option(void *ctx, int id, const char *arg)
{
	struct cli_parse *p = ctx;
	const struct report_cli *cli = p->cli;
	int ret;

	if (id == 'i')
		return set_input(cli, arg, false);
	ret = report_opts_filter(cli->o, id, arg, &p->neg, cli->help->name);
	if (ret <= 0)
		return ret;
	return cli->option ? cli->option(cli->priv, id, arg) : -EINVAL;
}

int report_cli_parse(const struct report_cli *cli, int argc, char **argv)
{
	struct kt_command_help help = *cli->help;
	struct cli_parse p = { .cli = cli };
	int ret, idx;

	/* the rows are the command's; the input and filter rows are handled here */
	help.option = one_option;
	while (!(ret = kt_parse_options(&help, argc, argv, &p, &idx)) && idx < argc) {
		ret = kt_result_of(cli->arg ? cli->arg(cli->priv, argv[idx]) :
				   set_input(cli, argv[idx], true));
		/* trace-cmd 3.4 reads every word after the first bare FILE as one more file */
		while (!ret && !cli->arg && cli->multi_input &&
		       cli->o->layout == REPORT_LAYOUT_34 && ++idx < argc)
			ret = kt_result_of(add_input(cli->o, argv[idx]));
		if (ret || cli->file_ends_args)
			break;
		/* the parser takes argv[0] as the command name: the FILE just taken */
		argc -= idx;
		argv += idx;
	}
	if (!ret && cli->check)
		ret = kt_result_of(cli->check(cli->priv));
	if (!cli->o->input)
		cli->o->input = "trace.dat";
	return ret;
}

int report_cli_run(const struct report_cli *cli, int parsed)
{
	struct strbuf err = STRBUF_INIT;
	int ret, status = 0;

	if (parsed) {
		status = parsed;
	} else {
		ret = cli->run(cli->priv, &err);
		status = ret > 0 ? ret : 0;
		if (ret == REPORT_ERR_USAGE)
			status = KT_ERR_USAGE;
		else if (ret < 0)
			status = cli->fail_status ? cli->fail_status(cli->priv, ret, &err) : 1;
		if (ret < 0) {
			if (err.len)
				fprintf(stderr, "ktrace %s: %s\n", cli->name, strbuf_str(&err));
			else
				fprintf(stderr, "ktrace %s: %s: %s\n", cli->name, cli->o->input,
					strerror(-ret));
		}
	}
	if (cli->release)
		cli->release(cli->priv);
	strbuf_release(&err);
	report_opts_release(cli->o);
	return status;
}

void report_cli_input_opts(const struct report_opts *o, int i, struct report_opts *one)
{
	const struct report_input *in = i ? &o->more_inputs[i - 1] : NULL;

	*one = *o;
	one->more_inputs = NULL;
	one->nr_more_inputs = 0;
	if (!in)
		return;
	one->input = in->path;
	one->filters = in->filters;
	one->nr_filters = in->nr_filters;
	one->pids = NULL;
	one->comms = NULL;
	one->cpu_set = NULL;
	one->nr_cpu_set = 0;
	if (in->ts2secs)
		one->ts2secs = in->ts2secs;
}

int report_cli_each(struct dat_file *df, struct report_filter *filter,
		    int (*fn)(void *arg, struct tep_record *record), void *arg, struct strbuf *err)
{
	struct report_stream *rs = NULL;
	struct report_event ev;
	int ret;

	ret = report_stream_open(df, &rs, err);
	while (!ret && (ret = report_stream_next(rs, &ev, err)) > 0)
		ret = report_filter_keep(filter, &ev) ? fn(arg, ev.record) : 0;
	report_stream_close(rs);
	return ret;
}
