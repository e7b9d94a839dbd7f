// SPDX-License-Identifier: GPL-2.0-only
/* NULL-terminated string lists (strv.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ktrace/strv.h"

int strv_len(char *const *strv)
{
	int n = 0;

	while (strv && strv[n])
		n++;
	return n;
}

int strv_push(char ***strv, const char *s)
{
	int n = strv_len(*strv);
	char **arr;

	arr = realloc(*strv, (n + 2) * sizeof(*arr));
	if (!arr)
		return -ENOMEM;
	*strv = arr;
	arr[n] = strdup(s);
	arr[n + 1] = NULL;
	return arr[n] ? 0 : -ENOMEM;
}

void strv_free(char **strv)
{
	int i;

	for (i = 0; strv && strv[i]; i++)
		free(strv[i]);
	free(strv);
}
