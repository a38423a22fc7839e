/*
 * The peer link over a socketpair: the owner frees it inside its own
 * dispatch (deferred, never a use after free), the per-peer frame cap,
 * the deadline.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>
#include <event2/event.h>
#include <event2/util.h>

#include "frame.h"
#include "link.h"
#include "mtime.h"

struct owner {
	struct link	*link;
	int		 calls;		/* dispatch calls */
	int		 downs;		/* of them, dispatch(NULL) */
	int		 free_at;	/* link_free in call n (0: never) */
	int		 sent_after;	/* link_send's result after the free */
	char		 error[1100];
};

static void
owner_dispatch(struct link *l, uint16_t type, json_t *body, uint32_t tag,
    void *arg)
{
	struct owner *o = arg;

	(void)type;
	(void)tag;
	assert_ptr_equal(l, o->link);
	o->calls++;
	if (body == NULL) {
		o->downs++;
		snprintf(o->error, sizeof(o->error), "%s", link_error(l));
	}
	if (o->calls == o->free_at) {
		link_free(l);
		/* Still safe to use until the callback returns: quiet. */
		o->sent_after = link_send(l, MSG_HEARTBEAT, NULL);
		o->link = NULL;
	}
}

/* A frame with this JSON body on fd. */
static void
put_frame(int fd, uint16_t type, const char *body)
{
	uint8_t hdr[PROTO_HDR_LEN];
	size_t len = strlen(body);

	frame_encode(hdr, type, (uint32_t)len, 7);
	assert_int_equal(write(fd, hdr, sizeof(hdr)), (ssize_t)sizeof(hdr));
	assert_int_equal(write(fd, body, len), (ssize_t)len);
}

/* Run the loop until cond or ms pass. */
#define RUN_UNTIL(base, cond, ms) do {					\
	uint64_t until_ = mtime_now_ns() + (uint64_t)(ms) * 1000000u;	\
	while (!(cond) && mtime_now_ns() < until_) {			\
		event_base_loop((base), EVLOOP_NONBLOCK);		\
		usleep(1000);						\
	}								\
} while (0)

static struct event_base *
pair(int sv[2], struct owner *o)
{
	struct event_base *base = event_base_new();

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	evutil_make_socket_nonblocking(sv[0]);
	o->link = link_new(base, sv[0], owner_dispatch, o);
	assert_non_null(o->link);
	return (base);
}

/*
 * The attacker's crash: two frames arrive together and the owner frees
 * the link while handling the first. The second is never looked at.
 */
static void
test_free_in_dispatch_with_more_frames(void **state)
{
	struct owner o = { .free_at = 1 };
	struct event_base *base;
	int sv[2];

	(void)state;
	base = pair(sv, &o);
	evutil_make_socket_nonblocking(sv[1]);
	put_frame(sv[1], MSG_HEARTBEAT, "{\"seq\":1}");
	put_frame(sv[1], MSG_HEARTBEAT, "{\"seq\":2}");
	put_frame(sv[1], MSG_HELLO, "{}");
	RUN_UNTIL(base, o.calls > 0, 2000);
	RUN_UNTIL(base, 0, 50);
	assert_int_equal(o.calls, 1);
	assert_int_equal(o.downs, 0);
	assert_int_equal(o.sent_after, -1);
	/* The socket is closed with the link. */
	assert_int_equal(read(sv[1], o.error, 1), 0);
	close(sv[1]);
	event_base_free(base);
}

/* Freed while hearing that the peer went away (a bad frame). */
static void
test_free_in_dispatch_when_down(void **state)
{
	struct owner o = { .free_at = 2 };
	struct event_base *base;
	int sv[2];

	(void)state;
	base = pair(sv, &o);
	put_frame(sv[1], MSG_HEARTBEAT, "{\"seq\":1}");
	assert_int_equal(write(sv[1], "GET / HTTP/1.1\r\n", 16), 16);
	RUN_UNTIL(base, o.calls >= 2, 2000);
	RUN_UNTIL(base, 0, 50);
	assert_int_equal(o.calls, 2);
	assert_int_equal(o.downs, 1);
	assert_non_null(strstr(o.error, "magic"));
	close(sv[1]);
	event_base_free(base);
}

/* A peer that broke the protocol is told why, once; one that left not. */
static void
test_tell_error(void **state)
{
	struct owner o = { 0 }, q = { 0 };
	struct event_base *base, *base2;
	struct frame_hdr h;
	struct errmsg e;
	uint8_t buf[512];
	ssize_t n = 0, r;
	int sv[2], sq[2];

	(void)state;
	base = pair(sv, &o);
	evutil_make_socket_nonblocking(sv[1]);
	assert_int_equal(link_tell_error(o.link), -1);	/* still up */
	put_frame(sv[1], MSG_HEARTBEAT, "{\"seq\":\"x\"}");
	RUN_UNTIL(base, o.downs > 0, 2000);
	assert_int_equal(o.downs, 1);
	assert_int_equal(link_tell_error(o.link), 0);
	assert_int_equal(link_tell_error(o.link), -1);	/* once */
	RUN_UNTIL(base, 0, 50);
	while ((r = read(sv[1], buf + n, sizeof(buf) - 1 - (size_t)n)) > 0)
		n += r;
	assert_int_equal(frame_decode(buf, (size_t)n, &h, &e), 1);
	assert_int_equal(h.type, MSG_ERROR);
	buf[PROTO_HDR_LEN + h.len] = '\0';
	assert_non_null(strstr((char *)buf + PROTO_HDR_LEN, "HEARTBEAT"));
	link_free(o.link);
	close(sv[1]);
	event_base_free(base);
	/* A peer that hung up is not told anything. */
	base2 = pair(sq, &q);
	close(sq[1]);
	RUN_UNTIL(base2, q.downs > 0, 2000);
	assert_int_equal(q.downs, 1);
	assert_int_equal(link_tell_error(q.link), -1);
	link_free(q.link);
	event_base_free(base2);
}

/* A frame over the peer's cap is refused from its header alone. */
static void
test_max_frame(void **state)
{
	struct owner o = { 0 };
	struct event_base *base;
	uint8_t hdr[PROTO_HDR_LEN];
	char *body;
	int sv[2];

	(void)state;
	base = pair(sv, &o);
	evutil_make_socket_nonblocking(sv[1]);
	link_set_max_frame(o.link, LINK_UNPROVED_MAX);
	/* Exactly the cap: delivered. */
	body = malloc(LINK_UNPROVED_MAX + 1);
	memset(body, ' ', LINK_UNPROVED_MAX);
	memcpy(body, "{\"seq\":3}", 9);
	body[LINK_UNPROVED_MAX] = '\0';
	frame_encode(hdr, MSG_HEARTBEAT, LINK_UNPROVED_MAX, 1);
	assert_int_equal(write(sv[1], hdr, sizeof(hdr)), (ssize_t)sizeof(hdr));
	{
		size_t off = 0;

		while (off < LINK_UNPROVED_MAX) {
			ssize_t n = write(sv[1], body + off,
			    LINK_UNPROVED_MAX - off);

			if (n > 0)
				off += (size_t)n;
			event_base_loop(base, EVLOOP_NONBLOCK);
		}
	}
	free(body);
	RUN_UNTIL(base, o.calls > 0, 2000);
	assert_int_equal(o.calls, 1);
	assert_int_equal(o.downs, 0);
	/* One byte more: the header is enough to refuse it. */
	frame_encode(hdr, MSG_HELLO, LINK_UNPROVED_MAX + 1, 2);
	assert_int_equal(write(sv[1], hdr, sizeof(hdr)), (ssize_t)sizeof(hdr));
	RUN_UNTIL(base, o.downs > 0, 2000);
	assert_int_equal(o.downs, 1);
	assert_non_null(strstr(o.error, "HELLO body of 65537 bytes is over "
	    "the limit of 65536"));
	link_free(o.link);
	close(sv[1]);
	event_base_free(base);
}

/* The deadline takes the link down, unless cleared. */
static void
test_deadline(void **state)
{
	struct timeval t = { 0, 100000 };
	struct owner o = { .free_at = 1 }, q = { 0 };
	struct event_base *base;
	int sv[2], sq[2];
	uint64_t t0;

	(void)state;
	base = pair(sv, &o);
	t0 = mtime_now_ns();
	assert_int_equal(link_set_deadline(o.link, &t, "no HELLO in time"), 0);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sq), 0);
	evutil_make_socket_nonblocking(sq[0]);
	q.link = link_new(base, sq[0], owner_dispatch, &q);
	assert_int_equal(link_set_deadline(q.link, &t, "late"), 0);
	assert_int_equal(link_set_deadline(q.link, NULL, NULL), 0);
	RUN_UNTIL(base, o.calls > 0, 2000);
	assert_true(mtime_now_ns() - t0 >= 90000000u);
	assert_int_equal(o.downs, 1);
	assert_string_equal(o.error, "no HELLO in time");
	RUN_UNTIL(base, 0, 200);
	assert_int_equal(q.calls, 0);
	link_free(q.link);
	close(sv[1]);
	close(sq[1]);
	event_base_free(base);
}

/* What one end of a link pair heard, in order. */
struct heard {
	int		 n;
	uint16_t	 type[8];
	uint32_t	 tag[8];
	json_int_t	 x[8];		/* body's "x", or -1 */
	int		 downs;
};

static void
heard_dispatch(struct link *l, uint16_t type, json_t *body, uint32_t tag,
    void *arg)
{
	struct heard *h = arg;
	json_t *x;

	(void)l;
	if (body == NULL) {
		h->downs++;
		return;
	}
	assert_true(h->n < 8);
	h->type[h->n] = type;
	h->tag[h->n] = tag;
	x = json_object_get(body, "x");
	h->x[h->n++] = json_is_integer(x) ? json_integer_value(x) : -1;
}

/*
 * Two links on a socketpair: messages arrive whole, in order, with their
 * types and bodies, a reply with the tag it echoes, a NULL body as {};
 * after one end is freed the other hears the link go down, once, and
 * sending on it fails.
 */
static void
test_round_trip(void **state)
{
	struct heard ha = { 0 }, hb = { 0 };
	struct event_base *base = event_base_new();
	struct link *a, *b;
	int sv[2];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	evutil_make_socket_nonblocking(sv[0]);
	evutil_make_socket_nonblocking(sv[1]);
	a = link_new(base, sv[0], heard_dispatch, &ha);
	b = link_new(base, sv[1], heard_dispatch, &hb);
	assert_int_equal(link_send(a, MSG_READY, json_pack("{s:i,s:I}", "x",
	    1, "run_id", (json_int_t)5)), 0);
	assert_int_equal(link_send(a, MSG_HEARTBEAT, json_pack("{s:i,s:I}",
	    "x", 2, "seq", (json_int_t)1)), 0);
	assert_int_equal(link_send(a, MSG_SHUTDOWN, NULL), 0);
	assert_int_equal(link_reply(b, MSG_INFO, json_pack("{s:i,s:[]}", "x",
	    3, "luns"), 42), 0);
	RUN_UNTIL(base, hb.n == 3 && ha.n == 1, 2000);
	assert_int_equal(hb.n, 3);
	assert_int_equal(hb.type[0], MSG_READY);
	assert_int_equal(hb.x[0], 1);
	assert_int_equal(hb.type[1], MSG_HEARTBEAT);
	assert_int_equal(hb.x[1], 2);
	assert_int_equal(hb.type[2], MSG_SHUTDOWN);
	assert_int_equal(hb.x[2], -1);
	assert_int_equal(ha.n, 1);
	assert_int_equal(ha.type[0], MSG_INFO);
	assert_int_equal(ha.tag[0], 42);
	assert_int_equal(ha.x[0], 3);
	assert_int_equal(link_pending(a), 0);
	link_free(b);
	RUN_UNTIL(base, ha.downs > 0, 2000);
	RUN_UNTIL(base, 0, 50);
	assert_int_equal(ha.downs, 1);
	assert_int_equal(link_send(a, MSG_HEARTBEAT, NULL), -1);
	assert_non_null(link_error(a));
	link_free(a);
	event_base_free(base);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_free_in_dispatch_with_more_frames),
		cmocka_unit_test(test_free_in_dispatch_when_down),
		cmocka_unit_test(test_tell_error),
		cmocka_unit_test(test_max_frame),
		cmocka_unit_test(test_deadline),
		cmocka_unit_test(test_round_trip),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
