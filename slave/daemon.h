/* SPDX-License-Identifier: MIT */
#ifndef SLAVE_DAEMON_H
#define SLAVE_DAEMON_H

/*
 * "vdbc slave --listen [ADDR][:PORT] --token-file F" (alias "vdbc rsh"):
 * the daemon a master reaches for hosts with shell=vdbench. It binds to
 * loopback unless given an address, refuses a token file others can
 * read or of all zeros, speaks only TLS 1.3 keyed by the token
 * (proto/tls.h: the handshake proves both sides know it), serves one
 * master at a time, and starts that master's slaves, which dial back over
 * TLS keyed by the cookie the master gave each. Slaves that outlive their
 * master are killed.
 */
#define DAEMON_DEFAULT_PORT	5560	/* vdbench's daemon port */

int	daemon_main(const char *listen_at, const char *token_file);

#endif /* SLAVE_DAEMON_H */
