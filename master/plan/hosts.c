/* SPDX-License-Identifier: MIT */
/* The host table (see hosts.h). */
#include "hosts.h"

#include <ifaddrs.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net.h"
#include "place.h"
#include "xmalloc.h"

const char *
hosts_how_name(enum host_how h)
{
	static const char *const names[] = { "local", "vdbench", "ssh",
	    "rsh" };

	return (names[h]);
}

/* Whether a numeric address is one of this machine's interfaces. */
static int
is_my_address(const struct sockaddr *sa)
{
	struct ifaddrs *ifa, *i;
	int mine = 0;

	if (getifaddrs(&ifa) != 0)
		return (0);
	for (i = ifa; i != NULL && !mine; i = i->ifa_next) {
		char a[NI_MAXHOST], b[NI_MAXHOST];

		if (i->ifa_addr == NULL || i->ifa_addr->sa_family !=
		    sa->sa_family)
			continue;
		if (getnameinfo(i->ifa_addr, sa->sa_family == AF_INET ?
		    sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6),
		    a, sizeof(a), NULL, 0, NI_NUMERICHOST) == 0 &&
		    getnameinfo(sa, sa->sa_family == AF_INET ?
		    sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6),
		    b, sizeof(b), NULL, 0, NI_NUMERICHOST) == 0)
			mine = strcmp(a, b) == 0;
	}
	freeifaddrs(ifa);
	return (mine);
}

int
hosts_is_local(const char *hostport)
{
	struct addrinfo hints, *res = NULL, *ai;
	char me[256] = "", system[256], port[32];
	int local = 0;

	/* HOST:PORT names a daemon's port; the host decides. */
	if (net_split(hostport, system, sizeof(system), port,
	    sizeof(port)) != 0)
		snprintf(system, sizeof(system), "%s", hostport);

	if (strncasecmp(system, "localhost", 9) == 0 ||
	    strncmp(system, "127.", 4) == 0 || strcmp(system, "::1") == 0)
		return (1);
	gethostname(me, sizeof(me));
	if (strcasecmp(system, me) == 0)
		return (1);
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICHOST;
	if (getaddrinfo(system, NULL, &hints, &res) != 0)
		return (0);
	for (ai = res; ai != NULL && !local; ai = ai->ai_next)
		local = is_my_address(ai->ai_addr);
	freeaddrinfo(res);
	return (local);
}

/* How one hd's slaves start. */
static enum host_how
how_of(const struct hd *h, const char *system)
{
	if (hosts_is_local(system))
		return (HOST_LOCAL);
	if (h->shell != NULL && strcasecmp(h->shell, "vdbench") == 0)
		return (HOST_DAEMON);
	if (h->shell != NULL && strcasecmp(h->shell, "rsh") == 0)
		return (HOST_RSH);
	return (HOST_SSH);
}

/* Append one host. */
static struct mhost *
add_host(struct mhost **t, int *n, const char *label, const char *system)
{
	struct mhost *h;

	*t = xreallocarray(*t, (size_t)*n + 1, sizeof(**t));
	h = &(*t)[(*n)++];
	memset(h, 0, sizeof(*h));
	snprintf(h->label, sizeof(h->label), "%s", label);
	snprintf(h->system, sizeof(h->system), "%s", system);
	return (h);
}

/* Host c of hd (its clone c with clients=, else the hd itself). */
static int
add_hd_host(struct mhost **t, int *n, const struct hd *hd, int c,
    int jvms_opt, struct errmsg *e)
{
	const char *sys = hd->system != NULL ? hd->system : hd->name;
	struct mhost *h;
	char label[64];

	if (hd->clients > 0)
		snprintf(label, sizeof(label), "%.50s_cl%d", hd->name, c);
	else
		snprintf(label, sizeof(label), "%.63s", hd->name);
	h = add_host(t, n, label, sys);
	h->how = how_of(hd, sys);
	if ((h->how == HOST_SSH || h->how == HOST_RSH) &&
	    (sys[0] == '[' ? strstr(sys, "]:") != NULL :
	    strchr(sys, ':') != NULL &&
	    strchr(sys, ':') == strrchr(sys, ':'))) {
		errmsg_set(e, NULL, 0, 0, "hd=%s: system=%s: a port is for a "
		    "slave daemon (shell=vdbench); for %s give the port in its "
		    "own configuration (--ssh 'ssh -p PORT')", hd->name, sys,
		    hosts_how_name(h->how));
		return (-1);
	}
	h->user = hd->user;
	h->vdbench = hd->vdbench;
	h->nslaves = jvms_opt > 0 ? jvms_opt : hd->jvms;
	return (0);
}

int
hosts_build(const struct model *m, const struct plan *p, int jvms_opt,
    int max_slaves, struct mhost **out, int *nout, char *note, size_t notelen,
    struct errmsg *e)
{
	struct mhost *t = NULL, *h;
	const struct hd *hd;
	int n = 0, i, total = 0, nhd = 0, pass;

	note[0] = '\0';
	TAILQ_FOREACH(hd, &m->hds, entry)
		nhd++;
	if (nhd == 0) {
		h = add_host(&t, &n, "localhost", "localhost");
		h->how = HOST_LOCAL;
	}
	/*
	 * vdbench's order (HostParms): every hd in turn, one with clients=N
	 * renamed <name>_cl0 in its place, then its clones _cl1 ... after
	 * all of them, hd by hd. The order picks the host of sequential
	 * work and deals the threads.
	 */
	for (pass = 0; pass < 2; pass++) {
		TAILQ_FOREACH(hd, &m->hds, entry) {
			int c = pass == 0 ? 0 : 1;
			int nc = pass == 0 ? 1 : hd->clients;

			for (; c < nc; c++)
				if (add_hd_host(&t, &n, hd, c, jvms_opt, e) != 0) {
					free(t);
					return (-1);
				}
		}
	}
	for (i = 0; i < n; i++) {
		if (t[i].nslaves <= 0) {
			/* vdbench's automatic count is for a lone host. */
			t[i].nslaves = n == 1 ? place_auto_jvms(m, p, jvms_opt,
			    note, notelen) : 1;
		}
		t[i].first = total;
		total += t[i].nslaves;
	}
	if (total > max_slaves) {
		errmsg_set(e, NULL, 0, 0, "%d slaves requested over %d hosts; "
		    "vdbc runs at most %d in all (and 256 per host)", total, n,
		    max_slaves);
		free(t);
		return (-1);
	}
	*out = t;
	*nout = n;
	return (0);
}

/*
 * Descriptors the master needs: its link and its report files (page and
 * histogram) per slave, a daemon session or an ssh pipe and two report
 * files per host, and a margin for the listener, the other reports and
 * the libraries. report=slave_detail and host_detail open more, per sd; a
 * report that cannot be opened then ends the run naming it.
 */
int
hosts_fd_limit(const struct mhost *t, int n, struct errmsg *e)
{
	struct rlimit rl;
	rlim_t need = 256;
	int i, ns = 0;

	for (i = 0; i < n; i++) {
		need += 3 + 3 * (rlim_t)t[i].nslaves;
		ns += t[i].nslaves;
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return (0);
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need &&
	    rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
			getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need) {
		errmsg_set(e, NULL, 0, 0, "%d slaves on %d host(s): the master "
		    "needs about %llu file descriptors and may open %llu "
		    "(RLIMIT_NOFILE, hard limit %llu: raise it, e.g. ulimit -n "
		    "or LimitNOFILE=)", ns, n, (unsigned long long)need,
		    (unsigned long long)rl.rlim_cur, rl.rlim_max ==
		    RLIM_INFINITY ? 0ull : (unsigned long long)rl.rlim_max);
		return (-1);
	}
	return (0);
}
