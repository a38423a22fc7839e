/* SPDX-License-Identifier: MIT */
/* One daemon session (see remote.h). */
#include "remote.h"

#include <fcntl.h>
#include <netdb.h>
#include <sys/prctl.h>
#include <signal.h>
#include <wordexp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <event2/util.h>
#include <jansson.h>

#include "link.h"
#include "log.h"
#include "mtime.h"
#include "net.h"
#include "ofile.h"
#include "proto.h"
#include "tls.h"
#include "xmalloc.h"

#define REMOTE_DEFAULT_PORT	"5560"
#define REMOTE_CONNECT_S	10	/* the TCP connect */
#define REMOTE_HELLO_S		30	/* then TLS and the AUTH hello: a
					 * daemon out of fds accepts late */
#define REMOTE_DAEMON_AUTH_S	5	/* slave/daemon.c's DAEMON_AUTH_S */

struct remote {
	const struct mhost	**hosts;	/* served by this daemon */
	int			 nhosts;
	char			 label[200];	/* "h1" or "h1,h2" */
	const char		*system;
	struct event_base	*base;
	struct dialing		*dial;		/* until connected */
	struct link		*link;
	struct tls		*tls;
	uint64_t		 connected_ns;	/* the TCP connect ended */
	int			 greeted;	/* its AUTH hello came */
	int			 launched;	/* LAUNCH sent */
	const char		*master_addr;
	int			 master_port;
	char			 connect[300];
	json_t			*slaves;
	remote_done_fn		*done;
	remote_exit_fn		*exited;
	void			*arg;
	int			 started;	/* reported ok */
	int			 connected;	/* its slaves all said HELLO */
	int			 io;		/* they run I/O (remote_io) */
	int			 finished;	/* reported a failure */
};

/*
 * Report: the slaves started (once), and later, or instead, the end of
 * the session (once). A session lost after the start is reported too: its
 * daemon stops the host's slaves when it loses its master.
 */
static void
finish(struct remote *r, int ok, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void
finish(struct remote *r, int ok, const char *fmt, ...)
{
	char text[1024];
	va_list ap;

	if (r->finished || (ok && r->started))
		return;
	if (ok)
		r->started = 1;
	else
		r->finished = 1;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	r->done(r->arg, r, ok, text);
}

/*
 * The session ended. Before the daemon's AUTH hello, say how long after
 * the connect: a daemon drops a master that has not finished its
 * handshake within 5 s, and a close at about that time is this master
 * being late, not a refusal (hosts review 2026-12-04: healthy daemons
 * were blamed on their tokens while the master sat in a connect).
 */
static void
session_lost(struct remote *r)
{
	const char *why = link_error(r->link);
	double s = (double)(mtime_now_ns() - r->connected_ns) / 1e9;

	if (why[0] == '\0')
		why = "it closed the connection";
	if (r->greeted) {
		finish(r, 0, "hd=%s: lost the daemon at %s: %s", r->label,
		    r->system, why);
		return;
	}
	if (strstr(why, "closed") != NULL && s >= REMOTE_DAEMON_AUTH_S - 0.5)
		finish(r, 0, "hd=%s: no session with the daemon at %s: it "
		    "timed out this master after %.1f s (%s): a daemon gives "
		    "a master %d s to finish its handshake, and this one was "
		    "late (stalled or short of CPU); the token was not the "
		    "question", r->label, r->system, s, why,
		    REMOTE_DAEMON_AUTH_S);
	else
		finish(r, 0, "hd=%s: no session with the daemon at %s: %s",
		    r->label, r->system, why);
}

/*
 * The daemon's messages. They arrive only through TLS keyed by the token
 * (a daemon without it cannot finish the handshake), so its AUTH hello
 * shows it knows the token; LAUNCH goes out only after that, and only a
 * reply to our LAUNCH counts.
 */
static void
remote_dispatch(struct link *l, uint16_t type, json_t *body, uint32_t tag,
    void *arg)
{
	struct remote *r = arg;
	const char *step = NULL, *daemon = "?";
	json_t *launch;

	(void)l;
	(void)tag;
	if (body == NULL) {
		session_lost(r);
		return;
	}
	switch (type) {
	case MSG_AUTH:
		json_unpack(body, "{s:s,s?s}", "step", &step, "daemon",
		    &daemon);
		if (strcmp(step, "hello") != 0 || r->greeted) {
			finish(r, 0, "hd=%s: the daemon at %s broke the "
			    "handshake (AUTH step '%.40s')", r->label,
			    r->system, step);
			return;
		}
		r->greeted = 1;
		r->launched = 1;
		link_set_deadline(r->link, NULL, NULL);
		launch = json_pack("{s:s,s:O}", "connect", r->connect,
		    "slaves", r->slaves);
		/* the hd's vdbench=: the daemon checks it names its vdbc */
		if (r->hosts[0]->vdbench != NULL &&
		    r->hosts[0]->vdbench[0] != '\0')
			json_object_set_new(launch, "vdbench",
			    json_string(r->hosts[0]->vdbench));
		link_send(r->link, MSG_LAUNCH, launch);
		break;
	case MSG_LAUNCH: {
		char pids[256] = "";
		size_t i;
		json_t *v;

		if (!r->launched) {
			finish(r, 0, "hd=%s: the daemon at %s answered a LAUNCH "
			    "it was never sent", r->label,
			    r->system);
			return;
		}
		json_array_foreach(json_object_get(body, "slaves"), i, v) {
			size_t n = strlen(pids);

			snprintf(pids + n, sizeof(pids) - n, "%s%lld",
			    i > 0 ? " " : "", (long long)json_integer_value(v));
		}
		finish(r, 1, "hd=%s: the daemon at %s started the slaves "
		    "(pids %s); they dial back to %s over TLS", r->label,
		    r->system, pids, r->connect);
		break;
	}
	case MSG_HEARTBEAT:	/* the daemon drops a master silent for 5 s */
		link_reply(r->link, MSG_HEARTBEAT, json_pack("{s:O,s:b,s:b}",
		    "seq", json_object_get(body, "seq"), "connected",
		    r->connected, "io", r->io), tag);
		break;
	case MSG_LOG: {
		const char *slave = json_string_value(json_object_get(body,
		    "slave"));

		if (slave != NULL && r->started)
			r->exited(r->arg, r, slave, json_string_value(
			    json_object_get(body, "text")));
		break;
	}
	case MSG_ERROR:
		finish(r, 0, "hd=%s: the daemon at %s refused: %s",
		    r->label, r->system,
		    json_string_value(json_object_get(body, "text")));
		break;
	default:
		break;
	}
}

void
remote_connected(struct remote *r)
{
	if (r != NULL)
		r->connected = 1;
}

void
remote_io(struct remote *r, int on)
{
	if (r != NULL)
		r->io = on;
}

/* The address slaves should dial: --master-addr, or ours to the host. */
static void
dial_back(int fd, const char *master_addr, int port, char *buf, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char h[NI_MAXHOST] = "127.0.0.1";

	if (master_addr != NULL)
		snprintf(h, sizeof(h), "%s", master_addr);
	else if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0)
		getnameinfo((struct sockaddr *)&ss, sl, h, sizeof(h), NULL, 0,
		    NI_NUMERICHOST);
	snprintf(buf, len, strchr(h, ':') != NULL ? "[%.250s]:%d" :
	    "%.250s:%d", h, port);
}

/* The TCP connect ended: TLS and the AUTH hello, or why not. */
static void
remote_dialled(int fd, const char *why, void *arg)
{
	struct remote *r = arg;
	struct timeval tv = { REMOTE_HELLO_S, 0 };
	char late[400];

	r->dial = NULL;
	r->connected_ns = mtime_now_ns();
	if (fd < 0) {
		finish(r, 0, "hd=%s: no slave daemon reachable: %s (start "
		    "'vdbc slave --listen ADDR --token-file F' there)",
		    r->label, why);
		return;
	}
	dial_back(fd, r->master_addr, r->master_port, r->connect,
	    sizeof(r->connect));
	log_debug(LOG_NET, "hd=%s: connected to the daemon at %s (fd %d); "
	    "its slave(s) dial back to %s", r->label, r->system, fd,
	    r->connect);
	if ((r->link = link_new_tls(r->base, fd, r->tls, remote_dispatch,
	    r)) == NULL) {
		close(fd);
		finish(r, 0, "hd=%s: out of memory", r->label);
		return;
	}
	/* a tarpit that accepts and never answers TLS is named as one */
	snprintf(late, sizeof(late), "timed out: the daemon accepted the "
	    "connection but finished no TLS handshake and AUTH hello within "
	    "%d s", REMOTE_HELLO_S);
	link_set_deadline(r->link, &tv, late);
	/* Goes out once the TLS handshake is done. */
	link_send(r->link, MSG_AUTH, json_pack("{s:s,s:s,s:i,s:i}", "step",
	    "hello", "version", VDBC_VERSION, "major", PROTO_MAJOR, "minor",
	    PROTO_MINOR));
}

struct remote *
remote_start(struct event_base *base, const struct mhost *const hosts[],
    int nhosts, const uint8_t key[AUTH_KEY_BYTES], const char *master_addr,
    int master_port, char *const names[], char *const cookies[],
    const int cpu[], remote_done_fn *done, remote_exit_fn *exited,
    void *arg, struct errmsg *e)
{
	struct remote *r;
	uint8_t psk[TLS_PSK_BYTES];
	int i, n = 0;

	r = xcalloc(1, sizeof(*r));
	r->hosts = xcalloc((size_t)nhosts, sizeof(*r->hosts));
	memcpy(r->hosts, hosts, (size_t)nhosts * sizeof(*r->hosts));
	r->nhosts = nhosts;
	r->system = hosts[0]->system;
	for (i = 0; i < nhosts; i++) {
		size_t l = strlen(r->label);

		snprintf(r->label + l, sizeof(r->label) - l, "%s%s",
		    i > 0 ? "," : "", hosts[i]->label);
		n += hosts[i]->nslaves;
	}
	r->base = base;
	r->master_addr = master_addr;
	r->master_port = master_port;
	tls_psk_derive(key, AUTH_KEY_BYTES, TLS_LABEL_DAEMON, psk);
	r->tls = tls_client_new(TLS_DAEMON_IDENTITY, psk, e);
	explicit_bzero(psk, sizeof(psk));
	if (r->tls == NULL) {
		free(r->hosts);
		free(r);
		return (NULL);
	}
	r->done = done;
	r->exited = exited;
	r->arg = arg;
	r->slaves = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(r->slaves, json_pack("{s:s,s:s,s:b}",
		    "name", names[i], "cookie", cookies[i], "cpu", cpu[i]));
	/* every daemon is dialled at once: one that does not answer holds
	 * up none of the others (it held the master 10 s in a blocking
	 * connect while the others dropped their sessions) */
	if ((r->dial = net_dial_start(base, r->system, REMOTE_DEFAULT_PORT,
	    REMOTE_CONNECT_S, remote_dialled, r, e)) == NULL) {
		char why[900];

		snprintf(why, sizeof(why), "%.800s", e->text);
		errmsg_set(e, NULL, 0, 0, "hd=%s: no slave daemon reachable: "
		    "%s", r->label, why);
		remote_free(r);
		return (NULL);
	}
	return (r);
}

int
remote_serves(const struct remote *r, const struct mhost *h)
{
	int i;

	for (i = 0; r != NULL && i < r->nhosts; i++)
		if (r->hosts[i] == h)
			return (1);
	return (0);
}

const char *
remote_system(const struct remote *r)
{
	return (r->system);
}

const char *
remote_label(const struct remote *r)
{
	return (r->label);
}

void
remote_free(struct remote *r)
{
	if (r == NULL)
		return;
	net_dial_cancel(r->dial);
	link_free(r->link);
	tls_free(r->tls);
	json_decref(r->slaves);
	free(r->hosts);
	free(r);
}

/* Quote a word for the remote shell: 'it'\''s'. */
static void
shell_quote(const char *w, char *out, size_t len)
{
	size_t n = 0;

	if (len < 3)
		return;
	out[n++] = '\'';
	for (; *w != '\0' && n + 6 < len; w++) {
		if (*w == '\'') {
			memcpy(out + n, "'\\''", 4);
			n += 4;
		} else
			out[n++] = *w;
	}
	out[n++] = '\'';
	out[n] = '\0';
}

pid_t
remote_ssh(const struct mhost *h, const char *ssh_cmd, const char *vdbc,
    const char *connect, const char *name, const char *cookie, int cpu,
    const char *outfile, struct errmsg *e)
{
	char cmd[6000], q[3][1100];
	wordexp_t we;
	char **argv;
	size_t i, n = 0;
	int pp[2], fd;
	pid_t pid;

	if (wordexp(ssh_cmd, &we, WRDE_NOCMD) != 0 || we.we_wordc == 0) {
		errmsg_set(e, NULL, 0, 0, "hd=%s: cannot read the ssh command "
		    "'%s' (--ssh)", h->label, ssh_cmd);
		return (-1);
	}
	shell_quote(vdbc, q[0], sizeof(q[0]));
	shell_quote(connect, q[1], sizeof(q[1]));
	shell_quote(name, q[2], sizeof(q[2]));
	snprintf(cmd, sizeof(cmd), "%s slave --connect %s --name %s "
	    "--cookie-stdin --tls%s", q[0], q[1], q[2], cpu ? " --cpu" : "");
	argv = xcalloc(we.we_wordc + 8, sizeof(char *));
	for (i = 0; i < we.we_wordc; i++)
		argv[n++] = we.we_wordv[i];
	if (h->how == HOST_SSH) {
		argv[n++] = (char *)"-o";
		argv[n++] = (char *)"BatchMode=yes";
	}
	if (h->user != NULL) {
		argv[n++] = (char *)"-l";
		argv[n++] = (char *)h->user;
	}
	argv[n++] = (char *)h->system;
	argv[n++] = cmd;
	argv[n] = NULL;
	if (pipe2(pp, O_CLOEXEC) != 0 || (pid = fork()) < 0) {
		errmsg_set(e, NULL, 0, 0, "hd=%s: cannot start %s: %s",
		    h->label, argv[0], strerror(errno));
		free(argv);
		wordfree(&we);
		return (-1);
	}
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if ((fd = ofile_open(outfile)) >=
		    0) {
			dprintf(fd, "<title>Vdbench %s.stdout.html</title><pre>"
			    "\nstdout/stderr for slave=%s (through %s to %s)\n",
			    name, name, argv[0], h->system);
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		dup2(pp[0], 0);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(pp[0]);
	if (write(pp[1], cookie, strlen(cookie)) < 0 ||
	    write(pp[1], "\n", 1) < 0)
		log_warn("slave %s: cannot hand over its cookie", name);
	close(pp[1]);
	free(argv);
	wordfree(&we);
	return (pid);
}

int
remote_route_addr(const char *system, char *buf, size_t len)
{
	struct addrinfo hints, *res = NULL;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int fd, rc = -1;

	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_DGRAM;
	if (getaddrinfo(system, "9", &hints, &res) != 0)
		return (-1);
	if ((fd = socket(res->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0)) >= 0) {
		if (connect(fd, res->ai_addr, res->ai_addrlen) == 0 &&
		    getsockname(fd, (struct sockaddr *)&ss, &sl) == 0 &&
		    getnameinfo((struct sockaddr *)&ss, sl, buf, (socklen_t)len,
		    NULL, 0, NI_NUMERICHOST) == 0)
			rc = 0;
		close(fd);
	}
	freeaddrinfo(res);
	return (rc);
}

void
remote_vdbc_path(const struct mhost *h, char *buf, size_t len)
{
	ssize_t n;
	size_t l;

	if (h->vdbench != NULL && h->vdbench[0] != '\0') {
		l = strlen(h->vdbench);
		if (l >= 4 && strcmp(h->vdbench + l - 4, "vdbc") == 0)
			snprintf(buf, len, "%s", h->vdbench);
		else
			snprintf(buf, len, "%s%svdbc", h->vdbench,
			    h->vdbench[l - 1] == '/' ? "" : "/");
		return;
	}
	if ((n = readlink("/proc/self/exe", buf, len - 1)) <= 0)
		n = 0;
	buf[n] = '\0';
	if (n == 0)
		snprintf(buf, len, "vdbc");
}
