// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for tracing_map.
 *
 * The suite covers insert and lookup with u64 and compound keys (same
 * element for the same key, no element created by lookup, exact hit
 * counts), a full map (exact drop count, old keys still usable),
 * concurrent inserts of overlapping key sets from one bound kthread per
 * online CPU (every key exactly once, exact sums and hits), inserts
 * interrupted by inserts on the same CPU from an irq_work, as an NMI or
 * hardirq tracepoint would interrupt a tracepoint (same checks), the
 * per-CPU pending sums (take-over, nested updates, reads racing with
 * take-overs on other CPUs never counting twice, the insert_sums() path
 * of the hist triggers), minimum, maximum and average fields, clearing,
 * sorting on sum and key fields in both directions with one and two
 * sort keys and deterministic tie-breaking, the comparison helpers,
 * per-element variables, the ops callbacks, and the argument checks of
 * tracing_map_create() and the field-adding functions.
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/build_bug.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/limits.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "tracing_map.h"

KUNIT_DEFINE_ACTION_WRAPPER(tmk_destroy_action, tracing_map_destroy,
			    struct tracing_map *);

/* Create a map that is destroyed when the test ends. */
static struct tracing_map *tmk_create(struct kunit *test, unsigned int bits,
				      unsigned int key_size,
				      const struct tracing_map_ops *ops,
				      void *priv)
{
	struct tracing_map *map;

	map = tracing_map_create(bits, key_size, ops, priv);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, map);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tmk_destroy_action,
							map), 0);
	return map;
}

/* Add a key field and check the index it gets. */
static void tmk_add_key(struct kunit *test, struct tracing_map *map,
			unsigned int offset, tracing_map_cmp_fn_t cmp_fn, int idx)
{
	int ret = tracing_map_add_key_field(map, offset, cmp_fn);

	KUNIT_ASSERT_EQ(test, ret, idx);
}

/* u64 key: field 0 is the key, field 1 a sum. */
#define TMK_KEY_IDX	0
#define TMK_SUM_IDX	1

static struct tracing_map *tmk_u64_map(struct kunit *test, unsigned int bits,
				       const struct tracing_map_ops *ops,
				       void *priv)
{
	struct tracing_map *map = tmk_create(test, bits, sizeof(u64), ops, priv);

	tmk_add_key(test, map, 0, tracing_map_cmp_num(8, 0), TMK_KEY_IDX);
	KUNIT_ASSERT_EQ(test, tracing_map_add_sum_field(map), TMK_SUM_IDX);
	return map;
}

static struct tracing_map_elt *tmk_insert(struct tracing_map *map, u64 key)
{
	return tracing_map_insert(map, &key);
}

static struct tracing_map_elt *tmk_lookup(struct tracing_map *map, u64 key)
{
	return tracing_map_lookup(map, &key);
}

/* Add @n to the sum of @elt as hist triggers do, through pending slots. */
static void tmk_add(struct tracing_map_elt *elt, u64 n)
{
	u64 vals[TMK_SUM_IDX + 1] = { [TMK_SUM_IDX] = n };

	preempt_disable();
	tracing_map_add_sums(elt, vals, ARRAY_SIZE(vals));
	preempt_enable();
}

/* The element's own counter, without what CPUs hold pending for it. */
static u64 tmk_raw(struct tracing_map_elt *elt)
{
	return (u64)atomic64_read(&elt->fields[TMK_SUM_IDX]);
}

#ifdef TRACING_MAP_PENDING
static const bool tmk_pending = true;
#else
static const bool tmk_pending;
#endif

/* Number of elements reachable through tracing_map_sort_entries(). */
static int tmk_count(struct tracing_map *map)
{
	struct tracing_map_sort_key sk = { .field_idx = TMK_KEY_IDX };
	struct tracing_map_sort_entry **entries;
	int n;

	n = tracing_map_sort_entries(map, &sk, 1, &entries);
	if (n >= 0)
		tracing_map_destroy_sort_entries(entries, n);
	return n;
}

/* Callback counters, reached through &tracing_map.private_data. */
struct tmk_counts {
	unsigned int alloc, free, init, clear;
	unsigned int fail_alloc_at;	/* 0: never fail */
};

/*
 * Callback counters outlive the map: allocated before it, they are freed
 * by KUnit after the map's destroy action has run elt_free() on them.
 */
static struct tmk_counts *tmk_new_counts(struct kunit *test,
					 unsigned int fail_alloc_at)
{
	struct tmk_counts *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->fail_alloc_at = fail_alloc_at;
	return c;
}

static int tmk_elt_alloc(struct tracing_map_elt *elt)
{
	struct tmk_counts *c = elt->map->private_data;

	if (c->fail_alloc_at && c->alloc + 1 == c->fail_alloc_at)
		return -ENOMEM;
	c->alloc++;
	if (elt->map->data_size >= sizeof(c))
		*(struct tmk_counts **)tracing_map_elt_data(elt) = c;
	return 0;
}

static void tmk_elt_free(struct tracing_map_elt *elt)
{
	struct tmk_counts *c = elt->map->private_data;

	c->free++;
}

static void tmk_elt_init(struct tracing_map_elt *elt)
{
	struct tmk_counts *c = elt->map->private_data;

	c->init++;
}

static void tmk_elt_clear(struct tracing_map_elt *elt)
{
	struct tmk_counts *c = elt->map->private_data;

	c->clear++;
}

static const struct tracing_map_ops tmk_counting_ops = {
	.elt_alloc	= tmk_elt_alloc,
	.elt_free	= tmk_elt_free,
	.elt_init	= tmk_elt_init,
	.elt_clear	= tmk_elt_clear,
};

static void tmk_test_insert_lookup(struct kunit *test)
{
	static const u64 keys[] = { 0, 1, 2, 42, 0xdeadbeefcafeULL, U64_MAX };
	struct tracing_map_elt *elts[ARRAY_SIZE(keys)];
	struct tracing_map *map;
	u64 key;
	int i, j;

	map = tmk_u64_map(test, TRACING_MAP_BITS_MIN, NULL, NULL);
	KUNIT_ASSERT_EQ(test, tracing_map_init(map), 0);

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		key = keys[i];
		elts[i] = tracing_map_insert(map, &key);
		KUNIT_ASSERT_NOT_NULL(test, elts[i]);
		KUNIT_EXPECT_PTR_EQ(test, elts[i]->map, map);
		KUNIT_EXPECT_PTR_NE(test, tracing_map_elt_key(elts[i]), (void *)&key);
		KUNIT_EXPECT_MEMEQ(test, tracing_map_elt_key(elts[i]), &key,
				   sizeof(key));
		KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elts[i], TMK_SUM_IDX), 0);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_PTR_NE(test, elts[i], elts[j]);
	}

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		KUNIT_EXPECT_PTR_EQ(test, tmk_insert(map, keys[i]), elts[i]);
		KUNIT_EXPECT_PTR_EQ(test, tmk_lookup(map, keys[i]), elts[i]);
		tracing_map_update_sum(elts[i], TMK_SUM_IDX, i + 1);
	}
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elts[i], TMK_SUM_IDX),
				i + 1);

	/* An absent key is not found and not created by looking it up. */
	KUNIT_EXPECT_NULL(test, tmk_lookup(map, 7));
	KUNIT_EXPECT_NULL(test, tmk_lookup(map, 7));
	KUNIT_EXPECT_EQ(test, tmk_count(map), ARRAY_SIZE(keys));

	KUNIT_EXPECT_EQ(test, tracing_map_read_hits(map), 2 * ARRAY_SIZE(keys));
	KUNIT_EXPECT_EQ(test, tracing_map_read_drops(map), 0);
}

struct tmk_ckey {
	u64	id;
	u32	cpu;
	s32	prio;
};

static void tmk_test_compound_key(struct kunit *test)
{
	static const struct tmk_ckey keys[] = {
		{ 1, 0, 0 }, { 1, 1, 0 }, { 1, 0, -1 }, { 2, 0, 0 }, { 0, 1, -1 },
	};
	struct tracing_map_elt *elts[ARRAY_SIZE(keys)], *elt;
	struct tracing_map *map;
	struct tmk_ckey key;
	int i, j;

	map = tmk_create(test, TRACING_MAP_BITS_MIN, sizeof(key), NULL, NULL);
	tmk_add_key(test, map, offsetof(struct tmk_ckey, id),
		    tracing_map_cmp_num(8, 0), 0);
	tmk_add_key(test, map, offsetof(struct tmk_ckey, cpu),
		    tracing_map_cmp_num(4, 0), 1);
	tmk_add_key(test, map, offsetof(struct tmk_ckey, prio),
		    tracing_map_cmp_num(4, 1), 2);
	KUNIT_ASSERT_EQ(test, tracing_map_init(map), 0);

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		key = keys[i];
		elts[i] = tracing_map_insert(map, &key);
		KUNIT_ASSERT_NOT_NULL(test, elts[i]);
		KUNIT_EXPECT_MEMEQ(test, tracing_map_elt_key(elts[i]), &keys[i],
				   sizeof(key));
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_PTR_NE(test, elts[i], elts[j]);
	}

	/* Same key built again from scratch finds the same element. */
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		memset(&key, 0, sizeof(key));
		key.id = keys[i].id;
		key.cpu = keys[i].cpu;
		key.prio = keys[i].prio;
		KUNIT_EXPECT_PTR_EQ(test, tracing_map_lookup(map, &key), elts[i]);
		elt = tracing_map_insert(map, &key);
		KUNIT_EXPECT_PTR_EQ(test, elt, elts[i]);
	}

	key = (struct tmk_ckey){ 1, 1, -1 };
	KUNIT_EXPECT_NULL(test, tracing_map_lookup(map, &key));
	KUNIT_EXPECT_EQ(test, tracing_map_read_hits(map), 2 * ARRAY_SIZE(keys));
	KUNIT_EXPECT_EQ(test, tracing_map_read_drops(map), 0);
}

/*
 * Keys whose size is not a multiple of 8 are hashed and compared with a
 * zero-padded last word: keys differing only in that tail, or only in
 * the first word, must stay apart, and each must be found again.
 */
static void tmk_test_odd_key_sizes(struct kunit *test)
{
	static const unsigned int sizes[] = { 1, 3, 8, 12, 13, 20 };
	struct tracing_map_elt *elts[2 * 64];
	struct tracing_map *map;
	unsigned int s, i, j, n, size;
	u8 key[24];

	for (s = 0; s < ARRAY_SIZE(sizes); s++) {
		size = sizes[s];
		map = tmk_create(test, TRACING_MAP_BITS_MIN, size, NULL, NULL);
		tmk_add_key(test, map, 0, tracing_map_cmp_none, 0);
		KUNIT_ASSERT_EQ(test, tracing_map_init(map), 0);

		/* 64 keys differ in the last byte, 64 in the first */
		n = size == 1 ? 64 : 128;
		for (i = 0; i < n; i++) {
			memset(key, 0xa5, sizeof(key));
			key[i < 64 ? size - 1 : 0] = i;
			elts[i] = tracing_map_insert(map, key);
			KUNIT_ASSERT_NOT_NULL(test, elts[i]);
			KUNIT_EXPECT_MEMEQ(test, tracing_map_elt_key(elts[i]),
					   key, size);
			for (j = 0; j < i; j++)
				KUNIT_EXPECT_PTR_NE(test, elts[i], elts[j]);
		}
		for (i = 0; i < n; i++) {
			memset(key, 0xa5, sizeof(key));
			key[i < 64 ? size - 1 : 0] = i;
			/* bytes past the key size are not part of it */
			key[size] = ~key[size];
			KUNIT_EXPECT_PTR_EQ(test, tracing_map_lookup(map, key),
					    elts[i]);
		}
		memset(key, 0x5a, sizeof(key));
		KUNIT_EXPECT_NULL(test, tracing_map_lookup(map, key));
		KUNIT_EXPECT_EQ(test, tracing_map_read_hits(map), n);
		KUNIT_EXPECT_EQ(test, tmk_count(map), n);
	}
}

static void tmk_test_full_map(struct kunit *test)
{
	const unsigned int extra = 10;
	struct tracing_map *map;
	unsigned int max, k;

	map = tmk_u64_map(test, TRACING_MAP_BITS_MIN, NULL, NULL);
	KUNIT_ASSERT_EQ(test, tracing_map_init(map), 0);
	max = map->max_elts;
	KUNIT_ASSERT_EQ(test, max, 1U << TRACING_MAP_BITS_MIN);

	for (k = 0; k < max; k++)
		KUNIT_ASSERT_NOT_NULL(test, tmk_insert(map, 1000 + k));
	KUNIT_EXPECT_EQ(test, tracing_map_read_drops(map), 0);

	for (k = 0; k < extra; k++)
		KUNIT_EXPECT_NULL(test, tmk_insert(map, 5000 + k));
	KUNIT_EXPECT_EQ(test, tracing_map_read_drops(map), extra);
	KUNIT_EXPECT_EQ(test, tracing_map_read_hits(map), max);

	for (k = 0; k < max; k++) {
		struct tracing_map_elt *elt = tmk_lookup(map, 1000 + k);

		KUNIT_ASSERT_NOT_NULL(test, elt);
		KUNIT_EXPECT_PTR_EQ(test, tmk_insert(map, 1000 + k), elt);
	}
	for (k = 0; k < extra; k++)
		KUNIT_EXPECT_NULL(test, tmk_lookup(map, 5000 + k));

	KUNIT_EXPECT_EQ(test, tracing_map_read_hits(map), 2 * max);
	KUNIT_EXPECT_EQ(test, tracing_map_read_drops(map), extra);
	KUNIT_EXPECT_EQ(test, tmk_count(map), max);
}

#define TMK_CONC_KEYS	512
#define TMK_CONC_ROUNDS	16

/*
 * Start @n kthreads running @fn on @data, @data + @size, ..., bound to
 * the online CPUs in turn, and release them together through @start.
 * False, with the test failed, if one cannot be created.
 */
static bool tmk_start_threads(struct kunit *test, unsigned int n,
			      int (*fn)(void *), void *data, size_t size,
			      struct completion *start)
{
	unsigned int i, j, cpu = cpumask_first(cpu_online_mask);
	struct task_struct **tasks;

	tasks = kunit_kcalloc(test, n, sizeof(*tasks), GFP_KERNEL);
	if (!tasks) {
		KUNIT_FAIL(test, "no memory for %u threads", n);
		return false;
	}
	for (i = 0; i < n; i++) {
		tasks[i] = kthread_create(fn, data + i * size, "tmk/%u", i);
		if (IS_ERR(tasks[i])) {
			/* Never woken, so they exit without running. */
			for (j = 0; j < i; j++)
				kthread_stop(tasks[j]);
			KUNIT_FAIL(test, "kthread_create: %ld", PTR_ERR(tasks[i]));
			return false;
		}
		kthread_bind(tasks[i], cpu);
		cpu = cpumask_next(cpu, cpu_online_mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(cpu_online_mask);
	}
	for (i = 0; i < n; i++)
		wake_up_process(tasks[i]);
	complete_all(start);
	return true;
}

struct tmk_worker {
	struct tracing_map	*map;
	struct completion	*start;
	struct completion	done;
	unsigned int		id;
	unsigned int		failures;
};

static int tmk_worker_fn(void *data)
{
	struct tmk_worker *w = data;
	unsigned int mult = 2 * w->id + 1;	/* odd: a permutation */
	struct tracing_map_elt *elt;
	unsigned int r, i, k;

	wait_for_completion(w->start);
	for (r = 0; r < TMK_CONC_ROUNDS; r++) {
		for (i = 0; i < TMK_CONC_KEYS; i++) {
			k = (i * mult + w->id * 97 + r) % TMK_CONC_KEYS;
			if (w->id & 1)
				k = TMK_CONC_KEYS - 1 - k;
			elt = tmk_insert(w->map, k);
			if (!elt)
				w->failures++;
			else if (w->id & 1)
				tracing_map_update_sum(elt, TMK_SUM_IDX, 1);
			else
				tmk_add(elt, 1);
		}
		cond_resched();
	}
	complete(&w->done);
	return 0;
}

static void tmk_test_concurrent(struct kunit *test)
{
	unsigned int n_threads = max(num_online_cpus(), 2U);
	struct tracing_map_sort_key sk = { .field_idx = TMK_KEY_IDX };
	struct tracing_map_sort_entry **entries;
	struct completion start;
	struct tmk_worker *w;
	struct tracing_map *map;
	unsigned int i, bits;
	int n;

	/* Each thread takes at most one element per key: never full. */
	bits = clamp_t(unsigned int, order_base_2(TMK_CONC_KEYS * n_threads),
		       TRACING_MAP_BITS_MIN, TRACING_MAP_BITS_MAX);
	map = tmk_u64_map(test, bits, NULL, NULL);
	KUNIT_ASSERT_EQ(test, tracing_map_init(map), 0);

	w = kunit_kcalloc(test, n_threads, sizeof(*w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	init_completion(&start);

	for (i = 0; i < n_threads; i++) {
		w[i].map = map;
		w[i].start = &start;
		w[i].id = i;
		init_completion(&w[i].done);
	}
	if (!tmk_start_threads(test, n_threads, tmk_worker_fn, w, sizeof(*w),
			       &start))
		return;
	for (i = 0; i < n_threads; i++) {
		wait_for_completion(&w[i].done);
		KUNIT_EXPECT_EQ(test, w[i].failures, 0);
	}

	KUNIT_EXPECT_EQ(test, tracing_map_read_drops(map), 0);
	KUNIT_EXPECT_EQ(test, tracing_map_read_hits(map),
			(s64)n_threads * TMK_CONC_ROUNDS * TMK_CONC_KEYS);

	/* Sorted by key, entry i must hold key i: all present, none twice. */
	n = tracing_map_sort_entries(map, &sk, 1, &entries);
	KUNIT_ASSERT_GE(test, n, 0);
	KUNIT_EXPECT_EQ(test, n, TMK_CONC_KEYS);
	for (i = 0; i < min_t(unsigned int, n, TMK_CONC_KEYS); i++) {
		KUNIT_EXPECT_EQ(test, *(u64 *)entries[i]->key, i);
		KUNIT_EXPECT_EQ(test,
				tracing_map_read_sum(entries[i]->elt, TMK_SUM_IDX),
				n_threads * TMK_CONC_ROUNDS);
		if (i)
			KUNIT_EXPECT_NE(test, *(u64 *)entries[i]->key,
					*(u64 *)entries[i - 1]->key);
	}
	tracing_map_destroy_sort_entries(entries, n);
}

/*
 * Nested inserts: one kthread bound to one CPU inserts a small key set
 * while an irq_work on the same CPU inserts the same keys from hardirq
 * context, the way an NMI or hardirq tracepoint interrupts a tracepoint.
 * The nesting that matters is the one between an insert taking an
 * element for a new key and publishing it (the spare and lost-cmpxchg
 * paths at the top of tracing_map.c), and an irq_work raised from the
 * thread before its insert would run before the insert starts.  So for
 * a new key the thread raises it from elt_init(), which runs exactly in
 * that window, and waits there until the callback has run; for a key
 * already present it raises it after the insert, so the callback runs
 * between the insert and the sum update.  The map is cleared every
 * TMK_NEST_ROUNDS rounds, so new-key races happen in every cycle.
 */
#define TMK_NEST_KEYS		64
#define TMK_NEST_ROUNDS		4
#define TMK_NEST_CYCLES		8
/* A self-IPI arrives at once; this only bounds the wait without one. */
#define TMK_NEST_WAIT_NS	NSEC_PER_MSEC

/* What one clear cycle saw, checked by the test once the thread is done. */
struct tmk_nest_cycle {
	unsigned int	thread_adds[TMK_NEST_KEYS];
	unsigned int	irq_adds[TMK_NEST_KEYS];
	u64		key[TMK_NEST_KEYS];	/* entries sorted by key */
	u64		sum[TMK_NEST_KEYS];
	int		n;			/* tracing_map_sort_entries() */
	s64		hits, drops;
};

struct tmk_nest {
	struct tracing_map	*map;
	struct irq_work		work;
	struct completion	done;
	struct tmk_nest_cycle	*cycles;
	struct tmk_nest_cycle	*cur;		/* set while no callback can run */
	unsigned int		cpu;

	/* Shared by the thread and the callback, on the same CPU. */
	unsigned int		key;		/* key of the thread's insert */
	u8			in_hook;	/* thread waits in elt_init() */
	u8			raced;		/* a callback ran meanwhile */

	/* The thread's own. */
	u8			armed;		/* irq_work not yet raised */
	struct tracing_map_elt	*prepared;	/* its element for a new key */
	unsigned int		races;		/* nested between take and publish */
	unsigned int		race_wins;	/* ...yet its own element returned */
	unsigned int		thread_fail, thread_bad_key;

	/* The callback's; the thread reads them once it has synced. */
	atomic_t		ran;
	unsigned int		irq_fail, irq_bad_key, off_cpu;
};

/* Another order of the keys, and never the thread's key itself. */
static unsigned int tmk_nest_other(unsigned int k)
{
	return (5 * k + 17) % TMK_NEST_KEYS;
}

/*
 * The irq_work callback, in hardirq context on the thread's CPU.  It
 * inserts another key first, which may take the very slot the thread is
 * about to publish into (the "another key, keep probing" path), then
 * the thread's key, which the thread's interrupted insert then loses.
 */
static void tmk_nest_irq_work(struct irq_work *work)
{
	struct tmk_nest *nest = container_of(work, struct tmk_nest, work);
	unsigned int k = READ_ONCE(nest->key);
	unsigned int keys[] = { tmk_nest_other(k), k };
	struct tracing_map_elt *elt;
	unsigned int j;

	atomic_inc(&nest->ran);
	if (smp_processor_id() != nest->cpu)
		nest->off_cpu++;
	if (READ_ONCE(nest->in_hook))
		WRITE_ONCE(nest->raced, 1);

	for (j = 0; j < ARRAY_SIZE(keys); j++) {
		elt = tmk_insert(nest->map, keys[j]);
		if (!elt) {
			nest->irq_fail++;
			continue;
		}
		if (*(u64 *)tracing_map_elt_key(elt) != keys[j])
			nest->irq_bad_key++;
		tmk_add(elt, 1);
		nest->cur->irq_adds[keys[j]]++;
	}
}

/*
 * elt_init(): the inserter has taken an element for a new key and not
 * published it yet.  For the thread's insert, raise the irq_work and
 * wait until its callback has run, so it runs right here.
 */
static void tmk_nest_elt_init(struct tracing_map_elt *elt)
{
	struct tmk_nest *nest = elt->map->private_data;
	u64 deadline;

	/* The callback's own inserts land here too: leave them alone. */
	if (!in_task() || !nest->armed)
		return;
	nest->armed = 0;
	nest->prepared = elt;

	WRITE_ONCE(nest->in_hook, 1);
	irq_work_queue(&nest->work);
	deadline = local_clock() + TMK_NEST_WAIT_NS;
	while (irq_work_is_busy(&nest->work) && local_clock() < deadline)
		cpu_relax();
	WRITE_ONCE(nest->in_hook, 0);
}

static const struct tracing_map_ops tmk_nest_ops = {
	.elt_init	= tmk_nest_elt_init,
};

/* One insert of @k by the thread, with the irq_work raised inside it. */
static void tmk_nest_thread_insert(struct tmk_nest *nest, unsigned int k)
{
	struct tracing_map_elt *elt;

	WRITE_ONCE(nest->key, k);
	WRITE_ONCE(nest->raced, 0);
	nest->prepared = NULL;
	nest->armed = 1;
	elt = tmk_insert(nest->map, k);
	if (nest->armed) {
		/* @k was present: let the callback run before the update. */
		nest->armed = 0;
		irq_work_queue(&nest->work);
	}

	/* A callback that published @k first must be the one returned. */
	if (READ_ONCE(nest->raced)) {
		nest->races++;
		if (elt == nest->prepared)
			nest->race_wins++;
	}
	if (!elt) {
		nest->thread_fail++;
		return;
	}
	if (*(u64 *)tracing_map_elt_key(elt) != k)
		nest->thread_bad_key++;
	tmk_add(elt, 1);
	nest->cur->thread_adds[k]++;
}

/* Record what the map holds; inserts are paused. */
static void tmk_nest_snapshot(struct tmk_nest *nest, struct tmk_nest_cycle *cy)
{
	struct tracing_map_sort_key sk = { .field_idx = TMK_KEY_IDX };
	struct tracing_map_sort_entry **entries;
	int i;

	cy->hits = tracing_map_read_hits(nest->map);
	cy->drops = tracing_map_read_drops(nest->map);
	cy->n = tracing_map_sort_entries(nest->map, &sk, 1, &entries);
	if (cy->n < 0)
		return;
	for (i = 0; i < min_t(int, cy->n, TMK_NEST_KEYS); i++) {
		cy->key[i] = *(u64 *)entries[i]->key;
		cy->sum[i] = tracing_map_read_sum(entries[i]->elt, TMK_SUM_IDX);
	}
	tracing_map_destroy_sort_entries(entries, cy->n);
}

/*
 * Preemption stays enabled: the thread is bound, so its inserts, the
 * spare they use and the irq_work they raise all belong to nest->cpu,
 * and no other task touches the map.  irq_work_sync() may sleep.
 */
static int tmk_nest_fn(void *data)
{
	struct tmk_nest *nest = data;
	unsigned int c, r, i, k, mult;

	BUILD_BUG_ON_NOT_POWER_OF_2(TMK_NEST_KEYS);
	for (c = 0; c < TMK_NEST_CYCLES; c++) {
		nest->cur = &nest->cycles[c];
		for (r = 0; r < TMK_NEST_ROUNDS; r++) {
			/* Odd multiplier: a permutation, new in every round. */
			mult = 2 * (c + r) + 1;
			for (i = 0; i < TMK_NEST_KEYS; i++) {
				k = (i * mult + 3 * c + r) % TMK_NEST_KEYS;
				tmk_nest_thread_insert(nest, k);
			}
			cond_resched();
		}

		/* Clear needs inserts paused: no callback pending or running. */
		irq_work_sync(&nest->work);
		tmk_nest_snapshot(nest, nest->cur);
		tracing_map_clear(nest->map);
	}
	complete(&nest->done);
	return 0;
}

static void tmk_test_nested_irq_work(struct kunit *test)
{
	const struct tmk_nest_cycle *cy;
	struct task_struct *task;
	struct tmk_nest *nest;
	unsigned int bits, c, k;
	s64 total;

	if (!IS_ENABLED(CONFIG_IRQ_WORK)) {
		KUNIT_FAIL(test, "CONFIG_IRQ_WORK is off: inserts cannot be nested");
		return;
	}

	nest = kunit_kzalloc(test, sizeof(*nest), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, nest);
	nest->cycles = kunit_kcalloc(test, TMK_NEST_CYCLES, sizeof(*nest->cycles),
				     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, nest->cycles);

	/*
	 * Never full: an insert takes an element only when it finds its key
	 * absent, and returns with the key present.  Two inserts can find
	 * the same key absent only if they overlap, which on one CPU means
	 * one interrupts the other; callbacks run with interrupts off and
	 * never interrupt each other.  So a key costs at most two elements
	 * per cycle, the thread's and one callback's, even if every element
	 * of an interrupted insert were wasted instead of parked as the
	 * spare; clear returns them all.
	 */
	bits = clamp_t(unsigned int, order_base_2(2 * TMK_NEST_KEYS),
		       TRACING_MAP_BITS_MIN, TRACING_MAP_BITS_MAX);
	nest->map = tmk_u64_map(test, bits, &tmk_nest_ops, nest);
	KUNIT_ASSERT_EQ(test, tracing_map_init(nest->map), 0);
	KUNIT_ASSERT_GE(test, nest->map->max_elts, 2 * TMK_NEST_KEYS);

	/* HARD: hardirq context on PREEMPT_RT too, not the irq_work thread. */
	nest->work = IRQ_WORK_INIT_HARD(tmk_nest_irq_work);
	init_completion(&nest->done);
	atomic_set(&nest->ran, 0);
	nest->cpu = cpumask_first(cpu_online_mask);

	task = kthread_create(tmk_nest_fn, nest, "tmk/nest");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, task);
	kthread_bind(task, nest->cpu);
	wake_up_process(task);
	wait_for_completion(&nest->done);

	kunit_info(test, "%d irq_work callbacks, %u inside an insert's new-key window\n",
		   atomic_read(&nest->ran), nest->races);
	KUNIT_EXPECT_GT_MSG(test, atomic_read(&nest->ran), 0,
			    "no irq_work callback ran: nothing was nested");
	KUNIT_EXPECT_GT_MSG(test, nest->races, 0,
			    "no callback ran between an insert taking an element and publishing it");
	KUNIT_EXPECT_EQ(test, nest->race_wins, 0);
	KUNIT_EXPECT_EQ(test, nest->off_cpu, 0);
	KUNIT_EXPECT_EQ(test, nest->thread_fail, 0);
	KUNIT_EXPECT_EQ(test, nest->irq_fail, 0);
	KUNIT_EXPECT_EQ(test, nest->thread_bad_key, 0);
	KUNIT_EXPECT_EQ(test, nest->irq_bad_key, 0);

	/* Per cycle, sorted by key, entry k must hold key k with its sum. */
	for (c = 0; c < TMK_NEST_CYCLES; c++) {
		cy = &nest->cycles[c];
		KUNIT_EXPECT_EQ_MSG(test, cy->n, TMK_NEST_KEYS, "cycle %u", c);
		total = 0;
		for (k = 0; k < TMK_NEST_KEYS; k++) {
			KUNIT_EXPECT_EQ_MSG(test, cy->thread_adds[k], TMK_NEST_ROUNDS,
					    "cycle %u key %u", c, k);
			total += cy->thread_adds[k] + cy->irq_adds[k];
			if ((int)k >= cy->n)
				continue;
			KUNIT_EXPECT_EQ_MSG(test, cy->key[k], k, "cycle %u", c);
			KUNIT_EXPECT_EQ_MSG(test, cy->sum[k],
					    cy->thread_adds[k] + cy->irq_adds[k],
					    "cycle %u key %u", c, k);
		}
		KUNIT_EXPECT_EQ_MSG(test, cy->hits, total, "cycle %u", c);
		KUNIT_EXPECT_EQ_MSG(test, cy->drops, 0, "cycle %u", c);
	}
}

/* Pool index of an element, which picks its pending slot. */
static unsigned int tmk_idx(struct tracing_map_elt *elt)
{
	return ((void *)elt - elt->map->elts) / elt->map->elt_size;
}

/* Two elements of @map whose pending slot is the same; NULL if none. */
static void tmk_pend_pair(struct tracing_map *map, unsigned int n_keys,
			  struct tracing_map_elt **a, struct tracing_map_elt **b)
{
	struct tracing_map_elt *first[TRACING_MAP_PEND_SLOTS] = {};
	struct tracing_map_elt *elt;
	unsigned int k, h;

	*a = *b = NULL;
	for (k = 0; k < n_keys; k++) {
		elt = tmk_insert(map, k);
		if (!elt)
			return;
		h = tmk_idx(elt) & (TRACING_MAP_PEND_SLOTS - 1);
		if (first[h]) {
			*a = first[h];
			*b = elt;
			return;
		}
		first[h] = elt;
	}
}

/*
 * Pending sums on one CPU: amounts stay in the CPU's slot until another
 * element takes the slot over (after TRACING_MAP_PEND_MISSES updates;
 * the ones before go to their element), reads add them, an update nested
 * in one (busy count above one) goes to the element, clear empties the
 * slots, and many keys sharing few slots still sum and sort exactly.
 */
static void tmk_test_pending_sums(struct kunit *test)
{
	struct tracing_map_sort_key sk = { .field_idx = TMK_SUM_IDX,
					   .descending = true };
	struct tracing_map_sort_entry **entries;
	const unsigned int m = TRACING_MAP_PEND_MISSES - 1;
	struct tracing_map_elt *a, *b, *elt;
	struct tracing_map_pcpu *pc;
	struct tracing_map *map;
	unsigned int k, r;
	int n;

	map = tmk_u64_map(test, TRACING_MAP_BITS_MIN, NULL, NULL);
	KUNIT_ASSERT_EQ(test, tracing_map_init(map), 0);
	tmk_pend_pair(map, 64, &a, &b);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);

	/* every slot of this CPU is ours for the rest of the test */
	migrate_disable();
	for (k = 0; k < 3; k++)
		tmk_add(a, 5);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(a, TMK_SUM_IDX), 15);
	KUNIT_EXPECT_EQ(test, tmk_raw(a), tmk_pending ? 0 : 15);

	/* b's updates go to b while a holds the slot... */
	for (k = 1; k <= m; k++) {
		tmk_add(b, 1);
		KUNIT_EXPECT_EQ(test, tmk_raw(b), k);
		KUNIT_EXPECT_EQ(test, tracing_map_read_sum(b, TMK_SUM_IDX), k);
		KUNIT_EXPECT_EQ(test, tmk_raw(a), tmk_pending ? 0 : 15);
	}
	/* ...until b takes it over: a's amount moves to a */
	tmk_add(b, 100);
	KUNIT_EXPECT_EQ(test, tmk_raw(a), 15);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(a, TMK_SUM_IDX), 15);
	KUNIT_EXPECT_EQ(test, tmk_raw(b), tmk_pending ? m : m + 100);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(b, TMK_SUM_IDX), m + 100);

	/* all fields in one pass read what one at a time reads */
	{
		unsigned int idx[2] = { TMK_SUM_IDX, TMK_SUM_IDX };
		u64 vals[2];

		tracing_map_read_sums(a, idx, 2, vals);
		KUNIT_EXPECT_EQ(test, vals[0], 15);
		KUNIT_EXPECT_EQ(test, vals[1], 15);
		tracing_map_read_sums(b, idx, 1, vals);
		KUNIT_EXPECT_EQ(test, vals[0], m + 100);
	}

	/* nested in an update of this CPU: straight to the element */
	pc = this_cpu_ptr(map->pcpu);
	local_inc(&pc->busy);
	tmk_add(b, 1000);
	local_dec(&pc->busy);
	KUNIT_EXPECT_EQ(test, tmk_raw(b), tmk_pending ? m + 1000 : m + 1100);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(b, TMK_SUM_IDX), m + 1100);
	KUNIT_EXPECT_EQ(test, local_read(&pc->busy), 0);

	/*
	 * A reader in the middle of a take-over, after the amounts reached
	 * the element and before the slot was zeroed: counts them once.
	 */
	if (tmk_pending) {
		struct tracing_map_pend *p = (void *)pc->pend +
			((tmk_idx(b) & (TRACING_MAP_PEND_SLOTS - 1)) <<
			 map->pend_shift);

		KUNIT_ASSERT_PTR_EQ(test, p->elt, b);
		KUNIT_ASSERT_EQ(test, local64_read(&p->sums[TMK_SUM_IDX]), 100);
		WRITE_ONCE(p->seq, p->seq + 1);
		atomic64_add(100, &b->fields[TMK_SUM_IDX]);
		KUNIT_EXPECT_EQ(test, tracing_map_read_sum(b, TMK_SUM_IDX),
				m + 1100);
		local64_set(&p->sums[TMK_SUM_IDX], 0);
		WRITE_ONCE(p->seq, p->seq + 1);
		KUNIT_EXPECT_EQ(test, tracing_map_read_sum(b, TMK_SUM_IDX),
				m + 1100);
	}
	migrate_enable();

	/* clear forgets what was pending */
	tracing_map_clear(map);
	elt = tmk_insert(map, 1);
	KUNIT_ASSERT_NOT_NULL(test, elt);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, TMK_SUM_IDX), 0);
	for (k = 0; k < TRACING_MAP_PEND_SLOTS; k++) {
		struct tracing_map_pend *p = (void *)pc->pend +
			(k << map->pend_shift);

		KUNIT_EXPECT_NULL(test, p->elt);
		KUNIT_EXPECT_EQ(test, local64_read(&p->sums[TMK_SUM_IDX]), 0);
		KUNIT_EXPECT_EQ(test, p->seq & 1, 0);
	}

	/* 64 keys, 4 slots: constant take-overs, exact sums and order */
	for (r = 0; r < 10; r++)
		for (k = 0; k < 64; k++) {
			elt = tmk_insert(map, (k * 37 + r) % 64);
			KUNIT_ASSERT_NOT_NULL(test, elt);
			tmk_add(elt, (k * 37 + r) % 64 + 1);
		}
	n = tracing_map_sort_entries(map, &sk, 1, &entries);
	KUNIT_ASSERT_EQ(test, n, 64);
	for (k = 0; k < 64; k++) {
		KUNIT_EXPECT_EQ(test, *(u64 *)entries[k]->key, 63 - k);
		KUNIT_EXPECT_EQ(test, entries[k]->sums[0], 10 * (64 - k));
		KUNIT_EXPECT_EQ(test,
				tracing_map_read_sum(entries[k]->elt, TMK_SUM_IDX),
				10 * (64 - k));
	}
	tracing_map_destroy_sort_entries(entries, n);
}

/* What one tracing_map_insert_sums() ... put saw, checked outside it. */
struct tmk_take {
	struct tracing_map_elt	*elt;
	bool			pending;	/* got this CPU's slot */
	long			busy;		/* busy count after the update */
};

/*
 * One update as the hist hot path does it: insert_sums(), add @n to the
 * sum field (the last of the key), put; with @nest, inside a simulated
 * update of the same map on this CPU.
 */
static struct tmk_take tmk_update(struct tracing_map *map, void *key,
				  unsigned int sum_idx, u64 n, bool nest)
{
	struct tracing_map_pcpu *pc;
	struct tracing_map_sums s;
	struct tmk_take t;

	preempt_disable();
	pc = this_cpu_ptr(map->pcpu);
	if (nest)
		local_inc(&pc->busy);
	t.elt = tracing_map_insert_sums(map, key, &s);
	t.pending = s.sums;
	if (s.sums) {
		local64_add(n, &s.sums[sum_idx]);
		tracing_map_sums_put(&s);
	} else if (t.elt) {
		tracing_map_update_sum(t.elt, sum_idx, n);
	}
	if (nest)
		local_dec(&pc->busy);
	t.busy = local_read(&pc->busy);
	preempt_enable();
	return t;
}

/*
 * tracing_map_insert_sums() and tracing_map_sums_put(), the path of the
 * hist triggers: keys of one, two and three words (inline first probe,
 * its out-of-line fallback, other sizes), keys found past their first
 * slot, a full map, a nested update; the busy count always back to 0.
 */
static void tmk_test_insert_sums(struct kunit *test)
{
	static const unsigned int words[] = { 1, 2, 3 };
	unsigned int w, k, n_keys, slow, pending;
	struct tracing_map *map;
	struct tmk_take t;
	u64 key[3];
	int sum_idx;
	s64 raw;

	for (w = 0; w < ARRAY_SIZE(words); w++) {
		map = tmk_create(test, TRACING_MAP_BITS_MIN,
				 words[w] * sizeof(u64), NULL, NULL);
		tmk_add_key(test, map, 0, tracing_map_cmp_num(8, 0), 0);
		sum_idx = tracing_map_add_sum_field(map);
		KUNIT_ASSERT_EQ(test, sum_idx, 1);
		KUNIT_ASSERT_EQ(test, tracing_map_init(map), 0);
		n_keys = map->max_elts;

		/* every key k gets k % 4 + 1 updates of 1, then it is full */
		slow = 0;
		pending = 0;
		for (k = 0; k < n_keys; k++) {
			unsigned int r;

			memset(key, 0, sizeof(key));
			key[words[w] - 1] = k * 7919;
			for (r = 0; r <= k % 4; r++) {
				t = tmk_update(map, key, sum_idx, 1, false);
				KUNIT_ASSERT_NOT_NULL(test, t.elt);
				KUNIT_EXPECT_EQ(test, t.busy, 0);
				/* slots held by other keys let updates through */
				pending += t.pending;
			}
		}
		for (k = 0; k < n_keys; k++) {
			u64 word;

			memset(key, 0, sizeof(key));
			key[words[w] - 1] = k * 7919;
			t.elt = tracing_map_lookup(map, key);
			KUNIT_ASSERT_NOT_NULL(test, t.elt);
			KUNIT_EXPECT_EQ(test, tracing_map_read_sum(t.elt, sum_idx),
					k % 4 + 1);
			/* keys stored past their first slot took the slow path */
			word = map->slots[tracing_map_hash(map, key, map->key_size) &
					  (map->n_slots - 1)];
			if (tracing_map_idx_elt(map, (u32)word - 1) != t.elt)
				slow++;
		}
		kunit_info(test, "%u-word keys: %u of %u past their first slot, %u updates pending\n",
			   words[w], slow, n_keys, pending);
		KUNIT_EXPECT_GT(test, slow, 0);
		if (tmk_pending)
			KUNIT_EXPECT_GT(test, pending, 0);
		else
			KUNIT_EXPECT_EQ(test, pending, 0);

		/* full: no element, no slot, a drop, busy back to 0 */
		key[0] = ~0ULL;
		t = tmk_update(map, key, sum_idx, 1, false);
		KUNIT_EXPECT_NULL(test, t.elt);
		KUNIT_EXPECT_FALSE(test, t.pending);
		KUNIT_EXPECT_EQ(test, t.busy, 0);
		KUNIT_EXPECT_EQ(test, tracing_map_read_drops(map), 1);

		/* nested in an update on this CPU: to the element */
		memset(key, 0, sizeof(key));
		t.elt = tracing_map_lookup(map, key);
		KUNIT_ASSERT_NOT_NULL(test, t.elt);
		raw = atomic64_read(&t.elt->fields[sum_idx]);
		t = tmk_update(map, key, sum_idx, 10, true);
		KUNIT_ASSERT_NOT_NULL(test, t.elt);
		KUNIT_EXPECT_FALSE(test, t.pending);
		KUNIT_EXPECT_EQ(test, t.busy, 0);
		KUNIT_EXPECT_EQ(test, tracing_map_read_sum(t.elt, sum_idx), 11);
		KUNIT_EXPECT_EQ(test, atomic64_read(&t.elt->fields[sum_idx]),
				raw + 10);
	}
}

/* Field indexes of tmk_test_aggs()'s map, after the u64 key (field 0). */
enum { TMK_A_COUNT = 1, TMK_A_MIN, TMK_A_SMAX, TMK_A_SAVG, TMK_A_N };

/* One event of value @v for @key, nested in another update if @nest. */
static void tmk_agg_event(struct kunit *test, struct tracing_map *map,
			  u64 key, s64 v, bool nest)
{
	u64 vals[TMK_A_N] = { 0, 1, v, v, v };
	struct tracing_map_elt *elt = tmk_insert(map, key);
	struct tracing_map_pcpu *pc;

	KUNIT_ASSERT_NOT_NULL(test, elt);
	preempt_disable();
	pc = this_cpu_ptr(map->pcpu);
	if (nest)
		local_inc(&pc->busy);
	tracing_map_add_sums(elt, vals, TMK_A_N);
	if (nest)
		local_dec(&pc->busy);
	preempt_enable();
}

/* Keys of @map sorted by field @idx, into @keys. */
static void tmk_agg_order(struct kunit *test, struct tracing_map *map,
			  unsigned int idx, u64 *keys, unsigned int n)
{
	struct tracing_map_sort_key sk = { .field_idx = idx };
	struct tracing_map_sort_entry **entries;
	int i, got;

	got = tracing_map_sort_entries(map, &sk, 1, &entries);
	KUNIT_ASSERT_EQ(test, got, n);
	for (i = 0; i < got; i++)
		keys[i] = *(u64 *)entries[i]->key;
	tracing_map_destroy_sort_entries(entries, got);
}

/*
 * Minimum (u64), maximum (s64) and average (s64) fields next to a sum:
 * through pending slots and, nested, through the compare-and-exchange
 * on the element; reads fold both, sorts compare the right way (an
 * average by sum / count), clear starts them over, and bad fields are
 * refused.
 */
static void tmk_test_aggs(struct kunit *test)
{
	struct tracing_map_elt *elt;
	struct tracing_map *map;
	u64 order[3];

	map = tmk_u64_map(test, TRACING_MAP_BITS_MIN, NULL, NULL);
	KUNIT_ASSERT_EQ(test, tracing_map_add_agg_field(map, TRACING_MAP_MIN, 0),
			TMK_A_MIN);
	KUNIT_ASSERT_EQ(test, tracing_map_add_agg_field(map, TRACING_MAP_SMAX, 0),
			TMK_A_SMAX);
	/* an average counts with a sum field, not a key or a minimum */
	KUNIT_EXPECT_EQ(test, tracing_map_add_agg_field(map, TRACING_MAP_SAVG,
							TMK_KEY_IDX), -EINVAL);
	KUNIT_EXPECT_EQ(test, tracing_map_add_agg_field(map, TRACING_MAP_SAVG,
							TMK_A_MIN), -EINVAL);
	KUNIT_EXPECT_EQ(test, tracing_map_add_agg_field(map, TRACING_MAP_SAVG + 1,
							0), -EINVAL);
	KUNIT_ASSERT_EQ(test, tracing_map_add_agg_field(map, TRACING_MAP_SAVG,
							TMK_A_COUNT), TMK_A_SAVG);
	KUNIT_ASSERT_EQ(test, tracing_map_init(map), 0);

	/* key 1: -5, 3, 10 (nested); key 2: 7, 7; key 3: -1, -9 (nested) */
	tmk_agg_event(test, map, 1, -5, false);
	tmk_agg_event(test, map, 1, 3, false);
	tmk_agg_event(test, map, 1, 10, true);
	tmk_agg_event(test, map, 2, 7, false);
	tmk_agg_event(test, map, 2, 7, true);
	tmk_agg_event(test, map, 3, -1, true);
	tmk_agg_event(test, map, 3, -9, false);

	elt = tmk_lookup(map, 1);
	KUNIT_ASSERT_NOT_NULL(test, elt);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, TMK_A_COUNT), 3);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, TMK_A_MIN), 3);
	KUNIT_EXPECT_EQ(test, (s64)tracing_map_read_sum(elt, TMK_A_SMAX), 10);
	KUNIT_EXPECT_EQ(test, (s64)tracing_map_read_sum(elt, TMK_A_SAVG), 8);
	elt = tmk_lookup(map, 3);
	KUNIT_ASSERT_NOT_NULL(test, elt);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, TMK_A_MIN), (u64)-9);
	KUNIT_EXPECT_EQ(test, (s64)tracing_map_read_sum(elt, TMK_A_SMAX), -1);
	KUNIT_EXPECT_EQ(test, (s64)tracing_map_read_sum(elt, TMK_A_SAVG), -10);

	/* averages 2, 7, -5 as s64; minima 3, 7, 2^64 - 9 as u64 */
	tmk_agg_order(test, map, TMK_A_SAVG, order, 3);
	KUNIT_EXPECT_EQ(test, order[0], 3);
	KUNIT_EXPECT_EQ(test, order[1], 1);
	KUNIT_EXPECT_EQ(test, order[2], 2);
	tmk_agg_order(test, map, TMK_A_MIN, order, 3);
	KUNIT_EXPECT_EQ(test, order[0], 1);
	KUNIT_EXPECT_EQ(test, order[1], 2);
	KUNIT_EXPECT_EQ(test, order[2], 3);
	tmk_agg_order(test, map, TMK_A_SMAX, order, 3);
	KUNIT_EXPECT_EQ(test, order[0], 3);
	KUNIT_EXPECT_EQ(test, order[1], 2);
	KUNIT_EXPECT_EQ(test, order[2], 1);

	/* a new entry's extremes start from the opposite ends */
	tracing_map_clear(map);
	elt = tmk_insert(map, 1);
	KUNIT_ASSERT_NOT_NULL(test, elt);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, TMK_A_MIN), U64_MAX);
	KUNIT_EXPECT_EQ(test, (s64)tracing_map_read_sum(elt, TMK_A_SMAX),
			S64_MIN);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, TMK_A_SAVG), 0);
	tmk_agg_event(test, map, 1, 4, false);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, TMK_A_MIN), 4);
	KUNIT_EXPECT_EQ(test, (s64)tracing_map_read_sum(elt, TMK_A_SMAX), 4);
}

/*
 * The bucket layout of quantile fields: 0 to 127 exact, then buckets that
 * tile [128, 2^32) without gaps, each at most 1/64 of its lower bound
 * wide, so that the middle of any value's bucket is within 1/128 of it;
 * 2^32 and more in the overflow bucket.
 */
static void tmk_test_quant_buckets(struct kunit *test)
{
	u64 v, low, next, mid, seed = 0x2545f4914f6cdd1dULL;
	unsigned int b, i;

	KUNIT_EXPECT_EQ(test, TRACING_MAP_QUANT_BUCKETS, 1729);
	KUNIT_EXPECT_EQ(test, TRACING_MAP_QUANT_SIZE, 6920);
	for (v = 0; v < 128; v++) {
		KUNIT_EXPECT_EQ(test, tracing_map_quant_bucket(v), v);
		KUNIT_EXPECT_EQ(test, tracing_map_quant_low(v), v);
	}
	for (b = 0; b < TRACING_MAP_QUANT_OVERFLOW; b++) {
		low = tracing_map_quant_low(b);
		next = tracing_map_quant_low(b + 1);
		KUNIT_ASSERT_LT(test, low, next);
		KUNIT_EXPECT_EQ(test, tracing_map_quant_bucket(low), b);
		KUNIT_EXPECT_EQ(test, tracing_map_quant_bucket(next - 1), b);
		if (b >= 128)
			KUNIT_EXPECT_LE(test, (next - low) * 64, low);
	}
	KUNIT_EXPECT_EQ(test, tracing_map_quant_low(TRACING_MAP_QUANT_OVERFLOW),
			BIT_ULL(32));
	KUNIT_EXPECT_EQ(test, tracing_map_quant_bucket(BIT_ULL(32) - 1),
			TRACING_MAP_QUANT_OVERFLOW - 1);
	KUNIT_EXPECT_EQ(test, tracing_map_quant_bucket(BIT_ULL(32)),
			TRACING_MAP_QUANT_OVERFLOW);
	KUNIT_EXPECT_EQ(test, tracing_map_quant_bucket(U64_MAX),
			TRACING_MAP_QUANT_OVERFLOW);

	/* any value: inside its bucket, the middle within 1/128 of it */
	for (i = 0; i < 100000; i++) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		v = seed >> (32 + (i % 32));
		b = tracing_map_quant_bucket(v);
		low = tracing_map_quant_low(b);
		next = tracing_map_quant_low(b + 1);
		KUNIT_ASSERT_LE(test, low, v);
		KUNIT_ASSERT_LT(test, v, next);
		mid = low + (next - low - 1) / 2;
		KUNIT_ASSERT_LT(test, (mid > v ? mid - v : v - mid) * 128,
				max(v, 1ULL));
	}
}

#define TMK_Q_IDX	(TMK_SUM_IDX + 1)

/* One event of quantile field TMK_Q_IDX as hist triggers count it. */
static void tmk_quant_event(struct kunit *test, struct tracing_map *map,
			    u64 key, u64 v)
{
	u64 vals[TMK_Q_IDX + 1] = { 0, 1, v };
	struct tracing_map_elt *elt = tmk_insert(map, key);

	KUNIT_ASSERT_NOT_NULL(test, elt);
	preempt_disable();
	tracing_map_add_sums(elt, vals, TMK_Q_IDX + 1);
	tracing_map_quant_add(elt, TMK_Q_IDX, v);
	preempt_enable();
}

/* The quantiles of field TMK_Q_IDX, with its maximum read as hist does. */
static u64 tmk_quantiles(struct tracing_map_elt *elt, const unsigned int *pm,
			 unsigned int n, u64 *q)
{
	return tracing_map_read_quantiles(elt, TMK_Q_IDX,
					  tracing_map_read_sum(elt, TMK_Q_IDX),
					  pm, n, q);
}

/* Count @a in quantile field 2 and @b in quantile field 3 of @elt. */
static void tmk_quant2_event(struct tracing_map_elt *elt, u64 a, u64 b)
{
	u64 vals[4] = { 0, 1, a, b };

	preempt_disable();
	tracing_map_add_sums(elt, vals, 4);
	tracing_map_quant_add(elt, 2, a);
	tracing_map_quant_add(elt, 3, b);
	preempt_enable();
}

/*
 * Two quantile fields next to a sum, variables and a data area, in
 * adjacent elements: each field counts apart, nothing else is touched,
 * and clear empties both.
 */
static void tmk_test_quant_layout(struct kunit *test)
{
	static const unsigned int pm[] = { 500, 999 };
	struct tracing_map_elt *e1, *e2, *elt;
	struct tracing_map *map;
	u64 q[2], i;

	map = tmk_u64_map(test, TRACING_MAP_BITS_MIN, NULL, NULL);
	KUNIT_ASSERT_EQ(test, tracing_map_add_quant_field(map), 2);
	KUNIT_ASSERT_EQ(test, tracing_map_add_quant_field(map), 3);
	KUNIT_ASSERT_EQ(test, tracing_map_add_var(map), 0);
	KUNIT_ASSERT_EQ(test, tracing_map_add_var(map), 1);
	KUNIT_ASSERT_EQ(test, tracing_map_set_data_size(map, 40), 0);
	KUNIT_ASSERT_EQ(test, tracing_map_init(map), 0);
	KUNIT_EXPECT_GE(test, map->quant_off, map->data_off + 40);
	KUNIT_EXPECT_EQ(test, map->elt_size,
			map->quant_off + 2 * TRACING_MAP_QUANT_SIZE);

	e1 = tmk_insert(map, 1);
	e2 = tmk_insert(map, 2);
	KUNIT_ASSERT_NOT_NULL(test, e1);
	KUNIT_ASSERT_NOT_NULL(test, e2);
	for (elt = e1; elt; elt = elt == e1 ? e2 : NULL) {
		memset(tracing_map_elt_data(elt), 0xa5, 40);
		tracing_map_set_var(elt, 0, 7);
		tracing_map_set_var(elt, 1, 8);
	}
	/* key 1: 1..100 and 1000..10000; key 2: three 5s and a 7 */
	for (i = 1; i <= 100; i++)
		tmk_quant2_event(e1, i, i <= 10 ? i * 1000 : 0);
	for (i = 0; i < 3; i++)
		tmk_quant2_event(e2, 5, 0);
	tmk_quant2_event(e2, 0, 7);

	KUNIT_EXPECT_EQ(test, tracing_map_read_quantiles(e1, 2, 100, pm, 2, q),
			100);
	KUNIT_EXPECT_EQ(test, q[0], 50);
	KUNIT_EXPECT_EQ(test, q[1], 100);
	/* ninety 0s, then 1000..10000: rank 50 is 0, rank 100 10000 */
	KUNIT_EXPECT_EQ(test, tracing_map_read_quantiles(e1, 3, 10000, pm, 2,
							 q), 100);
	KUNIT_EXPECT_EQ(test, q[0], 0);
	KUNIT_EXPECT_EQ(test, q[1], 10000);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(e1, 3), 10000);
	KUNIT_EXPECT_EQ(test, tracing_map_read_quantiles(e2, 2, 5, pm, 2, q), 4);
	KUNIT_EXPECT_EQ(test, q[0], 5);
	KUNIT_EXPECT_EQ(test, tracing_map_read_quantiles(e2, 3, 7, pm, 2, q), 4);
	KUNIT_EXPECT_EQ(test, q[1], 7);
	for (elt = e1; elt; elt = elt == e1 ? e2 : NULL) {
		KUNIT_EXPECT_NULL(test, memchr_inv(tracing_map_elt_data(elt),
						   0xa5, 40));
		KUNIT_EXPECT_EQ(test, tracing_map_read_var(elt, 0), 7);
		KUNIT_EXPECT_EQ(test, tracing_map_read_var(elt, 1), 8);
	}
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(e1, TMK_SUM_IDX), 100);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(e2, TMK_SUM_IDX), 4);

	tracing_map_clear(map);
	e1 = tmk_insert(map, 1);
	e2 = tmk_insert(map, 2);
	KUNIT_ASSERT_NOT_NULL(test, e1);
	KUNIT_ASSERT_NOT_NULL(test, e2);
	KUNIT_EXPECT_EQ(test, tracing_map_read_quantiles(e1, 2, 0, pm, 2, q), 0);
	KUNIT_EXPECT_EQ(test, tracing_map_read_quantiles(e1, 3, 0, pm, 2, q), 0);
	KUNIT_EXPECT_EQ(test, tracing_map_read_quantiles(e2, 2, 0, pm, 2, q), 0);
	KUNIT_EXPECT_EQ(test, tracing_map_read_quantiles(e2, 3, 0, pm, 2, q), 0);
}

/*
 * Quantiles by nearest rank, reported as the middle of their bucket and
 * at most the maximum; the overflow bucket reads as the maximum; counts
 * saturate; clear empties the buckets; the memory bound is enforced.
 */
static void tmk_test_quantiles(struct kunit *test)
{
	static const unsigned int pm[] = { 1, 500, 900, 990, 999, 1000 };
	struct tracing_map_elt *elt;
	struct tracing_map *map;
	u64 q[ARRAY_SIZE(pm)], order[2];
	u32 *buckets;
	unsigned int i;

	/* 2^13 elements take one quantile field, 2^10 take 8 */
	map = tmk_create(test, 13, sizeof(u64), NULL, NULL);
	KUNIT_EXPECT_EQ(test, tracing_map_add_quant_field(map), 0);
	KUNIT_EXPECT_EQ(test, tracing_map_add_quant_field(map), -E2BIG);
	map = tmk_create(test, 10, sizeof(u64), NULL, NULL);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, tracing_map_add_quant_field(map), i);
	KUNIT_EXPECT_EQ(test, tracing_map_add_quant_field(map), -E2BIG);

	map = tmk_u64_map(test, TRACING_MAP_BITS_MIN, NULL, NULL);
	KUNIT_ASSERT_EQ(test, tracing_map_add_quant_field(map), TMK_Q_IDX);
	KUNIT_ASSERT_EQ(test, tracing_map_init(map), 0);
	KUNIT_EXPECT_EQ(test, map->elt_size,
			map->quant_off + TRACING_MAP_QUANT_SIZE);

	/* key 1: 1000, 999, ..., 1 */
	for (i = 1000; i; i--)
		tmk_quant_event(test, map, 1, i);
	elt = tmk_lookup(map, 1);
	KUNIT_ASSERT_NOT_NULL(test, elt);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, TMK_Q_IDX), 1000);
	KUNIT_EXPECT_EQ(test, tmk_quantiles(elt, pm, ARRAY_SIZE(pm), q),
			1000);
	/* 1 exact; 500 in [500, 503]; 900 in [896, 903]; ... */
	KUNIT_EXPECT_EQ(test, q[0], 1);
	KUNIT_EXPECT_EQ(test, q[1], 501);
	KUNIT_EXPECT_EQ(test, q[2], 899);
	KUNIT_EXPECT_EQ(test, q[3], 987);
	KUNIT_EXPECT_EQ(test, q[4], 995);
	/* [1000, 1007]'s middle is above the maximum */
	KUNIT_EXPECT_EQ(test, q[5], 1000);

	/* key 2: ten 5s and one 2^40 */
	for (i = 0; i < 10; i++)
		tmk_quant_event(test, map, 2, 5);
	tmk_quant_event(test, map, 2, BIT_ULL(40));
	elt = tmk_lookup(map, 2);
	KUNIT_ASSERT_NOT_NULL(test, elt);
	KUNIT_EXPECT_EQ(test, tmk_quantiles(elt, pm, ARRAY_SIZE(pm), q),
			11);
	KUNIT_EXPECT_EQ(test, q[1], 5);
	KUNIT_EXPECT_EQ(test, q[2], 5);
	/* ranks 11 of 11 */
	KUNIT_EXPECT_EQ(test, q[3], BIT_ULL(40));
	KUNIT_EXPECT_EQ(test, q[4], BIT_ULL(40));
	KUNIT_EXPECT_EQ(test, q[5], BIT_ULL(40));

	/* sorted by the maximum */
	tmk_agg_order(test, map, TMK_Q_IDX, order, 2);
	KUNIT_EXPECT_EQ(test, order[0], 1);
	KUNIT_EXPECT_EQ(test, order[1], 2);

	/* a full bucket stays full */
	buckets = (void *)elt + map->quant_off;
	buckets[7] = U32_MAX - 1;
	for (i = 0; i < 3; i++)
		tmk_quant_event(test, map, 2, 7);
	KUNIT_EXPECT_EQ(test, buckets[7], U32_MAX);
	KUNIT_EXPECT_EQ(test, tmk_quantiles(elt, pm, ARRAY_SIZE(pm), q),
			(u64)U32_MAX + 11);
	KUNIT_EXPECT_EQ(test, q[1], 7);

	/* nothing counted: all 0; clear empties the buckets */
	elt = tmk_insert(map, 3);
	KUNIT_ASSERT_NOT_NULL(test, elt);
	KUNIT_EXPECT_EQ(test, tmk_quantiles(elt, pm, ARRAY_SIZE(pm), q),
			0);
	for (i = 0; i < ARRAY_SIZE(pm); i++)
		KUNIT_EXPECT_EQ(test, q[i], 0);
	tracing_map_clear(map);
	tmk_quant_event(test, map, 1, 3);
	elt = tmk_lookup(map, 1);
	KUNIT_ASSERT_NOT_NULL(test, elt);
	KUNIT_EXPECT_EQ(test, tmk_quantiles(elt, pm, ARRAY_SIZE(pm), q),
			1);
	KUNIT_EXPECT_EQ(test, q[4], 3);
	elt = tmk_insert(map, 2);
	KUNIT_ASSERT_NOT_NULL(test, elt);
	KUNIT_EXPECT_EQ(test, tmk_quantiles(elt, pm, ARRAY_SIZE(pm), q),
			0);
}

#define TMK_PEND_ROUNDS		200
#define TMK_PEND_BURST		50

struct tmk_pend_worker {
	struct tracing_map_elt	*elt[2];
	struct completion	*start;
	struct completion	done;
	unsigned long		adds[2];	/* completed adds to elt[i] */
};

/*
 * Bursts of adds to two elements that share a pending slot: every burst
 * starts by taking the slot over, moving up to a burst of amounts.
 */
static int tmk_pend_worker_fn(void *data)
{
	struct tmk_pend_worker *w = data;
	unsigned int r, i, j;

	wait_for_completion(w->start);
	for (r = 0; r < TMK_PEND_ROUNDS; r++) {
		for (i = 0; i < 2; i++)
			for (j = 0; j < TMK_PEND_BURST; j++) {
				tmk_add(w->elt[i], 1);
				/* the add is visible before the count */
				smp_wmb();
				WRITE_ONCE(w->adds[i], w->adds[i] + 1);
			}
		cond_resched();
	}
	complete(&w->done);
	return 0;
}

/*
 * Reading sums while other CPUs move pending amounts to the elements
 * never counts an amount twice: a read is at most the adds completed
 * when it ends, plus one in flight per worker.  Afterwards sums are
 * exact.
 */
static void tmk_test_pending_concurrent(struct kunit *test)
{
	unsigned int n_threads = max(num_online_cpus(), 2U);
	struct tmk_pend_worker *w;
	struct tracing_map_elt *a, *b;
	struct completion start;
	struct tracing_map *map;
	unsigned int i, reads = 0, over = 0;
	unsigned long done, excess = 0;
	u64 sum;
	bool running;

	map = tmk_u64_map(test, TRACING_MAP_BITS_MIN, NULL, NULL);
	KUNIT_ASSERT_EQ(test, tracing_map_init(map), 0);
	tmk_pend_pair(map, 64, &a, &b);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);

	w = kunit_kcalloc(test, n_threads, sizeof(*w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	init_completion(&start);
	for (i = 0; i < n_threads; i++) {
		w[i].elt[0] = a;
		w[i].elt[1] = b;
		w[i].start = &start;
		init_completion(&w[i].done);
	}
	if (!tmk_start_threads(test, n_threads, tmk_pend_worker_fn, w,
			       sizeof(*w), &start))
		return;

	do {
		running = false;
		for (i = 0; i < n_threads; i++)
			running |= !completion_done(&w[i].done);
		sum = tracing_map_read_sum(a, TMK_SUM_IDX);
		/* pairs with the workers' smp_wmb() */
		smp_rmb();
		done = 0;
		for (i = 0; i < n_threads; i++)
			done += READ_ONCE(w[i].adds[0]);
		reads++;
		if (sum > done + n_threads) {
			over++;
			excess = max_t(unsigned long, excess, sum - done);
		}
		cond_resched();
	} while (running);

	for (i = 0; i < n_threads; i++)
		wait_for_completion(&w[i].done);
	kunit_info(test, "%u reads while %u CPUs moved pending sums\n",
		   reads, n_threads);
	KUNIT_EXPECT_EQ_MSG(test, over, 0, "a read exceeded the adds by %lu",
			    excess);
	KUNIT_EXPECT_GT(test, reads, 1);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(a, TMK_SUM_IDX),
			(u64)n_threads * TMK_PEND_ROUNDS * TMK_PEND_BURST);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(b, TMK_SUM_IDX),
			(u64)n_threads * TMK_PEND_ROUNDS * TMK_PEND_BURST);
}

/* Drops counted by the map's user add to the full map's, and clear. */
static void tmk_test_count_drop(struct kunit *test)
{
	struct tracing_map *map;
	unsigned int i;

	map = tmk_u64_map(test, TRACING_MAP_BITS_MIN, NULL, NULL);
	KUNIT_ASSERT_EQ(test, tracing_map_init(map), 0);
	KUNIT_EXPECT_EQ(test, tracing_map_read_drops(map), 0);
	for (i = 0; i < 3; i++) {
		preempt_disable();
		tracing_map_count_drop(map);
		preempt_enable();
	}
	KUNIT_EXPECT_EQ(test, tracing_map_read_drops(map), 3);
	KUNIT_EXPECT_EQ(test, tracing_map_read_hits(map), 0);
	KUNIT_EXPECT_NOT_NULL(test, tmk_insert(map, 1));
	KUNIT_EXPECT_EQ(test, tracing_map_read_drops(map), 3);
	KUNIT_EXPECT_EQ(test, tracing_map_read_hits(map), 1);
	tracing_map_clear(map);
	KUNIT_EXPECT_EQ(test, tracing_map_read_drops(map), 0);
}

static void tmk_test_clear(struct kunit *test)
{
	struct tmk_counts *counts = tmk_new_counts(test, 0);
	struct tracing_map_elt *elt;
	struct tracing_map *map;
	unsigned int k, max;
	int var;

	map = tmk_u64_map(test, TRACING_MAP_BITS_MIN, &tmk_counting_ops,
			  counts);
	var = tracing_map_add_var(map);
	KUNIT_ASSERT_EQ(test, var, 0);
	KUNIT_ASSERT_EQ(test, tracing_map_init(map), 0);
	max = map->max_elts;

	for (k = 0; k < max + 2; k++) {
		elt = tmk_insert(map, k);
		if (k >= max) {
			KUNIT_EXPECT_NULL(test, elt);
			continue;
		}
		KUNIT_ASSERT_NOT_NULL(test, elt);
		tracing_map_update_sum(elt, TMK_SUM_IDX, 5);
		tracing_map_set_var(elt, var, k);
	}
	KUNIT_EXPECT_EQ(test, tracing_map_read_hits(map), max);
	KUNIT_EXPECT_EQ(test, tracing_map_read_drops(map), 2);
	KUNIT_EXPECT_EQ(test, counts->init, max);

	tracing_map_clear(map);
	KUNIT_EXPECT_EQ(test, counts->clear, max);
	KUNIT_EXPECT_EQ(test, tracing_map_read_hits(map), 0);
	KUNIT_EXPECT_EQ(test, tracing_map_read_drops(map), 0);
	KUNIT_EXPECT_EQ(test, tmk_count(map), 0);
	for (k = 0; k < max + 2; k++)
		KUNIT_EXPECT_NULL(test, tmk_lookup(map, k));

	elt = tmk_insert(map, 3);
	KUNIT_ASSERT_NOT_NULL(test, elt);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, TMK_SUM_IDX), 0);
	KUNIT_EXPECT_FALSE(test, tracing_map_var_set(elt, var));
	KUNIT_EXPECT_EQ(test, tracing_map_read_var(elt, var), 0);
	KUNIT_EXPECT_EQ(test, tracing_map_read_hits(map), 1);
	KUNIT_EXPECT_EQ(test, tmk_count(map), 1);

	/* The whole pool is available again. */
	for (k = 1; k < max; k++)
		KUNIT_EXPECT_NOT_NULL(test, tmk_insert(map, 100000 + k));
	KUNIT_EXPECT_EQ(test, tracing_map_read_drops(map), 0);
	KUNIT_EXPECT_EQ(test, counts->init, 2 * max);

	/* A second clear only visits the elements used since the first. */
	tracing_map_clear(map);
	KUNIT_EXPECT_EQ(test, counts->clear, 2 * max);
	tmk_insert(map, 1);
	tracing_map_clear(map);
	KUNIT_EXPECT_EQ(test, counts->clear, 2 * max + 1);
}

/* Sort test data: two key fields and two sums per entry. */
struct tmk_skey {
	u64	a;
	s64	b;
};

struct tmk_sort_data {
	struct tmk_skey	key;
	u64		s0, s1;
};

static const struct tmk_sort_data tmk_sort_data[] = {
	{ { 5, -1 }, 30, 1 },
	{ { 2,  7 }, 10, 2 },
	{ { 9,  3 }, 20, 2 },
	{ { 1, -5 }, 20, 1 },
	{ { 7,  0 }, 10, 1 },
	{ { 3,  4 }, 10, 1 },
};

enum { TMK_S_A, TMK_S_B, TMK_S_S0, TMK_S_S1 };

#define TMK_SORT(idx, desc) \
	((struct tracing_map_sort_key){ .field_idx = (idx), .descending = (desc) })

static struct tracing_map *tmk_sort_map(struct kunit *test, bool reverse)
{
	const int n = ARRAY_SIZE(tmk_sort_data);
	const struct tmk_sort_data *d;
	struct tracing_map_elt *elt;
	struct tracing_map *map;
	struct tmk_skey key;
	int i;

	map = tmk_create(test, TRACING_MAP_BITS_MIN, sizeof(key), NULL, NULL);
	tmk_add_key(test, map, offsetof(struct tmk_skey, a),
		    tracing_map_cmp_num(8, 0), TMK_S_A);
	tmk_add_key(test, map, offsetof(struct tmk_skey, b),
		    tracing_map_cmp_num(8, 1), TMK_S_B);
	KUNIT_ASSERT_EQ(test, tracing_map_add_sum_field(map), TMK_S_S0);
	KUNIT_ASSERT_EQ(test, tracing_map_add_sum_field(map), TMK_S_S1);
	KUNIT_ASSERT_EQ(test, tracing_map_init(map), 0);

	for (i = 0; i < n; i++) {
		d = &tmk_sort_data[reverse ? n - 1 - i : i];
		key = d->key;
		elt = tracing_map_insert(map, &key);
		KUNIT_ASSERT_NOT_NULL(test, elt);
		tracing_map_update_sum(elt, TMK_S_S0, d->s0);
		tracing_map_update_sum(elt, TMK_S_S1, d->s1);
	}
	return map;
}

/* Sort @map and check that entry i holds tmk_sort_data[expect[i]]. */
static void tmk_check_sort(struct kunit *test, struct tracing_map *map,
			   struct tracing_map_sort_key *sk, unsigned int n_sk,
			   const int *expect)
{
	const int n = ARRAY_SIZE(tmk_sort_data);
	struct tracing_map_sort_entry **entries;
	const struct tmk_skey *key;
	int i, ret;

	ret = tracing_map_sort_entries(map, sk, n_sk, &entries);
	KUNIT_ASSERT_EQ(test, ret, n);
	for (i = 0; i < n; i++) {
		key = entries[i]->key;
		KUNIT_EXPECT_PTR_EQ(test, entries[i]->key,
				    tracing_map_elt_key(entries[i]->elt));
		KUNIT_EXPECT_EQ_MSG(test, key->a, tmk_sort_data[expect[i]].key.a,
				    "position %d", i);
		KUNIT_EXPECT_EQ(test, tracing_map_read_sum(entries[i]->elt, TMK_S_S0),
				tmk_sort_data[expect[i]].s0);
	}
	tracing_map_destroy_sort_entries(entries, ret);
}

static void tmk_test_sort(struct kunit *test)
{
	/* Equal sums are ordered by key field a, whatever the direction. */
	static const int s0_asc[] = { 1, 5, 4, 3, 2, 0 };
	static const int s0_desc[] = { 0, 3, 2, 1, 5, 4 };
	static const int a_asc[] = { 3, 1, 5, 0, 4, 2 };
	static const int a_desc[] = { 2, 4, 0, 5, 1, 3 };
	static const int b_asc[] = { 3, 0, 4, 2, 5, 1 };
	static const int s1_desc_s0_asc[] = { 1, 2, 5, 4, 3, 0 };
	struct tracing_map_sort_key sk[TRACING_MAP_SORT_KEYS_MAX + 1] = {};
	struct tracing_map_sort_entry **entries;
	struct tracing_map *map;
	int pass, ret;

	for (pass = 0; pass < 2; pass++) {
		map = tmk_sort_map(test, pass);

		sk[0] = TMK_SORT(TMK_S_S0, false);
		tmk_check_sort(test, map, sk, 1, s0_asc);
		sk[0].descending = true;
		tmk_check_sort(test, map, sk, 1, s0_desc);

		sk[0] = TMK_SORT(TMK_S_A, false);
		tmk_check_sort(test, map, sk, 1, a_asc);
		sk[0].descending = true;
		tmk_check_sort(test, map, sk, 1, a_desc);

		sk[0] = TMK_SORT(TMK_S_B, false);
		tmk_check_sort(test, map, sk, 1, b_asc);

		sk[0] = TMK_SORT(TMK_S_S1, true);
		sk[1] = TMK_SORT(TMK_S_S0, false);
		tmk_check_sort(test, map, sk, 2, s1_desc_s0_asc);
	}

	/* Bad sort keys are rejected. */
	sk[0].field_idx = TMK_S_S1 + 1;
	KUNIT_EXPECT_EQ(test, tracing_map_sort_entries(map, sk, 1, &entries),
			-EINVAL);
	ret = tracing_map_sort_entries(map, sk, TRACING_MAP_SORT_KEYS_MAX + 1,
				       &entries);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
}

static void tmk_test_sort_memcmp_tie(struct kunit *test)
{
	static const char * const names[] = { "delta", "alpha", "charlie",
					      "bravo" };
	static const char * const sorted[] = { "alpha", "bravo", "charlie",
					       "delta" };
	struct tracing_map_sort_key sk = { .field_idx = 1, .descending = true };
	struct tracing_map_sort_entry **entries;
	struct tracing_map *map;
	char key[8];
	int i, n;

	/* The key field has no order: ties fall back to memcmp() of keys. */
	map = tmk_create(test, TRACING_MAP_BITS_MIN, sizeof(key), NULL, NULL);
	tmk_add_key(test, map, 0, tracing_map_cmp_none, 0);
	KUNIT_ASSERT_EQ(test, tracing_map_add_sum_field(map), 1);
	KUNIT_ASSERT_EQ(test, tracing_map_init(map), 0);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		memset(key, 0, sizeof(key));
		strscpy(key, names[i], sizeof(key));
		KUNIT_ASSERT_NOT_NULL(test, tracing_map_insert(map, key));
	}

	n = tracing_map_sort_entries(map, &sk, 1, &entries);
	KUNIT_ASSERT_EQ(test, n, ARRAY_SIZE(names));
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_STREQ(test, (char *)entries[i]->key, sorted[i]);
	tracing_map_destroy_sort_entries(entries, n);
}

/* @neg has the top bit set, @pos does not; both are @size bytes. */
static void tmk_check_num(struct kunit *test, int size, void *neg, void *pos)
{
	tracing_map_cmp_fn_t s = tracing_map_cmp_num(size, 1);
	tracing_map_cmp_fn_t u = tracing_map_cmp_num(size, 0);

	KUNIT_EXPECT_LT_MSG(test, s(neg, pos), 0, "size %d", size);
	KUNIT_EXPECT_GT_MSG(test, s(pos, neg), 0, "size %d", size);
	KUNIT_EXPECT_EQ_MSG(test, s(neg, neg), 0, "size %d", size);
	KUNIT_EXPECT_GT_MSG(test, u(neg, pos), 0, "size %d", size);
	KUNIT_EXPECT_LT_MSG(test, u(pos, neg), 0, "size %d", size);
	KUNIT_EXPECT_EQ_MSG(test, u(pos, pos), 0, "size %d", size);
}

static void tmk_test_cmp_fns(struct kunit *test)
{
	s64 n64 = -1, p64 = 1, min64 = S64_MIN, max64 = S64_MAX;
	s32 n32 = -1, p32 = 1, min32 = S32_MIN, max32 = S32_MAX;
	s16 n16 = -1, p16 = 1, min16 = S16_MIN, max16 = S16_MAX;
	s8 n8 = -1, p8 = 1, min8 = S8_MIN, max8 = S8_MAX;
	u8 bytes_a[2] = { 5, 1 }, bytes_b[2] = { 5, 2 };
	char s1[] = "abc", s2[] = "abd", s3[] = "b", s4[] = "abc";
	tracing_map_cmp_fn_t fn;

	tmk_check_num(test, 8, &n64, &p64);
	tmk_check_num(test, 8, &min64, &max64);
	tmk_check_num(test, 4, &n32, &p32);
	tmk_check_num(test, 4, &min32, &max32);
	tmk_check_num(test, 2, &n16, &p16);
	tmk_check_num(test, 2, &min16, &max16);
	tmk_check_num(test, 1, &n8, &p8);
	tmk_check_num(test, 1, &min8, &max8);

	/* A 1-byte comparator looks at one byte only. */
	fn = tracing_map_cmp_num(1, 0);
	KUNIT_EXPECT_EQ(test, fn(bytes_a, bytes_b), 0);
	fn = tracing_map_cmp_num(3, 0);
	KUNIT_EXPECT_TRUE(test, fn == tracing_map_cmp_none);

	KUNIT_EXPECT_LT(test, tracing_map_cmp_string(s1, s2), 0);
	KUNIT_EXPECT_GT(test, tracing_map_cmp_string(s3, s1), 0);
	KUNIT_EXPECT_EQ(test, tracing_map_cmp_string(s1, s4), 0);
	KUNIT_EXPECT_EQ(test, tracing_map_cmp_none(s1, s2), 0);
	KUNIT_EXPECT_EQ(test, tracing_map_cmp_none(&n64, &p64), 0);
}

static void tmk_test_vars(struct kunit *test)
{
	struct tracing_map_elt *a, *b;
	struct tracing_map *map;
	int v0, v1;

	map = tmk_u64_map(test, TRACING_MAP_BITS_MIN, NULL, NULL);
	v0 = tracing_map_add_var(map);
	v1 = tracing_map_add_var(map);
	KUNIT_ASSERT_EQ(test, v0, 0);
	KUNIT_ASSERT_EQ(test, v1, 1);
	KUNIT_ASSERT_EQ(test, tracing_map_init(map), 0);
	a = tmk_insert(map, 1);
	b = tmk_insert(map, 2);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);

	KUNIT_EXPECT_FALSE(test, tracing_map_var_set(a, v0));
	KUNIT_EXPECT_EQ(test, tracing_map_read_var(a, v0), 0);

	tracing_map_set_var(a, v0, 42);
	KUNIT_EXPECT_TRUE(test, tracing_map_var_set(a, v0));
	KUNIT_EXPECT_FALSE(test, tracing_map_var_set(a, v1));
	KUNIT_EXPECT_FALSE(test, tracing_map_var_set(b, v0));
	KUNIT_EXPECT_EQ(test, tracing_map_read_var(a, v0), 42);
	KUNIT_EXPECT_TRUE(test, tracing_map_var_set(a, v0));

	KUNIT_EXPECT_EQ(test, tracing_map_read_var_once(a, v0), 42);
	KUNIT_EXPECT_FALSE(test, tracing_map_var_set(a, v0));
	KUNIT_EXPECT_EQ(test, tracing_map_read_var_once(a, v0), 42);
	KUNIT_EXPECT_FALSE(test, tracing_map_var_set(a, v0));
	KUNIT_EXPECT_EQ(test, tracing_map_read_var(a, v0), 42);

	tracing_map_set_var(a, v0, U64_MAX);
	tracing_map_set_var(b, v1, 7);
	KUNIT_EXPECT_TRUE(test, tracing_map_var_set(a, v0));
	KUNIT_EXPECT_EQ(test, tracing_map_read_var(a, v0), U64_MAX);
	KUNIT_EXPECT_EQ(test, tracing_map_read_var(b, v1), 7);
	KUNIT_EXPECT_EQ(test, tracing_map_read_var(b, v0), 0);
	KUNIT_EXPECT_EQ(test, tracing_map_read_sum(a, TMK_SUM_IDX), 0);
}

static void tmk_test_ops(struct kunit *test)
{
	struct tmk_counts *counts = tmk_new_counts(test, 0);
	struct tracing_map_elt *elt;
	struct tracing_map *map;
	unsigned int max;
	u64 *data;
	int k;

	map = tmk_u64_map(test, TRACING_MAP_BITS_MIN, &tmk_counting_ops,
			  counts);
	KUNIT_EXPECT_EQ(test,
			tracing_map_set_data_size(map, TRACING_MAP_DATA_MAX + 1),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, tracing_map_set_data_size(map, 3 * sizeof(u64)),
			0);
	KUNIT_EXPECT_EQ(test, counts->alloc, 0);
	KUNIT_ASSERT_EQ(test, tracing_map_init(map), 0);
	KUNIT_EXPECT_EQ(test, tracing_map_set_data_size(map, 8), -EINVAL);
	max = map->max_elts;
	KUNIT_EXPECT_EQ(test, counts->alloc, max);
	KUNIT_EXPECT_EQ(test, counts->init, 0);
	KUNIT_EXPECT_EQ(test, tracing_map_init(map), -EBUSY);
	KUNIT_EXPECT_EQ(test, counts->alloc, max);

	for (k = 0; k < 3; k++) {
		elt = tmk_insert(map, k);
		KUNIT_ASSERT_NOT_NULL(test, elt);
		data = tracing_map_elt_data(elt);
		/* elt_alloc() stored the pointer; the rest stays zero */
		KUNIT_EXPECT_PTR_EQ(test, (void *)(unsigned long)data[0], (void *)counts);
		KUNIT_EXPECT_EQ(test, data[1], 0);
		KUNIT_EXPECT_EQ(test, data[2], 0);
		/* the area is the element's own: not the key, not a sum */
		data[1] = ~0ULL;
		data[2] = k;
		KUNIT_EXPECT_EQ(test, *(u64 *)tracing_map_elt_key(elt), k);
		KUNIT_EXPECT_EQ(test, tracing_map_read_sum(elt, TMK_SUM_IDX), 0);
		KUNIT_EXPECT_EQ(test, counts->init, k + 1);
	}
	for (k = 0; k < 3; k++) {
		data = tracing_map_elt_data(tmk_lookup(map, k));
		KUNIT_EXPECT_EQ(test, data[1], ~0ULL);
		KUNIT_EXPECT_EQ(test, data[2], k);
	}
	for (k = 0; k < 3; k++)
		KUNIT_EXPECT_NOT_NULL(test, tmk_insert(map, k));
	KUNIT_EXPECT_NULL(test, tmk_lookup(map, 3));
	KUNIT_EXPECT_EQ(test, counts->init, 3);
	KUNIT_EXPECT_EQ(test, counts->clear, 0);
	KUNIT_EXPECT_EQ(test, counts->free, 0);

	kunit_release_action(test, tmk_destroy_action, map);
	KUNIT_EXPECT_EQ(test, counts->free, max);
	KUNIT_EXPECT_EQ(test, counts->alloc, max);
}

static void tmk_test_ops_alloc_failure(struct kunit *test)
{
	struct tmk_counts *counts = tmk_new_counts(test, 6);
	struct tracing_map *map;

	map = tmk_u64_map(test, TRACING_MAP_BITS_MIN, &tmk_counting_ops,
			  counts);
	KUNIT_EXPECT_EQ(test, tracing_map_init(map), -ENOMEM);
	KUNIT_EXPECT_EQ(test, counts->alloc, 5);
	KUNIT_EXPECT_EQ(test, counts->free, 5);

	kunit_release_action(test, tmk_destroy_action, map);
	KUNIT_EXPECT_EQ(test, counts->free, 5);
}

static void tmk_test_create_errors(struct kunit *test)
{
	struct tracing_map *map;
	int i;

	map = tracing_map_create(TRACING_MAP_BITS_MIN - 1, 8, NULL, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(map), -EINVAL);
	map = tracing_map_create(TRACING_MAP_BITS_MAX + 1, 8, NULL, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(map), -EINVAL);
	map = tracing_map_create(0, 8, NULL, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(map), -EINVAL);

	/* Both limits are valid; create allocates no storage yet. */
	map = tmk_create(test, TRACING_MAP_BITS_MAX, 8, NULL, NULL);
	KUNIT_EXPECT_EQ(test, map->map_bits, TRACING_MAP_BITS_MAX);
	KUNIT_EXPECT_EQ(test, map->max_elts, 1U << TRACING_MAP_BITS_MAX);

	map = tmk_create(test, TRACING_MAP_BITS_MIN, 8 * TRACING_MAP_KEYS_MAX,
			 NULL, test);
	KUNIT_EXPECT_EQ(test, map->map_bits, TRACING_MAP_BITS_MIN);
	KUNIT_EXPECT_EQ(test, map->max_elts, 1U << TRACING_MAP_BITS_MIN);
	KUNIT_EXPECT_EQ(test, map->key_size, 8 * TRACING_MAP_KEYS_MAX);
	KUNIT_EXPECT_PTR_EQ(test, map->private_data, (void *)test);

	/* Field limits; bad key fields do not use up an index. */
	tmk_add_key(test, map, 0, NULL, -EINVAL);
	tmk_add_key(test, map, 8 * TRACING_MAP_KEYS_MAX, tracing_map_cmp_none,
		    -EINVAL);
	for (i = 0; i < TRACING_MAP_KEYS_MAX; i++)
		tmk_add_key(test, map, 8 * i, tracing_map_cmp_none, i);
	tmk_add_key(test, map, 0, tracing_map_cmp_none, -EINVAL);
	for (; i < TRACING_MAP_FIELDS_MAX; i++)
		KUNIT_EXPECT_EQ(test, tracing_map_add_sum_field(map), i);
	KUNIT_EXPECT_EQ(test, tracing_map_add_sum_field(map), -EINVAL);
	for (i = 0; i < TRACING_MAP_VARS_MAX; i++)
		KUNIT_EXPECT_EQ(test, tracing_map_add_var(map), i);
	KUNIT_EXPECT_EQ(test, tracing_map_add_var(map), -EINVAL);
}

static struct kunit_case tracing_map_test_cases[] = {
	KUNIT_CASE(tmk_test_insert_lookup),
	KUNIT_CASE(tmk_test_compound_key),
	KUNIT_CASE(tmk_test_odd_key_sizes),
	KUNIT_CASE(tmk_test_full_map),
	KUNIT_CASE(tmk_test_concurrent),
	KUNIT_CASE(tmk_test_nested_irq_work),
	KUNIT_CASE(tmk_test_pending_sums),
	KUNIT_CASE(tmk_test_pending_concurrent),
	KUNIT_CASE(tmk_test_insert_sums),
	KUNIT_CASE(tmk_test_aggs),
	KUNIT_CASE(tmk_test_quant_buckets),
	KUNIT_CASE(tmk_test_quantiles),
	KUNIT_CASE(tmk_test_quant_layout),
	KUNIT_CASE(tmk_test_clear),
	KUNIT_CASE(tmk_test_count_drop),
	KUNIT_CASE(tmk_test_sort),
	KUNIT_CASE(tmk_test_sort_memcmp_tie),
	KUNIT_CASE(tmk_test_cmp_fns),
	KUNIT_CASE(tmk_test_vars),
	KUNIT_CASE(tmk_test_ops),
	KUNIT_CASE(tmk_test_ops_alloc_failure),
	KUNIT_CASE(tmk_test_create_errors),
	{}
};

static struct kunit_suite tracing_map_test_suite = {
	.name = "tracing_map",
	.test_cases = tracing_map_test_cases,
};

kunit_test_suite(tracing_map_test_suite);
