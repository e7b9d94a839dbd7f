// SPDX-License-Identifier: GPL-2.0-only
/* The one realloc arithmetic of arrays that grow (grow.h); text grows in a strbuf. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/grow.h"

int array_grow(void *ptrp, size_t *alloc, size_t want, size_t size)
{
	size_t n = *alloc * 2 > want ? *alloc * 2 : want;
	void *p;

	if (want <= *alloc)
		return 0;
	if (!size || n > SIZE_MAX / size)
		return -ENOMEM;
	/* ptrp may point to any object pointer type: copy its bytes rather than cast */
	memcpy(&p, ptrp, sizeof(p));
	p = realloc(p, n * size);
	if (!p)
		return -ENOMEM;
	memcpy(ptrp, &p, sizeof(p));
	*alloc = n;
	return 0;
}
