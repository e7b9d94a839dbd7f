// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>

#include "ktrace/command.h"

int cmd_report(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "ktrace report: not implemented yet\n");
	return 1;
}
