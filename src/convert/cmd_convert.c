// SPDX-License-Identifier: GPL-2.0-only
/*
 * `ktrace convert`: a trace.dat rewritten in another file version or compression, with
 * trace-cmd 3.1.6's options and defaults (tracecmd/trace-convert.c): version 7, compressed
 * with the best compression there is unless told otherwise; a compression other than "none"
 * makes a version 6 request a version 7 file, as trace-cmd does. The output is named only
 * once complete (struct output), and never replaces the input.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ktrace/command.h"
#include "ktrace/dat.h"
#include "ktrace/dat_copy.h"
#include "ktrace/fdio.h"
#include "ktrace/options.h"

enum { OPT_FILE_VERSION = 256, OPT_COMPRESSION };

struct convert_args {
	const char *input;
	const char *output;
	const char *compression;
	int version;
};

static const struct kt_option convert_options_table[] = {
	KT_STRING_ONCE('i', NULL, "FILE", struct convert_args, input,
		       "read FILE (default trace.dat)"),
	KT_STRING_ONCE('o', NULL, "FILE", struct convert_args, output,
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

/*
 * The output while it is written: where the file system allows, an unnamed file (O_TMPFILE)
 * that gets a hidden name beside OUTPUT only once complete, so that a conversion killed midway
 * leaves nothing behind; else a hidden file from the start. It takes its name by rename(), so
 * that OUTPUT is never seen half written.
 */
struct output {
	int fd;
	bool named;		/* `hidden` exists */
	char *hidden;		/* DIR/.OUTPUT.XXXXXX */
};

static int output_open(struct output *o, const char *path, const char *dir)
{
	mode_t mask;

	if (asprintf(&o->hidden, "%s/.%s.XXXXXX", dir, basename(strdupa(path))) < 0) {
		o->hidden = NULL;
		return -ENOMEM;
	}
	/* open() applies the umask to an O_TMPFILE's mode as to any new file's */
	o->fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
	if (o->fd >= 0)
		return 0;
	if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
		return -errno;
	o->fd = mkostemp(o->hidden, O_CLOEXEC);
	if (o->fd < 0)
		return -errno;
	o->named = true;
	/* mkostemp makes it 0600; a new trace.dat is as readable as any file the user creates */
	mask = umask(0);
	umask(mask);
	return fchmod(o->fd, 0666 & ~mask) ? -errno : 0;
}

/* The unnamed file linked under a fresh hidden name: through /proc, else by its fd (root). */
static int output_link(struct output *o)
{
	size_t len = strlen(o->hidden);
	unsigned int r;
	char proc[32];
	int i;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o->fd);
	for (i = 0; i < 100; i++) {
		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			r = (unsigned int)getpid() * 100u + (unsigned int)i;
		snprintf(o->hidden + len - 6, 7, "%06x", r & 0xffffffu);
		if (!linkat(AT_FDCWD, proc, AT_FDCWD, o->hidden, AT_SYMLINK_FOLLOW) ||
		    !linkat(o->fd, "", AT_FDCWD, o->hidden, AT_EMPTY_PATH)) {
			o->named = true;
			return 0;
		}
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

static int convert(struct dat_file *df, const struct dat_writer_config *cfg, const char *path,
		   struct strbuf *err)
{
	struct output o = { .fd = -1 };
	char *dir = dirname(strdupa(path));
	int ret;

	ret = output_open(&o, path, dir);
	if (ret)
		strbuf_addf(err, "cannot create a file in %s: %s", dir, strerror(-ret));
	if (!ret)
		ret = dat_file_copy(df, o.fd, cfg, dir, err);
	if (!ret && fsync(o.fd)) {
		ret = -errno;
		strbuf_addf(err, "%s: %s", path, strerror(-ret));
	}
	if (!ret && !o.named) {
		ret = output_link(&o);
		if (ret)
			strbuf_addf(err, "cannot name the output in %s: %s", dir, strerror(-ret));
	}
	if (o.fd >= 0 && close(o.fd) && !ret) {
		ret = -errno;
		strbuf_addf(err, "%s: %s", path, strerror(-ret));
	}
	if (!ret && rename(o.hidden, path)) {
		ret = -errno;
		strbuf_addf(err, "cannot rename %s to %s: %s", o.hidden, path, strerror(-ret));
	}
	if (ret && o.named)
		unlink(o.hidden);
	free(o.hidden);
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
	if (fd_same_file(a.input, a.output))
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
