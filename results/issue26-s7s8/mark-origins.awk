# mark-origins.awk TRACE: each futex_ping_unlock release (an unlock that
# woke nobody because a waiter is marked as on its way) by the word it
# wrote, by what marked that waiter (the last wake or wake_donor event
# naming it, or its own look=spin), and by next_state. Prints
# "COUNT WORD ORIGIN STATE".
/futex_ping_unlock:/ {
	how = word = nxt = st = ""
	for (i = 1; i <= NF; i++) {
		if ($i ~ /^how=/) how = substr($i, 5)
		if ($i ~ /^word=/) word = substr($i, 6)
		if ($i ~ /^next=/) nxt = substr($i, 6)
		if ($i ~ /^next_state=/) st = substr($i, 12)
	}
	if (how == "wake" || how == "wake_donor") origin[nxt] = how
	if (how == "release") n[(word == "0x80000000" ? "W" : "0") " " origin[nxt] " " st]++
	next
}
/futex_ping_wait:/ {
	split($1, a, "-")
	pid = a[length(a)]
	for (i = 1; i <= NF; i++) if ($i ~ /^look=/) look = substr($i, 6)
	if (look == "spin") origin[pid] = "self-spin"
}
END { for (k in n) print n[k], k }
