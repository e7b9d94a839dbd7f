/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_TEST_SCHED_FORMATS_H
#define KTRACE_TEST_SCHED_FORMATS_H

/* The x86_64 formats of sched_switch (ID 319) and the wakeup events, for tep_parse_event(). */

#define SCHED_COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

#define SCHED_SWITCH_FMT SCHED_SWITCH_FMT_PRINT( \
	"\"prev_pid=%d next_pid=%d\", REC->prev_pid, REC->next_pid")

/* sched_switch with another print format: PRINT is what follows "print fmt: " */
#define SCHED_SWITCH_FMT_PRINT(print) \
	"name: sched_switch\nID: 319\nformat:\n" SCHED_COMMON_FIELDS \
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:1;\n" \
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n" \
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n" \
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n" \
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:1;\n" \
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n" \
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n" \
	"print fmt: " print "\n"

/* sched_wakeup, sched_waking, sched_wakeup_new: NAME and ID as strings */
#define SCHED_WAKE_FMT(name, id) \
	"name: " name "\nID: " id "\nformat:\n" SCHED_COMMON_FIELDS \
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:1;\n" \
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n" \
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n" \
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n\n" \
	"print fmt: \"pid=%d\", REC->pid\n"

#endif
