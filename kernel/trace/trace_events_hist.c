// SPDX-License-Identifier: GPL-2.0
/*
 * Hist triggers: the "hist", "enable_hist" and "disable_hist" commands.
 *
 * Writing "hist:..." to an event's trigger file parses the text
 * (trace_hist_parse.c), binds every key and value to the event
 * (trace_hist_fields.c), lays the compound key out, creates the
 * tracing_map and registers a trigger whose probe aggregates each event
 * (trace_hist_run.c).  The "hist" and "hist_debug" files print the
 * result (trace_hist_output.c).
 *
 * A trigger text that matches an existing trigger (same keys, values,
 * variables, sort keys, name and filter) addresses that trigger: "!"
 * removes it, ":pause", ":cont" and ":clear" act on it, and adding it
 * again is an error.  Triggers with the same name= share one struct
 * hist_data, reference-counted; all of them update and show it.
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

static void cmd_log(struct hist_cmd *cmd, enum hist_err err, const char *str)
{
	struct trace_event_call *call = cmd->file->event_call;
	char loc[MAX_FILTER_STR_VAL];
	unsigned int pos = 0;

	if (str)
		pos = err_pos(cmd->text, str);
	snprintf(loc, sizeof(loc), "hist:%s:%s", call->class->system,
		 trace_event_name(call));
	tracing_log_err(cmd->file->tr, loc, cmd->text,
			(const char **)hist_err_text, err, pos);
}

/**
 * hist_log - report an error in the trigger being created
 * @hd: the histogram being built
 * @err: what went wrong
 * @str: the text it concerns (the caret goes to its first occurrence in
 *	the command), or NULL for the start of the command
 */
void hist_log(struct hist_data *hd, enum hist_err err, const char *str)
{
	if (hd->cmd)
		cmd_log(hd->cmd, err, str);
}

/* ---- building a histogram ---- */

static void hist_data_free(struct hist_data *hd)
{
	unsigned int i;

	if (!hd)
		return;
	hist_actions_destroy(hd);
	hist_vars_release(hd);
	if (hd->map)
		tracing_map_destroy(hd->map);
	for (i = 0; i < hd->n_fields; i++)
		hist_field_destroy(hd->fields[i]);
	hist_spec_free(&hd->spec);
	kfree(hd->clock);
	kfree(hd);
}

/*
 * Histograms with a name=, by name.  A table stays findable as long as
 * one trigger uses it, whichever trigger created it.
 */
static LIST_HEAD(named_hists);

static struct hist_data *find_named_hist(const char *name)
{
	struct hist_data *hd;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(hd, &named_hists, named_list)
		if (!strcmp(hd->spec.name, name))
			return hd;
	return NULL;
}

static void hist_data_put(struct hist_data *hd)
{
	if (!hd || --hd->refs)
		return;
	if (!list_empty(&hd->named_list))
		list_del(&hd->named_list);
	hist_data_free(hd);
}

static bool tree_has_flag(const struct hist_field *f, unsigned long flag)
{
	if (!f)
		return false;
	return (f->flags & flag) || tree_has_flag(f->operands[0], flag) ||
	       tree_has_flag(f->operands[1], flag);
}

static int add_field(struct hist_cmd *cmd, struct hist_data *hd, char *text,
		     enum hist_role role, struct hist_field **out)
{
	struct hist_field_err err = {};
	struct hist_field *f;
	unsigned int i;

	f = hist_field_create(hd, cmd->file->event_call, text, role, &err);
	if (IS_ERR(f)) {
		for (i = 0; i < err.n; i++)
			cmd_log(cmd, err.err[i], err.str[i]);
		return PTR_ERR(f);
	}
	if (hd->n_fields == HIST_FIELDS_MAX) {
		hist_field_destroy(f);
		return -EINVAL;
	}
	hd->fields[hd->n_fields++] = f;
	*out = f;
	return 0;
}

/* Values: the implicit hitcount first, then the ones given. */
static int create_vals(struct hist_cmd *cmd, struct hist_data *hd)
{
	struct hist_spec *spec = &hd->spec;
	struct hist_field *f;
	unsigned int i;
	int ret;

	f = hist_field_hitcount();
	if (IS_ERR(f))
		return PTR_ERR(f);
	hd->fields[hd->n_fields++] = f;

	for (i = 0; i < spec->n_vals; i++) {
		if (!strcmp(spec->vals[i].str, "hitcount"))
			continue;
		if (hd->n_fields == HIST_VALS_MAX)
			return -EINVAL;
		ret = add_field(cmd, hd, spec->vals[i].str, HIST_ROLE_VAL, &f);
		if (ret)
			return ret;
	}
	hd->n_vals = hd->n_fields;
	return 0;
}

static int create_vars(struct hist_cmd *cmd, struct hist_data *hd)
{
	struct hist_spec *spec = &hd->spec;
	struct hist_field *f;
	unsigned int i;
	int ret;

	for (i = 0; i < spec->n_vars; i++) {
		/* names are unique per event, unless we look a trigger up */
		if (!hd->lookup_only && !spec->pause && !spec->cont &&
		    !spec->clear &&
		    hist_var_defined_elsewhere(hd, spec->vars[i].name)) {
			cmd_log(cmd, HIST_ERR_VAR_REDEFINED, spec->vars[i].name);
			return -EINVAL;
		}
		ret = add_field(cmd, hd, spec->vars[i].str, HIST_ROLE_VAR, &f);
		if (ret)
			return ret;
		ret = hist_var_init(hd, f, spec->vars[i].name);
		if (ret == -E2BIG) {
			cmd_log(cmd, HIST_ERR_TOO_MANY_VARS, spec->vars[i].name);
			return -EINVAL;
		}
		if (ret)
			return ret;
		hd->n_vars++;
	}
	return 0;
}

static int create_keys(struct hist_cmd *cmd, struct hist_data *hd)
{
	struct hist_spec *spec = &hd->spec;
	struct hist_field *f;
	unsigned int i;
	int ret;

	for (i = 0; i < spec->n_keys; i++) {
		ret = add_field(cmd, hd, spec->keys[i].str, HIST_ROLE_KEY, &f);
		if (ret)
			return ret;
		f->flags |= HIST_FIELD_FL_KEY;
		if (hist_field_is_string(f))
			f->key_size = ALIGN(f->size + 1, sizeof(u64));
		else if (f->flags & HIST_FIELD_FL_STACKTRACE)
			f->key_size = HIST_STACKTRACE_SIZE;
		else
			f->key_size = sizeof(u64);
		/* numbers are keyed (and shown) as 64-bit values */
		if (!hist_field_is_string(f) &&
		    !(f->flags & HIST_FIELD_FL_STACKTRACE))
			f->size = sizeof(u64);
		/* A log2 or bucket number is never negative. */
		if (f->flags & (HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_BUCKET))
			f->is_signed = false;
		f->key_offset = hd->key_size;
		hd->key_size += f->key_size;
		hd->n_keys++;
	}
	return 0;
}

static struct hist_field *find_sort_field(struct hist_data *hd,
					  const char *name)
{
	unsigned int i;

	if (!strcmp(name, "hitcount"))
		return hd->fields[0];
	for (i = 1; i < hd->n_fields; i++) {
		struct hist_field *f = hd->fields[i];

		if (f->flags & HIST_FIELD_FL_VAR)
			continue;
		if (!strcmp(name, hist_field_plain_name(f)))
			return f;
	}
	return NULL;
}

static int create_sort_keys(struct hist_cmd *cmd, struct hist_data *hd)
{
	struct hist_spec *spec = &hd->spec;
	unsigned int i;

	if (!spec->n_sort) {
		hd->sort_fields[0] = hd->fields[0];
		hd->n_sort_keys = 1;
		return 0;
	}
	for (i = 0; i < spec->n_sort; i++) {
		struct hist_field *f = find_sort_field(hd, spec->sort[i].name);

		if (!f) {
			cmd_log(cmd, HIST_ERR_INVALID_SORT_FIELD,
				spec->sort[i].name);
			return -EINVAL;
		}
		hd->sort_fields[i] = f;
		hd->sort_keys[i].descending = spec->sort[i].descending;
	}
	hd->n_sort_keys = spec->n_sort;
	return 0;
}

static int elt_data_alloc(struct tracing_map_elt *elt)
{
	struct hist_data *hd = elt->map->private_data;

	elt->private_data = kzalloc(struct_size_t(struct hist_elt_data, strs,
						  hd->n_elt_slots *
						  HIST_VAR_STR_SIZE),
				    GFP_KERNEL);
	return elt->private_data ? 0 : -ENOMEM;
}

static void elt_data_free(struct tracing_map_elt *elt)
{
	kfree(elt->private_data);
	elt->private_data = NULL;
}

/* Runs in the inserting event's context, which may be NMI. */
static void execname_init(struct tracing_map_elt *elt)
{
	char *comm = elt->private_data;

	if (!current->pid)
		strscpy(comm, "<idle>", TASK_COMM_LEN);
	else
		memcpy(comm, current->comm, TASK_COMM_LEN);
	comm[TASK_COMM_LEN - 1] = '\0';
}

static const struct tracing_map_ops elt_data_ops = {
	.elt_alloc	= elt_data_alloc,
	.elt_free	= elt_data_free,
	.elt_init	= execname_init,
};

static int create_map(struct hist_data *hd)
{
	const struct tracing_map_ops *ops = NULL;
	unsigned int bits = hd->spec.map_bits ?: TRACING_MAP_BITS_DEFAULT;
	unsigned int i;
	int idx;

	for (i = hist_first_key(hd); i < hd->n_fields; i++)
		if (hd->fields[i]->flags & HIST_FIELD_FL_EXECNAME)
			ops = &elt_data_ops;
	if (hd->n_elt_slots)
		ops = &elt_data_ops;

	hd->map = tracing_map_create(bits, hd->key_size, ops, hd);
	if (IS_ERR(hd->map)) {
		int ret = PTR_ERR(hd->map);

		hd->map = NULL;
		return ret;
	}

	for (i = 0; i < hd->n_vals; i++) {
		idx = tracing_map_add_sum_field(hd->map);
		if (idx < 0)
			return idx;
		hd->fields[i]->map_idx = idx;
	}
	/* variables got their indexes in creation order */
	for (i = 0; i < hd->n_map_vars; i++) {
		idx = tracing_map_add_var(hd->map);
		if (idx < 0)
			return idx;
		if (WARN_ON_ONCE(idx != i))
			return -EINVAL;
	}
	for (i = hist_first_key(hd); i < hd->n_fields; i++) {
		struct hist_field *f = hd->fields[i];
		tracing_map_cmp_fn_t cmp;

		if (hist_field_is_string(f))
			cmp = tracing_map_cmp_string;
		else if (f->flags & HIST_FIELD_FL_STACKTRACE)
			cmp = tracing_map_cmp_none;
		else
			cmp = tracing_map_cmp_num(sizeof(u64), f->is_signed);
		idx = tracing_map_add_key_field(hd->map, f->key_offset, cmp);
		if (idx < 0)
			return idx;
		f->map_idx = idx;
	}
	for (i = 0; i < hd->n_sort_keys; i++)
		hd->sort_keys[i].field_idx = hd->sort_fields[i]->map_idx;

	return tracing_map_init(hd->map);
}

static struct hist_data *hist_data_create(struct hist_cmd *cmd, char *param,
					  bool lookup_only)
{
	struct hist_data *hd;
	unsigned int i;
	int ret;

	hd = kzalloc(sizeof(*hd), GFP_KERNEL);
	if (!hd)
		return ERR_PTR(-ENOMEM);
	hd->refs = 1;
	INIT_LIST_HEAD(&hd->named_list);
	hd->event_file = cmd->file;
	hd->cmd = cmd;
	hd->lookup_only = lookup_only;

	ret = hist_spec_parse(param, &hd->spec);
	if (ret) {
		if (hd->spec.err != HIST_ERR_NONE)
			cmd_log(cmd, hd->spec.err, hd->spec.err_str);
		goto fail;
	}

	ret = create_vals(cmd, hd);
	if (!ret)
		ret = create_vars(cmd, hd);
	if (!ret)
		ret = create_keys(cmd, hd);
	if (ret)
		goto fail;

	hd->show_hitcount = !hd->spec.nohitcount;
	if (!hd->show_hitcount && hd->n_vals < 2) {
		cmd_log(cmd, HIST_ERR_NEED_NOHC_VAL, NULL);
		ret = -ENOENT;
		goto fail;
	}

	ret = create_sort_keys(cmd, hd);
	if (!ret)
		ret = hist_actions_create(hd);
	if (ret)
		goto fail;

	for (i = 0; i < hd->n_fields; i++) {
		if (tree_has_flag(hd->fields[i], HIST_FIELD_FL_TIMESTAMP))
			hd->uses_timestamps = true;
		if (hd->fields[i]->kind == HIST_KIND_STACKTRACE)
			hd->uses_stack = true;
	}
	for (i = 0; i < hd->n_field_vars; i++) {
		if (hd->field_vars[i]->flags & HIST_FIELD_FL_TIMESTAMP)
			hd->uses_timestamps = true;
		if (hd->field_vars[i]->kind == HIST_KIND_STACKTRACE)
			hd->uses_stack = true;
	}
	for (i = 0; i < hd->n_save_vars; i++) {
		if (hd->save_vars[i]->flags & HIST_FIELD_FL_TIMESTAMP)
			hd->uses_timestamps = true;
		if (hd->save_vars[i]->kind == HIST_KIND_STACKTRACE)
			hd->uses_stack = true;
	}
	hd->clock = kstrdup(hd->spec.clock ?: "global", GFP_KERNEL);
	if (!hd->clock) {
		ret = -ENOMEM;
		goto fail;
	}

	hd->cmd = NULL;
	return hd;
fail:
	hist_data_free(hd);
	return ERR_PTR(ret);
}

/* ---- matching triggers ---- */

static unsigned int field_index(struct hist_data *hd, struct hist_field *f)
{
	unsigned int i;

	for (i = 0; i < hd->n_fields; i++)
		if (hd->fields[i] == f)
			break;
	return i;
}

static bool hist_data_same(struct hist_data *a, struct hist_data *b)
{
	unsigned int i;

	if (a->n_vals != b->n_vals || a->n_vars != b->n_vars ||
	    a->n_keys != b->n_keys || a->n_sort_keys != b->n_sort_keys ||
	    a->show_hitcount != b->show_hitcount)
		return false;
	for (i = 0; i < a->n_fields; i++)
		if (!hist_field_same(a->fields[i], b->fields[i]))
			return false;
	for (i = 0; i < a->n_sort_keys; i++)
		if (field_index(a, a->sort_fields[i]) !=
		    field_index(b, b->sort_fields[i]) ||
		    a->sort_keys[i].descending != b->sort_keys[i].descending)
			return false;
	return hist_actions_same(a, b);
}

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
	if (likely(rec))
		hist_data_update(data->private_data, buffer, rec, rbe);
}

static int hist_trigger_init(struct event_trigger_data *data)
{
	data->ref++;
	return 0;
}

static void hist_trigger_free(struct event_trigger_data *data)
{
	struct hist_data *hd = data->private_data;

	if (WARN_ON_ONCE(data->ref <= 0))
		return;
	if (--data->ref)
		return;
	if (data->name)
		del_named_trigger(data);
	trigger_data_free(data);
	hist_data_put(hd);
}

static int hist_trigger_print_op(struct seq_file *m,
				 struct event_trigger_data *data)
{
	return hist_trigger_print(m, data);
}

static struct event_trigger_ops hist_trigger_ops = {
	.init		= hist_trigger_init,
	.free		= hist_trigger_free,
	.print		= hist_trigger_print_op,
	.trigger	= hist_trigger_probe,
};

static struct event_trigger_ops *hist_get_trigger_ops(char *cmd, char *param)
{
	return &hist_trigger_ops;
}

static int hist_register(char *glob, struct event_trigger_data *data,
			 struct trace_event_file *file)
{
	struct hist_data *hd = data->private_data;
	struct trace_array *tr = file->tr;
	int ret;

	lockdep_assert_held(&event_mutex);

	if (hd->uses_timestamps) {
		ret = tracing_set_clock(tr, hd->clock);
		if (ret) {
			hist_log(hd, HIST_ERR_SET_CLOCK_FAIL, hd->clock);
			return ret;
		}
		tracing_set_filter_buffering(tr, true);
		/* events buffered before this must not reach the trigger */
		tracepoint_synchronize_unregister();
	}

	ret = hist_actions_register(hd);
	if (ret) {
		hist_actions_unregister(hd);
		return ret;
	}

	hist_trigger_init(data);
	list_add_tail_rcu(&data->list, &file->triggers);
	update_cond_flag(file);
	ret = trace_event_trigger_enable_disable(file, 1);
	if (ret < 0) {
		list_del_rcu(&data->list);
		update_cond_flag(file);
		data->ref--;
		tracepoint_synchronize_unregister();	/* as in hist_remove() */
		hist_actions_unregister(hd);
		if (hd->uses_timestamps)
			tracing_set_filter_buffering(tr, false);
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
	if (data->ops->free)
		data->ops->free(data);
}

static void hist_remove(struct event_trigger_data *data,
			struct trace_event_file *file)
{
	struct hist_data *hd = data->private_data;

	list_del_rcu(&data->list);
	update_cond_flag(file);
	trace_event_trigger_enable_disable(file, 0);
	/*
	 * Only once no event runs the trigger any more may its snapshot go
	 * and events be buffered again (a buffered event has no ring buffer
	 * time stamp to give common_timestamp).
	 */
	tracepoint_synchronize_unregister();
	hist_actions_unregister(hd);
	if (hd->uses_timestamps)
		tracing_set_filter_buffering(file->tr, false);
	if (data->ops->free)
		data->ops->free(data);
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

	/* triggers whose variables are in use stay */
	list_for_each_entry_safe(test, n, &file->triggers, list)
		if (test->cmd_ops->trigger_type == ETT_EVENT_HIST &&
		    !hist_data_is_busy(test->private_data))
			hist_remove(test, file);
}

/* ---- the hist command ---- */

/* ":pause", ":cont" and ":clear" on an existing trigger. */
static int hist_control(struct hist_cmd *cmd, struct event_trigger_data *test,
			struct hist_spec *spec)
{
	struct hist_data *hd = test->private_data;

	if (spec->pause)
		test->paused = true;
	else if (spec->cont)
		test->paused = false;
	if (spec->clear)
		tracing_map_clear(hd->map);
	return 0;
}

/* The filter as set_trigger_filter() keeps it: without "if". */
static char *filter_text(char *filter)
{
	if (!filter)
		return NULL;
	filter = skip_spaces(filter);
	if (str_has_prefix(filter, "if") && isspace(filter[2]))
		filter = skip_spaces(filter + 2);
	return *filter ? filter : NULL;
}

/*
 * Split "trigger [if filter]".  Unlike other triggers a hist trigger may
 * contain blanks ("trace(e, a, b)"), so only a blank-delimited "if" ends
 * it, as upstream does.  *@filter keeps the "if".
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

static int hist_parse(struct event_command *cmd_ops,
		      struct trace_event_file *file, char *glob, char *cmd,
		      char *param_and_filter)
{
	struct event_trigger_data *data = NULL, *test;
	struct hist_data *named = NULL;
	struct hist_cmd hc = { .file = file };
	bool remove = event_trigger_check_remove(glob);
	struct hist_data *hd;
	char *param, *filter, *cmp_filter;
	int ret;

	lockdep_assert_held(&event_mutex);

	hc.text = hist_cmd_text(cmd, param_and_filter);
	if (!hc.text)
		return -ENOMEM;

	ret = split_filter(param_and_filter, &param, &filter);
	if (ret)
		goto out;

	hd = hist_data_create(&hc, param, remove);
	if (IS_ERR(hd)) {
		ret = PTR_ERR(hd);
		goto out;
	}

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
	if (hd->spec.cont || hd->spec.clear ||
	    (test && hd->spec.pause)) {
		if (!test) {
			cmd_log(&hc, HIST_ERR_NEXIST_TRIGGER, NULL);
			ret = -ENOENT;
		} else {
			ret = hist_control(&hc, test, &hd->spec);
		}
		hist_data_free(hd);
		goto out;
	}
	if (test) {
		cmd_log(&hc, HIST_ERR_TRIGGER_EEXIST, NULL);
		hist_data_free(hd);
		ret = -EEXIST;
		goto out;
	}

	if (hd->spec.name) {
		named = find_named_hist(hd->spec.name);
		if (named) {
			if (!hist_data_same(named, hd)) {
				cmd_log(&hc, HIST_ERR_NAMED_MISMATCH,
					hd->spec.name_str);
				hist_data_free(hd);
				ret = -EINVAL;
				goto out;
			}
			/* Share the existing table. */
			hist_data_free(hd);
			hd = named;
			hd->refs++;
		}
	}
	if (!hd->map) {
		ret = create_map(hd);
		if (ret) {
			hist_data_put(hd);
			goto out;
		}
		if (hd->spec.name)
			list_add(&hd->named_list, &named_hists);
	}

	ret = -ENOMEM;
	data = trigger_data_alloc(cmd_ops, cmd, param, hd);
	if (!data) {
		hist_data_put(hd);
		goto out;
	}
	data->paused = hd->spec.pause;

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
	kfree(hc.text);
	return ret;
}

static struct event_command trigger_hist_cmd;

/**
 * hist_helper_create - add a helper histogram for a field variable
 * @owner: the histogram that needs it
 * @file: the event to put it on
 * @text: the trigger, without "hist:"
 *
 * Return: the new trigger or an error pointer.
 */
struct event_trigger_data *hist_helper_create(struct hist_data *owner,
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
	return data;
}

/**
 * hist_helper_drop - remove a helper histogram nobody references
 * @data: its trigger
 */
void hist_helper_drop(struct event_trigger_data *data)
{
	struct hist_data *hd = data->private_data;

	hist_remove(data, hd->event_file);
}

static struct event_command trigger_hist_cmd = {
	.flags			= EVENT_CMD_FL_NEEDS_REC,
	.get_trigger_ops	= hist_get_trigger_ops,
	.trigger_type		= ETT_EVENT_HIST,
	.set_filter		= set_trigger_filter,
	.unreg_all		= hist_unregister_all,
	.name			= "hist",
	.unreg			= hist_unregister,
	.reg			= hist_register,
	.parse			= hist_parse,
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

/* With a count: only that many times. */
static void hist_toggle_counted(struct event_trigger_data *data,
				struct trace_buffer *buffer, void *rec,
				struct ring_buffer_event *rbe)
{
	if (data->count == 0)
		return;
	if (data->count != -1)
		data->count--;
	hist_toggle(data, buffer, rec, rbe);
}

static struct event_trigger_ops hist_toggle_ops[2] = {
	{
		.init		= event_trigger_init,
		.free		= event_enable_trigger_free,
		.print		= event_enable_trigger_print,
		.trigger	= hist_toggle,
	}, {
		.init		= event_trigger_init,
		.free		= event_enable_trigger_free,
		.print		= event_enable_trigger_print,
		.trigger	= hist_toggle_counted,
	},
};

static struct event_trigger_ops *hist_toggle_get_ops(char *cmd, char *param)
{
	return &hist_toggle_ops[param ? 1 : 0];
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
	.get_trigger_ops	= hist_toggle_get_ops,			\
	.trigger_type		= ETT_HIST_ENABLE,			\
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

static int hist_files_show(struct seq_file *m, bool debug)
{
	struct event_trigger_data *data;
	struct trace_event_file *file;
	unsigned int n = 0;
	int ret = 0;

	mutex_lock(&event_mutex);
	file = event_file_file(m->private);
	if (unlikely(!file)) {
		ret = -ENODEV;
		goto out;
	}
	list_for_each_entry(data, &file->triggers, list) {
		if (data->cmd_ops->trigger_type != ETT_EVENT_HIST)
			continue;
		if (debug)
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
	return hist_files_show(m, false);
}

/* seq_file wants private_data for itself; the event stays in i_private. */
static int hist_files_open(struct inode *inode, struct file *file,
			   int (*show)(struct seq_file *, void *))
{
	int ret;

	ret = tracing_open_file_tr(inode, file);
	if (!ret) {
		file->private_data = NULL;
		ret = single_open(file, show, file);
		if (ret)
			tracing_release_file_tr(inode, file);
	}
	return ret;
}

static int event_hist_open(struct inode *inode, struct file *file)
{
	return hist_files_open(inode, file, hist_show);
}

const struct file_operations event_hist_fops = {
	.release	= tracing_single_release_file_tr,
	.open		= event_hist_open,
	.llseek		= seq_lseek,
	.read		= seq_read,
};

#ifdef CONFIG_HIST_TRIGGERS_DEBUG
static int hist_debug_show(struct seq_file *m, void *v)
{
	return hist_files_show(m, true);
}

static int event_hist_debug_open(struct inode *inode, struct file *file)
{
	return hist_files_open(inode, file, hist_debug_show);
}

const struct file_operations event_hist_debug_fops = {
	.release	= tracing_single_release_file_tr,
	.open		= event_hist_debug_open,
	.llseek		= seq_lseek,
	.read		= seq_read,
};
#endif
