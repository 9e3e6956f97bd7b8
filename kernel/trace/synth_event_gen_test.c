// SPDX-License-Identifier: GPL-2.0
/*
 * Self test of the in-kernel synthetic event API.
 *
 * The module creates synthetic events with every creation function,
 * records them with every tracing function into a private trace
 * instance, reads the records back from that instance's ring buffer and
 * renders them with the event's own output function, and compares the
 * text with what is expected.  Each case logs
 * "synth_event_gen_test: ok <case>" or
 * "synth_event_gen_test: FAIL <case>: <why>"; a summary line follows and
 * loading fails with -EINVAL if any case failed.  One event, "sgt_owned",
 * is deliberately left for the module unload to remove.
 */

#define pr_fmt(fmt) "synth_event_gen_test: " fmt

#include <linux/module.h>
#include <linux/ring_buffer.h>
#include <linux/slab.h>
#include <linux/trace.h>
#include <linux/trace_events.h>

#include "trace.h"

#define SGT_INSTANCE	"synth_event_gen_test"
#define SGT_TEXT_MAX	1024

static unsigned int sgt_passed, sgt_failed;
static struct trace_array *sgt_tr;
static char *sgt_text;

static void sgt_result(const char *name, bool ok, const char *why)
{
	if (ok) {
		sgt_passed++;
		pr_info("ok %s\n", name);
	} else {
		sgt_failed++;
		pr_err("FAIL %s: %s\n", name, why);
	}
}

static void sgt_expect_ret(const char *name, int ret, int expected)
{
	char why[64];

	snprintf(why, sizeof(why), "returned %d, expected %d", ret, expected);
	sgt_result(name, ret == expected, why);
}

/* Every scalar type plus a fixed string. */
static struct synth_field_desc sgt_all_fields[] = {
	{ .type = "s8",			.name = "v_s8" },
	{ .type = "u8",			.name = "v_u8" },
	{ .type = "s16",		.name = "v_s16" },
	{ .type = "u16",		.name = "v_u16" },
	{ .type = "s32",		.name = "v_s32" },
	{ .type = "u32",		.name = "v_u32" },
	{ .type = "s64",		.name = "v_s64" },
	{ .type = "u64",		.name = "v_u64" },
	{ .type = "char",		.name = "v_char" },
	{ .type = "unsigned char",	.name = "v_uchar" },
	{ .type = "short",		.name = "v_short" },
	{ .type = "unsigned short",	.name = "v_ushort" },
	{ .type = "int",		.name = "v_int" },
	{ .type = "unsigned int",	.name = "v_uint" },
	{ .type = "long",		.name = "v_long" },
	{ .type = "unsigned long",	.name = "v_ulong" },
	{ .type = "bool",		.name = "v_bool" },
	{ .type = "pid_t",		.name = "v_pid" },
	{ .type = "gfp_t",		.name = "v_gfp" },
	{ .type = "char[8]",		.name = "v_str" },
};

/* Expected rendering of each sgt_all field, in field order. */
static const char * const sgt_all_text[] = {
	"-8", "200", "-1600", "60000", "-320000", "4000000000", "-64",
	"18446744073709551615", "65", "250", "-2", "2", "-4", "4", "-8", "8",
	"1", "1234", "cc0 (GFP_KERNEL)", "abcdefg",
};

static struct synth_field_desc sgt_more_fields[] = {
	{ .type = "int",		.name = "prio" },
};

/* Dynamic string and stack fields. */
static struct synth_field_desc sgt_dyn_fields[] = {
	{ .type = "u64",		.name = "lat" },
	{ .type = "char[]",		.name = "name" },
	{ .type = "unsigned long[]",	.name = "stack" },
	{ .type = "char",		.name = "tail[]" },
};

/*
 * Drain the instance buffer and render the last record of @file's event
 * into sgt_text.  Return the number of such records found.
 */
static int sgt_read(struct trace_event_file *file)
{
	struct trace_event_call *call = file->event_call;
	struct trace_buffer *buffer = sgt_tr->array_buffer.buffer;
	struct trace_iterator *iter;
	struct ring_buffer_event *rbe;
	struct trace_entry *ent;
	int cpu, found = 0;
	u64 ts;

	sgt_text[0] = '\0';
	iter = kzalloc_obj(*iter, GFP_KERNEL);
	if (!iter)
		return -ENOMEM;

	for_each_possible_cpu(cpu) {
		while ((rbe = ring_buffer_consume(buffer, cpu, &ts, NULL))) {
			ent = ring_buffer_event_data(rbe);
			if (ent->type != call->event.type)
				continue;
			found++;
			trace_seq_init(&iter->seq);
			trace_seq_init(&iter->tmp_seq);
			iter->ent = ent;
			iter->ent_size = ring_buffer_event_length(rbe);
			call->event.funcs->trace(iter, 0, &call->event);
			snprintf(sgt_text, SGT_TEXT_MAX, "%.*s",
				 trace_seq_used(&iter->seq), iter->seq.buffer);
		}
	}
	kfree(iter);
	return found;
}

/* Check that exactly one record was written and that it reads @exp. */
static void sgt_check_text(const char *name, struct trace_event_file *file,
			   const char *exp)
{
	char why[160];
	int n = sgt_read(file);

	if (n != 1) {
		snprintf(why, sizeof(why), "%d records instead of 1", n);
		sgt_result(name, false, why);
		return;
	}
	snprintf(why, sizeof(why), "got \"%.120s\"", sgt_text);
	sgt_result(name, !strcmp(sgt_text, exp), why);
}

static struct trace_event_file *sgt_get_enabled(const char *event)
{
	struct trace_event_file *file;

	file = trace_get_event_file(SGT_INSTANCE, "synthetic", event);
	if (IS_ERR(file))
		return file;
	if (trace_array_set_clr_event(file->tr, "synthetic", event, true)) {
		trace_put_event_file(file);
		return ERR_PTR(-EINVAL);
	}
	return file;
}

static void sgt_release(struct trace_event_file *file, const char *event)
{
	if (IS_ERR_OR_NULL(file))
		return;
	trace_array_set_clr_event(file->tr, "synthetic", event, false);
	trace_put_event_file(file);
}

static void sgt_test_create(void)
{
	struct synth_field_desc bad = { .type = "chr", .name = "x" };
	struct dynevent_cmd cmd;
	char *buf;
	int ret, i;

	ret = synth_event_create("sgt_all", sgt_all_fields,
				 ARRAY_SIZE(sgt_all_fields), THIS_MODULE);
	sgt_expect_ret("create", ret, 0);
	ret = synth_event_create("sgt_all", sgt_all_fields, 1, THIS_MODULE);
	sgt_expect_ret("create_duplicate", ret, -EEXIST);
	ret = synth_event_create("sgt_bad", &bad, 1, THIS_MODULE);
	sgt_expect_ret("create_bad_type", ret, -EINVAL);

	buf = kzalloc(MAX_DYNEVENT_CMD_LEN, GFP_KERNEL);
	if (!buf) {
		sgt_result("gen_cmd", false, "no memory");
		return;
	}

	synth_event_cmd_init(&cmd, buf, MAX_DYNEVENT_CMD_LEN);
	ret = synth_event_gen_cmd_start(&cmd, "sgt_gen", THIS_MODULE,
					"pid_t", "pid", "char[16]", "comm");
	if (!ret)
		ret = synth_event_add_field(&cmd, "u64", "ts");
	if (!ret)
		ret = synth_event_add_field_str(&cmd, "unsigned int cpu");
	if (!ret)
		ret = synth_event_add_fields(&cmd, sgt_more_fields,
					     ARRAY_SIZE(sgt_more_fields));
	if (!ret)
		ret = synth_event_gen_cmd_end(&cmd);
	sgt_expect_ret("gen_cmd", ret, 0);

	synth_event_cmd_init(&cmd, buf, MAX_DYNEVENT_CMD_LEN);
	ret = synth_event_gen_cmd_array_start(&cmd, "sgt_dyn", THIS_MODULE,
					      sgt_dyn_fields,
					      ARRAY_SIZE(sgt_dyn_fields));
	if (!ret)
		ret = synth_event_gen_cmd_end(&cmd);
	sgt_expect_ret("gen_cmd_array", ret, 0);

	synth_event_cmd_init(&cmd, buf, MAX_DYNEVENT_CMD_LEN);
	ret = synth_event_gen_cmd_start(&cmd, "sgt_many", THIS_MODULE);
	for (i = 0; !ret && i <= 64; i++) {
		char fname[16];

		snprintf(fname, sizeof(fname), "f%d", i);
		ret = synth_event_add_field(&cmd, "u8", fname);
	}
	sgt_expect_ret("too_many_fields", ret, -EINVAL);

	kfree(buf);
}

static void sgt_test_all_types(void)
{
	struct trace_event_file *file;
	char *exp;
	u64 vals[ARRAY_SIZE(sgt_all_fields)] = {
		(u64)-8, 200, (u64)-1600, 60000, (u64)-320000, 4000000000ULL,
		(u64)-64, U64_MAX, 'A', 250, (u64)-2, 2, (u64)-4, 4, (u64)-8,
		8, true, 1234, (__force u64)GFP_KERNEL,
		(u64)(unsigned long)"abcdefghij",
	};
	int ret, i, pos;

	BUILD_BUG_ON(ARRAY_SIZE(sgt_all_text) != ARRAY_SIZE(sgt_all_fields));
	exp = kmalloc(SGT_TEXT_MAX, GFP_KERNEL);
	file = trace_get_event_file(SGT_INSTANCE, "synthetic", "sgt_all");
	if (IS_ERR(file) || !exp) {
		sgt_result("trace_array", false, "no event file");
		kfree(exp);
		return;
	}
	pos = snprintf(exp, SGT_TEXT_MAX, "sgt_all:");
	for (i = 0; i < ARRAY_SIZE(sgt_all_fields); i++)
		pos += snprintf(exp + pos, SGT_TEXT_MAX - pos, " %s=%s",
				sgt_all_fields[i].name, sgt_all_text[i]);
	snprintf(exp + pos, SGT_TEXT_MAX - pos, "\n");

	/* Not enabled yet: nothing may be recorded. */
	ret = synth_event_trace_array(file, vals, ARRAY_SIZE(vals));
	sgt_result("trace_disabled", !ret && sgt_read(file) == 0,
		   "recorded while disabled");

	trace_array_set_clr_event(file->tr, "synthetic", "sgt_all", true);
	ret = synth_event_trace_array(file, vals, ARRAY_SIZE(vals));
	if (ret)
		sgt_expect_ret("trace_array", ret, 0);
	else
		sgt_check_text("trace_array", file, exp);
	kfree(exp);

	ret = synth_event_trace_array(file, vals, ARRAY_SIZE(vals) - 1);
	sgt_expect_ret("trace_array_bad_count", ret, -EINVAL);

	ret = synth_event_delete("sgt_all");
	sgt_expect_ret("delete_busy", ret, -EBUSY);

	sgt_release(file, "sgt_all");
	ret = synth_event_delete("sgt_all");
	sgt_expect_ret("delete", ret, 0);
	ret = synth_event_delete("sgt_all");
	sgt_expect_ret("delete_missing", ret, -ENOENT);
}

static void sgt_test_gen(void)
{
	static const char exp[] =
		"sgt_gen: pid=444 comm=clackers ts=1000000 cpu=3 prio=-5\n";
	struct synth_event_trace_state state;
	struct trace_event_file *file;
	int ret;

	file = sgt_get_enabled("sgt_gen");
	if (IS_ERR(file)) {
		sgt_result("trace", false, "no event file");
		return;
	}

	ret = synth_event_trace(file, 5, 444ULL,
				(u64)(unsigned long)"clackers", 1000000ULL,
				3ULL, (u64)-5);
	if (ret)
		sgt_expect_ret("trace", ret, 0);
	else
		sgt_check_text("trace", file, exp);

	ret = synth_event_trace(file, 2, 1ULL, 2ULL);
	sgt_expect_ret("trace_bad_count", ret, -EINVAL);

	ret = synth_event_trace_start(file, &state);
	if (!ret)
		ret = synth_event_add_next_val(444, &state);
	if (!ret)
		ret = synth_event_add_next_val((u64)(unsigned long)"clackers",
					       &state);
	if (!ret)
		ret = synth_event_add_next_val(1000000, &state);
	if (!ret)
		ret = synth_event_add_next_val(3, &state);
	if (!ret)
		ret = synth_event_add_next_val((u64)-5, &state);
	if (!ret) {
		ret = synth_event_add_next_val(7, &state);
		sgt_expect_ret("add_next_val_overflow", ret, -EINVAL);
		ret = synth_event_add_val("ts", 1, &state);
		sgt_expect_ret("add_val_after_next", ret, -EINVAL);
		ret = 0;
	}
	if (synth_event_trace_end(&state) && !ret)
		ret = -EFAULT;
	if (ret)
		sgt_expect_ret("add_next_val", ret, 0);
	else
		sgt_check_text("add_next_val", file, exp);

	ret = synth_event_trace_start(file, &state);
	if (!ret)
		ret = synth_event_add_val("prio", (u64)-5, &state);
	if (!ret)
		ret = synth_event_add_val("ts", 1000000, &state);
	if (!ret)
		ret = synth_event_add_val("comm", (u64)(unsigned long)"clackers",
					  &state);
	if (!ret)
		ret = synth_event_add_val("pid", 444, &state);
	if (!ret)
		ret = synth_event_add_val("cpu", 3, &state);
	if (!ret) {
		ret = synth_event_add_val("nonexistent", 1, &state);
		sgt_expect_ret("add_val_unknown", ret, -EINVAL);
		ret = synth_event_add_next_val(1, &state);
		sgt_expect_ret("add_next_after_val", ret, -EINVAL);
		ret = 0;
	}
	if (synth_event_trace_end(&state) && !ret)
		ret = -EFAULT;
	if (ret)
		sgt_expect_ret("add_val", ret, 0);
	else
		sgt_check_text("add_val", file, exp);

	sgt_release(file, "sgt_gen");
	sgt_expect_ret("delete_gen", synth_event_delete("sgt_gen"), 0);
}

static void sgt_test_dynamic(void)
{
	unsigned long stack[] = { (unsigned long)trace_get_event_file, 0 };
	struct synth_event_trace_state state;
	struct trace_event_file *file;
	char *longstr, exp[96];
	u64 vals[4];
	int ret;

	file = sgt_get_enabled("sgt_dyn");
	if (IS_ERR(file)) {
		sgt_result("dynamic", false, "no event file");
		return;
	}

	vals[0] = 5;
	vals[1] = (u64)(unsigned long)"hello";
	vals[2] = (u64)(unsigned long)stack;
	vals[3] = (u64)(unsigned long)"end";
	ret = synth_event_trace_array(file, vals, ARRAY_SIZE(vals));
	if (ret) {
		sgt_expect_ret("dynamic", ret, 0);
	} else {
		snprintf(exp, sizeof(exp),
			 "sgt_dyn: lat=5 name=hello stack=STACK:\n=> %pS\n tail=end\n",
			 (void *)stack[0]);
		sgt_check_text("dynamic", file, exp);
	}

	longstr = kmalloc(400, GFP_KERNEL);
	if (longstr) {
		memset(longstr, 'x', 399);
		longstr[399] = '\0';
		vals[1] = (u64)(unsigned long)longstr;
		vals[2] = 0;
		vals[3] = 0;
		ret = synth_event_trace_array(file, vals, ARRAY_SIZE(vals));
		sgt_result("dynamic_truncate",
			   !ret && sgt_read(file) == 1 &&
			   strstr(sgt_text, "name=") &&
			   strcspn(strstr(sgt_text, "name=") + 5, " ") == 255 &&
			   strstr(sgt_text, "stack=STACK: tail=(null)"),
			   sgt_text);
		kfree(longstr);
	}

	ret = synth_event_trace_start(file, &state);
	sgt_expect_ret("trace_start_dynamic", ret, -EINVAL);

	sgt_release(file, "sgt_dyn");
	sgt_expect_ret("delete_dyn", synth_event_delete("sgt_dyn"), 0);
}

static void sgt_cleanup(void)
{
	synth_event_delete("sgt_all");
	synth_event_delete("sgt_gen");
	synth_event_delete("sgt_dyn");
	synth_event_delete("sgt_many");
}

/*
 * An event this module never deletes: the synthetic event code must
 * remove it when the module is unloaded (the harness checks that no
 * synthetic event outlives a test module).
 */
static void sgt_test_owned(void)
{
	static struct synth_field_desc owned_fields[] = {
		{ .type = "u64", .name = "v" },
	};
	int ret;

	ret = synth_event_create("sgt_owned", owned_fields,
				 ARRAY_SIZE(owned_fields), THIS_MODULE);
	sgt_expect_ret("owned_left_to_unload", ret, 0);
}

static int __init synth_event_gen_test_init(void)
{
	sgt_text = kmalloc(SGT_TEXT_MAX, GFP_KERNEL);
	if (!sgt_text)
		return -ENOMEM;

	sgt_tr = trace_array_get_by_name(SGT_INSTANCE, NULL);
	if (!sgt_tr) {
		kfree(sgt_text);
		return -ENOMEM;
	}

	sgt_test_create();
	sgt_test_all_types();
	sgt_test_gen();
	sgt_test_dynamic();
	sgt_cleanup();
	sgt_test_owned();

	trace_array_put(sgt_tr);
	trace_array_destroy(sgt_tr);
	kfree(sgt_text);

	pr_info("%u passed, %u failed\n", sgt_passed, sgt_failed);
	return sgt_failed ? -EINVAL : 0;
}

static void __exit synth_event_gen_test_exit(void)
{
	/* Everything is removed at init; this is a safety net. */
	sgt_cleanup();
}

module_init(synth_event_gen_test_init);
module_exit(synth_event_gen_test_exit);

MODULE_DESCRIPTION("Test of the in-kernel synthetic event API");
MODULE_LICENSE("GPL");
