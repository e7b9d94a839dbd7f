# guest B ("guest" role): trace-cmd 3.1.6 agent over TCP, a marker loop, and the exchange with A.
ip link set eth0 up
ip addr add 192.168.77.2/24 dev eth0
i=0; while ! ping -c 1 -W 1 192.168.77.1 >/dev/null 2>&1 && [ $i -lt 60 ]; do i=$((i+1)); done
trace-cmd agent -N 192.168.77.1 -p 8390 &
agent=$!
M=/sys/kernel/tracing/trace_marker
( n=0; while :; do n=$((n+1)); echo guest-mark-$n > $M; [ -n "$FUNC" ] && head -c 64 /proc/version >/dev/null; sleep 0.3; done ) &
loop=$!
( nc -l -p 8400 > /tmp/ping; echo guest-receive > $M; sleep 5; echo guest-send > $M; echo pong | nc 192.168.77.1 8401 ) &
sleep 1
echo ready | nc 192.168.77.1 8398
nc -l -p 8399
kill $loop
sleep 1
kill $agent
wait $agent
cat /tmp/ping
ls -l /out /work
