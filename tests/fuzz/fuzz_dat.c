// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: one trace.dat file read end to end, the way a user runs ktrace on it.
 * The input goes into a memfd so that the reader sees a real file (it pread()s and mmap()s);
 * then `ktrace report` or a variant of it or of dump (chosen by the last byte, so that
 * mutations reach each) prints it, and the listener's metadata check walks it as if a
 * `record -N` client had sent it. One command per input, not two: opening a file parses every
 * event format, and that parse is most of the time an input takes.
 *
 * The same function is the body of the regression replay (replay.c), built without libFuzzer.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_cpu_budget.h"
#include "ktrace/command.h"
#include "ktrace/strbuf.h"
#include "ktrace/dat_append.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Each a different path through the reader and the printers. */
static const char *const variants[][4] = {
	{ "report" },
	{ "report", "--stat" },
	{ "report", "--cpus" },
	{ "report", "-R" },
	{ "report", "-l" },
	{ "report", "-t", "--ts-offset", "-1000" },
	{ "report", "--first-event", "--last-event" },
	{ "report", "-E" },
	{ "report", "-F", "sched_switch: prev_pid != 0 || next_comm ~ \"k*\"" },
	{ "report", "-w" },
	{ "report", "--format", "json", "-l" },
	{ "report", "--format", "csv" },
	{ "report", "--events" },
	{ "dump", "--all" },
	{ "dump", "--sections", "--strings", "--options" },
};

#define NR_VARIANTS (sizeof(variants) / sizeof(variants[0]))

/* getopt permutes argv: give it writable copies. */
static void run(const char *const *args, const char *path)
{
	char buf[8][128];
	char *argv[9];
	int argc = 0, i;

	for (i = 0; i < 4 && args[i]; i++) {
		snprintf(buf[argc], sizeof(buf[argc]), "%s", args[i]);
		argv[argc] = buf[argc];
		argc++;
	}
	/* no plugins: they are not our code, and loading them per input would dominate */
	if (!strcmp(args[0], "report")) {
		snprintf(buf[argc], sizeof(buf[argc]), "-N");
		argv[argc] = buf[argc];
		argc++;
	}
	snprintf(buf[argc], sizeof(buf[argc]), "-i");
	argv[argc] = buf[argc];
	argc++;
	snprintf(buf[argc], sizeof(buf[argc]), "%s", path);
	argv[argc] = buf[argc];
	argc++;
	argv[argc] = NULL;
	if (!strcmp(args[0], "dump"))
		cmd_dump(argc, argv);
	else
		cmd_report(argc, argv);
}

static void scan_as_listener_meta(int fd, size_t size)
{
	struct strbuf err = STRBUF_INIT;
	struct dat_metadata meta;

	memset(&meta, 0, sizeof(meta));
	dat_metadata_scan(fd, size, &meta, &err);
	strbuf_release(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = memfd_create("fuzz.dat", 0);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	cpu_budget_start();
	run(variants[size ? data[size - 1] % NR_VARIANTS : 0], path);
	scan_as_listener_meta(fd, size);
	cpu_budget_stop();
	fflush(stdout);
	close(fd);
	return 0;
}
