# issue 16: the irqsoff tracer: the longest irqs-off section, while a pipe moves 4 MB (its
# locks are taken with interrupts off) and getppid_helper runs.
# Recorded by record, start+extract and trace-cmd; stream refuses it (latency_cases).

guest()
{
	latency_cases irqsoff '_raw_spin_*' sh -c 'dd if=/dev/zero bs=65536 count=64 2> /dev/null | cat > /dev/null; getppid_helper 50 > /dev/null'
}

check()
{
	latency_check irqsoff
}
