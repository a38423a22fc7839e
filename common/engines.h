/* SPDX-License-Identifier: MIT */
#ifndef COMMON_ENGINES_H
#define COMMON_ENGINES_H

#include <stddef.h>

/*
 * The I/O engines an sd may name (engine=), with what the master and the
 * parser need to know of each: pure data, one row per engine. The parser
 * validates engine= against it, the master picks the default from it and
 * the slave's ops table (slave/engine.c) has one row per name here.
 */

/* The engine's queue completes the I/O before it returns (fio's
 * FIO_SYNCIO): no getevents. */
#define ENGINE_SYNC		0x1
/* No I/O at all (measures the tool): the lun is not formatted and an
 * empty file is made when there is none. */
#define ENGINE_NOIO		0x2
/* Asynchronous only with o_direct (libaio): the default engine of an sd
 * with openflags=o_direct. */
#define ENGINE_WANTS_DIRECT	0x4
/* threads= runs that many OS threads with one I/O in flight each; else
 * one thread keeps threads= I/Os in flight. */
#define ENGINE_THREADS		0x8

struct engine_info {
	const char	*name;
	unsigned int	 flags;
};

/* The row called name, or NULL. */
const struct engine_info *engines_find(const char *name);
/* The flags of an engine; 0 for an unknown name. */
unsigned int	 engines_flags(const char *name);
/* The engine of an sd that names none: the one that wants o_direct when
 * direct, else the synchronous one. */
const char	*engines_default(int direct);
/* "aio, io_uring, sync or null" into buf, for error messages. */
const char	*engines_list(char *buf, size_t len);

#endif /* COMMON_ENGINES_H */
