/* SPDX-License-Identifier: MIT */
/*
 * vdbench's parseflat: columns of flatfile.html into a CSV file.
 *   vdbc parseflat -i flatfile.html -o out.csv [-c col ...] [-a]
 *                  [-f col value ...]
 * -c picks columns (default: all), -a keeps only the avg_ lines (without
 * it only the interval lines, as vdbench's checkAverage), -f keeps
 * only the lines whose column has that value (several pairs: all must
 * match). The header line of a flatfile starts with a blank; data lines
 * follow it, one value per column.
 */
#include "parseflat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "ofile.h"
#include "runtable.h"
#include "xmalloc.h"

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

/* Print a usage error. */
static int
usage(const char *why)
{
	fprintf(stderr, "vdbc parseflat: %s\nusage: vdbc parseflat -i "
	    "flatfile.html -o out.csv [-c column ...] [-a] [-f column value "
	    "...]\n", why);
	return (2);
}

/* What the command line asks for. */
struct pf_args {
	const char	*in;
	const char	*outp;
	struct strlist	 cols;
	struct strlist	 filt;
	int		 avg_only;
};

/* Parse the arguments after the sub-command: 0, or the usage's status. */
static int
parse_args(int argc, char *argv[], struct pf_args *a)
{
	int i, mode = 0;

	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "-i") == 0 && i + 1 < argc) {
			a->in = argv[++i];
			mode = 0;
		} else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
			a->outp = argv[++i];
			mode = 0;
		} else if (strcmp(argv[i], "-c") == 0)
			mode = 'c';
		else if (strcmp(argv[i], "-f") == 0)
			mode = 'f';
		else if (strcmp(argv[i], "-a") == 0)
			a->avg_only = 1;
		else if (mode == 'c')
			strlist_add(&a->cols, argv[i]);
		else if (mode == 'f')
			strlist_add(&a->filt, argv[i]);
		else
			return (usage("unexpected argument"));
	}
	if (a->in == NULL || a->outp == NULL)
		return (usage("-i and -o are required"));
	if (a->filt.n % 2 != 0 || a->filt.n / 2 > 128)
		return (usage("-f takes pairs: column value"));
	return (0);
}

/* The header: the first line that starts with a blank; its word count. */
static int
read_header(FILE *f, char **line, size_t *cap, char **hdr)
{
	int nh = 0;

	while (getline(line, cap, f) != -1) {
		if ((*line)[0] == ' ' && strstr(*line, "tod") != NULL) {
			char *copy = xstrdup(*line);
			char *hw[256];
			int k;

			nh = split(copy, hw, 256);
			for (k = 0; k < nh; k++)
				hdr[k] = xstrdup(hw[k]);
			free(copy);
			break;
		}
	}
	return (nh);
}

/* The place of column name in the header; -1 (said) when it has none. */
static int
find_col(char **hdr, int nh, const char *name, const char *in)
{
	int k;

	for (k = 0; k < nh && strcasecmp(hdr[k], name) != 0; k++)
		;
	if (k == nh) {
		fprintf(stderr, "vdbc parseflat: no column '%s' in %s\n",
		    name, in);
		return (-1);
	}
	return (k);
}

/* The header places of the -c columns (idx) and the -f columns (fidx). */
static int
map_cols(const struct pf_args *a, char **hdr, int nh, int *idx, int *fidx)
{
	int i;

	for (i = 0; i < a->cols.n && i < 256; i++) {
		if ((idx[i] = find_col(hdr, nh, a->cols.v[i], a->in)) < 0)
			return (-1);
	}
	for (i = 0; i < a->filt.n / 2; i++) {
		if ((fidx[i] = find_col(hdr, nh, a->filt.v[2 * i], a->in)) < 0)
			return (-1);
	}
	return (0);
}

/* The data lines that pass -a and -f, their chosen columns into o. */
static void
copy_rows(FILE *f, FILE *o, const struct pf_args *a, char **hdr, int nh,
    const int *idx, const int *fidx, char **line, size_t *cap)
{
	char *w[256];
	int i;

	while (getline(line, cap, f) != -1) {
		int n = split(*line, w, 256), keep = 1, k, interval = -1;

		if (n != nh)
			continue;	/* not a data line */
		for (k = 0; k < nh; k++) {
			if (strcmp(hdr[k], "Interval") == 0)
				interval = k;
		}
		/* vdbench's ParseFlat.checkAverage: -a the avg lines
		 * only, without it the interval lines only */
		if (interval >= 0 && (strncmp(w[interval], "avg", 3) == 0) !=
		    (a->avg_only != 0))
			keep = 0;
		if (interval < 0 && a->avg_only)
			keep = 0;
		for (k = 0; k < a->filt.n / 2 && keep; k++)
			keep = strcmp(w[fidx[k]], a->filt.v[2 * k + 1]) == 0;
		if (!keep)
			continue;
		for (i = 0; i < a->cols.n; i++)
			fprintf(o, "%s%s", i > 0 ? "," : "", w[idx[i]]);
		fputc('\n', o);
	}
}

/* The parseflat sub-command; argv[1] is its name. */
int
parseflat_main(int argc, char *argv[])
{
	struct pf_args a;
	char *line = NULL, *hdr[256];
	int i, nh = 0, rc = 1, idx[256], fidx[128];
	size_t cap = 0;
	FILE *f = NULL, *o = NULL;

	memset(&a, 0, sizeof(a));
	if ((rc = parse_args(argc, argv, &a)) != 0)
		goto out;
	rc = 1;
	if ((f = runtable_fopen(a.in)) == NULL) {
		fprintf(stderr, "vdbc parseflat: %s: %s\n", a.in,
		    runtable_why(errno));
		goto out;
	}
	if ((nh = read_header(f, &line, &cap, hdr)) == 0) {
		fprintf(stderr, "vdbc parseflat: %s: no column header line "
		    "(is it a flatfile.html?)\n", a.in);
		goto out;
	}
	if (a.cols.n == 0) {
		for (i = 0; i < nh; i++)
			strlist_add(&a.cols, hdr[i]);
	}
	if (map_cols(&a, hdr, nh, idx, fidx) != 0)
		goto out;
	if ((o = ofile_fopen(a.outp)) == NULL) {
		fprintf(stderr, "vdbc parseflat: %s: %s\n", a.outp,
		    strerror(errno));
		goto out;
	}
	for (i = 0; i < a.cols.n; i++)
		fprintf(o, "%s%s", i > 0 ? "," : "", a.cols.v[i]);
	fputc('\n', o);
	copy_rows(f, o, &a, hdr, nh, idx, fidx, &line, &cap);
	rc = 0;
out:
	if (o != NULL)
		fclose(o);
	if (f != NULL)
		fclose(f);
	for (i = 0; i < nh; i++)
		free(hdr[i]);
	free(line);
	strlist_clear(&a.cols);
	strlist_clear(&a.filt);
	return (rc);
}
