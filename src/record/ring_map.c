// SPDX-License-Identifier: GPL-2.0-only
/*
 * The mapped ring buffer (ring_map.h). Facts from the kernel's include/uapi/linux/trace_mmap.h
 * and Documentation/trace/ring-buffer-map.rst: the meta page comes first in the mapping, the
 * sub-buffers (nr_subbufs of subbuf_size bytes, the reader page among them) at offset
 * meta_page_size; after TRACE_MMAP_IOCTL_GET_READER the reader page is sub-buffer reader.id.
 * A sub-buffer starts with a u64 time stamp and a long commit (the bytes of events), whose
 * top bits say that events were lost before the page and whether their count follows the data.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ktrace/rb_page.h"
#include "ring_map.h"

/* The layout of the kernel's struct trace_buffer_meta (uapi, stable since 6.10). */
struct ring_meta {
	uint32_t meta_page_size;
	uint32_t meta_struct_len;
	uint32_t subbuf_size;
	uint32_t nr_subbufs;
	struct {
		uint64_t lost_events;
		uint32_t id;
		uint32_t read;
	} reader;
	uint64_t flags;
	uint64_t entries;
	uint64_t overrun;
	uint64_t read;
	uint64_t reserved[2];
};

#define RING_GET_READER		_IO('R', 0x20)
#define PAGE_FLAGS		(RB_PAGE_MISSED | RB_PAGE_MISSED_STORED)
#define PAGE_HEADER		rb_page_header_size((int)sizeof(long))
#define SMALLEST_EVENT		8	/* a 4-byte header and one 4-byte word */

struct ring_map {
	int fd;
	const volatile struct ring_meta *meta;
	size_t meta_len;
	const char *data;
	size_t data_len;
	uint32_t page_size;
	uint32_t nr_pages;
	int64_t reader;		/* the kernel's reader page as we last saw it, -1 before */
	uint32_t read;		/* how far the kernel had consumed it then */
	bool held;		/* that page is not handed out yet */
	char *bounce;		/* a page the kernel took back before we could hand it out */
};

static const char *page_at(const struct ring_map *m, int64_t id)
{
	return m->data + (size_t)id * m->page_size;
}

static unsigned long page_commit(const char *page)
{
	return __atomic_load_n((const unsigned long *)(page + sizeof(uint64_t)), __ATOMIC_ACQUIRE);
}

static size_t page_used(unsigned long commit)
{
	size_t n = PAGE_HEADER + (commit & ~PAGE_FLAGS);

	return commit & RB_PAGE_MISSED_STORED ? n + sizeof(unsigned long) : n;
}

/* The writer has left the page: no event fits after its commit, or the kernel marked it. */
static bool page_left(const struct ring_map *m, unsigned long commit)
{
	size_t room = m->page_size - PAGE_HEADER;

	return (commit & PAGE_FLAGS) || room - (commit & ~PAGE_FLAGS) < SMALLEST_EVENT;
}

int ring_map_open(int trace_fd, uint32_t page_size, struct ring_map **out)
{
	long sys_page = sysconf(_SC_PAGESIZE);
	struct ring_map *m = calloc(1, sizeof(*m));
	void *p;
	int ret = 0;

	if (!m)
		return -ENOMEM;
	m->fd = trace_fd;
	m->reader = -1;
	m->meta_len = (size_t)sys_page;
	p = mmap(NULL, m->meta_len, PROT_READ, MAP_SHARED, trace_fd, 0);
	if (p == MAP_FAILED) {
		ret = -errno;
		free(m);
		return ret;
	}
	m->meta = p;
	m->page_size = m->meta->subbuf_size;
	m->nr_pages = m->meta->nr_subbufs;
	if (m->page_size != page_size || !m->nr_pages || m->meta->meta_page_size < m->meta_len ||
	    m->page_size <= PAGE_HEADER + SMALLEST_EVENT) {
		ring_map_close(m);
		return -EINVAL;
	}
	m->data_len = (size_t)m->page_size * m->nr_pages;
	p = mmap(NULL, m->data_len, PROT_READ, MAP_SHARED, trace_fd, m->meta->meta_page_size);
	if (p == MAP_FAILED) {
		ret = -errno;
		m->data_len = 0;
	} else {
		m->data = p;
		m->bounce = malloc(m->page_size);
		if (!m->bounce)
			ret = -ENOMEM;
	}
	if (ret) {
		ring_map_close(m);
		return ret;
	}
	*out = m;
	return 0;
}

/*
 * The held page went back to the kernel before it was handed out: the writer finished it
 * between our look and GET_READER. The writer reaches it again only after going round the
 * whole ring, so a copy is taken now and kept only if the page's header did not move meanwhile.
 */
static int take_back(struct ring_map *m, int64_t id, const void **page, size_t *len)
{
	const char *src = page_at(m, id);
	unsigned long commit = page_commit(src);

	memcpy(m->bounce, src, m->page_size);
	if (memcmp(m->bounce, src, PAGE_HEADER) || !(commit & ~PAGE_FLAGS))
		return 0;
	*page = m->bounce;
	*len = m->page_size;
	return 1;
}

/* Hands out the held page if it is finished (or flushing); 1, or 0 to keep holding it. */
static int offer_held(struct ring_map *m, bool flush, const void **page, size_t *len)
{
	const char *p = page_at(m, m->reader);
	unsigned long commit = page_commit(p);

	if (!flush && !page_left(m, commit))
		return 0;
	m->held = false;
	if (!(commit & ~PAGE_FLAGS) && !(commit & PAGE_FLAGS))
		return 0;	/* an empty page: nothing to hand out */
	*page = p;
	*len = page_left(m, commit) ? m->page_size : page_used(commit);
	return 1;
}

int ring_map_next(struct ring_map *m, bool flush, const void **page, size_t *len)
{
	int64_t id;
	int ret;

	for (;;) {
		if (m->held && offer_held(m, flush, page, len))
			return 1;
		if (ioctl(m->fd, RING_GET_READER) < 0)
			return errno == EINTR ? 0 : -errno;
		id = m->meta->reader.id;
		if (id < 0 || id >= m->nr_pages)
			return -EIO;
		if (id == m->reader) {
			bool consumed_more = m->meta->reader.read != m->read;

			m->read = m->meta->reader.read;
			if (m->held)
				return offer_held(m, flush, page, len);
			/*
			 * The page went out whole after the kernel lent it, with events that this
			 * call has only now marked consumed: the next call moves on to a new page.
			 */
			if (consumed_more)
				continue;
			return 0;
		}
		m->read = m->meta->reader.read;
		ret = m->held ? take_back(m, m->reader, page, len) : 0;
		m->reader = id;
		m->held = true;
		if (ret)
			return ret;
	}
}

void ring_map_close(struct ring_map *m)
{
	if (!m)
		return;
	if (m->data)
		munmap((void *)m->data, m->data_len);
	if (m->meta)
		munmap((void *)m->meta, m->meta_len);
	free(m->bounce);
	free(m);
}
