/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_DAT_FORMAT_H
#define KTRACE_DAT_FORMAT_H

#include <stdbool.h>

/*
 * Constants of the trace.dat format (v6 and v7) shared by the reader and the writer.
 * The format is described in trace-cmd's Documentation/trace-cmd/trace-cmd.dat.v7.5.txt.
 */

#define DAT_MAGIC		"\027\010\104tracing"
#define DAT_MAGIC_LEN		10
/*
 * What ktrace writes in place of the magic until a file is complete (its first byte is
 * patched last): a recording killed before it finished is recognised as such, not taken
 * for a damaged or foreign file. trace-cmd sees a wrong magic.
 */
#define DAT_MAGIC_UNFINISHED	"\000\010\104tracing"

/* Option ids (v6 options section and v7 OPTIONS sections). */
enum dat_option_id {
	DAT_OPT_DONE = 0,
	DAT_OPT_DATE = 1,
	DAT_OPT_CPUSTAT = 2,
	DAT_OPT_BUFFER = 3,
	DAT_OPT_TRACECLOCK = 4,
	DAT_OPT_UNAME = 5,
	DAT_OPT_HOOK = 6,
	DAT_OPT_OFFSET = 7,
	DAT_OPT_CPUCOUNT = 8,
	DAT_OPT_VERSION = 9,
	DAT_OPT_PROCMAPS = 10,
	DAT_OPT_TRACEID = 11,
	DAT_OPT_TIME_SHIFT = 12,
	DAT_OPT_GUEST = 13,
	DAT_OPT_TSC2NSEC = 14,
	DAT_OPT_STRINGS = 15,
	DAT_OPT_HEADER_INFO = 16,
	DAT_OPT_FTRACE_EVENTS = 17,
	DAT_OPT_EVENT_FORMATS = 18,
	DAT_OPT_KALLSYMS = 19,
	DAT_OPT_PRINTK = 20,
	DAT_OPT_CMDLINES = 21,
	DAT_OPT_BUFFER_TEXT = 22,
	/*
	 * trace-cmd 3.4's: sections holding /sys/kernel/btf/vmlinux (function arguments) and
	 * /proc/modules, and the text "INSTANCE:CONTENT" of a persistent instance's
	 * last_boot_info (the boot its data comes from).
	 */
	DAT_OPT_BTF_FILE = 23,
	DAT_OPT_LAST_BOOT_INFO = 24,
	DAT_OPT_MODULES_FILE = 25,
	DAT_OPT_MAX,
};

/* A metadata section that reading depends on: headers, formats, symbols, printk, cmdlines. */
static inline bool dat_opt_is_reader_section(int id)
{
	return id >= DAT_OPT_HEADER_INFO && id <= DAT_OPT_CMDLINES;
}

/* A section that no reading depends on, kept so that copies and dumps show it. */
static inline bool dat_opt_is_file_section(int id)
{
	return id == DAT_OPT_BTF_FILE || id == DAT_OPT_MODULES_FILE;
}

/*
 * ktrace's own option, far above trace-cmd's ids: the file is incomplete, and its data (a
 * NUL-terminated text) says why. `ktrace listen` writes it into a file it recovered after a
 * listener was killed mid-recording; trace-cmd reads such a file with an "unknown option"
 * warning.
 */
#define DAT_OPT_KTRACE_INCOMPLETE	0x4b01

/* v7 section ids: a section's id is the id of the option that points at it. */
#define DAT_SECTION_OPTIONS	0
#define DAT_SECTION_FLAG_COMPRESSED	0x1

#endif
