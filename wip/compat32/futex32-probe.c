#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
static void *fn(void *a) { return a; }
int main(void)
{
	unsigned int f = 0;
	struct timespec ts = { 0, 1000000 };
	long r;
	pthread_t t;

	setvbuf(stdout, NULL, _IONBF, 0);

	r = syscall(SYS_futex, &f, FUTEX_WAKE, 1, NULL, NULL, 0);
	printf("SYS_futex(%d) WAKE: %ld %s\n", (int)SYS_futex, r, r < 0 ? strerror(errno) : "");
#ifdef SYS_futex_time64
	r = syscall(SYS_futex_time64, &f, FUTEX_WAKE, 1, NULL, NULL, 0);
	printf("SYS_futex_time64(%d) WAKE: %ld %s\n", (int)SYS_futex_time64, r, r < 0 ? strerror(errno) : "");
	r = syscall(SYS_futex_time64, &f, FUTEX_WAIT, 0, &ts, NULL, 0);
	printf("SYS_futex_time64 WAIT 1ms: %ld %s\n", r, r < 0 ? strerror(errno) : "");
#endif
	r = syscall(SYS_futex, &f, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0);
	printf("SYS_futex WAIT mismatch: %ld %s\n", r, r < 0 ? strerror(errno) : "");
	printf("sizeof(time_t) %zu\n", sizeof(time_t));
	pthread_create(&t, NULL, fn, NULL);
	pthread_join(t, NULL);
	printf("pthread join ok\n");
	return 0;
}
