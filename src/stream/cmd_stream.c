// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>

#include "ktrace/command.h"

int cmd_stream(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "ktrace stream: not implemented yet\n");
	return 1;
}
