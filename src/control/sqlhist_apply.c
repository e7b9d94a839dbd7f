// SPDX-License-Identifier: GPL-2.0-only
/*
 * Executes what `ktrace sqlhist` prints, through the undo list: trace-cmd 3.4 calls
 * tracefs_synth_create(), which on a refused end histogram removes the start histogram and
 * the event itself, but leaves nothing a killed process could replay, and tracefs_hist_start()
 * for a histogram. Here every line is written by ktrace and its removal saved (journaled in
 * /run/ktrace) right after the kernel took it: a synthetic event goes with "!NAME" (or "-:NAME"
 * from dynamic_events), a trigger with "!TRIGGER", newest first.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "ktrace/tfs.h"
#include "sqlhist_apply.h"

struct echo_line {
	struct strbuf text, path;
};

/* "echo 'TEXT' >> PATH" or "echo 'TEXT' > PATH": -EINVAL for anything else */
static int parse_echo(const char *line, size_t len, struct echo_line *e)
{
	const char *start = line + strlen("echo '"), *end, *p;

	strbuf_reset(&e->text);
	strbuf_reset(&e->path);
	if (len < 8 || strncmp(line, "echo '", 6))
		return -EINVAL;
	end = NULL;
	for (p = start; p + 3 <= line + len; p++)
		if (!strncmp(p, "' >", 3))
			end = p;
	if (!end)
		return -EINVAL;
	p = end + 3;
	if (*p == '>')
		p++;
	if (*p++ != ' ')
		return -EINVAL;
	if (strbuf_add(&e->text, start, (size_t)(end - start)) ||
	    strbuf_add(&e->path, p, (size_t)(line + len - p)))
		return -ENOMEM;
	return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* What removes TEXT once written to PATH */
static int undo_text(const struct echo_line *e, struct strbuf *out)
{
	const char *t = e->text.buf;

	strbuf_reset(out);
	if (ends_with(e->path.buf, "/dynamic_events") && !strncmp(t, "s:", 2))
		return strbuf_addf(out, "-:%.*s", (int)strcspn(t + 2, " \t"), t + 2);
	if (ends_with(e->path.buf, "/synthetic_events"))
		return strbuf_addf(out, "!%.*s", (int)strcspn(t, " \t"), t);
	return strbuf_addf(out, "!%s", t);
}

static int write_line(struct tfs_undo *undo, const struct echo_line *e, const char *instance)
{
	struct strbuf undo_val = STRBUF_INIT;
	int ret = tfs_write(e->path.buf, e->text.buf, e->text.len, false);

	if (ret == -ENOMEM)
		return ret;
	if (ret) {
		fprintf(stderr, "ktrace sqlhist: cannot write '%s' to %s: %s\n", e->text.buf,
			e->path.buf, tfs_cause(ret));
		if (ret == -EINVAL && !tfs_print_error_log(ends_with(e->path.buf, "_events") ?
							    NULL : instance, e->text.buf))
			fprintf(stderr, "  (the kernel's error_log says nothing about it)\n");
		return ret;
	}
	ret = undo_text(e, &undo_val);
	if (!ret)
		ret = tfs_undo_save_append(undo, e->path.buf, undo_val.buf);
	/* what cannot be undone later is undone now (undo_val is empty only without memory) */
	if (ret && undo_val.len)
		tfs_write(e->path.buf, undo_val.buf, undo_val.len, false);
	strbuf_release(&undo_val);
	return ret;
}

/* The -B instance, made when missing; its removal saved */
static int make_instance(struct tfs_undo *undo, const char *instance)
{
	struct strbuf dir = STRBUF_INIT;
	struct stat st;
	int ret = tfs_path(&dir, instance, NULL);

	if (!ret && stat(dir.buf, &st)) {
		if (mkdir(dir.buf, 0755)) {
			ret = -errno;
			fprintf(stderr, "ktrace sqlhist: -B '%s': cannot create %s: %s\n", instance,
				dir.buf, tfs_cause(ret));
		} else {
			ret = tfs_undo_save_rmdir(undo, dir.buf);
		}
	}
	strbuf_release(&dir);
	return ret;
}

int sqlhist_apply_begin(struct tfs_undo **undo, const char *instance)
{
	int ret = tfs_undo_new(undo);

	if (!ret && instance)
		ret = make_instance(*undo, instance);
	if (ret == -ENOMEM)
		fprintf(stderr, "ktrace sqlhist: out of memory\n");
	return ret;
}

int sqlhist_apply(struct tfs_undo *undo, const char *commands, const char *instance)
{
	struct echo_line e = { STRBUF_INIT, STRBUF_INIT };
	const char *line = commands, *nl;
	int ret = 0;

	for (; !ret && *line; line = *nl ? nl + 1 : nl) {
		nl = strchrnul(line, '\n');
		if (nl == line)
			continue;
		ret = parse_echo(line, (size_t)(nl - line), &e);
		if (ret == -EINVAL)
			fprintf(stderr, "ktrace sqlhist: cannot run '%.*s' (not an echo command)\n",
				(int)(nl - line), line);
		if (!ret)
			ret = write_line(undo, &e, instance);
	}
	if (ret == -ENOMEM)
		fprintf(stderr, "ktrace sqlhist: out of memory\n");
	strbuf_release(&e.text);
	strbuf_release(&e.path);
	return ret;
}

void sqlhist_apply_end(struct tfs_undo *undo, int ret)
{
	if (!undo)
		return;
	if (ret && tfs_undo_restore(undo))
		fprintf(stderr, "ktrace sqlhist: could not put %s back\n",
			tfs_undo_failed_path(undo) ? tfs_undo_failed_path(undo) : "tracefs");
	else if (!ret)
		tfs_undo_keep(undo);
	tfs_undo_free(undo);
}
