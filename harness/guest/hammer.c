// SPDX-License-Identifier: GPL-2.0
/*
 * hammer - the load driver of make stress (harness/stress/cases/)
 *
 *   hammer fire [-t THREADS] [-n COUNT] [-f FD] [-k PATTERN] [-o FILE]
 *   hammer write FILE TEXT
 *
 * "fire" starts THREADS threads (default: one per online CPU), thread t
 * pinned to CPU t modulo the number of CPUs, and each calls
 * lseek(FD, key, t) COUNT times, or until SIGTERM/SIGINT if COUNT is 0.
 * FD (default 4242) must not be open, so every call fails with EBADF
 * after the kernel's sys_enter_lseek event reported fd=FD, offset=key
 * and whence=t: a trigger filtered on "fd == FD" sees exactly the
 * events counted here.  PATTERN says which key the i-th call of a thread
 * uses:
 *
 *   same:B:K     B + i % K: every thread walks the same K keys
 *   new:B        B + i * THREADS + t: a key nobody used before
 *   mix:B:K:W    even i: B + (i / 2) % K, the same K hot keys;
 *                odd i: B + K + (i / 2) % W, W further keys that all
 *                threads walk in the same order (new to a fresh map
 *                at the same time on every CPU)
 *
 * The default is same:0:1.  At the end it prints "fired N" (all threads)
 * and "thread T cpu C fired N" per thread; with -o (not for new:) it
 * writes "key count whence_sum" lines, one per key fired, sorted by key,
 * to FILE, where whence_sum is the sum of the whence values (the
 * threads' indexes) of that key's calls.
 *
 * "write" appends TEXT to FILE with one write(2) and prints "OK" or the
 * errno's name (EBUSY, ENOENT, ...); exit status 0 for OK, 1 otherwise.
 * The shell's "echo >>" does not tell the errno apart.
 *
 * Built statically by harness/initramfs.sh and installed as /bin/hammer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_THREADS	64
#define MAX_KEYS	0x100000

enum pattern { PAT_SAME, PAT_NEW, PAT_MIX };

struct worker {
	pthread_t	thread;
	unsigned int	idx;
	int		cpu;
	unsigned long	fired;
	unsigned long	*counts;	/* per key index, NULL for new: */
};

static enum pattern pat = PAT_SAME;
static long key_base;
static unsigned long n_hot = 1, n_walk;
static unsigned int n_threads;
static unsigned long count;
static int fd = 4242;
static atomic_int stop;

static void bad_usage(void)
{
	fprintf(stderr,
		"usage: hammer fire [-t threads] [-n count] [-f fd] [-k same:B:K|new:B|mix:B:K:W] [-o file]\n"
		"       hammer write file text\n");
	exit(2);
}

static long parse_num(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || end == s || *end)
		bad_usage();
	return v;
}

static void parse_pattern(char *spec)
{
	char *f[5] = { NULL };
	int n = 0;

	for (f[0] = strtok(spec, ":"); f[n] && n < 4; f[n] = strtok(NULL, ":"))
		n++;
	if (n == 3 && !strcmp(f[0], "same")) {
		pat = PAT_SAME;
		key_base = parse_num(f[1]);
		n_hot = parse_num(f[2]);
	} else if (n == 2 && !strcmp(f[0], "new")) {
		pat = PAT_NEW;
		key_base = parse_num(f[1]);
	} else if (n == 4 && !strcmp(f[0], "mix") && !f[4]) {
		pat = PAT_MIX;
		key_base = parse_num(f[1]);
		n_hot = parse_num(f[2]);
		n_walk = parse_num(f[3]);
		if (n_walk < 1)
			bad_usage();
	} else {
		bad_usage();
	}
	if (n_hot < 1 || n_hot + n_walk > MAX_KEYS)
		bad_usage();
}

/* Index of the key of call @i of thread @t, relative to key_base. */
static unsigned long key_index(unsigned long i, unsigned int t)
{
	switch (pat) {
	case PAT_SAME:
		return i % n_hot;
	case PAT_NEW:
		return i * n_threads + t;
	default:
		if (!(i & 1))
			return (i / 2) % n_hot;
		return n_hot + (i / 2) % n_walk;
	}
}

static int running(unsigned long i)
{
	if (count)
		return i < count;
	return !atomic_load_explicit(&stop, memory_order_relaxed);
}

static void *fire(void *arg)
{
	struct worker *w = arg;
	cpu_set_t set;
	unsigned long i, k;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set)) {
		fprintf(stderr, "hammer: cannot pin thread %u to cpu %d\n",
			w->idx, w->cpu);
		exit(2);
	}
	for (i = 0; running(i); i++) {
		k = key_index(i, w->idx);
		/* raw syscall: one sys_enter_lseek per call, nothing else */
		syscall(SYS_lseek, fd, (long)(key_base + k), (long)w->idx);
		if (w->counts)
			w->counts[k]++;
		w->fired++;
	}
	return NULL;
}

static int write_counts(const char *path, struct worker *w)
{
	unsigned long k, n, sum;
	unsigned int t;
	FILE *f;

	f = fopen(path, "w");
	if (!f) {
		perror(path);
		return 2;
	}
	for (k = 0; k < n_hot + n_walk; k++) {
		n = 0;
		sum = 0;
		for (t = 0; t < n_threads; t++) {
			n += w[t].counts[k];
			sum += w[t].counts[k] * t;
		}
		if (n)
			fprintf(f, "%ld %lu %lu\n", key_base + (long)k, n, sum);
	}
	return fclose(f) ? 2 : 0;
}

static int cmd_fire(int argc, char **argv)
{
	static struct worker w[MAX_THREADS];
	const char *out = NULL;
	unsigned long total = 0;
	int ncpu, opt, sig, ret = 0;
	unsigned int t;
	sigset_t sigs;

	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 1)
		ncpu = 1;
	n_threads = ncpu;
	while ((opt = getopt(argc, argv, "t:n:f:k:o:")) != -1) {
		switch (opt) {
		case 't':
			n_threads = parse_num(optarg);
			break;
		case 'n':
			count = parse_num(optarg);
			break;
		case 'f':
			fd = parse_num(optarg);
			break;
		case 'k':
			parse_pattern(optarg);
			break;
		case 'o':
			out = optarg;
			break;
		default:
			bad_usage();
		}
	}
	if (optind != argc || n_threads < 1 || n_threads > MAX_THREADS ||
	    (out && pat == PAT_NEW))
		bad_usage();
	if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) {
		fprintf(stderr, "hammer: fd %d is open\n", fd);
		return 2;
	}

	/* only the main thread takes the stop signals */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);

	for (t = 0; t < n_threads; t++) {
		w[t].idx = t;
		w[t].cpu = t % ncpu;
		if (pat != PAT_NEW) {
			w[t].counts = calloc(n_hot + n_walk, sizeof(long));
			if (!w[t].counts) {
				perror("hammer");
				return 2;
			}
		}
		if (pthread_create(&w[t].thread, NULL, fire, &w[t])) {
			fprintf(stderr, "hammer: cannot start thread %u\n", t);
			return 2;
		}
	}
	if (!count) {
		sigwait(&sigs, &sig);
		atomic_store(&stop, 1);
	}
	for (t = 0; t < n_threads; t++) {
		pthread_join(w[t].thread, NULL);
		total += w[t].fired;
	}
	printf("fired %lu\n", total);
	for (t = 0; t < n_threads; t++)
		printf("thread %u cpu %d fired %lu\n", t, w[t].cpu, w[t].fired);
	if (out)
		ret = write_counts(out, w);
	return fflush(stdout) ? 2 : ret;
}

static int cmd_write(int argc, char **argv)
{
	size_t len;
	ssize_t n;
	int f;

	if (argc != 3)
		bad_usage();
	f = open(argv[1], O_WRONLY | O_APPEND);
	if (f < 0) {
		printf("%s\n", strerrorname_np(errno));
		return 1;
	}
	len = strlen(argv[2]);
	n = write(f, argv[2], len);
	if (n < 0) {
		printf("%s\n", strerrorname_np(errno));
		close(f);
		return 1;
	}
	close(f);
	if ((size_t)n != len) {
		printf("short write %zd of %zu\n", n, len);
		return 1;
	}
	printf("OK\n");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		bad_usage();
	if (!strcmp(argv[1], "fire"))
		return cmd_fire(argc - 1, argv + 1);
	if (!strcmp(argv[1], "write"))
		return cmd_write(argc - 1, argv + 1);
	bad_usage();
	return 2;
}
