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
#include <asm/local64.h>
#include <linux/types.h>

/*
 * A map holds 2^bits elements (and twice as many hash slots).  The bounds
 * keep one map between a few KiB and a few MiB of preallocated memory.
 */
#define TRACING_MAP_BITS_MIN		7
#define TRACING_MAP_BITS_DEFAULT	11	/* 2048 elements */
#define TRACING_MAP_BITS_MAX		17	/* 128K elements */

/*
 * What one element can hold.  Keys are compared field by field when
 * sorting, so a compound key has a small fixed number of parts; sums and
 * variables live in the element's chunk, so they are bounded too.
 */
#define TRACING_MAP_KEYS_MAX		3	/* parts of a compound key */
#define TRACING_MAP_VALS_MAX		3	/* sum fields */
#define TRACING_MAP_FIELDS_MAX	(TRACING_MAP_KEYS_MAX + TRACING_MAP_VALS_MAX)
#define TRACING_MAP_VARS_MAX		16	/* per-element variables */
#define TRACING_MAP_SORT_KEYS_MAX	2	/* primary and secondary */
#define TRACING_MAP_DATA_MAX		8192	/* user data area per element */

/* Compare two field values: <0, 0 or >0, like memcmp(). */
typedef int (*tracing_map_cmp_fn_t)(void *val_a, void *val_b);

struct tracing_map;

/**
 * struct tracing_map_elt - one aggregation bucket of a tracing_map
 * @map: the map this element belongs to
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
	atomic64_t			fields[];
};

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
 */
struct tracing_map_sort_entry {
	struct tracing_map_elt *elt;
	void *key;
};

/**
 * struct tracing_map_field_desc - layout information of one field
 * @cmp_fn: comparison function, key fields only
 * @offset: byte offset of the value inside the key, key fields only
 * @is_key: true for a key field, false for a sum field
 */
struct tracing_map_field_desc {
	tracing_map_cmp_fn_t		cmp_fn;
	unsigned int			offset;
	bool				is_key;
};

/*
 * Per-CPU event counters.  Where this_cpu_inc() on a u64 is a single
 * instruction that interrupts and NMIs cannot split, the counters are
 * plain u64s incremented with it, whatever the caller's preemption state.
 * Elsewhere they are local64_t, incremented with preemption disabled.
 */
#if defined(CONFIG_ARCH_HAS_NMI_SAFE_THIS_CPU_OPS) && BITS_PER_LONG == 64
#define TRACING_MAP_CTR_THIS_CPU	1
#endif

/**
 * struct tracing_map_pcpu - per-CPU state of a map
 * @spare: element that was prepared but never published
 * @hits: successful tracing_map_insert() calls on this CPU
 * @drops: tracing_map_insert() calls on this CPU that found the map full
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
 * @slots: hash slot table, see tracing_map.c
 * @elts: the elements, @elt_size bytes apart
 * @elt_size: stride of @elts
 * @next_elt: number of pool elements handed out since the last clear
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

	u64				*slots;
	void				*elts;
	size_t				elt_size;
	atomic_t			next_elt;
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

/**
 * tracing_map_update_sum() - Add @n to sum field @i of @elt.
 * @elt: The element.
 * @i: Field index from tracing_map_add_sum_field().
 * @n: The amount to add.
 *
 * Context: Any context, NMI-safe.
 */
static inline void tracing_map_update_sum(struct tracing_map_elt *elt,
					  unsigned int i, u64 n)
{
	atomic64_add(n, &elt->fields[i]);
}

/**
 * tracing_map_read_sum() - Read sum field @i of @elt.
 * @elt: The element.
 * @i: Field index from tracing_map_add_sum_field().
 *
 * Context: Any context, NMI-safe.
 * Return: The current sum.
 */
static inline u64 tracing_map_read_sum(struct tracing_map_elt *elt,
				       unsigned int i)
{
	return (u64)atomic64_read(&elt->fields[i]);
}

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
