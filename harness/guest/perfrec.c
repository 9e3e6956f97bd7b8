// SPDX-License-Identifier: GPL-2.0
/*
 * perfrec - record one trace event through perf while a command runs
 *
 *   perfrec ID COMMAND [ARG...]
 *
 * Opens a perf tracepoint event (PERF_TYPE_TRACEPOINT, config ID, every
 * sample with its raw record and a CLOCK_MONOTONIC time) on every CPU
 * 0..N-1 of the N online ones (at most 64), runs COMMAND, waits
 * for it and prints what perf got, in time order, one line a record:
 *
 *   type=<common_type> pid=<child|PID> data=<hex of the bytes after the
 *   8-byte common header, as long as perf says the record is>
 *
 * "child" is COMMAND's own process.  The last line is "records=N lost=N"
 * (lost: records perf dropped).  Exit status: COMMAND's, or 2 when perf
 * cannot be used (the error on stderr); the test checks every line.
 *
 * Built statically by harness/initramfs.sh and installed as /bin/perfrec.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <linux/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_CPUS	64
#define DATA_PAGES	64
#define MAX_RECS	8192
#define MAX_RAW		8192

struct rec {
	__u64	time;
	__u32	size;
	unsigned char	*data;
};

static struct rec recs[MAX_RECS];
static unsigned int n_recs;
static unsigned long long lost;

static void die(const char *what)
{
	fprintf(stderr, "perfrec: %s: %s\n", what, strerror(errno));
	exit(2);
}

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	return x->time < y->time ? -1 : x->time > y->time;
}

/* Copy @len bytes at ring offset @off (the data area wraps). */
static void ring_copy(void *dst, const unsigned char *data, size_t data_size,
		      __u64 off, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		((unsigned char *)dst)[i] = data[(off + i) % data_size];
}

static void drain(void *map, size_t page)
{
	struct perf_event_mmap_page *mp = map;
	unsigned char *data = (unsigned char *)map + page;
	size_t data_size = (size_t)DATA_PAGES * page;
	__u64 head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	__u64 tail = mp->data_tail;

	while (tail < head) {
		struct perf_event_header h;
		unsigned char buf[MAX_RAW + 64];

		ring_copy(&h, data, data_size, tail, sizeof(h));
		if (h.size < sizeof(h) || h.size > sizeof(buf)) {
			fprintf(stderr, "perfrec: bad record size %u\n", h.size);
			exit(2);
		}
		ring_copy(buf, data, data_size, tail, h.size);
		if (h.type == PERF_RECORD_LOST) {
			__u64 n;

			memcpy(&n, buf + sizeof(h) + 8, sizeof(n));
			lost += n;
		} else if (h.type == PERF_RECORD_SAMPLE) {
			struct rec *r;
			__u32 raw;

			if (n_recs == MAX_RECS) {
				fprintf(stderr, "perfrec: more than %d records\n", MAX_RECS);
				exit(2);
			}
			r = &recs[n_recs++];
			memcpy(&r->time, buf + sizeof(h), 8);
			memcpy(&raw, buf + sizeof(h) + 8, 4);
			if (raw > MAX_RAW || sizeof(h) + 12 + raw > h.size) {
				fprintf(stderr, "perfrec: bad raw size %u\n", raw);
				exit(2);
			}
			r->size = raw;
			r->data = malloc(raw ? raw : 1);
			if (!r->data)
				die("malloc");
			memcpy(r->data, buf + sizeof(h) + 12, raw);
		}
		tail += h.size;
	}
	__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr;
	int fds[MAX_CPUS], n_fds = 0, cpu, status;
	void *maps[MAX_CPUS];
	size_t page = sysconf(_SC_PAGESIZE);
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int i, j;
	pid_t child;

	if (argc < 3) {
		fprintf(stderr, "usage: perfrec id command [arg...]\n");
		return 2;
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = strtoull(argv[1], NULL, 0);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_RAW;
	/* one clock for all CPUs: the records are sorted by it */
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	attr.disabled = 1;
	attr.wakeup_events = 1;
	if (ncpu > MAX_CPUS)
		ncpu = MAX_CPUS;
	for (cpu = 0; cpu < ncpu; cpu++) {
		fds[n_fds] = syscall(SYS_perf_event_open, &attr, -1, cpu, -1, 0);
		if (fds[n_fds] < 0)
			die("perf_event_open");
		maps[n_fds] = mmap(NULL, (1 + DATA_PAGES) * page,
				   PROT_READ | PROT_WRITE, MAP_SHARED, fds[n_fds], 0);
		if (maps[n_fds] == MAP_FAILED)
			die("mmap");
		n_fds++;
	}
	for (i = 0; i < (unsigned int)n_fds; i++)
		if (ioctl(fds[i], PERF_EVENT_IOC_ENABLE, 0))
			die("enable");
	child = fork();
	if (child < 0)
		die("fork");
	if (!child) {
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	if (waitpid(child, &status, 0) < 0)
		die("waitpid");
	for (i = 0; i < (unsigned int)n_fds; i++) {
		if (ioctl(fds[i], PERF_EVENT_IOC_DISABLE, 0))
			die("disable");
		drain(maps[i], page);
	}
	qsort(recs, n_recs, sizeof(recs[0]), cmp_rec);
	for (i = 0; i < n_recs; i++) {
		struct rec *r = &recs[i];
		__u16 type = 0;
		__s32 pid = 0;

		if (r->size >= 8) {
			memcpy(&type, r->data, 2);
			memcpy(&pid, r->data + 4, 4);
		}
		printf("type=%u pid=", type);
		if (pid == child)
			printf("child");
		else
			printf("%d", pid);
		printf(" data=");
		for (j = 8; j < r->size; j++)
			printf("%02x", r->data[j]);
		printf("\n");
	}
	printf("records=%u lost=%llu\n", n_recs, lost);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}
