/* SPDX-License-Identifier: MIT */
/*
 * The master's view of one slave (tmux's server-client.c): connections
 * until HELLO, a known slave's messages, its silence timer, its loss, and
 * its per-WG state for the run's interval deltas.
 */
#include "run_int.h"
#include "intervals.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "auth.h"
#include "clockprobe.h"
#include "console.h"
#include "dvend.h"
#include "hist.h"
#include "hosts.h"
#include "iostats.h"
#include "link.h"
#include "log.h"
#include "mtime.h"
#include "merge.h"
#include "net.h"
#include "place.h"
#include "proto.h"
#include "skewsync.h"
#include "remote.h"
#include "report.h"
#include "results.h"
#include "tls.h"
#include "xmalloc.h"

static void	slaves_stop(struct master *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static int	live_count(const struct master *);
static int	remote_sessions(const struct master *);
static void	slave_gone_continue(struct master *);
static void	on_run_end(struct mslave *);
static uint64_t	silence_ns(const struct master *);
static void	silence_arm(struct mslave *, uint64_t);

/* Tell the run driver to stop everything, and why. */
static void
slaves_stop(struct master *m, const char *fmt, ...)
{
	char text[RUN_STOP_TEXT];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	m->cb->stop(m, text);
}

/* Send to every slave still there. */
void
send_all(struct master *m, uint16_t type, json_t *body, int only_active)
{
	int i;

	for (i = 0; i < m->nslaves; i++) {
		struct mslave *s = &m->sl[i];

		if (s->link == NULL || slave_out(s) ||
		    (only_active && !s->active))
			continue;
		link_send(s->link, type, json_deep_copy(body));
	}
	json_decref(body);
}

/*
 * heartbeat_error= (PARMFILE.md 4): vdbench runs the command when a
 * slave's heartbeat is missed; vdbc runs it for each slave it loses
 * (silent, gone or broken), on the master, before the run goes on or
 * stops. Its output goes to the console and logfile.html.
 */
static void
heartbeat_error(struct master *m, const struct mslave *s, const char *why)
{
	const struct strlist *v = &m->model->general.heartbeat_error;
	struct strlist cmd = { 0, NULL, 0 };
	int i;

	if (v->n == 0)
		return;
	console_line("heartbeat_error: slave %s (host %s): %s", s->name,
	    m->hosts[s->host].label, why);
	for (i = 0; i < v->n; i++)
		strlist_add(&cmd, v->v[i]);
	strlist_add(&cmd, "cons");
	general_cmd("heartbeat_error", &cmd, m->o->outdir);
	strlist_clear(&cmd);
}

/*
 * --on-slave-loss=continue: a slave is gone, the others go on; what was
 * waiting for it may be complete now.
 */
static void
slave_gone_continue(struct master *m)
{
	int i, all = 1;

	if (!active_any(m) && (m->state == M_RUNNING ||
	    m->state == M_SETUP)) {
		slaves_stop(m, "Every slave of run %s is lost", m->cur.name);
		return;
	}
	switch (m->state) {
	case M_SETUP:
		for (i = 0; i < m->nslaves; i++)
			all &= !m->sl[i].active || slave_out(&m->sl[i]) ||
			    m->sl[i].state != SLAVE_SETUP;
		if (all)
			m->cb->ready(m);
		break;
	case M_RUNNING:
		print_ready_intervals(m);
		break;
	case M_STOPPING:
		m->cb->run_end(m);
		break;
	default:
		break;
	}
}

/* What a lost slave is called in the stop message: name, pid, host. */
static void
lost_text(const struct mslave *s, const char *why, char *buf, size_t len)
{
	const struct master *m = s->m;

	if (m->hosts[s->host].how == HOST_LOCAL && m->nhosts == 1)
		snprintf(buf, len, "Slave %s (pid %d) lost: %s", s->name,
		    (int)s->pid, why);
	else if (m->hosts[s->host].how == HOST_LOCAL)
		snprintf(buf, len, "Slave %s (pid %d) of host %s lost: %s",
		    s->name, (int)s->pid, m->hosts[s->host].label, why);
	else
		snprintf(buf, len, "Slave %s (pid %d) on host %s (%s) lost: %s",
		    s->name, s->remote_pid, m->hosts[s->host].label,
		    m->hosts[s->host].system, why);
}

/* A lost slave in a list of several: name, pid, host. */
static void
lost_who(const struct mslave *s, char *buf, size_t len)
{
	const struct master *m = s->m;

	if (m->hosts[s->host].how == HOST_LOCAL && m->nhosts == 1)
		snprintf(buf, len, "%s (pid %d)", s->name, (int)s->pid);
	else if (m->hosts[s->host].how == HOST_LOCAL)
		snprintf(buf, len, "%s (pid %d) of host %s", s->name,
		    (int)s->pid, m->hosts[s->host].label);
	else
		snprintf(buf, len, "%s (pid %d) on host %s (%s)", s->name,
		    s->remote_pid, m->hosts[s->host].label,
		    m->hosts[s->host].system);
}

/*
 * Several lost slaves, grouped by why: "a (pid 1), b (pid 2): silent for
 * too long (no heartbeat); c (pid 3): connection closed by the peer".
 */
static char *
lost_list(struct master *m)
{
	char *text = xstrdup(""), *t, who[600];
	int i, j;

	for (i = 0; i < m->nslaves; i++) {
		const struct mslave *s = &m->sl[i];

		if (!s->losing || s->state == SLAVE_LOST)
			continue;
		for (j = i; j < m->nslaves; j++) {
			struct mslave *o = &m->sl[j];

			if (!o->losing || o->state == SLAVE_LOST ||
			    strcmp(o->lost_why, s->lost_why) != 0)
				continue;
			o->state = SLAVE_LOST;	/* named */
			lost_who(o, who, sizeof(who));
			xasprintf(&t, "%s%s%s", text, text[0] == '\0' ? "" :
			    j == i ? "; " : ", ", who);
			free(text);
			text = t;
		}
		xasprintf(&t, "%s: %s", text, s->lost_why);
		free(text);
		text = t;
	}
	return (text);
}

/*
 * The slaves lost within RUN_LOSS_GATHER_NS of the first: one event, one
 * stop naming every one of them with its host (and the master's own
 * stall first when there was one: its slaves stop after 5 s without a
 * word from it).
 */
static void
loss_cb(evutil_socket_t fd, short what, void *arg)
{
	struct master *m = arg;
	char one[1024], late[400], *text;
	int i, nlost = 0, first = -1;

	(void)fd;
	(void)what;
	if (m->aborting)
		return;
	for (i = 0; i < m->nslaves; i++) {
		if (m->sl[i].losing) {
			nlost++;
			first = first < 0 ? i : first;
		}
	}
	if (nlost == 0)
		return;
	if (nlost == 1) {
		lost_text(&m->sl[first], m->sl[first].lost_why, one,
		    sizeof(one));
		text = xstrdup(one);
	} else {
		char *list = lost_list(m);

		xasprintf(&text, "%d slaves lost: %s", nlost, list);
		free(list);
	}
	for (i = 0; i < m->nslaves; i++) {
		if (m->sl[i].losing) {
			m->sl[i].losing = 0;
			m->sl[i].state = SLAVE_LOST;
		}
	}
	if (m->cb->stalled(m, late, sizeof(late)))
		slaves_stop(m, "%s. %s", late, text);
	else
		m->cb->stop(m, text);
	free(text);
}

/*
 * A slave is gone: that stops the run on all the others. The stop waits
 * RUN_LOSS_GATHER_NS for the other slaves lost at about the same time (a
 * host down, several slaves stopped) so that it names them all; until
 * then the slave counts as there, so no interval is printed without it.
 */
void
slave_lost(struct mslave *s, const char *why)
{
	struct master *m = s->m;
	char stall[400];

	if (slave_out(s) || s->losing)
		return;
	clockprobe_lost(m, s);
	m->cb->late(m);		/* a stall of our own is said first */
	if (m->aborting || m->state == M_SHUTDOWN) {
		s->state = SLAVE_LOST;	/* we told it to go, or stopping */
		if (m->state == M_SHUTDOWN && live_count(m) == 0 &&
		    !remote_sessions(m))
			event_base_loopexit(m->base, NULL);
		return;
	}
	heartbeat_error(m, s, why);
	/* vdbench's words for a slave whose connection ended (SlaveSocket:
	 * its EOFException; v3_journal_kill) before vdbc's own line; a
	 * reset (the master was writing to it) is the same death */
	if (strcmp(why, "connection closed by the peer") == 0 ||
	    strcmp(why, "connection error") == 0) {
		console_line("%s", "");
		console_line("Receiving unexpected EOFException from slave: %s",
		    s->name);
		console_line("This means that this slave terminated "
		    "prematurely.");
		console_line("%s", "");
	}
	/* A stall of the master's own loses every slave (they stop after 5 s
	 * without a word from it): that is the stop below, naming the
	 * stall and them all, not a loss to go on without. */
	if (m->o->loss_continue && live_count(m) > 1 &&
	    !m->cb->stalled(m, stall, sizeof(stall)) &&
	    (m->state == M_RUNNING || m->state == M_SETUP ||
	    m->state == M_STOPPING || m->state == M_PAUSE)) {
		char text[1024];
		char *names;

		s->state = SLAVE_LOST;
		snprintf(text, sizeof(text), "Slave %s (host %s) lost: %s; "
		    "going on without it (--on-slave-loss=continue): every "
		    "later interval lacks its I/O", s->name,
		    m->hosts[s->host].label, why);
		console_line("%s", text);
		report_error(m->rep, text);
		xasprintf(&names, "%s%s%s", m->lost_names, m->lost_names[0] !=
		    '\0' ? "," : "", s->name);
		free(m->lost_names);
		m->lost_names = names;
		/* Should it wake up (SIGSTOP, a stalled network): stop it. */
		link_send(s->link, MSG_SHUTDOWN, NULL);
		if (s->pid > 0)
			kill(s->pid, SIGKILL);
		slave_gone_continue(m);
		return;
	}
	s->losing = 1;
	snprintf(s->lost_why, sizeof(s->lost_why), "%s", why);
	{
		char one[1024];

		lost_text(s, why, one, sizeof(one));
		console_line("%s; stopping the run", one);
	}
	if (m->loop.loss_ev == NULL)
		m->loop.loss_ev = evtimer_new(m->base, loss_cb, m);
	if (!evtimer_pending(m->loop.loss_ev, NULL)) {
		struct timeval t = { RUN_LOSS_GATHER_NS / 1000000000u,
		    RUN_LOSS_GATHER_NS % 1000000000u / 1000u };

		evtimer_add(m->loop.loss_ev, &t);
	}
}

/* Slaves not lost. */
static int
live_count(const struct master *m)
{
	int i, n = 0;

	for (i = 0; i < m->nslaves; i++)
		n += !slave_out(&m->sl[i]);
	return (n);
}

/*
 * Sessions with slave daemons (hd= shell=vdbench): at the end the master
 * keeps its 1 s for what it still writes to them (master_leave).
 */
static int
remote_sessions(const struct master *m)
{
	int i;

	for (i = 0; m->launch.remotes != NULL && i < m->nhosts; i++)
		if (m->launch.remotes[i] != NULL)
			return (1);
	return (0);
}

/* Number of slaves taking part in the current run. */
int
active_count(const struct master *m)
{
	int i, n = 0;

	for (i = 0; i < m->nslaves; i++)
		n += m->sl[i].active && !slave_out(&m->sl[i]);
	return (n);
}

int
active_any(const struct master *m)
{
	int i;

	for (i = 0; i < m->nslaves; i++)
		if (m->sl[i].active && !slave_out(&m->sl[i]))
			return (1);
	return (0);
}

/* RUN_END from a slave. */
static void
on_run_end(struct mslave *s)
{
	s->state = SLAVE_ENDED;
	s->m->cb->run_end(s->m);
}

/* Free a slave's per-WG state of the last run. */
void
slave_wg_free(struct mslave *s)
{
	free(s->prev);
	free(s->wg_keys);
	json_decref(s->wgs);
	s->wgs = NULL;
	s->prev = NULL;
	s->wg_keys = NULL;
	s->nwgs = 0;
}

/* Per-WG state for a run: previous counters and the WG's report keys. */
void
slave_wg_alloc(struct master *m, struct mslave *s, const json_t *wgs)
{
	const json_t *g;
	size_t i;

	s->nwgs = (int)json_array_size(wgs);
	s->wgs = json_incref((json_t *)wgs);
	s->prev = xcalloc((size_t)s->nwgs + 1, sizeof(*s->prev));
	s->wg_keys = xcalloc(MERGE_KEYS_PER_WG * (size_t)s->nwgs + 1,
	    sizeof(int));
	json_array_foreach(wgs, i, g) {
		const char *wd = json_string_value(json_object_get(g, "wd"));
		const char *sdn = json_string_value(json_object_get(g, "sd"));
		const struct sd *sd = sdn != NULL ? model_find_sd(m->model,
		    sdn) : NULL;
		int *k = &s->wg_keys[MERGE_KEYS_PER_WG * i];

		if (json_object_get(g, "fwd") != NULL) {
			k[0] = 0;
			k[1] = m->keys.hosts[s->host];
			k[2] = m->keys.slave[s->id];
			k[3] = fs_key(m, "fsd", json_string_value(
			    json_object_get(g, "fsd")));
			k[4] = fs_key(m, "fwd", json_string_value(
			    json_object_get(g, "fwd")));
			k[5] = k[6] = -1;
			continue;
		}
		k[0] = 0;
		k[1] = m->keys.hosts[s->host];
		k[2] = m->keys.slave[s->id];
		k[3] = sd != NULL ? m->keys.sd[sd_index(m->model, sd)] : -1;
		k[4] = wd != NULL ? wd_key(m, wd) : -1;
		k[5] = sd != NULL && m->keys.hostsd != NULL ?
		    m->keys.hostsd[s->host * m->keys.nsds +
		    sd_index(m->model, sd)] : -1;
		k[6] = sd != NULL && m->keys.slavesd != NULL ?
		    m->keys.slavesd[s->id * m->keys.nsds + sd_index(m->model,
		    sd)] : -1;
	}
}

/* One message from a known slave. */
static void
slave_dispatch(struct link *l, uint16_t type, json_t *body, uint32_t tag,
    void *arg)
{
	struct mslave *s = arg;
	struct master *m = s->m;
	const char *text = "", *level = "";
	int i;

	(void)tag;
	if (body == NULL) {
		slave_lost(s, link_error(l));
		return;
	}
	if (slave_out(s) || s->losing)
		return;			/* given up on */
	s->last_heard_ns = mtime_now_ns();
	switch (type) {
	case MSG_HEARTBEAT:
		clockprobe_reply(m, s, body);
		break;
	case MSG_INFO:
		if (m->state == M_INFO && s->id == m->hosts[s->host].first &&
		    json_array_get(m->pre.info, (size_t)s->host) == json_null()) {
			json_array_set(m->pre.info, (size_t)s->host,
			    json_object_get(body, "luns"));
			if (--m->pre.info_waiting == 0)
				m->cb->info(m);
		}
		break;
	case MSG_READY:
		if (m->state != M_SETUP || s->state != SLAVE_SETUP)
			break;
		if (!m->keys.anchors_first && m->keys.anchors >= 0 &&
		    json_object_get(body, "anchors") != NULL) {
			/* the state before any run */
			m->keys.anchors_first = 1;
			anchor_rows(m, json_object_get(body, "anchors"));
		}
		s->state = SLAVE_READY;
		cpu_baseline(s, json_object_get(body, "cpu"));
		for (i = 0; i < m->nslaves; i++) {
			if (m->sl[i].active && !slave_out(&m->sl[i]) &&
			    m->sl[i].state == SLAVE_SETUP)
				return;
		}
		m->cb->ready(m);
		break;
	case MSG_INTERVAL:
		on_interval(s, body);
		break;
	case MSG_SKEW: {
		char why[256];

		if (skewsync_report(m->cur.sync, s->id, body, s->last_heard_ns,
		    why, sizeof(why)) != 0)
			slaves_stop(m, "Slave %s: %s", s->name, why);
		break;
	}
	case MSG_RUN_END:
		if (m->state == M_STOPPING && s->active &&
		    !m->keys.anchors_row && m->keys.anchors >= 0 &&
		    json_object_get(body, "anchors") != NULL) {
			/* one slave's view will do */
			m->keys.anchors_row = 1;
			anchor_rows(m, json_object_get(body, "anchors"));
		}
		if (m->state == M_STOPPING && s->active)
			on_run_end(s);
		break;
	case MSG_ERROR: {
		const char *kind = NULL;

		json_unpack(body, "{s:s,s?s}", "text", &text, "kind", &kind);
		if (kind != NULL && dvend_error(m, s, kind, text))
			break;		/* vdbench's form (dvend.c) */
		slaves_stop(m, "Slave %s: %s", s->name, text);
		break;
	}
	case MSG_LOG:
		json_unpack(body, "{s:s,s:s}", "level", &level, "text", &text);
		/* data validation's record of the line: results.json */
		if (json_is_object(json_object_get(body, "dv")))
			results_dv(m->res, s->name, m->cur.plan_run != NULL ?
			    m->cur.plan_run->rd->name : "",
			    json_object_get(body, "dv"));
		if (text[0] == '\0' && json_object_get(body, "dv") != NULL)
			break;		/* a record without a line */
		/* errors, reports and data validation (dvend.c) */
		if (!dvend_log(m, s, level, text))
			console_line("%s: %s", s->name, text);
		break;
	default:
		slaves_stop(m, "Slave %s sent an unexpected %s", s->name,
		    proto_type_name(type));
		break;
	}
}

/* A connection is no longer pending (its link is freed or handed on). */
void
pending_done(struct pending *p)
{
	struct master *m = p->m;

	TAILQ_REMOVE(&m->launch.pending, p, entry);
	if (p->hello_ev != NULL)
		event_free(p->hello_ev);
	free(p);
	listener_done(m->launch.listener);
}

/* A connection that has not said HELLO yet. */
static void
pending_dispatch(struct link *l, uint16_t type, json_t *body, uint32_t tag,
    void *arg)
{
	struct pending *p = arg;
	struct master *m = p->m;
	const char *name = "", *cookie = NULL;
	json_int_t pid = 0, clock_ns = 0;
	int major = 0, minor = -1, i, all = 1;

	(void)tag;
	if (body == NULL || type != MSG_HELLO) {
		console_line("vdbc: closed a connection from %s before HELLO: "
		    "%s", p->peer, body != NULL ? "it spoke first" :
		    link_error(l)[0] != '\0' ? link_error(l) : "it went away");
		link_free(l);
		pending_done(p);
		return;
	}
	json_unpack(body, "{s:i,s:i,s:s,s:I,s:I,s?s}", "major", &major,
	    "minor", &minor, "slave", &name, "pid", &pid, "clock_wall_ns",
	    &clock_ns, "cookie", &cookie);
	for (i = 0; i < m->nslaves; i++) {
		struct mslave *s = &m->sl[i];

		if (strcmp(s->name, name) != 0)
			continue;
		if (m->hosts[s->host].how != HOST_LOCAL && !link_is_tls(l)) {
			console_line("vdbc: closed a connection from %s: HELLO "
			    "as slave %s of another host without TLS", p->peer,
			    name);
			break;
		}
		if (m->launch.local_tls && !link_is_tls(l)) {
			console_line("vdbc: closed a connection from %s: HELLO "
			    "as slave %s without TLS (the port is open beyond "
			    "loopback)", p->peer, name);
			break;
		}
		if (s->state != SLAVE_CONNECTING)
			continue;
		if (cookie == NULL || strcmp(cookie, s->cookie) != 0) {
			console_line("vdbc: closed a connection from %s: HELLO "
			    "as slave %s without its cookie", p->peer, name);
			break;
		}
		if (major != PROTO_MAJOR || minor != PROTO_MINOR) {
			char text[512];

			/* 1.3 changed the WORK and INTERVAL bodies: an older
			 * slave would run I/O, then fail its first INTERVAL */
			snprintf(text, sizeof(text), "Slave %s on host %s "
			    "speaks protocol %d.%d; this master speaks %d.%d: "
			    "install the same vdbc version on every host",
			    name, m->hosts[s->host].label, major, minor,
			    PROTO_MAJOR, PROTO_MINOR);
			link_free(l);
			pending_done(p);
			m->cb->stop(m, text);
			return;
		}
		s->state = SLAVE_IDLE;
		s->link = l;
		if (s->pid <= 0)
			s->remote_pid = (int)pid;
		{
			char st[128];

			snprintf(st, sizeof(st), "Slave %s (pid %6d) connected "
			    "to master %d", s->name, (int)pid, (int)getpid());
			report_status(m->rep, st, NULL, NULL);
		}
		s->last_heard_ns = mtime_now_ns();
		silence_arm(s, silence_ns(m));
		link_set_dispatch(l, slave_dispatch, s);
		link_set_max_frame(l, PROTO_MAX_LEN);
		pending_done(p);
		clockprobe_start(m, s);
		for (i = 0; i < m->nslaves; i++)
			all &= m->sl[i].link != NULL;
		if (all && m->state == M_CONNECT) {
			int h;

			console_line("All slaves are now connected");
			clockprobe_all_connected(m);
			for (h = 0; h < m->nhosts; h++)
				if (m->launch.remotes != NULL)
					remote_connected(m->launch.remotes[h]);
			report_status(m->rep, "Slaves connected", NULL, NULL);
			report_status(m->rep, "Query host configuration started",
			    NULL, NULL);
			m->state = M_INFO;
			m->state_since_ns = mtime_now_ns();
			m->pre.info = json_array();
			m->pre.info_waiting = m->nhosts;
			/* Slave 0 of each host looks at that host's luns. */
			for (h = 0; h < m->nhosts; h++) {
				json_t *luns = json_array();
				const struct sd *sd;

				json_array_append_new(m->pre.info, json_null());
				TAILQ_FOREACH(sd, &m->model->sds, entry) {
					const char *lun = place_sd_lun(sd,
					    m->hosts[h].label);

					if (lun != NULL)
						json_array_append_new(luns,
						    json_string(lun));
				}
				link_send(m->sl[m->hosts[h].first].link,
				    MSG_INFO, json_pack("{s:o}", "luns", luns));
			}
		}
		return;
	}
	if (i == m->nslaves)
		log_warn("HELLO from unknown slave '%s'; closing it", name);
	link_free(l);
	pending_done(p);
}

/* The TLS key of a slave dialling back over TLS: from its cookie
 * (remote slaves; local ones too when the port is open beyond loopback). */
int
slave_psk(const char *identity, uint8_t psk[TLS_PSK_BYTES], void *arg)
{
	struct master *m = arg;
	int i;

	for (i = 0; i < m->nslaves; i++) {
		const struct mslave *s = &m->sl[i];

		if (strcmp(s->name, identity) == 0 &&
		    s->state == SLAVE_CONNECTING &&
		    (m->hosts[s->host].how != HOST_LOCAL ||
		    m->launch.local_tls)) {
			tls_psk_derive(s->cookie, strlen(s->cookie),
			    TLS_LABEL_SLAVE, psk);
			return (0);
		}
	}
	return (-1);
}

/*
 * How long a connection may take to say HELLO: RUN_HELLO_S, and
 * RUN_CONNECT_HELLO_S while the run's slaves connect. Slaves starting on
 * a starved machine took over 5 s from connect to HELLO (the TLS
 * handshake in a process that gets one share in a thousand: e2e 22's
 * 1,024), and the master closed them; strangers arriving then wait for
 * a slot of RUN_MAX_UNPROVED in the kernel's queue, as at any time.
 */
static int
hello_limit_s(const struct master *m)
{
	return (m->state == M_CONNECT ? RUN_CONNECT_HELLO_S : RUN_HELLO_S);
}

/*
 * A stranger's hello_limit_s are up: closed, unless the master's own
 * loop stalled meanwhile (1,024 slaves starting on the master's
 * machine): then its time counts from the end of the stall, as a slave's
 * silence does, and it waits on.
 */
static void
pending_hello_cb(evutil_socket_t fd, short what, void *arg)
{
	struct pending *p = arg;
	struct master *m = p->m;
	uint64_t lim = (uint64_t)hello_limit_s(m) * 1000000000u, now, from;
	struct timeval t;

	(void)fd;
	(void)what;
	m->cb->late(m);
	now = mtime_now_ns();
	from = p->since_ns > m->loop.stall_end_ns ? p->since_ns :
	    m->loop.stall_end_ns;
	if (now - from < lim) {
		t.tv_sec = (time_t)((from + lim - now) / 1000000000u);
		t.tv_usec = (suseconds_t)((from + lim - now) % 1000000000u /
		    1000u);
		evtimer_add(p->hello_ev, &t);
		return;
	}
	console_line("vdbc: closed a connection from %s before HELLO: no "
	    "HELLO within %d s", p->peer, hello_limit_s(m));
	link_free(p->link);
	pending_done(p);
}

/*
 * A slave dials in. Until its HELLO names it and shows its cookie it is
 * a stranger: small frames only, RUN_HELLO_S to say HELLO, and at most
 * RUN_MAX_UNPROVED strangers at a time (then accepting waits). A local
 * slave speaks plain; a remote one dialling back speaks TLS.
 */
void
accept_cb(int fd, const char *peer, void *arg)
{
	struct master *m = arg;
	struct timeval t = { hello_limit_s(m), 0 };
	struct pending *p;

	if (fd < 0) {
		log_warn("cannot accept a slave's connection on port %d: %s; "
		    "trying again in a second", m->launch.port,
		    strerror(errno));
		return;
	}
	p = xcalloc(1, sizeof(*p));
	p->m = m;
	snprintf(p->peer, sizeof(p->peer), "%s", peer);
	if ((p->link = link_new_sniff(m->base, fd, m->launch.tls,
	    pending_dispatch, p)) == NULL) {
		close(fd);
		free(p);
		listener_done(m->launch.listener);
		return;
	}
	TAILQ_INSERT_TAIL(&m->launch.pending, p, entry);
	link_set_max_frame(p->link, LINK_UNPROVED_MAX);
	p->since_ns = mtime_now_ns();
	p->hello_ev = evtimer_new(m->base, pending_hello_cb, p);
	evtimer_add(p->hello_ev, &t);
}

/*
 * A peer silent this long is lost: max(2 intervals, 5 s) (DESIGN.md)
 * while a run's I/O goes on; 30 s else, as the slaves judge the master
 * (slave/main.c): a slave setting up 512 I/O threads on a starved
 * machine was silent 5 s and stopped the run before its first interval
 * (e2e 11 beside e2e 22's 1,024 slaves).
 */
static uint64_t
silence_ns(const struct master *m)
{
	uint64_t silence = 2 * m->cur.interval_ns;

	if (m->state != M_RUNNING && m->state != M_STOPPING)
		return (RUN_IDLE_SILENCE_NS);
	return (silence < RUN_MIN_SILENCE_NS ? RUN_MIN_SILENCE_NS : silence);
}

/*
 * Where a slave's silence counts from: its last word, the end of the
 * master's own last stall, or GO (the shorter limit of a run's I/O is
 * not held against the set-up before it: a slave 4 s into a set-up
 * silence was lost 1 s after GO).
 */
static uint64_t
silence_from(const struct master *m, const struct mslave *s)
{
	uint64_t from = s->last_heard_ns;

	if (m->loop.stall_end_ns > from)
		from = m->loop.stall_end_ns;
	if (m->state == M_RUNNING && m->state_since_ns > from)
		from = m->state_since_ns;
	return (from);
}

void
slaves_silence_moved(struct master *m)
{
	uint64_t now = mtime_now_ns(), lim = silence_ns(m), due;
	int i;

	for (i = 0; i < m->nslaves; i++) {
		struct mslave *s = &m->sl[i];

		if (s->silence_ev == NULL || slave_out(s) || s->losing)
			continue;
		due = silence_from(m, s) + lim;
		silence_arm(s, due > now ? due - now : 0);
	}
}

static void	silence_cb(evutil_socket_t, short, void *);

/* (Re)arm a slave's silence timer to fire in ns. */
static void
silence_arm(struct mslave *s, uint64_t ns)
{
	struct timeval tv;

	if (s->silence_ev == NULL)
		s->silence_ev = evtimer_new(s->m->base, silence_cb, s);
	tv.tv_sec = (time_t)(ns / 1000000000u);
	tv.tv_usec = (suseconds_t)(ns % 1000000000u / 1000u);
	evtimer_add(s->silence_ev, &tv);
}

/*
 * A slave's deadline: lost when nothing came since; else armed again for
 * the new deadline. One timer per peer at its deadline, so the promise
 * holds to the event loop's latency, not to a 1 s tick.
 */
static void
silence_cb(evutil_socket_t fd, short what, void *arg)
{
	struct mslave *s = arg;
	struct master *m = s->m;
	uint64_t now, lim = silence_ns(m), from;

	(void)fd;
	(void)what;
	if (slave_out(s) || s->losing || m->state == M_SHUTDOWN)
		return;
	/* silence measured across the master's own stall is not the
	 * slave's: count from the end of the stall */
	m->cb->late(m);
	now = mtime_now_ns();
	from = silence_from(m, s);
	if (now >= from && now - from >= lim) {
		slave_lost(s, "silent for too long (no heartbeat)");
		return;
	}
	silence_arm(s, from + lim - now);
}
