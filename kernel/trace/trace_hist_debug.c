// SPDX-License-Identifier: GPL-2.0
/*
 * The "hist_debug" file: a histogram's internals, one block per field
 * (its flags, type and offsets), then its variable references, field
 * variables and actions.  It exists for whoever debugs the hist code
 * (CONFIG_HIST_TRIGGERS_DEBUG); its layout follows the one tools and
 * the selftests know.
 */
#include <linux/kernel.h>
#include <linux/seq_file.h>

#include "trace_hist.h"

/**
 * hist_debug_ref - the hist_debug lines locating a variable reference
 * @m: where to
 * @ref: the reference
 */
static void hist_debug_ref(struct seq_file *m, const struct hist_field *ref)
{
	seq_printf(m, "      name: %s\n", ref->name);
	seq_printf(m, "      var.idx (into tracing_map_elt.vars[]): %d\n",
		   ref->var_idx);
	seq_printf(m, "      var.hist_data: %p\n", ref->var_hd);
	seq_printf(m, "      var_ref_idx (into hist_data->var_refs[]): %u\n",
		   ref->var_ref_idx);
}

static void debug_field(struct seq_file *m, struct hist_data *hd,
			unsigned int i)
{
	struct hist_field *f = hd->fields[i];

	seq_printf(m, "\n    hist_data->fields[%u]:\n      flags:\n", i);
	if (f->kind == HIST_KIND_VAR_REF && !(f->flags & HIST_FIELD_FL_VAR)) {
		/* a bare reference as a value shows as the reference */
		seq_puts(m, "        HIST_FIELD_FL_VAR_REF\n");
		hist_debug_ref(m, f);
	} else if (f->flags & HIST_FIELD_FL_KEY) {
		seq_puts(m, "        HIST_FIELD_FL_KEY\n");
	} else if (f->flags & HIST_FIELD_FL_VAR) {
		seq_puts(m, "        HIST_FIELD_FL_VAR\n");
	} else if (f->flags & HIST_FIELD_FL_HITCOUNT) {
		seq_puts(m, "        VAL: HIST_FIELD_FL_HITCOUNT\n");
	} else {
		seq_puts(m, "        VAL: normal u64 value\n");
	}
	if (f->flags & HIST_FIELD_FL_ALIAS)
		seq_puts(m, "        HIST_FIELD_FL_ALIAS\n");
	if (f->kind == HIST_KIND_CONST)
		seq_puts(m, "        HIST_FIELD_FL_CONST\n");
	/* a variable shows the field it reads first */
	if ((f->flags & HIST_FIELD_FL_VAR) && f->event_field)
		seq_printf(m, "      ftrace_event_field name: %s\n",
			   f->event_field->name);
	if (f->flags & HIST_FIELD_FL_VAR) {
		seq_printf(m, "      var.name: %s\n", f->var_name);
		seq_printf(m, "      var.idx (into tracing_map_elt.vars[]): %d\n",
			   f->var_idx);
	}
	if (f->flags & HIST_FIELD_FL_ALIAS)
		seq_printf(m, "      var_ref_idx (into hist_data->var_refs[]): %u\n",
			   f->var_ref_idx);
	if (f->kind == HIST_KIND_CONST)
		seq_printf(m, "      constant: %llu\n", f->constant);
	if (!(f->flags & HIST_FIELD_FL_VAR) && f->event_field)
		seq_printf(m, "      ftrace_event_field name: %s\n",
			   f->event_field->name);
	seq_printf(m, "      type: %s\n", f->type ? f->type : "");
	seq_printf(m, "      size: %u\n", f->size);
	seq_printf(m, "      is_signed: %d\n", f->is_signed);
	/* only values with .min, .max or .avg have this line */
	if (f->flags & HIST_FIELD_FL_AGG)
		seq_printf(m, "      aggregation: %s\n",
			   hist_field_agg_name(f->flags));
	if (f->flags & HIST_FIELD_FL_QUANT) {
		seq_printf(m, "      quantile buckets: %lu x u32 (%zu bytes in each entry)\n",
			   TRACING_MAP_QUANT_BUCKETS, (size_t)TRACING_MAP_QUANT_SIZE);
		seq_printf(m, "      quantile layout: 0-%lu one value each, then %lu per power of 2 up to 2^%u, one for larger values\n",
			   2 * TRACING_MAP_QUANT_SUB - 1, TRACING_MAP_QUANT_SUB,
			   TRACING_MAP_QUANT_RANGE_BITS);
		seq_printf(m, "      quantile error: < 1/%lu of the value (bucket middle)\n",
			   2 * TRACING_MAP_QUANT_SUB);
	}
}

/* ---- references, field variables and actions ---- */

static bool is_field_var(struct hist_data *hd, struct hist_field *ref)
{
	unsigned int i;

	if (ref->var_hd != hd)
		return false;
	for (i = 0; i < hd->n_field_vars; i++)
		if (hd->field_vars[i]->var_idx == ref->var_idx)
			return true;
	return false;
}

static void debug_ref(struct seq_file *m, struct hist_data *hd,
		      const char *what, unsigned int i, struct hist_field *ref)
{
	if (what)
		seq_printf(m, "\n    hist_data->%s[%u]:\n", what, i);
	seq_puts(m, "      flags:\n        HIST_FIELD_FL_VAR_REF\n");
	hist_debug_ref(m, ref);
	if (ref->system) {
		seq_printf(m, "      system: %s\n", ref->system);
		seq_printf(m, "      event_name: %s\n", ref->event_name);
	}
	seq_printf(m, "      type: %s\n", ref->type ? ref->type : "");
	seq_printf(m, "      size: %u\n", ref->size);
	/* field variable references show as unsigned (see param_fits()) */
	seq_printf(m, "      is_signed: %d\n",
		   ref->is_signed && !is_field_var(hd, ref));
}

static void debug_var(struct seq_file *m, const char *what, unsigned int i,
		      struct hist_field *f)
{
	seq_printf(m, "\n    hist_data->%s[%u]:\n", what, i);
	seq_printf(m, "\n      %s[%u].var:\n", what, i);
	seq_puts(m, "      flags:\n        HIST_FIELD_FL_VAR\n");
	seq_printf(m, "      var.name: %s\n", f->var_name);
	seq_printf(m, "      var.idx (into tracing_map_elt.vars[]): %d\n",
		   f->var_idx);
	seq_printf(m, "\n      %s[%u].val:\n", what, i);
	if (f->event_field)
		seq_printf(m, "      ftrace_event_field name: %s\n",
			   f->event_field->name);
	seq_printf(m, "      type: %s\n", f->type ? f->type : "");
	seq_printf(m, "      size: %u\n", f->size);
	seq_printf(m, "      is_signed: %d\n", f->is_signed);
}

/**
 * hist_actions_show_debug - the hist_debug sections past the fields
 * @m: where to
 * @hd: the histogram
 */
static void hist_actions_show_debug(struct seq_file *m, struct hist_data *hd)
{
	unsigned int i;

	if (hd->n_var_refs)
		seq_puts(m, "\n  variable reference fields:\n");
	for (i = 0; i < hd->n_var_refs; i++)
		debug_ref(m, hd, "var_refs", i, hd->var_refs[i]);

	if (hd->n_field_vars)
		seq_puts(m, "\n  field variables:\n");
	for (i = 0; i < hd->n_field_vars; i++)
		debug_var(m, "field_vars", i, hd->field_vars[i]);

	if (hd->n_actions)
		seq_puts(m, "\n  action tracking variables (for onmax()/onchange()/onmatch()):\n");
	for (i = 0; i < hd->n_actions; i++) {
		struct hist_action *a = hd->actions[i];

		if (a->handler == HIST_ON_MATCH) {
			seq_printf(m, "\n    hist_data->actions[%u].match_data.event_system: %s\n",
				   i, a->match_system);
			seq_printf(m, "    hist_data->actions[%u].match_data.event: %s\n",
				   i, a->match_event);
			continue;
		}
		seq_printf(m, "\n    hist_data->actions[%u].track_data.var_ref:\n",
			   i);
		debug_ref(m, hd, NULL, 0,
			  hd->var_refs[a->track_ref->var_ref_idx]);
		seq_printf(m, "\n    hist_data->actions[%u].track_data.track_var:\n",
			   i);
		seq_puts(m, "      flags:\n        HIST_FIELD_FL_VAR\n");
		seq_printf(m, "      var.name: %s\n", a->track_var->var_name);
		seq_printf(m, "      var.idx (into tracing_map_elt.vars[]): %d\n",
			   a->track_var->var_idx);
		seq_puts(m, "      type: u64\n      size: 8\n      is_signed: 0\n");
	}

	if (hd->n_save_vars)
		seq_puts(m, "\n  save action variables (save() params):\n");
	for (i = 0; i < hd->n_save_vars; i++)
		debug_var(m, "save_vars", i, hd->save_vars[i]);
}

/**
 * hist_data_show_debug - print one histogram's internals ("hist_debug")
 * @m: where to
 * @data: the trigger
 * @n: how many histograms of this event were printed before
 */
void hist_data_show_debug(struct seq_file *m, struct event_trigger_data *data,
			  unsigned int n)
{
	struct hist_data *hd = data->private_data;
	unsigned int i;

	if (n)
		seq_puts(m, "\n\n");
	seq_puts(m, "# event histogram\n#\n# trigger info: ");
	hist_trigger_print(m, data);
	seq_puts(m, "#\n\n");

	seq_printf(m, "hist_data: %p\n\n", hd);
	seq_printf(m, "  n_vals: %u\n", hd->n_vals + hd->n_vars);
	seq_printf(m, "  n_keys: %u\n", hd->n_keys);
	seq_printf(m, "  n_fields: %u\n", hd->n_fields);

	seq_puts(m, "\n  val fields:\n");
	for (i = 0; i < hd->n_vals + hd->n_vars; i++)
		debug_field(m, hd, i);

	seq_puts(m, "\n  key fields:\n");
	for (i = hist_first_key(hd); i < hd->n_fields; i++)
		debug_field(m, hd, i);

	hist_actions_show_debug(m, hd);
}
