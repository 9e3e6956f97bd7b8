// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for latency_hist/: what the preemptoff, irqsoff and
 * preemptirqsoff histograms count, from sections the test makes itself.
 *
 * Included by trace_latency_hist.c (CONFIG_LATENCY_HIST_KUNIT_TEST): the
 * test drives the group and reads the histograms as the files do.  Each
 * kind of section is made LHK_N times on one CPU with lengths no other
 * section of the test has, and that CPU's samples in a window from each
 * length must be exactly LHK_N, in one of LHK_ROUNDS rounds: a
 * preemptirqsoff section is the time during which preemption and
 * interrupts are both disabled, never the time during which either one
 * is.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/irqflags.h>
#include <linux/preempt.h>
#include <linux/trace_clock.h>
#include <linux/workqueue.h>

#define LHK_N		4
/*
 * Rounds a measurement disturbed by the kernel's own sections, or by the
 * emulator's host, may take; LHK_PAUSE ms apart, so that a disturbance
 * lasting a while does not spoil every round
 */
#define LHK_ROUNDS	6
#define LHK_PAUSE	300
/*
 * Microseconds a section may take beyond what it waits: the triggers'
 * own work on the enabling event (the DEBUG kernel under emulation is
 * slow) and, where only preemption is off, interrupts.
 */
#define LHK_SLACK	1400

static struct lh_hist *lhk_hist(struct kunit *test, const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lh_hists); i++)
		if (!strcmp(lh_hists[i].name, name))
			return &lh_hists[i];
	KUNIT_FAIL(test, "no histogram %s", name);
	return NULL;
}

/* @h on @cpu, as its CPUx file shows it */
static struct lh_summary *lhk_summary(struct kunit *test, struct lh_hist *h,
				      int cpu)
{
	struct lh_summary *s;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	s->cpu = cpu;
	mutex_lock(&lh_mutex);
	lh_trig_walk(h->group, h->hist_trig, cpu, lh_fold, s);
	mutex_unlock(&lh_mutex);
	return s;
}

/*
 * Samples of @h on @cpu of @lo to @hi - 1 microseconds; @hi above the
 * buckets counts those beyond them too.
 */
static u64 lhk_count(struct kunit *test, struct lh_hist *h, int cpu,
		     s64 lo, s64 hi)
{
	struct lh_summary *s = lhk_summary(test, h, cpu);
	u64 n = 0;
	s64 us;

	for (us = max_t(s64, lo, 0); us < min_t(s64, hi, LH_BUCKETS); us++)
		n += s->buckets[us];
	if (hi > LH_BUCKETS)
		n += s->above;
	return n;
}

static int lhk_set(struct lh_group *g, unsigned long on)
{
	int ret;

	mutex_lock(&lh_mutex);
	ret = lh_enable_set(g, on);
	mutex_unlock(&lh_mutex);
	return ret;
}

/*
 * At the end of a test, even one that stopped half-way: every group
 * disabled, every task followed again, so that nothing a test made
 * stays for the tests after it (ftracetest's reset cannot delete a
 * synthetic event the groups still use).
 */
static void lhk_all_off(void *unused)
{
	unsigned int i;

	mutex_lock(&lh_mutex);
	for (i = 0; i < LH_N_GROUPS; i++)
		if (lh_groups[i].name)
			lh_enable_set(&lh_groups[i], 0);
	lh_pid_set(NULL, 0);
	mutex_unlock(&lh_mutex);
}

static void lhk_put_file(void *file)
{
	trace_put_event_file(file);
}

/*
 * Busy-wait @us microseconds; the sections are atomic, so no sleeping.
 * In steps, as udelay() takes a bounded argument on some architectures.
 */
static void lhk_busy(unsigned int us)
{
	unsigned int step;

	while (us) {
		step = min(us, 100U);
		udelay(step);
		us -= step;
	}
}

/* Both disabled for 4000us, preemption first. */
static void lhk_both(void)
{
	preempt_disable();
	local_irq_disable();
	lhk_busy(4000);
	local_irq_enable();
	preempt_enable();
}

/* Preemption off for 7000us, interrupts also off for 1000us of it. */
static void lhk_irqs_inside(void)
{
	preempt_disable();
	lhk_busy(3000);
	local_irq_disable();
	lhk_busy(1000);
	local_irq_enable();
	lhk_busy(3000);
	preempt_enable();
}

/* Interrupts off for 7000us, preemption also off for 2500us of it. */
static void lhk_preempt_inside(void)
{
	unsigned long flags;

	local_irq_save(flags);
	lhk_busy(2250);
	preempt_disable();
	lhk_busy(2500);
	preempt_enable();
	lhk_busy(2250);
	local_irq_restore(flags);
}

/*
 * The smallest step of the clock the group's timestamps take
 * (trace_clock_global(), the hist triggers' default) seen in 8 steps,
 * U64_MAX if it stands still for 30 ms.  Each step is timed from one
 * change of the clock to the next (an interrupt may stretch one, not all
 * of them).  Where the kernel never calibrated the TSC, sched_clock()
 * counts in jiffies, and sections of 1 to 7 ms all come out as 0 or a
 * tick.
 */
static u64 lhk_clock_step(void)
{
	u64 prev, t = 0, step = U64_MAX;
	unsigned int i, n;

	prev = trace_clock_global();
	for (n = 0; n <= 8; n++) {
		for (i = 0; i < 30000; i++) {
			lhk_busy(1);
			t = trace_clock_global();
			if (t != prev)
				break;
		}
		if (i == 30000)
			return U64_MAX;
		/* the first change only starts the count */
		if (n)
			step = min(step, t - prev);
		prev = t;
	}
	return step;
}

/* @want samples of @hist, from @lo to @hi - 1 microseconds */
struct lhk_window {
	const char	*hist;
	s64		lo;
	s64		hi;
	u64		want;
	const char	*what;
};

/*
 * A section that waits N microseconds is looked for from N - 1% (udelay()
 * may end that early) to N + LHK_SLACK, or on without an end where
 * interrupts off around triggers or interrupts may stretch it.
 */
static void lhk_test_sections(struct kunit *test)
{
	static const struct lhk_window windows[] = {
		{ "preemptirqsoff", 990, 1000 + LHK_SLACK, LHK_N, "interrupts off inside" },
		{ "preemptirqsoff", 2475, 2500 + LHK_SLACK, LHK_N, "preemption off inside" },
		{ "preemptirqsoff", 3960, 4000 + LHK_SLACK, LHK_N, "both off" },
		/* nothing as long as a section with either one off */
		{ "preemptirqsoff", 4000 + LHK_SLACK, LH_BUCKETS + 1, 0,
		  "longer than both off" },
		{ "irqsoff", 990, 1000 + LHK_SLACK, LHK_N, "interrupts off inside" },
		{ "irqsoff", 3960, 4000 + LHK_SLACK, LHK_N, "both off" },
		/* with the inner preempt events' triggers run inside it */
		{ "irqsoff", 6930, LH_BUCKETS + 1, LHK_N, "preemption off inside" },
		{ "preemptoff", 2475, 2500 + LHK_SLACK, LHK_N, "preemption off inside" },
		/* the interrupt pending when interrupts come back on */
		{ "preemptoff", 3960, 6930, LHK_N, "both off" },
		{ "preemptoff", 6930, LH_BUCKETS + 1, LHK_N, "interrupts off inside" },
	};
	struct trace_array *tr = top_trace_array();
	int clock_id = tr->clock_id;
	u64 got[ARRAY_SIZE(windows)];
	unsigned int i, round, bad = 0;
	struct lh_hist *pio;
	u64 step;
	struct lh_group *g;
	int cpu;

	/*
	 * Under KASAN (the DEBUG kernel), emulated, the triggers' own work
	 * and lost samples put the sections outside any window of lengths
	 * this test can tell apart.
	 */
	if (IS_ENABLED(CONFIG_KASAN))
		kunit_skip(test, "section lengths are not measurable under KASAN");

	step = lhk_clock_step();
	KUNIT_ASSERT_NE_MSG(test, step, U64_MAX,
			    "the trace clock stood still for 30 ms");
	KUNIT_ASSERT_LE_MSG(test, step, 50 * NSEC_PER_USEC,
			    "the trace clock moves in steps of %llu ns (a clock in jiffies?): sections cannot be told apart",
			    step);

	pio = lhk_hist(test, "preemptirqsoff");
	KUNIT_ASSERT_NOT_NULL(test, pio);
	g = pio->group;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, lhk_all_off, NULL), 0);
	KUNIT_ASSERT_EQ(test, lhk_set(g, 1), 0);

	/*
	 * The kernel goes on meanwhile, and a section of its own (a console
	 * line printed with interrupts off, at boot) may fall into a window:
	 * a round whose counts are not exact is done again, up to
	 * LHK_ROUNDS times.  An implementation that counts otherwise misses
	 * in every round.
	 */
	for (round = 1; round <= LHK_ROUNDS; round++) {
		/* one CPU's histograms: the other CPUs' sections are not ours */
		migrate_disable();
		cpu = raw_smp_processor_id();
		for (i = 0; i < ARRAY_SIZE(lh_hists); i++) {
			if (lh_hists[i].group != g)
				continue;
			mutex_lock(&lh_mutex);
			lh_reset_set(&lh_hists[i], 1);
			mutex_unlock(&lh_mutex);
		}
		for (i = 0; i < LHK_N; i++) {
			lhk_both();
			lhk_irqs_inside();
			lhk_preempt_inside();
		}
		migrate_enable();

		bad = 0;
		for (i = 0; i < ARRAY_SIZE(windows); i++) {
			struct lh_hist *h = lhk_hist(test, windows[i].hist);

			got[i] = h ? lhk_count(test, h, cpu, windows[i].lo,
					       windows[i].hi) : 0;
			bad += got[i] != windows[i].want;
		}
		if (!bad)
			break;
		kunit_info(test, "round %u: %u window(s) off, once more\n",
			   round, bad);
		msleep(LHK_PAUSE);
	}
	for (i = 0; i < ARRAY_SIZE(windows); i++) {
		const struct lhk_window *w = &windows[i];

		KUNIT_EXPECT_EQ_MSG(test, got[i], w->want,
				    "%s/CPU%d, %s: %lld..%lld us",
				    w->hist, cpu, w->what, w->lo, w->hi - 1);
	}
	KUNIT_EXPECT_EQ(test, lhk_set(g, 0), 0);
	/*
	 * The triggers' timestamps set the clock of the group's own
	 * instance, never the user's.
	 */
	KUNIT_EXPECT_EQ(test, tr->clock_id, clock_id);
}

/* Triggers on @system:@event of instance @instance (NULL: the top). */
static unsigned int lhk_triggers(struct kunit *test, const char *instance,
				 const char *system, const char *event)
{
	struct event_trigger_data *data;
	struct trace_event_file *file;
	unsigned int n = 0;

	file = trace_get_event_file(instance, system, event);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(file), "%s:%s in %s", system,
			       event, instance ?: "top");
	mutex_lock(&event_mutex);
	list_for_each_entry(data, &file->triggers, list)
		n++;
	mutex_unlock(&event_mutex);
	trace_put_event_file(file);
	return n;
}

/*
 * Every group runs in the instance of its own: enabling and disabling
 * it leave the top instance's clock and trigger files alone.
 */
static void lhk_test_instance(struct kunit *test)
{
	struct trace_array *top = top_trace_array();
	int clock_id = top->clock_id;
	struct lh_group *g;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, lhk_all_off, NULL), 0);
	for (i = 0; i < LH_N_GROUPS; i++) {
		const struct lh_trig_def *last;

		g = &lh_groups[i];
		if (!g->name)
			continue;
		/* the last trigger made: at the end of the chain */
		last = &g->defs[g->n_defs - 1];
		KUNIT_ASSERT_EQ_MSG(test, lhk_set(g, 1), 0, "%s", g->name);
		KUNIT_ASSERT_NOT_NULL(test, lh_tr);
		KUNIT_EXPECT_PTR_NE(test, lh_tr, top);
		KUNIT_EXPECT_EQ_MSG(test,
				    lhk_triggers(test, NULL, last->system,
						 last->event), 0,
				    "%s: a trigger at the top", g->name);
		KUNIT_EXPECT_GT_MSG(test,
				    lhk_triggers(test, LH_INSTANCE, last->system,
						 last->event), 0,
				    "%s: no trigger in the instance", g->name);
		KUNIT_EXPECT_EQ(test, top->clock_id, clock_id);
		KUNIT_EXPECT_EQ_MSG(test, lhk_set(g, 0), 0, "%s", g->name);
		KUNIT_EXPECT_EQ_MSG(test,
				    lhk_triggers(test, LH_INSTANCE, last->system,
						 last->event), 0,
				    "%s: a trigger left", g->name);
	}
	KUNIT_EXPECT_EQ(test, top->clock_id, clock_id);
}

struct lhk_inject {
	struct trace_event_file	*file;
	u64			lat;	/* biased ns */
	u64			step;	/* added after each sample */
	unsigned int		n;
};

/* Trace @n lathist_wakeup samples on this CPU (run by work_on_cpu()). */
static long lhk_inject_here(void *arg)
{
	struct lhk_inject *in = arg;
	unsigned int i;
	long ret = 0;

	for (i = 0; i < in->n && !ret; i++)
		ret = synth_event_trace(in->file, 5, (u64)1, (u64)0,
					(u64)(unsigned long)"lhk", (u64)1,
					in->lat + i * in->step);
	return ret;
}

struct lhk_range {
	unsigned int	lo, hi;
	unsigned int	entries, outside;
};

static void lhk_range_one(struct hist_data *hd, struct tracing_map_elt *elt,
			  void *arg)
{
	struct lhk_range *r = arg;
	u64 cpu = hist_elt_key(hd, elt, 0);

	r->entries++;
	r->outside += cpu < r->lo || cpu >= r->hi;
}

/*
 * The wakeup group with no task followed (wakeup/pid set to one that
 * cannot exist), so that only the samples the test traces into
 * lathist_wakeup are counted; @shard_cpus CPUs per buckets trigger.
 */
static struct trace_event_file *lhk_wakeup_quiet(struct kunit *test,
						 unsigned int shard_cpus)
{
	struct lh_group *g = &lh_groups[LH_G_WAKEUP];
	unsigned int saved = lh_shard_cpus;
	struct trace_event_file *file;
	int ret;

	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, lhk_all_off, NULL), 0);
	mutex_lock(&lh_mutex);
	/* a layout is only made for a group that does not exist */
	ret = lh_group_present(g) ? -EBUSY : lh_pid_set(NULL, PID_MAX_LIMIT);
	lh_shard_cpus = shard_cpus;
	if (!ret)
		ret = lh_enable_set(g, 1);
	lh_shard_cpus = saved;
	mutex_unlock(&lh_mutex);
	KUNIT_ASSERT_EQ(test, ret, 0);
	file = trace_get_event_file(LH_INSTANCE, "synthetic", "lathist_wakeup");
	KUNIT_ASSERT_FALSE(test, IS_ERR(file));
	/* put before the group is disabled: the reference keeps the event */
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, lhk_put_file, file), 0);
	return file;
}

static void lhk_wakeup_done(struct kunit *test, struct trace_event_file *file)
{
	kunit_release_action(test, lhk_put_file, file);
	mutex_lock(&lh_mutex);
	KUNIT_EXPECT_EQ(test, lh_enable_set(&lh_groups[LH_G_WAKEUP], 0), 0);
	KUNIT_EXPECT_EQ(test, lh_pid_set(NULL, 0), 0);
	mutex_unlock(&lh_mutex);
}

/*
 * With more CPUs than a map holds the buckets of, each histogram's
 * buckets are kept by one trigger per range of CPUs.  One CPU per range
 * here: every CPU's samples must land in its own trigger, and the CPUx
 * files must still count them exactly.
 */
static void lhk_test_shards(struct kunit *test)
{
	struct lh_hist *hists[] = { lhk_hist(test, "wakeup"),
				    lhk_hist(test, "sharedprio") };
	struct lh_group *g = &lh_groups[LH_G_WAKEUP];
	struct trace_event_file *file;
	unsigned int i, n, cpu;
	struct lh_trig *t;
	char *want;

	KUNIT_ASSERT_NOT_NULL(test, hists[0]);
	KUNIT_ASSERT_NOT_NULL(test, hists[1]);
	file = lhk_wakeup_quiet(test, 1);

	t = lh_def_trigs(g, hists[0]->hist_trig, &n);
	KUNIT_EXPECT_EQ(test, n, nr_cpu_ids);
	want = kunit_kzalloc(test, 256, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, want);
	snprintf(want, 256, "common_cpu >= 1 && common_cpu < 2 && (%s)",
		 g->defs[hists[0]->hist_trig].filter);
	if (n > 1)
		KUNIT_EXPECT_STREQ(test, t[1].filter, want);
	/* the others are whole */
	lh_def_trigs(g, hists[0]->max_trig, &n);
	KUNIT_EXPECT_EQ(test, n, 1);

	/* CPU c: c + 1 samples of c + 3 microseconds */
	for_each_online_cpu(cpu) {
		struct lhk_inject in = {
			.file = file,
			.lat = LH_BIAS + (cpu + 3) * NSEC_PER_USEC + 500,
			.n = cpu + 1,
		};

		KUNIT_EXPECT_EQ(test, work_on_cpu(cpu, lhk_inject_here, &in), 0);
	}
	for (i = 0; i < ARRAY_SIZE(hists); i++) {
		for_each_online_cpu(cpu) {
			struct lh_hist *h = hists[i];
			u64 at, all;

			at = lhk_count(test, h, cpu, cpu + 3, cpu + 4);
			all = lhk_count(test, h, cpu, -1, LH_BUCKETS + 1);
			KUNIT_EXPECT_EQ_MSG(test, at, cpu + 1, "%s/CPU%u",
					    h->name, cpu);
			KUNIT_EXPECT_EQ_MSG(test, all, cpu + 1, "%s/CPU%u",
					    h->name, cpu);
		}
		/* each trigger has its own CPU's entry, and only that */
		for (t = lh_def_trigs(g, hists[i]->hist_trig, &n); n; n--, t++) {
			struct lhk_range r = {
				.lo = t->cpu_lo,
				.hi = t->cpu_hi ?: nr_cpu_ids,
			};
			struct trace_event_file *f = lh_file(t);

			KUNIT_ASSERT_FALSE(test, IS_ERR(f));
			mutex_lock(&lh_mutex);
			KUNIT_EXPECT_EQ(test, hist_kernel_walk(f, t, lhk_range_one,
							       &r), 0);
			mutex_unlock(&lh_mutex);
			trace_put_event_file(f);
			KUNIT_EXPECT_EQ(test, r.outside, 0);
			KUNIT_EXPECT_EQ(test, r.entries,
					cpu_online(t->cpu_lo) ? 1 : 0);
		}
	}
	lhk_wakeup_done(test, file);
}

/* Count the entries of one CPU (lh_trig_walk() callback). */
static void lhk_entries_one(struct hist_data *hd, struct tracing_map_elt *elt,
			    void *arg)
{
	struct lhk_range *r = arg;

	r->entries += hist_elt_key(hd, elt, 0) == r->lo;
}

/*
 * A histogram has room for every latency: however many distinct ones lie
 * beyond the buckets, they are one entry, none is dropped, and their
 * count, extremes and sum are exact.
 */
static void lhk_test_outliers(struct kunit *test)
{
	struct lh_hist *wk = lhk_hist(test, "wakeup");
	struct lh_group *g = &lh_groups[LH_G_WAKEUP];
	const unsigned int above = 5000;
	struct trace_event_file *file;
	struct lhk_range r = { };
	struct lh_summary *s;
	struct lhk_inject in;
	s64 sum;
	int cpu;

	KUNIT_ASSERT_NOT_NULL(test, wk);
	file = lhk_wakeup_quiet(test, lh_shard_cpus);
	cpu = cpumask_first(cpu_online_mask);

	/* 10240, 10241, ... microseconds */
	in = (struct lhk_inject){ .file = file, .n = above,
		.lat = LH_BIAS + LH_BUCKETS * NSEC_PER_USEC,
		.step = NSEC_PER_USEC };
	KUNIT_EXPECT_EQ(test, work_on_cpu(cpu, lhk_inject_here, &in), 0);
	/* three of -3 microseconds, two of 7.5 */
	in = (struct lhk_inject){ .file = file, .n = 3,
		.lat = LH_BIAS - 3 * NSEC_PER_USEC };
	KUNIT_EXPECT_EQ(test, work_on_cpu(cpu, lhk_inject_here, &in), 0);
	in = (struct lhk_inject){ .file = file, .n = 2,
		.lat = LH_BIAS + 7 * NSEC_PER_USEC + 500 };
	KUNIT_EXPECT_EQ(test, work_on_cpu(cpu, lhk_inject_here, &in), 0);

	/* the outliers above, those below, the bucket of 7 microseconds */
	r.lo = cpu;
	mutex_lock(&lh_mutex);
	KUNIT_EXPECT_EQ(test, lh_trig_drops(g, wk->hist_trig), 0);
	lh_trig_walk(g, wk->hist_trig, cpu, lhk_entries_one, &r);
	mutex_unlock(&lh_mutex);
	KUNIT_EXPECT_EQ(test, r.entries, 3);
	s = lhk_summary(test, wk, cpu);
	KUNIT_EXPECT_EQ(test, s->total, above + 5);
	KUNIT_EXPECT_EQ(test, s->above, above);
	KUNIT_EXPECT_EQ(test, s->below, 3);
	KUNIT_EXPECT_EQ(test, s->buckets[7], 2);
	KUNIT_EXPECT_EQ(test, s->min, -3);
	KUNIT_EXPECT_EQ(test, s->max, LH_BUCKETS + above - 1);
	sum = (s64)above * LH_BUCKETS + (s64)above * (above - 1) / 2 - 9 + 14;
	KUNIT_EXPECT_EQ(test, s->sum, sum);

	/* reset empties it */
	mutex_lock(&lh_mutex);
	lh_reset_set(wk, 1);
	mutex_unlock(&lh_mutex);
	s = lhk_summary(test, wk, cpu);
	KUNIT_EXPECT_EQ(test, s->total, 0);
	lhk_wakeup_done(test, file);
}

static struct kunit_case latency_hist_test_cases[] = {
	KUNIT_CASE(lhk_test_instance),
	KUNIT_CASE(lhk_test_shards),
	KUNIT_CASE(lhk_test_outliers),
	KUNIT_CASE(lhk_test_sections),
	{}
};

static struct kunit_suite latency_hist_test_suite = {
	.name = "latency_hist",
	.test_cases = latency_hist_test_cases,
};

kunit_test_suite(latency_hist_test_suite);
