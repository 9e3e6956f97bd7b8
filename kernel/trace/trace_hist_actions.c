// SPDX-License-Identifier: GPL-2.0
/*
 * Hist trigger handlers and actions: "onX(...).action(...)" clauses.
 *
 * A handler decides when an action runs, once the event has updated its
 * histogram entry and every reference is resolved:
 *
 *   onmatch(system.event)  on every such update; the references are
 *                          typically variables of that event's histogram
 *   onmax($var)            when $var exceeds the maximum kept in the entry
 *   onchange($var)         when $var differs from the value kept in the
 *                          entry
 *
 * The actions:
 *
 *   trace(synth, params)   emit the synthetic event "synth"; each param is
 *                          a variable ($name), or an event field which
 *                          then becomes a field variable
 *                          (trace_hist_vars.c).  "synth(params)" is the
 *                          older spelling of the same.
 *   save(fields)           keep those fields of the event in the entry,
 *                          printed under it in the hist file
 *   snapshot()             swap the trace buffer into the snapshot buffer
 *                          (a conditional snapshot: only when the
 *                          triggering value beats the last one taken)
 *
 * This file binds them: everything is resolved when the trigger is
 * created.  They run in trace_hist_run.c (hist_run_actions()), reading
 * their values from the array of resolved references.
 */
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_hist.h"

/* ---- creation ---- */

static void action_free(struct hist_action *a)
{
	if (!a)
		return;
	synth_event_put(a->synth);
	hist_field_destroy(a->track_ref);
	hist_field_destroy(a->track_var);
	kfree(a->snap);
	kfree(a->match_system);
	kfree(a->match_event);
	kfree(a->text);
	kfree(a);
}

/*
 * Can a value of @p fill the synthetic field @sf?  Numbers never go into
 * strings or stacks nor the other way round (a number of the right size
 * would be read as an address when the event is recorded):
 *
 *  - a stack fits a stack field, any stack;
 *  - a string fits a "char[]" field, any string, and a "char[N]" field
 *    if it has the type "char[N]" or N bytes (a "__data_loc char[]"
 *    field is 256 bytes long, so it only fits "char[256]");
 *  - a number fits a number field of the same type as written, or of
 *    the same size and signedness.  A field of the trigger's own event
 *    passed by name (@own_field) counts as unsigned: it is kept in a
 *    field variable, which users see with no sign (hist_debug shows it
 *    so), so "long prev_state" fits "u64" but not "s64", and "int" not
 *    "pid_t".
 */
static bool param_fits(const struct hist_field *p, const struct synth_field *sf,
		       bool own_field)
{
	bool is_str = p->var_flags & HIST_FIELD_FL_STRING;
	bool is_stack = p->var_flags & HIST_FIELD_FL_STACKTRACE;
	bool same_type = p->type && !strcmp(p->type, sf->type);

	switch (sf->kind) {
	case SYNTH_FIELD_STACK:
		return is_stack;
	case SYNTH_FIELD_DYNSTR:
		return is_str;
	case SYNTH_FIELD_STR:
		return is_str && (same_type || p->size == sf->size);
	case SYNTH_FIELD_NUM:
		break;
	}
	if (is_str || is_stack)
		return false;
	return same_type || (p->size == sf->size &&
			     (p->is_signed && !own_field) == sf->is_signed);
}

/* One trace() parameter: a reference to a variable or a field variable. */
static struct hist_field *trace_param(struct hist_data *hd,
				      struct hist_action *a, char *param)
{
	struct trace_event_call *call = hd->event_file->event_call;
	struct hist_field *f;
	char *dollar = strchr(param, '$');
	char *qualified;

	if (dollar) {
		char *system, *event, *name, *text;

		/* resolved while the histogram is built, for its command */
		if (WARN_ON_ONCE(!hd->cmd))
			return NULL;

		text = kstrdup(param, GFP_KERNEL);
		if (!text)
			return NULL;
		name = hist_split_ref(param, &system, &event);
		if (!name) {
			hist_log(hd, HIST_ERR_INVALID_PARAM, NULL);
			kfree(text);
			return NULL;
		}
		if (!system && a->handler == HIST_ON_MATCH)
			hd->cmd->match_file = hist_find_file(hd->event_file->tr,
							     a->match_system,
							     a->match_event);
		f = hist_var_ref_create(hd, system, event, name, false);
		hd->cmd->match_file = NULL;
		if (!f)	/* the caret goes to the name, after the '$' */
			hist_log(hd, HIST_ERR_PARAM_NOT_FOUND,
				 text + (name - param));
		kfree(text);
		return f;
	}
	if (!isalpha(*param) && *param != '_') {
		hist_log(hd, HIST_ERR_INVALID_PARAM, param);
		return NULL;
	}
	if (strchr(param, '.'))
		return hist_field_var_create(hd, param, false);

	f = hist_field_of_event(call, param);
	if (!IS_ERR_OR_NULL(f) || hist_find_var(hd, param)) {
		hist_field_destroy(f);
		return hist_field_var_create(hd, param, false);
	}

	/* this event is tried first, and error_log says so, even on success */
	hist_log(hd, HIST_ERR_FIELD_NOT_FOUND, param);
	hist_log(hd, HIST_ERR_FIELD_VAR_PARSE_FAIL, param);
	if (a->handler != HIST_ON_MATCH) {
		hist_log(hd, HIST_ERR_FIELD_NOT_FOUND, param);
		hist_log(hd, HIST_ERR_HIST_CREATE_FAIL, param);
		return NULL;
	}
	/* a field of the matching event, through a helper histogram */
	qualified = kasprintf(GFP_KERNEL, "%s.%s.%s", a->match_system,
			      a->match_event, param);
	if (!qualified)
		return NULL;
	f = hist_field_var_create(hd, qualified, false);
	kfree(qualified);
	return f;
}

static int create_trace(struct hist_data *hd, struct hist_action *a,
			const char *synth, char **params, unsigned int n_params)
{
	struct hist_field *ref;
	unsigned int n;
	bool own_field;

	a->synth = synth_event_find_get(synth);
	if (!a->synth) {
		hist_log(hd, HIST_ERR_SYNTH_EVENT_NOT_FOUND, synth);
		return -EINVAL;
	}
	for (n = 0; n < n_params; n++) {
		/*
		 * A mismatch is shown at "$name" or at the field's name, not
		 * at a "system.event." before it.
		 */
		const char *dollar = strchr(params[n], '$');
		const char *shown = dollar ?: strrchr(params[n], '.');

		if (!dollar)
			shown = shown ? shown + 1 : params[n];

		/* one too many is a type mismatch too */
		if (n == a->synth->n_fields) {
			hist_log(hd, HIST_ERR_SYNTH_TYPE_MISMATCH, params[n]);
			return -EINVAL;
		}
		ref = trace_param(hd, a, params[n]);
		if (!ref)
			return -EINVAL;
		/* a field by name, kept in a variable of this trigger */
		own_field = !dollar && ref->var_hd == hd;
		if (!param_fits(ref, a->synth->fields[n], own_field)) {
			hist_field_destroy(ref);
			hist_log(hd, HIST_ERR_SYNTH_TYPE_MISMATCH, shown);
			return -EINVAL;
		}
		a->param_refs[n] = ref->var_ref_idx;
		hist_field_destroy(ref);
	}
	if (n != a->synth->n_fields) {
		hist_log(hd, HIST_ERR_SYNTH_COUNT_MISMATCH, synth);
		return -EINVAL;
	}
	a->n_params = n;
	return 0;
}

/*
 * A field of this event for save(); "field.modifier" saves the field (the
 * modifier is ignored) under the name as written.
 */
static int save_field_mod(struct hist_data *hd, char *p)
{
	char *dot = strchr(p, '.');
	struct hist_field *f;
	char *label;

	if (!dot || strchr(dot + 1, '.'))
		return hist_field_var_create(hd, p, true) ? 0 : -EINVAL;
	label = kstrdup(p, GFP_KERNEL);
	if (!label)
		return -ENOMEM;
	*dot = '\0';
	f = hist_field_var_create(hd, p, true);
	*dot = '.';
	if (!f) {
		kfree(label);
		return -EINVAL;
	}
	kfree(f->var_name);
	f->var_name = label;
	return 0;
}

static int create_save(struct hist_data *hd, char **params,
		       unsigned int n_params)
{
	unsigned int n;
	char *p;

	if (hd->n_save_vars) {
		hist_log(hd, HIST_ERR_TOO_MANY_SAVE_ACTIONS, NULL);
		return -EEXIST;
	}
	for (n = 0; n < n_params; n++) {
		p = params[n];
		if (strchr(p, '$')) {
			if (!hist_save_ref_create(hd, p))
				return -EINVAL;
			continue;
		}
		if (!isalpha(*p) && *p != '_') {
			hist_log(hd, HIST_ERR_INVALID_PARAM, p);
			return -EINVAL;
		}
		if (save_field_mod(hd, p))
			return -EINVAL;
	}
	return 0;
}

/* "system.event" of onmatch() */
static int create_match(struct hist_data *hd, struct hist_action *a,
			char *arg)
{
	char *dot = strchr(arg, '.');

	if (!dot) {
		hist_log(hd, HIST_ERR_SUBSYS_NOT_FOUND, arg);
		return -EINVAL;
	}
	*dot = '\0';
	a->match_system = kstrdup(arg, GFP_KERNEL);
	a->match_event = kstrdup(dot + 1, GFP_KERNEL);
	*dot = '.';
	if (!a->match_system || !a->match_event)
		return -ENOMEM;
	if (!hist_find_file(hd->event_file->tr, a->match_system,
			    a->match_event)) {
		/* the caret goes to the event name (the error_log ABI) */
		hist_log(hd, HIST_ERR_INVALID_SUBSYS_EVENT, dot + 1);
		return -EINVAL;
	}
	return 0;
}

/* "$var" of onmax()/onchange(): a variable of this histogram */
static int create_track(struct hist_data *hd, struct hist_action *a,
			char *arg)
{
	const char *name = a->handler == HIST_ON_MAX ? "__max" : "__change";
	struct hist_field *var;
	int ret;

	var = hist_find_var(hd, arg + 1);
	if (!var) {
		hist_log(hd, HIST_ERR_ONX_VAR_NOT_FOUND, arg + 1);
		return -EINVAL;
	}
	a->track_ref = hist_var_ref_create(hd, NULL, NULL, arg + 1, false);
	if (!a->track_ref)
		return -ENOMEM;

	a->track_var = kzalloc_obj(*a->track_var, GFP_KERNEL);
	if (!a->track_var)
		return -ENOMEM;
	a->track_var->kind = HIST_KIND_U64;
	a->track_var->type = "u64";
	a->track_var->size = sizeof(u64);
	a->track_var->elt_slot = -1;
	ret = hist_var_init(hd, a->track_var, name);
	if (ret) {
		hist_log(hd, HIST_ERR_ONX_VAR_CREATE_FAIL, NULL);
		return ret == -E2BIG ? -EINVAL : ret;
	}
	return 0;
}

/*
 * Split "handler(arg).action(params)" in place.  The closing parentheses
 * must be there; the action part may be missing (reported by the caller).
 */
static int split_action(struct hist_data *hd, char *s, char **arg,
			char **action, char **params)
{
	char *open = strchr(s, '('), *close;

	*arg = open + 1;
	close = strchr(*arg, ')');
	if (!close) {
		hist_log(hd, HIST_ERR_NO_CLOSING_PAREN, *arg);
		return -EINVAL;
	}
	*close = '\0';
	*action = NULL;
	*params = NULL;
	if (close[1] != '.' || !close[2])
		return 0;
	*action = close + 2;
	open = strchr(*action, '(');
	if (!open)
		return 0;
	*open = '\0';
	*params = open + 1;
	/* the list ends at the first ')', or at the end */
	close = strchr(*params, ')');
	if (close)
		*close = '\0';
	return 0;
}

/*
 * The clause as the trigger file prints it: "handler(arg).action(p,q)"
 * with the parameters trimmed (snapshot() takes none).
 */
static char *canonical_text(const char *handler, const char *arg,
			    const char *act, const char *params)
{
	char *list, *p, *text, *out;
	size_t len;

	list = kstrdup(strcmp(act, "snapshot") ? params : "", GFP_KERNEL);
	len = strlen(params) + 1;
	out = kzalloc(len, GFP_KERNEL);
	text = NULL;
	if (list && out) {
		char *rest = list;

		while ((p = strsep(&rest, ",")) != NULL) {
			if (*out)
				strlcat(out, ",", len);
			strlcat(out, strim(p), len);
		}
		text = kasprintf(GFP_KERNEL, "%s(%s).%s(%s)", handler, arg, act,
				 out);
	}
	kfree(list);
	kfree(out);
	return text;
}

/*
 * Split an action's parameter list in place into @pv (trimmed).  An empty
 * parameter is an error, as is more than @max of them.
 */
static int split_params(struct hist_data *hd, char *params, char **pv,
			unsigned int max, unsigned int *n)
{
	char *p;

	*n = 0;
	while ((p = strsep(&params, ",")) != NULL) {
		p = strim(p);
		if (!*p) {
			hist_log(hd, HIST_ERR_INVALID_PARAM, NULL);
			return -EINVAL;
		}
		if (*n == max) {
			hist_log(hd, HIST_ERR_TOO_MANY_PARAMS, NULL);
			return -EINVAL;
		}
		pv[(*n)++] = p;
	}
	return 0;
}

static const char *handler_name(enum hist_handler handler)
{
	return handler == HIST_ON_MATCH ? "onmatch" :
	       handler == HIST_ON_MAX ? "onmax" : "onchange";
}

/*
 * The checks come in this order, which decides the error a text with
 * several errors reports (the error_log ABI): the onmatch() event, "$"
 * of onmax()/onchange(), the action and its parameter list, the tracked
 * variable, then whatever the action itself needs.  @check_only stops
 * before the tracked variable and skips the "$" of onmax()/onchange():
 * what is checked before any field.
 */
static int action_create(struct hist_data *hd, const char *text,
			 bool check_only)
{
	struct hist_action *a;
	char *buf, *arg, *act, *params, **pv = NULL;
	unsigned int n = 0;
	bool is_trace;
	int ret = -ENOMEM;

	a = kzalloc_obj(*a, GFP_KERNEL);
	if (!a)
		return -ENOMEM;
	buf = kstrdup(text, GFP_KERNEL);
	pv = kcalloc(HIST_PARAMS_MAX + 1, sizeof(*pv), GFP_KERNEL);
	if (!buf || !pv)
		goto out;

	ret = -EINVAL;
	if (str_has_prefix(buf, "onmatch(")) {
		a->handler = HIST_ON_MATCH;
	} else if (str_has_prefix(buf, "onmax(")) {
		a->handler = HIST_ON_MAX;
	} else if (str_has_prefix(buf, "onchange(")) {
		a->handler = HIST_ON_CHANGE;
	} else {
		hist_log(hd, HIST_ERR_ACTION_NOT_FOUND, text);
		goto out;
	}

	ret = split_action(hd, buf, &arg, &act, &params);
	if (ret)
		goto out;
	if (a->handler == HIST_ON_MATCH) {
		ret = create_match(hd, a, arg);
		if (ret)
			goto out;
	} else if (!check_only && *arg != '$') {
		hist_log(hd, HIST_ERR_ONX_NOT_VAR, arg);
		ret = -EINVAL;
		goto out;
	}

	ret = -EINVAL;
	if (!act || !params) {
		hist_log(hd, HIST_ERR_ACTION_NOT_FOUND, NULL);
		goto out;
	}
	a->text = canonical_text(handler_name(a->handler), arg, act, params);
	if (!a->text) {
		ret = -ENOMEM;
		goto out;
	}
	/* any "save..." or "snapshot..." names those actions */
	is_trace = !str_has_prefix(act, "save") &&
		   !str_has_prefix(act, "snapshot");
	if (!str_has_prefix(act, "snapshot")) {
		unsigned int i;

		/* trace(): the synthetic event's name comes first */
		ret = split_params(hd, params, pv, HIST_PARAMS_MAX +
				   !strcmp(act, "trace"), &n);
		if (ret)
			goto out;
		/*
		 * a parameter (trace()'s event name too) needs two
		 * characters at least
		 */
		for (i = 0; is_trace && i < n; i++) {
			if (strlen(pv[i]) < 2) {
				hist_log(hd, HIST_ERR_INVALID_PARAM, pv[i]);
				ret = -EINVAL;
				goto out;
			}
		}
	}

	if (a->handler != HIST_ON_MATCH) {
		ret = check_only ? 0 : create_track(hd, a, arg);
		if (ret)
			goto out;
	} else if (!is_trace) {
		hist_log(hd, HIST_ERR_ACTION_MISMATCH, act);
		ret = -EINVAL;
		goto out;
	}
	if (check_only) {
		ret = 0;
		goto out;
	}

	if (!strcmp(act, "save")) {
		a->act = HIST_ACT_SAVE;
		ret = create_save(hd, pv, n);
	} else if (!strcmp(act, "snapshot")) {
		a->act = HIST_ACT_SNAPSHOT;
		a->snap = kzalloc_obj(*a->snap, GFP_KERNEL);
		ret = a->snap ? 0 : -ENOMEM;
		if (a->snap) {
			a->snap->hd = hd;
			a->snap->action = a;
		}
	} else if (!strcmp(act, "trace")) {
		a->act = HIST_ACT_TRACE;
		ret = create_trace(hd, a, pv[0], pv + 1, n - 1);
	} else {
		/* the older form: the synthetic event's name is the action */
		a->act = HIST_ACT_TRACE;
		ret = create_trace(hd, a, act, pv, n);
	}
	if (ret)
		goto out;
	hd->actions[hd->n_actions++] = a;
	a = NULL;
out:
	kfree(pv);
	kfree(buf);
	action_free(a);
	return ret;
}

/* action_create() for every clause, in order; stops at the first error */
static int actions_each(struct hist_data *hd, bool check_only)
{
	unsigned int i;
	int ret;

	for (i = 0; i < hd->spec.n_actions; i++) {
		ret = action_create(hd, hd->spec.actions[i].str, check_only);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * hist_actions_create - bind the handler.action() clauses of a histogram
 * @hd: the histogram being built, fields already created
 *
 * Return: 0 or a negative errno (the reason is in error_log).
 */
int hist_actions_create(struct hist_data *hd)
{
	return actions_each(hd, false);
}

/**
 * hist_actions_check - check the handler.action() clauses' syntax
 * @hd: the histogram being built, before any field
 *
 * The clauses are parsed before any field is created, so that their
 * errors come first (the error_log ABI); hist_actions_create() binds
 * them later.
 *
 * Return: 0 or a negative errno (the reason is in error_log).
 */
int hist_actions_check(struct hist_data *hd)
{
	return actions_each(hd, true);
}

/**
 * hist_actions_destroy - free the actions of a histogram
 * @hd: the histogram
 */
void hist_actions_destroy(struct hist_data *hd)
{
	unsigned int i;

	for (i = 0; i < hd->n_actions; i++)
		action_free(hd->actions[i]);
	hd->n_actions = 0;
}

/**
 * hist_actions_register - arm what the actions need once the trigger is live
 * @hd: the histogram
 *
 * Return: 0 or a negative errno (snapshot not available or in use).
 */
int hist_actions_register(struct hist_data *hd)
{
	unsigned int i;
	int ret;

	for (i = 0; i < hd->n_actions; i++) {
		struct hist_action *a = hd->actions[i];

		if (a->act != HIST_ACT_SNAPSHOT)
			continue;
		ret = tracing_snapshot_cond_enable(hd->event_file->tr,
						   a->snap, hist_snapshot_update);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * hist_actions_unregister - undo hist_actions_register()
 * @hd: the histogram
 */
void hist_actions_unregister(struct hist_data *hd)
{
	struct trace_array *tr = hd->event_file->tr;
	unsigned int i;

	for (i = 0; i < hd->n_actions; i++) {
		struct hist_action *a = hd->actions[i];

		if (a->act == HIST_ACT_SNAPSHOT &&
		    tracing_cond_snapshot_data(tr) == a->snap)
			tracing_snapshot_cond_disable(tr);
	}
}

/**
 * hist_actions_same - whether two histograms have the same actions
 * @a: one
 * @b: the other
 *
 * Return: true if both have the same handler.action() texts, in order.
 */
bool hist_actions_same(struct hist_data *a, struct hist_data *b)
{
	unsigned int i;

	if (a->n_actions != b->n_actions)
		return false;
	for (i = 0; i < a->n_actions; i++)
		if (strcmp(a->actions[i]->text, b->actions[i]->text))
			return false;
	return true;
}
