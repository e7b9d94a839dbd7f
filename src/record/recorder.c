// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-CPU recorder threads (see recorder.h for the design). While tracing runs only whole pages
 * are spliced: the page the kernel is still writing stays in the ring buffer. After tracing was
 * switched off, read() on the non-blocking trace_pipe_raw hands out the partial last page too.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "ktrace/dat_chunk.h"
#include "ktrace/fdio.h"
#include "recorder.h"
#include "ring_map.h"

#define PIPE_BYTES	(256U << 10)
#define IDLE_PAUSE_MS	10
#define CHUNK_PAGES	16	/* pages per compressed chunk: trace-cmd uses 10; bigger packs better */

struct recorder {
	struct recorder_config cfg;
	pthread_t thread;
	bool running;
	sem_t ready;
	int trace_fd;
	int pipe_rd, pipe_wr;
	size_t pipe_cap;
	int stop_fd;
	_Atomic pid_t tid;
	_Atomic uint64_t raw_bytes;
	_Atomic uint64_t file_bytes;
	_Atomic uint32_t nr_chunks;
	/* -m: two files used in turn, each holding at most half of max_bytes */
	int fds[2];
	int cur;
	uint64_t bytes[2];
	uint32_t chunks[2];
	bool rotated;
	int error;
	bool ring_woke;		/* the last wait ended on the ring buffer's wake-up */
	struct kt_codec *codec;
	char *chunk;		/* raw pages waiting to be compressed */
	size_t chunk_len, chunk_cap;
	char *zbuf;		/* chunk header + compressed chunk */
	size_t zcap;
	struct ring_map *map;	/* the mapped ring buffer; NULL: splice */
	bool feeding;		/* mapped: a chunk is being fed to the codec */
	size_t zlen;		/* mapped: bytes in zbuf, the chunk header included */
	char *zero_page;	/* mapped: pads the last, partial page */
};

/*
 * Counts bytes written to the current file; with -m, once it holds half the limit the other
 * file is emptied and takes over, so that the newest data is kept (as trace-cmd -m does).
 */
static int account(struct recorder *r, uint64_t n)
{
	r->bytes[r->cur] += n;
	r->file_bytes = r->bytes[0] + r->bytes[1];
	r->nr_chunks = r->chunks[0] + r->chunks[1];
	if (!r->cfg.max_bytes || r->bytes[r->cur] < r->cfg.max_bytes / 2)
		return 0;
	r->cur ^= 1;
	r->bytes[r->cur] = 0;
	r->chunks[r->cur] = 0;
	r->rotated = true;
	if (ftruncate(r->fds[r->cur], 0) || lseek(r->fds[r->cur], 0, SEEK_SET) < 0)
		return -errno;
	return 0;
}

/* -m at the end: the older file, then the newer one appended to it, is the CPU's data. */
static int join_files(struct recorder *r)
{
	int older = r->cur ^ 1;
	loff_t in = 0, out = (loff_t)r->bytes[older];
	uint64_t left = r->bytes[r->cur];

	while (left) {
		ssize_t n = copy_file_range(r->fds[r->cur], &in, r->fds[older], &out, left, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		left -= (uint64_t)n;
	}
	r->bytes[older] += r->bytes[r->cur];
	r->chunks[older] += r->chunks[r->cur];
	r->bytes[r->cur] = 0;
	r->chunks[r->cur] = 0;
	r->cur = older;
	return 0;
}

static int end_feed(struct recorder *r);

static int flush_chunk(struct recorder *r)
{
	size_t len;
	int ret;

	if (r->feeding)
		return end_feed(r);
	if (!r->chunk_len)
		return 0;
	ret = dat_chunk_pack(r->codec, r->chunk, r->chunk_len, DAT_HOST_BIG_ENDIAN, r->zbuf,
			     r->zcap, &len);
	if (ret)
		return ret;
	ret = fd_write_all(r->fds[r->cur], r->zbuf, len);
	if (ret)
		return ret;
	r->chunks[r->cur]++;
	r->chunk_len = 0;
	return account(r, len);
}

static int add_to_chunk(struct recorder *r, const char *data, size_t len)
{
	int ret = 0;

	while (!ret && len) {
		size_t n = r->chunk_cap - r->chunk_len;

		n = n < len ? n : len;
		memcpy(r->chunk + r->chunk_len, data, n);
		r->chunk_len += n;
		data += n;
		len -= n;
		if (r->chunk_len == r->chunk_cap)
			ret = flush_chunk(r);
	}
	return ret;
}

/* The codec's output for the chunk in zbuf, after its header. */
static int add_to_zbuf(void *arg, const void *data, size_t len)
{
	struct recorder *r = arg;

	if (len > r->zcap - r->zlen)
		return -ENOSPC;
	memcpy(r->zbuf + r->zlen, data, len);
	r->zlen += len;
	return 0;
}

static int end_feed(struct recorder *r)
{
	int ret = kt_codec_feed_end(r->codec, add_to_zbuf, r);

	r->feeding = false;
	if (ret)
		return ret;
	dat_chunk_header_put(r->zbuf, (uint32_t)(r->zlen - DAT_CHUNK_HEADER_SIZE),
			     (uint32_t)r->chunk_len, DAT_HOST_BIG_ENDIAN);
	ret = fd_write_all(r->fds[r->cur], r->zbuf, r->zlen);
	if (ret)
		return ret;
	r->chunks[r->cur]++;
	r->chunk_len = 0;
	return account(r, r->zlen);
}

/*
 * Mapped: one page, `used` bytes of it from the mapping and zeros after them (a partial page
 * at the end, as read() gives it to the splice path), fed to the chunk or written as it is.
 */
static int take_mapped_page(struct recorder *r, const char *page, size_t used)
{
	size_t ps = r->cfg.page_size;
	int ret;

	r->raw_bytes += ps;
	if (!r->codec) {
		ret = fd_write_all(r->fds[r->cur], page, used);
		if (!ret && used < ps)
			ret = fd_write_all(r->fds[r->cur], r->zero_page, ps - used);
		return ret ? ret : account(r, ps);
	}
	if (!r->feeding) {
		ret = kt_codec_feed_begin(r->codec);
		if (ret)
			return ret;
		r->feeding = true;
		r->zlen = DAT_CHUNK_HEADER_SIZE;
		r->chunk_len = 0;
	}
	ret = kt_codec_feed(r->codec, page, used, add_to_zbuf, r);
	if (!ret && used < ps)
		ret = kt_codec_feed(r->codec, r->zero_page, ps - used, add_to_zbuf, r);
	if (ret)
		return ret;
	r->chunk_len += ps;
	return r->chunk_len == r->chunk_cap ? end_feed(r) : 0;
}

/* Every page the mapping hands out now (with `flush`, the partial last one too). */
static long drain_mapped(struct recorder *r, bool flush)
{
	long total = 0;

	for (;;) {
		const void *page;
		size_t used;
		int ret = ring_map_next(r->map, flush, &page, &used);

		if (ret <= 0)
			return ret < 0 ? ret : total;
		ret = take_mapped_page(r, page, used);
		if (ret)
			return ret;
		total += (long)r->cfg.page_size;
	}
}

/*
 * UDP: the listener takes each datagram for one page, so every page leaves in one write of its
 * own. The pipe holds whole pages only (splice moves whole pages out of trace_pipe_raw).
 */
static int send_datagrams(struct recorder *r, size_t len)
{
	size_t ps = r->cfg.page_size, have;
	ssize_t n;
	int ret;

	for (; len >= ps; len -= ps) {
		for (have = 0; have < ps; have += (size_t)n) {
			n = read(r->pipe_rd, r->chunk + have, ps - have);
			if (n < 0 && errno == EINTR) {
				n = 0;
				continue;
			}
			if (n <= 0)
				return n < 0 ? -errno : -EIO;
		}
		ret = fd_write_all(r->fds[r->cur], r->chunk, ps);
		if (!ret)
			ret = account(r, ps);
		if (ret)
			return ret;
	}
	return len ? -EIO : 0;
}

/* Moves `len` bytes that sit in the pipe to the temp file, compressing when asked to. */
static int empty_pipe(struct recorder *r, size_t len)
{
	if (r->cfg.datagram)
		return send_datagrams(r, len);
	while (len) {
		ssize_t n;

		if (r->codec) {
			size_t room = r->chunk_cap - r->chunk_len;

			n = read(r->pipe_rd, r->chunk + r->chunk_len, room < len ? room : len);
			if (n > 0) {
				int ret = 0;

				r->chunk_len += (size_t)n;
				if (r->chunk_len == r->chunk_cap)
					ret = flush_chunk(r);
				/* keep the cause (ENOSPC, EDQUOT...) for the message at the top */
				if (ret)
					return ret;
			}
		} else {
			n = splice(r->pipe_rd, NULL, r->fds[r->cur], NULL, len, SPLICE_F_MOVE);
			if (n > 0) {
				int ret = account(r, (uint64_t)n);

				if (ret)
					return ret;
			}
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		len -= (size_t)n;
	}
	return 0;
}

static bool taken_enough(const struct recorder *r)
{
	return r->cfg.take_at_most && r->raw_bytes >= r->cfg.take_at_most;
}

/* Splices every full page the ring buffer holds; returns the bytes moved or negative errno. */
static long drain_full_pages(struct recorder *r)
{
	long total = 0;

	for (;;) {
		ssize_t n;
		int ret;

		if (taken_enough(r))
			return total;
		n = splice(r->trace_fd, NULL, r->pipe_wr, NULL, r->pipe_cap,
			   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return total;
		if (n <= 0)
			return n < 0 ? -errno : total;
		r->raw_bytes += (uint64_t)n;
		ret = empty_pipe(r, (size_t)n);
		if (ret)
			return ret;
		total += n;
	}
}

/* After tracing stopped: the partial pages that splice leaves behind, one read() per page. */
static int take_partial_pages(struct recorder *r)
{
	size_t ps = r->cfg.page_size;
	char *page = calloc(1, ps);
	int ret = 0;

	if (!page)
		return -ENOMEM;
	while (!taken_enough(r)) {
		ssize_t n = read(r->trace_fd, page, ps);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0 && errno != EAGAIN)
				ret = -errno;
			break;
		}
		/* Keep the file a whole number of pages even if a read came short. */
		memset(page + n, 0, ps - (size_t)n);
		r->raw_bytes += ps;
		if (r->codec) {
			ret = add_to_chunk(r, page, ps);
		} else {
			ret = fd_write_all(r->fds[r->cur], page, ps);
			if (!ret)
				ret = account(r, ps);
		}
		/*
		 * Tracing still on (a flight recorder's save): the first read took the writer's
		 * page; the next would take the few events written since, page after page.
		 */
		if (ret || r->cfg.take_at_most)
			break;
	}
	free(page);
	return ret;
}

/*
 * Sleeps until stop, the ring buffer's wake-up (at buffer_percent fill), or the timeout. With
 * buffer_percent 0 the ring buffer is "readable" as soon as a partial page exists, which splice
 * will not take: after a wake-up that brought nothing, pause briefly instead of spinning.
 */
static bool wait_for_work(struct recorder *r, bool idle_wakeup)
{
	struct pollfd fds[2] = {
		{ .fd = r->stop_fd, .events = POLLIN },
		{ .fd = r->trace_fd, .events = POLLIN },
	};
	int timeout = idle_wakeup ? IDLE_PAUSE_MS : r->cfg.wait_ms;
	bool ring = !idle_wakeup && !r->cfg.no_ring_wait;

	if (poll(fds, ring ? 2 : 1, timeout) < 0 && errno != EINTR)
		return true;
	r->ring_woke = fds[1].revents & POLLIN;
	return fds[0].revents & POLLIN;
}

static void *recorder_main(void *arg)
{
	struct recorder *r = arg;
	long moved = 0;
	int ret = 0;

	r->tid = gettid();
	sem_post(&r->ready);
	do {
		moved = r->map ? drain_mapped(r, false) : drain_full_pages(r);
		if (moved < 0) {
			ret = (int)moved;
			break;
		}
	} while (!wait_for_work(r, moved == 0 && r->ring_woke));
	if (!ret && r->map) {
		moved = drain_mapped(r, true);
		ret = moved < 0 ? (int)moved : 0;
	} else if (!ret) {
		moved = drain_full_pages(r);
		ret = moved < 0 ? (int)moved : take_partial_pages(r);
	}
	if (!ret && r->codec)
		ret = flush_chunk(r);
	if (!ret && r->rotated)
		ret = join_files(r);
	r->file_bytes = r->bytes[r->cur];
	r->nr_chunks = r->chunks[r->cur];
	r->error = ret;
	return NULL;
}

/*
 * The mapping unless told to splice; 0 once mapped, 1 to splice instead, negative errno when
 * the mapping was demanded and refused. ENODEV (no mapping before 6.10) becomes EOPNOTSUPP, so
 * that it does not read as a CPU without a ring buffer.
 */
static int open_mapping(struct recorder *r)
{
	int ret;

	if (r->cfg.read == RECORDER_READ_SPLICE || r->cfg.datagram)
		return 1;
	ret = ring_map_open(r->trace_fd, r->cfg.page_size, &r->map);
	if (ret && r->cfg.read == RECORDER_READ_AUTO)
		return 1;
	if (ret)
		return ret == -ENODEV ? -EOPNOTSUPP : ret;
	r->zero_page = calloc(1, r->cfg.page_size);
	return r->zero_page ? 0 : -ENOMEM;
}

static int open_files(struct recorder *r)
{
	char path[4096];
	int fds[2], ret;

	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/%s", r->cfg.trace_dir, r->cfg.cpu,
		 r->cfg.raw_file ? r->cfg.raw_file : "trace_pipe_raw");
	r->trace_fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (r->trace_fd < 0)
		return -errno;
	r->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (r->stop_fd < 0)
		return -errno;
	ret = open_mapping(r);
	if (ret <= 0)
		return ret;
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	r->pipe_rd = fds[0];
	r->pipe_wr = fds[1];
	/* A bigger pipe moves more pages per splice; keep the default if the limit refuses. */
	fcntl(r->pipe_wr, F_SETPIPE_SZ, PIPE_BYTES);
	r->pipe_cap = (size_t)fcntl(r->pipe_wr, F_GETPIPE_SZ);
	r->pipe_cap -= r->pipe_cap % r->cfg.page_size;
	return r->pipe_cap ? 0 : -EINVAL;
}

static int alloc_codec(struct recorder *r)
{
	int ret;

	if (r->cfg.datagram) {
		r->chunk = malloc(r->cfg.page_size);
		return r->chunk ? 0 : -ENOMEM;
	}
	if (r->cfg.compression == KT_COMP_NONE)
		return 0;
	ret = kt_codec_new(r->cfg.compression, &r->codec);
	if (ret)
		return ret;
	r->chunk_cap = (size_t)CHUNK_PAGES * r->cfg.page_size;
	r->zcap = dat_chunk_bound(r->cfg.compression, r->chunk_cap);
	r->chunk = malloc(r->chunk_cap);
	r->zbuf = malloc(r->zcap);
	return r->chunk && r->zbuf ? 0 : -ENOMEM;
}

/* Signals go to the main thread, which owns the stop logic. */
static int spawn(struct recorder *r)
{
	sigset_t all, old;
	int ret;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = -pthread_create(&r->thread, NULL, recorder_main, r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret)
		return ret;
	r->running = true;
	while (sem_wait(&r->ready) && errno == EINTR)
		;
	return 0;
}

int recorder_start(const struct recorder_config *cfg, struct recorder **out)
{
	struct recorder *r = calloc(1, sizeof(*r));
	int ret;

	if (!r)
		return -ENOMEM;
	r->cfg = *cfg;
	r->fds[0] = cfg->out_fd;
	r->fds[1] = cfg->spare_fd;
	if (cfg->max_bytes && cfg->spare_fd < 0) {
		free(r);
		return -EINVAL;
	}
	r->trace_fd = r->pipe_rd = r->pipe_wr = r->stop_fd = -1;
	sem_init(&r->ready, 0, 0);
	ret = open_files(r);
	if (!ret)
		ret = alloc_codec(r);
	if (!ret)
		ret = spawn(r);
	if (ret) {
		recorder_free(r);
		return ret;
	}
	*out = r;
	return 0;
}

int recorder_set_rt_prio(struct recorder *r, int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return -pthread_setschedparam(r->thread, SCHED_FIFO, &sp);
}

pid_t recorder_tid(const struct recorder *r)
{
	return r->tid;
}

void recorder_get_stats(const struct recorder *r, struct recorder_stats *st)
{
	st->raw_bytes = r->raw_bytes;
	st->file_bytes = r->file_bytes;
	st->fd = r->fds[r->cur];
	st->nr_chunks = r->nr_chunks;
	st->mapped = r->map != NULL;
}

int recorder_finish(struct recorder *r)
{
	uint64_t one = 1;

	if (!r->running)
		return r->error;
	if (write(r->stop_fd, &one, sizeof(one)) < 0)
		return -errno;
	pthread_join(r->thread, NULL);
	r->running = false;
	return r->error;
}

void recorder_free(struct recorder *r)
{
	if (!r)
		return;
	if (r->running)
		recorder_finish(r);
	if (r->trace_fd >= 0)
		close(r->trace_fd);
	if (r->pipe_rd >= 0)
		close(r->pipe_rd);
	if (r->pipe_wr >= 0)
		close(r->pipe_wr);
	if (r->stop_fd >= 0)
		close(r->stop_fd);
	ring_map_close(r->map);
	free(r->zero_page);
	sem_destroy(&r->ready);
	kt_codec_free(r->codec);
	free(r->chunk);
	free(r->zbuf);
	free(r);
}
