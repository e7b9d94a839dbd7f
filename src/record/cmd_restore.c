// SPDX-License-Identifier: GPL-2.0-only
/*
 * `ktrace restore`: a readable trace.dat from the per-CPU data files a crashed `trace-cmd
 * record` (or `trace-cmd listen`) left, as trace-cmd 3.1.6 restore does
 * (tracecmd/trace-restore.c). -c writes only the header part (formats, kallsyms, printk
 * formats, saved command lines) from this machine; -i HEADER takes that part from such a file,
 * or from any trace.dat, and the CPU files named after the options follow it as the top
 * instance's CPUs 0, 1, ... Without -i the header part is read from this machine too. The file
 * is written by the one dat writer; the header part of -i passes through as it is.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ktrace/command.h"
#include "ktrace/dat.h"
#include "ktrace/dat_copy.h"
#include "ktrace/dat_stage.h"
#include "ktrace/dat_writer.h"
#include "ktrace/fdio.h"
#include "ktrace/options.h"
#include "ktrace/tfs.h"
#include "metadata.h"

struct restore_args {
	bool create;
	const char *output;
	const char *input;
	const char *tracing_dir;
	const char *kallsyms;
};

static const struct kt_option restore_options_table[] = {
	KT_BOOL('c', NULL, struct restore_args, create,
		"only the header part, of this machine (default trace-partial.dat)"),
	KT_STRING_ONCE('o', NULL, "FILE", struct restore_args, output,
		       "write FILE (default trace.dat; -c: trace-partial.dat)"),
	KT_STRING_ONCE('i', NULL, "FILE", struct restore_args, input,
		       "the header part from FILE (a -c file or a trace.dat)"),
	KT_STRING('t', NULL, "DIR", struct restore_args, tracing_dir,
		  "-c: the formats from DIR instead of tracefs"),
	KT_STRING('k', NULL, "FILE", struct restore_args, kallsyms,
		  "-c: the symbols from FILE, not /proc/kallsyms"),
	{ 0 }
};

static const struct kt_command_help restore_help = {
	.name = "restore",
	.usage = "[-c] [-o FILE] [-t DIR] [-k FILE] | [-i HEADER] [-o FILE] CPU-FILE...",
	.summary = "Make a trace.dat from the per-CPU files a crashed recording left.",
	.options = restore_options_table,
};

static int check_args(struct restore_args *a, int nr_files, char **files)
{
	if (a->create && a->input)
		return kt_usage_error("restore", "-c", "", "and -i both given: -c writes the "
				      "header part that -i reads");
	if (a->create && nr_files)
		return kt_usage_error("restore", files[0], "", "is a CPU file: -c writes only "
				      "the header part (restore the files with -i)");
	if (!a->create && !nr_files)
		return kt_usage_error("restore", "CPU-FILE", "", "missing: name the per-CPU data "
				      "files (or -c for a header part)");
	if (a->input && (a->tracing_dir || a->kallsyms))
		return kt_usage_error("restore", a->tracing_dir ? "-t" : "-k", "",
				      "reads this machine's part: not with -i, whose file has it");
	if (!a->output)
		a->output = a->create ? "trace-partial.dat" : "trace.dat";
	return 0;
}

/* No input may be the output, which is truncated before anything is read from them. */
static int check_output(const struct restore_args *a, int nr_files, char **files)
{
	int i;

	if (a->input && fd_same_file(a->input, a->output))
		return kt_usage_error("restore", "-o", a->output, "is the -i file: give another");
	for (i = 0; i < nr_files; i++)
		if (fd_same_file(files[i], a->output))
			return kt_usage_error("restore", "-o", a->output,
					      "is one of the CPU files: give another");
	return 0;
}

/* What the restored file is made of, opened before the output is created. */
struct restore_run {
	struct restore_args a;
	struct dat_file *df;		/* -i */
	char *trace_dir;		/* without -i: -t or tracefs */
	struct dat_writer_config cfg;
	struct dat_cpu_source *cpus;
	int nr_cpus;
	int out_fd;
	struct strbuf err;
};

/* Before the output is replaced: a -t that is no copy of a tracefs fails here. */
static int check_trace_dir(struct restore_run *r)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	ret = strbuf_addf(&path, "%s/events/header_page", r->trace_dir);
	if (!ret && access(strbuf_str(&path), R_OK)) {
		ret = -errno;
		strbuf_addf(&r->err, "%s: %s (-t names a tracefs or a copy of one)",
			    strbuf_str(&path), strerror(-ret));
	}
	strbuf_release(&path);
	return ret;
}

static int open_header(struct restore_run *r)
{
	struct dat_open_opts opts = { .no_tep = true };
	struct strbuf dir = STRBUF_INIT;
	int fd, ret;

	if (r->a.input) {
		ret = dat_file_open_opts(r->a.input, &opts, &r->df, &r->err);
		if (ret)
			return ret;
		/* the file's version and compression, as trace-cmd's copy keeps them */
		r->cfg.version = dat_file_version(r->df);
		r->cfg.compression = dat_file_compression(r->df);
		r->cfg.page_size = dat_file_page_size(r->df);
		r->cfg.long_size = dat_file_meta(r->df)->header_long_size;
		return 0;
	}
	/* trace-cmd 3.1.6 writes a new header part as version 7, uncompressed */
	r->cfg.version = 7;
	r->cfg.compression = KT_COMP_NONE;
	r->cfg.page_size = (uint32_t)getpagesize();
	if (r->a.kallsyms) {
		fd = open(r->a.kallsyms, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			ret = -errno;
			strbuf_addf(&r->err, "%s: %s", r->a.kallsyms, strerror(-ret));
			return ret;
		}
		close(fd);
	}
	if (r->a.tracing_dir) {
		ret = strbuf_addstr(&dir, r->a.tracing_dir);
	} else {
		ret = kt_tracefs_locate(NULL, &r->err);
		if (!ret)
			ret = tfs_path(&dir, NULL, NULL);
	}
	if (!ret)
		r->trace_dir = strbuf_detach(&dir, NULL);
	strbuf_release(&dir);
	return ret ? ret : check_trace_dir(r);
}

/* One CPU file: whole pages only, as the reader walks them; a torn last page is left out. */
static int open_cpu(struct restore_run *r, int i, const char *path, const char *tmp_dir)
{
	struct dat_cpu_source *cs = &r->cpus[i];
	uint32_t page = r->cfg.page_size;
	uint64_t whole;
	struct stat st;
	int fd, ret;

	cs->cpu = i;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		ret = -errno;
		strbuf_addf(&r->err, "%s: %s", path, strerror(-ret));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		strbuf_addf(&r->err, "%s: not a regular file", path);
		return -EINVAL;
	}
	whole = (uint64_t)st.st_size / page * page;
	if (whole != (uint64_t)st.st_size)
		fprintf(stderr, "ktrace restore: %s: the last %llu bytes are not a whole %u-byte "
			"page: left out\n", path, (unsigned long long)(st.st_size - whole), page);
	if (r->cfg.version < 7 || r->cfg.compression == KT_COMP_NONE) {
		/* the writer copies from it as it is */
		cs->fd = fd;
		cs->size = whole;
		cs->raw_size = whole;
		return 0;
	}
	ret = dat_stage_raw_pages(fd, whole, page, r->cfg.compression, tmp_dir, cs, &r->err);
	close(fd);
	return ret;
}

static int open_cpus(struct restore_run *r, int nr, char **files, const char *tmp_dir)
{
	int i, ret = 0;

	r->cpus = calloc((size_t)nr + 1, sizeof(*r->cpus));
	if (!r->cpus)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		r->cpus[i].fd = -1;
	r->nr_cpus = nr;
	for (i = 0; !ret && i < nr; i++)
		ret = open_cpu(r, i, files[i], tmp_dir);
	return ret;
}

/* The header part: -i's as it is, or this machine's (every event's format, as trace-cmd). */
static int write_header(struct restore_run *r, struct dat_writer *w)
{
	struct meta_events every = { .all = true };

	if (r->df)
		return dat_copy_metadata(r->df, w, &r->err);
	return meta_write_sections_from(w, r->trace_dir, r->a.kallsyms ? r->a.kallsyms :
					"/proc/kallsyms", &every, &r->err);
}

/*
 * The file: the header part, then (not with -c) the CPU count and one top instance of the CPU
 * files. No other option: trace-cmd's restore stores none (nor does it know the clock: "local").
 */
static int write_file(struct restore_run *r)
{
	struct dat_buffer_source top = {
		.name = "",
		.clock = "local",
		.page_size = r->cfg.page_size,
		.cpus = r->cpus,
		.nr_cpus = r->nr_cpus,
	};
	struct dat_writer *w;
	int ret;

	ret = dat_writer_open(r->out_fd, &r->cfg, &w, &r->err);
	if (ret)
		return ret;
	ret = write_header(r, w);
	if (!ret && !r->a.create) {
		ret = dat_writer_cpu_count(w, r->nr_cpus);
		if (!ret)
			ret = dat_writer_buffers(w, &top, 1, &r->err);
	}
	if (!ret)
		ret = dat_writer_finish(w, &r->err);
	dat_writer_free(w);
	return ret;
}

static int restore(struct restore_run *r, int nr, char **files)
{
	char *dir = dirname(strdupa(r->a.output));
	int ret;

	ret = open_header(r);
	if (!ret)
		ret = open_cpus(r, nr, files, dir);
	if (ret)
		return ret;
	r->out_fd = open(r->a.output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (r->out_fd < 0) {
		ret = -errno;
		strbuf_addf(&r->err, "%s: %s", r->a.output, strerror(-ret));
		return ret;
	}
	ret = write_file(r);
	if (!ret && fsync(r->out_fd))
		ret = -errno;
	if (close(r->out_fd) && !ret)
		ret = -errno;
	if (ret && !r->err.len)
		strbuf_addf(&r->err, "%s: %s", r->a.output, strerror(-ret));
	/* as trace-cmd: a failed restore leaves no half-written file behind */
	if (ret)
		unlink(r->a.output);
	return ret;
}

static void release(struct restore_run *r)
{
	int i;

	for (i = 0; r->cpus && i < r->nr_cpus; i++)
		if (r->cpus[i].fd >= 0)
			close(r->cpus[i].fd);
	free(r->cpus);
	free(r->trace_dir);
	dat_file_close(r->df);
	strbuf_release(&r->err);
}

int cmd_restore(int argc, char **argv)
{
	struct restore_run r = { .out_fd = -1, .err = STRBUF_INIT };
	int first, nr, ret;

	ret = kt_parse_options(&restore_help, argc, argv, &r.a, &first);
	if (ret)
		return ret;
	nr = argc - first;
	ret = check_args(&r.a, nr, argv + first);
	if (!ret)
		ret = check_output(&r.a, nr, argv + first);
	if (ret)
		return ret;
	ret = restore(&r, nr, argv + first);
	if (ret)
		fprintf(stderr, "ktrace restore: %s\n", strbuf_str(&r.err));
	release(&r);
	return ret ? KT_ERR_FAILED : 0;
}
