/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_GROW_H
#define KTRACE_GROW_H

#include <stddef.h>

/*
 * Makes the array *ptrp (any element type, `size` bytes each) hold at least `want` elements:
 * *alloc counts what it holds, and grows to want or to twice itself, whichever is more, so
 * that adding one element at a time stays linear. 0, or -ENOMEM with the array as it was.
 * ptrp is the address of the array's pointer (T **).
 */
int array_grow(void *ptrp, size_t *alloc, size_t want, size_t size);

#endif
