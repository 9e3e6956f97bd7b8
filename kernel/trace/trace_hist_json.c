// SPDX-License-Identifier: GPL-2.0
/*
 * The hist.json file of an event: what its hist file shows, as one JSON
 * document (RFC 8259) that a script can load without parsing the hist
 * file's columns:
 *
 *   {"system":"sched","event":"sched_waking","histograms":[
 *   {"trigger":"hist:keys=pid:vals=hitcount,prio:sort=hitcount:size=2048",
 *    "paused":false,"entries":[
 *   {"key":{"pid":17},"values":{"hitcount":2,"prio":240}},
 *   {"key":{"pid":5},"values":{"hitcount":3,"prio":360}}],
 *   "totals":{"hits":5,"entries":2,"dropped":0}}]}
 *
 * (without the line breaks inside a histogram's head).  One histogram
 * per hist trigger of the event, in the hist file's order; entries sorted
 * as there.  Keys and values are named by their text in the trigger
 * ("common_pid.execname", "lat.max", "$lat.quantiles"), a repeated one
 * with "#2", "#3"... so that names are unique in an object.  Numbers are
 * numbers, signed where the field is (the hist file shows sums as u64);
 * .hex does not change them.  Strings are strings; a key's symbol (.sym,
 * .sym-offset) is its text as %ps / %pS print it, a stack an array of
 * such texts, .execname {"comm":..,"pid":..}, .syscall {"name":..,
 * "id":..}, .log2 {"log2":N} (the hist file's "~ 2^N"), .buckets
 * {"from":..,"to":..}; a ".quantiles" value {"p50":..,"p90":..,
 * "p99":..,"p99.9":..,"max":..}.  Entries of histograms with onmax() or
 * onchange() carry "actions", one {"max":..,"saved":{..}} (or "changed")
 * per tracking action.  The file takes event_mutex while it prints, as
 * the hist file does.
 */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_hist.h"

/*
 * Length of the UTF-8 sequence in @s (@len bytes, at most 4), or 0 if it
 * does not start with a valid one: no overlong forms, surrogates or code
 * points above U+10FFFF, as RFC 3629 has it.
 */
static unsigned int utf8_seq_len(const unsigned char *s, size_t len)
{
	unsigned int n, i;
	u32 cp;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n > len)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff)))
		return 0;
	if (n == 4 && (cp < 0x10000 || cp > 0x10ffff))
		return 0;
	return n;
}

/* The escaped characters of hist_json_str(), without the quotes. */
static void json_chars(struct seq_file *m, const char *s, size_t len)
{
	static const char short_esc[] = "btnvfr";
	const unsigned char *p = (const unsigned char *)s;
	unsigned char seq[4];
	unsigned int n, k;
	size_t i = 0;

	while (i < len) {
		unsigned char c = READ_ONCE(p[i]);

		if (!c)
			break;
		if (c == '"' || c == '\\') {
			seq_putc(m, '\\');
			seq_putc(m, c);
		} else if (c >= '\b' && c <= '\r' && c != '\v') {
			seq_putc(m, '\\');
			seq_putc(m, short_esc[c - '\b']);
		} else if (c >= 0x80) {
			/* the bytes of a possible sequence, once */
			seq[0] = c;
			for (k = 1; k < sizeof(seq) && i + k < len; k++)
				seq[k] = READ_ONCE(p[i + k]);
			n = utf8_seq_len(seq, k);
			if (n) {
				seq_write(m, seq, n);
				i += n;
				continue;
			}
			seq_printf(m, "\\u%04x", c);
		} else if (c < 0x20 || c == 0x7f) {
			seq_printf(m, "\\u%04x", c);
		} else {
			seq_putc(m, c);
		}
		i++;
	}
}

/**
 * hist_json_str - print a string as a JSON string
 * @m: where to
 * @s: the string
 * @len: at most this many bytes of it (it may end earlier with a NUL)
 *
 * Quotes and backslashes are escaped, control characters (and DEL) are
 * \n, \t, ... or \u00XX; valid UTF-8 sequences are kept, every other
 * byte of 0x80 and above becomes \u00XX (read as Latin-1), so the output
 * is valid JSON whatever the bytes: a task may name itself anything.
 * Each byte is read once and what is printed is what was checked: a
 * string variable may be rewritten by an event meanwhile.
 */
void hist_json_str(struct seq_file *m, const char *s, size_t len)
{
	seq_putc(m, '"');
	json_chars(m, s, len);
	seq_putc(m, '"');
}

/**
 * hist_json_num - print a field's number, signed if the field is
 * @m: where to
 * @f: the field
 * @v: the number
 */
void hist_json_num(struct seq_file *m, const struct hist_field *f, u64 v)
{
	if (f->is_signed)
		seq_printf(m, "%lld", (s64)v);
	else
		seq_printf(m, "%llu", v);
}

static const char *json_text(const struct hist_field *f)
{
	return f->text ? f->text : hist_field_plain_name(f);
}

/**
 * hist_json_name - print a member name, unique in its object
 * @m: where to
 * @names: the names of the object's members, this one last
 * @n: how many there are (this one included)
 *
 * A name that comes again (keys=pid,pid) gets "#2", "#3", ... so that
 * every member of an object has its own name.
 */
void hist_json_name(struct seq_file *m, const char *const *names,
		    unsigned int n)
{
	const char *name = names[n - 1];
	unsigned int i, same = 0;

	for (i = 0; i + 1 < n; i++)
		same += !strcmp(names[i], name);
	seq_putc(m, '"');
	json_chars(m, name, strlen(name));
	if (same)
		seq_printf(m, "#%u", same + 1);
	seq_puts(m, "\":");
}

/* An address as %ps or %pS (@fmt) prints it, as a JSON string. */
static void json_sym(struct seq_file *m, const char *fmt, unsigned long addr)
{
	char buf[KSYM_SYMBOL_LEN];
	int n = snprintf(buf, sizeof(buf), fmt, (void *)addr);

	hist_json_str(m, buf, min_t(int, n, sizeof(buf) - 1));
}

/**
 * hist_json_stack - print a stack as an array of its frames' texts
 * @m: where to
 * @stack: up to HIST_STACKTRACE_DEPTH return addresses, ending at a 0
 */
void hist_json_stack(struct seq_file *m, const unsigned long *stack)
{
	unsigned int i;

	seq_putc(m, '[');
	for (i = 0; i < HIST_STACKTRACE_DEPTH && stack[i]; i++) {
		if (i)
			seq_putc(m, ',');
		json_sym(m, "%pS", stack[i]);
	}
	seq_putc(m, ']');
}

static void json_key_part(struct seq_file *m, const struct hist_field *f,
			  void *p, struct tracing_map_elt *elt)
{
	u64 v = *(u64 *)p;
	const char *s;

	if (f->flags & HIST_FIELD_FL_STACKTRACE) {
		hist_json_stack(m, p);
	} else if (f->flags & HIST_FIELD_FL_SYM) {
		json_sym(m, "%ps", v);
	} else if (f->flags & HIST_FIELD_FL_SYM_OFFSET) {
		json_sym(m, "%pS", v);
	} else if (f->flags & HIST_FIELD_FL_EXECNAME) {
		s = hist_elt_comm(elt);
		seq_puts(m, "{\"comm\":");
		hist_json_str(m, s, TASK_COMM_LEN);
		seq_printf(m, ",\"pid\":%llu}", v);
	} else if (f->flags & HIST_FIELD_FL_SYSCALL) {
		s = get_syscall_name(v);
		seq_puts(m, "{\"name\":");
		if (s)
			hist_json_str(m, s, strlen(s));
		else
			seq_puts(m, "null");
		seq_puts(m, ",\"id\":");
		hist_json_num(m, f, v);
		seq_putc(m, '}');
	} else if (f->flags & HIST_FIELD_FL_LOG2) {
		seq_printf(m, "{\"log2\":%llu}", v);
	} else if (f->flags & HIST_FIELD_FL_BUCKET) {
		int out = hist_bucket_outside(f, v);

		if (out < 0)
			seq_printf(m, "{\"below\":%llu}", f->bucket_lo);
		else if (out)
			seq_printf(m, "{\"from\":%llu}", f->bucket_hi);
		else
			seq_printf(m, "{\"from\":%llu,\"to\":%llu}", v,
				   v + f->buckets - 1);
	} else if (hist_field_is_string(f)) {
		hist_json_str(m, p, f->size);
	} else {
		hist_json_num(m, f, v);
	}
}

/* @vals: every value of the entry, from hist_read_entry() */
static void json_values(struct seq_file *m, struct hist_data *hd,
			struct tracing_map_elt *elt, const u64 *vals)
{
	const char *names[HIST_VALS_MAX];
	unsigned int i, j, n = 0;
	u64 q[HIST_QUANTILES];
	bool first = true;

	seq_puts(m, "\"values\":{");
	for (i = 0; i < hd->n_vals; i++) {
		struct hist_field *f = hd->fields[i];
		u64 v = vals[i];

		/* as the hist file: no hitcount with nohitcount, no expressions */
		if ((i == 0 && !hd->show_hitcount) ||
		    (f->flags & HIST_FIELD_FL_EXPR))
			continue;
		if (!first)
			seq_putc(m, ',');
		first = false;
		names[n++] = i ? json_text(f) : "hitcount";
		hist_json_name(m, names, n);
		if (i == 0) {
			seq_printf(m, "%llu", v);
			continue;
		}
		if (f->flags & HIST_FIELD_FL_QUANT) {
			hist_quantiles_read(elt, f, v, q);
			seq_putc(m, '{');
			for (j = 0; j < HIST_QUANTILES; j++)
				seq_printf(m, "\"%s\":%llu,", hist_quantiles[j].name,
					   q[j]);
			seq_printf(m, "\"max\":%llu}", v);
			continue;
		}
		if (f->flags & HIST_FIELD_FL_AGG)
			v = hist_agg_value(f, v, vals[0]);
		hist_json_num(m, f, v);
	}
	seq_putc(m, '}');
}

/**
 * hist_actions_json_entry - hist_actions_show_entry() for hist.json
 * @m: where to
 * @hd: the histogram
 * @elt: the entry
 *
 * ',"actions":[{"max":N,"saved":{"<var>":V,...}},...]' after an entry's
 * values ("changed" for onchange(); no "saved" for snapshot()), one
 * object per line hist_actions_show_entry() prints; numbers signed as
 * their field, strings as strings (null if never saved), stacks as
 * arrays.  Nothing without such actions.
 */
static void hist_actions_json_entry(struct seq_file *m, struct hist_data *hd,
				    struct tracing_map_elt *elt)
{
	const char *names[HIST_VARS_MAX];
	bool first = true;
	unsigned int i, j;

	for (i = 0; i < hd->n_actions; i++) {
		struct hist_action *a = hd->actions[i];

		if (!hist_action_shows_entry(hd, a))
			continue;
		seq_puts(m, first ? ",\"actions\":[" : ",");
		first = false;
		seq_printf(m, "{\"%s\":",
			   a->handler == HIST_ON_MAX ? "max" : "changed");
		hist_json_num(m, a->track_var,
			      tracing_map_read_var(elt, a->track_var->var_idx));
		if (a->act == HIST_ACT_SNAPSHOT) {
			seq_putc(m, '}');
			continue;
		}
		seq_puts(m, ",\"saved\":{");
		for (j = 0; j < hd->n_save_vars; j++) {
			struct hist_field *f = hd->save_vars[j];
			u64 v = tracing_map_read_var(elt, f->var_idx);

			if (j)
				seq_putc(m, ',');
			names[j] = f->var_name;
			hist_json_name(m, names, j + 1);
			if (!v && (hist_field_is_string(f) ||
				   (f->flags & HIST_FIELD_FL_STACKTRACE)))
				seq_puts(m, "null");
			else if (hist_field_is_string(f))
				hist_json_str(m, (char *)(unsigned long)v,
					      HIST_VAR_STR_SIZE);
			else if (f->flags & HIST_FIELD_FL_STACKTRACE)
				hist_json_stack(m, (unsigned long *)(unsigned long)v);
			else
				hist_json_num(m, f, v);
		}
		seq_puts(m, "}}");
	}
	if (!first)
		seq_putc(m, ']');
}

static void json_entry_vals(struct seq_file *m, struct hist_data *hd,
			    void *key, struct tracing_map_elt *elt,
			    const u64 *vals)
{
	unsigned int i, first = hist_first_key(hd);
	const char *names[HIST_KEYS_MAX];

	seq_puts(m, "{\"key\":{");
	for (i = first; i < hd->n_fields; i++) {
		struct hist_field *f = hd->fields[i];

		if (i > first)
			seq_putc(m, ',');
		names[i - first] = json_text(f);
		hist_json_name(m, names, i - first + 1);
		json_key_part(m, f, key + f->key_offset, elt);
	}
	seq_puts(m, "},");
	json_values(m, hd, elt, vals);
	hist_actions_json_entry(m, hd, elt);
	seq_putc(m, '}');
}

/* One entry as hist.json prints it, for hist_size_hint(). */
static void json_entry(struct seq_file *m, struct hist_data *hd, void *key,
		       struct tracing_map_elt *elt)
{
	u64 vals[HIST_VALS_MAX];

	hist_read_entry(hd, elt, vals);
	json_entry_vals(m, hd, key, elt, vals);
}

/*
 * The trigger's text as its file shows it, without the " [active]"
 * (there is "paused" for that), as a JSON string.
 */
static int json_trigger(struct seq_file *m, struct event_trigger_data *data)
{
	static const char status[] = " [active]\n";
	struct seq_file tmp = { };
	unsigned int k;

	for (k = 0; k < 4; k++) {
		tmp.size = PAGE_SIZE << k;
		tmp.count = 0;
		tmp.buf = kmalloc(tmp.size, GFP_KERNEL);
		if (!tmp.buf)
			break;
		hist_trigger_print(&tmp, data);
		if (!seq_has_overflowed(&tmp))
			break;
		kfree(tmp.buf);
		tmp.buf = NULL;
	}
	if (!tmp.buf)
		return -ENOMEM;
	/* " [active]\n" and " [paused]\n" have the same length */
	if (tmp.count >= sizeof(status) - 1)
		tmp.count -= sizeof(status) - 1;
	hist_json_str(m, tmp.buf, tmp.count);
	kfree(tmp.buf);
	return 0;
}

/**
 * hist_json_size_hint - about how many bytes a histogram takes in hist.json
 * @hd: the histogram
 *
 * Context: event_mutex held.
 * Return: the estimate in bytes (see hist_size_hint()).
 */
size_t hist_json_size_hint(struct hist_data *hd)
{
	return hist_size_hint(hd, json_entry);
}

static int json_hist(struct seq_file *m, struct event_trigger_data *data)
{
	struct hist_data *hd = data->private_data;
	struct tracing_map_sort_entry **entries;
	u64 vals[HIST_VALS_MAX];
	int i, n, ret, shown = 0;

	seq_puts(m, "{\"trigger\":");
	ret = json_trigger(m, data);
	if (ret)
		return ret;
	seq_printf(m, ",\"paused\":%s,\"entries\":[",
		   data->paused ? "true" : "false");
	n = tracing_map_sort_entries(hd->map, hd->sort_keys, hd->n_sort_keys,
				     &entries);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		if (!(i & 255))
			cond_resched();
		/* read once, and left out as in the hist file */
		if (!hist_read_entry(hd, entries[i]->elt, vals))
			continue;
		seq_puts(m, shown ? ",\n" : "\n");
		json_entry_vals(m, hd, entries[i]->key, entries[i]->elt, vals);
		shown++;
	}
	tracing_map_destroy_sort_entries(entries, n);
	seq_printf(m, "],\n\"totals\":{\"hits\":%llu,\"entries\":%d,\"dropped\":%llu}}",
		   tracing_map_read_hits(hd->map), shown,
		   tracing_map_read_drops(hd->map));
	return 0;
}

/**
 * hist_json_show - print the hist.json file of an event
 * @m: where to
 * @file: the event (of an instance)
 *
 * Context: event_mutex held.
 * Return: 0, or -ENOMEM when a histogram could not be sorted.
 */
int hist_json_show(struct seq_file *m, struct trace_event_file *file)
{
	struct trace_event_call *call = file->event_call;
	struct event_trigger_data *data;
	const char *name = trace_event_name(call);
	bool first = true;
	int ret;

	seq_puts(m, "{\"system\":");
	hist_json_str(m, call->class->system, strlen(call->class->system));
	seq_puts(m, ",\"event\":");
	hist_json_str(m, name, strlen(name));
	seq_puts(m, ",\"histograms\":[");
	list_for_each_entry(data, &file->triggers, list) {
		if (data->cmd_ops->trigger_type != ETT_EVENT_HIST)
			continue;
		seq_puts(m, first ? "\n" : ",\n");
		first = false;
		ret = json_hist(m, data);
		if (ret)
			return ret;
	}
	seq_puts(m, "]}\n");
	return 0;
}
