/* LD_PRELOAD shim: pthread_attr_setaffinity_np() does nothing, so that
 * perf bench futex lock's threads are not pinned (an experiment). */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>

int pthread_attr_setaffinity_np(pthread_attr_t *attr, size_t size, const cpu_set_t *set)
{
	(void)attr; (void)size; (void)set;
	return 0;
}
