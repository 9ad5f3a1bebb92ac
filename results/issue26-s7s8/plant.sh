#!/bin/bash
# plant.sh SRC: the three faults the new PING selftests are for.
set -e
f=$1/kernel/futex/ping.c
# one_woken.handoff: a release as 0 does not start the waiter's clock.
sed -i 's/^\tping_passed_over(next, now);$/\tif (word)\n\t\tping_passed_over(next, now);/' "$f"
# one_woken.thief_exits: a waiter that leaves does not pass its wakeup on.
sed -i 's/^\t\t} else if (!locked \&\& !ps->owner) {$/\t\t} else if (0 \&\& !locked \&\& !ps->owner) {/' "$f"
# donor.wake: a donor woken in the first waiter's place with a release as 0.
sed -i 's/^\tif (p != top->task || rt_or_dl_task(current) || READ_ONCE(p->policy) == SCHED_IDLE)$/\tif (rt_or_dl_task(current) || READ_ONCE(p->policy) == SCHED_IDLE)/' "$f"
[ "$(grep -c 'if (word)$\|0 && !locked\|if (rt_or_dl_task(current) || READ_ONCE' "$f")" = 3 ]
