# Structure of a function_graph report; see graph_check in check-lib.sh for the rules.
# Durations print in microseconds with three decimals, so 0.002 absorbs rounding.

function task_of(line,    head, i)
{
	head = substr(line, 1, index(line, " [") - 1)
	gsub(/^ +| +$/, "", head)
	i = match(head, /-[0-9]+$/)
	name[head] = substr(head, 1, i - 1)
	return head
}

function duration(line,    s)
{
	if (!match(line, /[0-9]+\.[0-9]+ us/))
		return -1
	s = substr(line, RSTART, RLENGTH)
	return s + 0
}

/funcgraph_(entry|exit):/ {
	t = task_of($0)
	bar = index($0, "|")
	body = substr($0, bar + 1)
	sub(/^ +/, "", body)
	d = duration(substr($0, 1, bar))
	if (body ~ /\(\) \{$/) {
		depth[t]++
		sum[t, depth[t]] = 0
		fn[t, depth[t]] = body
		entries++
		if (depth[t] > deepest)
			deepest = depth[t]
	} else if (body ~ /\(\);$/) {
		if (d < 0) {
			print "no duration on a leaf call: " $0
			bad++
		}
		sum[t, depth[t]] += d
		leaves++
		if (depth[t] + 1 > deepest)
			deepest = depth[t] + 1
	} else if (body ~ /^\}/) {
		if (depth[t] == 0) {
			if (name[t] == comm) {
				print "a '}' without its '{' in the traced command: " $0
				bad++
			}
			next
		}
		if (d + 0.002 < sum[t, depth[t]]) {
			printf "%s lasted %.3f us but its calls add up to %.3f us: %s\n",
				fn[t, depth[t]], d, sum[t, depth[t]], $0
			bad++
		}
		depth[t]--
		if (depth[t] > 0)
			sum[t, depth[t]] += d
		closed++
		if (name[t] == comm)
			closed_comm++
	}
}

END {
	for (t in depth)
		if (name[t] == comm && depth[t] != 0) {
			print t " ends " depth[t] " call(s) deep"
			bad++
		}
	if (comm != "" && closed_comm == 0) {
		print "no complete call of the traced command " comm
		bad++
	}
	if (maxdepth > 0 && deepest > maxdepth) {
		print "calls nested " deepest " deep, more than " maxdepth
		bad++
	}
	printf "graph: %d calls with a body, %d closed (%d by %s), %d leaf calls, %d deep\n",
		entries, closed, closed_comm, comm, leaves, deepest
	exit bad > 0
}
