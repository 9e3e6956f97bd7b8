// SPDX-License-Identifier: GPL-2.0
/*
 * Hist triggers: the "hist", "enable_hist" and "disable_hist" commands.
 *
 * Writing "hist:..." to an event's trigger file builds a histogram from
 * the text (trace_hist_build.c), gives it a map once it is known to be a
 * new trigger, and registers a trigger whose probe aggregates each event
 * (trace_hist_run.c).  The "hist", "hist_debug" and "hist.json" files
 * print the result (trace_hist_output.c, trace_hist_debug.c,
 * trace_hist_json.c).  This is
 * the only hist file that knows the trigger core; the files below it
 * reach back only through what it hands them (struct hist_cmd, struct
 * hist_data_ops).
 *
 * A trigger text that matches an existing trigger (same keys, values,
 * variables, sort keys, name and filter) addresses that trigger: "!"
 * removes it, ":pause", ":cont" and ":clear" act on it, and adding it
 * again is an error.  Triggers with the same name= share one map
 * (struct hist_named, reference-counted); each keeps its own struct
 * hist_data bound to its own event, and all of them update and show the
 * shared map.
 *
 * Everything here runs under event_mutex, except the probes.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "trace_hist.h"

/* ---- the sort criteria a trigger may have (trace_hist_build.c) ---- */

/*
 * Sort criteria per trigger: 2, as the existing selftests require a
 * third to be refused, unless raised (up to 4) on the command line
 * (trace_events_hist.sort_keys=4) or in
 * /sys/module/trace_events_hist/parameters/sort_keys.
 */
static unsigned int hist_sort_keys = HIST_SORT_KEYS_DEFAULT;

/* Does a hist trigger of any instance sort by more than @n criteria? */
static bool hist_sort_keys_in_use(unsigned int n)
{
	struct trace_event_file *file;
	struct event_trigger_data *data;
	struct hist_data *hd;
	struct trace_array *tr;

	lockdep_assert_held(&event_mutex);
	lockdep_assert_held(&trace_types_lock);
	list_for_each_entry(tr, &ftrace_trace_arrays, list) {
		list_for_each_entry(file, &tr->events, list) {
			list_for_each_entry(data, &file->triggers, list) {
				if (data->cmd_ops->trigger_type != ETT_EVENT_HIST)
					continue;
				hd = data->private_data;
				if (hd->n_sort_keys > n)
					return true;
			}
		}
	}
	return false;
}

/*
 * Lowering the limit below what a trigger uses fails with -EBUSY: every
 * trigger must stay removable (and pausable) by the text that made it.
 * Trigger commands read the limit under event_mutex, so none can slip
 * past the check.
 */
static int sort_keys_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	if (n < HIST_SORT_KEYS_DEFAULT || n > HIST_SORT_KEYS_MAX)
		return -EINVAL;
	if (n >= READ_ONCE(hist_sort_keys))
		return param_set_uint_minmax(val, kp, HIST_SORT_KEYS_DEFAULT,
					     HIST_SORT_KEYS_MAX);
	/* the tracing core's order: event_mutex, then trace_types_lock */
	mutex_lock(&event_mutex);
	mutex_lock(&trace_types_lock);
	if (hist_sort_keys_in_use(n))
		ret = -EBUSY;
	else
		ret = param_set_uint_minmax(val, kp, HIST_SORT_KEYS_DEFAULT,
					    HIST_SORT_KEYS_MAX);
	mutex_unlock(&trace_types_lock);
	mutex_unlock(&event_mutex);
	return ret;
}

static const struct kernel_param_ops sort_keys_ops = {
	.set	= sort_keys_set,
	.get	= param_get_uint,
};

module_param_cb(sort_keys, &sort_keys_ops, &hist_sort_keys, 0644);
MODULE_PARM_DESC(sort_keys, "sort criteria a hist trigger takes, 2 (the default) to 4");

/*
 * How the code below the trigger layer makes helper histograms and
 * releases histograms (hist_data_ops): through the triggers.
 */
static bool hist_removing_instance(void);
static struct hist_data *hist_helper_create(struct hist_data *owner,
					    struct trace_event_file *file,
					    const char *text);
static void hist_helper_drop(struct hist_data *helper);

static const struct hist_data_ops hist_trigger_data_ops = {
	.helper_create		= hist_helper_create,
	.helper_drop		= hist_helper_drop,
	.put			= hist_data_put,
	.removing_instance	= hist_removing_instance,
};

/* ---- matching triggers ---- */

static bool str_same(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

/*
 * Does @test describe the same trigger as the new @hd with @name and
 * @filter?  Named triggers match on the definition only.
 */
static bool hist_trigger_match(struct event_trigger_data *test,
			       struct hist_data *hd, const char *name,
			       const char *filter)
{
	if (!str_same(test->name, name))
		return false;
	if (!str_same(test->filter_str, filter))
		return false;
	return hist_data_same(test->private_data, hd);
}

static struct event_trigger_data *
find_hist_trigger(struct trace_event_file *file, struct hist_data *hd,
		  const char *name, const char *filter)
{
	struct event_trigger_data *test;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(test, &file->triggers, list) {
		if (test->cmd_ops->trigger_type != ETT_EVENT_HIST)
			continue;
		if (hist_trigger_match(test, hd, name, filter))
			return test;
	}
	return NULL;
}

/* ---- trigger ops ---- */

static void hist_trigger_probe(struct event_trigger_data *data,
			       struct trace_buffer *buffer, void *rec,
			       struct ring_buffer_event *rbe)
{
	struct hist_data *hd = data->private_data;

	if (unlikely(!rec))
		return;
	if (hd->fast_path)
		hist_fast_update(hd, buffer, rec, rbe);
	else
		hist_data_update(hd, buffer, rec, rbe);
}

static int hist_trigger_init(struct event_trigger_data *data)
{
	data->ref++;
	return 0;
}

static void hist_disarm_removed(struct hist_data *hd);

/*
 * Non-zero while triggers are freed because their instance is being
 * removed (under event_mutex and trace_types_lock).
 */
static unsigned int hist_instance_removal;

/**
 * hist_removing_instance - whether triggers go with their instance now
 *
 * Then a histogram being freed must not remove the triggers of its
 * helpers itself: that would take trace_types_lock again, and
 * clear_event_triggers() frees them anyway.
 *
 * Context: event_mutex held.
 * Return: true while an instance is being removed.
 */
static bool hist_removing_instance(void)
{
	lockdep_assert_held(&event_mutex);
	return hist_instance_removal;
}

/*
 * Wait for every event that may still be running a trigger, its filter
 * or its histogram.  Tracepoint events run them inside the tracepoint's
 * read section, which tracepoint_synchronize_unregister() waits for.
 * kprobe and uprobe events, injected events, trace_marker writes and
 * synth_event_trace() callers run them outside any tracepoint, inside
 * an RCU read-side section (preemption disabled, or rcu_read_lock()): a
 * full RCU grace period waits for those.  The tracepoint wait may
 * include one; the state taken first tells whether it did, and
 * cond_synchronize_rcu() waits for one only if not.  (Taking the state
 * starts nothing, so this also holds during early boot, with interrupts
 * off, where grace periods are trivial.)
 */
static void hist_sync_events(void)
{
	unsigned long rcu_gp = get_state_synchronize_rcu();

	tracepoint_synchronize_unregister();
	cond_synchronize_rcu(rcu_gp);
}

static void hist_trigger_free(struct event_trigger_data *data)
{
	struct hist_data *hd = data->private_data;
	bool removing;

	if (WARN_ON_ONCE(data->ref <= 0))
		return;
	if (--data->ref)
		return;
	if (data->name)
		del_named_trigger(data);
	/*
	 * A trigger still armed was unlinked by instance removal
	 * (clear_event_triggers()), which does not wait for the events
	 * running it: wait here, before its filter and histogram go.  The
	 * other paths waited when they disarmed it.  (The core's
	 * trigger_data_free() is not used: it may defer its wait.)
	 */
	if (hd->armed)
		hist_sync_events();
	free_event_filter(rcu_access_pointer(data->filter));
	kfree(data->filter_str);
	/*
	 * Removing an instance frees its triggers without hist_remove()
	 * (clear_event_triggers()): what registration armed is undone here,
	 * and histograms freed on the way leave their helpers' triggers to
	 * clear_event_triggers() too.
	 */
	removing = hd->armed;
	if (removing)
		hist_disarm_removed(hd);
	hd->trigger = NULL;
	hd->event_file = NULL;
	hist_instance_removal += removing;
	hist_data_put(hd);
	hist_instance_removal -= removing;
	kfree(data);
}

static int hist_trigger_print_op(struct seq_file *m,
				 struct event_trigger_data *data)
{
	return hist_trigger_print(m, data);
}

/*
 * Switch on what the histogram needs of its trace instance: the clock for
 * timestamps, the conditional snapshot.  All or nothing.  Timestamps do
 * not turn event buffering off: an event held in the per-CPU buffered
 * page (filtered or soft-disabled) takes its common_timestamp from the
 * buffer's clock when the trigger runs (see timestamp() in
 * trace_hist_run.c), which spares every event a ring buffer reservation
 * and discard.
 */
static int hist_arm(struct hist_data *hd, struct trace_array *tr)
{
	int ret;

	if (hd->uses_timestamps) {
		ret = tracing_set_clock(tr, hd->clock);
		if (ret) {
			hist_log(hd, HIST_ERR_SET_CLOCK_FAIL, hd->clock);
			return ret;
		}
	}
	hist_timestamps_bind(hd, tr);

	ret = hist_actions_register(hd);
	if (ret) {
		hist_actions_unregister(hd);
		return ret;
	}
	hd->armed = true;
	return 0;
}

/*
 * Undo hist_arm(), once no event runs the trigger any more: only then may
 * its snapshot go.
 */
static void hist_disarm(struct hist_data *hd)
{
	if (!hd->armed)
		return;
	hd->armed = false;
	hist_actions_unregister(hd);
}

/*
 * hist_disarm() for a trigger freed because its instance is being
 * removed, with trace_types_lock held by the remover.
 */
static void hist_disarm_removed(struct hist_data *hd)
{
	lockdep_assert_held(&trace_types_lock);
	hist_disarm(hd);
}

static int hist_register(char *glob, struct event_trigger_data *data,
			 struct trace_event_file *file)
{
	struct hist_data *hd = data->private_data;
	int ret;

	lockdep_assert_held(&event_mutex);

	ret = hist_arm(hd, file->tr);
	if (ret)
		return ret;

	hist_trigger_init(data);
	list_add_tail_rcu(&data->list, &file->triggers);
	update_cond_flag(file);
	ret = trace_event_trigger_enable_disable(file, 1);
	if (ret < 0) {
		/* the core keeps its soft-mode counts on failure: drop them */
		trace_event_trigger_enable_disable(file, 0);
		list_del_rcu(&data->list);
		update_cond_flag(file);
		data->ref--;
		hist_sync_events();
		hist_disarm(hd);
		return ret;
	}
	return 0;
}

/* Unlink a trigger from its event and release it. */
static void drop_trigger(struct event_trigger_data *data,
			 struct trace_event_file *file)
{
	list_del_rcu(&data->list);
	update_cond_flag(file);
	trace_event_trigger_enable_disable(file, 0);
	if (data->cmd_ops->free)
		data->cmd_ops->free(data);
}

static void hist_remove(struct event_trigger_data *data,
			struct trace_event_file *file)
{
	struct hist_data *hd = data->private_data;

	list_del_rcu(&data->list);
	update_cond_flag(file);
	trace_event_trigger_enable_disable(file, 0);
	hist_sync_events();
	hist_disarm(hd);
	if (data->cmd_ops->free)
		data->cmd_ops->free(data);
}

static void hist_unregister(char *glob, struct event_trigger_data *data,
			    struct trace_event_file *file)
{
	struct event_trigger_data *test;

	test = find_hist_trigger(file, data->private_data, data->name,
				 data->filter_str);
	if (test)
		hist_remove(test, file);
}

static void hist_unregister_all(struct trace_event_file *file)
{
	struct event_trigger_data *test, *n;

	/*
	 * All or nothing: if the variables of any hist trigger of the
	 * event are in use, truncating the file removes none.
	 */
	list_for_each_entry(test, &file->triggers, list)
		if (test->cmd_ops->trigger_type == ETT_EVENT_HIST &&
		    hist_data_is_busy(test->private_data))
			return;
	list_for_each_entry_safe(test, n, &file->triggers, list)
		if (test->cmd_ops->trigger_type == ETT_EVENT_HIST)
			hist_remove(test, file);
}

/* ---- the hist command ---- */

/*
 * Unfreezing publishes the cleared map: release here, acquire where the
 * hot path reads the flag, so an event that sees it clear sees the map
 * as the clear left it.
 */
static void hist_freeze(struct hist_data *hd, bool frozen)
{
	struct hist_data *sharer;

	if (!hd->named) {
		/* pairs with smp_load_acquire() in hist_data_update() */
		smp_store_release(&hd->frozen, frozen);
		return;
	}
	list_for_each_entry(sharer, &hd->named->sharers, named_list) {
		/* pairs with smp_load_acquire() in hist_data_update() */
		smp_store_release(&sharer->frozen, frozen);
	}
}

/*
 * Empty the map of @hd.  tracing_map_clear() wants no inserts and no
 * lookups meanwhile: every histogram aggregating into the map (all
 * sharers of a named table) stops inserting, and references from other
 * histograms stop looking it up, while it is frozen; the wait lets
 * events already past that check finish.
 */
static void hist_clear(struct hist_data *hd)
{
	hist_freeze(hd, true);
	hist_sync_events();
	tracing_map_clear(hd->map);
	hist_freeze(hd, false);
}

/*
 * ":pause", ":cont" and ":clear" on an existing trigger.  One command
 * does one of them, the first of pause, cont, clear that it names
 * (":pause:clear" pauses and keeps the entries).
 */
static int hist_control(struct hist_cmd *cmd, struct event_trigger_data *test,
			struct hist_spec *spec)
{
	/* read by the probes without event_mutex */
	if (spec->pause)
		WRITE_ONCE(test->paused, true);
	else if (spec->cont)
		WRITE_ONCE(test->paused, false);
	else if (spec->clear)
		hist_clear(test->private_data);
	return 0;
}

/*
 * The filter exactly as set_trigger_filter() keeps it in
 * &event_trigger_data.filter_str: what follows "if" and the one blank or
 * tab after it (further blanks stay), so that a trigger is found again
 * by the text that made it.
 */
static char *filter_text(char *filter)
{
	size_t len;

	if (!filter)
		return NULL;
	len = strcspn(filter, " \t");
	if (len != 2 || strncmp(filter, "if", 2) || !filter[len])
		return NULL;
	return filter + len + 1;
}

/*
 * Split "trigger [if filter]".  Unlike other triggers a hist trigger may
 * contain blanks ("trace(e, a, b)"), so only a blank-delimited "if" ends
 * it.  *@filter keeps the "if".
 */
static int split_filter(char *text, char **param, char **filter)
{
	char *p;

	*filter = NULL;
	if (!text)
		return -EINVAL;
	text = skip_spaces(text);
	for (p = text; (p = strstr(p, "if")) != NULL; p++) {
		if (p == text || !isspace(p[-1]) || !isspace(p[2]))
			continue;
		p[-1] = '\0';
		*filter = p;
		break;
	}
	*param = strim(text);
	return **param ? 0 : -EINVAL;
}

static char *hist_cmd_text(const char *cmd, const char *param)
{
	return kasprintf(GFP_KERNEL, "%s:%s", cmd, param ? param : "");
}

/* A hist command; @owner: the cookie of hist_kernel_add(), or NULL. */
static int hist_parse_owned(struct event_command *cmd_ops,
			    struct trace_event_file *file, char *glob,
			    char *cmd, char *param_and_filter,
			    const void *owner)
{
	struct event_trigger_data *data = NULL, *test;
	struct hist_cmd hc = {
		.file		= file,
		.sort_keys_max	= READ_ONCE(hist_sort_keys),
		.ops		= &hist_trigger_data_ops,
		.owner		= owner,
	};
	bool remove = event_trigger_check_remove(glob);
	struct hist_data *hd;
	char *param, *filter, *cmp_filter;
	int ret;

	lockdep_assert_held(&event_mutex);

	hc.text = hist_cmd_text(cmd, param_and_filter);
	if (!hc.text)
		return -ENOMEM;

	ret = split_filter(param_and_filter, &param, &filter);
	if (ret) {
		hist_cmd_log(&hc, HIST_ERR_MISSING_KEYS, NULL);
		goto out;
	}

	hc.lookup_only = remove;
	hd = hist_data_create(&hc, param);
	if (IS_ERR(hd)) {
		ret = PTR_ERR(hd);
		goto out;
	}
	hd->owner = owner;

	cmp_filter = filter_text(filter);

	if (remove) {
		test = find_hist_trigger(file, hd, hd->spec.name, cmp_filter);
		ret = 0;
		if (test && hist_data_is_busy(test->private_data))
			ret = -EBUSY;
		else if (test)
			hist_remove(test, file);
		hist_data_free(hd);
		goto out;
	}

	test = find_hist_trigger(file, hd, hd->spec.name, cmp_filter);
	/*
	 * ":pause", ":cont" and ":clear" may repeat the variables of the
	 * trigger they address; any other text is checked like a new
	 * trigger, first for variables defined elsewhere: that error comes
	 * before the one for a missing trigger.
	 */
	if (!test && (hd->spec.pause || hd->spec.cont || hd->spec.clear) &&
	    hist_vars_redefined(&hc, hd)) {
		hist_data_free(hd);
		ret = -EINVAL;
		goto out;
	}
	if (hd->spec.cont || hd->spec.clear ||
	    (test && hd->spec.pause)) {
		if (!test) {
			hist_cmd_log(&hc, HIST_ERR_NEXIST_TRIGGER, NULL);
			ret = -ENOENT;
		} else {
			ret = hist_control(&hc, test, &hd->spec);
		}
		hist_data_free(hd);
		goto out;
	}
	if (test) {
		hist_cmd_log(&hc, HIST_ERR_TRIGGER_EEXIST, NULL);
		hist_data_free(hd);
		ret = -EEXIST;
		goto out;
	}

	ret = hist_data_bind_map(&hc, hd);
	if (ret) {
		hist_data_free(hd);
		goto out;
	}

	ret = -ENOMEM;
	data = trigger_data_alloc(cmd_ops, cmd, param, hd);
	if (!data) {
		hist_data_put(hd);
		goto out;
	}
	data->paused = hd->spec.pause;
	hd->trigger = data;

	if (hd->spec.name) {
		ret = save_named_trigger(hd->spec.name, data);
		if (ret)
			goto out_free;
	}

	ret = event_trigger_set_filter(cmd_ops, file, filter, data);
	if (ret < 0)
		goto out_free;

	/* registration can fail too (the clock): errors go to this command */
	hd->cmd = &hc;
	ret = event_trigger_register(cmd_ops, file, glob, data);
	hd->cmd = NULL;
	if (ret)
		goto out_free;
	goto out;

out_free:
	event_trigger_reset_filter(cmd_ops, data);
	if (data->name)
		del_named_trigger(data);
	kfree(data);
	hist_data_put(hd);
out:
	kfree(hc.quant_err);
	kfree(hc.text);
	return ret;
}

static int hist_parse(struct event_command *cmd_ops,
		      struct trace_event_file *file, char *glob, char *cmd,
		      char *param_and_filter)
{
	return hist_parse_owned(cmd_ops, file, glob, cmd, param_and_filter,
				NULL);
}

static struct event_command trigger_hist_cmd;

/**
 * hist_helper_create - add a helper histogram for a field variable
 * @owner: the histogram that needs it
 * @file: the event to put it on
 * @text: the trigger, without "hist:"
 *
 * Return: the new histogram, or an error pointer.  It lives as long as
 * its trigger; a reference for @owner is not taken here.
 */
static struct hist_data *hist_helper_create(struct hist_data *owner,
					    struct trace_event_file *file,
					    const char *text)
{
	struct event_trigger_data *data;
	char *param;
	int ret;

	param = kstrdup(text, GFP_KERNEL);
	if (!param)
		return ERR_PTR(-ENOMEM);
	ret = hist_parse(&trigger_hist_cmd, file, "hist", "hist", param);
	kfree(param);
	if (ret)
		return ERR_PTR(ret);
	data = list_last_entry(&file->triggers, struct event_trigger_data,
			       list);
	if (WARN_ON_ONCE(data->cmd_ops != &trigger_hist_cmd))
		return ERR_PTR(-EINVAL);
	((struct hist_data *)data->private_data)->is_helper = true;
	return data->private_data;
}

/**
 * hist_helper_drop - remove the trigger of a helper nobody references
 * @helper: the helper histogram; its trigger must still exist
 */
static void hist_helper_drop(struct hist_data *helper)
{
	hist_remove(helper->trigger, helper->event_file);
}

/* ---- hist triggers made by the kernel itself (latency_hist) ---- */

/*
 * The kernel's own triggers are marked with an owner cookie when they are
 * made and are found again by it, never by their text: a text with a
 * $variable no longer parses once a user removed the trigger defining it,
 * and a user may have added a trigger with the same text.
 */
static struct event_trigger_data *
find_owned_trigger(struct trace_event_file *file, const void *owner)
{
	struct event_trigger_data *data;

	lockdep_assert_held(&event_mutex);
	/* a NULL owner would find any user's trigger */
	if (WARN_ON_ONCE(!owner))
		return NULL;
	list_for_each_entry(data, &file->triggers, list) {
		if (data->cmd_ops->trigger_type != ETT_EVENT_HIST)
			continue;
		if (((struct hist_data *)data->private_data)->owner == owner)
			return data;
	}
	return NULL;
}

/**
 * hist_kernel_add - add a hist trigger as if a user wrote it
 * @file: the event
 * @text: what follows "hist:" in the trigger file, filter included
 * @owner: a cookie, unique to this trigger, to find it again
 *
 * The text goes through the parser and registration of a written
 * command, errors to error_log included.
 *
 * Context: Process context; takes event_mutex.
 * Return: 0, what writing the command to the trigger file returns, or
 * -EINVAL if it added no trigger (a ":pause", ":cont" or ":clear" of a
 * trigger that exists, which then took effect).
 */
int hist_kernel_add(struct trace_event_file *file, const char *text,
		    const void *owner)
{
	struct event_trigger_data *data;
	struct list_head *before;
	char *param;
	int ret;

	if (WARN_ON_ONCE(!file || !owner))
		return -EINVAL;
	param = kstrdup(text, GFP_KERNEL);
	if (!param)
		return -ENOMEM;
	mutex_lock(&event_mutex);
	ret = -EEXIST;
	if (find_owned_trigger(file, owner))
		goto out;
	before = file->triggers.prev;
	ret = hist_parse_owned(&trigger_hist_cmd, file, "hist", "hist", param,
			       owner);
	if (ret)
		goto out;
	/*
	 * Registration appends, as for hist_helper_create(); a text that
	 * added nothing (":clear" and the like) is not what this is for.
	 */
	data = list_last_entry(&file->triggers, struct event_trigger_data,
			       list);
	if (file->triggers.prev == before ||
	    data->cmd_ops != &trigger_hist_cmd ||
	    ((struct hist_data *)data->private_data)->owner != owner)
		ret = -EINVAL;
out:
	mutex_unlock(&event_mutex);
	kfree(param);
	return ret;
}

/**
 * hist_kernel_remove - remove a trigger made by hist_kernel_add()
 * @file: the event
 * @owner: its cookie
 *
 * Context: Process context; takes event_mutex.
 * Return: 0 (also when a user removed it already), -EBUSY if another
 * trigger refers to its variables.
 */
int hist_kernel_remove(struct trace_event_file *file, const void *owner)
{
	struct event_trigger_data *data;
	int ret = 0;

	mutex_lock(&event_mutex);
	data = find_owned_trigger(file, owner);
	if (data && hist_data_is_busy(data->private_data))
		ret = -EBUSY;
	else if (data)
		hist_remove(data, file);
	mutex_unlock(&event_mutex);
	return ret;
}

/**
 * hist_kernel_refilter - replace the filter of a trigger made by
 *	hist_kernel_add(), in place
 * @file: the event
 * @owner: its cookie
 * @filter: the new filter (what follows "if "), NULL for none
 *
 * The trigger stays registered, with its entries and variables, so that
 * triggers referring to it keep working.  The new filter is made whole
 * first and only then published; events see the old filter or the new
 * one, and the old one is freed once none can be running it.  On any
 * error the trigger is left as it was.
 *
 * Context: Process context; takes event_mutex.
 * Return: 0, -ENOENT if a user removed it, or the filter's error.
 */
int hist_kernel_refilter(struct trace_event_file *file, const void *owner,
			 const char *filter)
{
	struct event_filter *new = NULL, *old;
	struct event_trigger_data *data;
	char *str = NULL, *parse = NULL, *old_str;
	int ret = 0;

	if (filter) {
		str = kstrdup(filter, GFP_KERNEL);
		parse = kstrdup(filter, GFP_KERNEL);
		if (!str || !parse) {
			ret = -ENOMEM;
			goto out_free;
		}
	}
	mutex_lock(&event_mutex);
	data = find_owned_trigger(file, owner);
	if (!data) {
		ret = -ENOENT;
		goto out_unlock;
	}
	if (parse) {
		ret = create_event_filter(file->tr, file->event_call, parse,
					  false, &new);
		if (ret) {
			/* a filter that failed to parse is never published */
			if (new)
				free_event_filter(new);
			goto out_unlock;
		}
	}
	old = rcu_access_pointer(data->filter);
	rcu_assign_pointer(data->filter, new);
	old_str = data->filter_str;
	data->filter_str = str;
	str = NULL;
	update_cond_flag(file);
	/* no event may still run the old filter */
	hist_sync_events();
	free_event_filter(old);
	kfree(old_str);
out_unlock:
	mutex_unlock(&event_mutex);
out_free:
	kfree(parse);
	kfree(str);
	return ret;
}

/**
 * hist_kernel_clear - empty a trigger made by hist_kernel_add()
 * @file: the event
 * @owner: its cookie
 *
 * Context: Process context; takes event_mutex.
 * Return: 0, or -ENOENT if a user removed it.
 */
int hist_kernel_clear(struct trace_event_file *file, const void *owner)
{
	struct event_trigger_data *data;

	mutex_lock(&event_mutex);
	data = find_owned_trigger(file, owner);
	if (data)
		hist_clear(data->private_data);
	mutex_unlock(&event_mutex);
	return data ? 0 : -ENOENT;
}

struct hist_walk {
	struct hist_data *hd;
	void (*fn)(struct hist_data *hd, struct tracing_map_elt *elt,
		   void *arg);
	void *arg;
};

static void hist_walk_one(struct tracing_map_elt *elt, void *arg)
{
	struct hist_walk *w = arg;

	w->fn(w->hd, elt, w->arg);
}

/**
 * hist_kernel_walk - call a function for every entry of an owned trigger
 * @file: the event
 * @owner: the trigger's cookie
 * @fn: called with the histogram, each entry and @arg
 * @arg: passed to @fn
 *
 * @fn runs under event_mutex, while events may still update the entries
 * it reads.
 *
 * Context: Process context; takes event_mutex.
 * Return: 0, or -ENOENT if a user removed the trigger.
 */
int hist_kernel_walk(struct trace_event_file *file, const void *owner,
		     void (*fn)(struct hist_data *hd,
				struct tracing_map_elt *elt, void *arg),
		     void *arg)
{
	struct hist_walk ctx = { .fn = fn, .arg = arg };
	struct event_trigger_data *data;

	mutex_lock(&event_mutex);
	data = find_owned_trigger(file, owner);
	if (data) {
		ctx.hd = data->private_data;
		tracing_map_walk(ctx.hd->map, hist_walk_one, &ctx);
	}
	mutex_unlock(&event_mutex);
	return data ? 0 : -ENOENT;
}

/**
 * hist_kernel_drops - new entries a trigger made by hist_kernel_add()
 *	refused because its map was full
 * @file: the event
 * @owner: its cookie
 * @drops: receives the count since the trigger was made or last cleared
 *
 * Context: Process context; takes event_mutex.
 * Return: 0, or -ENOENT if a user removed it (@drops is then left alone).
 */
int hist_kernel_drops(struct trace_event_file *file, const void *owner,
		      u64 *drops)
{
	struct event_trigger_data *data;
	struct hist_data *hd;

	mutex_lock(&event_mutex);
	data = find_owned_trigger(file, owner);
	if (data) {
		hd = data->private_data;
		*drops = tracing_map_read_drops(hd->map);
	}
	mutex_unlock(&event_mutex);
	return data ? 0 : -ENOENT;
}

/**
 * hist_elt_key - a numeric part of an entry's key
 * @hd: the histogram
 * @elt: the entry
 * @i: which part, in the order of keys=
 *
 * Return: the value as it is kept, modifiers such as .buckets applied.
 */
u64 hist_elt_key(struct hist_data *hd, struct tracing_map_elt *elt,
		 unsigned int i)
{
	struct hist_field *f = hd->fields[hist_first_key(hd) + i];

	return *(u64 *)(tracing_map_elt_key(elt) + f->key_offset);
}

/**
 * hist_elt_tracked - what the first onmax()/onchange() of an entry keeps
 * @hd: the histogram
 * @elt: the entry
 * @saved: receives up to @n values saved by save(), in its order (a
 *	string is the address of the entry's copy)
 * @n: room in @saved
 *
 * Return: the tracked value, 0 if the histogram tracks none.
 */
u64 hist_elt_tracked(struct hist_data *hd, struct tracing_map_elt *elt,
		     u64 *saved, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n && i < hd->n_save_vars; i++)
		saved[i] = tracing_map_read_var(elt, hd->save_vars[i]->var_idx);
	for (i = 0; i < hd->n_actions; i++)
		if (hd->actions[i]->handler != HIST_ON_MATCH)
			return tracing_map_read_var(elt,
					hd->actions[i]->track_var->var_idx);
	return 0;
}

static struct event_command trigger_hist_cmd = {
	.flags			= EVENT_CMD_FL_NEEDS_REC,
	.trigger_type		= ETT_EVENT_HIST,
	.set_filter		= set_trigger_filter,
	.unreg_all		= hist_unregister_all,
	.name			= "hist",
	.unreg			= hist_unregister,
	.reg			= hist_register,
	.parse			= hist_parse,
	.trigger		= hist_trigger_probe,
	.init			= hist_trigger_init,
	.free			= hist_trigger_free,
	.print			= hist_trigger_print_op,
};

__init int register_trigger_hist_cmd(void)
{
	int ret = register_event_command(&trigger_hist_cmd);

	WARN_ON(ret < 0);
	return ret;
}

/* ---- enable_hist / disable_hist ---- */

/*
 * These triggers pause or resume every hist trigger of another event.
 * Parsing, registration and printing are the generic enable_event ones
 * (trace_events_trigger.c knows the two command names); only what
 * happens when the triggering event fires is ours.
 */
static void hist_toggle(struct event_trigger_data *data,
			struct trace_buffer *buffer, void *rec,
			struct ring_buffer_event *rbe)
{
	struct enable_trigger_data *target = data->private_data;
	bool pause = !target->enable;
	struct event_trigger_data *hist;

	list_for_each_entry_rcu(hist, &target->file->triggers, list,
				lockdep_is_held(&event_mutex))
		if (hist->cmd_ops->trigger_type == ETT_EVENT_HIST)
			WRITE_ONCE(hist->paused, pause);
}

/* Truncating the trigger file drops every toggle of this event. */
static void hist_toggle_drop_all(struct trace_event_file *file)
{
	struct event_trigger_data *data, *next;

	list_for_each_entry_safe(data, next, &file->triggers, list)
		if (data->cmd_ops->trigger_type == ETT_HIST_ENABLE)
			drop_trigger(data, file);
}

#define HIST_TOGGLE_CMD(cmd_name) {					\
	.name			= cmd_name,				\
	.parse			= event_enable_trigger_parse,		\
	.reg			= event_enable_register_trigger,	\
	.unreg			= event_enable_unregister_trigger,	\
	.unreg_all		= hist_toggle_drop_all,			\
	.set_filter		= set_trigger_filter,			\
	.trigger_type		= ETT_HIST_ENABLE,			\
	.trigger		= hist_toggle,				\
	.count_func		= event_trigger_count,			\
	.init			= event_trigger_init,			\
	.free			= event_enable_trigger_free,		\
	.print			= event_enable_trigger_print,		\
}

static struct event_command hist_toggle_cmds[] = {
	HIST_TOGGLE_CMD(ENABLE_HIST_STR),
	HIST_TOGGLE_CMD(DISABLE_HIST_STR),
};

__init int register_trigger_hist_enable_disable_cmds(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(hist_toggle_cmds); i++) {
		ret = register_event_command(&hist_toggle_cmds[i]);
		if (WARN_ON(ret < 0))
			goto undo;
	}
	return 0;
undo:
	while (i--)
		unregister_event_command(&hist_toggle_cmds[i]);
	return ret;
}

/* ---- the hist and hist_debug files ---- */

/*
 * poll() on a hist file
 *
 * EPOLLIN | EPOLLRDNORM: the event's histograms changed since this open
 * file was last read (a file never read compares with an empty
 * histogram).  EPOLLPRI: they changed since this file last reported
 * EPOLLPRI, was read or was opened.  EPOLLERR: the event is gone.
 * "Changed" is judged by hist_file_count(), from the hits the maps count
 * anyway, so the hot path writes nothing more for it.
 *
 * Waking pollers up.  The hot path ends every update with
 * hist_poll_notify(): while hist_poll_users is zero that is one read of
 * a rarely written global, no barrier and no write.  Otherwise it calls
 * hist_poll_wakeup() (trace_events.h): smp_mb(), and if hist_poll_wq has
 * a waiter, queue hist_poll_work, an irq_work that does the wake_up_all()
 * the update itself may not do (it may run in NMI).  The wait queue is
 * shared by all hist files; a poller woken for another event's update
 * checks its count again and goes back to sleep.
 *
 * Why a poller cannot sleep through an update its check did not see:
 *
 * 1. An open file counts in hist_poll_users from its first poll() until
 *    it is closed: hist_poll_register() increments the counter and then
 *    waits for an RCU grace period, before that poll() first reads the
 *    count.  An update (tracing_map_insert() counting the hit, then
 *    hist_poll_notify()) runs with preemption disabled, which is an RCU
 *    read-side critical section.  If it began before the grace period,
 *    it ended before synchronize_rcu() returned, and the hit is visible
 *    to every later read of the count.  If not, it began after the grace
 *    period started, after the increment, so it reads hist_poll_users as
 *    non-zero.  Either its hit is seen or it goes on to case 2.
 *
 * 2. An update that reads hist_poll_users as non-zero: it has counted
 *    its hit, then wq_has_sleeper() orders that by smp_mb() before it
 *    looks at the wait queue.  poll() puts the waiter on the queue, then
 *    smp_mb(), then reads the count.  At least one of the two sees the
 *    other's write: the count read sees the hit (poll() reports it), or
 *    the update sees the waiter and queues the irq_work, whose wakeup
 *    makes the poll core call event_hist_poll() again.
 *
 * Updates refused by a full map count as drops, not hits: they change
 * nothing poll() reports.  Clearing a histogram restarts its
 * counts, so a read, a clear and exactly as many hits as before the
 * read look unchanged.
 */

/**
 * struct hist_file_data - per-open state of a hist or hist_debug file
 * @file: the open file; its inode's i_private is the event file
 * @last_read: hist_file_count() when the file was last shown
 * @last_pri: hist_file_count() when EPOLLPRI was last reported, the
 *	file last shown, or opened
 * @polling: this file counts in hist_poll_users (set once, with release
 *	semantics, after the grace period of hist_poll_register())
 *
 * The seq_file of single_open() holds it as its private data.
 */
struct hist_file_data {
	struct file	*file;
	u64		last_read;
	u64		last_pri;
	bool		polling;
};

/* Open files that have been polled; read by hist_poll_notify(). */
atomic_t hist_poll_users __read_mostly = ATOMIC_INIT(0);
/* Serializes the first poll() of one open file from several threads. */
static DEFINE_MUTEX(hist_poll_lock);

/* Hits of all histograms shown in the event's hist file. */
static u64 hist_file_count(struct trace_event_file *file)
{
	struct event_trigger_data *data;
	u64 n = 0;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(data, &file->triggers, list) {
		struct hist_data *hd = data->private_data;

		if (data->cmd_ops->trigger_type != ETT_EVENT_HIST ||
		    !hd || !hd->map)
			continue;
		n += tracing_map_read_hits(hd->map);
	}
	return n;
}

static void hist_poll_register(struct hist_file_data *hfd)
{
	mutex_lock(&hist_poll_lock);
	if (!hfd->polling) {
		atomic_inc(&hist_poll_users);
		/* case 1 above: updates that missed the increment are over */
		synchronize_rcu();
		/* pairs with the acquire in event_hist_poll() */
		smp_store_release(&hfd->polling, true);
	}
	mutex_unlock(&hist_poll_lock);
}

enum hist_file_kind {
	HIST_FILE_HIST,
	HIST_FILE_DEBUG,
	HIST_FILE_JSON,
};

static int hist_files_show(struct seq_file *m, enum hist_file_kind kind)
{
	struct hist_file_data *hfd = m->private;
	struct event_trigger_data *data;
	struct trace_event_file *file;
	unsigned int n = 0;
	int ret = 0;

	mutex_lock(&event_mutex);
	file = event_file_file(hfd->file);
	if (unlikely(!file)) {
		ret = -ENODEV;
		goto out;
	}
	/* before the output: an update while printing is not lost */
	hfd->last_read = hist_file_count(file);
	hfd->last_pri = hfd->last_read;
	if (kind == HIST_FILE_JSON) {
		ret = hist_json_show(m, file);
		goto out;
	}
	list_for_each_entry(data, &file->triggers, list) {
		if (data->cmd_ops->trigger_type != ETT_EVENT_HIST)
			continue;
		if (IS_ENABLED(CONFIG_HIST_TRIGGERS_DEBUG) &&
		    kind == HIST_FILE_DEBUG)
			hist_data_show_debug(m, data, n++);
		else
			hist_data_show(m, data, n++);
	}
out:
	mutex_unlock(&event_mutex);
	return ret;
}

static int hist_show(struct seq_file *m, void *v)
{
	return hist_files_show(m, HIST_FILE_HIST);
}

/* The largest buffer a hist file is opened with (it may grow later). */
#define HIST_READ_BUF_MAX	(32UL << 20)

static size_t hist_file_size_hint(struct trace_event_file *file, bool json)
{
	struct event_trigger_data *data;
	size_t size = 0;

	list_for_each_entry(data, &file->triggers, list) {
		struct hist_data *hd = data->private_data;

		if (data->cmd_ops->trigger_type != ETT_EVENT_HIST ||
		    !hd || !hd->map)
			continue;
		size += json ? hist_json_size_hint(hd) :
			       hist_data_size_hint(hd);
	}
	return size;
}

static int hist_json_file_show(struct seq_file *m, void *v);

/*
 * seq_file wants private_data for itself; the event stays in i_private
 * and our per-open state hangs off the seq_file.
 */
static int hist_files_open(struct inode *inode, struct file *file,
			   int (*show)(struct seq_file *, void *))
{
	struct trace_event_file *event_file;
	struct hist_file_data *hfd;
	size_t size = 0;
	int ret;

	ret = tracing_open_file_tr(inode, file);
	if (ret)
		return ret;
	hfd = kzalloc_obj(*hfd, GFP_KERNEL);
	if (!hfd) {
		ret = -ENOMEM;
		goto err;
	}
	hfd->file = file;
	mutex_lock(&event_mutex);
	event_file = event_file_file(file);
	if (event_file) {
		hfd->last_pri = hist_file_count(event_file);
		if (show == hist_show || show == hist_json_file_show)
			size = hist_file_size_hint(event_file,
						   show == hist_json_file_show);
	}
	mutex_unlock(&event_mutex);
	file->private_data = NULL;
	/* a buffer the output fits: printed once, see hist_data_size_hint() */
	if (size > PAGE_SIZE) {
		ret = single_open_size(file, show, hfd,
				       min_t(size_t, size, HIST_READ_BUF_MAX));
		if (!ret)
			return 0;
	}
	ret = single_open(file, show, hfd);
	if (!ret)
		return 0;
	kfree(hfd);
err:
	tracing_release_file_tr(inode, file);
	return ret;
}

static int hist_files_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;
	struct hist_file_data *hfd = m->private;

	if (hfd->polling)
		atomic_dec(&hist_poll_users);
	kfree(hfd);
	return tracing_single_release_file_tr(inode, file);
}

static int event_hist_open(struct inode *inode, struct file *file)
{
	return hist_files_open(inode, file, hist_show);
}

static __poll_t event_hist_poll(struct file *file, poll_table *wait)
{
	struct seq_file *m = file->private_data;
	struct hist_file_data *hfd = m->private;
	struct trace_event_file *event_file;
	__poll_t ret = 0;
	u64 n;

	/* a first poll() in another thread: its grace period is over */
	if (!smp_load_acquire(&hfd->polling))
		hist_poll_register(hfd);
	hist_poll_wait(file, wait);
	/* case 2 above: the waiter is queued before the count is read */
	smp_mb();

	mutex_lock(&event_mutex);
	event_file = event_file_file(file);
	if (!event_file) {
		ret = EPOLLERR;
		goto out;
	}
	n = hist_file_count(event_file);
	if (n != hfd->last_read)
		ret |= EPOLLIN | EPOLLRDNORM;
	if (n != hfd->last_pri) {
		hfd->last_pri = n;
		ret |= EPOLLPRI;
	}
out:
	mutex_unlock(&event_mutex);
	return ret;
}

const struct file_operations event_hist_fops = {
	.release	= hist_files_release,
	.open		= event_hist_open,
	.llseek		= seq_lseek,
	.read		= seq_read,
	.poll		= event_hist_poll,
};

/* hist.json: the same data as one JSON document, see trace_hist_json.c */
static int hist_json_file_show(struct seq_file *m, void *v)
{
	return hist_files_show(m, HIST_FILE_JSON);
}

static int event_hist_json_open(struct inode *inode, struct file *file)
{
	return hist_files_open(inode, file, hist_json_file_show);
}

const struct file_operations event_hist_json_fops = {
	.release	= hist_files_release,
	.open		= event_hist_json_open,
	.llseek		= seq_lseek,
	.read		= seq_read,
};

#ifdef CONFIG_HIST_TRIGGERS_DEBUG
static int hist_debug_show(struct seq_file *m, void *v)
{
	return hist_files_show(m, HIST_FILE_DEBUG);
}

static int event_hist_debug_open(struct inode *inode, struct file *file)
{
	return hist_files_open(inode, file, hist_debug_show);
}

const struct file_operations event_hist_debug_fops = {
	.release	= hist_files_release,
	.open		= event_hist_debug_open,
	.llseek		= seq_lseek,
	.read		= seq_read,
};
#endif
