// SPDX-License-Identifier: GPL-2.0
/*
 * The hist trigger hot path: event record -> compound key -> map element
 * -> sums and variables.
 *
 * Runs in whatever context the event fires in, NMI included.  It never
 * allocates, never takes a lock and never sleeps; every loop is bounded by
 * the trigger's (limited) number of fields and the maximum string length.
 * Field values are computed by one switch on the field kind; operators
 * recurse at most HIST_EXPR_DEPTH_MAX deep.
 *
 * The compound key is built in a per-CPU buffer rather than on the stack
 * (it can be HIST_KEY_SIZE_MAX bytes).  Events nest on one CPU (an
 * interrupt or NMI firing an event while a task's event is being
 * aggregated), so each CPU has one buffer per nesting level and a local_t
 * depth counter; an event nested deeper than HIST_KEY_NEST_MAX is not
 * aggregated.
 */
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/percpu.h>
#include <linux/uaccess.h>
#include <linux/stacktrace.h>
#include <asm/local.h>

#include "trace_hist.h"

struct hist_key_bufs {
	local_t	depth;
	u8	buf[HIST_KEY_NEST_MAX][HIST_KEY_SIZE_MAX] __aligned(8);
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

/* ilog2 of the value rounded up to a power of two; 0 for 0, 1 and
 * values whose rounding would not fit in 64 bits.
 */
static u64 log2_bucket(u64 val)
{
	unsigned int bits;

	if (val <= 1)
		return 0;
	bits = fls64(val - 1);
	return bits == 64 ? 0 : bits;
}

static u64 field_value(struct hist_field *f, struct trace_buffer *buffer,
		       void *rec, struct ring_buffer_event *rbe);

static u64 op_value(struct hist_field *f, struct trace_buffer *buffer,
		    void *rec, struct ring_buffer_event *rbe)
{
	u64 a = field_value(f->operands[0], buffer, rec, rbe);
	u64 b = 0;

	if (f->operands[1])
		b = field_value(f->operands[1], buffer, rec, rbe);
	return hist_apply_op(f, a, b);
}

static u64 timestamp(struct hist_field *f, struct trace_buffer *buffer,
		     struct ring_buffer_event *rbe)
{
	u64 ts = ring_buffer_event_time_stamp(buffer, rbe);

	if (f->flags & HIST_FIELD_FL_TIMESTAMP_USECS)
		ts = div_u64(ts, NSEC_PER_USEC);
	return ts;
}

/* The numeric value of a field; strings and stacks yield 0. */
static u64 field_value(struct hist_field *f, struct trace_buffer *buffer,
		       void *rec, struct ring_buffer_event *rbe)
{
	u64 val;

	switch (f->kind) {
	case HIST_KIND_HITCOUNT:
		return 1;
	case HIST_KIND_CONST:
		return f->constant;
	case HIST_KIND_S8 ... HIST_KIND_U64:
		val = read_num(rec + f->offset, f->kind);
		break;
	case HIST_KIND_TIMESTAMP:
		return timestamp(f, buffer, rbe);
	case HIST_KIND_CPU:
		return raw_smp_processor_id();
	case HIST_KIND_PLUS ... HIST_KIND_NEG:
		return op_value(f, buffer, rec, rbe);
	default:
		return 0;
	}
	if (unlikely(f->flags & HIST_FIELD_FL_LOG2))
		val = log2_bucket(val);
	else if (unlikely(f->flags & HIST_FIELD_FL_BUCKET))
		val = div64_u64(val, f->buckets) * f->buckets;
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

static void key_part(struct hist_field *f, u8 *dst,
		     struct trace_buffer *buffer, void *rec,
		     struct ring_buffer_event *rbe)
{
	u32 loc;

	switch (f->kind) {
	case HIST_KIND_STR_FIXED:
		key_string(dst, f->key_size, rec + f->offset, f->size);
		return;
	case HIST_KIND_STR_DYN:
		loc = *(u32 *)(rec + f->offset);
		key_string(dst, f->key_size, rec + (loc & 0xffff),
			   min(loc >> 16, f->size - 1));
		return;
	case HIST_KIND_STR_RELDYN:
		loc = *(u32 *)(rec + f->offset);
		key_string(dst, f->key_size, rec + f->offset + sizeof(u32) +
			   (loc & 0xffff), min(loc >> 16, f->size - 1));
		return;
	case HIST_KIND_STR_PTR: {
		/* A pointer recorded by the event: read it without trusting it. */
		const char *src = *(const char **)(rec + f->offset);
		long n = src ? strncpy_from_kernel_nofault(dst, src, f->size) : 0;

		/* f->size < f->key_size: a NUL always follows */
		if (n < 0)
			n = 0;
		memset(dst + n, 0, f->key_size - n);
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
	case HIST_KIND_STACKTRACE: {
		unsigned long *entries = (unsigned long *)dst;
		unsigned int n;

		n = stack_trace_save(entries, HIST_STACKTRACE_DEPTH,
				     HIST_STACKTRACE_SKIP);
		memset(entries + n, 0,
		       (HIST_STACKTRACE_DEPTH - n) * sizeof(*entries));
		return;
	}
	default:
		*(u64 *)dst = field_value(f, buffer, rec, rbe);
	}
}

/**
 * hist_field_value - compute a value field for one event
 * @field: the field
 * @buffer: the buffer the event was reserved in
 * @rec: the event record
 * @rbe: the ring buffer event (for its timestamp)
 *
 * Return: the value, sign-extended to 64 bits for signed fields.
 */
u64 hist_field_value(struct hist_field *field, struct trace_buffer *buffer,
		     void *rec, struct ring_buffer_event *rbe)
{
	return field_value(field, buffer, rec, rbe);
}

/**
 * hist_data_update - aggregate one event into a histogram
 * @hd: the histogram
 * @buffer: the buffer the event was reserved in
 * @rec: the event record
 * @rbe: the ring buffer event
 */
void hist_data_update(struct hist_data *hd, struct trace_buffer *buffer,
		      void *rec, struct ring_buffer_event *rbe)
{
	struct hist_key_bufs *kb;
	struct tracing_map_elt *elt;
	unsigned int i;
	long depth;
	u8 *key;

	preempt_disable_notrace();
	kb = this_cpu_ptr(&hist_key_bufs);
	depth = local_inc_return(&kb->depth) - 1;
	if (unlikely(depth >= HIST_KEY_NEST_MAX))
		goto out;
	key = kb->buf[depth];

	for (i = hist_first_key(hd); i < hd->n_fields; i++) {
		struct hist_field *f = hd->fields[i];

		key_part(f, key + f->key_offset, buffer, rec, rbe);
	}

	elt = tracing_map_insert(hd->map, key);
	if (!elt)
		goto out;

	for (i = 0; i < hd->n_vals; i++) {
		struct hist_field *f = hd->fields[i];

		tracing_map_update_sum(elt, f->map_idx,
				       field_value(f, buffer, rec, rbe));
	}
	for (i = hd->n_vals; i < hd->n_vals + hd->n_vars; i++) {
		struct hist_field *f = hd->fields[i];

		tracing_map_set_var(elt, f->var_idx,
				    field_value(f, buffer, rec, rbe));
	}
out:
	local_dec(&kb->depth);
	preempt_enable_notrace();
}
