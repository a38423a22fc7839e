/* SPDX-License-Identifier: MIT */
#ifndef SLAVE_CPU_H
#define SLAVE_CPU_H

#include <jansson.h>

/* The aggregate "cpu" line of /proc/stat, in ticks, as JSON (or NULL). */
json_t	*cpu_sample_json(void);

#endif /* SLAVE_CPU_H */
