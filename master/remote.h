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
 * system=HOST[:PORT] (5560), TLS 1.3 keyed by the token (proto/tls.h:
 * the handshake proves both sides know it), AUTH hello both ways, then
 * ask it to start the host's slaves, which dial back to connect_to over
 * TLS keyed by their cookies. done() is called once: ok with the
 * daemon's pids, or not with the reason (the daemon's own words when it
 * refused).
 */
struct remote;

typedef void remote_done_fn(void *arg, const struct mhost *, int ok,
    const char *text);
/* The daemon says one of its slaves (by name) exited; text says how. */
typedef void remote_exit_fn(void *arg, const struct mhost *,
    const char *slave, const char *text);

struct remote	*remote_start(struct event_base *, const struct mhost *,
		    const uint8_t key[AUTH_KEY_BYTES], const char *master_addr,
		    int master_port, char *const names[],
		    char *const cookies[], remote_done_fn *, remote_exit_fn *,
		    void *arg, struct errmsg *);
void		 remote_free(struct remote *);
/* The host's slaves have all connected: the heartbeat answers say so,
 * and the daemon's silence limit drops from its start-up 30 s to 5 s. */
void		 remote_connected(struct remote *);

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
