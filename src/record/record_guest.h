/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_RECORD_GUEST_H
#define KTRACE_RECORD_GUEST_H

/*
 * record -A: the host's side of trace-cmd's host-guest protocol (net_agent.h). Each -A names a
 * guest's agent; the options after it (up to the next -A or -B) are that guest's, sent in its
 * TRACE_REQ as trace-cmd sends them, and --name names it. The guest's metadata is written to
 * trace-NAME.dat (the host's -o with "-NAME" before its extension, as trace-cmd names it), its
 * per-CPU pages received into temp files while the host records, and appended to it at the end.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "ktrace/net_conn.h"
#include "ktrace/options.h"
#include "ktrace/strbuf.h"

/* record's --name row */
#define RECORD_OPT_GUEST_NAME	420

struct record_guest {
	/* from -A (record_guest_args.c) */
	char *spec;		/* the -A argument, for messages */
	char *name;		/* NAME@..., --name, or unnamed-N */
	char *host;		/* TCP: the agent's address; NULL for vsock */
	unsigned int cid;	/* vsock */
	unsigned int port;
	char **argv;		/* its options, NULL-terminated (strv) */
	int argc;
	bool has_clock;		/* its options have -C */
	/* the session (record_guest.c) */
	char *file;		/* trace-NAME.dat */
	int fd;			/* the file, -1 */
	uint64_t meta_size;
	struct net_conn *ctl;
	uint32_t cpus;
	uint32_t page_size;
	uint64_t trace_id;	/* the guest's */
	char tsync[17];		/* the protocol it chose, "" */
	unsigned int *ports;	/* per CPU: the agent's data ports (TRACE_RESP) */
	int *data;		/* per CPU: the data connections, -1 once at its end */
	int *tmp;		/* per CPU: the pages received, an unlinked temp file */
	uint64_t *received;	/* per CPU: bytes */
	pthread_t reader;
	bool reading;		/* reader started */
	int stop_pipe[2];	/* written when the reader should stop waiting for the end */
	int read_err;		/* the reader's first error, negative errno */
	bool closing;		/* CLOSE is being sent: a hang-up from here is the answer */
	bool gone;		/* the agent hung up before CLOSE (set by the reader) */
	bool done;		/* the file is written */
};

struct record_guests {
	struct record_guest *g;
	int nr;
	uint64_t trace_id;	/* the host's */
};

/*
 * Splits record's argv (argv[0] "record") by the option table: the host's words into
 * *host_argv (NULL-terminated, the strings borrowed from argv; free() the array), each -A's
 * into a guest. *gs is NULL without -A. 0, or KT_ERR_USAGE after one message.
 */
int record_guests_split(const struct kt_option *table, int argc, char **argv, int *host_argc,
			char ***host_argv, struct record_guests **gs);
/* The host's trace id, sent to every guest and written in the host's TRACEID option. */
uint64_t record_guests_trace_id(const struct record_guests *gs);
/*
 * Connects every guest, sends its request, receives its metadata into its file (named from
 * output) and starts receiving its CPU data. A guest without -C of its own is sent "-C clock"
 * first, the host's clock, as trace-cmd does. 0 or negative errno (message in err).
 */
int record_guests_connect(struct record_guests *gs, const char *output, const char *clock,
			  struct strbuf *err);
struct dat_writer;
/* The host file's GUEST option of every guest: name, its trace id, CPU count, (CPU, pid -1). */
int record_guests_write_options(const struct record_guests *gs, struct dat_writer *w);
/*
 * Ends every guest's recording (CLOSE, CLOSE_RESP), waits for its data and writes its file.
 * 0 or the first error (message in err); the files of guests that failed are removed.
 */
int record_guests_finish(struct record_guests *gs, struct strbuf *err);
/* Prints where each guest's trace went (after the host's summary). */
void record_guests_summary(const struct record_guests *gs);
/* Closes what is open; removes the files of guests not finished. NULL is fine. */
void record_guests_free(struct record_guests *gs);

#endif
