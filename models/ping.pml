/*
 * ping.pml: SPIN model of the FUTEX_*_PING word protocol.
 *
 * N user threads take one PING futex ROUNDS times each, through every
 * path: the user space fast path (CAS 0 -> TID) and steal (CAS W -> TID|W),
 * FUTEX_TRYLOCK_PING, FUTEX_LOCK_PING with its spin, its sleep, wakeup and
 * timeout or signal, the user space unlock (CAS TID -> 0) and
 * FUTEX_UNLOCK_PING with its stealable release, its handoff and its choice
 * of wakee (the top waiter or the blocked donor). One owner may die holding
 * the lock (DEATHS per run): exit or exec, with or without a robust list.
 *
 * Each inline is one kernel function, named in a "kernel: file:function"
 * comment; the comments at its transitions name the function, and quote
 * the code where one function has several steps (no line numbers: they
 * move). The code is kernel/futex/ping.c, pi.c and core.c with levers 1,
 * 3 and 5 of issue 26 (series 06 v3: "futex: Hand a fair PING waiter the
 * lock after it was passed over for 1 ms", "futex: Wake one PING waiter
 * at a time" and "futex: Release a contended PING lock as 0";
 * ping_release_word() judges the waiter that looks next), and finding
 * 13's fix: a look that loses its cmpxchg to user space sets W by an
 * atomic OR before it looks again (ping_or_waiters() in ping_wait()).
 * models/README.md maps each inline to its functions, and says what is
 * abstracted away and how to run it.
 *
 * The handoff rule (ping_hand_off_why()): an unlock hands the lock to the
 * waiter it serves (the top waiter, or the blocked donor) if that waiter
 * is RT/DL, or if PING_HANDOFF_NS (1 ms) have passed since its clock
 * started (q->ping_passed_ns); else it releases the lock for anyone to
 * take. A clock starts (ping_passed_over(), once per wait) at the first
 * stealable release that wakes the waiter or finds it first (in
 * ping_unlock_hb(): the woken waiter and top; with a wakeup in flight,
 * top), at a handoff to a donor served in top's place (top's), and at
 * the pass-on of ping_dequeue() that wakes it.
 *
 * The stealable release (ping_unlock_hb(), levers 3 and 5): one wakeup in
 * flight. ps->ping_woken (woken here) names the waiter a release woke
 * that has not looked yet. The release publishes 0 or W (below), sets
 * ps->owner NULL, and wakes the waiter it serves and marks it only if no
 * wakeup is in flight (woken is NULL); else it wakes nobody. The woken
 * waiter clears the mark at its first look (ping_wait()), whatever it
 * finds: a held word gets W again from ping_prepare_wait() before it
 * sleeps, so that the owner's unlock enters the kernel; a free one it
 * takes (ping_take()). ping_dequeue() moves the mark to the waiter its
 * pass-on wakes, and clears it if it names the leaver otherwise, so that
 * it never names a task that will not look again.
 * 0 or W: ping_release_word() allows 0 only if the unlocker is not RT/DL,
 * the waiter that looks next (ps->ping_woken if a wakeup is in flight,
 * else the waiter woken now) is not SCHED_IDLE, and it is the top waiter
 * or top's clock has run less than half of PING_HANDOFF_NS (the donor
 * rule); else the release publishes W, under the same one-wakeup rule.
 * The model publishes W for an RT/DL unlocker and for a donor once top's
 * clock has seen K / 2 ticks, and chooses 0 or W where the code allows 0:
 * SCHED_IDLE is not modelled (a class the model does not have), and a
 * clock may run half of the time before K / 2 ticks (as EARLY for all of
 * it), so W stands for both.
 *
 * Time is counted in unlocks (see TICK): a clock has run PING_HANDOFF_NS
 * after K unlocks in the kernel, or at any unlock before that (EARLY
 * chooses). RT/DL is a flag per thread chosen nondeterministically at its
 * start (threads 1..RT_THREADS may be RT/DL; all RT/DL waiters have one
 * priority), for its waits and its unlocks alike. There is no scheduler:
 * any thread may run at any step, so "the woken waiter will run soon" is
 * not a notion here, and neither is what the fallback guards against (an
 * RT thief on the woken waiter's CPU, see models/README.md).
 *
 * A word whose TID names no task is not taken over: FUTEX_LOCK_PING and
 * FUTEX_TRYLOCK_PING fail with -ESRCH and leave it as it is (as
 * FUTEX_LOCK_PI does). The kernel takes a lock over only when it knows
 * that the owner died: the robust list set OD (TID 0), or the owner exited
 * attached to the ps (ps->owner_died). An owner that dies unattached and
 * without a robust list leaves the lock dead; every thread that then tries
 * to take it gets -ESRCH, and gives up (ends its run).
 *
 * Properties; each assertion is tagged by the macro it uses:
 *  P1 mutual exclusion: at most one thread believes it holds the lock, and
 *     the word names it.
 *  P2 no lost wakeup: no waiter sleeps forever: when no thread can move
 *     any more, every thread has finished its rounds, died, or given up
 *     with -ESRCH (the watchdog's assertions and invalid end states); in
 *     every state, waiters queued with W clear and no kernel path under
 *     hb->lock imply a queued waiter that will look (awake, or a wakeup
 *     pending): else every later unlock stays in user space and nobody
 *     wakes them (the watchdog's LOST_WAKEUP); and, with -DLIVENESS,
 *     "eventually every thread is done" under weak fairness.
 *  P3 bounded bypass, the code's rule, for the first waiter in the queue
 *     (ping_top_waiter()); "bypassed": another thread takes the lock, other
 *     than to recover it after an owner's death (OD in the new word);
 *     "due": RT/DL, or fair and PING_HANDOFF_NS have passed since its
 *     clock started (by P3's own clock, gclk: started where the code's
 *     starts, above, and run by the same ticks). Bypasses are counted in
 *     windows: those with no kernel unlock and no look of the waiter
 *     between them count once (with W clear the thieves' unlocks stay in
 *     user space, as many as they like, until the woken waiter looks).
 *     Every look ends a window, also a lost one (-EAGAIN: user space
 *     changed the word between the look's read and its cmpxchg), since
 *     a lost look sets W by an atomic OR before it looks again
 *     (ping_or_waiters(), finding 13's fix; MUTANT_LOST_LOOK_NO_W is the
 *     code before it, where lost looks could follow each other without
 *     end and (b) failed):
 *     (a) an RT/DL waiter is never bypassed while first;
 *     (b) every unlock that finds a due waiter first hands it the lock;
 *         and, whatever the clock, a fair waiter is bypassed in at most
 *         K + 1 windows per wait while first, the code's "T plus one lost
 *         look": the K unlocks its clock may see before it runs out, plus
 *         one window for the look that the next kernel unlock waits for
 *         (K windows fail, N=3, K=1 and K=2);
 *     (c) once due, a waiter is bypassed in at most DUE_BYPASSES (1)
 *         windows while first before it gets the lock: a thief may take
 *         a lock that ping_dequeue()'s pass-on left free as it made the
 *         waiter first (with N=3 not even that: -DDUE_BYPASSES=0 holds);
 *     (d) a release as 0 whose next look is not the first waiter's (a
 *         donor's) comes only while that waiter's clock has seen fewer
 *         than K / 2 ticks: past half of its time, every unlock enters
 *         the kernel until the donor looks, so the one that finds it due
 *         hands it the lock. The half is about the donor's wakeup
 *         latency, which a model without a scheduler does not have; (d)
 *         keeps the code's rule checked (MUTANT_DONOR_ZERO_LATE).
 *     Its counters and clock are ghosts, kept apart from the code's clk.
 *  P4 owner death: after a death the kernel knows of (the robust list set
 *     OD, or the exit path found the ps), the first thread to take the
 *     lock sees OWNER_DIED, and no other; -ESRCH only after a death it
 *     does not know of (nobody takes the lock after that one).
 *  P5 no impossible state: every word value and ps state a kernel path
 *     meets is one it handles (no -EINVAL, -EPERM or -EDEADLK for a
 *     correct program); an error return means the word does not name the
 *     caller (the stale owner rule), and -ESRCH that it names a task that
 *     has finished its exit; nobody sleeps on a ps it owns; a kernel
 *     unlock with waiters queued finds W.
 *  P6 one release wakeup in flight: a release that wakes finds no earlier
 *     release's wakee that has not looked yet (by P6's own copy of the
 *     mark, gw, kept apart from the code's woken).
 *
 * Switches (-D):
 *  N=n ROUNDS=r K=k TMO=t DEATHS=d RT_THREADS=n	sizes, defaults below
 *  ABORT_FIRST	the design notes' wait loop: the timeout or signal is
 *		checked before the word (ping_wait() checks it only when it
 *		would sleep), except while ps->owner_died is set
 *  LIVENESS	add the LTL claim (pan -a -f)
 *  CHECK=mask	enable only the properties in mask (bit n-1 = Pn)
 *  P3_ACQ_ONLY	P3 without its unlock rule: only the bypasses counted
 *  BYP_BOUND=b	P3 (b)'s bound in windows (K + 1)
 *  DUE_BYPASSES=b	P3 (c)'s bound in windows (1)
 *  NO_EARLY	a clock runs out only after K unlocks, never earlier
 *  RELEASE_FREE_ANY	experiment: every stealable release may publish 0
 *			or W (ping_release_word()'s condition left out)
 *  MUTANT_NO_WAKE		the release marks its wakee but wakes nobody
 *  MUTANT_NO_STALE_OWNER_FIX	ping_wait() before 892a64d80: TID == self
 *				is -EINVAL before ps->owner == current is
 *				looked at (a handoff makes it happen)
 *  MUTANT_STEAL_HANDOFF	the handoff writes W, not TID|W
 *  MUTANT_NO_HANDOFF		the unlock never hands off
 *  MUTANT_NO_RT_HANDOFF	ping_hand_off_why() without the RT/DL rule
 *  MUTANT_NO_WAIT_BOUND	ping_hand_off_why() without PING_HANDOFF_NS:
 *				a fair waiter is never due
 *  MUTANT_DONOR_NO_CLOCK	a donor served in top's place does not start
 *				top's clock (so donors may bypass it forever)
 *  MUTANT_CLOCK_RESTART	ping_passed_over() restarts a running clock
 *  MUTANT_PASS_ON_NO_CLOCK	ping_dequeue()'s pass-on does not start the
 *				clock of the waiter it wakes (finding 9)
 *  MUTANT_DONOR_WHEN_DUE	ping_donor_waiter() serves the donor even
 *				when the top waiter must be handed the lock
 *  MUTANT_TAKE_DROPS_OD	ping_take() does not keep OWNER_DIED
 *  MUTANT_CLEAR_W_ALWAYS	ping_take() clears W with waiters left
 *  MUTANT_UNLOCK_KEEPS_OWNER	unlock publishes TID 0, ps->owner kept
 *  MUTANT_NO_PASS_ON		ping_dequeue() does not pass a wakeup on
 *  MUTANT_PASS_ON_TID0		ping_dequeue() passes a wakeup on only when
 *				the word's TID is 0 (d2c29f739), not
 *				whenever ps has no owner
 *  MUTANT_NO_OWNER_DIED	the exit path does not set ps->owner_died
 *  MUTANT_ABORT_DROPS_OD	with ABORT_FIRST: the timeout ends the wait
 *				while ps->owner_died is set
 *  MUTANT_LEAVE_DROPS_OD	ping_wait() before its fix (dfc30ef7a): the
 *				leaving waiter drops a death seen after its
 *				walk (finding 8)
 *  MUTANT_WOKEN_NO_W		the woken waiter finds the word held and
 *				sleeps without setting W
 *  MUTANT_RELEASE_NO_WAKE	the release wakes and marks nobody although
 *				no wakeup is in flight
 *  MUTANT_PASS_ON_STALE_MARK	the pass-on wakes next but leaves the mark
 *				naming the leaver
 *  MUTANT_LEAVE_KEEPS_MARK	a marked waiter that leaves without a
 *				pass-on (ps has an owner) keeps its mark
 *  MUTANT_REWAKE		a release wakes next and overwrites the mark
 *				while a wakeup is in flight (P6 only)
 *  MUTANT_PASS_ON_DROPS_MARK	the pass-on wakes next and clears the mark
 *				(more wakeups, not fewer: P6 only)
 *  MUTANT_LOST_LOOK_NO_W	ping_wait() before finding 13's fix: a look
 *				that loses its cmpxchg (-EAGAIN) looks again
 *				without ping_or_waiters()'s W
 *  MUTANT_DONOR_ZERO_LATE	ping_release_word() publishes 0 for a donor
 *				past half of top's time as well
 *  MUTANT_SPIN_NO_RELOOK	ping_wait()'s spin on a running owner ends in
 *				sleep without a look, its mark still set
 *  MUTANT_NO_ROBUST_WAKE	experiment: drop futex_ping_wake_dead(), see
 *				models/README.md
 *  MUTANT_WAKEE_NO_CLOCK	experiment: a donor woken in top's place does
 *				not start its own clock, see models/README.md
 */

#ifndef N
#define N	3
#endif
#ifndef ROUNDS
#define ROUNDS	2
#endif
#ifndef K
#define K	2	/* unlocks that PING_HANDOFF_NS lasts at most */
#endif
#ifndef TMO
#define TMO	1	/* timeouts or signals per run */
#endif
#ifndef DEATHS
#define DEATHS	1	/* owners that die holding the lock, per run */
#endif
#ifndef RT_THREADS
#define RT_THREADS	1	/* threads 1..RT_THREADS may be RT/DL */
#endif
#ifndef CHECK
#define CHECK	63
#endif

#if N < 2 || N > 5
#error "N must be 2..5"
#endif
#if K < 1 || K > 4
#error "K must be 1..4"
#endif

/* P3 (b): windows in which a fair waiter is bypassed while first, per
 * wait (see bypass()). With W clear after a stealable release the time
 * bound is enforced only from the woken waiter's look on (it sets W
 * again, by its cmpxchg or, if that loses, by ping_or_waiters(), and the
 * next unlock enters the kernel): one window more than the K kernel
 * unlocks, "T plus one lost look" */
#ifndef BYP_BOUND
#define BYP_BOUND	(K + 1)
#endif
/* P3 (c): windows in which a waiter is bypassed while first and due, per
 * wait */
#ifndef DUE_BYPASSES
#define DUE_BYPASSES	1
#endif

/* The futex word: TID in the low bits, as FUTEX_TID_MASK. */
#define W	128	/* FUTEX_WAITERS */
#define OD	64	/* FUTEX_OWNER_DIED */
#define TIDM	63	/* FUTEX_TID_MASK */
#define TID(v)	((v) & TIDM)

/* Kernel return values inside the model. */
#define R_WAIT		0	/* queue and sleep */
#define R_TAKEN		1	/* the caller holds the lock */
#define R_EAGAIN	2
#define R_EBUSY		3	/* owner exiting: wait_for_owner_exiting() */
#define R_ETIMEDOUT	4	/* timeout or signal */
#define R_EDEADLK	5
#define R_EINVAL	6
#define R_EWOULDBLOCK	7
#define R_ESRCH		8	/* the TID names no task: the word is left */
#define R_WALK		9	/* PING_WALK: a new owner, walk its chain */
#define R_SPIN		10	/* PING_WAIT_SPIN: spin on the running owner */

/* futex.state of a task */
#define X_OK		0
#define X_EXITING	1
#define X_DEAD		2

/* The tags name the property in pan's "assertion violated" message;
 * hidden: not part of the state. */
hidden byte P1_mutex = 1;
hidden byte P2_wakeup = 1;
hidden byte P3_bypass = 1;
hidden byte P4_ownerdied = 1;
hidden byte P5_state = 1;
#if (CHECK & 1)
#define P1(e)	assert((e) || !P1_mutex)
#else
#define P1(e)	skip
#endif
#if (CHECK & 2)
#define P2(e)	assert((e) || !P2_wakeup)
#else
#define P2(e)	skip
#endif
#if (CHECK & 4)
#define P3(e)	assert((e) || !P3_bypass)
#else
#define P3(e)	skip
#endif
/* P3's unlock rule, (b) "the unlock hands a due waiter the lock"; without
 * it (-DP3_ACQ_ONLY) only the bypasses are counted */
#ifdef P3_ACQ_ONLY
#define P3U(e)	skip
#else
#define P3U(e)	P3(e)
#endif
#if (CHECK & 8)
#define P4(e)	assert((e) || !P4_ownerdied)
#else
#define P4(e)	skip
#endif
#if (CHECK & 16)
#define P5(e)	assert((e) || !P5_state)
#else
#define P5(e)	skip
#endif
hidden byte P6_oneinflight = 1;
#if (CHECK & 32)
#define P6(e)	assert((e) || !P6_oneinflight)
#else
#define P6(e)	skip
#endif

/* User space memory */
byte word;		/* the futex word */

/* Kernel state. Thread ids are 1..N; index 0 is unused. */
byte hb;		/* hb->lock: holder, 0 if free */
byte wl;		/* ps->pi_mutex.wait_lock: holder */
byte nq;		/* futex_q entries queued on the word */
byte pos[N + 1];	/* place in hb->chain's plist (1: ping_top_waiter()),
			 * 0: not queued */
bit asleep[N + 1];	/* TASK_INTERRUPTIBLE set and not woken yet */
byte xstate[N + 1];	/* task->futex.state */
bit rt[N + 1];		/* RT/DL: rt_or_dl_prio(q->list.prio) */
/* The ps exists while nq > 0 (each waiter holds a reference). */
byte ps_owner;		/* ps->owner, 0 for NULL */
bit ps_owner_died;	/* ps->owner_died */
byte clk[N + 1];	/* q->ping_passed_ns as time: 0 not set; 1..K set,
			 * 1 + the unlocks since; K + 1: PING_HANDOFF_NS
			 * has passed (see TICK) */
byte tmo_left = TMO;

/* Ghost state for the properties */
byte gclk[N + 1];	/* P3: clk by P3's own rule (b), kept apart from the
			 * code's */
byte byp[N + 1];	/* P3: times bypassed while first, this wait */
byte bypd[N + 1];	/* P3: times bypassed while first and due, this wait */
hidden byte g_top;	/* scratch: the top waiter, within one step */
hidden byte g_i;	/* scratch */
byte cs;		/* threads that believe they hold the lock */
byte deaths;
bit handled;		/* the kernel knows the owner died: the robust list
			 * set OD, or the exit path found the ps */
byte od_seen;		/* acquisitions that saw OWNER_DIED */
byte ndone;		/* threads finished, dead, or given up (-ESRCH) */

/* Kernel state of the one-wakeup release (levers 3 and 5): */
byte woken;		/* ps->ping_woken: the waiter a stealable release
			 * woke (or the pass-on of that wakeup) that has not
			 * looked yet; 0 for NULL */
/* Ghosts; wq and gw are functions of the rest of the state in the
 * unmutated model, so they add no states; bsl does: */
byte wq[N + 1];		/* P2: wake_q entries for thread i not yet run */
byte gw;		/* P6: woken by the rule's own bookkeeping, apart
			 * from the code's mark (they differ in mutants) */
bit spinok[N + 1];	/* ping_wait()'s spin: woken since it last spun */
bit bsl[N + 1];		/* P3: bypassed while first since its last look
			 * or the last kernel unlock (one window) */
hidden byte g_w;	/* scratch: this look cleared current's mark */

/* ------------------------------------------------------------------ */
/* Granularity. Each atomic block is one step. A kernel path holds
 * hb->lock (and the ps wait lock) for a whole step; inside such a section
 * only the futex word races with anyone (user space writes it without
 * locks), so a section is split into steps only at its word accesses: a
 * value read in one step and a cmpxchg from it in a later one leave room
 * for user space to change the word in between, as on hardware. The ps
 * wait lock is taken only under hb->lock here (find_proxy_task, which
 * takes it alone, is not modelled), so it never blocks; wl records who
 * holds it so that the assertions can check where ps->owner is written. */

/* g_top = ping_top_waiter(): the first PING waiter on hb->chain (RT/DL by
 * priority, then fair ones FIFO), 0 if none.
 * kernel: ping.c:ping_top_waiter(); core.c:__futex_queue() */
inline top_waiter()
{
	g_top = 0;
	if
	:: pos[1] == 1 -> g_top = 1
	:: pos[2] == 1 -> g_top = 2
#if N >= 3
	:: pos[3] == 1 -> g_top = 3
#endif
#if N >= 4
	:: pos[4] == 1 -> g_top = 4
#endif
#if N >= 5
	:: pos[5] == 1 -> g_top = 5
#endif
	:: else
	fi
}

/* Queue me: plist_add() with prio min(normal_prio, MAX_RT_PRIO): behind
 * the waiters of its own priority, ahead of those of a lower one. Fresh
 * futex_q: ping_passed_ns 0, no clock (futex_q_init).
 * kernel: core.c:__futex_queue() (its plist_add()); ping.c:futex_lock_ping()
 * (futex_q_init, __futex_queue()) */
#define BEHIND(i) \
	if \
	:: pos[i] != 0 && rt[i] >= rt[me] -> g_i++ \
	:: pos[i] != 0 && rt[i] < rt[me] -> pos[i]++ \
	:: else \
	fi
inline enqueue()
{
	g_i = 1;
	BEHIND(1);
	BEHIND(2);
#if N >= 3
	BEHIND(3);
#endif
#if N >= 4
	BEHIND(4);
#endif
#if N >= 5
	BEHIND(5);
#endif
	pos[me] = g_i;
	g_i = 0;
	nq++;
	clk[me] = 0;
	gclk[me] = 0
}

/* Take me off the queue, and its per-wait state with it.
 * kernel: ping.c:ping_dequeue() (its __futex_unqueue()) */
#define CLOSE_UP(i) \
	if \
	:: pos[i] > pos[me] -> pos[i]-- \
	:: else \
	fi
inline unqueue()
{
	CLOSE_UP(1);
	CLOSE_UP(2);
#if N >= 3
	CLOSE_UP(3);
#endif
#if N >= 4
	CLOSE_UP(4);
#endif
#if N >= 5
	CLOSE_UP(5);
#endif
	pos[me] = 0;
	nq--;
	clk[me] = 0;
	gclk[me] = 0;
	byp[me] = 0;
	bypd[me] = 0
	; bsl[me] = 0
}

/* Time. ping_hand_off_why() compares now - q->ping_passed_ns with
 * PING_HANDOFF_NS (1 ms). The model has no clock: time passes at the
 * unlocks, which are where it is read. Each unlock in the kernel that
 * finds a waiter (ping_unlock_hb() past its no-waiter path, also one
 * whose cmpxchg fails and is retried: each reads now) is a tick; a clock
 * that has seen K ticks since it started has run PING_HANDOFF_NS, and a
 * clock that has started may also have run it at any earlier tick (the
 * unlocks may be that far apart): EARLY chooses, and a clock that has
 * run it stays so (time is monotonic). clk (and P3's gclk): 0 not
 * started; c in 1..K started, c - 1 ticks since; K + 1 run.
 * kernel: ping.c:ping_unlock_hb() (now = ktime_get_ns()),
 * ping_hand_off_why() (now - q->ping_passed_ns >= PING_HANDOFF_NS) */
#define TICK_ONE(c) \
	if \
	:: c >= 1 && c <= K -> c++ \
	:: else \
	fi
#define TICK(i) \
	TICK_ONE(clk[i]); \
	TICK_ONE(gclk[i])
inline tick()
{
	/* a kernel unlock ends every waiter's bypass window */
	bsl[1] = 0; bsl[2] = 0;
#if N >= 3
	bsl[3] = 0;
#endif
#if N >= 4
	bsl[4] = 0;
#endif
#if N >= 5
	bsl[5] = 0;
#endif
	TICK(1);
	TICK(2);
#if N >= 3
	TICK(3);
#endif
#if N >= 4
	TICK(4);
#endif
#if N >= 5
	TICK(5);
#endif
}
/* EARLY(x): x's clock started PING_HANDOFF_NS ago or more already, or
 * not: the code's clock and P3's both (they differ only in mutants). */
#ifdef NO_EARLY
#define EARLY(x)	skip
#else
#define RUNNING(c)	(c >= 1 && c <= K)
#define EARLY(x) \
	if \
	:: RUNNING(clk[x]) || RUNNING(gclk[x]) -> \
		if \
		:: RUNNING(clk[x]) -> clk[x] = K + 1 \
		:: else \
		fi; \
		if \
		:: RUNNING(gclk[x]) -> gclk[x] = K + 1 \
		:: else \
		fi \
	:: true \
	fi
#endif

/* ping_passed_over(x): start x's clock, unless it runs already.
 * kernel: ping.c:ping_passed_over() */
#ifdef MUTANT_CLOCK_RESTART
#define PASSED_OVER(x)	clk[x] = 1	/* bug: without its test, restarts it */
#else
#define PASSED_OVER(x) \
	if \
	:: clk[x] == 0 -> clk[x] = 1 \
	:: else \
	fi
#endif
/* P3 (b)'s own start of the clock, apart from the code's. */
#define GPASSED_OVER(x) \
	if \
	:: gclk[x] == 0 -> gclk[x] = 1 \
	:: else \
	fi

/* ping_hand_off_why(x) != FUTEX_PING_WHY_FAIR: the unlock must hand the
 * lock to x. kernel: ping.c:ping_hand_off_why() */
#ifdef MUTANT_NO_HANDOFF
#define MUST_HAND_OFF(x)	false
#else
#ifdef MUTANT_NO_RT_HANDOFF
#define WHY_RT(x)	false		/* bug */
#else
#define WHY_RT(x)	rt[x]		/* rt_or_dl_prio(q->list.prio) */
#endif
#ifdef MUTANT_NO_WAIT_BOUND
#define WHY_WAITED(x)	false		/* bug */
#else
#define WHY_WAITED(x)	(clk[x] == K + 1)	/* PING_HANDOFF_NS passed */
#endif
#define MUST_HAND_OFF(x)	(WHY_RT(x) || WHY_WAITED(x))
#endif

/* P3's own reading of the rule: x is due, the unlock must hand the lock
 * to x if it finds x first (P3 (b), (c)). */
#define DUE(x)	(rt[x] || gclk[x] == K + 1)

/* The ghost bookkeeping of an acquisition, in the step that takes the
 * lock: P1 and P4. */
inline acquired()
{
	cs++;
	P1(cs == 1);
	P1(TID(word) == me);
	if
	:: (word & OD) ->
		/* P4: OWNER_DIED only after a death, and only once */
		P4(deaths > 0 && od_seen == 0);
		od_seen++
	:: else ->
		/* P4: the first owner after a death sees OWNER_DIED */
		P4(deaths == 0 || od_seen > 0)
	fi
}

/* P3: the lock goes to who, in the step of the word's change (a taker's
 * cmpxchg, or the unlock's handoff): a bypass of the first waiter if it
 * is someone else, unless it recovers the lock after a death (the new
 * word has OD). */
inline bypass(who)
{
	top_waiter();
	if
	:: g_top != 0 && g_top != who && !(word & OD) ->
		P3(!rt[g_top]);			/* (a) */
		/* (b), (c) count windows: bypasses with no kernel unlock and
		 * no look of the waiter between them are one (user space
		 * unlocks with W clear do not reach the kernel: "T plus one
		 * lost look") */
		if
		:: bsl[g_top]		/* counted in this window already */
		:: else -> bsl[g_top] = 1;
		if
		:: byp[g_top] <= BYP_BOUND -> byp[g_top]++
		:: else
		fi;
		P3(byp[g_top] <= BYP_BOUND);	/* (b) */
		if
		:: DUE(g_top) && bypd[g_top] <= DUE_BYPASSES -> bypd[g_top]++
		:: else
		fi;
		P3(bypd[g_top] <= DUE_BYPASSES)	/* (c) */
		fi
	:: else
	fi;
	g_top = 0
}

/* wake_up_q(), after the locks are dropped. The wakee may be running by
 * then, or asleep again in a later wait: the wakeup is then spurious. */
inline wake_q()
{
	atomic {
		if
		:: t != 0 -> asleep[t] = 0;
			wq[t]--;
			t = 0
		:: else
		fi
	}
}

/* P2's ghost: a wake_q entry for t is made, in the step that chose t */
#define WQ_ARM	; if :: t != 0 -> wq[t]++ :: else fi

/* ------------------------------------------------------------------ */
/* Take the lock by a cmpxchg from v, a word with TID 0 or one naming an
 * owner that exited attached to the ps (ps->owner_died). Sets r = R_TAKEN
 * or R_EAGAIN.
 * kernel: ping.c:ping_take() */
inline ping_take(odf, has_ps, wtrs)
{
	if
	:: word == v ->
#ifdef MUTANT_TAKE_DROPS_OD
		word = me | odf | (wtrs -> W : 0);	/* bug: drops OD */
#elif defined(MUTANT_CLEAR_W_ALWAYS)
		word = me | (v & OD) | odf;		/* bug: drops W */
#else
		word = me | (v & OD) | odf | (wtrs -> W : 0);
#endif
		/* the cmpxchg. P5: TID 0 has no owner in ps, except an
		 * exiting one when the robust list cleared the TID before
		 * exit_ping_state() ran (ping_set_owner() moves the ps off
		 * its list) */
		P5(!has_ps || ps_owner == 0 || xstate[ps_owner] != X_OK);
		bypass(me);
		if
		:: has_ps -> ps_owner = me; ps_owner_died = 0	/* ping_set_owner() */
		:: else -> P5(nq == 0)
		fi;
		acquired();
		r = R_TAKEN
	:: else ->
		r = R_EAGAIN				/* the word changed */
	fi
}

/* futex_attach_owner() of the task TID(v), under its pi_futex_lock (so
 * its futex.state cannot change meanwhile): sets r to R_WAIT (alive, ps
 * attached if att), R_EBUSY (exiting; t = it), or, for a task that has
 * finished its futex cleanup, handle_exit_race()'s verdict: R_EAGAIN if
 * the word changed since v was read, else R_ESRCH.
 * kernel: pi.c:futex_attach_owner(), handle_exit_race() */
inline attach_owner(att)
{
	if
	:: xstate[TID(v)] == X_OK ->
		if
		:: att -> ps_owner = TID(v)	/* ping_attach_owner() */
		:: else				/* ping_attach_none() */
		fi;
		r = R_WAIT
	:: xstate[TID(v)] == X_EXITING ->
		r = R_EBUSY;			/* FUTEX_STATE_EXITING */
		t = TID(v)
	:: xstate[TID(v)] == X_DEAD && word != v ->
		r = R_EAGAIN			/* handle_exit_race(): changed */
	:: xstate[TID(v)] == X_DEAD && word == v ->
		r = R_ESRCH			/* handle_exit_race() */
	fi
}

/* The word v names another task: take the lock over if its owner exited
 * attached to ps; else attach the owner to ps if ps has none, then set W
 * (detaching again if that fails). Sets r = R_WAIT, R_TAKEN, R_EAGAIN,
 * R_EBUSY (t = the exiting owner) or R_ESRCH (the TID names no task: the
 * word is not touched). One step: besides the word, which user space
 * can change between the reads of this section (handle_exit_race() and
 * the cmpxchg), it reads only what the locks it holds protect.
 * kernel: ping.c:ping_prepare_wait() */
inline ping_prepare_wait()
{
	if
	:: ps_owner == 0 && ps_owner_died ->
		/* "!ps->owner && ps->owner_died": the owner exited
		 * attached to ps */
		ping_take(OD, 1, waiters)
	:: else ->
		/* P5: -EINVAL, the word and ps disagree (ps->owner names
		 * another TID) */
		P5(ps_owner == 0 || ps_owner == TID(v));
		/* attach the thief or the first owner (futex_attach_owner());
		 * -EBUSY, -ESRCH and -EAGAIN return with the word untouched
		 * (the -EINVAL for a TID of a queued waiter, ping_waits_on ==
		 * ps, needs a word user space forged: not modelled) */
		if
		:: ps_owner == 0 -> attach_owner(1); ok = (r == R_WAIT)
		:: else -> r = R_WAIT
		fi;
		/* set W; if the word changed, detach again. The woken
		 * waiter's look (g_w) that finds the word held sets W here
		 * too, so that the owner's unlock enters the kernel */
		if
#ifdef MUTANT_WOKEN_NO_W
		:: r == R_WAIT && !(v & W) && g_w ->
			skip	/* bug: the woken waiter sleeps without W */
		:: r == R_WAIT && !(v & W) && !g_w && word == v ->
#else
		:: r == R_WAIT && !(v & W) && word == v ->
#endif
			v = v | W;
			word = v
		:: r == R_WAIT && !(v & W) && word != v ->
			r = R_EAGAIN;
			if
			:: ok -> ps_owner = 0		/* ping_set_owner(ps, NULL) */
			:: else
			fi
		:: else
		fi;
		ok = 0
	fi
}

/* FUTEX_TRYLOCK_PING of a word that names a task: take it over if that
 * task exited attached to the ps, else tell a live owner (R_EWOULDBLOCK)
 * from an exiting (R_EBUSY) or missing one (R_ESRCH, or R_EAGAIN if the
 * word changed); never set W or attach.
 * kernel: ping.c:ping_trylock_owned() */
inline ping_trylock_owned()
{
	if
	:: waiters && ps_owner == 0 && ps_owner_died ->
		ping_take(OD, 1, 1)		/* "!ps->owner && ps->owner_died" */
	:: else ->
		attach_owner(0);		/* ping_attach_none() */
		if
		:: r == R_WAIT -> r = R_EWOULDBLOCK	/* PING_WOULDBLOCK */
		:: else
		fi
	fi
}

/* Read the word at the top of the wait loop, hb->lock held.
 * kernel: ping.c:ping_wait() (futex_get_value_locked(), ping_top_waiter(),
 * the wait lock) */
inline ping_wait_read()
{
	v = word;
	waiters = (nq > 1);
	assert(wl == 0);
	wl = me
}

/* Spin while the owner runs, before queueing: no locks, and it takes the
 * word only the way user space may (0, or exactly W: never with OD), as
 * often as it comes free: one attempt at any time before the locked path,
 * a superset of what __ping_spin() does (it takes the word only after it
 * saw an owner running, and never a word with OD).
 * kernel: ping.c:futex_lock_ping() (its ping_spin() call), ping_spin(),
 * __ping_spin() */
inline ping_spin()
{
	if
	:: skip		/* owner not on a CPU, need_resched(), a signal, ... */
	:: atomic {
		if
		:: word == 0 -> word = me; r = R_TAKEN
		:: word == W -> word = me | W; r = R_TAKEN
		:: else
		fi;
		if
		:: r == R_TAKEN -> bypass(me); acquired()
		:: else
		fi
	   }
	fi
}

/* Wait for the lock: queued, hb->lock and the wait lock held, the word
 * read. Sets r to R_TAKEN, R_ETIMEDOUT or R_ESRCH (or an error P5
 * rejects).
 * kernel: ping.c:ping_wait() */
inline ping_wait()
{
	do
	:: atomic {
		/* the look (under the wait lock, before "ownership first"):
		 * "if (ps->ping_woken == current) ps->ping_woken = NULL",
		 * whatever it finds; g_w tells ping_prepare_wait() that this
		 * look cleared current's mark (MUTANT_WOKEN_NO_W). P6's gw
		 * likewise. The end of the step ends current's bypass window
		 * (P3) */
		if
		:: woken == me -> woken = 0; g_w = 1
		:: else
		fi;
		if
		:: gw == me -> gw = 0
		:: else
		fi;
#ifdef ABORT_FIRST
		/* the design notes' order: a timeout or signal ends the wait
		 * before the word is looked at, the stale owner rule first;
		 * and (needed with -ESRCH) not while ps->owner_died is set:
		 * the last waiter to leave would free the ps and the death
		 * with it, and the lock would be dead */
#ifndef MUTANT_ABORT_DROPS_OD
#define OD_PENDING	(ps_owner == 0 && ps_owner_died)
#else
#define OD_PENDING	false	/* bug: a waiter may leave the death behind */
#endif
		if
		:: tmo && TID(v) != me && ps_owner != me && !OD_PENDING ->
			r = R_ETIMEDOUT
		:: else -> r = R_WAIT
		fi;
		if
		:: r == R_ETIMEDOUT
		:: else ->
#endif
		/* "Ownership first" */
		if
#ifdef MUTANT_NO_STALE_OWNER_FIX
		/* bug: ping.c before 892a64d80: the word naming the waiter
		 * is -EINVAL before ps->owner is looked at */
		:: TID(v) == me -> r = R_EINVAL
		:: TID(v) != me && ps_owner == me ->
			acquired();
			r = R_TAKEN
#else
		:: ps_owner == me ->
			/* "ps->owner == current": the kernel made it the
			 * owner (ping_take(), a handoff): the lock, even if
			 * it timed out */
			acquired();
			r = R_TAKEN
		:: ps_owner != me && TID(v) == me ->
			/* P5: -EINVAL, "not written by the kernel" */
			P5(false);
			r = R_EINVAL
#endif
		:: ps_owner != me && TID(v) != me && TID(v) == 0 ->
			ping_take(0, 1, waiters)	/* FUTEX_PING_LOCK_WOKEN */
		:: ps_owner != me && TID(v) != me && TID(v) != 0 ->
			/* ping_prepare_wait(); an owner attached now is new
			 * to the chain walk (unwalked) */
			g_i = (ps_owner == 0);
			ping_prepare_wait();
			if
			:: g_i && ps_owner != 0 -> unwalked = 1
			:: else
			fi;
			g_i = 0
		fi;
		/* the timeout or a signal, only when it would wait ("if
		 * (!ret)"); else a new owner's chain is walked first
		 * (PING_WALK: checked = ps->owner) */
		if
		:: r == R_WAIT && tmo -> r = R_ETIMEDOUT
		:: r == R_WAIT && !tmo && (ps_owner != checked || unwalked) ->
			r = R_WALK;
			checked = ps_owner;
			unwalked = 0
		:: else
		fi;
#ifdef ABORT_FIRST
		fi;
#endif
		if
		:: r == R_EAGAIN || r == R_EBUSY || r == R_WALK ->
			/* unlock the wait lock; PING_WALK, -EAGAIN and
			 * -EBUSY drop hb->lock, then ping_chain_walk() (not
			 * modelled: no cycles, no chains beyond the lock),
			 * cond_resched() or wait_for_owner_exiting() */
			wl = 0;
			hb = 0;
			v = 0;
			waiters = 0
		:: r == R_WAIT && spinok[me] ->
			/* PING_WAIT_SPIN, once per wakeup, if the owner runs
			 * (or not: the other branch): mark current if no
			 * wakeup is in flight ("if (!ps->ping_woken)
			 * ping_set_woken()"), so that a release meanwhile
			 * wakes nobody; unlock both locks */
			r = R_SPIN;
			spinok[me] = 0;
			if
			:: woken == 0 -> woken = me; gw = me
			:: else
			fi;
			wl = 0;
			hb = 0;
			v = 0;
			waiters = 0
		:: r == R_WAIT ->
			/* P5: never block on a ps whose owner is current */
			P5(ps_owner != me);
			/* set_current_state(), unlock */
			asleep[me] = 1;
			wl = 0;
			hb = 0;
			v = 0;		/* dead while asleep: re-read after */
			waiters = 0
		:: else ->
			wl = 0				/* taken, or goto out */
		fi;
		/* P3: a look ends current's bypass window, also a lost one
		 * (-EAGAIN: the word changed between the look's read and its
		 * cmpxchg, ping_take()'s or ping_prepare_wait()'s W, so that
		 * it set no W): ping_or_waiters() sets W before the next look,
		 * so that the next unlock enters the kernel (finding 13) */
		bsl[me] = 0;
		g_w = 0
	   }
	   if
	   :: r == R_EAGAIN ->
		/* cond_resched(), ping_lock_q() (futex_q_lockptr_lock());
		 * then, under hb->lock and the wait lock (taken and dropped
		 * within the step: under hb->lock it never blocks here),
		 * ping_or_waiters(): W by an atomic OR
		 * (arch_futex_atomic_op_inuser(FUTEX_OP_OR)), which user space
		 * cannot make fail, so that the unlock after it enters the
		 * kernel (finding 13); then look again ("continue") with
		 * hb->lock held: the read is a step of its own, as user space
		 * may change the word after the OR */
#ifndef MUTANT_LOST_LOOK_NO_W
		atomic { hb == 0 -> hb = me; word = word | W };
		atomic { ping_wait_read() }
#else
		/* bug: the code before the fix looks again without setting W */
		atomic { hb == 0 -> hb = me; ping_wait_read() }
#endif
	   :: r == R_WALK ->
		/* ping_chain_walk(), futex_q_lockptr_lock(), look again
		 * ("continue") */
		atomic { hb == 0 -> hb = me; ping_wait_read() }
	   :: r == R_SPIN ->
		/* ping_spin_on_owner(): no lock held, it only reads the word and
		 * may stop at any time (the TID changed, the owner stopped
		 * running, the budget, ...); then look again ("continue") */
#ifndef MUTANT_SPIN_NO_RELOOK
		atomic { hb == 0 -> hb = me; ping_wait_read() }
#else
		/* bug: it sleeps after the spin without looking again, and
		 * its mark keeps every release from waking it */
		atomic { asleep[me] = 1; r = R_WAIT };
		atomic { !asleep[me] && hb == 0 -> hb = me; checked = 0; spinok[me] = 1;
			 ping_wait_read() }
#endif
	   :: r == R_EBUSY ->
		/* wait_for_owner_exiting(), futex_q_lockptr_lock() */
		atomic { xstate[t] != X_EXITING && hb == 0 -> t = 0; hb = me; ping_wait_read() }
	   :: r == R_WAIT ->
		/* schedule(): a wakeup, or the hrtimer or a signal; then
		 * walk again before sleeping again (checked = NULL),
		 * futex_q_lockptr_lock() */
		if
		:: atomic { !asleep[me] && hb == 0 -> hb = me; checked = 0; spinok[me] = 1;
			    ping_wait_read() }
		:: atomic { tmo_left > 0 && hb == 0 ->
			tmo_left--; tmo = 1; asleep[me] = 0;
			hb = me; checked = 0; spinok[me] = 1; ping_wait_read() }
		fi
	   :: else ->
		break
	   fi
	od;
	/* "out:" leaving without the lock after an owner was
	 * attached that no walk has seen: walk (hb->lock dropped), then
	 * look at ps->owner again: an unlock may have handed the lock over
	 * meanwhile, or the owner exited attached to ps (retake). Without a
	 * walk, hb->lock has been held since the loop's look, which would
	 * have taken a lock whose owner died attached: only the walk lets a
	 * death in. ping_wait()'s spin is a local: reset for the next wait */
	atomic {
		spinok[me] = 0;
		if
		:: r != R_TAKEN && ps_owner != 0 && ps_owner != me &&
		   (ps_owner != checked || unwalked) ->
			hb = 0;			/* spin_unlock(), ping_chain_walk() */
			ok = 1
		:: else
		fi
	}
	if
	:: ok ->
		atomic { hb == 0 -> hb = me;	/* futex_q_lockptr_lock() */
			ok = 0;
			if
			:: ps_owner == me ->	/* "if (ps->owner == current)" */
				acquired();
				r = R_TAKEN
#ifndef MUTANT_LEAVE_DROPS_OD
			:: ps_owner == 0 && ps_owner_died && nq == 1 ->
				/* "retake": the owner exited attached to ps
				 * during the walk, and current is the last
				 * waiter (finding 8, fixed by dfc30ef7a):
				 * "goto retry"; the loop takes the lock with
				 * OD, by ping_prepare_wait() (its
				 * "!ps->owner && ps->owner_died"), or by
				 * ping_take() for a TID 0 word, OD|W from the
				 * robust list, whose OD it keeps. One step
				 * here: hb->lock stays held, and user space
				 * cannot change a word whose owner died (TID|W
				 * or OD|W), so the loop's first look takes it
				 * (that look would clear current's mark:
				 * ping_dequeue() below does, as nothing sees
				 * the mark in between). With other waiters the
				 * exit woke top, or ping_dequeue() passes the
				 * wakeup on */
				v = word;
				assert(wl == 0);
				wl = me;
				ping_take(OD, 1, 0);
				wl = 0;
				v = 0
#endif
			:: else
			fi }
	:: else
	fi;
	/* kernel: ping.c:ping_dequeue() */
	atomic {
		checked = 0;
		unwalked = 0;
		unqueue();			/* __futex_unqueue(), next */
		wl = me;			/* the wait lock */
		v = word;			/* futex_get_value_locked() */
		/* "!locked && !ps->owner": left without the lock while ps
		 * has no owner (the lock is free, its owner exited, or a
		 * thief is not attached yet): it may have been woken to
		 * take it or to attach the thief, so wake the next waiter */
#ifdef MUTANT_PASS_ON_TID0
		/* bug: ping.c of d2c29f739: only while the word's TID is 0 */
		ok = (nq > 0 && r != R_TAKEN && TID(v) == 0)
#else
		ok = (nq > 0 && r != R_TAKEN && ps_owner == 0)
#endif
	}
	atomic {
		if
		:: nq == 0 ->
			/* "!next": no waiter left: clear W, best effort */
			if
			:: (v & W) && word == v -> word = v - W
			:: else
			fi;
			/* ping_put_state(): the last reference */
			ps_owner = 0;
			ps_owner_died = 0
		:: ok ->
#ifdef MUTANT_NO_PASS_ON
			t = 0
#else
			/* next = ping_top_waiter(); ping_wake_waiter(): only
			 * a wakeup, never a handoff; the word and ps->owner
			 * stay. The lock is free for anyone while it waits
			 * (or its owner is not attached, or died):
			 * ping_passed_over() starts its clock */
			top_waiter();
			t = g_top;
			g_top = 0;
#ifndef MUTANT_PASS_ON_NO_CLOCK
			PASSED_OVER(t);
#endif
			GPASSED_OVER(t)
#endif
		:: else
		fi;
		/* the mark goes with the pass-on's wakeup ("The wakeup that
		 * current did not use goes to @next"; ok: t is the waiter
		 * woken); current's mark is cleared if it leaves without a
		 * pass-on ("Also when current leaves without passing a
		 * wakeup on": ps has an owner, or it took the lock); the last
		 * waiter frees the ps and the mark with it */
		if
		:: nq == 0 -> woken = 0; gw = 0
		:: else ->
			if
			:: gw == me -> gw = (ok -> t : 0)
			:: else
			fi;
			if
			:: woken == me && ok ->
#if defined(MUTANT_PASS_ON_STALE_MARK)
				skip		/* bug: the mark names the leaver */
#elif defined(MUTANT_PASS_ON_DROPS_MARK)
				woken = 0	/* bug: the wakeup goes unmarked */
#else
				woken = t
#endif
			:: woken == me && !ok ->
#ifdef MUTANT_LEAVE_KEEPS_MARK
				skip		/* bug: the mark names the leaver */
#else
				woken = 0
#endif
			:: else
			fi
		fi
		WQ_ARM;
		wl = 0;
		hb = 0;		/* spin_unlock(q->lock_ptr) */
		ok = 0;
		v = 0;
		waiters = 0
	}
	wake_q()				/* wake_up_q() */
}

/* FUTEX_LOCK_PING, or FUTEX_TRYLOCK_PING. Sets r.
 * kernel: ping.c:futex_lock_ping() */
inline futex_lock_ping(trylock)
{
	r = R_EAGAIN;
	if
	:: !trylock -> ping_spin()
	:: else
	fi;
	do
	:: r == R_TAKEN ->
		break
	:: else ->
		/* futex_q_lock(); ping_lock_atomic() reads the word */
		atomic {
			hb == 0 -> hb = me;
			v = word;
			waiters = (nq > 0);		/* top */
			r = (TID(v) == me -> R_EDEADLK : R_WAIT)
		}
		/* kernel: ping.c:ping_lock_atomic() */
		atomic {
			if
			:: r == R_EDEADLK			/* TID == self */
			:: r != R_EDEADLK && TID(v) == 0 && !waiters ->
				/* "Free, no waiters: keep OD, drop a stale W" */
				ping_take(0, 0, 0)
			:: r != R_EDEADLK && TID(v) != 0 && trylock ->
				/* ping_trylock_owned(), under the wait lock
				 * if a ps exists */
				if
				:: waiters -> assert(wl == 0); wl = me
				:: else
				fi;
				ping_trylock_owned();
				wl = 0
			:: else ->
				assert(wl == 0);
				wl = me;			/* the wait lock */
				/* ping_alloc_state() if nobody waits */
				assert(waiters || ps_owner == 0 && !ps_owner_died);
				if
				:: TID(v) == 0 -> ping_take(0, 1, waiters)
				:: else -> ping_prepare_wait()
				fi;
				wl = 0;
				/* ping_put_state(new_ps) */
				if
				:: r != R_WAIT && !waiters -> ps_owner = 0; ps_owner_died = 0
				:: else
				fi
			fi;
			if
			:: r == R_WAIT ->
				/* __futex_queue(); ping_wait() reads the word,
				 * which nobody else can change now: it has W
				 * and names a task */
				enqueue();
				ping_wait_read()
			:: else ->
				hb = 0;			/* futex_q_unlock() */
				v = 0;
				waiters = 0
			fi
		}
		if
		:: r == R_WAIT ->
			ping_wait();
			break
		:: r == R_EBUSY ->
			/* -EBUSY: wait_for_owner_exiting(), "goto retry" */
			atomic { xstate[t] != X_EXITING -> t = 0 }
		:: r == R_EAGAIN			/* -EAGAIN: "goto retry" */
		:: else ->
			/* "goto out": taken, -EWOULDBLOCK, -ESRCH,
			 * -EDEADLK */
			break
		fi
	od
}

/* The unlock under hb->lock and the wait lock, with waiters: choose the
 * waiter to serve (t: the blocked donor, or the top waiter) and hand the
 * lock to it (hnd: its TID|W, ps->owner = t) or release it: publish 0 or
 * W (ping_release_word()), ps->owner = NULL; if no wakeup is in flight,
 * wake t, mark it (ps->ping_woken) and start the clocks of t and of the
 * top waiter; else wake nobody and start top's clock. One cmpxchg from v;
 * ok = 0 if the word changed (nothing else changes then but the time; the
 * caller retries).
 * kernel: ping.c:ping_unlock_hb(), ping_donor_waiter(), ping_hand_off(),
 * ping_release_word() */
#define DONOR_OK(d) \
	(pos[d] > 1 && rt[d] == rt[g_top] && DONOR_TOP_NOT_DUE)
/* ping_release_word()'s donor rule: top's clock has run less than half
 * of PING_HANDOFF_NS: not started, or fewer than K / 2 ticks since (K
 * ticks are all of it). */
#ifdef MUTANT_DONOR_ZERO_LATE
#define DONOR_ZERO(x)	true		/* bug: past the half as well */
#else
#define DONOR_ZERO(x)	(clk[x] == 0 || clk[x] - 1 < K / 2)
#endif
#ifdef MUTANT_DONOR_WHEN_DUE
#define DONOR_TOP_NOT_DUE	true		/* bug */
#else
/* ping_donor_waiter(): not if ping_must_hand_off(top, now) */
#define DONOR_TOP_NOT_DUE	!MUST_HAND_OFF(g_top)
#endif
inline ping_unlock_release()
{
	top_waiter();					/* top */
	t = g_top;
	/* now = ktime_get_ns(): a tick of every clock, and top's may have
	 * run PING_HANDOFF_NS already (it decides the donor) */
	tick();
	EARLY(g_top);
	/* ping_donor_waiter(): current->blocked_futex_donor, if it is
	 * queued on this lock with top's priority, and top need not be
	 * handed the lock; or nobody (no Proxy Execution,
	 * !sched_proxy_exec(), or no donor) */
	if
	:: true
	:: DONOR_OK(1) -> t = 1
	:: DONOR_OK(2) -> t = 2
#if N >= 3
	:: DONOR_OK(3) -> t = 3
#endif
#if N >= 4
	:: DONOR_OK(4) -> t = 4
#endif
#if N >= 5
	:: DONOR_OK(5) -> t = 5
#endif
	fi;
	/* the donor's clock, read with the same now */
	if
	:: t != g_top -> EARLY(t)
	:: else
	fi;
	hnd = MUST_HAND_OFF(t);		/* why = ping_hand_off_why(next, now) */
	if
	:: word == v && hnd ->
		/* ping_hand_off(): the word, the owner, the wakeup */
#ifdef MUTANT_STEAL_HANDOFF
		word = W;		/* bug: the handoff can be stolen */
#else
		word = t | W;
#endif
		/* P3: an unlock that finds a due waiter first serves it */
		P3U(!DUE(g_top) || t == g_top);
		ps_owner = t;
		ps_owner_died = 0;
		/* "A donor served in place of @top passes over @top": start
		 * its clock */
		if
		:: t != g_top ->
#ifndef MUTANT_DONOR_NO_CLOCK
			PASSED_OVER(g_top);
#endif
			GPASSED_OVER(g_top)
		:: else
		fi;
		bypass(t);	/* sets g_top = 0 */
		ok = 1
	:: word == v && !hnd ->
		/* P3: a due first waiter is handed the lock */
		P3U(!DUE(g_top));
		/* ping_release_word(): 0 only if the unlocker is not RT/DL
		 * and the waiter that looks next (ps->ping_woken if a wakeup
		 * is in flight, else t, which this release wakes) is top, or
		 * a donor while top's clock has run less than half of its
		 * time (DONOR_ZERO); else W. Where 0 is allowed, W too: the
		 * code publishes W for a SCHED_IDLE waiter, and for a donor
		 * once half of top's time has run, which may be before K / 2
		 * ticks. -DRELEASE_FREE_ANY: 0 or W at every release (the
		 * condition left out) */
		g_i = (woken != 0 -> woken : t);	/* the next look */
		if
#ifdef RELEASE_FREE_ANY
		:: true ->
#else
		:: !rt[me] && (g_i == g_top || DONOR_ZERO(g_top)) ->
#endif
			if
			:: word = 0;
#ifndef RELEASE_FREE_ANY
				/* P3 (d): a donor's release as 0 only in
				 * the first half of top's time */
				P3U(g_i == g_top || gclk[g_top] == 0 ||
				    gclk[g_top] - 1 < K / 2)
#else
				skip
#endif
			:: word = W
			fi
		:: else ->
			word = W
		fi;
		g_i = 0;
#ifndef MUTANT_UNLOCK_KEEPS_OWNER
		ps_owner = 0;			/* ping_set_owner(ps, NULL) */
#endif
		/* One wakeup in flight: wake t and mark it only if no wakeup
		 * is in flight ("if (ps->ping_woken)": wake nobody, and top
		 * was passed over: its clock) */
		if
#if defined(MUTANT_REWAKE)
		:: true ->	/* bug: wakes (and marks) again while one flies */
#elif defined(MUTANT_RELEASE_NO_WAKE)
		:: false ->	/* bug: never wakes */
#else
		:: woken == 0 ->
#endif
			/* P6: one release wakeup in flight */
			P6(gw == 0);
			woken = t;
			gw = t;
		/* ping_wake_waiter(next); "A donor woken in place of @top
		 * passes over both": start their clocks */
#ifdef MUTANT_WAKEE_NO_CLOCK
		if
		:: t == g_top -> PASSED_OVER(t)	/* experiment */
		:: else
		fi;
#else
		PASSED_OVER(t);
#endif
		GPASSED_OVER(t);
		if
		:: t != g_top ->
#ifndef MUTANT_DONOR_NO_CLOCK
			PASSED_OVER(g_top);
#endif
			GPASSED_OVER(g_top)
		:: else
		fi;
		:: else ->
			t = 0;
			PASSED_OVER(g_top);
			GPASSED_OVER(g_top)
		fi;
		ok = 1
#ifdef MUTANT_NO_WAKE
		; t = 0			/* bug: marks t, wakes nobody */
#endif
	:: else ->
		/* ping_update_word() fails: -EAGAIN, ps untouched */
		ok = 0;
		t = 0
	fi;
	g_top = 0
}

/* FUTEX_UNLOCK_PING; v is the word from get_user().
 * kernel: ping.c:__futex_unlock_ping(), ping_unlock_hb() */
inline futex_unlock_ping()
{
	do
	:: /* P5: -EPERM, the word does not name current */
	   P5(TID(v) == me);
	   atomic {
		hb == 0 -> hb = me;		/* guard(spinlock)(&hb->lock) */
		if
		:: nq == 0 ->
			/* "!top": "No waiter can queue without hb->lock.
			 * Drop W and OD." */
			P5(ps_owner == 0);
			if
			:: word == v -> word = 0; r = R_TAKEN
			:: else -> r = R_EAGAIN
			fi
		:: else ->
			assert(wl == 0);
			wl = me;			/* the wait lock */
			/* P5: -EINVAL ("owner ? owner != current :
			 * ps->owner_died"); ps->owner is NULL if we stole it */
			P5(ps_owner == 0 && !ps_owner_died || ps_owner == me);
			/* P5: an unlock that enters the kernel with waiters
			 * queued finds W: the one-wakeup release leaves W
			 * clear only for unlocks that stay in user space
			 * (TID -> 0), and a waiter sets W before it sleeps */
			P5(word & W);
			ping_unlock_release();
			r = (ok -> R_TAKEN : R_EAGAIN)
			WQ_ARM;
			wl = 0
		fi;
		hb = 0;
		ok = 0;
		hnd = 0
	   }
	   if
	   :: r == R_TAKEN ->
		wake_q();				/* wake_up_q() */
		break
	   :: else ->
		v = word			/* -EAGAIN: "goto retry", get_user() */
	   fi
	od;
	atomic { r = 0; v = 0 }
}

/* ------------------------------------------------------------------ */
/* Owner death, on exit or exec.
 * kernel: core.c:futex_cleanup(), between futex_cleanup_begin()
 * (futex.state EXITING) and futex_cleanup_end() (DEAD) */

/* The robust list entry: lockless, then wake the top PING waiter, only if
 * the word had W. A word released as 0 and stolen (TID, W clear) becomes
 * OD with no wakeup: the waiter woken by that release is on its way, and
 * takes it with OWNER_DIED.
 * kernel: core.c:handle_futex_death() (the TID check, the cmpxchg to
 * (uval & FUTEX_WAITERS) | FUTEX_OWNER_DIED, "pi && (uval &
 * FUTEX_WAITERS)"), ping.c:futex_ping_wake_dead() */
inline handle_futex_death()
{
	do
	:: v = word;
	   if
	   :: TID(v) != me ->
		break
	   :: else ->
		atomic {
			if
			:: word == v -> word = (v & W) | OD; ok = 1; handled = 1
			:: else -> ok = 0
			fi
		}
		if
		:: ok -> break
		:: else
		fi
	   fi
	od;
#ifndef MUTANT_NO_ROBUST_WAKE
	if
	:: ok && (v & W) ->
		atomic {
			hb == 0 -> hb = me;		/* hb->lock */
			top_waiter();			/* ping_wake_waiter(top) */
			t = g_top;
			g_top = 0
			WQ_ARM;
			hb = 0
		}
		wake_q()				/* wake_up_q() */
	:: else
	fi;
#endif
	atomic { ok = 0; v = 0 }
}

/* The PING states on the exiting task's list (those it was attached to).
 * kernel: ping.c:exit_ping_state_list(), exit_ping_state();
 * core.c:futex_cleanup() */
inline exit_ping_state_list()
{
	atomic {
		hb == 0 -> hb = me;			/* hb->lock */
		assert(wl == 0);
		wl = me;				/* the wait lock */
		t = 0;
		if
		:: nq > 0 && ps_owner == me ->
			/* P5: the word names us, or the robust list cleared it */
			P5(TID(word) == me || TID(word) == 0 && (word & OD));
			/* "The word cannot be written here": mark the ps,
			 * wake the top waiter; it takes the lock with OD */
			ps_owner = 0;
#ifndef MUTANT_NO_OWNER_DIED
			ps_owner_died = 1;
#endif
			handled = 1;	/* the kernel knew it as the owner */
			top_waiter();			/* "if (top)" wake it */
			t = g_top;
			g_top = 0
		:: else			/* "if (ps->owner != curr) return" */
		fi
		WQ_ARM;
		wl = 0;
		hb = 0
	}
	wake_q()					/* wake_up_q() */
}

/* ------------------------------------------------------------------ */

proctype thread(byte me)
{
	byte v;		/* a word value read earlier */
	byte t;		/* wake_q: the task to wake; or an exiting owner */
	byte r;		/* return value */
	byte round;
	bit waiters;	/* other waiters queued */
	bit hnd;	/* the unlock hands over */
	bit ok;
	bit tmo;	/* the timeout fired, or a signal came */
	bit trylk;	/* FUTEX_TRYLOCK_PING first */
	bit robust;	/* a robust list entry for the lock */
	byte checked;	/* ping_wait(): the owner whose chain was walked */
	bit unwalked;	/* ping_wait(): an owner attached since */

	/* the scheduling class, for all its waits and unlocks: RT/DL or
	 * fair (rt_or_dl_prio(q->list.prio) of its futex_q, and
	 * rt_or_dl_task(current) in ping_release_word()) */
	if
	:: me <= RT_THREADS -> rt[me] = 1
	:: skip
	fi;
	do
	:: round == ROUNDS ->
		break
	:: else ->
		/* ---- lock ---- */
		do
		:: atomic {
			/* uapi: CAS 0 -> TID */
			if
			:: word == 0 -> word = me; r = R_TAKEN; bypass(me); acquired()
			:: else -> r = R_EAGAIN
			fi
		   }
		   if
		   :: r == R_EAGAIN ->
			atomic {
				/* uapi: steal, CAS W -> TID|W */
				if
				:: word == W -> word = me | W; r = R_TAKEN; bypass(me); acquired()
				:: else
				fi
			}
		   :: else
		   fi;
		   if
		   :: r == R_EAGAIN ->
			if
			:: trylk = 0
			:: trylk = 1
			fi;
			do
			:: futex_lock_ping(trylk);
			   if
			   :: r == R_EWOULDBLOCK -> trylk = 0
			   :: else -> trylk = 0; break
			   fi
			od
		   :: else
		   fi;
		   /* P5: the stale owner rule: an error means the word does
		    * not name us; -ESRCH means it names a task that has
		    * finished its exit; a correct program sees no other
		    * error */
		   P5(r == R_TAKEN || r == R_ETIMEDOUT && TID(word) != me ||
		      r == R_ESRCH && TID(word) != me && xstate[TID(word)] == X_DEAD);
		   if
		   :: r == R_TAKEN -> break
		   :: r == R_ESRCH ->
			/* P4: only a death the kernel does not know of (no
			 * robust list, not attached) leaves the lock dead */
			P4(deaths > 0 && !handled);
			goto dead		/* give up: the lock is dead */
		   :: else -> tmo = 0	/* retry after the timeout */
		   fi
		od;
		/* ---- critical section ---- */
		atomic { P1(TID(word) == me); tmo = 0; r = 0 };
		if
		:: atomic { deaths < DEATHS -> deaths++; cs-- };
			/* die holding the lock: exit, or exec (the TID lives
			 * on; only with a robust list: without, a new program
			 * holds the lock unless the kernel knew the owner,
			 * which is the program's own fault) */
			xstate[me] = X_EXITING;		/* futex_cleanup_begin() */
			if
			:: robust = 1;
			   handle_futex_death()		/* exit_robust_list() */
			:: robust = 0
			fi;
			exit_ping_state_list();
			xstate[me] = X_DEAD;		/* futex_cleanup_end() */
			if
			:: robust -> xstate[me] = X_OK	/* exec: futex_exec_done() */
			:: skip
			fi;
			goto dead
		:: skip
		fi;
		/* ---- unlock ---- */
		atomic {
			cs--;
			/* uapi: CAS TID -> 0 */
			if
			:: word == me -> word = 0; r = R_TAKEN
			:: else -> r = R_EAGAIN; v = word	/* get_user() */
			fi
		}
		if
		:: r == R_EAGAIN -> futex_unlock_ping()
		:: else -> r = 0
		fi;
		round++
	od;
dead:
	atomic { v = 0; r = 0; round = 0; robust = 0; tmo = 0; trylk = 0; ndone++ }
}

/* Runs when no thread can move any more: every thread must have finished
 * its rounds, died, or given up with -ESRCH; no waiter is left asleep. */
/* A queued waiter that will look: awake (woken, timed out, or not asleep
 * yet), or with a wake_q entry pending. */
#define LOOKS(i)	(pos[i] != 0 && (!asleep[i] || wq[i] > 0))
#if N == 2
#define SOMEONE_LOOKS	(LOOKS(1) || LOOKS(2))
#elif N == 3
#define SOMEONE_LOOKS	(LOOKS(1) || LOOKS(2) || LOOKS(3))
#elif N == 4
#define SOMEONE_LOOKS	(LOOKS(1) || LOOKS(2) || LOOKS(3) || LOOKS(4))
#else
#define SOMEONE_LOOKS	(LOOKS(1) || LOOKS(2) || LOOKS(3) || LOOKS(4) || LOOKS(5))
#endif
/* Lost wakeup: waiters queued, all asleep, W clear, no wakeup pending,
 * and no kernel path under hb->lock (an unlock in the kernel; also
 * ping_dequeue() between its unqueue and its pass-on, two steps here):
 * every later unlock takes the user space fast path, and nobody wakes
 * them. What replaces "W is set while anyone is queued": waiters queued
 * with W clear imply a queued waiter that is awake and will look (the
 * marked one, or one a pass-on woke), or a kernel path under hb->lock. */
#define LOST_WAKEUP	(hb == 0 && nq > 0 && !(word & W) && !SOMEONE_LOOKS)
active proctype watchdog()
{
	/* P2: the lost wakeup state is never reached (checked in every
	 * state: the guard is executable exactly there) */
	if
	:: atomic { LOST_WAKEUP -> P2(false) }
	:: timeout
	fi;
	atomic {
		/* P2: lost wakeup: the lock is free and waiters sleep */
		P2(!(nq > 0 && TID(word) == 0));
		/* P2: waiters left behind an owner that will not unlock, or
		 * a dead lock whose waiters did not all get -ESRCH */
		P2(nq == 0);
		P2(ndone == N);
		P4(od_seen <= 1)
	}
}

init
{
	atomic {
		run thread(1);
		run thread(2);
#if N >= 3
		run thread(3);
#endif
#if N >= 4
		run thread(4);
#endif
#if N >= 5
		run thread(5);
#endif
	}
}

#ifdef LIVENESS
/* P2 as liveness: under weak fairness every thread finishes its rounds,
 * dies or gives up with -ESRCH; a waiter asleep forever breaks it. */
ltl finish { <> (ndone == N) }
#endif
