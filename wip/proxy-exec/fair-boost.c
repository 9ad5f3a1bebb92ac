// SPDX-License-Identifier: GPL-2.0
/*
 * fair-boost [HOGS [RUNS]]: how long a nice -20 waiter waits for a PING
 * lock whose nice 19 owner has 4M loop iterations of work left, while
 * HOGS (default 2) nice 0 threads spin, all on CPU 0. With Proxy
 * Execution the owner runs on the waiter's weight; without it, on its
 * own. Prints one line per run. Run as root, in a guest.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>

#ifndef FUTEX_LOCK_PING
#define FUTEX_LOCK_PING		14
#define FUTEX_UNLOCK_PING	15
#endif

#define READ(x)		__atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define WRITE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELEASE)
#define WORK		4000000L
#define MAX_HOGS	8

static uint32_t word;
static int go, stop, owner_ready;

static long futex(uint32_t *f, int op)
{
	return syscall(SYS_futex, f, op | FUTEX_PRIVATE_FLAG, 0, NULL, NULL, 0);
}

static void pin0_nice(int nice)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	setpriority(PRIO_PROCESS, syscall(SYS_gettid), nice);
}

static void *owner_fn(void *arg)
{
	uint32_t tid = syscall(SYS_gettid), zero = 0;
	static long w;

	pin0_nice(19);
	__atomic_compare_exchange_n(&word, &zero, tid, 0, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE);
	WRITE(owner_ready, 1);
	while (!READ(go))
		;
	for (long i = 0; i < WORK; i++)
		__atomic_fetch_add(&w, 1, __ATOMIC_RELAXED);
	if (!__atomic_compare_exchange_n(&word, &tid, 0, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		futex(&word, FUTEX_UNLOCK_PING);
	return NULL;
}

static void *hog_fn(void *arg)
{
	pin0_nice(0);
	while (!READ(stop))
		;
	return NULL;
}

int main(int argc, char **argv)
{
	int hogs = argc > 1 ? atoi(argv[1]) : 2, runs = argc > 2 ? atoi(argv[2]) : 5;
	pthread_t o, h[MAX_HOGS];
	struct timespec a, b;

	if (hogs > MAX_HOGS)
		hogs = MAX_HOGS;
	for (int r = 0; r < runs; r++) {
		word = 0;
		WRITE(go, 0);
		WRITE(stop, 0);
		WRITE(owner_ready, 0);
		pthread_create(&o, NULL, owner_fn, NULL);
		while (!READ(owner_ready))
			usleep(1000);
		for (int i = 0; i < hogs; i++)
			pthread_create(&h[i], NULL, hog_fn, NULL);
		/* The measuring (main) thread is the waiter: nice -20, CPU 0. */
		pin0_nice(-20);
		usleep(20000);
		WRITE(go, 1);
		clock_gettime(CLOCK_MONOTONIC, &a);
		if (futex(&word, FUTEX_LOCK_PING))
			perror("FUTEX_LOCK_PING");
		clock_gettime(CLOCK_MONOTONIC, &b);
		futex(&word, FUTEX_UNLOCK_PING);
		WRITE(stop, 1);
		for (int i = 0; i < hogs; i++)
			pthread_join(h[i], NULL);
		pthread_join(o, NULL);
		printf("fair-boost: %d nice 0 hogs: nice -20 waiter waited %.1f ms for the nice 19 owner\n",
		       hogs, (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6);
	}
	return 0;
}
