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
#include "ktrace/log_level.h"
#include "ktrace/net.h"
#include "ktrace/options.h"
#include "listen.h"

enum {
	OPT_BIND = 256,
	OPT_MAX_CLIENTS,
	OPT_MAX_MESSAGE,
	OPT_MAX_FILE,
	OPT_TIMEOUT,
	OPT_TLS_CERT,
	OPT_TLS_KEY,
	OPT_TLS_CA,
	OPT_TLS_PSK,
	OPT_ALLOW,
	OPT_VERBOSE,
	OPT_DEBUG,
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

static int add_allow(struct listen_config *cfg, const char *arg)
{
	int ret = net_cidr_list_add(&cfg->allow, &cfg->nr_allow, arg);

	if (ret == -EINVAL)
		return bad_value("--allow", arg, "expected ADDRESS[/PREFIX], IPv4 or IPv6");
	return ret;
}

static int set_option(void *ctx, int id, const char *arg)
{
	struct listen_config *cfg = ctx;
	uint64_t v;

	switch (id) {
	case 'p':
		/* getaddrinfo would take 99999 as 34463: only real port numbers. */
		if (parse_size(arg, 0, 65535, &v) || strpbrk(arg, "kKmMgG"))
			return bad_value("-p", arg, "expected a port number, 0 to 65535");
		cfg->port = arg;
		return 0;
	case 'D':
		cfg->daemonize = 1;
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
	case OPT_ALLOW:
		return add_allow(cfg, arg);
	case OPT_VERBOSE:
		cfg->log_level = kt_log_level_parse(arg);
		if (cfg->log_level < 0)
			return bad_value("--verbose", arg,
					 "invalid verbose level (" KT_LOG_LEVEL_CHOICES ")");
		return 0;
	case OPT_DEBUG:
		cfg->debug = true;
		return 0;
	case 'V':
		fprintf(stderr, "ktrace listen: -V (listen on vsock, trace-cmd 3.4) is not "
			"supported yet: listen on TCP\n");
		return -EINVAL;
	}
	return -EINVAL;
}

static const struct kt_option listen_options[] = {
	KT_OPT('p', "port", KT_ARG_REQUIRED, "PORT", "TCP port to listen on (0: any free port)"),
	KT_STRING('d', NULL, "DIR", struct listen_config, dir,
		  "write the files into DIR (default: .)"),
	KT_STRING('o', NULL, "BASE", struct listen_config, base,
		  "file names start with BASE (default: trace)"),
	KT_OPT('D', NULL, KT_ARG_NONE, NULL, "run as a daemon"),
	KT_STRING('l', NULL, "LOGFILE", struct listen_config, logfile,
		  "append the log to LOGFILE instead of stderr"),
	KT_STRING(OPT_BIND, "bind", "ADDR", struct listen_config, bind_addr,
		  "listen on ADDR only (default: all)"),
	KT_OPT(OPT_MAX_CLIENTS, "max-clients", KT_ARG_REQUIRED, "N",
	       "serve at most N clients at once (default 64)"),
	KT_OPT(OPT_MAX_MESSAGE, "max-message", KT_ARG_REQUIRED, "BYTES",
	       "refuse protocol messages bigger than BYTES (default 8192, as trace-cmd)"),
	KT_OPT(OPT_MAX_FILE, "max-file", KT_ARG_REQUIRED, "SIZE",
	       "store at most SIZE bytes per client, K/M/G suffixes (default 8G)"),
	KT_OPT(OPT_TIMEOUT, "timeout", KT_ARG_REQUIRED, "SECS",
	       "drop a client silent for SECS before its recording starts (default 30)"),
	KT_OPT(OPT_ALLOW, "allow", KT_ARG_REQUIRED, "CIDR",
	       "serve only clients in CIDR (repeatable; IPv4 or IPv6, e.g. 10.0.0.0/8)"),
	KT_OPT(OPT_VERBOSE, "verbose", KT_ARG_OPTIONAL, "LEVEL",
	       "trace-cmd's log level (none..all, 0-6; default info): checked, as trace-cmd's"),
	KT_OPT(OPT_DEBUG, "debug", KT_ARG_NONE, NULL,
	       "log trace-cmd's debug lines: the listening port, each message sent and received"),
	KT_OPT('V', NULL, KT_ARG_NONE, NULL, "trace-cmd 3.4's vsock listener: refused (not yet)"),
	KT_STRING(OPT_TLS_CERT, "tls-cert", "FILE", struct listen_config, tls.cert,
		  "TLS: the listener's certificate chain (PEM); clients must speak TLS"),
	KT_STRING(OPT_TLS_KEY, "tls-key", "FILE", struct listen_config, tls.key,
		  "TLS: the certificate's private key (PEM)"),
	KT_STRING(OPT_TLS_CA, "tls-ca", "FILE", struct listen_config, tls.ca,
		  "TLS: require client certificates signed by a CA of FILE"),
	KT_STRING(OPT_TLS_PSK, "tls-psk", "FILE", struct listen_config, tls.psk,
		  "TLS with the pre-shared key in FILE instead of certificates"),
	{ 0 },
};

static const struct kt_command_help listen_help = {
	.name = "listen",
	.usage = "-p PORT [-d DIR] [-o BASE] [-D] [-l LOGFILE] [--bind ADDR] [--allow CIDR] "
		 "[--verbose[=LEVEL]] [--debug] "
		 "[--tls-cert FILE --tls-key FILE [--tls-ca FILE] | --tls-psk FILE]",
	.summary = "receive traces from remote 'record -N' clients",
	.options = listen_options,
	.option = set_option,
};

static int parse_args(struct listen_config *cfg, int argc, char **argv)
{
	int ret = kt_parse_options(&listen_help, argc, argv, cfg, NULL);

	if (ret)
		return ret;
	if (!cfg->port) {
		fprintf(stderr, "ktrace listen: -p PORT is required (see 'ktrace listen -h')\n");
		return KT_ERR_USAGE;
	}
	/* BASE becomes part of a file name in DIR: it may not name another directory. */
	if (!cfg->base[0] || strchr(cfg->base, '/'))
		return kt_result_of(bad_value("-o", cfg->base, "a file name prefix without '/'"));
	return 0;
}

int cmd_listen(int argc, char **argv)
{
	struct listen_config cfg = {
		.dir = ".", .base = "trace", .max_clients = 64, .max_msg = NET_MSG_MAX_LEN,
		.max_file = 8ULL << 30, .timeout_ms = 30000, .drain_ms = 5000, .log_level = KT_LOG_INFO,
	};
	struct listen_log log = { .fp = stderr };
	int dir_fd, ret = parse_args(&cfg, argc, argv);

	if (ret) {
		free(cfg.allow);
		return ret;
	}
	dir_fd = open(cfg.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir_fd < 0) {
		fprintf(stderr, "ktrace listen: -d %s: %s\n", cfg.dir, strerror(errno));
		free(cfg.allow);
		return 1;
	}
	if (cfg.logfile) {
		log.fp = fopen(cfg.logfile, "ae");
		if (!log.fp) {
			fprintf(stderr, "ktrace listen: -l %s: %s\n", cfg.logfile, strerror(errno));
			free(cfg.allow);
			close(dir_fd);
			return 1;
		}
	} else if (cfg.daemonize) {
		log.fp = NULL;	/* a daemon has no terminal to log to */
	}
	ret = listen_server_run(&cfg, dir_fd, &log);
	free(cfg.allow);
	if (cfg.logfile)
		fclose(log.fp);
	close(dir_fd);
	return ret ? 1 : 0;
}
