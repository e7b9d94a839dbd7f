/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_STRV_H
#define KTRACE_STRV_H

/*
 * ktrace's one list of strings: a NULL-terminated array of strings it owns. NULL is a valid
 * empty list.
 */

/* Appends a copy of s: 0 or -ENOMEM (the list stays valid). */
int strv_push(char ***strv, const char *s);
int strv_len(char *const *strv);
void strv_free(char **strv);

#endif
