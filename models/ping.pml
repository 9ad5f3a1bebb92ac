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
 * Each inline is one kernel function, named with its lines as
 * "kernel: file:function:lines" at its transitions. The lines are those of
 * kernel/futex/ping.c, pi.c and core.c at the tip of the queue, series/06
 * ("tools/testing/futex: Add ping_fuzz, a randomized PING fuzzer"; ping.c
 * last changed by "futex: Trace each look of a queued PING waiter"):
 * git show series/06-futex-ping-spin:<file>
 * in work/linux. models/README.md maps each inline to its lines, and says
 * what is abstracted away and how to run it.
 *
 * The handoff rule is the code's (ping.c:ping_hand_off_why:1293-1304):
 * an unlock hands the lock to the waiter it serves (the top waiter, or the
 * blocked donor) if that waiter is RT/DL, was stolen from
 * (q->ping_stolen_from, set at ping_wait:885-886 when a look finds the
 * lock taken after at least one pass), or has been passed over
 * PING_MAX_PASSES times (q->ping_passes, charged to the top waiter at every
 * stealable release, ping_unlock_hb:1468); else it publishes W and wakes
 * it. Here PING_MAX_PASSES is K (default 2, the code has 4), and RT/DL is
 * a flag per thread chosen nondeterministically at its start (threads
 * 1..RT_THREADS may be RT/DL; all RT/DL waiters have one priority).
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
 *     with -ESRCH (the watchdog's assertions and invalid end states); and,
 *     with -DLIVENESS, "eventually every thread is done" under weak
 *     fairness.
 *  P3 bounded bypass, the code's rule, for the first waiter in the queue
 *     (ping_top_waiter()); "bypassed": another thread takes the lock, other
 *     than to recover it after an owner's death (OD in the new word):
 *     (a) an RT/DL waiter is never bypassed while first, and every unlock
 *         that finds it first hands it the lock;
 *     (b) a fair waiter: the unlock after K that found it first without
 *         handing it the lock (stealable releases, also those that woke a
 *         donor) hands it the lock; so it is bypassed at most K + 1 times
 *         per wait while first (K releases, and one made for a waiter
 *         before it that left: ping_dequeue()'s pass-on only wakes);
 *     (c) a fair waiter that an unlock's stealable release woke while it
 *         was first, and that then looked and found the lock taken, is
 *         bypassed no more while first: the next unlock that finds it
 *         first hands it the lock ("stolen from once").
 *     The counters and flags of these are ghosts, kept apart from the
 *     code's q->ping_passes and q->ping_stolen_from.
 *  P4 owner death: after a death the kernel knows of (the robust list set
 *     OD, or the exit path found the ps), the first thread to take the
 *     lock sees OWNER_DIED, and no other; -ESRCH only after a death it
 *     does not know of (nobody takes the lock after that one).
 *  P5 no impossible state: every word value and ps state a kernel path
 *     meets is one it handles (no -EINVAL, -EPERM or -EDEADLK for a
 *     correct program); an error return means the word does not name the
 *     caller (the stale owner rule), and -ESRCH that it names a task that
 *     has finished its exit; nobody sleeps on a ps it owns.
 *
 * Switches (-D):
 *  N=n ROUNDS=r K=k TMO=t DEATHS=d RT_THREADS=n	sizes, defaults below
 *  CORE		the rule of the core patch (560ead79c): no handoff,
 *		donor or spin (P3 does not apply); the tip's code otherwise
 *  ABORT_FIRST	the design notes' wait loop: the timeout or signal is
 *		checked before the word (ping.c checks it only when it
 *		would sleep), except while ps->owner_died is set
 *  LIVENESS	add the LTL claim (pan -a -f)
 *  CHECK=mask	enable only the properties in mask (bit n-1 = Pn)
 *  P3_ACQ_ONLY	P3 without its unlock rule: only the bypasses counted
 *  P3_STRICT_BOUND	P3 (b) with the bound K, not K + 1 (a finding:
 *		the pass-on's release is not charged; models/README.md)
 *  P3_STRICT_WOKEN	P3 (c) for any wakeup that passes an unlock's
 *		release on (the pass-on, a donor wake), not only one
 *		that woke the waiter while first (a finding, likewise)
 *  MUTANT_NO_WAKE		unlock publishes W but wakes nobody
 *  MUTANT_NO_STALE_OWNER_FIX	ping_wait() before 892a64d80: TID == self
 *				is -EINVAL before ps->owner == current is
 *				looked at (a handoff makes it happen)
 *  MUTANT_STEAL_HANDOFF	the handoff writes W, not TID|W
 *  MUTANT_NO_HANDOFF		the unlock never hands off
 *  MUTANT_NO_RT_HANDOFF	ping_hand_off_why() without the RT/DL rule
 *  MUTANT_NO_STOLEN_RULE	ping_wait() never sets ping_stolen_from
 *  MUTANT_NO_PASS_BOUND	ping_hand_off_why() without PING_MAX_PASSES
 *  MUTANT_CHARGE_NEXT		the pass is charged to the woken waiter
 *				(the donor), not to the top waiter
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
 *  MUTANT_NO_ROBUST_WAKE	experiment: drop futex_ping_wake_dead(); not
 *				caught, see models/README.md
 */

#ifndef N
#define N	3
#endif
#ifndef ROUNDS
#define ROUNDS	2
#endif
#ifndef K
#define K	2	/* PING_MAX_PASSES (ping.c:1272 has 4) */
#endif
#ifndef TMO
#define TMO	1	/* timeouts or signals per run */
#endif
#ifndef DEATHS
#define DEATHS	1	/* owners that die holding the lock, per run */
#endif
#ifndef RT_THREADS
#ifdef CORE
#define RT_THREADS	0
#else
#define RT_THREADS	1	/* threads 1..RT_THREADS may be RT/DL */
#endif
#endif
#ifndef CHECK
#define CHECK	31
#endif

#if N < 2 || N > 5
#error "N must be 2..5"
#endif
#if K < 1 || K > 4
#error "K must be 1..4"
#endif

/* P3 (b): bypasses of a fair waiter while first, per wait */
#ifdef P3_STRICT_BOUND
#define BYPASS_BOUND	K
#else
#define BYPASS_BOUND	(K + 1)
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
/* P3's unlock rule, (a)-(c) "the unlock hands it the lock"; without it
 * (-DP3_ACQ_ONLY) only the bypasses are counted */
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
byte passes[N + 1];	/* q->ping_passes (0..K) */
bit stolen[N + 1];	/* q->ping_stolen_from */
byte tmo_left = TMO;

/* Ghost state for the properties */
byte nrel[N + 1];	/* P3: unlocks that found it first and did not hand
			 * it the lock, this wait (0..K) */
bit relw[N + 1];	/* P3: an unlock's stealable release woke it while
			 * first, this wait */
bit robbed[N + 1];	/* P3: and a look after that found the lock taken */
byte byp[N + 1];	/* P3: times bypassed while first, this wait */
hidden byte g_top;	/* scratch: the top waiter, within one step */
hidden byte g_i;	/* scratch */
byte cs;		/* threads that believe they hold the lock */
byte deaths;
bit handled;		/* the kernel knows the owner died: the robust list
			 * set OD, or the exit path found the ps */
byte od_seen;		/* acquisitions that saw OWNER_DIED */
byte ndone;		/* threads finished, dead, or given up (-ESRCH) */

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
 * kernel: ping.c:ping_top_waiter:126-144; core.c:__futex_queue:856-873 */
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
 * futex_q: no passes, not stolen from (futex_q_init).
 * kernel: core.c:__futex_queue:869-872; ping.c:futex_lock_ping:1188,1243 */
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
	passes[me] = 0;
	stolen[me] = 0
}

/* Take me off the queue, and its per-wait state with it.
 * kernel: ping.c:ping_dequeue:566 (__futex_unqueue()) */
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
	passes[me] = 0;
	stolen[me] = 0;
	nrel[me] = 0;
	relw[me] = 0;
	robbed[me] = 0;
	byp[me] = 0
}

/* ping_hand_off_why(x) != FUTEX_PING_WHY_FAIR: the unlock must hand the
 * lock to x. kernel: ping.c:ping_hand_off_why:1293-1304 */
#if defined(CORE) || defined(MUTANT_NO_HANDOFF)
#define MUST_HAND_OFF(x)	false
#else
#ifdef MUTANT_NO_RT_HANDOFF
#define WHY_RT(x)	false		/* bug */
#else
#define WHY_RT(x)	rt[x]		/* :1297 */
#endif
#ifdef MUTANT_NO_PASS_BOUND
#define WHY_PASSES(x)	false		/* bug */
#else
#define WHY_PASSES(x)	(passes[x] >= K)	/* :1301 */
#endif
#define MUST_HAND_OFF(x)	(WHY_RT(x) || stolen[x] || WHY_PASSES(x))
#endif

/* P3's own reading of the rule: the unlock must hand the lock to its
 * first waiter x (P3 (a), (b), (c)). */
#define DUE(x)	(rt[x] || robbed[x] || nrel[x] >= K)

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
		P3(!robbed[g_top]);		/* (c) */
		if
		:: byp[g_top] <= BYPASS_BOUND -> byp[g_top]++
		:: else
		fi;
		P3(byp[g_top] <= BYPASS_BOUND)	/* (b) */
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
		:: t != 0 -> asleep[t] = 0; t = 0
		:: else
		fi
	}
}

/* ------------------------------------------------------------------ */
/* Take the lock by a cmpxchg from v, a word with TID 0 or one naming an
 * owner that exited attached to the ps (ps->owner_died). Sets r = R_TAKEN
 * or R_EAGAIN.
 * kernel: ping.c:ping_take:355-383 */
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
		/* :358-369 the cmpxchg. P5: TID 0 has no owner in ps, except
		 * an exiting one when the robust list cleared the TID before
		 * exit_ping_state() ran (ping_set_owner() moves the ps off
		 * its list, :376-377) */
		P5(!has_ps || ps_owner == 0 || xstate[ps_owner] != X_OK);
		bypass(me);
		if
		:: has_ps -> ps_owner = me; ps_owner_died = 0	/* :375-381 */
		:: else -> P5(nq == 0)
		fi;
		acquired();
		r = R_TAKEN
	:: else ->
		r = R_EAGAIN				/* :369-371 */
	fi
}

/* futex_attach_owner() of the task TID(v), under its pi_futex_lock (so
 * its futex.state cannot change meanwhile): sets r to R_WAIT (alive, ps
 * attached if att), R_EBUSY (exiting; t = it), or, for a task that has
 * finished its futex cleanup, handle_exit_race()'s verdict: R_EAGAIN if
 * the word changed since v was read, else R_ESRCH.
 * kernel: pi.c:futex_attach_owner:486-571, handle_exit_race:382-428 */
inline attach_owner(att)
{
	if
	:: xstate[TID(v)] == X_OK ->
		if
		:: att -> ps_owner = TID(v)	/* :565 ping_attach_owner() */
		:: else				/* ping_attach_none() */
		fi;
		r = R_WAIT
	:: xstate[TID(v)] == X_EXITING ->
		r = R_EBUSY;			/* :537-541 */
		t = TID(v)
	:: xstate[TID(v)] == X_DEAD && word != v ->
		r = R_EAGAIN			/* :543, :419-420 */
	:: xstate[TID(v)] == X_DEAD && word == v ->
		r = R_ESRCH			/* :427 */
	fi
}

/* The word v names another task: take the lock over if its owner exited
 * attached to ps; else attach the owner to ps if ps has none, then set W
 * (detaching again if that fails). Sets r = R_WAIT, R_TAKEN, R_EAGAIN,
 * R_EBUSY (t = the exiting owner) or R_ESRCH (the TID names no task: the
 * word is not touched). One step: besides the word, which user space
 * can change between the reads of this section (handle_exit_race() and
 * the cmpxchg), it reads only what the locks it holds protect.
 * kernel: ping.c:ping_prepare_wait:396-451 */
inline ping_prepare_wait()
{
	if
	:: ps_owner == 0 && ps_owner_died ->
		/* :407-408 the owner exited attached to ps */
		ping_take(OD, 1, waiters)
	:: else ->
		/* P5: :414-415 -EINVAL, the word and ps disagree */
		P5(ps_owner == 0 || ps_owner == TID(v));
		/* :425-439 attach the thief or the first owner; -EBUSY,
		 * -ESRCH and -EAGAIN return with the word untouched (the
		 * -EINVAL of :435-438, a TID of a queued waiter, needs a
		 * word user space forged: not modelled) */
		if
		:: ps_owner == 0 -> attach_owner(1); ok = (r == R_WAIT)
		:: else -> r = R_WAIT
		fi;
		/* :441-449 set W; if the word changed, detach again */
		if
		:: r == R_WAIT && !(v & W) && word == v ->
			v = v | W;
			word = v
		:: r == R_WAIT && !(v & W) && word != v ->
			r = R_EAGAIN;
			if
			:: ok -> ps_owner = 0			/* :445-446 */
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
 * kernel: ping.c:ping_trylock_owned:461-476 */
inline ping_trylock_owned()
{
	if
	:: waiters && ps_owner == 0 && ps_owner_died ->
		ping_take(OD, 1, 1)				/* :469-470 */
	:: else ->
		attach_owner(0);				/* :474 */
		if
		:: r == R_WAIT -> r = R_EWOULDBLOCK		/* :475 */
		:: else
		fi
	fi
}

/* Read the word at the top of the wait loop, hb->lock held.
 * kernel: ping.c:ping_wait:848-855 */
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
 * saw an owner, :1109-1112).
 * kernel: ping.c:futex_lock_ping:1197, ping_spin:1163-1183,
 * __ping_spin:1093-1160 (:1114-1115 OD, :1121-1128 the cmpxchg) */
inline ping_spin()
{
#ifndef CORE
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
#else
	skip
#endif
}

/* Wait for the lock: queued, hb->lock and the wait lock held, the word
 * read. Sets r to R_TAKEN, R_ETIMEDOUT or R_ESRCH (or an error P5
 * rejects).
 * kernel: ping.c:ping_wait:830-1054 */
inline ping_wait()
{
	do
	:: atomic {
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
		/* :856-879 ownership first */
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
			/* :860-863 the kernel made it the owner (ping_take(),
			 * a handoff): the lock, even if it timed out */
			acquired();
			r = R_TAKEN
		:: ps_owner != me && TID(v) == me ->
			/* P5: :864-865 -EINVAL, a word the kernel did not
			 * write */
			P5(false);
			r = R_EINVAL
#endif
		:: ps_owner != me && TID(v) != me && TID(v) == 0 ->
			ping_take(0, 1, waiters)		/* :866-867 */
		:: ps_owner != me && TID(v) != me && TID(v) != 0 ->
			/* :868-879; an owner attached now is new to the
			 * chain walk (unwalked) */
			g_i = (ps_owner == 0);
			ping_prepare_wait();
			if
			:: g_i && ps_owner != 0 -> unwalked = 1
			:: else
			fi;
			g_i = 0
		fi;
		/* :885-886 the lock is taken by another after a pass: the
		 * next unlock hands it over (ping_hand_off_why():1299) */
		if
		:: r == R_WAIT && passes[me] > 0 ->
#ifndef MUTANT_NO_STOLEN_RULE
			stolen[me] = 1
#else
			skip		/* bug: never stolen from */
#endif
		:: else
		fi;
		/* P3 (c): woken by an unlock's release, it finds the lock
		 * taken */
		if
		:: r == R_WAIT && relw[me] -> robbed[me] = 1
		:: else
		fi;
		/* :888-895 the timeout or a signal, only when it would
		 * wait; else a new owner's chain is walked first (PING_WALK,
		 * :893-894, :908-914: checked = ps->owner) */
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
			/* :917 unlock the wait lock; PING_WALK :922-931,
			 * -EAGAIN :932-937 and -EBUSY :940-945 drop hb->lock,
			 * then ping_chain_walk() (not modelled: no cycles,
			 * no chains beyond the lock), cond_resched() or
			 * wait_for_owner_exiting() */
			wl = 0;
			hb = 0;
			v = 0;
			waiters = 0
		:: r == R_WAIT ->
			/* P5: never block on a ps whose owner is current */
			P5(ps_owner != me);
			/* :959-962 set_current_state(), unlock */
			asleep[me] = 1;
			wl = 0;
			hb = 0;
			v = 0;		/* dead while asleep: re-read after */
			waiters = 0
		:: else ->
			wl = 0				/* :917, :919-921, :946-947 */
		fi
	   }
	   if
	   :: r == R_EAGAIN || r == R_WALK ->
		/* :927, :936 futex_q_lockptr_lock(), look again */
		atomic { hb == 0 -> hb = me; ping_wait_read() }
	   :: r == R_EBUSY ->
		/* :943-944 wait_for_owner_exiting(), futex_q_lockptr_lock() */
		atomic { xstate[t] != X_EXITING && hb == 0 -> t = 0; hb = me; ping_wait_read() }
	   :: r == R_WAIT ->
		/* :964-977 schedule(): a wakeup, or the hrtimer or a signal;
		 * then walk again before sleeping again (:974-975 checked =
		 * NULL), futex_q_lockptr_lock() */
		if
		:: atomic { !asleep[me] && hb == 0 -> hb = me; checked = 0; ping_wait_read() }
		:: atomic { tmo_left > 0 && hb == 0 ->
			tmo_left--; tmo = 1; asleep[me] = 0;
			hb = me; checked = 0; ping_wait_read() }
		fi
	   :: else ->
		break
	   fi
	od;
	/* :988-1042 out: leaving without the lock after an owner was
	 * attached that no walk has seen: walk (hb->lock dropped), then
	 * look at ps->owner again: an unlock may have handed the lock over
	 * meanwhile, or the owner exited attached to ps (retake). Without a
	 * walk, hb->lock has been held since the loop's look, which would
	 * have taken a lock whose owner died attached: only the walk lets a
	 * death in */
	atomic {
		if
		:: r != R_TAKEN && ps_owner != 0 && ps_owner != me &&
		   (ps_owner != checked || unwalked) ->
			hb = 0;				/* :996-1004 */
			ok = 1
		:: else
		fi
	}
	if
	:: ok ->
		atomic { hb == 0 -> hb = me;		/* :1006 */
			ok = 0;
			if
			:: ps_owner == me ->		/* :1015-1019 */
				acquired();
				r = R_TAKEN
#ifndef MUTANT_LEAVE_DROPS_OD
			:: ps_owner == 0 && ps_owner_died && nq == 1 ->
				/* :1021-1041 the owner exited attached to ps
				 * during the walk, and current is the last
				 * waiter (finding 8, fixed by dfc30ef7a): retake,
				 * goto retry (:842); the loop takes the lock
				 * with OD, by ping_prepare_wait():407-408
				 * (:868-870), or by ping_take() (:866-867) for a
				 * TID 0 word, OD|W from the robust list, whose
				 * OD it keeps. One step here: hb->lock stays
				 * held, and user space cannot change a word
				 * whose owner died (TID|W or OD|W), so the
				 * loop's first look takes it. With other
				 * waiters the exit woke top, or ping_dequeue()
				 * passes the wakeup on */
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
	/* :1043 kernel: ping.c:ping_dequeue:555-599 */
	atomic {
		checked = 0;
		unwalked = 0;
		unqueue();				/* :566 */
		wl = me;				/* :569 */
		v = word;				/* :573 */
		/* :584-591 left without the lock while ps has no owner (the
		 * lock is free, its owner exited, or a thief is not attached
		 * yet): it may have been woken to take it or to attach the
		 * thief, so wake the next waiter */
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
			/* :576-583 no waiter left: clear W, best effort */
			if
			:: (v & W) && word == v -> word = v - W
			:: else
			fi;
			/* :597 ping_put_state(): the last reference */
			ps_owner = 0;
			ps_owner_died = 0
		:: ok ->
#ifdef MUTANT_NO_PASS_ON
			t = 0
#else
			/* :567 next = ping_top_waiter(); :590 wake it: only a
			 * wakeup, never a handoff, and no pass charged; the
			 * word and ps->owner stay */
			top_waiter();
			t = g_top;
			g_top = 0;
#ifdef P3_STRICT_WOKEN
			if
			:: !ps_owner_died -> relw[t] = 1
			:: else
			fi;
#endif
			skip
#endif
		:: else
		fi;
		wl = 0;
		hb = 0;		/* :1044 */
		ok = 0;
		v = 0;
		waiters = 0
	}
	wake_q()				/* :1045 */
}

/* FUTEX_LOCK_PING, or FUTEX_TRYLOCK_PING. Sets r.
 * kernel: ping.c:futex_lock_ping:1185-1266 */
inline futex_lock_ping(trylock)
{
	r = R_EAGAIN;
	if
	:: !trylock -> ping_spin()			/* :1197 */
	:: else
	fi;
	do
	:: r == R_TAKEN ->
		break
	:: else ->
		/* :1213 futex_q_lock(); ping_lock_atomic():496 reads the word */
		atomic {
			hb == 0 -> hb = me;
			v = word;
			/* P5: queued waiters imply W */
			P5(nq == 0 || (v & W));
			waiters = (nq > 0);		/* :502 top */
			r = (TID(v) == me -> R_EDEADLK : R_WAIT)
		}
		/* kernel: ping.c:ping_lock_atomic:484-538 */
		atomic {
			if
			:: r == R_EDEADLK			/* :499-500 */
			:: r != R_EDEADLK && TID(v) == 0 && !waiters ->
				/* :508-510 free, no waiters: keep OD, drop W */
				ping_take(0, 0, 0)
			:: r != R_EDEADLK && TID(v) != 0 && trylock ->
				/* :513-514 */
				if
				:: waiters -> assert(wl == 0); wl = me	/* :467 */
				:: else
				fi;
				ping_trylock_owned();
				wl = 0
			:: else ->
				assert(wl == 0);
				wl = me;			/* :521 */
				/* :516-519 ping_alloc_state() if nobody waits */
				assert(waiters || ps_owner == 0 && !ps_owner_died);
				if
				:: TID(v) == 0 -> ping_take(0, 1, waiters)	/* :522-523 */
				:: else -> ping_prepare_wait()			/* :524-525 */
				fi;
				wl = 0;
				/* :531-533 ping_put_state(new_ps) */
				if
				:: r != R_WAIT && !waiters -> ps_owner = 0; ps_owner_died = 0
				:: else
				fi
			fi;
			if
			:: r == R_WAIT ->
				/* :1243 __futex_queue(); ping_wait() reads the
				 * word, which nobody else can change now: it
				 * has W and names a task */
				enqueue();
				ping_wait_read()
			:: else ->
				hb = 0;			/* :1216 futex_q_unlock() */
				v = 0;
				waiters = 0
			fi
		}
		if
		:: r == R_WAIT ->
			ping_wait();			/* :1256 */
			break
		:: r == R_EBUSY ->
			/* :1233-1237 wait_for_owner_exiting(), retry */
			atomic { xstate[t] != X_EXITING -> t = 0 }
		:: r == R_EAGAIN			/* :1234-1237 retry */
		:: else ->
			/* :1219-1225, :1238-1239: taken, -EWOULDBLOCK,
			 * -ESRCH, -EDEADLK */
			break
		fi
	od
}

/* The unlock under hb->lock and the wait lock, with waiters: choose the
 * waiter to serve (t: the blocked donor, or the top waiter) and hand the
 * lock to it (hnd: its TID|W, ps->owner = t) or release it (W,
 * ps->owner = NULL, wake t, a pass charged to the top waiter), by a
 * cmpxchg from v. ok = 0 if the word changed (nothing else changes then;
 * the caller retries).
 * kernel: ping.c:ping_unlock_hb:1422-1471, ping_donor_waiter:1369-1388,
 * ping_hand_off:1320-1348 */
#define DONOR_OK(d) \
	(pos[d] > 1 && rt[d] == rt[g_top] && DONOR_TOP_NOT_DUE)
#ifdef MUTANT_DONOR_WHEN_DUE
#define DONOR_TOP_NOT_DUE	true		/* bug */
#else
#define DONOR_TOP_NOT_DUE	!MUST_HAND_OFF(g_top)	/* :1380 */
#endif
inline ping_unlock_release()
{
	top_waiter();					/* :1409 */
	t = g_top;
#ifndef CORE
	/* :1424 ping_donor_waiter(): current->blocked_futex_donor, if it
	 * is queued on this lock with top's priority (:1383-1385), and top
	 * need not be handed the lock (:1380); or nobody (no Proxy
	 * Execution, :1377, or no donor) */
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
#endif
	hnd = MUST_HAND_OFF(t);				/* :1444-1446 */
	if
	:: word == v && hnd ->
		/* :1447 ping_hand_off(): :1329 the word, :1334-1335 the
		 * owner, :1345-1346 wake */
#ifdef MUTANT_STEAL_HANDOFF
		word = W;		/* bug: the handoff can be stolen */
#else
		word = t | W;
#endif
		/* P3: an unlock that finds a due waiter first serves it */
		P3U(!DUE(g_top) || t == g_top);
		bypass(t);
		ps_owner = t;
		ps_owner_died = 0;
		ok = 1
	:: word == v && !hnd ->
		/* P3: a due first waiter is handed the lock */
		P3U(!DUE(g_top));
		word = W;				/* :1455 */
#ifndef MUTANT_UNLOCK_KEEPS_OWNER
		ps_owner = 0;				/* :1463-1464 */
#endif
		/* :1468 the pass is charged to top, whoever is woken */
#ifdef MUTANT_CHARGE_NEXT
		if
		:: passes[t] < K -> passes[t]++		/* bug */
		:: else
		fi;
#else
		if
		:: passes[g_top] < K -> passes[g_top]++
		:: else
		fi;
#endif
		if
		:: nrel[g_top] < K -> nrel[g_top]++
		:: else
		fi;
		if
		:: t == g_top -> relw[t] = 1
#ifdef P3_STRICT_WOKEN
		:: else -> relw[t] = 1
#else
		:: else
#endif
		fi;
		ok = 1
#ifdef MUTANT_NO_WAKE
		; t = 0			/* bug: publishes W, wakes nobody */
#endif
	:: else ->
		/* :1329-1331, :1455-1457 -EAGAIN, ps untouched */
		ok = 0;
		t = 0
	fi;
	g_top = 0
}

/* FUTEX_UNLOCK_PING; v is the word from get_user().
 * kernel: ping.c:__futex_unlock_ping:1474-1515, ping_unlock_hb:1396-1472 */
inline futex_unlock_ping()
{
	do
	:: /* P5: :1485-1486 -EPERM */
	   P5(TID(v) == me);
	   atomic {
		hb == 0 -> hb = me;			/* :1407 */
		if
		:: nq == 0 ->
			/* :1410-1420 no waiter can queue without hb->lock:
			 * drop W and OD */
			P5(ps_owner == 0);
			if
			:: word == v -> word = 0; r = R_TAKEN
			:: else -> r = R_EAGAIN
			fi
		:: else ->
			assert(wl == 0);
			wl = me;			/* :1426 */
			/* P5: :1435-1437 -EINVAL; ps->owner is NULL if we
			 * stole it */
			P5(ps_owner == 0 && !ps_owner_died || ps_owner == me);
			/* P5: queued waiters imply W */
			P5(word & W);
			ping_unlock_release();
			r = (ok -> R_TAKEN : R_EAGAIN);
			wl = 0
		fi;
		hb = 0;
		ok = 0;
		hnd = 0
	   }
	   if
	   :: r == R_TAKEN ->
		wake_q();				/* :1501 */
		break
	   :: else ->
		v = word				/* :1503-1506, :1482 get_user() */
	   fi
	od;
	atomic { r = 0; v = 0 }
}

/* ------------------------------------------------------------------ */
/* Owner death, on exit or exec.
 * kernel: core.c:futex_cleanup:1473-1491, between futex_cleanup_begin()
 * (futex.state EXITING, :1551) and futex_cleanup_end() (DEAD) */

/* The robust list entry: lockless, then wake the top PING waiter.
 * kernel: core.c:handle_futex_death:980-1129 (:1066 TID check, :1084-1113
 * cmpxchg to OD|W, :1124-1125), ping.c:futex_ping_wake_dead:1635-1658 */
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
			hb == 0 -> hb = me;		/* :1651 */
			top_waiter();			/* :1652-1654 */
			t = g_top;
			g_top = 0;
			hb = 0
		}
		wake_q()				/* :1656 */
	:: else
	fi;
#endif
	atomic { ok = 0; v = 0 }
}

/* The PING states on the exiting task's list (those it was attached to).
 * kernel: ping.c:exit_ping_state_list:1582-1619, exit_ping_state:1534-1566;
 * core.c:futex_cleanup:1487 */
inline exit_ping_state_list()
{
	atomic {
		hb == 0 -> hb = me;			/* :1543 */
		assert(wl == 0);
		wl = me;				/* :1546 */
		t = 0;
		if
		:: nq > 0 && ps_owner == me ->
			/* P5: the word names us, or the robust list cleared it */
			P5(TID(word) == me || TID(word) == 0 && (word & OD));
			/* :1552-1559 the word cannot be written here: mark the
			 * ps, wake the top waiter; it takes the lock with OD */
			ps_owner = 0;
#ifndef MUTANT_NO_OWNER_DIED
			ps_owner_died = 1;
#endif
			handled = 1;	/* the kernel knew it as the owner */
			top_waiter();			/* :1545, :1561-1562 */
			t = g_top;
			g_top = 0
		:: else					/* :1549-1550 */
		fi;
		wl = 0;
		hb = 0
	}
	wake_q()					/* :1565 */
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

	/* the scheduling class, for all its waits: RT/DL or fair */
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
active proctype watchdog()
{
	timeout ->
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
