// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>

#include "ktrace/command.h"

int cmd_snapshot(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "ktrace snapshot: not implemented yet\n");
	return 1;
}
