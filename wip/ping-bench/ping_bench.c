// SPDX-License-Identifier: GPL-2.0
/*
 * ping_bench: lock acquisition latency of futex-based locks.
 *
 * Every lock thread takes the lock -n times; each acquisition's latency
 * (from the first attempt to owning the lock) is one sample. Samples go
 * to standard output, one per line in ns, for ministat; a summary line
 * per run goes to standard error. The command line is that of the RFC's
 * tool (Link: https://lore.kernel.org/r/20260917043339.2093426-1-suleiman@google.com),
 * so its two command lines run as posted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef FUTEX_LOCK_PING
#define FUTEX_LOCK_PING		14
#define FUTEX_UNLOCK_PING	15
#define FUTEX_TRYLOCK_PING	16
#endif

static char kind = 'f';
static int nr_threads = 1, nr_busy, nr_rt;
static long iters = 10000, work, spacing, sleep_us = -1;
static bool bias, all, quiet;

static uint32_t word;			/* the futex word of kinds f, n, N, p */
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;	/* kind m */
static unsigned long counter;		/* protected by the lock */
static int go, thread0_done;		/* __atomic */

struct thread {
	pthread_t pt;
	int id;
	long work, spacing, sleep_us;
	int nice;
	long *samples;			/* iters - 1 of them */
	int err;
};

static long futex(uint32_t *uaddr, int op, uint32_t val)
{
	return syscall(SYS_futex, uaddr, op | FUTEX_PRIVATE_FLAG, val, NULL, NULL, 0);
}

static bool cas(uint32_t *p, uint32_t old, uint32_t new)
{
	return __atomic_compare_exchange_n(p, &old, new, false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

/* Kind f: the three-state FUTEX_WAIT lock of Drepper's "Futexes Are Tricky". */
static void wait_lock(void)
{
	uint32_t c = 0;

	if (__atomic_compare_exchange_n(&word, &c, 1, false, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED))
		return;
	if (c != 2)
		c = __atomic_exchange_n(&word, 2, __ATOMIC_ACQUIRE);
	while (c) {
		futex(&word, FUTEX_WAIT, 2);
		c = __atomic_exchange_n(&word, 2, __ATOMIC_ACQUIRE);
	}
}

static void wait_unlock(void)
{
	if (__atomic_exchange_n(&word, 0, __ATOMIC_RELEASE) == 2)
		futex(&word, FUTEX_WAKE, 1);
}

/* Kinds n, N and p: the owner's TID in the word, the kernel when contended. */
static int tid_lock(pid_t tid)
{
	int op = kind == 'p' ? FUTEX_LOCK_PI : FUTEX_LOCK_PING;

	if (cas(&word, 0, tid))
		return 0;
	/* N: a free lock with waiters is taken in user space (a steal). */
	if (kind == 'N' && cas(&word, FUTEX_WAITERS, tid | FUTEX_WAITERS))
		return 0;
	return futex(&word, op, 0) ? -errno : 0;
}

static int tid_unlock(pid_t tid)
{
	int op = kind == 'p' ? FUTEX_UNLOCK_PI : FUTEX_UNLOCK_PING;

	if (cas(&word, tid, 0))
		return 0;
	return futex(&word, op, 0) ? -errno : 0;
}

static int lock(pid_t tid)
{
	switch (kind) {
	case 'f':
		wait_lock();
		return 0;
	case 'm':
		return -pthread_mutex_lock(&mutex);
	default:
		return tid_lock(tid);
	}
}

static int unlock(pid_t tid)
{
	switch (kind) {
	case 'f':
		wait_unlock();
		return 0;
	case 'm':
		return -pthread_mutex_unlock(&mutex);
	default:
		return tid_unlock(tid);
	}
}

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static void spin(long n)
{
	for (volatile long i = 0; i < n; i++)
		;
}

static void *lock_thread(void *arg)
{
	struct thread *t = arg;
	pid_t tid = syscall(SYS_gettid);

	if (t->nice && setpriority(PRIO_PROCESS, tid, t->nice)) {
		t->err = errno;
		return NULL;
	}
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		;
	for (long i = 0; i < iters; i++) {
		long start = now_ns(), end;

		t->err = lock(tid);
		end = now_ns();
		if (t->err)
			break;
		counter++;
		spin(t->work);
		t->err = unlock(tid);
		if (t->err)
			break;
		/* The first acquisition finds cold caches: not a sample. */
		if (i)
			t->samples[i - 1] = end - start;
		if (t->sleep_us >= 0) {
			struct timespec ts = { 0, t->sleep_us * 1000 };

			clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
		} else {
			spin(t->spacing);
		}
	}
	if (!t->id)
		__atomic_store_n(&thread0_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void *busy_thread(void *arg __attribute__((unused)))
{
	while (!__atomic_load_n(&thread0_done, __ATOMIC_ACQUIRE))
		;
	return NULL;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
"usage: %s [-f f|m|n|N|p] [-t N] [-n N] [-w N] [-s N | -S US] [-b N] [-r N] [-p] [-a] [-q]\n"
"  -f KIND  lock: f FUTEX_WAIT/FUTEX_WAKE, m pthread_mutex_t, n FUTEX_LOCK_PING,\n"
"           N FUTEX_LOCK_PING with the user space steal W -> TID|W, p FUTEX_LOCK_PI\n"
"  -t N     lock threads (1)           -n N  acquisitions per thread (10000)\n"
"  -w N     empty loop iterations inside the critical section (0)\n"
"  -s N     empty loop iterations between acquisitions (0)\n"
"  -S US    sleep US microseconds between acquisitions instead\n"
"  -b N     busy threads, spinning until thread 0 is done (0)\n"
"  -r N     the first N lock threads SCHED_FIFO 10 (0)\n"
"  -p       bias: thread 0 nice -5, 10x the sleep, 1/10 of the work; the other\n"
"           lock threads nice 19, 10x the work, 1/10 of the sleep\n"
"  -a       print the samples of every lock thread, not only thread 0's\n"
"  -q       print no samples, only the summary (on standard error)\n"
"Samples: one acquisition latency in ns per line, the first of each thread left out.\n",
		prog);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	struct thread *th;
	pthread_t *busy;
	long *all_samples, n = 0, per;
	int c, err = 0;

	while ((c = getopt_long(argc, argv, "f:t:n:w:s:S:b:r:paqh", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': kind = optarg[0]; break;
		case 't': nr_threads = atoi(optarg); break;
		case 'n': iters = atol(optarg); break;
		case 'w': work = atol(optarg); break;
		case 's': spacing = atol(optarg); break;
		case 'S': sleep_us = atol(optarg); break;
		case 'b': nr_busy = atoi(optarg); break;
		case 'r': nr_rt = atoi(optarg); break;
		case 'p': bias = true; break;
		case 'a': all = true; break;
		case 'q': quiet = true; break;
		case 'h': usage(stdout, argv[0]); return 0;
		default: usage(stderr, argv[0]); return 2;
		}
	}
	if (!strchr("fmnNp", kind) || !kind || nr_threads < 1 || iters < 2 ||
	    nr_rt > nr_threads || nr_busy < 0 || optind != argc) {
		usage(stderr, argv[0]);
		return 2;
	}

	per = iters - 1;
	th = calloc(nr_threads, sizeof(*th));
	busy = calloc(nr_busy + 1, sizeof(*busy));
	all_samples = calloc((size_t)per * nr_threads, sizeof(long));
	if (!th || !busy || !all_samples) {
		perror("calloc");
		return 1;
	}

	for (int i = 0; i < nr_threads; i++) {
		struct thread *t = &th[i];
		struct sched_param sp = { .sched_priority = 10 };
		pthread_attr_t attr;

		t->id = i;
		t->work = work;
		t->spacing = spacing;
		t->sleep_us = sleep_us;
		if (bias) {
			bool first = !i;

			t->nice = first ? -5 : 19;
			t->work = first ? work / 10 : work * 10;
			t->spacing = first ? spacing * 10 : spacing / 10;
			if (sleep_us >= 0)
				t->sleep_us = first ? sleep_us * 10 : sleep_us / 10;
		}
		t->samples = all_samples + (size_t)i * per;
		pthread_attr_init(&attr);
		if (i < nr_rt) {
			pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
			pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
			pthread_attr_setschedparam(&attr, &sp);
		}
		err = pthread_create(&t->pt, &attr, lock_thread, t);
		pthread_attr_destroy(&attr);
		if (err) {
			fprintf(stderr, "ping_bench: lock thread %d: %s\n", i, strerror(err));
			return 1;
		}
	}
	for (int i = 0; i < nr_busy; i++) {
		err = pthread_create(&busy[i], NULL, busy_thread, NULL);
		if (err) {
			fprintf(stderr, "ping_bench: busy thread %d: %s\n", i, strerror(err));
			return 1;
		}
	}

	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < nr_threads; i++) {
		pthread_join(th[i].pt, NULL);
		if (th[i].err && !err) {
			err = th[i].err;
			fprintf(stderr, "ping_bench: thread %d: %s\n", i,
				strerror(err < 0 ? -err : err));
		}
	}
	for (int i = 0; i < nr_busy; i++)
		pthread_join(busy[i], NULL);

	/* Thread 0's samples, or every thread's with -a. */
	n = all ? per * nr_threads : per;
	if (!quiet) {
		for (long i = 0; i < n; i++)
			printf("%ld\n", all_samples[i]);
	}
	qsort(all_samples, n, sizeof(long), cmp_long);
	fprintf(stderr,
		"ping_bench: kind %c, %d threads%s: %ld samples, median %ld ns, p99 %ld ns, max %ld ns, counter %lu of %ld: %s\n",
		kind, nr_threads, all ? " (all)" : " (thread 0)", n, all_samples[n / 2],
		all_samples[(long)(n * 0.99)], all_samples[n - 1], counter,
		iters * nr_threads, !err && counter == (unsigned long)(iters * nr_threads) ?
		"ok" : "WRONG");
	return err || counter != (unsigned long)(iters * nr_threads);
}
