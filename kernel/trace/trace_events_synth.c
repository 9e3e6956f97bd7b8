// SPDX-License-Identifier: GPL-2.0
/*
 * Synthetic trace events.
 *
 * Design overview
 * ---------------
 * A synthetic event is a trace event whose field list is chosen at run
 * time.  Definitions arrive through three doors which all end up in
 * synth_create_cmd():
 *
 *  - the tracefs file "synthetic_events" ("name type field; ...",
 *    "!name [fields]" removes, opening with O_TRUNC removes all);
 *  - the generic "dynamic_events" file ("s:[synthetic/]name fields",
 *    removal by "-:[synthetic/]name"), through the dyn_event ops below;
 *  - kernel code, through the exported synth_event_* functions that
 *    build a command with the dynevent_cmd helpers and run it.
 *
 * Parsing lives in trace_synth_parse.c and yields a struct synth_def.
 * This file turns a definition into a struct synth_event that embeds a
 * trace_event_call of system "synthetic" and a dyn_event, so that every
 * event gets the usual tracefs directory (enable, filter, trigger,
 * format, id, inject) in every trace instance and shows up in
 * dynamic_events.
 *
 * Record layout: after the common trace_entry header each field owns
 * one eight byte slot ("char[N]" owns as many slots as its N bytes
 * need).  "char[]" and stack fields store a __data_loc word in their
 * slot and their payload in a tail behind the last slot: stacks first
 * (keeping them long aligned), strings after.  The format file is
 * generated from the same offsets through class->fields_array.
 *
 * Enabling an event in an instance goes through synth_event_reg(), which
 * keeps an RCU list of the enabled files; that list lets the histogram
 * code emit an event into all instances without locks.  perf sees the
 * events the histogram code emits, once per event, whatever the
 * instances do; the in-kernel synth_event_trace*() calls write into the
 * one file they are given.
 *
 * Lifetime: every event is on dyn_event_list, protected by event_mutex.
 * Removal is refused with -EBUSY while the event is enabled anywhere,
 * while internal references (synth_event_find_get()) exist or while the
 * tracing core holds the trace_event_call.  Events created on behalf of
 * a module are removed when that module goes away; while the event is
 * enabled in any file (triggers included) it holds a reference on that
 * module, so the module cannot go first.
 */

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/perf_event.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/unaligned.h>
#include <asm/local.h>

#include "trace_synth.h"

#include <trace/events/mmflags.h>

struct synth_file_link {
	struct list_head		list;
	struct trace_event_file		*file;
	struct rcu_head			rcu;
};

/* The names of gfp_t flags, as the kmem events print them. */
static const struct trace_print_flags synth_gfp_names[] = {
	__def_gfpflag_names
};

/*
 * Print @flags as the names of synth_gfp_names that it holds whole, in
 * table order and '|' separated, each name's bits taken away once
 * printed; what is left over follows in hex.
 */
static void synth_print_gfp(struct trace_seq *s, unsigned long flags)
{
	const struct trace_print_flags *f;
	bool first = true;

	for (f = synth_gfp_names;
	     f < synth_gfp_names + ARRAY_SIZE(synth_gfp_names) && f->name && flags;
	     f++) {
		if ((flags & f->mask) != f->mask)
			continue;
		flags &= ~f->mask;
		trace_seq_printf(s, "%s%s", first ? "" : "|", f->name);
		first = false;
	}
	if (flags)
		trace_seq_printf(s, "%s0x%lx", first ? "" : "|", flags);
}

/* Our face in dynamic_events; its callbacks follow the parser below. */
static struct dyn_event_operations synth_dyn_ops;

static inline struct synth_event *to_synth_event(struct dyn_event *ev)
{
	return container_of(ev, struct synth_event, devent);
}

static inline bool is_synth_dyn_event(struct dyn_event *ev)
{
	return ev->ops == &synth_dyn_ops;
}

/* ------------------------------------------------------------------ */
/* Reading and writing field values in a record                        */

static u64 synth_load_num(const void *p, unsigned int size, bool is_signed)
{
	switch (size) {
	case 1:
		return is_signed ? (u64)(s64)*(const s8 *)p : *(const u8 *)p;
	case 2:
		return is_signed ? (u64)(s64)(s16)get_unaligned((const u16 *)p) :
				   get_unaligned((const u16 *)p);
	case 4:
		return is_signed ? (u64)(s64)(s32)get_unaligned((const u32 *)p) :
				   get_unaligned((const u32 *)p);
	default:
		return get_unaligned((const u64 *)p);
	}
}

static void synth_store_num(union trace_synth_field *slot, unsigned int size,
			    u64 val)
{
	switch (size) {
	case 1:
		slot->as_u8 = val;
		break;
	case 2:
		slot->as_u16 = val;
		break;
	case 4:
		slot->as_u32 = val;
		break;
	default:
		slot->as_u64 = val;
		break;
	}
}

static inline const char *synth_val_str(u64 val)
{
	const char *str = (const char *)(unsigned long)val;

	return str ? str : EVENT_NULL_STR;
}

/* Bytes a "char[]" value takes in the tail, NUL included. */
static unsigned int synth_dynstr_len(u64 val)
{
	return strnlen(synth_val_str(val), SYNTH_STR_LEN_MAX - 1) + 1;
}

/* Bytes the return addresses of a stack value take in the tail. */
static unsigned int synth_stack_len(u64 val)
{
	const unsigned long *stack = (const unsigned long *)(unsigned long)val;
	unsigned int n = 0;

	if (!stack)
		return 0;
	while (n < HIST_STACKTRACE_DEPTH && stack[n])
		n++;
	return n * sizeof(long);
}

/*
 * The tail bytes of each "char[]" and stack field of one record.  A
 * source string or stack may change while the event is recorded (a
 * variable of a histogram entry rewritten on another CPU, a comm being
 * renamed): each is therefore measured exactly once, here, and both the
 * reservation and the copy use that length.  On the stack, so that
 * recording allocates nothing; a length is at most SYNTH_STR_LEN_MAX or
 * HIST_STACKTRACE_SIZE.
 */
struct synth_tail {
	unsigned int	size;
	u16		len[SYNTH_FIELDS_MAX];
};

static_assert(SYNTH_STR_LEN_MAX <= U16_MAX && HIST_STACKTRACE_SIZE <= U16_MAX);

static void synth_measure(struct synth_event *se, const u64 *vals,
			  struct synth_tail *tail)
{
	unsigned int i, len;

	tail->size = 0;
	for (i = 0; i < se->n_fields; i++) {
		switch (se->fields[i]->kind) {
		case SYNTH_FIELD_DYNSTR:
			len = synth_dynstr_len(vals[i]);
			break;
		case SYNTH_FIELD_STACK:
			len = synth_stack_len(vals[i]);
			break;
		default:
			len = 0;
			break;
		}
		tail->len[i] = len;
		tail->size += len;
	}
}

static inline union trace_synth_field *
synth_slot(struct synth_trace_event *entry, const struct synth_field *field)
{
	return (union trace_synth_field *)((u8 *)entry + field->offset);
}

/* Store a value of a field living entirely in the fixed part. */
static void synth_store_fixed(struct synth_trace_event *entry,
			      const struct synth_field *field, u64 val)
{
	union trace_synth_field *slot = synth_slot(entry, field);

	if (field->kind == SYNTH_FIELD_STR)
		strscpy((char *)slot, synth_val_str(val), field->size);
	else
		synth_store_num(slot, field->size, val);
}

static void synth_set_loc(struct synth_trace_event *entry,
			  const struct synth_field *field,
			  unsigned int offset, unsigned int len)
{
	union trace_synth_field *slot = synth_slot(entry, field);

	slot->as_dynamic.offset = offset;
	slot->as_dynamic.len = len;
}

/*
 * Fill the whole record.  Every "char[]" and stack payload is copied with
 * the length @tail holds for it, never measured again: the record was
 * reserved with room for exactly these lengths.
 */
static void synth_fill_record(struct synth_event *se,
			      struct synth_trace_event *entry,
			      const u64 *vals, const struct synth_tail *tail)
{
	unsigned int i, pos = se->fixed_size, len;
	u8 *base = (u8 *)entry;

	/* slots written in full by the loop below need no clearing */
	if (se->needs_clear)
		memset(entry->fields, 0, se->fixed_size - sizeof(entry->ent));

	for (i = 0; i < se->n_fields; i++) {
		const struct synth_field *field = se->fields[i];

		switch (field->kind) {
		case SYNTH_FIELD_NUM:
		case SYNTH_FIELD_STR:
			synth_store_fixed(entry, field, vals[i]);
			break;
		case SYNTH_FIELD_STACK:
			len = tail->len[i];
			if (len)
				memcpy(base + pos,
				       (void *)(unsigned long)vals[i], len);
			synth_set_loc(entry, field, pos, len);
			pos += len;
			break;
		case SYNTH_FIELD_DYNSTR:
			break;
		}
	}

	if (!se->has_dynamic)
		return;
	/* strings after the stacks, which stay long aligned */
	for (i = 0; i < se->n_fields; i++) {
		const struct synth_field *field = se->fields[i];

		if (field->kind != SYNTH_FIELD_DYNSTR)
			continue;
		/* at least 1: the NUL, written here, not copied */
		len = tail->len[i];
		memcpy(base + pos, synth_val_str(vals[i]), len - 1);
		base[pos + len - 1] = '\0';
		synth_set_loc(entry, field, pos, len);
		pos += len;
	}
}

static bool synth_file_wants_record(struct trace_event_file *file)
{
	if (!(file->flags & EVENT_FILE_FL_ENABLED))
		return false;
	return !trace_trigger_soft_disabled(file);
}

/*
 * Records only triggers look at.  A synthetic event is mostly emitted
 * from inside the trigger of another event, which holds this CPU's
 * buffered event page, so the tracing core would reserve it in the ring
 * buffer and discard it after its triggers ran.  When the event is soft
 * disabled (enabled for its triggers only) and not pid filtered, nothing
 * is kept and nobody but the triggers sees the record, so it is built
 * here instead: one slot per nesting level (task, softirq, irq, NMI),
 * taken with a local_t depth counter.  The event filter does not matter
 * then: the tracing core discards a soft-disabled record whatever the
 * filter says, and triggers have their own filters.  Records larger than
 * a slot, and events nested deeper, take the ring buffer as before.
 */
#define SYNTH_SCRATCH_SIZE	512
#define SYNTH_SCRATCH_NEST	4

struct synth_scratch {
	local_t	depth;
	u64	buf[SYNTH_SCRATCH_NEST][SYNTH_SCRATCH_SIZE / sizeof(u64)];
};

static DEFINE_PER_CPU(struct synth_scratch, synth_scratch);

/*
 * Not inlined, and neither is synth_record_scratch(): the triggers run two
 * frames below the emitter, as on the ring buffer path (emitter,
 * synth_record_ring(), trace_event_buffer_commit()), so that the stacks
 * they take (stacktrace trigger, stacktrace keys) start at the same frame
 * whether the event is recorded or not.
 */
static noinline void synth_call_triggers(struct trace_event_file *file,
					 struct trace_buffer *buffer,
					 struct synth_trace_event *entry)
{
	enum event_trigger_type tt;

	tt = event_triggers_call(file, buffer, entry, NULL);
	if (tt)
		event_triggers_post_call(file, tt);
}

/*
 * @extra: preemption levels the emitter added itself, taken out of the
 * context word as trace_event_buffer_reserve() takes out the caller's.
 */
static noinline bool synth_record_scratch(struct synth_event *se,
					  struct trace_event_file *file,
					  const u64 *vals,
					  const struct synth_tail *tail,
					  unsigned int extra)
{
	struct trace_buffer *buffer = file->tr->array_buffer.buffer;
	struct synth_scratch *sc = this_cpu_ptr(&synth_scratch);
	struct synth_trace_event *entry;
	unsigned int ctx;
	bool done = false;
	long depth;

	depth = local_inc_return(&sc->depth) - 1;
	if (likely(depth < SYNTH_SCRATCH_NEST)) {
		entry = (struct synth_trace_event *)sc->buf[depth];
		/*
		 * Nested as on the ring buffer path: what the triggers
		 * reserve themselves (an eprobe's event, a stack trace)
		 * gets a nesting level of its own, and the context word is
		 * the one trace_event_buffer_reserve() would record there.
		 */
		ring_buffer_nest_start(buffer);
		ctx = tracing_gen_ctx_dec();
		if (IS_ENABLED(CONFIG_PREEMPTION))
			ctx -= extra;
		tracing_generic_entry_update(&entry->ent, se->call.event.type,
					     ctx);
		synth_fill_record(se, entry, vals, tail);
		synth_call_triggers(file, buffer, entry);
		ring_buffer_nest_end(buffer);
		done = true;
	}
	local_dec(&sc->depth);
	return done;
}

static bool synth_triggers_only(struct trace_event_file *file,
				unsigned int size)
{
	unsigned long flags = READ_ONCE(file->flags);

	return size <= SYNTH_SCRATCH_SIZE &&
	       (flags & (EVENT_FILE_FL_SOFT_DISABLED |
			 EVENT_FILE_FL_TRIGGER_COND |
			 EVENT_FILE_FL_PID_FILTER)) ==
	       (EVENT_FILE_FL_SOFT_DISABLED | EVENT_FILE_FL_TRIGGER_COND);
}

/*
 * The ring buffer path of synth_record().  A synthetic event is mostly
 * written from inside another event (the trigger of the event that
 * completes it): nest, so that the ring buffer does not take it, or an
 * interrupt's events inside it, for recursion.
 */
static noinline void synth_record_ring(struct synth_event *se,
				       struct trace_event_file *file,
				       const u64 *vals,
				       const struct synth_tail *tail)
{
	struct trace_buffer *buffer = file->tr->array_buffer.buffer;
	struct trace_event_buffer fbuffer;
	struct synth_trace_event *entry;

	ring_buffer_nest_start(buffer);
	entry = trace_event_buffer_reserve(&fbuffer, file,
					   se->fixed_size + tail->size);
	if (entry) {
		synth_fill_record(se, entry, vals, tail);
		trace_event_buffer_commit(&fbuffer);
	}
	ring_buffer_nest_end(buffer);
}

/*
 * Record one event into @file, whose wish to record it the caller has
 * checked, with the payload lengths @tail.  Preemption is disabled.
 * Inlined, so that the triggers run the same number of frames below the
 * emitter on both paths (see synth_record_scratch()).
 */
static __always_inline void synth_record(struct synth_event *se,
					 struct trace_event_file *file,
					 const u64 *vals,
					 const struct synth_tail *tail)
{
	if (synth_triggers_only(file, se->fixed_size + tail->size) &&
	    synth_record_scratch(se, file, vals, tail, 0))
		return;
	synth_record_ring(se, file, vals, tail);
}

/* ------------------------------------------------------------------ */
/* Output                                                              */

static void synth_print_field(struct trace_iterator *iter,
			      const struct synth_field *field, const u8 *rec)
{
	struct trace_seq *s = &iter->seq;
	const u8 *p = rec + field->offset;
	const union trace_synth_field *slot;
	unsigned int off, len, i;
	u64 val;

	if (field->offset + field->size > iter->ent_size) {
		trace_seq_puts(s, "(truncated)");
		return;
	}

	switch (field->kind) {
	case SYNTH_FIELD_NUM:
		val = synth_load_num(p, field->size, field->is_signed);
		if (field->is_gfp) {
			/* the hex value, then the flag names */
			trace_seq_printf(s, "%llx (", val);
			synth_print_gfp(s, val);
			trace_seq_putc(s, ')');
		} else if (field->is_signed) {
			trace_seq_printf(s, "%lld", (s64)val);
		} else {
			trace_seq_printf(s, "%llu", val);
		}
		return;
	case SYNTH_FIELD_STR:
		trace_seq_printf(s, "%.*s", (int)strnlen(p, field->size), p);
		return;
	default:
		break;
	}

	slot = (const union trace_synth_field *)p;
	off = slot->as_dynamic.offset;
	len = slot->as_dynamic.len;
	if (off + len > iter->ent_size) {
		trace_seq_puts(s, "(truncated)");
		return;
	}

	if (field->kind == SYNTH_FIELD_DYNSTR) {
		trace_seq_printf(s, "%.*s", (int)strnlen(rec + off, len),
				 rec + off);
		return;
	}

	trace_seq_puts(s, "STACK:");
	for (i = 0; i + sizeof(long) <= len; i += sizeof(long)) {
		unsigned long addr = get_unaligned((unsigned long *)(rec + off + i));

		if (!addr)
			break;
		trace_seq_printf(s, "\n=> %pS", (void *)addr);
	}
	/* every frame line is ended, so a blank line follows a stack */
	if (i)
		trace_seq_putc(s, '\n');
}

static enum print_line_t synth_event_print(struct trace_iterator *iter,
					   int flags, struct trace_event *tev)
{
	struct synth_event *se = container_of(tev, struct synth_event,
					      call.event);
	const u8 *rec = (const u8 *)iter->ent;
	struct trace_seq *s = &iter->seq;
	unsigned int i;

	trace_seq_printf(s, "%s: ", se->name);
	for (i = 0; i < se->n_fields; i++) {
		trace_seq_printf(s, "%s%s=", i ? " " : "", se->fields[i]->name);
		synth_print_field(iter, se->fields[i], rec);
	}
	trace_seq_putc(s, '\n');

	return trace_handle_return(s);
}

static struct trace_event_functions synth_event_funcs = {
	.trace		= synth_event_print,
};

/* Append to a print fmt under construction; @len 0 only measures. */
static __printf(4, 5) int synth_fmt_add(char *buf, int len, int pos,
					const char *fmt, ...)
{
	va_list args;
	int n;

	va_start(args, fmt);
	n = vsnprintf(buf ? buf + pos : NULL, len > pos ? len - pos : 0,
		      fmt, args);
	va_end(args);
	return pos + n;
}

/*
 * The fields are separated by blanks, as the trace shows them, so that
 * tools printing from the format show what the trace does.
 */
static int synth_print_fmt(struct synth_event *se, char *buf, int len)
{
	const struct synth_field *field;
	int pos = 0;
	unsigned int i;

	pos = synth_fmt_add(buf, len, pos, "\"");
	for (i = 0; i < se->n_fields; i++) {
		field = se->fields[i];
		pos = synth_fmt_add(buf, len, pos, "%s%s=%s", i ? " " : "",
				    field->name,
				    field->kind == SYNTH_FIELD_NUM ?
				    field->print_fmt : "%s");
	}
	pos = synth_fmt_add(buf, len, pos, "\"");

	for (i = 0; i < se->n_fields; i++) {
		field = se->fields[i];
		pos = synth_fmt_add(buf, len, pos, ", ");
		if (field->kind == SYNTH_FIELD_DYNSTR)
			pos = synth_fmt_add(buf, len, pos, "__get_str(%s)",
					    field->name);
		else if (field->kind == SYNTH_FIELD_STACK)
			pos = synth_fmt_add(buf, len, pos,
					    "__get_stacktrace(%s)",
					    field->name);
		else
			pos = synth_fmt_add(buf, len, pos, "REC->%s",
					    field->name);
	}
	return pos;
}

static int synth_set_print_fmt(struct synth_event *se)
{
	int len = synth_print_fmt(se, NULL, 0) + 1;
	char *buf;

	buf = kmalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	synth_print_fmt(se, buf, len);
	se->call.print_fmt = buf;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Event registration                                                  */

static int synth_event_reg(struct trace_event_call *call,
			   enum trace_reg type, void *data)
{
	struct synth_event *se = container_of(call, struct synth_event, call);
	struct trace_event_file *file = data;
	struct synth_file_link *link;

	switch (type) {
	case TRACE_REG_REGISTER:
		lockdep_assert_held(&event_mutex);
		/*
		 * Every file with the event enabled (a trigger enables it
		 * too) pins the owning module: the module cannot be
		 * unloaded, and so fail to remove its events, while they
		 * are in use.
		 */
		if (!try_module_get(se->mod))
			return -EBUSY;
		link = kmalloc_obj(*link, GFP_KERNEL);
		if (!link) {
			module_put(se->mod);
			return -ENOMEM;
		}
		link->file = file;
		list_add_tail_rcu(&link->list, &se->files);
		se->n_enabled++;
		return 0;
	case TRACE_REG_UNREGISTER:
		lockdep_assert_held(&event_mutex);
		list_for_each_entry(link, &se->files, list) {
			if (link->file != file)
				continue;
			list_del_rcu(&link->list);
			kfree_rcu(link, rcu);
			se->n_enabled--;
			module_put(se->mod);
			return 0;
		}
		return -ENOENT;
#ifdef CONFIG_PERF_EVENTS
	/*
	 * The perf core calls PERF_REGISTER (under event_mutex) for the
	 * first perf event on the call, once call->perf_events and perf's
	 * buffers exist: the release publishes them to the emitter's
	 * acquire.  PERF_UNREGISTER comes for the last one, before the core
	 * frees them.  The emitter runs with preemption disabled, but not
	 * always inside a tracepoint: kprobe, inject and trace_marker
	 * triggers emit outside them, where the core's
	 * tracepoint_synchronize_unregister() need not wait (it waits for
	 * the tracepoints' own read sections): an RCU grace period does.
	 * PERF_OPEN/CLOSE/ADD/DEL come per perf event, ADD and DEL from
	 * the scheduler without event_mutex; 0 lets the core keep its
	 * per-CPU lists itself.
	 */
	case TRACE_REG_PERF_REGISTER:
		lockdep_assert_held(&event_mutex);
		if (!try_module_get(se->mod))
			return -EBUSY;
		/* pairs with synth_perf_head(): perf_events is set */
		smp_store_release(&se->perf_on, true);
		return 0;
	case TRACE_REG_PERF_UNREGISTER:
		lockdep_assert_held(&event_mutex);
		WRITE_ONCE(se->perf_on, false);
		synchronize_rcu();
		module_put(se->mod);
		return 0;
	case TRACE_REG_PERF_OPEN:
	case TRACE_REG_PERF_CLOSE:
	case TRACE_REG_PERF_ADD:
	case TRACE_REG_PERF_DEL:
		return 0;
#endif
	default:
		return -EOPNOTSUPP;
	}
}

static struct synth_event *synth_event_lookup(const char *name)
{
	struct synth_event *se;
	struct dyn_event *pos;

	lockdep_assert_held(&event_mutex);

	for_each_dyn_event(pos) {
		if (!is_synth_dyn_event(pos))
			continue;
		se = to_synth_event(pos);
		if (!strcmp(se->name, name))
			return se;
	}
	return NULL;
}

/* Is @name used by any event of the "synthetic" system? */
static bool synth_name_taken(const char *name)
{
	struct trace_event_call *call;
	const char *cname;

	lockdep_assert_held(&event_mutex);

	list_for_each_entry(call, &ftrace_events, list) {
		if (!call->class->system ||
		    strcmp(call->class->system, SYNTH_SYSTEM))
			continue;
		cname = trace_event_name(call);
		if (cname && !strcmp(cname, name))
			return true;
	}
	return false;
}

static void synth_event_destroy(struct synth_event *se)
{
	if (!se)
		return;
	synth_fields_free(se->fields, se->n_fields);
	kfree(se->fields);
	kfree(se->fields_array);
	kfree(se->call.print_fmt);
	kfree(se->name);
	kfree(se);
}

/* Compute field offsets and the table describing them to the core. */
static int synth_event_layout(struct synth_event *se)
{
	unsigned int i, offset = sizeof(struct trace_entry);

	BUILD_BUG_ON(offsetof(struct synth_trace_event, fields) !=
		     sizeof(struct trace_entry));

	se->fields_array = kcalloc(se->n_fields + 1,
				   sizeof(*se->fields_array), GFP_KERNEL);
	if (!se->fields_array)
		return -ENOMEM;

	for (i = 0; i < se->n_fields; i++) {
		struct synth_field *field = se->fields[i];
		struct trace_event_fields desc = {
			.type		= field->ftype,
			.name		= field->name,
			.size		= field->size,
			.align		= sizeof(u64),
			.is_signed	= field->is_signed,
			/* the hist code knows a stack by its filter type */
			.filter_type	= field->kind == SYNTH_FIELD_STACK ?
					  FILTER_STACKTRACE : FILTER_OTHER,
			/*
			 * No array length: a char[N] field's format line
			 * reads "char name[]", its size N, as tools reading
			 * the format expect.
			 */
			.len		= 0,
		};

		field->offset = offset;
		offset += ALIGN(field->size, sizeof(u64));
		if (field->kind == SYNTH_FIELD_DYNSTR ||
		    field->kind == SYNTH_FIELD_STACK)
			se->has_dynamic = true;
		/* padding, the rest of a string or of a __data_loc slot */
		if (field->kind != SYNTH_FIELD_NUM ||
		    field->size != ALIGN(field->size, sizeof(u64)))
			se->needs_clear = true;
		memcpy(&se->fields_array[i], &desc, sizeof(desc));
	}
	se->fixed_size = offset;
	return 0;
}

/* Build an event from @def, taking over its fields. */
static struct synth_event *synth_event_alloc(struct synth_def *def,
					     struct module *mod)
{
	struct synth_event *se;
	unsigned int i;

	se = kzalloc_obj(*se, GFP_KERNEL);
	if (!se)
		return ERR_PTR(-ENOMEM);

	se->fields = kcalloc(def->n_fields, sizeof(*se->fields), GFP_KERNEL);
	if (!se->fields) {
		kfree(se);
		return ERR_PTR(-ENOMEM);
	}
	for (i = 0; i < def->n_fields; i++)
		se->fields[i] = def->fields[i];
	se->n_fields = def->n_fields;
	def->n_fields = 0;
	se->name = def->name;
	def->name = NULL;
	se->mod = mod;
	INIT_LIST_HEAD(&se->files);
	dyn_event_init(&se->devent, &synth_dyn_ops);

	if (synth_event_layout(se) || synth_set_print_fmt(se)) {
		synth_event_destroy(se);
		return ERR_PTR(-ENOMEM);
	}

	INIT_LIST_HEAD(&se->class.fields);
	se->class.system = SYNTH_SYSTEM;
	se->class.fields_array = se->fields_array;
	se->class.reg = synth_event_reg;
	se->call.class = &se->class;
	se->call.name = se->name;
	se->call.event.funcs = &synth_event_funcs;
	se->call.flags = TRACE_EVENT_FL_DYNAMIC;
	return se;
}

/* Is the first word of @cmd the name of a synthetic event? */
static bool synth_cmd_name_taken(const char *cmd)
{
	const char *end = cmd;
	char *name;
	bool taken;

	/* the name ends where synth_parse_def() ends it */
	while (*end && *end != ';' && !isspace(*end))
		end++;
	name = kmemdup_nul(cmd, end - cmd, GFP_KERNEL);
	if (!name)
		return false;
	mutex_lock(&event_mutex);
	taken = synth_name_taken(name);
	mutex_unlock(&event_mutex);
	kfree(name);
	return taken;
}

/* Make @def a live event.  Caller holds event_mutex. */
static int synth_event_register(struct synth_def *def, struct module *mod,
				const char *cmd, unsigned int name_pos)
{
	struct synth_err err = { SYNTH_ERR_EVENT_EXISTS, name_pos };
	struct synth_event *se;
	int ret;

	lockdep_assert_held(&event_mutex);

	if (synth_name_taken(def->name)) {
		synth_log_err(cmd, &err);
		return -EEXIST;
	}

	se = synth_event_alloc(def, mod);
	if (IS_ERR(se))
		return PTR_ERR(se);

	if (!register_trace_event(&se->call.event)) {
		synth_event_destroy(se);
		return -ENODEV;
	}
	ret = trace_add_event_call(&se->call);
	if (ret) {
		unregister_trace_event(&se->call.event);
		synth_event_destroy(se);
		return ret;
	}
	return dyn_event_add(&se->devent, &se->call);
}

/* Remove an event that is not busy.  Caller holds event_mutex. */
static int synth_event_remove(struct synth_event *se)
{
	int ret;

	lockdep_assert_held(&event_mutex);

	if (synth_event_is_busy(se))
		return -EBUSY;
	ret = trace_remove_event_call(&se->call);
	if (ret)
		return ret;
	dyn_event_remove(&se->devent);
	synth_event_destroy(se);
	return 0;
}

/* Parse and create; @raw is "<name> <fields>", leading blanks allowed. */
static int synth_create_cmd(const char *raw, struct module *mod,
			    unsigned int name_off)
{
	struct synth_def *def;
	struct synth_err err;
	char *copy, *logged = NULL, *cmd;
	int ret;

	/* error_log shows the command as written, trailing blanks too */
	copy = kstrdup(skip_spaces(raw), GFP_KERNEL);
	logged = kstrdup(skip_spaces(raw), GFP_KERNEL);
	if (!copy || !logged) {
		ret = -ENOMEM;
		goto out;
	}
	cmd = strim(copy);
	if (!*cmd) {
		ret = 0;
		goto out;
	}

	ret = synth_parse_def(cmd, name_off, true, &def, &err);
	/* a name in use is reported before bad fields (error_log ABI) */
	if (ret == -EINVAL && err.type != SYNTH_ERR_INVALID_CMD &&
	    synth_cmd_name_taken(cmd + name_off)) {
		err.type = SYNTH_ERR_EVENT_EXISTS;
		err.pos = name_off;
		ret = -EEXIST;
	}
	if (ret == -EINVAL || ret == -EEXIST)
		synth_log_err(logged, &err);
	if (!ret) {
		mutex_lock(&event_mutex);
		ret = synth_event_register(def, mod, logged, name_off);
		mutex_unlock(&event_mutex);
		synth_def_free(def);
	}
out:
	kfree(logged);
	kfree(copy);
	return ret;
}

/**
 * synth_event_create_text - create a synthetic event from its definition
 * @cmd: "<name> <fields>", as written to synthetic_events
 *
 * For the kernel's own users of synthetic events (latency_hist/), which
 * keep their definitions as text.  Errors are logged as for a write.
 *
 * Context: Process context; takes event_mutex.
 * Return: 0, -EEXIST if the name is taken, -EINVAL, -ENOMEM.
 */
int synth_event_create_text(const char *cmd)
{
	return synth_create_cmd(cmd, NULL, 0);
}

/*
 * Handle "!name [fields]" written to synthetic_events.  The event goes by
 * its name whatever follows (the fields are not compared); "!" or
 * "! name" name no event.
 */
static int synth_remove_cmd(const char *cmd)
{
	size_t len = strcspn(cmd + 1, " \t");
	struct synth_event *se;
	char *name;
	int ret;

	if (!len)
		return -ENOENT;
	name = kmemdup_nul(cmd + 1, len, GFP_KERNEL);
	if (!name)
		return -ENOMEM;

	mutex_lock(&event_mutex);
	se = synth_event_lookup(name);
	ret = se ? synth_event_remove(se) : -ENOENT;
	if (!ret)
		tracing_reset_all_online_cpus();
	mutex_unlock(&event_mutex);

	kfree(name);
	return ret;
}

/* ------------------------------------------------------------------ */
/* dynamic_events interface                                            */

static int synth_dyn_create(const char *raw_command)
{
	const char *p = skip_spaces(raw_command);
	unsigned int off = p - raw_command;
	struct synth_err err = { SYNTH_ERR_INVALID_DYN_CMD, 0 };
	const char *name, *slash, *end;
	char *cmd;

	if (!*p)
		return 0;
	if (p[0] != 's' || p[1] != ':')
		return -ECANCELED;

	/* Offsets below are relative to the stripped command. */
	name = p + 2;
	end = name + strcspn(name, " \t\n");
	slash = strnchr(name, end - name, '/');
	if (slash) {
		if (slash - name != strlen(SYNTH_SYSTEM) ||
		    strncmp(name, SYNTH_SYSTEM, slash - name)) {
			cmd = kstrdup(p, GFP_KERNEL);
			if (!cmd)
				return -ENOMEM;
			synth_log_err(cmd, &err);
			kfree(cmd);
			return -EINVAL;
		}
		name = slash + 1;
	}
	return synth_create_cmd(raw_command + off, NULL, name - p);
}

static void synth_show_fields(struct seq_file *m, struct synth_event *se,
			      const char *first_sep)
{
	unsigned int i;

	for (i = 0; i < se->n_fields; i++)
		seq_printf(m, "%s%s %s", i ? "; " : first_sep,
			   se->fields[i]->type, se->fields[i]->name);
	seq_putc(m, '\n');
}

static int synth_dyn_show(struct seq_file *m, struct dyn_event *ev)
{
	struct synth_event *se = to_synth_event(ev);

	seq_printf(m, "s:%s/%s", SYNTH_SYSTEM, se->name);
	synth_show_fields(m, se, "\t");
	return 0;
}

static bool synth_dyn_is_busy(struct dyn_event *ev)
{
	return synth_event_is_busy(to_synth_event(ev));
}

static int synth_dyn_free(struct dyn_event *ev)
{
	return synth_event_remove(to_synth_event(ev));
}

static bool synth_dyn_match(const char *system, const char *event,
			    int argc, const char **argv, struct dyn_event *ev)
{
	struct synth_event *se = to_synth_event(ev);

	if (system && strcmp(system, SYNTH_SYSTEM))
		return false;
	/*
	 * By name alone, whatever fields follow ("-:name u64 x" and
	 * "!s:name ..." alike); "-:synthetic/" names no event and so
	 * removes none (-ENOENT), unlike the probe events' group removal.
	 */
	return !strcmp(event, se->name);
}

static struct dyn_event_operations synth_dyn_ops = {
	.match		= synth_dyn_match,
	.create		= synth_dyn_create,
	.free		= synth_dyn_free,
	.is_busy	= synth_dyn_is_busy,
	.show		= synth_dyn_show,
};

/* ------------------------------------------------------------------ */
/* tracefs "synthetic_events"                                          */

static int synth_file_cmd(const char *raw)
{
	const char *p = skip_spaces(raw);

	if (*p == '!')
		return synth_remove_cmd(p);
	return synth_create_cmd(p, NULL, 0);
}

static int synth_seq_show(struct seq_file *m, void *v)
{
	struct dyn_event *ev = v;
	struct synth_event *se;

	if (!is_synth_dyn_event(ev))
		return 0;
	se = to_synth_event(ev);
	seq_puts(m, se->name);
	synth_show_fields(m, se, "\t");
	return 0;
}

/* "synthetic_events": the list, one definition a line, and the commands. */
static const struct seq_operations synth_list_seq = {
	.show	= synth_seq_show,
	.start	= dyn_event_seq_start,
	.next	= dyn_event_seq_next,
	.stop	= dyn_event_seq_stop,
};

static int synth_list_open(struct inode *inode, struct file *file)
{
	bool truncate = (file->f_mode & FMODE_WRITE) &&
			(file->f_flags & O_TRUNC);
	int err;

	/* Also refuses tracefs access under lockdown. */
	err = tracing_check_open_get_tr(NULL);
	if (err)
		return err;

	/*
	 * "> synthetic_events" starts from an empty list; if any event is
	 * busy, none is removed and the open fails with -EBUSY.
	 */
	err = truncate ? dyn_events_release_all(&synth_dyn_ops) : 0;
	return err < 0 ? err : seq_open(file, &synth_list_seq);
}

static ssize_t synth_list_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	return trace_parse_run_command(file, ubuf, len, ppos, synth_file_cmd);
}

static const struct file_operations synth_events_fops = {
	.open		= synth_list_open,
	.release	= seq_release,
	.read		= seq_read,
	.write		= synth_list_write,
	.llseek		= seq_lseek,
};

/* ------------------------------------------------------------------ */
/* Interface for other tracing code, see trace_synth.h                 */

struct synth_event *synth_event_find_get(const char *name)
{
	struct synth_event *se;

	lockdep_assert_held(&event_mutex);

	se = synth_event_lookup(name);
	if (se)
		se->ref++;
	return se;
}

void synth_event_put(struct synth_event *event)
{
	lockdep_assert_held(&event_mutex);

	if (event && !WARN_ON_ONCE(event->ref <= 0))
		event->ref--;
}

bool synth_event_is_busy(struct synth_event *event)
{
	return event->ref > 0 || event->n_enabled > 0 ||
	       trace_event_dyn_busy(&event->call);
}

struct synth_event *synth_event_from_file(struct trace_event_file *file)
{
	struct trace_event_call *call;

	if (!file)
		return NULL;
	call = file->event_call;
	if (!call || call->class->reg != synth_event_reg)
		return NULL;
	return container_of(call, struct synth_event, call);
}

int synth_event_field_index(struct synth_event *event, const char *name)
{
	unsigned int i;

	for (i = 0; i < event->n_fields; i++)
		if (!strcmp(event->fields[i]->name, name))
			return i;
	return -ENOENT;
}

int synth_event_emit(struct synth_event *event, struct trace_event_file *file,
		     const u64 *vals, unsigned int n_vals)
{
	struct synth_tail tail;

	if (synth_event_from_file(file) != event || n_vals != event->n_fields)
		return -EINVAL;

	/*
	 * The record shows the caller's preemption depth, not this
	 * section's: the ring buffer path nests (which disables
	 * preemption) before it reserves, so it runs after this section;
	 * the scratch path runs in it and takes its level out of the
	 * context word.
	 */
	preempt_disable_notrace();
	if (!synth_file_wants_record(file)) {
		preempt_enable_notrace();
		return 0;
	}
	synth_measure(event, vals, &tail);
	if (synth_triggers_only(file, event->fixed_size + tail.size) &&
	    synth_record_scratch(event, file, vals, &tail, 1)) {
		preempt_enable_notrace();
		return 0;
	}
	preempt_enable_notrace();
	synth_record_ring(event, file, vals, &tail);
	return 0;
}

/* The tail of an event without "char[]" or stack fields: nothing. */
static const struct synth_tail synth_no_tail;

#ifdef CONFIG_PERF_EVENTS
/*
 * The perf events on this CPU that want @se, or NULL.  The acquire
 * pairs with PERF_REGISTER's release: call->perf_events is set then.
 */
static __always_inline struct hlist_head *synth_perf_head(struct synth_event *se)
{
	struct hlist_head *head;

	/* pairs with PERF_REGISTER in synth_event_reg() */
	if (likely(!smp_load_acquire(&se->perf_on)))
		return NULL;
	head = this_cpu_ptr(se->call.perf_events);
	return hlist_empty(head) ? NULL : head;
}

/*
 * Hand one event to the perf events of @head: the record is the one the
 * ring buffer would get (perf_tp_event() fills in its header), built in
 * perf's per-CPU buffer.  A record perf has no room for is not sent (the
 * perf core would warn about it): only events with large "char[]" or
 * stack fields come near PERF_MAX_TRACE_SIZE.
 */
static noinline void synth_perf_emit(struct synth_event *se,
				     struct hlist_head *head, const u64 *vals,
				     const struct synth_tail *tail)
{
	struct pt_regs *regs;
	void *entry;
	int size, rctx;

	/* perf puts a u32 size before the record and keeps u64 alignment */
	size = ALIGN(se->fixed_size + tail->size + sizeof(u32), sizeof(u64)) -
	       sizeof(u32);
	if (size > PERF_MAX_TRACE_SIZE)
		return;
	entry = perf_trace_buf_alloc(size, &regs, &rctx);
	if (!entry)
		return;
	synth_fill_record(se, entry, vals, tail);
	perf_fetch_caller_regs(regs);
	perf_trace_buf_submit(entry, size, rctx, se->call.event.type, 1, regs,
			      head, NULL);
}
#else
static __always_inline struct hlist_head *synth_perf_head(struct synth_event *se)
{
	return NULL;
}

static inline void synth_perf_emit(struct synth_event *se,
				   struct hlist_head *head, const u64 *vals,
				   const struct synth_tail *tail)
{
}
#endif

void synth_event_emit_all(struct synth_event *event, const u64 *vals,
			  unsigned int n_vals)
{
	struct synth_file_link *link;
	struct hlist_head *head;

	if (n_vals != event->n_fields)
		return;

	/*
	 * The caller's disabled preemption is the RCU-sched read section:
	 * no lock of our own, which would count in the records' preemption
	 * depth: trace() records show the trigger's.
	 */
	lockdep_assert_preemption_disabled();
	if (!event->has_dynamic) {
		list_for_each_entry_rcu(link, &event->files, list)
			if (synth_file_wants_record(link->file))
				synth_record(event, link->file, vals,
					     &synth_no_tail);
		head = synth_perf_head(event);
		if (unlikely(head))
			synth_perf_emit(event, head, vals, &synth_no_tail);
	} else {
		/* in this block only: the tail is large, and cleared */
		struct synth_tail tail;
		bool measured = false;

		list_for_each_entry_rcu(link, &event->files, list) {
			if (!synth_file_wants_record(link->file))
				continue;
			/* once for all instances: they get the same lengths */
			if (!measured) {
				synth_measure(event, vals, &tail);
				measured = true;
			}
			synth_record(event, link->file, vals, &tail);
		}
		head = synth_perf_head(event);
		if (unlikely(head)) {
			if (!measured)
				synth_measure(event, vals, &tail);
			synth_perf_emit(event, head, vals, &tail);
		}
	}
}

/* ------------------------------------------------------------------ */
/* Exported in-kernel API                                              */

static int synth_event_run_command(struct dynevent_cmd *cmd)
{
	return synth_create_cmd(seq_buf_str(&cmd->seq), cmd->private_data, 0);
}

/**
 * synth_event_cmd_init - prepare a command that creates a synthetic event
 * @cmd: the command object to initialize
 * @buf: buffer the command text is generated into
 * @maxlen: size of @buf, normally MAX_DYNEVENT_CMD_LEN
 *
 * Must be called before synth_event_gen_cmd_start() or
 * synth_event_gen_cmd_array_start().
 *
 * Context: Any context.
 */
void synth_event_cmd_init(struct dynevent_cmd *cmd, char *buf, int maxlen)
{
	dynevent_cmd_init(cmd, buf, maxlen, DYNEVENT_TYPE_SYNTH,
			  synth_event_run_command);
}
EXPORT_SYMBOL_GPL(synth_event_cmd_init);

static int synth_check_field_words(void *data)
{
	struct dynevent_arg_pair *pair = data;

	if (!pair->lhs || !pair->rhs || !*skip_spaces(pair->lhs) ||
	    !*skip_spaces(pair->rhs) || strchr(pair->lhs, ';') ||
	    strchr(pair->rhs, ';'))
		return -EINVAL;
	return 0;
}

static int synth_cmd_add_name(struct dynevent_cmd *cmd, const char *name,
			      struct module *mod)
{
	struct dynevent_arg arg;

	if (cmd->type != DYNEVENT_TYPE_SYNTH || !name)
		return -EINVAL;

	cmd->event_name = name;
	cmd->private_data = mod;

	dynevent_arg_init(&arg, 0);
	arg.str = name;
	return dynevent_arg_add(cmd, &arg, NULL);
}

/**
 * __synth_event_gen_cmd_start - start a synthetic event command
 * @cmd: command object initialized by synth_event_cmd_init()
 * @name: name of the event to create
 * @mod: module creating the event, or NULL
 * @...: pairs of "type", "name" strings, terminated by NULL
 *
 * Use through the synth_event_gen_cmd_start() macro, which appends the
 * terminating NULL.  More fields can be added afterwards, the event is
 * created by synth_event_gen_cmd_end().
 *
 * Context: Process context.
 * Return: 0 on success, -EINVAL on a bad argument, -E2BIG if the command
 * buffer is full.
 */
int __synth_event_gen_cmd_start(struct dynevent_cmd *cmd, const char *name,
				struct module *mod, ...)
{
	const char *type, *fname;
	va_list args;
	int ret;

	ret = synth_cmd_add_name(cmd, name, mod);
	if (ret)
		return ret;

	va_start(args, mod);
	while ((type = va_arg(args, const char *))) {
		fname = va_arg(args, const char *);
		if (!fname) {
			ret = -EINVAL;
			break;
		}
		ret = synth_event_add_field(cmd, type, fname);
		if (ret)
			break;
	}
	va_end(args);
	return ret;
}
EXPORT_SYMBOL_GPL(__synth_event_gen_cmd_start);

/**
 * synth_event_gen_cmd_array_start - start a command from a field array
 * @cmd: command object initialized by synth_event_cmd_init()
 * @name: name of the event to create
 * @mod: module creating the event, or NULL
 * @fields: field descriptions
 * @n_fields: number of entries in @fields
 *
 * Context: Process context.
 * Return: 0 on success, -EINVAL on a bad argument or too many fields,
 * -E2BIG if the command buffer is full.
 */
int synth_event_gen_cmd_array_start(struct dynevent_cmd *cmd,
				    const char *name, struct module *mod,
				    struct synth_field_desc *fields,
				    unsigned int n_fields)
{
	int ret;

	ret = synth_cmd_add_name(cmd, name, mod);
	if (ret)
		return ret;
	return synth_event_add_fields(cmd, fields, n_fields);
}
EXPORT_SYMBOL_GPL(synth_event_gen_cmd_array_start);

/**
 * synth_event_add_field - add one field to a synthetic event command
 * @cmd: command object of type synthetic
 * @type: field type, e.g. "u64", "char[16]" or "unsigned long[]"
 * @name: field name, optionally with an array suffix ("comm[16]")
 *
 * Context: Process context.
 * Return: 0 on success, -EINVAL on a bad argument or too many fields,
 * -E2BIG if the command buffer is full.
 */
int synth_event_add_field(struct dynevent_cmd *cmd, const char *type,
			  const char *name)
{
	struct dynevent_arg_pair pair;
	int ret;

	if (cmd->type != DYNEVENT_TYPE_SYNTH || !type || !name)
		return -EINVAL;
	if (cmd->n_fields >= SYNTH_FIELDS_MAX)
		return -EINVAL;

	dynevent_arg_pair_init(&pair, 0, ';');
	pair.lhs = type;
	pair.rhs = name;
	ret = dynevent_arg_pair_add(cmd, &pair, synth_check_field_words);
	if (!ret)
		cmd->n_fields++;
	return ret;
}
EXPORT_SYMBOL_GPL(synth_event_add_field);

/**
 * synth_event_add_field_str - add a field given as "type name" text
 * @cmd: command object of type synthetic
 * @type_name: the field, e.g. "pid_t pid"; a ';' is appended
 *
 * Context: Process context.
 * Return: 0 on success, -EINVAL on a bad argument or too many fields,
 * -E2BIG if the command buffer is full.
 */
int synth_event_add_field_str(struct dynevent_cmd *cmd, const char *type_name)
{
	struct dynevent_arg arg;
	int ret;

	if (cmd->type != DYNEVENT_TYPE_SYNTH || !type_name)
		return -EINVAL;
	if (cmd->n_fields >= SYNTH_FIELDS_MAX)
		return -EINVAL;

	dynevent_arg_init(&arg, ';');
	arg.str = type_name;
	ret = dynevent_arg_add(cmd, &arg, NULL);
	if (!ret)
		cmd->n_fields++;
	return ret;
}
EXPORT_SYMBOL_GPL(synth_event_add_field_str);

/**
 * synth_event_add_fields - append an array of field descriptions
 * @cmd: a command started with synth_event_gen_cmd_start() or
 *	synth_event_gen_cmd_array_start()
 * @fields: the descriptions, each a type and a name
 * @n_fields: how many descriptions @fields holds
 *
 * Stops at the first description that cannot be added; the ones before
 * it stay in @cmd.
 *
 * Context: Process context.
 * Return: 0 on success, -EINVAL on a bad argument or too many fields,
 * -E2BIG if the command buffer is full.
 */
int synth_event_add_fields(struct dynevent_cmd *cmd,
			   struct synth_field_desc *fields,
			   unsigned int n_fields)
{
	struct synth_field_desc *desc = fields;
	int err = (n_fields && !fields) ? -EINVAL : 0;

	while (!err && desc < fields + n_fields) {
		err = synth_event_add_field(cmd, desc->type, desc->name);
		desc++;
	}
	return err;
}
EXPORT_SYMBOL_GPL(synth_event_add_fields);

/**
 * synth_event_create - create a synthetic event in one call
 * @name: event name
 * @fields: field descriptions
 * @n_fields: number of entries in @fields, at most 64
 * @mod: module creating the event, or NULL; the event is removed when
 *	the module is unloaded
 *
 * Context: Process context, may sleep; takes event_mutex.
 * Return: 0 on success, -EEXIST if the name is taken, -EINVAL on a bad
 * definition (also logged to tracing/error_log), -ENOMEM.
 */
int synth_event_create(const char *name, struct synth_field_desc *fields,
		       unsigned int n_fields, struct module *mod)
{
	char *text __free(kfree) = kzalloc(MAX_DYNEVENT_CMD_LEN, GFP_KERNEL);
	struct dynevent_cmd cmd;
	int err;

	if (!text)
		return -ENOMEM;

	/* The same path as a written command, so errors are logged alike. */
	synth_event_cmd_init(&cmd, text, MAX_DYNEVENT_CMD_LEN);
	err = synth_event_gen_cmd_array_start(&cmd, name, mod, fields, n_fields);
	return err ?: synth_event_gen_cmd_end(&cmd);
}
EXPORT_SYMBOL_GPL(synth_event_create);

/**
 * synth_event_delete - remove a synthetic event
 * @name: event name
 *
 * Context: Process context, may sleep; takes event_mutex.
 * Return: 0 on success, -ENOENT if there is no such event, -EBUSY if it
 * is enabled or otherwise in use.
 */
int synth_event_delete(const char *name)
{
	struct synth_event *se;
	int ret;

	mutex_lock(&event_mutex);
	se = synth_event_lookup(name);
	ret = se ? synth_event_remove(se) : -ENOENT;
	if (!ret)
		tracing_reset_all_online_cpus();
	mutex_unlock(&event_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(synth_event_delete);

/**
 * synth_event_trace_array - record a synthetic event from a value array
 * @file: event file of the synthetic event (see trace_get_event_file())
 * @vals: one value per field in field order; strings and stacks are
 *	passed as pointers cast to u64
 * @n_vals: number of values, must equal the number of fields
 *
 * Nothing is recorded if the event is not enabled in @file's instance.
 *
 * Context: Any context; does not sleep.
 * Return: 0 on success (also when nothing was recorded), -EINVAL if
 * @file is not a synthetic event or @n_vals is wrong.
 */
int synth_event_trace_array(struct trace_event_file *file, u64 *vals,
			    unsigned int n_vals)
{
	struct synth_event *se = synth_event_from_file(file);

	if (!se || !vals)
		return -EINVAL;
	return synth_event_emit(se, file, vals, n_vals);
}
EXPORT_SYMBOL_GPL(synth_event_trace_array);

/**
 * synth_event_trace - record a synthetic event from variable arguments
 * @file: event file of the synthetic event (see trace_get_event_file())
 * @n_vals: number of u64 values that follow, one per field
 * @...: the values; strings and stacks as pointers cast to u64
 *
 * Context: Any context; does not sleep.
 * Return: 0 on success (also when nothing was recorded), -EINVAL if
 * @file is not a synthetic event or @n_vals is wrong.
 */
int synth_event_trace(struct trace_event_file *file, unsigned int n_vals, ...)
{
	struct synth_event *se = synth_event_from_file(file);
	u64 vals[SYNTH_FIELDS_MAX];
	va_list args;
	unsigned int i;

	if (!se || n_vals != se->n_fields)
		return -EINVAL;

	va_start(args, n_vals);
	for (i = 0; i < n_vals; i++)
		vals[i] = va_arg(args, u64);
	va_end(args);

	return synth_event_emit(se, file, vals, n_vals);
}
EXPORT_SYMBOL_GPL(synth_event_trace);

/**
 * synth_event_trace_start - begin recording a synthetic event piecewise
 * @file: event file of the synthetic event
 * @trace_state: state object, initialized here
 *
 * Reserves room for the event; fields are then set with
 * synth_event_add_next_val() or synth_event_add_val() and the event is
 * committed by synth_event_trace_end(), which must be called whenever
 * this function returned 0.  Preemption stays disabled until then.
 * Events with "char[]" or stack fields cannot be recorded this way.
 *
 * Context: Any context; does not sleep.
 * Return: 0 on success (the state may be marked disabled when nothing
 * is to be recorded), -EINVAL for a bad argument or an event with
 * dynamic fields.
 */
int synth_event_trace_start(struct trace_event_file *file,
			    struct synth_event_trace_state *trace_state)
{
	struct synth_event *se = synth_event_from_file(file);
	bool wanted;

	if (!trace_state)
		return -EINVAL;
	memset(trace_state, 0, sizeof(*trace_state));
	if (!se || se->has_dynamic)
		return -EINVAL;
	trace_state->event = se;

	/*
	 * The check runs the event's triggers that take no record: they
	 * may be removed meanwhile, and their removal waits only for
	 * sections with preemption off.
	 */
	preempt_disable_notrace();
	wanted = synth_file_wants_record(file);
	preempt_enable_notrace();
	if (!wanted) {
		trace_state->disabled = true;
		return 0;
	}

	/* as synth_record(); nesting also disables preemption */
	trace_state->buffer = file->tr->array_buffer.buffer;
	ring_buffer_nest_start(trace_state->buffer);
	trace_state->entry = trace_event_buffer_reserve(&trace_state->fbuffer,
							file, se->fixed_size);
	if (!trace_state->entry) {
		ring_buffer_nest_end(trace_state->buffer);
		trace_state->disabled = true;
		return 0;
	}
	trace_state->n_u64 = (se->fixed_size - sizeof(struct trace_entry)) /
			     sizeof(u64);
	memset(trace_state->entry->fields, 0,
	       se->fixed_size - sizeof(struct trace_entry));
	return 0;
}
EXPORT_SYMBOL_GPL(synth_event_trace_start);

/**
 * synth_event_add_next_val - set the next field of a piecewise event
 * @val: the value (strings as pointers cast to u64)
 * @trace_state: state from synth_event_trace_start()
 *
 * Cannot be mixed with synth_event_add_val() for the same event.
 *
 * Context: Any context; does not sleep.
 * Return: 0 on success, -EINVAL when all fields are set already, when
 * mixed with synth_event_add_val() or for a bad state.
 */
int synth_event_add_next_val(u64 val,
			     struct synth_event_trace_state *trace_state)
{
	struct synth_event *se;

	if (!trace_state || !trace_state->event || trace_state->add_name)
		return -EINVAL;
	se = trace_state->event;
	trace_state->add_next = true;
	if (trace_state->cur_field >= se->n_fields)
		return -EINVAL;

	if (!trace_state->disabled)
		synth_store_fixed(trace_state->entry,
				  se->fields[trace_state->cur_field], val);
	trace_state->cur_field++;
	return 0;
}
EXPORT_SYMBOL_GPL(synth_event_add_next_val);

/**
 * synth_event_add_val - set a field of a piecewise event by name
 * @field_name: name of the field
 * @val: the value (strings as pointers cast to u64)
 * @trace_state: state from synth_event_trace_start()
 *
 * Cannot be mixed with synth_event_add_next_val() for the same event.
 *
 * Context: Any context; does not sleep.
 * Return: 0 on success, -EINVAL for an unknown field, when mixed with
 * synth_event_add_next_val() or for a bad state.
 */
int synth_event_add_val(const char *field_name, u64 val,
			struct synth_event_trace_state *trace_state)
{
	struct synth_event *se;
	int idx;

	if (!trace_state || !trace_state->event || trace_state->add_next ||
	    !field_name)
		return -EINVAL;
	se = trace_state->event;
	trace_state->add_name = true;

	idx = synth_event_field_index(se, field_name);
	if (idx < 0)
		return -EINVAL;
	if (!trace_state->disabled)
		synth_store_fixed(trace_state->entry, se->fields[idx], val);
	return 0;
}
EXPORT_SYMBOL_GPL(synth_event_add_val);

/**
 * synth_event_trace_end - commit a piecewise event
 * @trace_state: state from synth_event_trace_start()
 *
 * Fields that were not set are recorded as zero.
 *
 * Context: Any context; does not sleep.  Re-enables preemption that
 * synth_event_trace_start() disabled (with the ring buffer's nesting).
 * Return: 0 on success, -EINVAL for a bad state.
 */
int synth_event_trace_end(struct synth_event_trace_state *trace_state)
{
	if (!trace_state || !trace_state->event)
		return -EINVAL;
	if (trace_state->disabled)
		return 0;

	trace_event_buffer_commit(&trace_state->fbuffer);
	trace_state->disabled = true;
	ring_buffer_nest_end(trace_state->buffer);
	return 0;
}
EXPORT_SYMBOL_GPL(synth_event_trace_end);

/* ------------------------------------------------------------------ */
/* Module unload and initialization                                    */

#ifdef CONFIG_MODULES
static int synth_module_notify(struct notifier_block *nb, unsigned long state,
			       void *data)
{
	struct module *mod = data;
	struct dyn_event *pos, *tmp;
	struct synth_event *se;

	if (state != MODULE_STATE_GOING)
		return NOTIFY_DONE;

	mutex_lock(&event_mutex);
	for_each_dyn_event_safe(pos, tmp) {
		if (!is_synth_dyn_event(pos))
			continue;
		se = to_synth_event(pos);
		if (se->mod != mod)
			continue;
		if (synth_event_remove(se)) {
			pr_warn("synthetic event %s of module %s is busy, keeping it\n",
				se->name, module_name(mod));
			se->mod = NULL;
		}
	}
	tracing_reset_all_online_cpus();
	mutex_unlock(&event_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block synth_module_nb = {
	.notifier_call	= synth_module_notify,
};
#endif

static __init int synth_events_init_early(void)
{
	int ret;

	ret = dyn_event_register(&synth_dyn_ops);
	if (ret) {
		pr_warn("synthetic events: dyn_event registration failed\n");
		return ret;
	}
#ifdef CONFIG_MODULES
	ret = register_module_notifier(&synth_module_nb);
	if (ret)
		pr_warn("synthetic events: module notifier registration failed\n");
#endif
	return 0;
}
core_initcall(synth_events_init_early);

static __init int synth_events_init(void)
{
	if (tracing_init_dentry())
		return 0;

	trace_create_file(SYNTH_EVENTS_FILE, TRACE_MODE_WRITE, NULL, NULL,
			  &synth_events_fops);
	return 0;
}
fs_initcall(synth_events_init);
