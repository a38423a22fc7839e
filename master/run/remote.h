/* SPDX-License-Identifier: MIT */
#ifndef MASTER_REMOTE_H
#define MASTER_REMOTE_H

#include <stdint.h>
#include <sys/types.h>

#include <event2/event.h>

#include "auth.h"
#include "errmsg.h"
#include "hosts.h"

/*
 * The master's side of a slave daemon (shell=vdbench): dial it at
 * system=HOST[:PORT] (5560) without blocking (every daemon at once, 10 s
 * each to answer), TLS 1.3 keyed by the token (proto/tls.h: the
 * handshake proves both sides know it), AUTH hello both ways (10 s after
 * the connect), then ask it to start the slaves, which dial back to
 * connect_to over TLS keyed by their cookies. One session serves every
 * hd= on the same daemon (two hds, or the clones of clients=): the daemon
 * serves one master at a time, and a second session of the same master
 * would be refused as "busy". done() is called once: ok with the
 * daemon's pids, or not with the reason (the daemon's own words when it
 * refused; timed out, refused, reset or a key that does not match named
 * as such).
 */
struct remote;

typedef void remote_done_fn(void *arg, const struct remote *, int ok,
    const char *text);
/* The daemon says one of its slaves (by name) exited; text says how. */
typedef void remote_exit_fn(void *arg, const struct remote *,
    const char *slave, const char *text);

/* names, cookies, cpu: the slaves of hosts[0], then hosts[1]'s, ...;
 * cpu[i] says which of them report the host's CPU. */
struct remote	*remote_start(struct event_base *,
		    const struct mhost *const hosts[], int nhosts,
		    const uint8_t key[AUTH_KEY_BYTES], const char *master_addr,
		    int master_port, char *const names[],
		    char *const cookies[], const int cpu[], remote_done_fn *,
		    remote_exit_fn *, void *arg, struct errmsg *);
void		 remote_free(struct remote *);
/* Whether the session serves host h; its system= and "h1,h2" label. */
int		 remote_serves(const struct remote *, const struct mhost *);
const char	*remote_system(const struct remote *);
const char	*remote_label(const struct remote *);
/* The host's slaves have all connected: the heartbeat answers say so,
 * and the daemon's silence limit drops from its start-up 30 s to 5 s. */
void		 remote_connected(struct remote *);
/* The host's slaves run I/O (from GO to the end of the run) or not: the
 * heartbeat answers say so, and the daemon drops a silent master after
 * 5 s while they do, 30 s else (a master busy with set-up, reports or a
 * pause between runs stalls for seconds when 1,024 slaves share its
 * machine; the slaves judge it by the same rule, slave/main.c). */
void		 remote_io(struct remote *, int on);

/*
 * shell=ssh (or rsh): start one slave through the command ssh_cmd (shell
 * words, e.g. "ssh -F cfg"; BatchMode is added for ssh) as
 * "VDBC slave --connect CONNECT --name NAME --cookie-stdin --tls [--cpu]"
 * on the host, the cookie (its TLS key) on the command's standard input,
 * its output (and ssh's own messages) into outfile. The local pid, or -1 with e set.
 */
pid_t		 remote_ssh(const struct mhost *, const char *ssh_cmd,
		    const char *vdbc_path, const char *connect,
		    const char *name, const char *cookie, int cpu,
		    const char *outfile, struct errmsg *);
/* The address this machine uses to reach system (no packet is sent). */
int		 remote_route_addr(const char *system, char *buf, size_t len);
/* Where vdbc lives on a host: vdbench= (a directory or the binary), else
 * the master's own path. */
void		 remote_vdbc_path(const struct mhost *, char *buf, size_t len);

#endif /* MASTER_REMOTE_H */
