/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_SQLHIST_CHECK_H
#define KTRACE_SQLHIST_CHECK_H

#include <stddef.h>

#include "ktrace/strbuf.h"

/*
 * The SQL of `ktrace sqlhist` is user input that goes to libtracefs 1.6.4's parser
 * (tracefs_sql), whose later releases fixed crashes on some inputs. This check refuses, before
 * the library sees them, what ktrace knows to be unsafe or meaningless there: 0, or -EINVAL
 * with one line in err that names the byte offset (0-based) of the fault.
 */
int sqlhist_check(const char *sql, size_t len, struct strbuf *err);

struct tep_handle;
/*
 * With the event formats: every field the SQL names is a field of an event of the FROM or
 * JOIN (libtracefs 1.6.4 looks an unknown field's event up by a NULL name, which crashes in
 * tep_find_event_by_name() once the handle has found another event). 0, or -EINVAL
 * with one line in err naming the offset of the field.
 */
int sqlhist_check_fields(struct tep_handle *tep, const char *sql, struct strbuf *err);

#endif
