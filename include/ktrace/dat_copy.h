/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_DAT_COPY_H
#define KTRACE_DAT_COPY_H

/*
 * One trace.dat rewritten as another, in the version and compression of cfg (`ktrace convert`,
 * trace-cmd's tracecmd_copy), or its metadata for a piece of it (`ktrace split`): the reader's
 * view of the file handed to the one writer.
 */
#include "ktrace/dat.h"
#include "ktrace/dat_writer.h"
#include "ktrace/strbuf.h"

/*
 * Writes what df holds into out_fd (empty, at offset 0): the six metadata payloads as they
 * are, every option but those the layout makes (section offsets, buffers, CPU count), the CPU
 * count, then every buffer's pages, or the latency text. cfg's page size and long size of 0
 * take df's. The CPU data is staged, page by page and recompressed when cfg asks, in unnamed
 * files in tmp_dir (the output's directory, so that the copy into it stays in the kernel).
 * 0, or negative errno with one line in err.
 */
int dat_file_copy(struct dat_file *df, int out_fd, const struct dat_writer_config *cfg,
		  const char *tmp_dir, struct strbuf *err);

/* What a copy adds: an option, or for BTF_FILE and MODULES_FILE the content of the section */
struct dat_extra {
	uint16_t id;
	const void *data;
	uint64_t size;
};

/* dat_file_copy() with `extra` written after df's options (a v6 copy leaves out sections). */
int dat_file_copy_with(struct dat_file *df, int out_fd, const struct dat_writer_config *cfg,
		       const char *tmp_dir, const struct dat_extra *extra, int nr_extra,
		       struct strbuf *err);

/*
 * Only the six metadata payloads of df (headers ... cmdlines), handed to w as they are: what a
 * file cut out of df needs before its own CPU data (split). A file of the other byte order is
 * refused (-EOPNOTSUPP). 0, or negative errno with one line in err.
 */
int dat_copy_metadata(struct dat_file *df, struct dat_writer *w, struct strbuf *err);

#endif
