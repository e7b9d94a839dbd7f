// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>

#include "ktrace/command.h"

int cmd_record(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "ktrace record: not implemented yet\n");
	return 1;
}

int cmd_extract(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "ktrace extract: not implemented yet\n");
	return 1;
}
