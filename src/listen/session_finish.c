// SPDX-License-Identifier: GPL-2.0-only
/*
 * The end of a `record -N` session: every CPU's data whole pages, put into the ".part" file in
 * place through the journaled assembly (assembly.c), then renamed to its final name (or to a
 * ".partial.dat" one when the recording was cut short).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "listen.h"
#include "session_internal.h"

/* Whole pages only: a torn last page would make readers fail on the whole CPU. */
static int finish_channel(struct session *s, struct dat_append_cpu *blob, uint32_t cpu)
{
	int64_t torn = chan_finish(&s->ch[cpu], s->srv, s->page_size, blob);
	char detail[96];

	if (torn > 0) {
		snprintf(detail, sizeof(detail), "CPU %u ended with a partial page "
			 "(%lld bytes dropped)", cpu, (long long)torn);
		session_log(s, "%s", detail);
	}
	return torn < 0 ? (int)torn : 0;
}

/*
 * The CPU data goes into the ".part" file in place, journaled (assembly.c): a listener killed
 * from here on leaves what the next one completes into the same file.
 */
static int assemble(struct session *s, struct assembly *a, struct strbuf *err, int64_t *size)
{
	uint32_t i;
	int ret = assembly_init(a, s->srv->dir_fd, s->tmp_name, s->out, s->cpus);

	if (ret)
		return ret;
	assembly_hook_from_env(a);
	a->log = s->srv->log;
	a->meta_size = s->meta_size;
	a->note = s->partial;
	ret = session_scan_meta(s, &a->m, err);
	for (i = 0; !ret && i < s->cpus; i++)
		ret = finish_channel(s, &a->cpus[i], i);
	if (!ret)
		ret = assembly_begin(a);
	if (!ret) {
		*size = assembly_run(a, err);
		ret = *size < 0 ? (int)*size : 0;
	}
	return ret;
}

static int publish(struct session *s, struct assembly *a)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	/* "BASE.HOST:PORT.partial.dat": never mistaken for a complete recording. */
	if (s->partial) {
		strbuf_add(&sb, s->final_name, strlen(s->final_name) - 4);
		strbuf_addstr(&sb, ".partial.dat");
	} else {
		strbuf_addstr(&sb, s->final_name);
	}
	ret = assembly_publish(a, &sb);
	free(s->final_name);
	s->final_name = strbuf_detach(&sb, NULL);
	if (!ret && !s->final_name)
		ret = -ENOMEM;
	return ret;
}

void session_finish(struct session *s)
{
	struct strbuf err = STRBUF_INIT;
	struct assembly a;
	int64_t size = 0;
	char msg[160];
	uint32_t i;
	int ret = assemble(s, &a, &err, &size);

	if (!ret)
		ret = publish(s, &a);
	if (ret) {
		assembly_discard(&a);
		assembly_release(&a);
		session_fail(s, "assembling the file", err.len ? strbuf_str(&err) : strerror(-ret));
		strbuf_release(&err);
		return;
	}
	assembly_release(&a);
	for (i = 0; i < s->cpus; i++) {
		/* assembly_publish() removed the CPU files: their names are no longer ours */
		free(s->ch[i].path);
		s->ch[i].path = NULL;
	}
	snprintf(msg, sizeof(msg), " (%lld bytes, %u CPUs)%s%s%s", (long long)size, s->cpus,
		 s->partial ? ": " : "", s->partial ? s->partial : "",
		 s->partial ? ", data so far kept" : "");
	listen_logf(s->srv->log, "%s: wrote %s%s", s->name, s->final_name, msg);
	strbuf_release(&err);
	s->tmp_name[0] = '\0';
	session_close_all(s);
	s->st = ST_OVER;
}

int session_drained(struct session *s, uint64_t now)
{
	uint64_t last = 0;
	uint32_t i;
	int all = 1;

	for (i = 0; i < s->cpus; i++) {
		if (s->ch[i].udp)
			continue;
		all &= chan_settled(&s->ch[i], (struct sockaddr *)&s->peer);
	}
	if (s->cpus && s->ch[0].udp)
		last = s->last_data > s->drain_start ? s->last_data : s->drain_start;
	if (s->cpus && s->ch[0].udp && now - last < UDP_QUIET_MS)
		all = 0;
	return all;
}
