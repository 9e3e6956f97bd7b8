// SPDX-License-Identifier: GPL-2.0
/*
 * hist_stress - synthetic events fired from kernel threads, for make stress
 *
 * Loading creates two synthetic events with the in-kernel API:
 *
 *   hist_stress_a  unsigned int cpu; u64 seq; char[] tag
 *   hist_stress_b  u64 key
 *
 * and starts one kernel thread per online CPU (at most HS_MAX_THREADS),
 * bound to it, that records both events in the top-level trace instance
 * until the module is unloaded: hist_stress_a with the whole array API
 * (cpu, a per-thread sequence number, "cpu<N>"), hist_stress_b piecewise
 * (see piecewise below) with key = sequence number % HS_KEYS.  Nothing is recorded unless
 * someone enables the events or hangs triggers on them.
 *
 * Parameters, in /sys/module/hist_stress/parameters/:
 *   stop     (rw) while 1, the threads fire nothing; may be given to
 *            insmod to load without firing
 *   parked   (ro) per thread: 1 once it has seen stop and fired its last
 *            event, 0 while it may fire
 *   fired_a  (ro) per thread: hist_stress_a events recorded so far
 *   fired_b  (ro) per thread: hist_stress_b events recorded so far
 *
 * With stop set and every thread parked, the counts are final and can be
 * compared with what the triggers saw.  The module keeps a reference to
 * the events' files (trace_get_event_file()) while loaded, so they cannot
 * be removed from under it; at unload it stops the threads, drops the
 * files and deletes its events.  A delete can fail only if the events
 * are still in use (a trigger or an enabled file), which is reported and
 * left to the synthetic event code's module notifier.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/trace_events.h>

#define HS_MAX_THREADS	8
#define HS_KEYS		16
#define HS_BATCH	64

static bool stop;
module_param(stop, bool, 0644);
MODULE_PARM_DESC(stop, "fire nothing while set");

/*
 * Stock 6.12 oopses in synth_event_trace_end() after a
 * synth_event_trace_start() on a disabled event (which returns 0):
 * piecewise=0 records hist_stress_b with synth_event_trace() there.
 */
static bool piecewise = true;
module_param(piecewise, bool, 0444);
MODULE_PARM_DESC(piecewise, "record hist_stress_b piecewise (default) or at once");

static int parked[HS_MAX_THREADS];
static unsigned int n_parked;
module_param_array(parked, int, &n_parked, 0444);
MODULE_PARM_DESC(parked, "per thread: 1 when stopped and idle");

static unsigned long fired_a[HS_MAX_THREADS];
static unsigned int n_fired_a;
module_param_array(fired_a, ulong, &n_fired_a, 0444);
MODULE_PARM_DESC(fired_a, "per thread: hist_stress_a events recorded");

static unsigned long fired_b[HS_MAX_THREADS];
static unsigned int n_fired_b;
module_param_array(fired_b, ulong, &n_fired_b, 0444);
MODULE_PARM_DESC(fired_b, "per thread: hist_stress_b events recorded");

static struct synth_field_desc hs_fields_a[] = {
	{ .type = "unsigned int",	.name = "cpu" },
	{ .type = "u64",		.name = "seq" },
	{ .type = "char[]",		.name = "tag" },
};

static struct synth_field_desc hs_fields_b[] = {
	{ .type = "u64",		.name = "key" },
};

static struct trace_event_file *hs_file_a, *hs_file_b;
static struct task_struct *hs_threads[HS_MAX_THREADS];
static unsigned int hs_n_threads;

struct hs_thread {
	unsigned int	idx;
	unsigned int	cpu;
	u64		seq;
	char		tag[16];
};

static struct hs_thread hs_data[HS_MAX_THREADS];

/* Record one event of each kind; counts only what was recorded. */
static void hs_fire(struct hs_thread *t)
{
	struct synth_event_trace_state state;
	u64 vals[3];
	int ret;

	vals[0] = t->cpu;
	vals[1] = t->seq;
	vals[2] = (u64)(unsigned long)t->tag;
	ret = synth_event_trace_array(hs_file_a, vals, ARRAY_SIZE(vals));
	if (!ret)
		WRITE_ONCE(fired_a[t->idx], fired_a[t->idx] + 1);

	if (piecewise) {
		ret = synth_event_trace_start(hs_file_b, &state);
		if (!ret) {
			ret = synth_event_add_next_val(t->seq % HS_KEYS, &state);
			if (synth_event_trace_end(&state) || ret)
				ret = -EINVAL;
		}
	} else {
		ret = synth_event_trace(hs_file_b, 1, t->seq % HS_KEYS);
	}
	if (!ret)
		WRITE_ONCE(fired_b[t->idx], fired_b[t->idx] + 1);
	t->seq++;
}

static int hs_thread_fn(void *data)
{
	struct hs_thread *t = data;
	unsigned int i;

	while (!kthread_should_stop()) {
		if (READ_ONCE(stop)) {
			/* the counts are final before parked reads 1 */
			smp_store_release(&parked[t->idx], 1);
			msleep_interruptible(10);
			continue;
		}
		WRITE_ONCE(parked[t->idx], 0);
		/*
		 * Order the store above before the loads of stop below: the
		 * reader writes stop, then reads parked (a store buffer
		 * pattern, which needs a full barrier on both sides).
		 */
		smp_mb();
		for (i = 0; i < HS_BATCH && !READ_ONCE(stop); i++)
			hs_fire(t);
		usleep_range(50, 100);
	}
	return 0;
}

static void hs_stop_threads(void)
{
	while (hs_n_threads)
		kthread_stop(hs_threads[--hs_n_threads]);
}

static void hs_delete(const char *name)
{
	int ret = synth_event_delete(name);

	if (ret)
		pr_info("cannot delete %s (%d): still in use\n", name, ret);
}

static void hs_put_files(void)
{
	if (!IS_ERR_OR_NULL(hs_file_a))
		trace_put_event_file(hs_file_a);
	if (!IS_ERR_OR_NULL(hs_file_b))
		trace_put_event_file(hs_file_b);
	hs_file_a = NULL;
	hs_file_b = NULL;
}

static int __init hist_stress_init(void)
{
	struct task_struct *task;
	unsigned int cpu;
	int ret;

	ret = synth_event_create("hist_stress_a", hs_fields_a,
				 ARRAY_SIZE(hs_fields_a), THIS_MODULE);
	if (ret)
		return ret;
	ret = synth_event_create("hist_stress_b", hs_fields_b,
				 ARRAY_SIZE(hs_fields_b), THIS_MODULE);
	if (ret)
		goto out_a;

	hs_file_a = trace_get_event_file(NULL, "synthetic", "hist_stress_a");
	hs_file_b = trace_get_event_file(NULL, "synthetic", "hist_stress_b");
	if (IS_ERR(hs_file_a) || IS_ERR(hs_file_b)) {
		ret = -ENODEV;
		goto out_files;
	}

	for_each_online_cpu(cpu) {
		struct hs_thread *t = &hs_data[hs_n_threads];

		if (hs_n_threads == HS_MAX_THREADS)
			break;
		t->idx = hs_n_threads;
		t->cpu = cpu;
		snprintf(t->tag, sizeof(t->tag), "cpu%u", cpu);
		task = kthread_run_on_cpu(hs_thread_fn, t, cpu, "hist_stress/%u");
		if (IS_ERR(task)) {
			ret = PTR_ERR(task);
			goto out_threads;
		}
		hs_threads[hs_n_threads++] = task;
	}
	n_parked = hs_n_threads;
	n_fired_a = hs_n_threads;
	n_fired_b = hs_n_threads;
	pr_info("%u threads firing hist_stress_a and hist_stress_b\n",
		hs_n_threads);
	return 0;

out_threads:
	hs_stop_threads();
out_files:
	hs_put_files();
	hs_delete("hist_stress_b");
out_a:
	hs_delete("hist_stress_a");
	return ret;
}

static void __exit hist_stress_exit(void)
{
	/* no event of ours is in flight once the threads are gone */
	hs_stop_threads();
	hs_put_files();
	hs_delete("hist_stress_a");
	hs_delete("hist_stress_b");
}

module_init(hist_stress_init);
module_exit(hist_stress_exit);

MODULE_DESCRIPTION("Synthetic events fired from kernel threads, for hist trigger stress tests");
MODULE_LICENSE("GPL");
