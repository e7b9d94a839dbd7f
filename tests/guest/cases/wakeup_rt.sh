# issue 16: the wakeup_rt tracer: the longest wake-up of an RT task, a SCHED_FIFO child of
# wakeup_helper woken through a pipe by its ordinary parent.
# Recorded by record, start+extract and trace-cmd; stream refuses it (latency_cases).

guest()
{
	latency_cases wakeup_rt 'try_to_wake_up' wakeup_helper fifo 20
}

check()
{
	latency_check wakeup_rt
	expect rec.dat.tc.txt '^#    \| task: .*policy:1 rt_prio:[0-9]+\)' 'the woken task is SCHED_FIFO'
}
