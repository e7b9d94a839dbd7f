// SPDX-License-Identifier: GPL-2.0-only
/*
 * TIME_SHIFT: a guest's recording carries, per CPU, samples of the offset (and scaling) that
 * map its clock onto the host's. trace-cmd report applies them to every timestamp; so does
 * this, with the same arithmetic so that the numbers agree to the nanosecond.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dat_internal.h"

#define TSYNC_INTERPOLATE 0x1

struct tsync_sample {
	uint64_t time;
	int64_t offset;
	int64_t scaling;
	int64_t fraction;
};

struct tsync_cpu {
	uint32_t count;
	struct tsync_sample *samples;
};

struct dat_tsync {
	uint32_t flags;
	uint32_t nr_cpus;
	struct tsync_cpu *cpus;
};

void dat_tsync_free(struct dat_tsync *t)
{
	uint32_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr_cpus; i++)
		free(t->cpus[i].samples);
	free(t->cpus);
	free(t);
}

static int cmp_time(const void *a, const void *b)
{
	const struct tsync_sample *x = a, *y = b;

	return (x->time > y->time) - (x->time < y->time);
}

/* Sorted by time, samples of equal time after the first dropped. */
static void sort_samples(struct tsync_cpu *c)
{
	uint32_t i, j = 0;

	qsort(c->samples, c->count, sizeof(*c->samples), cmp_time);
	for (i = 0; i < c->count; i++)
		if (i == 0 || c->samples[i].time != c->samples[i - 1].time)
			c->samples[j++] = c->samples[i];
	c->count = j;
}

static int read_cpu(struct dat_in *in, struct tsync_cpu *c, struct strbuf *err)
{
	uint64_t v;
	uint32_t i, k;
	int ret = dat_in_u32(in, &c->count, err);

	if (ret)
		return ret;
	if ((uint64_t)c->count * 24 > in->end - in->pos)
		return dat_in_err(err, in, -EBADMSG, "%u samples do not fit in the option",
				  c->count);
	c->samples = calloc(c->count ? c->count : 1, sizeof(*c->samples));
	if (!c->samples)
		return dat_in_err(err, in, -ENOMEM, "out of memory");
	for (k = 0; k < 3; k++) {
		for (i = 0; i < c->count; i++) {
			ret = dat_in_u64(in, &v, err);
			if (ret)
				return ret;
			if (k == 0)
				c->samples[i].time = v;
			else if (k == 1)
				c->samples[i].offset = (int64_t)v;
			else
				c->samples[i].scaling = (int64_t)v;
		}
	}
	return 0;
}

static int read_samples(struct dat_tsync *t, struct dat_in *in, struct strbuf *err)
{
	uint32_t i, j, nr_cpus;
	uint64_t v;
	int ret = dat_in_u32(in, &nr_cpus, err);

	if (!ret && nr_cpus > DAT_MAX_CPUS)
		ret = dat_in_err(err, in, -EBADMSG, "cpu count %u exceeds %d", nr_cpus,
				 DAT_MAX_CPUS);
	if (ret)
		return ret;
	/* the count is the array's only once the array exists: dat_tsync_free walks it */
	t->cpus = calloc(nr_cpus ? nr_cpus : 1, sizeof(*t->cpus));
	if (!t->cpus)
		return dat_in_err(err, in, -ENOMEM, "out of memory");
	t->nr_cpus = nr_cpus;
	for (i = 0; i < t->nr_cpus && !ret; i++)
		ret = read_cpu(in, &t->cpus[i], err);
	/* newer files add the fraction bits of every sample after all the CPUs */
	for (i = 0; !ret && in->pos < in->end && i < t->nr_cpus; i++)
		for (j = 0; !ret && j < t->cpus[i].count; j++)
			if (!(ret = dat_in_u64(in, &v, err)))
				t->cpus[i].samples[j].fraction = (int64_t)v;
	for (i = 0; !ret && i < t->nr_cpus; i++)
		sort_samples(&t->cpus[i]);
	return ret;
}

int dat_tsync_load(struct dat_file *df, const void *data, uint32_t size, uint64_t offset,
		   struct strbuf *err)
{
	struct dat_tsync *t;
	struct dat_in in;
	int ret;

	if (size < 16 || df->opts.raw_ts)
		return 0;
	t = calloc(1, sizeof(*t));
	if (!t)
		return dat_err(err, df, "option TIME_SHIFT", offset, -ENOMEM, "out of memory");
	t->flags = dat_get32(df, (const uint8_t *)data + 8);
	dat_in_mem(&in, df, "option TIME_SHIFT", (const uint8_t *)data + 12, size - 12,
		   offset + 12, false);
	ret = read_samples(t, &in, err);
	if (ret || !t->nr_cpus) {
		dat_tsync_free(t);
		return ret;
	}
	dat_tsync_free(df->tsync);
	df->tsync = t;
	return 0;
}

static uint64_t correct(uint64_t ts, uint32_t flags, const struct tsync_sample *min,
			const struct tsync_sample *max)
{
	int64_t cor = min->offset;

	if (flags & TSYNC_INTERPOLATE) {
		int64_t delta = (int64_t)(max->time - min->time);
		/*
		 * trace-cmd multiplies in 64-bit signed arithmetic, which wraps for samples a
		 * minute apart whose offsets differ by 0.1 s (seen in its own -A recordings);
		 * wrapping in unsigned arithmetic gives its numbers without C's undefined
		 * signed overflow.
		 */
		int64_t off = (int64_t)((ts - min->time) *
					(uint64_t)(max->offset - min->offset));

		if (delta)
			cor = min->offset + (int64_t)((uint64_t)off + (uint64_t)(delta / 2)) / delta;
	}
	ts = (ts * (uint64_t)min->scaling) >> (min->fraction & 63);
	return cor < 0 ? ts - (uint64_t)(-cor) : ts + (uint64_t)cor;
}

uint64_t dat_tsync_apply(const struct dat_tsync *t, int cpu, uint64_t ts)
{
	const struct tsync_cpu *c;
	int lo, hi, mid;

	if (cpu < 0 || (uint32_t)cpu >= t->nr_cpus)
		return ts;
	c = &t->cpus[cpu];
	if (c->count == 0)
		return ts;
	if (c->count == 1)
		return ts + (uint64_t)c->samples[0].offset;
	if (c->count == 2 || ts <= c->samples[0].time)
		return correct(ts, t->flags, &c->samples[0], &c->samples[1]);
	if (ts >= c->samples[c->count - 1].time)
		return correct(ts, t->flags, &c->samples[c->count - 2],
			       &c->samples[c->count - 1]);
	lo = 0;
	hi = (int)c->count - 1;
	mid = (lo + hi) / 2;
	while (lo <= hi) {
		if (ts < c->samples[mid].time)
			hi = mid - 1;
		else if (ts > c->samples[mid].time)
			lo = mid + 1;
		else
			break;
		mid = (lo + hi) / 2;
	}
	if ((uint32_t)mid + 1 >= c->count)
		mid = (int)c->count - 2;
	return correct(ts, t->flags, &c->samples[mid], &c->samples[mid + 1]);
}
