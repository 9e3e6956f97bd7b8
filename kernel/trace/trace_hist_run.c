// SPDX-License-Identifier: GPL-2.0
/*
 * The hist trigger hot path: event record -> compound key -> map element
 * -> sums and variables.
 *
 * Runs in whatever context the event fires in, NMI included.  It never
 * allocates, never takes a lock and never sleeps; every loop is bounded by
 * the trigger's (limited) number of fields and the maximum string length.
 * Field values are computed by one switch on the field kind; an
 * expression runs as a flat postfix program (hist_expr_compile()) in one
 * loop over a stack of HIST_EXPR_DEPTH_MAX + 1 values, without recursion.
 *
 * Most histograms are plain: numeric record fields (maybe .log2 or
 * .buckets=) or the CPU as keys,
 * hitcount and numeric record fields as values, at most numeric variables
 * (timestamps, expressions without references) besides.  Those take
 * hist_fast_update(), set up once by hist_fast_prepare(): the key is built
 * on the stack from a compact description next to the map pointer, with
 * no per-field calls, no per-CPU buffers and no nesting counter.
 *
 * The compound key is built in a per-CPU buffer rather than on the stack
 * (it can be HIST_KEY_SIZE_MAX bytes).  Events nest on one CPU (an
 * interrupt or NMI firing an event while a task's event is being
 * aggregated), so each CPU has one buffer per nesting level and a local_t
 * depth counter; an event nested deeper than HIST_KEY_NEST_MAX is not
 * aggregated and counts among the histogram's drops.
 *
 * The actions of onmatch(), onmax() and onchange() run here too, once
 * the entry is updated and their references resolved; trace_hist_actions.c
 * only binds them.
 */
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/log2.h>
#include <linux/percpu.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <asm/local.h>

#include "trace_hist.h"

struct hist_key_bufs {
	local_t	depth;
	u8	buf[HIST_KEY_NEST_MAX][HIST_KEY_SIZE_MAX] __aligned(8);
	u64	refs[HIST_KEY_NEST_MAX][HIST_VAR_REFS_MAX];
	u64	params[HIST_KEY_NEST_MAX][HIST_PARAMS_MAX];
	unsigned long stack[HIST_KEY_NEST_MAX][HIST_STACKTRACE_DEPTH];
};

static DEFINE_PER_CPU(struct hist_key_bufs, hist_key_bufs);

static __always_inline u64 read_num(const void *p, enum hist_kind kind)
{
	switch (kind) {
	case HIST_KIND_S8:
		return (u64)(s64)*(const s8 *)p;
	case HIST_KIND_U8:
		return *(const u8 *)p;
	case HIST_KIND_S16:
		return (u64)(s64)*(const s16 *)p;
	case HIST_KIND_U16:
		return *(const u16 *)p;
	case HIST_KIND_S32:
		return (u64)(s64)*(const s32 *)p;
	case HIST_KIND_U32:
		return *(const u32 *)p;
	default:
		return *(const u64 *)p;
	}
}

/*
 * The .log2 bucket: the exponent of the value rounded up to a power of
 * two, 0 for 0 and 1, and 64 for values above 2^63 (whose rounding does
 * not fit in 64 bits), as order_base_2() computes it.
 */
static u64 log2_bucket(u64 val)
{
	if (val <= 1)
		return 0;
	return fls64(val - 1);
}

static u64 field_value(struct hist_field *f, struct hist_run *run);

static u64 op_value(struct hist_field *f, struct hist_run *run)
{
	u64 a = field_value(f->operands[0], run);
	u64 b = 0;

	if (f->operands[1])
		b = field_value(f->operands[1], run);
	return hist_apply_op(f, a, b);
}

/*
 * The event's time stamp, read once per event and histogram so that every
 * field, variable and save() of the event sees the same instant.  An
 * event reserved in a ring buffer has its own stamp; an event held in
 * this CPU's buffered page (filtered or soft-disabled events, which hist
 * triggers do not force into the ring buffer, see hist_arm()) takes the
 * buffer's clock when it is first asked for.  Whether to convert is
 * decided per histogram and clock when the trigger is registered
 * (hist_timestamps_bind()); rounded as ns2usecs() does.
 */
static u64 timestamp(struct hist_field *f, struct hist_run *run)
{
	u64 ts;

	if (!run->have_ts) {
		if (!run->rbe ||
		    this_cpu_read(trace_buffered_event) == run->rbe)
			run->ts = ring_buffer_time_stamp(run->buffer);
		else
			run->ts = ring_buffer_event_time_stamp(run->buffer,
							       run->rbe);
		run->have_ts = true;
	}
	ts = run->ts;
	if (READ_ONCE(f->ts_usecs))
		ts = div_u64(ts + NSEC_PER_USEC / 2, NSEC_PER_USEC);
	return ts;
}

/* One case per field width: sign-extends signed ones, as read_num(). */
#define EXPR_PUSH_FIELD(op, type)					\
	case op:							\
		*sp++ = acc;						\
		acc = (u64)(s64)*(const type *)(rec + in->offset);	\
		break

/*
 * Evaluate a compiled expression (hist_expr_compile()): the top of the
 * stack lives in @acc, a push saves it below; operators combine the value
 * below with @acc, exactly as op_value() computes it.  The compiler
 * bounds the stack and the steps.
 */
static __always_inline u64 expr_run(const struct hist_expr *e,
				    struct hist_run *run)
{
	const struct hist_insn *in = e->insn, *end = in + e->n;
	u64 st[HIST_EXPR_DEPTH_MAX + 1], *sp = st, acc = 0;
	const void *rec = run->rec;

	for (; in < end; in++) {
		switch (in->op) {
		EXPR_PUSH_FIELD(HIST_OP_PUSH_S8, s8);
		EXPR_PUSH_FIELD(HIST_OP_PUSH_U8, u8);
		EXPR_PUSH_FIELD(HIST_OP_PUSH_S16, s16);
		EXPR_PUSH_FIELD(HIST_OP_PUSH_U16, u16);
		EXPR_PUSH_FIELD(HIST_OP_PUSH_S32, s32);
		EXPR_PUSH_FIELD(HIST_OP_PUSH_U32, u32);
		EXPR_PUSH_FIELD(HIST_OP_PUSH_U64, u64);
		case HIST_OP_PUSH_CONST:
			*sp++ = acc;
			acc = in->k;
			break;
		case HIST_OP_PUSH_REF:
			*sp++ = acc;
			acc = run->refs[in->f->var_ref_idx];
			break;
		case HIST_OP_PUSH_TS:
			*sp++ = acc;
			acc = timestamp(in->f, run);
			break;
		case HIST_OP_PUSH_LEAF:
			/* not an operator, so no recursion */
			*sp++ = acc;
			acc = field_value(in->f, run);
			break;
		case HIST_OP_ADD:
			acc = *--sp + acc;
			break;
		case HIST_OP_SUB:
			acc = *--sp - acc;
			break;
		case HIST_OP_MUL:
			acc = *--sp * acc;
			break;
		case HIST_OP_DIV:
			acc = hist_apply_op(in->f, *--sp, acc);
			break;
		case HIST_OP_NEG:
			acc = -acc;
			break;
		case HIST_OP_ADD_K:
			acc += in->k;
			break;
		case HIST_OP_SUB_K:
			acc -= in->k;
			break;
		case HIST_OP_MUL_K:
			acc *= in->k;
			break;
		case HIST_OP_DIV_K:
			acc = hist_apply_op(in->f, acc, in->k);
			break;
		}
	}
	return acc;
}

/* The numeric value of a field; strings and stacks yield 0. */
static u64 field_value(struct hist_field *f, struct hist_run *run)
{
	u64 val;

	switch (f->kind) {
	case HIST_KIND_HITCOUNT:
		return 1;
	case HIST_KIND_CONST:
		return f->constant;
	case HIST_KIND_S8 ... HIST_KIND_U64:
		val = read_num(run->rec + f->offset, f->kind);
		break;
	/* as keys these two take .log2 and .buckets too */
	case HIST_KIND_TIMESTAMP:
		val = timestamp(f, run);
		break;
	case HIST_KIND_CPU:
		val = raw_smp_processor_id();
		break;
	case HIST_KIND_PLUS ... HIST_KIND_NEG:
		if (likely(f->expr))
			return expr_run(f->expr, run);
		return op_value(f, run);
	case HIST_KIND_VAR_REF:
		return run->refs[f->var_ref_idx];
	default:
		return 0;
	}
	if (unlikely(f->flags & HIST_FIELD_FL_LOG2))
		val = log2_bucket(val);
	else if (unlikely(f->flags & HIST_FIELD_FL_BUCKET))
		val = hist_bucket_key(f, val);
	return val;
}

/*
 * Copy at most @max bytes of a string into a key part of @size bytes and
 * zero the rest: the whole key is compared byte for byte, and the buffer
 * still holds the previous event's key.
 */
static void key_string(u8 *dst, unsigned int size, const char *src,
		       unsigned int max)
{
	unsigned int n = src ? strnlen(src, min(size - 1, max)) : 0;

	memcpy(dst, src, n);
	memset(dst + n, 0, size - n);
}

/* @room: bytes available at @dst (the key part size for keys) */
static void key_part(struct hist_field *f, u8 *dst, unsigned int room,
		     struct hist_run *run)
{
	void *rec = run->rec;
	u32 loc;

	switch (f->kind) {
	case HIST_KIND_STR_FIXED:
		key_string(dst, room, rec + f->offset, f->size);
		return;
	case HIST_KIND_STR_DYN:
		loc = *(u32 *)(rec + f->offset);
		key_string(dst, room, rec + (loc & 0xffff),
			   min(loc >> 16, f->size - 1));
		return;
	case HIST_KIND_STR_RELDYN:
		loc = *(u32 *)(rec + f->offset);
		key_string(dst, room, rec + f->offset + sizeof(u32) +
			   (loc & 0xffff), min(loc >> 16, f->size - 1));
		return;
	case HIST_KIND_EXECNAME:
		/* as the comm of an .execname key (execname_init()) */
		if (!current->pid) {
			key_string(dst, room, "<idle>", TASK_COMM_LEN);
			return;
		}
		fallthrough;
	case HIST_KIND_COMM: {
		char comm[TASK_COMM_LEN];

		/*
		 * One copy first: the task may be renamed meanwhile, and a
		 * new short name must not be followed by the old one's tail.
		 */
		memcpy(comm, current->comm, sizeof(comm));
		comm[sizeof(comm) - 1] = '\0';
		key_string(dst, room, comm, sizeof(comm));
		return;
	}
	case HIST_KIND_STACK_FIELD: {
		unsigned int bytes;

		loc = *(u32 *)(rec + f->offset);
		bytes = min_t(unsigned int, loc >> 16, f->size);
		memcpy(dst, rec + (loc & 0xffff), bytes);
		memset(dst + bytes, 0, f->size - bytes);
		return;
	}
	case HIST_KIND_VAR_REF: {
		/* save() of another histogram's string or stack variable */
		const void *src = (const void *)(unsigned long)
				  run->refs[f->var_ref_idx];

		if (f->flags & HIST_FIELD_FL_STRING) {
			key_string(dst, room, src, room);
			return;
		}
		if (f->flags & HIST_FIELD_FL_STACKTRACE) {
			memcpy(dst, src, HIST_STACKTRACE_SIZE);
			return;
		}
		break;
	}
	case HIST_KIND_STACKTRACE:
		memcpy(dst, run->stack, HIST_STACKTRACE_SIZE);
		return;
	default:
		break;
	}
	*(u64 *)dst = field_value(f, run);
}

/**
 * hist_run_value - compute a numeric field for one event
 * @f: the field
 * @run: the event
 *
 * Return: the value, sign-extended to 64 bits for signed fields.
 */
u64 hist_run_value(struct hist_field *f, struct hist_run *run)
{
	return field_value(f, run);
}

/**
 * hist_run_set_var - set a variable of the event's entry
 * @f: the variable
 * @run: the event and its entry
 *
 * A string or stack is copied into the entry's storage and the variable
 * holds the address of the copy.
 */
static void hist_run_set_var(struct hist_field *f, struct hist_run *run)
{
	u64 val;

	if (f->elt_slot >= 0) {
		u8 *slot = hist_elt_slot(run->elt, f->elt_slot);

		key_part(f, slot, HIST_VAR_STR_SIZE, run);
		val = (u64)(unsigned long)slot;
	} else {
		val = field_value(f, run);
	}
	tracing_map_set_var(run->elt, f->var_idx, val);
}

/* ---- actions: what onmatch()/onmax()/onchange() run ---- */

/* The candidate passed through tracing_snapshot_cond(). */
struct hist_snapshot_try {
	struct hist_snapshot	*snap;
	u64			val;
	void			*key;
	const char		*comm;
};

static bool beats(enum hist_handler handler, u64 val, u64 old)
{
	return handler == HIST_ON_MAX ? val > old : val != old;
}

/**
 * hist_snapshot_update - decide whether a conditional snapshot is taken
 * @tr: the trace instance
 * @cond_data: the candidate (struct hist_snapshot_try), or NULL
 *
 * Called by the tracing core, under its snapshot lock, before swapping.
 * Every snapshot of the instance comes here while our conditional one is
 * installed, including unconditional ones (the "snapshot" trigger of
 * another event, tracing_snapshot()), which pass no data: those are not
 * taken, as a write of 1 to the snapshot file is refused meanwhile, and
 * the buffer stays the one our note describes.  (Dereferencing their
 * missing data would crash.)
 *
 * Return: true to take the snapshot (@cond_data beats the last one).
 */
bool hist_snapshot_update(struct trace_array *tr, void *cond_data)
{
	struct hist_snapshot_try *try = cond_data;
	struct hist_snapshot *snap;

	if (!try)
		return false;
	snap = try->snap;
	if (snap->taken && !beats(snap->action->handler, try->val, snap->val))
		return false;
	snap->val = try->val;
	memcpy(snap->key, try->key, snap->hd->key_size);
	strscpy(snap->comm, try->comm, sizeof(snap->comm));
	snap->taken = true;
	return true;
}

static void do_action(struct hist_data *hd, struct hist_action *a,
		      struct hist_run *run, u64 val)
{
	unsigned int i;

	switch (a->act) {
	case HIST_ACT_TRACE:
		for (i = 0; i < a->n_params; i++)
			run->params[i] = run->refs[a->param_refs[i]];
		synth_event_emit_all(a->synth, run->params, a->n_params);
		break;
	case HIST_ACT_SAVE:
		for (i = 0; i < hd->n_save_vars; i++)
			hist_run_set_var(hd->save_vars[i], run);
		break;
	case HIST_ACT_SNAPSHOT: {
		struct hist_snapshot_try try = {
			.snap = a->snap,
			.val = val,
			.key = run->key,
			.comm = hist_elt_comm(run->elt),
		};

		tracing_snapshot_cond(hd->event_file->tr, &try);
		break;
	}
	}
}

/**
 * hist_run_actions - run the actions of a histogram for one event
 * @hd: the histogram
 * @run: the event, its entry and resolved references
 *
 * Kept out of line: only histograms with actions need its stack frame
 * (a snapshot candidate), not every event's hist_data_update().
 *
 * Context: the event's context (any, NMI included).
 */
static noinline void hist_run_actions(struct hist_data *hd,
				      struct hist_run *run)
{
	unsigned int i;

	for (i = 0; i < hd->n_actions; i++) {
		struct hist_action *a = hd->actions[i];
		u64 val = 0, old;

		if (a->handler != HIST_ON_MATCH) {
			val = run->refs[a->track_ref->var_ref_idx];
			old = tracing_map_read_var(run->elt,
						   a->track_var->var_idx);
			if (!beats(a->handler, val, old))
				continue;
			tracing_map_set_var(run->elt, a->track_var->var_idx,
					    val);
		}
		do_action(hd, a, run, val);
	}
}

/*
 * Fill run->refs with the variables other histograms (@self false) or
 * this one (@self true) hold for the key.  Fails if one is missing.
 */
static bool resolve_refs(struct hist_data *hd, struct hist_run *run,
			 bool self)
{
	unsigned int i;

	for (i = 0; i < hd->n_var_refs; i++) {
		struct hist_field *ref = hd->var_refs[i];
		struct tracing_map_elt *elt;
		bool own = ref->var_hd == hd;

		if (own != self)
			continue;
		/* a map being cleared must not be looked up (hist_clear()) */
		if (!self && unlikely(smp_load_acquire(&ref->var_hd->frozen)))
			return false;
		elt = self ? run->elt : tracing_map_lookup(ref->var_hd->map,
							    run->key);
		if (!elt || !tracing_map_var_set(elt, ref->var_idx))
			return false;
		if (ref->read_once && !self)
			run->refs[i] = tracing_map_read_var_once(elt,
								 ref->var_idx);
		else
			run->refs[i] = tracing_map_read_var(elt, ref->var_idx);
	}
	return true;
}

/*
 * The stack of the event, taken once per event at a fixed depth, so every
 * key and variable of the event sees the same stack whatever the compiler
 * inlined.  HIST_STACKTRACE_SKIP frames are skipped as seen from the
 * trigger function, and one more for the frame that lies between the
 * trigger call and the walk (this function below hist_data_update(),
 * which hist_trigger_probe() tail-calls), so the stack starts at the
 * frame users expect.  The stack tests check that first frame.
 */
#define HIST_STACK_OWN_FRAMES	1

static noinline void save_stack(unsigned long *entries)
{
	unsigned int n;

	n = stack_trace_save(entries, HIST_STACKTRACE_DEPTH,
			     HIST_STACKTRACE_SKIP + HIST_STACK_OWN_FRAMES);
	memset(entries + n, 0, (HIST_STACKTRACE_DEPTH - n) * sizeof(*entries));
}

/**
 * hist_data_update - aggregate one event into a histogram
 * @hd: the histogram
 * @buffer: the buffer the event was reserved in
 * @rec: the event record
 * @rbe: the ring buffer event
 *
 * References to other histograms' variables are resolved first; if one
 * is missing the event is dropped.  Then the entry is updated: sums,
 * variables, field variables.  Last the actions run, with this
 * histogram's own variables resolved too.
 */
void hist_data_update(struct hist_data *hd, struct trace_buffer *buffer,
		      void *rec, struct ring_buffer_event *rbe)
{
	struct hist_run run = {
		.buffer = buffer,
		.rec = rec,
		.rbe = rbe,
	};
	struct tracing_map_sums s;
	struct hist_key_bufs *kb;
	unsigned int i;
	long depth;

	/* paired with hist_freeze() */
	if (unlikely(smp_load_acquire(&hd->frozen)))
		return;
	preempt_disable_notrace();
	kb = this_cpu_ptr(&hist_key_bufs);
	depth = local_inc_return(&kb->depth) - 1;
	if (unlikely(depth >= HIST_KEY_NEST_MAX)) {
		/* no buffers left at this depth: shown as "Dropped" */
		tracing_map_count_drop(hd->map);
		goto out;
	}
	run.key = kb->buf[depth];
	run.refs = kb->refs[depth];
	run.params = kb->params[depth];
	if (hd->uses_stack) {
		run.stack = kb->stack[depth];
		save_stack(run.stack);
	}

	for (i = hist_first_key(hd); i < hd->n_fields; i++) {
		struct hist_field *f = hd->fields[i];

		key_part(f, run.key + f->key_offset, f->key_size, &run);
	}

	if (hd->n_var_refs && !resolve_refs(hd, &run, false))
		goto out;

	run.elt = tracing_map_insert_sums(hd->map, run.key, &s);
	if (!run.elt)
		goto out;

	for (i = 0; i < hd->n_vals; i++) {
		struct hist_field *f = hd->fields[i];
		u64 val = field_value(f, &run);

		if (likely(s.sums))
			tracing_map_pend_update(&s.sums[f->map_idx],
						hd->map->fields[f->map_idx].agg,
						val);
		else
			tracing_map_update_val(run.elt, f->map_idx, val);
		if (unlikely(f->flags & HIST_FIELD_FL_QUANT))
			tracing_map_quant_add(run.elt, f->map_idx, val);
	}
	if (likely(s.sums))
		tracing_map_sums_put(&s);
	for (i = hd->n_vals; i < hd->n_vals + hd->n_vars; i++)
		hist_run_set_var(hd->fields[i], &run);
	for (i = 0; i < hd->n_field_vars; i++)
		hist_run_set_var(hd->field_vars[i], &run);

	if (hd->n_actions && resolve_refs(hd, &run, true))
		hist_run_actions(hd, &run);
	hist_poll_notify();
out:
	local_dec(&kb->depth);
	preempt_enable_notrace();
}

static bool hist_fast_field_init(struct hist_field *f,
				 struct hist_fast_field *ff, bool is_val)
{
	ff->log2 = 0;
	ff->bucket = 0;
	ff->agg = TRACING_MAP_SUM;
	ff->quant = 0;
	/* a hitcount key ("keys=hitcount") is the constant 1: full path */
	if (f->kind == HIST_KIND_HITCOUNT && is_val) {
		ff->kind = f->kind;
		ff->offset = 0;
		return true;
	}
	/* the CPU as a key part (common_cpu, cpu), as the full path reads it */
	if (f->kind == HIST_KIND_CPU && !is_val &&
	    !(f->flags & (HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_BUCKET))) {
		ff->kind = f->kind;
		ff->offset = 0;
		return true;
	}
	if (f->kind < HIST_KIND_S8 || f->kind > HIST_KIND_U64 ||
	    ((f->flags & HIST_FIELD_FL_BUCKET) && (is_val || !f->buckets)) ||
	    f->offset > U16_MAX)
		return false;
	ff->kind = f->kind;
	ff->offset = f->offset;
	ff->log2 = !!(f->flags & HIST_FIELD_FL_LOG2);
	ff->bucket = !ff->log2 && (f->flags & HIST_FIELD_FL_BUCKET);
	if (is_val) {
		ff->agg = hist_field_map_agg(f);
		ff->quant = !!(f->flags & HIST_FIELD_FL_QUANT);
	}
	return true;
}

/**
 * hist_fast_prepare - compile the expressions, choose the fast path
 * @hd: the histogram, complete and with its map
 *
 * Compiles every expression of the histogram (hist_expr_compile()).
 * Then sets @hd->fast_path if every key part is a numeric record field
 * (with .log2 or .buckets=) or the CPU, laid out as consecutive u64
 * words, every value
 * the hitcount or a numeric record field in map sum order, every
 * variable numeric, and there is nothing else to do per event: no
 * references, field variables, actions or stacks.
 */
void hist_fast_prepare(struct hist_data *hd)
{
	struct hist_fast *fp = &hd->fast;
	unsigned int i, first = hist_first_key(hd);
	bool special;

	for (i = 0; i < hd->n_fields; i++)
		hist_expr_compile(hd->fields[i]);
	for (i = 0; i < hd->n_field_vars; i++)
		hist_expr_compile(hd->field_vars[i]);

	hd->fast_path = false;
	if (hd->n_map_vars != hd->n_vars || hd->n_var_refs ||
	    hd->n_field_vars || hd->n_save_vars || hd->n_actions ||
	    hd->uses_stack ||
	    hd->n_vals > ARRAY_SIZE(fp->vals) ||
	    hd->n_fields - first > ARRAY_SIZE(fp->keys) ||
	    hd->key_size != (hd->n_fields - first) * sizeof(u64))
		return;

	/* the implicit hitcount is value 0, counted without looking */
	if (!hd->n_vals || hd->fields[0]->kind != HIST_KIND_HITCOUNT)
		return;
	fp->quants = 0;
	for (i = 0; i < hd->n_vals; i++) {
		/*
		 * Only value 0 is counted without looking: a hitcount asked
		 * for again (vals=hitcount.hex, .percent, .graph) has no
		 * record field to read, so it takes the full path.
		 */
		if (i && hd->fields[i]->kind == HIST_KIND_HITCOUNT)
			return;
		if (hd->fields[i]->map_idx != i ||
		    !hist_fast_field_init(hd->fields[i], &fp->vals[i], true))
			return;
		fp->quants |= fp->vals[i].quant;
	}
	/* numbers only: strings and stacks take a copy in the element */
	for (i = hd->n_vals; i < hd->n_vals + hd->n_vars; i++)
		if (hd->fields[i]->elt_slot >= 0)
			return;
	for (i = first; i < hd->n_fields; i++) {
		struct hist_field *f = hd->fields[i];

		if (f->key_offset != (i - first) * sizeof(u64) ||
		    f->key_size != sizeof(u64) ||
		    !hist_fast_field_init(f, &fp->keys[i - first], false))
			return;
	}
	fp->n_vals = hd->n_vals;
	fp->n_vars = hd->n_vars;
	fp->n_keys = hd->n_fields - first;
	special = false;
	for (i = 0; i < fp->n_keys; i++)
		special |= fp->keys[i].bucket || fp->keys[i].kind == HIST_KIND_CPU;
	if (special)
		fp->n_keys = 0;
	hd->fast_path = true;
}

/* A numeric record field (a key part, or a value but the hitcount). */
static __always_inline u64 hist_fast_num(const struct hist_fast_field *ff,
					 const void *rec)
{
	u64 val = read_num(rec + ff->offset, ff->kind);

	if (unlikely(ff->log2))
		val = log2_bucket(val);
	return val;
}

/* A .buckets key part of the record, as field_value() makes it. */
static __always_inline u64 hist_fast_bucket(const struct hist_field *f,
					    const struct hist_fast_field *ff,
					    const void *rec)
{
	return hist_bucket_key(f, read_num(rec + ff->offset, ff->kind));
}

/*
 * The key of a fast path histogram with a bucket or the CPU among its
 * key parts (&hist_fast.n_keys is 0 for it), computed as field_value()
 * computes them; the bucket sizes are in the fields, out of the fast
 * path's cache line.
 */
static noinline void hist_fast_keys_special(const struct hist_data *hd,
					    u64 *key, const void *rec)
{
	unsigned int i, first = hist_first_key(hd);

	for (i = 0; i < hd->n_fields - first; i++) {
		const struct hist_fast_field *ff = &hd->fast.keys[i];
		const struct hist_field *f = hd->fields[first + i];

		if (ff->kind == HIST_KIND_CPU)
			key[i] = raw_smp_processor_id();
		else if (ff->bucket)
			key[i] = hist_fast_bucket(f, ff, rec);
		else
			key[i] = hist_fast_num(ff, rec);
	}
}

/* The buckets of a fast path histogram's ".quantiles" values. */
static noinline void hist_fast_quants(const struct hist_fast *fp,
				      struct tracing_map_elt *elt,
				      const void *rec)
{
	unsigned int i;

	for (i = 1; i < fp->n_vals; i++)
		if (fp->vals[i].quant)
			tracing_map_quant_add(elt, i,
					      hist_fast_num(&fp->vals[i], rec));
}

/* The variables of a fast path histogram, after its sums. */
static noinline void hist_fast_vars(struct hist_data *hd,
				    struct tracing_map_elt *elt,
				    struct trace_buffer *buffer, void *rec,
				    struct ring_buffer_event *rbe)
{
	struct hist_run run = {
		.buffer = buffer,
		.rec = rec,
		.rbe = rbe,
	};
	unsigned int i;
	u64 val;

	for (i = hd->n_vals; i < hd->n_vals + hd->fast.n_vars; i++) {
		struct hist_field *f = hd->fields[i];

		if (f->expr)
			val = expr_run(f->expr, &run);
		else
			val = field_value(f, &run);
		tracing_map_set_var(elt, f->var_idx, val);
	}
}

/**
 * hist_fast_update - aggregate one event into a plain histogram
 * @hd: a histogram hist_fast_prepare() chose the fast path for
 * @buffer: the buffer the event was reserved in
 * @rec: the event record
 * @rbe: the ring buffer event
 *
 * Same result as hist_data_update() for such a histogram.
 */
void hist_fast_update(struct hist_data *hd, struct trace_buffer *buffer,
		      void *rec, struct ring_buffer_event *rbe)
{
	const struct hist_fast *fp = &hd->fast;
	struct tracing_map_sums s;
	struct tracing_map_elt *elt;
	unsigned int i;

	/* paired with hist_freeze() */
	if (unlikely(smp_load_acquire(&hd->frozen)))
		return;
	/*
	 * Triggers run with preemption disabled (event_triggers_call()), so
	 * the update is one RCU-sched section, as hist_poll_notify() needs.
	 */
	lockdep_assert_preemption_disabled();
	if (likely(fp->n_keys == 1)) {
		u64 key = hist_fast_num(&fp->keys[0], rec);

		elt = tracing_map_insert_sums(hd->map, &key, &s);
	} else {
		u64 key[ARRAY_SIZE(fp->keys)];

		for (i = 0; i < fp->n_keys; i++)
			key[i] = hist_fast_num(&fp->keys[i], rec);
		if (unlikely(!fp->n_keys))
			hist_fast_keys_special(hd, key, rec);
		elt = tracing_map_insert_sums(hd->map, key, &s);
	}
	if (unlikely(!elt))
		return;
	if (likely(s.sums)) {
		local64_inc(&s.sums[0]);
		for (i = 1; i < fp->n_vals; i++)
			tracing_map_pend_update(&s.sums[i], fp->vals[i].agg,
						hist_fast_num(&fp->vals[i], rec));
		tracing_map_sums_put(&s);
	} else {
		tracing_map_update_sum(elt, 0, 1);
		for (i = 1; i < fp->n_vals; i++)
			tracing_map_update_val(elt, i,
					       hist_fast_num(&fp->vals[i], rec));
	}
	if (unlikely(fp->quants))
		hist_fast_quants(fp, elt, rec);
	if (fp->n_vars)
		hist_fast_vars(hd, elt, buffer, rec, rbe);
	hist_poll_notify();
}
