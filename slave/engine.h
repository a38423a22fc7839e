/* SPDX-License-Identifier: MIT */
#ifndef SLAVE_ENGINE_H
#define SLAVE_ENGINE_H

#include <stddef.h>
#include <stdint.h>

/*
 * I/O engines behind one ops table (fio's pattern, listed explicitly in
 * engine.c). An engine does one I/O; the worker loop around it owns the
 * timing, the addresses and the counters. Returns the bytes done, or -1
 * with errno set.
 */
struct engine_ops {
	const char	*name;
	long		(*io)(int fd, void *buf, size_t len, uint64_t off,
			    int is_write);
};

/* The engine called name, or NULL. */
const struct engine_ops	*engine_find(const char *name);

#endif /* SLAVE_ENGINE_H */
