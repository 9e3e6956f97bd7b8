// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the hist trigger text parser (trace_hist_parse.c).
 *
 * The suite feeds hist_spec_parse() the text that follows "hist:" and
 * checks the whole description it builds, field by field: keys (single,
 * compound, the "key=" alias, empty items), values under all three names,
 * a later keys= or vals= section replacing an earlier one, sort criteria
 * with their direction, size= rounded up to map_bits, name=, clock=, the
 * flags, variable definitions in order, and actions kept as text, with
 * parentheses protecting a ':' inside them.  Every class of malformed
 * text is checked for the return value, &hist_spec.err, its message and
 * the text &hist_spec.err_str points at, and for the error_log caret the
 * caller derives from that text.  Every spec is released with
 * hist_spec_free(), also when an assertion ends a test early.
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_hist.h"

KUNIT_DEFINE_ACTION_WRAPPER(hpk_free_action, hist_spec_free, struct hist_spec *);

/**
 * hpk_parse() - parse a trigger text into a spec freed by the test
 * @test: the running test
 * @text: what follows "hist:"; may be NULL
 * @ret: set to the return value of hist_spec_parse()
 *
 * hist_spec_free() is registered as a deferred action before parsing, so
 * it runs whatever the result, even when an assertion aborts the test;
 * hpk_done() runs it at once.
 *
 * Return: the spec, allocated with kunit_kzalloc().
 */
static struct hist_spec *hpk_parse(struct kunit *test, const char *text,
				   int *ret)
{
	struct hist_spec *spec = kunit_kzalloc(test, sizeof(*spec), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, spec);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, hpk_free_action,
							spec), 0);
	*ret = hist_spec_parse(text, spec);
	return spec;
}

/**
 * hpk_done() - release a spec from hpk_parse() now
 * @test: the running test
 * @spec: the spec; hist_spec_free() runs on it, then its memory goes
 */
static void hpk_done(struct kunit *test, struct hist_spec *spec)
{
	kunit_release_action(test, hpk_free_action, spec);
	kunit_kfree(test, spec);
}

/**
 * struct hpk_var - an expected variable definition
 * @name: the variable name
 * @str: the expression text
 */
struct hpk_var {
	const char	*name;
	const char	*str;
};

/**
 * struct hpk_sort - an expected sort criterion
 * @name: the field name, without modifier
 * @descending: ".descending" was given
 */
struct hpk_sort {
	const char	*name;
	bool		descending;
};

/**
 * struct hpk_case - a valid trigger text and the whole spec expected
 * @text: what follows "hist:"
 * @keys: expected key items, in order; NULL ends the list
 * @vals: expected value items, in order; NULL ends the list
 * @sort: expected sort criteria; a NULL name ends the list
 * @vars: expected variables, in order; a NULL name ends the list
 * @actions: expected action texts, in order; NULL ends the list
 * @name: expected name=, or NULL
 * @name_str: expected whole name= section, or NULL
 * @clock: expected clock=, or NULL
 * @map_bits: expected map_bits (0: size= not given)
 * @pause: expected &hist_spec.pause
 * @cont: expected &hist_spec.cont
 * @clear: expected &hist_spec.clear
 * @nohitcount: expected &hist_spec.nohitcount
 *
 * Whatever is left out must be empty in the spec: each case describes the
 * spec completely.
 */
struct hpk_case {
	const char	*text;
	const char	*keys[HIST_KEYS_MAX];
	const char	*vals[HIST_VALS_MAX];
	struct hpk_sort	sort[HIST_SORT_KEYS_MAX];
	struct hpk_var	vars[HIST_VARS_MAX];
	const char	*actions[HIST_ACTIONS_MAX];
	const char	*name;
	const char	*name_str;
	const char	*clock;
	unsigned int	map_bits;
	bool		pause;
	bool		cont;
	bool		clear;
	bool		nohitcount;
};

/* Number of non-NULL entries before the first NULL (at most @max). */
static unsigned int hpk_count(const char *const *strs, unsigned int max)
{
	unsigned int n = 0;

	while (n < max && strs[n])
		n++;
	return n;
}

/* @p points into the NUL-terminated copy @buf of @text. */
static bool hpk_in_copy(const char *p, const char *buf, const char *text)
{
	return p && buf && p >= buf && p <= buf + strlen(text);
}

/*
 * Check one string of the spec: NULL when @want is NULL, else equal to
 * @want and, when @buf is given, inside @buf (a copy of @text).
 */
static void hpk_expect_str(struct kunit *test, const char *text,
			   const char *what, unsigned int i, const char *got,
			   const char *want, const char *buf)
{
	if (!want) {
		KUNIT_EXPECT_NULL_MSG(test, got, "\"%s\": %s[%u]", text, what, i);
		return;
	}
	KUNIT_EXPECT_NOT_NULL_MSG(test, got, "\"%s\": %s[%u]", text, what, i);
	if (!got)
		return;
	KUNIT_EXPECT_STREQ_MSG(test, got, want, "\"%s\": %s[%u]", text, what, i);
	if (buf)
		KUNIT_EXPECT_TRUE_MSG(test, hpk_in_copy(got, buf, text),
				      "\"%s\": %s[%u] is not in the spec's copy",
				      text, what, i);
}

/* Check a list of items against NULL-terminated @want. */
static void hpk_expect_items(struct kunit *test, const struct hist_spec *spec,
			     const char *text, const char *what,
			     const struct hist_spec_item *items, unsigned int n,
			     const char *const *want, unsigned int max)
{
	unsigned int i, n_want = hpk_count(want, max);

	KUNIT_EXPECT_EQ_MSG(test, n, n_want, "\"%s\": number of %s", text, what);
	for (i = 0; i < min(n, n_want); i++) {
		hpk_expect_str(test, text, what, i, items[i].str, want[i],
			       spec->buf);
		KUNIT_EXPECT_NULL_MSG(test, items[i].name, "\"%s\": %s[%u].name",
				      text, what, i);
	}
}

static void hpk_expect_sort(struct kunit *test, const struct hist_spec *spec,
			    const struct hpk_case *c)
{
	unsigned int i, n = 0;

	while (n < HIST_SORT_KEYS_MAX && c->sort[n].name)
		n++;
	KUNIT_EXPECT_EQ_MSG(test, spec->n_sort, n, "\"%s\": n_sort", c->text);
	for (i = 0; i < min(spec->n_sort, n); i++) {
		hpk_expect_str(test, c->text, "sort", i, spec->sort[i].name,
			       c->sort[i].name, spec->buf);
		KUNIT_EXPECT_EQ_MSG(test, spec->sort[i].descending,
				    c->sort[i].descending,
				    "\"%s\": sort[%u].descending", c->text, i);
	}
}

static void hpk_expect_vars(struct kunit *test, const struct hist_spec *spec,
			    const struct hpk_case *c)
{
	unsigned int i, n = 0;

	while (n < HIST_VARS_MAX && c->vars[n].name)
		n++;
	KUNIT_EXPECT_EQ_MSG(test, spec->n_vars, n, "\"%s\": n_vars", c->text);
	for (i = 0; i < min(spec->n_vars, n); i++) {
		hpk_expect_str(test, c->text, "var name", i, spec->vars[i].name,
			       c->vars[i].name, spec->buf);
		hpk_expect_str(test, c->text, "var expr", i, spec->vars[i].str,
			       c->vars[i].str, spec->buf);
	}
}

/**
 * hpk_check() - parse a valid text and compare the whole spec
 * @test: the running test
 * @c: the text and everything expected of its spec
 */
static void hpk_check(struct kunit *test, const struct hpk_case *c)
{
	struct hist_spec *spec;
	int ret;

	spec = hpk_parse(test, c->text, &ret);
	KUNIT_EXPECT_EQ_MSG(test, ret, 0, "\"%s\"", c->text);
	KUNIT_EXPECT_EQ_MSG(test, spec->err, HIST_ERR_NONE, "\"%s\"", c->text);
	if (ret) {
		hpk_done(test, spec);
		return;
	}

	/* A private copy: the caller's text is not cut up. */
	KUNIT_EXPECT_NOT_NULL(test, spec->buf);
	KUNIT_EXPECT_PTR_NE(test, (const char *)spec->buf, c->text);

	hpk_expect_items(test, spec, c->text, "key", spec->keys, spec->n_keys,
			 c->keys, HIST_KEYS_MAX);
	hpk_expect_items(test, spec, c->text, "val", spec->vals, spec->n_vals,
			 c->vals, HIST_VALS_MAX);
	hpk_expect_sort(test, spec, c);
	hpk_expect_vars(test, spec, c);
	hpk_expect_items(test, spec, c->text, "action", spec->actions,
			 spec->n_actions, c->actions, HIST_ACTIONS_MAX);

	hpk_expect_str(test, c->text, "name", 0, spec->name, c->name, spec->buf);
	hpk_expect_str(test, c->text, "name_str", 0, spec->name_str, c->name_str,
		       spec->sec_buf);
	hpk_expect_str(test, c->text, "clock", 0, spec->clock, c->clock,
		       spec->buf);
	KUNIT_EXPECT_EQ_MSG(test, spec->map_bits, c->map_bits, "\"%s\"", c->text);
	KUNIT_EXPECT_EQ_MSG(test, spec->pause, c->pause, "\"%s\"", c->text);
	KUNIT_EXPECT_EQ_MSG(test, spec->cont, c->cont, "\"%s\"", c->text);
	KUNIT_EXPECT_EQ_MSG(test, spec->clear, c->clear, "\"%s\"", c->text);
	KUNIT_EXPECT_EQ_MSG(test, spec->nohitcount, c->nohitcount, "\"%s\"",
			    c->text);
	hpk_done(test, spec);
}

static void hpk_check_all(struct kunit *test, const struct hpk_case *cases,
			  unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		hpk_check(test, &cases[i]);
}

static const struct hpk_case hpk_key_cases[] = {
	{ .text = "keys=pid", .keys = { "pid" } },
	{ .text = "key=pid", .keys = { "pid" } },
	{
		.text = "keys=common_pid,prio,target_cpu",
		.keys = { "common_pid", "prio", "target_cpu" },
	},
	{
		.text = "key=next_comm.execname,call_site.sym-offset",
		.keys = { "next_comm.execname", "call_site.sym-offset" },
	},
	/* Items are the comma-separated pieces, empty ones included. */
	{ .text = "keys=pid,", .keys = { "pid", "" } },
	{ .text = "keys=,pid", .keys = { "", "pid" } },
	{ .text = "keys=,,", .keys = { "", "", "" } },
	/* The last keys= section wins, whatever its spelling. */
	{ .text = "keys=pid:keys=comm,prio", .keys = { "comm", "prio" } },
	{ .text = "keys=pid,comm,prio:key=cpu", .keys = { "cpu" } },
	{ .text = "key=cpu:keys=pid,comm,prio", .keys = { "pid", "comm", "prio" } },
};

static void hpk_test_keys(struct kunit *test)
{
	hpk_check_all(test, hpk_key_cases, ARRAY_SIZE(hpk_key_cases));
}

static const struct hpk_case hpk_val_cases[] = {
	{ .text = "keys=pid:vals=prio", .keys = { "pid" }, .vals = { "prio" } },
	{
		.text = "keys=pid:values=prio,target_cpu",
		.keys = { "pid" },
		.vals = { "prio", "target_cpu" },
	},
	{ .text = "keys=pid:val=prio", .keys = { "pid" }, .vals = { "prio" } },
	/* Values are kept as written, hitcount included. */
	{
		.text = "keys=pid:vals=hitcount,prio,target_cpu",
		.keys = { "pid" },
		.vals = { "hitcount", "prio", "target_cpu" },
	},
	{
		.text = "keys=pid:vals=prio*2,common_timestamp.usecs",
		.keys = { "pid" },
		.vals = { "prio*2", "common_timestamp.usecs" },
	},
	{ .text = "keys=pid:vals=prio,", .keys = { "pid" }, .vals = { "prio", "" } },
	/* Sections may come in any order. */
	{ .text = "vals=prio:keys=pid", .keys = { "pid" }, .vals = { "prio" } },
	/* The last vals= section wins, whatever its spelling. */
	{
		.text = "keys=pid:vals=prio:vals=target_cpu",
		.keys = { "pid" },
		.vals = { "target_cpu" },
	},
	{
		.text = "keys=pid:vals=a,b,c:values=d",
		.keys = { "pid" },
		.vals = { "d" },
	},
	{
		.text = "keys=pid:val=a:keys=comm:vals=b,c",
		.keys = { "comm" },
		.vals = { "b", "c" },
	},
};

static void hpk_test_vals(struct kunit *test)
{
	hpk_check_all(test, hpk_val_cases, ARRAY_SIZE(hpk_val_cases));
}

static const struct hpk_case hpk_sort_cases[] = {
	{
		.text = "keys=pid:sort=hitcount",
		.keys = { "pid" },
		.sort = { { "hitcount", false } },
	},
	{
		.text = "keys=pid:vals=prio:sort=prio.ascending",
		.keys = { "pid" },
		.vals = { "prio" },
		.sort = { { "prio", false } },
	},
	{
		.text = "keys=pid:vals=prio:sort=prio.descending",
		.keys = { "pid" },
		.vals = { "prio" },
		.sort = { { "prio", true } },
	},
	{
		.text = "keys=pid:vals=prio:sort=prio.descending,pid",
		.keys = { "pid" },
		.vals = { "prio" },
		.sort = { { "prio", true }, { "pid", false } },
	},
	{
		.text = "keys=pid:vals=prio:sort=pid.ascending,prio.descending",
		.keys = { "pid" },
		.vals = { "prio" },
		.sort = { { "pid", false }, { "prio", true } },
	},
	{
		.text = "sort=hitcount.descending,pid:keys=pid",
		.keys = { "pid" },
		.sort = { { "hitcount", true }, { "pid", false } },
	},
	/* A later sort= replaces an earlier one. */
	{
		.text = "keys=pid:sort=pid.descending,hitcount:sort=hitcount",
		.keys = { "pid" },
		.sort = { { "hitcount", false } },
	},
};

static void hpk_test_sort(struct kunit *test)
{
	hpk_check_all(test, hpk_sort_cases, ARRAY_SIZE(hpk_sort_cases));
}

/* size= is rounded up to a power of two; map_bits is its log2. */
static const struct hpk_case hpk_size_cases[] = {
	{ .text = "keys=pid:size=100", .keys = { "pid" }, .map_bits = 7 },
	{ .text = "keys=pid:size=128", .keys = { "pid" }, .map_bits = 7 },
	{ .text = "keys=pid:size=2048", .keys = { "pid" }, .map_bits = 11 },
	{ .text = "keys=pid:size=3000", .keys = { "pid" }, .map_bits = 12 },
	{ .text = "keys=pid:size=131072", .keys = { "pid" }, .map_bits = 17 },
	{ .text = "size=3000:keys=pid", .keys = { "pid" }, .map_bits = 12 },
	{ .text = "keys=pid:size=100:size=2048", .keys = { "pid" }, .map_bits = 11 },
};

static void hpk_test_size(struct kunit *test)
{
	hpk_check_all(test, hpk_size_cases, ARRAY_SIZE(hpk_size_cases));
}

static const struct hpk_case hpk_name_clock_cases[] = {
	{
		.text = "keys=pid:name=foo",
		.keys = { "pid" },
		.name = "foo",
		.name_str = "name=foo",
	},
	{
		.text = "keys=pid:clock=global",
		.keys = { "pid" },
		.clock = "global",
	},
	/* name_str is the name= section alone, cut at the next ':'. */
	{
		.text = "keys=pid:name=foo:clock=mono:vals=prio",
		.keys = { "pid" },
		.vals = { "prio" },
		.name = "foo",
		.name_str = "name=foo",
		.clock = "mono",
	},
	{
		.text = "name=bar:keys=pid:name=foo",
		.keys = { "pid" },
		.name = "foo",
		.name_str = "name=foo",
	},
};

static void hpk_test_name_clock(struct kunit *test)
{
	hpk_check_all(test, hpk_name_clock_cases,
		      ARRAY_SIZE(hpk_name_clock_cases));
}

static const struct hpk_case hpk_flag_cases[] = {
	{ .text = "keys=pid", .keys = { "pid" } },
	{ .text = "keys=pid:pause", .keys = { "pid" }, .pause = true },
	{ .text = "keys=pid:cont", .keys = { "pid" }, .cont = true },
	{ .text = "keys=pid:continue", .keys = { "pid" }, .cont = true },
	{ .text = "keys=pid:clear", .keys = { "pid" }, .clear = true },
	{
		.text = "keys=pid:vals=prio:nohitcount",
		.keys = { "pid" },
		.vals = { "prio" },
		.nohitcount = true,
	},
	{
		.text = "keys=pid:vals=prio:NOHC",
		.keys = { "pid" },
		.vals = { "prio" },
		.nohitcount = true,
	},
	{
		.text = "pause:keys=pid:clear:NOHC:cont:vals=prio",
		.keys = { "pid" },
		.vals = { "prio" },
		.pause = true,
		.cont = true,
		.clear = true,
		.nohitcount = true,
	},
};

static void hpk_test_flags(struct kunit *test)
{
	hpk_check_all(test, hpk_flag_cases, ARRAY_SIZE(hpk_flag_cases));
}

static const struct hpk_case hpk_var_cases[] = {
	/* Definitions accumulate over sections, in order. */
	{
		.text = "keys=pid:a=prio,b=prio:c=x",
		.keys = { "pid" },
		.vars = { { "a", "prio" }, { "b", "prio" }, { "c", "x" } },
	},
	{
		.text = "a=prio:keys=pid:b=next_pid,c=prio",
		.keys = { "pid" },
		.vars = { { "a", "prio" }, { "b", "next_pid" }, { "c", "prio" } },
	},
	{
		.text = "keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0",
		.keys = { "next_pid" },
		.vars = { { "wakeup_lat", "common_timestamp.usecs-$ts0" } },
	},
	/* Only "on...(" is an action; "onx=" is a variable. */
	{
		.text = "keys=pid:onx=prio",
		.keys = { "pid" },
		.vars = { { "onx", "prio" } },
	},
};

static void hpk_test_vars(struct kunit *test)
{
	hpk_check_all(test, hpk_var_cases, ARRAY_SIZE(hpk_var_cases));
}

static const struct hpk_case hpk_action_cases[] = {
	{
		.text = "keys=pid:onmatch(sched.sched_waking).trace(foo,$x)",
		.keys = { "pid" },
		.actions = { "onmatch(sched.sched_waking).trace(foo,$x)" },
	},
	/* onmax() and onchange() of a variable. */
	{
		.text = "keys=pid:onmax($v).save(pid,prio)",
		.keys = { "pid" },
		.actions = { "onmax($v).save(pid,prio)" },
	},
	{
		.text = "keys=pid:onchange($v).save(pid)",
		.keys = { "pid" },
		.actions = { "onchange($v).save(pid)" },
	},
	/* Several actions are kept in order. */
	{
		.text = "onmax($v).snapshot():keys=pid:onmatch(sched.sched_waking).trace(foo,$x)",
		.keys = { "pid" },
		.actions = {
			"onmax($v).snapshot()",
			"onmatch(sched.sched_waking).trace(foo,$x)",
		},
	},
};

static void hpk_test_actions(struct kunit *test)
{
	hpk_check_all(test, hpk_action_cases, ARRAY_SIZE(hpk_action_cases));
}

/* The caller's text is only read. */
static void hpk_test_text_untouched(struct kunit *test)
{
	static const char text[] =
		"keys=pid,comm:vals=prio:sort=prio.descending:x=prio:onmax($x).save(pid)";
	char copy[sizeof(text)];
	struct hist_spec *spec;
	int ret;

	memcpy(copy, text, sizeof(text));
	spec = hpk_parse(test, copy, &ret);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_STREQ(test, copy, text);
	hpk_done(test, spec);
}

/**
 * struct hpk_err_case - a malformed text and the failure expected
 * @text: what follows "hist:"; may be NULL
 * @err: expected &hist_spec.err
 * @msg: expected hist_err_text[] of @err
 * @err_str: expected text &hist_spec.err_str points at; NULL: not checked
 *	(the error concerns the whole text)
 */
struct hpk_err_case {
	const char	*text;
	enum hist_err	err;
	const char	*msg;
	const char	*err_str;
};

#define HPK_EMPTY_ASSIGNMENT	"Empty assignment"
#define HPK_MISSING_KEYS	"Missing keys"
#define HPK_UNKNOWN_ATTR	"Unknown hist trigger attribute"
#define HPK_BAD_SIZE		"Invalid size (128 to 131072 entries)"

static const struct hpk_err_case hpk_err_cases[] = {
	/* Nothing to parse, or no keys: error_log says so. */
	{ NULL, HIST_ERR_MISSING_KEYS, HPK_MISSING_KEYS },
	{ "", HIST_ERR_MISSING_KEYS, HPK_MISSING_KEYS },
	{ "vals=prio", HIST_ERR_MISSING_KEYS, HPK_MISSING_KEYS },
	{ "pause", HIST_ERR_MISSING_KEYS, HPK_MISSING_KEYS },
	/* A section that is no known word and no assignment. */
	{ "keys=pid:bogus", HIST_ERR_UNKNOWN_ATTR, HPK_UNKNOWN_ATTR, "bogus" },
	{ "keys=pid:vals=prio:Pause", HIST_ERR_UNKNOWN_ATTR, HPK_UNKNOWN_ATTR, "Pause" },
	{ "keys=pid:=prio", HIST_ERR_MISSING_VAR_NAME, "Missing variable name", "=prio" },
	{ "keys=pid:a=1,b", HIST_ERR_MALFORMED_ASSIGNMENT, "Malformed assignment", "b" },
	{
		"keys=pid:onmax($x).save(a.buckets=2,b)",
		HIST_ERR_MALFORMED_ASSIGNMENT, "Malformed assignment", "b)",
	},
	{ "keys=pid:onmax($x", HIST_ERR_NO_CLOSING_PAREN, "No closing paren found", "onmax($x" },
	/* A ':' ends a section even inside parentheses. */
	{
		"keys=pid:onmatch(sched.sched_waking).trace(foo,$x:$y)",
		HIST_ERR_UNKNOWN_ATTR, HPK_UNKNOWN_ATTR, "$y)",
	},

	/* Empty assignments point at the whole section. */
	{ "keys=", HIST_ERR_EMPTY_ASSIGNMENT, HPK_EMPTY_ASSIGNMENT, "keys=" },
	{ "key=", HIST_ERR_EMPTY_ASSIGNMENT, HPK_EMPTY_ASSIGNMENT, "key=" },
	{ "keys=:vals=prio", HIST_ERR_EMPTY_ASSIGNMENT, HPK_EMPTY_ASSIGNMENT, "keys=" },
	{ "keys=pid:keys=", HIST_ERR_EMPTY_ASSIGNMENT, HPK_EMPTY_ASSIGNMENT, "keys=" },
	{ "vals=", HIST_ERR_EMPTY_ASSIGNMENT, HPK_EMPTY_ASSIGNMENT, "vals=" },
	{ "keys=pid:vals=", HIST_ERR_EMPTY_ASSIGNMENT, HPK_EMPTY_ASSIGNMENT, "vals=" },
	{ "keys=pid:values=", HIST_ERR_EMPTY_ASSIGNMENT, HPK_EMPTY_ASSIGNMENT, "values=" },
	{ "keys=pid:val=:pause", HIST_ERR_EMPTY_ASSIGNMENT, HPK_EMPTY_ASSIGNMENT, "val=" },
	{ "keys=pid:sort=", HIST_ERR_EMPTY_ASSIGNMENT, HPK_EMPTY_ASSIGNMENT, "sort=" },
	{ "sort=:keys=pid", HIST_ERR_EMPTY_ASSIGNMENT, HPK_EMPTY_ASSIGNMENT, "sort=" },
	{ "keys=pid:name=", HIST_ERR_EMPTY_ASSIGNMENT, HPK_EMPTY_ASSIGNMENT, "name=" },
	{ "keys=pid:x=", HIST_ERR_EMPTY_ASSIGNMENT, HPK_EMPTY_ASSIGNMENT, "x=" },
	{ "x=:keys=pid", HIST_ERR_EMPTY_ASSIGNMENT, HPK_EMPTY_ASSIGNMENT, "x=" },
	/* Sizes outside [128, 131072] after rounding, or not a number. */
	{ "keys=pid:size=0", HIST_ERR_BAD_SIZE, HPK_BAD_SIZE, "0" },
	{ "keys=pid:size=1", HIST_ERR_BAD_SIZE, HPK_BAD_SIZE, "1" },
	{ "keys=pid:size=4", HIST_ERR_BAD_SIZE, HPK_BAD_SIZE, "4" },
	{ "keys=pid:size=200000", HIST_ERR_BAD_SIZE, HPK_BAD_SIZE, "200000" },
	{ "keys=pid:size=abc", HIST_ERR_BAD_SIZE, HPK_BAD_SIZE, "abc" },
};

/**
 * hpk_check_err() - parse a malformed text and check the failure
 * @test: the running test
 * @c: the text and the failure expected
 */
static void hpk_check_err(struct kunit *test, const struct hpk_err_case *c)
{
	struct hist_spec *spec;
	int ret;

	spec = hpk_parse(test, c->text, &ret);
	KUNIT_EXPECT_EQ_MSG(test, ret, -EINVAL, "\"%s\"", c->text);
	KUNIT_EXPECT_EQ_MSG(test, spec->err, c->err, "\"%s\"", c->text);
	if (spec->err < HIST_ERR_MAX)
		KUNIT_EXPECT_STREQ_MSG(test, hist_err_text[spec->err], c->msg,
				       "\"%s\"", c->text);
	if (c->err_str) {
		KUNIT_EXPECT_NOT_NULL_MSG(test, spec->err_str, "\"%s\"", c->text);
		if (spec->err_str)
			KUNIT_EXPECT_STREQ_MSG(test, spec->err_str, c->err_str,
					       "\"%s\"", c->text);
	}
	hpk_done(test, spec);
}

static void hpk_test_errors(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hpk_err_cases); i++)
		hpk_check_err(test, &hpk_err_cases[i]);
}

/*
 * "keys=pid" and @n definitions v0=prio, v1=prio, ..., starting a new
 * section every @per_sec of them.
 */
static const char *hpk_vars_text(struct kunit *test, unsigned int n,
				 unsigned int per_sec)
{
	const size_t size = 16 + 12 * n;
	char *text = kunit_kzalloc(test, size, GFP_KERNEL);
	unsigned int i;
	size_t len;

	KUNIT_ASSERT_NOT_NULL(test, text);
	len = scnprintf(text, size, "keys=pid");
	for (i = 0; i < n; i++)
		len += scnprintf(text + len, size - len, "%cv%u=prio",
				 i % per_sec ? ',' : ':', i);
	KUNIT_ASSERT_LT(test, len, size - 1);
	return text;
}

/*
 * HIST_VARS_MAX variables are accepted, in order, however they are grouped
 * into sections; one more is HIST_ERR_TOO_MANY_VARS at its name.
 */
static void hpk_test_vars_limit(struct kunit *test)
{
	static const unsigned int per_sec[] = { 1, 5, 9, HIST_VARS_MAX + 1 };
	struct hpk_err_case c = {
		.err = HIST_ERR_TOO_MANY_VARS,
		.msg = "Too many variables defined",
	};
	struct hist_spec *spec;
	const char *text;
	char name[16];
	unsigned int i, j;
	int ret;

	for (j = 0; j < ARRAY_SIZE(per_sec); j++) {
		text = hpk_vars_text(test, HIST_VARS_MAX, per_sec[j]);
		spec = hpk_parse(test, text, &ret);
		KUNIT_EXPECT_EQ_MSG(test, ret, 0, "\"%s\"", text);
		KUNIT_EXPECT_EQ_MSG(test, spec->err, HIST_ERR_NONE, "\"%s\"", text);
		KUNIT_EXPECT_EQ_MSG(test, spec->n_vars, HIST_VARS_MAX, "\"%s\"", text);
		for (i = 0; i < min_t(unsigned int, spec->n_vars, HIST_VARS_MAX); i++) {
			snprintf(name, sizeof(name), "v%u", i);
			hpk_expect_str(test, text, "var name", i,
				       spec->vars[i].name, name, spec->buf);
			hpk_expect_str(test, text, "var expr", i,
				       spec->vars[i].str, "prio", spec->buf);
		}
		hpk_done(test, spec);
		kunit_kfree(test, text);

		/* 17 with the limit of 16: the last one fails. */
		snprintf(name, sizeof(name), "v%u", HIST_VARS_MAX);
		c.text = hpk_vars_text(test, HIST_VARS_MAX + 1, per_sec[j]);
		c.err_str = name;
		hpk_check_err(test, &c);
		kunit_kfree(test, c.text);
	}
}

/*
 * More keys, values or sort criteria than fit are no parse error: the
 * fields before the limit are checked first (the error_log order), so the
 * parser keeps as many as fit and says there were more.  Sort criteria
 * keep their modifier as written, checked against the fields later.
 */
static void hpk_test_overflow(struct kunit *test)
{
	struct hist_spec *spec;
	int ret;

	BUILD_BUG_ON(HIST_KEYS_MAX != 8 || HIST_VALS_MAX != 16);
	spec = hpk_parse(test,
			 "keys=k1,k2,k3,k4,k5,k6,k7,k8,k9:vals=a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q",
			 &ret);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, spec->n_keys, HIST_KEYS_MAX);
	KUNIT_EXPECT_TRUE(test, spec->keys_overflow);
	KUNIT_EXPECT_STREQ(test, spec->keys[HIST_KEYS_MAX - 1].str, "k8");
	KUNIT_EXPECT_EQ(test, spec->n_vals, HIST_VALS_MAX);
	KUNIT_EXPECT_TRUE(test, spec->vals_overflow);
	KUNIT_EXPECT_STREQ(test, spec->vals[HIST_VALS_MAX - 1].str, "p");
	KUNIT_EXPECT_FALSE(test, spec->sort_overflow);
	KUNIT_EXPECT_STREQ(test, spec->keys_str,
			   "keys=k1,k2,k3,k4,k5,k6,k7,k8,k9");
	KUNIT_EXPECT_STREQ(test, spec->vals_str,
			   "vals=a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q");
	hpk_done(test, spec);

	/* exactly the limits: no overflow */
	spec = hpk_parse(test,
			 "keys=k1,k2,k3,k4,k5,k6,k7,k8:vals=a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p",
			 &ret);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, spec->n_keys, HIST_KEYS_MAX);
	KUNIT_EXPECT_FALSE(test, spec->keys_overflow);
	KUNIT_EXPECT_EQ(test, spec->n_vals, HIST_VALS_MAX);
	KUNIT_EXPECT_FALSE(test, spec->vals_overflow);
	hpk_done(test, spec);

	BUILD_BUG_ON(HIST_SORT_KEYS_MAX != 4);
	spec = hpk_parse(test, "keys=pid:vals=a,b:sort=a.bogus,,b.descending,c,d",
			 &ret);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_FALSE(test, spec->keys_overflow);
	KUNIT_EXPECT_FALSE(test, spec->vals_overflow);
	KUNIT_EXPECT_EQ(test, spec->n_sort, HIST_SORT_KEYS_MAX);
	KUNIT_EXPECT_TRUE(test, spec->sort_overflow);
	KUNIT_EXPECT_STREQ(test, spec->sort_str,
			   "sort=a.bogus,,b.descending,c,d");
	KUNIT_EXPECT_STREQ(test, spec->sort[0].name, "a");
	KUNIT_EXPECT_STREQ(test, spec->sort[0].mod, "bogus");
	KUNIT_EXPECT_FALSE(test, spec->sort[0].descending);
	KUNIT_EXPECT_STREQ(test, spec->sort[1].name, "");
	KUNIT_EXPECT_NULL(test, spec->sort[1].mod);
	hpk_done(test, spec);
}

/**
 * struct hpk_caret_case - where error_log puts the caret
 * @text: what follows "hist:"
 * @err: expected &hist_spec.err
 * @caret: expected offset of &hist_spec.err_str in "hist:" @text
 */
struct hpk_caret_case {
	const char	*text;
	enum hist_err	err;
	int		caret;
};

static const struct hpk_caret_case hpk_caret_cases[] = {
	{ "keys=", HIST_ERR_EMPTY_ASSIGNMENT, 5 },
	{ "keys=:vals=prio", HIST_ERR_EMPTY_ASSIGNMENT, 5 },
	{ "keys=pid:size=4", HIST_ERR_BAD_SIZE, 19 },
	{ "keys=pid:nohitcnt", HIST_ERR_UNKNOWN_ATTR, 14 },
	{ "keys=pid:=prio", HIST_ERR_MISSING_VAR_NAME, 14 },
};

/*
 * The caller logs the error with the caret at the first occurrence of
 * err_str in the command, "hist:" followed by the text.
 */
static void hpk_test_error_caret(struct kunit *test)
{
	const struct hpk_caret_case *c;
	struct hist_spec *spec;
	char command[128];
	const char *at;
	unsigned int i;
	int ret, len;

	for (i = 0; i < ARRAY_SIZE(hpk_caret_cases); i++) {
		c = &hpk_caret_cases[i];
		len = snprintf(command, sizeof(command), "hist:%s", c->text);
		KUNIT_ASSERT_LT(test, len, (int)sizeof(command));
		spec = hpk_parse(test, c->text, &ret);
		KUNIT_EXPECT_EQ_MSG(test, ret, -EINVAL, "\"%s\"", command);
		KUNIT_EXPECT_EQ_MSG(test, spec->err, c->err, "\"%s\"", command);
		KUNIT_EXPECT_NOT_NULL_MSG(test, spec->err_str, "\"%s\"", command);
		if (spec->err_str) {
			at = strstr(command, spec->err_str);
			KUNIT_EXPECT_NOT_NULL_MSG(test, at, "\"%s\" in \"%s\"",
						  spec->err_str, command);
			if (at)
				KUNIT_EXPECT_EQ_MSG(test, at - command, c->caret,
						    "\"%s\" in \"%s\"",
						    spec->err_str, command);
		}
		hpk_done(test, spec);
	}
}

/* hist_spec_free() takes any spec hist_spec_parse() has seen, twice too. */
static void hpk_test_free(struct kunit *test)
{
	static const char *const texts[] = {
		NULL, "", "keys=pid", "keys=pid:bogus", "keys=", "x=prio:x=pid",
	};
	struct hist_spec *spec;
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(texts); i++) {
		spec = hpk_parse(test, texts[i], &ret);
		hist_spec_free(spec);
		KUNIT_EXPECT_NULL(test, spec->buf);
		KUNIT_EXPECT_NULL(test, spec->sec_buf);
		hpk_done(test, spec);
	}
}

static struct kunit_case hist_parse_test_cases[] = {
	KUNIT_CASE(hpk_test_keys),
	KUNIT_CASE(hpk_test_vals),
	KUNIT_CASE(hpk_test_sort),
	KUNIT_CASE(hpk_test_size),
	KUNIT_CASE(hpk_test_name_clock),
	KUNIT_CASE(hpk_test_flags),
	KUNIT_CASE(hpk_test_vars),
	KUNIT_CASE(hpk_test_actions),
	KUNIT_CASE(hpk_test_text_untouched),
	KUNIT_CASE(hpk_test_errors),
	KUNIT_CASE(hpk_test_overflow),
	KUNIT_CASE(hpk_test_vars_limit),
	KUNIT_CASE(hpk_test_error_caret),
	KUNIT_CASE(hpk_test_free),
	{}
};

static struct kunit_suite hist_parse_test_suite = {
	.name = "hist_trigger_parse",
	.test_cases = hist_parse_test_cases,
};

kunit_test_suite(hist_parse_test_suite);
