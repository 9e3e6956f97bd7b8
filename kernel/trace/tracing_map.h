/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracing_map - fixed-size, preallocated aggregation map for tracers.
 *
 * Users (hist triggers) describe what every element holds - key fields,
 * sum fields and variables - then call tracing_map_init(), which
 * allocates everything up front.  From then on tracing_map_insert() and
 * tracing_map_lookup() work in any context, NMI included, without
 * allocating memory, taking locks or waiting for other CPUs.  Reports
 * are produced with tracing_map_sort_entries().  The algorithm and its
 * memory-ordering rules are described at the top of tracing_map.c.
 */
#ifndef _KERNEL_TRACE_TRACING_MAP_H
#define _KERNEL_TRACE_TRACING_MAP_H

#include <linux/atomic.h>
#include <asm/local.h>
#include <asm/local64.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/bitops.h>
#include <linux/limits.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/unaligned.h>

/*
 * A map holds 2^bits elements (and twice as many hash slots).  The bounds
 * keep one map between a few KiB and a few MiB of preallocated memory.
 */
#define TRACING_MAP_BITS_MIN		7
#define TRACING_MAP_BITS_DEFAULT	11	/* 2048 elements */
#define TRACING_MAP_BITS_MAX		17	/* 128K elements */

/*
 * What one element can hold: the limits of every hist trigger (hist
 * keeps 2 sort criteria unless told otherwise, as the existing selftests
 * require a third to be refused).  Keys are compared field by field when
 * sorting, so a compound key has a small fixed number of parts; sums and
 * variables live in the element, so they are bounded too.  Only what a
 * map uses takes room in its elements; the maxima size a few fixed
 * arrays per map and per trigger.
 */
#define TRACING_MAP_KEYS_MAX		8	/* parts of a compound key */
#define TRACING_MAP_VALS_MAX		16	/* sum fields */
#define TRACING_MAP_FIELDS_MAX	(TRACING_MAP_KEYS_MAX + TRACING_MAP_VALS_MAX)
#define TRACING_MAP_VARS_MAX		32	/* per-element variables */
#define TRACING_MAP_SORT_KEYS_MAX	4	/* sort criteria */
#define TRACING_MAP_DATA_MAX		16384	/* user data area per element */

/* Compare two field values: <0, 0 or >0, like memcmp(). */
typedef int (*tracing_map_cmp_fn_t)(void *val_a, void *val_b);

struct tracing_map;

/**
 * struct tracing_map_elt - one aggregation bucket of a tracing_map
 * @map: the map this element belongs to
 * @hash: 32-bit kernels only: the hash of the element's key, which a
 *	slot cannot hold there (see tracing_map_slot_t)
 * @fields: one 64-bit counter per sum field, indexed by field index (key
 *	fields that come after the last sum field take no room); use
 *	tracing_map_update_sum() and tracing_map_read_sum()
 *
 * All elements are preallocated, each in its own stride of one array;
 * the counters are followed by the variables, the element's own copy of
 * its key (tracing_map_elt_key()), the variables' "set" flags and the
 * user's data area (tracing_map_elt_data()), so one element is a few
 * adjacent cache lines at most.
 */
struct tracing_map_elt {
	struct tracing_map		*map;
#ifndef CONFIG_64BIT
	u32				hash;	/* see tracing_map_slot_t */
#endif
	atomic64_t			fields[];
};

/*
 * A hash slot, published with one cmpxchg().  64-bit kernels: the key's
 * 32-bit hash << 32 | (pool index + 1).  32-bit kernels have no 64-bit
 * cmpxchg that is safe in an NMI everywhere (powerpc has none, others
 * emulate it with interrupts off): there a slot is the pool index + 1,
 * published with the 32-bit cmpxchg() that HIST_TRIGGERS' dependency on
 * ARCH_HAVE_NMI_SAFE_CMPXCHG makes NMI-safe, and the hash is kept in the
 * element (&tracing_map_elt.hash), stored before the slot is published.
 */
#ifdef CONFIG_64BIT
typedef u64 tracing_map_slot_t;
#else
typedef u32 tracing_map_slot_t;
#endif

/**
 * struct tracing_map_sort_key - one criterion of tracing_map_sort_entries()
 * @descending: sort from the largest to the smallest value
 * @field_idx: index of a key or sum field, as returned when it was added
 */
struct tracing_map_sort_key {
	bool descending;
	unsigned int field_idx;
};

/**
 * struct tracing_map_sort_entry - one element of a sorted report
 * @elt: the element
 * @key: the element's key (same as tracing_map_elt_key(@elt))
 * @sums: the sum fields among the sort criteria, by criterion, as read
 *	when the entry was collected
 */
struct tracing_map_sort_entry {
	struct tracing_map_elt *elt;
	void *key;
	u64 sums[TRACING_MAP_SORT_KEYS_MAX];
};

/**
 * enum tracing_map_agg - what a value field of an element keeps
 * @TRACING_MAP_SUM: the sum of the values added
 * @TRACING_MAP_MIN: the smallest value, as u64
 * @TRACING_MAP_MAX: the largest value, as u64
 * @TRACING_MAP_SMIN: the smallest value, as s64
 * @TRACING_MAP_SMAX: the largest value, as s64
 * @TRACING_MAP_AVG: a sum, sorted by the sum divided by a count field
 * @TRACING_MAP_SAVG: the same for values that are s64
 *
 * All are updated without locks, NMI-safe: sums with atomic adds,
 * minima and maxima with a compare-and-exchange loop that only retries
 * when another update moved the field towards the new value, so it ends
 * as soon as the field is at least as extreme.
 */
enum tracing_map_agg {
	TRACING_MAP_SUM,
	TRACING_MAP_MIN,
	TRACING_MAP_MAX,
	TRACING_MAP_SMIN,
	TRACING_MAP_SMAX,
	TRACING_MAP_AVG,
	TRACING_MAP_SAVG,
};

/**
 * struct tracing_map_field_desc - layout information of one field
 * @cmp_fn: comparison function, key fields only
 * @offset: byte offset of the value inside the key, key fields only
 * @is_key: true for a key field, false for a value field
 * @agg: for a value field, what it keeps (enum tracing_map_agg)
 * @count_idx: for an average, the field index of the count
 * @quant: for a quantile field, 1 + the index of its buckets, else 0
 */
struct tracing_map_field_desc {
	tracing_map_cmp_fn_t		cmp_fn;
	unsigned int			offset;
	bool				is_key;
	u8				agg;
	u8				count_idx;
	u8				quant;
};

/*
 * Quantile fields (tracing_map_add_quant_field()) count their values in
 * log-linear buckets: 0 to 127 one value each, then 64 buckets per power
 * of two, those of [2^k, 2^(k+1)) 2^(k-6) wide, up to 2^32; one last
 * bucket counts every larger value.  A bucket is at most 1/64 of its
 * lower bound wide, so its middle is within 1/128 (0.78 %) of any value
 * in it.  A bucket is a saturating 32-bit count; an element has
 * %TRACING_MAP_QUANT_SIZE bytes of them per quantile field, and a map at
 * most %TRACING_MAP_QUANT_ELTS_MAX elements times quantile fields.
 */
#define TRACING_MAP_QUANT_SUB_BITS	6
#define TRACING_MAP_QUANT_SUB		BIT(TRACING_MAP_QUANT_SUB_BITS)
#define TRACING_MAP_QUANT_RANGE_BITS	32
#define TRACING_MAP_QUANT_BUCKETS					\
	((TRACING_MAP_QUANT_RANGE_BITS - TRACING_MAP_QUANT_SUB_BITS + 1) * \
	 TRACING_MAP_QUANT_SUB + 1)
#define TRACING_MAP_QUANT_OVERFLOW	(TRACING_MAP_QUANT_BUCKETS - 1)
#define TRACING_MAP_QUANT_SIZE						\
	ALIGN(TRACING_MAP_QUANT_BUCKETS * sizeof(u32), sizeof(u64))
#define TRACING_MAP_QUANT_ELTS_MAX	8192

/**
 * tracing_map_quant_bucket() - The bucket a quantile field counts @val in.
 * @val: The value.
 *
 * Return: 0 to %TRACING_MAP_QUANT_OVERFLOW, which counts @val >= 2^32.
 */
static __always_inline unsigned int tracing_map_quant_bucket(u64 val)
{
	unsigned int e;

	if (val < 2 * TRACING_MAP_QUANT_SUB)
		return val;
	if (val >> TRACING_MAP_QUANT_RANGE_BITS)
		return TRACING_MAP_QUANT_OVERFLOW;
	/* the top bit, 7 to 31, then the next 6 bits */
	e = fls64(val) - 1;
	return ((e - TRACING_MAP_QUANT_SUB_BITS + 1) <<
		TRACING_MAP_QUANT_SUB_BITS) +
	       (u32)(val >> (e - TRACING_MAP_QUANT_SUB_BITS)) -
	       TRACING_MAP_QUANT_SUB;
}

/**
 * tracing_map_quant_low() - The smallest value of a bucket.
 * @b: The bucket, below %TRACING_MAP_QUANT_OVERFLOW.
 *
 * Return: The lower bound; the bucket holds the values from it to
 * tracing_map_quant_low(@b + 1) - 1 (2^32 - 1 for the last one).
 */
static inline u64 tracing_map_quant_low(unsigned int b)
{
	unsigned int g = b >> TRACING_MAP_QUANT_SUB_BITS;

	if (g <= 1)
		return b;
	return (u64)(TRACING_MAP_QUANT_SUB + (b & (TRACING_MAP_QUANT_SUB - 1)))
		<< (g - 1);
}

/*
 * Per-CPU event counters.  Where this_cpu_inc() on a u64 is a single
 * instruction that interrupts and NMIs cannot split, the counters are
 * plain u64s incremented with it, whatever the caller's preemption state.
 * Elsewhere they are local64_t, incremented with preemption disabled.
 */
#if defined(CONFIG_ARCH_HAS_NMI_SAFE_THIS_CPU_OPS) && BITS_PER_LONG == 64
#define TRACING_MAP_CTR_THIS_CPU	1
#endif

/*
 * Pending sums (see the top of tracing_map.c): where a u64 store cannot
 * tear, each CPU gathers the sums of the elements it updates in a few
 * slots of its own and adds them to the elements only when a slot is
 * taken over by another element, so events of one key on several CPUs
 * do not all write the element's cache line.
 */
#ifdef CONFIG_64BIT
#define TRACING_MAP_PENDING		1
#endif
#define TRACING_MAP_PEND_BITS		2
#define TRACING_MAP_PEND_SLOTS		BIT(TRACING_MAP_PEND_BITS)
/* updates of other elements a held slot lets through before changing */
#define TRACING_MAP_PEND_MISSES		8

/**
 * struct tracing_map_pend - one slot of a CPU's pending sums
 * @seq: odd while the slot changes element, written by its CPU only
 * @elt: the element the sums belong to, %NULL if none
 * @misses: updates of other elements since @elt got the slot
 * @sums: &tracing_map.n_counters amounts not yet added to @elt
 */
struct tracing_map_pend {
	unsigned long			seq;
	struct tracing_map_elt		*elt;
	unsigned long			misses;
	local64_t			sums[];
};

/**
 * struct tracing_map_pcpu - per-CPU state of a map
 * @spare: element that was prepared but never published
 * @hits: successful tracing_map_insert() calls on this CPU
 * @drops: tracing_map_insert() calls on this CPU that found the map full
 * @busy: updates between tracing_map_insert_sums() and
 *	tracing_map_sums_put() on this CPU; a nested one (an interrupt or
 *	NMI) leaves the slots alone
 * @pend: %TRACING_MAP_PEND_SLOTS slots, 2^&tracing_map.pend_shift bytes
 *	apart
 */
struct tracing_map_pcpu {
	struct tracing_map_elt		*spare;
#ifdef TRACING_MAP_CTR_THIS_CPU
	u64				hits;
	u64				drops;
#else
	local64_t			hits;
	local64_t			drops;
#endif
	local_t				busy;
	u64				pend[];
};

/**
 * struct tracing_map - a tracing map and its preallocated storage
 * @key_size: size of a key in bytes
 * @map_bits: log2 of @max_elts
 * @max_elts: number of elements, i.e. of distinct keys the map can hold
 * @n_slots: number of hash slots, 2 * @max_elts
 * @hash_seed: per-map hash seed
 * @ops: optional per-element callbacks
 * @private_data: owned by the user
 * @fields: key and sum fields, in the order they were added
 * @n_fields: number of entries used in @fields
 * @key_idx: indexes into @fields of the key fields, in order
 * @n_keys: number of key fields
 * @n_vars: number of variables
 * @n_counters: entries of &tracing_map_elt.fields: last sum field + 1
 * @data_size: bytes of the user's data area of each element
 * @vars_off: offset of the variables inside an element
 * @key_off: offset of the key copy inside an element
 * @set_off: offset of the variables' flags inside an element
 * @data_off: offset of the user's data area inside an element
 * @n_quants: number of quantile fields
 * @quant_off: offset of the quantile fields' buckets inside an element
 * @slots: hash slot table, see tracing_map.c
 * @elts: the elements, @elt_size bytes apart
 * @elt_size: stride of @elts
 * @pend_shift: log2 of the bytes of one &struct tracing_map_pend
 * @next_elt: number of pool elements handed out since the last clear
 * @nmi_drops: updates refused in NMI context, see tracing_map_nmi_refused()
 * @pcpu: per-CPU spare element and counters
 */
struct tracing_map {
	unsigned int			key_size;
	unsigned int			map_bits;
	unsigned int			max_elts;
	unsigned int			n_slots;
	u64				hash_seed;
	const struct tracing_map_ops	*ops;
	void				*private_data;

	struct tracing_map_field_desc	fields[TRACING_MAP_FIELDS_MAX];
	unsigned int			n_fields;
	unsigned int			key_idx[TRACING_MAP_KEYS_MAX];
	unsigned int			n_keys;
	unsigned int			n_vars;
	unsigned int			n_counters;
	unsigned int			data_size;
	unsigned int			vars_off;
	unsigned int			key_off;
	unsigned int			set_off;
	unsigned int			data_off;
	unsigned int			n_quants;
	unsigned int			quant_off;

	tracing_map_slot_t		*slots;
	void				*elts;
	size_t				elt_size;
	unsigned int			pend_shift;
	atomic_t			next_elt;
	atomic_t			nmi_drops;
	struct tracing_map_pcpu __percpu *pcpu;
};

/**
 * struct tracing_map_ops - optional per-element callbacks
 * @elt_alloc: called once for every element by tracing_map_init(), in
 *	process context, after its data area was zeroed.  A non-zero
 *	return fails the init.
 * @elt_free: called once for every successfully allocated element when
 *	the map is destroyed (or when tracing_map_init() fails).
 * @elt_clear: called by tracing_map_clear() for every element used
 *	since the previous clear.
 * @elt_init: called by tracing_map_insert() when an element is taken
 *	for a new key, before any other CPU can see it; runs in the
 *	inserter's context, which may be NMI.
 */
struct tracing_map_ops {
	int	(*elt_alloc)(struct tracing_map_elt *elt);
	void	(*elt_free)(struct tracing_map_elt *elt);
	void	(*elt_clear)(struct tracing_map_elt *elt);
	void	(*elt_init)(struct tracing_map_elt *elt);
};

struct tracing_map *tracing_map_create(unsigned int map_bits,
				       unsigned int key_size,
				       const struct tracing_map_ops *ops,
				       void *private_data);
int tracing_map_init(struct tracing_map *map);

int tracing_map_add_sum_field(struct tracing_map *map);
int tracing_map_add_agg_field(struct tracing_map *map, enum tracing_map_agg agg,
			      unsigned int count_idx);
int tracing_map_add_quant_field(struct tracing_map *map);
int tracing_map_add_var(struct tracing_map *map);
int tracing_map_add_key_field(struct tracing_map *map, unsigned int offset,
			      tracing_map_cmp_fn_t cmp_fn);
int tracing_map_set_data_size(struct tracing_map *map, unsigned int size);

void tracing_map_destroy(struct tracing_map *map);
void tracing_map_clear(struct tracing_map *map);

struct tracing_map_elt *tracing_map_insert(struct tracing_map *map,
					   void *key);
struct tracing_map_elt *tracing_map_lookup(struct tracing_map *map,
					   void *key);

tracing_map_cmp_fn_t tracing_map_cmp_num(int field_size, int field_is_signed);
int tracing_map_cmp_string(void *val_a, void *val_b);
int tracing_map_cmp_none(void *val_a, void *val_b);

void tracing_map_set_var(struct tracing_map_elt *elt, unsigned int i, u64 n);
bool tracing_map_var_set(struct tracing_map_elt *elt, unsigned int i);
u64 tracing_map_read_var(struct tracing_map_elt *elt, unsigned int i);
u64 tracing_map_read_var_once(struct tracing_map_elt *elt, unsigned int i);
u64 tracing_map_read_hits(struct tracing_map *map);
unsigned int tracing_map_used(struct tracing_map *map);
u64 tracing_map_read_drops(struct tracing_map *map);
void tracing_map_count_drop(struct tracing_map *map);
void tracing_map_read_sums(struct tracing_map_elt *elt,
			   const unsigned int *idx, unsigned int n, u64 *vals);

/**
 * tracing_map_update_sum() - Add @n to sum field @i of @elt.
 * @elt: The element.
 * @i: Field index from tracing_map_add_sum_field().
 * @n: The amount to add.
 *
 * Adds to the element itself, an atomic operation on its cache line; an
 * event updating all its sums at once should use tracing_map_insert_sums()
 * or tracing_map_add_sums().
 *
 * Context: Any context, NMI-safe.
 */
static inline void tracing_map_update_sum(struct tracing_map_elt *elt,
					  unsigned int i, u64 n)
{
	atomic64_add(n, &elt->fields[i]);
}

/*
 * The first probe of an insert is inline (tracing_map_insert_sums()), so
 * the helpers it needs are here; the algorithm and the rules (A), (C)
 * quoted below are described at the top of tracing_map.c.
 */

static __always_inline struct tracing_map_elt *
tracing_map_idx_elt(struct tracing_map *map, unsigned int idx)
{
	return map->elts + (size_t)idx * map->elt_size;
}

static __always_inline tracing_map_slot_t
tracing_map_slot_read(tracing_map_slot_t *slot)
{
	/* Rule (A): pairs with the cmpxchg() publishing the slot. */
	return smp_load_acquire(slot);
}

/* The pool index of a used slot's element. */
static __always_inline u32 tracing_map_slot_idx(tracing_map_slot_t word)
{
	return (u32)word - 1;
}

/* The hash of a used slot's key. */
static __always_inline u32 tracing_map_slot_hash(struct tracing_map *map,
						 tracing_map_slot_t word)
{
#ifdef CONFIG_64BIT
	return word >> 32;
#else
	return tracing_map_idx_elt(map, tracing_map_slot_idx(word))->hash;
#endif
}

/*
 * Where atomic64_t and local64_t are lib/atomic64.c's (GENERIC_ATOMIC64:
 * a spinlock chosen by the address, with interrupts off) or, on x86-32
 * CPUs without CMPXCHG8B, emulated with interrupts off, an NMI must not
 * touch a map: it could spin forever on a lock its own CPU holds, or
 * tear an update it interrupted.  There an NMI's insert or lookup finds
 * nothing, and an insert is counted among the drops in @map->nmi_drops,
 * a 32-bit atomic_t, which is NMI-safe on every architecture
 * HIST_TRIGGERS builds on.  Elsewhere this is nothing.
 */
#if defined(CONFIG_GENERIC_ATOMIC64) || \
	(defined(CONFIG_X86_32) && !defined(CONFIG_X86_CMPXCHG64))
#define TRACING_MAP_ATOMIC64_NOT_NMI_SAFE	1
#else
#define TRACING_MAP_ATOMIC64_NOT_NMI_SAFE	0
#endif

static __always_inline bool tracing_map_nmi_refused(struct tracing_map *map,
						    bool count)
{
	if (!TRACING_MAP_ATOMIC64_NOT_NMI_SAFE || likely(!in_nmi()))
		return false;
	if (count)
		atomic_inc(&map->nmi_drops);
	return true;
}

#define TRACING_MAP_MUL1	0x9e3779b97f4a7c15ULL
#define TRACING_MAP_MUL2	0xd6e8feb86659fd93ULL

/*
 * Hash of a key, a u64 word at a time: each word is xored in, multiplied
 * and rotated (so high bits reach the low bits the slot index uses), and
 * the result goes through a xorshift-multiply finalizer.  Every step is
 * a bijection of the state, so two keys of one length that differ in a
 * single word never collide before the final fold to 32 bits.  A key
 * whose size is not a multiple of 8 ends with a zero-padded word.
 */
static __always_inline u32 tracing_map_hash(const struct tracing_map *map,
					    const void *key, unsigned int n)
{
	u64 h = map->hash_seed ^ n;
	const u8 *p = key;
	u64 w;

	for (; n >= sizeof(u64); n -= sizeof(u64), p += sizeof(u64))
		h = rol64((h ^ get_unaligned((const u64 *)p)) *
			  TRACING_MAP_MUL1, 31);
	if (unlikely(n)) {
		w = 0;
		memcpy(&w, p, n);
		h = rol64((h ^ w) * TRACING_MAP_MUL1, 31);
	}
	h ^= h >> 32;
	h *= TRACING_MAP_MUL2;
	h ^= h >> 29;
	return (u32)h;
}

/* Is the key of @elt equal to @key?  Word by word, as the hash reads. */
static __always_inline bool tracing_map_key_eq(const struct tracing_map *map,
					       struct tracing_map_elt *elt,
					       const void *key, unsigned int n)
{
	const u8 *a = (const u8 *)elt + map->key_off, *b = key;

	for (; n >= sizeof(u64); n -= sizeof(u64), a += 8, b += 8)
		if (get_unaligned((const u64 *)a) !=
		    get_unaligned((const u64 *)b))
			return false;
	return !n || !memcmp(a, b, n);
}

/* Count an event on this CPU: safe against interrupts and NMIs. */
#ifdef TRACING_MAP_CTR_THIS_CPU
static __always_inline void tracing_map_count(u64 __percpu *ctr)
{
	this_cpu_inc(*ctr);
}

#else
static __always_inline void tracing_map_count(local64_t __percpu *ctr)
{
	preempt_disable_notrace();
	local64_inc(this_cpu_ptr(ctr));
	preempt_enable_notrace();
}

#endif

void tracing_map_pend_switch(struct tracing_map_pend *p,
			     struct tracing_map_elt *elt);

/**
 * struct tracing_map_sums - where an update adds to an element's sums
 * @sums: this CPU's pending sums of the element, indexed by field index
 *	(add with local64_add()), or %NULL: add to the element with
 *	tracing_map_update_sum()
 * @pc: this CPU's state, for tracing_map_sums_put()
 */
struct tracing_map_sums {
	local64_t			*sums;
	struct tracing_map_pcpu		*pc;
};

/*
 * Take this CPU's pending slot for element @elt, pool index @idx, rule
 * (C); leave @s->sums %NULL if nested in another update of the map on
 * this CPU, or without pending sums.
 */
static __always_inline void tracing_map_pend_take(struct tracing_map *map,
						  struct tracing_map_elt *elt,
						  u32 idx,
						  struct tracing_map_sums *s)
{
#ifdef TRACING_MAP_PENDING
	struct tracing_map_pcpu *pc = this_cpu_ptr(map->pcpu);
	struct tracing_map_pend *p;

	if (unlikely(local_inc_return(&pc->busy) != 1)) {
		local_dec(&pc->busy);
		s->sums = NULL;
		return;
	}
	p = (void *)pc->pend +
		((idx & (TRACING_MAP_PEND_SLOTS - 1)) << map->pend_shift);
	if (unlikely(p->elt != elt)) {
		/* held by another element: let a few updates through */
		if (p->elt && p->misses + 1 < TRACING_MAP_PEND_MISSES) {
			/* before the decrement lets an NMI take the slot */
			WRITE_ONCE(p->misses, p->misses + 1);
			local_dec(&pc->busy);
			s->sums = NULL;
			return;
		}
		tracing_map_pend_switch(p, elt);
	}
	s->pc = pc;
	s->sums = p->sums;
#else
	s->sums = NULL;
#endif
}

struct tracing_map_elt *tracing_map_insert_sums_slow(struct tracing_map *map,
						     void *key, u32 hash,
						     struct tracing_map_sums *s);

/* tracing_map_insert_sums() for a key of @size bytes, a constant. */
static __always_inline struct tracing_map_elt *
tracing_map_first_probe(struct tracing_map *map, void *key,
			struct tracing_map_sums *s, unsigned int size)
{
	u32 hash = tracing_map_hash(map, key, size);
	tracing_map_slot_t word;
	struct tracing_map_elt *elt;

	if (tracing_map_nmi_refused(map, true)) {
		s->sums = NULL;
		return NULL;
	}
	word = tracing_map_slot_read(&map->slots[hash & (map->n_slots - 1)]);
	if (likely(word && tracing_map_slot_hash(map, word) == hash)) {
		elt = tracing_map_idx_elt(map, tracing_map_slot_idx(word));
		if (likely(tracing_map_key_eq(map, elt, key, size))) {
			tracing_map_count(&map->pcpu->hits);
			tracing_map_pend_take(map, elt,
					      tracing_map_slot_idx(word), s);
			return elt;
		}
	}
	return tracing_map_insert_sums_slow(map, key, hash, s);
}

/**
 * tracing_map_insert_sums() - Find or add the element for a key, and the
 *	sums to add to.
 * @map: The map, set up with tracing_map_init().
 * @key: The key, &tracing_map.key_size bytes.
 * @s: Receives where to add: this CPU's pending sums of the element
 *	(on 64-bit kernels, unless this CPU is already inside an update of
 *	@map that this one interrupted), else %NULL in &tracing_map_sums.sums.
 *
 * tracing_map_insert(), then, where @s->sums is set, the caller adds its
 * amounts there with local64_add() and calls tracing_map_sums_put();
 * else it adds them with tracing_map_update_sum().  Pending sums are
 * read with the element's, see tracing_map_read_sum().  A key of one or
 * two u64 words found in its first slot is handled inline, anything else
 * out of line.
 *
 * Context: Any context, NMI-safe; preemption disabled.
 * Return: The element for @key, or %NULL if @key is new and the map is
 * full (@s->sums is %NULL then).
 */
static __always_inline struct tracing_map_elt *
tracing_map_insert_sums(struct tracing_map *map, void *key,
			struct tracing_map_sums *s)
{
	if (likely(map->key_size == sizeof(u64)))
		return tracing_map_first_probe(map, key, s, sizeof(u64));
	if (map->key_size == 2 * sizeof(u64))
		return tracing_map_first_probe(map, key, s, 2 * sizeof(u64));
	return tracing_map_insert_sums_slow(map, key, 0, s);
}

/**
 * tracing_map_sums_put() - Done adding to the sums tracing_map_insert_sums()
 *	gave.
 * @s: What it filled in, with a non-%NULL &tracing_map_sums.sums.
 *
 * Context: As tracing_map_insert_sums(), on the same CPU.
 */
static __always_inline void tracing_map_sums_put(struct tracing_map_sums *s)
{
	local_dec(&s->pc->busy);
}

void tracing_map_add_sums(struct tracing_map_elt *elt, const u64 *vals,
			  unsigned int n);

/**
 * tracing_map_agg_init() - The value a field starts from.
 * @agg: What the field keeps.
 *
 * Return: 0 for sums; for minima and maxima the opposite extreme, which
 * any value replaces (a field still there has seen no value).
 */
static __always_inline u64 tracing_map_agg_init(enum tracing_map_agg agg)
{
	switch (agg) {
	case TRACING_MAP_MIN:
		return U64_MAX;
	case TRACING_MAP_SMIN:
		return S64_MAX;
	case TRACING_MAP_SMAX:
		return (u64)S64_MIN;
	default:
		return 0;
	}
}

/*
 * Would @new replace @cur in a field keeping @agg?  Sums never compare.
 */
static __always_inline bool tracing_map_agg_better(enum tracing_map_agg agg,
						   u64 new, u64 cur)
{
	switch (agg) {
	case TRACING_MAP_MIN:
		return new < cur;
	case TRACING_MAP_MAX:
		return new > cur;
	case TRACING_MAP_SMIN:
		return (s64)new < (s64)cur;
	case TRACING_MAP_SMAX:
		return (s64)new > (s64)cur;
	default:
		return false;
	}
}

/**
 * tracing_map_pend_update() - Put @val into a pending field.
 * @sum: The field, among the sums tracing_map_insert_sums() gave.
 * @agg: What the field keeps (&tracing_map_field_desc.agg).
 * @val: The value.
 *
 * Context: Between tracing_map_insert_sums() and tracing_map_sums_put().
 */
static __always_inline void tracing_map_pend_update(local64_t *sum,
						    enum tracing_map_agg agg,
						    u64 val)
{
	if (agg == TRACING_MAP_SUM || agg >= TRACING_MAP_AVG)
		local64_add(val, sum);
	else if (tracing_map_agg_better(agg, val, local64_read(sum)))
		local64_set(sum, val);
}

void tracing_map_update_val(struct tracing_map_elt *elt, unsigned int i,
			    u64 val);

u64 tracing_map_read_sum(struct tracing_map_elt *elt, unsigned int i);

void tracing_map_quant_add(struct tracing_map_elt *elt, unsigned int i,
			   u64 val);
u64 tracing_map_read_quantiles(struct tracing_map_elt *elt, unsigned int i,
			       u64 max, const unsigned int *permille,
			       unsigned int n, u64 *out);

/**
 * tracing_map_elt_key() - The key an element was inserted with.
 * @elt: The element.
 *
 * Return: The element's own copy, &tracing_map.key_size bytes.
 */
static inline void *tracing_map_elt_key(struct tracing_map_elt *elt)
{
	return (void *)elt + elt->map->key_off;
}

/**
 * tracing_map_elt_data() - The user's data area of an element.
 * @elt: The element.
 *
 * Return: &tracing_map.data_size bytes (tracing_map_set_data_size()),
 * zeroed by tracing_map_init(), 8-byte aligned; never touched by the map
 * afterwards.
 */
static inline void *tracing_map_elt_data(struct tracing_map_elt *elt)
{
	return (void *)elt + elt->map->data_off;
}

int tracing_map_sort_entries(struct tracing_map *map,
			     struct tracing_map_sort_key *sort_keys,
			     unsigned int n_sort_keys,
			     struct tracing_map_sort_entry ***sort_entries);
typedef void (*tracing_map_elt_fn_t)(struct tracing_map_elt *elt, void *arg);
void tracing_map_walk(struct tracing_map *map, tracing_map_elt_fn_t fn, void *arg);
void tracing_map_destroy_sort_entries(struct tracing_map_sort_entry **entries,
				      unsigned int n_entries);

#endif /* _KERNEL_TRACE_TRACING_MAP_H */
