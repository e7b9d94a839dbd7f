# guest A ("host" role): records itself and guest B (agent) over TCP with trace-cmd 3.1.6.
# Host events: process life only (the ptp syncs keep the host recording ~100 s); guest: all sched.
# WORKLOAD: a marker exchange with guest B: host-send, ping to B, B's pong back, host-receive;
# 5 s between each marker and the message, more than the ptp sync's error under TCG (1-2 s seen)
ip link set eth0 up
ip addr add 192.168.77.1/24 dev eth0
i=0; while ! ping -c 1 -W 1 192.168.77.2 >/dev/null 2>&1 && [ $i -lt 60 ]; do i=$((i+1)); done
nc -l -p 8398
M=/sys/kernel/tracing/trace_marker
trace-cmd record -o /out/host.dat -s 100000 -e sched_process_fork -e sched_process_exec -e sched_process_exit -A 192.168.77.2:8390 --name guestb -e sched sh -c 'sleep 2; nc -l -p 8401 > /tmp/pong & sleep 0.5; echo host-send > /sys/kernel/tracing/trace_marker; sleep 5; echo ping | nc 192.168.77.2 8400; wait; sleep 5; echo host-receive > /sys/kernel/tracing/trace_marker; sleep 1'
echo "record exit $?"
echo done | nc 192.168.77.2 8399
cat /tmp/pong
ls -l /out
