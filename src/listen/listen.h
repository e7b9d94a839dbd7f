/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_LISTEN_PRIV_H
#define KTRACE_LISTEN_PRIV_H

/*
 * Private to src/listen: the listener's configuration, log, server, sessions, channels and
 * recovery. The file itself is completed by src/dat (dat_append.h).
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <poll.h>
#include <sys/socket.h>

#include "ktrace/compress.h"
#include "ktrace/dat_append.h"
#include "ktrace/net_cidr.h"
#include "ktrace/net_conn.h"
#include "ktrace/strbuf.h"

struct listen_config {
	const char *port;
	const char *dir;
	const char *base;
	const char *bind_addr;		/* NULL: every address */
	const char *logfile;
	int daemonize;
	unsigned int max_clients;
	uint32_t max_msg;		/* largest protocol message accepted */
	uint64_t max_file;		/* bytes one client may make us store */
	unsigned int timeout_ms;	/* silence allowed before the recording starts */
	unsigned int drain_ms;		/* wait for per-CPU data after CLOSE */
	struct net_tls_opts tls;	/* --tls-*: every TCP connection is TLS */
	struct net_cidr *allow;		/* --allow: clients outside every range are refused */
	unsigned int nr_allow;
	bool debug;			/* --debug: trace-cmd's debug lines (port, messages) */
	int log_level;			/* --verbose: trace-cmd's level, 0 (none) to 6 (all) */
};

struct listen_log {
	FILE *fp;
};

/* One line per incident, prefixed with the time; never fails the caller. */
void listen_logf(struct listen_log *log, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

int listen_server_run(const struct listen_config *cfg, int dir_fd, struct listen_log *log);

/*
 * A session's files in the output directory: ".BASE.HOST:PORT.dat.part" (the metadata, locked
 * while the session lives), one ".BASE.HOST:PORT.dat.part.cpuN" per CPU, and, while the final
 * file is put together, the journal ".BASE.HOST:PORT.dat.part.journal" (assembly.c). A
 * recovery builds ".BASE.HOST:PORT.dat.recovering", then BASE.HOST:PORT.incomplete.dat.
 * ".assembling" files were left by listeners before the journal (their events are lost).
 */
#define LISTEN_PART_SUFFIX		".dat.part"
#define LISTEN_CPU_SUFFIX		".cpu"
#define LISTEN_JOURNAL_SUFFIX		".journal"
#define LISTEN_ASSEMBLING_SUFFIX	".dat.assembling"
#define LISTEN_RECOVERING_SUFFIX	".dat.recovering"
#define LISTEN_INCOMPLETE_SUFFIX	".incomplete"

/*
 * Turns what listeners killed mid-stream left in dir_fd into BASE.HOST:PORT.incomplete.dat
 * files; one line per file on stderr (and in the log). Files a live listener holds are left.
 */
void listen_recover_dir(int dir_fd, struct listen_log *log);
/* The same for one ".part" file: 0, -EBUSY when a live listener holds it, or -errno. */
int listen_recover_one(int dir_fd, const char *part, struct listen_log *log);

/*
 * The final assembly of a ".part" file and its CPU files, resumable after a kill at any
 * instant (assembly.c). Test hook, inert unless set: KTRACE_LISTEN_ASSEMBLY_STOP=K makes the
 * process log "assembly stopped at point K" and SIGSTOP itself at the Kth point (0: journal
 * written, nothing appended; then one point per mark recorded, before its range is released;
 * last: file whole, not yet renamed), so that a test can SIGKILL it exactly there;
 * KTRACE_LISTEN_ASSEMBLY_STEP=BYTES sets the bytes between marks (default 64 MiB).
 */
#define ASSEMBLY_NOTE_MAX	256

struct assembly {
	int dir;
	const char *part;		/* the ".part" name: its file is the output */
	int out;
	uint64_t meta_size;
	struct dat_metadata m;
	const char *note;		/* the incomplete note, NULL: none */
	struct dat_append_cpu *cpus;	/* nr */
	struct dat_append_mark *marks;	/* nr */
	uint32_t nr;
	int jfd;			/* the journal */
	int owns_fds;			/* resumed: the CPU files were opened here */
	char note_buf[ASSEMBLY_NOTE_MAX];
	uint64_t step;
	long stop_at;			/* test hook: -1 when unset */
	unsigned long point;
	struct listen_log *log;
};

/* Empty arrays for nr CPUs; the caller fills cpus, m, meta_size, note, log. */
int assembly_init(struct assembly *a, int dir, const char *part, int out, uint32_t nr);
void assembly_hook_from_env(struct assembly *a);
/* Writes the journal: from its return on, a kill leaves a resumable assembly. */
int assembly_begin(struct assembly *a);
/* A killed assembly's journal and CPU files: 0, -ENOENT when part has no journal, or -errno. */
int assembly_resume_open(struct assembly *a, int dir, const char *part, int out,
			 struct strbuf *err);
/* Appends (the rest of) the CPU data and flushes the output; its size or negative errno. */
int64_t assembly_run(struct assembly *a, struct strbuf *err);
/*
 * Removes the CPU files, renames the output to the name in `name`, removes the journal. An
 * earlier file of that name (a client port the kernel gave out again) is never replaced:
 * "X.dat" is then "X.2.dat", "X.3.dat"..., and `name` says which.
 */
int assembly_publish(struct assembly *a, struct strbuf *name);
/* Removes the journal: the session's files are being dropped. */
void assembly_discard(struct assembly *a);
void assembly_release(struct assembly *a);

/* What every session shares with the server; owned by the server. */
struct server_ctx {
	const struct listen_config *cfg;
	int dir_fd;
	struct listen_log *log;
	struct net_tls *tls;		/* NULL: plaintext, as trace-cmd */
	char *scratch;			/* one read buffer for all data connections */
	size_t scratch_len;
	/* Compression of CPU data as it arrives: codecs and buffers shared by every channel. */
	struct kt_codec *codecs[3];	/* by enum kt_compression */
	char *zin, *zout;
	size_t zin_cap, zout_cap;
};

void server_ctx_release_codecs(struct server_ctx *srv);

uint64_t listen_now_ms(void);

/*
 * One CPU's data channel: a TCP listening socket until the client connects (then the
 * connection), or a UDP socket; what arrives goes to an unlinked temporary file.
 */
struct chan {
	int lfd;		/* TCP: listening socket until accepted; -1 after */
	int fd;			/* TCP connection or UDP socket; -1 when closed */
	struct net_conn *conn;	/* TCP: the connection (owns fd) */
	struct net_tls *tls;	/* the server's: TCP data is TLS too */
	int udp;
	int tmp;		/* the received data's file */
	char *path;		/* its name in the output directory; NULL: unnamed */
	uint64_t size;
	unsigned int port;
	int peer_set;		/* UDP: the socket is connected to the client */
	uint32_t page;		/* UDP: every datagram is one page */
	unsigned int bad_datagrams;
	int done;		/* EOF seen, or nothing will come */
	/* When compressing as data arrives, tmp holds finished chunks then a raw tail. */
	struct kt_codec *codec;	/* NULL: tmp holds raw pages */
	uint32_t chunk;		/* raw bytes per chunk: 10 pages, as trace-cmd */
	int big;		/* chunk headers in the file's byte order */
	uint64_t raw_start;	/* where the raw tail starts */
	uint32_t nr_chunks;
};

/*
 * A new data file in dir_fd, named name (any stale file of that name is replaced), or
 * unnamed when name is NULL. fd or -errno.
 */
int chan_file_open(int dir_fd, const char *name);
/*
 * Starts compressing what arrives on c from now on, and what it holds already (into a new
 * temporary file). 0 or negative errno.
 */
int chan_compress_start(struct chan *c, struct server_ctx *srv, int compression,
			uint32_t page_size, int big);
/* Appends n received bytes to the channel's temporary file. 0 or negative errno. */
int chan_store(struct chan *c, struct server_ctx *srv, const char *buf, size_t n);
/*
 * Ends the channel's data: keeps only whole pages (returns the bytes dropped, >= 0) and, when
 * compressing, turns the tail into a last chunk and fills blob. Negative errno on failure.
 */
int64_t chan_finish(struct chan *c, struct server_ctx *srv, uint32_t page_size,
		    struct dat_append_cpu *blob);

/*
 * Opens the socket on the local address of the control connection (port 0: any free port),
 * and the data file named path in the output directory.
 */
int chan_open(struct chan *c, struct server_ctx *srv, int ctl_fd, int udp, uint32_t page,
	      const char *path);
/*
 * Handles readiness of the channel's socket. peer is the control connection's address: data
 * from anyone else is refused. Returns bytes stored (>= 0) or negative errno; *why names a
 * refusal that is worth a log line without failing the session.
 */
int64_t chan_event(struct chan *c, struct server_ctx *srv, const struct sockaddr *peer,
		   uint64_t room, const char **why);
/* After CLOSE: 1 when nothing more can arrive on this channel. */
int chan_settled(struct chan *c, const struct sockaddr *peer);
void chan_close(struct chan *c);
/* Removes the channel's data file from the output directory. */
void chan_remove(struct chan *c, int dir_fd);

struct session;

struct session *session_new(struct server_ctx *srv, int fd, const struct sockaddr *peer,
			    socklen_t peer_len);
/* Fills pfd (capacity max) with the descriptors to poll; idx[i] is -1 (control) or a CPU. */
int session_pollfds(struct session *s, struct pollfd *pfd, int *idx, int max);
int session_nr_fds(const struct session *s);
/* True when TLS holds decrypted bytes for the descriptor idx, which poll() will not report. */
int session_pending(const struct session *s, int idx);
void session_event(struct session *s, int idx, short revents);
/* Timeouts and completion; returns 1 when the session is over and may be freed. */
int session_tick(struct session *s, uint64_t now);
/* At shutdown: a recording's data so far becomes a file marked incomplete; setup is dropped. */
void session_stop(struct session *s);
void session_free(struct session *s);

#endif
