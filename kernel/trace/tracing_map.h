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

/* Compare two field values: <0, 0 or >0, like memcmp(). */
typedef int (*tracing_map_cmp_fn_t)(void *val_a, void *val_b);

struct tracing_map;

/**
 * struct tracing_map_elt - one aggregation bucket of a tracing_map
 * @map: the map this element belongs to
 * @fields: one 64-bit counter per field index; only the entries of sum
 *	fields are used, use tracing_map_update_sum()/tracing_map_read_sum()
 * @vars: variable values, see tracing_map_set_var()
 * @var_set: whether the variable of the same index holds a value
 * @key: the element's own copy of the key it was inserted with
 * @private_data: owned by the user, typically set up by
 *	&tracing_map_ops.elt_alloc
 *
 * All elements are preallocated.  @fields, @vars, @key and @var_set
 * point into one per-element chunk of memory, so they share cache lines.
 */
struct tracing_map_elt {
	struct tracing_map		*map;
	atomic64_t			*fields;
	atomic64_t			*vars;
	bool				*var_set;
	void				*key;
	void				*private_data;
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
 * @key: the element's key (same as @elt->key)
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

/**
 * struct tracing_map - a tracing map and its preallocated storage
 * @key_size: size of a key in bytes
 * @map_bits: log2 of @max_elts
 * @max_elts: number of elements, i.e. of distinct keys the map can hold
 * @n_slots: number of hash slots, 2 * @max_elts
 * @hash_seed: per-map jhash seed
 * @ops: optional per-element callbacks
 * @private_data: owned by the user
 * @hits: number of successful tracing_map_insert() calls
 * @drops: number of tracing_map_insert() calls that found the map full
 * @fields: key and sum fields, in the order they were added
 * @n_fields: number of entries used in @fields
 * @key_idx: indexes into @fields of the key fields, in order
 * @n_keys: number of key fields
 * @n_vars: number of variables
 * @slots: hash slot table, see tracing_map.c
 * @elts: element pool
 * @chunks: per-element storage, @chunk_size bytes per element
 * @chunk_size: stride of @chunks
 * @next_elt: number of pool elements handed out since the last clear
 * @spare: per-CPU element that was prepared but never published
 */
struct tracing_map {
	unsigned int			key_size;
	unsigned int			map_bits;
	unsigned int			max_elts;
	unsigned int			n_slots;
	u32				hash_seed;
	const struct tracing_map_ops	*ops;
	void				*private_data;
	atomic64_t			hits;
	atomic64_t			drops;

	struct tracing_map_field_desc	fields[TRACING_MAP_FIELDS_MAX];
	unsigned int			n_fields;
	unsigned int			key_idx[TRACING_MAP_KEYS_MAX];
	unsigned int			n_keys;
	unsigned int			n_vars;

	u64				*slots;
	struct tracing_map_elt		*elts;
	void				*chunks;
	size_t				chunk_size;
	atomic_t			next_elt;
	struct tracing_map_elt * __percpu *spare;
};

/**
 * struct tracing_map_ops - optional per-element callbacks
 * @elt_alloc: called once for every element by tracing_map_init(), in
 *	process context; may allocate memory and hang it off
 *	&tracing_map_elt.private_data.  A non-zero return fails the init.
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

void tracing_map_destroy(struct tracing_map *map);
void tracing_map_clear(struct tracing_map *map);

struct tracing_map_elt *tracing_map_insert(struct tracing_map *map,
					   void *key);
struct tracing_map_elt *tracing_map_lookup(struct tracing_map *map,
					   void *key);

tracing_map_cmp_fn_t tracing_map_cmp_num(int field_size, int field_is_signed);
int tracing_map_cmp_string(void *val_a, void *val_b);
int tracing_map_cmp_none(void *val_a, void *val_b);

void tracing_map_update_sum(struct tracing_map_elt *elt, unsigned int i,
			    u64 n);
void tracing_map_set_var(struct tracing_map_elt *elt, unsigned int i, u64 n);
bool tracing_map_var_set(struct tracing_map_elt *elt, unsigned int i);
u64 tracing_map_read_sum(struct tracing_map_elt *elt, unsigned int i);
u64 tracing_map_read_var(struct tracing_map_elt *elt, unsigned int i);
u64 tracing_map_read_var_once(struct tracing_map_elt *elt, unsigned int i);

int tracing_map_sort_entries(struct tracing_map *map,
			     struct tracing_map_sort_key *sort_keys,
			     unsigned int n_sort_keys,
			     struct tracing_map_sort_entry ***sort_entries);
typedef void (*tracing_map_elt_fn_t)(struct tracing_map_elt *elt, void *arg);
void tracing_map_walk(struct tracing_map *map, tracing_map_elt_fn_t fn, void *arg);
void tracing_map_destroy_sort_entries(struct tracing_map_sort_entry **entries,
				      unsigned int n_entries);

#endif /* _KERNEL_TRACE_TRACING_MAP_H */
