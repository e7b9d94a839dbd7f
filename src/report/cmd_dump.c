// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>

#include "ktrace/command.h"

int cmd_dump(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "ktrace dump: not implemented yet\n");
	return 1;
}
