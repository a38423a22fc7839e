/* SPDX-License-Identifier: MIT */
#ifndef MASTER_MSGSCAN_H
#define MASTER_MSGSCAN_H

#include <event2/event.h>

#include "hosts.h"
#include "model.h"

/*
 * messagescan= (PARMFILE.md 4; vdbench's Adm_msgs): during the runs the
 * system log of the master's host is read every 5 seconds for new lines,
 * /var/log/messages as vdbench reads it where it exists, else the kernel
 * log (/dev/kmsg); the environment's VDBC_MESSAGES_FILE names another
 * file. New lines go to the console under vdbench's title (nodisplay:
 * to logfile.html only), at most the messagescan= number of them (1000),
 * and at the end into <host>.var_adm_msgs.html of each host on this
 * machine. messagescan=no turns it off. With nothing readable a
 * logfile.html line says so (vdbench's slave log: "Monitoring bypassed").
 */
struct msgscan;

/* NULL when messagescan=no. */
struct msgscan	*msgscan_start(struct event_base *, const struct model *,
		    const char *outdir, const struct mhost *, int nhosts);
/* A last scan, the lines into the hosts' files; frees ms (NULL is fine). */
void		 msgscan_finish(struct msgscan *);

#endif /* MASTER_MSGSCAN_H */
