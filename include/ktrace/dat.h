/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_DAT_H
#define KTRACE_DAT_H

/*
 * Reading trace.dat files, v6 and v7. This layer knows the file format and loads the metadata
 * into a libtraceevent handle; it knows nothing about printing.
 *
 * Errors are negative errno values; the failing function writes one line into `err` naming
 * the file, the section or option, and the offset at fault.
 */
#include <stdbool.h>
#include <stdint.h>

#include "ktrace/compress.h"
#include "ktrace/strbuf.h"

struct tep_handle;
struct dat_file;

struct dat_cpu {
	int cpu;		/* CPU number as recorded */
	uint64_t offset;	/* file offset of the CPU's data in the buffer section */
	uint64_t size;		/* size of the CPU's data in the file: whole pages, or, in a
				 * compressed buffer, the bytes of its chunks */
};

struct dat_buffer {
	const char *name;	/* "" for the top instance */
	const char *clock;	/* trace clock of this buffer, e.g. "local" */
	uint32_t page_size;
	int nr_cpus;
	struct dat_cpu *cpus;
	bool latency;		/* a latency (text) buffer rather than flyrecord pages */
	uint64_t section_offset; /* v7: where the buffer's section starts; v6: 0 */
	bool compressed;	/* v7: data stored in compressed chunks */
	uint16_t section_flags;	/* v7: the buffer section's header */
	uint64_t section_size;
	const char *section_desc;
	uint64_t option_offset;	/* the offset the BUFFER option gives */
};

/* A v7 section header as found in the file. */
struct dat_section {
	uint16_t id;
	uint16_t flags;
	uint32_t desc_id;
	const char *desc;	/* the description from the strings sections, or NULL */
	uint64_t offset;	/* of the section header */
	uint64_t size;		/* as written: compressed size when compressed */
	uint32_t csize;		/* compressed metadata sections: their compression header */
	uint32_t rsize;
	uint64_t next_options;	/* options sections: what their DONE option points to */
};

/* What the metadata holds, as `trace-cmd dump` summarizes it. */
struct dat_meta_summary {
	uint64_t header_page_offset;	/* where the header_page text starts in the file */
	uint64_t header_page_size;
	uint64_t header_event_size;
	uint32_t nr_ftrace_events;
	uint32_t nr_systems;
	uint32_t kallsyms_size;
	uint32_t printk_size;
	uint64_t cmdlines_size;
	uint32_t v6_cpus;		/* v6: CPU count written after the cmdlines */
	bool v6_has_options;		/* v6: an "options  " block was present */
	bool latency;			/* v6: "latency  " data rather than "flyrecord" */
	uint64_t v6_cpu_offsets_at;	/* v6: file offset of the flyrecord offset/size pairs */
	const char *v6_clock;		/* v6: the trace_clock text after those pairs, or NULL */
	int header_long_size;		/* the long size written in the file header */
};

/* How to open a file; a zeroed struct (or NULL) gives trace-cmd report's defaults. */
struct dat_open_opts {
	bool ignore_date;	/* --nodate: the DATE option does not shift timestamps */
	bool raw_ts;		/* --raw-ts: no DATE, OFFSET, TSC2NSEC conversion */
	int64_t ts_offset;	/* --ts-offset, added to every timestamp */
	uint64_t ts2secs_hz;	/* --ts2secs HZ, 0 = unset */
	bool no_tep;		/* check the layout only; do not load formats (dump) */
	/*
	 * Leave kallsyms in the file until the first lookup by address, which loads them into
	 * a compact table of the reader's that answers through a function resolver on the tep
	 * handle. dat_file_load_kallsyms() must come before anything that may use them by name
	 * (tep_print_event() and its relatives, handlers): it registers in libtraceevent's own
	 * list the symbols the formats name. That list holds nothing else (tep_print_funcs()
	 * lists only those), and symbols added to it otherwise (tep_parse_kallsyms()) are not
	 * consulted by address.
	 */
	bool defer_kallsyms;
	/*
	 * Called once the tep handle knows the file's endianness and long size and before any
	 * format is parsed: the place to load plugins and register event handlers, as they
	 * must exist when the formats are parsed. `version` is the file's (6, 7). Non-zero aborts
	 * the open.
	 */
	int (*prepare_tep)(struct tep_handle *tep, int version, void *arg);
	/*
	 * Called before the tep handle is freed, on a failed open too (prepare_tep has run on it
	 * then): the place to unload the plugins it loaded (tep_unload_plugins).
	 */
	void (*release_tep)(struct tep_handle *tep, void *arg);
	void *prepare_arg;
	/*
	 * Decompress each CPU's next chunks on a worker thread while the reader walks the chunk
	 * before them (when the process may run on more than one CPU): the same pages and
	 * errors, up to nine chunks in memory per stream instead of one (a chunk is at most
	 * 64 MiB). For readers of every page in order. Nothing may fork while such a
	 * file is open and use it in the child: the worker is not there.
	 */
	bool decompress_ahead;
};

/* The default options, but decompress_ahead on (dat_file_open_opts with NULL: all off). */
int dat_file_open(const char *path, struct dat_file **out, struct strbuf *err);
/* dat_file_close() frees the tep handle too, after release_tep. */
int dat_file_open_opts(const char *path, const struct dat_open_opts *opts,
		       struct dat_file **out, struct strbuf *err);
void dat_file_close(struct dat_file *df);

const char *dat_file_path(const struct dat_file *df);
int dat_file_version(const struct dat_file *df);
enum kt_compression dat_file_compression(const struct dat_file *df);
const char *dat_file_compression_version(const struct dat_file *df);
bool dat_file_big_endian(const struct dat_file *df);
int dat_file_long_size(const struct dat_file *df);
uint32_t dat_file_page_size(const struct dat_file *df);
/* The CPU count trace-cmd report prints ("cpus=N"): the top buffer's highest CPU + 1 in v7. */
int dat_file_nr_cpus(const struct dat_file *df);

/* The libtraceevent handle holding every format, kallsyms, printk formats and cmdlines. */
struct tep_handle *dat_file_tep(struct dat_file *df);
/* opts.defer_kallsyms: loads them now, and registers the named ones (once; errors kept). */
void dat_file_load_kallsyms(struct dat_file *df);
/*
 * opts.defer_kallsyms: the error met loading the kallsyms late (lookups then find what was
 * registered before it), with its message in err; 0 otherwise.
 */
int dat_file_kallsyms_error(const struct dat_file *df, struct strbuf *err);

/* Buffer 0 is the top instance (when recorded), then the -B instances in file order. */
int dat_file_nr_buffers(const struct dat_file *df);
const struct dat_buffer *dat_file_buffer(const struct dat_file *df, int index);

/*
 * The payload of the nth option with this id (see dat_format.h), or NULL. Options from every
 * options section are kept in file order.
 */
const void *dat_file_option(const struct dat_file *df, int id, int nth, uint32_t *size);

/*
 * Why the file is incomplete when it says it is (DAT_OPT_KTRACE_INCOMPLETE: a file `ktrace
 * listen` recovered after it was killed mid-recording), else NULL. Printable text only.
 */
const char *dat_file_incomplete(const struct dat_file *df);

/* Every option in file order (v7: DONE options included, with their next offset). */
int dat_file_nr_options(const struct dat_file *df);
/* The option's id and payload; *section is the index of its options section (-1 in v6). */
const void *dat_file_option_at(const struct dat_file *df, int index, int *id, uint32_t *size,
			       int *section);
/* v7: the options sections in the order they are chained. */
int dat_file_nr_option_sections(const struct dat_file *df);
const struct dat_section *dat_file_option_section(const struct dat_file *df, int index);
/* v7: every section, walking the file from the first one to its end. */
int dat_file_nr_sections(const struct dat_file *df);
const struct dat_section *dat_file_section(const struct dat_file *df, int index);
const struct dat_meta_summary *dat_file_meta(const struct dat_file *df);
/* v7: the STRINGS sections end to end (NUL-terminated), or "" in v6. */
const char *dat_file_strings(const struct dat_file *df, uint64_t *size);
/*
 * The raw payload of a metadata block, decompressed, for tools that show it (dump). v7: the
 * section whose header is at `offset` (the value of a HEADER_INFO..CMDLINES option). v6: the
 * block of that option id (DAT_OPT_HEADER_INFO..DAT_OPT_CMDLINES) as laid out in the file.
 * *data is malloc'ed and NUL-terminated; 0 or negative errno with a message in err.
 */
int dat_file_load_section(struct dat_file *df, uint64_t offset, void **data, uint64_t *size,
			  struct strbuf *err);
int dat_file_load_v6_block(struct dat_file *df, int id, void **data, uint64_t *size,
			   struct strbuf *err);

/*
 * Timestamps as trace-cmd report shows them. The trace clock is the bracketed entry of the
 * TRACECLOCK option (else the top buffer's clock), NULL when unknown. "in usecs" is false for
 * clocks that count something other than nanoseconds (counter, x86-tsc...): the report then
 * prints raw counts. "use trace clock" is set when the file recorded its clock.
 */
const char *dat_file_trace_clock(const struct dat_file *df);
bool dat_file_in_usecs(const struct dat_file *df);
/*
 * The one rule for a clock's unit, for files and live streams alike: true for the trace clocks
 * that count nanoseconds (local, global, uptime, perf, tai, mono*, tsc2nsec), false for the
 * ones that count something else (counter, x86-tsc, boot as trace-cmd treats it...).
 */
bool dat_clock_counts_ns(const char *clock);
bool dat_file_use_trace_clock(const struct dat_file *df);
bool dat_file_raw_ts(const struct dat_file *df);
/*
 * A ring-buffer timestamp of that CPU as trace-cmd report shows it: TIME_SHIFT (guest to host
 * clock), TSC2NSEC or --ts2secs, then DATE, OFFSET and --ts-offset.
 */
uint64_t dat_file_cpu_ts(const struct dat_file *df, int cpu, uint64_t ts);
/* The same without the per-CPU TIME_SHIFT correction. */
uint64_t dat_file_ts(const struct dat_file *df, uint64_t ts);
/*
 * Adds to the offset of every timestamp read from now on, as trace-cmd's
 * tracecmd_add_ts_offset() (report --align-ts); --raw-ts timestamps stay raw.
 */
void dat_file_add_ts_offset(struct dat_file *df, int64_t offset);
/*
 * Registers the made-up "ftrace:blktrace" format for the blk tracer's records, as trace-cmd
 * report does once it starts reading the data (so not before -E/--events listings).
 * merge_open() calls it; calling it again does nothing.
 */
void dat_file_add_blk_event(struct dat_file *df);
/* The same for a tep of the live tracefs (stream), which has no format for them either */
void dat_tep_add_blk_event(struct tep_handle *tep);
/* Formats that libtraceevent failed to parse. */
int dat_file_parse_failures(const struct dat_file *df);

/* What became of one event format given to libtraceevent (dat_format_parse). */
enum dat_format_result {
	DAT_FORMAT_PARSED,
	DAT_FORMAT_PRINT_FAILED,	/* kept, but its print fmt is not understood */
	DAT_FORMAT_REFUSED,		/* libtraceevent refused the format: no event */
	DAT_FORMAT_CRASHES,		/* not given to libtraceevent: it would crash on it */
};

struct tep_event;

/*
 * Parses the event format fmt (of size bytes, system `system`) into tep as the file reader
 * does, with the same guards: a format that would crash libtraceevent is refused before it
 * sees it, and a failed parse leaves no state behind for the next one. *event is the event
 * added (NULL unless PARSED or PRINT_FAILED).
 */
enum dat_format_result dat_format_parse(struct tep_handle *tep, const char *fmt, size_t size,
					const char *system, struct tep_event **event);

/* The latency (text) trace, v6 "latency" data or a v7 BUFFER_TEXT section, or NULL. */
const char *dat_file_latency_text(const struct dat_file *df, uint64_t *size);

/*
 * A stream of one CPU's ring-buffer pages, each page_size bytes, decompressed chunk by chunk so
 * that memory stays bounded whatever the file size.
 */
struct dat_page_stream;

int dat_page_stream_open(struct dat_file *df, int buffer, int cpu_index,
			 struct dat_page_stream **out, struct strbuf *err);
/* 1 with *page set (valid until the next call), 0 at the end, negative errno on error. */
int dat_page_stream_next(struct dat_page_stream *ps, const void **page, struct strbuf *err);
/*
 * Where the page last returned starts: its file offset, or for compressed data its position
 * in the CPU's uncompressed data.
 */
uint64_t dat_page_stream_offset(const struct dat_page_stream *ps);
/* Before dat_file_close() of its file: the file's worker may still hold its next chunks. */
void dat_page_stream_close(struct dat_page_stream *ps);
/* The size of a CPU's data once uncompressed (its size in the file when not compressed). */
int dat_cpu_data_size(struct dat_file *df, int buffer, int cpu_index, uint64_t *size,
		      struct strbuf *err);

#endif
