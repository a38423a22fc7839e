/* SPDX-License-Identifier: MIT */
#ifndef COMMON_UNITS_H
#define COMMON_UNITS_H

#include <stddef.h>
#include <stdint.h>

/*
 * vdbench's number syntax (PARMFILE.md 2.8): a plain number ("10", "1.5",
 * "1e3") or a number with one suffix: k m g t (binary), h (hours), % (the
 * value becomes negative, "a percentage"); m means minutes instead of MiB
 * for the time keywords. A trailing b after a suffix is allowed ("4kb").
 */
enum units_mode {
	UNITS_SIZE,		/* k m g t h % */
	UNITS_TIME,		/* m = 60 (elapsed, interval, pause, warmup) */
	UNITS_PLAIN,		/* no suffix at all (hd, host, system, ...) */
};

/* 0 and *out when s is numeric in this mode; -1 when it is alpha. */
int		 units_parse(const char *s, enum units_mode, double *out);
/* vdbench's "what size" text: <1024 as an integer, else 4k, 1.500k, 1m. */
const char	*units_whatsize(double v, char *buf, size_t len);
/* 1234567 as "1,234,567" (vdbench's "#,###"). */
const char	*units_grouped(uint64_t v, char *buf, size_t len);

#endif /* COMMON_UNITS_H */
