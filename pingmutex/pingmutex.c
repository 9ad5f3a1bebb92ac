// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libpingmutex: pthread mutexes and condition variables on FUTEX_*_PING,
 * for unmodified dynamically linked programs (LD_PRELOAD).
 *
 * Which mutexes: by default those whose attributes ask for priority
 * inheritance (PTHREAD_PRIO_INHERIT), which a PING lock gives through
 * Proxy Execution; with PINGMUTEX=all, every mutex, the statically
 * initialised ones included. The others go to the C library's functions.
 *
 * A PING mutex keeps glibc's layout of pthread_mutex_t (x86_64): __lock
 * is the PING word (TID | FUTEX_WAITERS | FUTEX_OWNER_DIED), __count the
 * recursion count, __owner the owner's TID or, for a robust mutex, the
 * markers of an inconsistent or unrecoverable state, __kind glibc's kind
 * bits (type, robust, PI, process-shared), __list the link on the
 * thread's robust list, which is glibc's own: a PING mutex is listed as
 * glibc lists a PI mutex, with the PI bit, so the kernel handles both
 * kinds at thread exit and glibc's robust mutexes keep working.
 *
 * A condition variable used with a PING mutex is the library's own, on a
 * futex sequence word in the pthread_cond_t: glibc's pthread_cond_wait()
 * relocks the mutex through internal calls this library does not see.
 *
 * PINGMUTEX_STATS=1 prints, at exit, how the locks were taken (user space
 * fast path, user space steal, FUTEX_LOCK_PING) and released, so that a
 * silent fallback to the C library cannot pass for PING.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#if !defined(__x86_64__)
#error "libpingmutex knows glibc's pthread_mutex_t layout of x86_64 only"
#endif

#ifndef FUTEX_LOCK_PING
#define FUTEX_LOCK_PING		14
#define FUTEX_UNLOCK_PING	15
#define FUTEX_TRYLOCK_PING	16
#endif
#ifndef FUTEX_ROBUST_UNLOCK
#define FUTEX_ROBUST_UNLOCK	512
#endif

/* glibc's kind bits (nptl/pthreadP.h) and robust owner markers. */
#define KIND_TYPE_MASK		3
#define KIND_ROBUST		16
#define KIND_PI			32
#define KIND_PP			64
#define KIND_PSHARED		128
#define OWNER_INCONSISTENT	INT_MAX
#define OWNER_NOTRECOVERABLE	(INT_MAX - 1)

/* User space spins this many rounds on a taken word before the kernel. */
#define SPIN_ROUNDS		100

struct gmutex {			/* glibc's struct __pthread_mutex_s */
	_Atomic uint32_t lock;
	unsigned int count;
	int owner;
	unsigned int nusers;
	int kind;
	short spins;
	short elision;
	void *prev;		/* __list.__prev */
	void *next;		/* __list.__next: robust list entries point here */
};
_Static_assert(sizeof(struct gmutex) == sizeof(pthread_mutex_t), "pthread_mutex_t");

struct gcond {			/* the library's use of a pthread_cond_t */
	_Atomic uint32_t seq;	/* bumped by every signal and broadcast */
	uint32_t unused[7];
	_Atomic uint32_t magic;	/* COND_PING once a PING mutex waited on it */
	uint32_t wrefs;		/* glibc's flags: COND_SHARED, COND_MONOTONIC */
	uint32_t unused2[2];
};
_Static_assert(sizeof(struct gcond) == sizeof(pthread_cond_t), "pthread_cond_t");
#define COND_PING		0x474e4950	/* "PING" */
#define COND_SHARED		1		/* glibc's __PTHREAD_COND_SHARED_MASK */
#define COND_MONOTONIC		2		/* __PTHREAD_COND_CLOCK_MONOTONIC_MASK */

/* glibc's robust list head, which the kernel reads (robust-futex-ABI). */
struct rhead {
	void *list;
	long futex_offset;
	void *list_op_pending;
};

static void in_child(void);
static bool all_mutexes;
/* PINGMUTEX=glibc-pi, glibc-normal: no PING; the protocol that
 * pthread_mutex_init() gives every mutex (for comparisons), or -1. */
static int force_protocol = -1;
static bool stats;
static bool ping_ok;
static _Atomic unsigned long n_fast, n_steal, n_kernel_lock, n_kernel_unlock, n_user_unlock,
	n_cond_wait, n_owner_died;

static void (*real_exit)(int) __attribute__((noreturn));
static int (*real_init)(pthread_mutex_t *, const pthread_mutexattr_t *);
static int (*real_destroy)(pthread_mutex_t *);
static int (*real_lock)(pthread_mutex_t *);
static int (*real_trylock)(pthread_mutex_t *);
static int (*real_timedlock)(pthread_mutex_t *, const struct timespec *);
static int (*real_clocklock)(pthread_mutex_t *, clockid_t, const struct timespec *);
static int (*real_unlock)(pthread_mutex_t *);
static int (*real_consistent)(pthread_mutex_t *);
static int (*real_cond_wait)(pthread_cond_t *, pthread_mutex_t *);
static int (*real_cond_timedwait)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);
static int (*real_cond_clockwait)(pthread_cond_t *, pthread_mutex_t *, clockid_t,
				  const struct timespec *);
static int (*real_cond_signal)(pthread_cond_t *);
static int (*real_cond_broadcast)(pthread_cond_t *);

/*
 * The C library's versions. pthread_cond_* have two versions in glibc;
 * the default one (GLIBC_2.3.2) is what programs link against.
 */
static void *real(const char *name, const char *version)
{
	void *f = version ? dlvsym(RTLD_NEXT, name, version) : NULL;

	if (!f)
		f = dlsym(RTLD_NEXT, name);
	if (!f) {
		fprintf(stderr, "libpingmutex: no %s in the C library\n", name);
		abort();
	}
	return f;
}

static void print_stats(void)
{
	fprintf(stderr, "libpingmutex[%d]: %s mutexes on PING; locks: %lu fast path, %lu steals, %lu FUTEX_LOCK_PING "
		"(%lu owner died); unlocks: %lu in user space, %lu FUTEX_UNLOCK_PING; %lu condition waits\n",
		(int)getpid(),
		force_protocol == PTHREAD_PRIO_INHERIT ? "no (glibc-pi)" :
		force_protocol == PTHREAD_PRIO_NONE ? "no (glibc-normal)" : !ping_ok ? "no" : all_mutexes ? "all" : "PTHREAD_PRIO_INHERIT", atomic_load(&n_fast), atomic_load(&n_steal),
		atomic_load(&n_kernel_lock), atomic_load(&n_owner_died), atomic_load(&n_user_unlock),
		atomic_load(&n_kernel_unlock), atomic_load(&n_cond_wait));
}

/*
 * Set up on the first call into the library: other libraries' constructors
 * can lock mutexes before this library's constructor has run (Debian's
 * libGLdispatch does, in stress-ng). Every entry point calls setup(); the
 * first caller sets up, others wait for it (nothing in do_setup() comes
 * back into this library: dlsym(), atexit() and pthread_atfork() take the
 * C library's internal locks).
 */
enum { SETUP_NONE, SETUP_BUSY, SETUP_DONE };
static _Atomic int set_up;

static void do_setup(void)
{
	const char *m = getenv("PINGMUTEX"), *s = getenv("PINGMUTEX_STATS");

	all_mutexes = m && !strcmp(m, "all");
	if (m && !strcmp(m, "glibc-pi"))
		force_protocol = PTHREAD_PRIO_INHERIT;
	else if (m && !strcmp(m, "glibc-normal"))
		force_protocol = PTHREAD_PRIO_NONE;
	else if (m && *m && strcmp(m, "pi") && strcmp(m, "all"))
		fprintf(stderr, "libpingmutex: PINGMUTEX=%s: not pi, all, glibc-pi or glibc-normal; pi it is\n", m);
	stats = s && *s && strcmp(s, "0");
	real_init = real("pthread_mutex_init", NULL);
	real_destroy = real("pthread_mutex_destroy", NULL);
	pthread_atfork(NULL, NULL, in_child);
	real_exit = real("_exit", NULL);
	real_lock = real("pthread_mutex_lock", NULL);
	real_trylock = real("pthread_mutex_trylock", NULL);
	real_timedlock = real("pthread_mutex_timedlock", NULL);
	real_clocklock = real("pthread_mutex_clocklock", NULL);
	real_unlock = real("pthread_mutex_unlock", NULL);
	real_consistent = real("pthread_mutex_consistent", NULL);
	real_cond_wait = real("pthread_cond_wait", "GLIBC_2.3.2");
	real_cond_timedwait = real("pthread_cond_timedwait", "GLIBC_2.3.2");
	real_cond_clockwait = real("pthread_cond_clockwait", NULL);
	real_cond_signal = real("pthread_cond_signal", "GLIBC_2.3.2");
	real_cond_broadcast = real("pthread_cond_broadcast", "GLIBC_2.3.2");
	/* A kernel without PING: every mutex stays the C library's, said. */
	if (force_protocol < 0) {
		uint32_t word = 0;

		ping_ok = !syscall(SYS_futex, &word, FUTEX_TRYLOCK_PING | FUTEX_PRIVATE_FLAG, 0, NULL,
				   NULL, 0);
		if (ping_ok)
			syscall(SYS_futex, &word, FUTEX_UNLOCK_PING | FUTEX_PRIVATE_FLAG, 0, NULL, NULL, 0);
		else
			fprintf(stderr, "libpingmutex: no FUTEX_*_PING in this kernel (%s): the C library's mutexes are used\n",
				strerror(errno));
	}
	if (stats)
		atexit(print_stats);
}

static void __attribute__((noinline)) setup_slow(void)
{
	int old = SETUP_NONE;

	if (atomic_compare_exchange_strong(&set_up, &old, SETUP_BUSY)) {
		do_setup();
		/* Pairs with the acquire loads in setup() and below. */
		atomic_store_explicit(&set_up, SETUP_DONE, memory_order_release);
		return;
	}
	while (atomic_load_explicit(&set_up, memory_order_acquire) != SETUP_DONE)
		sched_yield();
}

static inline void setup(void)
{
	if (__builtin_expect(atomic_load_explicit(&set_up, memory_order_acquire) != SETUP_DONE, 0))
		setup_slow();
}

__attribute__((constructor)) static void pingmutex_init(void)
{
	setup();
}

static inline void count(_Atomic unsigned long *c)
{
	if (stats)
		atomic_fetch_add_explicit(c, 1, memory_order_relaxed);
}

static __thread uint32_t tid_cache;

static inline uint32_t self(void)
{
	if (!tid_cache)
		tid_cache = syscall(SYS_gettid);
	return tid_cache;
}

/*
 * The child of fork() is another task: its TID is not its parent's, and
 * its counters count its own locks.
 */
static void in_child(void)
{
	tid_cache = 0;
	atomic_store(&n_fast, 0);
	atomic_store(&n_steal, 0);
	atomic_store(&n_kernel_lock, 0);
	atomic_store(&n_kernel_unlock, 0);
	atomic_store(&n_user_unlock, 0);
	atomic_store(&n_cond_wait, 0);
	atomic_store(&n_owner_died, 0);
}

/*
 * Programs that fork workers often end them with _exit() (stress-ng
 * does), which runs no atexit() handler: the counters are printed here
 * too.
 */
void _exit(int status)
{
	setup();
	if (stats)
		print_stats();
	real_exit(status);
}

static inline struct gmutex *gm(pthread_mutex_t *m)
{
	return (struct gmutex *)m;
}

/*
 * A PTHREAD_PRIO_PROTECT mutex stays the C library's in every mode: its
 * word holds the priority ceiling, not a TID.
 */
static inline bool ours(pthread_mutex_t *m)
{
	int kind = gm(m)->kind;

	setup();
	return ping_ok && !(kind & KIND_PP) && (all_mutexes || (kind & KIND_PI));
}

static inline int private_flag(struct gmutex *g)
{
	return (g->kind & KIND_PSHARED) ? 0 : FUTEX_PRIVATE_FLAG;
}

static long futex(void *uaddr, int op, uint32_t val, const struct timespec *ts, void *uaddr2,
		  uint32_t val3)
{
	return syscall(SYS_futex, uaddr, op, val, ts, uaddr2, val3);
}

/* The thread's robust list head: glibc's, registered for every thread. */
static struct rhead *robust_head(void)
{
	static __thread struct rhead *head;
	size_t len;

	if (!head && syscall(SYS_get_robust_list, 0, &head, &len))
		abort();
	return head;
}

/*
 * The robust list is glibc's doubly linked one (nptl/descr.h): every
 * pointer points at a __next slot; the head's is robust_head.list, with
 * glibc's robust_prev before it. The kernel reads only the __next chain,
 * at any instruction: link an entry fully before it is published, and
 * unpublish it before it is cleared. PING entries carry the PI bit.
 */
#define PREV_OF(slot)	(*(void **)((uintptr_t)(slot) - sizeof(void *)))
#define barrier()	atomic_signal_fence(memory_order_seq_cst)

static void enqueue(struct gmutex *g)
{
	struct rhead *h = robust_head();
	uintptr_t next = (uintptr_t)h->list & ~1UL;

	PREV_OF(next) = &g->next;
	g->next = h->list;
	g->prev = &h->list;
	barrier();
	h->list = (void *)((uintptr_t)&g->next | 1);
}

static void dequeue(struct gmutex *g)
{
	uintptr_t next = (uintptr_t)g->next & ~1UL, prev = (uintptr_t)g->prev & ~1UL;

	PREV_OF(next) = g->prev;
	*(void **)prev = g->next;
	barrier();
	g->prev = NULL;
	g->next = NULL;
}

static inline void set_pending(struct gmutex *g)
{
	robust_head()->list_op_pending = (void *)((uintptr_t)&g->next | 1);
	barrier();
}

static inline void clear_pending(void)
{
	barrier();
	robust_head()->list_op_pending = NULL;
}

/* 0 -> TID, or the steal W -> TID|W; never a word with OWNER_DIED. */
static inline bool take(struct gmutex *g, uint32_t tid)
{
	uint32_t old = 0;

	if (atomic_compare_exchange_strong(&g->lock, &old, tid)) {
		count(&n_fast);
		return true;
	}
	if (old == FUTEX_WAITERS &&
	    atomic_compare_exchange_strong(&g->lock, &old, tid | FUTEX_WAITERS)) {
		count(&n_steal);
		return true;
	}
	return false;
}

/*
 * Take the word: user space first (with a short spin while the word is
 * taken, as Documentation/locking/ping-futex.rst allows), then
 * FUTEX_LOCK_PING, which spins on a running owner itself. @ts: absolute,
 * on @clock, or NULL. Returns 0 or an errno.
 */
static int lock_word(struct gmutex *g, uint32_t tid, clockid_t clock, const struct timespec *ts,
		     bool try)
{
	int op, i;

	if (take(g, tid))
		return 0;
	if (try) {
		uint32_t w = atomic_load(&g->lock);

		/* Only the kernel can take a word of a dead owner. */
		if (!(w & (FUTEX_WAITERS | FUTEX_OWNER_DIED)))
			return EBUSY;
		if (futex(&g->lock, FUTEX_TRYLOCK_PING | private_flag(g), 0, NULL, NULL, 0))
			return errno == EWOULDBLOCK ? EBUSY : errno;
		count(&n_kernel_lock);
		return 0;
	}
	for (i = 0; i < SPIN_ROUNDS; i++) {
		uint32_t w = atomic_load_explicit(&g->lock, memory_order_relaxed);

		if ((w == 0 || w == FUTEX_WAITERS) && take(g, tid))
			return 0;
		if (w & FUTEX_OWNER_DIED)
			break;
		__builtin_ia32_pause();
	}
	op = FUTEX_LOCK_PING | private_flag(g);
	if (ts && clock == CLOCK_REALTIME)
		op |= FUTEX_CLOCK_REALTIME;
	else if (ts && clock != CLOCK_MONOTONIC)
		return EINVAL;
	if (futex(&g->lock, op, 0, ts, NULL, 0))
		return errno;
	count(&n_kernel_lock);
	return 0;
}

static int ping_lock(pthread_mutex_t *m, clockid_t clock, const struct timespec *ts, bool try)
{
	struct gmutex *g = gm(m);
	uint32_t tid = self();
	int type = g->kind & KIND_TYPE_MASK, ret;
	bool robust = g->kind & KIND_ROBUST;

	if ((atomic_load(&g->lock) & FUTEX_TID_MASK) == tid) {
		if (type == PTHREAD_MUTEX_RECURSIVE) {
			if (g->count == UINT_MAX)
				return EAGAIN;
			g->count++;
			return 0;
		}
		/* Errorcheck; and normal, which the kernel would refuse too. */
		return try ? EBUSY : EDEADLK;
	}
	if (ts && (ts->tv_nsec < 0 || ts->tv_nsec >= 1000000000))
		return EINVAL;
	if (robust)
		set_pending(g);
	ret = lock_word(g, tid, clock, ts, try);
	if (ret) {
		if (robust)
			clear_pending();
		return ret;
	}
	if (robust) {
		enqueue(g);
		clear_pending();
	}
	g->count = 1;
	if (robust && g->owner == OWNER_NOTRECOVERABLE) {
		/* Unlocked without pthread_mutex_consistent(): no more use. */
		pthread_mutex_unlock(m);
		return ENOTRECOVERABLE;
	}
	if (atomic_load(&g->lock) & FUTEX_OWNER_DIED) {
		count(&n_owner_died);
		if (robust) {
			g->owner = OWNER_INCONSISTENT;
			return EOWNERDEAD;
		}
	}
	g->owner = tid;
	return 0;
}

static int ping_unlock(pthread_mutex_t *m)
{
	struct gmutex *g = gm(m);
	uint32_t tid = self(), old = tid;
	bool robust = g->kind & KIND_ROBUST;
	int op;

	if ((atomic_load(&g->lock) & FUTEX_TID_MASK) != tid)
		return EPERM;
	if ((g->kind & KIND_TYPE_MASK) == PTHREAD_MUTEX_RECURSIVE && --g->count)
		return 0;
	g->count = 0;
	if (robust && g->owner == OWNER_INCONSISTENT)
		g->owner = OWNER_NOTRECOVERABLE;
	else if (!robust || g->owner != OWNER_NOTRECOVERABLE)
		g->owner = 0;
	if (robust) {
		set_pending(g);
		dequeue(g);
	}
	if (atomic_compare_exchange_strong(&g->lock, &old, 0)) {
		count(&n_user_unlock);
	} else {
		/* Waiters, or OWNER_DIED to clear: the kernel's. */
		op = FUTEX_UNLOCK_PING | private_flag(g);
		if (robust)
			op |= FUTEX_ROBUST_UNLOCK;
		if (futex(&g->lock, op, 0, NULL, robust ? &robust_head()->list_op_pending : NULL, 0)) {
			fprintf(stderr, "libpingmutex: FUTEX_UNLOCK_PING of %p (word %#x): %s\n",
				(void *)m, atomic_load(&g->lock), strerror(errno));
			abort();
		}
		count(&n_kernel_unlock);
	}
	if (robust)
		clear_pending();
	return 0;
}

/*
 * pthread_mutex_init() is the C library's: it sets the kind from the
 * attributes, PTHREAD_PRIO_INHERIT's bit included, and leaves the rest
 * zero, a free PING word. PINGMUTEX=glibc-pi or glibc-normal changes the
 * protocol asked for (PTHREAD_PRIO_PROTECT excepted), to compare a
 * program on the C library's PI mutexes, or without PI, with PING; the
 * statically initialised mutexes stay normal.
 */
int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr)
{
	pthread_mutexattr_t a;
	int proto = PTHREAD_PRIO_NONE;

	setup();
	if (force_protocol < 0)
		return real_init(m, attr);
	if (attr) {
		a = *attr;
		pthread_mutexattr_getprotocol(&a, &proto);
	} else {
		pthread_mutexattr_init(&a);
	}
	if (proto != PTHREAD_PRIO_PROTECT)
		pthread_mutexattr_setprotocol(&a, force_protocol);
	return real_init(m, &a);
}

int pthread_mutex_destroy(pthread_mutex_t *m)
{
	if (!ours(m))
		return real_destroy(m);
	if (atomic_load(&gm(m)->lock) & FUTEX_TID_MASK)
		return EBUSY;
	return 0;
}

int pthread_mutex_lock(pthread_mutex_t *m)
{
	return ours(m) ? ping_lock(m, CLOCK_MONOTONIC, NULL, false) : real_lock(m);
}

int pthread_mutex_trylock(pthread_mutex_t *m)
{
	return ours(m) ? ping_lock(m, CLOCK_MONOTONIC, NULL, true) : real_trylock(m);
}

int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *ts)
{
	return ours(m) ? ping_lock(m, CLOCK_REALTIME, ts, false) : real_timedlock(m, ts);
}

int pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t clock, const struct timespec *ts)
{
	if (!ours(m))
		return real_clocklock(m, clock, ts);
	if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC)
		return EINVAL;
	return ping_lock(m, clock, ts, false);
}

int pthread_mutex_unlock(pthread_mutex_t *m)
{
	return ours(m) ? ping_unlock(m) : real_unlock(m);
}

int pthread_mutex_consistent(pthread_mutex_t *m)
{
	struct gmutex *g = gm(m);

	if (!ours(m))
		return real_consistent(m);
	if (!(g->kind & KIND_ROBUST) || g->owner != OWNER_INCONSISTENT ||
	    (atomic_load(&g->lock) & FUTEX_TID_MASK) != self())
		return EINVAL;
	g->owner = self();
	return 0;
}

/*
 * Condition variables: a sequence word that every signal bumps, in the
 * first bytes of the pthread_cond_t (glibc's __wseq), marked as the
 * library's by the first PING waiter; glibc's flags (process-shared, the
 * clock of pthread_condattr_setclock()) are read where glibc keeps them.
 * A condition variable that has had a PING waiter stays the library's:
 * glibc's pthread_cond_wait() with another mutex on it is not supported.
 */
static inline struct gcond *gc(pthread_cond_t *c)
{
	return (struct gcond *)c;
}

static inline int cond_private(struct gcond *cv)
{
	return (cv->wrefs & COND_SHARED) ? 0 : FUTEX_PRIVATE_FLAG;
}

static void relock(void *m)
{
	/* Cancelled in the wait: the handlers run with the mutex held. */
	ping_lock(m, CLOCK_MONOTONIC, NULL, false);
}

static int ping_cond_wait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clock,
			  const struct timespec *ts)
{
	struct gcond *cv = gc(c);
	uint32_t seq = atomic_load(&cv->seq);
	int op = FUTEX_WAIT_BITSET, ret, oldtype;
	volatile int err = 0;	/* set between the cleanup's push and pop */

	if ((atomic_load(&gm(m)->lock) & FUTEX_TID_MASK) != self())
		return EPERM;
	if (ts && (ts->tv_nsec < 0 || ts->tv_nsec >= 1000000000))
		return EINVAL;
	op |= cond_private(cv);
	if (atomic_load_explicit(&cv->magic, memory_order_relaxed) != COND_PING)
		atomic_store_explicit(&cv->magic, COND_PING, memory_order_relaxed);
	if (clock == CLOCK_REALTIME)
		op |= FUTEX_CLOCK_REALTIME;
	count(&n_cond_wait);
	ret = ping_unlock(m);
	if (ret)
		return ret;
	/*
	 * A signal after the unlock bumped the sequence: the wait returns at
	 * once (EAGAIN). A cancellation point, as glibc's: the mutex is
	 * taken again before the cleanup handlers run.
	 */
	pthread_cleanup_push(relock, m);
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, &oldtype);
	if (futex(&cv->seq, op, seq, ts, NULL, FUTEX_BITSET_MATCH_ANY) && errno == ETIMEDOUT)
		err = ETIMEDOUT;
	pthread_setcanceltype(oldtype, NULL);
	pthread_cleanup_pop(0);
	ret = ping_lock(m, CLOCK_MONOTONIC, NULL, false);
	return ret ? ret : err;
}

static clockid_t cond_clock(pthread_cond_t *c)
{
	return (gc(c)->wrefs & COND_MONOTONIC) ? CLOCK_MONOTONIC : CLOCK_REALTIME;
}

int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	return ours(m) ? ping_cond_wait(c, m, CLOCK_MONOTONIC, NULL) : real_cond_wait(c, m);
}

int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *ts)
{
	return ours(m) ? ping_cond_wait(c, m, cond_clock(c), ts) : real_cond_timedwait(c, m, ts);
}

int pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clock,
			   const struct timespec *ts)
{
	if (!ours(m))
		return real_cond_clockwait(c, m, clock, ts);
	if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC)
		return EINVAL;
	return ping_cond_wait(c, m, clock, ts);
}

/*
 * Signal and broadcast do not know the mutex: the mark says whose the
 * condition variable is. Every PING waiter read the sequence before it
 * released the mutex, so a bump after that release makes its wait return.
 */
static int ping_cond_wake(pthread_cond_t *c, int n)
{
	struct gcond *cv = gc(c);

	atomic_fetch_add(&cv->seq, 1);
	futex(&cv->seq, FUTEX_WAKE | cond_private(cv), n, NULL, NULL, 0);
	return 0;
}

int pthread_cond_signal(pthread_cond_t *c)
{
	setup();
	return atomic_load_explicit(&gc(c)->magic, memory_order_relaxed) == COND_PING ?
	       ping_cond_wake(c, 1) : real_cond_signal(c);
}

int pthread_cond_broadcast(pthread_cond_t *c)
{
	setup();
	return atomic_load_explicit(&gc(c)->magic, memory_order_relaxed) == COND_PING ?
	       ping_cond_wake(c, INT_MAX) : real_cond_broadcast(c);
}
