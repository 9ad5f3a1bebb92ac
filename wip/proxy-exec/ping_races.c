// Reproducers for review-races.md (not for the tree).
// f1: a waiter that the word names gets attached as owner of the ps it sleeps on
// f2: a cycle closed through a stolen (unattached) lock is not reported
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>

#define FUTEX_LOCK_PING   14
#define FUTEX_UNLOCK_PING 15
#define W FUTEX_WAITERS

static pid_t gettid_(void) { return syscall(SYS_gettid); }

static int lock_ping(uint32_t *f, double secs)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += (time_t)secs;
	ts.tv_nsec += (long)((secs - (time_t)secs) * 1e9);
	if (ts.tv_nsec >= 1000000000L) { ts.tv_sec++; ts.tv_nsec -= 1000000000L; }
	return syscall(SYS_futex, f, FUTEX_LOCK_PING | FUTEX_PRIVATE_FLAG, 0,
		       secs > 0 ? &ts : NULL, NULL, 0) ? -errno : 0;
}

static int unlock_ping(uint32_t *f)
{
	return syscall(SYS_futex, f, FUTEX_UNLOCK_PING | FUTEX_PRIVATE_FLAG, 0,
		       NULL, NULL, 0) ? -errno : 0;
}

static void pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	sched_setaffinity(0, sizeof(s), &s);
}

static void set_idle(void)
{
	struct sched_param p = { 0 };

	sched_setscheduler(0, SCHED_IDLE, &p);
}

static char task_state(pid_t tid)
{
	char path[64], buf[512], *p;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	fp = fopen(path, "r");
	if (!fp)
		return '?';
	if (!fgets(buf, sizeof(buf), fp)) { fclose(fp); return '?'; }
	fclose(fp);
	p = strrchr(buf, ')');
	return p ? p[2] : '?';
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned long long spin_for(double secs)
{
	unsigned long long n = 0;
	double end = now() + secs;

	while (now() < end)
		n++;
	return n;
}

static void wait_sleeping(volatile pid_t *tid)
{
	/* Busy: the caller may be a lock owner that must stay runnable. */
	while (!*tid)
		;
	while (task_state(*tid) != 'S')
		;
	spin_for(0.02);
}

/* cpu0 idle jiffies (USER_HZ) from /proc/stat */
static unsigned long long cpu0_idle(void)
{
	char line[256];
	unsigned long long u, n, sy, id = 0;
	FILE *fp = fopen("/proc/stat", "r");

	while (fp && fgets(line, sizeof(line), fp))
		if (sscanf(line, "cpu0 %llu %llu %llu %llu", &u, &n, &sy, &id) == 4)
			break;
	if (fp)
		fclose(fp);
	return id;
}

static unsigned long long ctxt(void)
{
	char line[256];
	unsigned long long v = 0;
	FILE *fp = fopen("/proc/stat", "r");

	while (fp && fgets(line, sizeof(line), fp))
		if (sscanf(line, "ctxt %llu", &v) == 1)
			break;
	if (fp)
		fclose(fp);
	return v;
}

/* ---------- f1 ---------- */
static uint32_t f1;
static volatile pid_t w0_tid, w_tid;
static volatile int w0_ret = 1, w_ret = 1, stop_spin;

static void *f1_w0(void *a)
{
	pin(1);
	w0_tid = gettid_();
	w0_ret = lock_ping(&f1, 5);
	return NULL;
}

static void *f1_w(void *a)
{
	pin(0);
	/* Rarely picked: must not be picked in the unlock-to-attach window. */
	if (getenv("WNICE"))
		setpriority(PRIO_PROCESS, 0, atoi(getenv("WNICE")));
	w_tid = gettid_();
	w_ret = lock_ping(&f1, 8);	/* ends the livelock through the timeout */
	return NULL;
}

static volatile int x_ret = 1, x_go;

/* A new locker that attaches W within microseconds of the steal. */
static void *f1_x(void *a)
{
	pin(1);
	while (!x_go)
		;
	while (__atomic_load_n(&f1, __ATOMIC_ACQUIRE) != ((uint32_t)w_tid | W))
		;
	x_ret = lock_ping(&f1, 3);
	return NULL;
}

static double exec_ms(pid_t tid)
{
	char path[64], line[256];
	double v = -1;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/self/task/%d/sched", tid);
	fp = fopen(path, "r");
	while (fp && fgets(line, sizeof(line), fp))
		if (sscanf(line, "se.sum_exec_runtime : %lf", &v) == 1)
			break;
	if (fp)
		fclose(fp);
	return v;
}

static char schedbuf[3][4096];

static void grab_sched(pid_t tid, int i)
{
	char path[64];
	FILE *fp;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/sched", tid);
	fp = fopen(path, "r");
	n = fp ? fread(schedbuf[i], 1, sizeof(schedbuf[i]) - 1, fp) : 0;
	schedbuf[i][n] = 0;
	if (fp)
		fclose(fp);
}

static int run_f1(void)
{
	pthread_t tx;
	pthread_t t0, t1;
	unsigned long long c0, c1, c2, n0, n1, b0;
	uint32_t bw;
	double e0, e1;
	uint32_t v;

	pin(0);
	f1 = gettid_();			/* H takes the lock in user space */
	pthread_create(&t0, NULL, f1_w0, NULL);
	wait_sleeping(&w0_tid);
	pthread_create(&t1, NULL, f1_w, NULL);
	wait_sleeping(&w_tid);

	pthread_create(&tx, NULL, f1_x, NULL);
	x_go = 1;
	e0 = exec_ms(w_tid);
	grab_sched(w_tid, 0);
	/* No printing (may sleep) while W must stay on the run queue. */
	c0 = ctxt(); n0 = spin_for(1); c1 = ctxt();
	b0 = c1 - c0; bw = f1; e1 = exec_ms(w_tid);
	grab_sched(w_tid, 1);

	/* Unlock (wakes W0, the top waiter) and write W's TID at once. */
	if (unlock_ping(&f1)) { printf("f1: unlock failed\n"); return 1; }
	v = W;
	if (!__atomic_compare_exchange_n(&f1, &v, (uint32_t)w_tid | W, 0,
					 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
		printf("f1: W0 was faster (word %#x), retry\n", v);
		return 2;
	}
	while (w0_ret == 1 || x_ret == 1)
		;
	pthread_join(t0, NULL);
	pthread_join(tx, NULL);
	printf("f1: X returned %d (%s)\n", x_ret, strerror(-x_ret));
	printf("f1: baseline: ctxt/s %llu, spin loops/s %llu, word %#x\n", b0, n0, bw);
	printf("f1: W0 returned %d (%s)\n", w0_ret, strerror(-w0_ret));
	printf("f1: tids H %d W0 %d W %d\n", gettid_(), w0_tid, w_tid);
	printf("f1: W exec ms during baseline: %.3f -> %.3f\n", e0, e1);
	e0 = exec_ms(w_tid);
	spin_for(0.2);
	{
		unsigned long long i0, i1, l;
		int k;

		for (k = 0; k < 4; k++) {
			i0 = cpu0_idle();
			l = spin_for(0.5);
			i1 = cpu0_idle();
			printf("f1: +%.1fs: H (nice 0, runnable, CPU 0) loops %llu, CPU 0 idle %llu/50 ticks\n",
			       0.5 * (k + 1), l, i1 - i0);
		}
	}
	c1 = ctxt(); n1 = spin_for(2); c2 = ctxt();
	e1 = exec_ms(w_tid);
	grab_sched(w_tid, 2);
	if (getenv("DBG"))
		printf("%s\n=====\n%s\n=====\n%s\n", schedbuf[0], schedbuf[1], schedbuf[2]);
	printf("f1: W state '%c': ctxt/s %llu, spin loops/s on CPU 0 %llu, W exec ms %.3f -> %.3f\n",
	       task_state(w_tid), (c2 - c1) / 2, n1 / 2, e0, e1);
	pthread_join(t1, NULL);
	printf("f1: W returned %d (%s), word %#x\n", w_ret, strerror(-w_ret), f1);
	return 0;
}

/* ---------- f2 ---------- */
static uint32_t X, Y;
static volatile pid_t a_tid, ap_tid;
static volatile int a_ret = 1, ap_ret = 1, x_ready;

static void *spinner(void *a)
{
	pin(1);
	while (!stop_spin)
		;
	return NULL;
}

static void *f2_aprime(void *a)
{
	pin(1);
	set_idle();			/* slow to run once woken: CPU 1 is busy */
	ap_tid = gettid_();
	ap_ret = lock_ping(&Y, 4);
	return NULL;
}

static void *f2_a(void *a)
{
	pin(1);
	a_tid = gettid_();
	X = a_tid;			/* A holds X (user space) */
	x_ready = 1;
	a_ret = lock_ping(&Y, 4);	/* and waits for Y */
	return NULL;
}

static int run_f2(void)
{
	pthread_t ta, tap, ts;
	uint32_t v;
	int b_ret;

	pin(0);
	Y = gettid_();			/* P = B holds Y */
	pthread_create(&tap, NULL, f2_aprime, NULL);
	wait_sleeping(&ap_tid);
	pthread_create(&ta, NULL, f2_a, NULL);
	wait_sleeping(&a_tid);
	pthread_create(&ts, NULL, spinner, NULL);
	usleep(50000);

	/* Unlock Y (wakes A', top waiter), steal it back in user space. */
	unlock_ping(&Y);
	v = W;
	if (!__atomic_compare_exchange_n(&Y, &v, (uint32_t)gettid_() | W, 0,
					 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
		printf("f2: A' was faster (Y %#x)\n", v);
		stop_spin = 1;
		return 2;
	}
	/* B (this thread) holds Y and now waits for X, which A holds. */
	b_ret = lock_ping(&X, 4);
	stop_spin = 1;
	pthread_join(tap, NULL);
	pthread_join(ta, NULL);
	printf("f2: A' %d (%s), A %d (%s), B %d (%s)\n",
	       ap_ret, strerror(-ap_ret), a_ret, strerror(-a_ret),
	       b_ret, strerror(-b_ret));
	printf("f2: %s\n", (a_ret == -EDEADLK || b_ret == -EDEADLK) ?
	       "cycle reported" : "CYCLE NOT REPORTED to A or B");
	return 0;
}

/* ---------- chain: cost of one FUTEX_LOCK_PING behind N owners ---------- */
#define MAXN 1100
static uint32_t L[MAXN];
static volatile pid_t ctid[MAXN];
static volatile int chain_stop;

static void *chain_thread(void *a)
{
	long i = (long)a;

	ctid[i] = gettid_();
	L[i] = ctid[i];			/* holds L[i] */
	if (L[i + 1])			/* waits for L[i + 1], held by the next */
		lock_ping(&L[i + 1], 60);
	while (!chain_stop)
		usleep(100000);
	return NULL;
}

static int run_chain(int n)
{
	pthread_attr_t at;
	pthread_t t;
	double t0, best = 1e9, worst = 0;

	pthread_attr_init(&at);
	pthread_attr_setstacksize(&at, 64 * 1024);
	L[n] = gettid_();		/* M holds the tail: the walk ends in EDEADLK */
	for (long i = n - 1; i >= 0; i--) {
		pthread_create(&t, &at, chain_thread, (void *)i);
		while (!ctid[i])
			usleep(100);
		/* wait until it sleeps on L[i + 1] */
			while (task_state(ctid[i]) != 'S')
				usleep(200);
	}
	for (int k = 0; k < 20; k++) {
		int r;

		t0 = now();
		r = lock_ping(&L[0], 5);
		t0 = now() - t0;
		if (t0 < best) best = t0;
		if (t0 > worst) worst = t0;
		if (k == 0)
			printf("chain %d: lock behind %d owners -> %d (%s)\n", n, n, r, strerror(-r));
	}
	printf("chain %d: FUTEX_LOCK_PING (returns EDEADLK at the end of the walk) took min %.3f ms, max %.3f ms\n",
	       n, best * 1e3, worst * 1e3);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "chain"))
		return run_chain(atoi(argv[2]));
	setvbuf(stdout, NULL, _IONBF, 0);
	/* The binary lives on 9p: a text page fault would put the owner to sleep. */
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		perror("mlockall");
	if (argc > 1 && !strcmp(argv[1], "f2"))
		return run_f2();
	return run_f1();
}
