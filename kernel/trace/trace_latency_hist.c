// SPDX-License-Identifier: GPL-2.0
/*
 * latency_hist/: the latency histograms of the old -rt patch, built on
 * hist triggers.
 *
 * Design
 * ------
 * Every histogram here is an ordinary hist trigger on a synthetic event,
 * and every latency is computed by ordinary hist triggers on the kernel's
 * own events: a start event saves a timestamp in a variable, the end
 * event computes the difference and onmatch().trace()s it into the
 * synthetic event.  The triggers are written by this file through the
 * same parser that reads a user's trigger text (hist_kernel_add()), so
 * they show up in the events' trigger files and can be read, copied and
 * taken apart by anyone.  Nothing here aggregates on the hot path.
 *
 * A histogram is one trigger keyed on the CPU and the latency in
 * buckets of one microsecond from 0 to 10,239, with one entry each for
 * all latencies below and above them (".buckets=1000@LO~HI"), whose
 * exact minimum, maximum and sum are kept as values.  When a CPUx file
 * is opened the entries of that CPU are folded into the reference's
 * format: the buckets, the samples outside them, minimum, average and
 * maximum.  The onmax() triggers keep,
 * per CPU, the task that suffered the highest latency (max_latency-CPUx).
 *
 * Latencies are whole microseconds, rounded down.  A hist expression
 * cannot divide a difference (it has no parentheses), so the synthetic
 * events carry nanoseconds and the histogram key is "lat.buckets=1000".
 * Every start value is stored minus LH_BIAS, so the end's difference is
 * the latency plus LH_BIAS: a latency below zero (a timer that ran early,
 * a wakeup timed by two CPUs' clocks) stays a positive number, which the
 * buckets round down like any other and onmax(), comparing unsigned
 * numbers, orders correctly.  The files subtract the bias again.
 *
 * Three switches in enable/ create or remove whole groups:
 *
 * preemptirqsoff: preemptoff, irqsoff and preemptirqsoff, from the
 *	preemptirq events.  A preemptirqsoff section is the time during
 *	which interrupts and preemption are both disabled: it starts when
 *	the second of the two is disabled (an irq_disable with preemption
 *	off, a preempt_disable with interrupts off) and ends when the first
 *	of them is enabled again (an irq_enable with preemption still off,
 *	a preempt_enable with interrupts still off), so it is never longer
 *	than the irqsoff and preemptoff sections around it.  "Preemption
 *	off" is read from the event's common_preempt_count and common_flags.
 *	Entering idle (power:cpu_idle) drops the sections in flight, as
 *	stop_critical_timings() does for the tracers.
 * wakeup: sched_wakeup or sched_wakeup_new (a new task) to the
 *	sched_switch that runs the task; a task switched out before that
 *	(it was woken while still running) loses its start.  Without
 *	wakeup/pid only real-time tasks (prio < 100) are followed, with it
 *	only that task.  wakeup/sharedprio counts every such wakeup; wakeup/
 *	counts those where the task switched out had a lower priority than
 *	the woken one, i.e. the woken task did not have to wait for a task
 *	of its own priority.
 * missed_timer_offsets: how late an hrtimer ran: hrtimer_start's expiry
 *	against the time hrtimer_expire_entry ran it.  Every hrtimer is
 *	counted, but only if it ran after its expiry; one that ran early,
 *	inside its slack, is not a missed timer and is not entered.  For
 *	hrtimer_wakeup() timers the task that the timer woke (the next
 *	sched_waking on that CPU) is the one kept in max_latency-CPUx.
 *
 * A histogram's map has room for all of its entries on every CPU (more
 * CPUs than one map holds: one trigger per range of CPUs), so that no
 * sample is ever refused.
 *
 * Instance: the groups run in an instance of their own, "latency_hist"
 * (instances/latency_hist/), made when a group is first enabled and kept
 * until the kernel stops, with only the event systems the groups use.
 * Its events, trigger files, clock and buffer are the groups' alone: the
 * triggers with timestamps switch that instance's clock, not the user's,
 * and a user who clears the top instance's trigger files or buffer does
 * not touch the groups.  The events only feed triggers, so its buffer is
 * shrunk to the smallest size.  If a user made an instance of that name
 * first, enabling fails with -EBUSY rather than fill the user's one.
 *
 * Lifetime: the triggers are found again by an owner cookie (the address
 * of their struct lh_trig), never by text, and the events are looked up
 * for each operation rather than pinned.  A trigger a user removed is
 * simply missing; a user's trigger that refers to one of ours makes
 * disabling stop at that one (-EBUSY), leaving a working part of the
 * group that enabling completes and disabling finishes later.  A group
 * reads as enabled while any part of it exists.
 *
 * Locking: lh_mutex serialises the files of this directory; under it the
 * hist and synthetic event code take event_mutex.
 */

#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/threads.h>
#include <linux/sched/prio.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include <linux/tracefs.h>
#include <linux/uaccess.h>

#include "trace.h"
#include "trace_hist.h"

#define LH_BUCKETS	10240		/* one per microsecond */
/* ns added to every latency: "start-1000000000000" in the triggers */
#define LH_BIAS		1000000000000LL
#define LH_SAVED	4		/* save(pid,prio,comm,lat) */
/*
 * A histogram: per CPU, the 10,240 buckets of one microsecond (biased),
 * one entry for all latencies below them and one for all above, where
 * the exact extremes and sum of those are kept as values: at most
 * LH_BUCKETS + 2 entries per CPU, so that its map never fills.
 */
#define LH_HIST		"keys=common_cpu,lat.buckets=1000@1000000000000~1000010240000:vals=hitcount,lat.min,lat.max,lat:size=%u"
#define LH_ENTRIES	(LH_BUCKETS + 2)	/* per CPU */
#define LH_VALS		4			/* hitcount, min, max, sum */
/* missed timers: only those run after their expiry */
#define LH_LATE		"lat > 1000000000000"

/* How large a trigger's map must be. */
enum lh_size {
	LH_SZ_HIST,	/* CPUs x (buckets + below + above) */
	LH_SZ_CPU,	/* one entry per CPU */
	LH_SZ_TASK,	/* tasks followed by wakeup */
	LH_SZ_TIMER,	/* hrtimers armed */
};

struct lh_trig_def {
	const char	*system;
	const char	*event;
	const char	*param;		/* with one %u: the map size */
	enum lh_size	size;
	const char	*filter;	/* or NULL */
	/*
	 * wakeup/pid: "<pid_field> == pid", else "<prio_field> < 100"; with
	 * no prio_field, no filter but the pid's: a trigger that only takes
	 * a start away must do so whatever the task's priority is now
	 */
	const char	*pid_field;
	const char	*prio_field;
	/* of the previous def's name=: its map, counted there */
	bool		shares_map;
};

/*
 * A trigger of the group: of one def, or of one range of CPUs of a
 * buckets def.  Its address is the owner cookie of hist_kernel_*().
 */
struct lh_trig {
	const struct lh_trig_def	*def;
	unsigned int			cpu_lo;	/* CPUs cpu_lo..cpu_hi - 1 */
	unsigned int			cpu_hi;	/* 0: every CPU */
	char				*param;
	char				*filter;
	bool				added;
};

struct lh_group {
	const char			*name;
	const char * const		*synths;	/* "name fields" */
	unsigned int			n_synths;
	const struct lh_trig_def	*defs;
	unsigned int			n_defs;
	struct lh_trig			*trigs;		/* in def order */
	unsigned int			n_trigs;
	unsigned int			*first;		/* each def's first */
	bool				*created;
};

/* One histogram directory; its triggers are named by their defs. */
struct lh_hist {
	const char	*name;
	int		parent;		/* index in lh_hists, or -1 */
	struct lh_group	*group;
	unsigned int	hist_trig;	/* its def */
	int		max_trig;	/* its onmax() def, or -1 */
	struct dentry	*dir;
};

struct lh_cpu_file {
	struct lh_hist	*hist;
	unsigned int	cpu;
};

static DEFINE_MUTEX(lh_mutex);
static pid_t lh_wakeup_pid;
/*
 * CPUs per buckets trigger: as many as the largest map holds every
 * bucket of.  With more CPUs a histogram's buckets are kept by several
 * triggers, each filtered on its range of CPUs, so none can fill up.
 * Changed by the KUnit test only, while the group does not exist.
 */
static unsigned int lh_shard_cpus = (1U << TRACING_MAP_BITS_MAX) / LH_ENTRIES;

#define LH_INSTANCE	"latency_hist"
#define LH_SYSTEMS	"preemptirq,sched,timer,power,synthetic"
/* ours once made, with a reference that keeps users from removing it */
static struct trace_array *lh_tr;

#define HIST_ON(ev)	"synthetic", ev

/* ---- preemptirqsoff ---- */

#if defined(CONFIG_TRACE_IRQFLAGS) && defined(CONFIG_TRACE_PREEMPT_TOGGLE)
#define LH_PREEMPTIRQ 1

/*
 * Preemption disabled when the event fired: by preempt_disable(), or in
 * softirq, hardirq or NMI context, or with bottom halves off; the upper
 * half of common_preempt_count is migrate_disable()'s count.
 */
#define LH_PREEMPT_OFF	"(common_preempt_count & 15) || (common_flags & 216)"
#define LH_IRQS_OFF	"common_flags & 1"
#define LH_IDLE		"state != 4294967295"	/* not PWR_EVENT_EXIT */
#define LH_PIOFF_START	"name=lh_pioff_start:keys=common_cpu:lh_pioff_t0=common_timestamp-1000000000000:size=%u"

static const char * const lh_pirq_synths[] = {
	"lathist_preemptoff u64 lat",
	"lathist_irqsoff u64 lat",
	"lathist_preemptirqsoff u64 lat",
};

static const struct lh_trig_def lh_pirq_defs[] = {
	{ HIST_ON("lathist_preemptoff"), LH_HIST, LH_SZ_HIST },
	{ HIST_ON("lathist_irqsoff"), LH_HIST, LH_SZ_HIST },
	{ HIST_ON("lathist_preemptirqsoff"), LH_HIST, LH_SZ_HIST },
	/* preemptoff, irqsoff: from disable to enable */
	{ "preemptirq", "preempt_disable",
	  "keys=common_cpu:lh_poff_t0=common_timestamp-1000000000000:size=%u",
	  LH_SZ_CPU },
	{ "preemptirq", "irq_disable",
	  "keys=common_cpu:lh_ioff_t0=common_timestamp-1000000000000:size=%u",
	  LH_SZ_CPU },
	{ "preemptirq", "preempt_enable",
	  "keys=common_cpu:lh_poff_lat=common_timestamp-$lh_poff_t0:size=%u:onmatch(preemptirq.preempt_disable).trace(lathist_preemptoff,$lh_poff_lat)",
	  LH_SZ_CPU },
	{ "preemptirq", "irq_enable",
	  "keys=common_cpu:lh_ioff_lat=common_timestamp-$lh_ioff_t0:size=%u:onmatch(preemptirq.irq_disable).trace(lathist_irqsoff,$lh_ioff_lat)",
	  LH_SZ_CPU },
	/*
	 * preemptirqsoff: from the second of the two disabled (two triggers
	 * of one name, sharing one map and so the variable) ...
	 */
	{ "preemptirq", "irq_disable", LH_PIOFF_START, LH_SZ_CPU,
	  LH_PREEMPT_OFF },
	{ "preemptirq", "preempt_disable", LH_PIOFF_START, LH_SZ_CPU,
	  LH_IRQS_OFF, NULL, NULL, true },
	/* ... to the first of the two enabled again */
	{ "preemptirq", "irq_enable",
	  "keys=common_cpu:lh_pioff_l1=common_timestamp-preemptirq.irq_disable.$lh_pioff_t0:size=%u:onmatch(preemptirq.irq_disable).trace(lathist_preemptirqsoff,$lh_pioff_l1)",
	  LH_SZ_CPU, LH_PREEMPT_OFF },
	{ "preemptirq", "preempt_enable",
	  "keys=common_cpu:lh_pioff_l2=common_timestamp-preemptirq.irq_disable.$lh_pioff_t0:size=%u:onmatch(preemptirq.irq_disable).trace(lathist_preemptirqsoff,$lh_pioff_l2)",
	  LH_SZ_CPU, LH_IRQS_OFF },
	/*
	 * Entering idle ends every section, as stop_critical_timings() does
	 * for the latency tracers: idle disables interrupts and enables them
	 * again without the irq_enable event, and the task that scheduled
	 * the idle task disabled preemption for the next task to enable.
	 * Reading a variable in an expression consumes it; one trigger per
	 * variable, as a trigger is skipped when any of its variables is
	 * missing.
	 */
	{ "power", "cpu_idle", "keys=common_cpu:lh_idle_p=$lh_poff_t0-0:size=%u",
	  LH_SZ_CPU, LH_IDLE },
	{ "power", "cpu_idle", "keys=common_cpu:lh_idle_i=$lh_ioff_t0-0:size=%u",
	  LH_SZ_CPU, LH_IDLE },
	{ "power", "cpu_idle",
	  "keys=common_cpu:lh_idle_pi=preemptirq.irq_disable.$lh_pioff_t0-0:size=%u",
	  LH_SZ_CPU, LH_IDLE },
};
#endif

/* ---- wakeup ---- */

static const char * const lh_wakeup_synths[] = {
	"lathist_wakeup pid_t pid; int prio; char comm[16]; int prio_gap; u64 lat",
};

#define LH_WAKEUP_EXCL	"prio_gap > 0"
#define LH_WAKE_START	"name=lh_wake_start:keys=pid:lh_wake_t0=common_timestamp-1000000000000:size=%u"

static const struct lh_trig_def lh_wakeup_defs[] = {
	/* wakeup/ */
	{ HIST_ON("lathist_wakeup"), LH_HIST, LH_SZ_HIST, LH_WAKEUP_EXCL },
	{ HIST_ON("lathist_wakeup"),
	  "keys=common_cpu:lh_wake_xmax=lat:size=%u:onmax($lh_wake_xmax).save(pid,prio,comm,lat)",
	  LH_SZ_CPU, LH_WAKEUP_EXCL },
	/* wakeup/sharedprio/ */
	{ HIST_ON("lathist_wakeup"), LH_HIST, LH_SZ_HIST },
	{ HIST_ON("lathist_wakeup"),
	  "keys=common_cpu:lh_wake_smax=lat:size=%u:onmax($lh_wake_smax).save(pid,prio,comm,lat)",
	  LH_SZ_CPU },
	/*
	 * from the wakeup of a task, or the first of a new one: two
	 * triggers of one name share one map, and so the variable ...
	 */
	{ "sched", "sched_wakeup", LH_WAKE_START, LH_SZ_TASK, NULL, "pid",
	  "prio" },
	{ "sched", "sched_wakeup_new", LH_WAKE_START, LH_SZ_TASK, NULL, "pid",
	  "prio", true },
	/*
	 * ... not of one woken while it was still running (before it got
	 * to sleep): it goes off the CPU before it is switched to, and its
	 * start goes with it, at any priority (one taken while a priority
	 * boost lasted must not wait for the next one) ...
	 */
	{ "sched", "sched_switch",
	  "keys=prev_pid:lh_wake_gone=sched.sched_wakeup.$lh_wake_t0-0:size=%u",
	  LH_SZ_TASK, NULL, "prev_pid" },
	/* ... to the switch that runs it */
	{ "sched", "sched_switch",
	  "keys=next_pid:lh_wake_lat=common_timestamp-sched.sched_wakeup.$lh_wake_t0:lh_wake_gap=prev_prio-next_prio:size=%u:onmatch(sched.sched_wakeup).trace(lathist_wakeup,next_pid,next_prio,next_comm,$lh_wake_gap,$lh_wake_lat)",
	  LH_SZ_TASK, NULL, "next_pid", "next_prio" },
};

/* ---- missed_timer_offsets ---- */

static const char * const lh_timer_synths[] = {
	"lathist_timer s64 lat; unsigned long function",
	"lathist_timer_wakeup pid_t pid; int prio; char comm[16]; s64 lat",
};

static const struct lh_trig_def lh_timer_defs[] = {
	{ HIST_ON("lathist_timer"), LH_HIST, LH_SZ_HIST, LH_LATE },
	{ HIST_ON("lathist_timer_wakeup"),
	  "keys=common_cpu:lh_tmr_max=lat:size=%u:onmax($lh_tmr_max).save(pid,prio,comm,lat)",
	  LH_SZ_CPU },
	/*
	 * A late timer's offset waits, per CPU, for the wakeup it causes,
	 * which consumes it.
	 */
	{ HIST_ON("lathist_timer"), "keys=common_cpu:lh_tmr_woff=lat:size=%u",
	  LH_SZ_CPU, "function.function == hrtimer_wakeup && " LH_LATE },
	{ "sched", "sched_waking",
	  "keys=common_cpu:lh_tmr_wv=$lh_tmr_woff-0:size=%u:onmatch(synthetic.lathist_timer).trace(lathist_timer_wakeup,pid,prio,comm,$lh_tmr_wv)",
	  LH_SZ_CPU },
	{ "timer", "hrtimer_start",
	  "keys=hrtimer:lh_tmr_exp=expires-1000000000000:size=%u",
	  LH_SZ_TIMER },
	{ "timer", "hrtimer_expire_entry",
	  "keys=hrtimer:lh_tmr_off=now-$lh_tmr_exp:size=%u:onmatch(timer.hrtimer_start).trace(lathist_timer,$lh_tmr_off,function)",
	  LH_SZ_TIMER },
};

enum { LH_G_PIRQ, LH_G_WAKEUP, LH_G_TIMER, LH_N_GROUPS };

static struct lh_group lh_groups[LH_N_GROUPS] = {
#ifdef LH_PREEMPTIRQ
	[LH_G_PIRQ] = {
		.name = "preemptirqsoff",
		.synths = lh_pirq_synths,
		.n_synths = ARRAY_SIZE(lh_pirq_synths),
		.defs = lh_pirq_defs,
		.n_defs = ARRAY_SIZE(lh_pirq_defs),
	},
#endif
	[LH_G_WAKEUP] = {
		.name = "wakeup",
		.synths = lh_wakeup_synths,
		.n_synths = ARRAY_SIZE(lh_wakeup_synths),
		.defs = lh_wakeup_defs,
		.n_defs = ARRAY_SIZE(lh_wakeup_defs),
	},
	[LH_G_TIMER] = {
		.name = "missed_timer_offsets",
		.synths = lh_timer_synths,
		.n_synths = ARRAY_SIZE(lh_timer_synths),
		.defs = lh_timer_defs,
		.n_defs = ARRAY_SIZE(lh_timer_defs),
	},
};

enum { LH_H_WAKEUP = 3 };

static struct lh_hist lh_hists[] = {
	/* name, parent, group, hist_trig, max_trig */
	{ "preemptoff", -1, &lh_groups[LH_G_PIRQ], 0, -1 },
	{ "irqsoff", -1, &lh_groups[LH_G_PIRQ], 1, -1 },
	{ "preemptirqsoff", -1, &lh_groups[LH_G_PIRQ], 2, -1 },
	[LH_H_WAKEUP] = { "wakeup", -1, &lh_groups[LH_G_WAKEUP], 0, 1 },
	{ "sharedprio", LH_H_WAKEUP, &lh_groups[LH_G_WAKEUP], 2, 3 },
	{ "missed_timer_offsets", -1, &lh_groups[LH_G_TIMER], 0, 1 },
};

/* ---- creating and removing a group ---- */

/* Possible CPUs numbered @lo to @hi - 1. */
static unsigned int lh_range_cpus(unsigned int lo, unsigned int hi)
{
	unsigned int cpu, n = 0;

	for_each_possible_cpu(cpu)
		n += cpu >= lo && cpu < hi;
	return n;
}

/*
 * The entries a trigger's map needs, from the CPUs there can be: every
 * entry of a histogram (buckets, below, above) of every CPU of its range;
 * per CPU, some room for tasks and timers followed, with a floor for
 * small machines.
 */
static unsigned int lh_map_size(const struct lh_trig *t)
{
	unsigned int cpus = num_possible_cpus();
	unsigned int n;

	switch (t->def->size) {
	case LH_SZ_HIST:
		if (t->cpu_hi)
			cpus = lh_range_cpus(t->cpu_lo, t->cpu_hi);
		n = cpus * LH_ENTRIES;
		break;
	case LH_SZ_CPU:
		n = cpus * 2;
		break;
	case LH_SZ_TASK:
		n = max(8192U, cpus * 512);
		break;
	default:
		n = max(32768U, cpus * 2048);
		break;
	}
	return clamp_t(unsigned int, roundup_pow_of_two(n),
		       1U << TRACING_MAP_BITS_MIN, 1U << TRACING_MAP_BITS_MAX);
}

/* A trigger that only takes a start away: what its map drops, loses nothing. */
static bool lh_takes_only(const struct lh_trig_def *def)
{
	return def->pid_field && !def->prio_field;
}

/* Whether @t has a filter (lh_filter() returning NULL is then -ENOMEM). */
static bool lh_has_filter(const struct lh_trig *t)
{
	const struct lh_trig_def *def = t->def;

	if (def->pid_field)
		return lh_wakeup_pid || def->prio_field;
	return def->filter || t->cpu_hi;
}

static char *lh_filter(const struct lh_trig *t)
{
	const struct lh_trig_def *def = t->def;

	if (!lh_has_filter(t))
		return NULL;
	if (def->pid_field && lh_wakeup_pid)
		return kasprintf(GFP_KERNEL, "%s == %d", def->pid_field,
				 lh_wakeup_pid);
	if (def->pid_field)
		return kasprintf(GFP_KERNEL, "%s < %d", def->prio_field,
				 MAX_RT_PRIO);
	if (t->cpu_hi)
		return kasprintf(GFP_KERNEL,
				 "common_cpu >= %u && common_cpu < %u%s%s%s",
				 t->cpu_lo, t->cpu_hi,
				 def->filter ? " && (" : "",
				 def->filter ?: "", def->filter ? ")" : "");
	return def->filter ? kstrdup(def->filter, GFP_KERNEL) : NULL;
}

static char *lh_text(struct lh_trig *t)
{
	return kasprintf(GFP_KERNEL, "%s%s%s", t->param,
			 t->filter ? " if " : "", t->filter ?: "");
}

/* The triggers of def @i of @g: *@n of them from the one returned. */
static struct lh_trig *lh_def_trigs(struct lh_group *g, unsigned int i,
				    unsigned int *n)
{
	unsigned int end = i + 1 < g->n_defs ? g->first[i + 1] : g->n_trigs;

	*n = end - g->first[i];
	return &g->trigs[g->first[i]];
}

static void lh_free_trigs(struct lh_trig *trigs, unsigned int n)
{
	unsigned int i;

	for (i = 0; trigs && i < n; i++) {
		kfree(trigs[i].param);
		kfree(trigs[i].filter);
	}
	kfree(trigs);
}

/*
 * Lay out the triggers of @g: one per def, a buckets def split into
 * ranges of lh_shard_cpus CPUs.  Only while no trigger of @g exists.
 */
static int lh_group_layout(struct lh_group *g)
{
	unsigned int i, lo, n = 0, shards = 0;
	struct lh_trig *trigs, *t;

	/* the ranges with a possible CPU in them */
	for (lo = 0; lo < nr_cpu_ids; lo += lh_shard_cpus)
		shards += lh_range_cpus(lo, lo + lh_shard_cpus) > 0;
	for (i = 0; i < g->n_defs; i++)
		n += g->defs[i].size == LH_SZ_HIST ? shards : 1;
	trigs = kcalloc(n, sizeof(*trigs), GFP_KERNEL);
	if (!trigs)
		return -ENOMEM;
	t = trigs;
	for (i = 0; i < g->n_defs; i++) {
		g->first[i] = t - trigs;
		if (g->defs[i].size != LH_SZ_HIST || shards == 1) {
			t++->def = &g->defs[i];
			continue;
		}
		for (lo = 0; lo < nr_cpu_ids; lo += lh_shard_cpus) {
			if (!lh_range_cpus(lo, lo + lh_shard_cpus))
				continue;
			t->def = &g->defs[i];
			t->cpu_lo = lo;
			t->cpu_hi = min(nr_cpu_ids, lo + lh_shard_cpus);
			t++;
		}
	}
	lh_free_trigs(g->trigs, g->n_trigs);
	g->trigs = trigs;
	g->n_trigs = n;
	return 0;
}

static bool lh_on_synth(const struct lh_trig_def *def)
{
	return !strcmp(def->system, "synthetic");
}

/* A trigger that carries a measurement on, rather than keeping results. */
static bool lh_feeds(const struct lh_trig_def *def)
{
	if (!lh_on_synth(def))
		return true;
	return def->size == LH_SZ_CPU && !strstr(def->param, "onmax(");
}

/*
 * Make the instance the groups run in, or find it made.  Called under
 * lh_mutex; the reference taken is never dropped.
 */
static int lh_instance_get(void)
{
	struct trace_array *tr;

	if (lh_tr)
		return 0;
	tr = trace_array_get_by_name(LH_INSTANCE, LH_SYSTEMS);
	if (!tr)
		return -ENOMEM;
	/*
	 * An instance of that name that was there already (a user's, made
	 * by mkdir or at boot) has other event systems: not ours to fill.
	 */
	if (!tr->system_names || strcmp(tr->system_names, LH_SYSTEMS)) {
		trace_array_put(tr);
		return -EBUSY;
	}
	/* nothing is kept in it: a failure only costs memory */
	tracing_resize_ring_buffer(tr, 1, RING_BUFFER_ALL_CPUS);
	lh_tr = tr;
	return 0;
}

/*
 * The events are looked up for each operation and not pinned in between,
 * so that the group never keeps a user from removing them.  Only called
 * for a trigger that was added, so with the instance made.
 */
static struct trace_event_file *lh_file(const struct lh_trig *t)
{
	return trace_get_event_file(LH_INSTANCE, t->def->system,
				    t->def->event);
}

static int lh_trig_add(struct lh_trig *t)
{
	const struct lh_trig_def *def = t->def;
	struct trace_event_file *file;
	char *text;
	int ret;

	if (t->added)
		return 0;
	kfree(t->param);
	kfree(t->filter);
	t->param = kasprintf(GFP_KERNEL, def->param, lh_map_size(t));
	t->filter = lh_filter(t);
	if (!t->param || (!t->filter && lh_has_filter(t)))
		return -ENOMEM;
	text = lh_text(t);
	if (!text)
		return -ENOMEM;
	file = lh_file(t);
	if (IS_ERR(file)) {
		ret = PTR_ERR(file);
	} else {
		ret = hist_kernel_add(file, text, t);
		trace_put_event_file(file);
	}
	kfree(text);
	t->added = !ret;
	return ret;
}

/* Remove one trigger; it stays if a user's trigger refers to it. */
static int lh_trig_remove(struct lh_trig *t)
{
	struct trace_event_file *file;
	int ret = 0;

	if (!t->added)
		return 0;
	file = lh_file(t);
	/* no event, no trigger: a user removed the synthetic event */
	if (!IS_ERR(file)) {
		ret = hist_kernel_remove(file, t);
		trace_put_event_file(file);
	}
	if (ret)
		return ret;
	t->added = false;
	return 0;
}

/*
 * Run @fn on the entries of def @i's triggers that exist, or with no @fn
 * empty them; with @cpu not negative only those of that CPU's range.
 * Return: the triggers found.
 */
static unsigned int lh_trig_walk(struct lh_group *g, unsigned int i,
				 int cpu,
				 void (*fn)(struct hist_data *hd,
					    struct tracing_map_elt *elt,
					    void *arg),
				 void *arg)
{
	struct trace_event_file *file;
	unsigned int n, found = 0;
	struct lh_trig *t;

	for (t = lh_def_trigs(g, i, &n); n; n--, t++) {
		if (!t->added)
			continue;
		/* with @cpu not negative, only the trigger that has its entries */
		if (cpu >= 0 && t->cpu_hi && (cpu < t->cpu_lo || cpu >= t->cpu_hi))
			continue;
		file = lh_file(t);
		if (IS_ERR(file))
			continue;
		if (fn)
			found += !hist_kernel_walk(file, t, fn, arg);
		else
			found += !hist_kernel_clear(file, t);
		trace_put_event_file(file);
	}
	return found;
}

/*
 * New entries refused by the maps of def @i's triggers that exist; with
 * @found, how many of them there are.
 */
static u64 lh_trig_drops_found(struct lh_group *g, unsigned int i,
			       unsigned int *found)
{
	struct trace_event_file *file;
	u64 sum = 0, drops;
	struct lh_trig *t;
	unsigned int n;

	*found = 0;

	for (t = lh_def_trigs(g, i, &n); n; n--, t++) {
		if (!t->added)
			continue;
		file = lh_file(t);
		if (IS_ERR(file))
			continue;
		if (!hist_kernel_drops(file, t, &drops)) {
			sum += drops;
			++*found;
		}
		trace_put_event_file(file);
	}
	return sum;
}

static u64 lh_trig_drops(struct lh_group *g, unsigned int i)
{
	unsigned int found;

	return lh_trig_drops_found(g, i, &found);
}

static bool lh_group_present(struct lh_group *g)
{
	unsigned int i;

	for (i = 0; i < g->n_trigs; i++)
		if (g->trigs[i].added)
			return true;
	for (i = 0; i < g->n_synths; i++)
		if (g->created[i])
			return true;
	return false;
}

/*
 * Remove what exists of @g, last made first, up to the first part that
 * cannot go yet (a user's trigger refers to it): what stays is always a
 * working prefix of the group, which enabling completes again and
 * disabling, once the user's trigger is gone, finishes removing.
 */
static int lh_group_remove(struct lh_group *g, bool synth_too)
{
	int i, ret;

	for (i = g->n_trigs - 1; i >= 0; i--) {
		if (!synth_too && lh_on_synth(g->trigs[i].def))
			continue;
		ret = lh_trig_remove(&g->trigs[i]);
		if (ret)
			return ret;
	}
	if (!synth_too)
		return 0;
	for (i = g->n_synths - 1; i >= 0; i--) {
		char name[MAX_EVENT_NAME_LEN];

		if (!g->created[i])
			continue;
		strscpy(name, g->synths[i], sizeof(name));
		name[strcspn(name, " ")] = '\0';
		ret = synth_event_delete(name);
		if (ret && ret != -ENOENT)
			return ret;
		g->created[i] = false;
	}
	return 0;
}

/* Make what is missing of @g. */
static int lh_group_add(struct lh_group *g)
{
	unsigned int i;
	int ret;

	ret = lh_instance_get();
	if (ret)
		return ret;
	/* the CPUs per buckets trigger may have changed meanwhile */
	if (!lh_group_present(g)) {
		ret = lh_group_layout(g);
		if (ret)
			return ret;
	}
	for (i = 0; i < g->n_synths; i++) {
		ret = synth_event_create_text(g->synths[i]);
		/* ours, still there from a half-done disable */
		if (ret == -EEXIST && g->created[i])
			ret = 0;
		if (ret)
			return ret;
		g->created[i] = true;
	}
	for (i = 0; i < g->n_trigs; i++) {
		ret = lh_trig_add(&g->trigs[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * wakeup/pid changed: give every trigger of @g that follows the tasks and
 * exists the filter of the pid now set, in place, so that one kept by a
 * user's reference (a half-disabled group) changes as well; the missing
 * ones take it when the group is enabled again.
 */
static int lh_wakeup_refilter(struct lh_group *g)
{
	struct lh_trig *t;

	for (t = g->trigs; t < g->trigs + g->n_trigs; t++) {
		struct trace_event_file *file;
		char *filter;
		int err;

		if (!t->def->pid_field || !t->added)
			continue;
		filter = lh_filter(t);
		if (!filter && lh_has_filter(t))
			return -ENOMEM;
		file = lh_file(t);
		/* no event (a user removed it): no trigger either */
		err = IS_ERR(file) ? -ENOENT :
			hist_kernel_refilter(file, t, filter);
		if (!IS_ERR(file))
			trace_put_event_file(file);
		if (err) {
			kfree(filter);
			if (err != -ENOENT)
				return err;
			t->added = false;
			continue;
		}
		kfree(t->filter);
		t->filter = filter;
	}
	return 0;
}

/* ---- enable/, reset and wakeup/pid: numbers read and written ---- */

static ssize_t lh_read_num(char __user *ubuf, size_t cnt, loff_t *ppos,
			   long val)
{
	char buf[24];
	int len = scnprintf(buf, sizeof(buf), "%ld\n", val);

	return simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
}

/* Parse the number written and hand it to @set under lh_mutex. */
static ssize_t lh_write_num(struct file *filp, const char __user *ubuf,
			    size_t cnt, loff_t *ppos,
			    int (*set)(void *data, unsigned long val))
{
	unsigned long val;
	int ret;

	ret = kstrtoul_from_user(ubuf, cnt, 0, &val);
	if (ret)
		return ret;
	mutex_lock(&lh_mutex);
	ret = set(filp->private_data, val);
	mutex_unlock(&lh_mutex);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

/*
 * Empty the triggers of @g that carry measurements on (starts, sections,
 * timer offsets in flight), the last made first: a trigger skips its
 * events while its map is emptied, so a start kept while the triggers
 * that take starts away were skipping is emptied after them.
 */
static void lh_clear_feeds(struct lh_group *g)
{
	int i;

	for (i = g->n_defs - 1; i >= 0; i--) {
		if (!lh_feeds(&g->defs[i]) || g->defs[i].shares_map)
			continue;
		/* a shared map once, through whichever trigger is there */
		if (!lh_trig_walk(g, i, -1, NULL, NULL) &&
		    i + 1 < g->n_defs && g->defs[i + 1].shares_map)
			lh_trig_walk(g, i + 1, -1, NULL, NULL);
	}
}

/*
 * 1 completes the group, 0 removes it; a group reads 1 while any part of
 * it exists.  A failed enable takes back what it made.  A completed one
 * starts from nothing in flight: starts kept while the group was only
 * partly there (or before its last triggers came) had nothing to take
 * them away.
 */
static int lh_enable_set(void *data, unsigned long val)
{
	struct lh_group *g = data;
	int ret;

	if (!val)
		return lh_group_remove(g, true);
	ret = lh_group_add(g);
	if (ret)
		lh_group_remove(g, true);
	else
		lh_clear_feeds(g);
	return ret;
}

static ssize_t lh_enable_read(struct file *filp, char __user *ubuf,
			      size_t cnt, loff_t *ppos)
{
	struct lh_group *g = filp->private_data;
	bool on;

	mutex_lock(&lh_mutex);
	on = lh_group_present(g);
	mutex_unlock(&lh_mutex);
	return lh_read_num(ubuf, cnt, ppos, on);
}

static ssize_t lh_enable_write(struct file *filp, const char __user *ubuf,
			       size_t cnt, loff_t *ppos)
{
	return lh_write_num(filp, ubuf, cnt, ppos, lh_enable_set);
}

static const struct file_operations lh_enable_fops = {
	.open		= tracing_open_generic,
	.read		= lh_enable_read,
	.write		= lh_enable_write,
	.llseek		= default_llseek,
};

/* ---- CPUx: one CPU's histogram ---- */

struct lh_summary {
	unsigned int	cpu;
	u64		total;
	u64		below;
	u64		above;
	s64		min;
	s64		max;
	s64		sum;
	u64		buckets[LH_BUCKETS];
};

/* Whole microseconds of a biased latency in nanoseconds. */
static s64 lh_usecs(u64 biased_ns)
{
	return (s64)div_u64(biased_ns, NSEC_PER_USEC) - LH_BIAS / NSEC_PER_USEC;
}

/*
 * Whether @vals of the entry below (@above false) or above the buckets
 * hang together: its hit count, extremes and sum are updated one after
 * another while events go on, so a read may see part of an event, or an
 * extreme still at its start value (the largest or smallest number).
 * Both extremes must lie on the entry's side of the buckets and within
 * LH_BIAS ns of zero, the minimum not above the maximum, and the mean of
 * the sum (less the bias of each hit) between them.
 */
static bool lh_outer_whole(const u64 *vals, bool above)
{
	s64 n = vals[0], lo = vals[1] - LH_BIAS, hi = vals[2] - LH_BIAS;
	s64 mean, edge = (s64)LH_BUCKETS * NSEC_PER_USEC;

	if (n <= 0 || lo > hi || lo < -LH_BIAS || hi >= LH_BIAS)
		return false;
	if (above ? lo < edge : hi >= 0)
		return false;
	mean = div64_s64((s64)(vals[3] - vals[0] * LH_BIAS), n);
	return mean >= lo && mean <= hi;
}

#define LH_READS	4	/* reads of an outer entry caught mid-update */

static void lh_fold(struct hist_data *hd, struct tracing_map_elt *elt,
		    void *arg)
{
	struct lh_summary *s = arg;
	u64 vals[LH_VALS];
	s64 lat, lo, hi;
	unsigned int i;
	u64 key, n;

	/* ours has these values; a trigger of another shape is skipped */
	if (hd->n_vals != LH_VALS || hist_elt_key(hd, elt, 0) != s->cpu)
		return;
	key = hist_elt_key(hd, elt, 1);
	lat = lh_usecs(key);
	/* the values in one pass: events go on meanwhile */
	if (!hist_read_entry(hd, elt, vals))
		return;
	n = vals[0];
	if (key >= LH_BIAS && lat < LH_BUCKETS) {
		s->buckets[lat] += n;
		s->sum += lat * (s64)n;
		lo = lat;
		hi = lat;
	} else {
		/*
		 * All the latencies below or above the buckets: their
		 * extremes and sum are values.  Read again while they do not
		 * hang together; an entry still caught mid-update counts its
		 * hits at the bucket boundary it lies beyond.
		 */
		bool above = key >= LH_BIAS;

		for (i = 1; i < LH_READS && !lh_outer_whole(vals, above); i++)
			if (!hist_read_entry(hd, elt, vals))
				return;
		n = vals[0];
		if (lh_outer_whole(vals, above)) {
			lo = lh_usecs(vals[1]);
			hi = lh_usecs(vals[2]);
			s->sum += div_s64((s64)(vals[3] - n * LH_BIAS),
					  NSEC_PER_USEC);
		} else {
			lo = above ? LH_BUCKETS : -1;
			hi = lo;
			s->sum += lo * (s64)n;
		}
		if (above)
			s->above += n;
		else
			s->below += n;
	}
	if (!s->total || lo < s->min)
		s->min = lo;
	if (!s->total || hi > s->max)
		s->max = hi;
	s->total += n;
}

/* Line *pos: 0 is the header, 1 + i bucket i; never NULL for a line. */
static void *lh_cpu_start(struct seq_file *m, loff_t *pos)
{
	if (*pos > LH_BUCKETS)
		return NULL;
	return (void *)(unsigned long)(*pos + 1);
}

static void *lh_cpu_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return lh_cpu_start(m, pos);
}

static void lh_cpu_stop(struct seq_file *m, void *v)
{
}

/* The header; with no samples there is no minimum, average or maximum. */
static void lh_cpu_header(struct seq_file *m, const struct lh_summary *s)
{
	if (s->total) {
		seq_printf(m, "#Minimum latency: %lld microseconds\n", s->min);
		seq_printf(m, "#Average latency: %lld microseconds\n",
			   div64_s64(s->sum, s->total));
		seq_printf(m, "#Maximum latency: %lld microseconds\n", s->max);
	} else {
		seq_puts(m, "#Minimum latency: <undef> microseconds\n");
		seq_puts(m, "#Average latency: <undef> microseconds\n");
		seq_puts(m, "#Maximum latency: <undef> microseconds\n");
	}
	seq_printf(m, "#Total samples: %llu\n", s->total);
	seq_printf(m, "#There are %llu samples lower than 0 microseconds.\n",
		   s->below);
	seq_printf(m, "#There are %llu samples greater or equal than %d microseconds.\n",
		   s->above, LH_BUCKETS);
	seq_puts(m, "#usecs\t         samples\n");
}

static int lh_cpu_show(struct seq_file *m, void *v)
{
	struct lh_summary *s = m->private;
	unsigned long i;

	i = (unsigned long)v - 1;
	if (!i)
		lh_cpu_header(m, s);
	else
		seq_printf(m, "%5lu\t%16llu\n", i - 1, s->buckets[i - 1]);
	return 0;
}

static const struct seq_operations lh_cpu_seq_ops = {
	.start	= lh_cpu_start,
	.next	= lh_cpu_next,
	.stop	= lh_cpu_stop,
	.show	= lh_cpu_show,
};

static int lh_cpu_open(struct inode *inode, struct file *filp)
{
	struct lh_cpu_file *cf = inode->i_private;
	struct lh_hist *h = cf->hist;
	struct lh_summary *s;
	int ret;

	ret = tracing_check_open_get_tr(NULL);
	if (ret)
		return ret;
	s = kvzalloc_obj(*s, GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	s->cpu = cf->cpu;

	mutex_lock(&lh_mutex);
	lh_trig_walk(h->group, h->hist_trig, s->cpu, lh_fold, s);
	mutex_unlock(&lh_mutex);

	ret = seq_open(filp, &lh_cpu_seq_ops);
	if (ret) {
		kvfree(s);
		return ret;
	}
	((struct seq_file *)filp->private_data)->private = s;
	return 0;
}

static int lh_cpu_release(struct inode *inode, struct file *filp)
{
	struct seq_file *m = filp->private_data;

	kvfree(m->private);
	return seq_release(inode, filp);
}

static const struct file_operations lh_cpu_fops = {
	.open		= lh_cpu_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= lh_cpu_release,
};

/* ---- max_latency-CPUx ---- */

struct lh_max {
	unsigned int	cpu;
	bool		found;
	int		pid;
	int		prio;
	s64		lat;
	char		comm[TASK_COMM_LEN];
};

static void lh_max_one(struct hist_data *hd, struct tracing_map_elt *elt,
		       void *arg)
{
	struct lh_max *mx = arg;
	u64 saved[LH_SAVED] = { };
	const char *comm;

	if (hist_elt_key(hd, elt, 0) != mx->cpu)
		return;
	/* the tracked value is biased to be non-zero once set */
	if (!hist_elt_tracked(hd, elt, saved, LH_SAVED))
		return;
	mx->found = true;
	mx->pid = (int)saved[0];
	mx->prio = (int)saved[1];
	comm = (const char *)(unsigned long)saved[2];
	strscpy(mx->comm, comm ?: "", sizeof(mx->comm));
	mx->lat = lh_usecs(saved[3]);
}

static int lh_max_show(struct seq_file *m, void *v)
{
	struct lh_cpu_file *cf = m->private;
	struct lh_hist *h = cf->hist;
	struct lh_max mx = { .cpu = cf->cpu };

	mutex_lock(&lh_mutex);
	lh_trig_walk(h->group, h->max_trig, mx.cpu, lh_max_one, &mx);
	mutex_unlock(&lh_mutex);

	/*
	 * <PID> <Priority> <Latency> <Command>; the priority as chrt shows
	 * it: 1..99 for SCHED_FIFO/RR, 0 for others (SCHED_DEADLINE too)
	 */
	if (mx.found)
		seq_printf(m, "%d %d %lld %s\n", mx.pid,
			   mx.prio >= 0 && mx.prio < MAX_RT_PRIO ?
			   MAX_RT_PRIO - 1 - mx.prio : 0,
			   mx.lat, mx.comm);
	return 0;
}

static int lh_max_open(struct inode *inode, struct file *filp)
{
	int ret = tracing_check_open_get_tr(NULL);

	return ret ?: single_open(filp, lh_max_show, inode->i_private);
}

static const struct file_operations lh_max_fops = {
	.open		= lh_max_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* ---- dropped ---- */

/*
 * What a histogram misses: samples that arrived while more updates than
 * a CPU has room for were nested (task, softirq, hardirq, NMI; its map
 * has room for every entry), and latencies never measured because a map
 * following the tasks, timers or sections of its group had no room for
 * a new one (those are the group's, the same in each of its
 * directories).
 */
static int lh_dropped_show(struct seq_file *m, void *v)
{
	struct lh_hist *h = m->private;
	struct lh_group *g = h->group;
	unsigned int i, found = 0;
	u64 samples, unmeasured = 0;

	mutex_lock(&lh_mutex);
	samples = lh_trig_drops(g, h->hist_trig);
	for (i = 0; i < g->n_defs; i++) {
		if (!lh_feeds(&g->defs[i]) || lh_takes_only(&g->defs[i])) {
			found = 0;
			continue;
		}
		/* a shared map once: by the previous def's trigger if there */
		if (g->defs[i].shares_map && found)
			continue;
		unmeasured += lh_trig_drops_found(g, i, &found);
	}
	mutex_unlock(&lh_mutex);

	seq_puts(m, "#Samples not entered: updates nested too deep\n");
	seq_printf(m, "samples %llu\n", samples);
	seq_puts(m, "#Latencies not measured: a map following tasks, timers or sections was full\n");
	seq_printf(m, "unmeasured %llu\n", unmeasured);
	return 0;
}

static int lh_dropped_open(struct inode *inode, struct file *filp)
{
	int ret = tracing_check_open_get_tr(NULL);

	return ret ?: single_open(filp, lh_dropped_show, inode->i_private);
}

static const struct file_operations lh_dropped_fops = {
	.open		= lh_dropped_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* ---- reset and wakeup/pid ---- */

static int lh_reset_set(void *data, unsigned long val)
{
	struct lh_hist *h = data;
	struct lh_group *g = h->group;

	if (!val)
		return 0;
	lh_trig_walk(g, h->hist_trig, -1, NULL, NULL);
	if (h->max_trig >= 0)
		lh_trig_walk(g, h->max_trig, -1, NULL, NULL);
	/*
	 * The maps that follow tasks and timers keep an entry for each one
	 * ever seen: let a reset make room again, and forget what is in
	 * flight (a section or a timer offset is lost).
	 */
	lh_clear_feeds(g);
	return 0;
}

static ssize_t lh_reset_write(struct file *filp, const char __user *ubuf,
			      size_t cnt, loff_t *ppos)
{
	return lh_write_num(filp, ubuf, cnt, ppos, lh_reset_set);
}

static const struct file_operations lh_reset_fops = {
	.open		= tracing_open_generic,
	.write		= lh_reset_write,
	.llseek		= default_llseek,
};

static int lh_pid_set(void *data, unsigned long val)
{
	struct lh_group *g = &lh_groups[LH_G_WAKEUP];
	pid_t old = lh_wakeup_pid;
	int ret;

	if (val > PID_MAX_LIMIT)
		return -EINVAL;
	if (val == old)
		return 0;
	WRITE_ONCE(lh_wakeup_pid, val);
	ret = lh_wakeup_refilter(g);
	if (ret) {
		/* back to the old pid, with all triggers following it */
		WRITE_ONCE(lh_wakeup_pid, old);
		lh_wakeup_refilter(g);
		return ret;
	}
	/* no wakeup time stamp of a task the new filter does not follow */
	lh_clear_feeds(g);
	return 0;
}

static ssize_t lh_pid_read(struct file *filp, char __user *ubuf,
			   size_t cnt, loff_t *ppos)
{
	return lh_read_num(ubuf, cnt, ppos, READ_ONCE(lh_wakeup_pid));
}

static ssize_t lh_pid_write(struct file *filp, const char __user *ubuf,
			    size_t cnt, loff_t *ppos)
{
	return lh_write_num(filp, ubuf, cnt, ppos, lh_pid_set);
}

static const struct file_operations lh_pid_fops = {
	.open		= tracing_open_generic,
	.read		= lh_pid_read,
	.write		= lh_pid_write,
	.llseek		= default_llseek,
};

/* ---- the directory ---- */

static int __init lh_create_hist_files(struct lh_hist *h, struct dentry *top)
{
	struct dentry *parent = h->parent < 0 ? top : lh_hists[h->parent].dir;
	struct lh_cpu_file *files;
	char name[32];
	int cpu;

	h->dir = tracefs_create_dir(h->name, parent);
	if (!h->dir)
		return -ENOMEM;
	files = kcalloc(nr_cpu_ids, sizeof(*files), GFP_KERNEL);
	if (!files)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		files[cpu].hist = h;
		files[cpu].cpu = cpu;
		snprintf(name, sizeof(name), "CPU%d", cpu);
		trace_create_file(name, TRACE_MODE_READ, h->dir, &files[cpu],
				  &lh_cpu_fops);
		if (h->max_trig < 0)
			continue;
		snprintf(name, sizeof(name), "max_latency-CPU%d", cpu);
		trace_create_file(name, TRACE_MODE_READ, h->dir, &files[cpu],
				  &lh_max_fops);
	}
	trace_create_file("reset", TRACE_MODE_WRITE, h->dir, h,
			  &lh_reset_fops);
	trace_create_file("dropped", TRACE_MODE_READ, h->dir, h,
			  &lh_dropped_fops);
	return 0;
}

static __init int latency_hist_init(void)
{
	struct dentry *top, *enable;
	unsigned int i;

	if (tracing_init_dentry())
		return 0;
	top = tracefs_create_dir("latency_hist", NULL);
	if (!top)
		return -ENOMEM;
	enable = tracefs_create_dir("enable", top);
	if (!enable)
		return -ENOMEM;

	for (i = 0; i < LH_N_GROUPS; i++) {
		struct lh_group *g = &lh_groups[i];

		if (!g->name)
			continue;
		g->first = kcalloc(g->n_defs, sizeof(*g->first), GFP_KERNEL);
		g->created = kcalloc(g->n_synths, sizeof(*g->created),
				     GFP_KERNEL);
		if (!g->first || !g->created || lh_group_layout(g))
			return -ENOMEM;
		trace_create_file(g->name, TRACE_MODE_WRITE, enable, g,
				  &lh_enable_fops);
	}
	for (i = 0; i < ARRAY_SIZE(lh_hists); i++) {
		if (!lh_hists[i].group->name)
			continue;
		if (lh_create_hist_files(&lh_hists[i], top))
			return -ENOMEM;
	}
	trace_create_file("pid", TRACE_MODE_WRITE, lh_hists[LH_H_WAKEUP].dir,
			  NULL, &lh_pid_fops);
	return 0;
}
late_initcall(latency_hist_init);

#ifdef CONFIG_LATENCY_HIST_KUNIT_TEST
#include "trace_latency_hist_kunit.c"
#endif
