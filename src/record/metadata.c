// SPDX-License-Identifier: GPL-2.0-only
/*
 * Metadata collection for the trace.dat writer. Only the formats of the events that were asked
 * for are stored (trace-cmd does the same), or every event's with `all`.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "ktrace/dat_format.h"
#include "ktrace/dat_writer.h"
#include "ktrace/version.h"
#include "metadata.h"

uint32_t meta_subbuf_size(const char *trace_dir)
{
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
	uint32_t size = (uint32_t)getpagesize();
	const char *p;
	unsigned int off, len;

	strbuf_addf(&path, "%s/events/header_page", trace_dir);
	if (!strbuf_read_file(&sb, strbuf_str(&path))) {
		p = strstr(strbuf_str(&sb), "char data;");
		if (p && sscanf(p, "char data;\toffset:%u;\tsize:%u;", &off, &len) == 2)
			size = off + len;
	}
	strbuf_release(&sb);
	strbuf_release(&path);
	return size;
}

int meta_events_add(struct meta_events *ev, const char *system, const char *name)
{
	char **globs;
	int ret = 0;

	if (!system && !name) {
		ev->all = true;
		return 0;
	}
	globs = realloc(ev->globs, sizeof(*globs) * (size_t)(ev->nr + 2));
	if (!globs)
		return -ENOMEM;
	ev->globs = globs;
	/* A bare name may be a system or an event, as trace-cmd reads it. */
	if (system)
		ret = asprintf(&globs[ev->nr++], "%s/%s", system, name ? name : "*");
	else if (asprintf(&globs[ev->nr++], "%s/*", name) >= 0)
		ret = asprintf(&globs[ev->nr++], "*/%s", name);
	else
		ret = -1;
	return ret < 0 ? -ENOMEM : 0;
}

void meta_events_release(struct meta_events *ev)
{
	int i;

	for (i = 0; i < ev->nr; i++)
		free(ev->globs[i]);
	free(ev->globs);
	memset(ev, 0, sizeof(*ev));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Format files matching the globs, sorted and unique, ftrace's own excluded unless asked. */
static int find_formats(const char *events_dir, const char *const *globs, int nr, bool ftrace,
			glob_t *g)
{
	size_t i, j;
	int k, flags = 0;

	memset(g, 0, sizeof(*g));
	for (k = 0; k < nr; k++) {
		char *pattern = NULL;
		int ret;

		if (asprintf(&pattern, "%s/%s/format", events_dir, globs[k]) < 0)
			return -ENOMEM;
		ret = glob(pattern, flags, NULL, g);
		free(pattern);
		if (ret && ret != GLOB_NOMATCH)
			return -ENOMEM;
		flags = GLOB_APPEND;
	}
	if (!g->gl_pathc)
		return 0;
	qsort(g->gl_pathv, g->gl_pathc, sizeof(char *), cmp_str);
	for (i = 0, j = 0; i < g->gl_pathc; i++) {
		const char *rel = g->gl_pathv[i] + strlen(events_dir) + 1;
		bool is_ftrace = !strncmp(rel, "ftrace/", 7);

		if ((j && !strcmp(g->gl_pathv[j - 1], g->gl_pathv[i])) || is_ftrace != ftrace) {
			free(g->gl_pathv[i]);
			continue;
		}
		g->gl_pathv[j++] = g->gl_pathv[i];
	}
	g->gl_pathc = j;
	return 0;
}

struct blobs {
	struct strbuf *bufs;
	struct dat_blob *blobs;
	size_t n;
};

static void blobs_release(struct blobs *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		strbuf_release(&b->bufs[i]);
	free(b->bufs);
	free(b->blobs);
}

static int blobs_load(struct blobs *b, char **paths, size_t n)
{
	size_t i;
	int ret = 0;

	b->n = n;
	b->bufs = calloc(n + 1, sizeof(*b->bufs));
	b->blobs = calloc(n + 1, sizeof(*b->blobs));
	if (!b->bufs || !b->blobs)
		return -ENOMEM;
	for (i = 0; !ret && i < n; i++) {
		ret = strbuf_read_file(&b->bufs[i], paths[i]);
		b->blobs[i].data = b->bufs[i].buf;
		b->blobs[i].size = b->bufs[i].len;
	}
	return ret;
}

/* "EVENTS_DIR/SYSTEM/EVENT/format" -> length of SYSTEM. */
static size_t system_len(const char *events_dir, const char *path)
{
	const char *rel = path + strlen(events_dir) + 1;

	return strcspn(rel, "/");
}

static int write_event_formats(struct dat_writer *w, const char *events_dir, glob_t *g,
			       struct strbuf *err)
{
	struct dat_event_system *systems = calloc(g->gl_pathc + 1, sizeof(*systems));
	char **names = calloc(g->gl_pathc + 1, sizeof(*names));
	struct blobs b = { 0 };
	size_t i, nr = 0;
	int ret = (systems && names) ? blobs_load(&b, g->gl_pathv, g->gl_pathc) : -ENOMEM;

	for (i = 0; !ret && i < g->gl_pathc; i++) {
		const char *sys = g->gl_pathv[i] + strlen(events_dir) + 1;
		size_t len = system_len(events_dir, g->gl_pathv[i]);

		if (!nr || strlen(names[nr - 1]) != len || strncmp(names[nr - 1], sys, len)) {
			names[nr] = strndup(sys, len);
			systems[nr].name = names[nr];
			systems[nr].formats = &b.blobs[i];
			nr++;
		}
		systems[nr - 1].nr_formats++;
	}
	if (!ret)
		ret = dat_writer_event_formats(w, systems, (int)nr, err);
	else if (err)
		strbuf_addf(err, "reading the event formats under %s: %s", events_dir,
			    strerror(-ret));
	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	free(systems);
	blobs_release(&b);
	return ret;
}

static int write_formats(struct dat_writer *w, const char *trace_dir, const struct meta_events *ev,
			 struct strbuf *err)
{
	static const char *const all[] = { "*/*" };
	static const char *const ftrace[] = { "ftrace/*" };
	struct blobs b = { 0 };
	char events_dir[4096];
	glob_t g;
	int ret;

	snprintf(events_dir, sizeof(events_dir), "%s/events", trace_dir);
	ret = find_formats(events_dir, ftrace, 1, true, &g);
	if (!ret)
		ret = blobs_load(&b, g.gl_pathv, g.gl_pathc);
	if (!ret)
		ret = dat_writer_ftrace_formats(w, b.blobs, (int)b.n, err);
	else if (err)
		strbuf_addf(err, "reading %s/ftrace: %s", events_dir, strerror(-ret));
	blobs_release(&b);
	globfree(&g);
	if (ret)
		return ret;
	if (ev->all || !ev->nr)
		ret = find_formats(events_dir, all, 1, false, &g);
	else
		ret = find_formats(events_dir, (const char *const *)ev->globs, ev->nr, false, &g);
	if (!ret)
		ret = write_event_formats(w, events_dir, &g, err);
	globfree(&g);
	return ret;
}

#define BIG_FIRST	(16UL << 20)
#define BIG_READ	(1UL << 20)

/*
 * Reads a whole large file (/proc/kallsyms: 5 MB or more) into anonymous memory that asks for
 * huge pages. Its text must be whole before it is stored, as its size comes first. On a virtual
 * machine a page fault per fresh 4 KB page cost more than the kernel's making of the text.
 */
static int read_big(const char *path, struct dat_blob *b, size_t *cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *buf = MAP_FAILED;
	size_t len = 0;
	int ret = 0;

	if (fd < 0)
		return -errno;
	*cap = BIG_FIRST;
	buf = mmap(NULL, *cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		   -1, 0);
	if (buf == MAP_FAILED)
		ret = -ENOMEM;
	else
		madvise(buf, *cap, MADV_HUGEPAGE);	/* a hint: without it, 4 KB pages */
	while (!ret) {
		ssize_t n;

		if (*cap - len < BIG_READ) {
			char *grown = mremap(buf, *cap, *cap * 2, MREMAP_MAYMOVE);

			if (grown == MAP_FAILED) {
				ret = -ENOMEM;
				break;
			}
			buf = grown;
			*cap *= 2;
		}
		n = read(fd, buf + len, BIG_READ);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : 0;
			break;
		}
		len += (size_t)n;
	}
	close(fd);
	if (ret && buf != MAP_FAILED)
		munmap(buf, *cap);
	b->data = ret || buf == MAP_FAILED ? NULL : buf;
	b->size = ret ? 0 : len;
	return ret;
}

static int write_file_part(struct dat_writer *w, const char *path, bool big,
			   int (*fn)(struct dat_writer *, const struct dat_blob *, struct strbuf *),
			   struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	struct dat_blob blob = { 0 };
	size_t cap = 0;
	int ret = big ? read_big(path, &blob, &cap) : strbuf_read_file(&sb, path);

	/* A missing kallsyms or printk_formats is stored empty, as trace-cmd does. */
	if (ret == -ENOENT)
		ret = 0;
	if (!big) {
		blob.data = sb.buf;
		blob.size = sb.len;
	}
	if (!ret)
		ret = fn(w, &blob, err);
	else if (err)
		strbuf_addf(err, "reading %s: %s", path, strerror(-ret));
	strbuf_release(&sb);
	if (big && blob.data)
		munmap((void *)blob.data, cap);
	return ret;
}

static int write_headers(struct dat_writer *w, const char *trace_dir, struct strbuf *err)
{
	struct strbuf page = STRBUF_INIT, event = STRBUF_INIT, path = STRBUF_INIT;
	struct dat_blob bp, be;
	int ret;

	strbuf_addf(&path, "%s/events/header_page", trace_dir);
	ret = strbuf_read_file(&page, strbuf_str(&path));
	if (!ret) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/events/header_event", trace_dir);
		ret = strbuf_read_file(&event, strbuf_str(&path));
	}
	bp.data = page.buf;
	bp.size = page.len;
	be.data = event.buf;
	be.size = event.len;
	if (!ret)
		ret = dat_writer_headers(w, &bp, &be, err);
	else if (err)
		strbuf_addf(err, "reading %s: %s", strbuf_str(&path), strerror(-ret));
	strbuf_release(&page);
	strbuf_release(&event);
	strbuf_release(&path);
	return ret;
}

int meta_write_sections(struct dat_writer *w, const char *trace_dir, const struct meta_events *ev,
			struct strbuf *err)
{
	return meta_write_sections_from(w, trace_dir, "/proc/kallsyms", ev, err);
}

int meta_write_sections_from(struct dat_writer *w, const char *trace_dir, const char *kallsyms,
			     const struct meta_events *ev, struct strbuf *err)
{
	char path[4096];
	int ret;

	ret = write_headers(w, trace_dir, err);
	if (!ret)
		ret = write_formats(w, trace_dir, ev, err);
	if (!ret)
		ret = write_file_part(w, kallsyms, true, dat_writer_kallsyms, err);
	snprintf(path, sizeof(path), "%s/printk_formats", trace_dir);
	if (!ret)
		ret = write_file_part(w, path, false, dat_writer_printk, err);
	snprintf(path, sizeof(path), "%s/saved_cmdlines", trace_dir);
	if (!ret)
		ret = write_file_part(w, path, false, dat_writer_cmdlines, err);
	return ret;
}

static int add_text_option(struct dat_writer *w, uint16_t id, const char *text)
{
	return dat_writer_add_option(w, id, text, (uint32_t)strlen(text) + 1);
}

static int add_clock_option(struct dat_writer *w, const char *trace_dir)
{
	struct strbuf path = STRBUF_INIT, clocks = STRBUF_INIT;
	int ret;

	strbuf_addf(&path, "%s/trace_clock", trace_dir);
	ret = strbuf_read_file(&clocks, strbuf_str(&path));
	if (!ret)
		ret = add_text_option(w, DAT_OPT_TRACECLOCK, strbuf_str(&clocks));
	strbuf_release(&clocks);
	strbuf_release(&path);
	return ret;
}

int meta_add_options(struct dat_writer *w, const char *trace_dir, int nr_cpus, uint64_t trace_id)
{
	struct strbuf sb = STRBUF_INIT;
	struct utsname u;
	uint64_t id = trace_id;
	int ret;

	ret = trace_dir ? add_clock_option(w, trace_dir) : 0;
	if (!ret && !uname(&u)) {
		strbuf_addf(&sb, "%s %s %s %s", u.sysname, u.nodename, u.release, u.machine);
		ret = add_text_option(w, DAT_OPT_UNAME, strbuf_str(&sb));
	}
	if (!ret)
		ret = add_text_option(w, DAT_OPT_VERSION, "ktrace " KTRACE_VERSION);
	if (!ret && !id && getrandom(&id, sizeof(id), 0) != sizeof(id))
		id = (uint64_t)getpid() << 32 ^ (uint64_t)time(NULL);
	if (!ret)
		ret = dat_writer_add_option(w, DAT_OPT_TRACEID, &id, sizeof(id));
	if (!ret)
		ret = dat_writer_cpu_count(w, nr_cpus);
	strbuf_release(&sb);
	return ret;
}

int meta_add_cpustats(struct dat_writer *w, const char *trace_dir, const char *name, int nr_cpus)
{
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
	int ret = 0, cpu;

	if (name) {
		strbuf_addf(&sb, "\nBuffer: %s\n\n", name);
		ret = add_text_option(w, DAT_OPT_CPUSTAT, strbuf_str(&sb));
	}
	for (cpu = 0; !ret && cpu < nr_cpus; cpu++) {
		strbuf_reset(&sb);
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/per_cpu/cpu%d/stats", trace_dir, cpu);
		strbuf_addf(&sb, "CPU: %d\n", cpu);
		ret = strbuf_read_file(&sb, strbuf_str(&path));
		if (!ret)
			ret = add_text_option(w, DAT_OPT_CPUSTAT, strbuf_str(&sb));
	}
	strbuf_release(&sb);
	strbuf_release(&path);
	return ret;
}

char *meta_selected_clock(const char *trace_dir)
{
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
	const char *open_br, *close_br;
	char *clock = NULL;

	strbuf_addf(&path, "%s/trace_clock", trace_dir);
	if (!strbuf_read_file(&sb, strbuf_str(&path))) {
		open_br = strchr(strbuf_str(&sb), '[');
		close_br = open_br ? strchr(open_br, ']') : NULL;
		if (close_br)
			clock = strndup(open_br + 1, (size_t)(close_br - open_br - 1));
	}
	strbuf_release(&sb);
	strbuf_release(&path);
	return clock ? clock : strdup("local");
}
