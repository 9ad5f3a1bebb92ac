// SPDX-License-Identifier: GPL-2.0
/*
 * ping-bucket: what unrelated FUTEX_WAIT sleepers in a PING lock's hash
 * bucket cost the unlocks of that lock while they hold the PING wait lock
 * (a raw spinlock taken with interrupts off). Meant for a guest of a
 * CONFIG_LOCK_STAT kernel (configs/lockstat.config): clear /proc/lock_stat
 * before, read the PING wait lock's class after ("wait_lock" lines; its
 * holdtime-max and holdtime-avg are the interrupts-off stretches).
 *
 * The process shrinks its private futex hash to 2 slots
 * (PR_FUTEX_HASH_SET_SLOTS), parks SLEEPERS threads in FUTEX_WAIT, each on
 * a word of its own (about half of them hash to the lock's bucket), then
 * runs ROUNDS rounds on one CPU:
 *
 *   -m unlock  the main thread (nice 19) takes the lock, a waiter of nice
 *              19 queues on it with FUTEX_LOCK_PING, then one of nice -20,
 *              the main thread runs for 2 ms and unlocks in the kernel.
 *              With Proxy Execution the scheduler runs the owner almost
 *              only on the context of the nice -20 waiter, its donor,
 *              which is not the top waiter: the unlock then looks for
 *              that donor among the bucket's waiters, and wakes it first
 *              (the program counts the rounds in which the donor took
 *              the lock first).
 *   -m exit    a thread takes the lock, two waiters queue on it, and the
 *              thread exits holding it: its exit looks for the top waiter
 *              among the bucket's waiters.
 *   -m states  (no sleepers, the hash left as it is) a thread takes
 *              STATES PING locks, then STATES PI locks, a waiter queues on
 *              each, PING first, and the thread exits holding them all:
 *              its exit releases 2 x STATES futex states, with the
 *              task's pi_futex_lock held to take each off its list (read
 *              that class, "pi_futex_lock", from /proc/lock_stat).
 *
 * Every wait has a timeout (10 s) and every failure ends the program with
 * a message and exit status 1, so a lost wakeup does not hang it.
 *
 * Usage: ping-bucket [-n SLEEPERS] [-s STATES] [-r ROUNDS] [-m unlock|exit|states]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef FUTEX_LOCK_PI2
#define FUTEX_LOCK_PI2		13
#endif
#ifndef FUTEX_LOCK_PING
#define FUTEX_LOCK_PING		14
#define FUTEX_UNLOCK_PING	15
#endif
#ifndef PR_FUTEX_HASH
#define PR_FUTEX_HASH		78
#define PR_FUTEX_HASH_SET_SLOTS	1
#endif

#define READ(x)		__atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define WRITE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELEASE)
#define INC(x)		__atomic_add_fetch(&(x), 1, __ATOMIC_ACQ_REL)

static uint32_t lock_word;
static uint32_t *sleep_words;
static int started, round_no, done_count, queued_tid[2], donor_first;
static uint32_t first_tid;

/* -m unlock: the owner's and the waiters' nice values; waiter 1 is the donor. */
static const int owner_nice = 19, waiter_nice[2] = { 19, -20 };

static void die(const char *what)
{
	fprintf(stderr, "ping-bucket: %s: %s\n", what, strerror(errno));
	exit(1);
}

static long futex(uint32_t *uaddr, int op, uint32_t val, const struct timespec *ts)
{
	return syscall(SYS_futex, uaddr, op, val, ts, NULL, 0);
}

static pid_t gettid_(void)
{
	return syscall(SYS_gettid);
}

static struct timespec deadline(long ns)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += ns / 1000000000 + (ts.tv_nsec + ns % 1000000000) / 1000000000;
	ts.tv_nsec = (ts.tv_nsec + ns % 1000000000) % 1000000000;
	return ts;
}

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static char task_state(pid_t tid)
{
	char path[64], buf[256], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/* How many of this process's threads sleep (state S). */
static int sleeping_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int count = 0;

	if (!d)
		die("/proc/self/task");
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && task_state(atoi(e->d_name)) == 'S')
			count++;
	closedir(d);
	return count;
}

/* Up to 10 s for @cond, else fail with @what. */
#define WAIT_FOR(cond, what) do {					\
	long __end = now_ns() + 10000000000L;				\
	while (!(cond)) {						\
		if (now_ns() > __end) {					\
			errno = ETIMEDOUT;				\
			die(what);					\
		}							\
		usleep(100);						\
	}								\
} while (0)

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static void *sleeper(void *arg)
{
	uint32_t *w = arg;

	INC(started);
	while (!READ(*w))
		futex(w, FUTEX_WAIT_PRIVATE, 0, NULL);
	return NULL;
}

static void unlock_word(uint32_t *w, uint32_t tid)
{
	uint32_t old = tid;

	if (!__atomic_compare_exchange_n(w, &old, 0, false,
					 __ATOMIC_RELEASE, __ATOMIC_RELAXED) &&
	    futex(w, FUTEX_UNLOCK_PING | FUTEX_PRIVATE_FLAG, 0, NULL))
		die("FUTEX_UNLOCK_PING");
}

static void unlock(uint32_t tid)
{
	unlock_word(&lock_word, tid);
}

/* -m states: a lock of the owner's, PING or PI, and its waiter. */
struct held {
	uint32_t word;
	int ping;
	int tid;
	pthread_t thread;
};

static void *state_waiter(void *arg)
{
	struct held *h = arg;
	struct timespec ts = deadline(60000000000L);
	uint32_t tid = gettid_();

	WRITE(h->tid, tid);
	if (futex(&h->word, (h->ping ? FUTEX_LOCK_PING : FUTEX_LOCK_PI2) | FUTEX_PRIVATE_FLAG,
		  0, &ts))
		die(h->ping ? "FUTEX_LOCK_PING (states)" : "FUTEX_LOCK_PI2 (states)");
	if (h->ping)
		unlock_word(&h->word, tid);
	else if (futex(&h->word, FUTEX_UNLOCK_PI | FUTEX_PRIVATE_FLAG, 0, NULL))
		die("FUTEX_UNLOCK_PI (states)");
	INC(done_count);
	return NULL;
}

static struct held *held;
static int nr_held;

static bool all_queued(int from, int to)
{
	for (int i = from; i < to; i++)
		if (!READ(held[i].tid) || !(READ(held[i].word) & FUTEX_WAITERS) ||
		    task_state(READ(held[i].tid)) != 'S')
			return false;
	return true;
}

/* The owner: take every lock, let the waiters queue (PING first), exit. */
static void *states_owner(void *arg)
{
	pthread_attr_t attr;
	uint32_t tid = gettid_();

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (int i = 0; i < nr_held; i++) {
		memset(&held[i], 0, sizeof(held[i]));
		held[i].ping = i < nr_held / 2;
		held[i].word = tid;
	}
	WRITE(*(uint32_t *)arg, tid);
	for (int part = 0; part < 2; part++) {
		int from = part ? nr_held / 2 : 0, to = part ? nr_held : nr_held / 2;

		for (int i = from; i < to; i++)
			if (pthread_create(&held[i].thread, &attr, state_waiter, &held[i]))
				die("pthread_create (states waiter)");
		WAIT_FOR(all_queued(from, to), "states waiters queued");
	}
	return NULL;
}

/* A waiter: each round, queue on the lock, take it, release it. */
static void *waiter(void *arg)
{
	int idx = (long)arg, seen = 0;
	uint32_t tid = gettid_();
	struct timespec ts;

	pin(0);
	if (setpriority(PRIO_PROCESS, tid, waiter_nice[idx]))
		die("setpriority (waiter)");
	for (;;) {
		uint32_t none = 0;

		while (READ(round_no) == seen)
			futex((uint32_t *)&round_no, FUTEX_WAIT_PRIVATE, seen, NULL);
		seen = READ(round_no);
		if (seen < 0)
			return NULL;
		/* Waiter 0 first: it is the top waiter, waiter 1 the donor. */
		if (idx)
			WAIT_FOR(READ(queued_tid[0]) && (READ(lock_word) & FUTEX_WAITERS) &&
				 task_state(READ(queued_tid[0])) == 'S', "the first waiter queued");
		WRITE(queued_tid[idx], tid);
		ts = deadline(10000000000L);
		if (futex(&lock_word, FUTEX_LOCK_PING | FUTEX_PRIVATE_FLAG, 0, &ts))
			die("FUTEX_LOCK_PING");
		if (__atomic_compare_exchange_n(&first_tid, &none, tid, false,
						__ATOMIC_ACQ_REL, __ATOMIC_RELAXED) && idx)
			INC(donor_first);
		unlock(tid);
		INC(done_count);
	}
}

static void *exiting_owner(void *arg)
{
	uint32_t old = 0, tid = gettid_();

	pin(0);
	if (!__atomic_compare_exchange_n(&lock_word, &old, tid, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		die("the lock is not free at the start of a round");
	WRITE(*(uint32_t *)arg, tid);
	/* Hold the lock until both waiters sleep on it, then exit with it. */
	WAIT_FOR(READ(queued_tid[0]) && READ(queued_tid[1]) &&
		 (READ(lock_word) & FUTEX_WAITERS) &&
		 task_state(READ(queued_tid[0])) == 'S' &&
		 task_state(READ(queued_tid[1])) == 'S', "waiters queued");
	return NULL;
}

int main(int argc, char **argv)
{
	int n = 0, states = 0, rounds = 100, exit_mode = 0, states_mode = 0, o, r;
	pthread_t w[2], t;
	pthread_attr_t attr;

	while ((o = getopt(argc, argv, "n:s:r:m:")) != -1) {
		switch (o) {
		case 'n': n = atoi(optarg); break;
		case 's': states = atoi(optarg); break;
		case 'r': rounds = atoi(optarg); break;
		case 'm':
			exit_mode = !strcmp(optarg, "exit");
			states_mode = !strcmp(optarg, "states");
			if (exit_mode || states_mode || !strcmp(optarg, "unlock"))
				break;
			/* fall through */
		default:
			fprintf(stderr, "usage: ping-bucket [-n SLEEPERS] [-s STATES] [-r ROUNDS] [-m unlock|exit|states]\n");
			return 2;
		}
	}
	if (states_mode) {
		nr_held = 2 * states;
		held = calloc(nr_held ? nr_held : 1, sizeof(*held));
		for (r = 1; r <= rounds; r++) {
			uint32_t owner = 0;
			pthread_t t;

			WRITE(done_count, 0);
			if (pthread_create(&t, NULL, states_owner, &owner))
				die("pthread_create (states owner)");
			pthread_join(t, NULL);
			WAIT_FOR(READ(done_count) == nr_held, "every states waiter took its lock");
			for (int i = 0; i < nr_held; i++)
				pthread_join(held[i].thread, NULL);
		}
		printf("ping-bucket: %d PING and %d PI states, %d rounds, mode states: done\n",
		       states, states, rounds);
		return 0;
	}
	if (prctl(PR_FUTEX_HASH, PR_FUTEX_HASH_SET_SLOTS, 2, 0))
		die("PR_FUTEX_HASH_SET_SLOTS 2");

	sleep_words = calloc(n ? n : 1, sizeof(*sleep_words));
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (int i = 0; i < n; i++)
		if (pthread_create(&t, &attr, sleeper, &sleep_words[i]))
			die("pthread_create (sleeper)");
	WAIT_FOR(READ(started) == n && sleeping_threads() >= n, "sleepers asleep");

	for (long i = 0; i < 2; i++)
		if (pthread_create(&w[i], NULL, waiter, (void *)i))
			die("pthread_create (waiter)");
	pin(0);
	if (!exit_mode && setpriority(PRIO_PROCESS, gettid_(), owner_nice))
		die("setpriority (owner)");
	for (r = 1; r <= rounds; r++) {
		uint32_t old = 0, tid = gettid_(), owner = 0;

		WRITE(queued_tid[0], 0);
		WRITE(queued_tid[1], 0);
		WRITE(done_count, 0);
		WRITE(first_tid, 0);
		if (exit_mode) {
			if (pthread_create(&t, NULL, exiting_owner, &owner))
				die("pthread_create (owner)");
			WAIT_FOR(READ(owner), "owner started");
		} else if (!__atomic_compare_exchange_n(&lock_word, &old, tid, false,
							__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
			errno = EBUSY;
			die("the lock is not free at the start of a round");
		}
		WRITE(round_no, r);
		futex((uint32_t *)&round_no, FUTEX_WAKE_PRIVATE, 2, NULL);
		if (exit_mode) {
			pthread_join(t, NULL);
		} else {
			WAIT_FOR(READ(queued_tid[0]) && READ(queued_tid[1]) &&
				 (READ(lock_word) & FUTEX_WAITERS) &&
				 task_state(READ(queued_tid[0])) == 'S' &&
				 task_state(READ(queued_tid[1])) == 'S', "waiters queued");
			/* Run on: the scheduler may pick a waiter as our donor. */
			for (long end = now_ns() + 2000000; now_ns() < end;)
				;
			unlock(tid);
		}
		WAIT_FOR(READ(done_count) == 2, "both waiters took the lock");
	}
	WRITE(round_no, -1);
	futex((uint32_t *)&round_no, FUTEX_WAKE_PRIVATE, 2, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(w[i], NULL);
	printf("ping-bucket: %d sleepers, %d rounds, mode %s: done", n, rounds,
	       exit_mode ? "exit" : "unlock");
	if (!exit_mode)
		printf(", the donor (not the top waiter) took the lock first in %d",
		       READ(donor_first));
	printf("\n");
	return 0;
}
