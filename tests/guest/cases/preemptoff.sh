# issue 16: the preemptoff tracer (CONFIG_PREEMPT): the longest preempt-off section, under the same
# pipe workload as irqsoff.
# Recorded by record, start+extract and trace-cmd; stream refuses it (latency_cases).

guest()
{
	latency_cases preemptoff '_raw_spin_*' sh -c 'dd if=/dev/zero bs=65536 count=64 2> /dev/null | cat > /dev/null; getppid_helper 50 > /dev/null'
}

check()
{
	latency_check preemptoff
}
