// SPDX-License-Identifier: GPL-2.0-only
/*
 * record/start/extract options -> struct plan. Pure parsing: nothing here reads tracefs, so
 * that names are checked against the running kernel in one place (plan_validate.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/options.h"
#include "ktrace/plan.h"
#include "ktrace/plan_options.h"
#include "plan_filter_check.h"
#include "plan_internal.h"

/* The parser's state beyond the plan: what -f/-R/-v attach to. */
struct plan_parser {
	struct plan *plan;
	const struct plan_command *cmd;
	void *own;			/* the command's own rows go here */
	struct plan_event *last_event;	/* -f and -R attach here */
	bool negate;			/* -v seen: the following -e disable */
	int cur;			/* index of the instance options apply to */
};

static struct plan_instance *cur_instance(struct plan_parser *ps)
{
	return &ps->plan->instances[ps->cur];
}

static int add_instance(struct plan *plan, const char *name)
{
	struct plan_instance *arr;

	arr = realloc(plan->instances, (plan->nr_instances + 1) * sizeof(*arr));
	if (!arr)
		return -ENOMEM;
	plan->instances = arr;
	memset(&arr[plan->nr_instances], 0, sizeof(*arr));
	if (name) {
		arr[plan->nr_instances].name = strdup(name);
		if (!arr[plan->nr_instances].name)
			return -ENOMEM;
	}
	plan->nr_instances++;
	return 0;
}

static int parse_event_spec(struct plan_event *ev, const char *spec)
{
	const char *colon = strchr(spec, ':');

	ev->spec = strdup(spec);
	if (!ev->spec)
		return -ENOMEM;
	if (!strcmp(spec, "all"))
		return 0;
	if (!colon) {
		ev->name = strdup(spec);
		return ev->name ? 0 : -ENOMEM;
	}
	ev->system = strndup(spec, colon - spec);
	if (!ev->system)
		return -ENOMEM;
	if (colon[1]) {
		ev->name = strdup(colon + 1);
		if (!ev->name)
			return -ENOMEM;
	}
	return 0;
}

static int add_event(struct plan_parser *ps, const char *spec)
{
	struct plan_instance *inst = cur_instance(ps);
	struct plan_event *arr;
	int ret;

	if (!*spec || !strcmp(spec, ":"))
		return plan_err_flag(ps->plan, "-e", spec, "is not an event name");
	arr = realloc(inst->events, (inst->nr_events + 1) * sizeof(*arr));
	if (!arr)
		return -ENOMEM;
	inst->events = arr;
	ps->last_event = &arr[inst->nr_events];
	memset(ps->last_event, 0, sizeof(*ps->last_event));
	inst->nr_events++;
	ps->last_event->negate = ps->negate;
	ret = parse_event_spec(ps->last_event, spec);
	return ret;
}

/* Several -f on one event are ANDed, each in parentheses, as trace-cmd does. */
static int add_filter(struct plan_parser *ps, const char *filter)
{
	struct plan_event *ev = ps->last_event;
	char *joined;
	int ret;

	if (!ev)
		return plan_err_flag(ps->plan, "-f", filter, "must follow an -e EVENT");
	if (plan_check_filter_arg(ps->plan->cmd, filter))
		return -EINVAL;
	if (ev->filter)
		ret = asprintf(&joined, "%s&&(%s)", ev->filter, filter);
	else
		ret = asprintf(&joined, "(%s)", filter);
	if (ret < 0)
		return -ENOMEM;
	free(ev->filter);
	ev->filter = joined;
	return 0;
}

static int add_trigger(struct plan_parser *ps, const char *trigger)
{
	if (!ps->last_event)
		return plan_err_flag(ps->plan, "-R", trigger, "must follow an -e EVENT");
	if (plan_check_trigger_arg(ps->plan->cmd, trigger))
		return -EINVAL;
	return strv_push(&ps->last_event->triggers, trigger);
}

static int start_instance(struct plan_parser *ps, const char *name)
{
	int i, ret;

	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return plan_err_flag(ps->plan, "-B", name, "is not a valid instance name");
	for (i = 1; i < ps->plan->nr_instances; i++)
		if (!strcmp(ps->plan->instances[i].name, name))
			return plan_err_flag(ps->plan, "-B", name, "is given twice");
	ret = add_instance(ps->plan, name);
	if (ret)
		return ret;
	ps->cur = ps->plan->nr_instances - 1;
	cur_instance(ps)->remove = ps->negate;
	/* -v lasts until the next -B, like trace-cmd. */
	ps->negate = false;
	ps->last_event = NULL;
	return 0;
}

static int add_pids(struct plan_parser *ps, const char *list)
{
	struct plan *plan = ps->plan;
	const char *p = list;
	pid_t *arr;
	long pid;

	while (*p) {
		char *end;

		errno = 0;
		pid = strtol(p, &end, 10);
		if (errno || end == p || pid <= 0 || (*end && *end != ','))
			return plan_err_flag(plan, "-P", list, "is not a pid (or a list a,b,c)");
		arr = realloc(plan->pids, (plan->nr_pids + 1) * sizeof(*arr));
		if (!arr)
			return -ENOMEM;
		plan->pids = arr;
		arr[plan->nr_pids++] = (pid_t)pid;
		p = *end ? end + 1 : end;
	}
	return 0;
}

static int set_string(struct plan *plan, char **dst, const char *flag, const char *val)
{
	if (*dst)
		return plan_err_flag(plan, flag, val, "is given twice");
	*dst = strdup(val);
	return *dst ? 0 : -ENOMEM;
}

static int parse_cpumask(struct plan_parser *ps, const char *val)
{
	size_t n = strspn(val, "0123456789abcdefABCDEF,");

	if (!*val || val[n] || !strpbrk(val, "0123456789abcdefABCDEF"))
		return plan_err_flag(ps->plan, "-M", val, "is not a hex CPU mask (e.g. 3 or ff,ffffffff)");
	return set_string(ps->plan, &cur_instance(ps)->cpumask, "-M", val);
}

static int parse_compression(struct plan *plan, const char *val)
{
	plan->compression_any = !strcmp(val, "any");
	if (plan->compression_any) {
		plan->compression = KT_COMP_ZSTD;
		return 0;
	}
	if (kt_compression_from_name(val, &plan->compression))
		return plan_err_flag(plan, "--compression", val, "is not zstd, zlib, none or any");
	return 0;
}

static int parse_tracer(struct plan_parser *ps, const char *val)
{
	size_t len;

	while (*val == ' ' || *val == '\t')
		val++;
	len = strcspn(val, " \t\n");
	if (!len)
		return plan_err_flag(ps->plan, "-p", val, "is not a tracer name");
	if (cur_instance(ps)->tracer)
		return plan_err_flag(ps->plan, "-p", val, "is given twice for one instance");
	cur_instance(ps)->tracer = strndup(val, len);
	return cur_instance(ps)->tracer ? 0 : -ENOMEM;
}

/*
 * -l/-n/-g FUNC after --module MOD: FUNC:mod:MOD, the kernel's module command (as trace-cmd
 * writes them).
 */
static int add_func(struct plan_instance *inst, char ***list, const char *func)
{
	char *full;
	int ret;

	if (!inst->module)
		return strv_push(list, func);
	inst->module_used = true;
	if (asprintf(&full, "%s:mod:%s", func, inst->module) < 0)
		return -ENOMEM;
	ret = strv_push(list, full);
	free(full);
	return ret;
}

/*
 * --module MOD with no -l/-n/-g after it (before the next --module or the end) filters all of
 * MOD's functions: *:mod:MOD in set_ftrace_filter.
 */
static int close_module(struct plan_instance *inst)
{
	int ret = 0;

	if (inst->module && !inst->module_used)
		ret = add_func(inst, &inst->func_filters, "*");
	free(inst->module);
	inst->module = NULL;
	inst->module_used = false;
	return ret;
}

static int set_module(struct plan_parser *ps, const char *mod)
{
	struct plan_instance *inst = cur_instance(ps);
	int ret;

	if (!*mod || strpbrk(mod, " \t:"))
		return plan_err_flag(ps->plan, "--module", mod, "is not a module name");
	ret = close_module(inst);
	if (ret)
		return ret;
	inst->module = strdup(mod);
	return inst->module ? 0 : -ENOMEM;
}

/* Options that set a field of the instance the options currently apply to. */
static int parse_instance_opt(struct plan_parser *ps, int id, const char *arg)
{
	struct plan_instance *inst = cur_instance(ps);

	switch (id) {
	case 'p':
		return parse_tracer(ps, arg);
	case 'e':
		return add_event(ps, arg);
	case 'f':
		return add_filter(ps, arg);
	case 'R':
		return add_trigger(ps, arg);
	case 'l':
		return add_func(inst, &inst->func_filters, arg);
	case 'n':
		return add_func(inst, &inst->func_notrace, arg);
	case 'g':
		return add_func(inst, &inst->graph_funcs, arg);
	case PLAN_OPT_MODULE:
		return set_module(ps, arg);
	case PLAN_OPT_SUBBUF_SIZE:
		return plan_parse_int(ps->plan, "--subbuf-size", arg, 1, 1 << 20, &inst->subbuf_kb);
	case PLAN_OPT_MAX_GRAPH_DEPTH:
		return plan_parse_int(ps->plan, "--max-graph-depth", arg, 0, 1 << 20,
				      &inst->max_graph_depth);
	case 'b':
		return plan_parse_int(ps->plan, "-b", arg, 1, 1 << 30, &inst->buffer_kb);
	case 'C':
		return set_string(ps->plan, &inst->clock, "-C", arg);
	case 'M':
		return parse_cpumask(ps, arg);
	case 'O':
		if (!*arg || strchr(arg, '/'))
			return plan_err_flag(ps->plan, "-O", arg, "is not an option name");
		return strv_push(&inst->options, arg);
	case 'T':
		inst->stacktrace = true;
		return 0;
	case PLAN_OPT_FUNC_STACK:
		inst->func_stack = true;
		return 0;
	case PLAN_OPT_PROFILE:
		inst->profile = true;
		return 0;
	}
	return 1;
}

static int parse_output(struct plan *plan, const char *arg)
{
	if (!(plan->caps & PLAN_WRITES_FILE))
		return plan_err_flag(plan, "-o", arg, "writes nothing here (did you mean 'record'?)");
	if (plan->net_target)
		return plan_err_flag(plan, "-o", arg, "cannot be combined with -N");
	return set_string(plan, &plan->output, "-o", arg);
}

static int parse_net(struct plan *plan, const char *arg)
{
	const char *colon = strrchr(arg, ':');

	if (!(plan->caps & PLAN_SENDS))
		return plan_err_flag(plan, "-N", arg, "is only for record");
	if (plan->output)
		return plan_err_flag(plan, "-N", arg, "cannot be combined with -o");
	if (!colon || colon == arg || !colon[1])
		return plan_err_flag(plan, "-N", arg, "is not HOST:PORT");
	return set_string(plan, &plan->net_target, "-N", arg);
}

/*
 * -m, --compression and --file-version shape the trace.dat file: refused where none is written
 * (start, stream), as trace-cmd refuses them, rather than ignored.
 */
static int check_file_option(const struct plan *plan, int id, const char *arg)
{
	const char *flag = id == 'm' ? "-m" :
			   id == PLAN_OPT_COMPRESSION ? "--compression" :
			   id == PLAN_OPT_TS_OFFSET ? "--ts-offset" :
			   id == PLAN_OPT_TEMP ? "--temp" : "--file-version";

	if (plan->caps & PLAN_WRITES_FILE)
		return 0;
	return plan_err_flag(plan, flag, arg,
			     "shapes the trace.dat file, and none is written here "
			     "(did you mean 'record'?)");
}

/* --ts-offset: a signed integer (0x.. too), kept as typed: the OFFSET option's text */
static int parse_ts_offset(struct plan *plan, const char *arg)
{
	char *end;

	errno = 0;
	(void)strtoll(arg, &end, 0);
	if (!*arg || *end || errno)
		return plan_err_flag(plan, "--ts-offset", arg, "is not an integer offset");
	return set_string(plan, &plan->ts_offset, "--ts-offset", arg);
}

/* Options that set a field of the whole plan. */
static int parse_plan_opt(struct plan_parser *ps, int id, const char *arg)
{
	struct plan *plan = ps->plan;

	if ((id == 'm' || id == PLAN_OPT_COMPRESSION || id == PLAN_OPT_FILE_VERSION ||
	     id == PLAN_OPT_TS_OFFSET || id == PLAN_OPT_TEMP) && check_file_option(plan, id, arg))
		return -EINVAL;
	switch (id) {
	case 'v':
		ps->negate = true;
		return 0;
	case 'B':
		return start_instance(ps, arg);
	case 'P':
		return add_pids(ps, arg);
	case 'F':
		plan->filter_command = true;
		return 0;
	case 'c':
		plan->follow_children = true;
		return 0;
	case 'o':
		return parse_output(plan, arg);
	case 'm':
		return plan_parse_int(plan, "-m", arg, 1, 1 << 30, &plan->max_kb);
	case 's':
		return plan_parse_int(plan, "-s", arg, 0, 1 << 30, &plan->sleep_us);
	case 't':
		plan->net_tcp = true;
		return 0;
	case PLAN_OPT_UDP:
		plan->net_udp = true;
		return 0;
	case 'i':
		plan->ignore_missing = true;
		return 0;
	case 'S':
		plan->profile_manual = true;
		return 0;
	case 'K':
		plan->keep_tracing_on = true;
		/* fall through */
	case 'k':
		plan->keep = true;
		return 0;
	case 'D':
		plan->no_ftrace_enabled = true;
		/* fall through */
	case 'd':
		plan->no_function_trace = true;
		return 0;
	case 'q':
		plan->quiet = true;
		return 0;
	case 'a':
		plan->all_formats = true;
		return 0;
	case PLAN_OPT_COMPRESSION:
		return parse_compression(plan, arg);
	case PLAN_OPT_FILE_VERSION:
		return plan_parse_int(plan, "--file-version", arg, 6, 7, &plan->file_version);
	case PLAN_OPT_CMDLINES_SIZE:
		return plan_parse_int(plan, "--cmdlines-size", arg, 1, 1 << 20,
				      &plan->cmdlines_size);
	case PLAN_OPT_DATE:
		plan->date = true;
		return 0;
	case PLAN_OPT_TS_OFFSET:
		return parse_ts_offset(plan, arg);
	case PLAN_OPT_TEMP:
		return set_string(plan, &plan->temp_dir, "--temp", arg);
	case PLAN_OPT_USER:
		return set_string(plan, &plan->user, "--user", arg);
	case 'r':
		return plan_parse_int(plan, "-r", arg, 1, 99, &plan->rt_prio);
	case PLAN_OPT_POLL:
		plan->poll = true;
		return 0;
	case PLAN_OPT_NO_FILTER:
		plan->no_filter = true;
		return 0;
	case PLAN_OPT_DAEMONIZE:
		plan->daemonize = true;
		return 0;
	case PLAN_OPT_PROC_MAP:
		plan->proc_map = true;
		return 0;
	case PLAN_OPT_STDERR:
		plan->stdout_to_stderr = true;
		return 0;
	case 'N':
		return parse_net(plan, arg);
	case PLAN_OPT_TLS:
		plan->net_tls = true;
		return 0;
	case PLAN_OPT_TLS_CERT:
		plan->net_tls = true;
		return set_string(plan, &plan->net_tls_cert, "--tls-cert", arg);
	case PLAN_OPT_TLS_KEY:
		plan->net_tls = true;
		return set_string(plan, &plan->net_tls_key, "--tls-key", arg);
	case PLAN_OPT_TLS_CA:
		plan->net_tls = true;
		return set_string(plan, &plan->net_tls_ca, "--tls-ca", arg);
	case PLAN_OPT_TLS_PSK:
		plan->net_tls = true;
		return set_string(plan, &plan->net_tls_psk, "--tls-psk", arg);
	}
	return plan_err_flag(plan, "?", "", "is not handled");
}

static int plan_init(struct plan *plan, const struct plan_command *cmd)
{
	memset(plan, 0, sizeof(*plan));
	plan->cmd = cmd->help->name;
	plan->caps = cmd->caps;
	plan->compression = KT_COMP_ZSTD;
	plan->file_version = 7;
	return add_instance(plan, NULL);
}

static int take_command(struct plan *plan, int argc, char **argv, int first)
{
	int i, n = argc - first;

	if (n <= 0)
		return 0;
	if (!(plan->caps & PLAN_RUNS_COMMAND))
		return plan_err_flag(plan, "COMMAND", argv[first],
				     "is not run by this command (record, stream, start run one)");
	plan->command = calloc(n + 1, sizeof(char *));
	if (!plan->command)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		plan->command[i] = argv[first + i];
	return 0;
}

/* profile (PLAN_PROFILES): the top instance is profiled unless -B instances are given */
static int add_profile_events(struct plan *plan)
{
	int i, ret = 0;

	if ((plan->caps & PLAN_PROFILES) && plan->nr_instances == 1)
		plan->instances[0].profile = true;
	for (i = 0; i < plan->nr_instances && !ret; i++)
		if (plan->instances[i].profile && !plan->profile_manual)
			ret = plan_profile_add_events(&plan->instances[i]);
	return ret;
}

static int check_plan(struct plan *plan)
{
	int i, ret = add_profile_events(plan);

	for (i = 0; i < plan->nr_instances && !ret; i++)
		ret = close_module(&plan->instances[i]);
	if (ret)
		return ret;
	if (plan->follow_children && !plan->filter_command && !plan->nr_pids)
		return plan_err_flag(plan, "-c", "", "needs -F or -P");
	if (plan->filter_command && !plan->command)
		return plan_err_flag(plan, "-F", "", "needs a COMMAND to trace");
	if (plan->user && !plan->command)
		return plan_err_flag(plan, "--user", plan->user, "needs a COMMAND to run");
	if (plan->date && plan->ts_offset)
		return plan_err_flag(plan, "--ts-offset", plan->ts_offset,
				     "cannot be combined with --date");
	if (plan->net_tcp && plan->net_udp)
		return plan_err_flag(plan, "--udp", "", "cannot be combined with -t");
	if ((plan->net_tcp || plan->net_udp) && !plan->net_target)
		return plan_err_flag(plan, plan->net_udp ? "--udp" : "-t", "", "needs -N HOST:PORT");
	if (plan->net_tls && !plan->net_target)
		return plan_err_flag(plan, "--tls", "", "needs -N HOST:PORT");
	/* TLS covers the TCP connections; UDP pages would go in the clear. */
	if (plan->net_tls && plan->net_udp)
		return plan_err_flag(plan, "--tls", "", "covers TCP only: drop --udp");
	if (!plan->output && !plan->net_target && (plan->caps & PLAN_WRITES_FILE)) {
		plan->output = strdup("trace.dat");
		if (!plan->output)
			return -ENOMEM;
	}
	return 0;
}

/* Every row of a plan command's table: ctx is the struct plan_parser. */
static int plan_option(void *ctx, int id, const char *arg)
{
	struct plan_parser *ps = ctx;
	int ret = ps->cmd->option && ps->own ? ps->cmd->option(ps->own, id, arg) : 1;

	if (ret == 1)
		ret = parse_instance_opt(ps, id, arg);
	return ret == 1 ? parse_plan_opt(ps, id, arg) : ret;
}

int plan_parse(const struct plan_command *cmd, int argc, char **argv, struct plan *plan)
{
	/* a command's own rows have nowhere to go here: they are refused as unhandled */
	return plan_parse_own(cmd, NULL, argc, argv, plan);
}

int plan_parse_own(const struct plan_command *cmd, void *own, int argc, char **argv,
		   struct plan *plan)
{
	struct kt_command_help help = *cmd->help;
	struct plan_parser ps = { .plan = plan, .cmd = cmd, .own = own };
	int first, ret;

	ret = plan_init(plan, cmd);
	if (ret)
		return kt_result_of(ret);
	help.option = plan_option;
	ret = kt_parse_options(&help, argc, argv, &ps, &first);
	if (!ret)
		ret = kt_result_of(take_command(plan, argc, argv, first));
	if (!ret)
		ret = kt_result_of(check_plan(plan));
	return ret;
}

int plan_add_event(struct plan *plan, const char *instance, const char *spec, const char *filter,
		   const char *trigger, int buffer_kb)
{
	struct plan_parser ps = { .plan = plan };
	int i, ret = 0;

	for (i = 0; i < plan->nr_instances; i++)
		if (instance ? plan->instances[i].name && !strcmp(plan->instances[i].name, instance)
			     : !plan->instances[i].name)
			break;
	if (i == plan->nr_instances)
		ret = add_instance(plan, instance);
	ps.cur = i;
	if (!ret)
		ret = add_event(&ps, spec);
	if (!ret && filter)
		ret = add_filter(&ps, filter);
	if (!ret && trigger)
		ret = add_trigger(&ps, trigger);
	if (!ret && buffer_kb)
		cur_instance(&ps)->buffer_kb = buffer_kb;
	return ret;
}
