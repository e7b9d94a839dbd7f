/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_DAT_INTERNAL_H
#define KTRACE_DAT_INTERNAL_H

/*
 * What the files of src/dat/ share about an open trace.dat file. Nothing outside src/dat/
 * includes this: the rest of ktrace goes through dat.h.
 */
#include <stdbool.h>
#include <stdint.h>

#include "ktrace/compress.h"
#include "ktrace/dat.h"
#include "ktrace/strbuf.h"

/* Sanity limits: anything above them in a file is taken as corruption, not as a request. */
#define DAT_MAX_CPUS		8192
#define DAT_MIN_PAGE_SIZE	1024
#define DAT_MAX_PAGE_SIZE	(1u << 20)
#define DAT_MAX_SECTION		(256ull << 20)	/* uncompressed metadata section */
#define DAT_MAX_CHUNK		(64u << 20)	/* uncompressed flyrecord chunk */
#define DAT_MAX_STRING		4096		/* a name inside metadata */
#define DAT_MAX_BUFFERS		1024
#define DAT_MAX_OPTION_SECTIONS	4096
#define DAT_MAX_SECTIONS	(1 << 20)
#define DAT_MAX_OPTIONS		(1 << 20)

struct tep_handle;
struct dat_tsync;

/* One option, in file order; `data` points into storage owned by the dat_file. */
struct dat_opt {
	uint16_t id;
	uint32_t size;
	const uint8_t *data;
	uint64_t offset;	/* file offset of the payload, or of its compressed section */
	int section;		/* index into dat_file.opt_sections; -1 for v6 */
};

struct dat_file {
	char *path;
	const char *name;	/* the path as given, for messages */
	int fd;
	uint64_t file_size;
	int version;
	bool big_endian;
	int long_size;		/* from the header; the kernel's long size once header_page is read */
	uint32_t page_size;
	enum kt_compression comp;
	char *comp_name;
	char *comp_version;
	struct kt_codec *codec;
	struct dat_open_opts opts;

	struct tep_handle *tep;
	/* opts.defer_kallsyms: where the KALLSYMS text waits, and the table it goes into */
	struct dat_section ksym_sec;
	bool ksym_pending;
	struct dat_symtab *ksyms;	/* built on the first need, then the resolver's */
	int ksym_ret;
	struct strbuf ksym_err;

	/* v7: metadata strings (concatenated STRINGS sections) */
	char *strings;
	uint64_t strings_size;
	uint64_t options_start;

	struct dat_section *sections;	/* v7 sequential walk */
	int nr_sections;
	struct dat_section *opt_sections;
	int nr_opt_sections;
	uint8_t **blobs;		/* storage the options point into */
	int nr_blobs;

	struct dat_opt *opts_list;
	int nr_opts;

	struct dat_buffer *buffers;
	int nr_buffers;

	struct dat_meta_summary meta;
	char *v6_clock;
	uint64_t v6_block_start[6];	/* HEADER_INFO..CMDLINES blocks of a v6 file */
	uint64_t v6_block_end[6];
	uint8_t *latency;	/* v6 latency text */
	uint64_t latency_size;

	/* timestamp handling, as trace-cmd applies it */
	int nr_cpus;
	char *trace_clock;
	bool in_usecs;
	bool use_trace_clock;
	int64_t ts_offset;
	uint32_t tsc_mult;
	uint32_t tsc_shift;
	uint64_t tsc_offset;
	int parse_failures;
	struct dat_tsync *tsync;	/* TIME_SHIFT samples of a guest recording, or NULL */
	struct dat_ahead *ahead;	/* opts.decompress_ahead's worker, once a stream needs it */
	bool ahead_tried;		/* one try at starting it */
	bool blk_done;			/* dat_file_add_blk_event() ran */
};

/* A bounded reader over either a memory block or a region of the file. */
struct dat_in {
	struct dat_file *df;
	const char *what;	/* section or option name for messages */
	const uint8_t *mem;	/* NULL: read from the file */
	uint64_t base;		/* file offset that position 0 stands for (messages) */
	uint64_t pos;
	uint64_t end;
	bool in_compressed;	/* positions are inside decompressed data */
	struct strbuf scratch;	/* file mode: holds the last blob or string */
};

int dat_err(struct strbuf *err, const struct dat_file *df, const char *what, uint64_t off,
	    int ret, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
int dat_in_err(struct strbuf *err, const struct dat_in *in, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

uint16_t dat_get16(const struct dat_file *df, const void *p);
uint32_t dat_get32(const struct dat_file *df, const void *p);
uint64_t dat_get64(const struct dat_file *df, const void *p);

/* Reads exactly len bytes at off; -EIO/-ENODATA with a message otherwise. */
int dat_pread(struct dat_file *df, void *buf, size_t len, uint64_t off, const char *what,
	      struct strbuf *err);

void dat_in_mem(struct dat_in *in, struct dat_file *df, const char *what, const void *mem,
		uint64_t len, uint64_t base, bool compressed);
void dat_in_file(struct dat_in *in, struct dat_file *df, const char *what, uint64_t off,
		 uint64_t end);
void dat_in_release(struct dat_in *in);
uint64_t dat_in_offset(const struct dat_in *in);
int dat_in_u16(struct dat_in *in, uint16_t *v, struct strbuf *err);
int dat_in_u32(struct dat_in *in, uint32_t *v, struct strbuf *err);
int dat_in_u64(struct dat_in *in, uint64_t *v, struct strbuf *err);
/* *p points to len bytes, valid until the next call on `in`. */
int dat_in_blob(struct dat_in *in, uint64_t len, const uint8_t **p, struct strbuf *err);
/* Steps over len bytes without reading them. */
int dat_in_skip(struct dat_in *in, uint64_t len, struct strbuf *err);
/* A NUL-terminated string of at most `max` bytes. */
int dat_in_str(struct dat_in *in, size_t max, const char **s, struct strbuf *err);

/* v7 sections (dat_section.c) */
#define DAT_SECTION_HEADER_SIZE	16	/* id, flags, description id, size */
int dat_section_header(struct dat_file *df, uint64_t off, struct dat_section *sec,
		       struct strbuf *err);
/* Loads a metadata section's payload, decompressed; *data is malloc'ed. */
int dat_section_load(struct dat_file *df, const struct dat_section *sec, uint8_t **data,
		     uint64_t *size, struct strbuf *err);
int dat_sections_walk(struct dat_file *df, uint64_t start, struct strbuf *err);
const char *dat_string(const struct dat_file *df, uint32_t id);

/* options (dat_options.c) */
int dat_options_v7(struct dat_file *df, struct strbuf *err);
int dat_options_v6(struct dat_file *df, uint64_t off, uint64_t *end, struct strbuf *err);
int dat_option_apply(struct dat_file *df, const struct dat_opt *opt, struct strbuf *err);
/* A new, zeroed buffer, or the one of that name emptied for its new description. */
struct dat_buffer *dat_buffer_add(struct dat_file *df, const char *name);
void dat_parse_trace_clock(struct dat_file *df, const char *text, size_t len);

/* 0 for an event format that would crash libtraceevent (dat_format_guard.c) */
int dat_format_is_safe(const char *fmt, size_t size);
/*
 * 0 when a field of the format ends past record_max (the file's page size): no record can hold
 * it, and printing one reads that far past the record (fuzz_format: offset 99932).
 */
int dat_format_fits(const char *fmt, size_t size, uint32_t record_max);
/* after libtraceevent failed on a format's text: the next parse must not inherit its state */
void dat_format_parse_failed(void);

/* metadata into libtraceevent (dat_meta.c) */
int dat_meta_header_info(struct dat_in *in, struct strbuf *err);
int dat_meta_ftrace(struct dat_in *in, struct strbuf *err);
int dat_meta_events(struct dat_in *in, struct strbuf *err);
int dat_meta_kallsyms(struct dat_in *in, struct strbuf *err);
int dat_meta_printk(struct dat_in *in, struct strbuf *err);
int dat_meta_cmdlines(struct dat_in *in, struct strbuf *err);

/* A job for the file's worker thread (dat_ahead.c), run without the lock held. */
struct dat_ahead;
struct dat_ahead_job {
	struct dat_ahead_job *next;
	void (*run)(struct dat_ahead_job *job, struct dat_ahead *a);
};

bool dat_ahead_useful(void);
int dat_ahead_start(struct dat_ahead **out);
void dat_ahead_lock(struct dat_ahead *a);
void dat_ahead_unlock(struct dat_ahead *a);
void dat_ahead_submit_locked(struct dat_ahead *a, struct dat_ahead_job *job);
void dat_ahead_wait_locked(struct dat_ahead *a);
void dat_ahead_progress_locked(struct dat_ahead *a);
void dat_ahead_stop(struct dat_ahead *a);

/* TIME_SHIFT (dat_tsync.c) */
int dat_tsync_load(struct dat_file *df, const void *data, uint32_t size, uint64_t offset,
		   struct strbuf *err);
uint64_t dat_tsync_apply(const struct dat_tsync *t, int cpu, uint64_t ts);
void dat_tsync_free(struct dat_tsync *t);

/* One symbol of a kallsyms line, as tep_parse_kallsyms() reads it; pointers into the line */
struct dat_ksym {
	unsigned long long addr;
	char type;
	char *name;
	char *mod;	/* NULL, or the module name, its ']' cut off */
};
/* Where the symbols of dat_kallsyms_line() go; non-zero stops the text there. */
typedef int (*dat_ksym_fn)(void *arg, const struct dat_ksym *k);

/* /proc/kallsyms text into tep, as tep_parse_kallsyms() does but faster; modifies text */
void dat_load_kallsyms(struct tep_handle *tep, const char *text, size_t len);
/*
 * One line of that text (no newline) to fn, unless libtraceevent skips its symbol; -1 when
 * tep_parse_kallsyms() would stop at it or fn failed.
 */
int dat_kallsyms_line(const char *text, size_t len, dat_ksym_fn fn, void *arg);

/* kallsyms as a compact table for lookups by address (dat_symtab.c) */
#define DAT_SYM_NO_MOD	UINT32_MAX
struct dat_sym {
	uint64_t addr;
	uint32_t name;	/* offsets into the names */
	uint32_t mod;	/* DAT_SYM_NO_MOD: none */
};
struct dat_symtab {
	struct dat_sym *syms;	/* sorted by dat_symtab_finish() */
	size_t nr, alloc;
	struct strbuf names;	/* NUL-terminated names, module names once per run */
	uint32_t last_mod;
};
/* text_len: the kallsyms text's, to reserve room for that much */
int dat_symtab_new(size_t text_len, struct dat_symtab **out);
int dat_symtab_add(struct dat_symtab *t, const struct dat_ksym *k);
void dat_symtab_finish(struct dat_symtab *t);
/* The symbol libtraceevent's own list would give for addr, or NULL */
const struct dat_sym *dat_symtab_find(const struct dat_symtab *t, uint64_t addr);
void dat_symtab_free(struct dat_symtab *t);

static inline const char *dat_sym_name(const struct dat_symtab *t, const struct dat_sym *s)
{
	return t->names.buf + s->name;
}

static inline const char *dat_sym_mod(const struct dat_symtab *t, const struct dat_sym *s)
{
	return s->mod == DAT_SYM_NO_MOD ? NULL : t->names.buf + s->mod;
}
/* Registers in tep the symbols of t that its print formats name (dat_kallsyms_names.c) */
int dat_kallsyms_register_named(struct tep_handle *tep, const struct dat_symtab *t);
/* opts.defer_kallsyms: the section (v6: the block, as an uncompressed section) is read later */
int dat_defer_kallsyms(struct dat_file *df, const struct dat_section *sec, struct strbuf *err);
void dat_kallsyms_free(struct dat_file *df);

/* v6 layout (dat_v6.c) and v7 layout (dat_v7.c) */
int dat_read_v6(struct dat_file *df, uint64_t off, struct strbuf *err);
int dat_read_v7(struct dat_file *df, uint64_t off, struct strbuf *err);

#endif
