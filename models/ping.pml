/*
 * ping.pml: SPIN model of the FUTEX_*_PING word protocol.
 *
 * N user threads take one PING futex ROUNDS times each, through every
 * path: the user space fast path (CAS 0 -> TID) and steal (CAS W -> TID|W),
 * FUTEX_TRYLOCK_PING, FUTEX_LOCK_PING with its spin, its sleep, wakeup and
 * timeout or signal, the user space unlock (CAS TID -> 0) and
 * FUTEX_UNLOCK_PING with its stealable release, its handoff and its choice
 * of wakee (top waiter or blocked donor). One owner may die holding the
 * lock (DEATHS per run): exit or exec, with or without a robust list.
 *
 * Each inline is one kernel function, named with its lines as
 * "kernel: file:function:lines" at its transitions. The WP1 code follows
 * kernel/futex/ping.c of the PING tree as of commit cdf82f84e ("futex: Add
 * FUTEX_LOCK_PING, FUTEX_UNLOCK_PING and FUTEX_TRYLOCK_PING", the core
 * patch; line numbers are of that version: git show cdf82f84e:<file>; its
 * code is that of 23b21d4b3, only comments changed), and pi.c and core.c
 * of the same commit. Handoff, donor wake and spinning
 * (WP2, WP3) are not written yet and follow the design notes
 * (../shared/ping-design.md beside this repository, section 4): "CODE: line numbers pending".
 * models/README.md says what is abstracted away and how to run it.
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
 *  P3 bounded bypass (WP2): a waiter loses a wakeup to a stealer at most K
 *     times per wait; once it has asked for the handoff (ps->handoff),
 *     nobody takes the lock but by a handoff until it has it (an owner's
 *     death excepted).
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
 *  N=n ROUNDS=r K=k TMO=t DEATHS=d	sizes, defaults below
 *  WP1		only what ping.c does today: no handoff, donor or spin
 *  ABORT_FIRST	the design notes' wait loop: the timeout or signal is
 *		checked before the word (ping.c checks it only when it
 *		would sleep), except while ps->owner_died is set
 *  LIVENESS	add the LTL claim (pan -a -f)
 *  STRONG_BYPASS	P3 also bounds the releases made for a waiter that
 *		others take (steals), not only the losses it sees
 *  COUNT_AT_UNLOCK	WP2 fix for that: an unlock that chooses a waiter
 *		whose last release was stolen before it looked counts it
 *  CHECK=mask	enable only the properties in mask (bit n-1 = Pn)
 *  MUTANT_NO_WAKE		unlock publishes W but wakes nobody
 *  MUTANT_NO_STALE_OWNER_FIX	ping_wait() before 892a64d80: TID == self
 *				is -EINVAL before ps->owner == current is
 *				looked at (a handoff makes it happen)
 *  MUTANT_STEAL_HANDOFF	the handoff writes W, not TID|W
 *  MUTANT_NO_HANDOFF		WP2 never hands off
 *  MUTANT_DONOR_STEALABLE	a donor gets a stealable release while a
 *				waiter is protected
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
#define K	1	/* lost wakeups before a waiter asks for the handoff */
#endif
#ifndef TMO
#define TMO	1	/* timeouts or signals per run */
#endif
#ifndef DEATHS
#define DEATHS	1	/* owners that die holding the lock, per run */
#endif
#ifndef CHECK
#define CHECK	31
#endif

#if N < 2 || N > 5
#error "N must be 2..5"
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
bit queued[N + 1];
bit asleep[N + 1];	/* TASK_INTERRUPTIBLE set and not woken yet */
byte xstate[N + 1];	/* task->futex.state */
/* The ps exists while nq > 0 (each waiter holds a reference). */
byte ps_owner;		/* ps->owner, 0 for NULL */
bit ps_owner_died;	/* ps->owner_died */
byte ps_handoff;	/* WP2: the waiter that asked for the handoff */
bit wk[N + 1];		/* WP2: a stealable unlock chose it since its last look */
byte lost[N + 1];	/* WP2: lost wakeups in this wait */
byte tmo_left = TMO;

/* Ghost state for the properties */
#ifdef STRONG_BYPASS
byte relfor;		/* the wakee of the last stealable release, until taken */
byte robbed[N + 1];	/* stealable releases for it that others took */
#endif
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

/* The ghost bookkeeping of an acquisition, in the step that takes the
 * lock: P1 and P4. */
inline acquired()
{
	cs++;
	P1(cs == 1);
	P1(TID(word) == me);
#ifdef STRONG_BYPASS
	/* P3 (strong): another thread took a release made for relfor
	 * (the recovery after an owner death excepted) */
	if
	:: relfor != 0 && relfor != me && !(word & OD) ->
		robbed[relfor]++;
		P3(robbed[relfor] <= K)
	:: else
	fi;
	relfor = 0;
#endif
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

/* The waiter a release serves, and whether it hands the lock over.
 * ping.c wakes ping_top_waiter(), the first PING waiter: RT waiters by
 * priority, then FIFO (plain waiters beside them are not modelled); with
 * Proxy Execution the design serves current->blocked_donor if it waits on
 * this lock (WP2). Priorities are not modelled: any queued waiter may be
 * the one. Sets t and hnd; cnt: called by a release.
 * kernel: ping.c:ping_unlock_hb:597,629, ping_dequeue:367,387,
 * exit_ping_state:718-720, futex_ping_wake_dead:809-811 (top waiter)
 * CODE: line numbers pending (WP2: donor, handoff) */
inline ping_pick_waiter(cnt)
{
	if
	:: queued[1] -> t = 1
	:: queued[2] -> t = 2
#if N >= 3
	:: queued[3] -> t = 3
#endif
#if N >= 4
	:: queued[4] -> t = 4
#endif
#if N >= 5
	:: queued[5] -> t = 5
#endif
	fi;
#if defined(WP1) || defined(MUTANT_NO_HANDOFF)
	hnd = 0
#else
#ifdef COUNT_AT_UNLOCK
	/* a release (cnt: the unlock, or ping_dequeue()'s pass-on, in the
	 * step of its cmpxchg): the last stealable release for t was stolen
	 * before t looked; count the loss here, t may not run before the
	 * next one */
	if
	:: cnt && wk[t] ->
		lost[t]++;
		wk[t] = 0;
		if
		:: lost[t] >= K && ps_handoff == 0 -> ps_handoff = t
		:: else
		fi
	:: else
	fi;
#endif
	if
	:: ps_handoff != 0 || lost[t] >= K ->
		/* a waiter was robbed K times: hand over to it, or to a
		 * donor, never a stealable release */
#ifdef MUTANT_DONOR_STEALABLE
		if
		:: hnd = 1
		:: t != ps_handoff -> hnd = 0	/* bug */
		fi
#else
		hnd = 1
#endif
	:: else ->
		/* an RT/DL (or starving) donor gets the lock handed over */
		if
		:: hnd = 1
		:: hnd = 0
		fi
	fi
#endif
}

/* Release to the waiter ping_pick_waiter() chose, by a cmpxchg from v:
 * a stealable release (the word -> W, then ps->owner = NULL, both under
 * the wait lock; then a wakeup) or a handoff (WP2: t|W, t becomes
 * ps->owner, nobody can steal it). odf: OWNER_DIED to keep; clrod: clear
 * ps->owner_died. Used by the unlock, and by ping_dequeue()'s pass-on for
 * a handoff. ok = 0 if the word changed (nothing else changes then);
 * t = 0 if nobody is to be woken: the unlock retries then; the pass-on
 * (keept) still wakes t, to attach whoever changed the word.
 * kernel: ping.c:ping_unlock_hb:615-629  CODE: handoff pending (WP2) */
inline ping_release(odf, clrod, keept)
{
	if
	:: word == v && hnd ->
#ifdef MUTANT_STEAL_HANDOFF
		word = W | odf;		/* bug: the handoff can be stolen */
#else
		word = t | W | odf;
#endif
		ps_owner = t;
		ps_owner_died = 0;
#ifdef STRONG_BYPASS
		relfor = 0;
#endif
		ok = 1
	:: word == v && !hnd ->
		word = W | odf;				/* :615-617 */
#ifndef MUTANT_UNLOCK_KEEPS_OWNER
		ps_owner = 0;				/* :624-625 */
#endif
		if
		:: clrod -> ps_owner_died = 0		/* :626 */
		:: else
		fi;
		wk[t] = 1;
#ifdef STRONG_BYPASS
		relfor = t;
#endif
		ok = 1
#ifdef MUTANT_NO_WAKE
		; t = 0			/* bug: publishes W, wakes nobody */
#endif
	:: else ->
		/* :616 -EAGAIN, ps untouched */
		ok = 0;
		if
		:: !keept -> t = 0
		:: else
		fi
	fi
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
 * kernel: ping.c:ping_take:175-198 */
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
		/* :178-189 the cmpxchg. P5: TID 0 has no owner in ps, except
		 * an exiting one when the robust list cleared the TID before
		 * exit_ping_state() ran ("Moves @ps off the list of an owner
		 * that died", :192-194) */
		P5(!has_ps || ps_owner == 0 || xstate[ps_owner] != X_OK);
		/* P3: while a waiter is protected only handoffs serve
		 * others (owner death excepted) */
		P3(ps_handoff == 0 || ps_handoff == me || (word & OD));
		if
		:: has_ps -> ps_owner = me; ps_owner_died = 0	/* :191-195 */
		:: else -> P5(nq == 0)
		fi;
		acquired();
		r = R_TAKEN
	:: else ->
		r = R_EAGAIN				/* :188 */
	fi
}

/* futex_attach_owner() of the task TID(v), under its pi_futex_lock (so
 * its futex.state cannot change meanwhile): sets r to R_WAIT (alive, ps
 * attached if att), R_EBUSY (exiting; t = it), or, for a task that has
 * finished its futex cleanup, handle_exit_race()'s verdict: R_EAGAIN if
 * the word changed since v was read, else R_ESRCH.
 * kernel: pi.c:futex_attach_owner:485-570, handle_exit_race:381-427 */
inline attach_owner(att)
{
	if
	:: xstate[TID(v)] == X_OK ->
		if
		:: att -> ps_owner = TID(v)	/* :564 ping_attach_owner() */
		:: else				/* ping_attach_none() */
		fi;
		r = R_WAIT
	:: xstate[TID(v)] == X_EXITING ->
		r = R_EBUSY;			/* :536-540 */
		t = TID(v)
	:: xstate[TID(v)] == X_DEAD && word != v ->
		r = R_EAGAIN			/* :542, :418-419 */
	:: xstate[TID(v)] == X_DEAD && word == v ->
		r = R_ESRCH			/* :426 */
	fi
}

/* The word v names another task: take the lock over if its owner exited
 * attached to ps; else attach the owner to ps if ps has none, then set W
 * (detaching again if that fails). Sets r = R_WAIT, R_TAKEN, R_EAGAIN,
 * R_EBUSY (t = the exiting owner) or R_ESRCH (the TID names no task: the
 * word is not touched). One step: besides the word, which user space
 * can change between the reads of this section (handle_exit_race() and
 * the cmpxchg), it reads only what the locks it holds protect.
 * kernel: ping.c:ping_prepare_wait:211-257 */
inline ping_prepare_wait()
{
	if
	:: ps_owner == 0 && ps_owner_died ->
		/* :222-223 the owner exited attached to ps */
		ping_take(OD, 1, waiters)
	:: else ->
		/* P5: :229-230 -EINVAL, the word and ps disagree */
		P5(ps_owner == 0 || ps_owner == TID(v));
		/* :240-245 attach the thief or the first owner; -EBUSY,
		 * -ESRCH and -EAGAIN return with the word untouched */
		if
		:: ps_owner == 0 -> attach_owner(1); ok = (r == R_WAIT)
		:: else -> r = R_WAIT
		fi;
		/* :247-255 set W; if the word changed, detach again */
		if
		:: r == R_WAIT && !(v & W) && word == v ->
			v = v | W;
			word = v
		:: r == R_WAIT && !(v & W) && word != v ->
			r = R_EAGAIN;
			if
			:: ok -> ps_owner = 0			/* :251-252 */
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
 * kernel: ping.c:ping_trylock_owned:267-282 */
inline ping_trylock_owned()
{
	if
	:: waiters && ps_owner == 0 && ps_owner_died ->
		ping_take(OD, 1, 1)				/* :272-276 */
	:: else ->
		attach_owner(0);				/* :280 */
		if
		:: r == R_WAIT -> r = R_EWOULDBLOCK		/* :281 */
		:: else
		fi
	fi
}

/* Read the word at the top of the wait loop, hb->lock held.
 * kernel: ping.c:ping_wait:417-424 */
inline ping_wait_read()
{
	v = word;
	waiters = (nq > 1);
	assert(wl == 0);
	wl = me
}

/* WP3: spin while the owner runs, before queueing: no locks, and it
 * takes the word only the way user space may (0, or exactly W).
 * kernel: ping.c:futex_lock_ping  CODE: line numbers pending (WP3) */
inline ping_spin()
{
#ifndef WP1
	if
	:: skip		/* owner not on a CPU, need_resched() or a signal */
	:: atomic {
		if
		:: word == 0 -> word = me; r = R_TAKEN
		:: word == W -> word = me | W; r = R_TAKEN
		:: else
		fi;
		if
		:: r == R_TAKEN -> P3(ps_handoff == 0); acquired()
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
 * kernel: ping.c:ping_wait:400-502 */
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
		/* :425-436 ownership first */
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
			/* :429-430 the kernel made it the owner (ping_take(),
			 * a WP2 handoff): the lock, even if it timed out */
			acquired();
			r = R_TAKEN
		:: ps_owner != me && TID(v) == me ->
			/* P5: :431-432 -EINVAL, a word the kernel did not
			 * write */
			P5(false);
			r = R_EINVAL
#endif
		:: ps_owner != me && TID(v) != me && TID(v) == 0 ->
			ping_take(0, 1, waiters)		/* :433-434 */
		:: ps_owner != me && TID(v) != me && TID(v) != 0 ->
			ping_prepare_wait()			/* :435-436 */
		fi;
		/* :438-443 the timeout or a signal, only when it would wait */
		if
		:: r == R_WAIT && tmo -> r = R_ETIMEDOUT
		:: else
		fi;
#ifdef ABORT_FIRST
		fi;
#endif
		if
		:: r == R_EAGAIN || r == R_EBUSY ->
			/* :446 unlock the wait lock; -EAGAIN :451-456 and
			 * -EBUSY :459-464 drop hb->lock, then cond_resched()
			 * or wait_for_owner_exiting() */
			wl = 0;
			hb = 0;
			v = 0;
			waiters = 0
		:: r == R_WAIT ->
#ifndef WP1
			/* WP2: count a wakeup lost to a stealer; ask for the
			 * handoff after K of them.
			 * CODE: line numbers pending (WP2) */
			if
			:: wk[me] ->
				P3(lost[me] < K);
				lost[me]++;
				wk[me] = 0;
				if
				:: lost[me] >= K && ps_handoff == 0 -> ps_handoff = me
				:: else
				fi
			:: else
			fi;
#endif
			/* P5: never block on a ps whose owner is current */
			P5(ps_owner != me);
			/* :478-480 set_current_state(), unlock */
			asleep[me] = 1;
			wl = 0;
			hb = 0;
			v = 0;		/* dead while asleep: re-read after */
			waiters = 0
		:: else ->
			wl = 0				/* :446, :448-450, :465-466 */
		fi
	   }
	   if
	   :: r == R_EAGAIN ->
		/* :455 futex_q_lockptr_lock() */
		atomic { hb == 0 -> hb = me; ping_wait_read() }
	   :: r == R_EBUSY ->
		/* :462-463 wait_for_owner_exiting(), futex_q_lockptr_lock() */
		atomic { xstate[t] != X_EXITING && hb == 0 -> t = 0; hb = me; ping_wait_read() }
	   :: r == R_WAIT ->
		/* :482-486 schedule(): a wakeup, or the hrtimer or a signal;
		 * then futex_q_lockptr_lock() */
		if
		:: atomic { !asleep[me] && hb == 0 -> hb = me; ping_wait_read() }
		:: atomic { tmo_left > 0 && hb == 0 ->
			tmo_left--; tmo = 1; asleep[me] = 0;
			hb = me; ping_wait_read() }
		fi
	   :: else ->
		break
	   fi
	od;
	/* :497-498 kernel: ping.c:ping_dequeue:356-393 */
	atomic {
		queued[me] = 0;				/* :366 */
		nq--;
		wk[me] = 0;
		lost[me] = 0;
#ifdef STRONG_BYPASS
		robbed[me] = 0;
		if
		:: relfor == me -> relfor = 0
		:: else
		fi;
#endif
		if
		:: ps_handoff == me -> ps_handoff = 0
		:: else
		fi;
		wl = me;				/* :369 */
		v = word;				/* :370 */
		/* :381 left without the lock while ps has no owner (the lock
		 * is free, its owner exited, or a thief is not attached yet):
		 * it may have been woken to take it or to attach the thief,
		 * so wake the next waiter */
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
			/* :373-380 no waiter left: clear W, best effort */
			if
			:: (v & W) && word == v -> word = v - W
			:: else
			fi;
			/* :392 put_pi_state(): the last reference */
			ps_owner = 0;
			ps_owner_died = 0;
			ps_handoff = 0
		:: ok ->
#ifdef MUTANT_NO_PASS_ON
			t = 0
#else
			/* :387 wake_q_add() of the next waiter; the word and
			 * ps->owner stay. WP2: if the lock is free (TID 0),
			 * this passes a release on: a protected waiter gets
			 * a handoff, chosen in this step, with the cmpxchg.
			 * Not if the word names a task (a thief not attached
			 * yet, or one that died): that is no release, and a
			 * handoff would take the lock from its owner */
			ping_pick_waiter(TID(v) == 0);
			if
			:: hnd && TID(v) == 0 -> ping_release(v & OD, 0, 1)
			:: else ->
				hnd = 0;
				if
				:: TID(v) == 0 ->
					wk[t] = 1;
#ifdef STRONG_BYPASS
					relfor = t;
#endif
					skip
				:: else
				fi
			fi
#endif
		:: else
		fi;
		wl = 0;
		hb = 0;		/* :499 */
		ok = 0;
		hnd = 0;
		v = 0;
		waiters = 0
	}
	wake_q()				/* :500 */
}

/* FUTEX_LOCK_PING, or FUTEX_TRYLOCK_PING. Sets r.
 * kernel: ping.c:futex_lock_ping:504-580 */
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
		/* :527 futex_q_lock(); ping_lock_atomic():302 reads the word */
		atomic {
			hb == 0 -> hb = me;
			v = word;
			/* P5: queued waiters imply W */
			P5(nq == 0 || (v & W));
			waiters = (nq > 0);		/* :308 top */
			r = (TID(v) == me -> R_EDEADLK : R_WAIT)
		}
		/* kernel: ping.c:ping_lock_atomic:290-344 */
		atomic {
			if
			:: r == R_EDEADLK			/* :305-306 */
			:: r != R_EDEADLK && TID(v) == 0 && !waiters ->
				/* :314-316 free, no waiters: keep OD, drop W */
				ping_take(0, 0, 0)
			:: r != R_EDEADLK && TID(v) != 0 && trylock ->
				/* :319-320 */
				if
				:: waiters -> assert(wl == 0); wl = me	/* :273 */
				:: else
				fi;
				ping_trylock_owned();
				wl = 0
			:: else ->
				assert(wl == 0);
				wl = me;			/* :327 */
				/* :322-325 ping_alloc_state() if nobody waits */
				assert(waiters || ps_owner == 0 && !ps_owner_died && ps_handoff == 0);
				if
				:: TID(v) == 0 -> ping_take(0, 1, waiters)	/* :328-329 */
				:: else -> ping_prepare_wait()			/* :330-331 */
				fi;
				wl = 0;
				/* :337-339 put_pi_state(new_ps) */
				if
				:: r != R_WAIT && !waiters -> ps_owner = 0; ps_owner_died = 0
				:: else
				fi
			fi;
			if
			:: r == R_WAIT ->
				/* :557 __futex_queue(); ping_wait() reads the
				 * word, which nobody else can change now: it
				 * has W and names a task */
				queued[me] = 1;
				nq++;
				ping_wait_read()
			:: else ->
				hb = 0;			/* :530 futex_q_unlock() */
				v = 0;
				waiters = 0
			fi
		}
		if
		:: r == R_WAIT ->
			ping_wait();			/* :570 */
			break
		:: r == R_EBUSY ->
			/* :547-551 wait_for_owner_exiting(), retry */
			atomic { xstate[t] != X_EXITING -> t = 0 }
		:: r == R_EAGAIN			/* :548-551 retry */
		:: else ->
			/* :534-539, :552-553: taken, -EWOULDBLOCK, -ESRCH,
			 * -EDEADLK */
			break
		fi
	od
}

/* FUTEX_UNLOCK_PING; v is the word from get_user().
 * kernel: ping.c:__futex_unlock_ping:633-674, ping_unlock_hb:586-631 */
inline futex_unlock_ping()
{
	do
	:: /* P5: :644-645 -EPERM */
	   P5(TID(v) == me);
	   atomic {
		hb == 0 -> hb = me;			/* :595 */
		if
		:: nq == 0 ->
			/* :598-603 no waiter can queue without hb->lock:
			 * drop W and OD */
			P5(ps_owner == 0);
			if
			:: word == v -> word = 0; r = R_TAKEN
			:: else -> r = R_EAGAIN
			fi
		:: else ->
			assert(wl == 0);
			wl = me;			/* :608 */
			/* P5: :611-613 -EINVAL; ps->owner is NULL if we
			 * stole it */
			P5(ps_owner == 0 || ps_owner == me);
			/* P5: queued waiters imply W */
			P5(word & W);
			ping_pick_waiter(1);		/* :597 */
			ping_release(0, 1, 0);		/* :615-629 */
			r = (ok -> R_TAKEN : R_EAGAIN);
			wl = 0
		fi;
		hb = 0;
		ok = 0;
		hnd = 0
	   }
	   if
	   :: r == R_TAKEN ->
		wake_q();				/* :660 */
		break
	   :: else ->
		v = word				/* :662-665,641 get_user() */
	   fi
	od;
	atomic { r = 0; v = 0 }
}

/* ------------------------------------------------------------------ */
/* Owner death, on exit or exec.
 * kernel: core.c:futex_cleanup:1473-1491, between futex_cleanup_begin()
 * (futex.state EXITING) and futex_cleanup_end() (DEAD) */

/* The robust list entry: lockless, then wake the top PING waiter.
 * kernel: core.c:handle_futex_death:980-1129 (:1066 TID check, :1084-1113
 * cmpxchg to OD|W, :1124-1125), ping.c:futex_ping_wake_dead:792-815 */
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
			hb == 0 -> hb = me;		/* :808 */
			t = 0;
			if
			:: nq > 0 -> ping_pick_waiter(0); hnd = 0	/* :809-811 */
			:: else
			fi;
			hb = 0
		}
		wake_q()				/* :813 */
	:: else
	fi;
#endif
	atomic { ok = 0; v = 0 }
}

/* The PING states on the exiting task's list (those with waiters).
 * kernel: ping.c:exit_ping_state_list:737-776, exit_ping_state:693-724;
 * core.c:futex_cleanup:1489 */
inline exit_ping_state_list()
{
	atomic {
		hb == 0 -> hb = me;			/* :702 */
		assert(wl == 0);
		wl = me;				/* :703 */
		t = 0;
		if
		:: nq > 0 && ps_owner == me ->
			/* P5: the word names us, or the robust list cleared it */
			P5(TID(word) == me || TID(word) == 0 && (word & OD));
			/* :709-716 the word cannot be written here: mark the
			 * ps, wake the top waiter; it takes the lock with OD */
			ps_owner = 0;
#ifndef MUTANT_NO_OWNER_DIED
			ps_owner_died = 1;
#endif
			handled = 1;	/* the kernel knew it as the owner */
			ping_pick_waiter(0);		/* :718-720 */
			hnd = 0
		:: else					/* :706-707 */
		fi;
		wl = 0;
		hb = 0
	}
	wake_q()					/* :723 */
}

/* ------------------------------------------------------------------ */

proctype thread(byte me)
{
	byte v;		/* a word value read earlier */
	byte t;		/* wake_q: the task to wake; or an exiting owner */
	byte r;		/* return value */
	byte round;
	bit waiters;	/* other waiters queued */
	bit hnd;	/* ping_pick_waiter(): hand over */
	bit ok;
	bit tmo;	/* the timeout fired, or a signal came */
	bit trylk;	/* FUTEX_TRYLOCK_PING first */
	bit robust;	/* a robust list entry for the lock */

	do
	:: round == ROUNDS ->
		break
	:: else ->
		/* ---- lock ---- */
		do
		:: atomic {
			/* uapi: CAS 0 -> TID */
			if
			:: word == 0 -> word = me; r = R_TAKEN; P3(ps_handoff == 0); acquired()
			:: else -> r = R_EAGAIN
			fi
		   }
		   if
		   :: r == R_EAGAIN ->
			atomic {
				/* uapi: steal, CAS W -> TID|W */
				if
				:: word == W -> word = me | W; r = R_TAKEN; P3(ps_handoff == 0); acquired()
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
