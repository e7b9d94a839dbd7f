/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_DAT_COPY_H
#define KTRACE_DAT_COPY_H

/*
 * Copying what a trace.dat holds before its CPU data (headers, formats, kallsyms, printk
 * formats, cmdlines) into a new file through the one writer, as `trace-cmd split` copies it
 * (tracecmd_copy up to the cmdlines). Commands that cut a file into files (split) use it.
 */
#include "ktrace/strbuf.h"

struct dat_file;
struct dat_writer;

/*
 * Hands the six metadata blocks of df to w, in file order (dat_writer.h: headers ... cmdlines).
 * The writer writes numbers in the host's order, so a file of the other byte order is refused
 * (-EPROTONOSUPPORT). 0 or negative errno with one line in err.
 */
int dat_copy_metadata(struct dat_file *df, struct dat_writer *w, struct strbuf *err);

#endif
