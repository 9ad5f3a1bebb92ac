// SPDX-License-Identifier: GPL-2.0
/*
 * ping_fuzz: random futex traffic around PING locks from several processes
 * and threads, for a given time. The kernel must stay clean (the caller
 * judges its log) and the program must end.
 *
 * Two kinds of futex words, in memory that the processes share:
 *
 * - Locks, taken and released only by the protocol they belong to: PING
 *   (the user space fast path and steal, FUTEX_LOCK_PING with and without
 *   a timeout, FUTEX_TRYLOCK_PING, FUTEX_UNLOCK_PING with and without
 *   FUTEX_ROBUST_UNLOCK) or PI. Each counts the tasks inside it, which
 *   must never be more than one. Every owner keeps its locks on its
 *   robust list, and may exit, exec or be killed while holding one or
 *   waiting for one: the next owner must then see FUTEX_OWNER_DIED.
 *
 * - Chaos words, on which every futex operation is issued with random
 *   values, flags, unused arguments and timeouts (relative and absolute,
 *   on both clocks, some invalid), into which user space writes garbage
 *   (TIDs of no task, of another process, of a kernel thread,
 *   FUTEX_OWNER_DIED, FUTEX_WAITERS with TID 0), beside words that are
 *   private, read-only, unmapped or misaligned, and NULL. Operations that
 *   cannot take or release a lock (waits, wakes, requeues, unlocks by a
 *   non-owner) also hit the locks' words.
 *
 * Meanwhile the threads signal each other (handlers installed with and
 * without SA_RESTART), change their scheduling class (SCHED_OTHER, BATCH,
 * IDLE, and FIFO and DEADLINE where allowed), exit and are replaced;
 * processes fork children that exec or die while owning or waiting.
 *
 * Seeded: prints its seed, and -s SEED makes the same random decisions
 * again (the interleaving is the scheduler's). Exit status 0 if every
 * thread and process ended by the deadline, no lock let two owners in and
 * no lock operation failed in a way its protocol rules out; 1 otherwise,
 * with what went wrong (a task that did not end: its state, wait channel
 * and the words of the locks).
 *
 *   ping_fuzz [-s SEED] [-d SECONDS] [-p PROCESSES] [-t THREADS] [-v] [-x MASK]
 *
 * -x leaves out, to narrow a failure down: 1 chaos operations, 2
 * futex_waitv, 4 scheduling class changes, 8 signals, 16 thread exits,
 * 32 child processes, 64 PING locks, 128 PI locks, 256 nested locks.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <linux/sched/types.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef FUTEX_LOCK_PING
#define FUTEX_LOCK_PING		14
#define FUTEX_UNLOCK_PING	15
#define FUTEX_TRYLOCK_PING	16
#endif
#ifndef FUTEX_SET_WAIT
#define FUTEX_SET_WAIT		17
#endif
#ifndef FUTEX_ROBUST_UNLOCK
#define FUTEX_ROBUST_UNLOCK	512
#define FUTEX_ROBUST_LIST32	1024
#endif
#ifndef SYS_futex_waitv
#define SYS_futex_waitv		449
#endif

#define NLOCK		3	/* locks of each kind */
#define NCHAOS		4	/* shared chaos words */
#define MAX_PROCS	8
#define MAX_THREADS	16
#define USER_SPIN	50	/* user space rounds before the kernel */

enum kind { PING, PI, NKIND };

/* A lock: its robust list entry, its word, the tasks inside it. */
struct plock {
	struct robust_list list;
	uint32_t word;
	int inside;		/* __atomic */
	pid_t owner;		/* who took it last, for the error messages */
	/* The last events on it, for the error messages. */
	unsigned int nev;	/* __atomic */
	struct { pid_t tid; int what; uint32_t before, after; } ev[16];
};

enum { EV_CAS, EV_STEAL, EV_KERNEL, EV_TRY, EV_UNLOCK_CAS, EV_UNLOCK_KERNEL, EV_EXIT,
       EV_CHAOS_BASE = 100 };

static void event(struct plock *l, int what, uint32_t before)
{
	unsigned int n = __atomic_fetch_add(&l->nev, 1, __ATOMIC_RELAXED) % 16;

	l->ev[n].tid = syscall(SYS_gettid);
	l->ev[n].what = what;
	l->ev[n].before = before;
	l->ev[n].after = __atomic_load_n(&l->word, __ATOMIC_RELAXED);
}

static void dump_events(struct plock *l)
{
	unsigned int n = __atomic_load_n(&l->nev, __ATOMIC_RELAXED);

	for (unsigned int i = n > 16 ? n - 16 : 0; i < n; i++)
		fprintf(stderr, "ping_fuzz:   event %u: task %d %s%d, word %#x -> %#x\n", i,
			l->ev[i % 16].tid, l->ev[i % 16].what >= EV_CHAOS_BASE ? "chaos op " : "what ",
			l->ev[i % 16].what % EV_CHAOS_BASE, l->ev[i % 16].before, l->ev[i % 16].after);
}

struct shared {
	struct plock lock[NKIND][NLOCK];
	uint32_t chaos[NCHAOS];
	int stop;		/* __atomic: set once the time is up */
	pid_t tids[MAX_PROCS][MAX_THREADS];	/* for garbage words */
	pid_t dead_tid;		/* a TID that named a task once */
	/* __atomic counters */
	unsigned long ops, taken[NKIND], owner_died, exits, execs, kills, deadlocks, unlock_retries;
	unsigned long errors;
	char error[512];	/* the first error */
};

static struct shared *sh;
static unsigned long seed;
static int duration = 10, nr_procs = 3, nr_threads = 4, verbose;
/* -x: what to leave out, to narrow down a failure */
enum { NO_CHAOS = 1, NO_WAITV = 2, NO_SCHED = 4, NO_SIGNALS = 8, NO_EXITS = 16,
       NO_CHILDREN = 32, NO_PING = 64, NO_PI = 128, NO_NESTING = 256 };
static unsigned int leave_out;
static int proc_idx;
static uint32_t private_chaos[2];	/* private futex words of this process */
static uint32_t *ro_page, *gone_page;	/* read-only, unmapped */
static const char *self_exe = "/proc/self/exe";

struct worker {
	pthread_t pt;
	int slot, gen;
	int done;		/* __atomic: exited on its own */
	int running;
};
static struct worker workers[MAX_THREADS];

/* Per thread: the random state and the robust list. */
static __thread uint64_t rng;
static __thread struct robust_list_head rhead;
static __thread pid_t my_tid;

static uint64_t rnd(void)
{
	/* xorshift64* */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ULL;
}

static unsigned int pick(unsigned int n)
{
	return rnd() % n;
}

static bool chance(unsigned int percent)
{
	return pick(100) < percent;
}

static void seed_rng(unsigned long a, unsigned long b, unsigned long c)
{
	rng = seed * 0x9e3779b97f4a7c15ULL ^ (a << 40) ^ (b << 20) ^ c;
	if (!rng)
		rng = 1;
	for (int i = 0; i < 8; i++)
		rnd();
}

static bool stopping(void)
{
	return __atomic_load_n(&sh->stop, __ATOMIC_RELAXED);
}

static void count(unsigned long *c)
{
	__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
}

static void error(const char *fmt, ...)
{
	char buf[sizeof(sh->error)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(stderr, "ping_fuzz: error: %s\n", buf);
	if (__atomic_fetch_add(&sh->errors, 1, __ATOMIC_RELAXED) == 0)
		memcpy(sh->error, buf, sizeof(buf));
}

static long futex(void *uaddr, int op, uint32_t val, const struct timespec *ts, void *uaddr2,
		  uint32_t val3)
{
	return syscall(SYS_futex, uaddr, op, val, ts, uaddr2, val3);
}

static pid_t gettid_(void)
{
	return syscall(SYS_gettid);
}

/* A timeout T ms from now on CLOCK, or relative. */
static struct timespec *timeout(struct timespec *ts, clockid_t clock, bool relative, long us)
{
	if (relative) {
		ts->tv_sec = 0;
		ts->tv_nsec = 0;
	} else {
		clock_gettime(clock, ts);
	}
	ts->tv_nsec += us * 1000;
	while (ts->tv_nsec >= 1000000000) {
		ts->tv_nsec -= 1000000000;
		ts->tv_sec++;
	}
	return ts;
}

/* The robust list: a PI entry for every lock held, PING and PI alike. */
#define PI_BIT		1UL

static void robust_init(void)
{
	rhead.list.next = &rhead.list;
	rhead.futex_offset = offsetof(struct plock, word) - offsetof(struct plock, list);
	rhead.list_op_pending = NULL;
	if (syscall(SYS_set_robust_list, &rhead, sizeof(rhead)))
		error("set_robust_list: %s", strerror(errno));
}

static void pending(struct plock *l)
{
	rhead.list_op_pending = l ? (void *)((uintptr_t)&l->list | PI_BIT) : NULL;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static void robust_link(struct plock *l)
{
	l->list.next = rhead.list.next;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	rhead.list.next = (void *)((uintptr_t)&l->list | PI_BIT);
}

static void robust_unlink(struct plock *l)
{
	struct robust_list *prev = &rhead.list, *cur;

	for (;;) {
		cur = (void *)((uintptr_t)prev->next & ~PI_BIT);
		if (cur == &rhead.list) {
			error("lock %p not on its owner's robust list", (void *)l);
			return;
		}
		if (cur == &l->list) {
			prev->next = l->list.next;
			__atomic_signal_fence(__ATOMIC_SEQ_CST);
			return;
		}
		prev = cur;
	}
}

/*
 * Take lock @l of kind @k by its protocol. Returns true if taken (the
 * caller is then inside it), false if a timeout or trylock said no.
 */
static bool lock_take(enum kind k, struct plock *l)
{
	struct timespec ts, *tsp = NULL;
	uint32_t tid = my_tid, old;
	int how = pick(10), op;
	long ret;

	pending(l);
	/* User space: a free word, or a PING word with waiters and no owner. */
	for (int i = 0; i < (how < 8 ? USER_SPIN : 1); i++) {
		old = __atomic_load_n(&l->word, __ATOMIC_RELAXED);
		if (old == 0 || (k == PING && old == FUTEX_WAITERS)) {
			if (__atomic_compare_exchange_n(&l->word, &old, tid | old, false,
							__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
				event(l, old ? EV_STEAL : EV_CAS, old);
				goto taken;
			}
		}
		if (old & FUTEX_OWNER_DIED)
			break;
	}
	if (how == 9) {
		op = k == PING ? FUTEX_TRYLOCK_PING : FUTEX_TRYLOCK_PI;
	} else {
		op = k == PING ? FUTEX_LOCK_PING : FUTEX_LOCK_PI;
		if (how >= 6) {
			bool rt = k == PI || chance(50);

			tsp = timeout(&ts, rt ? CLOCK_REALTIME : CLOCK_MONOTONIC, false, pick(20000));
			if (rt && k == PING)
				op |= FUTEX_CLOCK_REALTIME;
		}
	}
	old = __atomic_load_n(&l->word, __ATOMIC_RELAXED);
	ret = futex(&l->word, op, 0, tsp, NULL, 0);
	if (!ret)
		event(l, how == 9 ? EV_TRY : EV_KERNEL, old);
	if (ret) {
		int e = errno;

		pending(NULL);
		if (e == ETIMEDOUT && tsp)
			return false;
		/*
		 * A cycle through a chaos word: its waiter attached as owner
		 * whatever task the garbage named, possibly one that waits
		 * for a lock this caller holds.
		 */
		if (e == EDEADLK && (op & FUTEX_CMD_MASK) != FUTEX_TRYLOCK_PING &&
		    (op & FUTEX_CMD_MASK) != FUTEX_TRYLOCK_PI) {
			count(&sh->deadlocks);
			return false;
		}
		if (e == EWOULDBLOCK && (op & FUTEX_CMD_MASK) != (k == PING ? FUTEX_LOCK_PING : FUTEX_LOCK_PI))
			return false;
		/* A trylock that a stolen or dying owner turned away. */
		if ((e == EBUSY || e == EAGAIN) && (op & FUTEX_CMD_MASK) == FUTEX_TRYLOCK_PI)
			return false;
		error("%s lock %p by %d (op %#x, word %#x, last taken by %d): %s",
		      k == PING ? "PING" : "PI", (void *)l, my_tid, op,
		      __atomic_load_n(&l->word, __ATOMIC_RELAXED), l->owner, strerror(e));
		dump_events(l);
		return false;
	}
taken:
	robust_link(l);
	pending(NULL);
	count(&sh->taken[k]);
	if (__atomic_load_n(&l->word, __ATOMIC_RELAXED) & FUTEX_OWNER_DIED) {
		/* Its owner died inside: whoever was inside is gone. */
		count(&sh->owner_died);
		__atomic_store_n(&l->inside, 0, __ATOMIC_RELAXED);
	}
	if (__atomic_add_fetch(&l->inside, 1, __ATOMIC_RELAXED) != 1) {
		dump_events(l);
		error("%s lock %p: two owners inside (word %#x, %d took it before %d)",
		      k == PING ? "PING" : "PI", (void *)l, __atomic_load_n(&l->word, __ATOMIC_RELAXED),
		      l->owner, my_tid);
	}
	l->owner = my_tid;
	return true;
}

static void lock_release(enum kind k, struct plock *l)
{
	uint32_t tid = my_tid;
	int op = k == PING ? FUTEX_UNLOCK_PING : FUTEX_UNLOCK_PI;
	void *pop = NULL;

	__atomic_sub_fetch(&l->inside, 1, __ATOMIC_RELAXED);
	pending(l);
	robust_unlink(l);
	if (chance(70) && __atomic_compare_exchange_n(&l->word, &tid, 0, false, __ATOMIC_RELEASE,
						      __ATOMIC_RELAXED)) {
		event(l, EV_UNLOCK_CAS, my_tid);
		pending(NULL);
		return;
	}
	if (chance(50)) {
		op |= FUTEX_ROBUST_UNLOCK;
		pop = &rhead.list_op_pending;
	}
	tid = __atomic_load_n(&l->word, __ATOMIC_RELAXED);
	/*
	 * FUTEX_UNLOCK_PI returns EAGAIN when the word changed between its
	 * read and its cmpxchg (a waiter setting FUTEX_WAITERS): "let user
	 * space handle it", i.e. try again.
	 */
	for (int i = 0; i < 1000; i++) {
		if (!futex(&l->word, op, 0, NULL, pop, 0)) {
			errno = 0;
			break;
		}
		if (errno != EAGAIN)
			break;
		count(&sh->unlock_retries);
	}
	if (errno) {
		error("%s unlock %p by %d (op %#x, word %#x, last taken by %d): %s",
		      k == PING ? "PING" : "PI", (void *)l, my_tid, op,
		      __atomic_load_n(&l->word, __ATOMIC_RELAXED), l->owner, strerror(errno));
		dump_events(l);
	} else {
		event(l, EV_UNLOCK_KERNEL, tid);
	}
	pending(NULL);
}

static void critical_section(void)
{
	if (chance(50)) {
		for (volatile int i = pick(2000); i > 0; i--)
			;
	} else {
		usleep(pick(200));
	}
}

/* A garbage word value. */
static uint32_t garbage(void)
{
	pid_t other = sh->tids[pick(nr_procs)][pick(nr_threads)];

	switch (pick(10)) {
	case 0: return 0;
	case 1: return my_tid;
	case 2: return my_tid | FUTEX_WAITERS;
	case 3: return FUTEX_WAITERS;
	case 4: return FUTEX_OWNER_DIED | (chance(50) ? FUTEX_WAITERS : 0);
	case 5: return other | (chance(50) ? FUTEX_WAITERS : 0);
	case 6: return sh->dead_tid | (chance(50) ? FUTEX_WAITERS : 0);
	case 7: return 2;	/* kthreadd */
	case 8: return FUTEX_TID_MASK & rnd();
	default: return rnd();
	}
}

/* A word for a chaos operation; *lockword: it is a lock's. */
static uint32_t *chaos_word(bool *lockword)
{
	*lockword = false;
	switch (pick(12)) {
	case 0: return private_chaos + pick(2);
	case 1: return ro_page;
	case 2: return gone_page;
	case 3: return (uint32_t *)((char *)&sh->chaos[pick(NCHAOS)] + 1 + pick(3));
	case 4: return NULL;
	case 5:
	case 6:
		*lockword = true;
		return &sh->lock[pick(NKIND)][pick(NLOCK)].word;
	default: return &sh->chaos[pick(NCHAOS)];
	}
}

static int chaos_flags(void)
{
	int f = 0;

	if (chance(40))
		f |= FUTEX_PRIVATE_FLAG;
	if (chance(30))
		f |= FUTEX_CLOCK_REALTIME;
	if (chance(10))
		f |= FUTEX_ROBUST_UNLOCK;
	if (chance(5))
		f |= FUTEX_ROBUST_LIST32;
	if (chance(2))
		f |= 1 << (11 + pick(20));
	return f;
}

/* An operation on a chaos word, or one that cannot take a lock's word. */
static void chaos_op(void)
{
	static const int ops[] = {
		FUTEX_WAIT, FUTEX_WAKE, FUTEX_REQUEUE, FUTEX_CMP_REQUEUE, FUTEX_WAKE_OP,
		FUTEX_LOCK_PI, FUTEX_UNLOCK_PI, FUTEX_TRYLOCK_PI, FUTEX_WAIT_BITSET,
		FUTEX_WAKE_BITSET, FUTEX_WAIT_REQUEUE_PI, FUTEX_CMP_REQUEUE_PI, FUTEX_LOCK_PI2,
		FUTEX_LOCK_PING, FUTEX_UNLOCK_PING, FUTEX_TRYLOCK_PING, FUTEX_SET_WAIT,
	};
	int cmd = ops[pick(sizeof(ops) / sizeof(ops[0]))], op, flags = chaos_flags();
	bool lockword, lockword2, owned = false;
	uint32_t *w = chaos_word(&lockword), *w2 = chaos_word(&lockword2);
	uint32_t val = chance(50) ? garbage() : pick(4), val3 = chance(70) ? FUTEX_BITSET_MATCH_ANY : rnd();
	struct timespec ts, *tsp = NULL;
	bool relative = cmd == FUTEX_WAIT, realtime = flags & FUTEX_CLOCK_REALTIME;
	long ret;

	/*
	 * On a lock's word, nothing that could take or release it beside
	 * its protocol, and nothing that queues there: a plain waiter on a
	 * PI or PING word makes its lockers' calls fail with EINVAL, as it
	 * should. Wakes, and unlocks by a task that does not own it, remain.
	 */
	if (lockword) {
		switch (cmd) {
		case FUTEX_WAKE:
		case FUTEX_WAKE_BITSET:
			/*
			 * With FUTEX_ROBUST_UNLOCK the kernel stores 0 into
			 * the word for the caller, an unlock by whoever asks:
			 * user space writing the lock's word.
			 */
			flags &= ~FUTEX_ROBUST_UNLOCK;
			break;
		case FUTEX_UNLOCK_PI:
		case FUTEX_UNLOCK_PING:
			break;
		default:
			return;
		}
	}
	/* uaddr2 (a requeue's target, WAKE_OP's word) never a lock's. */
	if (lockword2)
		w2 = &sh->chaos[pick(NCHAOS)];

	/* Blocking operations always have a timeout, right or invalid. */
	switch (cmd) {
	case FUTEX_WAIT:
	case FUTEX_LOCK_PI:
	case FUTEX_WAIT_BITSET:
	case FUTEX_WAIT_REQUEUE_PI:
	case FUTEX_LOCK_PI2:
	case FUTEX_LOCK_PING:
	case FUTEX_SET_WAIT:
		if (cmd == FUTEX_LOCK_PI)
			realtime = true;
		tsp = timeout(&ts, realtime ? CLOCK_REALTIME : CLOCK_MONOTONIC, relative,
			      pick(3000));
		if (chance(3))
			ts.tv_nsec = chance(50) ? -1L : 1000000000L + (long)pick(1000);
		break;
	default:
		/* An unused timeout slot, or FUTEX_WAKE_OP's val2. */
		if (chance(10)) {
			ts.tv_sec = pick(2);
			ts.tv_nsec = pick(1000);
			tsp = &ts;
		}
	}
	/* Garbage into chaos words now and then. */
	if (chance(30))
		__atomic_store_n(&sh->chaos[pick(NCHAOS)], garbage(), __ATOMIC_RELAXED);
	if (chance(10))
		__atomic_store_n(&private_chaos[pick(2)], garbage(), __ATOMIC_RELAXED);

	op = cmd | flags;
	count(&sh->ops);
	if (cmd == FUTEX_SET_WAIT)
		ret = futex(w, op, val, tsp, (void *)(uintptr_t)garbage(), val3);
	else if (cmd == FUTEX_CMP_REQUEUE || cmd == FUTEX_REQUEUE || cmd == FUTEX_CMP_REQUEUE_PI)
		ret = futex(w, op, pick(3), (void *)(uintptr_t)pick(3), w2, chance(50) ? val : garbage());
	else if (cmd == FUTEX_UNLOCK_PING && (flags & FUTEX_ROBUST_UNLOCK))
		ret = futex(w, op, chance(90) ? 0 : val, NULL,
			    chance(80) ? (void *)&rhead.list_op_pending : (void *)w2, 0);
	else
		ret = futex(w, op, chance(80) ? val : 0, tsp, chance(70) ? NULL : w2,
			    chance(70) ? 0 : val3);
	if (lockword && !ret)
		event((struct plock *)((char *)w - offsetof(struct plock, word)), EV_CHAOS_BASE + op, 0);
	/* A chaos lock taken: release it, so that it does not stay taken. */
	if (!ret && !lockword && w && (cmd == FUTEX_LOCK_PI || cmd == FUTEX_TRYLOCK_PI ||
				       cmd == FUTEX_LOCK_PI2 || cmd == FUTEX_LOCK_PING ||
				       cmd == FUTEX_TRYLOCK_PING || cmd == FUTEX_WAIT_REQUEUE_PI))
		owned = true;
	if (owned) {
		uint32_t *ow = cmd == FUTEX_WAIT_REQUEUE_PI ? w2 : w;
		int uop = cmd == FUTEX_LOCK_PING || cmd == FUTEX_TRYLOCK_PING ?
			  FUTEX_UNLOCK_PING : FUTEX_UNLOCK_PI;

		futex(ow, uop | (flags & FUTEX_PRIVATE_FLAG), 0, NULL, NULL, 0);
	}
}

/* futex_waitv() on random words, not the locks' (it queues). */
static void chaos_waitv(void)
{
	struct futex_waitv v[3];
	struct timespec ts;
	int n = 1 + pick(3);
	bool lockword;
	bool rt = chance(50);

	memset(v, 0, sizeof(v));
	for (int i = 0; i < n; i++) {
		do {
			v[i].uaddr = (uintptr_t)chaos_word(&lockword);
		} while (lockword);
		v[i].val = chance(50) ? garbage() : pick(3);
		v[i].flags = FUTEX2_SIZE_U32 | (chance(50) ? FUTEX2_PRIVATE : 0);
		if (chance(3))
			v[i].flags |= 1 << pick(8);
	}
	timeout(&ts, rt ? CLOCK_REALTIME : CLOCK_MONOTONIC, false, pick(3000));
	count(&sh->ops);
	syscall(SYS_futex_waitv, v, n, 0, &ts, rt ? CLOCK_REALTIME : CLOCK_MONOTONIC);
}

static void sched_change(void)
{
	struct sched_attr a = { .size = sizeof(a) };

	switch (pick(8)) {
	case 0:
		a.sched_policy = SCHED_IDLE;
		break;
	case 1:
		a.sched_policy = SCHED_BATCH;
		break;
	case 2:
		a.sched_policy = SCHED_FIFO;
		a.sched_priority = 1 + pick(3);
		break;
	case 3:
		a.sched_policy = SCHED_DEADLINE;
		a.sched_runtime = 200 * 1000;
		a.sched_deadline = a.sched_period = 2 * 1000 * 1000;
		break;
	default:
		a.sched_policy = SCHED_OTHER;
		a.sched_nice = pick(20);
	}
	/* Not allowed (FIFO, DEADLINE unprivileged) or no bandwidth: fine. */
	syscall(SYS_sched_setattr, 0, &a, 0);
}

static void on_signal(int sig)
{
	(void)sig;
}

static void signal_someone(void)
{
	pid_t t = sh->tids[proc_idx][pick(nr_threads)];

	if (chance(80) && t)
		syscall(SYS_tgkill, getpid(), t, SIGUSR1);
	else if (sh->tids[pick(nr_procs)][0])
		kill(0, SIGUSR2);	/* every process of the group: ignored but delivered */
}

static void *worker_fn(void *arg)
{
	struct worker *wk = arg;
	struct plock *held[2];
	enum kind hk[2];

	my_tid = gettid_();
	seed_rng(proc_idx, wk->slot, wk->gen);
	robust_init();
	__atomic_store_n(&sh->tids[proc_idx][wk->slot], my_tid, __ATOMIC_RELAXED);
	while (!stopping()) {
		unsigned int what = pick(100);

		if (what < 45) {
			/* Locks by their protocol: one, or two in a fixed order. */
			int n = chance(25) && !(leave_out & NO_NESTING) ? 2 : 1, got = 0;
			int first = pick(NKIND * NLOCK - 1), second = first + 1 + pick(NKIND * NLOCK - first - 1);
			int idx[2] = { first, second };

			if (leave_out & NO_PING) {
				idx[0] = NLOCK + pick(NLOCK);
				n = 1;
			} else if (leave_out & NO_PI) {
				idx[0] = pick(NLOCK);
				n = 1;
			}

			for (int i = 0; i < n; i++) {
				enum kind k = idx[i] / NLOCK;
				struct plock *l = &sh->lock[k][idx[i] % NLOCK];

				if (!lock_take(k, l))
					break;
				held[got] = l;
				hk[got++] = k;
			}
			critical_section();
			if (got && chance(1) && !(leave_out & NO_EXITS)) {
				/* Exit owning: the robust list hands the locks on. */
				count(&sh->exits);
				for (int i = 0; i < got; i++)
					event(held[i], EV_EXIT, 0);
				__atomic_store_n(&sh->dead_tid, my_tid, __ATOMIC_RELAXED);
				__atomic_store_n(&wk->done, 1, __ATOMIC_RELEASE);
				return NULL;
			}
			while (got--)
				lock_release(hk[got], held[got]);
		} else if (what < 85) {
			if (!(leave_out & NO_CHAOS))
				chaos_op();
		} else if (what < 90) {
			if (!(leave_out & NO_WAITV))
				chaos_waitv();
		} else if (what < 93) {
			if (!(leave_out & NO_SCHED))
				sched_change();
		} else if (what < 99) {
			if (!(leave_out & NO_SIGNALS))
				signal_someone();
		} else if (!(leave_out & NO_EXITS)) {
			/* Exit and be replaced. */
			__atomic_store_n(&sh->dead_tid, my_tid, __ATOMIC_RELAXED);
			__atomic_store_n(&wk->done, 1, __ATOMIC_RELEASE);
			return NULL;
		}
	}
	__atomic_store_n(&wk->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Waiter of a child that execs or is killed while it waits. */
static void *child_waiter_fn(void *arg)
{
	struct plock *l = arg;

	my_tid = gettid_();
	robust_init();
	if (lock_take(PING, l))
		lock_release(PING, l);
	return NULL;
}

/*
 * A child process that holds or waits for a lock when it execs, exits or
 * is killed; the parent waits for it with a deadline.
 */
static void child_event(void)
{
	int how = pick(4), status;
	struct plock *l = &sh->lock[PING][pick(NLOCK)];
	struct timespec t0, t1;
	pid_t pid = fork();

	if (pid < 0)
		return;
	if (!pid) {
		pthread_t t;

		my_tid = gettid_();
		robust_init();
		switch (how) {
		case 0:		/* exec while owning */
		case 1:		/* exit while owning */
		case 2:		/* killed while owning */
			if (lock_take(PING, l)) {
				if (how == 0)
					execl(self_exe, "ping_fuzz", "--exec-exit", (char *)NULL);
				if (how == 2)
					pause();
				_exit(0);
			}
			_exit(0);
		default:	/* exec while a thread waits */
			pthread_create(&t, NULL, child_waiter_fn, l);
			usleep(pick(2000));
			execl(self_exe, "ping_fuzz", "--exec-exit", (char *)NULL);
			_exit(0);
		}
	}
	if (how == 2) {
		usleep(pick(5000));
		kill(pid, SIGKILL);
		count(&sh->kills);
	} else {
		count(&sh->execs);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (t1.tv_sec - t0.tv_sec > 60) {
			error("child %d (event %d) did not end within 60 s", pid, how);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return;
		}
		usleep(1000);
		if (stopping() && how == 2)
			kill(pid, SIGKILL);
	}
}

/*
 * dump_file: the lines of /proc/PID/task/TID/NAME to stderr, each after
 * "ping_fuzz:   LABEL"; only the first line unless ALL, only lines with
 * one of KEYS (NULL-terminated) if KEYS.
 */
static void dump_file(pid_t pid, pid_t tid, const char *name, const char *label, int all,
		      const char *const *keys)
{
	char path[96], buf[512];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/%s", pid, tid, name);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(buf, sizeof(buf), f)) {
		const char *const *k = keys;

		while (k && *k && !strstr(buf, *k))
			k++;
		if (!k || *k)
			fprintf(stderr, "ping_fuzz:   %s%s%s", label, buf,
				strchr(buf, '\n') ? "" : "\n");
		if (!all)
			break;
	}
	fclose(f);
}

static void dump_task(pid_t pid, pid_t tid)
{
	static const char *const sched_keys[] = {
		"policy", "prio", "nr_switches", "dl.", "se.exec_start", "sum_exec", NULL
	};

	dump_file(pid, tid, "stat", "", 0, NULL);
	dump_file(pid, tid, "wchan", "wchan ", 0, NULL);
	/* Its kernel stack and scheduler state (root only). */
	dump_file(pid, tid, "stack", "stack ", 1, NULL);
	dump_file(pid, tid, "sched", "sched ", 1, sched_keys);
}

/* Every thread of a process that did not end. */
static void dump_process(pid_t pid)
{
	char path[64];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir)))
		if (d->d_name[0] != '.')
			dump_task(pid, atoi(d->d_name));
	closedir(dir);
}

static void dump_locks(void)
{
	for (int k = 0; k < NKIND; k++)
		for (int i = 0; i < NLOCK; i++)
			fprintf(stderr, "ping_fuzz:   %s lock %d: word %#x, inside %d\n",
				k == PING ? "PING" : "PI", i, sh->lock[k][i].word,
				sh->lock[k][i].inside);
}

static void start_worker(struct worker *wk)
{
	wk->gen++;
	wk->done = 0;
	if (pthread_create(&wk->pt, NULL, worker_fn, wk)) {
		error("pthread_create: %s", strerror(errno));
		wk->running = 0;
		return;
	}
	wk->running = 1;
}

/* One fuzzing process: its workers, replaced as they exit, and children. */
static int process_main(int idx)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct timespec dl;
	int rc = 0;

	proc_idx = idx;
	my_tid = gettid_();
	seed_rng(idx, MAX_THREADS, 0);
	sa.sa_flags = chance(50) ? SA_RESTART : 0;
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGUSR2, SIG_IGN);
	ro_page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	gone_page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ro_page == MAP_FAILED || gone_page == MAP_FAILED)
		return 1;
	ro_page[0] = my_tid | FUTEX_WAITERS;
	mprotect(ro_page, 4096, PROT_READ);
	munmap(gone_page, 4096);

	for (int i = 0; i < nr_threads; i++) {
		workers[i].slot = i;
		start_worker(&workers[i]);
	}
	while (!stopping()) {
		usleep(10000);
		for (int i = 0; i < nr_threads; i++) {
			if (workers[i].running && __atomic_load_n(&workers[i].done, __ATOMIC_ACQUIRE)) {
				pthread_join(workers[i].pt, NULL);
				if (!stopping())
					start_worker(&workers[i]);
				else
					workers[i].running = 0;
			}
		}
		if (chance(5) && !(leave_out & NO_CHILDREN))
			child_event();
	}
	/* Every worker ends by the deadline, or the run failed. */
	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += 60;
	for (int i = 0; i < nr_threads; i++) {
		if (!workers[i].running)
			continue;
		if (pthread_timedjoin_np(workers[i].pt, NULL, &dl)) {
			pid_t t = sh->tids[idx][i];

			error("process %d: thread %d did not end within 60 s of the stop", getpid(), t);
			dump_task(getpid(), t);
			dump_locks();
			rc = 1;
		}
	}
	if (rc)
		_exit(1);
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: ping_fuzz [-s SEED] [-d SECONDS] [-p PROCESSES (1-%d)] [-t THREADS (1-%d)] [-v] [-x MASK]\n",
		MAX_PROCS, MAX_THREADS);
	exit(2);
}

int main(int argc, char **argv)
{
	pid_t pids[MAX_PROCS];
	struct timespec t0, now;
	int c, rc = 0, status;
	bool seeded = false;

	if (argc == 2 && !strcmp(argv[1], "--exec-exit"))
		return 0;
	while ((c = getopt(argc, argv, "s:d:p:t:vx:")) != -1) {
		switch (c) {
		case 's':
			seed = strtoul(optarg, NULL, 0);
			seeded = true;
			break;
		case 'd':
			duration = atoi(optarg);
			break;
		case 'p':
			nr_procs = atoi(optarg);
			break;
		case 't':
			nr_threads = atoi(optarg);
			break;
		case 'v':
			verbose = 1;
			break;
		case 'x':
			leave_out = strtoul(optarg, NULL, 0);
			break;
		default:
			usage();
		}
	}
	if (optind != argc || duration < 1 || nr_procs < 1 || nr_procs > MAX_PROCS ||
	    nr_threads < 1 || nr_threads > MAX_THREADS)
		usage();
	if (!seeded) {
		clock_gettime(CLOCK_REALTIME, &now);
		seed = (now.tv_sec * 1000000007UL) ^ now.tv_nsec ^ getpid();
	}
	printf("ping_fuzz: seed %lu, %d s, %d processes x %d threads, leaving out %#x\n", seed, duration,
	       nr_procs, nr_threads, leave_out);
	fflush(stdout);

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	{
		uint32_t w = 0;

		if (futex(&w, FUTEX_TRYLOCK_PING, 0, NULL, NULL, 0)) {
			printf("ping_fuzz: no FUTEX_*_PING in this kernel (%s)\n", strerror(errno));
			return 4;
		}
		futex(&w, FUTEX_UNLOCK_PING, 0, NULL, NULL, 0);
	}
	setpgid(0, 0);
	signal(SIGUSR2, SIG_IGN);
	for (int i = 0; i < nr_procs; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			perror("fork");
			return 1;
		}
		if (!pids[i])
			_exit(process_main(i));
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		sleep(1);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (verbose)
			printf("ping_fuzz: %ld s: %lu ops, %lu PING and %lu PI locks, %lu owner deaths\n",
			       (long)(now.tv_sec - t0.tv_sec), sh->ops, sh->taken[PING], sh->taken[PI],
			       sh->owner_died);
	} while (now.tv_sec - t0.tv_sec < duration);
	__atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);

	/* Every process ends within its own deadline and some slack. */
	for (int i = 0; i < nr_procs; i++) {
		int waited = 0;

		while (waitpid(pids[i], &status, WNOHANG) != pids[i]) {
			if (++waited > 90 * 10) {
				error("process %d did not end within 90 s of the stop", pids[i]);
				dump_process(pids[i]);
				dump_locks();
				kill(pids[i], SIGKILL);
				/* A task that even SIGKILL does not end: say so. */
				for (int j = 0; j < 100 && waitpid(pids[i], &status, WNOHANG) != pids[i]; j++)
					usleep(100000);
				if (waitpid(pids[i], &status, WNOHANG) == 0) {
					error("process %d: not ended 10 s after SIGKILL", pids[i]);
					dump_process(pids[i]);
					status = 0;
				}
				rc = 1;
				break;
			}
			usleep(100000);
		}
		if (WIFEXITED(status) && WEXITSTATUS(status))
			rc = 1;
		if (WIFSIGNALED(status)) {
			error("process %d killed by signal %d", pids[i], WTERMSIG(status));
			rc = 1;
		}
	}
	printf("ping_fuzz: seed %lu: %lu chaos ops, %lu PING and %lu PI locks, %lu owner deaths seen, "
	       "%lu exits, %lu execs, %lu kills owning or waiting, %lu EDEADLK, %lu unlocks again after EAGAIN\n",
	       seed, sh->ops, sh->taken[PING], sh->taken[PI], sh->owner_died, sh->exits, sh->execs,
	       sh->kills, sh->deadlocks, sh->unlock_retries);
	if (sh->errors || rc) {
		printf("ping_fuzz: seed %lu: FAILED: %lu errors; the first: %s\n", seed, sh->errors,
		       sh->errors ? sh->error : "(see above)");
		return 1;
	}
	printf("ping_fuzz: seed %lu: ok\n", seed);
	return 0;
}
