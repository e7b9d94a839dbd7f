// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>

#include "ktrace/command.h"

int cmd_listen(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "ktrace listen: not implemented yet\n");
	return 1;
}
