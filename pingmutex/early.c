// SPDX-License-Identifier: GPL-2.0
/*
 * A library of pingmutex_test whose constructor locks mutexes: it runs
 * before libpingmutex's own constructor, as Debian's libGLdispatch's does
 * in stress-ng (which crashed the library once: its functions were not
 * resolved yet).
 */
#include <pthread.h>

int early_pi_lock = -1, early_static_lock = -1;
static pthread_mutex_t early_static = PTHREAD_MUTEX_INITIALIZER;

__attribute__((constructor)) static void early(void)
{
	pthread_mutexattr_t a;
	pthread_mutex_t m;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT);
	pthread_mutex_init(&m, &a);
	early_pi_lock = pthread_mutex_lock(&m);
	if (!early_pi_lock)
		early_pi_lock = pthread_mutex_unlock(&m);
	early_static_lock = pthread_mutex_lock(&early_static);
	if (!early_static_lock)
		early_static_lock = pthread_mutex_unlock(&early_static);
}
