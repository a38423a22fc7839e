/* SPDX-License-Identifier: MIT */
/*
 * vdbench's parseflat: columns of flatfile.html into a CSV file.
 *   vdbc parseflat -i flatfile.html -o out.csv [-c col ...] [-a]
 *                  [-f col value ...]
 * -c picks columns (default: all), -a keeps only the avg_ lines, -f keeps
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

/* The parseflat sub-command; argv[1] is its name. */
int
parseflat_main(int argc, char *argv[])
{
	struct strlist cols = { 0, NULL, 0 }, filt = { 0, NULL, 0 };
	const char *in = NULL, *outp = NULL;
	char *line = NULL, *hdr[256], *w[256];
	int i, nh = 0, avg_only = 0, mode = 0, rc = 1, idx[256], fidx[128];
	size_t cap = 0;
	FILE *f = NULL, *o = NULL;

	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "-i") == 0 && i + 1 < argc) {
			in = argv[++i];
			mode = 0;
		} else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
			outp = argv[++i];
			mode = 0;
		} else if (strcmp(argv[i], "-c") == 0)
			mode = 'c';
		else if (strcmp(argv[i], "-f") == 0)
			mode = 'f';
		else if (strcmp(argv[i], "-a") == 0)
			avg_only = 1;
		else if (mode == 'c')
			strlist_add(&cols, argv[i]);
		else if (mode == 'f')
			strlist_add(&filt, argv[i]);
		else {
			rc = usage("unexpected argument");
			goto out;
		}
	}
	if (in == NULL || outp == NULL) {
		rc = usage("-i and -o are required");
		goto out;
	}
	if (filt.n % 2 != 0 || filt.n / 2 > 128) {
		rc = usage("-f takes pairs: column value");
		goto out;
	}
	if ((f = fopen(in, "r")) == NULL) {
		fprintf(stderr, "vdbc parseflat: %s: %s\n", in, strerror(errno));
		goto out;
	}
	/* The header: the first line that starts with a blank. */
	while (getline(&line, &cap, f) != -1) {
		if (line[0] == ' ' && strstr(line, "tod") != NULL) {
			char *copy = xstrdup(line);
			char *hw[256];
			int k;

			nh = split(copy, hw, 256);
			for (k = 0; k < nh; k++)
				hdr[k] = xstrdup(hw[k]);
			free(copy);
			break;
		}
	}
	if (nh == 0) {
		fprintf(stderr, "vdbc parseflat: %s: no column header line "
		    "(is it a flatfile.html?)\n", in);
		goto out;
	}
	if (cols.n == 0) {
		for (i = 0; i < nh; i++)
			strlist_add(&cols, hdr[i]);
	}
	for (i = 0; i < cols.n && i < 256; i++) {
		int k;

		for (k = 0; k < nh && strcasecmp(hdr[k], cols.v[i]) != 0; k++)
			;
		if (k == nh) {
			fprintf(stderr, "vdbc parseflat: no column '%s' in %s\n",
			    cols.v[i], in);
			goto out;
		}
		idx[i] = k;
	}
	for (i = 0; i < filt.n / 2; i++) {
		int k;

		for (k = 0; k < nh && strcasecmp(hdr[k], filt.v[2 * i]) != 0;
		    k++)
			;
		if (k == nh) {
			fprintf(stderr, "vdbc parseflat: no column '%s' in %s\n",
			    filt.v[2 * i], in);
			goto out;
		}
		fidx[i] = k;
	}
	if ((o = fopen(outp, "w")) == NULL) {
		fprintf(stderr, "vdbc parseflat: %s: %s\n", outp,
		    strerror(errno));
		goto out;
	}
	for (i = 0; i < cols.n; i++)
		fprintf(o, "%s%s", i > 0 ? "," : "", cols.v[i]);
	fputc('\n', o);
	while (getline(&line, &cap, f) != -1) {
		int n = split(line, w, 256), keep = 1, k, interval = -1;

		if (n != nh)
			continue;	/* not a data line */
		for (k = 0; k < nh; k++) {
			if (strcmp(hdr[k], "Interval") == 0)
				interval = k;
		}
		if (avg_only && (interval < 0 ||
		    strncmp(w[interval], "avg_", 4) != 0))
			keep = 0;
		for (k = 0; k < filt.n / 2 && keep; k++)
			keep = strcmp(w[fidx[k]], filt.v[2 * k + 1]) == 0;
		if (!keep)
			continue;
		for (i = 0; i < cols.n; i++)
			fprintf(o, "%s%s", i > 0 ? "," : "", w[idx[i]]);
		fputc('\n', o);
	}
	rc = 0;
out:
	if (o != NULL)
		fclose(o);
	if (f != NULL)
		fclose(f);
	for (i = 0; i < nh; i++)
		free(hdr[i]);
	free(line);
	strlist_clear(&cols);
	strlist_clear(&filt);
	return (rc);
}
