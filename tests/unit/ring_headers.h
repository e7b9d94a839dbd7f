/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_TEST_RING_HEADERS_H
#define KTRACE_TEST_RING_HEADERS_H

/* events/header_page and events/header_event of x86_64 with 4 KB pages, for synthetic files. */

#define RING_HEADER_PAGE \
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n" \
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n" \
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n" \
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n"

#define RING_HEADER_EVENT \
	"# compressed entry header\n\ttype_len    :    5 bits\n\ttime_delta  :   27 bits\n" \
	"\tarray       :   32 bits\n\n\tpadding     : type == 29\n\ttime_extend : type == 30\n" \
	"\ttime_stamp : type == 31\n\tdata max type_len  == 28\n"

#endif
