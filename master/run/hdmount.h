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
 * host: a host elsewhere with mount= is refused. Every rd mount= is
 * checked against the commands first, before anything is mounted.
 * 0, or -1 with e.
 */
int	hdmount_run(const struct model *, struct errmsg *);

/*
 * rd=...,mount="options" (PARMFILE.md 8.1): before a run of that rd, each
 * host's mount= command again, its options replaced by the rd's: an
 * option letter the hd gives (-o, -t, ...) takes the rd's value, one it
 * does not give is added; the special and the mount point stay. The same
 * steps as hdmount_run (unmount first), the command and its output in
 * logfile.html. Nothing to do for an rd without mount=. 0, or -1 with e.
 */
int	hdmount_remount(const struct model *, const struct rd *,
	    struct errmsg *);

#endif /* MASTER_HDMOUNT_H */
