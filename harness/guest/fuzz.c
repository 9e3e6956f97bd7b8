// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz - run a generated command script against tracefs (make fuzz)
 *
 *   fuzz [-d] [-l] [-v] SCRIPT
 *
 * SCRIPT is written by harness/fuzz/gen.py on the host; one operation per
 * line, fields separated by the first two TABs (the text may hold more):
 *
 *   S <n>             a new sequence starts (its number goes to the kernel
 *                     log, so a kernel report can be tied to it)
 *   W <path> <text>   append-write <text>\n to <path>; a rejected write must
 *                     fail with an errno and leave an error_log entry
 *   U <path> <text>   the same, but nothing is checked (undo steps)
 *   V <path> <text>   the same, and it must succeed (fixtures)
 *   T <path> <text>   a truncating write (e.g. clearing synthetic_events)
 *   Y <path> <text>   an unchecked write, only if the last W was taken
 *   R <path>          read the file to its end
 *   M <path> / D <path>   mkdir / rmdir
 *   C <events...>     undo whatever the sequence left, then check the state
 *                     is clean: no instance, no synthetic or dynamic event,
 *                     and no trigger on the events named ("sys/event"), or
 *                     on any event if the list is "*"
 *   K <n>             (differential mode) case <n> starts
 *
 * Paths are relative to /sys/kernel/tracing.  What this program reports
 * goes to stdout, one "@@FUZZ-..." line each, read by harness/fuzz.sh:
 *
 *   @@FUZZ-NOLOG <seq> <errno> <path>\t<text>   rejected, error_log empty
 *   @@FUZZ-ODD <seq> <what>                     a write returned nonsense, a read
 *                                               failed other than ENOENT/ENODEV,
 *                                               an mkdir/rmdir other than EEXIST,
 *                                               ENOENT or EBUSY
 *   @@FUZZ-UNCLEAN <seq> <what>                 state left after the undo
 *   @@FUZZ-FIXTURE <seq> <errno> <path>\t<text> a V write failed
 *   @@FUZZ-RESULT <case> <errno|0> <error_log>  (-d) one per W
 *   @@FUZZ-STATS ...                            counts at the end
 *
 * -d (differential mode) prints every W's result and starts no load; -l
 * never starts the background load; -v prints every write's result
 * ("@@FUZZ-VERBOSE <op> <errno> <path>\t<text>\t<error_log>").  Otherwise two processes keep the
 * scheduler, syscall, fork and allocation events of the generated
 * triggers firing on both CPUs.
 *
 * Built statically by harness/initramfs.sh as /bin/fuzz.
 */
#define _GNU_SOURCE
/* Paths are bounded by tracefs names: truncation cannot happen. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TRACEFS "/sys/kernel/tracing"
#define BUFSZ 65536

static int diff_mode, verbose;
static long seq = -1, kase = -1;
static unsigned long n_writes, n_rejected, n_nolog, n_reads, n_odd, n_unclean,
	n_fixture, n_seqs, n_cleanups;
static char rdbuf[BUFSZ];
static int last_err, open_failed;
static unsigned long n_nofile;

static void out(const char *fmt, ...)
{
	char buf[8192];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	if (write(1, buf, n) < 0)
		exit(3);
}

static void klog(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int fd, n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fd = open("/dev/kmsg", O_WRONLY);	/* to the kernel log */
	if (fd < 0)
		return;
	if (write(fd, buf, n) < 0)
		;
	close(fd);
}

/* Read a whole file (up to BUFSZ - 1 bytes kept) into rdbuf. */
static ssize_t slurp(const char *path)
{
	ssize_t n, len = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -errno;
	for (;;) {
		char tmp[4096];

		n = read(fd, tmp, sizeof(tmp));
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (n == 0)
			break;
		if (len + n >= BUFSZ)
			n = BUFSZ - 1 - len;
		memcpy(rdbuf + len, tmp, n);
		len += n;
	}
	close(fd);
	rdbuf[len] = 0;
	return len;
}

static void path_of(char *dst, size_t sz, const char *rel)
{
	snprintf(dst, sz, "%s/%s", TRACEFS, rel);
}

/* The error_log of the trace array a command goes to. */
static void errlog_of(char *dst, size_t sz, const char *rel)
{
	const char *p;

	if (!strncmp(rel, "instances/", 10)) {
		p = strchr(rel + 10, '/');
		if (p) {
			snprintf(dst, sz, "%s/%.*s/error_log", TRACEFS,
				 (int)(p - rel), rel);
			return;
		}
	}
	snprintf(dst, sz, "%s/error_log", TRACEFS);
}

static void clear_errlog(const char *log)
{
	int fd = open(log, O_WRONLY | O_TRUNC);

	if (fd >= 0)
		close(fd);
}

/* Returns 0 or an errno. */
static int do_write(const char *rel, const char *text, int trunc)
{
	char path[1024], buf[8192];
	int fd, err = 0;
	size_t len;
	ssize_t n;

	path_of(path, sizeof(path), rel);
	len = snprintf(buf, sizeof(buf), "%s\n", text);
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	open_failed = 0;
	fd = open(path, O_WRONLY | (trunc ? O_TRUNC : O_APPEND));
	if (fd < 0) {
		open_failed = 1;
		return errno;
	}
	n = write(fd, buf, len);
	if (n < 0) {
		err = errno;
	} else if ((size_t)n != len) {
		n_odd++;
		out("@@FUZZ-ODD %ld short write %zd of %zu to %s\n", seq, n,
		    len, rel);
	}
	if (close(fd) < 0 && !err)
		err = errno;
	return err;
}

/* Normalised error_log: timestamps dropped, lines joined with " | ". */
static void errlog_text(const char *log, char *dst, size_t sz)
{
	char *line, *save = NULL;
	size_t used = 0;

	dst[0] = 0;
	if (slurp(log) <= 0)
		return;
	for (line = strtok_r(rdbuf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '[') {
			char *e = strchr(line, ']');

			if (e)
				line = e + 2 <= line + strlen(line) ? e + 2 : e + 1;
		}
		used += snprintf(dst + used, used < sz ? sz - used : 0, "%s%s",
				 used ? " | " : "", line);
		if (used >= sz)
			break;
	}
}

/*
 * An accepted command that makes a hist trigger must show: the trigger
 * file lists a hist trigger, and the event's hist and hist.json read
 * whole (hist.json one JSON object).  Control commands (:pause, :cont,
 * :clear) and removals change no listing, so only new triggers count.
 */
static void check_accepted(const char *rel, const char *text)
{
	char dir[1024], path[1100];
	const char *t = text;
	size_t len = strlen(rel);
	ssize_t n;

	while (*t == ' ' || *t == '\t')
		t++;
	if (strncmp(t, "hist:", 5) || strstr(t, ":pause") || strstr(t, ":cont") ||
	    strstr(t, ":clear") || len < 8 || strcmp(rel + len - 8, "/trigger"))
		return;
	snprintf(dir, sizeof(dir), "%.*s", (int)(len - 8), rel);
	snprintf(path, sizeof(path), "%s/trigger", dir);
	path_of(dir, sizeof(dir), path);
	n = slurp(dir);
	if (n >= 0 && strncmp(rdbuf, "hist:", 5) && !strstr(rdbuf, "\nhist:")) {
		n_odd++;
		out("@@FUZZ-ODD %ld accepted but not listed in %s: %s\n", seq,
		    path, text);
		return;
	}
	snprintf(path, sizeof(path), "%.*s/hist", (int)(len - 8), rel);
	path_of(dir, sizeof(dir), path);
	n = slurp(dir);
	if (n < 0 || !strstr(rdbuf, "# event histogram")) {
		n_odd++;
		out("@@FUZZ-ODD %ld accepted, but %s reads %s\n", seq, path,
		    n < 0 ? strerror((int)-n) : "no histogram");
		return;
	}
	snprintf(path, sizeof(path), "%.*s/hist.json", (int)(len - 8), rel);
	path_of(dir, sizeof(dir), path);
	n = slurp(dir);
	if (n < 0 || (n < BUFSZ - 1 &&
		      (rdbuf[0] != '{' || n < 2 || strcmp(rdbuf + n - 2, "}\n")))) {
		n_odd++;
		out("@@FUZZ-ODD %ld accepted, but %s reads %s\n", seq, path,
		    n < 0 ? strerror((int)-n) : "no JSON object");
	}
}

static void op_write(char op, const char *rel, const char *text)
{
	char log[1024], msg[4096];
	int err;

	errlog_of(log, sizeof(log), rel);
	if (op == 'W' || diff_mode)
		clear_errlog(log);
	err = do_write(rel, text, op == 'T');
	n_writes++;
	if (op == 'W')
		last_err = err;
	if (diff_mode && op == 'W') {
		errlog_text(log, msg, sizeof(msg));
		out("@@FUZZ-RESULT %ld %d %s\n", kase, err, msg);
		return;
	}
	if (verbose) {
		errlog_text(log, msg, sizeof(msg));
		out("@@FUZZ-VERBOSE %c %d %s\t%s\t%s\n", op, err, rel, text, msg);
	}
	if (op == 'V' && err) {
		n_fixture++;
		out("@@FUZZ-FIXTURE %ld %d %s\t%s\n", seq, err, rel, text);
		return;
	}
	if (op == 'W' && !err)
		check_accepted(rel, text);
	if (op != 'W' || !err)
		return;
	/* The file is gone (its event or instance was removed): no write. */
	if (open_failed) {
		n_nofile++;
		return;
	}
	n_rejected++;
	if (slurp(log) <= 0) {
		n_nolog++;
		out("@@FUZZ-NOLOG %ld %d %s\t%s\n", seq, err, rel, text);
	}
}

/*
 * A read may find its file gone (the event or instance was removed:
 * ENOENT, or ENODEV for a file removed while open); any other error is
 * one the oracle does not accept.
 */
static void op_read(const char *rel)
{
	char path[1024];
	ssize_t n;

	path_of(path, sizeof(path), rel);
	n = slurp(path);
	n_reads++;
	if (n < 0 && n != -ENOENT && n != -ENODEV) {
		n_odd++;
		out("@@FUZZ-ODD %ld read of %s failed: %s\n", seq, rel,
		    strerror((int)-n));
	}
}

/*
 * mkdir and rmdir of instances: an instance that exists (EEXIST), does
 * not (ENOENT) or is in use (EBUSY) says so; anything else is reported.
 */
static void op_dir(char op, const char *rel)
{
	char path[1024];
	int ret, err;

	path_of(path, sizeof(path), rel);
	ret = op == 'M' ? mkdir(path, 0755) : rmdir(path);
	err = errno;
	if (!ret || err == ENOENT || (op == 'M' && err == EEXIST) ||
	    (op == 'D' && err == EBUSY))
		return;
	n_odd++;
	out("@@FUZZ-ODD %ld %s %s failed: %s\n", seq,
	    op == 'M' ? "mkdir" : "rmdir", rel, strerror(err));
}

/* --- cleaning up and checking the state ------------------------------- */

static int unclean;

static void report_unclean(const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	unclean++;
	out("@@FUZZ-UNCLEAN %ld %s\n", seq, buf);
}

/* "$sys.event.var" as the trigger file prints it -> "sys.event.$var". */
static void fix_refs(const char *in, char *dst, size_t sz)
{
	size_t o = 0;

	while (*in && o + 1 < sz) {
		const char *p = in + 1, *d1, *d2, *end;

		if (*in != '$') {
			dst[o++] = *in++;
			continue;
		}
		end = p;
		while (*end && (isalnum((unsigned char)*end) || *end == '_' || *end == '.' ||
				*end == '-'))
			end++;
		d1 = memchr(p, '.', end - p);
		d2 = d1 ? memchr(d1 + 1, '.', end - d1 - 1) : NULL;
		if (!d2) {
			dst[o++] = *in++;
			continue;
		}
		o += snprintf(dst + o, sz - o, "%.*s$%.*s", (int)(d2 + 1 - p),
			      p, (int)(end - d2 - 1), d2 + 1);
		in = end;
	}
	dst[o < sz ? o : sz - 1] = 0;
}

/* Remove every trigger of one trigger file; returns how many are left. */
static int clear_triggers(const char *path)
{
	int pass, left = 0;

	for (pass = 0; pass < 4; pass++) {
		char copy[BUFSZ], *line, *save = NULL;

		if (slurp(path) <= 0)
			return 0;
		memcpy(copy, rdbuf, sizeof(copy));
		left = 0;
		for (line = strtok_r(copy, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char cmd[8192], fixed[8192], *sp;
			int fd;

			if (line[0] == '#' || !line[0])
				continue;
			left++;
			snprintf(cmd, sizeof(cmd), "!%s", line);
			/* The filter stays: removal matches it, as on stock. */
			sp = strstr(cmd, " [");
			if (sp)
				*sp = 0;
			if (pass & 1) {
				fix_refs(cmd, fixed, sizeof(fixed));
				snprintf(cmd, sizeof(cmd), "%s", fixed);
			}
			strcat(cmd, "\n");
			fd = open(path, O_WRONLY | O_APPEND);
			if (fd < 0)
				continue;
			if (write(fd, cmd, strlen(cmd)) < 0)
				;
			close(fd);
		}
		if (!left)
			return 0;
	}
	slurp(path);
	left = 0;
	for (char *l = rdbuf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (*l != '#' && *l != '\n')
			left++;
	return left;
}

static int list_instances(char names[][256], int max)
{
	DIR *d = opendir(TRACEFS "/instances");
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max) {
		if (e->d_name[0] == '.')
			continue;
		/*
		 * The kernel's, kept once a latency_hist group was enabled
		 * (by the boot's KUnit): not the fuzzer's, and never removable
		 */
		if (!strcmp(e->d_name, "latency_hist"))
			continue;
		snprintf(names[n++], 256, "%s", e->d_name);
	}
	closedir(d);
	return n;
}

static void clear_event(const char *root, const char *ev, int check)
{
	char path[1024];
	int left;

	snprintf(path, sizeof(path), "%s/events/%s/trigger", root, ev);
	if (access(path, F_OK))
		return;
	left = clear_triggers(path);
	if (left && check) {
		slurp(path);
		report_unclean("%d trigger(s) cannot be removed from %s: %s",
			       left, path, rdbuf);
	}
}

static void clear_all_events(const char *root, int check)
{
	char path[1024];
	DIR *sd, *ed;
	struct dirent *s, *e;

	snprintf(path, sizeof(path), "%s/events", root);
	sd = opendir(path);
	if (!sd)
		return;
	while ((s = readdir(sd))) {
		char sub[1024];

		if (s->d_name[0] == '.' || s->d_type != DT_DIR)
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, s->d_name);
		ed = opendir(sub);
		if (!ed)
			continue;
		while ((e = readdir(ed))) {
			char ev[1024];

			if (e->d_name[0] == '.' || e->d_type != DT_DIR)
				continue;
			snprintf(ev, sizeof(ev), "%s/%s", s->d_name, e->d_name);
			clear_event(root, ev, check);
		}
		closedir(ed);
	}
	closedir(sd);
}

/* Which triggers and events a sequence left must be undone by hand. */
static void clean(char *events, int check)
{
	char names[64][256], root[1024], *ev, *save = NULL;
	int i, n, pass;
	int all = events && !strcmp(events, "*");

	n_cleanups++;
	n = list_instances(names, 64);
	/* Triggers first (they hold synthetic events), in every array. */
	for (pass = 0; pass < 2; pass++) {
		int last = pass == 1 && check;

		for (i = -1; i < n; i++) {
			char list[8192];

			if (i < 0)
				snprintf(root, sizeof(root), "%s", TRACEFS);
			else
				snprintf(root, sizeof(root), "%s/instances/%s",
					 TRACEFS, names[i]);
			if (all) {
				clear_all_events(root, last);
				continue;
			}
			snprintf(list, sizeof(list), "%s", events ? events : "");
			save = NULL;
			for (ev = strtok_r(list, " ", &save); ev;
			     ev = strtok_r(NULL, " ", &save))
				clear_event(root, ev, last);
			/* Synthetic events of the array (triggers on them). */
			if (slurp(TRACEFS "/synthetic_events") > 0) {
				char syn[BUFSZ], *l, *s2 = NULL;

				memcpy(syn, rdbuf, sizeof(syn));
				for (l = strtok_r(syn, "\n", &s2); l;
				     l = strtok_r(NULL, "\n", &s2)) {
					char e2[8192];

					snprintf(e2, sizeof(e2), "synthetic/%.*s",
						 (int)strcspn(l, " \t"), l);
					clear_event(root, e2, last);
				}
			}
		}
	}
	/* Instances: removing one removes what it holds. */
	for (i = 0; i < n; i++) {
		snprintf(root, sizeof(root), "%s/instances/%s", TRACEFS,
			 names[i]);
		if (rmdir(root) && check)
			report_unclean("rmdir %s: %s", root, strerror(errno));
	}
	/* Synthetic events, then anything else in dynamic_events. */
	for (pass = 0; pass < 3; pass++) {
		char syn[BUFSZ], *l, *s2 = NULL;

		if (slurp(TRACEFS "/synthetic_events") <= 0)
			break;
		memcpy(syn, rdbuf, sizeof(syn));
		for (l = strtok_r(syn, "\n", &s2); l;
		     l = strtok_r(NULL, "\n", &s2)) {
			char cmd[8192];

			snprintf(cmd, sizeof(cmd), "!%.*s",
				 (int)strcspn(l, " \t"), l);
			do_write("synthetic_events", cmd, 0);
		}
	}
	if (!check)
		return;
	if (slurp(TRACEFS "/synthetic_events") > 0)
		report_unclean("synthetic events left: %s", rdbuf);
	if (slurp(TRACEFS "/dynamic_events") > 0)
		report_unclean("dynamic events left: %s", rdbuf);
	n = list_instances(names, 64);
	for (i = 0; i < n; i++)
		report_unclean("instance left: %s", names[i]);
}

/* --- background load ---------------------------------------------------- */

static pid_t load_pids[2];

static void load_child(int id, int rfd, int wfd)
{
	cpu_set_t set;
	unsigned long i;
	char c = 0;

	CPU_ZERO(&set);
	CPU_SET(id, &set);
	sched_setaffinity(0, sizeof(set), &set);
	for (i = 0;; i++) {
		struct timespec ts = { 0, 300000 };

		if (id == 0 && write(wfd, &c, 1) < 0)
			_exit(0);
		if (read(rfd, &c, 1) <= 0)
			_exit(0);
		if (id == 1 && write(wfd, &c, 1) < 0)
			_exit(0);
		getppid();
		lseek(-1, (off_t)(i & 1023), SEEK_SET);
		if (i % 64 == 0) {
			pid_t p = fork();

			if (p == 0) {
				if (i % 128 == 0)
					execl("/bin/busybox", "true", NULL);
				_exit(0);
			}
			if (p > 0)
				waitpid(p, NULL, 0);
		}
		if (i % 16 == 0) {
			char *m = malloc(64 + (i & 4095));

			if (m) {
				int fd = open("/proc/self/stat", O_RDONLY);

				if (fd >= 0) {
					if (read(fd, m, 64) < 0)
						;
					close(fd);
				}
				free(m);
			}
		}
		nanosleep(&ts, NULL);
	}
}

static void start_load(void)
{
	int a[2], b[2], i;

	if (pipe(a) || pipe(b))
		return;
	for (i = 0; i < 2; i++) {
		pid_t p = fork();

		if (p == 0) {
			if (i == 0)
				load_child(0, b[0], a[1]);
			else
				load_child(1, a[0], b[1]);
		}
		load_pids[i] = p;
	}
	close(a[0]);
	close(a[1]);
	close(b[0]);
	close(b[1]);
}

static void stop_load(void)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (load_pids[i] > 0) {
			kill(load_pids[i], SIGKILL);
			waitpid(load_pids[i], NULL, 0);
		}
	}
}

/* --- the script ------------------------------------------------------- */

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Time spent per operation kind, and the slowest operation. */
static double op_ms[128], slowest_ms;
static unsigned long op_n[128];
static char slowest[512];

int main(int argc, char **argv)
{
	int opt, load = 1;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f;

	while ((opt = getopt(argc, argv, "dlv")) != -1) {
		switch (opt) {
		case 'v':
			verbose = 1;
			break;
		case 'd':
			diff_mode = 1;
			load = 0;
			break;
		case 'l':
			load = 0;
			break;
		default:
			fprintf(stderr, "usage: fuzz [-d] [-l] script\n");
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: fuzz [-d] [-l] script\n");
		return 2;
	}
	f = fopen(argv[optind], "r");
	if (!f) {
		perror(argv[optind]);
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	if (load)
		start_load();
	while ((len = getline(&line, &cap, f)) > 0) {
		char *a = NULL, *b = NULL, *tab, kind = line[0];
		double t0 = now_ms(), dt;

		if (line[len - 1] == '\n')
			line[--len] = 0;
		if (!line[0] || line[0] == '#')
			continue;
		tab = strchr(line, '\t');
		if (tab) {
			*tab = 0;
			a = tab + 1;
			tab = strchr(a, '\t');
			if (tab) {
				*tab = 0;
				b = tab + 1;
			}
		}
		switch (line[0]) {
		case 'S':
			seq = a ? atol(a) : seq + 1;
			n_seqs++;
			klog("fuzz: sequence %ld\n", seq);
			out("@@FUZZ-SEQ %ld\n", seq);
			break;
		case 'K':
			kase = a ? atol(a) : kase + 1;
			break;
		case 'W':
		case 'U':
		case 'V':
		case 'T':
			if (a)
				op_write(line[0], a, b ? b : "");
			break;
		case 'Y':
			if (a && !last_err)
				op_write('U', a, b ? b : "");
			break;
		case 'R':
			if (a)
				op_read(a);
			break;
		case 'M':
		case 'D':
			if (a)
				op_dir(line[0], a);
			break;
		case 'C':
			unclean = 0;
			clean(a, 1);
			if (unclean) {
				n_unclean++;
				/* Start the next sequence from a clean state. */
				clean("*", 0);
			}
			break;
		case 'P': {
			struct timespec ts = { 0, (a ? atol(a) : 1) * 1000000L };

			nanosleep(&ts, NULL);
			break;
		}
		default:
			out("@@FUZZ-ODD %ld unknown script line '%s'\n", seq,
			    line);
			n_odd++;
		}
		dt = now_ms() - t0;
		op_ms[kind & 127] += dt;
		op_n[kind & 127]++;
		if (dt > slowest_ms && kind != 'P') {
			slowest_ms = dt;
			snprintf(slowest, sizeof(slowest), "%c %s %.300s", kind,
				 a ? a : "", b ? b : "");
		}
	}
	for (opt = 0; opt < 128; opt++)
		if (op_n[opt])
			out("@@FUZZ-TIME %c n=%lu total=%.0fms mean=%.2fms\n",
			    opt, op_n[opt], op_ms[opt], op_ms[opt] / op_n[opt]);
	out("@@FUZZ-TIME slowest %.0fms: %s\n", slowest_ms, slowest);
	stop_load();
	out("@@FUZZ-STATS sequences=%lu writes=%lu rejected=%lu nolog=%lu ",
	    n_seqs, n_writes, n_rejected, n_nolog);
	out("nofile=%lu reads=%lu cleanups=%lu unclean=%lu odd=%lu fixture=%lu\n",
	    n_nofile, n_reads, n_cleanups, n_unclean, n_odd, n_fixture);
	return 0;
}
