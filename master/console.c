/* SPDX-License-Identifier: MIT */
/* The master's console lines, with vdbench's time-of-day prefix. */
#include "console.h"

#include <stdarg.h>

#include "mtime.h"

static FILE *console_fp;

/* Send console lines to another stream. */
void
console_use(FILE *fp)
{
	console_fp = fp;
}

/* Print one prefixed line. */
static void
vline(const char *fmt, va_list ap)
{
	FILE *fp = console_fp != NULL ? console_fp : stdout;
	char tod[16];

	fprintf(fp, "%s ", mtime_tod(mtime_wall_ns(), tod));
	vfprintf(fp, fmt, ap);
	fputc('\n', fp);
	fflush(fp);
}

/* A console line. */
void
console_line(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(fmt, ap);
	va_end(ap);
}

/* A fatal message framed by empty lines, as vdbench prints it. */
void
console_fatal(const char *fmt, ...)
{
	va_list ap;

	console_line("%s", "");
	va_start(ap, fmt);
	vline(fmt, ap);
	va_end(ap);
	console_line("%s", "");
}
