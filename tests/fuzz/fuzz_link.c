/*
 * libFuzzer target: a whole peer link as the master holds one, fed any
 * byte stream in pieces. The owner does what master/run.c does with a
 * connection on its slave port: before HELLO a small frame cap and a
 * deadline; any other first frame, a HELLO from a stranger, or a bad
 * frame, and it frees the link inside its dispatch callback (the crash
 * of attacker review #1); HELLO from slave "s0" with cookie "c0" hands
 * the link to a slave owner with the full cap, which answers some
 * frames, and frees it on ERROR or when it goes down. Never crash, never
 * touch a freed link, never leak.
 *
 * Input: byte 0 picks the piece size (1..64 bytes), the rest is the
 * stream; each piece is written and the loop run before the next one.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/util.h>
#include <jansson.h>

#include "link.h"
#include "proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct owner {
	struct link	*link;		/* NULL once freed */
	int		 slave;		/* past HELLO */
	int		 frames;
};

static void	slave_dispatch(struct link *, uint16_t, json_t *, uint32_t,
		    void *);

/* As master/run.c's pending_dispatch. */
static void
pending_dispatch(struct link *l, uint16_t type, json_t *body, uint32_t tag,
    void *arg)
{
	struct owner *o = arg;
	const char *name = "", *cookie = "";

	(void)tag;
	if (l != o->link)
		__builtin_trap();	/* a freed link spoke */
	if (body == NULL || type != MSG_HELLO) {
		link_free(l);
		o->link = NULL;
		return;
	}
	json_unpack(body, "{s:s,s?s}", "slave", &name, "cookie", &cookie);
	if (strcmp(name, "s0") != 0 || strcmp(cookie, "c0") != 0) {
		link_free(l);
		o->link = NULL;
		return;
	}
	o->slave = 1;
	link_set_dispatch(l, slave_dispatch, o);
	link_set_deadline(l, NULL, NULL);
	link_set_max_frame(l, PROTO_MAX_LEN);
	link_send(l, MSG_INFO, json_pack("{s:[s]}", "luns", "/x"));
}

/* As master/run.c's slave_dispatch, in outline. */
static void
slave_dispatch(struct link *l, uint16_t type, json_t *body, uint32_t tag,
    void *arg)
{
	struct owner *o = arg;

	if (l != o->link || !o->slave)
		__builtin_trap();
	o->frames++;
	if (body == NULL || type == MSG_ERROR) {
		link_free(l);
		o->link = NULL;
		return;
	}
	if (type == MSG_HEARTBEAT)
		link_reply(l, MSG_HEARTBEAT, json_deep_copy(body), tag);
	else if (type == MSG_READY)
		link_send(l, MSG_GO, json_pack("{s:I}", "run_id",
		    json_integer_value(json_object_get(body, "run_id"))));
	if (o->frames == 100) {		/* a slave lost mid-stream */
		link_free(l);
		o->link = NULL;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct event_base *base;
	struct timeval t = { 5, 0 };
	struct owner o = { 0 };
	size_t piece, off;
	int sv[2], i;

	if (size < 1)
		return (0);
	if (base == NULL)
		base = event_base_new();
	piece = 1 + data[0] % 64;
	data++;
	size--;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		return (0);
	evutil_make_socket_nonblocking(sv[0]);
	evutil_make_socket_nonblocking(sv[1]);
	if ((o.link = link_new(base, sv[0], pending_dispatch, &o)) == NULL) {
		close(sv[0]);
		close(sv[1]);
		return (0);
	}
	link_set_max_frame(o.link, LINK_UNPROVED_MAX);
	link_set_deadline(o.link, &t, "no HELLO within 5 s");
	for (off = 0; off < size && o.link != NULL; off += piece) {
		size_t n = size - off < piece ? size - off : piece;

		if (write(sv[1], data + off, n) != (ssize_t)n)
			break;
		event_base_loop(base, EVLOOP_NONBLOCK);
	}
	/* The peer hangs up: the owner hears it and frees the link. */
	shutdown(sv[1], SHUT_WR);
	for (i = 0; i < 100 && o.link != NULL; i++)
		event_base_loop(base, EVLOOP_NONBLOCK);
	link_free(o.link);
	close(sv[1]);
	return (0);
}
