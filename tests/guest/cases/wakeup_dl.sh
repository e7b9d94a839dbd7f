# issue 16: the wakeup_dl tracer: the longest wake-up of a SCHED_DEADLINE task, a child of
# wakeup_helper woken through a pipe. trace-cmd 3.1.6 does not count wakeup_dl among the
# latency tracers: it records the ring buffer, which both reports must print alike all the same.
# Recorded by record, start+extract and trace-cmd; stream refuses it (latency_cases).

guest()
{
	latency_cases wakeup_dl 'try_to_wake_up' wakeup_helper dl 20
}

check()
{
	latency_check wakeup_dl rec.dat ext.dat
	same_report tc.dat
	expect rec.dat.tc.txt '^#    \| task: wakeup_helper-[0-9]+ .*policy:6 ' 'the woken task is SCHED_DEADLINE'
}
