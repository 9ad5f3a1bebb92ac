// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of libpingmutex, run with it preloaded (pingmutex/run-tests.sh):
 * LD_PRELOAD=libpingmutex.so ./pingmutex_test, and with PINGMUTEX=all.
 * KTAP output; exit status 0 only if every case passed. A case that hangs
 * (a lost wakeup) is ended by an alarm and fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define HANG_SECONDS	120	/* a bound on a hang, no measure of speed */

static int failed;

#define CHECK(cond) do {							\
	if (!(cond)) {								\
		printf("# %s:%d: %s\n", __FILE__, __LINE__, #cond);		\
		return false;							\
	}									\
} while (0)

static void pi_mutex(pthread_mutex_t *m, int type, bool robust, bool pshared)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT);
	pthread_mutexattr_settype(&a, type);
	if (robust)
		pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	if (pshared)
		pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(m, &a);
	pthread_mutexattr_destroy(&a);
}

static int task_state(pid_t tid)
{
	char path[64], buf[256], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	p = p ? strrchr(buf, ')') : NULL;
	return p ? p[2] : 0;
}

struct blocker {
	pthread_mutex_t *m;
	_Atomic pid_t tid;
	int ret;
};

static void *lock_and_unlock(void *arg)
{
	struct blocker *b = arg;

	atomic_store(&b->tid, syscall(SYS_gettid));
	b->ret = pthread_mutex_lock(b->m);
	if (!b->ret)
		pthread_mutex_unlock(b->m);
	return NULL;
}

/*
 * The mutex really is a PING lock: with a waiter queued in the kernel,
 * FUTEX_LOCK_PI on its word fails with EINVAL (PI operations refuse a
 * word with PING waiters); on glibc's PI mutex it would wait and time out.
 */
static void *lock_pi(void *word)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 1;
	if (!syscall(SYS_futex, word, FUTEX_LOCK_PI_PRIVATE, 0, &ts, NULL, 0))
		return (void *)0L;
	return (void *)(long)errno;
}

static bool ping_proof(void)
{
	pthread_mutex_t m;
	struct blocker b = { .m = &m };
	pthread_t t, t2;
	void *res;
	uint32_t *word = (uint32_t *)&m;
	int i;

	pi_mutex(&m, PTHREAD_MUTEX_NORMAL, false, false);
	CHECK(pthread_mutex_lock(&m) == 0);
	pthread_create(&t, NULL, lock_and_unlock, &b);
	for (i = 0; i < 100000 && !(__atomic_load_n(word, __ATOMIC_RELAXED) & FUTEX_WAITERS); i++)
		usleep(100);
	CHECK(__atomic_load_n(word, __ATOMIC_RELAXED) & FUTEX_WAITERS);
	for (i = 0; i < 100000 && task_state(atomic_load(&b.tid)) != 'S'; i++)
		usleep(100);
	/* From a third thread: the owner itself would get EDEADLK. */
	pthread_create(&t2, NULL, lock_pi, word);
	pthread_join(t2, &res);
	CHECK((long)res == EINVAL);
	CHECK(pthread_mutex_unlock(&m) == 0);
	pthread_join(t, NULL);
	CHECK(b.ret == 0);
	CHECK(*word == 0);
	return true;
}

static pthread_mutex_t counter_lock;
static unsigned long counter;
#define THREADS 8
#define ROUNDS 20000

static void *count_up(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < ROUNDS; i++) {
		if (pthread_mutex_lock(&counter_lock))
			abort();
		counter++;
		if (pthread_mutex_unlock(&counter_lock))
			abort();
	}
	return NULL;
}

/* Eight threads count to 160000 under the mutex, not one lost. */
static bool exclusion(void)
{
	pthread_t t[THREADS];
	int i;

	pi_mutex(&counter_lock, PTHREAD_MUTEX_NORMAL, false, false);
	counter = 0;
	for (i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, count_up, NULL);
	for (i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	CHECK(counter == THREADS * ROUNDS);
	CHECK(pthread_mutex_destroy(&counter_lock) == 0);
	return true;
}

static void *try_other(void *arg)
{
	return (void *)(long)pthread_mutex_trylock(arg);
}

static bool types(void)
{
	pthread_mutex_t r, e;
	pthread_t t;
	void *ret;

	pi_mutex(&r, PTHREAD_MUTEX_RECURSIVE, false, false);
	CHECK(pthread_mutex_lock(&r) == 0);
	CHECK(pthread_mutex_lock(&r) == 0);
	CHECK(pthread_mutex_trylock(&r) == 0);
	CHECK(pthread_mutex_unlock(&r) == 0);
	CHECK(pthread_mutex_unlock(&r) == 0);
	pthread_create(&t, NULL, try_other, &r);
	pthread_join(t, &ret);
	CHECK((long)ret == EBUSY);
	CHECK(pthread_mutex_unlock(&r) == 0);
	CHECK(pthread_mutex_unlock(&r) == EPERM);

	pi_mutex(&e, PTHREAD_MUTEX_ERRORCHECK, false, false);
	CHECK(pthread_mutex_unlock(&e) == EPERM);
	CHECK(pthread_mutex_lock(&e) == 0);
	CHECK(pthread_mutex_lock(&e) == EDEADLK);
	CHECK(pthread_mutex_destroy(&e) == EBUSY);
	CHECK(pthread_mutex_unlock(&e) == 0);
	CHECK(pthread_mutex_destroy(&e) == 0);
	return true;
}

struct timed {
	pthread_mutex_t *m;
	clockid_t clock;	/* -1: pthread_mutex_timedlock() */
	int ret;
};

static struct timespec in_ms(clockid_t clock, long ms)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (ms % 1000) * 1000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	return ts;
}

static void *timed_lock(void *arg)
{
	struct timed *t = arg;
	struct timespec ts;

	if (t->clock == (clockid_t)-1) {
		ts = in_ms(CLOCK_REALTIME, 20);
		t->ret = pthread_mutex_timedlock(t->m, &ts);
	} else {
		ts = in_ms(t->clock, 20);
		t->ret = pthread_mutex_clocklock(t->m, t->clock, &ts);
	}
	if (!t->ret)
		pthread_mutex_unlock(t->m);
	return NULL;
}

/* Timeouts on both clocks, on a mutex this thread holds meanwhile. */
static bool timeouts(void)
{
	clockid_t clocks[] = { (clockid_t)-1, CLOCK_REALTIME, CLOCK_MONOTONIC };
	pthread_mutex_t m;
	struct timed t = { .m = &m };
	struct timespec bad = { 0, 0 };
	pthread_t th;
	unsigned int i;

	pi_mutex(&m, PTHREAD_MUTEX_NORMAL, false, false);
	CHECK(pthread_mutex_lock(&m) == 0);
	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		t.clock = clocks[i];
		pthread_create(&th, NULL, timed_lock, &t);
		pthread_join(th, NULL);
		CHECK(t.ret == ETIMEDOUT);
	}
	CHECK(pthread_mutex_clocklock(&m, CLOCK_PROCESS_CPUTIME_ID, &bad) == EINVAL);
	CHECK(pthread_mutex_unlock(&m) == 0);
	return true;
}

/* Condition variables: a handshake of many rounds, and a broadcast. */
static pthread_mutex_t cm;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int turn, woken, go;

static void *ponger(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < 2000; i++) {
		pthread_mutex_lock(&cm);
		while (turn != 1)
			pthread_cond_wait(&cv, &cm);
		turn = 0;
		pthread_cond_signal(&cv);
		pthread_mutex_unlock(&cm);
	}
	return NULL;
}

static void *wait_go(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&cm);
	while (!go)
		pthread_cond_wait(&cv, &cm);
	woken++;
	pthread_mutex_unlock(&cm);
	return NULL;
}

static bool condvar(void)
{
	pthread_t t, w[8];
	struct timespec ts;
	int i;

	pi_mutex(&cm, PTHREAD_MUTEX_NORMAL, false, false);
	pthread_create(&t, NULL, ponger, NULL);
	for (i = 0; i < 2000; i++) {
		pthread_mutex_lock(&cm);
		turn = 1;
		pthread_cond_signal(&cv);
		while (turn != 0)
			pthread_cond_wait(&cv, &cm);
		pthread_mutex_unlock(&cm);
	}
	pthread_join(t, NULL);

	for (i = 0; i < 8; i++)
		pthread_create(&w[i], NULL, wait_go, NULL);
	usleep(10000);
	pthread_mutex_lock(&cm);
	go = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&cm);
	for (i = 0; i < 8; i++)
		pthread_join(w[i], NULL);
	CHECK(woken == 8);

	/* A timed wait that nobody signals times out, holding the mutex. */
	pthread_mutex_lock(&cm);
	ts = in_ms(CLOCK_REALTIME, 20);
	CHECK(pthread_cond_timedwait(&cv, &cm, &ts) == ETIMEDOUT);
	ts = in_ms(CLOCK_MONOTONIC, 20);
	CHECK(pthread_cond_clockwait(&cv, &cm, CLOCK_MONOTONIC, &ts) == ETIMEDOUT);
	CHECK(pthread_mutex_unlock(&cm) == 0);
	return true;
}

static void *die_holding(void *arg)
{
	pthread_mutex_lock(arg);
	return NULL;	/* exits with the mutex held */
}

/* Robust: a thread dies holding it; EOWNERDEAD, then consistent or not. */
static bool robust_threads(void)
{
	pthread_mutex_t m;
	pthread_t t;

	pi_mutex(&m, PTHREAD_MUTEX_NORMAL, true, false);
	pthread_create(&t, NULL, die_holding, &m);
	pthread_join(t, NULL);
	CHECK(pthread_mutex_lock(&m) == EOWNERDEAD);
	CHECK(pthread_mutex_consistent(&m) == 0);
	CHECK(pthread_mutex_unlock(&m) == 0);
	CHECK(pthread_mutex_lock(&m) == 0);
	CHECK(pthread_mutex_unlock(&m) == 0);

	/* Not made consistent: unrecoverable from then on. */
	pthread_create(&t, NULL, die_holding, &m);
	pthread_join(t, NULL);
	CHECK(pthread_mutex_lock(&m) == EOWNERDEAD);
	CHECK(pthread_mutex_unlock(&m) == 0);
	CHECK(pthread_mutex_lock(&m) == ENOTRECOVERABLE);
	CHECK(pthread_mutex_trylock(&m) == ENOTRECOVERABLE);
	return true;
}

/* Robust and process-shared: a child process dies holding it. */
static bool robust_processes(void)
{
	pthread_mutex_t *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int status;
	pid_t child;

	CHECK(m != MAP_FAILED);
	pi_mutex(m, PTHREAD_MUTEX_NORMAL, true, true);
	child = fork();
	CHECK(child >= 0);
	if (!child)
		_exit(pthread_mutex_lock(m));
	CHECK(waitpid(child, &status, 0) == child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(pthread_mutex_lock(m) == EOWNERDEAD);
	CHECK(pthread_mutex_consistent(m) == 0);
	CHECK(pthread_mutex_unlock(m) == 0);
	munmap(m, 4096);
	return true;
}

/* Set by libearly.so's constructor, which runs before libpingmutex's. */
extern int early_pi_lock, early_static_lock;

static bool early_lock(void)
{
	CHECK(early_pi_lock == 0);
	CHECK(early_static_lock == 0);
	return true;
}

/*
 * PTHREAD_PRIO_PROTECT stays the C library's: its word holds the ceiling.
 * glibc raises the locker to the ceiling, which it does only for a thread
 * that already runs SCHED_FIFO (it asks for SCHED_OTHER at the ceiling
 * otherwise: EINVAL): the case runs in such a thread.
 */
static void *pp_locker(void *arg)
{
	pthread_mutex_t *m = arg;
	long ret = 0;

	if (pthread_mutex_lock(m))
		ret |= 1;
	if (pthread_mutex_trylock(m) != EBUSY)
		ret |= 2;
	if (pthread_mutex_unlock(m))
		ret |= 4;
	return (void *)ret;
}

static bool prio_protect(void)
{
	struct sched_param sp = { .sched_priority = sched_get_priority_min(SCHED_FIFO) };
	pthread_mutexattr_t a;
	pthread_attr_t ta;
	pthread_mutex_t m;
	pthread_t t;
	void *ret;

	pthread_mutexattr_init(&a);
	CHECK(pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_PROTECT) == 0);
	CHECK(pthread_mutexattr_setprioceiling(&a, sp.sched_priority) == 0);
	CHECK(pthread_mutex_init(&m, &a) == 0);
	pthread_mutexattr_destroy(&a);
	pthread_attr_init(&ta);
	pthread_attr_setinheritsched(&ta, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&ta, SCHED_FIFO);
	pthread_attr_setschedparam(&ta, &sp);
	CHECK(pthread_create(&t, &ta, pp_locker, &m) == 0);
	pthread_attr_destroy(&ta);
	CHECK(pthread_join(t, &ret) == 0);
	CHECK(ret == NULL);
	CHECK(pthread_mutex_destroy(&m) == 0);
	return true;
}

int main(void)
{
	struct { const char *name; bool (*fn)(void); } cases[] = {
		{ "ping_proof", ping_proof },
		{ "exclusion", exclusion },
		{ "types", types },
		{ "timeouts", timeouts },
		{ "condvar", condvar },
		{ "robust_threads", robust_threads },
		{ "robust_processes", robust_processes },
		{ "early_lock", early_lock },
		{ "prio_protect", prio_protect },
	};
	int n = sizeof(cases) / sizeof(cases[0]), i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	alarm(HANG_SECONDS);
	printf("TAP version 13\n1..%d\n", n);
	for (i = 0; i < n; i++) {
		bool ok = cases[i].fn();

		printf("%s %d %s\n", ok ? "ok" : "not ok", i + 1, cases[i].name);
		failed += !ok;
	}
	return failed ? 1 : 0;
}
