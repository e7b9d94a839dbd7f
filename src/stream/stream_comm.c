// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <tracefs.h>

#include "stream_comm.h"

/* Without /proc/sys/kernel/pid_max, the kernel's largest possible value (PID_MAX_LIMIT). */
#define STREAM_PID_LIMIT (4 * 1024 * 1024)

struct stream_comm {
	struct tep_handle *tep;
	unsigned char *seen;	/* bitmap of pids printed since their name was last read */
	int nr_pids;
	bool read_this_round;
};

static int pid_max(void)
{
	FILE *f = fopen("/proc/sys/kernel/pid_max", "r");
	int n = 0;

	if (f) {
		if (fscanf(f, "%d", &n) != 1)
			n = 0;
		fclose(f);
	}
	return n > 0 && n <= STREAM_PID_LIMIT ? n : STREAM_PID_LIMIT;
}

int stream_comm_new(struct tep_handle *tep, struct stream_comm **out)
{
	struct stream_comm *sc = calloc(1, sizeof(*sc));

	if (!sc)
		return -ENOMEM;
	sc->tep = tep;
	sc->nr_pids = pid_max() + 1;
	sc->seen = calloc((size_t)sc->nr_pids / 8 + 1, 1);
	if (!sc->seen) {
		free(sc);
		return -ENOMEM;
	}
	*out = sc;
	return 0;
}

/* "PID COMM" lines; tracefs_load_cmdlines would keep the first name a pid was given. */
static void reread(struct stream_comm *sc)
{
	char *text = tracefs_instance_file_read(NULL, "saved_cmdlines", NULL);
	char *line, *save = NULL;
	char comm[64];
	int pid;

	if (!text)
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "%d %63[^\n]", &pid, comm) == 2)
			tep_override_comm(sc->tep, comm, pid);
	free(text);
	memset(sc->seen, 0, (size_t)sc->nr_pids / 8 + 1);
}

bool stream_comm_check(struct stream_comm *sc, int pid)
{
	bool reread_now = false;

	if (pid <= 0 || pid >= sc->nr_pids || (sc->seen[pid / 8] & (1u << (pid % 8))))
		return false;
	if (!sc->read_this_round) {
		reread(sc);
		sc->read_this_round = reread_now = true;
	}
	sc->seen[pid / 8] |= (unsigned char)(1u << (pid % 8));
	return reread_now;
}

void stream_comm_round(struct stream_comm *sc)
{
	sc->read_this_round = false;
}

void stream_comm_free(struct stream_comm *sc)
{
	if (!sc)
		return;
	free(sc->seen);
	free(sc);
}
