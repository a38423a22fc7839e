/* SPDX-License-Identifier: MIT */
#ifndef SLAVE_SLAVE_H
#define SLAVE_SLAVE_H

/*
 * The slave role: "vdbc slave --connect HOST:PORT --name LABEL". One
 * libevent loop holds the link to the master, the heartbeat, the interval
 * timer and the signals; the I/O threads live in work.c and never touch
 * the loop. A slave whose master goes away stops its I/O and exits.
 */
int	slave_main(int argc, char *argv[]);

#endif /* SLAVE_SLAVE_H */
