-- The example questions of ktrace-sql(1) and the README, one per block: "-- NAME: what it
-- asks", then the query. tests/interop/sql/check_derived.py runs each on the corpus and
-- checks its answer against ktrace hist, report --profile and report's text.

-- top_tasks: top tasks by CPU time (ms), the last slice of each CPU ending with the trace
WITH s AS (SELECT *, coalesce(dur, (SELECT max(ts) FROM events) - ts) AS d FROM thread_state)
SELECT pid, comm, round(sum(d) / 1e6, 3) AS cpu_ms, count(*) AS runs
FROM s WHERE state = 'running' GROUP BY pid ORDER BY sum(d) DESC LIMIT 10;

-- syscall_p99: syscalls by p99 latency (ns; exact percentiles, as ktrace hist computes them)
WITH d AS (SELECT name, dur, row_number() OVER (PARTITION BY name ORDER BY dur) AS rk,
                  count(*) OVER (PARTITION BY name) AS n FROM syscall WHERE dur IS NOT NULL)
SELECT name, n AS count, min(dur) AS min,
       min(CASE WHEN rk >= (n * 50 + 99) / 100 THEN dur END) AS p50,
       min(CASE WHEN rk >= (n * 99 + 99) / 100 THEN dur END) AS p99, max(dur) AS max
FROM d GROUP BY name ORDER BY p99 DESC, name;

-- longest_calls: the longest calls of a function under function_graph, with their caller
SELECT c.ts, c.pid, c.func, c.dur, p.func AS caller
FROM fgraph_call c LEFT JOIN fgraph_call p ON p.id = c.parent_id
WHERE c.func = (SELECT func FROM fgraph_call GROUP BY func ORDER BY count(*) DESC, func LIMIT 1)
ORDER BY c.dur DESC LIMIT 5;

-- wakeup_per_comm: wakeup latency per comm (ns)
SELECT comm, count(*) AS wakeups, round(avg(latency)) AS avg, max(latency) AS max
FROM wakeup GROUP BY comm ORDER BY max DESC, comm;

-- events_per_second: events per second per CPU
SELECT ts / 1000000000 AS second, cpu, count(*) AS events
FROM events GROUP BY second, cpu ORDER BY second, cpu;

-- kprobe_in_syscall: a kprobe joined with the syscall it happened in (the task's syscall
-- whose entry and exit enclose the probe's hit)
SELECT k.ts, k.pid, k.comm, s.name AS syscall, s.ret, k.ts - s.ts AS into_syscall
FROM myopen k JOIN syscall s ON s.pid = k.pid AND k.ts BETWEEN s.ts AND s.ts + s.dur
ORDER BY k.ts;
