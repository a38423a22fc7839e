/* SPDX-License-Identifier: MIT */
/*
 * Starting the slaves (STYLE.md's launch.c): the listening port, local
 * slaves forked here, remote ones through ssh or rsh or a host's daemon,
 * and waiting for the children at the end.
 */
#include "run_int.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "console.h"
#include "hosts.h"
#include "html.h"
#include "log.h"
#include "mtime.h"
#include "net.h"
#include "ofile.h"
#include "remote.h"
#include "xmalloc.h"

/*
 * Listen on the port (5570 and the next ones, or any with 0): loopback
 * when every slave is local, else --master-addr or every address (the
 * slaves prove themselves with their cookies). Beyond loopback the local
 * slaves dial that address over TLS keyed by their cookies, as remote
 * ones do: a local user who listens on 127.0.0.1 at the port (which the
 * master then does not hold) gets a TLS ClientHello and nothing else.
 */
int
listen_port(struct master *m, int port)
{
	const char *addr = "127.0.0.1";
	struct errmsg e;
	int tries = port < 0 ? 8 : 1, i, h, nslaves = 0;

	for (h = 0; h < m->nhosts; h++) {
		if (m->hosts[h].how != HOST_LOCAL)
			addr = m->o->master_addr;	/* NULL: any */
		nslaves += m->hosts[h].nslaves;
	}
	if (port < 0)
		port = m->model->general.port > 0 ? m->model->general.port :
		    5570;
	for (i = 0; i < tries; i++) {
		/* every slave may dial at once: 1,024 against a backlog of
		 * 64 brought SYN cookies and retransmits (hosts review) */
		m->launch.listen_fd = net_listen(addr, port == 0 ? 0 : port + i,
		    nslaves + 64, &m->launch.port, &e);
		if (m->launch.listen_fd >= 0)
			break;
	}
	if (m->launch.listen_fd < 0)
		return (-1);
	m->launch.local_tls = addr == NULL || strcmp(addr, "127.0.0.1") != 0;
	if (addr == NULL)
		addr = "127.0.0.1";	/* every address: loopback is one */
	snprintf(m->launch.dial, sizeof(m->launch.dial), strchr(addr, ':') !=
	    NULL ? "[%s]:%d" : "%s:%d", addr, m->launch.port);
	return (0);
}

/*
 * Fork and exec one local slave, its output into <name>.stdout.html and
 * its cookie down a pipe on its standard input (never on a command line).
 */
static int
launch(struct master *m, struct mslave *s)
{
	const struct mhost *h = &m->hosts[s->host];
	char exe[4096], path[4200];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int fd, cpu = s->id == h->first, pp[2];
	pid_t pid;

	if (n <= 0)
		return (-1);
	exe[n] = '\0';
	/* vdbench starts <vdbench=>/vdbench on a local host too
	 * (SlaveStarter): an hd's vdbench= names the vdbc it runs */
	if (h->vdbench != NULL && h->vdbench[0] != '\0') {
		char want[4096];

		remote_vdbc_path(h, want, sizeof(want));
		if (access(want, X_OK) == 0)
			snprintf(exe, sizeof(exe), "%s", want);
		else if (s->id == h->first)	/* a vdbench install dir */
			console_line("hd=%s,vdbench=%s: no vdbc at %s (%s); "
			    "its slaves run this vdbc", h->label, h->vdbench,
			    want, strerror(errno));
	}
	if (pipe2(pp, O_CLOEXEC) != 0)
		return (-1);
	snprintf(path, sizeof(path), "%s/%s.stdout.html", m->o->outdir,
	    s->name);
	console_line("Starting slave: %s slave --connect %s --name %s%s%s",
	    exe, m->launch.dial, s->name, m->launch.local_tls ? " --tls" : "",
	    cpu ? " --cpu" : "");
	if ((pid = fork()) < 0) {
		close(pp[0]);
		close(pp[1]);
		return (-1);
	}
	if (pid == 0) {
		char *argv[12] = { exe, (char *)"slave", (char *)"--connect",
		    m->launch.dial, (char *)"--name", s->name,
		    (char *)"--parent-death", (char *)"--cookie-stdin", NULL };
		int a = 8;

		if (m->launch.local_tls)
			argv[a++] = (char *)"--tls";
		if (cpu)
			argv[a++] = (char *)"--cpu";

		if ((fd = ofile_open(path)) >= 0) {
			char hn[400];

			html_esc(hn, sizeof(hn), s->name);
			dprintf(fd, "<title>Vdbench %s.stdout.html</title><pre>"
			    "\nstdout/stderr for slave=%s\n", hn, hn);
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
			/* its log lines go into a page: escaped */
			setenv("VDBC_LOG_HTML", "1", 1);
		}
		dup2(pp[0], 0);
		execv(exe, argv);
		_exit(127);
	}
	close(pp[0]);
	if (write(pp[1], s->cookie, strlen(s->cookie)) < 0 ||
	    write(pp[1], "\n", 1) < 0)
		log_warn("slave %s: cannot hand over its cookie", s->name);
	close(pp[1]);
	s->pid = pid;
	return (0);
}

/* A daemon answered: its slaves are on their way, or it refused. */
static void
remote_done(void *arg, const struct remote *r, int ok, const char *text)
{
	struct master *m = arg;
	int i;

	if (ok) {
		console_line("%s", text);
		return;
	}
	if (m->state == M_CONNECT) {
		m->cb->stop(m, text);	/* run.c decides: it stops */
		return;
	}
	/*
	 * The session with a daemon ended after it started the slaves
	 * (closed, or a TLS record that failed its check): the daemon stops
	 * the host's slaves once its master is gone, so they are lost now,
	 * named with the reason, not seconds later as "closed by the peer".
	 */
	for (i = 0; i < m->nslaves; i++) {
		struct mslave *s = &m->sl[i];

		if (remote_serves(r, &m->hosts[s->host]) && !slave_out(s))
			slave_lost(s, text);
	}
	if (m->state == M_SHUTDOWN && !m->aborting)
		return;
	log_warn("%s (host %s)", text, remote_label(r));
}

/*
 * A daemon says one of its slaves exited. One that never said HELLO is
 * lost now, with the daemon's words (its own are in the daemon's log),
 * rather than after the 30 s connect wait; one that did is handled when
 * its own link closes.
 */
static void
remote_exited(void *arg, const struct remote *r, const char *slave,
    const char *text)
{
	struct master *m = arg;
	int i;

	for (i = 0; i < m->nslaves; i++) {
		struct mslave *s = &m->sl[i];
		char why[400];

		if (!remote_serves(r, &m->hosts[s->host]) ||
		    strcmp(s->name, slave) != 0 ||
		    s->state != SLAVE_CONNECTING)
			continue;
		snprintf(why, sizeof(why), "the daemon at %s says it exited "
		    "before it dialled back (%s); its output is in the "
		    "daemon's log there", remote_system(r), text);
		slave_lost(s, why);
	}
}

/* Start a remote slave through ssh (or rsh). */
static int
launch_ssh(struct master *m, struct mslave *s, struct errmsg *e)
{
	const struct mhost *h = &m->hosts[s->host];
	const char *cmd = h->how == HOST_RSH ? "rsh" : m->o->ssh != NULL ?
	    m->o->ssh : "ssh";
	char addr[256], connect[300], vdbc[4096], path[4200];

	if (m->o->master_addr != NULL)
		snprintf(addr, sizeof(addr), "%s", m->o->master_addr);
	else if (remote_route_addr(h->system, addr, sizeof(addr)) != 0) {
		errmsg_set(e, "", 0, 0, "hd=%s: no route to system=%s from "
		    "here; give --master-addr", h->label, h->system);
		return (-1);
	}
	snprintf(connect, sizeof(connect), strchr(addr, ':') != NULL ?
	    "[%s]:%d" : "%s:%d", addr, m->launch.port);
	remote_vdbc_path(h, vdbc, sizeof(vdbc));
	snprintf(path, sizeof(path), "%s/%s.stdout.html", m->o->outdir,
	    s->name);
	console_line("Starting slave %s on hd=%s: %s %s '%s slave --connect %s "
	    "--name %s'", s->name, h->label, cmd, h->system, vdbc, connect,
	    s->name);
	s->pid = remote_ssh(h, cmd, vdbc, connect, s->name, s->cookie,
	    s->id == h->first, path, e);
	if (s->pid < 0) {
		s->pid = 0;
		return (-1);
	}
	s->via_ssh = 1;
	return (0);
}

/* The last lines of a file, joined by " / ", for an error message. */
static void
file_tail(const char *path, char *buf, size_t len)
{
	char line[512], last[3][512] = { "", "", "" };
	FILE *f = fopen(path, "r");
	int n = 0, i;

	buf[0] = '\0';
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '\0' || strncmp(line, "<title>", 7) == 0 ||
		    strncmp(line, "stdout/stderr for slave", 23) == 0)
			continue;
		snprintf(last[n++ % 3], sizeof(last[0]), "%s", line);
	}
	fclose(f);
	for (i = n > 3 ? n - 3 : 0; i < n; i++) {
		size_t l = strlen(buf);

		snprintf(buf + l, len - l, "%s%s", l > 0 ? " / " : "",
		    last[i % 3]);
	}
}

/* An ssh that ended before its slave said HELLO: -1 and ssh's words. */
int
check_ssh_exits(struct master *m, struct errmsg *e)
{
	int i, st;

	for (i = 0; i < m->nslaves; i++) {
		struct mslave *s = &m->sl[i];
		char path[4200], msg[1600];

		if (!s->via_ssh || s->state != SLAVE_CONNECTING ||
		    s->pid <= 0 ||
		    waitpid(s->pid, &st, WNOHANG) != s->pid)
			continue;
		s->state = SLAVE_GONE;
		snprintf(path, sizeof(path), "%s/%s.stdout.html",
		    m->o->outdir, s->name);
		file_tail(path, msg, sizeof(msg));
		errmsg_set(e, "", 0, 0, "hd=%s: slave %s did not start: %s "
		    "exited with status %d: %s", m->hosts[s->host].label,
		    s->name, m->o->ssh != NULL ? m->o->ssh : "ssh",
		    WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st),
		    msg[0] != '\0' ? msg : "(it said nothing)");
		return (-1);
	}
	return (0);
}

/*
 * Whether two daemon hosts name the same daemon: the same system= (the
 * default port 5560 filled in) and the same vdbench= (one LAUNCH carries
 * one). Then one session starts the slaves of both.
 */
static int
same_daemon(const struct mhost *a, const struct mhost *b)
{
	char ha[256], pa[32], hb[256], pb[32];

	if (net_split(a->system, ha, sizeof(ha), pa, sizeof(pa)) != 0 ||
	    net_split(b->system, hb, sizeof(hb), pb, sizeof(pb)) != 0)
		return (strcmp(a->system, b->system) == 0);
	if (pa[0] == '\0')
		snprintf(pa, sizeof(pa), "5560");
	if (pb[0] == '\0')
		snprintf(pb, sizeof(pb), "5560");
	return (strcasecmp(ha, hb) == 0 && strcmp(pa, pb) == 0 &&
	    strcmp(a->vdbench != NULL ? a->vdbench : "", b->vdbench != NULL ?
	    b->vdbench : "") == 0);
}

/* The page for a daemon slave's output: it is in the daemon's log. */
static int
daemon_stdout_page(struct master *m, const struct mhost *h, const char *name,
    struct errmsg *e)
{
	char path[4200], hn[400], hl[400], hs[400];
	FILE *f;
	int bad;

	snprintf(path, sizeof(path), "%s/%s.stdout.html", m->o->outdir, name);
	if ((f = ofile_fopen(path)) == NULL) {
		errmsg_set(e, "", 0, 0, "Cannot write report file %s: %s",
		    path, strerror(errno));
		return (-1);
	}
	fprintf(f, "<title>Vdbench %s.stdout.html</title><pre>\n"
	    "stdout/stderr for slave=%s\nStarted by the slave daemon "
	    "of hd=%s (system=%s); its output is in that daemon's "
	    "log. Its warnings and errors are in this directory's "
	    "logfile.html.\n", html_esc(hn, sizeof(hn), name), hn,
	    html_esc(hl, sizeof(hl), h->label), html_esc(hs, sizeof(hs),
	    h->system));
	errno = 0;
	bad = fflush(f) == EOF || ferror(f);
	if (fclose(f) == EOF || bad) {
		errmsg_set(e, "", 0, 0, "Cannot write report file %s: %s",
		    path, strerror(errno != 0 ? errno : EIO));
		return (-1);
	}
	return (0);
}

/*
 * Start the slaves of daemon host hi, and of every later host on the
 * same daemon, through one session with it. A host served by an earlier
 * one's session is skipped.
 */
static int
launch_remote(struct master *m, int hi, struct errmsg *e)
{
	const struct mhost *hs[RUN_MAX_SLAVES];
	char *names[RUN_MAX_SLAVES], *cookies[RUN_MAX_SLAVES];
	int cpu[RUN_MAX_SLAVES], nh = 0, n = 0, i, k;

	for (k = 0; k < hi; k++)
		if (m->hosts[k].how == HOST_DAEMON &&
		    same_daemon(&m->hosts[k], &m->hosts[hi]))
			return (0);
	for (k = hi; k < m->nhosts; k++) {
		const struct mhost *h = &m->hosts[k];

		if (h->how != HOST_DAEMON || !same_daemon(h, &m->hosts[hi]))
			continue;
		hs[nh++] = h;
		console_line("Starting %d slave(s) on hd=%s through its daemon "
		    "at %s", h->nslaves, h->label, h->system);
		for (i = 0; i < h->nslaves; i++) {
			names[n] = m->sl[h->first + i].name;
			cookies[n] = m->sl[h->first + i].cookie;
			cpu[n++] = i == 0;
			if (daemon_stdout_page(m, h, names[n - 1], e) != 0)
				return (-1);
		}
	}
	if (n > RUN_MAX_HOST_SLAVES) {
		errmsg_set(e, "", 0, 0, "hd=%s: %d slaves on the one daemon at "
		    "%s; a daemon starts at most %d", hs[0]->label, n,
		    hs[0]->system, RUN_MAX_HOST_SLAVES);
		return (-1);
	}
	m->launch.remotes[hi] = remote_start(m->base, hs, nh, m->launch.token,
	    m->o->master_addr, m->launch.port, names, cookies, cpu,
	    remote_done, remote_exited, m, e);
	return (m->launch.remotes[hi] == NULL ? -1 : 0);
}

/*
 * Start every slave: local ones forked here, ssh/rsh ones, then each
 * daemon host's. -1 and why at the first that cannot start.
 */
int
launch_slaves(struct master *m, struct errmsg *e)
{
	int i;

	for (i = 0; i < m->nslaves; i++) {
		struct mslave *sl = &m->sl[i];

		if (m->hosts[sl->host].how == HOST_SSH ||
		    m->hosts[sl->host].how == HOST_RSH) {
			if (launch_ssh(m, sl, e) != 0)
				return (-1);
			continue;
		}
		if (m->hosts[sl->host].how != HOST_LOCAL)
			continue;
		if (launch(m, sl) != 0) {
			const struct mhost *h = &m->hosts[sl->host];
			int err = errno;

			if (h->vdbench != NULL && h->vdbench[0] != '\0') {
				char exe[4096];

				remote_vdbc_path(h, exe, sizeof(exe));
				errmsg_set(e, "", 0, 0, "Cannot start slave %s: "
				    "hd=%s,vdbench=%s: %s: %s", sl->name,
				    h->label, h->vdbench, exe, strerror(err));
			} else
				errmsg_set(e, "", 0, 0, "Cannot start slave "
				    "%s: %s", sl->name, strerror(err));
			return (-1);
		}
	}
	for (i = 0; i < m->nhosts; i++) {
		if (m->hosts[i].how == HOST_DAEMON &&
		    launch_remote(m, i, e) != 0)
			return (-1);
	}
	return (0);
}

/* Wait for the children; kill those still there after 5 s. */
void
reap(struct master *m)
{
	uint64_t until = mtime_now_ns() + 5000000000ull;
	int i, left;

	do {
		left = 0;
		for (i = 0; i < m->nslaves; i++) {
			struct mslave *s = &m->sl[i];

			if (s->pid <= 0 || s->state == SLAVE_GONE)
				continue;
			if (waitpid(s->pid, NULL, WNOHANG) == s->pid)
				s->state = SLAVE_GONE;
			else
				left++;
		}
		if (left > 0)
			usleep(20000);
	} while (left > 0 && mtime_now_ns() < until);
	for (i = 0; i < m->nslaves; i++) {
		if (m->sl[i].pid > 0 && m->sl[i].state != SLAVE_GONE) {
			kill(m->sl[i].pid, SIGKILL);
			waitpid(m->sl[i].pid, NULL, 0);
		}
	}
}
