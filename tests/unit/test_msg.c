/* Golden protocol messages: each is valid for its type, and each loses
 * validity when any one required field is taken away. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "msg.h"
#include "proto.h"

#ifndef GOLDEN_DIR
#error GOLDEN_DIR must name tests/data/proto
#endif

struct golden {
	const char	*file;
	uint16_t	 type;
	const char	*required[9];
};

static const struct golden goldens[] = {
	{ "HELLO", MSG_HELLO, { "major", "minor", "slave", "host", "pid",
	    "version", "cores", "clock_wall_ns" } },
	{ "INFO", MSG_INFO, { "luns" } },
	{ "INFO-reply", MSG_INFO, { "luns" } },
	{ "WORK", MSG_WORK, { "run_id", "run", "interval_ns", "seed",
	    "elapsed_s", "format", "work" } },
	{ "READY", MSG_READY, { "run_id" } },
	{ "GO", MSG_GO, { "run_id" } },
	{ "STOP", MSG_STOP, { "run_id" } },
	{ "INTERVAL", MSG_INTERVAL, { "run_id", "interval", "duration_ns",
	    "stats" } },
	{ "RUN_END", MSG_RUN_END, { "run_id", "eof" } },
	{ "ERROR", MSG_ERROR, { "text" } },
	{ "LOG", MSG_LOG, { "level", "text" } },
	{ "HEARTBEAT", MSG_HEARTBEAT, { "seq" } },
	{ "SHUTDOWN", MSG_SHUTDOWN, { NULL } },
	{ "AUTH", MSG_AUTH, { "step" } },
	{ "AUTH-master", MSG_AUTH, { "step" } },
	{ "LAUNCH", MSG_LAUNCH, { "connect", "slaves" } },
	{ "SKEW", MSG_SKEW, { "run_id" } },
	{ "SKEW-master", MSG_SKEW, { "run_id" } },
};

/* Load one golden file. */
static json_t *
load(const char *name)
{
	char path[1024];
	json_error_t je;
	json_t *j;

	snprintf(path, sizeof(path), "%s/%s.json", GOLDEN_DIR, name);
	j = json_load_file(path, 0, &je);
	if (j == NULL)
		fail_msg("%s: %s", path, je.text);
	return (j);
}

static void
test_goldens_valid(void **state)
{
	struct errmsg e;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(goldens) / sizeof(goldens[0]); i++) {
		json_t *j = load(goldens[i].file);

		if (msg_validate(goldens[i].type, j, &e) != 0)
			fail_msg("%s: %s", goldens[i].file, e.text);
		json_decref(j);
	}
}

static void
test_each_required_field(void **state)
{
	struct errmsg e;
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(goldens) / sizeof(goldens[0]); i++) {
		for (k = 0; goldens[i].required[k] != NULL; k++) {
			json_t *j = load(goldens[i].file);

			json_object_del(j, goldens[i].required[k]);
			if (msg_validate(goldens[i].type, j, &e) == 0)
				fail_msg("%s without %s was accepted",
				    goldens[i].file, goldens[i].required[k]);
			json_decref(j);
		}
	}
}

static void
test_wrong_types(void **state)
{
	struct errmsg e;
	json_t *j;

	(void)state;
	j = json_pack("{s:s}", "run_id", "two");
	assert_int_equal(msg_validate(MSG_GO, j, &e), -1);
	json_decref(j);
	j = json_array();
	assert_int_equal(msg_validate(MSG_GO, j, &e), -1);
	json_decref(j);
	j = json_pack("{s:I,s:I,s:I,s:{}}", "run_id", (json_int_t)1,
	    "interval", (json_int_t)1, "duration_ns", (json_int_t)1, "stats");
	assert_int_equal(msg_validate(MSG_INTERVAL, j, &e), -1);
	json_decref(j);
	j = json_object();
	assert_int_equal(msg_validate(999, j, &e), -1);
	json_decref(j);
}

/* INTERVAL numbers out of range, and stats entries that are not objects
 * (common/interval_json.c checks what is inside them). */
static void
test_interval_ranges(void **state)
{
	static const char *const bad[] = {
		"{\"run_id\":-1,\"interval\":1,\"duration_ns\":1,\"stats\":[]}",
		"{\"run_id\":1,\"interval\":0,\"duration_ns\":1,\"stats\":[]}",
		"{\"run_id\":1,\"interval\":1,\"duration_ns\":-5,\"stats\":[]}",
		"{\"run_id\":1,\"interval\":1,\"duration_ns\":1,\"stats\":[7]}",
		"{\"run_id\":1,\"interval\":1,\"duration_ns\":1,\"stats\":"
		    "[{},[1,2]]}",
		"{\"run_id\":1,\"interval\":1,\"duration_ns\":1,\"stats\":[],"
		    "\"cpu\":[1]}",
	};
	struct errmsg e;
	json_t *j;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		j = json_loads(bad[i], 0, NULL);
		assert_non_null(j);
		if (msg_validate(MSG_INTERVAL, j, &e) == 0)
			fail_msg("accepted: %s", bad[i]);
		json_decref(j);
	}
	j = json_loads("{\"run_id\":-2,\"eof\":false}", 0, NULL);
	assert_int_equal(msg_validate(MSG_RUN_END, j, &e), -1);
	json_decref(j);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_goldens_valid),
		cmocka_unit_test(test_each_required_field),
		cmocka_unit_test(test_wrong_types),
		cmocka_unit_test(test_interval_ranges),
	};
	return (cmocka_run_group_tests_name("msg", tests, NULL, NULL));
}
