# ping-locks.awk: the locks that went through PING, from the lines that
# libpingmutex prints at each process's exit with PINGMUTEX_STATS=1
# ("libpingmutex[PID]: MODE mutexes on PING; locks: A fast path, B steals,
# C FUTEX_LOCK_PING ..."), summed over the processes whose MODE is the
# awk variable mode ("all" or "PTHREAD_PRIO_INHERIT"). Prints the sum;
# exits 1 if no such line was printed (a library that was not loaded, or
# that left every mutex to glibc, prints none).
#
#	awk -v mode=all -f pingmutex/ping-locks.awk OUTPUT
/^libpingmutex\[[0-9]+\]: / {
	if (index($0, mode " mutexes on PING; locks: ") == 0)
		next
	lines++
	s = $0
	sub(/.*locks: /, "", s)
	split(s, f, /[ ,;]+/)
	n += f[1] + f[4] + f[6]
}
END { if (!lines) exit 1; print n + 0 }
