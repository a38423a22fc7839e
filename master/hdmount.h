/* SPDX-License-Identifier: MIT */
#ifndef MASTER_HDMOUNT_H
#define MASTER_HDMOUNT_H

#include "errmsg.h"
#include "model.h"

/*
 * hd=...,mount="mount [options] special mountpoint" (PARMFILE.md 5): the
 * mount commands of the hosts, run once before the first run as vdbench's
 * slaves do when they start: the mount point made if missing, a file
 * system already mounted there from the same special unmounted
 * (umount -f), then the command as written. Only on the master's own
 * host: a host elsewhere with mount= is refused. 0, or -1 with e.
 */
int	hdmount_run(const struct model *, struct errmsg *);

#endif /* MASTER_HDMOUNT_H */
