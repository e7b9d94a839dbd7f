// SPDX-License-Identifier: GPL-2.0-only
/*
 * record --proc-map: the address maps of the traced processes, as trace-cmd's PROCMAPS option
 * holds them (trace-cmd.dat.v7.5.txt): per process "<pid> <count> <exe>\n" then one
 * "<start> <end> <path>\n" per mapping with a name, numbers in hex; -P processes are read when
 * recording starts, the command and its children when each exits (session_child.c, ptrace).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktrace/session.h"

/* The mappings with a path (or a [name]) of /proc/PID/maps into sb; how many, or -errno. */
static int read_mappings(pid_t pid, struct strbuf *sb)
{
	char path[64], line[PATH_MAX + 128], name[PATH_MAX + 1];
	unsigned long long start, end;
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		name[0] = '\0';
		/* start-end perms offset dev inode path: the path's first word, as trace-cmd */
		if (sscanf(line, "%llx-%llx %*s %*x %*s %*d %4096s", &start, &end, name) != 3 ||
		    !name[0])
			continue;
		strbuf_addf(sb, "%llx %llx %s\n", start, end, name);
		n++;
	}
	fclose(f);
	return n;
}

int session_procmap_read(struct session_procmaps *m, pid_t pid)
{
	struct strbuf libs = STRBUF_INIT, entry = STRBUF_INIT;
	char exe_path[64], exe[PATH_MAX];
	ssize_t len;
	char **entries;
	pid_t *pids;
	int n, i;

	snprintf(exe_path, sizeof(exe_path), "/proc/%d/exe", (int)pid);
	len = readlink(exe_path, exe, sizeof(exe) - 1);
	if (len < 0)
		return -errno;
	exe[len] = '\0';
	n = read_mappings(pid, &libs);
	/* a process with nothing mapped by name gets no option, as in trace-cmd */
	if (n <= 0) {
		strbuf_release(&libs);
		return n;
	}
	strbuf_addf(&entry, "%x %x %s\n%s", (unsigned int)pid, (unsigned int)n, exe,
		    strbuf_str(&libs));
	strbuf_release(&libs);
	/* read again (a -P process that exits while traced): the later maps replace the earlier */
	for (i = 0; i < m->nr && m->pids[i] != pid; i++)
		;
	if (i < m->nr) {
		free(m->entries[i]);
		m->entries[i] = strbuf_detach(&entry, NULL);
		return 0;
	}
	pids = realloc(m->pids, (size_t)(m->nr + 1) * sizeof(*m->pids));
	if (pids)
		m->pids = pids;
	entries = pids ? realloc(m->entries, (size_t)(m->nr + 1) * sizeof(*m->entries)) : NULL;
	if (!entries) {
		strbuf_release(&entry);
		return -ENOMEM;
	}
	m->entries = entries;
	m->pids[m->nr] = pid;
	m->entries[m->nr++] = strbuf_detach(&entry, NULL);
	return 0;
}

void session_procmaps_release(struct session_procmaps *m)
{
	int i;

	for (i = 0; i < m->nr; i++)
		free(m->entries[i]);
	free(m->entries);
	free(m->pids);
	memset(m, 0, sizeof(*m));
}
