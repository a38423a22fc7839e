/* SPDX-License-Identifier: MIT */
#ifndef COMMON_MTIME_H
#define COMMON_MTIME_H

#include <stdint.h>

/* Clocks: monotonic for measuring, real time of day for printing. */
uint64_t	mtime_now_ns(void);		/* CLOCK_MONOTONIC */
uint64_t	mtime_wall_ns(void);		/* CLOCK_REALTIME */
/* "HH:MM:SS.mmm" of a wall time (local time); buf holds 13 bytes. */
const char	*mtime_tod(uint64_t wall_ns, char buf[16]);
/* vdbench's header date, "Nov 30, 2026"; buf holds 16 bytes. */
const char	*mtime_date(uint64_t wall_ns, char buf[16]);

#endif /* COMMON_MTIME_H */
