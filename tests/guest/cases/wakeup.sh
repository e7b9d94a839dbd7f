# issue 16: the wakeup tracer: the longest wake-up of a task of a higher priority than the
# running one (here the nice -10 child of wakeup_helper, woken through a pipe).
# Recorded by record, start+extract and trace-cmd; stream refuses it (latency_cases).

guest()
{
	latency_cases wakeup 'try_to_wake_up' wakeup_helper other 20
}

check()
{
	latency_check wakeup
}
