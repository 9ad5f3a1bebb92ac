// SPDX-License-Identifier: GPL-2.0
/*
 * pathlen: single-thread cost of one futex call, for "make bench". Meant
 * for a 1-vCPU QEMU TCG guest started with "-icount shift=0,sleep=off",
 * where guest time advances by 1 ns per executed instruction, so that
 * "ns per call" is the instruction count of the path (user loop, syscall
 * entry and exit, the futex code, and the timer ticks that fall into the
 * loop) and repeat runs agree to a few hundredths of a percent.
 *
 * Each row calls one operation N times in a loop, after a warm-up, and
 * reads clock_gettime(CLOCK_MONOTONIC) around the loop. Output, one line
 * per row: "ROW NS-PER-CALL", or "ROW unsupported" where the kernel does
 * not know the op (ENOSYS: FUTEX_SET_WAIT on a kernel without series 02).
 * A row whose call does not return what the row expects fails the program.
 *
 * Usage: pathlen [-l] [-s SCALE] [ROW...]
 *   ROW...    rows to run, in this order (default: all, in table order)
 *   -s SCALE  multiply every row's N by SCALE (default 1)
 *   -l        list the rows with their N and exit
 *
 * Rows:
 *   syscall             getppid(), the null syscall
 *   wait-mismatch       FUTEX_WAIT_PRIVATE, the word differs: EAGAIN
 *   wait-mismatch-shared FUTEX_WAIT (shared) on a MAP_SHARED page, the
 *                       word differs: EAGAIN
 *   wait-expired        FUTEX_WAIT_BITSET_PRIVATE, the word matches, absolute
 *                       CLOCK_MONOTONIC timeout 0 (long past): the task is
 *                       queued and unqueued again, ETIMEDOUT
 *   wake-nobody         FUTEX_WAKE_PRIVATE of 1 waiter on a word nobody
 *                       waits on: 0
 *   set-wait-mismatch   FUTEX_SET_WAIT_PRIVATE, the word holds neither val
 *                       nor val2: EAGAIN
 *   set-wait-expired    FUTEX_SET_WAIT_PRIVATE, the word holds val2
 *                       already: as wait-expired, without an exchange
 * "set-wait-extra" is printed as a row of its own when both wait-expired
 * and set-wait-expired ran: set-wait-expired minus wait-expired, the cost
 * of FUTEX_SET_WAIT's way to the same wait (both loops store the word
 * before every call, so the difference is the kernel's). The exchange
 * itself has no row: a FUTEX_SET_WAIT whose timeout expired stores
 * nothing, and one that exchanges goes to sleep.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>

/* Older uapi headers: the ops and flags this program uses. */
#ifndef FUTEX_PRIVATE_FLAG
#define FUTEX_PRIVATE_FLAG	128
#endif
#ifndef FUTEX_WAIT_BITSET
#define FUTEX_WAIT_BITSET	9
#endif
#ifndef FUTEX_BITSET_MATCH_ANY
#define FUTEX_BITSET_MATCH_ANY	0xffffffff
#endif
/* Series 02: val2 in the uaddr2 slot, absolute timeout, bitset in val3. */
#ifndef FUTEX_SET_WAIT
#define FUTEX_SET_WAIT		17
#endif

#define WARMUP 1000

/*
 * The syscall without glibc's wrapper (errno, cancellation): the user side
 * of every row is the same few instructions. Returns -errno on failure.
 */
static inline long sys6(long nr, long a1, long a2, long a3, long a4, long a5,
			long a6)
{
#if defined(__x86_64__)
	register long r10 __asm__("r10") = a4;
	register long r8 __asm__("r8") = a5;
	register long r9 __asm__("r9") = a6;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(nr), "D"(a1), "S"(a2), "d"(a3), "r"(r10),
			   "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
#else
	long ret = syscall(nr, a1, a2, a3, a4, a5, a6);

	return ret == -1 ? -errno : ret;
#endif
}

static volatile uint32_t word;		/* private futex word */
static volatile uint32_t *shword;	/* on a MAP_SHARED page */
static const struct timespec zero;	/* absolute timeout 0: long past */

static long futex(volatile uint32_t *uaddr, int op, uint32_t val,
		  const struct timespec *to, unsigned long val2, uint32_t val3)
{
	return sys6(SYS_futex, (long)uaddr, op, val, (long)to, (long)val2, val3);
}

static long row_syscall(void)
{
	return sys6(SYS_getppid, 0, 0, 0, 0, 0, 0) > 0 ? 0 : -1;
}

static long row_wait_mismatch(void)
{
	word = 0;
	return futex(&word, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 1, NULL, 0, 0);
}

static long row_wait_mismatch_shared(void)
{
	*shword = 0;
	return futex(shword, FUTEX_WAIT, 1, NULL, 0, 0);
}

static long row_wait_expired(void)
{
	word = 0;
	return futex(&word, FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG, 0, &zero,
		     0, FUTEX_BITSET_MATCH_ANY);
}

static long row_wake_nobody(void)
{
	word = 0;
	return futex(&word, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL, 0, 0);
}

static long row_set_wait_mismatch(void)
{
	word = 3;
	return futex(&word, FUTEX_SET_WAIT | FUTEX_PRIVATE_FLAG, 1, &zero, 2,
		     FUTEX_BITSET_MATCH_ANY);
}

static long row_set_wait_expired(void)
{
	word = 1;
	return futex(&word, FUTEX_SET_WAIT | FUTEX_PRIVATE_FLAG, 0, &zero, 1,
		     FUTEX_BITSET_MATCH_ANY);
}

struct row {
	const char *name;
	long (*call)(void);
	long expect;		/* return value of every call */
	long n;			/* calls in the timed loop */
	double ns;		/* result, < 0 if not run */
};

/*
 * N: about 0.2 s of guest time per row in the icount guest, where a null
 * syscall costs ~250 ns and an expired wait ~1500 ns: enough calls that
 * the timer ticks falling into a row are many and their share steady.
 */
static struct row rows[] = {
	{ "syscall",		  row_syscall,		    0,		800000, -1 },
	{ "wait-mismatch",	  row_wait_mismatch,	    -EAGAIN,	300000, -1 },
	{ "wait-mismatch-shared", row_wait_mismatch_shared, -EAGAIN,	200000, -1 },
	{ "wait-expired",	  row_wait_expired,	    -ETIMEDOUT,	150000, -1 },
	{ "wake-nobody",	  row_wake_nobody,	    0,		400000, -1 },
	{ "set-wait-mismatch",	  row_set_wait_mismatch,    -EAGAIN,	300000, -1 },
	{ "set-wait-expired",	  row_set_wait_expired,	    -ETIMEDOUT,	150000, -1 },
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Run one row; 1 if the kernel does not know the op. Exits on a surprise. */
static int run(struct row *r)
{
	long i, ret, bad = 0;
	double t0, t1;

	ret = r->call();
	if (ret == -ENOSYS && r->expect != -ENOSYS)
		return 1;
	for (i = 0; i < WARMUP; i++) {
		ret = r->call();
		if (ret != r->expect) {
			fprintf(stderr, "pathlen: %s returned %ld (%s), expected %ld\n",
				r->name, ret, ret < 0 ? strerror(-ret) : "-",
				r->expect);
			exit(1);
		}
	}
	t0 = now_ns();
	for (i = 0; i < r->n; i++)
		bad |= r->call() ^ r->expect;
	t1 = now_ns();
	if (bad) {
		fprintf(stderr, "pathlen: %s: a timed call returned other than %ld\n",
			r->name, r->expect);
		exit(1);
	}
	r->ns = (t1 - t0) / r->n;
	return 0;
}

static struct row *find(const char *name)
{
	size_t i;

	for (i = 0; i < NROWS; i++)
		if (!strcmp(rows[i].name, name))
			return &rows[i];
	return NULL;
}

int main(int argc, char **argv)
{
	struct row *order[NROWS], *we, *swe;
	size_t i, n = 0;
	double scale = 1;
	int opt;

	while ((opt = getopt(argc, argv, "ls:")) != -1) {
		switch (opt) {
		case 'l':
			for (i = 0; i < NROWS; i++)
				printf("%s %ld\n", rows[i].name, rows[i].n);
			return 0;
		case 's':
			scale = atof(optarg);
			if (scale <= 0) {
				fprintf(stderr, "pathlen: bad scale %s\n", optarg);
				return 2;
			}
			break;
		default:
			fprintf(stderr, "usage: pathlen [-l] [-s SCALE] [ROW...]\n");
			return 2;
		}
	}
	for (; optind < argc; optind++) {
		struct row *r = find(argv[optind]);

		if (!r) {
			fprintf(stderr, "pathlen: unknown row %s\n",
				argv[optind]);
			return 2;
		}
		for (i = 0; i < n; i++)
			if (order[i] == r) {
				fprintf(stderr, "pathlen: row %s given twice\n",
					r->name);
				return 2;
			}
		order[n++] = r;
	}
	if (!n)
		for (; n < NROWS; n++)
			order[n] = &rows[n];

	shword = mmap(NULL, getpagesize(), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shword == MAP_FAILED) {
		perror("pathlen: mmap");
		return 1;
	}
	for (i = 0; i < NROWS; i++) {
		rows[i].ns = -1;
		rows[i].n = (long)(rows[i].n * scale);
		if (rows[i].n < 1)
			rows[i].n = 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < n; i++) {
		if (run(order[i]))
			printf("%s unsupported\n", order[i]->name);
		else
			printf("%s %.3f\n", order[i]->name, order[i]->ns);
	}
	we = find("wait-expired");
	swe = find("set-wait-expired");
	if (we->ns >= 0 && swe->ns >= 0)
		printf("set-wait-extra %.3f\n", swe->ns - we->ns);
	return 0;
}
