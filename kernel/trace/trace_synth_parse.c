// SPDX-License-Identifier: GPL-2.0
/*
 * Parser for synthetic event definitions.
 *
 * Grammar (whitespace is any run of blanks; ';' ends a field and is
 * optional between fields):
 *
 *   fieldlist  := field { [';'] field } [';']
 *   definition := name fieldlist
 *   field      := type fieldname | "unsigned" type fieldname
 *   type       := basetype [ "[" [N] "]" ]
 *   fieldname  := identifier [ "[" [N] "]" ]
 *
 * The array suffix may sit on the type or on the name, not on both.
 * "[N]" is only valid for char (a fixed string of N bytes), "[]" for
 * char (a dynamic string) and for long / unsigned long (a stack trace).
 *
 * The parser works on a private copy of the command so that every token
 * keeps its offset in the original text; errors carry that offset and
 * become the caret position in tracing/error_log.
 */

#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_synth.h"

/* Texts indexed by enum synth_err_type; shown in tracing/error_log. */
static const char * const synth_err_text[] = {
	[SYNTH_ERR_BAD_NAME]		= "Illegal name",
	[SYNTH_ERR_INVALID_CMD]		=
		"Command must be of the form: <name> field[;field] ...",
	[SYNTH_ERR_INVALID_DYN_CMD]	=
		"Command must be of the form: s or -:[synthetic/]<name> field[;field] ...",
	[SYNTH_ERR_EVENT_EXISTS]	= "Event already exists",
	[SYNTH_ERR_TOO_MANY_FIELDS]	= "Too many fields",
	[SYNTH_ERR_INCOMPLETE_TYPE]	= "Incomplete type",
	[SYNTH_ERR_INVALID_TYPE]	= "Invalid type",
	[SYNTH_ERR_INVALID_FIELD]	= "Invalid field",
	[SYNTH_ERR_INVALID_ARRAY_SPEC]	= "Invalid array specification",
};

struct synth_type_info {
	const char	*name;
	unsigned int	size;
	bool		is_signed;
	const char	*fmt;
};

/* Scalar types a field may have, with their printf conversions. */
static const struct synth_type_info synth_scalar_types[] = {
	{ "s8",			1, true,  "%d" },
	{ "u8",			1, false, "%u" },
	{ "s16",		2, true,  "%d" },
	{ "u16",		2, false, "%u" },
	{ "s32",		4, true,  "%d" },
	{ "u32",		4, false, "%u" },
	{ "s64",		8, true,  "%lld" },
	{ "u64",		8, false, "%llu" },
	{ "char",		1, true,  "%d" },
	{ "unsigned char",	1, false, "%u" },
	{ "short",		sizeof(short), true, "%d" },
	{ "unsigned short",	sizeof(short), false, "%u" },
	{ "int",		sizeof(int), true, "%d" },
	{ "unsigned int",	sizeof(int), false, "%u" },
	{ "long",		sizeof(long), true, "%ld" },
	{ "unsigned long",	sizeof(long), false, "%lu" },
	{ "bool",		sizeof(bool), true, "%d" },
	{ "pid_t",		sizeof(pid_t), true, "%d" },
	{ "gfp_t",		sizeof(gfp_t), false, "%x" },
};

static const struct synth_type_info *synth_lookup_type(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(synth_scalar_types); i++)
		if (!strcmp(synth_scalar_types[i].name, name))
			return &synth_scalar_types[i];
	return NULL;
}

/**
 * synth_log_err - report a definition error in tracing/error_log
 * @cmd: the command text the error position refers to
 * @err: error kind and caret position
 */
void synth_log_err(const char *cmd, const struct synth_err *err)
{
	/* tracing_log_err() only reads the table */
	tracing_log_err(NULL, SYNTH_EVENTS_FILE, cmd,
			(const char **)synth_err_text, err->type, err->pos);
}

static int synth_fail(struct synth_err *err, enum synth_err_type type,
		      unsigned int pos)
{
	if (err) {
		err->type = type;
		err->pos = pos;
	}
	return -EINVAL;
}

/**
 * synth_field_free - free a field built by the parser
 * @field: the field, may be NULL
 */
void synth_field_free(struct synth_field *field)
{
	if (!field)
		return;
	kfree(field->type);
	kfree(field->name);
	kfree(field->ftype);
	kfree(field);
}

/**
 * synth_fields_free - free the first @n fields of @fields
 * @fields: array of fields owned by a definition or an event
 * @n: how many of them are set
 */
void synth_fields_free(struct synth_field **fields, unsigned int n)
{
	while (n--)
		synth_field_free(fields[n]);
}

/**
 * synth_def_free - free a parsed definition and the fields it still owns
 * @def: the definition, may be NULL
 */
void synth_def_free(struct synth_def *def)
{
	if (!def)
		return;
	synth_fields_free(def->fields, def->n_fields);
	kfree(def->name);
	kfree(def);
}

/* Array suffixes besides "[N]", N > 0, as synth_split_array() reports them. */
#define SYNTH_ALEN_DYN		(-1)	/* "[]" */
#define SYNTH_ALEN_ZERO		(-2)	/* "[0]", a dynamic string for char */

/*
 * Split an optional trailing "[...]" off @word.  On success *base_len is
 * the length before '[' (or of the whole word) and *len is 0 for no
 * suffix, SYNTH_ALEN_DYN, SYNTH_ALEN_ZERO, or N for "[N]".
 */
static bool synth_split_array(const char *word, size_t *base_len, int *len)
{
	const char *open = strchr(word, '[');
	size_t wlen = strlen(word);
	char digits[8];
	size_t ndig;
	unsigned int n;

	*len = 0;
	*base_len = wlen;
	if (!open)
		return !strchr(word, ']');

	*base_len = open - word;
	if (word[wlen - 1] != ']' || strchr(open + 1, '[') ||
	    strchr(open, ']') != word + wlen - 1)
		return false;

	ndig = word + wlen - 1 - (open + 1);
	if (!ndig) {
		*len = SYNTH_ALEN_DYN;
		return true;
	}
	if (ndig >= sizeof(digits))
		return false;
	memcpy(digits, open + 1, ndig);
	digits[ndig] = '\0';
	if (kstrtouint(digits, 10, &n) || n > SYNTH_STR_LEN_MAX)
		return false;
	*len = n ? n : SYNTH_ALEN_ZERO;
	return true;
}

/*
 * Build one field.  @type may be "unsigned" followed by a space and the
 * second type word.  @tpos and @npos are the offsets of the type and the
 * name in the command, used for error carets.
 */
static int synth_build_field(const char *type, unsigned int tpos,
			     const char *name, unsigned int npos,
			     struct synth_field **pfield,
			     struct synth_err *err)
{
	const struct synth_type_info *info;
	struct synth_field *field;
	size_t tbase, nbase;
	int tlen, nlen, alen;
	char *base;

	if (!synth_split_array(type, &tbase, &tlen))
		return synth_fail(err, SYNTH_ERR_INVALID_TYPE, tpos);
	if (!synth_split_array(name, &nbase, &nlen))
		return synth_fail(err, strchr(name, '[') ?
				  SYNTH_ERR_INVALID_ARRAY_SPEC :
				  SYNTH_ERR_BAD_NAME, npos);
	if (tlen && nlen)
		return synth_fail(err, SYNTH_ERR_INVALID_ARRAY_SPEC, npos);
	alen = tlen ? tlen : nlen;

	base = kstrndup(type, tbase, GFP_KERNEL);
	if (!base)
		return -ENOMEM;
	info = synth_lookup_type(base);
	kfree(base);
	if (!info)
		return synth_fail(err, SYNTH_ERR_INVALID_TYPE, tpos);

	field = kzalloc_obj(*field, GFP_KERNEL);
	if (!field)
		return -ENOMEM;

	field->name = kstrndup(name, nbase, GFP_KERNEL);
	if (!field->name)
		goto nomem;
	/* no length limit: only the characters are checked */
	if (!is_good_name(field->name)) {
		synth_field_free(field);
		return synth_fail(err, SYNTH_ERR_BAD_NAME, npos);
	}

	field->print_fmt = info->fmt;
	field->is_signed = info->is_signed;
	if (!alen) {
		field->kind = SYNTH_FIELD_NUM;
		field->size = info->size;
		field->is_gfp = !strcmp(info->name, "gfp_t");
		field->type = kstrdup(info->name, GFP_KERNEL);
		field->ftype = kstrdup(info->name, GFP_KERNEL);
	} else if (!strcmp(info->name, "char")) {
		if (alen > 0) {
			field->kind = SYNTH_FIELD_STR;
			field->size = alen;
			field->type = kasprintf(GFP_KERNEL, "char[%d]", alen);
			field->ftype = kstrdup(field->type, GFP_KERNEL);
		} else {
			/* "char[0]" is a dynamic string too (type kept). */
			const char *t = alen == SYNTH_ALEN_ZERO ? "char[0]" :
						 "char[]";

			field->kind = SYNTH_FIELD_DYNSTR;
			field->size = sizeof(u32);
			field->type = kstrdup(t, GFP_KERNEL);
			field->ftype = kasprintf(GFP_KERNEL, "__data_loc %s", t);
		}
	} else if (alen == SYNTH_ALEN_DYN && info->size == sizeof(long) &&
		   strstr(info->name, "long")) {
		field->kind = SYNTH_FIELD_STACK;
		field->size = sizeof(u32);
		field->type = kasprintf(GFP_KERNEL, "%s[]", info->name);
		field->ftype = kasprintf(GFP_KERNEL, "__data_loc %s[]",
					 info->name);
	} else {
		synth_field_free(field);
		if (alen > 0)
			return synth_fail(err, SYNTH_ERR_INVALID_ARRAY_SPEC,
					  tlen ? tpos : npos);
		return synth_fail(err, SYNTH_ERR_INVALID_TYPE, tpos);
	}
	if (!field->type || !field->ftype)
		goto nomem;

	*pfield = field;
	return 0;
nomem:
	synth_field_free(field);
	return -ENOMEM;
}

/* Return the next blank separated word of *cur, NUL terminated. */
static char *synth_next_word(char **cur)
{
	char *p = skip_spaces(*cur), *word;

	if (!*p) {
		*cur = p;
		return NULL;
	}
	word = p;
	while (*p && !isspace(*p))
		p++;
	if (*p)
		*p++ = '\0';
	*cur = p;
	return word;
}

/* How many blank-separated words @s has before its first ';'. */
static unsigned int synth_words_before_semicolon(const char *s)
{
	unsigned int n = 0;

	for (;;) {
		s = skip_spaces(s);
		if (!*s || *s == ';')
			return n;
		n++;
		while (*s && *s != ';' && !isspace(*s))
			s++;
	}
}

static int synth_add_field(struct synth_def *def, struct synth_field *field,
			   unsigned int npos, struct synth_err *err)
{
	unsigned int i;

	for (i = 0; i < def->n_fields; i++) {
		if (!strcmp(def->fields[i]->name, field->name)) {
			synth_field_free(field);
			return synth_fail(err, SYNTH_ERR_BAD_NAME, npos);
		}
	}
	def->fields[def->n_fields++] = field;
	return 0;
}

/*
 * Parse the fields of one ';' separated segment; @buf is the working copy
 * of the command @orig, error positions are offsets in both.
 *
 * A lone word is reported as an incomplete command when it would be the
 * first field, else as an invalid field at the first place the word
 * appears in the command.
 */
static int synth_parse_segment(const char *orig, char *buf, char *seg,
			       struct synth_def *def, struct synth_err *err)
{
	char *cur = seg, *w0, *w1, *w2, *type;
	struct synth_field *field;
	unsigned int npos;
	int ret;

	while ((w0 = synth_next_word(&cur))) {
		if (def->n_fields >= SYNTH_FIELDS_MAX)
			return synth_fail(err, SYNTH_ERR_TOO_MANY_FIELDS, 0);

		w1 = synth_next_word(&cur);
		if (!w1 && !def->n_fields)
			return synth_fail(err, SYNTH_ERR_INVALID_CMD, 0);
		if (!strcmp(w0, "unsigned")) {
			w2 = w1 ? synth_next_word(&cur) : NULL;
			/* at the first "unsigned" of the command */
			if (!w2)
				return synth_fail(err,
						  SYNTH_ERR_INCOMPLETE_TYPE,
						  strstr(orig, w0) - orig);
			type = kasprintf(GFP_KERNEL, "unsigned %s", w1);
			if (!type)
				return -ENOMEM;
		} else {
			if (!w1)
				return synth_fail(err, SYNTH_ERR_INVALID_FIELD,
						  strstr(orig, w0) - orig);
			w2 = w1;
			type = kstrdup(w0, GFP_KERNEL);
			if (!type)
				return -ENOMEM;
		}

		npos = w2 - buf;
		/* an unknown "unsigned x" is reported at x */
		ret = synth_build_field(type, (w2 != w1 ? w1 : w0) - buf, w2,
					npos, &field, err);
		kfree(type);
		if (ret)
			return ret;
		ret = synth_add_field(def, field, npos, err);
		if (ret)
			return ret;
	}
	return 0;
}

static int synth_parse_list(const char *orig, char *buf, char *p,
			    struct synth_def *def, struct synth_err *err)
{
	char *seg, *semi;
	int ret;

	p = skip_spaces(p);
	if (*p == ';')
		return synth_fail(err, SYNTH_ERR_INVALID_CMD, 0);

	while (*p) {
		seg = p;
		semi = strchr(p, ';');
		if (semi) {
			*semi = '\0';
			p = semi + 1;
		} else {
			p += strlen(p);
		}
		ret = synth_parse_segment(orig, buf, seg, def, err);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * synth_parse_def - parse "<name> <fields>" starting at @start of @cmd
 * @cmd: command text (error positions are offsets in it)
 * @start: offset of the event name in @cmd
 * @need_fields: fail with INVALID_CMD when no field is given
 * @pdef: receives the new definition on success
 * @err: filled with the error kind and position on -EINVAL, may be NULL
 *
 * Return: 0, -EINVAL on a syntax error or -ENOMEM.
 */
int synth_parse_def(const char *cmd, unsigned int start, bool need_fields,
		    struct synth_def **pdef, struct synth_err *err)
{
	struct synth_def *def;
	char *buf, *p, *name;
	int ret;

	def = kzalloc_obj(*def, GFP_KERNEL);
	buf = kstrdup(cmd, GFP_KERNEL);
	if (!def || !buf) {
		ret = -ENOMEM;
		goto out;
	}

	/* "s:synthetic/ u64 a": a blank where the name should start. */
	p = buf + start;
	name = isspace(*p) ? NULL : synth_next_word(&p);
	if (!name || strchr(name, ';')) {
		ret = synth_fail(err, SYNTH_ERR_INVALID_CMD, 0);
		goto out;
	}
	/*
	 * A command without a whole first field ("type name") is
	 * malformed, whatever its name.
	 */
	if (need_fields && synth_words_before_semicolon(p) < 2) {
		ret = synth_fail(err, SYNTH_ERR_INVALID_CMD, 0);
		goto out;
	}
	/* Event names have no length limit either. */
	if (!is_good_name(name)) {
		ret = synth_fail(err, SYNTH_ERR_BAD_NAME, name - buf);
		goto out;
	}
	def->name = kstrdup(name, GFP_KERNEL);
	if (!def->name) {
		ret = -ENOMEM;
		goto out;
	}

	ret = synth_parse_list(cmd, buf, p, def, err);
	if (!ret && need_fields && !def->n_fields)
		ret = synth_fail(err, SYNTH_ERR_INVALID_CMD, 0);
out:
	kfree(buf);
	if (ret) {
		synth_def_free(def);
		return ret;
	}
	*pdef = def;
	return 0;
}
