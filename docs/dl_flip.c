// SPDX-License-Identifier: GPL-2.0
/*
 * dl_flip: threads that make themselves SCHED_DEADLINE (200 us every 2 ms),
 * overrun that runtime, go back to SCHED_OTHER and again, and a watchdog
 * that reports a thread making no progress for 10 s (its stat, kernel
 * stack and scheduler fields), exit status 1. No futex anywhere: it shows
 * that the stuck DEADLINE task ping_fuzz met is the scheduler's
 * (docs/ping-fuzz.md).
 *
 *   gcc -O2 -Wall -static -pthread -o dl_flip docs/dl_flip.c
 *   dl_flip [THREADS (2, at most 8)] [SECONDS (60)]    as root
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct sched_attr {
	unsigned int size, sched_policy;
	unsigned long long sched_flags;
	int sched_nice;
	unsigned int sched_priority;
	unsigned long long sched_runtime, sched_deadline, sched_period;
};

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

static volatile unsigned long progress[8];
static volatile pid_t tids[8];

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int setattr(int policy)
{
	struct sched_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sched_policy = policy;
	if (policy == SCHED_DEADLINE) {
		a.sched_runtime = 200000;
		a.sched_deadline = 2000000;
		a.sched_period = 2000000;
	}
	return syscall(SYS_sched_setattr, 0, &a, 0);
}

static void *worker(void *arg)
{
	long i = (long)arg;
	unsigned int seed = i * 7919 + time(NULL);

	tids[i] = gettid();
	for (;;) {
		unsigned long long t0 = now_ns();

		if (setattr(SCHED_DEADLINE)) {
			perror("sched_setattr DEADLINE");
			exit(2);
		}
		while (now_ns() < t0 + 150000 + rand_r(&seed) % 600000)
			;
		setattr(SCHED_OTHER);
		while (now_ns() < t0 + 2000000 + rand_r(&seed) % 4000000)
			;
		progress[i]++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2, secs = argc > 2 ? atoi(argv[2]) : 60;
	unsigned long last[8] = { 0 };
	int stuck[8] = { 0 };
	pthread_t t;

	if (n < 1 || n > 8)
		n = 2;
	for (long i = 0; i < n; i++)
		pthread_create(&t, NULL, worker, (void *)i);
	for (int s = 0; s < secs; s++) {
		sleep(1);
		for (int i = 0; i < n; i++) {
			if (progress[i] == last[i] && ++stuck[i] >= 10) {
				char cmd[256];

				printf("dl_flip: thread %d made no progress for 10 s\n", tids[i]);
				snprintf(cmd, sizeof(cmd), "cat /proc/%d/task/%d/stat /proc/%d/task/%d/stack; grep -E 'dl\\.|policy|prio|nr_switches' /proc/%d/task/%d/sched",
					 getpid(), tids[i], getpid(), tids[i], getpid(), tids[i]);
				fflush(stdout);
				system(cmd);
				return 1;
			}
			if (progress[i] != last[i])
				stuck[i] = 0;
			last[i] = progress[i];
		}
	}
	for (int i = 0; i < n; i++)
		printf("dl_flip: thread %d: %lu rounds\n", i, progress[i]);
	return 0;
}
