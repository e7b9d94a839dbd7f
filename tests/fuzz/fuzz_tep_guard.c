// SPDX-License-Identifier: GPL-2.0-only
/*
 * For the libFuzzer build of fuzz_dat only (linked with --wrap): libtraceevent 1.7.1 itself
 * crashes on some damaged event formats (SIGFPE, SIGSEGV in tep_parse_event) and printk
 * blocks (reads out of bounds in tep_parse_printk_formats). Those inputs are kept under
 * tests/fuzz/pending/ and reported; with them in the way, the fuzzer would stop at the
 * library on nearly every run instead of exploring ktrace's code. So each text never seen
 * before is first parsed in a forked child; if the child dies, the parent reports a parse
 * failure (which the reader must handle anyway) instead of crashing.
 */
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>
#include <sanitizer/common_interface_defs.h>

enum tep_errno __real_tep_parse_event(struct tep_handle *tep, const char *buf, unsigned long size,
				      const char *sys);
enum tep_errno __wrap_tep_parse_event(struct tep_handle *tep, const char *buf, unsigned long size,
				      const char *sys);
int __real_tep_parse_printk_formats(struct tep_handle *tep, const char *buf);
int __wrap_tep_parse_printk_formats(struct tep_handle *tep, const char *buf);

/* Texts known to parse without crashing, by hash: a harness-only cache, cleared when full. */
#define GUARD_SLOTS (1 << 16)
static uint64_t known[GUARD_SLOTS];
static unsigned int nr_known;

static uint64_t hash(const char *buf, size_t size, const char *sys)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < size; i++)
		h = (h ^ (uint8_t)buf[i]) * 0x100000001b3ULL;
	for (; sys && *sys; sys++)
		h = (h ^ (uint8_t)*sys) * 0x100000001b3ULL;
	return h | 1;
}

static int lookup(uint64_t h, int add)
{
	unsigned int i = (unsigned int)h & (GUARD_SLOTS - 1);

	while (known[i] && known[i] != h)
		i = (i + 1) & (GUARD_SLOTS - 1);
	if (known[i] || !add)
		return known[i] != 0;
	if (++nr_known > GUARD_SLOTS / 2) {
		memset(known, 0, sizeof(known));
		nr_known = 1;
	}
	known[i] = h;
	return 1;
}

/* The child dies quietly: no sanitizer report, no libFuzzer crash artifact. */
static void quiet_child(void)
{
	static const int sigs[] = { SIGSEGV, SIGFPE, SIGBUS, SIGILL, SIGABRT };
	struct sigaction sa;
	unsigned int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	__sanitizer_set_death_callback(NULL);
	close(STDERR_FILENO);
}

/* 1 when parsing in a child went through. */
static int survives(struct tep_handle *tep, const char *buf, size_t size, const char *sys,
		    int printk)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return 1;
	if (pid == 0) {
		quiet_child();
		if (printk)
			__real_tep_parse_printk_formats(tep, buf);
		else
			__real_tep_parse_event(tep, buf, size, sys);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return 1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int guard(struct tep_handle *tep, const char *buf, size_t size, const char *sys,
		 int printk)
{
	uint64_t h = hash(buf, size, sys);

	if (lookup(h, 0))
		return 1;
	if (!survives(tep, buf, size, sys, printk))
		return 0;
	lookup(h, 1);
	return 1;
}

enum tep_errno __wrap_tep_parse_event(struct tep_handle *tep, const char *buf, unsigned long size,
				      const char *sys)
{
	if (!guard(tep, buf, size, sys, 0))
		return TEP_ERRNO__READ_FORMAT_FAILED;
	return __real_tep_parse_event(tep, buf, size, sys);
}

int __wrap_tep_parse_printk_formats(struct tep_handle *tep, const char *buf)
{
	if (!guard(tep, buf, strlen(buf), NULL, 1))
		return -1;
	return __real_tep_parse_printk_formats(tep, buf);
}
