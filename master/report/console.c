/* SPDX-License-Identifier: MIT */
/*
 * The master's console lines, with vdbench's time-of-day prefix. Text in
 * them may come from parmfiles or slaves: the console gets it without
 * control characters, the logfile copy HTML-escaped.
 */
#include "console.h"

#include <stdarg.h>
#include <stdlib.h>

#include "html.h"
#include "mtime.h"
#include "xmalloc.h"

static FILE *console_fp;
static FILE *console_tee_fp;
/* console_held() lines waiting for the logfile: "HH:MM:SS.mmm text" */
static char **held;
static int nheld;

/*
 * Copy every console line to another file too (logfile.html); the lines
 * held until it exists go there first.
 */
void
console_tee(FILE *fp)
{
	int i;

	console_tee_fp = fp;
	if (fp == NULL)
		return;
	for (i = 0; i < nheld; i++) {
		fprintf(fp, "%.12s ", held[i]);
		html_put(fp, held[i] + 13);
		fputc('\n', fp);
		free(held[i]);
	}
	free(held);
	held = NULL;
	nheld = 0;
	fflush(fp);
}

/* Send console lines to another stream. */
void
console_use(FILE *fp)
{
	console_fp = fp;
}

/* Print one prefixed line. */
static void __attribute__((format(printf, 1, 0)))
vline(const char *fmt, va_list ap)
{
	FILE *fp = console_fp != NULL ? console_fp : stdout;
	char tod[16];

	char text[4096];

	vsnprintf(text, sizeof(text), fmt, ap);
	text_clean(text, 0);	/* a newline could fake a line */
	mtime_tod(mtime_wall_ns(), tod);
	fprintf(fp, "%s %s\n", tod, text);
	fflush(fp);
	if (console_tee_fp != NULL) {
		fprintf(console_tee_fp, "%s ", tod);
		html_put(console_tee_fp, text);
		fputc('\n', console_tee_fp);
		fflush(console_tee_fp);
	}
}

/* A line for the logfile copy only (not the console). */
void
console_logonly(const char *fmt, ...)
{
	char tod[16], text[4096];
	va_list ap;

	if (console_tee_fp == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	fprintf(console_tee_fp, "%s ", mtime_tod(mtime_wall_ns(), tod));
	html_put(console_tee_fp, text);
	fputc('\n', console_tee_fp);
	fflush(console_tee_fp);
}

/*
 * A line without the time of day, on the console and in the logfile copy:
 * vdbench's banner lines (its "Vdbench distribution:" line, whose third word
 * scripts take as the version) have none.
 */
void
console_plain(const char *fmt, ...)
{
	FILE *fp = console_fp != NULL ? console_fp : stdout;
	char text[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	text_clean(text, 0);
	fprintf(fp, "%s\n", text);
	fflush(fp);
	if (console_tee_fp != NULL) {
		html_put(console_tee_fp, text);
		fputc('\n', console_tee_fp);
		fflush(console_tee_fp);
	}
}

/*
 * A console line that the logfile gets too even when it is not open yet
 * (the parmfile's notes, printed before the output files exist).
 */
void
console_held(const char *fmt, ...)
{
	char tod[16], text[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	console_line("%s", text);
	if (console_tee_fp != NULL || nheld >= 1000)
		return;
	text_clean(text, 0);
	held = xreallocarray(held, (size_t)nheld + 1, sizeof(*held));
	xasprintf(&held[nheld++], "%s %s", mtime_tod(mtime_wall_ns(), tod),
	    text);
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
