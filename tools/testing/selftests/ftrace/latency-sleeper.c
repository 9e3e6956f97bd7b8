// SPDX-License-Identifier: GPL-2.0
/*
 * latency-sleeper [-s] COUNT USECS [FIFO_PRIO] - a task with a known number
 * of wakeups, for the latency_hist tests ($FTRACETEST_ROOT/latency-sleeper)
 *
 * Optionally switches to SCHED_FIFO at FIFO_PRIO, sleeps 500 ms (time for
 * the caller to hand its pid to latency_hist/wakeup/pid) or, with -s,
 * until it gets SIGUSR1 (for callers that may take longer), then sleeps
 * COUNT times USECS microseconds and exits: COUNT + 1 wakeups in all, and
 * no others.
 */
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void nap(long usecs)
{
	struct timespec ts = { usecs / 1000000, (usecs % 1000000) * 1000 };

	while (nanosleep(&ts, &ts))
		;
}

int main(int argc, char **argv)
{
	long count, usecs, i;
	int on_signal = 0, sig;
	sigset_t set;

	if (argc > 1 && !strcmp(argv[1], "-s")) {
		on_signal = 1;
		argc--;
		argv++;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: latency-sleeper [-s] COUNT USECS [FIFO_PRIO]\n");
		return 2;
	}
	/* blocked from the start: a signal sent early stays pending */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	count = atol(argv[1]);
	usecs = atol(argv[2]);
	if (argc > 3) {
		struct sched_param sp = { .sched_priority = atoi(argv[3]) };

		if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
			perror("sched_setscheduler");
			return 1;
		}
	}
	if (on_signal)
		sigwait(&set, &sig);
	else
		nap(500000);
	for (i = 0; i < count; i++)
		nap(usecs);
	return 0;
}
