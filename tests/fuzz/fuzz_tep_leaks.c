// SPDX-License-Identifier: GPL-2.0-only
/*
 * For the libFuzzer builds (linked with --wrap): libtraceevent 1.7.1 leaks what
 * tep_parse_event() or tep_parse_format() (the same parser) had built when it gives up on a
 * damaged format, what tep_filter_add_filter_str() had built when it refuses a filter, and the
 * comm tep_parse_saved_cmdlines() read on a line whose pid overflows an int.
 * lsan.supp names them, but LeakSanitizer matches only the frames it kept
 * (malloc_context_size), and on
 * nested print arguments the parser recurses deeper than that: the suppression misses and
 * the fuzzer stops at the library's leak; and keeping deep stacks of every allocation halves
 * the speed. So the allocations made inside the parsers are left out of leak checking here,
 * whatever the depth. What they build for ktrace hangs off the tep handle or the filter,
 * both allocated outside: a handle or filter ktrace forgets to free still leaks.
 */
#include <sanitizer/lsan_interface.h>

#include <event-parse.h>

enum tep_errno __real_tep_parse_event(struct tep_handle *tep, const char *buf, unsigned long size,
				      const char *sys);
enum tep_errno __wrap_tep_parse_event(struct tep_handle *tep, const char *buf, unsigned long size,
				      const char *sys);

enum tep_errno __real_tep_parse_format(struct tep_handle *tep, struct tep_event **eventp,
				       const char *buf, unsigned long size, const char *sys);
enum tep_errno __wrap_tep_parse_format(struct tep_handle *tep, struct tep_event **eventp,
				       const char *buf, unsigned long size, const char *sys);

enum tep_errno __real_tep_filter_add_filter_str(struct tep_event_filter *filter,
						const char *filter_str);
enum tep_errno __wrap_tep_filter_add_filter_str(struct tep_event_filter *filter,
						const char *filter_str);

int __real_tep_parse_saved_cmdlines(struct tep_handle *tep, const char *buf);
int __wrap_tep_parse_saved_cmdlines(struct tep_handle *tep, const char *buf);

enum tep_errno __wrap_tep_parse_event(struct tep_handle *tep, const char *buf, unsigned long size,
				      const char *sys)
{
	enum tep_errno ret;

	__lsan_disable();
	ret = __real_tep_parse_event(tep, buf, size, sys);
	__lsan_enable();
	return ret;
}

enum tep_errno __wrap_tep_parse_format(struct tep_handle *tep, struct tep_event **eventp,
				       const char *buf, unsigned long size, const char *sys)
{
	enum tep_errno ret;

	__lsan_disable();
	ret = __real_tep_parse_format(tep, eventp, buf, size, sys);
	__lsan_enable();
	return ret;
}

enum tep_errno __wrap_tep_filter_add_filter_str(struct tep_event_filter *filter,
						const char *filter_str)
{
	enum tep_errno ret;

	__lsan_disable();
	ret = __real_tep_filter_add_filter_str(filter, filter_str);
	__lsan_enable();
	return ret;
}

int __wrap_tep_parse_saved_cmdlines(struct tep_handle *tep, const char *buf)
{
	int ret;

	__lsan_disable();
	ret = __real_tep_parse_saved_cmdlines(tep, buf);
	__lsan_enable();
	return ret;
}
