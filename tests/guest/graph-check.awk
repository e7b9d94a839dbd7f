# Structure of a function_graph report; see graph_check in check-lib.sh for the rules.
# Durations print in microseconds with three decimals, so 0.002 absorbs rounding.
#
# Durations are summed by the printed level (the kernel's depth field, two spaces a level), not
# by counting braces: an interrupt taken while a leaf call is being entered is printed before
# that leaf, one level deeper than the leaf and with no opening line of its own (the leaf's
# entry is written only at its return), and its time is also inside the leaf's duration.
# Counted by braces, that interrupt would be added to the parent twice.

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
	match(body, /^ */)
	level = int(RLENGTH / 2)
	sub(/^ +/, "", body)
	d = duration(substr($0, 1, bar))
	if (level > deepest && body ~ /(\(\) \{|\(\);)$/)
		deepest = level
	if (body ~ /\(\) \{$/) {
		depth[t]++
		sum[t, level + 1] = 0
		fn[t, level] = body
		entries++
	} else if (body ~ /\(\);$/) {
		if (d < 0) {
			print "no duration on a leaf call: " $0
			bad++
		}
		sum[t, level] += d
		leaves++
	} else if (body ~ /^\}/) {
		if (depth[t] == 0) {
			if (name[t] == comm) {
				print "a '}' without its '{' in the traced command: " $0
				bad++
			}
			next
		}
		if (d + 0.002 < sum[t, level + 1]) {
			printf "%s lasted %.3f us but its calls add up to %.3f us: %s\n",
				fn[t, level], d, sum[t, level + 1], $0
			bad++
		}
		depth[t]--
		sum[t, level] += d
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
