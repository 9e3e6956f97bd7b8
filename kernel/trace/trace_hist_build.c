// SPDX-License-Identifier: GPL-2.0
/*
 * Building a histogram: a trigger's text -> struct hist_data.
 *
 * hist_data_create() parses the text (trace_hist_parse.c), binds the
 * values, variables and keys to the event (trace_hist_fields.c,
 * trace_hist_vars.c), resolves the sort criteria and binds the actions
 * (trace_hist_actions.c).  hist_data_bind_map() then gives a new
 * trigger its map: its own, or the table it shares with the triggers of
 * the same name= (struct hist_named).  The order of the steps decides
 * which error a text with several errors reports (the error_log ABI).
 *
 * What the build depends on besides the text comes with the command
 * (struct hist_cmd): the event, whether the histogram only looks a
 * trigger up, the sort criteria allowed, and how helper histograms are
 * made (the trigger layer's hist_data_ops).  Nothing here knows the
 * trigger core.
 *
 * Everything here runs under event_mutex.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "trace_hist.h"

/* Tables of triggers with a name=, by name.  Under event_mutex. */
static LIST_HEAD(named_hists);

static void hist_named_leave(struct hist_data *hd)
{
	struct hist_named *named = hd->named;

	list_del(&hd->named_list);
	hd->named = NULL;
	hd->map = NULL;
	if (!list_empty(&named->sharers))
		return;
	tracing_map_destroy(named->map);
	list_del(&named->list);
	kfree(named);
}

/**
 * hist_data_free - free a histogram nobody else refers to
 * @hd: the histogram, or NULL: one hist_data_create() made that was not
 *	registered, or whose last reference hist_data_put() dropped
 *
 * Context: event_mutex held.
 */
void hist_data_free(struct hist_data *hd)
{
	unsigned int i;

	if (!hd)
		return;
	hist_actions_destroy(hd);
	hist_vars_release(hd);
	if (hd->named)
		hist_named_leave(hd);
	else if (hd->map)
		tracing_map_destroy(hd->map);
	for (i = 0; i < hd->n_fields; i++)
		hist_field_destroy(hd->fields[i]);
	hist_spec_free(&hd->spec);
	kfree(hd->clock);
	kfree(hd);
}

/* Any sharer of the named table @name, or NULL. */
static struct hist_data *find_named_hist(const char *name)
{
	struct hist_named *named;
	struct hist_data *hd;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(named, &named_hists, list) {
		hd = list_first_entry(&named->sharers, struct hist_data,
				      named_list);
		if (!strcmp(hd->spec.name, name))
			return hd;
	}
	return NULL;
}

/**
 * hist_data_put - drop a reference; the last one frees the histogram
 * @hd: the histogram, or NULL
 *
 * Context: event_mutex held; no event may be using @hd any more once
 * the last reference goes (its trigger is gone, and so are those of the
 * histograms that looked its map up).
 */
void hist_data_put(struct hist_data *hd)
{
	if (!hd)
		return;
	lockdep_assert_held(&event_mutex);
	if (--hd->refs)
		return;
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
			hist_cmd_log(cmd, err.err[i], err.str[i]);
		return PTR_ERR(f);
	}
	if (hd->n_fields == HIST_FIELDS_MAX) {
		hist_field_destroy(f);
		hist_cmd_log(cmd, HIST_ERR_TOO_MANY_FIELDS, text);
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
	unsigned int i, n_quants = 0;
	struct hist_field *f;
	char *whole;
	int ret;

	f = hist_field_hitcount();
	if (IS_ERR(f))
		return PTR_ERR(f);
	hd->fields[hd->n_fields++] = f;

	for (i = 0; i < spec->n_vals; i++) {
		if (!strcmp(spec->vals[i].str, "hitcount"))
			continue;
		if (hd->n_fields == HIST_VALS_MAX) {
			hist_cmd_log(cmd, HIST_ERR_TOO_MANY_VALS, spec->vals[i].str);
			return -EINVAL;
		}
		/* parsing cuts the text up: keep it whole for the caret */
		whole = NULL;
		if (strstr(spec->vals[i].str, ".quantiles")) {
			whole = kstrdup(spec->vals[i].str, GFP_KERNEL);
			if (!whole)
				return -ENOMEM;
		}
		ret = add_field(cmd, hd, spec->vals[i].str, HIST_ROLE_VAL, &f);
		/*
		 * Their buckets are big: entries x quantile values are
		 * bounded, but only a histogram that makes its own map is
		 * refused (not one that finds, removes or controls a
		 * trigger, whose size= may be left out).
		 */
		if (!ret && (f->flags & HIST_FIELD_FL_QUANT) &&
		    (u64)(++n_quants) << (spec->map_bits ?: TRACING_MAP_BITS_DEFAULT) >
		    TRACING_MAP_QUANT_ELTS_MAX && !cmd->quant_err) {
			cmd->quant_err = whole;
			whole = NULL;
		}
		kfree(whole);
		if (ret)
			return ret;
	}
	if (spec->vals_overflow) {
		hist_cmd_log(cmd, HIST_ERR_TOO_MANY_VALS, spec->vals_str);
		return -EINVAL;
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
		unsigned int j;

		for (j = 0; j < i; j++) {
			if (!strcmp(spec->vars[j].name, spec->vars[i].name)) {
				hist_cmd_log(cmd, HIST_ERR_VAR_REDEFINED,
					     spec->vars[i].name);
				return -EINVAL;
			}
		}
		/* names are unique per event, unless we look a trigger up */
		if (!cmd->lookup_only && !spec->pause && !spec->cont &&
		    !spec->clear &&
		    hist_var_defined_elsewhere(hd, spec->vars[i].name)) {
			hist_cmd_log(cmd, HIST_ERR_VAR_REDEFINED, spec->vars[i].name);
			return -EINVAL;
		}
		ret = add_field(cmd, hd, spec->vars[i].str, HIST_ROLE_VAR, &f);
		if (ret)
			return ret;
		ret = hist_var_init(hd, f, spec->vars[i].name);
		if (ret == -E2BIG) {
			hist_cmd_log(cmd, HIST_ERR_TOO_MANY_VARS, spec->vars[i].name);
			return -EINVAL;
		}
		if (ret)
			return ret;
		hd->n_vars++;
	}
	return 0;
}

/**
 * hist_vars_redefined - does a histogram define a variable that another
 *	trigger of its event has?
 * @cmd: the command, whose error_log entry it is
 * @hd: the histogram
 *
 * Return: true, and logged, if it does.
 */
bool hist_vars_redefined(struct hist_cmd *cmd, struct hist_data *hd)
{
	unsigned int i;

	for (i = 0; i < hd->spec.n_vars; i++) {
		if (hist_var_defined_elsewhere(hd, hd->spec.vars[i].name)) {
			hist_cmd_log(cmd, HIST_ERR_VAR_REDEFINED,
				     hd->spec.vars[i].name);
			return true;
		}
	}
	return false;
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
		/* a string key keeps at most key_size - 1 characters */
		if (hist_field_is_string(f))
			f->key_size = ALIGN(f->size, sizeof(u64));
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
		if (hd->key_size > HIST_KEY_SIZE_MAX) {
			hist_cmd_log(cmd, HIST_ERR_KEY_TOO_LARGE, spec->keys[i].str);
			return -EINVAL;
		}
	}
	if (spec->keys_overflow) {
		hist_cmd_log(cmd, HIST_ERR_TOO_MANY_KEYS, spec->keys_str);
		return -EINVAL;
	}
	return 0;
}

/* @agg: the value's HIST_FIELD_FL_AGG flag ("lat.max"), 0 for a sum */
static struct hist_field *find_sort_field(struct hist_data *hd,
					  const char *name, unsigned long agg)
{
	unsigned int i;

	if (!strcmp(name, "hitcount"))
		return agg ? NULL : hd->fields[0];
	for (i = 1; i < hd->n_fields; i++) {
		struct hist_field *f = hd->fields[i];

		if (f->flags & HIST_FIELD_FL_VAR)
			continue;
		if ((f->flags & HIST_FIELD_FL_AGG) != agg)
			continue;
		if (!strcmp(name, hist_field_plain_name(f)))
			return f;
	}
	return NULL;
}

/*
 * "name.min[.descending]": an aggregation after the name (".min", ".max"
 * or ".avg") is part of it.  Return its flag and set *@mod to the
 * modifier after it.
 */
static unsigned long sort_agg(const struct hist_spec_sort *s,
			      const char **mod)
{
	const char *rest;
	unsigned long agg;
	char name[4];

	*mod = s->mod;
	if (!s->mod)
		return 0;
	rest = strchrnul(s->mod, '.');
	if (rest - s->mod >= sizeof(name))
		return 0;
	strscpy(name, s->mod, rest - s->mod + 1);
	agg = hist_agg_flag(name);
	if (agg)
		*mod = *rest ? rest + 1 : NULL;
	return agg;
}

/*
 * Sort criteria, checked one by one in this order: empty, one too many
 * (when the last one that fits is reached), the field, then its
 * modifier.  The order decides which error a text with several errors
 * reports; keep it (the error_log ABI).  Every command takes the limit
 * in force, there being one limit for all (":pause" may create a
 * trigger, and a removal that does not parse is an error too); the
 * limit cannot go below what an existing trigger uses (sort_keys_set()).
 */
static int create_sort_keys(struct hist_cmd *cmd, struct hist_data *hd)
{
	static const enum hist_err too_many[] = {
		HIST_ERR_TOO_MANY_SORT_FIELDS,
		HIST_ERR_TOO_MANY_SORT_FIELDS3,
		HIST_ERR_TOO_MANY_SORT_FIELDS4,
	};
	struct hist_spec *spec = &hd->spec;
	unsigned int i, limit = cmd->sort_keys_max;
	bool over;

	BUILD_BUG_ON(ARRAY_SIZE(too_many) !=
		     HIST_SORT_KEYS_MAX - HIST_SORT_KEYS_DEFAULT + 1);
	/* the text of HIST_ERR_TOO_MANY_SORT_FIELDS says "Max = 2" */
	BUILD_BUG_ON(HIST_SORT_KEYS_DEFAULT != 2);
	over = spec->sort_overflow || spec->n_sort > limit;

	if (!spec->n_sort) {
		hd->sort_fields[0] = hd->fields[0];
		hd->n_sort_keys = 1;
		return 0;
	}
	for (i = 0; i < spec->n_sort; i++) {
		struct hist_spec_sort *s = &spec->sort[i];
		struct hist_field *f;
		unsigned long agg;
		const char *mod;

		/* nothing before the dot is empty too */
		if (!*s->name) {
			hist_cmd_log(cmd, HIST_ERR_EMPTY_SORT_FIELD, spec->sort_str);
			return -EINVAL;
		}
		/* too many: the last one that fits is not checked */
		if (i == limit - 1 && over) {
			hist_cmd_log(cmd,
				     too_many[limit - HIST_SORT_KEYS_DEFAULT],
				     spec->sort_str);
			return -EINVAL;
		}
		agg = sort_agg(s, &mod);
		f = find_sort_field(hd, s->name, agg);
		if (!f && agg) {
			/* no such aggregated value: a bad modifier */
			mod = s->mod;
			f = find_sort_field(hd, s->name, 0);
		}
		if (!f) {
			hist_cmd_log(cmd, HIST_ERR_INVALID_SORT_FIELD, s->name);
			return -EINVAL;
		}
		if (mod && strcmp(mod, "descending") &&
		    strcmp(mod, "ascending")) {
			hist_cmd_log(cmd, HIST_ERR_BAD_SORT_MODIFIER, mod);
			return -EINVAL;
		}
		hd->sort_fields[i] = f;
		hd->sort_keys[i].descending = mod && !strcmp(mod, "descending");
	}
	hd->n_sort_keys = spec->n_sort;
	return 0;
}

/* Runs in the inserting event's context, which may be NMI. */
static void execname_init(struct tracing_map_elt *elt)
{
	struct hist_elt_data *ed = tracing_map_elt_data(elt);

	if (!current->pid)
		strscpy(ed->comm, "<idle>", TASK_COMM_LEN);
	else
		memcpy(ed->comm, current->comm, TASK_COMM_LEN);
	ed->comm[TASK_COMM_LEN - 1] = '\0';
}

static const struct tracing_map_ops execname_ops = {
	.elt_init	= execname_init,
};

static int create_map(struct hist_data *hd)
{
	const struct tracing_map_ops *ops = NULL;
	unsigned int bits = hd->spec.map_bits ?: TRACING_MAP_BITS_DEFAULT;
	struct hist_named *named;
	unsigned int i;
	int idx, ret;

	/* the comm is taken when an entry is created, for .execname keys */
	for (i = hist_first_key(hd); i < hd->n_fields; i++)
		if (hd->fields[i]->flags & HIST_FIELD_FL_EXECNAME)
			ops = &execname_ops;

	hd->map = tracing_map_create(bits, hd->key_size, ops, hd);
	if (IS_ERR(hd->map)) {
		ret = PTR_ERR(hd->map);
		hd->map = NULL;
		return ret;
	}
	if (ops || hd->n_elt_slots) {
		size_t size = struct_size_t(struct hist_elt_data, strs,
					    hd->n_elt_slots *
					    HIST_VAR_STR_SIZE);

		ret = tracing_map_set_data_size(hd->map, size);
		if (ret)
			return ret;
	}

	/* hitcount (value 0) counts what an average divides by */
	for (i = 0; i < hd->n_vals; i++) {
		if (hd->fields[i]->flags & HIST_FIELD_FL_QUANT)
			idx = tracing_map_add_quant_field(hd->map);
		else
			idx = tracing_map_add_agg_field(hd->map,
							hist_field_map_agg(hd->fields[i]),
							0);
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

	ret = tracing_map_init(hd->map);
	if (ret || !hd->spec.name)
		return ret;

	/* the first trigger of a name= starts its table */
	named = kzalloc_obj(*named, GFP_KERNEL);
	if (!named)
		return -ENOMEM;
	INIT_LIST_HEAD(&named->sharers);
	named->map = hd->map;
	list_add(&named->list, &named_hists);
	list_add(&hd->named_list, &named->sharers);
	hd->named = named;
	return 0;
}

static unsigned int field_index(struct hist_data *hd, struct hist_field *f)
{
	unsigned int i;

	for (i = 0; i < hd->n_fields; i++)
		if (hd->fields[i] == f)
			break;
	return i;
}

/**
 * hist_data_same - do two histograms have the same definition?
 * @a: one histogram
 * @b: the other
 *
 * Same values, variables, keys, sort criteria and actions (by their
 * canonical text); the size, clock, name and filter take no part.
 *
 * Return: true if they do.
 */
bool hist_data_same(struct hist_data *a, struct hist_data *b)
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

static bool hist_var_slots_same(const struct hist_field *a,
				const struct hist_field *b)
{
	const unsigned long kind = HIST_FIELD_FL_STRING |
				   HIST_FIELD_FL_STACKTRACE;

	return a->var_idx == b->var_idx && a->elt_slot == b->elt_slot &&
	       (a->flags & kind) == (b->flags & kind) &&
	       a->size == b->size && a->is_signed == b->is_signed;
}

/*
 * Can @hd aggregate into the table of @other?  Same definition, and so
 * the same layout of keys, values and variables in the map.
 */
static bool hist_named_fits(struct hist_data *other, struct hist_data *hd)
{
	unsigned int i;

	if (!hist_data_same(other, hd) || other->key_size != hd->key_size ||
	    other->n_map_vars != hd->n_map_vars ||
	    other->n_elt_slots != hd->n_elt_slots ||
	    other->n_field_vars != hd->n_field_vars ||
	    other->n_save_vars != hd->n_save_vars)
		return false;
	/*
	 * The same action text can make a variable slot a string on one
	 * event and a number on another: the slots must hold alike.
	 */
	for (i = 0; i < hd->n_field_vars; i++)
		if (!hist_var_slots_same(other->field_vars[i],
					 hd->field_vars[i]))
			return false;
	for (i = 0; i < hd->n_save_vars; i++)
		if (!hist_var_slots_same(other->save_vars[i], hd->save_vars[i]))
			return false;
	return true;
}

/* Make @hd a sharer of the table of @other (hist_named_fits() said yes). */
static int hist_named_join(struct hist_data *hd, struct hist_data *other)
{
	unsigned int i;

	for (i = 0; i < hd->n_fields; i++)
		hd->fields[i]->map_idx = other->fields[i]->map_idx;
	for (i = 0; i < hd->n_sort_keys; i++)
		hd->sort_keys[i].field_idx = hd->sort_fields[i]->map_idx;
	hd->map = other->map;
	hd->named = other->named;
	list_add_tail(&hd->named_list, &hd->named->sharers);
	return 0;
}

/**
 * hist_data_create - build a histogram from a trigger's text
 * @cmd: the command: its event, its parameters (&hist_cmd) and error_log
 * @param: the trigger without "hist:" and without its filter (changed)
 *
 * Parses the text and binds values, variables, keys, sort criteria and
 * actions to @cmd's event; helper histograms the actions need are made
 * through @cmd->ops.  The map is made later (hist_data_bind_map()), once
 * the caller knows the histogram is a new trigger.
 *
 * Context: event_mutex held.
 * Return: the histogram, one reference held, or an error pointer (the
 * error logged).
 */
struct hist_data *hist_data_create(struct hist_cmd *cmd, char *param)
{
	struct hist_data *hd;
	unsigned int i;
	int ret;

	/* helper histograms and releasing one go through them */
	if (WARN_ON_ONCE(!cmd->ops))
		return ERR_PTR(-EINVAL);
	hd = kzalloc_obj(*hd, GFP_KERNEL);
	if (!hd)
		return ERR_PTR(-ENOMEM);
	hd->refs = 1;
	hd->ops = cmd->ops;
	INIT_LIST_HEAD(&hd->named_list);
	hd->event_file = cmd->file;
	hd->cmd = cmd;

	ret = hist_spec_parse(param, &hd->spec);
	if (ret) {
		if (hd->spec.err != HIST_ERR_NONE)
			hist_cmd_log(cmd, hd->spec.err, hd->spec.err_str);
		goto fail;
	}

	/*
	 * Handler syntax, values, variables, keys, sort: the order decides
	 * which error a text with several errors reports (the error_log ABI).
	 */
	ret = hist_actions_check(hd);
	if (!ret)
		ret = create_vals(cmd, hd);
	if (ret)
		goto fail;

	hd->show_hitcount = !hd->spec.nohitcount;
	if (!hd->show_hitcount && hd->n_vals < 2) {
		hist_cmd_log(cmd, HIST_ERR_NEED_NOHC_VAL, NULL);
		ret = -ENOENT;
		goto fail;
	}

	ret = create_vars(cmd, hd);
	if (!ret)
		ret = create_keys(cmd, hd);
	if (ret)
		goto fail;

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

/**
 * hist_data_bind_map - give a new trigger's histogram its map
 * @cmd: the command, for error_log
 * @hd: the histogram, from hist_data_create()
 *
 * Joins the table of the triggers of the same name= if there is one and
 * it fits (the same definition, and made by the kernel or by users like
 * @hd), else makes a map of its own, checking
 * the ".quantiles" memory bound.  Then chooses the hot path
 * (hist_fast_prepare()).
 *
 * Context: event_mutex held.
 * Return: 0, or an error (logged where the user can act on it); the
 * caller frees @hd.
 */
int hist_data_bind_map(struct hist_cmd *cmd, struct hist_data *hd)
{
	struct hist_data *named = NULL;
	int ret;

	if (hd->spec.name)
		named = find_named_hist(hd->spec.name);
	/*
	 * A table of triggers the kernel made (hist_kernel_add()) is theirs
	 * alone, and they join no user's: a user's trigger of that name,
	 * in any instance, would feed them or clear them.
	 */
	if (named && (!hist_named_fits(named, hd) ||
		      !named->owner != !cmd->owner)) {
		hist_cmd_log(cmd, HIST_ERR_NAMED_MISMATCH, hd->spec.name_str);
		return -EINVAL;
	}
	if (!named && cmd->quant_err) {
		hist_cmd_log(cmd, HIST_ERR_QUANT_TOO_LARGE, cmd->quant_err);
		return -EINVAL;
	}
	ret = named ? hist_named_join(hd, named) : create_map(hd);
	if (!ret)
		hist_fast_prepare(hd);
	return ret;
}
