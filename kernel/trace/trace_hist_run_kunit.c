// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the hist hot path (trace_hist_run.c).
 *
 * A histogram hist_fast_prepare() chose the fast path for is updated by
 * hist_fast_update(); every other one by hist_data_update().  Both must
 * give the same table.  Each case builds the same trigger text twice on
 * an event of its own (a record field of every width and signedness), one
 * histogram left on the fast path and one sent down the full path, feeds
 * both the same random records, and compares them entry by entry: the
 * key, every value (sums, .min/.max/.avg, the quantiles) and every
 * variable.  The texts cover every record field kind and modifier the
 * fast path takes, the CPU as a key part, expressions and the CPU as
 * variables; those it must leave to the full path are checked to do so.  (A common_timestamp
 * variable is computed by the code both paths share, from the ring
 * buffer, which these records are not in.)
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/prandom.h>
#include <linux/preempt.h>
#include <linux/slab.h>

#include "trace_hist.h"

#define HRK_RECORDS	400
#define HRK_REC_SIZE	56

/* The event: every numeric width and signedness, and a string. */
struct hrk_field_def {
	const char	*name;
	const char	*type;
	int		offset;
	int		size;
	bool		is_signed;
};

static const struct hrk_field_def hrk_fields[] = {
	{ "a", "s8", 8, 1, true },
	{ "b", "u8", 9, 1, false },
	{ "c", "s16", 10, 2, true },
	{ "d", "u16", 12, 2, false },
	{ "e", "s32", 16, 4, true },
	{ "f", "u32", 20, 4, false },
	{ "g", "s64", 24, 8, true },
	{ "h", "u64", 32, 8, false },
	{ "s", "char[16]", 40, 16, true },
};

struct hrk_event {
	struct ftrace_event_field	fields[ARRAY_SIZE(hrk_fields)];
	struct trace_event_class	class;
	struct trace_event_call		call;
	struct trace_event_file		file;
};

static void hrk_event_init(struct hrk_event *ev)
{
	unsigned int i;

	INIT_LIST_HEAD(&ev->class.fields);
	ev->class.system = "hist_run_kunit";
	for (i = 0; i < ARRAY_SIZE(hrk_fields); i++) {
		struct ftrace_event_field *ef = &ev->fields[i];

		ef->name = hrk_fields[i].name;
		ef->type = hrk_fields[i].type;
		ef->offset = hrk_fields[i].offset;
		ef->size = hrk_fields[i].size;
		ef->is_signed = hrk_fields[i].is_signed;
		ef->filter_type = i == ARRAY_SIZE(hrk_fields) - 1 ?
				  FILTER_STATIC_STRING : FILTER_OTHER;
		list_add_tail(&ef->link, &ev->class.fields);
	}
	ev->call.class = &ev->class;
	ev->call.name = "hrk";
	ev->file.event_call = &ev->call;
	ev->file.tr = top_trace_array();
	INIT_LIST_HEAD(&ev->file.triggers);
	INIT_LIST_HEAD(&ev->file.list);
}

/* No helper histograms here: nothing to make them on. */
static struct hist_data *hrk_no_helper(struct hist_data *owner,
				       struct trace_event_file *file,
				       const char *text)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static void hrk_no_drop(struct hist_data *helper)
{
}

static bool hrk_no_instance_removal(void)
{
	return false;
}

static const struct hist_data_ops hrk_ops = {
	.helper_create		= hrk_no_helper,
	.helper_drop		= hrk_no_drop,
	.put			= hist_data_put,
	.removing_instance	= hrk_no_instance_removal,
};

/* A histogram of @text on @ev, with its map; NULL (and a failed test) else. */
static struct hist_data *hrk_build(struct kunit *test, struct hrk_event *ev,
				   const char *text)
{
	struct hist_cmd hc = {
		.file		= &ev->file,
		.sort_keys_max	= HIST_SORT_KEYS_MAX,
		.ops		= &hrk_ops,
	};
	struct hist_data *hd;
	char *param;
	int ret;

	hc.text = kasprintf(GFP_KERNEL, "hist:%s", text);
	param = kstrdup(text, GFP_KERNEL);
	if (!hc.text || !param) {
		kfree(hc.text);
		kfree(param);
		KUNIT_FAIL(test, "out of memory");
		return NULL;
	}
	mutex_lock(&event_mutex);
	hd = hist_data_create(&hc, param);
	if (IS_ERR(hd)) {
		KUNIT_FAIL(test, "%s: hist_data_create(): %ld", text, PTR_ERR(hd));
		hd = NULL;
	} else {
		ret = hist_data_bind_map(&hc, hd);
		if (ret) {
			KUNIT_FAIL(test, "%s: hist_data_bind_map(): %d", text, ret);
			hist_data_free(hd);
			hd = NULL;
		}
	}
	mutex_unlock(&event_mutex);
	kfree(hc.quant_err);
	kfree(hc.text);
	kfree(param);
	return hd;
}

static void hrk_free(struct hist_data *hd)
{
	if (!hd)
		return;
	mutex_lock(&event_mutex);
	hist_data_free(hd);
	mutex_unlock(&event_mutex);
}

/* Small values (keys that repeat, negative ones) and full-width ones. */
static u64 hrk_rand(struct rnd_state *rnd)
{
	u64 v = (u64)prandom_u32_state(rnd) << 32 | prandom_u32_state(rnd);

	switch (prandom_u32_state(rnd) % 8) {
	case 0:
		return 1ULL << (v % 64);
	case 1:
		return v;
	default:
		return (v % 8) - 4;
	}
}

static void hrk_record(struct rnd_state *rnd, u8 *rec)
{
	static const char * const strs[] = { "alpha", "beta", "", "gamma-delta-eps" };
	unsigned int i;
	u64 v;

	memset(rec, 0, HRK_REC_SIZE);
	/* common_pid (s32 at 4): a few tasks */
	*(s32 *)(rec + 4) = prandom_u32_state(rnd) % 3;
	for (i = 0; i < ARRAY_SIZE(hrk_fields) - 1; i++) {
		v = hrk_rand(rnd);
		memcpy(rec + hrk_fields[i].offset, &v, hrk_fields[i].size);
	}
	strscpy(rec + 40, strs[prandom_u32_state(rnd) % ARRAY_SIZE(strs)], 16);
}

struct hrk_cmp {
	struct kunit		*test;
	const char		*text;
	struct hist_data	*a;	/* walked */
	struct hist_data	*b;	/* looked up */
	unsigned int		entries;
	unsigned int		bad;
};

static void hrk_cmp_one(struct tracing_map_elt *ea, void *arg)
{
	struct hrk_cmp *c = arg;
	struct hist_data *a = c->a, *b = c->b;
	u64 va[HIST_VALS_MAX], vb[HIST_VALS_MAX];
	u64 qa[HIST_QUANTILES], qb[HIST_QUANTILES];
	struct tracing_map_elt *eb;
	unsigned int i;

	c->entries++;
	eb = tracing_map_lookup(b->map, tracing_map_elt_key(ea));
	if (!eb) {
		if (!c->bad++)
			KUNIT_FAIL(c->test, "%s: an entry of one path is missing in the other",
				   c->text);
		return;
	}
	hist_read_entry(a, ea, va);
	hist_read_entry(b, eb, vb);
	for (i = 0; i < a->n_vals; i++) {
		if (va[i] != vb[i] && !c->bad++)
			KUNIT_FAIL(c->test, "%s: value %u: %llu (fast) != %llu (full)",
				   c->text, i, va[i], vb[i]);
		if (!(a->fields[i]->flags & HIST_FIELD_FL_QUANT))
			continue;
		hist_quantiles_read(ea, a->fields[i], va[i], qa);
		hist_quantiles_read(eb, b->fields[i], vb[i], qb);
		if (memcmp(qa, qb, sizeof(qa)) && !c->bad++)
			KUNIT_FAIL(c->test, "%s: quantiles of value %u differ",
				   c->text, i);
	}
	for (i = a->n_vals; i < a->n_vals + a->n_vars; i++) {
		u64 x = tracing_map_read_var(ea, a->fields[i]->var_idx);
		u64 y = tracing_map_read_var(eb, b->fields[i]->var_idx);

		if (x != y && !c->bad++)
			KUNIT_FAIL(c->test, "%s: variable %s: %llu (fast) != %llu (full)",
				   c->text, a->fields[i]->name, x, y);
	}
}

static void hrk_count_one(struct tracing_map_elt *elt, void *arg)
{
	(*(unsigned int *)arg)++;
}

/*
 * Feed the same records to @text built twice, through the fast and the
 * full path, and compare the tables.  @fast: whether the fast path must
 * take the text.
 */
static void hrk_check(struct kunit *test, const char *text, bool fast)
{
	struct hrk_event *ev;
	struct hist_data *hf, *hs;
	struct rnd_state rnd;
	struct hrk_cmp c = { .test = test, .text = text };
	unsigned int i, n_full = 0;
	u8 *rec;

	ev = kunit_kzalloc(test, sizeof(*ev), GFP_KERNEL);
	rec = kunit_kzalloc(test, HRK_REC_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	hrk_event_init(ev);

	hf = hrk_build(test, ev, text);
	hs = hrk_build(test, ev, text);
	if (!hf || !hs)
		goto out;
	KUNIT_EXPECT_EQ_MSG(test, hf->fast_path, fast, "%s: fast path", text);
	if (!hf->fast_path)
		goto out;

	prandom_seed_state(&rnd, 0x6869737472756eULL + strlen(text));
	for (i = 0; i < HRK_RECORDS; i++) {
		hrk_record(&rnd, rec);
		/* on one CPU: keys=common_cpu must see the same one twice */
		preempt_disable();
		hist_fast_update(hf, NULL, rec, NULL);
		/* the full path, whatever hist_fast_prepare() chose */
		hist_data_update(hs, NULL, rec, NULL);
		preempt_enable();
	}

	KUNIT_EXPECT_EQ_MSG(test, tracing_map_read_hits(hf->map),
			    tracing_map_read_hits(hs->map), "%s: hits", text);
	KUNIT_EXPECT_EQ_MSG(test, tracing_map_read_drops(hf->map), 0ULL,
			    "%s: drops (fast)", text);
	KUNIT_EXPECT_EQ_MSG(test, tracing_map_read_drops(hs->map), 0ULL,
			    "%s: drops (full)", text);
	c.a = hf;
	c.b = hs;
	tracing_map_walk(hf->map, hrk_cmp_one, &c);
	tracing_map_walk(hs->map, hrk_count_one, &n_full);
	KUNIT_EXPECT_EQ_MSG(test, c.entries, n_full, "%s: entries", text);
	/* the keys repeat: some entries aggregate several records */
	KUNIT_EXPECT_GT_MSG(test, c.entries, 1U, "%s", text);
	KUNIT_EXPECT_LT_MSG(test, c.entries, (unsigned int)HRK_RECORDS, "%s", text);
out:
	hrk_free(hf);
	hrk_free(hs);
}

/* Every numeric width and signedness, as a key and as a value. */
static void hrk_test_kinds(struct kunit *test)
{
	hrk_check(test, "keys=a:vals=b,c,d,e,f,g,h", true);
	hrk_check(test, "keys=b:vals=a", true);
	hrk_check(test, "keys=c:vals=h", true);
	hrk_check(test, "keys=d:vals=g", true);
	hrk_check(test, "keys=e:vals=f", true);
	hrk_check(test, "keys=f:vals=e", true);
	hrk_check(test, "keys=g:vals=d", true);
	hrk_check(test, "keys=h:vals=c", true);
	hrk_check(test, "keys=common_pid:vals=a,h", true);
}

/* Several keys, up to the most the fast path lays out. */
static void hrk_test_keys(struct kunit *test)
{
	hrk_check(test, "keys=a,b", true);
	hrk_check(test, "keys=b,d,f:vals=hitcount,a,c,e,g", true);
	hrk_check(test, "keys=a,b,c,d", true);
}

/* Modifiers the fast path takes: .log2 computes, the others only print. */
static void hrk_test_modifiers(struct kunit *test)
{
	hrk_check(test, "keys=a.log2:vals=g", true);
	hrk_check(test, "keys=g.log2:vals=h", true);
	hrk_check(test, "keys=h.log2,b:vals=e", true);
	hrk_check(test, "keys=b:vals=g.hex,h", true);
	hrk_check(test, "keys=b.hex:vals=h.hex", true);
	hrk_check(test, "keys=e:vals=f:sort=f.descending", true);
	hrk_check(test, "keys=b.buckets=10", true);
	hrk_check(test, "keys=h.buckets=1000:vals=g", true);
	hrk_check(test, "keys=a.buckets=3,g.log2:vals=h.max", true);
	hrk_check(test, "keys=common_cpu,e.buckets=7", true);
	hrk_check(test, "keys=b,common_cpu:vals=c", true);
	hrk_check(test, "keys=b,common_cpu,e.buckets=7,g.log2:vals=h", true);
}

/*
 * .buckets=N@LO~HI: every value below LO is the one key LO - 1, every
 * value from HI up the key HI, compared as unsigned numbers; both paths
 * key the same.
 */
static void hrk_test_bucket_range(struct kunit *test)
{
	struct hist_field f = {
		.flags = HIST_FIELD_FL_BUCKET, .buckets = 10,
		.bucket_lo = 50, .bucket_hi = 200,
	};
	static const u64 vals[][3] = {
		/* value, key, outside */
		{ 0, 49, -1 }, { 49, 49, -1 }, { 50, 50, 0 }, { 59, 50, 0 },
		{ 60, 60, 0 }, { 199, 190, 0 }, { 200, 200, 1 },
		{ 201, 200, 1 }, { U64_MAX, 200, 1 }, { (u64)-5, 200, 1 },
	};
	struct hist_field cpu = {
		.kind = HIST_KIND_CPU, .buckets = 16384,
		.bucket_lo = 16384, .bucket_hi = 32768,
	};
	struct hist_run run = { };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vals); i++) {
		u64 key = hist_bucket_key(&f, vals[i][0]);

		KUNIT_EXPECT_EQ_MSG(test, key, vals[i][1], "value %llu",
				    vals[i][0]);
		KUNIT_EXPECT_EQ_MSG(test, hist_bucket_outside(&f, key),
				    (int)vals[i][2], "value %llu", vals[i][0]);
	}
	/* from 0, nothing is below; without a range, the plain buckets */
	f.bucket_lo = 0;
	KUNIT_EXPECT_EQ(test, hist_bucket_key(&f, 0), 0ULL);
	KUNIT_EXPECT_EQ(test, hist_bucket_outside(&f, 0), 0);
	f.bucket_hi = 0;
	KUNIT_EXPECT_EQ(test, hist_bucket_key(&f, 12345), 12340ULL);
	KUNIT_EXPECT_EQ(test, hist_bucket_outside(&f, 12340), 0);

	/*
	 * The CPU takes them as a key too (6.12 buckets it; the number it
	 * read was once kept as it was): every CPU number is below 16384.
	 */
	cpu.flags = HIST_FIELD_FL_BUCKET;
	KUNIT_EXPECT_EQ(test, hist_run_value(&cpu, &run), 16383ULL);
	cpu.bucket_hi = 0;
	KUNIT_EXPECT_EQ(test, hist_run_value(&cpu, &run), 0ULL);

	hrk_check(test, "keys=b.buckets=10@50~200", true);
	hrk_check(test, "keys=common_cpu,h.buckets=1000@0~5000:vals=g.max", true);
	hrk_check(test, "keys=e.buckets=4@8~64,a:vals=h.min,h", true);
	hrk_check(test, "keys=b.buckets=16@32~128:vals=a+c", false);
}

/* .min, .max, .avg and .quantiles values. */
static void hrk_test_aggregations(struct kunit *test)
{
	hrk_check(test, "keys=b:vals=g.min,h.max,e.avg", true);
	hrk_check(test, "keys=b:vals=a.min,a.max,c.avg,d", true);
	hrk_check(test, "keys=b:vals=f.quantiles", true);
	hrk_check(test, "keys=a:vals=h.quantiles,g.max", true);
}

/* Numeric variables, from fields and from expressions. */
static void hrk_test_vars(struct kunit *test)
{
	hrk_check(test, "keys=b:vals=h:v1=a,v2=g", true);
	hrk_check(test, "keys=b:v1=e-f,v2=g*2+h", true);
	hrk_check(test, "keys=c:vals=d:v1=h/7,v2=-(a)", true);
	hrk_check(test, "keys=d:v1=common_cpu,v2=f", true);
}

/* What the fast path must leave to the full path. */
static void hrk_test_full_only(struct kunit *test)
{
	hrk_check(test, "keys=s", false);
	hrk_check(test, "keys=b:vals=hitcount.percent", false);
	hrk_check(test, "keys=b:v1=s", false);
	hrk_check(test, "keys=b,common_stacktrace", false);
	hrk_check(test, "keys=b:vals=a+c", false);
}

static struct kunit_case hist_run_test_cases[] = {
	KUNIT_CASE(hrk_test_kinds),
	KUNIT_CASE(hrk_test_keys),
	KUNIT_CASE(hrk_test_modifiers),
	KUNIT_CASE(hrk_test_bucket_range),
	KUNIT_CASE(hrk_test_aggregations),
	KUNIT_CASE(hrk_test_vars),
	KUNIT_CASE(hrk_test_full_only),
	{}
};

static struct kunit_suite hist_run_test_suite = {
	.name = "hist_run",
	.test_cases = hist_run_test_cases,
};

kunit_test_suite(hist_run_test_suite);
