/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interface of ftrace synthetic events.
 *
 * A synthetic event is a trace event whose fields are declared at run
 * time, either by user space (tracefs "synthetic_events" or
 * "dynamic_events") or by kernel code (the synth_event_* API declared in
 * <linux/trace_events.h>).  This header is shared by the files that
 * implement synthetic events and by their in-kernel users inside
 * kernel/trace (the histogram trigger "trace()" action in particular).
 */
#ifndef _KERNEL_TRACE_SYNTH_H
#define _KERNEL_TRACE_SYNTH_H

#include <linux/trace_events.h>
#include <linux/rculist.h>

#include "trace.h"
#include "trace_dynevent.h"

/* All synthetic events live in this event system (tracefs directory). */
#define SYNTH_SYSTEM		"synthetic"

/* Upper bound on the number of fields of one synthetic event. */
#define SYNTH_FIELDS_MAX	64

/*
 * Upper bound, terminating NUL included, of both the N of a "char[N]"
 * field and of the length a "char[]" string may occupy in an event.
 */
#define SYNTH_STR_LEN_MAX	MAX_FILTER_STR_VAL

/* Name of the tracefs file, also used as the error_log location. */
#define SYNTH_EVENTS_FILE	"synthetic_events"

/**
 * enum synth_field_kind - how a field is stored in the ring buffer
 * @SYNTH_FIELD_NUM: an integer of 1, 2, 4 or 8 bytes in its own slot
 * @SYNTH_FIELD_STR: "char[N]", N bytes inline (rounded up to slots)
 * @SYNTH_FIELD_DYNSTR: "char[]", a __data_loc word plus a tail copy
 * @SYNTH_FIELD_STACK: "long[]" or "unsigned long[]" stack trace, stored
 *	as a __data_loc word plus a tail array of return addresses
 */
enum synth_field_kind {
	SYNTH_FIELD_NUM,
	SYNTH_FIELD_STR,
	SYNTH_FIELD_DYNSTR,
	SYNTH_FIELD_STACK,
};

/**
 * struct synth_field - one field of a synthetic event
 * @type: canonical type string, e.g. "u64", "char[16]", "char[]"
 * @name: field name
 * @ftype: type string published in the event's format file
 * @print_fmt: printf conversion used for numeric fields
 * @kind: storage class, see &enum synth_field_kind
 * @size: bytes the field occupies in the fixed part of the record
 *	(the value size for numbers, N for "char[N]", 4 for __data_loc)
 * @offset: byte offset of the field from the start of the record
 * @is_signed: numeric field is signed
 * @is_gfp: numeric field is a gfp_t and printed as flag names
 *
 * Every field starts at a multiple of eight bytes after the common
 * header; a "char[N]" field spans DIV_ROUND_UP(N, 8) such slots, every
 * other field exactly one.
 */
struct synth_field {
	char			*type;
	char			*name;
	char			*ftype;
	const char		*print_fmt;
	enum synth_field_kind	kind;
	unsigned int		size;
	unsigned int		offset;
	bool			is_signed;
	bool			is_gfp;
};

/**
 * struct synth_def - a parsed event definition
 * @name: event name
 * @n_fields: number of valid entries in @fields
 * @fields: the fields in declaration order
 *
 * Built by synth_parse_def() and consumed by event creation, which takes
 * ownership of the fields.
 */
struct synth_def {
	char			*name;
	unsigned int		n_fields;
	struct synth_field	*fields[SYNTH_FIELDS_MAX];
};

/**
 * enum synth_err_type - definition errors reported through error_log
 * @SYNTH_ERR_BAD_NAME: event or field name is not an identifier
 * @SYNTH_ERR_INVALID_CMD: command is not "<name> field[;field] ..."
 * @SYNTH_ERR_INVALID_DYN_CMD: malformed "s:" or "-:" dynamic_events line
 * @SYNTH_ERR_EVENT_EXISTS: an event of that name exists already
 * @SYNTH_ERR_TOO_MANY_FIELDS: more than SYNTH_FIELDS_MAX fields
 * @SYNTH_ERR_INCOMPLETE_TYPE: "unsigned" not followed by type and name
 * @SYNTH_ERR_INVALID_TYPE: unknown field type
 * @SYNTH_ERR_INVALID_FIELD: field lacks a type or a name
 * @SYNTH_ERR_INVALID_ARRAY_SPEC: malformed or out of range "[N]"
 */
enum synth_err_type {
	SYNTH_ERR_BAD_NAME,
	SYNTH_ERR_INVALID_CMD,
	SYNTH_ERR_INVALID_DYN_CMD,
	SYNTH_ERR_EVENT_EXISTS,
	SYNTH_ERR_TOO_MANY_FIELDS,
	SYNTH_ERR_INCOMPLETE_TYPE,
	SYNTH_ERR_INVALID_TYPE,
	SYNTH_ERR_INVALID_FIELD,
	SYNTH_ERR_INVALID_ARRAY_SPEC,
};

/**
 * struct synth_err - position and kind of a definition syntax error
 * @type: index into the synthetic events error strings
 * @pos: caret position in the command that was parsed
 */
struct synth_err {
	u8	type;
	u16	pos;
};

/**
 * struct synth_event - a synthetic event
 * @devent: dynamic event list linkage (protected by event_mutex)
 * @name: event name
 * @n_fields: number of fields
 * @fields: field array, @n_fields entries
 * @has_dynamic: at least one "char[]" or stack field is present
 * @needs_clear: the fixed part has bytes the field values do not cover
 *	(padding, string rests, __data_loc slots): cleared per record
 * @fixed_size: size of the record without the dynamic tail
 * @ref: references taken with synth_event_find_get(), event_mutex
 * @n_enabled: number of trace_event_files with the event enabled
 * @files: RCU list of the enabled trace_event_files
 * @perf_on: perf events are registered on @call (set under event_mutex
 *	with a release, read by the emitter with an acquire)
 * @mod: owning module or NULL; the event goes away with the module
 * @class: event class (system "synthetic")
 * @call: the trace event registered with the tracing core
 * @fields_array: field table handed to the tracing core
 */
struct synth_event {
	struct dyn_event		devent;
	char				*name;
	unsigned int			n_fields;
	struct synth_field		**fields;
	bool				has_dynamic;
	bool				needs_clear;
	unsigned int			fixed_size;
	int				ref;
	unsigned int			n_enabled;
	struct list_head		files;
	bool				perf_on;
	struct module			*mod;
	struct trace_event_class	class;
	struct trace_event_call		call;
	struct trace_event_fields	*fields_array;
};

/*
 * Layout of a synthetic event record.  Slots are eight bytes wide; see
 * &struct synth_field for how fields map onto them.  The variable part
 * (strings and stacks of "[]" fields) follows the last slot.
 */
struct synth_trace_event {
	struct trace_entry		ent;
	union trace_synth_field		fields[];
};

/* ---- Definition parsing (trace_synth_parse.c) ---- */

int synth_parse_def(const char *cmd, unsigned int start, bool need_fields,
		    struct synth_def **pdef, struct synth_err *err);
void synth_def_free(struct synth_def *def);
void synth_field_free(struct synth_field *field);
void synth_fields_free(struct synth_field **fields, unsigned int n);
void synth_log_err(const char *cmd, const struct synth_err *err);

/* ---- Interface for other tracing code (trace_events_synth.c) ---- */

int synth_event_create_text(const char *cmd);

/**
 * synth_event_find_get - look up a synthetic event and pin it
 * @name: event name, without the "synthetic/" system prefix
 *
 * The event cannot be removed until the reference is dropped with
 * synth_event_put(); removal attempts fail with -EBUSY meanwhile.
 *
 * Context: Process context, caller holds event_mutex.
 * Return: the event, or NULL if no synthetic event has that name.
 */
struct synth_event *synth_event_find_get(const char *name);

/**
 * synth_event_put - drop a reference taken by synth_event_find_get()
 * @event: the event, may be NULL
 *
 * Context: Process context, caller holds event_mutex.
 */
void synth_event_put(struct synth_event *event);

/**
 * synth_event_is_busy - tell whether an event may not be removed now
 * @event: the event
 *
 * An event is busy while it is enabled in any trace instance, while
 * references from synth_event_find_get() exist, or while tracefs or
 * trace_get_event_file() users hold the underlying trace event.
 *
 * Context: Caller holds event_mutex.
 * Return: true if the event is busy.
 */
bool synth_event_is_busy(struct synth_event *event);

/**
 * synth_event_emit - record one instance of a synthetic event
 * @event: the event (pinned by the caller)
 * @file: an event file of @event in some trace instance
 * @vals: one value per field, in field order; numbers are passed by
 *	value, "char[N]" and "char[]" fields as (u64)(unsigned long)
 *	pointers to kernel strings, stack fields as a pointer to an array
 *	of return addresses ending at the first zero or after
 *	HIST_STACKTRACE_DEPTH entries
 * @n_vals: number of entries in @vals, must equal the field count
 *
 * Nothing is recorded (and 0 returned) if @file is disabled, soft
 * disabled, filtered out by pid or the ring buffer is off.
 *
 * A "char[]" string keeps at most SYNTH_STR_LEN_MAX - 1 characters, a
 * "char[N]" one N - 1.  The strings and stacks may be changed by other
 * CPUs meanwhile: each is measured once and exactly that many bytes are
 * reserved and copied, so the record is consistent (if possibly a mix of
 * old and new characters) and never overrun.
 *
 * Context: Any context, including NMI; does not sleep or take locks.
 * Return: 0 or -EINVAL if @file does not belong to @event or @n_vals is
 * wrong.
 */
int synth_event_emit(struct synth_event *event, struct trace_event_file *file,
		     const u64 *vals, unsigned int n_vals);

/**
 * synth_event_emit_all - record an event in every instance enabling it
 * @event: the event (pinned by the caller)
 * @vals: values as for synth_event_emit()
 * @n_vals: number of values
 *
 * Context: Any context with preemption disabled (a trigger's); does not
 * sleep or take locks.
 */
void synth_event_emit_all(struct synth_event *event, const u64 *vals,
			  unsigned int n_vals);

/**
 * synth_event_from_file - map a trace event file to its synthetic event
 * @file: the event file
 *
 * Return: the synthetic event, or NULL if @file is not a synthetic event.
 */
struct synth_event *synth_event_from_file(struct trace_event_file *file);

/**
 * synth_event_field_index - find a field of an event by name
 * @event: the event
 * @name: field name
 *
 * Return: the field index, or -ENOENT.
 */
int synth_event_field_index(struct synth_event *event, const char *name);

#endif /* _KERNEL_TRACE_SYNTH_H */
