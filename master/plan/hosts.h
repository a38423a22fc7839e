/* SPDX-License-Identifier: MIT */
#ifndef MASTER_HOSTS_H
#define MASTER_HOSTS_H

#include "errmsg.h"
#include "model.h"
#include "plan.h"

/*
 * The hosts of an execution and how their slaves start (DESIGN.md
 * "Processes"): hd= entries (none: one localhost), clients= clones, the
 * slave count of each (-m, jvms=, or vdbench's automatic rule for a lone
 * host) and the slave names <label>-<n>. A host whose system= is this
 * machine gets forked slaves whatever shell= says.
 */
enum host_how {
	HOST_LOCAL,		/* forked here */
	HOST_DAEMON,		/* shell=vdbench: a vdbc slave --listen */
	HOST_SSH,		/* shell=ssh (or none) */
	HOST_RSH,		/* shell=rsh */
};

struct mhost {
	char		 label[64];
	char		 system[256];
	enum host_how	 how;
	const char	*user;		/* user=, or NULL */
	const char	*vdbench;	/* vdbench=, or NULL */
	int		 first;		/* its first slave's index */
	int		 nslaves;
};

/*
 * Build the host table; *n hosts, at most max_slaves slaves in all. note
 * gets the console line of vdbench's automatic slave count for a lone
 * host, or "" (the caller prints it: the planner does not).
 */
int		 hosts_build(const struct model *, const struct plan *,
		    int jvms_opt, int max_slaves, struct mhost **, int *n,
		    char *note, size_t notelen, struct errmsg *);
/*
 * The master holds a connection and report files per slave: raise the
 * soft RLIMIT_NOFILE to the hard one; -1 with e set naming the limit when
 * that is still too few for these hosts' slaves.
 */
int		 hosts_fd_limit(const struct mhost *, int n, struct errmsg *);
/* Whether an address or name (of HOST[:PORT]) is this machine. */
int		 hosts_is_local(const char *system);
const char	*hosts_how_name(enum host_how);

#endif /* MASTER_HOSTS_H */
