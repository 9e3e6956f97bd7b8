// SPDX-License-Identifier: GPL-2.0
/*
 * tracing_map - fixed-size, preallocated aggregation map for tracers
 *
 * Inserts come from tracepoints, possibly in NMI context or from inside
 * the memory allocator.  After tracing_map_init() nothing allocates,
 * locks or waits: inserts and lookups are wait-free.
 *
 * tracing_map_init() allocates a slot table of n_slots = 2 * max_elts
 * words (tracing_map_slot_t: u64 on 64-bit kernels, u32 with the hash in
 * the element on 32-bit ones; a power of two, never more than half used)
 * and one array of
 * max_elts elements, each a fixed stride holding everything it needs:
 *
 *   slots[n_slots]               elts[max_elts], elt_size bytes apart
 *  +-----------------+
 *  | 0               |  empty   +---+------+----+---+-------+------+
 *  +-----------------+    +---->|map|fields|vars|key|var_set| data | elt 0
 *  | hash(B)<<32 | 1 |----+     +---+------+----+---+-------+------+
 *  +-----------------+          |map|fields|vars|key|var_set| data | elt 1
 *  | hash(A)<<32 | 2 |--------->+---+------+----+---+-------+------+
 *  +-----------------+          |  ...                              |
 *  | 0               |  empty
 *  +-----------------+
 *
 * Only what the user asked for takes room: one counter per sum field, one
 * word per variable, the key rounded up to 8 bytes, a flag per variable
 * and the user's data area (tracing_map_set_data_size(), e.g. the comm
 * of an .execname key); nothing is allocated per element.  A quantile
 * field adds its buckets after the data area (see tracing_map.h): 1,729
 * 32-bit counts, zeroed by init and by clear, never by an insert, and
 * incremented with a saturating atomic add on the element itself.
 *
 * A slot word is (32-bit hash of the key << 32) | (pool index + 1); 0
 * means empty.  Between two clears a slot changes once, from 0 to its
 * final value.  The hash reads the key a u64 word at a time
 * (tracing_map_hash()), and keys are compared the same way, so an 8-byte
 * key costs a handful of instructions, not a byte loop.
 *
 * Insert probes linearly from hash & (n_slots - 1), at most n_slots
 * slots.  A used slot with the same hash and a memcmp()-equal key is the
 * answer; other used slots are skipped.  At an empty slot it takes an
 * element (this CPU's spare, else the next pool index from an atomic
 * counter), zeroes its sums and variables, copies the key in, calls
 * ops->elt_init() and publishes it with cmpxchg(slot, 0, word).  If
 * that fails, another CPU published into this very slot: for the same
 * key, use the winner's element and park ours as this CPU's spare; for
 * another key, keep probing with the element already prepared.
 *
 * Hash and element appear in one atomic store, so no slot is ever
 * "claimed but not ready" and nobody waits.  No key is published twice:
 * its inserters walk the same probe sequence, slots never become empty
 * again, and whoever reaches the key's slot after it was published sees
 * the key there (directly or after losing the cmpxchg).  At most half
 * the slots being used, a probe always ends at the key or an empty slot.
 * No element left: count a drop and return NULL; every successful
 * insert counts a hit.  The pool counter is checked with atomic_read()
 * before being incremented, so it exceeds max_elts by at most the number
 * of concurrent inserters.  The spare is moved with xchg()/cmpxchg() on
 * raw_cpu_ptr(), not this_cpu_*(): the generic versions of the latter
 * only disable interrupts, which does not stop an NMI from taking the
 * same element.  An element that cannot be parked because the spare is
 * occupied stays unused until the next clear.
 *
 * Lookup is the same probe, ending with NULL at the first empty slot; it
 * adds nothing and counts nothing.
 *
 * Memory ordering:
 * (P) All stores to a new element (zeroed fields and variables, key,
 *     elt_init(), on 32-bit kernels the hash) precede the cmpxchg()
 *     that publishes it, which is
 *     fully ordered when it succeeds.
 * (A) Slot words are read by tracing_map_slot_read(), an acquire load
 *     pairing with (P), so whoever sees a used slot sees the element's
 *     key and initial contents.  (The element is also reached through
 *     an address dependency on the index; only the acquire is relied
 *     on.)  A slot is one machine word or less, so the load is atomic.
 * (F) A failed cmpxchg() is not ordered, so an inserter that lost a
 *     slot reloads it with tracing_map_slot_read() before using it.
 * (S) Sums in elements are unordered atomic64 counters, see also (C).
 *     Where those are lib/atomic64.c's locks (GENERIC_ATOMIC64) or run
 *     with interrupts off (x86-32 without CMPXCHG8B), NMIs leave the map
 *     alone: tracing_map_nmi_refused().  "NMI-safe" below means that: the
 *     element an NMI could pass on comes from an insert or lookup, which
 *     are refused there.
 *     Hits and drops are per-CPU
 *     counters that an interrupt or NMI on the same CPU cannot make lose
 *     an update (one this_cpu_inc() instruction where the architecture
 *     has NMI-safe ones, else local64_t; see tracing_map_ctr_t), summed
 *     when read.
 * (V) tracing_map_set_var() stores the value, then sets var_set with
 *     smp_store_release(); tracing_map_var_set() reads the flag with
 *     smp_load_acquire(), so seeing the flag implies seeing the value.
 *     tracing_map_read_var_once() clears the flag with WRITE_ONCE(); a
 *     set racing with it may be consumed by it.
 *
 * Pending sums.  A sum updated with an atomic add on every event makes
 * every CPU that counts the same key write the element's cache line.  So
 * on 64-bit kernels tracing_map_insert_sums() hands the updater one of
 * this CPU's TRACING_MAP_PEND_SLOTS slots instead, chosen by the
 * element's pool index, to add to with local64_add(): one instruction
 * that interrupts cannot split, no bus lock, on a line no other CPU
 * writes.  A slot holding another element is taken over after a few
 * such updates (tracing_map_pend_switch(); the others add to their
 * element): its amounts are added to that element, it is zeroed and it
 * gets the new element.  An interrupt or NMI updating
 * the same map while this CPU is between tracing_map_insert_sums() and
 * tracing_map_sums_put() finds its busy count above one and adds to the
 * element directly, so a slot has one writer at a time and nothing
 * waits.  A sum is the element's counter plus every CPU's slot for the
 * element (tracing_map_read_sum()), exact once the updates stopped.
 * Sums read while they run may miss amounts being moved from a slot to
 * the element, never count them twice:
 * (C) The owner makes the slot's seq odd, smp_wmb(), adds its amounts to
 *     the old element, zeroes them, stores the new element, smp_wmb(),
 *     makes seq even again.  A reader reads the element's counter, then,
 *     after smp_rmb(), each slot between two reads of its seq, and uses
 *     the slot only if they are equal and even (it tries a few times,
 *     then leaves that slot out).  If the counter it read includes a
 *     flush, the flush's odd seq was visible before it, so the slot read
 *     that follows either retries or sees the slot after the flush.
 *     Plain adds to a slot leave seq alone: a reader sees the amount
 *     before or after one add, as with an atomic counter.
 * Clear zeroes the slots along with the elements.
 *
 * Sort and walk may run while inserts go on: they see the elements
 * published when they read each slot, whose sums may still change.
 * Clear is not safe against concurrent inserts or lookups: the caller
 * stops them and waits for those in flight (e.g.
 * tracepoint_synchronize_unregister()), then clear resets the elements
 * used since the previous clear (calling ops->elt_clear()), the slots,
 * the spares, the pool counter, hits and drops with plain stores that
 * the caller's resume orders before the next insert.  Sort reads the
 * live published elements.  It breaks ties by the key fields and finally
 * by memcmp() of the key, so the output order never depends on hashing
 * or insertion order.
 */
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/percpu.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include <linux/vmalloc.h>

#include "tracing_map.h"

static inline struct tracing_map_elt *
tracing_map_slot_elt(struct tracing_map *map, tracing_map_slot_t word)
{
	return tracing_map_idx_elt(map, tracing_map_slot_idx(word));
}

static inline atomic64_t *tracing_map_vars(struct tracing_map_elt *elt)
{
	return (void *)elt + elt->map->vars_off;
}

static inline bool *tracing_map_set_flags(struct tracing_map_elt *elt)
{
	return (void *)elt + elt->map->set_off;
}

/* Zero sums, variables and flags; @elt is unpublished or the map is paused. */
static void tracing_map_elt_reset(struct tracing_map *map,
				  struct tracing_map_elt *elt)
{
	unsigned int i;

	for (i = 0; i < map->n_counters; i++)
		atomic64_set(&elt->fields[i],
			     tracing_map_agg_init(map->fields[i].agg));
	if (!map->n_vars)
		return;
	for (i = 0; i < map->n_vars; i++)
		atomic64_set(&tracing_map_vars(elt)[i], 0);
	memset(tracing_map_set_flags(elt), 0, map->n_vars);
}

/* Take the spare or a pool element and prepare it for @key, rule (P). */
static struct tracing_map_elt *tracing_map_get_elt(struct tracing_map *map,
						   void *key)
{
	struct tracing_map_elt *elt;
	unsigned int idx;

	elt = xchg(&raw_cpu_ptr(map->pcpu)->spare, NULL);
	if (!elt) {
		if (atomic_read(&map->next_elt) >= map->max_elts)
			return NULL;
		idx = atomic_fetch_inc(&map->next_elt);
		if (idx >= map->max_elts)
			return NULL;
		elt = tracing_map_idx_elt(map, idx);
	}

	tracing_map_elt_reset(map, elt);
	memcpy(tracing_map_elt_key(elt), key, map->key_size);
	if (map->ops && map->ops->elt_init)
		map->ops->elt_init(elt);
	return elt;
}

/*
 * Keep an unpublished element as this CPU's spare; if the spare is
 * occupied, @elt stays unused until the next clear.
 */
static void tracing_map_park_elt(struct tracing_map *map,
				 struct tracing_map_elt *elt)
{
	(void)cmpxchg(&raw_cpu_ptr(map->pcpu)->spare, NULL, elt);
}

#ifdef TRACING_MAP_CTR_THIS_CPU
static u64 tracing_map_ctr_read(u64 *ctr)
{
	return READ_ONCE(*ctr);
}

static void tracing_map_ctr_reset(u64 *ctr)
{
	WRITE_ONCE(*ctr, 0);
}
#else
static u64 tracing_map_ctr_read(local64_t *ctr)
{
	return local64_read(ctr);
}

static void tracing_map_ctr_reset(local64_t *ctr)
{
	local64_set(ctr, 0);
}
#endif

/*
 * The probe shared by insert (@add) and lookup (!@add), see the top of
 * this file.  @size is the map's key size, a constant where the caller
 * picked a common size, so that hash and compare unroll.
 */
static __always_inline struct tracing_map_elt *
tracing_map_probe(struct tracing_map *map, void *key, bool add,
		  unsigned int size, u32 hash, u32 *elt_idx)
{
	unsigned int mask = map->n_slots - 1;
	unsigned int idx = hash & mask;
	struct tracing_map_elt *new = NULL;
	struct tracing_map_elt *elt;
	unsigned int n;
	tracing_map_slot_t word;

	if (tracing_map_nmi_refused(map, add))
		return NULL;
	/* n_slots is at least 2: the first test is not needed */
	n = 0;
	do {
		word = tracing_map_slot_read(&map->slots[idx]);
		if (!word) {
			if (!add)
				return NULL;
			if (!new) {
				new = tracing_map_get_elt(map, key);
				if (!new)
					goto drop;
			}
			word = ((void *)new - map->elts) / map->elt_size + 1;
#ifdef CONFIG_64BIT
			word |= (u64)hash << 32;
#else
			new->hash = hash;	/* rule (P) */
#endif
			if (!cmpxchg(&map->slots[idx], 0, word)) {
				tracing_map_count(&map->pcpu->hits);
				*elt_idx = tracing_map_slot_idx(word);
				return new;
			}
			/* Lost this slot to another CPU, rule (F). */
			word = tracing_map_slot_read(&map->slots[idx]);
		}

		if (tracing_map_slot_hash(map, word) != hash)
			continue;
		elt = tracing_map_slot_elt(map, word);
		if (!tracing_map_key_eq(map, elt, key, size))
			continue;

		if (new)
			tracing_map_park_elt(map, new);
		if (add)
			tracing_map_count(&map->pcpu->hits);
		*elt_idx = tracing_map_slot_idx(word);
		return elt;
	} while (idx = (idx + 1) & mask, ++n < map->n_slots);

	/* Not reached while at most half of the slots are used. */
	if (!add)
		return NULL;
	if (new)
		tracing_map_park_elt(map, new);
drop:
	tracing_map_count(&map->pcpu->drops);
	return NULL;
}

/**
 * tracing_map_insert() - Find or add the element for a key.
 * @map: The map, set up with tracing_map_init().
 * @key: The key, &tracing_map.key_size bytes.
 *
 * If @key is new, an element is taken from the pool, @key is copied
 * into it, elt_init() is called and the element is published.  Counts
 * a hit on success and a drop when no element is left.
 *
 * Context: Any context, NMI-safe; never sleeps, allocates or waits.  Where
 * atomic64_t is not NMI-safe, an NMI's insert is refused and counted as a
 * drop (tracing_map_nmi_refused()).
 * Return: The element for @key, or %NULL if @key is new and the map is
 * full.
 */
struct tracing_map_elt *tracing_map_insert(struct tracing_map *map, void *key)
{
	u32 idx;

	/* one u64 key part: most histograms */
	if (likely(map->key_size == sizeof(u64)))
		return tracing_map_probe(map, key, true, sizeof(u64),
					 tracing_map_hash(map, key, sizeof(u64)),
					 &idx);
	return tracing_map_probe(map, key, true, map->key_size,
				 tracing_map_hash(map, key, map->key_size),
				 &idx);
}

#ifdef TRACING_MAP_PENDING
/**
 * tracing_map_pend_switch() - Give a pending slot of this CPU to @elt.
 * @p: The slot, which holds another element or none.
 * @elt: Its new element.
 *
 * Moves the slot's amounts to its old element, rule (C).  Only for
 * tracing_map_pend_take(), which takes an empty slot at once and a held
 * one after %TRACING_MAP_PEND_MISSES - 1 updates of other elements went
 * to their elements, so that keys that change at every event do not move
 * amounts at every event.
 *
 * Context: Preemption disabled, the only update of the map running on
 * this CPU.
 */
noinline void tracing_map_pend_switch(struct tracing_map_pend *p,
				      struct tracing_map_elt *elt)
{
	struct tracing_map *map = elt->map;
	struct tracing_map_elt *old = p->elt;
	unsigned int i, n = map->n_counters;
	u64 init;

	p->misses = 0;
	WRITE_ONCE(p->seq, p->seq + 1);
	/* Rule (C): the odd seq before the amounts reach the element. */
	smp_wmb();
	for (i = 0; i < n; i++) {
		u64 val = local64_read(&p->sums[i]);

		init = tracing_map_agg_init(map->fields[i].agg);
		if (old && val != init)
			tracing_map_update_val(old, i, val);
		local64_set(&p->sums[i], init);
	}
	WRITE_ONCE(p->elt, elt);
	/* Rule (C): the new contents before the even seq. */
	smp_wmb();
	WRITE_ONCE(p->seq, p->seq + 1);
}

/* The pending slot of element @idx in @pc, as tracing_map_pend_take(). */
static struct tracing_map_pend *
tracing_map_pend_slot(struct tracing_map *map, struct tracing_map_pcpu *pc,
		      u32 idx)
{
	return (void *)pc->pend +
		((idx & (TRACING_MAP_PEND_SLOTS - 1)) << map->pend_shift);
}
#endif

/**
 * tracing_map_insert_sums_slow() - tracing_map_insert_sums() out of line.
 * @map: The map.
 * @key: The key.
 * @hash: Its hash, or 0 if not computed yet (a key that is not one or
 *	two u64 words).
 * @s: As for tracing_map_insert_sums().
 *
 * For keys not found in their first slot, new keys and other key sizes.
 *
 * Context: As tracing_map_insert_sums().
 * Return: As tracing_map_insert_sums().
 */
struct tracing_map_elt *tracing_map_insert_sums_slow(struct tracing_map *map,
						     void *key, u32 hash,
						     struct tracing_map_sums *s)
{
	struct tracing_map_elt *elt;
	u32 idx;

	s->sums = NULL;
	if (likely(map->key_size == sizeof(u64)))
		elt = tracing_map_probe(map, key, true, sizeof(u64), hash, &idx);
	else if (map->key_size == 2 * sizeof(u64))
		elt = tracing_map_probe(map, key, true, 2 * sizeof(u64), hash,
					&idx);
	else
		elt = tracing_map_probe(map, key, true, map->key_size,
					tracing_map_hash(map, key,
							 map->key_size),
					&idx);
	if (likely(elt))
		tracing_map_pend_take(map, elt, idx, s);
	return elt;
}

/* Index of @elt in the pool: a division, for the slow paths only. */
static u32 tracing_map_elt_idx(struct tracing_map_elt *elt)
{
	struct tracing_map *map = elt->map;

	return div64_u64((void *)elt - map->elts, map->elt_size);
}

/**
 * tracing_map_add_sums() - Put @vals[i] into value field i of @elt, i < @n.
 * @elt: The element.
 * @vals: The values, indexed by field index; 0 for key fields.
 * @n: Number of amounts, at most &tracing_map.n_counters.
 *
 * Like the update tracing_map_insert_sums() prepares, for an element
 * found otherwise.
 *
 * Context: Any context, NMI-safe; preemption disabled.
 */
void tracing_map_add_sums(struct tracing_map_elt *elt, const u64 *vals,
			  unsigned int n)
{
	struct tracing_map_sums s;
	unsigned int i;

	tracing_map_pend_take(elt->map, elt, tracing_map_elt_idx(elt), &s);
	if (likely(s.sums)) {
		for (i = 0; i < n; i++)
			tracing_map_pend_update(&s.sums[i],
						elt->map->fields[i].agg,
						vals[i]);
		tracing_map_sums_put(&s);
		return;
	}
	for (i = 0; i < n; i++)
		tracing_map_update_val(elt, i, vals[i]);
}

/**
 * tracing_map_lookup() - Find the element for a key.
 * @map: The map, set up with tracing_map_init().
 * @key: The key, &tracing_map.key_size bytes.
 *
 * Never adds an element and does not count hits or drops.
 *
 * Context: Any context, NMI-safe.  Where atomic64_t is not NMI-safe, an
 * NMI's lookup finds nothing (tracing_map_nmi_refused()).
 * Return: The element for @key, or %NULL if @key is not in the map.
 */
struct tracing_map_elt *tracing_map_lookup(struct tracing_map *map, void *key)
{
	u32 idx;

	if (likely(map->key_size == sizeof(u64)))
		return tracing_map_probe(map, key, false, sizeof(u64),
					 tracing_map_hash(map, key, sizeof(u64)),
					 &idx);
	return tracing_map_probe(map, key, false, map->key_size,
				 tracing_map_hash(map, key, map->key_size),
				 &idx);
}

/**
 * tracing_map_set_var() - Store @n in variable @i of @elt and mark it set.
 * @elt: The element.
 * @i: Variable index from tracing_map_add_var().
 * @n: The new value.
 *
 * Context: Any context, NMI-safe.
 */
void tracing_map_set_var(struct tracing_map_elt *elt, unsigned int i, u64 n)
{
	atomic64_set(&tracing_map_vars(elt)[i], n);
	/* Rule (V): the value is visible before the flag. */
	smp_store_release(&tracing_map_set_flags(elt)[i], true);
}

/**
 * tracing_map_var_set() - Test whether variable @i of @elt is set.
 * @elt: The element.
 * @i: Variable index from tracing_map_add_var().
 *
 * Context: Any context, NMI-safe.
 * Return: true if it was set and not consumed since by
 * tracing_map_read_var_once().
 */
bool tracing_map_var_set(struct tracing_map_elt *elt, unsigned int i)
{
	/* Rule (V): pairs with tracing_map_set_var(). */
	return smp_load_acquire(&tracing_map_set_flags(elt)[i]);
}

/**
 * tracing_map_read_var() - Read variable @i of @elt, keeping its state.
 * @elt: The element.
 * @i: Variable index from tracing_map_add_var().
 *
 * Context: Any context, NMI-safe.
 * Return: The last value stored, 0 if it was never set.
 */
u64 tracing_map_read_var(struct tracing_map_elt *elt, unsigned int i)
{
	return (u64)atomic64_read(&tracing_map_vars(elt)[i]);
}

/**
 * tracing_map_read_var_once() - Read variable @i of @elt and mark it unset.
 * @elt: The element.
 * @i: Variable index from tracing_map_add_var().
 *
 * Only the flag is cleared; tracing_map_read_var() still sees the value.
 *
 * Context: Any context, NMI-safe.
 * Return: The last value stored, 0 if it was never set.
 */
u64 tracing_map_read_var_once(struct tracing_map_elt *elt, unsigned int i)
{
	u64 val = (u64)atomic64_read(&tracing_map_vars(elt)[i]);

	/* Rule (V). */
	WRITE_ONCE(tracing_map_set_flags(elt)[i], false);
	return val;
}

#ifdef TRACING_MAP_PENDING
#define TRACING_MAP_PEND_TRIES	4

/* Field @i of @elt pending in slot @p into *@val, rule (C); false if none. */
static bool tracing_map_pend_read(struct tracing_map_pend *p,
				  struct tracing_map_elt *elt, unsigned int i,
				  u64 *val)
{
	unsigned long seq;
	unsigned int tries;
	bool mine;

	for (tries = 0; tries < TRACING_MAP_PEND_TRIES; tries++) {
		seq = READ_ONCE(p->seq);
		/* Rule (C): pairs with the second smp_wmb() of a switch. */
		smp_rmb();
		mine = READ_ONCE(p->elt) == elt;
		*val = local64_read(&p->sums[i]);
		/* Rule (C): pairs with the first smp_wmb() of a switch. */
		smp_rmb();
		if (!(seq & 1) && READ_ONCE(p->seq) == seq)
			return mine;
		cpu_relax();
	}
	/* moved meanwhile, or about to be: left out, rule (C) */
	return false;
}
#endif

#ifdef TRACING_MAP_PENDING
/* Fold @val into @acc, which a field keeping @agg holds. */
static u64 tracing_map_agg_fold(enum tracing_map_agg agg, u64 acc, u64 val)
{
	if (agg == TRACING_MAP_SUM || agg >= TRACING_MAP_AVG)
		return acc + val;
	return tracing_map_agg_better(agg, val, acc) ? val : acc;
}
#endif

/**
 * tracing_map_read_sum() - Read value field @i of @elt.
 * @elt: The element.
 * @i: Field index from tracing_map_add_sum_field() or
 *	tracing_map_add_agg_field().
 *
 * The element's field folded with what every CPU holds pending for it
 * (see the top of tracing_map.c): exact when no update runs, else an
 * amount being moved to the element may be missed, none is counted
 * twice.  A minimum or maximum that saw no value yet reads as
 * tracing_map_agg_init().
 *
 * Context: Any context, NMI-safe.
 * Return: The sum, minimum or maximum; for an average, the sum.
 */
u64 tracing_map_read_sum(struct tracing_map_elt *elt, unsigned int i)
{
	u64 sum = (u64)atomic64_read(&elt->fields[i]);
#ifdef TRACING_MAP_PENDING
	struct tracing_map *map = elt->map;
	enum tracing_map_agg agg = map->fields[i].agg;
	u32 idx = tracing_map_elt_idx(elt);
	u64 val;
	int cpu;

	/* Rule (C): the counter before the slots. */
	smp_rmb();
	for_each_possible_cpu(cpu) {
		struct tracing_map_pend *p;

		p = tracing_map_pend_slot(map, per_cpu_ptr(map->pcpu, cpu), idx);
		if (tracing_map_pend_read(p, elt, i, &val))
			sum = tracing_map_agg_fold(agg, sum, val);
	}
#endif
	return sum;
}

#ifdef TRACING_MAP_PENDING
/*
 * The fields @idx[0..@n) of @elt pending in slot @p, all from one stable
 * reading of the slot (rule (C)), folded into @vals; nothing if the slot
 * holds another element or kept moving.
 */
static void tracing_map_pend_fold(struct tracing_map_pend *p,
				  struct tracing_map_elt *elt,
				  const unsigned int *idx, unsigned int n,
				  u64 *vals)
{
	u64 got[TRACING_MAP_FIELDS_MAX];
	enum tracing_map_agg agg;
	unsigned long seq;
	unsigned int tries, j;

	for (tries = 0; tries < TRACING_MAP_PEND_TRIES; tries++) {
		seq = READ_ONCE(p->seq);
		/* Rule (C): pairs with the second smp_wmb() of a switch. */
		smp_rmb();
		if (READ_ONCE(p->elt) != elt)
			return;
		for (j = 0; j < n; j++)
			got[j] = local64_read(&p->sums[idx[j]]);
		/* Rule (C): pairs with the first smp_wmb() of a switch. */
		smp_rmb();
		if (!(seq & 1) && READ_ONCE(p->seq) == seq) {
			for (j = 0; j < n; j++) {
				agg = elt->map->fields[idx[j]].agg;
				vals[j] = tracing_map_agg_fold(agg, vals[j],
							       got[j]);
			}
			return;
		}
		cpu_relax();
	}
}
#endif

/**
 * tracing_map_read_sums() - Read several value fields of @elt at once.
 * @elt: The element.
 * @idx: The field indices, at most %TRACING_MAP_FIELDS_MAX of them.
 * @n: How many.
 * @vals: Receives field @idx[j] in @vals[j].
 *
 * What tracing_map_read_sum() gives for each, with one pass over the
 * CPUs' pending slots for all of them rather than one per field.
 *
 * Context: Any context, NMI-safe.
 */
void tracing_map_read_sums(struct tracing_map_elt *elt,
			   const unsigned int *idx, unsigned int n, u64 *vals)
{
	unsigned int j;
#ifdef TRACING_MAP_PENDING
	struct tracing_map *map = elt->map;
	u32 e = tracing_map_elt_idx(elt);
	int cpu;
#endif

	n = min_t(unsigned int, n, TRACING_MAP_FIELDS_MAX);
	for (j = 0; j < n; j++)
		vals[j] = (u64)atomic64_read(&elt->fields[idx[j]]);
#ifdef TRACING_MAP_PENDING
	/* Rule (C): the counters before the slots. */
	smp_rmb();
	for_each_possible_cpu(cpu) {
		struct tracing_map_pend *p;

		p = tracing_map_pend_slot(map, per_cpu_ptr(map->pcpu, cpu), e);
		tracing_map_pend_fold(p, elt, idx, n, vals);
	}
#endif
}

/**
 * tracing_map_update_val() - Put @val into value field @i of @elt.
 * @elt: The element.
 * @i: Field index.
 * @val: The value: added to a sum, kept if more extreme by a minimum or
 *	maximum.
 *
 * Updates the element itself, with an atomic operation.
 *
 * Context: Any context, NMI-safe.
 */
void tracing_map_update_val(struct tracing_map_elt *elt, unsigned int i,
			    u64 val)
{
	enum tracing_map_agg agg = elt->map->fields[i].agg;
	atomic64_t *f = &elt->fields[i];
	s64 old;

	if (agg == TRACING_MAP_SUM || agg >= TRACING_MAP_AVG) {
		atomic64_add(val, f);
		return;
	}
	/*
	 * A failed exchange means another update made the field more
	 * extreme; retry only while @val still is.
	 */
	old = atomic64_read(f);
	while (tracing_map_agg_better(agg, val, old) &&
	       !atomic64_try_cmpxchg(f, &old, val))
		;
}

static atomic_t *tracing_map_quant_buckets(struct tracing_map_elt *elt,
					   unsigned int i)
{
	struct tracing_map *map = elt->map;

	return (void *)elt + map->quant_off +
	       (map->fields[i].quant - 1) * TRACING_MAP_QUANT_SIZE;
}

/**
 * tracing_map_quant_add() - Count @val in the buckets of quantile field @i.
 * @elt: The element.
 * @i: Field index from tracing_map_add_quant_field().
 * @val: The value.
 *
 * Only the buckets: the field's maximum is updated as any value field's.
 * A bucket that reached U32_MAX stays there.  The increment is a
 * compare-and-exchange that fails only when another update changed the
 * same bucket, so each retry follows someone else's success.
 *
 * Context: Any context, NMI-safe.
 */
void tracing_map_quant_add(struct tracing_map_elt *elt, unsigned int i,
			   u64 val)
{
	atomic_add_unless(tracing_map_quant_buckets(elt, i) +
			  tracing_map_quant_bucket(val), 1, -1);
}

/* The nearest rank of @permille thousandths of @total values, from 1. */
static u64 tracing_map_quant_rank(u64 total, unsigned int permille)
{
	return max_t(u64, 1, DIV_ROUND_UP_ULL(total * permille, 1000));
}

/**
 * tracing_map_read_quantiles() - Read quantiles of a quantile field.
 * @elt: The element.
 * @i: Field index from tracing_map_add_quant_field().
 * @max: The field's maximum, as the caller read it with
 *	tracing_map_read_sum() (so that what it shows and the quantiles
 *	agree while updates go on).
 * @permille: The quantiles wanted, in thousandths (500 is the median,
 *	999 the 99.9th percentile), ascending, each 1 to 1000.
 * @n: Number of entries in @permille and @out.
 * @out: Receives the quantiles: the smallest value of the counted ones
 *	with at least @permille[j] / 1000 of them at or below it (the
 *	"nearest rank"), as the middle of its bucket but at most @max;
 *	a quantile among the values of 2^32 and more reads as @max.
 *	All 0 if nothing was counted.
 *
 * The buckets are read twice, for the count and for the ranks; counts
 * only grow between two clears, so the second pass reaches every rank
 * the first one asks for even while updates go on.
 *
 * Context: Any context.
 * Return: The number of values counted.
 */
u64 tracing_map_read_quantiles(struct tracing_map_elt *elt, unsigned int i,
			       u64 max, const unsigned int *permille,
			       unsigned int n, u64 *out)
{
	atomic_t *b = tracing_map_quant_buckets(elt, i);
	u64 total = 0, cum = 0, low, val;
	unsigned int k, j = 0;

	for (k = 0; k < TRACING_MAP_QUANT_BUCKETS; k++)
		total += (u32)atomic_read(&b[k]);
	for (k = 0; k < TRACING_MAP_QUANT_BUCKETS && j < n && total; k++) {
		cum += (u32)atomic_read(&b[k]);
		if (cum < tracing_map_quant_rank(total, permille[j]))
			continue;
		if (k == TRACING_MAP_QUANT_OVERFLOW) {
			val = max;
		} else {
			low = tracing_map_quant_low(k);
			val = low + (tracing_map_quant_low(k + 1) - low - 1) / 2;
			val = min(val, max);
		}
		/* this bucket may hold the next ranks too */
		do
			out[j++] = val;
		while (j < n && cum >= tracing_map_quant_rank(total,
							      permille[j]));
	}
	for (; j < n; j++)
		out[j] = total ? max : 0;
	return total;
}

static u64 tracing_map_sum_pcpu(struct tracing_map *map, bool drops)
{
	struct tracing_map_pcpu *pc;
	u64 n = 0;
	int cpu;

	if (!map->pcpu)
		return 0;
	for_each_possible_cpu(cpu) {
		pc = per_cpu_ptr(map->pcpu, cpu);
		n += tracing_map_ctr_read(drops ? &pc->drops : &pc->hits);
	}
	return n;
}

/**
 * tracing_map_used() - Elements taken since the last clear.
 * @map: The map.
 *
 * Context: Any context.
 * Return: An upper bound of the number of entries (a spare element
 * prepared by an insert that lost its race counts too).
 */
unsigned int tracing_map_used(struct tracing_map *map)
{
	return min_t(unsigned int, atomic_read(&map->next_elt), map->max_elts);
}

/**
 * tracing_map_read_hits() - Successful inserts since the last clear.
 * @map: The map.
 *
 * Context: Any context; concurrent inserts may or may not be counted.
 * Return: The number of tracing_map_insert() calls that found or added
 * their element.
 */
u64 tracing_map_read_hits(struct tracing_map *map)
{
	return tracing_map_sum_pcpu(map, false);
}

/**
 * tracing_map_read_drops() - Inserts refused since the last clear.
 * @map: The map.
 *
 * Context: Any context; concurrent inserts may or may not be counted.
 * Return: The number of tracing_map_insert() calls that found the map
 * full.
 */
u64 tracing_map_read_drops(struct tracing_map *map)
{
	/* NMIs refused (a 32-bit count: it wraps after 2^32 of them) */
	return tracing_map_sum_pcpu(map, true) +
	       (unsigned int)atomic_read(&map->nmi_drops);
}

/**
 * tracing_map_count_drop() - Count an update its user had to give up.
 * @map: The map.
 *
 * For an update refused before it reached the map (its user ran out of
 * room of its own): it shows among the drops as a full map's do.
 *
 * Context: Any context, preemption disabled.
 */
void tracing_map_count_drop(struct tracing_map *map)
{
	if (!tracing_map_nmi_refused(map, true))
		tracing_map_count(&map->pcpu->drops);
}

/* Numeric comparators: the sign of a - b, computed without overflow. */
#define DEFINE_TRACING_MAP_CMP_NUM(type)				\
static int tracing_map_cmp_##type(void *val_a, void *val_b)		\
{									\
	type a = *(type *)val_a;					\
	type b = *(type *)val_b;					\
									\
	return (a > b) - (a < b);					\
}

DEFINE_TRACING_MAP_CMP_NUM(s64)
DEFINE_TRACING_MAP_CMP_NUM(u64)
DEFINE_TRACING_MAP_CMP_NUM(s32)
DEFINE_TRACING_MAP_CMP_NUM(u32)
DEFINE_TRACING_MAP_CMP_NUM(s16)
DEFINE_TRACING_MAP_CMP_NUM(u16)
DEFINE_TRACING_MAP_CMP_NUM(s8)
DEFINE_TRACING_MAP_CMP_NUM(u8)

/**
 * tracing_map_cmp_num() - Pick the comparator for a numeric key field.
 * @field_size: Size of the field in bytes: 1, 2, 4 or 8.
 * @field_is_signed: Non-zero for a signed integer.
 *
 * Context: Any context.
 * Return: The comparator, tracing_map_cmp_none() for other sizes.
 */
tracing_map_cmp_fn_t tracing_map_cmp_num(int field_size, int field_is_signed)
{
	switch (field_size) {
	case 8:
		return field_is_signed ? tracing_map_cmp_s64 : tracing_map_cmp_u64;
	case 4:
		return field_is_signed ? tracing_map_cmp_s32 : tracing_map_cmp_u32;
	case 2:
		return field_is_signed ? tracing_map_cmp_s16 : tracing_map_cmp_u16;
	case 1:
		return field_is_signed ? tracing_map_cmp_s8 : tracing_map_cmp_u8;
	default:
		return tracing_map_cmp_none;
	}
}

/**
 * tracing_map_cmp_string() - Compare two NUL-terminated strings.
 * @val_a: First string.
 * @val_b: Second string.
 *
 * Context: Any context.
 * Return: <0, 0 or >0, as strcmp().
 */
int tracing_map_cmp_string(void *val_a, void *val_b)
{
	return strcmp(val_a, val_b);
}

/**
 * tracing_map_cmp_none() - Comparator for fields without an order.
 * @val_a: Ignored.
 * @val_b: Ignored.
 *
 * Context: Any context.
 * Return: 0, leaving the decision to the next sort criterion.
 */
int tracing_map_cmp_none(void *val_a, void *val_b)
{
	return 0;
}

struct tracing_map_sort_ctx {
	struct tracing_map		*map;
	struct tracing_map_sort_key	*sort_keys;
	unsigned int			n_sort_keys;
};

/*
 * Compare sort criterion @k (field @idx) of two entries, ascending: key
 * fields with their comparator, sums as read when the sort started.
 */
static int tracing_map_cmp_field(struct tracing_map *map, unsigned int idx,
				 unsigned int k,
				 const struct tracing_map_sort_entry *a,
				 const struct tracing_map_sort_entry *b)
{
	const struct tracing_map_field_desc *field = &map->fields[idx];
	u64 va = a->sums[k], vb = b->sums[k];

	if (field->is_key)
		return field->cmp_fn(a->key + field->offset,
				     b->key + field->offset);
	if (field->agg == TRACING_MAP_SMIN || field->agg == TRACING_MAP_SMAX ||
	    field->agg == TRACING_MAP_SAVG)
		return ((s64)va > (s64)vb) - ((s64)va < (s64)vb);
	return (va > vb) - (va < vb);
}

/* What sort criterion field @idx of @elt compares: an average divided. */
static u64 tracing_map_sort_val(struct tracing_map *map,
				struct tracing_map_elt *elt, unsigned int idx)
{
	const struct tracing_map_field_desc *field = &map->fields[idx];
	u64 val = tracing_map_read_sum(elt, idx), n;

	if (field->agg < TRACING_MAP_AVG)
		return val;
	n = tracing_map_read_sum(elt, field->count_idx);
	if (!n)
		return 0;
	if (field->agg == TRACING_MAP_SAVG)
		return div64_s64(val, n);
	return div64_u64(val, n);
}

static int tracing_map_sort_cmp(const void *l, const void *r, const void *priv)
{
	const struct tracing_map_sort_ctx *ctx = priv;
	const struct tracing_map_sort_entry *a = l, *b = r;
	struct tracing_map *map = ctx->map;
	const struct tracing_map_sort_key *sk;
	unsigned int i;
	int ret;

	for (i = 0; i < ctx->n_sort_keys; i++) {
		sk = &ctx->sort_keys[i];
		if (sk->descending)
			ret = tracing_map_cmp_field(map, sk->field_idx, i, b, a);
		else
			ret = tracing_map_cmp_field(map, sk->field_idx, i, a, b);
		if (ret)
			return ret;
	}

	/* Deterministic tie-break: key fields in order, then the raw key. */
	for (i = 0; i < map->n_keys; i++) {
		ret = tracing_map_cmp_field(map, map->key_idx[i], 0, a, b);
		if (ret)
			return ret;
	}
	return memcmp(a->key, b->key, map->key_size);
}

/**
 * tracing_map_sort_entries() - Collect and sort all elements of a map.
 * @map: The map.
 * @sort_keys: Up to %TRACING_MAP_SORT_KEYS_MAX criteria, primary first.
 * @n_sort_keys: Number of entries in @sort_keys.
 * @sort_entries: Receives the sorted array of entry pointers.
 *
 * Sum fields compare as u64, each read once when its entry is collected,
 * key fields with their cmp_fn.  Entries equal under all criteria are
 * ordered by their key fields (ascending), then by memcmp() of the key.
 * Inserts may go on meanwhile (see the top of this file): an entry
 * published after its slot was read is left out.  Free the result with
 * tracing_map_destroy_sort_entries().
 *
 * Context: Process context, may sleep.
 * Return: The number of entries, -EINVAL for a bad sort key, or -ENOMEM.
 */
int tracing_map_sort_entries(struct tracing_map *map,
			     struct tracing_map_sort_key *sort_keys,
			     unsigned int n_sort_keys,
			     struct tracing_map_sort_entry ***sort_entries)
{
	struct tracing_map_sort_ctx ctx = {
		.map		= map,
		.sort_keys	= sort_keys,
		.n_sort_keys	= n_sort_keys,
	};
	struct tracing_map_sort_entry **ptrs;
	struct tracing_map_sort_entry *ents;
	unsigned int i, k, n, used = 0;
	tracing_map_slot_t word;

	*sort_entries = NULL;
	if (n_sort_keys > TRACING_MAP_SORT_KEYS_MAX)
		return -EINVAL;
	for (i = 0; i < n_sort_keys; i++)
		if (sort_keys[i].field_idx >= map->n_fields)
			return -EINVAL;

	/* Published elements are among those taken from the pool. */
	n = min_t(unsigned int, atomic_read(&map->next_elt), map->max_elts);
	if (!n)
		return 0;

	/* One block: n pointers, then the n entries they point to. */
	ptrs = kvcalloc(n, sizeof(*ptrs) + sizeof(*ents), GFP_KERNEL);
	if (!ptrs)
		return -ENOMEM;
	ents = (struct tracing_map_sort_entry *)(ptrs + n);

	for (i = 0; i < map->n_slots && used < n; i++) {
		word = tracing_map_slot_read(&map->slots[i]);
		if (!word)
			continue;
		ents[used].elt = tracing_map_slot_elt(map, word);
		ents[used].key = tracing_map_elt_key(ents[used].elt);
		for (k = 0; k < n_sort_keys; k++)
			if (!map->fields[sort_keys[k].field_idx].is_key)
				ents[used].sums[k] =
					tracing_map_sort_val(map, ents[used].elt,
							     sort_keys[k].field_idx);
		used++;
	}

	sort_r(ents, used, sizeof(*ents), tracing_map_sort_cmp, NULL, &ctx);
	for (i = 0; i < used; i++)
		ptrs[i] = &ents[i];

	*sort_entries = ptrs;
	return used;
}

/**
 * tracing_map_destroy_sort_entries() - Free a sorted entry array.
 * @entries: Array from tracing_map_sort_entries(), may be %NULL.
 * @n_entries: Its length.
 *
 * Context: Process context, may sleep.
 */
void tracing_map_destroy_sort_entries(struct tracing_map_sort_entry **entries,
				      unsigned int n_entries)
{
	kvfree(entries);
}

/**
 * tracing_map_walk() - Call a function for every element of a map.
 * @map: The map.
 * @fn: Called with each published element and @arg.
 * @arg: Passed to @fn.
 *
 * Visits the elements in slot order, not sorted: for readers that fold a
 * map into their own summary.  Elements may be updated while @fn reads
 * them, as for tracing_map_sort_entries().
 *
 * Context: Process context; the map must not be destroyed meanwhile.
 */
void tracing_map_walk(struct tracing_map *map, tracing_map_elt_fn_t fn, void *arg)
{
	unsigned int i;
	tracing_map_slot_t word;

	for (i = 0; i < map->n_slots; i++) {
		word = tracing_map_slot_read(&map->slots[i]);
		if (word)
			fn(tracing_map_slot_elt(map, word), arg);
	}
}

/* Empty the pending slots of one CPU; no update of the map runs. */
static void tracing_map_pend_reset(struct tracing_map *map,
				   struct tracing_map_pcpu *pc)
{
	struct tracing_map_pend *p;
	unsigned int i, k;

	for (i = 0; i < TRACING_MAP_PEND_SLOTS; i++) {
		p = (void *)pc->pend + (i << map->pend_shift);
		/* seq keeps counting: a reader's two reads never match by chance */
		WRITE_ONCE(p->seq, p->seq + 2);
		p->elt = NULL;
		p->misses = 0;
		for (k = 0; k < map->n_counters; k++)
			local64_set(&p->sums[k],
				    tracing_map_agg_init(map->fields[k].agg));
	}
}

/**
 * tracing_map_clear() - Remove all elements from a map.
 * @map: The map.
 *
 * Resets the elements used since the previous clear, calling
 * elt_clear() on each, and empties the map; hits and drops restart at
 * 0.  Inserts and lookups must be paused by the caller.
 *
 * Context: Process context, no concurrent users of @map.
 */
void tracing_map_clear(struct tracing_map *map)
{
	struct tracing_map_pcpu *pc;
	struct tracing_map_elt *elt;
	unsigned int i, used;
	int cpu;

	if (!map->slots)
		return;

	used = min_t(unsigned int, atomic_read(&map->next_elt), map->max_elts);
	for (i = 0; i < used; i++) {
		elt = tracing_map_idx_elt(map, i);
		tracing_map_elt_reset(map, elt);
		/* zero from init on, so only here: inserts never clear them */
		memset((void *)elt + map->quant_off, 0,
		       map->n_quants * TRACING_MAP_QUANT_SIZE);
		if (map->ops && map->ops->elt_clear)
			map->ops->elt_clear(elt);
	}

	memset(map->slots, 0, array_size(map->n_slots, sizeof(*map->slots)));
	atomic_set(&map->nmi_drops, 0);
	for_each_possible_cpu(cpu) {
		pc = per_cpu_ptr(map->pcpu, cpu);
		pc->spare = NULL;
		tracing_map_ctr_reset(&pc->hits);
		tracing_map_ctr_reset(&pc->drops);
		tracing_map_pend_reset(map, pc);
	}
	atomic_set(&map->next_elt, 0);
}

/*
 * Storage of exactly @size bytes, zeroed: whole pages from the page
 * allocator when they can be had (a power-of-two kmalloc() would waste up
 * to half), else vmalloc().
 */
static void *tracing_map_alloc(size_t size)
{
	void *p;

	if (size <= PAGE_SIZE)
		return kzalloc(size, GFP_KERNEL);
	if (get_order(size) <= PAGE_ALLOC_COSTLY_ORDER) {
		p = alloc_pages_exact(size, GFP_KERNEL | __GFP_ZERO |
				      __GFP_NOWARN | __GFP_NORETRY);
		if (p)
			return p;
	}
	return vzalloc(size);
}

static void tracing_map_free(void *p, size_t size)
{
	if (!p)
		return;
	if (is_vmalloc_addr(p))
		vfree(p);
	else if (size <= PAGE_SIZE)
		kfree(p);
	else
		free_pages_exact(p, size);
}

/* Undo tracing_map_init(); elt_free() the first @n_alloc elements. */
static void tracing_map_free_storage(struct tracing_map *map,
				     unsigned int n_alloc)
{
	unsigned int i;

	if (map->ops && map->ops->elt_free)
		for (i = 0; i < n_alloc; i++)
			map->ops->elt_free(tracing_map_idx_elt(map, i));

	free_percpu(map->pcpu);
	tracing_map_free(map->elts, (size_t)map->max_elts * map->elt_size);
	tracing_map_free(map->slots, (size_t)map->n_slots * sizeof(*map->slots));
	map->pcpu = NULL;
	map->elts = NULL;
	map->slots = NULL;
}

/**
 * tracing_map_init() - Allocate the storage of a map.
 * @map: A map from tracing_map_create() with all its fields added.
 *
 * Allocates the slot table and the element pool, lays out each
 * element's sums, variables, key and data area and calls elt_alloc()
 * for every element.  On failure everything is undone, elt_free()
 * included, and @map may still be passed to tracing_map_destroy().
 *
 * Context: Process context, may sleep.
 * Return: 0, -EBUSY if already initialized, -ENOMEM, or the error
 * returned by elt_alloc().
 */
int tracing_map_init(struct tracing_map *map)
{
	struct tracing_map_elt *elt;
	unsigned int i, off;
	int ret;

	if (map->slots)
		return -EBUSY;

	off = struct_size_t(struct tracing_map_elt, fields, map->n_counters);
	map->vars_off = off;
	off += map->n_vars * sizeof(atomic64_t);
	map->key_off = off;
	off += ALIGN(map->key_size, sizeof(u64));
	map->set_off = off;
	off = ALIGN(off + map->n_vars, sizeof(u64));
	map->data_off = off;
	map->quant_off = ALIGN(off + map->data_size, sizeof(u64));
	map->elt_size = map->quant_off +
			map->n_quants * TRACING_MAP_QUANT_SIZE;

	map->slots = tracing_map_alloc((size_t)map->n_slots * sizeof(*map->slots));
	map->elts = tracing_map_alloc((size_t)map->max_elts * map->elt_size);
	/* a power of two: slots are found with a shift */
	map->pend_shift = order_base_2(struct_size_t(struct tracing_map_pend,
						     sums, map->n_counters));
	map->pcpu = __alloc_percpu(sizeof(struct tracing_map_pcpu) +
				   (TRACING_MAP_PEND_SLOTS << map->pend_shift),
				   __alignof__(struct tracing_map_pcpu));
	if (!map->slots || !map->elts || !map->pcpu) {
		tracing_map_free_storage(map, 0);
		return -ENOMEM;
	}

	for (i = 0; i < map->max_elts; i++) {
		elt = tracing_map_idx_elt(map, i);
		elt->map = map;

		if (map->ops && map->ops->elt_alloc) {
			ret = map->ops->elt_alloc(elt);
			if (ret) {
				tracing_map_free_storage(map, i);
				return ret;
			}
		}
	}
	return 0;
}

/**
 * tracing_map_destroy() - Free a map, calling elt_free() on each element.
 * @map: The map, initialized or not; %NULL is ignored.
 *
 * Context: Process context, may sleep; no other users of @map left.
 */
void tracing_map_destroy(struct tracing_map *map)
{
	if (!map)
		return;
	if (map->slots)
		tracing_map_free_storage(map, map->max_elts);
	kfree(map);
}

/**
 * tracing_map_add_agg_field() - Add a 64-bit value field to every element.
 * @map: A map that is not initialized yet.
 * @agg: What it keeps: a sum, a minimum, a maximum or an average.
 * @count_idx: For an average, the field index of the sum field that
 *	counts its values (it sorts by the sum divided by the count).
 *
 * Context: Process context.
 * Return: The field index (for updates, reads and sort keys), or -EINVAL
 * if @map is initialized or has all its fields, @agg is unknown or
 * @count_idx is not a sum field of @map.
 */
int tracing_map_add_agg_field(struct tracing_map *map, enum tracing_map_agg agg,
			      unsigned int count_idx)
{
	struct tracing_map_field_desc *field;

	if (map->slots || map->n_fields >= TRACING_MAP_FIELDS_MAX ||
	    agg > TRACING_MAP_SAVG)
		return -EINVAL;
	if (agg >= TRACING_MAP_AVG &&
	    (count_idx >= map->n_fields || map->fields[count_idx].is_key ||
	     map->fields[count_idx].agg != TRACING_MAP_SUM))
		return -EINVAL;

	field = &map->fields[map->n_fields];
	field->is_key = false;
	field->agg = agg;
	field->count_idx = count_idx;
	map->n_counters = map->n_fields + 1;
	return map->n_fields++;
}

/**
 * tracing_map_add_quant_field() - Add a quantile field to every element.
 * @map: A map that is not initialized yet.
 *
 * The field keeps the largest value, as a %TRACING_MAP_MAX one (update
 * it as any value field, read it with tracing_map_read_sum(), sort by
 * it), and counts the values in buckets for tracing_map_quant_add() and
 * tracing_map_read_quantiles(): %TRACING_MAP_QUANT_SIZE more bytes in
 * every element.
 *
 * Context: Process context.
 * Return: The field index, -E2BIG if the map's elements times its
 * quantile fields would exceed %TRACING_MAP_QUANT_ELTS_MAX, or -EINVAL
 * as tracing_map_add_agg_field().
 */
int tracing_map_add_quant_field(struct tracing_map *map)
{
	int idx;

	if ((map->n_quants + 1) * (u64)map->max_elts >
	    TRACING_MAP_QUANT_ELTS_MAX)
		return -E2BIG;
	idx = tracing_map_add_agg_field(map, TRACING_MAP_MAX, 0);
	if (idx < 0)
		return idx;
	map->fields[idx].quant = ++map->n_quants;
	return idx;
}

/**
 * tracing_map_add_sum_field() - Add a 64-bit sum field to every element.
 * @map: A map that is not initialized yet.
 *
 * Context: Process context.
 * Return: The field index (for tracing_map_update_sum() and sort keys),
 * or -EINVAL if @map is initialized or has all its fields.
 */
int tracing_map_add_sum_field(struct tracing_map *map)
{
	return tracing_map_add_agg_field(map, TRACING_MAP_SUM, 0);
}

/**
 * tracing_map_add_key_field() - Describe a field of the key, for sorting.
 * @map: A map that is not initialized yet.
 * @offset: Byte offset of the field inside the key.
 * @cmp_fn: Comparator for the field.
 *
 * Context: Process context.
 * Return: The field index, or -EINVAL if @map is initialized or has all
 * its (key) fields, @offset lies outside the key or @cmp_fn is %NULL.
 */
int tracing_map_add_key_field(struct tracing_map *map, unsigned int offset,
			      tracing_map_cmp_fn_t cmp_fn)
{
	struct tracing_map_field_desc *field;

	if (map->slots || map->n_fields >= TRACING_MAP_FIELDS_MAX ||
	    map->n_keys >= TRACING_MAP_KEYS_MAX ||
	    offset >= map->key_size || !cmp_fn)
		return -EINVAL;

	field = &map->fields[map->n_fields];
	field->is_key = true;
	field->offset = offset;
	field->cmp_fn = cmp_fn;
	map->key_idx[map->n_keys++] = map->n_fields;
	return map->n_fields++;
}

/**
 * tracing_map_set_data_size() - Give every element a data area.
 * @map: A map that is not initialized yet.
 * @size: Bytes of the area, see tracing_map_elt_data().
 *
 * Context: Process context.
 * Return: 0, or -EINVAL if @map is initialized or @size is above
 * %TRACING_MAP_DATA_MAX.
 */
int tracing_map_set_data_size(struct tracing_map *map, unsigned int size)
{
	if (map->slots || size > TRACING_MAP_DATA_MAX)
		return -EINVAL;

	map->data_size = size;
	return 0;
}

/**
 * tracing_map_add_var() - Add a 64-bit variable to every element.
 * @map: A map that is not initialized yet.
 *
 * Context: Process context.
 * Return: The variable index (for tracing_map_set_var() and friends),
 * or -EINVAL if @map is initialized or has all its variables.
 */
int tracing_map_add_var(struct tracing_map *map)
{
	if (map->slots || map->n_vars >= TRACING_MAP_VARS_MAX)
		return -EINVAL;

	return map->n_vars++;
}

/**
 * tracing_map_create() - Create a map; add fields, then tracing_map_init().
 * @map_bits: log2 of the element count, %TRACING_MAP_BITS_MIN to
 *	%TRACING_MAP_BITS_MAX.
 * @key_size: Size of a key in bytes.
 * @ops: Optional element callbacks, may be %NULL.
 * @private_data: Stored in &tracing_map.private_data.
 *
 * Context: Process context, may sleep.
 * Return: The new map, ERR_PTR(-EINVAL) for a bad @map_bits or
 * @key_size, or ERR_PTR(-ENOMEM).
 */
struct tracing_map *tracing_map_create(unsigned int map_bits,
				       unsigned int key_size,
				       const struct tracing_map_ops *ops,
				       void *private_data)
{
	struct tracing_map *map;

	if (map_bits < TRACING_MAP_BITS_MIN ||
	    map_bits > TRACING_MAP_BITS_MAX || !key_size)
		return ERR_PTR(-EINVAL);

	map = kzalloc_obj(*map, GFP_KERNEL);
	if (!map)
		return ERR_PTR(-ENOMEM);

	map->map_bits = map_bits;
	map->max_elts = 1U << map_bits;
	map->n_slots = 2 * map->max_elts;
	map->key_size = key_size;
	map->hash_seed = get_random_u64();
	map->ops = ops;
	map->private_data = private_data;
	return map;
}
