/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_STREAM_PRINT_H
#define KTRACE_STREAM_PRINT_H

/* One live record printed as `ktrace report` prints an event line (default options). */
#include <stdio.h>

#include "ktrace/report.h"

struct tep_handle;
struct tep_record;
struct stream_printer;

int stream_printer_new(struct tep_handle *tep, enum report_time_unit unit,
		       struct stream_printer **out);
void stream_print(struct stream_printer *p, struct tep_record *r, FILE *out);
void stream_printer_free(struct stream_printer *p);

#endif
