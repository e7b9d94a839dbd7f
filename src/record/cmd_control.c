// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>

#include "ktrace/command.h"

int cmd_start(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "ktrace start: not implemented yet\n");
	return 1;
}

int cmd_stop(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "ktrace stop: not implemented yet\n");
	return 1;
}

int cmd_reset(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "ktrace reset: not implemented yet\n");
	return 1;
}

int cmd_show(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "ktrace show: not implemented yet\n");
	return 1;
}

int cmd_stat(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "ktrace stat: not implemented yet\n");
	return 1;
}

int cmd_list(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "ktrace list: not implemented yet\n");
	return 1;
}
