// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace snapshot: the kernel's snapshot buffer (CONFIG_TRACER_SNAPSHOT), as trace-cmd snapshot
 * drives it through the "snapshot" file: writing 1 swaps the live buffer into the snapshot
 * (allocating it), 2 clears the snapshot, 0 frees it; reading it prints the snapshot as text.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ktrace/command.h"
#include "ktrace/fdio.h"
#include "ktrace/options.h"
#include "ktrace/tfs.h"

struct snapshot_args {
	const char *instance;	/* -B */
	int action;		/* 's', 'c', 'f', or 0 to print the snapshot */
};

static int set_action(void *ctx, int id, const char *arg)
{
	struct snapshot_args *a = ctx;

	if (a->action && a->action != id) {
		fprintf(stderr, "ktrace snapshot: -%c and -%c: give one of -s, -c, -f\n",
			a->action, id);
		return -EINVAL;
	}
	a->action = id;
	return 0;
}

static const struct kt_option snapshot_options[] = {
	KT_OPT('s', NULL, KT_ARG_NONE, NULL, "take a snapshot of the live buffer"),
	KT_OPT('c', NULL, KT_ARG_NONE, NULL, "clear the snapshot buffer"),
	KT_OPT('f', NULL, KT_ARG_NONE, NULL, "free the snapshot buffer"),
	KT_STRING('B', NULL, "INSTANCE", struct snapshot_args, instance,
		  "the snapshot of INSTANCE"),
	{ 0 },
};

static const struct kt_command_help snapshot_help = {
	.name = "snapshot",
	.usage = "[-s | -c | -f] [-B INSTANCE]",
	.summary = "Take, clear or free the snapshot buffer; without a flag, print it.",
	.options = snapshot_options,
	.option = set_action,
};

/* What is written to the snapshot file for each action. */
static const char *action_value(int id)
{
	switch (id) {
	case 's':
		return "1";
	case 'c':
		return "2";
	default:
		return "0";
	}
}

/* Names what is missing: the instance, or the kernel's snapshot support. */
static int check_file(const char *instance, const char *path)
{
	struct strbuf dir = STRBUF_INIT;
	struct stat st;
	int ret = 0;

	if (!stat(path, &st))
		return 0;
	if (instance && !tfs_path(&dir, instance, "") && stat(dir.buf, &st)) {
		fprintf(stderr, "ktrace snapshot: -B %s: no such instance (%s)\n", instance,
			dir.buf);
		ret = -ENOENT;
	} else if (errno == ENOENT) {
		fprintf(stderr, "ktrace snapshot: this kernel has no snapshot buffer "
			"(CONFIG_TRACER_SNAPSHOT is not set): %s does not exist\n", path);
		ret = -ENOENT;
	} else {
		ret = -errno;
		fprintf(stderr, "ktrace snapshot: %s: %s\n", path, tfs_cause(ret));
	}
	strbuf_release(&dir);
	return ret;
}

static int print_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = fflush(stdout) ? -errno : fd_copy_all(fd, STDOUT_FILENO);
	close(fd);
	return ret;
}

static int snapshot_run(const char *instance, int action)
{
	struct strbuf path = STRBUF_INIT;
	int ret = tfs_path(&path, instance, "snapshot");

	if (!ret)
		ret = check_file(instance, path.buf);
	if (!ret && action) {
		const char *val = action_value(action);

		ret = tfs_write(path.buf, val, strlen(val), true);
		if (ret)
			fprintf(stderr, "ktrace snapshot: writing %s to %s: %s\n", val, path.buf,
				tfs_cause(ret));
	} else if (!ret) {
		ret = print_file(path.buf);
		if (ret)
			fprintf(stderr, "ktrace snapshot: reading %s: %s\n", path.buf,
				tfs_cause(ret));
	}
	strbuf_release(&path);
	return ret;
}

int cmd_snapshot(int argc, char **argv)
{
	struct snapshot_args a = { 0 };
	int ret = kt_parse_options(&snapshot_help, argc, argv, &a, NULL);

	if (ret)
		return ret;
	return snapshot_run(a.instance, a.action) ? 1 : 0;
}
