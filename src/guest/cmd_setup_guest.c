// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktrace setup-guest: the host side of trace-cmd 3.1.6's virtio-serial transport. For a libvirt
 * guest it makes /var/lib/trace-cmd/virt/GUEST/ (mode 0750) and one pair of FIFOs per guest
 * CPU, trace-pipe-cpuN.in and .out (mode -p, 0660 by default, group -g), and with -a adds them
 * to the guest's libvirt definition as virtio channels named trace-pipe-cpuN (`virsh
 * attach-device --config`), as trace-cmd setup-guest does. Without -c the CPU count is
 * `virsh vcpucount --maximum GUEST`.
 *
 * What differs from trace-cmd: a FIFO this run made is removed again when a later step fails,
 * and a path that exists but is not a FIFO is named in the message. KTRACE_VIRT_DIR replaces
 * /var/lib/trace-cmd/virt (the tests use it).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktrace/command.h"
#include "ktrace/options.h"
#include "ktrace/strbuf.h"
#include "ktrace/strv.h"

#define VIRT_DIR "/var/lib/trace-cmd/virt"
#define PIPE_NAME "trace-pipe-cpu"
#define MAX_GUEST_CPUS 4096

struct setup_args {
	int cpus;		/* -c, 0: ask virsh */
	const char *perms;	/* -p, octal */
	const char *group;	/* -g */
	bool attach;		/* -a */
};

static const struct kt_option setup_options[] = {
	KT_INT('c', NULL, "CPUS", struct setup_args, cpus, 1, MAX_GUEST_CPUS,
	       "FIFOs for CPUS guest CPUs (default: virsh vcpucount --maximum GUEST)"),
	KT_STRING('p', NULL, "MODE", struct setup_args, perms,
		  "octal permissions of the FIFOs (default 660)"),
	KT_STRING('g', NULL, "GROUP", struct setup_args, group,
		  "make the directory and FIFOs with GROUP as their group"),
	KT_BOOL('a', NULL, struct setup_args, attach,
		"add the FIFOs to the guest's libvirt definition (virsh attach-device --config)"),
	{ 0 },
};

static const struct kt_command_help setup_help = {
	.name = "setup-guest",
	.usage = "[-c CPUS] [-p MODE] [-g GROUP] [-a] GUEST",
	.summary = "Make the virtio-serial FIFOs a guest's trace data comes through "
		   "(trace-cmd setup-guest).",
	.options = setup_options,
};

/* What this run made, removed again (deepest first) when a later step fails. */
struct made {
	char **paths;
};

static void undo(struct made *m)
{
	int i;

	for (i = strv_len(m->paths) - 1; i >= 0; i--)
		if (unlink(m->paths[i]) && (errno == EISDIR || errno == EPERM))
			rmdir(m->paths[i]);
}

static int make_dirs(const char *path, struct made *m)
{
	char buf[PATH_MAX], c;
	char *p;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf)) {
		fprintf(stderr, "ktrace setup-guest: %s: path too long\n", path);
		return -ENAMETOOLONG;
	}
	for (p = buf + 1; ; p++) {
		if (*p && *p != '/')
			continue;
		c = *p;
		*p = '\0';
		if (!mkdir(buf, 0750)) {
			if (strv_push(&m->paths, buf))
				return -ENOMEM;
		} else if (errno != EEXIST) {
			fprintf(stderr, "ktrace setup-guest: cannot make the directory %s: %s\n",
				buf, strerror(errno));
			return -errno;
		}
		*p = c;
		if (!c)
			return 0;
	}
}

static int make_fifo(const char *path, mode_t mode, struct made *m)
{
	struct stat st;

	if (!stat(path, &st)) {
		if (S_ISFIFO(st.st_mode))
			return 0;
		fprintf(stderr, "ktrace setup-guest: %s exists and is not a FIFO\n", path);
		return -EEXIST;
	}
	if (mkfifo(path, mode)) {
		fprintf(stderr, "ktrace setup-guest: cannot make the FIFO %s: %s\n", path,
			strerror(errno));
		return -errno;
	}
	return strv_push(&m->paths, path);
}

/* Runs argv (virsh) with its stdout into out (NULL: discarded); its exit status or -errno. */
static int run_virsh(char *const argv[], struct strbuf *out)
{
	int pipefd[2], status, ret = 0;
	char buf[256];
	ssize_t n;
	pid_t pid;

	if (pipe(pipefd))
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return -errno;
	}
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		dup2(pipefd[1], STDOUT_FILENO);
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		close(pipefd[0]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(pipefd[1]);
	while ((n = read(pipefd[0], buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0 && out && strbuf_add(out, buf, (size_t)n))
			ret = -ENOMEM;
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (ret)
		return ret;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int guest_cpus(const char *guest)
{
	char *argv[] = { "virsh", "vcpucount", "--maximum", (char *)guest, NULL };
	struct strbuf out = STRBUF_INIT;
	int cpus = -1;

	if (!run_virsh(argv, &out) && out.len)
		cpus = atoi(strbuf_str(&out));
	strbuf_release(&out);
	if (cpus > 0 && cpus <= MAX_GUEST_CPUS)
		return cpus;
	fprintf(stderr, "ktrace setup-guest: %s: cannot learn its CPU count from 'virsh vcpucount "
		"--maximum %s': give -c CPUS\n", guest, guest);
	return -EINVAL;
}

/* One <channel> per CPU, as trace-cmd writes it: a pipe source, a virtio target. */
static int attach_fifos(const char *guest, const char *dir, int cpus)
{
	char xml_path[] = "/tmp/ktrace-pipexml.XXXXXX";
	char *argv[] = { "virsh", "attach-device", "--config", (char *)guest, xml_path, NULL };
	struct strbuf xml = STRBUF_INIT;
	int fd = mkstemp(xml_path), i, ret = 0;

	if (fd < 0) {
		fprintf(stderr, "ktrace setup-guest: %s: %s\n", xml_path, strerror(errno));
		return -errno;
	}
	for (i = 0; i < cpus && !ret; i++) {
		strbuf_reset(&xml);
		strbuf_addf(&xml, "<channel type='pipe'>\n  <source path='%s/" PIPE_NAME "%d'/>\n"
			    "  <target type='virtio' name='" PIPE_NAME "%d'/>\n</channel>", dir, i, i);
		if (ftruncate(fd, 0) || pwrite(fd, xml.buf, xml.len, 0) != (ssize_t)xml.len) {
			ret = -errno;
			fprintf(stderr, "ktrace setup-guest: %s: %s\n", xml_path, strerror(errno));
		} else if ((ret = run_virsh(argv, NULL))) {
			fprintf(stderr, "ktrace setup-guest: %s: 'virsh attach-device --config' of "
				"channel " PIPE_NAME "%d failed (%s %d)\n", guest, i,
				ret < 0 ? "error" : "status", ret < 0 ? -ret : ret);
			ret = -EIO;
		}
	}
	close(fd);
	unlink(xml_path);
	strbuf_release(&xml);
	return ret;
}

static int setup(const struct setup_args *a, const char *guest, mode_t mode, struct made *m)
{
	const char *base = getenv("KTRACE_VIRT_DIR");
	struct strbuf dir = STRBUF_INIT, fifo = STRBUF_INIT;
	int cpus = a->cpus ? a->cpus : guest_cpus(guest), i, ret = cpus < 0 ? cpus : 0;

	strbuf_addf(&dir, "%s/%s", base && *base ? base : VIRT_DIR, guest);
	if (!ret)
		ret = make_dirs(strbuf_str(&dir), m);
	for (i = 0; i < cpus && !ret; i++) {
		strbuf_reset(&fifo);
		strbuf_addf(&fifo, "%s/" PIPE_NAME "%d.in", strbuf_str(&dir), i);
		ret = make_fifo(strbuf_str(&fifo), mode, m);
		strbuf_reset(&fifo);
		strbuf_addf(&fifo, "%s/" PIPE_NAME "%d.out", strbuf_str(&dir), i);
		if (!ret)
			ret = make_fifo(strbuf_str(&fifo), mode, m);
	}
	if (!ret && a->attach)
		ret = attach_fifos(guest, strbuf_str(&dir), cpus);
	strbuf_release(&dir);
	strbuf_release(&fifo);
	return ret;
}

static int parse_mode(const char *perms, mode_t *mode)
{
	char *end;
	long v;

	if (!perms)
		return 0;
	errno = 0;
	v = strtol(perms, &end, 8);
	if (errno || end == perms || *end || v < 0 || v > 07777)
		return kt_usage_error("setup-guest", "-p", perms, "is not an octal mode (e.g. 660)");
	*mode = (mode_t)v;
	return 0;
}

int cmd_setup_guest(int argc, char **argv)
{
	struct setup_args a = { 0 };
	struct made m = { 0 };
	struct group *gr = NULL;
	mode_t mode = 0660, mask;
	gid_t saved = getegid();
	int idx, ret = kt_parse_options(&setup_help, argc, argv, &a, &idx);

	if (!ret && idx != argc - 1)
		ret = kt_usage_error("setup-guest", "GUEST", idx < argc ? argv[idx + 1] : NULL,
				     idx < argc ? "follows the GUEST: give one" :
				     "missing: name the libvirt guest");
	if (!ret && (!*argv[idx] || strchr(argv[idx], '/') || !strcmp(argv[idx], "..")))
		ret = kt_usage_error("setup-guest", "GUEST", argv[idx], "is not a guest name");
	if (!ret)
		ret = parse_mode(a.perms, &mode);
	if (!ret && a.group && !(gr = getgrnam(a.group)))
		ret = kt_usage_error("setup-guest", "-g", a.group, "is not a group");
	if (ret)
		return ret;
	/* the FIFOs are made with the group as trace-cmd makes them: the effective gid */
	if (gr && setegid(gr->gr_gid)) {
		fprintf(stderr, "ktrace setup-guest: -g %s: cannot take the group: %s\n", a.group,
			strerror(errno));
		return 1;
	}
	mask = umask(0);
	ret = setup(&a, argv[idx], mode, &m);
	umask(mask);
	if (ret)
		undo(&m);
	if (gr && setegid(saved) && !ret) {
		fprintf(stderr, "ktrace setup-guest: cannot restore the group: %s\n",
			strerror(errno));
		ret = -EPERM;
	}
	strv_free(m.paths);
	return ret ? 1 : 0;
}
