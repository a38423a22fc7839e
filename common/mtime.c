/* SPDX-License-Identifier: MIT */
/* Monotonic and wall clocks, and vdbench's time-of-day prefix. */
#include "mtime.h"

#include <stdio.h>
#include <time.h>

/* Nanoseconds on the monotonic clock. */
uint64_t
mtime_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
}

/* Nanoseconds since the epoch. */
uint64_t
mtime_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
}

/* Format the local time of day as vdbench prints it on every line. */
const char *
mtime_tod(uint64_t wall_ns, char buf[16])
{
	time_t t = (time_t)(wall_ns / 1000000000u);
	struct tm tm;

	localtime_r(&t, &tm);
	snprintf(buf, 16, "%02d:%02d:%02d.%03u", tm.tm_hour, tm.tm_min,
	    tm.tm_sec, (unsigned int)(wall_ns % 1000000000u / 1000000u));
	return (buf);
}

/* Format the date as vdbench's interval header does. */
const char *
mtime_date(uint64_t wall_ns, char buf[16])
{
	time_t t = (time_t)(wall_ns / 1000000000u);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, 16, "%b %d, %Y", &tm);
	return (buf);
}
