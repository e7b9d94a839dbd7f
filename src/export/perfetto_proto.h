/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTRACE_EXPORT_PERFETTO_PROTO_H
#define KTRACE_EXPORT_PERFETTO_PROTO_H

/*
 * Field numbers of the Perfetto trace messages the export writes, as Perfetto's .proto files
 * (github.com/google/perfetto, protos/perfetto/...) declare them. They are the format: a wrong
 * number is a silently wrong trace, so tests/interop/export/perfetto_subset.proto repeats them
 * and the tests decode our output with protoc against it.
 */

/* trace/trace.proto: Trace */
enum { PF_TRACE_PACKET = 1 };

/* trace/trace_packet.proto: TracePacket */
enum {
	PF_PACKET_FTRACE_EVENTS = 1,
	PF_PACKET_PROCESS_TREE = 2,
	PF_PACKET_TIMESTAMP = 8,
	PF_PACKET_SEQUENCE_ID = 10,		/* trusted_packet_sequence_id */
	PF_PACKET_TRACK_EVENT = 11,
	PF_PACKET_SEQUENCE_FLAGS = 13,
	PF_PACKET_SYSTEM_INFO = 45,
	PF_PACKET_TRACK_DESCRIPTOR = 60,
	PF_PACKET_MACHINE_ID = 98,		/* 0 or absent: the host */
};

/* TracePacket.SequenceFlags */
enum { PF_SEQ_INCREMENTAL_STATE_CLEARED = 1 };

/* trace/ftrace/ftrace_event_bundle.proto: FtraceEventBundle */
enum {
	PF_BUNDLE_CPU = 1,
	PF_BUNDLE_EVENT = 2,
	PF_BUNDLE_LOST_EVENTS = 3,
};

/* trace/ftrace/ftrace_event.proto: FtraceEvent (the event is a oneof) */
enum {
	PF_FTRACE_TIMESTAMP = 1,
	PF_FTRACE_PID = 2,
	PF_FTRACE_PRINT = 3,
	PF_FTRACE_SCHED_SWITCH = 4,
	PF_FTRACE_SCHED_WAKEUP = 17,
	PF_FTRACE_SCHED_WAKING = 20,
	PF_FTRACE_SCHED_WAKEUP_NEW = 114,
	PF_FTRACE_GENERIC = 327,
};

/* trace/ftrace/sched.proto: SchedSwitchFtraceEvent */
enum {
	PF_SWITCH_PREV_COMM = 1,
	PF_SWITCH_PREV_PID = 2,
	PF_SWITCH_PREV_PRIO = 3,
	PF_SWITCH_PREV_STATE = 4,
	PF_SWITCH_NEXT_COMM = 5,
	PF_SWITCH_NEXT_PID = 6,
	PF_SWITCH_NEXT_PRIO = 7,
};

/* trace/ftrace/sched.proto: SchedWakeup, SchedWaking and SchedWakeupNew share these */
enum {
	PF_WAKE_COMM = 1,
	PF_WAKE_PID = 2,
	PF_WAKE_PRIO = 3,
	PF_WAKE_SUCCESS = 4,
	PF_WAKE_TARGET_CPU = 5,
};

/* trace/ftrace/ftrace.proto: PrintFtraceEvent */
enum {
	PF_PRINT_IP = 1,
	PF_PRINT_BUF = 2,
};

/* trace/ftrace/generic.proto: GenericFtraceEvent and its Field */
enum {
	PF_GENERIC_EVENT_NAME = 1,
	PF_GENERIC_FIELD = 2,
	PF_FIELD_NAME = 1,
	PF_FIELD_STR = 3,
	PF_FIELD_INT = 4,
	PF_FIELD_UINT = 5,
};

/* trace/track_event/track_descriptor.proto: TrackDescriptor */
enum {
	PF_TRACK_UUID = 1,
	PF_TRACK_NAME = 2,
	PF_TRACK_THREAD = 4,
};

/* trace/track_event/thread_descriptor.proto: ThreadDescriptor */
enum {
	PF_THREAD_PID = 1,
	PF_THREAD_TID = 2,
	PF_THREAD_NAME = 5,
};

/* trace/track_event/track_event.proto: TrackEvent and TrackEvent.Type */
enum {
	PF_EVENT_CATEGORIES = 22,
	PF_EVENT_NAME = 23,
	PF_EVENT_TYPE = 9,
	PF_EVENT_TRACK_UUID = 11,
	PF_TYPE_SLICE_BEGIN = 1,
	PF_TYPE_SLICE_END = 2,
	PF_TYPE_INSTANT = 3,
};

/* trace/ps/process_tree.proto: ProcessTree, its Process and Thread */
enum {
	PF_TREE_PROCESSES = 1,
	PF_TREE_THREADS = 2,
	PF_PROCESS_PID = 1,
	PF_PROCESS_CMDLINE = 3,
	PF_PROCESS_CMDLINE_IS_COMM = 9,
	PF_TREE_THREAD_TID = 1,
	PF_TREE_THREAD_NAME = 2,
	PF_TREE_THREAD_TGID = 3,
};

/* common/system_info.proto: SystemInfo and Utsname */
enum {
	PF_SYSINFO_UTSNAME = 1,
	PF_UTS_SYSNAME = 1,
	PF_UTS_VERSION = 2,
	PF_UTS_RELEASE = 3,
	PF_UTS_MACHINE = 4,
};

#endif
