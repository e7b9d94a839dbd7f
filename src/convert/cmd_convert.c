// SPDX-License-Identifier: GPL-2.0-only
/*
 * `ktrace convert`: a trace.dat rewritten in another file version or compression, with
 * trace-cmd 3.1.6's options and defaults (tracecmd/trace-convert.c): version 7, compressed
 * with the best compression there is unless told otherwise; a compression other than "none"
 * makes a version 6 request a version 7 file, as trace-cmd does. The output is written under
 * a hidden name beside it and renamed when complete, and never replaces the input.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ktrace/command.h"
#include "ktrace/dat.h"
#include "ktrace/dat_copy.h"
#include "ktrace/options.h"

enum { OPT_FILE_VERSION = 256, OPT_COMPRESSION };

struct convert_args {
	const char *input;
	const char *output;
	const char *compression;
	int version;
};

/* trace-cmd takes one -i and one -o; a second one is refused rather than silently winning. */
static int set_once(void *ctx, int id, const char *arg)
{
	struct convert_args *a = ctx;
	const char **slot = id == 'i' ? &a->input : &a->output;

	if (*slot)
		return kt_option_error("convert", id == 'i' ? "-i" : "-o", arg,
				       "is a second file: only one is taken");
	*slot = arg;
	return 0;
}

static const struct kt_option convert_options_table[] = {
	KT_CALLBACK('i', NULL, KT_ARG_REQUIRED, "FILE", set_once,
		    "read FILE (default trace.dat)"),
	KT_CALLBACK('o', NULL, KT_ARG_REQUIRED, "FILE", set_once,
		    "write FILE (required; also a bare FILE after the options)"),
	KT_INT(OPT_FILE_VERSION, "file-version", "N", struct convert_args, version, 6, 7,
	       "the file version to write, 6 or 7 (default 7)"),
	KT_STRING(OPT_COMPRESSION, "compression", "NAME", struct convert_args, compression,
		  "zstd, zlib, any (the best: zstd) or none (version 7; default any)"),
	{ 0 }
};

static const struct kt_command_help convert_help = {
	.name = "convert",
	.usage = "[OPTIONS] [-i INPUT] [-o OUTPUT | OUTPUT]",
	.summary = "Rewrite a trace.dat file in another file version or compression.",
	.options = convert_options_table,
};

/* The writer's settings from the options, as trace-cmd reads them. */
static int choose_format(const struct convert_args *a, struct dat_writer_config *cfg)
{
	const char *name = a->compression;

	cfg->version = a->version ? a->version : 7;
	if (!name)
		name = cfg->version >= 7 ? "any" : "none";
	if (!strcmp(name, "any")) {
		cfg->compression = KT_COMP_ZSTD;
	} else if (kt_compression_from_name(name, &cfg->compression)) {
		return kt_usage_error("convert", "--compression", name,
				      "is not a compression: zstd, zlib, any or none");
	}
	if (cfg->compression != KT_COMP_NONE)
		cfg->version = 7;
	return 0;
}

static int parse_args(struct convert_args *a, int argc, char **argv)
{
	int first, ret = kt_parse_options(&convert_help, argc, argv, a, &first);

	if (ret)
		return ret;
	if (first < argc) {
		if (a->output)
			return kt_usage_error("convert", "-o", a->output,
					      "and an output file name both given");
		a->output = argv[first++];
	}
	if (first < argc)
		return kt_usage_error("convert", argv[first], "",
				      "is one file too many: convert writes one output");
	if (!a->output)
		return kt_usage_error("convert", "-o", "", "is required: the file to write");
	if (!a->input)
		a->input = "trace.dat";
	return 0;
}

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* A hidden file beside path: its name in *tmp, its fd, or negative errno. */
static int open_beside(const char *path, char **tmp)
{
	mode_t mask;
	int fd;

	if (asprintf(tmp, "%s/.%s.XXXXXX", dirname(strdupa(path)), basename(strdupa(path))) < 0) {
		*tmp = NULL;
		return -ENOMEM;
	}
	fd = mkostemp(*tmp, O_CLOEXEC);
	if (fd < 0) {
		fd = -errno;
		free(*tmp);
		*tmp = NULL;
		return fd;
	}
	/* mkostemp makes it 0600; a new trace.dat is as readable as any file the user creates */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask)) {
		fd = -errno;
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
	}
	return fd;
}

static int convert(struct dat_file *df, const struct dat_writer_config *cfg, const char *output,
		   struct strbuf *err)
{
	char *tmp, *dir = dirname(strdupa(output));
	int fd, ret;

	fd = open_beside(output, &tmp);
	if (fd < 0) {
		strbuf_addf(err, "cannot create a file in %s: %s", dir, strerror(-fd));
		return fd;
	}
	ret = dat_file_copy(df, fd, cfg, dir, err);
	if (!ret && fsync(fd)) {
		ret = -errno;
		strbuf_addf(err, "%s: %s", output, strerror(-ret));
	}
	if (close(fd) && !ret) {
		ret = -errno;
		strbuf_addf(err, "%s: %s", output, strerror(-ret));
	}
	if (!ret && rename(tmp, output)) {
		ret = -errno;
		strbuf_addf(err, "cannot rename %s to %s: %s", tmp, output, strerror(-ret));
	}
	if (ret)
		unlink(tmp);
	free(tmp);
	return ret;
}

int cmd_convert(int argc, char **argv)
{
	struct dat_open_opts opts = { .no_tep = true };
	struct convert_args a = { 0 };
	struct dat_writer_config cfg = { 0 };
	struct strbuf err = STRBUF_INIT;
	struct dat_file *df = NULL;
	int ret;

	ret = parse_args(&a, argc, argv);
	if (!ret)
		ret = choose_format(&a, &cfg);
	if (ret)
		return ret;
	if (same_file(a.input, a.output))
		return kt_usage_error("convert", "-o", a.output, "is the input file: give another");
	ret = dat_file_open_opts(a.input, &opts, &df, &err);
	if (!ret)
		ret = convert(df, &cfg, a.output, &err);
	if (ret)
		fprintf(stderr, "ktrace convert: %s\n", strbuf_str(&err));
	dat_file_close(df);
	strbuf_release(&err);
	return ret ? KT_ERR_FAILED : 0;
}
