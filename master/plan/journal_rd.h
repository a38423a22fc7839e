/* SPDX-License-Identifier: MIT */
#ifndef MASTER_JOURNAL_RD_H
#define MASTER_JOURNAL_RD_H

struct model;
struct rd;

/* The name of the rd journal recovery adds (Jnl_entry.java:272-320). */
#define JOURNAL_RECOVERY_RD	"journal_recovery"

/*
 * The journal on the master: -j's letters joined with journal= (a
 * journal implies validation); with recovery, vdbench's journal_recovery
 * rd in front of the user's: per journaled sd a wd
 * journal_recovery_<sd> reading the whole sd sequentially in 128k
 * blocks, at max rate, until its end. With journal=only (-jo) the user's
 * rds are dropped.
 */
void	journal_model_apply(struct model *, int cli_journal);
/* Is r the rd journal recovery added? */
int	journal_recovery_rd(const struct rd *);

#endif /* MASTER_JOURNAL_RD_H */
