/* SPDX-License-Identifier: MIT */
/*
 * summary.html's data validation box (dvsummary.h): built from
 * results.json's runs, put at the top of the finished page.
 */
#include "dvsummary.h"

#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "html.h"
#include "ofile.h"
#include "xmalloc.h"

/* An integer field, 0 when absent. */
static uint64_t
ival(const json_t *o, const char *k)
{
	json_int_t v = json_integer_value(json_object_get(o, k));

	return (v > 0 ? (uint64_t)v : 0);
}

/* A string field, "" when absent. */
static const char *
sval(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return (s != NULL ? s : "");
}

/* 1234567 -> "1,234,567". */
static const char *
commas(char *buf, size_t len, uint64_t v)
{
	char tmp[32];
	size_t n, i, o = 0;

	n = (size_t)snprintf(tmp, sizeof(tmp), "%" PRIu64, v);
	for (i = 0; i < n && o + 2 < len; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return (buf);
}

/* Append the formatted, HTML-escaped text to the growing box. */
static void __attribute__((format(printf, 2, 3)))
addf(char **box, const char *fmt, ...)
{
	char text[2048], esc[8192], *n;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	html_esc(esc, sizeof(esc), text);
	xasprintf(&n, "%s%s", *box, esc);
	free(*box);
	*box = n;
}

/* Append raw HTML. */
static void
addraw(char **box, const char *html)
{
	char *n;

	xasprintf(&n, "%s%s", *box, html);
	free(*box);
	*box = n;
}

/* The first bad sector's line: its lba, place and flags. */
static void
sector_line(char **box, const json_t *blk)
{
	const json_t *sec = json_array_get(json_object_get(blk, "sectors"), 0);
	const json_t *fl = json_object_get(sec, "flags");
	char flags[256];
	size_t i, n = 0;

	if (sec == NULL)
		return;
	flags[0] = '\0';
	for (i = 0; i < json_array_size(fl); i++)
		n += (size_t)snprintf(flags + n, n < sizeof(flags) ?
		    sizeof(flags) - n : 0, "%s%s", i > 0 ? ", " : "",
		    json_string_value(json_array_get(fl, i)) != NULL ?
		    json_string_value(json_array_get(fl, i)) : "?");
	addf(box, "First bad sector:     lba 0x%08" PRIx64 " (sector %"
	    PRIu64 " of the key block at 0x%08" PRIx64 "); bad: %s\n",
	    ival(sec, "lba"), ival(sec, "sector"), ival(sec, "key_block_lba"),
	    flags);
}

char *
dvsummary_box(const json_t *runs)
{
	const json_t *run, *v, *first = NULL;
	uint64_t validated = 0, in_error = 0, corrupted = 0, ms;
	char a[32], b[32], c[32], when[64];
	char *box;
	size_t i;
	int any = 0;
	time_t sec;
	struct tm tm;

	json_array_foreach(runs, i, run) {
		if ((v = json_object_get(run, "validation")) == NULL)
			continue;
		any = 1;
		validated += ival(v, "key_blocks_validated");
		/* the map's count at the end of the run: the last one's */
		in_error = ival(v, "key_blocks_in_error");
		corrupted += ival(v, "corrupted_data_blocks");
		if (first == NULL)
			first = json_array_get(json_object_get(v,
			    "data_blocks"), 0);
	}
	if (!any)
		return (NULL);
	box = xstrdup("");
	if (corrupted == 0) {
		addraw(&box, "</pre><div id=\"data-validation\" style=\""
		    "border:2px solid #080;padding:2px 8px;margin:4px 0\">"
		    "<pre>");
		addf(&box, "Data Validation: no corruption found; %s key "
		    "blocks read and validated.\n", commas(a, sizeof(a),
		    validated));
		addraw(&box, "</pre></div><pre>\n");
		return (box);
	}
	addraw(&box, "</pre><div id=\"data-validation\" style=\"border:4px "
	    "solid #c00;background:#fff0f0;padding:2px 8px;margin:4px 0\">"
	    "<pre><b>DATA VALIDATION: CORRUPTED DATA FOUND</b>\n");
	if (first != NULL) {
		addf(&box, "First corruption:     sd=%s, lun=%s, rd=%s "
		    "(slave %s)\n", sval(first, "sd"), sval(first, "lun"),
		    sval(first, "rd"), sval(first, "slave"));
		addf(&box, "Data block:           lba %s (0x%08" PRIx64 "), "
		    "xfersize=%" PRIu64 ", %" PRIu64 " of %" PRIu64 " key "
		    "blocks corrupted, %" PRIu64 " bad sectors\n",
		    commas(a, sizeof(a), ival(first, "lba")),
		    ival(first, "lba"), ival(first, "xfersize"),
		    ival(first, "bad_key_blocks"), ival(first, "key_blocks"),
		    ival(first, "bad_sectors"));
		sector_line(&box, first);
		ms = ival(first, "found_ms");
		sec = (time_t)(ms / 1000);
		when[0] = '\0';
		if (localtime_r(&sec, &tm) != NULL)
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
		addf(&box, "Found:                %s.%03u during a %s\n", when,
		    (unsigned)(ms % 1000), sval(first, "found_during"));
	}
	addf(&box, "Totals:               %s corrupted data block(s); %s key "
	    "blocks read and validated; %s key blocks marked in error\n",
	    commas(a, sizeof(a), corrupted), commas(b, sizeof(b), validated),
	    commas(c, sizeof(c), in_error));
	addraw(&box, "The full reports:     <A HREF=\"errorlog.html\">"
	    "errorlog</A>; every corrupted block: results.json\n"
	    "</pre></div><pre>\n");
	return (box);
}

int
dvsummary_insert(const char *path, const char *box, struct errmsg *e)
{
	static const char head[] = "Vdbench summary report, created ";
	char *text = NULL, *at, tmp[4200];
	size_t len = 0, cap = 0, n;
	FILE *f;
	int bad;

	if ((f = fopen(path, "r")) == NULL)
		goto fail;
	for (;;) {
		if (len + 65536 > cap) {
			cap = (len + 65536) * 2;
			text = xreallocarray(text, cap, 1);
		}
		n = fread(text + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	bad = ferror(f);
	fclose(f);
	if (bad) {
		errno = EIO;
		goto fail;
	}
	text[len] = '\0';
	/* after the heading's blank line; else after the <pre> */
	if ((at = strstr(text, head)) != NULL &&
	    (at = strstr(at, "\n\n")) != NULL)
		at += 2;
	else if ((at = strstr(text, "<pre>\n")) != NULL)
		at += 6;
	else
		at = text;
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if ((f = ofile_fopen(tmp)) == NULL)
		goto fail;
	bad = fwrite(text, 1, (size_t)(at - text), f) != (size_t)(at - text);
	bad |= fputs(box, f) == EOF;
	bad |= fwrite(at, 1, len - (size_t)(at - text), f) !=
	    len - (size_t)(at - text);
	bad |= fflush(f) == EOF || ferror(f);
	bad |= fclose(f) == EOF;
	if (bad || rename(tmp, path) != 0) {
		if (errno == 0)
			errno = EIO;
		unlink(tmp);
		goto fail;
	}
	free(text);
	return (0);
fail:
	errmsg_set(e, NULL, 0, 0, "Cannot write the data validation box into "
	    "%s: %s", path, strerror(errno));
	free(text);
	return (-1);
}
