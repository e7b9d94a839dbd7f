/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_TRACEFS_DEFAULTS_H
#define KTRACE_RECORD_TRACEFS_DEFAULTS_H

#include <stdbool.h>
#include <stddef.h>

/* What `ktrace reset` does to one instance; shared by reset and its kernel tests. */
struct reset_ctx {
	int buffer_kb;	/* -b, 0: the kernel default for the top instance, untouched for others */
	int err;	/* first error (negative errno); each one is printed with its file */
};

/* Puts the instance (NULL: top) back to boot defaults and tracing_on=1. 0 or ctx->err. */
int tracefs_reset_instance(struct reset_ctx *ctx, const char *inst);
/* The kernel's default per-CPU buffer size in KB (trace_buf_size=, else 1408). */
int tracefs_default_buffer_kb(void);

/* The boot value of a trace option, '0' or '1', or -1 when ktrace does not know it. */
int tracefs_option_default(const char *name, bool instance);
/* The tracing_cpumask text that selects every CPU ("3", "ff,ffffffff"...). */
void tracefs_all_cpus_mask(char *buf, size_t size);

#endif
