// SPDX-License-Identifier: GPL-2.0
/*
 * hist-poll - wait for poll(2) events on one file
 *
 *   hist-poll [-I|-P] [-r] [-t TIMEOUT_MS] FILE
 *
 * -I waits for POLLIN (the default), -P for POLLPRI; -r reads FILE to its
 * end before polling; -t gives up after TIMEOUT_MS milliseconds (default:
 * wait forever).  Exit status: 0 if the event came, 1 on timeout, 2 on an
 * error, including poll() reporting POLLERR, POLLHUP or POLLNVAL.
 *
 * For test.d/trigger/hist-regress-poll.tc, which runs it as
 * $FTRACETEST_ROOT/hist-poll.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void bad_usage(void)
{
	fprintf(stderr, "usage: hist-poll [-I|-P] [-r] [-t timeout_ms] file\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct pollfd pfd = { .events = POLLIN };
	int timeout = -1, do_read = 0, opt, n;
	char buf[4096], *end;
	ssize_t len;

	while ((opt = getopt(argc, argv, "IPrt:")) != -1) {
		switch (opt) {
		case 'I':
			pfd.events = POLLIN;
			break;
		case 'P':
			pfd.events = POLLPRI;
			break;
		case 'r':
			do_read = 1;
			break;
		case 't':
			errno = 0;
			timeout = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || timeout < 0)
				bad_usage();
			break;
		default:
			bad_usage();
		}
	}
	if (optind != argc - 1)
		bad_usage();

	pfd.fd = open(argv[optind], O_RDONLY);
	if (pfd.fd < 0) {
		fprintf(stderr, "poll: %s: %s\n", argv[optind], strerror(errno));
		return 2;
	}
	if (do_read) {
		do {
			len = read(pfd.fd, buf, sizeof(buf));
		} while (len > 0 || (len < 0 && errno == EINTR));
		if (len < 0) {
			fprintf(stderr, "poll: read %s: %s\n", argv[optind],
				strerror(errno));
			return 2;
		}
	}

	do {
		n = poll(&pfd, 1, timeout);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		fprintf(stderr, "poll: %s\n", strerror(errno));
		return 2;
	}
	if (n == 0)
		return 1;
	if (pfd.revents & (POLLERR | POLLHUP | POLLNVAL)) {
		fprintf(stderr, "poll: %s: revents %#x\n", argv[optind],
			pfd.revents);
		return 2;
	}
	return (pfd.revents & pfd.events) ? 0 : 2;
}
