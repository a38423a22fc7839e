/*
 * TLS links (proto/tls.c, link_new_tls, link_new_sniff) over socketpairs:
 * the same key talks, another key fails the handshake on both sides, a
 * forged record after the handshake ends the link, and a sniffing server
 * takes plain frames and TLS on one kind of socket.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <signal.h>
#include <unistd.h>

#include <cmocka.h>
#include <event2/event.h>

#include "link.h"
#include "proto.h"
#include "tls.h"

/* What one end of a pair heard. */
struct end {
	struct link	*link;
	int		 got;		/* HEARTBEATs */
	int		 down;
	char		 error[1100];
	int		 echo;		/* answer each HEARTBEAT */
};

static struct event_base *base;
static struct errmsg err;

static void
end_dispatch(struct link *l, uint16_t type, json_t *body, uint32_t tag,
    void *arg)
{
	struct end *x = arg;

	if (body == NULL) {
		x->down = 1;
		snprintf(x->error, sizeof(x->error), "%s", link_error(l));
		return;
	}
	if (type == MSG_HEARTBEAT) {
		x->got++;
		if (x->echo)
			link_reply(l, MSG_HEARTBEAT, json_pack("{s:i}", "seq",
			    2), tag);
	}
}

/* Run the loop until done() or 5 s. */
static void
run_until(int (*done)(struct end *, struct end *), struct end *a,
    struct end *b)
{
	int i;

	for (i = 0; i < 500 && !done(a, b); i++) {
		struct timeval t = { 0, 10000 };

		event_base_loopexit(base, &t);
		event_base_dispatch(base);
	}
}

static int
client_got(struct end *c, struct end *s)
{
	(void)s;
	return (c->got > 0 || c->down);
}

static int
both_down(struct end *c, struct end *s)
{
	return (c->down && s->down);
}

static int
server_down(struct end *c, struct end *s)
{
	(void)c;
	return (s->down);
}

static uint8_t key_a[TLS_PSK_BYTES], key_b[TLS_PSK_BYTES];

/* The server's key for identity "slave-1" is key_a; others unknown. */
static int
lookup(const char *identity, uint8_t psk[TLS_PSK_BYTES], void *arg)
{
	(void)arg;
	if (strcmp(identity, "slave-1") != 0)
		return (-1);
	memcpy(psk, key_a, TLS_PSK_BYTES);
	return (0);
}

static int
setup(void **state)
{
	(void)state;
	base = event_base_new();
	tls_psk_derive("cookie-a", 8, TLS_LABEL_SLAVE, key_a);
	tls_psk_derive("cookie-b", 8, TLS_LABEL_SLAVE, key_b);
	return (base == NULL);
}

static int
teardown(void **state)
{
	(void)state;
	event_base_free(base);
	return (0);
}

/* A pair: server (sniffing or TLS) on sv[0], client on sv[1]. */
static void
pair(struct tls *st, struct tls *ct, int sniff, struct end *s, struct end *c,
    int fds[2])
{
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0,
	    fds), 0);
	s->echo = 1;
	s->link = sniff ? link_new_sniff(base, fds[0], st, end_dispatch, s) :
	    link_new_tls(base, fds[0], st, end_dispatch, s);
	c->link = ct != NULL ? link_new_tls(base, fds[1], ct, end_dispatch,
	    c) : link_new(base, fds[1], end_dispatch, c);
	assert_non_null(s->link);
	assert_non_null(c->link);
}

static void
test_same_key_talks(void **state)
{
	struct tls *st = tls_server_new(lookup, NULL, &err);
	struct tls *ct = tls_client_new("slave-1", key_a, &err);
	struct end s = { 0 }, c = { 0 };
	int fds[2];

	(void)state;
	pair(st, ct, 0, &s, &c, fds);
	link_send(c.link, MSG_HEARTBEAT, json_pack("{s:i}", "seq", 1));
	run_until(client_got, &c, &s);
	assert_int_equal(c.down, 0);
	assert_int_equal(s.got, 1);
	assert_int_equal(c.got, 1);
	assert_true(link_is_tls(c.link) && link_is_tls(s.link));
	link_free(c.link);
	link_free(s.link);
	tls_free(ct);
	tls_free(st);
}

static void
test_wrong_key_fails_both_sides(void **state)
{
	struct tls *st = tls_server_new(lookup, NULL, &err);
	struct tls *ct = tls_client_new("slave-1", key_b, &err);
	struct end s = { 0 }, c = { 0 };
	int fds[2];

	(void)state;
	pair(st, ct, 0, &s, &c, fds);
	link_send(c.link, MSG_HEARTBEAT, json_pack("{s:i}", "seq", 1));
	run_until(both_down, &c, &s);
	assert_int_equal(s.got, 0);
	assert_int_equal(c.got, 0);
	assert_true(s.down && c.down);
	assert_non_null(strstr(s.error, "TLS handshake failed: binder does "
	    "not verify"));
	assert_non_null(strstr(c.error, "TLS handshake failed"));
	link_free(c.link);
	link_free(s.link);
	tls_free(ct);
	tls_free(st);
}

/* A peer that closes during the handshake without an alert (a daemon
 * whose 5 s for it ran out): said so, the token not blamed. */
static void
test_closed_in_handshake_blames_no_key(void **state)
{
	struct tls *ct = tls_client_new("slave-1", key_a, &err);
	struct end c = { 0 };
	int fds[2];

	(void)state;
	signal(SIGPIPE, SIG_IGN);	/* as the master and the daemon */
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0,
	    fds), 0);
	c.link = link_new_tls(base, fds[1], ct, end_dispatch, &c);
	assert_non_null(c.link);
	link_send(c.link, MSG_HEARTBEAT, json_pack("{s:i}", "seq", 1));
	close(fds[0]);
	run_until(client_got, &c, &c);
	assert_true(c.down);
	assert_non_null(strstr(c.error, "TLS handshake failed"));
	assert_non_null(strstr(c.error, "before the handshake ended"));
	assert_null(strstr(c.error, "token"));
	link_free(c.link);
	tls_free(ct);
}

static void
test_unknown_identity_fails(void **state)
{
	struct tls *st = tls_server_new(lookup, NULL, &err);
	struct tls *ct = tls_client_new("slave-2", key_a, &err);
	struct end s = { 0 }, c = { 0 };
	int fds[2];

	(void)state;
	pair(st, ct, 0, &s, &c, fds);
	link_send(c.link, MSG_HEARTBEAT, json_pack("{s:i}", "seq", 1));
	run_until(both_down, &c, &s);
	assert_int_equal(s.got, 0);
	assert_true(s.down && c.down);
	assert_non_null(strstr(c.error, "TLS handshake failed"));
	link_free(c.link);
	link_free(s.link);
	tls_free(ct);
	tls_free(st);
}

/* A record written around the client's TLS: the server refuses it. */
static void
test_forged_record_ends_link(void **state)
{
	static const uint8_t rec[] = { 0x17, 0x03, 0x03, 0x00, 0x20,
	    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	    17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32 };
	struct tls *st = tls_server_new(lookup, NULL, &err);
	struct tls *ct = tls_client_new("slave-1", key_a, &err);
	struct end s = { 0 }, c = { 0 };
	int fds[2];

	(void)state;
	pair(st, ct, 1, &s, &c, fds);
	link_send(c.link, MSG_HEARTBEAT, json_pack("{s:i}", "seq", 1));
	run_until(client_got, &c, &s);
	assert_int_equal(c.got, 1);
	assert_int_equal(write(fds[1], rec, sizeof(rec)), (int)sizeof(rec));
	run_until(server_down, &c, &s);
	assert_true(s.down);
	assert_int_equal(s.got, 1);
	assert_non_null(strstr(s.error, "TLS: decryption failed or bad "
	    "record mac"));
	link_free(c.link);
	link_free(s.link);
	tls_free(ct);
	tls_free(st);
}

/* A sniffing server: plain frames stay plain, TLS becomes TLS. */
static void
test_sniff_plain_and_tls(void **state)
{
	struct tls *st = tls_server_new(lookup, NULL, &err);
	struct tls *ct = tls_client_new("slave-1", key_a, &err);
	struct end s = { 0 }, c = { 0 }, s2 = { 0 }, c2 = { 0 };
	int fds[2], fds2[2];

	(void)state;
	pair(st, NULL, 1, &s, &c, fds);
	link_send(c.link, MSG_HEARTBEAT, json_pack("{s:i}", "seq", 1));
	run_until(client_got, &c, &s);
	assert_int_equal(c.got, 1);
	assert_false(link_is_tls(s.link));
	pair(st, ct, 1, &s2, &c2, fds2);
	link_send(c2.link, MSG_HEARTBEAT, json_pack("{s:i}", "seq", 1));
	run_until(client_got, &c2, &s2);
	assert_int_equal(c2.got, 1);
	assert_true(link_is_tls(s2.link));
	link_free(c.link);
	link_free(s.link);
	link_free(c2.link);
	link_free(s2.link);
	tls_free(ct);
	tls_free(st);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_key_talks),
		cmocka_unit_test(test_wrong_key_fails_both_sides),
		cmocka_unit_test(test_unknown_identity_fails),
		cmocka_unit_test(test_closed_in_handshake_blames_no_key),
		cmocka_unit_test(test_forged_record_ends_link),
		cmocka_unit_test(test_sniff_plain_and_tls),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
