# issue 16: the wakeup tracer: the longest wake-up of a task of a higher priority than the
# running one (here the nice -10 child of wakeup_helper, woken through a pipe).
# Recorded by record, start+extract and trace-cmd; stream refuses it (latency_cases).

guest()
{
	latency_cases wakeup 'try_to_wake_up' wakeup_helper other 20
}

# Open: in this guest (one CPU, TCG) the wakeup tracer kept no max-latency path in any of the
# three recordings, trace-cmd's included: `trace` holds the header alone. So what is checked is
# that both reports print that alike and record's restore; wakeup_rt and wakeup_dl have paths.
check()
{
	for dat in rec.dat ext.dat tc.dat; do
		same_report $dat
		expect $dat.tc.txt '^# tracer: wakeup$' "$dat holds the wakeup tracer's text"
	done
	expect max.txt '^after 7$' 'record put tracing_max_latency back'
	expect stream.txt 'nothing to stream' 'stream refuses a latency tracer'
	tracefs_at_defaults
}
