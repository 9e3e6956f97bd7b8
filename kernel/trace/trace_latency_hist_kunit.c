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

#define LHK_N		4
/* rounds a measurement disturbed by the kernel's own sections may take */
#define LHK_ROUNDS	3
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

/*
 * Samples of @h on @cpu of @lo to @hi - 1 microseconds; @hi above the
 * buckets counts those beyond them too.
 */
static u64 lhk_count(struct kunit *test, struct lh_hist *h, int cpu,
		     s64 lo, s64 hi)
{
	struct lh_summary *s;
	u64 n = 0;
	s64 us;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	s->cpu = cpu;
	mutex_lock(&lh_mutex);
	lh_trig_walk(h->group, h->hist_trig, lh_fold, s);
	lh_trig_walk(h->group, h->out_trig, lh_fold, s);
	mutex_unlock(&lh_mutex);
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
	struct lh_group *g;
	int cpu;

	/*
	 * Under KASAN (the DEBUG kernel), emulated, the triggers' own work
	 * and lost samples put the sections outside any window of lengths
	 * this test can tell apart.
	 */
	if (IS_ENABLED(CONFIG_KASAN))
		kunit_skip(test, "section lengths are not measurable under KASAN");

	pio = lhk_hist(test, "preemptirqsoff");
	KUNIT_ASSERT_NOT_NULL(test, pio);
	g = pio->group;
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
	}
	for (i = 0; i < ARRAY_SIZE(windows); i++) {
		const struct lhk_window *w = &windows[i];

		KUNIT_EXPECT_EQ_MSG(test, got[i], w->want,
				    "%s/CPU%d, %s: %lld..%lld us",
				    w->hist, cpu, w->what, w->lo, w->hi - 1);
	}
	KUNIT_EXPECT_EQ(test, lhk_set(g, 0), 0);
	/*
	 * The triggers switched the top instance to the global clock, as
	 * hist triggers with timestamps do; at boot it is the first clock,
	 * local, which the tests after this one expect.
	 */
	if (!clock_id && tr->clock_id)
		KUNIT_EXPECT_EQ(test, tracing_set_clock(tr, "local"), 0);
}

static struct kunit_case latency_hist_test_cases[] = {
	KUNIT_CASE(lhk_test_sections),
	{}
};

static struct kunit_suite latency_hist_test_suite = {
	.name = "latency_hist",
	.test_cases = latency_hist_test_cases,
};

kunit_test_suite(latency_hist_test_suite);
