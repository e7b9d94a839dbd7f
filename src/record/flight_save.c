// SPDX-License-Identifier: GPL-2.0-only
/* One flight-recorder save (flight_save.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "flight_save.h"
#include "ktrace/dat_writer.h"
#include "ktrace/plan.h"
#include "ktrace/tfs.h"
#include "record_plan.h"
#include "record_session.h"

bool flight_kernel_has_snapshot(void)
{
	struct strbuf path = STRBUF_INIT;
	bool has = !tfs_path(&path, NULL, "snapshot") && !access(strbuf_str(&path), F_OK);

	strbuf_release(&path);
	return has;
}

int flight_saver_init(struct flight_saver *fs, const struct plan *plan, const char *const *names,
		      int nr_names)
{
	const char *out = plan->output ? plan->output : "trace.dat";
	size_t len = strlen(out);
	struct strbuf sb = STRBUF_INIT;
	char cwd[4096];

	memset(fs, 0, sizeof(*fs));
	fs->plan = plan;
	fs->names = names;
	fs->nr_names = nr_names;
	fs->snapshot = flight_kernel_has_snapshot();
	/* the saves are written by this process: a relative -o is where it was armed */
	if (out[0] != '/') {
		if (!getcwd(cwd, sizeof(cwd)))
			return -errno;
		strbuf_addf(&sb, "%s/", cwd);
	}
	if (len > 4 && !strcmp(out + len - 4, ".dat"))
		len -= 4;
	strbuf_add(&sb, out, len);
	fs->prefix = strbuf_detach(&sb, NULL);
	return fs->prefix ? 0 : -ENOMEM;
}

long flight_since_last_ms(const struct flight_saver *fs)
{
	struct timespec now;

	if (!fs->nr_saves)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - fs->last.tv_sec) * 1000 + (now.tv_nsec - fs->last.tv_nsec) / 1000000;
}

/* PREFIX-YYYYMMDD-HHMMSS.dat, or -2, -3... when two saves share a second; the open fd. */
static int create_file(struct flight_saver *fs)
{
	time_t now = time(NULL);
	struct tm tm;
	char stamp[32];
	int i, fd = -1;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	for (i = 1; fd < 0 && i < 100; i++) {
		if (i == 1)
			snprintf(fs->last_path, sizeof(fs->last_path), "%s-%s.dat", fs->prefix,
				 stamp);
		else
			snprintf(fs->last_path, sizeof(fs->last_path), "%s-%s-%d.dat", fs->prefix,
				 stamp, i);
		fd = open(fs->last_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0 && errno != EEXIST)
			return -errno;
	}
	return fd < 0 ? -EEXIST : fd;
}

/* Swaps the snapshot buffer in: the events so far freeze there, tracing goes on in the other. */
static int swap_snapshots(struct flight_saver *fs, struct strbuf *err)
{
	int i, ret = 0;

	for (i = 0; !ret && i < fs->nr_names; i++) {
		ret = tfs_inst_write(fs->names[i], "snapshot", "1");
		if (ret)
			strbuf_addf(err, "cannot swap the snapshot buffer of %s: %s",
				    fs->names[i] ? fs->names[i] : "the top instance",
				    tfs_cause(ret));
	}
	return ret;
}

static int capture(struct flight_saver *fs, int fd, struct strbuf *err)
{
	struct record_session s;
	int ret;

	ret = record_session_init(&s, fs->names, fs->nr_names, fs->last_path,
				  fs->plan->file_version, fs->plan->compression);
	if (!ret)
		ret = record_collect_events(fs->plan, &s.events);
	if (ret)
		strbuf_addf(err, "preparing the save: %s", strerror(-ret));
	if (fs->snapshot)
		s.raw_file = "snapshot_raw";
	else
		s.bounded = true;
	if (!ret)
		ret = record_session_start(&s, err);
	if (!ret)
		ret = record_session_finish(&s, err);
	if (!ret)
		ret = record_session_write(&s, fd, err);
	record_session_close(&s);
	record_session_release(&s);
	return ret;
}

int flight_save(struct flight_saver *fs, bool swapped, struct strbuf *err)
{
	int fd, ret = 0;

	if (fs->snapshot && !swapped)
		ret = swap_snapshots(fs, err);
	if (ret)
		return ret;
	fd = create_file(fs);
	if (fd < 0) {
		strbuf_addf(err, "cannot create %s: %s", fs->last_path, strerror(-fd));
		return fd;
	}
	ret = dat_writer_mark_unfinished(fd);
	if (ret)
		strbuf_addf(err, "cannot write %s: %s", fs->last_path, strerror(-ret));
	if (!ret)
		ret = capture(fs, fd, err);
	if (close(fd) && !ret) {
		ret = -errno;
		strbuf_addf(err, "cannot write %s: %s", fs->last_path, strerror(-ret));
	}
	if (ret) {
		unlink(fs->last_path);
		return ret;
	}
	fs->nr_saves++;
	clock_gettime(CLOCK_MONOTONIC, &fs->last);
	return 0;
}

int flight_saver_arm(struct flight_saver *fs, struct tfs_undo *undo, struct strbuf *err)
{
	int i, ret = 0;

	for (i = 0; fs->snapshot && !ret && i < fs->nr_names; i++) {
		struct strbuf path = STRBUF_INIT;

		ret = tfs_path(&path, fs->names[i], "snapshot");
		if (!ret)
			ret = tfs_undo_save_append(undo, strbuf_str(&path), "0");
		/* both halves empty yet: the swap only allocates */
		if (!ret)
			ret = tfs_write(strbuf_str(&path), "1", 1, true);
		if (ret)
			strbuf_addf(err, "cannot allocate the snapshot buffer %s: %s",
				    strbuf_str(&path), tfs_cause(ret));
		strbuf_release(&path);
	}
	return ret;
}

/* A "key: value" of per_cpu/cpuN/stats, as a double; -1 when missing. */
static double stat_value(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtod(p + strlen(key), NULL) : -1;
}

static int read_stats(const char *instance, int cpu, struct strbuf *sb)
{
	struct strbuf rel = STRBUF_INIT;
	int ret;

	strbuf_reset(sb);
	strbuf_addch(sb, '\n');
	strbuf_addf(&rel, "per_cpu/cpu%d/stats", cpu);
	ret = tfs_inst_read(instance, strbuf_str(&rel), sb);
	strbuf_release(&rel);
	return ret;
}

double flight_reach_back(const struct flight_saver *fs)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	struct strbuf sb = STRBUF_INIT;
	double reach = -1;
	int i, cpu;

	for (i = 0; i < fs->nr_names; i++)
		for (cpu = 0; cpu < cpus; cpu++) {
			double oldest, now;

			if (read_stats(fs->names[i], cpu, &sb))
				continue;
			oldest = stat_value(sb.buf, "\noldest event ts: ");
			now = stat_value(sb.buf, "\nnow ts: ");
			if (oldest > 0 && now >= oldest && now - oldest > reach)
				reach = now - oldest;
		}
	strbuf_release(&sb);
	return reach;
}

/* Bytes per second the busiest CPU of the first buffer wrote since it was cleared at arming. */
static double busiest_rate(const struct flight_saver *fs, double seconds)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	struct strbuf sb = STRBUF_INIT;
	double best = 0;
	int cpu;

	for (cpu = 0; cpu < cpus; cpu++) {
		double bytes, entries, overrun;

		if (read_stats(fs->names[0], cpu, &sb))
			continue;
		bytes = stat_value(sb.buf, "\nbytes: ");
		entries = stat_value(sb.buf, "\nentries: ");
		overrun = stat_value(sb.buf, "\noverrun: ");
		/* a buffer that wrapped holds a part: scale by the events it overwrote */
		if (bytes > 0 && entries > 0)
			bytes *= (entries + (overrun > 0 ? overrun : 0)) / entries;
		if (bytes / seconds > best)
			best = bytes / seconds;
	}
	strbuf_release(&sb);
	return best;
}

int flight_keep_seconds(struct flight_saver *fs, int seconds, struct tfs_undo *undo, bool quiet,
			struct strbuf *err)
{
	struct timespec one = { .tv_sec = 1 };
	double rate;
	char kb[32];
	int i, ret = 0;

	/* a one-off measurement at arming, not a loop */
	while (nanosleep(&one, &one) && errno == EINTR)
		;
	rate = busiest_rate(fs, 1.0);
	if (rate <= 0) {
		if (!quiet)
			fprintf(stderr, "ktrace record: --keep %ds: no events in 1 s of measuring; "
				"the buffers keep their size\n", seconds);
		return 0;
	}
	/* a tenth more for the page headers and the rate's ups and downs */
	snprintf(kb, sizeof(kb), "%lu", (unsigned long)(rate * seconds * 1.1 / 1024) + 4);
	for (i = 0; !ret && i < fs->nr_names; i++) {
		struct strbuf path = STRBUF_INIT;

		ret = tfs_path(&path, fs->names[i], "buffer_size_kb");
		if (!ret)
			ret = tfs_undo_save_file(undo, strbuf_str(&path));
		if (!ret)
			ret = tfs_write(strbuf_str(&path), kb, strlen(kb), true);
		if (ret)
			strbuf_addf(err, "--keep %ds: cannot write %s KB to %s: %s", seconds, kb,
				    strbuf_str(&path), tfs_cause(ret));
		strbuf_release(&path);
	}
	if (!ret && !quiet)
		fprintf(stderr, "ktrace record: --keep %ds: the busiest CPU wrote %.0f KB/s; "
			"buffers of %s KB per CPU\n", seconds, rate / 1024, kb);
	return ret;
}

void flight_saver_discard(struct flight_saver *fs)
{
	int i;

	for (i = 0; fs->snapshot && i < fs->nr_names; i++)
		tfs_inst_write(fs->names[i], "snapshot", "2");
}

void flight_saver_release(struct flight_saver *fs)
{
	free(fs->prefix);
	fs->prefix = NULL;
}
