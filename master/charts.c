/* SPDX-License-Identifier: MIT */
/* SVG line charts from results.json's runs. */
#include "charts.h"

#include <math.h>
#include <string.h>

#define CH_W		720
#define CH_H		240
#define CH_LEFT		70
#define CH_RIGHT	200	/* room for the legend */
#define CH_TOP		28
#define CH_BOTTOM	36

static const char *const colors[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
	"#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};

/* A value of an interval: a field, or a percentile of all I/O. */
static double
value(const json_t *iv, const char *field)
{
	const json_t *v;

	if (strcmp(field, "p99") == 0)
		v = json_object_get(json_object_get(json_object_get(iv,
		    "percentiles_ms"), "all"), "p99");
	else
		v = json_object_get(iv, field);
	return (json_is_number(v) ? json_number_value(v) : 0);
}

/* Write text with &, < and > escaped. */
static void
esc(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else
			fputc(*s, f);
	}
}

/* A "nice" upper bound for an axis. */
static double
nice_max(double v)
{
	double p, m;

	if (v <= 0)
		return (1);
	p = pow(10, floor(log10(v)));
	m = v / p;
	return ((m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p);
}

/* One chart of one field over the runs [first, last) of an rd. */
static void
chart(FILE *f, const json_t *runs, size_t first, size_t last,
    const char *field, const char *title)
{
	double ymax = 0, pw = CH_W - CH_LEFT - CH_RIGHT;
	double ph = CH_H - CH_TOP - CH_BOTTOM;
	size_t r, i, xmax = 1;
	int t;

	for (r = first; r < last; r++) {
		const json_t *ivs = json_object_get(json_array_get(runs, r),
		    "intervals");

		if (json_array_size(ivs) > xmax)
			xmax = json_array_size(ivs);
		for (i = 0; i < json_array_size(ivs); i++) {
			double v = value(json_array_get(ivs, i), field);

			if (v > ymax)
				ymax = v;
		}
	}
	ymax = nice_max(ymax);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n"
	    "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\" "
	    "stroke=\"#cccccc\"/>\n<text x=\"%d\" y=\"18\" font-size=\"13\" "
	    "font-weight=\"bold\">", CH_W, CH_H, CH_W, CH_H, CH_LEFT);
	esc(f, title);
	fputs("</text>\n", f);
	for (t = 0; t <= 4; t++) {
		double y = CH_TOP + ph - ph * t / 4.0;

		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		    "stroke=\"#e5e5e5\"/><text x=\"%d\" y=\"%.1f\" "
		    "text-anchor=\"end\">%g</text>\n", CH_LEFT, y,
		    CH_LEFT + pw, y, CH_LEFT - 6, y + 4, ymax * t / 4.0);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">interval"
	    " (1..%zu)</text>\n", CH_LEFT + pw / 2, CH_H - 8, xmax);
	for (r = first; r < last; r++) {
		const json_t *run = json_array_get(runs, r);
		const json_t *ivs = json_object_get(run, "intervals");
		const char *c = colors[(r - first) % (sizeof(colors) /
		    sizeof(colors[0]))];
		const char *loops = json_string_value(json_object_get(run,
		    "for_loops"));

		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" "
		    "stroke-width=\"1.5\" points=\"", c);
		for (i = 0; i < json_array_size(ivs); i++) {
			double x = CH_LEFT + (xmax > 1 ? pw * (double)i /
			    (double)(xmax - 1) : pw / 2);
			double y = CH_TOP + ph - ph * value(json_array_get(ivs,
			    i), field) / ymax;

			fprintf(f, "%.1f,%.1f ", x, y);
		}
		fprintf(f, "\"/>\n<text x=\"%.1f\" y=\"%zu\" fill=\"%s\">",
		    CH_LEFT + pw + 10, CH_TOP + 14 * (r - first) + 8, c);
		esc(f, json_string_value(json_object_get(run, "name")));
		fputs(" ", f);
		esc(f, loops != NULL ? loops : "");
		fputs("</text>\n", f);
	}
	fputs("</svg>\n", f);
}

/* Charts for every rd (its runs are consecutive in the list). */
void
charts_write(FILE *f, const json_t *runs)
{
	static const char *const fields[][2] = {
		{ "rate", "I/O rate per second" },
		{ "mb_per_s", "MB/sec (1024**2)" },
		{ "resp_ms", "response time, ms" },
		{ "p99", "p99 response time, ms" },
	};
	size_t first = 0, i, k;

	if (json_array_size(runs) == 0)
		return;
	fputs("\nvdbc: charts per interval (one line per run)\n", f);
	for (i = 1; i <= json_array_size(runs); i++) {
		const char *a = json_string_value(json_object_get(
		    json_array_get(runs, first), "rd"));
		const char *b = i < json_array_size(runs) ?
		    json_string_value(json_object_get(json_array_get(runs, i),
		    "rd")) : NULL;
		char title[300];

		if (b != NULL && a != NULL && strcmp(a, b) == 0)
			continue;
		for (k = 0; k < sizeof(fields) / sizeof(fields[0]); k++) {
			snprintf(title, sizeof(title), "rd=%s: %s",
			    a != NULL ? a : "?", fields[k][1]);
			chart(f, runs, first, i, fields[k][0], title);
		}
		first = i;
	}
	fflush(f);
}
