// SPDX-License-Identifier: GPL-2.0
/*
 * Hist fields: a key or value expression bound to one event.
 *
 * An expression is a tree of struct hist_field.  Leaves read an event
 * field, a special field (hitcount, common_timestamp, common_cpu,
 * common_stacktrace) or hold a numeric literal; inner nodes are the
 * arithmetic operators.  The tree is built here once, at trigger creation,
 * with every type decision taken; the hot path (trace_hist_run.c) only
 * switches on &hist_field.kind.
 *
 * Operators are split at the last '-' or '+'
 * first, then at the last '/' or '*', so that operators of one precedence
 * level apply left to right.  A '-' at the very start is a unary minus,
 * which needs parentheses: "-(expr)".  At most HIST_EXPR_DEPTH_MAX
 * operators are parsed; the one beyond is reported with its text.
 * Operators whose operands are all literals are folded into a literal.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>

#include "trace_hist.h"

struct field_ctx {
	struct hist_data		*hd;
	struct trace_event_call		*call;
	bool				is_key;
	bool				is_var;
	unsigned int			n_ops;
	struct hist_field_err		*err;
};

static int set_text(struct hist_field *f);

static struct hist_field *fail(struct field_ctx *ctx, enum hist_err err,
			       const char *str)
{
	struct hist_field_err *e = ctx->err;

	if (e->n < ARRAY_SIZE(e->err)) {
		e->err[e->n] = err;
		e->str[e->n] = str;
		e->n++;
	}
	return ERR_PTR(-EINVAL);
}

static struct hist_field *new_field(enum hist_kind kind, unsigned long flags)
{
	struct hist_field *f = kzalloc_obj(*f, GFP_KERNEL);

	if (!f)
		return ERR_PTR(-ENOMEM);
	f->kind = kind;
	f->flags = flags;
	f->var_idx = -1;
	f->elt_slot = -1;
	return f;
}

/**
 * hist_field_destroy - free a field tree
 * @field: the root; NULL and error pointers are ignored
 */
void hist_field_destroy(struct hist_field *field)
{
	if (IS_ERR_OR_NULL(field))
		return;
	hist_field_destroy(field->operands[0]);
	hist_field_destroy(field->operands[1]);
	kfree(field->expr);
	kfree(field->name);
	kfree(field->text);
	kfree(field->var_name);
	kfree(field->system);
	kfree(field->event_name);
	kfree(field);
}

/**
 * hist_field_hitcount - the implicit hitcount value every histogram has
 *
 * Return: the field or an error pointer.
 */
struct hist_field *hist_field_hitcount(void)
{
	struct hist_field *f = new_field(HIST_KIND_HITCOUNT,
					 HIST_FIELD_FL_HITCOUNT);

	if (IS_ERR(f))
		return f;
	f->size = sizeof(u64);
	f->type = "u64";
	if (set_text(f)) {
		hist_field_destroy(f);
		return ERR_PTR(-ENOMEM);
	}
	return f;
}

/**
 * hist_field_is_string - whether a field yields a string
 * @field: the field
 *
 * Return: true for string fields and expressions that yield a string.
 */
bool hist_field_is_string(const struct hist_field *field)
{
	return field->flags & HIST_FIELD_FL_STRING;
}

static enum hist_kind numeric_kind(int size, bool is_signed)
{
	switch (size) {
	case 1:
		return is_signed ? HIST_KIND_S8 : HIST_KIND_U8;
	case 2:
		return is_signed ? HIST_KIND_S16 : HIST_KIND_U16;
	case 4:
		return is_signed ? HIST_KIND_S32 : HIST_KIND_U32;
	case 8:
		return HIST_KIND_U64;
	}
	return HIST_KIND_CONST;	/* not a number we can read */
}

/* An event field, by filter type. */
static struct hist_field *event_field(struct field_ctx *ctx,
				      struct ftrace_event_field *ef,
				      const char *name)
{
	struct hist_field *f;
	enum hist_kind kind;
	unsigned long flags = 0;
	unsigned int size = ef->size;

	switch (ef->filter_type) {
	case FILTER_STATIC_STRING:
		kind = HIST_KIND_STR_FIXED;
		flags = HIST_FIELD_FL_STRING;
		break;
	case FILTER_DYN_STRING:
		kind = HIST_KIND_STR_DYN;
		flags = HIST_FIELD_FL_STRING;
		size = HIST_STR_MAX;
		break;
	case FILTER_RDYN_STRING:
		kind = HIST_KIND_STR_RELDYN;
		flags = HIST_FIELD_FL_STRING;
		size = HIST_STR_MAX;
		break;
	case FILTER_STACKTRACE:
		kind = HIST_KIND_STACK_FIELD;
		flags = HIST_FIELD_FL_STACKTRACE;
		size = HIST_STACKTRACE_SIZE;
		break;
	default:
		/*
		 * Everything else is a number, "char *" (FILTER_PTR_STRING)
		 * included: the pointer is the value, the string it points
		 * to is never read.
		 */
		kind = numeric_kind(ef->size, ef->is_signed);
		if (kind == HIST_KIND_CONST)
			return fail(ctx, HIST_ERR_FIELD_NOT_FOUND, name);
		break;
	}

	f = new_field(kind, flags);
	if (IS_ERR(f))
		return f;
	f->event_field = ef;
	f->offset = ef->offset;
	f->size = size;
	f->is_signed = ef->is_signed;
	f->type = ef->type;
	if (kind == HIST_KIND_STACK_FIELD) {
		/* typed like common_stacktrace: what the key holds */
		f->is_signed = false;
		f->type = "unsigned long[]";
	}
	f->name = kstrdup(ef->name, GFP_KERNEL);
	if (!f->name) {
		hist_field_destroy(f);
		return ERR_PTR(-ENOMEM);
	}
	return f;
}

static struct hist_field *special_field(const char *name)
{
	struct hist_field *f;

	if (!strcmp(name, "hitcount"))
		return hist_field_hitcount();

	if (!strcmp(name, "common_timestamp")) {
		f = new_field(HIST_KIND_TIMESTAMP, HIST_FIELD_FL_TIMESTAMP);
		if (!IS_ERR(f)) {
			f->size = sizeof(u64);
			f->type = "u64";
		}
		return f;
	}
	if (!strcmp(name, "common_cpu") || !strcmp(name, "cpu") ||
	    !strcmp(name, "CPU")) {
		f = new_field(HIST_KIND_CPU, HIST_FIELD_FL_CPU);
		if (!IS_ERR(f)) {
			f->size = sizeof(int);
			f->type = "unsigned int";
		}
		return f;
	}
	/*
	 * The current task's name: a "char[]" string of MAX_FILTER_STR_VAL
	 * bytes, the type and size that synthetic fields and keys written
	 * for common_comm expect, so that they take it and fit.
	 */
	if (!strcmp(name, "common_comm")) {
		f = new_field(HIST_KIND_COMM,
			      HIST_FIELD_FL_COMM | HIST_FIELD_FL_STRING);
		if (!IS_ERR(f)) {
			f->size = MAX_FILTER_STR_VAL;
			f->type = "char[]";
		}
		return f;
	}
	if (!strcmp(name, "common_stacktrace") || !strcmp(name, "stacktrace")) {
		f = new_field(HIST_KIND_STACKTRACE, HIST_FIELD_FL_STACKTRACE);
		if (!IS_ERR(f)) {
			f->size = HIST_STACKTRACE_SIZE;
			f->type = "unsigned long[]";
		}
		return f;
	}
	return NULL;
}

static bool bucket_aligned(u64 val, u64 size)
{
	u64 rem;

	div64_u64_rem(val, size, &rem);
	return !rem;
}

/*
 * ".buckets=SIZE@LO~HI": buckets of SIZE from LO up to HI, and one entry
 * each for all values below LO and all at or above HI, so that the key
 * takes at most (HI - LO) / SIZE + 2 values.  LO and HI are multiples of
 * SIZE, LO below HI.  @range is "LO~HI".
 */
static int parse_bucket_range(struct field_ctx *ctx, char *range, u64 size,
			      u64 *lo, u64 *hi)
{
	char *hs = strchr(range, '~');

	if (!hs) {
		fail(ctx, HIST_ERR_BAD_FIELD_MODIFIER, range);
		return -EINVAL;
	}
	*hs++ = '\0';
	if (kstrtoull(range, 0, lo) || !bucket_aligned(*lo, size)) {
		hs[-1] = '~';
		fail(ctx, HIST_ERR_BAD_FIELD_MODIFIER, range);
		return -EINVAL;
	}
	hs[-1] = '~';
	/* at "~HI": HI's digits may be LO's too */
	if (kstrtoull(hs, 0, hi) || !bucket_aligned(*hi, size) || *hi <= *lo) {
		fail(ctx, HIST_ERR_BAD_FIELD_MODIFIER, hs - 1);
		return -EINVAL;
	}
	return 0;
}

static int parse_modifier(struct field_ctx *ctx, char *mod,
			  unsigned long *flags, u64 *buckets,
			  u64 *bucket_lo, u64 *bucket_hi)
{
	if (!strcmp(mod, "hex")) {
		*flags |= HIST_FIELD_FL_HEX;
	} else if (!strcmp(mod, "sym")) {
		*flags |= HIST_FIELD_FL_SYM;
	} else if (!strcmp(mod, "sym-offset")) {
		*flags |= HIST_FIELD_FL_SYM_OFFSET;
	} else if (!strcmp(mod, "execname")) {
		/* a key shows the comm; a variable holds it (a string) */
		if (!ctx->is_key && !ctx->is_var)
			goto bad;
		*flags |= HIST_FIELD_FL_EXECNAME;
	} else if (!strcmp(mod, "syscall")) {
		*flags |= HIST_FIELD_FL_SYSCALL;
	} else if (!strcmp(mod, "log2")) {
		*flags |= HIST_FIELD_FL_LOG2;
	} else if (!strcmp(mod, "usecs")) {
		*flags |= HIST_FIELD_FL_TIMESTAMP_USECS;
	} else if (!strcmp(mod, "stacktrace")) {
		*flags |= HIST_FIELD_FL_STACKTRACE;
	} else if (!strcmp(mod, "percent")) {
		if (ctx->is_key)
			goto bad;
		*flags |= HIST_FIELD_FL_PERCENT;
	} else if (!strcmp(mod, "graph")) {
		if (ctx->is_key)
			goto bad;
		*flags |= HIST_FIELD_FL_GRAPH;
	} else if (str_has_prefix(mod, "bucket")) {
		/* ".bucket=N" means ".buckets=N", printed so */
		char *num = mod + strlen("bucket"), *range;

		if (*num == 's')
			num++;
		if (*num != '=') {
			fail(ctx, HIST_ERR_BAD_FIELD_MODIFIER, num);
			return -EINVAL;
		}
		num++;
		range = strchr(num, '@');
		if (range)
			*range = '\0';
		if (kstrtoull(num, 0, buckets) || !*buckets) {
			if (range)
				*range = '@';
			fail(ctx, HIST_ERR_BAD_FIELD_MODIFIER, num);
			return -EINVAL;
		}
		if (range) {
			*range++ = '@';
			if (parse_bucket_range(ctx, range, *buckets,
					       bucket_lo, bucket_hi))
				return -EINVAL;
		}
		*flags |= HIST_FIELD_FL_BUCKET;
	} else {
		goto bad;
	}
	return 0;
bad:
	fail(ctx, HIST_ERR_BAD_FIELD_MODIFIER, mod);
	return -EINVAL;
}

/* What a value (the root of its expression) may not carry. */
#define KEY_ONLY_FLAGS	(HIST_FIELD_FL_SYM | HIST_FIELD_FL_SYM_OFFSET | \
			 HIST_FIELD_FL_EXECNAME | HIST_FIELD_FL_SYSCALL | \
			 HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_BUCKET | \
			 HIST_FIELD_FL_STACKTRACE)

/*
 * What a variable may not carry: what would change the value it holds.
 * Display modifiers (.hex, .sym, .sym-offset, .syscall) are kept and
 * printed; .execname makes a string of it.
 */
#define VAR_BAD_FLAGS	(HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_BUCKET)

/* "$name" or "system.event.$name": a reference to a variable. */
static struct hist_field *parse_ref(struct field_ctx *ctx,
				    const char *system, const char *event,
				    const char *str)
{
	struct hist_field *f;

	if (ctx->is_key) {
		/* an unknown variable is reported as such first */
		if (ctx->hd) {
			f = hist_var_ref_create(ctx->hd, system, event, str + 1,
						true);
			if (!f)
				return ERR_PTR(-EINVAL);
			hist_field_destroy(f);
		}
		return fail(ctx, HIST_ERR_INVALID_REF_KEY, system ?: str);
	}
	if (!ctx->hd) {
		fail(ctx, HIST_ERR_VAR_NOT_FOUND, str + 1);
		return fail(ctx, HIST_ERR_FIELD_NOT_FOUND, str);
	}
	/* hist_var_ref_create() logs its own errors */
	f = hist_var_ref_create(ctx->hd, system, event, str + 1, true);
	if (!f)
		return ERR_PTR(-EINVAL);
	return f;
}

/*
 * "$x" where this very trigger defines x as a plain event field stands
 * for that field: the definition is substituted (and printed).
 */
static struct hist_field *local_def(struct field_ctx *ctx, const char *name)
{
	struct hist_spec *spec = ctx->hd ? &ctx->hd->spec : NULL;
	struct ftrace_event_field *ef;
	unsigned int i;

	if (!spec)
		return NULL;
	for (i = 0; i < spec->n_vars; i++) {
		const char *def = spec->vars[i].str;

		if (strcmp(spec->vars[i].name, name))
			continue;
		if (strpbrk(def, "+-*/$.()"))
			return NULL;
		ef = trace_find_event_field(ctx->call, (char *)def);
		if (!ef)
			return NULL;
		return hist_field_of_event(ctx->call, def);
	}
	return NULL;
}

/*
 * "common_pid.execname" as a variable: the comm of the task, a string
 * (kept per entry like any string variable), for trace() and save().
 */
static void execname_var(struct hist_field *f)
{
	BUILD_BUG_ON(TASK_COMM_LEN != 16);	/* the type below */
	f->kind = HIST_KIND_EXECNAME;
	f->flags |= HIST_FIELD_FL_STRING;
	f->size = TASK_COMM_LEN;
	f->is_signed = false;
	f->type = "char[16]";
}

static struct hist_field *parse_atom(struct field_ctx *ctx, char *str)
{
	char *parts[4] = { NULL };
	unsigned long mods = 0;
	struct ftrace_event_field *ef;
	struct hist_field *f;
	u64 buckets = 0, bucket_lo = 0, bucket_hi = 0;
	char *name, *mod, *s = str;
	int n = 0;

	if (str[0] == '$' && !str[1])
		return fail(ctx, HIST_ERR_FIELD_NOT_FOUND, str);
	if (str[0] == '$' && !strchr(str, '.')) {
		f = local_def(ctx, str + 1);
		if (f)
			return f;
		return parse_ref(ctx, NULL, NULL, str);
	}

	if (isdigit(str[0])) {
		u64 val;

		if (kstrtoull(str, 0, &val))
			return fail(ctx, HIST_ERR_EXPECT_NUMBER, str);
		f = new_field(HIST_KIND_CONST, HIST_FIELD_FL_CONST);
		if (IS_ERR(f))
			return f;
		f->constant = val;
		f->size = sizeof(u64);
		f->type = "u64";
		return f;
	}

	/* name[.modifier] or system.event.name[.modifier] */
	while (n < ARRAY_SIZE(parts) && (parts[n] = strsep(&s, ".")))
		n++;
	if (s)
		return fail(ctx, HIST_ERR_FIELD_NOT_FOUND, s);
	if (n == 3 && parts[2][0] == '$')
		return parse_ref(ctx, parts[0], parts[1], parts[2]);
	if (n >= 3) {
		/* system.event.field: the field of this event is meant */
		name = parts[2];
		mod = parts[3];
	} else {
		name = parts[0];
		mod = parts[1];
	}

	if (mod &&
	    parse_modifier(ctx, mod, &mods, &buckets, &bucket_lo, &bucket_hi))
		return ERR_PTR(-EINVAL);

	/*
	 * Event fields first (an event's own "cpu" field wins over the
	 * alias); the generic cpu/CPU/common_cpu and stacktrace names come
	 * back as size-less fields of their own filter type.
	 */
	ef = NULL;
	/* these three mean what they say even where an event has such a field */
	if (strcmp(name, "hitcount") && strcmp(name, "common_timestamp") &&
	    strcmp(name, "common_comm"))
		ef = trace_find_event_field(ctx->call, name);
	if (ef && ef->filter_type == FILTER_CPU) {
		f = special_field("common_cpu");
	} else if (ef && ef->filter_type == FILTER_STACKTRACE && !ef->size) {
		f = special_field("common_stacktrace");
	} else if (ef) {
		/* flexible arrays and the generic comm have no storage */
		if (!ef->size && ef->filter_type != FILTER_DYN_STRING &&
		    ef->filter_type != FILTER_RDYN_STRING)
			return fail(ctx, HIST_ERR_FIELD_NOT_FOUND, name);
		f = event_field(ctx, ef, name);
	} else {
		f = special_field(name);
		if (!f)
			return fail(ctx, HIST_ERR_FIELD_NOT_FOUND, name);
	}
	if (IS_ERR(f))
		return f;

	/* Where each modifier may go. */
	if ((mods & HIST_FIELD_FL_EXECNAME) &&
	    strcmp(name, "common_pid")) {
		hist_field_destroy(f);
		return fail(ctx, HIST_ERR_BAD_FIELD_MODIFIER, mod);
	}
	/* .stacktrace only makes sense on a stack (values: see below). */
	if (ctx->is_key && (mods & HIST_FIELD_FL_STACKTRACE) &&
	    !(f->flags & HIST_FIELD_FL_STACKTRACE)) {
		hist_field_destroy(f);
		return fail(ctx, HIST_ERR_BAD_FIELD_MODIFIER, mod);
	}
	f->flags |= mods;
	f->buckets = buckets;
	f->bucket_lo = bucket_lo;
	f->bucket_hi = bucket_hi;
	if ((mods & HIST_FIELD_FL_EXECNAME) && ctx->is_var)
		execname_var(f);
	return f;
}

static const char *kind_op(enum hist_kind kind)
{
	switch (kind) {
	case HIST_KIND_PLUS:
		return "+";
	case HIST_KIND_MINUS:
		return "-";
	case HIST_KIND_MULT:
		return "*";
	case HIST_KIND_DIV:
		return "/";
	default:
		return "";
	}
}

/* The last '-' of @str that is an operator (not in ".sym-offset"). */
static char *last_minus(char *str)
{
	char *p = str + strlen(str);

	while (--p >= str) {
		if (*p != '-')
			continue;
		if (p - str >= 4 && !strncmp(p - 4, ".sym-offset", 11))
			continue;
		return p;
	}
	return NULL;
}

/* Find the operator to split @str at; NULL if there is none. */
static char *find_operator(char *str, enum hist_kind *kind)
{
	char *minus = last_minus(str);
	char *plus = strrchr(str, '+');
	char *div, *mult;

	if (minus == str) {
		*kind = HIST_KIND_NEG;
		return str;
	}
	if (minus || plus) {
		*kind = plus > minus ? HIST_KIND_PLUS : HIST_KIND_MINUS;
		return plus > minus ? plus : minus;
	}
	div = strrchr(str, '/');
	mult = strrchr(str, '*');
	if (div || mult) {
		*kind = div > mult ? HIST_KIND_DIV : HIST_KIND_MULT;
		return div > mult ? div : mult;
	}
	return NULL;
}

static struct hist_field *parse_expr(struct field_ctx *ctx, char *str);

/* Whether a value is a timestamp, and in which unit. */
static unsigned long ts_flags(const struct hist_field *f)
{
	if (!f)
		return 0;
	if (f->kind == HIST_KIND_VAR_REF || f->flags & HIST_FIELD_FL_EXPR)
		return f->var_flags;
	return f->flags & (HIST_FIELD_FL_TIMESTAMP |
			   HIST_FIELD_FL_TIMESTAMP_USECS);
}

/*
 * A reference that is an operand of a binary operator consumes the
 * variable it reads; under a unary minus it does not.
 */
static void mark_read_once(struct field_ctx *ctx, struct hist_field *f)
{
	if (f && f->kind == HIST_KIND_VAR_REF && ctx->hd)
		ctx->hd->var_refs[f->var_ref_idx]->read_once = true;
}

static struct hist_field *make_op(struct field_ctx *ctx, enum hist_kind kind,
				  struct hist_field *a, struct hist_field *b)
{
	struct hist_field *f;

	/* only the unit is compared, a literal has none */
	if (b && (ts_flags(a) & HIST_FIELD_FL_TIMESTAMP_USECS) !=
	    (ts_flags(b) & HIST_FIELD_FL_TIMESTAMP_USECS)) {
		hist_field_destroy(a);
		hist_field_destroy(b);
		return fail(ctx, HIST_ERR_TIMESTAMP_MISMATCH, NULL);
	}
	if (b) {
		mark_read_once(ctx, a);
		mark_read_once(ctx, b);
	}

	f = new_field(kind, HIST_FIELD_FL_EXPR);
	if (IS_ERR(f)) {
		hist_field_destroy(a);
		hist_field_destroy(b);
		return f;
	}
	f->div_shift = -1;
	if (kind == HIST_KIND_DIV && b->kind == HIST_KIND_CONST) {
		if (is_power_of_2(b->constant))
			f->div_shift = ilog2(b->constant);
		else
			f->div_mult = hist_div_mult(b->constant);
	}

	/* Literals only: fold into one literal, computed as at run time. */
	if (a->kind == HIST_KIND_CONST && (!b || b->kind == HIST_KIND_CONST)) {
		a->constant = hist_apply_op(f, a->constant, b ? b->constant : 0);
		hist_field_destroy(b);
		kfree(f);
		return a;
	}

	f->operands[0] = a;
	f->operands[1] = b;
	f->size = a->size;
	f->is_signed = a->is_signed;
	f->type = a->type;
	if (a->kind == HIST_KIND_CONST && b) {
		f->size = b->size;
		f->is_signed = b->is_signed;
		f->type = b->type;
	}
	if (ts_flags(a))
		f->var_flags = ts_flags(a);
	else if (b)
		f->var_flags = ts_flags(b);
	if (a->flags & HIST_FIELD_FL_TIMESTAMP)
		f->flags |= a->flags & (HIST_FIELD_FL_TIMESTAMP |
					HIST_FIELD_FL_TIMESTAMP_USECS);
	return f;
}

/* An operand of an operator: any expression that yields a number. */
static struct hist_field *parse_operand(struct field_ctx *ctx, char *str)
{
	struct hist_field *f = parse_expr(ctx, str);

	if (!IS_ERR(f) && hist_field_is_string(f)) {
		hist_field_destroy(f);
		return fail(ctx, HIST_ERR_STRING_OPERAND, str);
	}
	return f;
}

/* -(expr): the parentheses are required and must close the text. */
static struct hist_field *parse_unary(struct field_ctx *ctx, char *str)
{
	struct hist_field *operand;
	char *inner = str + 1, *close;

	/* these three are logged too, so error_log says what is wrong */
	if (*inner != '(')
		return fail(ctx, strpbrk(inner, "+-*/") ?
			    HIST_ERR_UNARY_MINUS_SUBEXPR :
			    HIST_ERR_UNARY_MINUS_PARENS, str);
	inner++;
	close = strrchr(inner, ')');
	if (!close)
		return fail(ctx, HIST_ERR_NO_CLOSING_PAREN, str);
	if (close[1])
		return fail(ctx, HIST_ERR_UNARY_MINUS_SUBEXPR, inner);
	*close = '\0';
	if (*inner == '-')
		return fail(ctx, HIST_ERR_UNARY_MINUS_SUBEXPR, inner);
	operand = parse_operand(ctx, inner);
	if (IS_ERR(operand))
		return operand;
	return make_op(ctx, HIST_KIND_NEG, operand, NULL);
}

static struct hist_field *parse_expr(struct field_ctx *ctx, char *str)
{
	struct hist_field *a, *b;
	enum hist_kind kind;
	char *op, *rhs;

	op = find_operator(str, &kind);
	if (!op)
		return parse_atom(ctx, str);

	if (++ctx->n_ops > HIST_EXPR_DEPTH_MAX)
		return fail(ctx, HIST_ERR_TOO_MANY_SUBEXPR, str);

	if (kind == HIST_KIND_NEG)
		return parse_unary(ctx, str);

	*op = '\0';
	rhs = op + 1;
	if (!*str || !*rhs)
		return fail(ctx, HIST_ERR_MISSING_OPERAND, *str ? str : NULL);

	a = parse_operand(ctx, str);
	if (IS_ERR(a))
		return a;
	b = parse_operand(ctx, rhs);
	if (IS_ERR(b)) {
		hist_field_destroy(a);
		return b;
	}
	if (kind == HIST_KIND_DIV && b->kind == HIST_KIND_CONST &&
	    !b->constant) {
		hist_field_destroy(a);
		hist_field_destroy(b);
		ctx->err->n = 0;
		fail(ctx, HIST_ERR_DIVISION_BY_ZERO, rhs);
		return ERR_PTR(-EDOM);
	}
	return make_op(ctx, kind, a, b);
}

static bool is_stack(const struct hist_field *f)
{
	return f->kind == HIST_KIND_STACKTRACE ||
	       f->kind == HIST_KIND_STACK_FIELD ||
	       f->kind == HIST_KIND_VAR_REF;
}

/* The modifiers the root of a value or variable expression may not have. */
static unsigned long bad_root_flags(const struct hist_field *f,
				    enum hist_role role)
{
	if (role != HIST_ROLE_VAR)
		return KEY_ONLY_FLAGS;
	/* .stacktrace only on a stack */
	if (is_stack(f))
		return VAR_BAD_FLAGS;
	return VAR_BAD_FLAGS | HIST_FIELD_FL_STACKTRACE;
}

static const struct {
	unsigned long	flag;
	const char	*name;
} hist_aggs[] = {
	{ HIST_FIELD_FL_MIN, "min" },
	{ HIST_FIELD_FL_MAX, "max" },
	{ HIST_FIELD_FL_AVG, "avg" },
	{ HIST_FIELD_FL_QUANT, "quantiles" },
};

/**
 * hist_agg_flag - the flag of an aggregation suffix
 * @name: "min", "max", "avg" or "quantiles", without the dot
 *
 * Return: HIST_FIELD_FL_MIN, _MAX, _AVG or _QUANT, or 0 for anything else.
 */
unsigned long hist_agg_flag(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hist_aggs); i++)
		if (!strcmp(name, hist_aggs[i].name))
			return hist_aggs[i].flag;
	return 0;
}

/**
 * hist_field_agg_name - the suffix of a value's aggregation
 * @flags: the value's flags
 *
 * Return: "min", "max", "avg" or "quantiles", or NULL for a plain sum.
 */
const char *hist_field_agg_name(unsigned long flags)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hist_aggs); i++)
		if (flags & hist_aggs[i].flag)
			return hist_aggs[i].name;
	return NULL;
}

/**
 * hist_field_map_agg - what a value's map field keeps
 * @f: the value
 *
 * Return: the tracing_map aggregation for its suffix and signedness.
 */
enum tracing_map_agg hist_field_map_agg(const struct hist_field *f)
{
	if (f->flags & HIST_FIELD_FL_MIN)
		return f->is_signed ? TRACING_MAP_SMIN : TRACING_MAP_MIN;
	if (f->flags & HIST_FIELD_FL_MAX)
		return f->is_signed ? TRACING_MAP_SMAX : TRACING_MAP_MAX;
	/* unsigned only: the buckets count u64 values */
	if (f->flags & HIST_FIELD_FL_QUANT)
		return TRACING_MAP_MAX;
	if (f->flags & HIST_FIELD_FL_AVG)
		return f->is_signed ? TRACING_MAP_SAVG : TRACING_MAP_AVG;
	return TRACING_MAP_SUM;
}

/*
 * A value ending in ".min", ".max", ".avg" or ".quantiles" keeps that
 * instead of the sum: cut the suffix off and return its flag.
 * "system.event.max" stays this event's field "max", if it has one, so
 * that a field named like a suffix can still be named in full.
 */
static unsigned long value_agg(struct field_ctx *ctx, char *text, char **dot)
{
	char *first = strchr(text, '.');
	unsigned long flag;

	*dot = strrchr(text, '.');
	if (!*dot || *dot == text)
		return 0;
	flag = hist_agg_flag(*dot + 1);
	if (!flag)
		return 0;
	if (first != *dot && strchr(first + 1, '.') == *dot &&
	    trace_find_event_field(ctx->call, *dot + 1))
		return 0;
	**dot = '\0';
	return flag;
}

/*
 * Can value @f keep a minimum, maximum or average (@agg)? Numbers only: a
 * reference to a string or stack variable (its var_flags) is none.
 * Quantiles count unsigned values only.
 */
static bool agg_allowed(const struct hist_field *f, unsigned long agg)
{
	const unsigned long bad = HIST_FIELD_FL_STRING |
				  HIST_FIELD_FL_STACKTRACE;

	if ((agg & HIST_FIELD_FL_QUANT) && f->is_signed)
		return false;
	return !(f->flags & (bad | HIST_FIELD_FL_EXPR | HIST_FIELD_FL_HITCOUNT |
			     HIST_FIELD_FL_PERCENT | HIST_FIELD_FL_GRAPH)) &&
	       !(f->kind == HIST_KIND_VAR_REF && (f->var_flags & bad)) &&
	       f->kind != HIST_KIND_STACK_FIELD && !hist_field_is_string(f);
}

/**
 * hist_field_create - bind one key or value expression to an event
 * @hd: the histogram being built, for variable references (NULL: none
 *	allowed)
 * @call: the event
 * @text: the expression; cut up in place, and error texts point into it
 * @role: a key, a value or a variable
 * @err: on failure, what to log
 *
 * Return: the field tree, or an error pointer (-EINVAL, -EDOM, -ENOMEM).
 */
struct hist_field *hist_field_create(struct hist_data *hd,
				     struct trace_event_call *call,
				     char *text, enum hist_role role,
				     struct hist_field_err *err)
{
	bool is_key = role == HIST_ROLE_KEY;
	struct field_ctx ctx = {
		.hd = hd,
		.call = call,
		.is_key = is_key,
		.is_var = role == HIST_ROLE_VAR,
		.err = err,
	};
	unsigned long agg = 0;
	struct hist_field *f;
	char *name = text, *dot = NULL, *copy = NULL;
	size_t i, len = strlen(text);

	err->n = 0;
	if (role == HIST_ROLE_VAL)
		agg = value_agg(&ctx, text, &dot);
	if (agg) {
		/* parsing cuts the text: keep it for a second try */
		copy = kmemdup(text, len + 1, GFP_KERNEL);
		if (!copy)
			return ERR_PTR(-ENOMEM);
		copy[dot - text] = '.';
	}
	f = parse_expr(&ctx, text);
	if (IS_ERR(f) && agg) {
		/*
		 * Not a value with a suffix: parse the whole text again and
		 * report its error (e.g. "nosuch.max": the modifier).
		 */
		memcpy(text, copy, len + 1);
		err->n = 0;
		agg = 0;
		f = parse_expr(&ctx, text);
	}
	kfree(copy);
	if (IS_ERR(f))
		return f;
	if (agg && !agg_allowed(f, agg)) {
		hist_field_destroy(f);
		*dot = '.';
		return fail(&ctx, HIST_ERR_BAD_FIELD_MODIFIER, dot + 1);
	}
	f->flags |= agg;

	/*
	 * A value shows a number: only display modifiers that keep it one
	 * are allowed on it; a variable may have more (operands of an
	 * expression may carry any).
	 */
	if (!is_key && !(f->flags & HIST_FIELD_FL_EXPR) &&
	    (f->flags & bad_root_flags(f, role))) {
		/*
		 * The caret goes to "field.modifier" as written (parsing cut
		 * it at the dots), or to the start for .sym-offset (the
		 * error_log ABI).
		 */
		for (i = 0; i < len; i++)
			if (!text[i])
				text[i] = '.';
		if (f->flags & HIST_FIELD_FL_SYM_OFFSET)
			name = NULL;
		hist_field_destroy(f);
		return fail(&ctx, HIST_ERR_BAD_FIELD_MODIFIER, name);
	}

	if (set_text(f)) {
		hist_field_destroy(f);
		return ERR_PTR(-ENOMEM);
	}
	return f;
}

static void format_modifiers(struct seq_buf *s, const struct hist_field *f)
{
	static const struct {
		unsigned long flag;
		const char *name;
	} mods[] = {
		{ HIST_FIELD_FL_HEX,		".hex" },
		{ HIST_FIELD_FL_SYM,		".sym" },
		{ HIST_FIELD_FL_SYM_OFFSET,	".sym-offset" },
		{ HIST_FIELD_FL_EXECNAME,	".execname" },
		{ HIST_FIELD_FL_SYSCALL,	".syscall" },
		{ HIST_FIELD_FL_LOG2,		".log2" },
		{ HIST_FIELD_FL_TIMESTAMP_USECS, ".usecs" },
		{ HIST_FIELD_FL_PERCENT,	".percent" },
		{ HIST_FIELD_FL_GRAPH,		".graph" },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mods); i++)
		if (f->flags & mods[i].flag)
			seq_buf_puts(s, mods[i].name);
	if (f->flags & HIST_FIELD_FL_BUCKET)
		seq_buf_printf(s, ".buckets=%llu", f->buckets);
	if (f->bucket_hi)
		seq_buf_printf(s, "@%llu~%llu", f->bucket_lo, f->bucket_hi);
	if ((f->flags & HIST_FIELD_FL_STACKTRACE) &&
	    f->kind == HIST_KIND_STACK_FIELD)
		seq_buf_puts(s, ".stacktrace");
}

static bool is_operator(const struct hist_field *f)
{
	return f->kind >= HIST_KIND_PLUS && f->kind <= HIST_KIND_NEG;
}

/**
 * hist_field_plain_name - the name a field is shown under
 * @field: the field
 *
 * Return: the event field name or the special field's canonical name
 * (no modifier); for an expression, its canonical text.
 */
const char *hist_field_plain_name(const struct hist_field *field)
{
	switch (field->kind) {
	case HIST_KIND_HITCOUNT:
		return "hitcount";
	case HIST_KIND_TIMESTAMP:
		return "common_timestamp";
	case HIST_KIND_CPU:
		return "common_cpu";
	case HIST_KIND_STACKTRACE:
		return "common_stacktrace";
	case HIST_KIND_COMM:
		return "common_comm";
	default:
		if (is_operator(field) && field->text)
			return field->text;
		return field->name ? field->name : "";
	}
}

/* The canonical trigger syntax of a field tree. */
static void format_field(struct seq_buf *s, const struct hist_field *f)
{
	switch (f->kind) {
	case HIST_KIND_CONST:
		seq_buf_printf(s, "%llu", f->constant);
		return;
	case HIST_KIND_VAR_REF:
		/* as written: "system.event.$name", the spelling users know */
		if (f->system)
			seq_buf_printf(s, "%s.%s.", f->system, f->event_name);
		seq_buf_putc(s, '$');
		seq_buf_puts(s, f->name);
		return;
	case HIST_KIND_NEG:
		seq_buf_puts(s, "-(");
		format_field(s, f->operands[0]);
		seq_buf_putc(s, ')');
		return;
	case HIST_KIND_PLUS:
	case HIST_KIND_MINUS:
	case HIST_KIND_MULT:
	case HIST_KIND_DIV:
		format_field(s, f->operands[0]);
		seq_buf_puts(s, kind_op(f->kind));
		format_field(s, f->operands[1]);
		return;
	default:
		seq_buf_puts(s, hist_field_plain_name(f));
		format_modifiers(s, f);
	}
}

static int set_text(struct hist_field *f)
{
	struct seq_buf s;
	char *buf = kmalloc(HIST_STR_MAX, GFP_KERNEL);

	if (!buf)
		return -ENOMEM;
	seq_buf_init(&s, buf, HIST_STR_MAX);
	format_field(&s, f);
	if (f->flags & HIST_FIELD_FL_AGG)
		seq_buf_printf(&s, ".%s", hist_field_agg_name(f->flags));
	seq_buf_str(&s);
	/* a leaf may come with a text already (hitcount, field variables) */
	kfree(f->text);
	f->text = buf;
	return 0;
}

/**
 * hist_field_print - print a field in canonical trigger syntax
 * @m: where to
 * @field: the field, as returned by hist_field_create()
 */
void hist_field_print(struct seq_file *m, const struct hist_field *field)
{
	seq_puts(m, field->text ? field->text : hist_field_plain_name(field));
}

static bool str_same(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

/**
 * hist_field_same - whether two field trees are the same definition
 * @a: one
 * @b: the other
 *
 * Event fields are compared by what they are (name, type, size, sign),
 * not by identity: a named table may be shared by events of different
 * classes that have compatible fields.  Where the field sits in each
 * event's record does not matter; each trigger reads its own event.
 *
 * Return: true if @a and @b compute the same thing.
 */
bool hist_field_same(const struct hist_field *a, const struct hist_field *b)
{
	if (!a || !b)
		return a == b;
	if (a->kind != b->kind || a->flags != b->flags ||
	    a->buckets != b->buckets || a->bucket_lo != b->bucket_lo ||
	    a->bucket_hi != b->bucket_hi || a->constant != b->constant ||
	    a->size != b->size || a->is_signed != b->is_signed ||
	    !a->event_field != !b->event_field)
		return false;
	if (a->event_field &&
	    (strcmp(a->event_field->name, b->event_field->name) ||
	     strcmp(a->event_field->type, b->event_field->type) ||
	     a->event_field->size != b->event_field->size ||
	     a->event_field->is_signed != b->event_field->is_signed))
		return false;
	if (!str_same(a->name, b->name) || !str_same(a->type, b->type))
		return false;
	/* a trigger's own variable is the same in its copy made for "!" */
	if (a->kind == HIST_KIND_VAR_REF &&
	    (a->var_idx != b->var_idx || a->own_var != b->own_var ||
	     (!a->own_var && a->var_hd != b->var_hd)))
		return false;
	if ((a->var_name || b->var_name) &&
	    (!a->var_name || !b->var_name || strcmp(a->var_name, b->var_name)))
		return false;
	return hist_field_same(a->operands[0], b->operands[0]) &&
	       hist_field_same(a->operands[1], b->operands[1]);
}

/* Does the tree read common_timestamp.usecs itself (not through a $ref)? */
static bool tree_wants_usecs(const struct hist_field *f)
{
	if (!f)
		return false;
	if (f->kind == HIST_KIND_TIMESTAMP)
		return f->flags & HIST_FIELD_FL_TIMESTAMP_USECS;
	return tree_wants_usecs(f->operands[0]) ||
	       tree_wants_usecs(f->operands[1]);
}

static void tree_set_usecs(struct hist_field *f, bool usecs)
{
	if (!f)
		return;
	if (f->kind == HIST_KIND_TIMESTAMP)
		WRITE_ONCE(f->ts_usecs, usecs);
	tree_set_usecs(f->operands[0], usecs);
	tree_set_usecs(f->operands[1], usecs);
}

/**
 * hist_timestamps_bind - decide the unit of a histogram's common_timestamp
 * @hd: the histogram, being registered
 * @tr: the trace instance of its event, whose clock is set already
 *
 * The unit is a property of the whole histogram: once one
 * of its fields reads common_timestamp.usecs, every common_timestamp of
 * the histogram (keys, values, variables, field and save() variables,
 * operands) is in microseconds, rounded to the nearest one.  And only a
 * clock that counts nanoseconds is converted: the "counter" and "uptime"
 * clocks and x86-tsc give their raw count.  Variables of other histograms are
 * converted (or not) by their own histogram.  The decision is taken
 * with the clock the trigger sets; the hot path only tests
 * &hist_field.ts_usecs.
 *
 * Context: event_mutex held.
 */
void hist_timestamps_bind(struct hist_data *hd, struct trace_array *tr)
{
	bool usecs = false;
	unsigned int i;

	lockdep_assert_held(&event_mutex);

	for (i = 0; i < hd->n_fields; i++)
		usecs |= tree_wants_usecs(hd->fields[i]);
	for (i = 0; i < hd->n_field_vars; i++)
		usecs |= tree_wants_usecs(hd->field_vars[i]);
	for (i = 0; i < hd->n_save_vars; i++)
		usecs |= tree_wants_usecs(hd->save_vars[i]);
	usecs = usecs && trace_clock_in_ns(tr);

	hd->ts_usecs = usecs;
	for (i = 0; i < hd->n_fields; i++)
		tree_set_usecs(hd->fields[i], usecs);
	for (i = 0; i < hd->n_field_vars; i++)
		tree_set_usecs(hd->field_vars[i], usecs);
	for (i = 0; i < hd->n_save_vars; i++)
		tree_set_usecs(hd->save_vars[i], usecs);
}

/**
 * hist_field_of_event - a plain event field, for a field variable
 * @call: the event
 * @name: the field name (no modifier)
 *
 * Return: the field, NULL if the event has no such field, or an error
 * pointer.
 */
struct hist_field *hist_field_of_event(struct trace_event_call *call,
				       const char *name)
{
	struct hist_field_err err = {};
	struct field_ctx ctx = { .call = call, .err = &err };
	struct ftrace_event_field *ef;
	struct hist_field *f;

	ef = strcmp(name, "common_comm") ?
	     trace_find_event_field(call, (char *)name) : NULL;
	if (ef && ef->filter_type != FILTER_CPU &&
	    (ef->size || ef->filter_type == FILTER_DYN_STRING ||
	     ef->filter_type == FILTER_RDYN_STRING))
		f = event_field(&ctx, ef, name);
	else
		f = special_field(name);
	if (IS_ERR_OR_NULL(f))
		return f;
	if (set_text(f)) {
		hist_field_destroy(f);
		return ERR_PTR(-ENOMEM);
	}
	return f;
}

/* Step @op for @f: false if @e is full. */
static bool expr_step(struct hist_expr *e, enum hist_op op,
		      struct hist_field *f, u64 k)
{
	struct hist_insn *in;

	if (e->n == HIST_EXPR_INSNS_MAX)
		return false;
	in = &e->insn[e->n++];
	in->op = op;
	in->offset = 0;
	in->k = k;
	in->f = f;
	return true;
}

static bool expr_leaf(struct hist_expr *e, struct hist_field *f)
{
	switch (f->kind) {
	case HIST_KIND_S8 ... HIST_KIND_U64:
		/* modifiers and far offsets: the leaf is read by itself */
		if (f->flags & (HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_BUCKET) ||
		    f->offset > U16_MAX)
			break;
		if (!expr_step(e, HIST_OP_PUSH_S8 + (f->kind - HIST_KIND_S8),
			       f, 0))
			return false;
		e->insn[e->n - 1].offset = f->offset;
		return true;
	case HIST_KIND_CONST:
		return expr_step(e, HIST_OP_PUSH_CONST, f, f->constant);
	case HIST_KIND_VAR_REF:
		return expr_step(e, HIST_OP_PUSH_REF, f, 0);
	case HIST_KIND_TIMESTAMP:
		/* with .log2 or .buckets, read by itself as well */
		if (f->flags & (HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_BUCKET))
			break;
		return expr_step(e, HIST_OP_PUSH_TS, f, 0);
	default:
		break;
	}
	return expr_step(e, HIST_OP_PUSH_LEAF, f, 0);
}

/*
 * Append the steps of @f's tree to @e in postfix order; @depth is the
 * number of values on the evaluation stack before them.  False if the
 * tree does not fit (it always does for a parsed tree).  A literal right
 * operand is folded into its operator's step.
 */
static bool expr_emit(struct hist_expr *e, struct hist_field *f,
		      unsigned int depth)
{
	struct hist_field *b = f->operands[1];
	enum hist_op op;

	/* every node leaves one value on the stack */
	if (depth + 1 > HIST_EXPR_DEPTH_MAX + 1)
		return false;
	switch (f->kind) {
	case HIST_KIND_PLUS:
		op = HIST_OP_ADD;
		break;
	case HIST_KIND_MINUS:
		op = HIST_OP_SUB;
		break;
	case HIST_KIND_MULT:
		op = HIST_OP_MUL;
		break;
	case HIST_KIND_DIV:
		op = HIST_OP_DIV;
		break;
	case HIST_KIND_NEG:
		return expr_emit(e, f->operands[0], depth) &&
		       expr_step(e, HIST_OP_NEG, f, 0);
	default:
		return expr_leaf(e, f);
	}
	if (!expr_emit(e, f->operands[0], depth))
		return false;
	if (b->kind == HIST_KIND_CONST)
		return expr_step(e, op + (HIST_OP_ADD_K - HIST_OP_ADD), f,
				 b->constant);
	return expr_emit(e, b, depth + 1) && expr_step(e, op, f, 0);
}

/**
 * hist_expr_compile - compile an expression for the hot path
 * @f: a key, value or variable of a histogram being set up
 *
 * For an operator at the root, lays the tree out as a flat postfix
 * program that hist_run_value() evaluates in one loop on a small stack
 * instead of recursing through the tree.  Leaves the tree alone for
 * anything else, when already compiled, or when memory is short (the
 * tree walk computes the same value).
 */
void hist_expr_compile(struct hist_field *f)
{
	struct hist_expr *e;

	if (f->expr || f->kind < HIST_KIND_PLUS || f->kind > HIST_KIND_NEG)
		return;
	e = kzalloc(struct_size(e, insn, HIST_EXPR_INSNS_MAX), GFP_KERNEL);
	if (!e)
		return;
	if (!expr_emit(e, f, 0)) {
		kfree(e);
		return;
	}
	f->expr = e;
}
