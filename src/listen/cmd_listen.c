// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace listen: receives traces from `trace-cmd record -N` / `ktrace record -N` clients and
 * writes one trace.dat per client session in DIR, named BASE.HOST:PORT.dat as trace-cmd
 * names them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktrace/command.h"
#include "ktrace/net.h"
#include "ktrace/options.h"
#include "listen.h"

enum {
	OPT_BIND = 256,
	OPT_MAX_CLIENTS,
	OPT_MAX_MESSAGE,
	OPT_MAX_FILE,
	OPT_TIMEOUT,
};

static const struct kt_option listen_options[] = {
	KT_OPT('p', "port", KT_ARG_REQUIRED, "PORT", "TCP port to listen on (0: any free port)"),
	KT_OPT('d', NULL, KT_ARG_REQUIRED, "DIR", "write the files into DIR (default: .)"),
	KT_OPT('o', NULL, KT_ARG_REQUIRED, "BASE", "file names start with BASE (default: trace)"),
	KT_OPT('D', NULL, KT_ARG_NONE, NULL, "run as a daemon"),
	KT_OPT('l', NULL, KT_ARG_REQUIRED, "LOGFILE",
	       "append the log to LOGFILE instead of stderr"),
	KT_OPT(OPT_BIND, "bind", KT_ARG_REQUIRED, "ADDR", "listen on ADDR only (default: all)"),
	KT_OPT(OPT_MAX_CLIENTS, "max-clients", KT_ARG_REQUIRED, "N",
	       "serve at most N clients at once (default 64)"),
	KT_OPT(OPT_MAX_MESSAGE, "max-message", KT_ARG_REQUIRED, "BYTES",
	       "refuse protocol messages bigger than BYTES (default 8192, as trace-cmd)"),
	KT_OPT(OPT_MAX_FILE, "max-file", KT_ARG_REQUIRED, "SIZE",
	       "store at most SIZE bytes per client, K/M/G suffixes (default 8G)"),
	KT_OPT(OPT_TIMEOUT, "timeout", KT_ARG_REQUIRED, "SECS",
	       "drop a client silent for SECS before its recording starts (default 30)"),
	{ 0 },
};

static const struct kt_command_help listen_help = {
	.name = "listen",
	.usage = "-p PORT [-d DIR] [-o BASE] [-D] [-l LOGFILE] [--bind ADDR]",
	.summary = "receive traces from remote 'record -N' clients",
	.options = listen_options,
};

static int parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		return -EINVAL;
	if (*end == 'K' || *end == 'k')
		shift = 10;
	else if (*end == 'M' || *end == 'm')
		shift = 20;
	else if (*end == 'G' || *end == 'g')
		shift = 30;
	else if (*end)
		return -EINVAL;
	if (shift && end[1])
		return -EINVAL;
	if (v > (max >> shift))
		return -ERANGE;
	v <<= shift;
	if (v < min)
		return -ERANGE;
	*out = v;
	return 0;
}

static int bad_value(const char *flag, const char *arg, const char *why)
{
	fprintf(stderr, "ktrace listen: %s '%s': %s\n", flag, arg, why);
	return -EINVAL;
}

static int set_option(struct listen_config *cfg, int id, const char *arg)
{
	uint64_t v;

	switch (id) {
	case 'p':
		/* getaddrinfo would take 99999 as 34463: only real port numbers. */
		if (parse_size(arg, 0, 65535, &v) || strpbrk(arg, "kKmMgG"))
			return bad_value("-p", arg, "expected a port number, 0 to 65535");
		cfg->port = arg;
		return 0;
	case 'd':
		cfg->dir = arg;
		return 0;
	case 'o':
		cfg->base = arg;
		return 0;
	case 'D':
		cfg->daemonize = 1;
		return 0;
	case 'l':
		cfg->logfile = arg;
		return 0;
	case OPT_BIND:
		cfg->bind_addr = arg;
		return 0;
	case OPT_MAX_CLIENTS:
		if (parse_size(arg, 1, 100000, &v))
			return bad_value("--max-clients", arg, "expected 1 to 100000");
		cfg->max_clients = (unsigned int)v;
		return 0;
	case OPT_MAX_MESSAGE:
		if (parse_size(arg, 4096, 1 << 20, &v))
			return bad_value("--max-message", arg, "expected 4096 to 1M bytes");
		cfg->max_msg = (uint32_t)v;
		return 0;
	case OPT_MAX_FILE:
		if (parse_size(arg, 4096, UINT64_MAX, &cfg->max_file))
			return bad_value("--max-file", arg, "expected a size of at least 4096");
		return 0;
	case OPT_TIMEOUT:
		if (parse_size(arg, 1, 86400, &v))
			return bad_value("--timeout", arg, "expected 1 to 86400 seconds");
		cfg->timeout_ms = (unsigned int)v * 1000;
		return 0;
	}
	return -EINVAL;
}

static int parse_args(struct listen_config *cfg, int argc, char **argv)
{
	struct kt_getopt g;
	int id, ret = kt_getopt_init(&g, &listen_help, argc, argv);

	while (!ret && (id = kt_getopt_next(&g)) != -1) {
		if (id == 'h') {
			kt_usage(stdout, &listen_help);
			ret = 1;
		} else {
			ret = set_option(cfg, id, g.arg);
		}
	}
	if (!ret && kt_getopt_index(&g) < argc)
		ret = bad_value("argument", argv[kt_getopt_index(&g)], "listen takes no arguments");
	kt_getopt_release(&g);
	if (!ret && !cfg->port) {
		fprintf(stderr, "ktrace listen: -p PORT is required (see 'ktrace listen -h')\n");
		ret = -EINVAL;
	}
	/* BASE becomes part of a file name in DIR: it may not name another directory. */
	if (!ret && (!cfg->base[0] || strchr(cfg->base, '/')))
		ret = bad_value("-o", cfg->base, "a file name prefix without '/'");
	return ret;
}

int cmd_listen(int argc, char **argv)
{
	struct listen_config cfg = {
		.dir = ".", .base = "trace", .max_clients = 64, .max_msg = NET_MSG_MAX_LEN,
		.max_file = 8ULL << 30, .timeout_ms = 30000, .drain_ms = 5000,
	};
	struct listen_log log = { .fp = stderr };
	int dir_fd, ret = parse_args(&cfg, argc, argv);

	if (ret)
		return ret > 0 ? 0 : 1;
	dir_fd = open(cfg.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir_fd < 0) {
		fprintf(stderr, "ktrace listen: -d %s: %s\n", cfg.dir, strerror(errno));
		return 1;
	}
	if (cfg.logfile) {
		log.fp = fopen(cfg.logfile, "ae");
		if (!log.fp) {
			fprintf(stderr, "ktrace listen: -l %s: %s\n", cfg.logfile, strerror(errno));
			close(dir_fd);
			return 1;
		}
	} else if (cfg.daemonize) {
		log.fp = NULL;	/* a daemon has no terminal to log to */
	}
	ret = listen_server_run(&cfg, dir_fd, &log);
	if (cfg.logfile)
		fclose(log.fp);
	close(dir_fd);
	return ret ? 1 : 0;
}
