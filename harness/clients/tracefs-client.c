// SPDX-License-Identifier: GPL-2.0
/*
 * tracefs-client - hist triggers and synthetic events made by the real
 * libtracefs (Debian's libtracefs-dev), the way its users make them.
 *
 *   tracefs-client hist    a histogram with tracefs_hist_*(): started,
 *                          paused, continued, cleared and destroyed;
 *   tracefs-client sql     a synthetic event from tracefs_sql(), the
 *                          library behind sqlhist: created, fired and
 *                          destroyed.
 *
 * Events come from the events' inject files, so that everything printed
 * is known: the commands libtracefs wrote, the trigger files and the
 * histograms.  make diff's probe harness/differential/clients-libtracefs.tc
 * compares the output with what stock prints.  Exit status 0 when every
 * call worked.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

static int failed;

static void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stdout, "FAIL: ");
	vfprintf(stdout, fmt, ap);
	fprintf(stdout, "\n");
	va_end(ap);
	failed = 1;
}

/* writes @text to the top instance's file @file (opened with O_TRUNC) */
static void put(const char *file, const char *text)
{
	if (tracefs_instance_file_write(NULL, file, text) < 0)
		fail("write '%s' to %s", text, file);
}

/*
 * appends @text to the top instance's trigger file @file: an open with
 * O_TRUNC would remove every trigger there first
 */
static void add(const char *file, const char *text)
{
	if (tracefs_instance_file_append(NULL, file, text) < 0)
		fail("append '%s' to %s", text, file);
}

/*
 * prints the top instance's @file under a heading, its "#" comments left
 * out unless @all but the trigger info line
 */
static void show(const char *file, int all)
{
	char *path = tracefs_get_tracing_file(file);
	char line[4096];
	FILE *f;

	printf("== %s\n", file);
	f = path ? fopen(path, "r") : NULL;
	tracefs_put_tracing_file(path);
	if (!f) {
		fail("open %s", file);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		if (!all && line[0] == '#' &&
		    strncmp(line, "# trigger info:", 15))
			continue;
		if (!all && line[0] == '\n')
			continue;
		fputs(line, stdout);
	}
	fclose(f);
}

static void waking(const char *comm, int pid, int prio)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "comm=\"%s\" pid=%d prio=%d target_cpu=0",
		 comm, pid, prio);
	put("events/sched/sched_waking/inject", buf);
}

static void echo_hist(struct tracefs_hist *hist, enum tracefs_hist_command cmd)
{
	struct trace_seq seq;

	trace_seq_init(&seq);
	if (tracefs_hist_echo_cmd(&seq, NULL, hist, cmd))
		fail("tracefs_hist_echo_cmd %d", cmd);
	trace_seq_terminate(&seq);
	printf("-- %s\n", seq.buffer);
	trace_seq_destroy(&seq);
}

static int do_hist(struct tep_handle *tep)
{
	struct tracefs_hist *hist;

	hist = tracefs_hist_alloc(tep, "sched", "sched_waking", "pid",
				  TRACEFS_HIST_KEY_NORMAL);
	if (!hist) {
		fail("tracefs_hist_alloc");
		return 1;
	}
	if (tracefs_hist_add_key(hist, "comm", TRACEFS_HIST_KEY_NORMAL) ||
	    tracefs_hist_add_value(hist, "prio") ||
	    tracefs_hist_add_sort_key(hist, "pid") ||
	    tracefs_hist_sort_key_direction(hist, "pid",
					    TRACEFS_HIST_SORT_DESCENDING) ||
	    tracefs_hist_append_filter(hist, TRACEFS_FILTER_COMPARE, "pid",
				       TRACEFS_COMPARE_GT, "100000"))
		fail("building the histogram");

	echo_hist(hist, TRACEFS_HIST_CMD_START);
	if (tracefs_hist_start(NULL, hist)) {
		char *log = tracefs_error_last(NULL);

		fail("tracefs_hist_start: %s", log ? log : "");
		free(log);
	}
	show("events/sched/sched_waking/trigger", 1);
	waking("zz_a", 100001, 120);
	waking("zz_b", 100002, 100);
	waking("zz_a", 100001, 110);
	waking("yy_c", 3, 120);
	show("events/sched/sched_waking/hist", 0);

	if (tracefs_hist_pause(NULL, hist))
		fail("tracefs_hist_pause");
	waking("zz_a", 100001, 120);
	show("events/sched/sched_waking/trigger", 1);
	if (tracefs_hist_continue(NULL, hist))
		fail("tracefs_hist_continue");
	waking("zz_b", 100002, 1);
	show("events/sched/sched_waking/hist", 0);

	if (tracefs_hist_reset(NULL, hist))
		fail("tracefs_hist_reset");
	waking("zz_d", 100004, 7);
	show("events/sched/sched_waking/hist", 0);

	echo_hist(hist, TRACEFS_HIST_CMD_DESTROY);
	if (tracefs_hist_destroy(NULL, hist))
		fail("tracefs_hist_destroy");
	show("events/sched/sched_waking/trigger", 1);
	tracefs_hist_free(hist);
	return failed;
}

static const char sql[] =
	"SELECT start.pid AS pid, end.next_prio AS prio, "
	"(end.TIMESTAMP_USECS - start.TIMESTAMP_USECS) AS lat "
	"FROM sched.sched_waking AS start JOIN sched.sched_switch AS end "
	"ON start.pid = end.next_pid WHERE start.pid > 100000";

static void switch_to(const char *comm, int pid, int prio)
{
	char buf[192];

	snprintf(buf, sizeof(buf),
		 "prev_comm=\"swapper\" prev_pid=0 prev_prio=120 prev_state=0 next_comm=\"%s\" next_pid=%d next_prio=%d",
		 comm, pid, prio);
	put("events/sched/sched_switch/inject", buf);
}

static int do_sql(struct tep_handle *tep)
{
	struct tracefs_synth *synth;
	struct trace_seq seq;
	char *err = NULL;

	synth = tracefs_sql(tep, "zz_wlat", sql, &err);
	if (!synth) {
		fail("tracefs_sql: %s", err ? err : "(no message)");
		free(err);
		return 1;
	}
	trace_seq_init(&seq);
	if (tracefs_synth_echo_cmd(&seq, synth))
		fail("tracefs_synth_echo_cmd");
	trace_seq_terminate(&seq);
	printf("-- %s", seq.buffer);
	trace_seq_destroy(&seq);

	if (tracefs_synth_create(synth)) {
		char *log = tracefs_error_last(NULL);

		fail("tracefs_synth_create: %s", log ? log : "");
		free(log);
	}
	show("synthetic_events", 1);
	show("events/sched/sched_waking/trigger", 1);
	show("events/sched/sched_switch/trigger", 1);

	/* the synthetic event's own histogram: one entry per wakeup ended */
	add("events/synthetic/zz_wlat/trigger",
	    "hist:keys=pid,prio:vals=hitcount:sort=pid");
	waking("zz_a", 100011, 120);
	waking("yy_b", 12, 120);
	waking("zz_c", 100013, 120);
	switch_to("zz_a", 100011, 99);
	switch_to("yy_b", 12, 98);
	switch_to("zz_c", 100013, 97);
	switch_to("zz_c", 100013, 97);
	show("events/synthetic/zz_wlat/hist", 0);
	add("events/synthetic/zz_wlat/trigger",
	    "!hist:keys=pid,prio:vals=hitcount:sort=pid");
	show("events/synthetic/zz_wlat/trigger", 1);

	if (tracefs_synth_destroy(synth))
		fail("tracefs_synth_destroy");
	show("synthetic_events", 1);
	show("events/sched/sched_waking/trigger", 1);
	show("events/sched/sched_switch/trigger", 1);
	tracefs_synth_free(synth);
	return failed;
}

int main(int argc, char **argv)
{
	const char * const systems[] = { "sched", "synthetic", NULL };
	struct tep_handle *tep;
	int ret;

	if (argc != 2 || (strcmp(argv[1], "hist") && strcmp(argv[1], "sql"))) {
		fprintf(stderr, "usage: tracefs-client hist|sql\n");
		return 2;
	}
	tep = tracefs_local_events_system(NULL, systems);
	if (!tep) {
		fprintf(stderr, "tracefs-client: cannot load the sched events\n");
		return 1;
	}
	ret = strcmp(argv[1], "hist") ? do_sql(tep) : do_hist(tep);
	tep_free(tep);
	return ret;
}
