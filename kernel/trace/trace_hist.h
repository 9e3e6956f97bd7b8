/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interface of the hist trigger code, in sections by concept:
 * the trigger text, fields, one histogram, variables, actions, the hot
 * path, and the views.  The files, from the top down:
 *
 *   trace_events_hist.c  the "hist", "enable_hist" and "disable_hist"
 *                        commands: matching, registration, removal,
 *                        helper histograms' triggers, the files and
 *                        poll(), hist_kernel_*(); the only file that
 *                        knows the trigger core
 *   trace_hist_build.c   trigger text -> struct hist_data: values,
 *                        variables, keys, sort criteria, actions, the
 *                        map or the named table; freeing it
 *   trace_hist_vars.c    variables, $references, field variables; the
 *                        helper histograms these need are made and freed
 *                        through &hist_data.ops, by the trigger layer
 *   trace_hist_actions.c binding onmatch()/onmax()/onchange() clauses
 *   trace_hist_fields.c  hist_spec items -> struct hist_field trees bound
 *                        to one event (field lookup, modifiers, types,
 *                        arithmetic)
 *   trace_hist_parse.c   trigger text -> struct hist_spec (no event
 *                        knowledge; KUnit-tested); error_log entries
 *   trace_hist_run.c     the event hot path: build the key, find the map
 *                        element, add the values, run the actions
 *   trace_hist_output.c  the canonical trigger text and the "hist" file,
 *                        actions included
 *   trace_hist_debug.c   the "hist_debug" file, actions included
 *   trace_hist_json.c    the "hist.json" file, actions included
 */
#ifndef _KERNEL_TRACE_TRACE_HIST_H
#define _KERNEL_TRACE_TRACE_HIST_H

#include <linux/math64.h>
#include <linux/types.h>
#include "trace.h"
#include "tracing_map.h"
#include "trace_synth.h"

/*
 * Limits.  Everything that bounds a histogram is here; the map limits come
 * from tracing_map.h.
 */
#define HIST_KEYS_MAX		TRACING_MAP_KEYS_MAX	/* parts of a compound key */
#define HIST_VALS_MAX		TRACING_MAP_VALS_MAX	/* values, hitcount included */
#define HIST_VARS_MAX		TRACING_MAP_VARS_MAX	/* variables per trigger */
#define HIST_SORT_KEYS_MAX	TRACING_MAP_SORT_KEYS_MAX
/* the default of trace_events_hist.sort_keys, as the selftests need */
#define HIST_SORT_KEYS_DEFAULT	2
#define HIST_ACTIONS_MAX	8	/* handler.action() clauses kept per trigger */
#define HIST_FIELDS_MAX		(HIST_KEYS_MAX + HIST_VALS_MAX + HIST_VARS_MAX)
#define HIST_EXPR_DEPTH_MAX	3	/* nesting of operators in one value */
#define HIST_STR_MAX		MAX_FILTER_STR_VAL	/* bytes of a string key */
/*
 * Bytes of the compound key, checked when a trigger is created: one
 * string and one stack, so a key may have both.  The per-CPU key
 * buffers and the snapshot's copy of the key are this big.
 */
#define HIST_KEY_SIZE_MAX	(HIST_STR_MAX + HIST_STACKTRACE_SIZE)
#define HIST_KEY_NEST_MAX	4	/* task, softirq, hardirq, NMI */
#define HIST_GRAPH_WIDTH	20	/* characters of a .graph bar */
#define HIST_VAR_REFS_MAX	TRACING_MAP_VARS_MAX	/* distinct $refs per trigger */
#define HIST_PARAMS_MAX		SYNTH_FIELDS_MAX	/* parameters of one action */
/* bytes kept per element for one string or stack variable */
#define HIST_VAR_STR_SIZE	max_t(unsigned int, HIST_STR_MAX + 8, \
				      HIST_STACKTRACE_SIZE)

/* ---- the trigger text and its errors (trace_hist_parse.c) ---- */

/*
 * enum hist_err - what went wrong; each has the message error_log shows
 * (hist_err_text[]).
 */
enum hist_err {
	HIST_ERR_NONE,
	HIST_ERR_EMPTY_ASSIGNMENT,
	HIST_ERR_FIELD_NOT_FOUND,
	HIST_ERR_BAD_FIELD_MODIFIER,
	HIST_ERR_INVALID_SORT_FIELD,
	HIST_ERR_BAD_SORT_MODIFIER,
	HIST_ERR_EMPTY_SORT_FIELD,
	HIST_ERR_TOO_MANY_SORT_FIELDS,
	HIST_ERR_DIVISION_BY_ZERO,
	HIST_ERR_STRING_OPERAND,
	HIST_ERR_TOO_MANY_SUBEXPR,
	HIST_ERR_UNARY_MINUS_SUBEXPR,
	HIST_ERR_EXPECT_NUMBER,
	HIST_ERR_VAR_NOT_FOUND,
	HIST_ERR_VAR_REDEFINED,
	HIST_ERR_NEXIST_TRIGGER,
	HIST_ERR_NEED_NOHC_VAL,
	HIST_ERR_NAMED_MISMATCH,
	HIST_ERR_TRIGGER_EEXIST,
	HIST_ERR_ONX_NOT_VAR,
	HIST_ERR_TOO_MANY_VARS,
	HIST_ERR_VAR_NOT_UNIQUE,
	HIST_ERR_TOO_MANY_FIELD_VARS,
	HIST_ERR_EVENT_FILE_NOT_FOUND,
	HIST_ERR_HIST_NOT_FOUND,
	HIST_ERR_HIST_CREATE_FAIL,
	HIST_ERR_SYNTH_VAR_NOT_FOUND,
	HIST_ERR_SYNTH_EVENT_NOT_FOUND,
	HIST_ERR_SYNTH_TYPE_MISMATCH,
	HIST_ERR_SYNTH_COUNT_MISMATCH,
	HIST_ERR_FIELD_VAR_PARSE_FAIL,
	HIST_ERR_VAR_CREATE_FIND_FAIL,
	HIST_ERR_ONX_VAR_NOT_FOUND,
	HIST_ERR_ONX_VAR_CREATE_FAIL,
	HIST_ERR_FIELD_VAR_CREATE_FAIL,
	HIST_ERR_TOO_MANY_PARAMS,
	HIST_ERR_PARAM_NOT_FOUND,
	HIST_ERR_INVALID_PARAM,
	HIST_ERR_ACTION_NOT_FOUND,
	HIST_ERR_NO_SAVE_PARAMS,
	HIST_ERR_TOO_MANY_SAVE_ACTIONS,
	HIST_ERR_ACTION_MISMATCH,
	HIST_ERR_NO_CLOSING_PAREN,
	HIST_ERR_SUBSYS_NOT_FOUND,
	HIST_ERR_INVALID_SUBSYS_EVENT,
	HIST_ERR_INVALID_REF_KEY,
	HIST_ERR_TIMESTAMP_MISMATCH,
	HIST_ERR_SET_CLOCK_FAIL,
	HIST_ERR_MALFORMED_ASSIGNMENT,
	/* limits and malformed texts, so these rejections say why too */
	HIST_ERR_KEY_TOO_LARGE,
	HIST_ERR_MISSING_KEYS,
	HIST_ERR_TOO_MANY_KEYS,
	HIST_ERR_TOO_MANY_VALS,
	HIST_ERR_BAD_SIZE,
	HIST_ERR_UNKNOWN_ATTR,
	HIST_ERR_MISSING_VAR_NAME,
	HIST_ERR_TOO_MANY_ACTIONS,
	HIST_ERR_TOO_MANY_FIELDS,
	HIST_ERR_UNARY_MINUS_PARENS,
	HIST_ERR_MISSING_OPERAND,
	HIST_ERR_QUANT_TOO_LARGE,
	HIST_ERR_TOO_MANY_SORT_FIELDS3,
	HIST_ERR_TOO_MANY_SORT_FIELDS4,
	HIST_ERR_MAX
};

extern const char *const hist_err_text[HIST_ERR_MAX];

/**
 * struct hist_spec_item - one piece of the trigger text
 * @str: the text, NUL-terminated, inside &hist_spec.buf
 * @name: for a variable assignment, the variable name; else NULL
 */
struct hist_spec_item {
	char *str;
	char *name;
};

/**
 * struct hist_spec_sort - one sort= criterion
 * @name: the field name as written, without modifier
 * @mod: the modifier as written, without the dot ("ascending",
 *	"descending" or anything else, rejected later), or NULL
 * @descending: ".descending" was given
 */
struct hist_spec_sort {
	char *name;
	char *mod;
	bool descending;
};

/**
 * struct hist_spec - a parsed hist trigger, before it meets an event
 * @buf: private copy of the text, cut into items; the strings below
 *	point into it
 * @sec_buf: second copy, cut into whole sections only (error texts)
 * @keys: the key expressions in order
 * @n_keys: number of @keys
 * @vals: the value expressions in order, as written (hitcount may or may
 *	not be among them)
 * @n_vals: number of @vals
 * @vars: variable assignments name=expr, in order
 * @n_vars: number of @vars
 * @sort: sort criteria; @n_sort == 0 means "not given"
 * @n_sort: number of @sort
 * @actions: handler.action() clauses, kept as text
 * @n_actions: number of @actions
 * @name: name= of a shared histogram, or NULL
 * @name_str: the whole "name=..." section, for error carets
 * @clock: clock= or NULL
 * @map_bits: log2 of size=, 0 if not given
 * @pause: "pause" was given
 * @cont: "cont" or "continue" was given
 * @clear: "clear" was given
 * @nohitcount: "nohitcount" or "NOHC" was given
 * @keys_str: the whole "keys=..." section, for error carets
 * @vals_str: the whole "vals=..." section
 * @sort_str: the whole "sort=..." section
 * @keys_overflow: more keys were given than @keys holds
 * @vals_overflow: more values were given than @vals holds
 * @sort_overflow: more sort criteria were given than @sort holds
 * @err: on failure, what went wrong
 * @err_str: on failure, the text the error points at (NULL: start)
 *
 * Limits and sort criteria are checked when the fields are created, in
 * a fixed order (values, variables, keys, then sort criteria): it
 * decides which error a text with several errors reports (the error_log
 * ABI).
 */
struct hist_spec {
	char			*buf;
	char			*sec_buf;
	struct hist_spec_item	keys[HIST_KEYS_MAX];
	unsigned int		n_keys;
	struct hist_spec_item	vals[HIST_VALS_MAX];
	unsigned int		n_vals;
	struct hist_spec_item	vars[HIST_VARS_MAX];
	unsigned int		n_vars;
	struct hist_spec_sort	sort[HIST_SORT_KEYS_MAX];
	unsigned int		n_sort;
	struct hist_spec_item	actions[HIST_ACTIONS_MAX];
	unsigned int		n_actions;
	char			*name;
	const char		*name_str;
	char			*clock;
	unsigned int		map_bits;
	bool			pause;
	bool			cont;
	bool			clear;
	bool			nohitcount;
	const char		*keys_str;
	const char		*vals_str;
	const char		*sort_str;
	bool			keys_overflow;
	bool			vals_overflow;
	bool			sort_overflow;
	enum hist_err		err;
	const char		*err_str;
};

int hist_spec_parse(const char *text, struct hist_spec *spec);
void hist_spec_free(struct hist_spec *spec);

/* ---- fields and expressions bound to an event (trace_hist_fields.c) ---- */

/*
 * Field flags.  hist_debug prints their names, which its readers know:
 * keep the names and meanings.
 */
#define HIST_FIELD_FL_HITCOUNT		BIT(0)
#define HIST_FIELD_FL_KEY		BIT(1)
#define HIST_FIELD_FL_STRING		BIT(2)
#define HIST_FIELD_FL_HEX		BIT(3)
#define HIST_FIELD_FL_SYM		BIT(4)
#define HIST_FIELD_FL_SYM_OFFSET	BIT(5)
#define HIST_FIELD_FL_EXECNAME		BIT(6)
#define HIST_FIELD_FL_SYSCALL		BIT(7)
#define HIST_FIELD_FL_STACKTRACE	BIT(8)
#define HIST_FIELD_FL_LOG2		BIT(9)
#define HIST_FIELD_FL_TIMESTAMP		BIT(10)
#define HIST_FIELD_FL_TIMESTAMP_USECS	BIT(11)
#define HIST_FIELD_FL_VAR		BIT(12)
#define HIST_FIELD_FL_EXPR		BIT(13)
#define HIST_FIELD_FL_VAR_REF		BIT(14)
#define HIST_FIELD_FL_CPU		BIT(15)
#define HIST_FIELD_FL_ALIAS		BIT(16)
#define HIST_FIELD_FL_BUCKET		BIT(17)
#define HIST_FIELD_FL_CONST		BIT(18)
#define HIST_FIELD_FL_PERCENT		BIT(19)
#define HIST_FIELD_FL_GRAPH		BIT(20)
#define HIST_FIELD_FL_COMM		BIT(21)
/* what a value keeps besides the sum, ".min", ".max", ".avg" */
#define HIST_FIELD_FL_MIN		BIT(22)
#define HIST_FIELD_FL_MAX		BIT(23)
#define HIST_FIELD_FL_AVG		BIT(24)
/* ".quantiles", a maximum and buckets (tracing_map_add_quant_field()) */
#define HIST_FIELD_FL_QUANT		BIT(25)
#define HIST_FIELD_FL_AGG	(HIST_FIELD_FL_MIN | HIST_FIELD_FL_MAX | \
				 HIST_FIELD_FL_AVG | HIST_FIELD_FL_QUANT)

/* Modifiers that only change how a value is printed. */
#define HIST_FIELD_FL_DISPLAY	(HIST_FIELD_FL_HEX | HIST_FIELD_FL_SYM | \
				 HIST_FIELD_FL_SYM_OFFSET | \
				 HIST_FIELD_FL_EXECNAME | \
				 HIST_FIELD_FL_SYSCALL | \
				 HIST_FIELD_FL_PERCENT | HIST_FIELD_FL_GRAPH)

/*
 * enum hist_kind - how the hot path computes a field; one switch case each
 * (field_value() in trace_hist_run.c).
 */
enum hist_kind {
	HIST_KIND_HITCOUNT,
	HIST_KIND_CONST,
	HIST_KIND_S8,
	HIST_KIND_U8,
	HIST_KIND_S16,
	HIST_KIND_U16,
	HIST_KIND_S32,
	HIST_KIND_U32,
	HIST_KIND_U64,
	HIST_KIND_STR_FIXED,	/* char[N] inside the record */
	HIST_KIND_STR_DYN,	/* __data_loc char[] */
	HIST_KIND_STR_RELDYN,	/* __rel_loc char[] */
	HIST_KIND_STACK_FIELD,	/* __data_loc unsigned long[] */
	HIST_KIND_TIMESTAMP,
	HIST_KIND_CPU,
	HIST_KIND_STACKTRACE,	/* stack of the current context */
	HIST_KIND_PLUS,
	HIST_KIND_MINUS,
	HIST_KIND_MULT,
	HIST_KIND_DIV,
	HIST_KIND_NEG,
	HIST_KIND_VAR_REF,	/* a variable, resolved before the update */
	HIST_KIND_EXECNAME,	/* comm of the current task (.execname var) */
	HIST_KIND_COMM,		/* common_comm: current->comm, as it is */
};

/**
 * struct hist_field - one key, value, variable or operand
 * @kind: what the hot path does
 * @flags: HIST_FIELD_FL_* (role and modifiers)
 * @event_field: the event field read, if any
 * @offset: byte offset of that field in the record
 * @size: size of the computed value in bytes (of the key part for keys)
 * @is_signed: the value is signed (sign-extended to 64 bits)
 * @type: C type name, as shown by hist_debug
 * @name: the event field's name, if any
 * @text: canonical trigger syntax of the whole tree (roots only)
 * @var_name: for a variable, its name
 * @var_idx: for a variable, its tracing_map variable index
 * @buckets: bucket width for .buckets=N
 * @bucket_lo: for .buckets=N@LO~HI, the first bucket; values below it
 *	are all one key, @bucket_lo - 1
 * @bucket_hi: and the end of the last one; values from it up are all
 *	the key @bucket_hi.  Zero without a range.
 * @constant: value of a numeric literal
 * @div_shift: for a division by a power of two literal, the shift
 * @div_mult: for a division by another literal, see hist_div_literal()
 * @operands: operands of an operator (one for negation)
 * @map_idx: the tracing_map field index of a key or value
 * @key_offset: byte offset of a key part in the compound key
 * @key_size: bytes the key part takes (zero-padded, 8-byte multiple)
 * @var_hd: for a reference, the histogram defining the variable
 * @own_var: for a reference, @var_hd is the histogram of the reference
 * @var_ref_idx: for a reference, its slot in &hist_data.var_refs and in
 *	the array of resolved values; for an alias, the slot it copies
 * @read_once: a reference consumed by reading it (used in an expression)
 * @system: for a qualified reference "system.event.$name", the system
 * @event_name: and the event
 * @elt_slot: for a string or stack variable, its per-element copy
 * @var_flags: for a reference, the timestamp flags of the variable
 * @ts_usecs: a common_timestamp leaf converted to microseconds, set by
 *	hist_timestamps_bind() when the trigger is registered
 * @expr: for the root of an expression, its compiled form (owned; NULL
 *	if not compiled, then the tree is walked), see hist_expr_compile()
 */
struct hist_field {
	enum hist_kind			kind;
	unsigned long			flags;
	struct ftrace_event_field	*event_field;
	unsigned int			offset;
	unsigned int			size;
	bool				is_signed;
	const char			*type;
	char				*name;
	char				*text;
	char				*var_name;
	int				var_idx;
	u64				buckets;
	u64				bucket_lo;
	u64				bucket_hi;
	u64				constant;
	int				div_shift;
	u64				div_mult;
	struct hist_field		*operands[2];
	unsigned int			map_idx;
	unsigned int			key_offset;
	unsigned int			key_size;
	struct hist_data		*var_hd;
	bool				own_var;
	unsigned int			var_ref_idx;
	bool				read_once;
	char				*system;
	char				*event_name;
	int				elt_slot;
	unsigned long			var_flags;
	bool				ts_usecs;
	struct hist_expr		*expr;
};

/* The most steps of a compiled expression: HIST_EXPR_DEPTH_MAX binary
 * operators and their operands.
 */
#define HIST_EXPR_INSNS_MAX	(2 * HIST_EXPR_DEPTH_MAX + 1)

/*
 * Steps of a compiled expression.  The PUSH ones push a value: a record
 * field of each width (no modifier), a literal, a resolved reference, the
 * timestamp, or any other leaf through hist_run_value().  The operators
 * replace the two top values (one for NEG) by the result; the _K forms
 * take their right operand, a literal, from the step instead.
 */
enum hist_op {
	HIST_OP_PUSH_S8,
	HIST_OP_PUSH_U8,
	HIST_OP_PUSH_S16,
	HIST_OP_PUSH_U16,
	HIST_OP_PUSH_S32,
	HIST_OP_PUSH_U32,
	HIST_OP_PUSH_U64,
	HIST_OP_PUSH_CONST,
	HIST_OP_PUSH_REF,
	HIST_OP_PUSH_TS,
	HIST_OP_PUSH_LEAF,
	HIST_OP_ADD,
	HIST_OP_SUB,
	HIST_OP_MUL,
	HIST_OP_DIV,
	HIST_OP_NEG,
	HIST_OP_ADD_K,
	HIST_OP_SUB_K,
	HIST_OP_MUL_K,
	HIST_OP_DIV_K,
};

/**
 * struct hist_insn - one step of a compiled expression
 * @op: what it does (enum hist_op)
 * @offset: for a record field, its offset in the record
 * @k: the literal of PUSH_CONST and of the _K operators
 * @f: the node: operator (for division), timestamp, reference or leaf
 */
struct hist_insn {
	u8				op;
	u16				offset;
	u64				k;
	struct hist_field		*f;
};

/**
 * struct hist_expr - an expression tree in postfix order
 * @n: steps
 * @insn: the steps, evaluated on a stack of at most HIST_EXPR_DEPTH_MAX
 *	+ 1 values
 */
struct hist_expr {
	unsigned int			n;
	struct hist_insn		insn[];
};

void hist_expr_compile(struct hist_field *f);

const char *hist_field_agg_name(unsigned long flags);
enum tracing_map_agg hist_field_map_agg(const struct hist_field *f);
unsigned long hist_agg_flag(const char *name);

/**
 * struct hist_field_err - why field construction failed
 * @n: number of error_log entries to make (0: fail silently)
 * @err: what went wrong, in logging order
 * @str: the text each error points at; NULL for the start of the command
 */
struct hist_field_err {
	unsigned int	n;
	enum hist_err	err[2];
	const char	*str[2];
};

struct hist_data;
struct hist_data_ops;

/**
 * struct hist_cmd - one hist command being run: what building its
 *	histogram depends on besides the text, and where its errors go
 * @file: the event file written to
 * @text: "hist:..." as written, for error_log
 * @lookup_only: the histogram is built to find an existing trigger (a
 *	"!hist" removal): it creates nothing elsewhere
 * @quant_err: the first ".quantiles" value beyond the memory bound, as
 *	written; refused only if the histogram makes its own map (owned)
 * @match_file: while an onmatch() parameter is resolved, the matching
 *	event, searched for variables before the others
 * @sort_keys_max: the sort criteria a trigger may have (the sort_keys
 *	parameter of trace_events_hist.c, read once per command)
 * @ops: how helper histograms are made and histograms released
 * @owner: the cookie of hist_kernel_add() for a trigger the kernel makes,
 *	else NULL
 *
 * It lives on the stack of the command and is reached from the
 * histogram through &hist_data.cmd while the histogram is built and
 * registered.
 */
struct hist_cmd {
	struct trace_event_file	*file;
	char			*text;
	bool			lookup_only;
	char			*quant_err;
	struct trace_event_file	*match_file;
	unsigned int		sort_keys_max;
	const struct hist_data_ops *ops;
	const void		*owner;
};

/* error_log entries of hist commands (trace_hist_parse.c) */
void hist_cmd_log(struct hist_cmd *cmd, enum hist_err err, const char *str);
void hist_log(struct hist_data *hd, enum hist_err err, const char *str);

/* What a field is created for. */
enum hist_role {
	HIST_ROLE_VAL,
	HIST_ROLE_KEY,
	HIST_ROLE_VAR,
};

struct hist_field *hist_field_create(struct hist_data *hd,
				     struct trace_event_call *call,
				     char *text, enum hist_role role,
				     struct hist_field_err *err);
struct hist_field *hist_field_of_event(struct trace_event_call *call,
				       const char *name);
struct hist_field *hist_field_hitcount(void);
void hist_field_destroy(struct hist_field *field);
bool hist_field_same(const struct hist_field *a, const struct hist_field *b);
void hist_timestamps_bind(struct hist_data *hd, struct trace_array *tr);
bool hist_field_is_string(const struct hist_field *field);
const char *hist_field_plain_name(const struct hist_field *field);
void hist_field_print(struct seq_file *m, const struct hist_field *field);

/* ---- one histogram: struct hist_data ---- */

struct hist_action;
struct hist_named;

/**
 * struct hist_fast_field - a field as the fast path reads it
 * @offset: byte offset in the record
 * @kind: HIST_KIND_HITCOUNT, a numeric record field kind or (keys)
 *	HIST_KIND_CPU
 * @log2: the .log2 modifier (keys)
 * @bucket: the .buckets= modifier (keys; its size is the field's)
 * @agg: what the map field keeps, enum tracing_map_agg (values)
 * @quant: a ".quantiles" value: its buckets count it too
 */
struct hist_fast_field {
	u16				offset;
	u8				kind;
	u8				log2:1;
	u8				bucket:1;
	u8				agg:3;
	u8				quant:1;
};

/*
 * Histograms with more key parts or values than these take the full path:
 * with them, &hist_data.map and the fast path share the first cache line
 * of struct hist_data.
 */
#define HIST_FAST_KEYS_MAX	4
#define HIST_FAST_VALS_MAX	8

/**
 * struct hist_fast - what hist_fast_update() needs, in one cache line
 * @n_keys: key parts, each a u64 of the key in order; 0 when some key
 *	part is a bucket or the CPU (hist_fast_keys_special() makes the key)
 * @n_vals: values, sum field i of the map for value i
 * @n_vars: numeric variables, &hist_data.fields after the values
 * @quants: some value is ".quantiles" (hist_fast_quants() runs)
 * @keys: the key parts
 * @vals: the values, hitcount first
 */
struct hist_fast {
	u8				n_keys;
	u8				n_vals;
	u8				n_vars;
	u8				quants;
	struct hist_fast_field		keys[HIST_FAST_KEYS_MAX];
	struct hist_fast_field		vals[HIST_FAST_VALS_MAX];
};

/**
 * struct hist_named - the table behind the triggers of one name=
 * @list: entry in named_hists
 * @sharers: the histograms aggregating into @map (&hist_data.named_list)
 * @map: the map they share; it goes with the last sharer
 *
 * Every trigger of a named table has its own struct hist_data, bound to
 * its own event (fields, offsets, actions, trace instance); only the map
 * is shared.  So nothing a sharer does depends on the event file of the
 * trigger that happened to create the table.
 */
struct hist_named {
	struct list_head	list;
	struct list_head	sharers;
	struct tracing_map	*map;
};

/**
 * struct hist_data_ops - what the layer owning a histogram's trigger
 *	does for the code below it
 * @helper_create: put a helper histogram, the trigger text @text, on
 *	@file for a field variable of @owner; return it (a reference is not
 *	taken for @owner) or an error pointer
 * @helper_drop: remove the trigger of a helper nobody refers to any more
 * @put: drop a reference to a histogram; the last one frees it
 * @removing_instance: whether triggers are being freed with their
 *	instance: a helper's trigger is then not removed by the histogram
 *	that releases it (the instance frees it)
 *
 * Variables hold references on other histograms and make helper
 * histograms (trace_hist_vars.c); making, removing and freeing a
 * histogram with a trigger is the trigger layer's (trace_events_hist.c),
 * which hands these in through &hist_data.ops.
 *
 * Context: event_mutex held, for each of them.
 */
struct hist_data_ops {
	struct hist_data *(*helper_create)(struct hist_data *owner,
					   struct trace_event_file *file,
					   const char *text);
	void (*helper_drop)(struct hist_data *helper);
	void (*put)(struct hist_data *hd);
	bool (*removing_instance)(void);
};

/**
 * struct hist_data - a histogram bound to an event file
 * @frozen: inserts and lookups are off while the map is cleared (read
 *	by the hot path)
 * @fast_path: every event takes hist_fast_update() (hist_fast_prepare())
 * @fast: its description of the keys and values
 * @map: the table (shared with the other triggers of a name=)
 * @fields: values (hitcount first), then variables, then keys
 * @n_vals: values, hitcount included
 * @n_vars: variables
 * @n_keys: keys
 * @n_fields: all of the above
 * @key_size: bytes of the compound key
 * @sort_keys: resolved sort criteria (tracing_map field indexes)
 * @sort_fields: the field each criterion sorts on
 * @n_sort_keys: number of @sort_keys
 * @show_hitcount: hitcount is printed (not "nohitcount")
 * @uses_timestamps: some field reads common_timestamp
 * @uses_stack: some field is the stack of the event (common_stacktrace)
 * @ts_usecs: every common_timestamp of the histogram is in microseconds:
 *	one of them has .usecs and the trace clock counts nanoseconds (see
 *	hist_timestamps_bind())
 * @clock: the clock to switch the buffer to, if timestamps are used
 * @event_file: the event this histogram is attached to; NULL once its
 *	trigger is gone
 * @trigger: the trigger aggregating into this histogram; NULL once freed
 * @spec: the parsed trigger (kept for action text and re-printing)
 * @refs: references: the trigger's, plus one per reference from another
 *	histogram to one of our variables and one per use as a helper; the
 *	last one frees
 * @ops: how to make helpers and release histograms (hist_data_ops)
 * @named: for name=, the table shared with the other triggers of that name
 * @named_list: entry in &hist_named.sharers
 * @armed: hist_arm() succeeded and hist_disarm() has not run yet
 * @var_refs: distinct variable references, indexed by var_ref_idx (owned)
 * @n_var_refs: number of @var_refs
 * @field_vars: variables made for event fields passed to trace() (owned)
 * @n_field_vars: number of @field_vars
 * @save_vars: variables made for the fields of save() (owned)
 * @n_save_vars: number of @save_vars
 * @actions: handler.action() clauses (owned)
 * @n_actions: number of @actions
 * @n_map_vars: tracing_map variables used, all kinds
 * @n_elt_slots: string and stack copies kept per map element
 * @referrers: references to our variables from other histograms
 * @helpers: histograms created on other events for field variables (a
 *	reference held on each)
 * @n_helpers: number of @helpers
 * @is_helper: this histogram was created for a field variable
 * @cmd: while the histogram is built and registered, the command (its
 *	parameters and error_log); NULL otherwise
 * @owner: the cookie of the hist_kernel_add() caller that made the
 *	trigger, NULL for triggers written to a trigger file
 */
struct hist_data {
	/* read by every event: the gate, the fast path and the map */
	bool				frozen;
	bool				fast_path;
	struct hist_fast		fast;
	struct tracing_map		*map;
	struct hist_field		*fields[HIST_FIELDS_MAX];
	unsigned int			n_vals;
	unsigned int			n_vars;
	unsigned int			n_keys;
	unsigned int			n_fields;
	unsigned int			key_size;
	struct tracing_map_sort_key	sort_keys[HIST_SORT_KEYS_MAX];
	struct hist_field		*sort_fields[HIST_SORT_KEYS_MAX];
	unsigned int			n_sort_keys;
	bool				show_hitcount;
	bool				uses_timestamps;
	bool				uses_stack;
	bool				ts_usecs;
	char				*clock;
	struct trace_event_file		*event_file;
	struct event_trigger_data	*trigger;
	struct hist_spec		spec;
	unsigned int			refs;
	const struct hist_data_ops	*ops;
	struct hist_named		*named;
	struct list_head		named_list;
	bool				armed;
	/* inter-event parts: counts first, then the arrays they count */
	unsigned int			n_var_refs;
	unsigned int			n_field_vars;
	unsigned int			n_save_vars;
	unsigned int			n_actions;
	unsigned int			n_helpers;
	unsigned int			n_map_vars;
	unsigned int			n_elt_slots;
	unsigned int			referrers;
	struct hist_field		*var_refs[HIST_VAR_REFS_MAX];
	struct hist_field		*field_vars[HIST_VARS_MAX];
	struct hist_field		*save_vars[HIST_VARS_MAX];
	struct hist_action		*actions[HIST_ACTIONS_MAX];
	struct hist_data		*helpers[HIST_VARS_MAX];
	bool				is_helper;
	struct hist_cmd			*cmd;
	const void			*owner;	/* hist_kernel_add()'s cookie */
};

/*
 * Per-element private data: the comm for .execname keys, then one
 * HIST_VAR_STR_SIZE copy per string or stack variable.
 */
struct hist_elt_data {
	char	comm[TASK_COMM_LEN];
	u8	strs[] __aligned(8);
};

/**
 * hist_elt_comm - the task name an .execname key's entry was created by
 * @elt: the entry; may be NULL
 *
 * Return: the name, "" if none.
 */
static inline const char *hist_elt_comm(struct tracing_map_elt *elt)
{
	struct hist_elt_data *ed;

	if (!elt || !elt->map->data_size)
		return "";
	ed = tracing_map_elt_data(elt);
	return ed->comm;
}

static inline void *hist_elt_slot(struct tracing_map_elt *elt, int slot)
{
	struct hist_elt_data *ed = tracing_map_elt_data(elt);

	return ed->strs + (size_t)slot * HIST_VAR_STR_SIZE;
}

/**
 * hist_elt_hitcount - the hitcount of an entry
 * @hd: the histogram, which must count hits
 * @elt: the entry
 *
 * Return: the number of events counted in @elt.
 */
static inline u64 hist_elt_hitcount(struct hist_data *hd,
				    struct tracing_map_elt *elt)
{
	return tracing_map_read_sum(elt, hd->fields[0]->map_idx);
}

/* Index of the first key in &hist_data.fields. */
static inline unsigned int hist_first_key(const struct hist_data *hd)
{
	return hd->n_vals + hd->n_vars;
}

/*
 * The key of @val under the .buckets modifier of @f: the start of its
 * bucket, or with a range LO~HI, LO - 1 for every value below LO and HI
 * for every value from HI up (compared as unsigned numbers, as buckets
 * are).  Shared by the fast and the full path.
 */
static inline u64 hist_bucket_key(const struct hist_field *f, u64 val)
{
	if (f->bucket_hi) {
		if (val < f->bucket_lo)
			return f->bucket_lo - 1;
		if (val >= f->bucket_hi)
			return f->bucket_hi;
	}
	return div64_u64(val, f->buckets) * f->buckets;
}

/*
 * Whether @key, made by hist_bucket_key(), stands for the values below
 * (negative) or above (positive) @f's range rather than for one bucket
 * (zero).
 */
static inline int hist_bucket_outside(const struct hist_field *f, u64 key)
{
	if (!f->bucket_hi)
		return 0;
	if (key < f->bucket_lo)
		return -1;
	return key >= f->bucket_hi;
}

/*
 * Division by a literal d that is not a power of two: dividends below
 * 2^HIST_DIV_SHIFT are multiplied by floor(2^HIST_DIV_SHIFT / d) and
 * shifted back, rounding up; larger ones are divided exactly.  The
 * approximations are part of the behaviour (120/7 gives 18), so that
 * histograms keyed on such expressions keep the buckets users know.
 */
#define HIST_DIV_SHIFT		20

static inline u64 hist_div_mult(u64 divisor)
{
	return div64_u64(1ULL << HIST_DIV_SHIFT, divisor);
}

static inline u64 hist_div_literal(u64 val, u64 divisor, u64 mult)
{
	if (val >= (1ULL << HIST_DIV_SHIFT))
		return div64_u64(val, divisor);
	return (val * mult + (1ULL << HIST_DIV_SHIFT) - 1) >> HIST_DIV_SHIFT;
}

/*
 * Apply the operator @f to operand values @a and @b (@b unused for a
 * negation).  Shared by the hot path and literal folding, so that both
 * compute exactly the same thing.
 */
static inline u64 hist_apply_op(const struct hist_field *f, u64 a, u64 b)
{
	switch (f->kind) {
	case HIST_KIND_NEG:
		return -a;
	case HIST_KIND_PLUS:
		return a + b;
	case HIST_KIND_MINUS:
		return a - b;
	case HIST_KIND_MULT:
		return a * b;
	default:
		if (f->div_shift >= 0)
			return a >> f->div_shift;
		if (f->div_mult)
			return hist_div_literal(a, b, f->div_mult);
		return b ? div64_u64(a, b) : (u64)-1;
	}
}

/* ---- building and releasing one histogram (trace_hist_build.c) ---- */

struct hist_data *hist_data_create(struct hist_cmd *cmd, char *param);
int hist_data_bind_map(struct hist_cmd *cmd, struct hist_data *hd);
bool hist_data_same(struct hist_data *a, struct hist_data *b);
bool hist_vars_redefined(struct hist_cmd *cmd, struct hist_data *hd);
void hist_data_free(struct hist_data *hd);
void hist_data_put(struct hist_data *hd);

/**
 * hist_data_get - take a reference on a histogram
 * @hd: the histogram; &hist_data_ops.put drops it
 *
 * Context: event_mutex held.
 */
static inline void hist_data_get(struct hist_data *hd)
{
	lockdep_assert_held(&event_mutex);
	hd->refs++;
}

/* ---- variables, references, helper histograms (trace_hist_vars.c) ---- */

struct trace_event_file *hist_find_file(struct trace_array *tr,
					const char *system, const char *event);
struct hist_field *hist_var_ref_create(struct hist_data *hd,
				       const char *system, const char *event,
				       const char *name, bool log);
struct hist_field *hist_find_var(struct hist_data *hd, const char *name);
bool hist_var_defined_elsewhere(struct hist_data *hd, const char *name);
int hist_var_init(struct hist_data *hd, struct hist_field *f,
		  const char *name);
char *hist_split_ref(char *s, char **system, char **event);
struct hist_field *hist_save_ref_create(struct hist_data *hd,
					const char *text);
struct hist_field *hist_field_var_create(struct hist_data *hd,
					 const char *text, bool save);
void hist_vars_release(struct hist_data *hd);
bool hist_data_is_busy(struct hist_data *hd);

/* ---- handlers and actions (bound in trace_hist_actions.c) ---- */

/**
 * enum hist_handler - when an action runs
 * @HIST_ON_MATCH: every update (all references resolved)
 * @HIST_ON_MAX: the watched variable exceeds its per-entry maximum
 * @HIST_ON_CHANGE: the watched variable differs from its last value
 */
enum hist_handler {
	HIST_ON_MATCH,
	HIST_ON_MAX,
	HIST_ON_CHANGE,
};

/**
 * enum hist_act - what an action does
 * @HIST_ACT_TRACE: emit a synthetic event
 * @HIST_ACT_SAVE: keep event fields in the entry
 * @HIST_ACT_SNAPSHOT: take a conditional snapshot of the trace buffer
 */
enum hist_act {
	HIST_ACT_TRACE,
	HIST_ACT_SAVE,
	HIST_ACT_SNAPSHOT,
};

/**
 * struct hist_snapshot - what the last snapshot of a histogram was for
 * @hd: the histogram
 * @action: the snapshot() action
 * @val: the triggering value
 * @taken: a snapshot was taken
 * @comm: the task name of that entry, for an .execname key
 * @key: the key of the entry that triggered it
 */
struct hist_snapshot {
	struct hist_data	*hd;
	struct hist_action	*action;
	u64			val;
	bool			taken;
	char			comm[TASK_COMM_LEN];
	u8			key[HIST_KEY_SIZE_MAX] __aligned(8);
};

/**
 * struct hist_action - one handler.action() clause
 * @handler: when it runs
 * @act: what it does
 * @text: canonical text, for the trigger file and for matching
 * @match_system: onmatch(): system of the matching event
 * @match_event: onmatch(): the matching event
 * @track_ref: onmax()/onchange(): reference to the watched variable
 * @track_var: onmax()/onchange(): the per-entry variable holding the
 *	maximum or last value (owned)
 * @synth: trace(): the synthetic event (pinned)
 * @n_params: trace(): number of parameters
 * @param_refs: trace(): slot of each parameter in the resolved values
 * @snap: snapshot(): what the last snapshot was taken for
 */
struct hist_action {
	enum hist_handler	handler;
	enum hist_act		act;
	char			*text;
	char			*match_system;
	char			*match_event;
	struct hist_field	*track_ref;
	struct hist_field	*track_var;
	struct synth_event	*synth;
	unsigned int		n_params;
	unsigned int		param_refs[HIST_PARAMS_MAX];
	struct hist_snapshot	*snap;
};

/**
 * hist_action_shows_entry - whether an action keeps a line in each entry
 * @hd: the histogram
 * @a: one of its actions
 *
 * onmax() and onchange() keep their value (and what save() saved) in
 * every entry; a snapshot() beside another tracking action adds no line
 * of its own.  The hist file and hist.json show the same lines.
 *
 * Return: true if the entry shows a line for @a.
 */
static inline bool hist_action_shows_entry(const struct hist_data *hd,
					   const struct hist_action *a)
{
	unsigned int i;

	if (a->handler == HIST_ON_MATCH)
		return false;
	if (a->act != HIST_ACT_SNAPSHOT)
		return true;
	for (i = 0; i < hd->n_actions; i++)
		if (hd->actions[i] != a &&
		    hd->actions[i]->handler != HIST_ON_MATCH &&
		    hd->actions[i]->act != HIST_ACT_SNAPSHOT)
			return false;
	return true;
}

int hist_actions_create(struct hist_data *hd);
int hist_actions_check(struct hist_data *hd);
void hist_actions_destroy(struct hist_data *hd);
int hist_actions_register(struct hist_data *hd);
void hist_actions_unregister(struct hist_data *hd);
bool hist_actions_same(struct hist_data *a, struct hist_data *b);

/* ---- the hot path, actions included (trace_hist_run.c) ---- */

/**
 * struct hist_run - one event being aggregated
 * @buffer: the buffer the event was reserved in
 * @rec: the event record
 * @rbe: the ring buffer event (for its timestamp)
 * @refs: resolved variable references, by var_ref_idx
 * @params: room for the values of a trace() action
 * @key: the compound key
 * @elt: the map element of @key
 * @stack: room for a stack trace taken for this event
 * @ts: the event's time stamp in ns, once @have_ts (see timestamp())
 * @have_ts: @ts was read
 */
struct hist_run {
	struct trace_buffer		*buffer;
	void				*rec;
	struct ring_buffer_event	*rbe;
	u64				*refs;
	u64				*params;
	void				*key;
	struct tracing_map_elt		*elt;
	unsigned long			*stack;
	u64				ts;
	bool				have_ts;
};

u64 hist_run_value(struct hist_field *f, struct hist_run *run);
bool hist_snapshot_update(struct trace_array *tr, void *cond_data);

void hist_data_update(struct hist_data *hd, struct trace_buffer *buffer,
		      void *rec, struct ring_buffer_event *rbe);
void hist_fast_prepare(struct hist_data *hd);
void hist_fast_update(struct hist_data *hd, struct trace_buffer *buffer,
		      void *rec, struct ring_buffer_event *rbe);

/* ---- poll() on the hist file (trace_events_hist.c) ---- */

/* Open hist files that have been polled (rarely written). */
extern atomic_t hist_poll_users;

/**
 * hist_poll_notify - wake up hist file pollers after an update
 *
 * Called by the hot path at the end of every histogram update, in any
 * context.  While no hist file is polled, this is one read of a rarely
 * written global: no barrier, no write.  Otherwise pollers waiting on
 * hist_poll_wq are woken up through an irq_work.  Why no poller misses
 * an update is explained in trace_events_hist.c, above struct
 * hist_file_data.
 */
static __always_inline void hist_poll_notify(void)
{
	if (unlikely(atomic_read(&hist_poll_users)))
		hist_poll_wakeup();
}

/* ---- hist triggers made by the kernel (trace_events_hist.c) ---- */

int hist_kernel_add(struct trace_event_file *file, const char *text,
		    const void *owner);
int hist_kernel_remove(struct trace_event_file *file, const void *owner);
int hist_kernel_refilter(struct trace_event_file *file, const void *owner,
			 const char *filter);
int hist_kernel_clear(struct trace_event_file *file, const void *owner);
int hist_kernel_walk(struct trace_event_file *file, const void *owner,
		     void (*fn)(struct hist_data *hd,
				struct tracing_map_elt *elt, void *arg),
		     void *arg);
int hist_kernel_drops(struct trace_event_file *file, const void *owner,
		      u64 *drops);
u64 hist_elt_key(struct hist_data *hd, struct tracing_map_elt *elt,
		 unsigned int i);
u64 hist_elt_tracked(struct hist_data *hd, struct tracing_map_elt *elt,
		     u64 *saved, unsigned int n);

/* ---- the trigger text and the hist file (trace_hist_output.c) ---- */

int hist_trigger_print(struct seq_file *m, struct event_trigger_data *data);
typedef void (*hist_entry_print_fn)(struct seq_file *m, struct hist_data *hd,
				    void *key, struct tracing_map_elt *elt);
size_t hist_size_hint(struct hist_data *hd, hist_entry_print_fn print);
bool hist_read_entry(struct hist_data *hd, struct tracing_map_elt *elt,
		     u64 *vals);
size_t hist_data_size_hint(struct hist_data *hd);
size_t hist_json_size_hint(struct hist_data *hd);
void hist_data_show(struct seq_file *m, struct event_trigger_data *data,
		    unsigned int n);

/* ".quantiles": these, then the maximum */
#define HIST_QUANTILES		4
struct hist_quantile {
	unsigned int	permille;
	const char	*name;
};

extern const struct hist_quantile hist_quantiles[HIST_QUANTILES];
void hist_quantiles_read(struct tracing_map_elt *elt, struct hist_field *f,
			 u64 max, u64 *q);
u64 hist_agg_value(struct hist_field *f, u64 v, u64 hits);

/* ---- the hist_debug file (trace_hist_debug.c) ---- */

void hist_data_show_debug(struct seq_file *m,
			  struct event_trigger_data *data, unsigned int n);

/* ---- the hist.json file (trace_hist_json.c) ---- */

void hist_json_str(struct seq_file *m, const char *s, size_t len);
void hist_json_num(struct seq_file *m, const struct hist_field *f, u64 v);
void hist_json_name(struct seq_file *m, const char *const *names,
		    unsigned int n);
void hist_json_stack(struct seq_file *m, const unsigned long *stack);
int hist_json_show(struct seq_file *m, struct trace_event_file *file);

#endif /* _KERNEL_TRACE_TRACE_HIST_H */
