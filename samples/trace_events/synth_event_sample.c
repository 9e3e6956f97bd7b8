// SPDX-License-Identifier: GPL-2.0
/*
 * synth_event_sample - create and emit synthetic events from a module
 *
 * A synthetic event is a trace event whose fields are chosen at run time.
 * User space defines them through tracefs; kernel code can define them
 * too, with the synth_event_*() functions, and emit them like any other
 * event.  Hist triggers then aggregate them inside the kernel, so a
 * module can publish numbers without any reporting code of its own.
 *
 * Loading this module creates two events in the "synthetic" system:
 *
 *   sample_tick   u64 seq; unsigned int cpu; u64 delta_ns
 *
 *	Created with synth_event_create() from a static field array and
 *	emitted with synth_event_trace() by a timer every period_ms
 *	milliseconds, in soft interrupt context.  seq counts the ticks from 0,
 *	cpu is where the timer ran, delta_ns the time since the previous
 *	tick.
 *
 *   sample_work   pid_t pid; u64 seq; u64 len; char[16] name
 *
 *	Built field by field with the command API (synth_event_cmd_init(),
 *	synth_event_gen_cmd_start(), synth_event_add_field(),
 *	synth_event_gen_cmd_end()) and emitted on demand by a kernel
 *	thread, "synth_sample", piecewise (synth_event_trace_start(),
 *	synth_event_add_next_val(), synth_event_trace_end()) or, with
 *	use_array set, in one call (synth_event_trace_array()).  pid is the
 *	thread's, seq counts the events from 0 across bursts, len is
 *	(seq % 8) * 512 and name is "read", "write", "flush" or "sync" for
 *	seq % 4 = 0, 1, 2, 3, so that a test knows every value in advance.
 *
 * Parameters, in /sys/module/synth_event_sample/parameters/:
 *
 *   period_ms  (ro) sample_tick period, 1 to 10000 ms, default 100; give
 *              it to insmod (insmod synth_event_sample.ko period_ms=20)
 *   burst      (rw) writing N (at most 1000000 a write) makes the thread
 *              emit N more sample_work events; reads how many are still
 *              queued
 *   use_array  (rw) 1: emit sample_work with synth_event_trace_array()
 *   emitted    (ro) sample_work events the thread has emitted
 *   ticks      (ro) sample_tick events the timer has emitted
 *
 * The counts include events nobody recorded: emitting an event that is
 * neither enabled nor triggered anywhere does nothing and succeeds.
 *
 * Build it with CONFIG_SAMPLE_SYNTH_EVENTS=m (which needs
 * CONFIG_SYNTH_EVENTS; the histograms below need CONFIG_HIST_TRIGGERS)
 * and load it:
 *
 *   # insmod synth_event_sample.ko
 *   # cd /sys/kernel/tracing
 *   # cat events/synthetic/sample_work/format
 *
 * Bytes of work per name, then a burst of 20 events (read the histogram
 * once "emitted" has grown by 20):
 *
 *   # echo 'hist:keys=name:vals=len' >> events/synthetic/sample_work/trigger
 *   # echo 20 > /sys/module/synth_event_sample/parameters/burst
 *   # cat /sys/module/synth_event_sample/parameters/emitted
 *   # cat events/synthetic/sample_work/hist
 *
 * Ticks per CPU, and how late the timer fires (delta_ns in powers of 2):
 *
 *   # echo 'hist:keys=cpu' >> events/synthetic/sample_tick/trigger
 *   # echo 'hist:keys=delta_ns.log2' >> events/synthetic/sample_tick/trigger
 *   # cat events/synthetic/sample_tick/hist
 *
 * The events can be enabled like any other, too ("echo 1 >
 * events/synthetic/sample_tick/enable", then read "trace").
 *
 * Every event file with triggers on it, and every enabled one, holds a
 * reference on the module: rmmod fails while any is left.  Remove them
 * first (with the "!" form of each trigger, or by truncating the trigger
 * file, ": > trigger"), disable what was enabled, then unload; the
 * module deletes its events on the way out:
 *
 *   # echo '!hist:keys=name:vals=len' >> events/synthetic/sample_work/trigger
 *   # echo '!hist:keys=cpu' >> events/synthetic/sample_tick/trigger
 *   # echo '!hist:keys=delta_ns.log2' >> events/synthetic/sample_tick/trigger
 *   # echo 0 > events/synthetic/sample_tick/enable
 *   # rmmod synth_event_sample
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/timer.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/sysfs.h>
#include <linux/timekeeping.h>
#include <linux/trace_events.h>
#include <linux/wait.h>

#define SAMPLE_TICK		"sample_tick"
#define SAMPLE_WORK		"sample_work"
#define SAMPLE_PERIOD_MAX	10000
#define SAMPLE_BURST_MAX	1000000

/* ------------------------------------------------------------------ */
/* Parameters                                                          */

static unsigned int period_ms = 100;
module_param(period_ms, uint, 0444);
MODULE_PARM_DESC(period_ms, "sample_tick period in ms, 1 to 10000 (default 100)");

static bool use_array;
module_param(use_array, bool, 0644);
MODULE_PARM_DESC(use_array, "emit sample_work with synth_event_trace_array()");

/* sample_work events asked for and not emitted yet; the thread waits here */
static atomic_long_t sample_pending = ATOMIC_LONG_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(sample_wq);

static atomic_long_t sample_emitted = ATOMIC_LONG_INIT(0);
static atomic_long_t sample_ticks = ATOMIC_LONG_INIT(0);

/*
 * "burst": writing N queues N more sample_work events.  This may run
 * before the module's init (insmod ... burst=N): the counter and the
 * wait queue are static, and the thread looks at the counter first.
 */
static int sample_burst_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	if (n > SAMPLE_BURST_MAX)
		return -ERANGE;

	atomic_long_add(n, &sample_pending);
	wake_up(&sample_wq);
	return 0;
}

static int sample_burst_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%ld\n", atomic_long_read(&sample_pending));
}

static const struct kernel_param_ops sample_burst_ops = {
	.set	= sample_burst_set,
	.get	= sample_burst_get,
};
module_param_cb(burst, &sample_burst_ops, NULL, 0644);
MODULE_PARM_DESC(burst, "write N to emit N sample_work events; reads those still queued");

/* The counters are read-only, also on the insmod command line. */
static int sample_counter_set(const char *val, const struct kernel_param *kp)
{
	return -EPERM;
}

static int sample_counter_get(char *buffer, const struct kernel_param *kp)
{
	atomic_long_t *counter = kp->arg;

	/* pairs with the barrier in sample_count() */
	return sysfs_emit(buffer, "%ld\n", atomic_long_read_acquire(counter));
}

static const struct kernel_param_ops sample_counter_ops = {
	.set	= sample_counter_set,
	.get	= sample_counter_get,
};
module_param_cb(emitted, &sample_counter_ops, &sample_emitted, 0444);
MODULE_PARM_DESC(emitted, "sample_work events emitted");
module_param_cb(ticks, &sample_counter_ops, &sample_ticks, 0444);
MODULE_PARM_DESC(ticks, "sample_tick events emitted");

/*
 * Count an event once it is complete.  Whoever then reads the counter
 * also sees everything done before, such as the histogram entries the
 * event's triggers updated: a test may read "hist" (and find "burst"
 * down to 0) as soon as "emitted" is right.
 */
static void sample_count(atomic_long_t *counter)
{
	/* order the event before the count, see sample_counter_get() */
	smp_mb__before_atomic();
	atomic_long_inc(counter);
}

/* ------------------------------------------------------------------ */
/* Events                                                              */

/*
 * sample_tick's fields for synth_event_create().  The type strings are
 * those of the synthetic_events file ("u64", "pid_t", "char[16]",
 * "char[]", ...).  They are copied when the event is created.
 */
static struct synth_field_desc sample_tick_fields[] = {
	{ .type = "u64",		.name = "seq" },
	{ .type = "unsigned int",	.name = "cpu" },
	{ .type = "u64",		.name = "delta_ns" },
};

/* sample_work's name field is a char[16]: no name may be longer than 15 */
static const char * const sample_names[] = { "read", "write", "flush", "sync" };

/* What the files are for: see synth_event_sample_init(). */
static struct trace_event_file *sample_tick_file;
static struct trace_event_file *sample_work_file;

static struct timer_list sample_timer;
static ktime_t sample_last_tick;
static u64 sample_tick_seq;

static struct task_struct *sample_thread;

/*
 * The timer callback runs in soft interrupt context: nothing here may
 * sleep.  synth_event_trace() and the other emitting functions may be
 * called from any context.  They take every value as a u64
 * (va_arg(args, u64)), so each argument must be of that type: cast the
 * narrower ones.
 */
static void sample_tick_fn(struct timer_list *timer)
{
	ktime_t now = ktime_get();
	u64 delta_ns = ktime_to_ns(ktime_sub(now, sample_last_tick));
	int ret;

	sample_last_tick = now;
	ret = synth_event_trace(sample_tick_file, ARRAY_SIZE(sample_tick_fields),
				sample_tick_seq++, (u64)smp_processor_id(),
				delta_ns);
	if (!ret)
		sample_count(&sample_ticks);
	else
		pr_warn_once("sample_tick not emitted: %d\n", ret);

	mod_timer(timer, jiffies + msecs_to_jiffies(period_ms));
}

/* The values of sample_work number @seq, which a test can compute. */
static u64 sample_len(u64 seq)
{
	return (seq % 8) * 512;
}

static const char *sample_name(u64 seq)
{
	return sample_names[seq % ARRAY_SIZE(sample_names)];
}

/*
 * Emit sample_work piecewise: the record is reserved first and its
 * fields are stored one by one, in field order with
 * synth_event_add_next_val() (synth_event_add_val() sets them by name
 * instead; one event uses one style or the other).  A string is passed
 * as a pointer, cast to u64, and copied into the record.  The piecewise
 * functions cannot fill "char[]" or stack fields; sample_work's name
 * is therefore a fixed "char[16]".
 */
static int sample_work_piecewise(u64 seq)
{
	struct synth_event_trace_state state;
	int ret, end;

	/* Preemption stays disabled from here to synth_event_trace_end(). */
	ret = synth_event_trace_start(sample_work_file, &state);
	if (ret)
		return ret;

	ret = synth_event_add_next_val(task_pid_nr(current), &state);
	if (!ret)
		ret = synth_event_add_next_val(seq, &state);
	if (!ret)
		ret = synth_event_add_next_val(sample_len(seq), &state);
	if (!ret)
		ret = synth_event_add_next_val((u64)(unsigned long)sample_name(seq),
					       &state);

	/*
	 * A successful start must be ended, even after an error above: the
	 * end commits the record (fields not set read 0) and enables
	 * preemption again.  When nobody records the event, start marks
	 * the state disabled and the rest does nothing.
	 */
	end = synth_event_trace_end(&state);
	return ret ?: end;
}

/* The same event in one call, from an array of one u64 per field. */
static int sample_work_array(u64 seq)
{
	u64 vals[] = {
		task_pid_nr(current),
		seq,
		sample_len(seq),
		(u64)(unsigned long)sample_name(seq),
	};

	return synth_event_trace_array(sample_work_file, vals, ARRAY_SIZE(vals));
}

/*
 * The thread sleeps until events are queued through "burst", emits them
 * and sleeps again; seq carries on from one burst to the next.
 */
static int sample_thread_fn(void *data)
{
	u64 seq = 0;
	int ret;

	while (!kthread_should_stop()) {
		wait_event_interruptible(sample_wq,
					 atomic_long_read(&sample_pending) > 0 ||
					 kthread_should_stop());

		while (atomic_long_read(&sample_pending) > 0 &&
		       !kthread_should_stop()) {
			if (READ_ONCE(use_array))
				ret = sample_work_array(seq);
			else
				ret = sample_work_piecewise(seq);
			seq++;
			/* off the queue before it counts as emitted */
			atomic_long_dec(&sample_pending);
			if (!ret)
				sample_count(&sample_emitted);
			else
				pr_warn_ratelimited("sample_work %llu not emitted: %d\n",
						    seq - 1, ret);
			cond_resched();
		}
	}
	return 0;
}

/*
 * sample_work is built with the command API: the fields are appended
 * to a text command, as written to tracefs' synthetic_events, and the
 * event is created when the command runs.  This suits definitions put
 * together at run time; synth_event_create() does the same in one call
 * from an array.  The command text needs MAX_DYNEVENT_CMD_LEN bytes,
 * too many for the stack: init runs once, so an __initdata buffer does.
 */
static char work_cmd_text[MAX_DYNEVENT_CMD_LEN] __initdata;

/* sample_work's fields after the two given to the start of the command */
static const char * const work_more_fields[][2] __initconst = {
	{ "u64", "len" },
	{ "char[16]", "name" },
};

static int __init sample_create_work_event(void)
{
	struct dynevent_cmd work_cmd;
	unsigned int i;
	int err;

	synth_event_cmd_init(&work_cmd, work_cmd_text, sizeof(work_cmd_text));

	/* The command starts with the name, the owner and "type", "name" pairs */
	err = synth_event_gen_cmd_start(&work_cmd, SAMPLE_WORK, THIS_MODULE,
					"pid_t", "pid", "u64", "seq");

	/* fields can be appended one by one, e.g. from a table */
	for (i = 0; !err && i < ARRAY_SIZE(work_more_fields); i++)
		err = synth_event_add_field(&work_cmd, work_more_fields[i][0],
					    work_more_fields[i][1]);

	/* running the command creates the event */
	return err ? err : synth_event_gen_cmd_end(&work_cmd);
}

/*
 * Delete one of our events.  Triggers and enabled files pin the module,
 * so at unload none of them can be left on the event.  What can still
 * hold it is a reference that does not pin the module: a hist action of
 * another event that emits this one (onmatch(...).trace(sample_work,
 * ...)), or another user of trace_get_event_file().  The delete then
 * fails with -EBUSY; the event stays, owned by no module, and can be
 * removed through synthetic_events once that user is gone.  Until then
 * loading the module again fails with -EEXIST.
 */
static void sample_delete(const char *name)
{
	int ret = synth_event_delete(name);

	if (ret)
		pr_warn("%s not deleted (%d)%s\n", name, ret,
			ret == -EBUSY ? ", still in use" : "");
}

static int __init synth_event_sample_init(void)
{
	int ret;

	if (!period_ms || period_ms > SAMPLE_PERIOD_MAX) {
		pr_err("period_ms must be 1 to %d\n", SAMPLE_PERIOD_MAX);
		return -EINVAL;
	}

	/*
	 * Creating may sleep.  THIS_MODULE makes the module the events'
	 * owner: they are removed with it, deleted here or not.
	 */
	ret = synth_event_create(SAMPLE_TICK, sample_tick_fields,
				 ARRAY_SIZE(sample_tick_fields), THIS_MODULE);
	if (ret) {
		pr_err("cannot create %s: %d\n", SAMPLE_TICK, ret);
		return ret;
	}
	ret = sample_create_work_event();
	if (ret) {
		pr_err("cannot create %s: %d\n", SAMPLE_WORK, ret);
		goto out_tick;
	}

	/*
	 * Emitting takes the event's file in one trace instance (NULL: the
	 * top level); only triggers and enables of that instance see what
	 * is emitted.  Holding the file also keeps the event from being
	 * removed through tracefs while we may emit it.
	 */
	sample_tick_file = trace_get_event_file(NULL, "synthetic", SAMPLE_TICK);
	if (IS_ERR(sample_tick_file)) {
		ret = PTR_ERR(sample_tick_file);
		goto out_work;
	}
	sample_work_file = trace_get_event_file(NULL, "synthetic", SAMPLE_WORK);
	if (IS_ERR(sample_work_file)) {
		ret = PTR_ERR(sample_work_file);
		goto out_tick_file;
	}

	sample_thread = kthread_run(sample_thread_fn, NULL, "synth_sample");
	if (IS_ERR(sample_thread)) {
		ret = PTR_ERR(sample_thread);
		goto out_work_file;
	}

	timer_setup(&sample_timer, sample_tick_fn, 0);
	sample_last_tick = ktime_get();
	mod_timer(&sample_timer, jiffies + msecs_to_jiffies(period_ms));

	pr_info("%s every %u ms; write N to parameters/burst for N %s\n",
		SAMPLE_TICK, period_ms, SAMPLE_WORK);
	return 0;

out_work_file:
	trace_put_event_file(sample_work_file);
out_tick_file:
	trace_put_event_file(sample_tick_file);
out_work:
	sample_delete(SAMPLE_WORK);
out_tick:
	sample_delete(SAMPLE_TICK);
	return ret;
}

static void __exit synth_event_sample_exit(void)
{
	/*
	 * Stop both sources before giving the files back: neither may emit
	 * into a file we no longer hold.  timer_shutdown_sync() waits for a
	 * running callback, kthread_stop() for the thread to return.
	 */
	timer_shutdown_sync(&sample_timer);
	kthread_stop(sample_thread);

	trace_put_event_file(sample_work_file);
	trace_put_event_file(sample_tick_file);

	sample_delete(SAMPLE_WORK);
	sample_delete(SAMPLE_TICK);
}

module_init(synth_event_sample_init);
module_exit(synth_event_sample_exit);

MODULE_AUTHOR("hist triggers project");
MODULE_DESCRIPTION("Sample: synthetic events created and emitted from a module");
MODULE_LICENSE("GPL");
