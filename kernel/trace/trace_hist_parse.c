// SPDX-License-Identifier: GPL-2.0
/*
 * Hist trigger text -> struct hist_spec.
 *
 * The text after "hist:" (filter already split off) is a list of
 * colon-separated sections:
 *
 *	keys=|key=	comma-separated key expressions
 *	vals=|values=|val=	comma-separated value expressions
 *	sort=		up to two "name[.ascending|.descending]"
 *	size=		number of entries, rounded up to a power of two
 *	name=		shared histogram name
 *	clock=		trace clock for common_timestamp
 *	pause, cont, continue, clear, nohitcount, NOHC
 *	onX(...)...	handler.action() clauses, kept as text
 *	var=expr[,var=expr...]	variable definitions
 *
 * A later section of the same kind replaces an earlier one, except that
 * variable definitions and handler clauses accumulate.  The parser
 * knows nothing about events: whether a name is a field is decided when
 * the expressions are bound (trace_hist_fields.c).  The file also holds
 * the error messages and hist_cmd_log(), which writes the error_log
 * entry of a command.
 *
 * On an error the spec records what went wrong and the text it concerns.
 * The caret in error_log is the first occurrence of that text in the
 * command (a position the error_log ABI fixes), so the text is kept
 * NUL-terminated to match: a single item for item errors, the whole
 * section for section errors (@sec_buf keeps the sections intact).
 */
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/stringify.h>

#include "trace_hist.h"

const char *const hist_err_text[HIST_ERR_MAX] = {
	[HIST_ERR_NONE]			= "",
	[HIST_ERR_EMPTY_ASSIGNMENT]	= "Empty assignment",
	[HIST_ERR_FIELD_NOT_FOUND]	= "Couldn't find field",
	[HIST_ERR_BAD_FIELD_MODIFIER]	= "Invalid field modifier",
	[HIST_ERR_INVALID_SORT_FIELD]	= "Sort field must be a key or a val",
	[HIST_ERR_BAD_SORT_MODIFIER]	= "Invalid sort modifier",
	[HIST_ERR_EMPTY_SORT_FIELD]	= "Empty sort field",
	/* the default limit; the Max = 3 and 4 texts serve a raised one */
	[HIST_ERR_TOO_MANY_SORT_FIELDS]	= "Too many sort fields (Max = 2)",
	[HIST_ERR_DIVISION_BY_ZERO]	= "Division by zero",
	[HIST_ERR_STRING_OPERAND]	= "String type can not be an operand in expression",
	[HIST_ERR_TOO_MANY_SUBEXPR]	= "Too many subexpressions (3 max)",
	[HIST_ERR_UNARY_MINUS_SUBEXPR]	= "Unary minus not supported in sub-expressions",
	[HIST_ERR_EXPECT_NUMBER]	= "Expecting numeric literal",
	[HIST_ERR_VAR_NOT_FOUND]	= "Couldn't find variable",
	[HIST_ERR_VAR_REDEFINED]	= "Variable already defined",
	[HIST_ERR_NEXIST_TRIGGER]	= "Can't clear or continue a nonexistent hist trigger",
	[HIST_ERR_NEED_NOHC_VAL]	= "Non-hitcount value is required for 'nohitcount'",
	[HIST_ERR_NAMED_MISMATCH]	=
		"Named hist trigger doesn't match existing named trigger (includes variables)",
	[HIST_ERR_TRIGGER_EEXIST]	= "Hist trigger already exists",
	[HIST_ERR_ONX_NOT_VAR]		= "For onmax(x) or onchange(x), x must be a variable",
	[HIST_ERR_TOO_MANY_VARS]	= "Too many variables defined",
	[HIST_ERR_VAR_NOT_UNIQUE]	=
		"Variable name not unique, need to use fully qualified name (subsys.event.var) for variable",
	[HIST_ERR_TOO_MANY_FIELD_VARS]	= "Too many field variables defined",
	[HIST_ERR_EVENT_FILE_NOT_FOUND]	= "Event file not found",
	[HIST_ERR_HIST_NOT_FOUND]	= "Matching event histogram not found",
	[HIST_ERR_HIST_CREATE_FAIL]	= "Couldn't create histogram for field",
	[HIST_ERR_SYNTH_VAR_NOT_FOUND]	= "Couldn't find synthetic variable",
	[HIST_ERR_SYNTH_EVENT_NOT_FOUND] = "Couldn't find synthetic event",
	[HIST_ERR_SYNTH_TYPE_MISMATCH]	= "Param type doesn't match synthetic event field type",
	[HIST_ERR_SYNTH_COUNT_MISMATCH]	= "Param count doesn't match synthetic event field count",
	[HIST_ERR_FIELD_VAR_PARSE_FAIL]	= "Couldn't parse field variable",
	[HIST_ERR_VAR_CREATE_FIND_FAIL]	= "Couldn't create or find variable",
	[HIST_ERR_ONX_VAR_NOT_FOUND]	= "Couldn't find onmax or onchange variable",
	[HIST_ERR_ONX_VAR_CREATE_FAIL]	= "Couldn't create onmax or onchange variable",
	[HIST_ERR_FIELD_VAR_CREATE_FAIL] = "Couldn't create field variable",
	[HIST_ERR_TOO_MANY_PARAMS]	= "Too many action params",
	[HIST_ERR_PARAM_NOT_FOUND]	= "Couldn't find param",
	[HIST_ERR_INVALID_PARAM]	= "Invalid action param",
	[HIST_ERR_ACTION_NOT_FOUND]	= "No action found",
	[HIST_ERR_NO_SAVE_PARAMS]	= "No params found for save()",
	[HIST_ERR_TOO_MANY_SAVE_ACTIONS] = "Can't have more than one save() action per hist",
	[HIST_ERR_ACTION_MISMATCH]	= "Handler doesn't support action",
	[HIST_ERR_NO_CLOSING_PAREN]	= "No closing paren found",
	[HIST_ERR_SUBSYS_NOT_FOUND]	= "Missing subsystem",
	[HIST_ERR_INVALID_SUBSYS_EVENT]	= "Invalid subsystem or event name",
	[HIST_ERR_INVALID_REF_KEY]	= "Using variable references in keys not supported",
	[HIST_ERR_TIMESTAMP_MISMATCH]	= "Timestamp units in expression don't match",
	[HIST_ERR_SET_CLOCK_FAIL]	= "Couldn't set trace_clock",
	[HIST_ERR_MALFORMED_ASSIGNMENT]	= "Malformed assignment",
	[HIST_ERR_KEY_TOO_LARGE]	= "Compound key too large",
	[HIST_ERR_MISSING_KEYS]		= "Missing keys",
	[HIST_ERR_TOO_MANY_KEYS]	= "Too many keys",
	[HIST_ERR_TOO_MANY_VALS]	= "Too many values",
	[HIST_ERR_BAD_SIZE]		= "Invalid size (128 to 131072 entries)",
	[HIST_ERR_UNKNOWN_ATTR]		= "Unknown hist trigger attribute",
	[HIST_ERR_MISSING_VAR_NAME]	= "Missing variable name",
	[HIST_ERR_TOO_MANY_ACTIONS]	= "Too many actions",
	[HIST_ERR_TOO_MANY_FIELDS]	= "Too many fields",
	[HIST_ERR_UNARY_MINUS_PARENS]	= "Unary minus needs parentheses: -(expr)",
	[HIST_ERR_MISSING_OPERAND]	= "Missing operand",
	[HIST_ERR_QUANT_TOO_LARGE]	=
		"Too many entries for quantiles (size x quantile values > 8192)",
	[HIST_ERR_TOO_MANY_SORT_FIELDS3] = "Too many sort fields (Max = 3)",
	[HIST_ERR_TOO_MANY_SORT_FIELDS4] = "Too many sort fields (Max = 4)",
};

static int spec_fail(struct hist_spec *spec, enum hist_err err,
		     const char *str)
{
	spec->err = err;
	spec->err_str = str;
	return -EINVAL;
}

/* The same section, intact, in @sec_buf. */
static const char *whole(struct hist_spec *spec, const char *sec)
{
	return spec->sec_buf + (sec - spec->buf);
}

/*
 * Split @s at @sep in place into at most @max items; return their count
 * and set *@overflow if there were more.
 */
static unsigned int split_list(char *s, char sep, struct hist_spec_item *items,
			       unsigned int max, bool *overflow)
{
	unsigned int n = 0;
	char *item;

	*overflow = false;
	while ((item = strsep(&s, (char []){ sep, '\0' })) != NULL) {
		if (n == max) {
			*overflow = true;
			break;
		}
		items[n].str = item;
		items[n].name = NULL;
		n++;
	}
	return n;
}

/* Sort criteria are only cut up here: they are checked against fields. */
static int parse_sort(struct hist_spec *spec, char *sec, char *list)
{
	struct hist_spec_item items[HIST_SORT_KEYS_MAX];
	unsigned int n, i;

	n = split_list(list, ',', items, HIST_SORT_KEYS_MAX,
		       &spec->sort_overflow);
	for (i = 0; i < n; i++) {
		char *name = items[i].str;
		char *mod = strchr(name, '.');

		if (mod)
			*mod++ = '\0';
		spec->sort[i].name = name;
		spec->sort[i].mod = mod;
		spec->sort[i].descending = mod && !strcmp(mod, "descending");
	}
	spec->n_sort = n;
	spec->sort_str = whole(spec, sec);
	return 0;
}

static int parse_size(struct hist_spec *spec, const char *val)
{
	unsigned long size;
	unsigned int bits;
	int ret;

	/* a number beyond unsigned long is -ERANGE */
	ret = kstrtoul(val, 0, &size);
	if (ret) {
		spec_fail(spec, HIST_ERR_BAD_SIZE, val);
		return ret;
	}
	if (!size || size > (1UL << 31))
		return spec_fail(spec, HIST_ERR_BAD_SIZE, val);
	bits = ilog2(roundup_pow_of_two(size));
	if (bits < TRACING_MAP_BITS_MIN || bits > TRACING_MAP_BITS_MAX)
		return spec_fail(spec, HIST_ERR_BAD_SIZE, val);
	spec->map_bits = bits;
	return 0;
}

/* "a=expr,b=expr": every item is a definition. */
static int parse_vars(struct hist_spec *spec, char *list)
{
	char *item;

	while ((item = strsep(&list, ",")) != NULL) {
		char *eq = strchr(item, '=');

		if (!eq)
			return spec_fail(spec, HIST_ERR_MALFORMED_ASSIGNMENT,
					 item);
		if (eq == item)
			return spec_fail(spec, HIST_ERR_MISSING_VAR_NAME,
					 whole(spec, item));
		*eq = '\0';
		if (!eq[1])
			return spec_fail(spec, HIST_ERR_EMPTY_ASSIGNMENT,
					 whole(spec, item));
		/* a name given twice is found when the variables are made */
		if (spec->n_vars == HIST_VARS_MAX)
			return spec_fail(spec, HIST_ERR_TOO_MANY_VARS, item);
		spec->vars[spec->n_vars].name = item;
		spec->vars[spec->n_vars].str = eq + 1;
		spec->n_vars++;
	}
	return 0;
}

/* onmax(x)/onchange(x) need a variable; the rest is kept as text. */
static int parse_action(struct hist_spec *spec, char *sec)
{
	char *arg, *end;

	if (spec->n_actions == HIST_ACTIONS_MAX)
		return spec_fail(spec, HIST_ERR_TOO_MANY_ACTIONS,
				 whole(spec, sec));
	if (str_has_prefix(sec, "onmax(") || str_has_prefix(sec, "onchange(")) {
		arg = strchr(sec, '(') + 1;
		end = strchr(arg, ')');
		if (!end)
			return spec_fail(spec, HIST_ERR_NO_CLOSING_PAREN,
					 whole(spec, sec));
		/* "$" of the argument is checked later, with the fields */
	}
	spec->actions[spec->n_actions].str = sec;
	spec->actions[spec->n_actions].name = NULL;
	spec->n_actions++;
	return 0;
}

static int parse_flag(struct hist_spec *spec, const char *sec)
{
	if (!strcmp(sec, "pause"))
		spec->pause = true;
	else if (!strcmp(sec, "cont") || !strcmp(sec, "continue"))
		spec->cont = true;
	else if (!strcmp(sec, "clear"))
		spec->clear = true;
	else if (!strcmp(sec, "nohitcount") || !strcmp(sec, "NOHC"))
		spec->nohitcount = true;
	else
		return spec_fail(spec, HIST_ERR_UNKNOWN_ATTR, whole(spec, sec));
	return 0;
}

static int parse_section(struct hist_spec *spec, char *sec)
{
	char *eq, *val;

	/* a section with a "=" is an assignment, whatever else */
	eq = strchr(sec, '=');
	if (!eq && str_has_prefix(sec, "on") && strchr(sec, '('))
		return parse_action(spec, sec);
	if (!eq)
		return parse_flag(spec, sec);

	/* Every kind of assignment needs a value. */
	val = eq + 1;
	if (!*val)
		return spec_fail(spec, HIST_ERR_EMPTY_ASSIGNMENT,
				 whole(spec, sec));

	if (!strncmp(sec, "keys=", 5) || !strncmp(sec, "key=", 4)) {
		spec->n_keys = split_list(val, ',', spec->keys, HIST_KEYS_MAX,
					  &spec->keys_overflow);
		spec->keys_str = whole(spec, sec);
	} else if (!strncmp(sec, "vals=", 5) || !strncmp(sec, "values=", 7) ||
		   !strncmp(sec, "val=", 4)) {
		spec->n_vals = split_list(val, ',', spec->vals, HIST_VALS_MAX,
					  &spec->vals_overflow);
		spec->vals_str = whole(spec, sec);
	} else if (!strncmp(sec, "sort=", 5)) {
		return parse_sort(spec, sec, val);
	} else if (!strncmp(sec, "size=", 5)) {
		return parse_size(spec, val);
	} else if (!strncmp(sec, "name=", 5)) {
		spec->name = val;
		spec->name_str = whole(spec, sec);
	} else if (!strncmp(sec, "clock=", 6)) {
		/* blanks around the clock's name do not count */
		spec->clock = strim(val);
	} else {
		return parse_vars(spec, sec);
	}
	return 0;
}

/*
 * Cut the text into sections at every ':', in both copies (a ':' inside
 * a handler's parentheses ends the section too).
 * Returns the start of the next section or NULL.
 */
static char *next_section(struct hist_spec *spec, char *s)
{
	s = strchr(s, ':');
	if (!s)
		return NULL;
	*s = '\0';
	spec->sec_buf[s - spec->buf] = '\0';
	return s + 1;
}

/**
 * hist_spec_parse - parse the text of a hist trigger
 * @text: what follows "hist:", without the " if ..." filter
 * @spec: filled in; release with hist_spec_free() whatever the result
 *
 * Return: 0, -ENOMEM, or -EINVAL with @spec->err and @spec->err_str set
 * (@spec->err_str NULL: the error concerns the whole text).
 */
int hist_spec_parse(const char *text, struct hist_spec *spec)
{
	char *sec, *next;
	int ret;

	memset(spec, 0, sizeof(*spec));
	if (!text || !*text)
		return spec_fail(spec, HIST_ERR_MISSING_KEYS, NULL);

	spec->buf = kstrdup(text, GFP_KERNEL);
	spec->sec_buf = kstrdup(text, GFP_KERNEL);
	if (!spec->buf || !spec->sec_buf)
		return -ENOMEM;

	for (sec = spec->buf; sec; sec = next) {
		next = next_section(spec, sec);
		ret = parse_section(spec, sec);
		if (ret)
			return ret;
	}
	if (!spec->n_keys)
		return spec_fail(spec, HIST_ERR_MISSING_KEYS, NULL);
	return 0;
}

/**
 * hist_spec_free - release what hist_spec_parse() allocated
 * @spec: the spec; may be partially filled
 */
void hist_spec_free(struct hist_spec *spec)
{
	kfree(spec->buf);
	kfree(spec->sec_buf);
	spec->buf = NULL;
	spec->sec_buf = NULL;
}

/* ---- error_log ---- */

/**
 * hist_cmd_log - report an error in a hist command to error_log
 * @cmd: the command
 * @err: what went wrong
 * @str: the text it concerns (the caret goes to its first occurrence in
 *	the command), or NULL for the start of the command
 *
 * The entry is "hist:<system>:<event>", the command as written, the
 * message of @err and the caret.
 */
void hist_cmd_log(struct hist_cmd *cmd, enum hist_err err, const char *str)
{
	struct trace_event_call *call = cmd->file->event_call;
	char loc[MAX_FILTER_STR_VAL];
	unsigned int pos = 0;

	if (str)
		pos = err_pos(cmd->text, str);
	snprintf(loc, sizeof(loc), "hist:%s:%s", call->class->system,
		 trace_event_name(call));
	tracing_log_err(cmd->file->tr, loc, cmd->text,
			(const char **)hist_err_text, err, pos);
}

/**
 * hist_log - report an error in the trigger being created
 * @hd: the histogram being built
 * @err: what went wrong
 * @str: the text it concerns (the caret goes to its first occurrence in
 *	the command), or NULL for the start of the command
 */
void hist_log(struct hist_data *hd, enum hist_err err, const char *str)
{
	if (hd->cmd)
		hist_cmd_log(hd->cmd, err, str);
}
