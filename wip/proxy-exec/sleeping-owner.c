// SPDX-License-Identifier: GPL-2.0
/*
 * sleeping-owner [SLEEP_US]: what the boost of a PING lock does when the
 * owner sleeps inside its critical section. The inversion setting of
 * futex_ping's inversion test (SCHED_OTHER owner, SCHED_FIFO 10 hog and
 * SCHED_FIFO 20 waiter on CPU 0, cpu0's fair server off), except that the
 * owner sleeps SLEEP_US (clock_nanosleep) half-way through its work; 0
 * is the plain inversion test. Prints how long the waiter waited and
 * whether the hog was still spinning when it got the lock. Run as root,
 * in a guest; the hog gives up after 5 s.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
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

static uint32_t word;
static int hog_running, hog_done, waiter_locked, hog_done_at_lock;
static long sleep_us;
static struct timespec t_lock, t_locked;

static long futex(uint32_t *f, int op)
{
	return syscall(SYS_futex, f, op | FUTEX_PRIVATE_FLAG, 0, NULL, NULL, 0);
}

static void work(long n)
{
	static long w;

	for (long i = 0; i < n; i++)
		__atomic_fetch_add(&w, 1, __ATOMIC_RELAXED);
}

static void *owner_fn(void *arg)
{
	uint32_t tid = syscall(SYS_gettid), zero = 0;
	struct timespec ts = { 0, sleep_us * 1000 };

	__atomic_compare_exchange_n(&word, &zero, tid, 0, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE);
	while (!READ(hog_running))
		;
	work(WORK / 2);
	if (sleep_us)
		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
	work(WORK / 2);
	if (!__atomic_compare_exchange_n(&word, &tid, 0, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		futex(&word, FUTEX_UNLOCK_PING);
	return NULL;
}

static void *hog_fn(void *arg)
{
	struct timespec now, end;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += 5;
	WRITE(hog_running, 1);
	do
		clock_gettime(CLOCK_MONOTONIC, &now);
	while (!READ(waiter_locked) && (now.tv_sec < end.tv_sec ||
		(now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec)));
	WRITE(hog_done, 1);
	return NULL;
}

static void *waiter_fn(void *arg)
{
	clock_gettime(CLOCK_MONOTONIC, &t_lock);
	if (futex(&word, FUTEX_LOCK_PING))
		perror("FUTEX_LOCK_PING");
	clock_gettime(CLOCK_MONOTONIC, &t_locked);
	hog_done_at_lock = READ(hog_done);
	WRITE(waiter_locked, 1);
	futex(&word, FUTEX_UNLOCK_PING);
	return NULL;
}

static void start(pthread_t *t, void *(*fn)(void *), int policy, int prio)
{
	struct sched_param sp = { .sched_priority = prio };
	pthread_attr_t a;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	pthread_attr_init(&a);
	pthread_attr_setaffinity_np(&a, sizeof(set), &set);
	pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&a, policy);
	pthread_attr_setschedparam(&a, &sp);
	if (pthread_create(t, &a, fn, NULL)) {
		perror("pthread_create");
		exit(1);
	}
}

int main(int argc, char **argv)
{
	const char *srv = "/sys/kernel/debug/sched/fair_server/cpu0/runtime";
	pthread_t o, h, w;
	cpu_set_t set;
	FILE *f;

	sleep_us = argc > 1 ? atol(argv[1]) : 0;
	mount("none", "/sys/kernel/debug", "debugfs", 0, NULL);
	f = fopen(srv, "w");
	if (!f || fprintf(f, "0\n") < 0 || fclose(f)) {
		perror(srv);
		return 1;
	}
	CPU_ZERO(&set);
	CPU_SET(1, &set);
	sched_setaffinity(0, sizeof(set), &set);
	start(&o, owner_fn, SCHED_OTHER, 0);
	while (!READ(word))
		usleep(1000);
	start(&h, hog_fn, SCHED_FIFO, 10);
	while (!READ(hog_running))
		usleep(1000);
	start(&w, waiter_fn, SCHED_FIFO, 20);
	pthread_join(w, NULL);
	pthread_join(h, NULL);
	pthread_join(o, NULL);
	printf("owner sleeps %ld us: waiter waited %.1f ms, hog %s when it got the lock\n",
	       sleep_us, (t_locked.tv_sec - t_lock.tv_sec) * 1e3 +
	       (t_locked.tv_nsec - t_lock.tv_nsec) / 1e6,
	       hog_done_at_lock ? "had given up" : "still spinning");
	f = fopen(srv, "w");
	if (f) {
		fprintf(f, "50000000\n");
		fclose(f);
	}
	return 0;
}
