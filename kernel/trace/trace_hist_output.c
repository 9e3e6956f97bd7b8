// SPDX-License-Identifier: GPL-2.0
/*
 * What a histogram looks like from user space: the canonical trigger
 * text (trigger file, "# trigger info:") and the "hist" file.  Tools
 * parse these formats: keep them byte for byte; see
 * Documentation/trace/histogram.rst.
 */
#include <linux/kernel.h>
#include <linux/kallsyms.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "trace_hist.h"

static void print_sort_key(struct seq_file *m, struct hist_data *hd,
			   unsigned int i)
{
	struct hist_field *f = hd->sort_fields[i];

	if (f->kind == HIST_KIND_HITCOUNT && f == hd->fields[0])
		seq_puts(m, "hitcount");
	else if (f->flags & HIST_FIELD_FL_AGG)
		/* as sort= takes it: "lat.max", whatever the value's modifiers */
		seq_printf(m, "%s.%s", hist_field_plain_name(f),
			   hist_field_agg_name(f->flags));
	else
		hist_field_print(m, f);
	if (hd->sort_keys[i].descending)
		seq_puts(m, ".descending");
}

/**
 * hist_actions_print - the clauses, as the trigger file shows them
 * @m: where to
 * @hd: the histogram
 */
static void hist_actions_print(struct seq_file *m, struct hist_data *hd)
{
	unsigned int i;

	for (i = 0; i < hd->n_actions; i++)
		seq_printf(m, ":%s", hd->actions[i]->text);
}

/**
 * hist_trigger_print - print a hist trigger in canonical form
 * @m: where to
 * @data: the trigger
 *
 * Return: 0.
 */
int hist_trigger_print(struct seq_file *m, struct event_trigger_data *data)
{
	struct hist_data *hd = data->private_data;
	bool first = true;
	unsigned int i;

	seq_puts(m, "hist:");
	if (data->name)
		seq_printf(m, "name=%s:", data->name);

	seq_puts(m, "keys=");
	for (i = hist_first_key(hd); i < hd->n_fields; i++) {
		if (i > hd->n_vals + hd->n_vars)
			seq_putc(m, ',');
		hist_field_print(m, hd->fields[i]);
	}

	seq_puts(m, ":vals=");
	for (i = 0; i < hd->n_vals; i++) {
		if (i == 0 && !hd->show_hitcount)
			continue;
		if (!first)
			seq_putc(m, ',');
		first = false;
		hist_field_print(m, hd->fields[i]);
	}

	for (i = hd->n_vals; i < hd->n_vals + hd->n_vars; i++) {
		struct hist_field *f = hd->fields[i];

		seq_putc(m, i == hd->n_vals ? ':' : ',');
		seq_printf(m, "%s=", f->var_name);
		hist_field_print(m, f);
	}

	seq_puts(m, ":sort=");
	for (i = 0; i < hd->n_sort_keys; i++) {
		if (i)
			seq_putc(m, ',');
		print_sort_key(m, hd, i);
	}
	seq_printf(m, ":size=%u", 1U << hd->map->map_bits);
	if (hd->uses_timestamps)
		seq_printf(m, ":clock=%s", hd->clock);
	if (!hd->show_hitcount)
		seq_puts(m, ":nohitcount");
	hist_actions_print(m, hd);

	if (data->filter_str)
		seq_printf(m, " if %s", data->filter_str);
	seq_puts(m, data->paused ? " [paused]\n" : " [active]\n");
	return 0;
}

/* ---- the hist file ---- */

static void print_stacktrace(struct seq_file *m, unsigned long *entries)
{
	unsigned int i;

	for (i = 0; i < HIST_STACKTRACE_DEPTH && entries[i]; i++)
		seq_printf(m, "%*c%pS\n", 9, ' ', (void *)entries[i]);
}

/**
 * hist_print_key_comm - hist_print_key() with the task name given
 * @m: where to
 * @hd: the histogram
 * @key: the key bytes
 * @comm: what an .execname key part shows (a copy of an entry's name)
 */
static void hist_print_key_comm(struct seq_file *m, struct hist_data *hd,
				void *key, const char *comm)
{
	bool multiline = false;
	unsigned int i;

	seq_puts(m, "{ ");
	for (i = hist_first_key(hd); i < hd->n_fields; i++) {
		struct hist_field *f = hd->fields[i];
		const char *name = hist_field_plain_name(f);
		void *p = key + f->key_offset;
		u64 v = *(u64 *)p;

		if (i > hd->n_vals + hd->n_vars)
			seq_puts(m, ", ");

		if (f->flags & HIST_FIELD_FL_HEX) {
			seq_printf(m, "%s: %llx", name, v);
		} else if (f->flags & HIST_FIELD_FL_SYM) {
			seq_printf(m, "%s: [%llx] %-45ps", name, v,
				   (void *)(unsigned long)v);
		} else if (f->flags & HIST_FIELD_FL_SYM_OFFSET) {
			seq_printf(m, "%s: [%llx] %-55pS", name, v,
				   (void *)(unsigned long)v);
		} else if (f->flags & HIST_FIELD_FL_EXECNAME) {
			seq_printf(m, "%s: %-16s[%10llu]", name,
				   comm, v);
		} else if (f->flags & HIST_FIELD_FL_SYSCALL) {
			const char *sc = get_syscall_name(v);

			seq_printf(m, "%s: %-30s[%3llu]", name,
				   sc ? sc : "unknown_syscall", v);
		} else if (f->flags & HIST_FIELD_FL_STACKTRACE) {
			/*
			 * An event's stack field is labelled
			 * "<field>.stacktrace" and its first frame follows
			 * on the same line.
			 */
			if (f->kind == HIST_KIND_STACK_FIELD)
				seq_printf(m, "%s.stacktrace", name);
			else
				seq_printf(m, "%s:\n", name);
			print_stacktrace(m, p);
			multiline = true;
		} else if (f->flags & HIST_FIELD_FL_LOG2) {
			seq_printf(m, "%s: ~ 2^%-2llu", name, v);
		} else if (f->flags & HIST_FIELD_FL_BUCKET) {
			int out = hist_bucket_outside(f, v);

			if (out < 0)
				seq_printf(m, "%s: < %llu", name, f->bucket_lo);
			else if (out)
				seq_printf(m, "%s: >= %llu", name, f->bucket_hi);
			else
				seq_printf(m, "%s: ~ %llu-%llu", name, v,
					   v + f->buckets - 1);
		} else if (hist_field_is_string(f)) {
			seq_printf(m, "%s: %-50.*s", name, f->size,
				   (char *)p);
		} else {
			/* "%s: %10llu" without vsnprintf(): most keys */
			seq_puts(m, name);
			seq_put_decimal_ull_width(m, ": ", v, 10);
		}
	}
	seq_puts(m, multiline ? "}" : " }");
}

/**
 * hist_print_key - print a compound key as the hist file does
 * @m: where to
 * @hd: the histogram
 * @key: the key bytes
 * @elt: the entry, for .execname; may be NULL
 */
static void hist_print_key(struct seq_file *m, struct hist_data *hd,
			   void *key, struct tracing_map_elt *elt)
{
	hist_print_key_comm(m, hd, key, hist_elt_comm(elt));
}

/* Per-value column statistics, for .percent and .graph. */
struct hist_column {
	u64 total;
	u64 max;
};

#define HIST_PERCENT_NONE	UINT_MAX

/*
 * @part of @whole in hundredths of a percent, at most 100.00 %: the two
 * come from one snapshot, but a value read apart from its column (a
 * sample entry, no column) must not print more than the whole.  Large
 * values scale @whole down instead of @part up, so nothing wraps.
 * HIST_PERCENT_NONE for a part of nothing.
 */
static unsigned int hist_percent(u64 part, u64 whole)
{
	u64 pc;

	if (!whole)
		return part ? HIST_PERCENT_NONE : 0;
	if (part < div64_u64(U64_MAX, 10000)) {
		pc = div64_u64(part * 10000, whole);
	} else {
		whole = div64_u64(whole, 10000);
		if (!whole)
			return HIST_PERCENT_NONE;
		pc = div64_u64(part, whole);
	}
	return min_t(u64, pc, 10000);
}

/*
 * A bar of HIST_GRAPH_WIDTH characters, '#' for each full twentieth of
 * @max that @val reaches, blanks after; never longer, whatever the two.
 */
static void print_bar(struct seq_file *m, u64 val, u64 max)
{
	char bar[HIST_GRAPH_WIDTH + 1];
	unsigned int pc = hist_percent(val, max), n;

	if (pc == HIST_PERCENT_NONE) {
		seq_printf(m, "%*s", HIST_GRAPH_WIDTH, "[ERROR]");
		return;
	}
	n = min_t(unsigned int, pc * HIST_GRAPH_WIDTH / 10000,
		  HIST_GRAPH_WIDTH);
	memset(bar, '#', n);
	memset(bar + n, ' ', HIST_GRAPH_WIDTH - n);
	bar[HIST_GRAPH_WIDTH] = '\0';
	seq_puts(m, bar);
}

static void print_percent(struct seq_file *m, const char *name, u64 val,
			  u64 total)
{
	unsigned int pc = hist_percent(val, total);

	if (pc == HIST_PERCENT_NONE)
		seq_printf(m, "  %s (%%):[ERROR]", name);
	else
		seq_printf(m, "  %s (%%): %3u.%02u", name, pc / 100, pc % 100);
}

/* The quantiles ".quantiles" shows, in thousandths, before the maximum. */
const struct hist_quantile hist_quantiles[HIST_QUANTILES] = {
	{ 500, "p50" }, { 900, "p90" }, { 990, "p99" }, { 999, "p99.9" },
};

/**
 * hist_quantiles_read - the quantiles of a ".quantiles" value of an entry
 * @elt: the entry
 * @f: the value
 * @max: its maximum, as read to be shown with them
 * @q: receives them, in the order of hist_quantiles[]
 */
void hist_quantiles_read(struct tracing_map_elt *elt, struct hist_field *f,
			 u64 max, u64 *q)
{
	unsigned int permille[HIST_QUANTILES], i;

	for (i = 0; i < HIST_QUANTILES; i++)
		permille[i] = hist_quantiles[i].permille;
	tracing_map_read_quantiles(elt, f->map_idx, max, permille,
				   HIST_QUANTILES, q);
}

/* "  lat.p50: N  lat.p90: N  lat.p99: N  lat.p99.9: N  lat.max: N" */
static void print_quantiles(struct seq_file *m, struct tracing_map_elt *elt,
			    struct hist_field *f, u64 max)
{
	const char *name = hist_field_plain_name(f);
	const char *fmt = f->flags & HIST_FIELD_FL_HEX ? "  %s.%s: %10llx" :
				"  %s.%s: %10llu";
	u64 q[HIST_QUANTILES];
	unsigned int i;

	hist_quantiles_read(elt, f, max, q);
	for (i = 0; i < HIST_QUANTILES; i++)
		seq_printf(m, fmt, name, hist_quantiles[i].name, q[i]);
	seq_printf(m, fmt, name, "max", max);
}

/**
 * hist_agg_value - what a ".min", ".max" or ".avg" value of an entry shows
 * @f: the value
 * @v: the map field as read (tracing_map_read_sums())
 * @hits: the entry's hit count, read together with @v
 *
 * Return: an average divided by the hit count (towards zero, signed if
 * the value is), a minimum or maximum that saw no value yet (an entry
 * being created) 0, anything else @v.
 */
u64 hist_agg_value(struct hist_field *f, u64 v, u64 hits)
{
	enum tracing_map_agg agg = hist_field_map_agg(f);

	if (agg >= TRACING_MAP_AVG) {
		if (!hits)
			return 0;
		if (agg == TRACING_MAP_SAVG)
			return div64_s64(v, hits);
		return div64_u64(v, hits);
	}
	return v == tracing_map_agg_init(agg) ? 0 : v;
}

/*
 * A value's minimum, maximum or average: "  lat.max: N", signed
 * if the value is, in hex with .hex; or its quantiles.
 */
static void print_agg(struct seq_file *m, struct tracing_map_elt *elt,
		      struct hist_field *f, u64 v, u64 hits)
{
	if (f->flags & HIST_FIELD_FL_QUANT) {
		print_quantiles(m, elt, f, v);
		return;
	}
	v = hist_agg_value(f, v, hits);
	seq_printf(m, "  %s.%s: ", hist_field_plain_name(f),
		   hist_field_agg_name(f->flags));
	if (f->flags & HIST_FIELD_FL_HEX)
		seq_printf(m, "%10llx", v);
	else if (f->is_signed)
		seq_printf(m, "%10lld", (s64)v);
	else
		seq_printf(m, "%10llu", v);
}

/**
 * hist_actions_show_entry - what onmax()/onchange() keep in an entry
 * @m: where to
 * @hd: the histogram
 * @elt: the entry
 */
static void hist_actions_show_entry(struct seq_file *m, struct hist_data *hd,
				    struct tracing_map_elt *elt)
{
	unsigned int i, j;

	for (i = 0; i < hd->n_actions; i++) {
		struct hist_action *a = hd->actions[i];
		u64 track;

		if (!hist_action_shows_entry(hd, a))
			continue;
		track = tracing_map_read_var(elt, a->track_var->var_idx);
		seq_printf(m, "\n\t%s: %10llu",
			   a->handler == HIST_ON_MAX ? "max" : "changed",
			   track);
		if (a->act == HIST_ACT_SNAPSHOT)
			continue;
		for (j = 0; j < hd->n_save_vars; j++) {
			struct hist_field *f = hd->save_vars[j];
			u64 v = tracing_map_read_var(elt, f->var_idx);

			if (hist_field_is_string(f))
				/* an entry never saved shows "(null)" */
				seq_printf(m, "  %s: %-32s", f->var_name,
					   (char *)(unsigned long)v);
			else
				seq_printf(m, "  %s: %10llu", f->var_name, v);
		}
	}
}

/*
 * One entry's values; @snap, if not NULL, holds them as read once for
 * the column statistics in @cols, so that a line never shows a value
 * other than the one its column's total and maximum were made of.
 */
static void print_vals(struct seq_file *m, struct hist_data *hd,
		       struct tracing_map_elt *elt, struct hist_column *cols,
		       const u64 *snap)
{
	u64 hits = snap ? snap[0] : hist_elt_hitcount(hd, elt);
	unsigned int i;

	for (i = 0; i < hd->n_vals; i++) {
		struct hist_field *f = hd->fields[i];
		u64 v = snap ? snap[i] : tracing_map_read_sum(elt, f->map_idx);
		const char *name = hist_field_plain_name(f);

		if (i == 0) {
			if (hd->show_hitcount)
				seq_put_decimal_ull_width(m, " hitcount: ", v,
							  10);
			continue;
		}
		if (f->flags & HIST_FIELD_FL_EXPR)
			continue;
		if (f->flags & HIST_FIELD_FL_AGG) {
			print_agg(m, elt, f, v, hits);
			continue;
		}
		if (f->flags & HIST_FIELD_FL_PERCENT) {
			print_percent(m, name, v, cols[i].total);
		} else if (f->flags & HIST_FIELD_FL_GRAPH) {
			seq_printf(m, "  %s: ", name);
			print_bar(m, v, cols[i].max);
		} else if (f->flags & HIST_FIELD_FL_HEX) {
			seq_printf(m, "  %s: %10llx", name, v);
		} else {
			seq_puts(m, "  ");
			seq_puts(m, name);
			seq_put_decimal_ull_width(m, ": ", v, 10);
		}
	}
	hist_actions_show_entry(m, hd, elt);
	seq_putc(m, '\n');
}

/* Does any value of @hd show its share of its column (.percent/.graph)? */
static bool hist_has_columns(struct hist_data *hd)
{
	unsigned int j;

	for (j = 0; j < hd->n_vals; j++)
		if (hd->fields[j]->flags &
		    (HIST_FIELD_FL_PERCENT | HIST_FIELD_FL_GRAPH))
			return true;
	return false;
}

/* The map indices of @hd's values, for tracing_map_read_sums(). */
static void hist_val_idx(struct hist_data *hd, unsigned int *idx)
{
	unsigned int j;

	for (j = 0; j < hd->n_vals; j++)
		idx[j] = hd->fields[j]->map_idx;
}

/**
 * hist_read_entry - read the values of an entry to be printed
 * @hd: the histogram
 * @elt: the entry
 * @vals: receives its @hd->n_vals values, in one pass over the CPUs
 *
 * Events go on while the hist files are read.  An entry whose hitcount
 * (value 0) reads 0 was published by an event that has not counted its
 * hit yet, or its whole count was in a CPU's pending slot while that
 * was being moved into the entry, which a reader may miss (rule (C) of
 * tracing_map.c).  It is read once more, and left out if it still
 * reads 0: as if its first hit came a moment later.
 *
 * Return: true if the entry is to be printed with @vals.
 */
bool hist_read_entry(struct hist_data *hd, struct tracing_map_elt *elt,
		     u64 *vals)
{
	unsigned int idx[HIST_VALS_MAX];

	hist_val_idx(hd, idx);
	tracing_map_read_sums(elt, idx, hd->n_vals, vals);
	if (likely(vals[0]))
		return true;
	tracing_map_read_sums(elt, idx, hd->n_vals, vals);
	return vals[0] != 0;
}

static int show_entries(struct seq_file *m, struct hist_data *hd)
{
	struct tracing_map_sort_entry **entries;
	struct hist_column cols[HIST_VALS_MAX] = {};
	unsigned int i, j, nv = hd->n_vals, shown = 0;
	u64 row[HIST_VALS_MAX], *snap = NULL;
	bool *show = NULL;
	int n;

	n = tracing_map_sort_entries(hd->map, hd->sort_keys, hd->n_sort_keys,
				     &entries);
	if (n < 0)
		return n;

	/*
	 * Events go on updating the entries while they are printed: each
	 * entry's values are read once (hist_read_entry()), and both the
	 * column statistics and the lines are made from that copy (@snap
	 * when there are columns, else @row per line).  An entry it leaves
	 * out is neither printed nor in a column's statistics, and Entries
	 * counts the lines shown.
	 */
	if (n && hist_has_columns(hd)) {
		snap = kvmalloc_array(n, nv * sizeof(*snap) + sizeof(*show),
				      GFP_KERNEL);
		if (!snap) {
			tracing_map_destroy_sort_entries(entries, n);
			return -ENOMEM;
		}
		show = (bool *)(snap + (size_t)n * nv);
		for (i = 0; i < n; i++) {
			u64 *r = snap + (size_t)i * nv;

			if (!(i & 255))
				cond_resched();
			show[i] = hist_read_entry(hd, entries[i]->elt, r);
			if (!show[i])
				continue;
			for (j = 0; j < nv; j++) {
				cols[j].total += r[j];
				cols[j].max = max(cols[j].max, r[j]);
			}
		}
	}
	for (i = 0; i < n; i++) {
		u64 *r = row;

		if (!(i & 255))
			cond_resched();
		if (snap) {
			r = snap + (size_t)i * nv;
			if (!show[i])
				continue;
		} else if (!hist_read_entry(hd, entries[i]->elt, row)) {
			continue;
		}
		hist_print_key(m, hd, entries[i]->key, entries[i]->elt);
		print_vals(m, hd, entries[i]->elt, cols, r);
		shown++;
	}
	kvfree(snap);
	tracing_map_destroy_sort_entries(entries, n);
	return shown;
}

struct hist_sample {
	struct seq_file	*m;
	struct hist_data *hd;
	hist_entry_print_fn print;
	unsigned int	n;
	unsigned int	fitted;
	size_t		bytes;
};

#define HIST_SAMPLE_ENTRIES	8

static void hist_sample_one(struct tracing_map_elt *elt, void *arg)
{
	struct hist_sample *hs = arg;

	if (hs->n >= HIST_SAMPLE_ENTRIES || seq_has_overflowed(hs->m))
		return;
	hs->n++;
	hs->print(hs->m, hs->hd, tracing_map_elt_key(elt), elt);
	/* only entries that fitted whole count */
	if (!seq_has_overflowed(hs->m)) {
		hs->fitted++;
		hs->bytes = hs->m->count;
	}
}

/**
 * hist_size_hint - about how many bytes the entries of a histogram take
 * @hd: the histogram
 * @print: prints one entry as the file does
 *
 * The hist files are single_open() seq_files: whenever the output does
 * not fit the buffer, seq_file doubles the buffer and prints everything
 * again, sort included, so a large histogram used to be sorted and
 * printed a dozen times.  Opening it with a buffer of about the right
 * size avoids that: a few entries are printed into a scratch buffer and
 * their average length scaled to the number of entries, with a margin.
 * A short estimate only costs the old retries.
 *
 * Context: event_mutex held.
 * Return: the estimate in bytes.
 */
size_t hist_size_hint(struct hist_data *hd, hist_entry_print_fn print)
{
	struct seq_file m = { .size = 2 * PAGE_SIZE };
	struct hist_sample hs = { .m = &m, .hd = hd, .print = print };
	unsigned int entries = tracing_map_used(hd->map);
	size_t per_entry;

	if (!entries)
		return PAGE_SIZE;
	m.buf = kmalloc(m.size, GFP_KERNEL);
	if (!m.buf)
		return PAGE_SIZE;
	tracing_map_walk(hd->map, hist_sample_one, &hs);
	/* an entry longer than the scratch buffer: let seq_file grow */
	per_entry = hs.fitted ? DIV_ROUND_UP(hs.bytes, hs.fitted) : 0;
	kfree(m.buf);
	/* a quarter more for longer entries and entries still coming */
	return PAGE_SIZE + (size_t)entries * (per_entry + per_entry / 4);
}

/* One line of the hist file, for hist_size_hint(). */
static void hist_text_entry(struct seq_file *m, struct hist_data *hd,
			    void *key, struct tracing_map_elt *elt)
{
	struct hist_column cols[HIST_VALS_MAX] = {};

	hist_print_key(m, hd, key, elt);
	print_vals(m, hd, elt, cols, NULL);
}

/**
 * hist_data_size_hint - about how many bytes hist_data_show() will print
 * @hd: the histogram
 *
 * Context: event_mutex held.
 * Return: the estimate in bytes (see hist_size_hint()).
 */
size_t hist_data_size_hint(struct hist_data *hd)
{
	return hist_size_hint(hd, hist_text_entry);
}

/**
 * hist_actions_show_snapshot - the "Snapshot taken" note of the hist file
 * @m: where to
 * @hd: the histogram
 */
static void hist_actions_show_snapshot(struct seq_file *m, struct hist_data *hd)
{
	unsigned int i;

	for (i = 0; i < hd->n_actions; i++) {
		struct hist_action *a = hd->actions[i];

		if (a->act != HIST_ACT_SNAPSHOT || !a->snap->taken)
			continue;
		/* value and key share one line: the layout users parse */
		seq_puts(m, "\nSnapshot taken (see tracing/snapshot).  Details:\n");
		seq_printf(m, "\ttriggering value { %s($%s) }: %10llu",
			   a->handler == HIST_ON_MAX ? "onmax" : "onchange",
			   a->track_ref->name, a->snap->val);
		seq_puts(m, "\ttriggered by event with key: ");
		hist_print_key_comm(m, hd, a->snap->key, a->snap->comm);
		seq_putc(m, '\n');
	}
}

/**
 * hist_data_show - print one histogram as the "hist" file does
 * @m: where to
 * @data: the trigger
 * @n: how many histograms of this event were printed before
 */
void hist_data_show(struct seq_file *m, struct event_trigger_data *data,
		    unsigned int n)
{
	struct hist_data *hd = data->private_data;
	int entries;

	if (n)
		seq_puts(m, "\n\n");
	seq_puts(m, "# event histogram\n#\n# trigger info: ");
	hist_trigger_print(m, data);
	seq_puts(m, "#\n\n");

	entries = show_entries(m, hd);
	if (entries < 0)
		entries = 0;

	hist_actions_show_snapshot(m, hd);
	seq_printf(m, "\nTotals:\n    Hits: %llu\n    Entries: %u\n    Dropped: %llu\n",
		   tracing_map_read_hits(hd->map), entries,
		   tracing_map_read_drops(hd->map));
}
