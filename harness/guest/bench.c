// SPDX-License-Identifier: GPL-2.0
/*
 * bench - fire sys_enter_lseek/sys_exit_lseek at a known rate for make bench
 *
 *   bench N KEYS
 *
 * Calls lseek(4242, i % KEYS, SEEK_SET) N times (fd 4242 is not open: the
 * call fails with EBADF at once) after N / 10 calls of warm-up, and prints
 * the guest nanoseconds per call.  Under QEMU -icount shift=0 a guest
 * nanosecond is one guest instruction, so the number is instructions per
 * call, and the difference between two modes what the tracing costs.  The
 * same static binary runs on both kernels, so the loop costs the same.
 *
 *   bench read FILE
 *
 * Reads FILE to its end in 4096-byte reads, as cat does, and prints the
 * guest nanoseconds it took and the bytes read.
 *
 *   bench procs P N
 *
 * P processes, process i pinned to CPU i, each call lseek(4242, 0) N
 * times at once (all on one key); prints the nanoseconds from the start
 * to the last one's end.  For the multi-vCPU throughput, in real time.
 *
 *   bench fill K
 *
 * K processes, one after the other, each call lseek(4242, 0) once: K
 * more pids in histograms keyed on common_pid (the pipeline with live
 * keys).
 *
 *   bench pingpong N
 *
 * Two SCHED_FIFO tasks on CPU 0 hand a byte to each other through two
 * pipes N times, after N / 10 times of warm-up, and print the guest
 * nanoseconds per round trip: two wakeups and two context switches
 * (latency_hist's wakeup group).  The child has priority 51, the parent
 * 50: the child's wakeup preempts the parent (a wakeup after a lower
 * priority), the parent's waits for the child to block (after a higher
 * one).
 *
 *   bench sleep N
 *
 * A SCHED_FIFO task (priority 50, so no timer slack) on CPU 0 sleeps
 * 1 ns N times (after N / 10): each sleep arms an hrtimer that expires
 * at once and wakes it.  Prints the nanoseconds per sleep (the
 * missed_timer_offsets group).  The CPU idles for the moment between the
 * task's switch-out and the timer's interrupt, as long with and without
 * the group.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int read_file(const char *path)
{
	static char buf[4096];
	long long t0, t1, bytes = 0;
	ssize_t r;
	int fd;

	t0 = now_ns();
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	while ((r = read(fd, buf, sizeof(buf))) > 0)
		bytes += r;
	close(fd);
	t1 = now_ns();
	if (r < 0) {
		perror(path);
		return 1;
	}
	printf("%lld %lld\n", t1 - t0, bytes);
	return 0;
}

static int procs(int p, long n)
{
	long long t0, t1;
	int i, status, ret = 0;
	pid_t pid;

	t0 = now_ns();
	for (i = 0; i < p; i++) {
		pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (!pid) {
			cpu_set_t set;
			long j;

			CPU_ZERO(&set);
			CPU_SET(i, &set);
			sched_setaffinity(0, sizeof(set), &set);
			for (j = 0; j < n; j++)
				lseek(4242, 0, SEEK_SET);
			_exit(0);
		}
	}
	for (i = 0; i < p; i++)
		if (wait(&status) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			ret = 1;
	t1 = now_ns();
	printf("%lld\n", t1 - t0);
	return ret;
}

static int fill(long k)
{
	int status, ret = 0;
	pid_t pid;
	long i;

	for (i = 0; i < k; i++) {
		pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (!pid) {
			lseek(4242, 0, SEEK_SET);
			_exit(0);
		}
		if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
			ret = 1;
	}
	return ret;
}

/* SCHED_FIFO at priority @prio on CPU 0: 0, or -1 */
static int fifo_on_cpu0(int prio)
{
	struct sched_param sp = { .sched_priority = prio };
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("bench: SCHED_FIFO on CPU 0");
		return -1;
	}
	return 0;
}

static int pingpong(long n)
{
	long i, total = n + n / 10;
	int p2c[2], c2p[2], status;
	long long t0 = 0, t1;
	char c = 0;
	pid_t pid;

	if (pipe(p2c) || pipe(c2p)) {
		perror("pipe");
		return 1;
	}
	if (fifo_on_cpu0(50))
		return 1;
	pid = fork();		/* the child inherits the policy and CPU */
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (!pid) {
		/* an end the child fails on closes the parent's read */
		close(p2c[1]);
		close(c2p[0]);
		if (fifo_on_cpu0(51))
			_exit(1);
		for (i = 0; i < total; i++)
			if (read(p2c[0], &c, 1) != 1 || write(c2p[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	close(p2c[0]);
	close(c2p[1]);
	for (i = 0; i < total; i++) {
		if (i == n / 10)
			t0 = now_ns();
		if (write(p2c[1], &c, 1) != 1 || read(c2p[0], &c, 1) != 1) {
			perror("pingpong");
			return 1;
		}
	}
	t1 = now_ns();
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return 1;
	printf("%.1f\n", (double)(t1 - t0) / n);
	return 0;
}

static int sleeps(long n)
{
	struct timespec ts = { 0, 1 };
	long i, total = n + n / 10;
	long long t0 = 0, t1;

	if (fifo_on_cpu0(50))
		return 1;
	for (i = 0; i < total; i++) {
		if (i == n / 10)
			t0 = now_ns();
		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
	}
	t1 = now_ns();
	printf("%.1f\n", (double)(t1 - t0) / n);
	return 0;
}

int main(int argc, char **argv)
{
	long n, keys, i;
	long long t0, t1;

	if (argc == 3 && !strcmp(argv[1], "read"))
		return read_file(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "procs"))
		return procs(atoi(argv[2]), atol(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "fill"))
		return fill(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "pingpong"))
		return pingpong(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "sleep"))
		return sleeps(atol(argv[2]));
	if (argc != 3) {
		fprintf(stderr,
			"usage: bench N KEYS | read FILE | procs P N | fill K | pingpong N | sleep N\n");
		return 2;
	}
	n = atol(argv[1]);
	keys = atol(argv[2]);
	if (n <= 0 || keys <= 0) {
		fprintf(stderr, "bench: N and KEYS must be positive\n");
		return 2;
	}
	for (i = 0; i < n / 10; i++)
		lseek(4242, i % keys, SEEK_SET);
	t0 = now_ns();
	for (i = 0; i < n; i++)
		lseek(4242, i % keys, SEEK_SET);
	t1 = now_ns();
	printf("%.1f\n", (double)(t1 - t0) / n);
	return 0;
}
