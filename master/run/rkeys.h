/* SPDX-License-Identifier: MIT */
#ifndef MASTER_RKEYS_H
#define MASTER_RKEYS_H

#include "model.h"

/*
 * The report keys of a run list (rkeys.c owns them): which key of the
 * report (report_key_add) each host, slave, sd, wd, fsd and fwd writes
 * to, and the anchors.html rows. -1 where there is no such report.
 */
struct rkey_map {
	int		*hosts;		/* per host */
	int		*slave;		/* per slave */
	int		*sd;		/* per model sd */
	int		*hostsd;	/* host_detail: host x sd, or NULL */
	int		*slavesd;	/* slave_detail: slave x sd, or NULL */
	int		 nsds;		/* sds in the model */
	int		 nwd;		/* wd names (SD_format_x too) */
	char		**wd_name;
	int		*wd;
	struct strlist	 fs_name;	/* "fsd:x", "fwd:y" */
	int		*fs;
	int		 anchors;	/* anchors.html, or -1 */
	int		 anchor_w;	/* its anchor column */
	int		 anchors_first;	/* the row before any run is out */
	int		 anchors_row;	/* this run's row is out */
};

/* Free what the map holds. */
void	rkey_map_free(struct rkey_map *);

#endif /* MASTER_RKEYS_H */
