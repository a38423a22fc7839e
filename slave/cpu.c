/* SPDX-License-Identifier: MIT */
/* CPU ticks from /proc/stat; the master applies vdbench's formula. */
#include "cpu.h"

#include <stdio.h>

/* Read the first line of /proc/stat. */
json_t *
cpu_sample_json(void)
{
	unsigned long long v[7] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int n;

	if (f == NULL)
		return (NULL);
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
	    &v[2], &v[3], &v[4], &v[5], &v[6]);
	fclose(f);
	if (n != 7)
		return (NULL);
	return (json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
	    "user", (json_int_t)v[0], "nice", (json_int_t)v[1],
	    "system", (json_int_t)v[2], "idle", (json_int_t)v[3],
	    "iowait", (json_int_t)v[4], "irq", (json_int_t)v[5],
	    "softirq", (json_int_t)v[6]));
}
