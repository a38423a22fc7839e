/* SPDX-License-Identifier: MIT */
/*
 * vdbench's parseflat (ParseFlat.java): columns of flatfile.html into a
 * CSV file.
 *   vdbc parseflat -i flatfile.html [-o out.csv] -c col ... [-a]
 *                  [-f col value ...] [-q]
 * As vdbench: -c is required (the columns, in the order given, named as
 * typed); -o defaults to stdout; a glued flag ("-crun") is the flag and
 * its first word; -a keeps only the avg_ lines, without it only the
 * interval lines (checkAverage); -f keeps the lines whose column equals
 * the value, case ignored (several pairs: all must match); format_for_
 * runs are dropped (removeFormat); a "?" value is written as 0. The
 * header is the first line that starts with a blank; the lines after it
 * that do not start with '*' are data, one value per column. Errors are
 * vdbench's texts with rc 157; a missing input file rc 158, as vdbench.
 */
#include "parseflat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "console.h"
#include "model.h"
#include "ofile.h"
#include "runtable.h"
#include "xmalloc.h"

#define PF_MAX_COLS	256
#define PF_FAIL		157	/* vdbench's common.failure */
#define PF_ABORT	158	/* vdbench's abort on an exception */

/* Split a line on blanks and tabs into words (in place). */
static int
split(char *line, char **w, int max)
{
	int n = 0;
	char *p, *save = NULL;

	for (p = strtok_r(line, " \t\r\n", &save); p != NULL && n < max;
	    p = strtok_r(NULL, " \t\r\n", &save))
		w[n++] = p;
	return (n);
}

/* vdbench's usage(): the usage text, then the failure; rc 157. */
static int
usage(const char *why)
{
	static const char *const text[] = {
		"", "", "", "Usage:",
		"./vdbench parseflat -i flatfile.html -o output.csv [-c col1 "
		"col2 ..] ",
		"                 [-a] [-f col1 value1 col2 value2 .. ..] [-q]",
		"",
		"-i input flatfile, e.g. output/flatfile.html",
		"-o output csv file name (default stdout)",
		"-c which column to write to CSV. Columns are written in the "
		"order specified.",
		"-f filters: 'if (colX == valueX) ... ...' (Alphabetic compare)",
		"-a include only the 'avg' data. Default: include only non-avg "
		"data.",
		"", "", "",
	};
	size_t i;

	for (i = 0; i < sizeof(text) / sizeof(text[0]); i++)
		console_line("%s", text[i]);
	console_fatal("%s", why);
	return (PF_FAIL);
}

/* What the command line asks for. */
struct pf_args {
	const char	*in;
	const char	*outp;	/* NULL: stdout */
	struct strlist	 cols;
	struct strlist	 filt;	/* column, value, column, value ... */
	int		 avg_only;
	int		 quiet;
	struct strlist	 words;	/* the split command line; in, outp in it */
};

/*
 * vdbench's scanParms: "-xvalue" becomes "-x" "value", a lone "-q" is
 * quiet; the words are listed on stderr unless quiet. 0, or the usage's
 * status.
 */
static int
parse_args(int argc, char *argv[], struct pf_args *a)
{
	struct strlist *wl = &a->words;
	char flag[3];
	int i, rc = 0;

	for (i = 2; i < argc; i++) {
		if (argv[i][0] == '-' && strlen(argv[i]) > 2) {
			snprintf(flag, sizeof(flag), "%.2s", argv[i]);
			strlist_add(wl, flag);
			strlist_add(wl, argv[i] + 2);
		} else if (strncmp(argv[i], "-q", 2) == 0)
			a->quiet = 1;
		else
			strlist_add(wl, argv[i]);
	}
	if (!a->quiet) {
		fprintf(stderr, "vdbench parseflat arguments:\n");
		for (i = 0; i < wl->n; i++)
			fprintf(stderr, "Argument %d: %s\n", i, wl->v[i]);
	}
	for (i = 0; i < wl->n && rc == 0; i++) {
		const char *x = wl->v[i];

		if (strncmp(x, "-i", 2) == 0 && i + 1 < wl->n)
			a->in = wl->v[++i];
		else if (strncmp(x, "-o", 2) == 0 && i + 1 < wl->n)
			a->outp = wl->v[++i];
		else if (strncmp(x, "-f", 2) == 0) {
			while (rc == 0 && i + 1 < wl->n &&
			    wl->v[i + 1][0] != '-') {
				strlist_add(&a->filt, wl->v[++i]);
				if (i + 1 == wl->n)
					rc = usage("'-f' filters must be "
					    "specified in pairs");
				else
					strlist_add(&a->filt, wl->v[++i]);
			}
		} else if (strncmp(x, "-c", 2) == 0) {
			while (i + 1 < wl->n && wl->v[i + 1][0] != '-')
				strlist_add(&a->cols, wl->v[++i]);
		} else if (strncmp(x, "-a", 2) == 0)
			a->avg_only = 1;
		else if (strncmp(x, "-q", 2) == 0)
			a->quiet = 1;
		else if (strncmp(x, "-l", 2) == 0 && i + 1 < wl->n) {
			/* vdbench reads a label file name and never uses it */
			console_line("-l %s: a label file is not used by "
			    "parseflat (vdbench's neither)", wl->v[++i]);
		} else {
			char why[512];

			snprintf(why, sizeof(why), "invalid parameter: %s", x);
			rc = usage(why);
		}
	}
	if (rc != 0)
		return (rc);
	if (a->in == NULL)
		return (usage("No input file specified '-f xxx'"));
	if (a->cols.n == 0)
		return (usage("No data columns specified '-c xxx yyy zzz'"));
	if (a->cols.n > PF_MAX_COLS || a->filt.n / 2 > PF_MAX_COLS)
		return (usage("Too many columns"));
	return (0);
}

/* The header: the first line that starts with a blank; its word count. */
static int
read_header(FILE *f, char **line, size_t *cap, char **hdr)
{
	int nh = 0;

	while (getline(line, cap, f) != -1) {
		char *copy, *hw[PF_MAX_COLS];
		int k;

		if ((*line)[0] != ' ' || strspn(*line, " \t\r\n") ==
		    strlen(*line))
			continue;
		copy = xstrdup(*line);
		nh = split(copy, hw, PF_MAX_COLS);
		for (k = 0; k < nh; k++)
			hdr[k] = xstrdup(hw[k]);
		free(copy);
		break;
	}
	return (nh);
}

/* The place of a column in the header, case ignored; -1 when none. */
static int
col_no(char **hdr, int nh, const char *name)
{
	int k;

	for (k = 0; k < nh; k++) {
		if (strcasecmp(hdr[k], name) == 0)
			return (k);
	}
	return (-1);
}

/* col_no, or vdbench's failure naming the column (rc in *rc). */
static int
find_col(char **hdr, int nh, const char *name, int *rc)
{
	int k = col_no(hdr, nh, name);

	if (k < 0) {
		console_fatal("Column '%s' unknown'", name);	/* sic */
		*rc = PF_FAIL;
	}
	return (k);
}

/* The header places of the -f columns (fidx), then the -c columns (idx). */
static int
map_cols(const struct pf_args *a, char **hdr, int nh, int *idx, int *fidx)
{
	int i, rc = 0;

	for (i = 0; i < a->filt.n / 2; i++) {
		if ((fidx[i] = find_col(hdr, nh, a->filt.v[2 * i], &rc)) < 0)
			return (rc);
	}
	for (i = 0; i < a->cols.n; i++) {
		if ((idx[i] = find_col(hdr, nh, a->cols.v[i], &rc)) < 0)
			return (rc);
	}
	return (0);
}

/* The data lines, one a row of words (each row one allocation). */
struct pf_rows {
	char	**line;	/* the line, split in place */
	char	***w;
	int	  n, cap;
};

/* Every data line after the header; vdbench's note on short lines. */
static void
read_rows(FILE *f, int nh, char **line, size_t *cap, struct pf_rows *r)
{
	char *w[PF_MAX_COLS + 1];

	while (getline(line, cap, f) != -1) {
		char *copy;
		int n;

		if ((*line)[0] == '*')
			continue;
		copy = xstrdup(*line);
		n = split(copy, w, PF_MAX_COLS + 1);
		if (n != nh) {
			(*line)[strcspn(*line, "\r\n")] = '\0';
			console_line("line: %s", *line);
			console_line("ParseFlat: data line incomplete, "
			    "expecting %d columns, line ignored.", nh);
			console_line("This is acceptable for the last line in "
			    "the file.");
			free(copy);
			continue;
		}
		if (r->n == r->cap) {
			r->cap = r->cap < 64 ? 64 : 2 * r->cap;
			r->line = xreallocarray(r->line, (size_t)r->cap,
			    sizeof(*r->line));
			r->w = xreallocarray(r->w, (size_t)r->cap,
			    sizeof(*r->w));
		}
		r->line[r->n] = copy;
		r->w[r->n] = xreallocarray(NULL, (size_t)n, sizeof(char *));
		memcpy(r->w[r->n], w, (size_t)n * sizeof(char *));
		r->n++;
	}
}

/*
 * Is row w written: not a format_for_ run (removeFormat), an avg_ line
 * exactly when -a (checkAverage), every -f pair matching? -1 with the
 * failure when the rows lack a run or interval column.
 */
static int
row_kept(const struct pf_args *a, char **w, int run, int interval,
    const int *fidx)
{
	int k;

	if (strncmp(w[run], "format_for_", 11) == 0)
		return (0);
	if ((strncmp(w[interval], "avg", 3) == 0) != (a->avg_only != 0))
		return (0);
	for (k = 0; k < a->filt.n / 2; k++) {
		if (strcasecmp(w[fidx[k]], a->filt.v[2 * k + 1]) != 0)
			return (0);
	}
	return (1);
}

/* The header line and the kept rows into o; the rows written. */
static int
write_rows(FILE *o, const struct pf_args *a, const struct pf_rows *r,
    char **hdr, int nh, const int *idx, const int *fidx, int *rc)
{
	int i, j, run = -1, interval = -1, count = 0;

	for (j = 0; j < a->cols.n; j++)
		fprintf(o, "%s%s", j > 0 ? "," : "", a->cols.v[j]);
	fputc('\n', o);
	if (r->n > 0 && ((run = find_col(hdr, nh, "run", rc)) < 0 ||
	    (interval = find_col(hdr, nh, "interval", rc)) < 0))
		return (0);
	for (i = 0; i < r->n; i++) {
		if (!row_kept(a, r->w[i], run, interval, fidx))
			continue;
		for (j = 0; j < a->cols.n; j++) {
			const char *v = r->w[i][idx[j]];

			fprintf(o, "%s%s", j > 0 ? "," : "",
			    strcmp(v, "?") == 0 ? "0" : v);
		}
		fputc('\n', o);
		count++;
	}
	return (count);
}

/* The parseflat sub-command; argv[1] is its name. */
int
parseflat_main(int argc, char *argv[])
{
	struct pf_args a;
	struct pf_rows r;
	char *line = NULL, *hdr[PF_MAX_COLS];
	int i, nh = 0, rc, idx[PF_MAX_COLS], fidx[PF_MAX_COLS], count;
	size_t cap = 0;
	FILE *f = NULL, *o = NULL;

	memset(&a, 0, sizeof(a));
	memset(&r, 0, sizeof(r));
	if ((rc = parse_args(argc, argv, &a)) != 0)
		goto out;
	if ((f = runtable_fopen(a.in)) == NULL) {
		console_line("Abort requested: %s (%s)", a.in,
		    runtable_why(errno));
		rc = PF_ABORT;
		goto out;
	}
	nh = read_header(f, &line, &cap, hdr);
	read_rows(f, nh, &line, &cap, &r);
	if ((rc = map_cols(&a, hdr, nh, idx, fidx)) != 0)
		goto out;
	if (a.outp == NULL)
		o = stdout;
	else if ((o = ofile_fopen(a.outp)) == NULL) {
		console_line("Abort requested: %s (%s)", a.outp,
		    strerror(errno));
		rc = PF_ABORT;
		goto out;
	}
	count = write_rows(o, &a, &r, hdr, nh, idx, fidx, &rc);
	if (rc != 0)
		goto out;
	if (count == 0) {
		console_fatal("No output written. Check column names and "
		    "filters");
		rc = PF_FAIL;
		goto out;
	}
	/* vdbench's line; lost there when the CSV went to stdout */
	if (a.outp != NULL)
		console_line("ParseFlat completed successfully.");
out:
	if (o != NULL && o != stdout)
		fclose(o);
	else if (o == stdout)
		fflush(o);
	if (f != NULL)
		fclose(f);
	for (i = 0; i < nh; i++)
		free(hdr[i]);
	for (i = 0; i < r.n; i++) {
		free(r.line[i]);
		free(r.w[i]);
	}
	free(r.line);
	free(r.w);
	free(line);
	strlist_clear(&a.cols);
	strlist_clear(&a.filt);
	strlist_clear(&a.words);
	return (rc);
}
