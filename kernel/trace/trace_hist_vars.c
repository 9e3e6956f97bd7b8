// SPDX-License-Identifier: GPL-2.0
/*
 * Hist trigger variables and references to them.
 *
 * A variable is a per-entry slot of a histogram's tracing_map, set by
 * every event the histogram aggregates ("ts0=common_timestamp").  A
 * reference "$ts0" in another trigger reads the slot of the entry with
 * the same key: before that trigger updates its own map, each reference
 * is resolved once into a per-CPU array of values, and the hot path only
 * indexes that array.  If a referenced entry or variable is missing the
 * event is not aggregated at all.  A reference used inside an expression
 * consumes the variable (it reads as unset afterwards), so that a
 * latency is computed once per start event.
 *
 * References are made when the trigger is created and are resolved by
 * name: a qualified "system.event.$name" names the event, a bare "$name"
 * is looked up in the trigger itself, then among the triggers of its own
 * event, then among all hist triggers of the trace instance, where it
 * must be unique.  Every reference pins the defining histogram:
 * &hist_data.referrers counts them, and a trigger with referrers cannot
 * be removed.
 *
 * Field variables turn event fields named as trace() or save()
 * parameters into variables.  A field that only the onmatch() event has
 * gets a helper histogram on that event: the same keys and filter as the
 * histogram found there, and one variable "synthetic_<field>".  It lives
 * as long as triggers reference it.
 *
 * String and stack variables are copied into per-element storage (see
 * &struct hist_elt_data); the variable holds the address of the copy.
 *
 * Everything here runs at trigger creation or removal, under event_mutex.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_hist.h"

/**
 * hist_find_file - an event of a trace instance, by system and name
 * @tr: the instance
 * @system: the event's system
 * @event: the event's name
 *
 * Unlike find_event_file(), this finds the ftrace internal events too
 * (ftrace.print is a common start or end event).
 *
 * Return: the event file or NULL.
 */
struct trace_event_file *hist_find_file(struct trace_array *tr,
					const char *system, const char *event)
{
	struct trace_event_file *file;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(file, &tr->events, list) {
		struct trace_event_call *call = file->event_call;

		if (!strcmp(call->class->system, system) &&
		    !strcmp(trace_event_name(call), event))
			return file;
	}
	return NULL;
}

/**
 * hist_find_var - a variable defined by a histogram
 * @hd: the histogram
 * @name: the variable name
 *
 * Return: the variable's field or NULL.
 */
struct hist_field *hist_find_var(struct hist_data *hd, const char *name)
{
	unsigned int i;

	for (i = hd->n_vals; i < hd->n_vals + hd->n_vars; i++)
		if (!strcmp(hd->fields[i]->var_name, name))
			return hd->fields[i];
	for (i = 0; i < hd->n_field_vars; i++)
		if (!strcmp(hd->field_vars[i]->var_name, name))
			return hd->field_vars[i];
	return NULL;
}

/* The first hist trigger of @file, other than @self, defining @name. */
static struct hist_data *file_var_owner(struct trace_event_file *file,
					struct hist_data *self,
					const char *name,
					struct hist_field **var)
{
	struct event_trigger_data *data;

	list_for_each_entry(data, &file->triggers, list) {
		struct hist_data *hd = data->private_data;

		if (data->cmd_ops->trigger_type != ETT_EVENT_HIST ||
		    hd == self)
			continue;
		*var = hist_find_var(hd, name);
		if (*var)
			return hd;
	}
	return NULL;
}

/*
 * Find the histogram defining @name as seen from @hd.  Sets *@ambiguous
 * when a bare name is defined on more than one other event.
 */
static struct hist_data *find_var_owner(struct hist_data *hd,
					const char *system, const char *event,
					const char *name, struct hist_field **var,
					bool *ambiguous)
{
	struct trace_event_file *file = hd->event_file, *match;
	struct trace_array *tr = file->tr;
	struct hist_data *found = NULL, *owner;
	struct hist_field *v;

	lockdep_assert_held(&event_mutex);
	*ambiguous = false;

	if (system) {
		file = hist_find_file(tr, system, event);
		if (!file)
			return NULL;
		if (file == hd->event_file) {
			*var = hist_find_var(hd, name);
			if (*var)
				return hd;
		}
		return file_var_owner(file, hd, name, var);
	}

	*var = hist_find_var(hd, name);
	if (*var)
		return hd;
	/* an onmatch() parameter: the matching event's variables first */
	match = hd->cmd ? hd->cmd->match_file : NULL;
	if (match) {
		owner = file_var_owner(match, hd, name, var);
		if (owner)
			return owner;
	}
	owner = file_var_owner(hd->event_file, hd, name, var);
	if (owner)
		return owner;
	/* an onmatch() parameter is looked up there only */
	if (match)
		return NULL;

	list_for_each_entry(file, &tr->events, list) {
		if (file == hd->event_file)
			continue;
		owner = file_var_owner(file, hd, name, &v);
		if (!owner)
			continue;
		if (found) {
			*ambiguous = true;
			return NULL;
		}
		found = owner;
		*var = v;
	}
	return found;
}

/**
 * hist_var_defined_elsewhere - whether another trigger of the event has
 *	a variable of that name
 * @hd: the histogram being built
 * @name: the variable name
 *
 * Return: true if another trigger of @hd's event defines @name.
 */
bool hist_var_defined_elsewhere(struct hist_data *hd, const char *name)
{
	struct hist_field *var;

	return !!file_var_owner(hd->event_file, hd, name, &var);
}

/* Where the hot path finds a variable's value: the same for every use. */
static struct hist_field *ref_entry(struct hist_data *hd,
				    struct hist_data *var_hd,
				    struct hist_field *var,
				    const char *system, const char *event)
{
	struct hist_field *ref;
	unsigned int i;

	for (i = 0; i < hd->n_var_refs; i++) {
		ref = hd->var_refs[i];
		if (ref->var_hd == var_hd && ref->var_idx == var->var_idx)
			return ref;
	}
	if (hd->n_var_refs == HIST_VAR_REFS_MAX)
		return ERR_PTR(-E2BIG);

	ref = kzalloc_obj(*ref, GFP_KERNEL);
	if (!ref)
		return ERR_PTR(-ENOMEM);
	ref->kind = HIST_KIND_VAR_REF;
	ref->flags = HIST_FIELD_FL_VAR_REF;
	ref->elt_slot = -1;
	ref->name = kstrdup(var->var_name, GFP_KERNEL);
	if (system) {
		ref->system = kstrdup(system, GFP_KERNEL);
		ref->event_name = kstrdup(event, GFP_KERNEL);
	}
	if (!ref->name || (system && (!ref->system || !ref->event_name))) {
		hist_field_destroy(ref);
		return ERR_PTR(-ENOMEM);
	}
	ref->var_hd = var_hd;
	ref->own_var = var_hd == hd;
	ref->var_idx = var->var_idx;
	ref->var_ref_idx = hd->n_var_refs;
	ref->type = var->type;
	ref->size = var->size;
	ref->is_signed = var->is_signed;
	ref->var_flags = var->var_flags |
		(var->flags & (HIST_FIELD_FL_TIMESTAMP |
			       HIST_FIELD_FL_TIMESTAMP_USECS));
	ref->var_flags |= var->flags & (HIST_FIELD_FL_STRING |
					HIST_FIELD_FL_STACKTRACE);
	hd->var_refs[hd->n_var_refs++] = ref;
	if (var_hd != hd) {
		/* keeps its map while we look it up, whatever goes first */
		hist_data_get(var_hd);
		var_hd->referrers++;
	}
	return ref;
}

/**
 * hist_var_ref_create - a reference to a variable, for an expression
 * @hd: the histogram being built
 * @system: system of a qualified reference, or NULL
 * @event: event of a qualified reference
 * @name: the variable name, without '$'
 * @log: report a failure to error_log
 *
 * Return: a new field of kind HIST_KIND_VAR_REF, owned by the caller, or
 * NULL (reported) if there is no such variable.
 */
struct hist_field *hist_var_ref_create(struct hist_data *hd,
				       const char *system, const char *event,
				       const char *name, bool log)
{
	struct hist_field *var = NULL, *entry, *f;
	struct hist_data *owner;
	bool ambiguous;
	char *dollar;

	owner = find_var_owner(hd, system, event, name, &var, &ambiguous);
	if (!owner) {
		if (!log)
			return NULL;
		/* error_log goes on to say nothing was found */
		if (ambiguous)
			hist_log(hd, HIST_ERR_VAR_NOT_UNIQUE, name);
		hist_log(hd, HIST_ERR_VAR_NOT_FOUND, name);
		dollar = kasprintf(GFP_KERNEL, "$%s", name);
		if (dollar)
			hist_log(hd, HIST_ERR_FIELD_NOT_FOUND, dollar);
		kfree(dollar);
		return NULL;
	}

	entry = ref_entry(hd, owner, var, system, event);
	if (IS_ERR(entry)) {
		if (log)
			hist_log(hd, HIST_ERR_TOO_MANY_VARS, name);
		return NULL;
	}

	f = kmemdup(entry, sizeof(*entry), GFP_KERNEL);
	if (!f)
		return NULL;
	f->text = NULL;
	f->expr = NULL;
	f->name = kstrdup(entry->name, GFP_KERNEL);
	f->system = system ? kstrdup(system, GFP_KERNEL) : NULL;
	f->event_name = system ? kstrdup(event, GFP_KERNEL) : NULL;
	/* not the string flag: a string reference may be an operand */
	f->flags |= entry->var_flags & HIST_FIELD_FL_STACKTRACE;
	if (!f->name || (system && (!f->system || !f->event_name))) {
		hist_field_destroy(f);
		return NULL;
	}
	return f;
}

/**
 * hist_var_init - make a field a variable of a histogram
 * @hd: the histogram
 * @f: the field (an expression root)
 * @name: the variable name
 *
 * Gives the variable its tracing_map slot and, for strings and stacks,
 * its per-element copy.
 *
 * Return: 0, -E2BIG when the map has no variable slot left, or -ENOMEM.
 */
int hist_var_init(struct hist_data *hd, struct hist_field *f,
		  const char *name)
{
	if (hd->n_map_vars == TRACING_MAP_VARS_MAX)
		return -E2BIG;
	f->var_name = kstrdup(name, GFP_KERNEL);
	if (!f->var_name)
		return -ENOMEM;
	f->flags |= HIST_FIELD_FL_VAR;
	f->var_idx = hd->n_map_vars++;
	if (f->kind == HIST_KIND_VAR_REF) {
		/* an alias reads the reference's slot; nothing to copy */
		f->flags |= HIST_FIELD_FL_ALIAS;
		return 0;
	}
	if (f->flags & (HIST_FIELD_FL_STRING | HIST_FIELD_FL_STACKTRACE))
		f->elt_slot = hd->n_elt_slots++;
	return 0;
}

/* A variable of @hd made from the plain field @name of its own event. */
static struct hist_field *own_field_var(struct hist_data *hd,
					const char *name, bool save)
{
	struct trace_event_call *call = hd->event_file->event_call;
	struct hist_field *f, **vars = save ? hd->save_vars : hd->field_vars;
	unsigned int *n = save ? &hd->n_save_vars : &hd->n_field_vars;

	f = hist_field_of_event(call, name);
	if (IS_ERR_OR_NULL(f))
		return f;
	if (*n == HIST_VARS_MAX) {
		hist_field_destroy(f);
		hist_log(hd, HIST_ERR_TOO_MANY_FIELD_VARS, name);
		return ERR_PTR(-EINVAL);
	}
	if (hist_var_init(hd, f, name)) {
		hist_field_destroy(f);
		hist_log(hd, HIST_ERR_VAR_CREATE_FIND_FAIL, name);
		if (save) {
			hist_log(hd, HIST_ERR_FIELD_VAR_CREATE_FAIL, name);
		} else {
			/* and what a failed try on the onmatch() event logs */
			hist_log(hd, HIST_ERR_FIELD_NOT_FOUND, name);
			hist_log(hd, HIST_ERR_HIST_CREATE_FAIL, name);
		}
		return ERR_PTR(-EINVAL);
	}
	vars[(*n)++] = f;
	return f;
}

/* Do two histograms have keys of the same layout? */
static bool keys_compatible(struct hist_data *a, struct hist_data *b)
{
	unsigned int i, ka = hist_first_key(a), kb = hist_first_key(b);

	if (a->n_keys != b->n_keys || a->key_size != b->key_size)
		return false;
	for (i = 0; i < a->n_keys; i++)
		if (a->fields[ka + i]->key_size != b->fields[kb + i]->key_size)
			return false;
	return true;
}

/*
 * The helper histogram of @file providing "synthetic_<field>", made if
 * needed: same keys and filter as the first compatible histogram there.
 */
static int helper_for(struct hist_data *hd, struct trace_event_file *file,
		      const char *field, const char *var_name)
{
	struct event_trigger_data *data, *found = NULL;
	struct hist_data *other, *helper;
	char *text;
	size_t len;
	unsigned int i;

	list_for_each_entry(data, &file->triggers, list) {
		if (data->cmd_ops->trigger_type != ETT_EVENT_HIST)
			continue;
		other = data->private_data;
		if (!keys_compatible(hd, other))
			continue;
		if (other->is_helper && hist_find_var(other, var_name)) {
			helper = other;
			goto have;
		}
		if (!found && !other->is_helper)
			found = data;
	}
	if (!found || (hd->cmd && hd->cmd->lookup_only))
		return -ENOENT;

	other = found->private_data;
	/* "keys=k1,k2,...:var=field if filter" */
	len = sizeof("keys=:= if ") + strlen(var_name) + strlen(field) +
	      (found->filter_str ? strlen(found->filter_str) : 0);
	for (i = hist_first_key(other); i < other->n_fields; i++)
		len += strlen(other->fields[i]->text) + 1;
	text = kzalloc(len, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	strlcat(text, "keys=", len);
	for (i = hist_first_key(other); i < other->n_fields; i++) {
		if (i > hist_first_key(other))
			strlcat(text, ",", len);
		strlcat(text, other->fields[i]->text, len);
	}
	snprintf(text + strlen(text), len - strlen(text), ":%s=%s%s%s",
		 var_name, field, found->filter_str ? " if " : "",
		 found->filter_str ?: "");
	helper = hd->ops->helper_create(hd, file, text);
	kfree(text);
	if (IS_ERR(helper))
		return PTR_ERR(helper);
have:
	for (i = 0; i < hd->n_helpers; i++)
		if (hd->helpers[i] == helper)
			return 0;
	if (hd->n_helpers == HIST_VARS_MAX) {
		if (!helper->referrers)
			helper->ops->helper_drop(helper);
		return -E2BIG;
	}
	/* the helper's trigger may go first when its instance is removed */
	hist_data_get(helper);
	hd->helpers[hd->n_helpers++] = helper;
	return 0;
}

/**
 * hist_field_var_create - a variable for a field named as an action param
 * @hd: the histogram being built
 * @text: "field" or "system.event.field" (may be changed)
 * @save: a save() parameter (own event only, kept in &hist_data.save_vars)
 *
 * For trace() parameters the field comes from the trigger's own event or,
 * failing that, from the onmatch() event @hd->cmd was written for
 * (passed as "system.event.field" by the caller); the result is a
 * reference to the variable.  For save() it is the variable itself.
 *
 * Return: the field, or NULL (reported to error_log).
 */
struct hist_field *hist_field_var_create(struct hist_data *hd,
					 const char *text, bool save)
{
	struct trace_event_call *call = hd->event_file->event_call;
	const char *system = NULL, *event = NULL, *name = text;
	char *copy = NULL, *var_name = NULL, *p;
	struct trace_event_file *file;
	struct hist_field *f = NULL;
	int ret;

	if (strchr(text, '.')) {
		copy = kstrdup(text, GFP_KERNEL);
		if (!copy)
			return NULL;
		p = copy;
		system = strsep(&p, ".");
		event = strsep(&p, ".");
		name = p;
		if (!name || strchr(name, '.')) {
			hist_log(hd, HIST_ERR_FIELD_VAR_PARSE_FAIL, text);
			goto out;
		}
		if (!strcmp(system, call->class->system) &&
		    !strcmp(event, trace_event_name(call)))
			system = NULL;
	}

	if (save || !system) {
		f = hist_find_var(hd, name);
		if (f && !save && !(f->flags & HIST_FIELD_FL_EXPR) &&
		    (f->event_field || f->kind == HIST_KIND_COMM))
			goto ref;
		f = own_field_var(hd, name, save);
		if (IS_ERR(f)) {
			f = NULL;
			goto out;
		}
		if (!f) {
			if (save) {
				hist_log(hd, HIST_ERR_FIELD_NOT_FOUND, name);
				hist_log(hd, HIST_ERR_FIELD_VAR_PARSE_FAIL, text);
			}
			hist_log(hd, HIST_ERR_FIELD_VAR_CREATE_FAIL, text);
			goto out;
		}
		if (save)
			goto out;
ref:
		f = hist_var_ref_create(hd, NULL, NULL, f->var_name, true);
		goto out;
	}

	/* a field of another event: through a helper histogram there */
	file = hist_find_file(hd->event_file->tr, system, event);
	if (!file) {
		hist_log(hd, HIST_ERR_EVENT_FILE_NOT_FOUND, name);
		goto out;
	}
	if (!trace_find_event_field(file->event_call, (char *)name) &&
	    strcmp(name, "common_comm")) {
		hist_log(hd, HIST_ERR_FIELD_NOT_FOUND, name);
		hist_log(hd, HIST_ERR_HIST_CREATE_FAIL, name);
		goto out;
	}
	var_name = kasprintf(GFP_KERNEL, "synthetic_%s", name);
	if (!var_name)
		goto out;
	ret = helper_for(hd, file, name, var_name);
	if (ret) {
		hist_log(hd, ret == -ENOENT ? HIST_ERR_HIST_NOT_FOUND :
			 HIST_ERR_HIST_CREATE_FAIL, name);
		goto out;
	}
	f = hist_var_ref_create(hd, system, event, var_name, true);
	if (f) {
		/* shown as the field it stands for */
		kfree(f->system);
		kfree(f->event_name);
		f->system = NULL;
		f->event_name = NULL;
	}
out:
	kfree(var_name);
	kfree(copy);
	return f;
}

/**
 * hist_split_ref - split "$name" or "system.event.$name" in place
 * @s: the text (changed, also on failure)
 * @system: set to the system, or NULL for "$name"
 * @event: set to the event, or NULL for "$name"
 *
 * Return: the name after the '$', or NULL if @s has neither form.
 */
char *hist_split_ref(char *s, char **system, char **event)
{
	char *dollar = strchr(s, '$');

	*system = NULL;
	*event = NULL;
	if (!dollar)
		return NULL;
	if (dollar == s)
		return dollar + 1;
	if (dollar[-1] != '.')
		return NULL;
	dollar[-1] = '\0';
	*event = strrchr(s, '.');
	if (!*event)
		return NULL;
	*(*event)++ = '\0';
	*system = s;
	return dollar + 1;
}

/* Does @text ("system.event") name the event of @hd? */
static bool is_own_event(struct hist_data *hd, const char *system,
			 const char *event)
{
	struct trace_event_call *call = hd->event_file->event_call;

	return !strcmp(system, call->class->system) &&
	       !strcmp(event, trace_event_name(call));
}

/**
 * hist_save_ref_create - a save() parameter naming a variable
 * @hd: the histogram being built
 * @text: "$name" or "system.event.$name"
 *
 * The value the variable of another histogram has when the handler fires
 * is kept in a variable of @hd (a copy for strings), shown under @text.
 * The trigger's own variables are not found here.
 *
 * Return: the save variable (owned by @hd), or NULL (reported).
 */
struct hist_field *hist_save_ref_create(struct hist_data *hd,
					const char *text)
{
	char *copy, *name, *system, *event;
	struct hist_field *f = NULL;

	copy = kstrdup(text, GFP_KERNEL);
	if (!copy)
		return NULL;
	name = hist_split_ref(copy, &system, &event);
	if (!name)
		goto bad;
	if (system ? is_own_event(hd, system, event) : !!hist_find_var(hd, name)) {
		hist_log(hd, HIST_ERR_VAR_NOT_FOUND, name);
		hist_log(hd, HIST_ERR_FIELD_NOT_FOUND, text);
		goto bad;
	}
	f = hist_var_ref_create(hd, system, event, name, true);
	if (!f)
		goto bad;
	if (hd->n_save_vars == HIST_VARS_MAX ||
	    hd->n_map_vars == TRACING_MAP_VARS_MAX) {
		hist_field_destroy(f);
		f = NULL;
		hist_log(hd, HIST_ERR_VAR_CREATE_FIND_FAIL, text);
		hist_log(hd, HIST_ERR_FIELD_VAR_CREATE_FAIL, text);
		goto out;
	}
	f->var_name = kstrdup(text, GFP_KERNEL);
	if (!f->var_name) {
		hist_field_destroy(f);
		f = NULL;
		goto out;
	}
	/* not an alias: the value is kept in a slot of this map */
	f->flags |= HIST_FIELD_FL_VAR;
	f->var_idx = hd->n_map_vars++;
	if (f->var_flags & (HIST_FIELD_FL_STRING | HIST_FIELD_FL_STACKTRACE)) {
		f->flags |= f->var_flags & (HIST_FIELD_FL_STRING |
					    HIST_FIELD_FL_STACKTRACE);
		f->elt_slot = hd->n_elt_slots++;
	}
	hd->save_vars[hd->n_save_vars++] = f;
	goto out;
bad:
	hist_log(hd, HIST_ERR_FIELD_VAR_PARSE_FAIL, text);
	hist_log(hd, HIST_ERR_FIELD_VAR_CREATE_FAIL, text);
out:
	kfree(copy);
	return f;
}

/**
 * hist_data_is_busy - whether other triggers reference a histogram
 * @hd: the histogram
 *
 * Return: true if a variable of @hd is referenced by another histogram.
 */
bool hist_data_is_busy(struct hist_data *hd)
{
	return hd->referrers > 0;
}

/**
 * hist_vars_release - drop the references a histogram holds
 * @hd: the histogram, being freed
 *
 * Unpins the histograms @hd refers to and removes the helper histograms
 * nobody refers to any more.
 */
void hist_vars_release(struct hist_data *hd)
{
	unsigned int i;

	for (i = 0; i < hd->n_var_refs; i++) {
		struct hist_field *ref = hd->var_refs[i];

		if (ref->var_hd != hd) {
			ref->var_hd->referrers--;
			ref->var_hd->ops->put(ref->var_hd);
		}
		hist_field_destroy(ref);
	}
	hd->n_var_refs = 0;
	for (i = 0; i < hd->n_helpers; i++) {
		struct hist_data *helper = hd->helpers[i];

		/*
		 * When the instance is removed, clear_event_triggers() frees
		 * the helper's trigger (it may have done so already).
		 */
		if (!helper->referrers && helper->trigger &&
		    !hd->ops->removing_instance())
			helper->ops->helper_drop(helper);
		helper->ops->put(helper);
	}
	hd->n_helpers = 0;
	for (i = 0; i < hd->n_field_vars; i++)
		hist_field_destroy(hd->field_vars[i]);
	hd->n_field_vars = 0;
	for (i = 0; i < hd->n_save_vars; i++)
		hist_field_destroy(hd->save_vars[i]);
	hd->n_save_vars = 0;
}
