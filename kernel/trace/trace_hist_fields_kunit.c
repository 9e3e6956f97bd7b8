// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for compiled hist expressions (trace_hist_fields.c).
 *
 * Compiled expressions (hist_expr_compile()) against the tree walk: random
 * trees of up to HIST_EXPR_DEPTH_MAX operators over every leaf kind an
 * expression can hold (record fields of every width and signedness,
 * literals, references, timestamps in ns and usecs, the CPU; fields,
 * timestamps and the CPU with and without .log2 or .buckets, with or
 * without a range), evaluated on random records, must give exactly the
 * value the tree walk gives.  A tree with one operator more than the
 * parser allows is left uncompiled and still evaluates.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "trace_hist.h"

#define HEK_NODES	16
#define HEK_REC_SIZE	64

struct hek_ctx {
	struct rnd_state	rnd;
	struct hist_field	*nodes;
	unsigned int		n_nodes;
	unsigned int		n_folded;	/* literal right operands */
};

static u32 hek_rand(struct hek_ctx *c, u32 n)
{
	return prandom_u32_state(&c->rnd) % n;
}

static u64 hek_rand64(struct hek_ctx *c)
{
	u64 v = (u64)prandom_u32_state(&c->rnd) << 32 |
		prandom_u32_state(&c->rnd);

	/* small values, powers of two and full-width ones alike */
	switch (hek_rand(c, 4)) {
	case 0:
		return v % 16;
	case 1:
		return 1ULL << (v % 64);
	default:
		return v;
	}
}

static struct hist_field *hek_node(struct hek_ctx *c, enum hist_kind kind)
{
	struct hist_field *f = &c->nodes[c->n_nodes++];

	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->div_shift = -1;
	f->elt_slot = -1;
	return f;
}

/* Sometimes .log2, or .buckets=N, or .buckets=N@LO~HI, on a leaf. */
static struct hist_field *hek_modifier(struct hek_ctx *c, struct hist_field *f)
{
	if (hek_rand(c, 4) == 0) {
		f->flags |= HIST_FIELD_FL_LOG2;
	} else if (hek_rand(c, 4) == 0) {
		f->flags |= HIST_FIELD_FL_BUCKET;
		f->buckets = hek_rand(c, 1000) + 1;
		if (hek_rand(c, 2)) {
			f->bucket_lo = f->buckets * hek_rand(c, 4);
			f->bucket_hi = f->bucket_lo +
				       f->buckets * (hek_rand(c, 8) + 1);
		}
	}
	return f;
}

static struct hist_field *hek_leaf(struct hek_ctx *c)
{
	static const unsigned int sizes[] = { 1, 1, 2, 2, 4, 4, 8 };
	struct hist_field *f;
	unsigned int i;

	switch (hek_rand(c, 5)) {
	case 0:
		f = hek_node(c, HIST_KIND_CONST);
		f->constant = hek_rand64(c);
		return f;
	case 1:
		f = hek_node(c, HIST_KIND_VAR_REF);
		f->var_ref_idx = hek_rand(c, 4);
		return f;
	case 2:
		f = hek_node(c, HIST_KIND_TIMESTAMP);
		f->ts_usecs = hek_rand(c, 2);
		return hek_modifier(c, f);
	case 3:
		if (hek_rand(c, 4) == 0)
			return hek_modifier(c, hek_node(c, HIST_KIND_CPU));
		fallthrough;
	default:
		i = hek_rand(c, ARRAY_SIZE(sizes));
		f = hek_node(c, HIST_KIND_S8 + i);
		f->offset = hek_rand(c, HEK_REC_SIZE / sizes[i]) * sizes[i];
		return hek_modifier(c, f);
	}
}

/* A tree with exactly @ops operators. */
static struct hist_field *hek_tree(struct hek_ctx *c, unsigned int ops)
{
	static const enum hist_kind kinds[] = {
		HIST_KIND_PLUS, HIST_KIND_MINUS, HIST_KIND_MULT, HIST_KIND_DIV,
		HIST_KIND_NEG,
	};
	struct hist_field *f, *b;
	unsigned int left;

	if (!ops)
		return hek_leaf(c);
	f = hek_node(c, kinds[hek_rand(c, ARRAY_SIZE(kinds))]);
	if (f->kind == HIST_KIND_NEG) {
		f->operands[0] = hek_tree(c, ops - 1);
		return f;
	}
	left = hek_rand(c, ops);
	f->operands[0] = hek_tree(c, left);
	b = hek_tree(c, ops - 1 - left);
	f->operands[1] = b;
	if (b->kind == HIST_KIND_CONST)
		c->n_folded++;
	/* a literal divisor is never 0 (the parser refuses it) */
	if (f->kind == HIST_KIND_DIV && b->kind == HIST_KIND_CONST) {
		if (!b->constant)
			b->constant = 3;
		if (is_power_of_2(b->constant))
			f->div_shift = ilog2(b->constant);
		else
			f->div_mult = hist_div_mult(b->constant);
	}
	return f;
}

static void hek_test_compiled_equals_walk(struct kunit *test)
{
	struct hek_ctx c = {};
	u64 refs[4], walk, compiled;
	u8 rec[HEK_REC_SIZE] __aligned(8);
	struct hist_run run = {
		.rec = rec,
		.refs = refs,
		.have_ts = true,
	};
	unsigned int iter, i, ops, compiled_n = 0;
	struct hist_field *root;
	struct hist_expr *e;

	c.nodes = kunit_kcalloc(test, HEK_NODES, sizeof(*c.nodes), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c.nodes);
	prandom_seed_state(&c.rnd, 0x5eed);

	for (iter = 0; iter < 4000; iter++) {
		for (i = 0; i < ARRAY_SIZE(rec); i++)
			rec[i] = hek_rand(&c, 256);
		for (i = 0; i < ARRAY_SIZE(refs); i++)
			refs[i] = hek_rand64(&c);
		run.ts = hek_rand64(&c);

		ops = hek_rand(&c, HIST_EXPR_DEPTH_MAX) + 1;
		c.n_nodes = 0;
		c.n_folded = 0;
		root = hek_tree(&c, ops);

		/* compiled outside: it allocates */
		hist_expr_compile(root);
		e = root->expr;
		KUNIT_EXPECT_NOT_NULL(test, e);
		/* the same CPU for both, for common_cpu leaves */
		preempt_disable();
		compiled = hist_run_value(root, &run);
		root->expr = NULL;
		walk = hist_run_value(root, &run);
		root->expr = e;
		preempt_enable();

		if (root->expr) {
			compiled_n++;
			KUNIT_EXPECT_EQ_MSG(test, compiled, walk,
					    "iteration %u, %u operators", iter,
					    ops);
			/* one step per node, a literal right operand none */
			KUNIT_EXPECT_EQ(test, root->expr->n,
					c.n_nodes - c.n_folded);
		}
		kfree(root->expr);
		root->expr = NULL;
	}
	KUNIT_EXPECT_EQ(test, compiled_n, 4000);
}

/* One operator more than the parser takes: not compiled, still right. */
static void hek_test_too_deep(struct kunit *test)
{
	struct hek_ctx c = {};
	u64 refs[4] = { 1, 2, 3, 4 };
	u8 rec[HEK_REC_SIZE] __aligned(8) = {};
	struct hist_run run = { .rec = rec, .refs = refs, .have_ts = true };
	struct hist_field *root, *f;
	unsigned int i;

	c.nodes = kunit_kcalloc(test, HEK_NODES, sizeof(*c.nodes), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c.nodes);

	/* $0 + ($1 + ($2 + ($3 + $0))): 4 operators, 5 values deep */
	root = hek_node(&c, HIST_KIND_PLUS);
	f = root;
	for (i = 0; i < HIST_EXPR_DEPTH_MAX + 1; i++) {
		f->operands[0] = hek_node(&c, HIST_KIND_VAR_REF);
		f->operands[0]->var_ref_idx = i;
		f->operands[1] = hek_node(&c, i == HIST_EXPR_DEPTH_MAX ?
					      HIST_KIND_VAR_REF :
					      HIST_KIND_PLUS);
		f = f->operands[1];
	}
	hist_expr_compile(root);
	KUNIT_EXPECT_NULL(test, root->expr);
	KUNIT_EXPECT_EQ(test, hist_run_value(root, &run), 1 + 2 + 3 + 4 + 1);
	kfree(root->expr);

	/* three operators, leaning right: the deepest stack that fits */
	c.n_nodes = 0;
	root = hek_node(&c, HIST_KIND_MINUS);
	f = root;
	for (i = 0; i < HIST_EXPR_DEPTH_MAX; i++) {
		f->operands[0] = hek_node(&c, HIST_KIND_VAR_REF);
		f->operands[0]->var_ref_idx = i;
		f->operands[1] = hek_node(&c, i == HIST_EXPR_DEPTH_MAX - 1 ?
					      HIST_KIND_VAR_REF :
					      HIST_KIND_MINUS);
		f = f->operands[1];
	}
	f->var_ref_idx = 3;
	hist_expr_compile(root);
	KUNIT_EXPECT_NOT_NULL(test, root->expr);
	/* 1 - (2 - (3 - 4)) */
	KUNIT_EXPECT_EQ(test, hist_run_value(root, &run), (u64)-2);
	kfree(root->expr);
}

static struct kunit_case hist_expr_test_cases[] = {
	KUNIT_CASE(hek_test_compiled_equals_walk),
	KUNIT_CASE(hek_test_too_deep),
	{}
};

static struct kunit_suite hist_expr_test_suite = {
	.name = "hist_expr",
	.test_cases = hist_expr_test_cases,
};

kunit_test_suite(hist_expr_test_suite);
