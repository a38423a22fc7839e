/* Frame codec: byte-at-a-time, bad magic, wrong major, oversize, short. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "frame.h"

static void
test_round_trip_one_byte_at_a_time(void **state)
{
	uint8_t buf[PROTO_HDR_LEN + 5];
	struct frame_hdr h;
	struct errmsg e;
	size_t n;

	(void)state;
	frame_encode(buf, MSG_INTERVAL, 5, 0xdeadbeef);
	memcpy(buf + PROTO_HDR_LEN, "{\"a\"}", 5);
	for (n = 0; n < sizeof(buf); n++)
		assert_int_equal(frame_decode(buf, n, &h, &e), 0);
	assert_int_equal(frame_decode(buf, sizeof(buf), &h, &e), 1);
	assert_int_equal(h.magic, PROTO_MAGIC);
	assert_int_equal(h.major, PROTO_MAJOR);
	assert_int_equal(h.type, MSG_INTERVAL);
	assert_int_equal(h.len, 5);
	assert_int_equal(h.tag, 0xdeadbeef);
	/* Big-endian on the wire. */
	assert_int_equal(buf[0], 'V');
	assert_int_equal(buf[3], 'C');
	assert_int_equal(buf[7], MSG_INTERVAL & 0xff);
	assert_int_equal(buf[11], 5);
}

static void
test_bad_magic(void **state)
{
	uint8_t buf[PROTO_HDR_LEN];
	struct frame_hdr h;
	struct errmsg e;

	(void)state;
	frame_encode(buf, MSG_HELLO, 0, 1);
	buf[1] = 'X';
	/* Caught as soon as the wrong byte is there. */
	assert_int_equal(frame_decode(buf, 1, &h, &e), 0);
	assert_int_equal(frame_decode(buf, 2, &h, &e), -1);
	assert_non_null(strstr(e.text, "magic"));
	memcpy(buf, "GET / HTTP/1.1\r\n", 16);
	assert_int_equal(frame_decode(buf, 16, &h, &e), -1);
}

static void
test_wrong_major(void **state)
{
	uint8_t buf[PROTO_HDR_LEN];
	struct frame_hdr h;
	struct errmsg e;

	(void)state;
	frame_encode(buf, MSG_HELLO, 0, 1);
	buf[5] = PROTO_MAJOR + 1;
	assert_int_equal(frame_decode(buf, sizeof(buf), &h, &e), -1);
	assert_non_null(strstr(e.text, "version"));
}

static void
test_unknown_type_and_oversize(void **state)
{
	uint8_t buf[PROTO_HDR_LEN];
	struct frame_hdr h;
	struct errmsg e;

	(void)state;
	frame_encode(buf, 777, 0, 1);
	assert_int_equal(frame_decode(buf, sizeof(buf), &h, &e), -1);
	assert_non_null(strstr(e.text, "unknown message type"));
	frame_encode(buf, MSG_WORK, PROTO_MAX_LEN + 1, 1);
	assert_int_equal(frame_decode(buf, sizeof(buf), &h, &e), -1);
	assert_non_null(strstr(e.text, "over the limit"));
	frame_encode(buf, MSG_WORK, PROTO_MAX_LEN, 1);
	assert_int_equal(frame_decode(buf, sizeof(buf), &h, &e), 0);
}

static void
test_truncated(void **state)
{
	uint8_t buf[PROTO_HDR_LEN + 10];
	struct frame_hdr h;
	struct errmsg e;

	(void)state;
	frame_encode(buf, MSG_LOG, 10, 9);
	/* A frame cut short is never reported complete. */
	assert_int_equal(frame_decode(buf, PROTO_HDR_LEN + 9, &h, &e), 0);
	assert_int_equal(frame_decode(buf, PROTO_HDR_LEN - 1, &h, &e), 0);
	assert_int_equal(frame_decode(buf, sizeof(buf), &h, &e), 1);
}

static void
test_type_names(void **state)
{
	(void)state;
	assert_string_equal(proto_type_name(MSG_HELLO), "HELLO");
	assert_string_equal(proto_type_name(MSG_RUN_END), "RUN_END");
	assert_null(proto_type_name(0));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_one_byte_at_a_time),
		cmocka_unit_test(test_bad_magic),
		cmocka_unit_test(test_wrong_major),
		cmocka_unit_test(test_unknown_type_and_oversize),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_type_names),
	};
	return (cmocka_run_group_tests_name("frame", tests, NULL, NULL));
}
