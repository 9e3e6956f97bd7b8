// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the hist.json writer (trace_hist_json.c).
 *
 * hist.json strings: whatever the bytes (task names, string fields),
 * hist_json_str() prints a valid JSON string that decodes to them, valid
 * UTF-8 kept as it is and every other byte above 0x7f read as Latin-1.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_hist.h"

static const struct {
	const char	*in;
	size_t		len;
	const char	*out;
} hjk_cases[] = {
	{ "abc", 3, "\"abc\"" },
	{ "", 0, "\"\"" },
	{ "a\"b\\c/", 6, "\"a\\\"b\\\\c/\"" },
	/* the short escapes JSON has, \u00XX for the other controls */
	{ "\b\t\n\f\r", 5, "\"\\b\\t\\n\\f\\r\"" },
	{ "\x01\x0b\x1f\x7f", 4, "\"\\u0001\\u000b\\u001f\\u007f\"" },
	/* a NUL or the length ends it */
	{ "ab\0cd", 5, "\"ab\"" },
	{ "abcdef", 3, "\"abc\"" },
	/* UTF-8 of 2, 3 and 4 bytes */
	{ "\xc3\xa9", 2, "\"\xc3\xa9\"" },
	{ "\xe2\x82\xac!", 4, "\"\xe2\x82\xac!\"" },
	{ "\xf0\x9f\x98\x80", 4, "\"\xf0\x9f\x98\x80\"" },
	/* not UTF-8: a stray continuation byte, an overlong '/', a
	 * surrogate, a sequence cut by the length, one cut by a NUL,
	 * beyond U+10FFFF, 0xff
	 */
	{ "\x80", 1, "\"\\u0080\"" },
	{ "\xc0\xaf", 2, "\"\\u00c0\\u00af\"" },
	{ "\xed\xa0\x80", 3, "\"\\u00ed\\u00a0\\u0080\"" },
	{ "\xe2\x82\xac", 2, "\"\\u00e2\\u0082\"" },
	{ "\xe2\x82\0", 3, "\"\\u00e2\\u0082\"" },
	{ "\xf4\x90\x80\x80", 4, "\"\\u00f4\\u0090\\u0080\\u0080\"" },
	{ "x\xffy", 3, "\"x\\u00ffy\"" },
	/* the edges: U+07FF, U+0800, U+D7FF, U+E000, U+FFFF, U+10000 and
	 * U+10FFFF are kept; overlong E0 80 80 and F0 80 80 80, the leads
	 * C1 and F5 are not
	 */
	{ "\xdf\xbf", 2, "\"\xdf\xbf\"" },
	{ "\xe0\xa0\x80", 3, "\"\xe0\xa0\x80\"" },
	{ "\xed\x9f\xbf", 3, "\"\xed\x9f\xbf\"" },
	{ "\xee\x80\x80", 3, "\"\xee\x80\x80\"" },
	{ "\xef\xbf\xbf", 3, "\"\xef\xbf\xbf\"" },
	{ "\xf0\x90\x80\x80", 4, "\"\xf0\x90\x80\x80\"" },
	{ "\xf4\x8f\xbf\xbf", 4, "\"\xf4\x8f\xbf\xbf\"" },
	{ "\xe0\x80\x80", 3, "\"\\u00e0\\u0080\\u0080\"" },
	{ "\xf0\x80\x80\x80", 4, "\"\\u00f0\\u0080\\u0080\\u0080\"" },
	{ "\xc1\xbf", 2, "\"\\u00c1\\u00bf\"" },
	{ "\xf5\x80\x80\x80", 4, "\"\\u00f5\\u0080\\u0080\\u0080\"" },
};

static void hjk_test_str(struct kunit *test)
{
	struct seq_file m = { .size = 128 };
	unsigned int i;

	m.buf = kunit_kzalloc(test, m.size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m.buf);
	for (i = 0; i < ARRAY_SIZE(hjk_cases); i++) {
		m.count = 0;
		hist_json_str(&m, hjk_cases[i].in, hjk_cases[i].len);
		KUNIT_ASSERT_FALSE(test, seq_has_overflowed(&m));
		KUNIT_EXPECT_EQ_MSG(test, m.count, strlen(hjk_cases[i].out),
				    "case %u", i);
		KUNIT_EXPECT_MEMEQ_MSG(test, m.buf, hjk_cases[i].out,
				       min(m.count, strlen(hjk_cases[i].out)),
				       "case %u", i);
	}
}

/* Every byte value alone: printable ASCII as itself, the rest escaped. */
static void hjk_test_all_bytes(struct kunit *test)
{
	struct seq_file m = { .size = 16 };
	char want[16];
	unsigned int c;

	m.buf = kunit_kzalloc(test, m.size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m.buf);
	for (c = 1; c < 256; c++) {
		char in = c;

		m.count = 0;
		hist_json_str(&m, &in, 1);
		if (c == '"' || c == '\\')
			snprintf(want, sizeof(want), "\"\\%c\"", c);
		else if (c >= 0x20 && c < 0x7f)
			snprintf(want, sizeof(want), "\"%c\"", c);
		else if (strchr("\b\t\n\f\r", c))
			snprintf(want, sizeof(want), "\"\\%c\"",
				 "btn?fr"[c - '\b']);
		else
			snprintf(want, sizeof(want), "\"\\u%04x\"", c);
		KUNIT_EXPECT_EQ_MSG(test, m.count, strlen(want), "byte %#x", c);
		KUNIT_EXPECT_MEMEQ_MSG(test, m.buf, want,
				       min(m.count, strlen(want)), "byte %#x", c);
	}
}

/* Member names: escaped, and a name that comes again numbered. */
static void hjk_test_names(struct kunit *test)
{
	static const char *const names[] = { "pid", "a\"b", "pid", "pid" };
	static const char want[] = "\"pid\":\"a\\\"b\":\"pid#2\":\"pid#3\":";
	struct seq_file m = { .size = 128 };
	unsigned int i;

	m.buf = kunit_kzalloc(test, m.size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m.buf);
	for (i = 0; i < ARRAY_SIZE(names); i++)
		hist_json_name(&m, names, i + 1);
	KUNIT_ASSERT_EQ(test, m.count, strlen(want));
	KUNIT_EXPECT_MEMEQ(test, m.buf, want, m.count);
}

static struct kunit_case hist_json_test_cases[] = {
	KUNIT_CASE(hjk_test_str),
	KUNIT_CASE(hjk_test_all_bytes),
	KUNIT_CASE(hjk_test_names),
	{}
};

static struct kunit_suite hist_json_test_suite = {
	.name = "hist_json",
	.test_cases = hist_json_test_cases,
};

kunit_test_suite(hist_json_test_suite);
