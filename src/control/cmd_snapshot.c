// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace snapshot: the kernel's snapshot buffer (CONFIG_TRACER_SNAPSHOT), with trace-cmd
 * snapshot's flags, through the "snapshot" file (per_cpu/cpuN/snapshot with -c): writing 1
 * swaps the live buffer into the snapshot (allocating it), 2 clears the snapshot, 0 frees it;
 * reading it prints the snapshot as text.
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
	int cpu;		/* -c, or -1 for the snapshot of every CPU */
	bool take;		/* -s */
	bool clear;		/* -r */
	bool free_buffer;	/* -f */
};

static const struct kt_option snapshot_options[] = {
	KT_BOOL('s', NULL, struct snapshot_args, take, "take a snapshot of the live buffer"),
	KT_BOOL('r', NULL, struct snapshot_args, clear, "clear the snapshot buffer"),
	KT_BOOL('f', NULL, struct snapshot_args, free_buffer, "free the snapshot buffer"),
	KT_INT('c', NULL, "CPU", struct snapshot_args, cpu, 0, 1 << 20,
	       "the snapshot buffer of CPU only"),
	KT_STRING('B', NULL, "INSTANCE", struct snapshot_args, instance,
		  "the snapshot of INSTANCE"),
	{ 0 },
};

static const struct kt_command_help snapshot_help = {
	.name = "snapshot",
	.usage = "[-s] [-r] [-f] [-c CPU] [-B INSTANCE]",
	.summary = "Take, clear or free the snapshot buffer; without -s, -r or -f, print it.",
	.options = snapshot_options,
};

/* A directory of the tracefs that -B or -c names is missing: says which. */
static bool name_missing_dir(const struct snapshot_args *a, const char *cpu_dir)
{
	struct strbuf dir = STRBUF_INIT;
	struct stat st;
	bool missing = false;

	if (a->instance && !tfs_path(&dir, a->instance, NULL) && stat(dir.buf, &st)) {
		fprintf(stderr, "ktrace snapshot: -B %s: no such instance (%s)\n", a->instance,
			dir.buf);
		missing = true;
	} else if (a->cpu >= 0 && !tfs_path(&dir, a->instance, cpu_dir) && stat(dir.buf, &st)) {
		fprintf(stderr, "ktrace snapshot: -c %d: no such CPU (%s)\n", a->cpu, dir.buf);
		missing = true;
	}
	strbuf_release(&dir);
	return missing;
}

/* Names what is missing: the instance, the CPU, or the kernel's snapshot support. */
static int check_file(const struct snapshot_args *a, const char *cpu_dir, const char *path)
{
	struct stat st;
	int err;

	if (!stat(path, &st))
		return 0;
	err = errno;
	if (name_missing_dir(a, cpu_dir))
		return -ENOENT;
	if (err == ENOENT) {
		fprintf(stderr, "ktrace snapshot: this kernel has no snapshot buffer "
			"(CONFIG_TRACER_SNAPSHOT is not set): %s does not exist\n", path);
		return -ENOENT;
	}
	fprintf(stderr, "ktrace snapshot: %s: %s\n", path, tfs_cause(-err));
	return -err;
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

static int write_action(const struct snapshot_args *a, const char *path, const char *val)
{
	int ret = tfs_write(path, val, strlen(val), true);

	if (!ret)
		return 0;
	fprintf(stderr, "ktrace snapshot: writing %s to %s: %s\n", val, path, tfs_cause(ret));
	/* The kernel frees only the whole snapshot, and swaps one CPU only when built to */
	if (ret == -EINVAL && a->cpu >= 0 && !strcmp(val, "0"))
		fprintf(stderr, "ktrace snapshot: the kernel frees the snapshot of every CPU "
			"at once: -f without -c\n");
	else if (ret == -EINVAL && a->cpu >= 0 && !strcmp(val, "1"))
		fprintf(stderr, "ktrace snapshot: this kernel takes a snapshot of one CPU only "
			"with CONFIG_TRACER_SNAPSHOT_PER_CPU_SWAP: -s without -c\n");
	return ret;
}

/*
 * The actions in trace-cmd's order: `-r -s` clears the old snapshot before it takes a new one,
 * `-r -f` frees a cleared one.
 */
static int snapshot_act(const struct snapshot_args *a, const char *path)
{
	int ret = 0;

	if (a->clear)
		ret = write_action(a, path, "2");
	if (!ret && a->free_buffer)
		ret = write_action(a, path, "0");
	if (!ret && a->take)
		ret = write_action(a, path, "1");
	return ret;
}

static int snapshot_run(const struct snapshot_args *a)
{
	struct strbuf path = STRBUF_INIT, cpu_dir = STRBUF_INIT;
	int ret = 0;

	if (a->cpu >= 0)
		ret = strbuf_addf(&cpu_dir, "per_cpu/cpu%d", a->cpu);
	if (!ret)
		ret = tfs_path(&path, a->instance, a->cpu >= 0 ? cpu_dir.buf : NULL);
	if (!ret)
		ret = strbuf_addstr(&path, "/snapshot");
	if (!ret)
		ret = check_file(a, cpu_dir.buf, path.buf);
	if (!ret && (a->take || a->clear || a->free_buffer)) {
		ret = snapshot_act(a, path.buf);
	} else if (!ret) {
		ret = print_file(path.buf);
		if (ret)
			fprintf(stderr, "ktrace snapshot: reading %s: %s\n", path.buf,
				tfs_cause(ret));
	}
	strbuf_release(&cpu_dir);
	strbuf_release(&path);
	return ret;
}

int cmd_snapshot(int argc, char **argv)
{
	struct snapshot_args a = { .cpu = -1 };
	int ret = kt_parse_options(&snapshot_help, argc, argv, &a, NULL);

	if (ret)
		return ret;
	/* trace-cmd refuses it too: the snapshot just taken would be freed, or never be */
	if (a.take && a.free_buffer)
		return kt_usage_error("snapshot", "-s", NULL,
				      "and -f: a snapshot cannot be taken and freed at once");
	return snapshot_run(&a) ? 1 : 0;
}
