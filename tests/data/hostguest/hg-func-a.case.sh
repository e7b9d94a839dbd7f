# guest A ("host" role): host sched_switch (without trace-cmd's own) and exec; guest: function
# tracer on vfs_read, sched_switch and sched_wakeup; tsync every second. The marker exchange
# with guest B has 5 s between each marker and the message (the ptp sync's error under TCG is
# 1-2 s).
ip link set eth0 up
ip addr add 192.168.77.1/24 dev eth0
i=0; while ! ping -c 1 -W 1 192.168.77.2 >/dev/null 2>&1 && [ $i -lt 60 ]; do i=$((i+1)); done
nc -l -p 8398
trace-cmd record -o /out/hostfn.dat --tsync-interval 1000 -s 100000 -e sched_switch -f 'prev_comm != "trace-cmd" && next_comm != "trace-cmd"' -e sched_process_exec -A 192.168.77.2:8390 -p function -l vfs_read -e sched_switch -e sched_wakeup sh -c 'sleep 2; nc -l -p 8401 > /tmp/pong & sleep 0.5; echo host-send > /sys/kernel/tracing/trace_marker; sleep 5; echo ping | nc 192.168.77.2 8400; wait; sleep 5; echo host-receive > /sys/kernel/tracing/trace_marker; sleep 1'
echo "record exit $?"
echo done | nc 192.168.77.2 8399
cat /tmp/pong
ls -l /out
