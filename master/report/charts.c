/* SPDX-License-Identifier: MIT */
/* SVG charts from results.json's runs. */
#include "charts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

#define CH_W		760
#define CH_H		250	/* the plot and its axes; the legend is below */
#define CH_LEFT		80
#define CH_RIGHT	20
#define CH_TOP		28
#define CH_BOTTOM	40
#define CH_LEG		15	/* one legend line */
#define CH_MAXCAT	24	/* category labels written at most */

static const char *const colors[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
	"#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
/* After each ten colours the next dash pattern: 40 distinct lines. */
static const char *const dashes[] = { "", "6,3", "2,2", "8,3,2,3" };
#define NCOLORS	(sizeof(colors) / sizeof(colors[0]))
#define NDASHES	(sizeof(dashes) / sizeof(dashes[0]))

/* One line of a chart: its points and its legend text. */
struct series {
	char	 label[300];
	int	 n;
	double	*x;
	double	*y;
};

/* A chart: what it shows, its lines, and how its x axis reads. */
struct chart {
	const char	 *kind;		/* data-kind, for tests and scripts */
	char		  title[300];
	const char	 *xlabel;
	const char	 *ylabel;
	struct series	 *s;
	int		  ns;
	int		  cap;		/* points each series may hold */
	char		**cats;		/* x categories, or NULL: numeric x */
	int		  ncats;
	int		  logy;
};

static const char *const pct_keys[] = {
	"p50", "p90", "p99", "p99.9", "p99.99",
};
#define NPCT	(sizeof(pct_keys) / sizeof(pct_keys[0]))

/* A number of an object, 0 when it is missing. */
static double
num(const json_t *o, const char *field)
{
	const json_t *v = json_object_get(o, field);

	return (json_is_number(v) ? json_number_value(v) : 0);
}

/* A percentile of all I/O in an interval or average, or -1. */
static double
pct(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(json_object_get(json_object_get(o,
	    "percentiles_ms"), "all"), key);

	return (json_is_number(v) ? json_number_value(v) : -1);
}

/*
 * A value of an interval or average: a field, or p99 of all I/O. In a
 * file-system run the rate and response time are the requested
 * operations' (vdbench's ReqstdOps columns), as in its reports.
 */
static double
value(const json_t *iv, const char *field)
{
	const json_t *req = json_object_get(iv, "requested_ops");
	double v;

	if (strcmp(field, "p99") == 0)
		return ((v = pct(iv, "p99")) < 0 ? 0 : v);
	if (req != NULL && (strcmp(field, "rate") == 0 ||
	    strcmp(field, "resp_ms") == 0))
		return (num(req, field));
	return (num(iv, field));
}

static const char *
str(const json_t *o, const char *field)
{
	const char *s = json_string_value(json_object_get(o, field));

	return (s != NULL ? s : "");
}

/* Write text with &, <, > and " escaped. */
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
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

/* An axis label: 250k, 1.2M, 0.05 (never 1e+06). */
static const char *
fmt_axis(double v, char *buf, size_t len)
{
	static const char *const sfx[] = { "", "k", "M", "G", "T" };
	double a = fabs(v);
	int i = 0;

	while (a >= 1000 && i < 4) {
		a /= 1000;
		v /= 1000;
		i++;
	}
	if (i == 0 && a != 0 && a < 0.001) {
		/* 0.00025, not 2.5e-04: as many decimals as it takes */
		int d = (int)-floor(log10(a)) + 2;
		char *p;

		snprintf(buf, len, "%.*f", d > 12 ? 12 : d, v);
		p = buf + strlen(buf);
		while (p > buf && p[-1] == '0')
			*--p = '\0';
	} else
		snprintf(buf, len, "%.3g%s", v, sfx[i]);
	return (buf);
}

/* A "nice" step near v: 1, 2, 2.5 or 5 times a power of ten. */
static double
nice_step(double v)
{
	static const double steps[] = { 1, 2, 2.5, 5 };
	double p, m;
	size_t i;

	if (v <= 0)
		return (1);
	p = pow(10, floor(log10(v)));
	m = v / p;
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (m <= steps[i] * 1.0000001)
			return (steps[i] * p);
	}
	return (10 * p);
}

/*
 * An axis from 0 to at least v in 4 or 5 nice steps: its top, and the
 * step in *step.
 */
static double
nice_axis(double v, double *step)
{
	double n;

	*step = nice_step(v > 0 ? v / 4 : 0.25);
	n = ceil(v / *step * 0.9999999);
	return ((n < 1 ? 1 : n) * *step);
}

/* A new chart with room for cap points per series and up to cap series. */
static void
chart_init(struct chart *c, const char *kind, const char *xlabel,
    const char *ylabel, int cap)
{
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->xlabel = xlabel;
	c->ylabel = ylabel;
	c->cap = cap > 0 ? cap : 1;
	c->s = xcalloc((size_t)c->cap, sizeof(*c->s));
}

static void
chart_free(struct chart *c)
{
	int i;

	for (i = 0; i < c->ns; i++) {
		free(c->s[i].x);
		free(c->s[i].y);
	}
	for (i = 0; i < c->ncats; i++)
		free(c->cats[i]);
	free(c->s);
	free(c->cats);
}

/* The series labelled label, made when it is new (NULL when full). */
static struct series *
series_get(struct chart *c, const char *label)
{
	struct series *s;
	int i;

	for (i = 0; i < c->ns; i++) {
		if (strcmp(c->s[i].label, label) == 0)
			return (&c->s[i]);
	}
	if (c->ns == c->cap)
		return (NULL);
	s = &c->s[c->ns++];
	snprintf(s->label, sizeof(s->label), "%s", label);
	s->x = xcalloc((size_t)c->cap, sizeof(double));
	s->y = xcalloc((size_t)c->cap, sizeof(double));
	return (s);
}

static void
series_add(struct series *s, int cap, double x, double y)
{
	if (s != NULL && s->n < cap) {
		s->x[s->n] = x;
		s->y[s->n] = y;
		s->n++;
	}
}

/* The index of category text (added when new). */
static int
cat_index(struct chart *c, const char *text)
{
	int i;

	if (c->cats == NULL)
		c->cats = xcalloc((size_t)c->cap, sizeof(*c->cats));
	for (i = 0; i < c->ncats; i++) {
		if (strcmp(c->cats[i], text) == 0)
			return (i);
	}
	if (c->ncats == c->cap)
		return (c->cap - 1);
	c->cats[c->ncats] = xstrdup(text);
	return (c->ncats++);
}

/* Sort a series by x (the knee: response time over the achieved rate). */
static void
series_sort_x(struct series *s)
{
	int i, j;

	for (i = 1; i < s->n; i++) {
		for (j = i; j > 0 && s->x[j - 1] > s->x[j]; j--) {
			double t = s->x[j];

			s->x[j] = s->x[j - 1];
			s->x[j - 1] = t;
			t = s->y[j];
			s->y[j] = s->y[j - 1];
			s->y[j - 1] = t;
		}
	}
}

/* Where y lands in the plot. */
static double
ypos(const struct chart *c, double v, double ylo, double yhi, double ph)
{
	double fr;

	if (c->logy)
		fr = v > 0 ? (log10(v) - log10(ylo)) / (log10(yhi) -
		    log10(ylo)) : 0;
	else
		fr = v / yhi;
	if (fr < 0)
		fr = 0;
	return (CH_TOP + ph - ph * fr);
}

/* Where x lands: categories sit in the middle of equal bands. */
static double
xpos(const struct chart *c, double v, double xlo, double xhi, double left,
    double pw)
{
	if (c->cats != NULL)
		return (left + pw * (v + 0.5) / (c->ncats > 0 ? c->ncats : 1));
	return (xhi > xlo ? left + pw * (v - xlo) / (xhi - xlo) : left +
	    pw / 2);
}

/* A chart's geometry: plot area, axis ranges and steps, picture size. */
struct frame {
	double	pw, ph;		/* the plot's width and height */
	int	left;		/* the plot's left edge */
	double	xlo, xhi, ylo, yhi;
	double	xstep, ystep;
	int	turn, xb;	/* category labels turned; their depth */
	int	dec, dstep;	/* log y: decades, decades per label */
	int	wid, h;		/* the picture */
};

/*
 * Category labels (some 6 px a character) turn when they would overlap;
 * turned, they reach 0.82 of that left and 0.57 down.
 */
static void
frame_cats(const struct chart *c, struct frame *fr)
{
	size_t maxlen = 0;
	int i;

	for (i = 0; i < c->ncats; i++) {
		if (strlen(c->cats[i]) > maxlen)
			maxlen = strlen(c->cats[i]);
	}
	fr->pw = CH_W - fr->left - CH_RIGHT;
	if (c->ncats > 0 && (double)maxlen * 6 > fr->pw / c->ncats * 0.9) {
		double w = (double)(maxlen > 60 ? 60 : maxlen) * 6;

		fr->turn = 1;
		fr->xb = (int)(w * 0.57);
		if (w * 0.82 - fr->pw / c->ncats / 2 + 10 > fr->left)
			fr->left = (int)(w * 0.82 - fr->pw / c->ncats / 2 +
			    10);
		if (fr->left > 320)
			fr->left = 320;
		fr->pw = CH_W - fr->left - CH_RIGHT;
	}
}

/* The axes' ranges and steps from the data. */
static void
frame_axes(const struct chart *c, struct frame *fr)
{
	double ymin = 0;
	int i, j, first = 1;

	for (i = 0; i < c->ns; i++) {
		for (j = 0; j < c->s[i].n; j++) {
			double x = c->s[i].x[j], y = c->s[i].y[j];

			if (first || x < fr->xlo)
				fr->xlo = x;
			if (first || x > fr->xhi)
				fr->xhi = x;
			if (y > fr->yhi)
				fr->yhi = y;
			if (y > 0 && (ymin == 0 || y < ymin))
				ymin = y;
			first = 0;
		}
	}
	if (c->cats != NULL) {
		fr->xlo = 0;
		fr->xhi = c->ncats - 1;
	} else if (strcmp(c->kind, "interval") != 0) {
		fr->xlo = 0;	/* rates from 0: the knee's shape */
		fr->xhi = nice_axis(fr->xhi, &fr->xstep);
	} else	/* intervals 1..n: whole numbers */
		fr->xstep = ceil(nice_step((fr->xhi - fr->xlo) / 5));
	if (c->logy) {
		/* whole decades, at most 6 labels */
		fr->ylo = ymin > 0 ? pow(10, floor(log10(ymin))) : 0.001;
		fr->dec = fr->yhi > 0 ? (int)ceil(log10(fr->yhi / fr->ylo) -
		    1e-9) : 1;
		fr->dec = fr->dec < 1 ? 1 : fr->dec;
		fr->dstep = (fr->dec + 4) / 5;
		fr->dec = (fr->dec + fr->dstep - 1) / fr->dstep * fr->dstep;
		fr->yhi = fr->ylo * pow(10, fr->dec);
		fr->ystep = 0;
	} else
		fr->yhi = nice_axis(fr->yhi, &fr->ystep);
}

/* Lay a chart out: labels, axes, and the picture's size. */
static void
frame_build(const struct chart *c, struct frame *fr)
{
	int i;

	memset(fr, 0, sizeof(*fr));
	fr->ph = CH_H - CH_TOP - CH_BOTTOM;
	fr->left = CH_LEFT;
	fr->xstep = 1;
	fr->ystep = 1;
	fr->dec = 1;
	fr->dstep = 1;
	fr->wid = CH_W;
	frame_cats(c, fr);
	frame_axes(c, fr);
	fr->h = CH_H + fr->xb + CH_LEG * c->ns + 8;
	/* the picture grows to the longest legend (some 7 px a character
	 * at most): names are never cut */
	for (i = 0; i < c->ns; i++) {
		int need = fr->left + 34 + 7 * (int)strlen(c->s[i].label) + 10;

		if (need > fr->wid)
			fr->wid = need;
	}
	/* and to the title (bold 13 px: up to 8.5 px a character) */
	if (fr->left + (int)strlen(c->title) * 17 / 2 + 10 > fr->wid)
		fr->wid = fr->left + (int)strlen(c->title) * 17 / 2 + 10;
}

/* The y grid, its labels and the y axis' name. */
static void
draw_y_axis(FILE *f, const struct chart *c, const struct frame *fr)
{
	char b[32];
	int t;

	for (t = 0; t <= (c->logy ? fr->dec / fr->dstep :
	    (int)lround(fr->yhi / fr->ystep)); t++) {
		double v, y;

		v = c->logy ? fr->ylo * pow(10, t * fr->dstep) : fr->ystep * t;
		y = ypos(c, v, fr->ylo, fr->yhi, fr->ph);
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		    "stroke=\"#e5e5e5\"/><text x=\"%d\" y=\"%.1f\" "
		    "text-anchor=\"end\">%s</text>\n", fr->left, y,
		    fr->left + fr->pw, y, fr->left - 6, y + 4, fmt_axis(v, b,
		    sizeof(b)));
	}
	fprintf(f, "<text transform=\"translate(14,%.1f) rotate(-90)\" "
	    "text-anchor=\"middle\">", CH_TOP + fr->ph / 2);
	esc(f, c->ylabel);
	fputs("</text>\n", f);
}

/* The x labels (category labels turn when they would overlap) and name. */
static void
draw_x_axis(FILE *f, const struct chart *c, const struct frame *fr)
{
	char b[32];
	int i;

	if (c->cats != NULL) {
		int step = (c->ncats + CH_MAXCAT - 1) / CH_MAXCAT;

		for (i = 0; i < c->ncats; i += step) {
			double x = xpos(c, i, fr->xlo, fr->xhi, fr->left,
			    fr->pw);

			if (fr->turn)
				fprintf(f, "<text transform=\"translate(%.1f,"
				    "%.1f) rotate(-35)\" text-anchor=\"end\">",
				    x + 4, CH_TOP + fr->ph + 12);
			else
				fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" "
				    "text-anchor=\"middle\">", x, CH_TOP +
				    fr->ph + 14);
			esc(f, c->cats[i]);
			fputs("</text>\n", f);
		}
	} else {
		double v;

		for (v = fr->xlo; v <= fr->xhi * 1.0000001; v += fr->xstep) {
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" "
			    "text-anchor=\"middle\">%s</text>\n", xpos(c, v,
			    fr->xlo, fr->xhi, fr->left, fr->pw), CH_TOP +
			    fr->ph + 14, fmt_axis(v, b, sizeof(b)));
		}
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
	    fr->left + fr->pw / 2, CH_TOP + fr->ph + 30 + fr->xb);
	esc(f, c->xlabel);
	fputs("</text>\n", f);
}

/* Series i: its polyline, its markers (not on interval charts), legend. */
static void
draw_series(FILE *f, const struct chart *c, const struct frame *fr, int i)
{
	const struct series *s = &c->s[i];
	const char *col = colors[(size_t)i % NCOLORS];
	const char *dash = dashes[((size_t)i / NCOLORS) % NDASHES];
	double ly = CH_H + fr->xb + CH_LEG * i + 4;
	int j;

	fprintf(f, "<g class=\"series\" data-points=\"%d\" "
	    "data-label=\"", s->n);
	esc(f, s->label);
	fprintf(f, "\">\n<polyline fill=\"none\" stroke=\"%s\" "
	    "stroke-width=\"1.5\"%s%s%s points=\"", col,
	    dash[0] ? " stroke-dasharray=\"" : "", dash,
	    dash[0] ? "\"" : "");
	for (j = 0; j < s->n; j++) {
		double x = xpos(c, s->x[j], fr->xlo, fr->xhi, fr->left,
		    fr->pw);

		fprintf(f, "%.1f,%.1f ", x, ypos(c, s->y[j], fr->ylo,
		    fr->yhi, fr->ph));
	}
	fputs("\"/>\n", f);
	for (j = 0; j < s->n && strcmp(c->kind, "interval") != 0; j++) {
		double x = xpos(c, s->x[j], fr->xlo, fr->xhi, fr->left,
		    fr->pw);

		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
		    "fill=\"%s\"><title>%.10g</title></circle>\n", x,
		    ypos(c, s->y[j], fr->ylo, fr->yhi, fr->ph), col,
		    s->y[j]);
	}
	fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
	    "stroke=\"%s\" stroke-width=\"2\"%s%s%s/><text x=\"%d\" "
	    "y=\"%.1f\" class=\"legend\">", fr->left, ly, fr->left + 28,
	    ly, col, dash[0] ? " stroke-dasharray=\"" : "", dash,
	    dash[0] ? "\"" : "", fr->left + 34, ly + 4);
	esc(f, s->label);
	fputs("</text>\n</g>\n", f);
}

/* Write a chart: axes, one polyline and its markers per series, legend. */
static void
chart_write(FILE *f, const struct chart *c)
{
	struct frame fr;
	int i;

	frame_build(c, &fr);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" font-family=\"sans-serif\" font-size=\"11\" "
	    "data-kind=\"%s\" data-series=\"%d\">\n"
	    "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\" "
	    "stroke=\"#cccccc\"/>\n<text x=\"%d\" y=\"18\" font-size=\"13\" "
	    "font-weight=\"bold\">", fr.wid, fr.h, c->kind, c->ns, fr.wid,
	    fr.h, fr.left);
	esc(f, c->title);
	fputs("</text>\n", f);
	draw_y_axis(f, c, &fr);
	draw_x_axis(f, c, &fr);
	for (i = 0; i < c->ns; i++)
		draw_series(f, c, &fr, i);
	fputs("</svg>\n", f);
}

/* A run that formats (SD_format, format_for_...): no chart of its own. */
static int
is_format(const json_t *run)
{
	return (strcmp(str(run, "rd"), "SD_format") == 0 ||
	    strncmp(str(run, "name"), "format_for_", 11) == 0);
}

/* The value of loop key in a "k=v k=v" for-loops text, into buf. */
static int
loop_get(const char *loops, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key);
	const char *p = loops;

	while (*p != '\0') {
		const char *e = strchr(p, ' ');
		size_t n = e != NULL ? (size_t)(e - p) : strlen(p);

		if (n > kl && strncmp(p, key, kl) == 0 && p[kl] == '=') {
			snprintf(buf, len, "%.*s", (int)(n - kl - 1), p + kl +
			    1);
			return (0);
		}
		p += n;
		while (*p == ' ')
			p++;
	}
	return (-1);
}

/* loops without the item key=..., into buf. */
static void
loop_without(const char *loops, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key), o = 0;
	const char *p = loops;

	buf[0] = '\0';
	while (*p != '\0') {
		const char *e = strchr(p, ' ');
		size_t n = e != NULL ? (size_t)(e - p) : strlen(p);

		if (!(n > kl && strncmp(p, key, kl) == 0 && p[kl] == '=') &&
		    o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%.*s",
			    o > 0 ? " " : "", (int)n, p);
		p += n;
		while (*p == ' ')
			p++;
	}
}

/*
 * The for-loop key the charts put on the x axis: the one with the most
 * values among the measured runs [first, last), the first (outermost) on
 * a tie, iorate= only when nothing else changes; NULL when none does.
 */
static const char *
loop_key(const json_t *runs, size_t first, size_t last, char *key,
    size_t len)
{
	const char *loops = NULL;
	const char *p;
	size_t r;
	int found = 0, io = 0;

	for (r = first; r < last && loops == NULL; r++) {
		if (!is_format(json_array_get(runs, r)))
			loops = str(json_array_get(runs, r), "for_loops");
	}
	if (loops == NULL)
		return (NULL);
	for (p = loops; *p != '\0';) {
		const char *e = strchr(p, ' '), *eq;
		size_t n = e != NULL ? (size_t)(e - p) : strlen(p);
		char k[64], v[128], v2[128];
		size_t r2;
		int nv = 0;

		eq = memchr(p, '=', n);
		if (eq != NULL && (size_t)(eq - p) < sizeof(k)) {
			snprintf(k, sizeof(k), "%.*s", (int)(eq - p), p);
			/* how many different values it takes */
			for (r = first; r < last; r++) {
				const json_t *run = json_array_get(runs, r);
				int seen = 0;

				if (is_format(run) || loop_get(str(run,
				    "for_loops"), k, v, sizeof(v)) != 0)
					continue;
				for (r2 = first; r2 < r && !seen; r2++)
					seen = !is_format(json_array_get(runs,
					    r2)) && loop_get(str(json_array_get(
					    runs, r2), "for_loops"), k, v2,
					    sizeof(v2)) == 0 && strcmp(v, v2) == 0;
				nv += !seen;
			}
			if (strcmp(k, "iorate") == 0)
				io = nv > 1;	/* only when nothing else */
			else if (nv > 1 && nv > found) {
				snprintf(key, len, "%s", k);
				found = nv;
			}
		}
		p += n;
		while (*p == ' ')
			p++;
	}
	if (!found && io)
		snprintf(key, len, "iorate");
	return (found || io ? key : NULL);
}

/* For-loops: field of each run's average against the loop value. */
static void
forloop_chart(FILE *f, const json_t *runs, size_t first, size_t last,
    const char *rd, const char *key, const char *field, const char *what)
{
	struct chart c;
	size_t r;

	chart_init(&c, strcmp(field, "rate") == 0 ? "forloop-rate" :
	    "forloop-resp", key, what, (int)(last - first));
	snprintf(c.title, sizeof(c.title), "rd=%s: %s against %s= (run "
	    "averages)", rd, what, key);
	for (r = first; r < last; r++) {
		const json_t *run = json_array_get(runs, r);
		const json_t *avg = json_object_get(run, "average");
		char v[128], rest[300], label[400];
		const char *name = str(run, "name");

		if (is_format(run) || avg == NULL || loop_get(str(run,
		    "for_loops"), key, v, sizeof(v)) != 0)
			continue;
		loop_without(str(run, "for_loops"), key, rest, sizeof(rest));
		/* curve points and N% runs: each rate a line of its own */
		snprintf(label, sizeof(label), "%s%s%s", strcmp(name, rd) != 0 ?
		    name : (rest[0] ? "" : rd), strcmp(name, rd) != 0 &&
		    rest[0] ? " " : "", rest);
		series_add(series_get(&c, label), c.cap, cat_index(&c, v),
		    value(avg, field));
	}
	if (c.ns > 0)
		chart_write(f, &c);
	chart_free(&c);
}

/* Curves and rate lists: response time against the achieved rate. */
static void
knee_chart(FILE *f, const json_t *runs, size_t first, size_t last,
    const char *rd)
{
	struct chart c;
	size_t r;
	int i;

	chart_init(&c, "knee", "achieved I/O rate per second",
	    "response time, ms", (int)(last - first));
	snprintf(c.title, sizeof(c.title), "rd=%s: response time against "
	    "I/O rate (one point per run)", rd);
	for (r = first; r < last; r++) {
		const json_t *run = json_array_get(runs, r);
		const json_t *avg = json_object_get(run, "average");
		char rest[300];

		if (is_format(run) || avg == NULL)
			continue;
		loop_without(str(run, "for_loops"), "iorate", rest,
		    sizeof(rest));
		series_add(series_get(&c, rest[0] ? rest : rd), c.cap,
		    value(avg, "rate"), value(avg, "resp_ms"));
	}
	for (i = 0; i < c.ns; i++)
		series_sort_x(&c.s[i]);
	if (c.ns > 0)
		chart_write(f, &c);
	chart_free(&c);
}

/*
 * A run's label: its for-loop values, after its name when that is not
 * the rd's (curve points) or when named is set.
 */
static void
run_label(const json_t *run, const char *rd, int named, char *buf,
    size_t len)
{
	const char *name = str(run, "name"), *loops = str(run, "for_loops");

	named |= strcmp(name, rd) != 0;

	if (strcmp(loops, "None") == 0)
		loops = "";
	snprintf(buf, len, "%s%s%s", named ? name : "", named && loops[0] ?
	    " " : "", loops[0] || named ? loops : name);
}

/* Latency percentiles of each run's average, log scale. */
static void
pct_chart(FILE *f, const json_t *runs, size_t first, size_t last,
    const char *rd)
{
	struct chart c;
	size_t r, k;
	int named = 0;

	chart_init(&c, "percentiles", "run", "response time, ms (log)",
	    (int)(last - first) > (int)NPCT ? (int)(last - first) :
	    (int)NPCT);
	c.logy = 1;
	snprintf(c.title, sizeof(c.title), "rd=%s: response time "
	    "percentiles per run", rd);
	for (k = 0; k < NPCT; k++)
		series_get(&c, pct_keys[k]);
	for (r = first; r < last; r++)
		named |= !is_format(json_array_get(runs, r)) &&
		    strcmp(str(json_array_get(runs, r), "name"), rd) != 0;
	for (r = first; r < last; r++) {
		const json_t *run = json_array_get(runs, r);
		const json_t *avg = json_object_get(run, "average");
		char label[300];
		int x;

		if (is_format(run) || avg == NULL || pct(avg, "p50") < 0)
			continue;
		run_label(run, rd, named, label, sizeof(label));
		x = cat_index(&c, label);
		for (k = 0; k < NPCT; k++)
			series_add(&c.s[k], c.cap, x, pct(avg, pct_keys[k]));
	}
	if (c.ncats > 0)
		chart_write(f, &c);
	chart_free(&c);
}

/* One per-interval chart of one field over the runs [first, last). */
static void
interval_chart(FILE *f, const json_t *runs, size_t first, size_t last,
    const char *rd, const char *field, const char *what)
{
	struct chart c;
	size_t r, i, n = 2;

	for (r = first; r < last; r++) {
		size_t k = json_array_size(json_object_get(json_array_get(runs,
		    r), "intervals"));

		if (k > n)
			n = k;
	}
	chart_init(&c, "interval", "interval", what, (int)(n > (last - first) ?
	    n : last - first));
	snprintf(c.title, sizeof(c.title), "rd=%s: %s per interval", rd, what);
	for (r = first; r < last; r++) {
		const json_t *run = json_array_get(runs, r);
		const json_t *ivs = json_object_get(run, "intervals");
		char label[300];
		struct series *s;

		/* a format run or a one-interval run makes no line */
		if (is_format(run) || json_array_size(ivs) < 2)
			continue;
		run_label(run, "", 1, label, sizeof(label));
		s = series_get(&c, label);
		for (i = 0; i < json_array_size(ivs); i++)
			series_add(s, c.cap, (double)(i + 1),
			    value(json_array_get(ivs, i), field));
	}
	if (c.ns > 0)
		chart_write(f, &c);
	chart_free(&c);
}

/*
 * Charts for every rd (its runs are consecutive in the list): the run
 * averages first (for-loops, the knee, percentiles), then per interval.
 */
void
charts_write(FILE *f, const json_t *runs)
{
	static const char *const fields[][2] = {
		{ "rate", "I/O rate per second" },
		{ "mb_per_s", "MB/sec (1024**2)" },
		{ "resp_ms", "response time, ms" },
		{ "p99", "p99 response time, ms" },
	};
	size_t first, i, k, n = json_array_size(runs);
	int pass;

	if (n == 0)
		return;
	for (pass = 0; pass < 2; pass++) {
		fputs(pass == 0 ? "\n<a name=\"vdbc_charts\"></a>vdbc: charts "
		    "per run (run averages)\n" : "\nvdbc: charts per interval "
		    "(one line per run)\n", f);
		for (first = 0, i = 1; i <= n; i++) {
			const char *a = str(json_array_get(runs, first), "rd");
			char key[64];
			size_t m = 0, r;
			int rates = 0;

			if (i < n && strcmp(a, str(json_array_get(runs, i),
			    "rd")) == 0)
				continue;
			for (r = first; r < i; r++) {
				const json_t *run = json_array_get(runs, r);

				if (is_format(run))
					continue;
				if (m > 0 && strcmp(str(run, "rate_text"),
				    str(json_array_get(runs, r - 1),
				    "rate_text")) != 0)
					rates = 1;
				m++;
			}
			if (pass == 1) {
				for (k = 0; k < sizeof(fields) /
				    sizeof(fields[0]); k++)
					interval_chart(f, runs, first, i, a,
					    fields[k][0], fields[k][1]);
			} else if (m > 0) {
				if (loop_key(runs, first, i, key,
				    sizeof(key)) != NULL &&
				    strcmp(key, "iorate") != 0) {
					forloop_chart(f, runs, first, i, a,
					    key, "rate", "I/O rate per second");
					forloop_chart(f, runs, first, i, a,
					    key, "resp_ms",
					    "response time, ms");
				}
				if (rates)
					knee_chart(f, runs, first, i, a);
				pct_chart(f, runs, first, i, a);
			}
			first = i;
		}
	}
	fflush(f);
}
