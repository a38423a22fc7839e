/* Size and time suffixes, and vdbench's "what size" printing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "units.h"

/* Parse, asserting the value is numeric. */
static double
num(const char *s, enum units_mode mode)
{
	double v = -12345;

	assert_int_equal(units_parse(s, mode, &v), 0);
	return (v);
}

static void
test_plain_numbers(void **state)
{
	(void)state;
	assert_true(num("10", UNITS_SIZE) == 10);
	assert_true(num("1.5", UNITS_SIZE) == 1.5);
	assert_true(num("1e3", UNITS_SIZE) == 1000);
}

static void
test_size_suffixes(void **state)
{
	(void)state;
	assert_true(num("4k", UNITS_SIZE) == 4096);
	assert_true(num("4K", UNITS_SIZE) == 4096);
	assert_true(num("4kb", UNITS_SIZE) == 4096);
	assert_true(num("100m", UNITS_SIZE) == 104857600);
	assert_true(num("2g", UNITS_SIZE) == 2147483648.0);
	assert_true(num("1.5gb", UNITS_SIZE) == 1610612736.0);
	assert_true(num("1t", UNITS_SIZE) == 1099511627776.0);
	assert_true(num("2h", UNITS_SIZE) == 7200);
	assert_true(num("50%", UNITS_SIZE) == -50);
}

static void
test_time_suffixes(void **state)
{
	(void)state;
	assert_true(num("1m", UNITS_TIME) == 60);
	assert_true(num("5m", UNITS_TIME) == 300);
	assert_true(num("2h", UNITS_TIME) == 7200);
}

static void
test_alpha(void **state)
{
	double v;

	(void)state;
	assert_int_equal(units_parse("30s", UNITS_TIME, &v), -1);
	assert_int_equal(units_parse("o_direct", UNITS_SIZE, &v), -1);
	assert_int_equal(units_parse("256q", UNITS_SIZE, &v), -1);
	assert_int_equal(units_parse("kb", UNITS_SIZE, &v), -1);
	assert_int_equal(units_parse("max", UNITS_SIZE, &v), -1);
	assert_int_equal(units_parse("4k", UNITS_PLAIN, &v), -1);
	assert_int_equal(units_parse("nan", UNITS_SIZE, &v), -1);
	assert_int_equal(units_parse("0x10", UNITS_SIZE, &v), -1);
	assert_int_equal(units_parse("", UNITS_SIZE, &v), -1);
}

static void
test_whatsize(void **state)
{
	char buf[32];

	(void)state;
	assert_string_equal(units_whatsize(512, buf, sizeof(buf)), "512");
	assert_string_equal(units_whatsize(4096, buf, sizeof(buf)), "4k");
	assert_string_equal(units_whatsize(1536, buf, sizeof(buf)), "1.500k");
	assert_string_equal(units_whatsize(1048576, buf, sizeof(buf)), "1m");
	assert_string_equal(units_whatsize(65536, buf, sizeof(buf)), "64k");
	assert_string_equal(units_whatsize(2048, buf, sizeof(buf)), "2k");
	assert_string_equal(units_whatsize(1073741824.0, buf, sizeof(buf)),
	    "1g");
	assert_string_equal(units_whatsize(100, buf, sizeof(buf)), "100");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_numbers),
		cmocka_unit_test(test_size_suffixes),
		cmocka_unit_test(test_time_suffixes),
		cmocka_unit_test(test_alpha),
		cmocka_unit_test(test_whatsize),
	};
	return (cmocka_run_group_tests_name("units", tests, NULL, NULL));
}
