/* SPDX-License-Identifier: MIT */
/*
 * The slave daemon (see daemon.h). One libevent loop: the listening
 * socket, the connections still authenticating (each on a 5 s clock, at
 * most DAEMON_MAX_UNPROVED of them and DAEMON_PER_SOURCE from one
 * address, frames of at most 64 KiB), at most one authenticated master
 * (lost when silent for 5 s), its slave processes, SIGCHLD. Nothing a
 * client sends can stop the daemon: a bad frame, a wrong proof or a
 * silent peer closes that connection with one log line. Strangers cannot
 * lock the master out: accepting never stops for them; one address over
 * its share is closed at once, and when all slots are taken the oldest
 * stranger of the address holding most makes room.
 */
#include "daemon.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netdb.h>

#include <event2/event.h>
#include <jansson.h>

#include "auth.h"
#include "link.h"
#include "log.h"
#include "mtime.h"
#include "net.h"
#include "proto.h"
#include "tls.h"
#include "xmalloc.h"

#define DAEMON_AUTH_S		5	/* to finish the handshake */
#define DAEMON_KILL_S		10	/* slaves left after their master */
#define DAEMON_MAX_SLAVES	256
#define DAEMON_MAX_UNPROVED	64	/* connections authenticating */
#define DAEMON_PER_SOURCE	8	/* of them from one address */
#define DAEMON_TELL_NS		(10ull * 1000000000u)	/* refusal lines */
#define DAEMON_STRANGER_LINES	10	/* per DAEMON_TELL_NS, then counted */
#define DAEMON_SILENCE_NS	(5ull * 1000000000u)	/* master lost */
/* While its slaves start (until the master's heartbeat answers say they
 * all connected, at most 30 s from LAUNCH): the 30 s the master and its
 * slaves give them to connect. 1,024 slaves starting on the master's own
 * machine stall its loop for seconds; the slaves judge it then. */
#define DAEMON_START_NS		(30ull * 1000000000u)
#define DAEMON_TICK_NS		1000000000ull		/* tick_cb */

struct daemon;

/* One client connection. */
struct client {
	struct daemon		*d;
	struct link		*link;
	struct event		*timer;	/* auth deadline, then close delay */
	char			 peer[128];
	char			 source[128];	/* peer without the port */
	uint64_t		 last_heard_ns;
	uint64_t		 start_ns;	/* authenticated, or LAUNCH */
	int			 io;		/* the master says its slaves
						 * run I/O: 1, 0; -1 unsaid */
	int			 unproved;	/* counted by the listener */
	int			 authed;
	int			 closing;
	TAILQ_ENTRY(client)	 entry;
};
TAILQ_HEAD(clients, client);

struct daemon {
	struct event_base	*base;
	uint8_t			 key[AUTH_KEY_BYTES];
	uint8_t			 psk[TLS_PSK_BYTES];	/* from the token */
	struct tls		*tls;
	int			 lfd;
	struct listener		*listener;
	struct event		*tick_ev;	/* heartbeats, silence */
	uint64_t		 tick_last_ns;	/* when tick_cb last ran */
	uint64_t		 hb_seq;
	struct event		*chld_ev;
	struct event		*sig_ev[2];
	struct event		*kill_ev;
	struct clients		 clients;	/* every connection */
	struct client		*master;	/* the authenticated one */
	char			 master_peer[128];
	unsigned long		 shed;	/* strangers closed unheard */
	uint64_t		 shed_told_ns;	/* ... and last said */
	uint64_t		 window_ns;	/* strangers' lines: this window */
	unsigned int		 window_lines;	/* ... its lines so far */
	unsigned long		 untold;	/* ... and those not logged */
	pid_t			 pids[DAEMON_MAX_SLAVES];
	char			 names[DAEMON_MAX_SLAVES][64];	/* of pids */
	int			 npids;
	char			 exe[4096];
};

static void	client_dispatch(struct link *, uint16_t, json_t *, uint32_t,
		    void *);

/* Slaves of this daemon still running. */
static int
live_slaves(struct daemon *d)
{
	int i, n = 0;

	for (i = 0; i < d->npids; i++)
		n += d->pids[i] > 0;
	return (n);
}

/* Drop a client now. */
static void
client_free(struct client *c)
{
	struct daemon *d = c->d;

	if (d->master == c) {
		d->master = NULL;
		if (live_slaves(d) > 0) {
			struct timeval t = { DAEMON_KILL_S, 0 };

			log_info("master %s gone; its %d slave(s) stop on "
			    "their own (killed in %d s if not)", c->peer,
			    live_slaves(d), DAEMON_KILL_S);
			evtimer_add(d->kill_ev, &t);
		} else
			log_info("master %s gone", c->peer);
	}
	TAILQ_REMOVE(&d->clients, c, entry);
	if (c->unproved)
		listener_done(d->listener);
	if (c->timer != NULL)
		event_free(c->timer);
	link_free(c->link);
	free(c);
}

/*
 * A log line about a client: about one that has not authenticated (a
 * stranger: anyone who reaches the port) at most DAEMON_STRANGER_LINES
 * per DAEMON_TELL_NS, then counted and said once (attacker review
 * 2026-12-04 #17: a line per connection let any host flood the log).
 */
static void client_warn(struct client *, const char *, ...)
    __attribute__((format(printf, 2, 3)));
static void
client_warn(struct client *c, const char *fmt, ...)
{
	struct daemon *d = c->d;
	uint64_t now = mtime_now_ns();
	char text[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (!c->authed) {
		if (d->window_ns == 0 || now - d->window_ns >= DAEMON_TELL_NS) {
			if (d->untold > 0)
				log_warn("%lu more line(s) about unauthenticated "
				    "connections were not logged (at most %d "
				    "per %llu s)", d->untold,
				    DAEMON_STRANGER_LINES, (unsigned long long)(
				    DAEMON_TELL_NS / 1000000000u));
			d->window_ns = now;
			d->window_lines = 0;
			d->untold = 0;
		}
		if (d->window_lines >= DAEMON_STRANGER_LINES) {
			d->untold++;
			return;
		}
		d->window_lines++;
	}
	log_warn("%s", text);
}

/* The close delay ran out, or the handshake took too long. */
static void
client_timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct client *c = arg;

	(void)fd;
	(void)what;
	if (!c->closing)
		client_warn(c, "refused %s: no authentication within %d s",
		    c->peer, DAEMON_AUTH_S);
	client_free(c);
}

/* Say why, then close once it had time to go out. */
static void
client_refuse(struct client *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void
client_refuse(struct client *c, const char *fmt, ...)
{
	struct timeval t = { 0, 300000 };
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	client_warn(c, "refused %s: %s", c->peer, text);
	link_send(c->link, MSG_ERROR, json_pack("{s:s}", "text", text));
	c->closing = 1;
	evtimer_del(c->timer);
	evtimer_add(c->timer, &t);
}

/* Fork one slave; its cookie goes down a pipe on its standard input. */
static pid_t
spawn(struct daemon *d, const char *connect, const char *name,
    const char *cookie, int cpu)
{
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) != 0)
		return (-1);
	if ((pid = fork()) < 0) {
		close(p[0]);
		close(p[1]);
		return (-1);
	}
	if (pid == 0) {
		char *argv[] = { d->exe, (char *)"slave", (char *)"--connect",
		    (char *)connect, (char *)"--name", (char *)name,
		    (char *)"--cookie-stdin", (char *)"--tls",
		    cpu ? (char *)"--cpu" : NULL, NULL };

		dup2(p[0], 0);
		execv(d->exe, argv);
		_exit(127);
	}
	close(p[0]);
	if (write(p[1], cookie, strlen(cookie)) < 0 ||
	    write(p[1], "\n", 1) < 0)
		log_warn("slave %s: cannot hand over its cookie: %s", name,
		    strerror(errno));
	close(p[1]);
	return (pid);
}

/*
 * The hd's vdbench= (a directory, or a path ending in vdbc): vdbench's
 * daemon runs <vdbench>/vdbench, so a wrong one fails there. This daemon
 * starts only its own binary: 0 when vdbench= names it, else -1 and why
 * in why.
 */
static int
vdbench_is_me(const struct daemon *d, const char *vdbench, char *why,
    size_t len)
{
	char path[4200];
	struct stat a, b;
	size_t l = strlen(vdbench);

	if (l >= 4 && strcmp(vdbench + l - 4, "vdbc") == 0)
		snprintf(path, sizeof(path), "%s", vdbench);
	else
		snprintf(path, sizeof(path), "%s%svdbc", vdbench,
		    l > 0 && vdbench[l - 1] == '/' ? "" : "/");
	if (stat(path, &a) != 0) {
		snprintf(why, len, "hd vdbench=%.200s: %.220s: %s (no vdbc "
		    "there on this host)", vdbench, path, strerror(errno));
		return (-1);
	}
	if (stat(d->exe, &b) != 0 || a.st_dev != b.st_dev ||
	    a.st_ino != b.st_ino) {
		snprintf(why, len, "hd vdbench=%.200s: %.220s is not this "
		    "daemon's vdbc (%.220s), and the daemon starts only its "
		    "own binary: name that one or leave vdbench= out", vdbench,
		    path, d->exe);
		return (-1);
	}
	return (0);
}

/* LAUNCH from the authenticated master: start its slaves. */
static void
on_launch(struct client *c, json_t *body, uint32_t tag)
{
	struct daemon *d = c->d;
	json_t *slaves = json_object_get(body, "slaves"), *v, *pids;
	const char *connect = json_string_value(json_object_get(body,
	    "connect"));
	const char *vdbench = json_string_value(json_object_get(body,
	    "vdbench"));
	char why[1024];
	size_t i;

	if (live_slaves(d) > 0) {
		client_refuse(c, "busy: %d slave(s) of an earlier master are "
		    "still running", live_slaves(d));
		return;
	}
	if (vdbench != NULL && vdbench_is_me(d, vdbench, why,
	    sizeof(why)) != 0) {
		client_refuse(c, "%s", why);
		return;
	}
	if (json_array_size(slaves) == 0 || json_array_size(slaves) >
	    DAEMON_MAX_SLAVES) {
		client_refuse(c, "LAUNCH wants 1 to %d slaves",
		    DAEMON_MAX_SLAVES);
		return;
	}
	pids = json_array();
	d->npids = 0;
	json_array_foreach(slaves, i, v) {
		const char *name = NULL, *cookie = NULL;
		int cpu = 0;
		pid_t pid;

		if (json_unpack(v, "{s:s,s:s,s?b}", "name", &name, "cookie",
		    &cookie, "cpu", &cpu) != 0 || strlen(name) > 60 ||
		    strlen(cookie) > 64 || name[0] == '-') {
			client_refuse(c, "LAUNCH: bad slave entry %zu", i);
			json_decref(pids);
			return;
		}
		if ((pid = spawn(d, connect, name, cookie, cpu)) < 0) {
			client_refuse(c, "cannot start slave %s: %s", name,
			    strerror(errno));
			json_decref(pids);
			return;
		}
		snprintf(d->names[d->npids], sizeof(d->names[0]), "%s", name);
		d->pids[d->npids++] = pid;
		json_array_append_new(pids, json_integer(pid));
		log_info("started slave %s (pid %d) for master %s, dialling "
		    "%s", name, (int)pid, c->peer, connect);
	}
	link_reply(c->link, MSG_LAUNCH, json_pack("{s:s,s:o}", "connect",
	    connect, "slaves", pids), tag);
	/* the forks were our time, not the master's silence: 64 of them
	 * took 32 s on a starved host (e2e 22), and the daemon dropped the
	 * master at its next tick for a silence of 30 s */
	c->start_ns = c->last_heard_ns = d->tick_last_ns = mtime_now_ns();
}

/*
 * AUTH hello from a client. It comes through TLS with the key derived
 * from our token, so the client knows the token: the handshake was the
 * proof (nothing can be read before it completes).
 */
static void
on_auth(struct client *c, json_t *body)
{
	struct daemon *d = c->d;
	const char *step = NULL;
	char host[256] = "";

	json_unpack(body, "{s:s}", "step", &step);
	if (strcmp(step, "hello") != 0) {
		client_refuse(c, "authentication: expected AUTH hello, not "
		    "step '%.40s'", step);
		return;
	}
	if (d->master != NULL || live_slaves(d) > 0) {
		client_refuse(c, "busy: serving master %s (one master at a "
		    "time)", d->master != NULL ? d->master->peer :
		    d->master_peer);
		return;
	}
	c->authed = 1;
	c->start_ns = mtime_now_ns();
	c->unproved = 0;
	listener_done(d->listener);
	link_set_max_frame(c->link, PROTO_MAX_LEN);
	c->last_heard_ns = mtime_now_ns();
	d->master = c;
	snprintf(d->master_peer, sizeof(d->master_peer), "%s", c->peer);
	evtimer_del(c->timer);
	evtimer_del(d->kill_ev);
	gethostname(host, sizeof(host));
	link_send(c->link, MSG_AUTH, json_pack("{s:s,s:s,s:s,s:i,s:i}",
	    "step", "hello", "daemon", host, "version", VDBC_VERSION, "major",
	    PROTO_MAJOR, "minor", PROTO_MINOR));
	log_info("master %s authenticated (TLS 1.3, token as PSK)", c->peer);
}

/* Everything a client sends. */
static void
client_dispatch(struct link *l, uint16_t type, json_t *body, uint32_t tag,
    void *arg)
{
	struct client *c = arg;

	(void)l;
	c->last_heard_ns = mtime_now_ns();
	if (body == NULL) {
		if (!c->closing && link_tell_error(c->link) == 0) {
			struct timeval t = { 0, 300000 };

			/* Told with ERROR; closed once that went out. */
			client_warn(c, "closed %s: %s", c->peer,
			    link_error(c->link));
			c->closing = 1;
			evtimer_del(c->timer);
			evtimer_add(c->timer, &t);
			return;
		}
		if (!c->closing && (!c->authed ||
		    strncmp(link_error(c->link), "TLS", 3) == 0))
			client_warn(c, "closed %s: %s", c->peer,
			    link_error(c->link)[0] != '\0' ? link_error(c->link) :
			    "it went away");
		client_free(c);
		return;
	}
	if (c->closing)
		return;
	if (type == MSG_AUTH && !c->authed)
		on_auth(c, body);
	else if (type == MSG_LAUNCH && c->authed)
		on_launch(c, body, tag);
	else if (type == MSG_HEARTBEAT && c->authed) {
		json_t *io = json_object_get(body, "io");

		if (json_is_true(json_object_get(body, "connected")))
			c->start_ns = 0;	/* its slaves are in */
		if (json_is_boolean(io))
			c->io = json_is_true(io) ? 1 : 0;
	}
	else if (type == MSG_ERROR)
		log_warn("%s: %s", c->peer, json_string_value(json_object_get(
		    body, "text")));
	else
		client_refuse(c, "unexpected %s %s authentication",
		    proto_type_name(type), c->authed ? "after" : "before");
}

/*
 * Every second: a heartbeat to the master, which answers it; a master
 * silent for 5 s while its slaves run I/O (its host gone, or hung) is
 * lost and frees the daemon; 30 s else, as the slaves judge it
 * (slave/main.c): a master setting up, writing reports or pausing
 * between runs stalls for seconds when 1,024 slaves start on its
 * machine. A master that does not say "io" in its answers: 5 s once
 * its slaves are in, 30 s while they start (DAEMON_START_NS).
 */
static void
tick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct daemon *d = arg;
	struct client *c = d->master;
	uint64_t now = mtime_now_ns(), late, lim;

	(void)fd;
	(void)what;
	/* Our own loop ran late (this host short of CPU while it starts
	 * slaves, or the daemon stopped): that time is not the master's
	 * silence (issue 18 item 6, the daemon's side). */
	late = d->tick_last_ns != 0 && now - d->tick_last_ns > 2 * DAEMON_TICK_NS ?
	    now - d->tick_last_ns - DAEMON_TICK_NS : 0;
	d->tick_last_ns = now;
	if (c == NULL || c->closing)
		return;
	if (late > 0) {
		c->last_heard_ns = c->last_heard_ns + late > now ? now :
		    c->last_heard_ns + late;
		log_warn("the daemon's loop ran %.1f s late (this host short "
		    "of CPU?); not counted as the master's silence",
		    (double)late / 1e9);
	}
	if (c->io >= 0)
		lim = c->io ? DAEMON_SILENCE_NS : DAEMON_START_NS;
	else
		lim = c->start_ns != 0 && now - c->start_ns < DAEMON_START_NS ?
		    DAEMON_START_NS : DAEMON_SILENCE_NS;
	if (now - c->last_heard_ns > lim) {
		log_warn("master %s silent for %llu s; dropping it", c->peer,
		    (unsigned long long)(lim / 1000000000u));
		client_free(c);
		return;
	}
	link_send(c->link, MSG_HEARTBEAT, json_pack("{s:I}", "seq",
	    (json_int_t)++d->hb_seq));
}

/* Strangers closed unheard: said once per DAEMON_TELL_NS at most. */
static void
shed_tell(struct daemon *d, const char *why)
{
	uint64_t now = mtime_now_ns();

	d->shed++;
	if (d->shed_told_ns != 0 && now - d->shed_told_ns < DAEMON_TELL_NS)
		return;
	log_warn("closed %lu unauthenticated connection(s) unheard, the "
	    "last %s (at most %d authenticating from one address, %d in all; "
	    "said once per %llu s)", d->shed, why, DAEMON_PER_SOURCE,
	    DAEMON_MAX_UNPROVED, (unsigned long long)(DAEMON_TELL_NS /
	    1000000000u));
	d->shed = 0;
	d->shed_told_ns = now;
}

/*
 * All DAEMON_MAX_UNPROVED slots taken: the oldest stranger of the address
 * holding most of them goes (many addresses at once cannot hold the
 * master out for longer than it takes them to renew every slot).
 */
static void
shed_one(struct daemon *d)
{
	struct client *c, *o, *victim = NULL;
	int most = 0, n;

	TAILQ_FOREACH(c, &d->clients, entry) {
		if (!c->unproved || c->closing)
			continue;
		n = 0;
		TAILQ_FOREACH(o, &d->clients, entry)
			n += o->unproved && strcmp(o->source, c->source) == 0;
		if (n > most) {
			most = n;
			victim = c;	/* the list is oldest first */
		}
	}
	if (victim != NULL) {
		char why[200];

		snprintf(why, sizeof(why), "from %s, the oldest of the address "
		    "holding most slots", victim->peer);
		client_free(victim);
		shed_tell(d, why);
	}
}

/* A client connects: TLS with the token's key, then its AUTH hello. */
static void
accept_cb(int fd, const char *peer, void *arg)
{
	struct daemon *d = arg;
	struct timeval t = { DAEMON_AUTH_S, 0 };
	struct linger rst = { 1, 0 };
	struct client *c, *o;
	char source[128];
	int n = 0;

	if (fd < 0) {
		log_warn("cannot accept a connection: %s; trying again in a "
		    "second", strerror(errno));
		return;
	}
	snprintf(source, sizeof(source), "%s", peer);
	if (strrchr(source, ':') != NULL)
		*strrchr(source, ':') = '\0';
	TAILQ_FOREACH(o, &d->clients, entry)
		n += o->unproved && strcmp(o->source, source) == 0;
	if (n >= DAEMON_PER_SOURCE) {
		char why[200];

		/* a reset, not a FIN: nothing kept for it here */
		setsockopt(fd, SOL_SOCKET, SO_LINGER, &rst, sizeof(rst));
		close(fd);
		listener_done(d->listener);
		snprintf(why, sizeof(why), "from %s, which has %d "
		    "authenticating", peer, n);
		shed_tell(d, why);
		return;
	}
	c = xcalloc(1, sizeof(*c));
	c->d = d;
	c->unproved = 1;
	c->io = -1;
	snprintf(c->peer, sizeof(c->peer), "%s", peer);
	snprintf(c->source, sizeof(c->source), "%s", source);
	if ((c->link = link_new_tls(d->base, fd, d->tls, client_dispatch,
	    c)) == NULL) {
		close(fd);
		free(c);
		listener_done(d->listener);
		return;
	}
	TAILQ_INSERT_TAIL(&d->clients, c, entry);
	link_set_max_frame(c->link, LINK_UNPROVED_MAX);
	c->timer = evtimer_new(d->base, client_timer_cb, c);
	evtimer_add(c->timer, &t);
	if (listener_unproved(d->listener) > DAEMON_MAX_UNPROVED)
		shed_one(d);
}

/* Reap slaves. */
static void
chld_cb(evutil_socket_t sig, short what, void *arg)
{
	struct daemon *d = arg;
	pid_t pid;
	int st, i;

	(void)sig;
	(void)what;
	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		char text[200];

		snprintf(text, sizeof(text), "slave pid %d exited (%s %d)",
		    (int)pid, WIFEXITED(st) ? "status" : "signal",
		    WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
		log_info("%s", text);
		for (i = 0; i < d->npids; i++) {
			if (d->pids[i] != pid)
				continue;
			d->pids[i] = 0;
			/* The master hears it at once: a slave that dies
			 * before it dials back is not a 30 s wait there. */
			if (d->master != NULL && !d->master->closing)
				link_send(d->master->link, MSG_LOG, json_pack(
				    "{s:s,s:s,s:s}", "level", "warn", "text",
				    text, "slave", d->names[i]));
		}
	}
	if (live_slaves(d) == 0)
		evtimer_del(d->kill_ev);
}

/* Slaves outliving their master by DAEMON_KILL_S: no orphan load. */
static void
kill_cb(evutil_socket_t fd, short what, void *arg)
{
	struct daemon *d = arg;
	int i;

	(void)fd;
	(void)what;
	for (i = 0; i < d->npids; i++) {
		if (d->pids[i] > 0) {
			log_warn("slave pid %d outlived its master; killing "
			    "it", (int)d->pids[i]);
			kill(d->pids[i], SIGKILL);
		}
	}
}

/* SIGINT/SIGTERM: stop serving; slaves stop when their master goes. */
static void
quit_cb(evutil_socket_t sig, short what, void *arg)
{
	struct daemon *d = arg;

	(void)what;
	log_info("signal %d: the daemon stops", (int)sig);
	event_base_loopexit(d->base, NULL);
}

/* The TLS key of a client identity: only the master's one. */
static int
psk_lookup(const char *identity, uint8_t psk[TLS_PSK_BYTES], void *arg)
{
	struct daemon *d = arg;

	if (strcmp(identity, TLS_DAEMON_IDENTITY) != 0)
		return (-1);
	memcpy(psk, d->psk, TLS_PSK_BYTES);
	return (0);
}

/* "[ADDR][:PORT]" into host (default loopback) and *port (default 5560):
 * 0, or -1 when malformed or the port is not 0 to 65535. */
static int
listen_split(const char *at, char *host, size_t hostlen, int *port)
{
	char p[32] = "";
	int bare;	/* ":PORT" (not a bare IPv6 address like "::1") */
	long v;

	*port = DAEMON_DEFAULT_PORT;
	if (at == NULL)
		return (0);
	bare = at[0] == ':' && strchr(at + 1, ':') == NULL;
	if (bare) {
		if (strlen(at + 1) >= sizeof(p))
			return (-1);
		snprintf(p, sizeof(p), "%s", at + 1);
	} else if (net_split(at, host, hostlen, p, sizeof(p)) != 0)
		return (-1);
	else if (p[0] == '\0')
		return (0);
	if (p[0] == '\0' || strlen(p) > 5 || strspn(p, "0123456789") !=
	    strlen(p))
		return (-1);
	v = strtol(p, NULL, 10);
	if (v > 65535)
		return (-1);
	*port = (int)v;
	return (0);
}

int
daemon_main(const char *listen_at, const char *token_file)
{
	struct timeval one_s = { 1, 0 };
	struct client *c;
	struct daemon d;
	struct errmsg e;
	char host[256] = "127.0.0.1";
	ssize_t n;
	int bound = 0, rc = 1, port = DAEMON_DEFAULT_PORT;

	memset(&d, 0, sizeof(d));
	TAILQ_INIT(&d.clients);
	if (token_file == NULL) {
		fprintf(stderr, "vdbc slave --listen: --token-file FILE is "
		    "required (make one with 'vdbc slave --gen-token FILE')\n");
		return (2);
	}
	if (auth_load_token(token_file, d.key, &e) != 0) {
		fprintf(stderr, "vdbc slave --listen: %s\n", e.text);
		return (2);
	}
	if (listen_split(listen_at, host, sizeof(host), &port) != 0) {
		fprintf(stderr, "vdbc slave --listen: wanted [ADDR][:PORT] with "
		    "a port of 0 to 65535, not '%s'\n", listen_at);
		return (2);
	}
	tls_psk_derive(d.key, sizeof(d.key), TLS_LABEL_DAEMON, d.psk);
	if ((d.tls = tls_server_new(psk_lookup, &d, &e)) == NULL) {
		fprintf(stderr, "vdbc slave --listen: %s\n", e.text);
		return (1);
	}
	if ((n = readlink("/proc/self/exe", d.exe, sizeof(d.exe) - 1)) <= 0) {
		fprintf(stderr, "vdbc slave --listen: cannot find my own "
		    "binary\n");
		return (1);
	}
	d.exe[n] = '\0';
	log_open("daemon", host);
	d.lfd = net_listen(host, port, 64, &bound, &e);
	if (d.lfd < 0) {
		fprintf(stderr, "vdbc slave --listen: %s\n", e.text);
		tls_free(d.tls);
		return (1);
	}
	signal(SIGPIPE, SIG_IGN);
	d.base = event_base_new();
	/* one over the cap: accepting never stops; accept_cb makes room */
	if ((d.listener = listener_new(d.base, d.lfd, DAEMON_MAX_UNPROVED + 1,
	    accept_cb, &d)) == NULL) {
		fprintf(stderr, "vdbc slave --listen: out of memory\n");
		return (1);
	}
	d.tick_ev = event_new(d.base, -1, EV_PERSIST, tick_cb, &d);
	event_add(d.tick_ev, &one_s);
	d.chld_ev = evsignal_new(d.base, SIGCHLD, chld_cb, &d);
	event_add(d.chld_ev, NULL);
	d.sig_ev[0] = evsignal_new(d.base, SIGINT, quit_cb, &d);
	d.sig_ev[1] = evsignal_new(d.base, SIGTERM, quit_cb, &d);
	event_add(d.sig_ev[0], NULL);
	event_add(d.sig_ev[1], NULL);
	d.kill_ev = evtimer_new(d.base, kill_cb, &d);
	printf("vdbc %s slave daemon listening on %s:%d (TLS 1.3, the token "
	    "as pre-shared key; one master at a time; token %s)\n",
	    VDBC_VERSION, host, bound, token_file);
	fflush(stdout);
	if (event_base_dispatch(d.base) == 0)
		rc = 0;
	while ((c = TAILQ_FIRST(&d.clients)) != NULL)
		client_free(c);
	listener_free(d.listener);
	event_free(d.tick_ev);
	event_free(d.chld_ev);
	event_free(d.sig_ev[0]);
	event_free(d.sig_ev[1]);
	event_free(d.kill_ev);
	close(d.lfd);
	event_base_free(d.base);
	tls_free(d.tls);
	explicit_bzero(d.key, sizeof(d.key));
	explicit_bzero(d.psk, sizeof(d.psk));
	return (rc);
}
