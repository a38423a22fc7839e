/*
 * summary.html's data validation box (master/dvsummary.c): none without
 * validation, a clean line, the first corruption with its sector and
 * flags (escaped), and the box put after the page's heading.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "dvsummary.h"

static json_t *
runs_with(json_t *validation)
{
	json_t *runs = json_pack("[{s:s},{s:s}]", "name", "SD_format",
	    "name", "rd1");

	if (validation != NULL)
		json_object_set_new(json_array_get(runs, 1), "validation",
		    validation);
	return (runs);
}

static void
test_box(void **state)
{
	json_t *runs;
	char *box;

	(void)state;
	runs = runs_with(NULL);
	assert_null(dvsummary_box(runs));
	json_decref(runs);

	runs = runs_with(json_pack("{s:I,s:I,s:I,s:[]}",
	    "key_blocks_validated", (json_int_t)1234567,
	    "key_blocks_in_error", (json_int_t)0, "corrupted_data_blocks",
	    (json_int_t)0, "data_blocks"));
	box = dvsummary_box(runs);
	assert_non_null(box);
	assert_non_null(strstr(box, "no corruption found; 1,234,567 key "
	    "blocks read and validated."));
	free(box);
	json_decref(runs);

	runs = runs_with(json_pack("{s:I,s:I,s:I,s:[{s:s,s:s,s:s,s:s,s:I,"
	    "s:I,s:I,s:I,s:I,s:I,s:s,s:[{s:I,s:I,s:I,s:[s,s]}]}]}",
	    "key_blocks_validated", (json_int_t)10, "key_blocks_in_error",
	    (json_int_t)2, "corrupted_data_blocks", (json_int_t)2,
	    "data_blocks", "sd", "sd1", "lun", "/d/<a&b>", "rd", "rd2",
	    "slave", "localhost-0", "lba", (json_int_t)0x64000,
	    "xfersize", (json_int_t)8192, "key_blocks", (json_int_t)2,
	    "bad_key_blocks", (json_int_t)1, "bad_sectors", (json_int_t)3,
	    "found_ms", (json_int_t)1796081895411, "found_during",
	    "read-before-write", "sectors", "lba", (json_int_t)0x65400,
	    "key_block_lba", (json_int_t)0x65000, "sector", (json_int_t)2,
	    "flags", "key", "lba"));
	box = dvsummary_box(runs);
	assert_non_null(box);
	assert_non_null(strstr(box, "CORRUPTED DATA FOUND"));
	assert_non_null(strstr(box, "sd=sd1, lun=/d/&lt;a&amp;b&gt;, "
	    "rd=rd2 (slave localhost-0)"));
	assert_non_null(strstr(box, "lba 409,600 (0x00064000), "
	    "xfersize=8192, 1 of 2 key blocks corrupted, 3 bad sectors"));
	assert_non_null(strstr(box, "lba 0x00065400 (sector 2 of the key "
	    "block at 0x00065000); bad: key, lba"));
	assert_non_null(strstr(box, ".411 during a read-before-write"));
	assert_non_null(strstr(box, "2 corrupted data block(s); 10 key "
	    "blocks read and validated; 2 key blocks marked in error"));
	assert_null(strstr(box, "<a&b>"));
	free(box);
	json_decref(runs);
}

static void
test_insert(void **state)
{
	char dir[] = "/tmp/test_dvsummary.XXXXXX", path[128], buf[512];
	struct errmsg e;
	FILE *f;
	size_t n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/summary.html", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("<title>t</title><pre>\nvdbc\nVdbench summary report, created "
	    "x\n\nLink to logfile:\n", f);
	fclose(f);
	assert_int_equal(dvsummary_insert(path, "BOX\n", &e), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	assert_string_equal(buf, "<title>t</title><pre>\nvdbc\nVdbench "
	    "summary report, created x\n\nBOX\nLink to logfile:\n");
	unlink(path);
	rmdir(dir);
	snprintf(path, sizeof(path), "%s/none/summary.html", dir);
	assert_int_equal(dvsummary_insert(path, "BOX\n", &e), -1);
	assert_non_null(strstr(e.text, "none/summary.html"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_box),
		cmocka_unit_test(test_insert),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
