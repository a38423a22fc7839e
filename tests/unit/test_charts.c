/* summary.html's SVG charts from results.json's runs (master/charts.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "charts.h"

/* A run as results.json has it: rate r, n intervals of rate r. */
static json_t *
run(const char *name, const char *rd, const char *loops, double r, int n)
{
	json_t *ivs = json_array(), *o;
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(ivs, json_pack("{s:f,s:f,s:f,s:{s:{s:f}}}",
		    "rate", r, "mb_per_s", r / 256, "resp_ms", 0.25,
		    "percentiles_ms", "all", "p99", 0.5));
	o = json_pack("{s:s,s:s,s:s,s:s,s:o,s:{s:f,s:f,s:{s:{s:f,s:f,s:f,"
	    "s:f,s:f}}}}", "name", name, "rd", rd, "for_loops", loops,
	    "rate_text", "Uncontrolled MAX", "intervals", ivs, "average",
	    "rate", r, "resp_ms", 0.25, "percentiles_ms", "all", "p50", 0.1,
	    "p90", 0.2, "p99", 0.5, "p99.9", 1.0, "p99.99", 2.0);
	return (o);
}

/* The charts of runs as one string (freed by the caller). */
static char *
draw(const json_t *runs)
{
	static char *buf;	/* static: GCC's dangling-pointer check */
	static size_t len;
	FILE *f;

	buf = NULL;
	len = 0;
	f = open_memstream(&buf, &len);

	assert_non_null(f);
	charts_write(f, runs);
	fclose(f);
	return (buf);
}

/* The chart of kind whose title names rd (a pointer into s, or NULL). */
static const char *
chart_of(const char *s, const char *kind, const char *rd)
{
	char k[64], t[64];
	const char *p;

	snprintf(k, sizeof(k), "data-kind=\"%s\"", kind);
	snprintf(t, sizeof(t), ">rd=%s:", rd);
	for (p = strstr(s, k); p != NULL; p = strstr(p + 1, k)) {
		const char *end = strstr(p, "</svg>"), *title = strstr(p, t);

		if (title != NULL && title < end)
			return (p);
	}
	return (NULL);
}

/*
 * 12 runs of a for-loop: 12 lines per interval chart, each in its own
 * colour and dash; a format run and a one-interval run get no line; the
 * axis reads 1.2M, never 1e+06; a long legend is never cut.
 */
static void
test_many_runs(void **state)
{
	json_t *runs = json_array();
	char name[400], *s, seen[16][64];
	const char *c, *end, *p;
	int i, j, n = 0;

	(void)state;
	json_array_append_new(runs, run("format_for_rdx", "rdx", "threads=1",
	    5e6, 1));
	for (i = 1; i <= 12; i++) {
		snprintf(name, sizeof(name), "threads=%d", i);
		json_array_append_new(runs, run("rdx", "rdx", name,
		    100000.0 * i, 3));
	}
	json_array_append_new(runs, run("rdx", "rdx", "threads=13", 1e5, 1));
	memset(name, 'x', 200);
	name[200] = '\0';
	json_array_append_new(runs, run("rdy", "rdy", name, 1e3, 2));
	s = draw(runs);
	/* per interval: 12 lines, none for the format or one interval */
	c = chart_of(s, "interval", "rdx");
	assert_non_null(c);
	end = strstr(c, "</svg>");
	for (p = strstr(c, "<polyline"); p != NULL && p < end;
	    p = strstr(p + 1, "<polyline")) {
		const char *q = strstr(p, " points=");

		assert_true(n < 16);
		snprintf(seen[n], sizeof(seen[n]), "%.*s", (int)(q - p), p);
		for (j = 0; j < n; j++)
			assert_string_not_equal(seen[j], seen[n]);
		n++;
	}
	assert_int_equal(n, 12);
	assert_null(strstr(c, "format_for_rdx"));
	/* rates up to 1.2M: an axis of 500k steps to 1.5M */
	c = chart_of(s, "forloop-rate", "rdx");
	assert_non_null(c);
	assert_non_null(strstr(c, "data-points=\"13\""));
	end = strstr(c, "</svg>");
	p = strstr(c, ">500k</text>");
	assert_true(p != NULL && p < end);
	p = strstr(c, ">1.5M</text>");
	assert_true(p != NULL && p < end);
	assert_null(strstr(s, "e+0"));
	/* the 200-character legend fits in its picture */
	c = chart_of(s, "interval", "rdy");
	assert_non_null(c);
	for (p = c; p > s && strncmp(p, "<svg", 4) != 0; p--)
		;
	assert_true(atoi(strstr(p, "width=\"") + 7) >= 7 * 200);
	free(s);
	json_decref(runs);
}

/*
 * Titles are never cut: a 141-character rd name, every chart's picture
 * at least as wide as its title (bold 13 px: a reviewer saw 7.9 px a
 * character)
 * from where it starts.
 */
static void
test_long_titles(void **state)
{
	json_t *runs = json_array();
	char rd[142];
	const char *p, *t;
	char *s;
	int n = 0;

	(void)state;
	memset(rd, 'r', 141);
	rd[141] = '\0';
	json_array_append_new(runs, run(rd, rd, "threads=1", 1e3, 3));
	json_array_append_new(runs, run(rd, rd, "threads=2", 2e3, 3));
	s = draw(runs);
	for (p = strstr(s, "<svg"); p != NULL; p = strstr(p + 1, "<svg")) {
		int wid = atoi(strstr(p, "width=\"") + 7), x, len;

		t = strstr(p, "font-weight=\"bold\">");
		assert_non_null(t);
		x = atoi(strstr(strstr(p, "<text x=\""), "x=\"") + 3);
		t += 20;
		len = (int)(strstr(t, "</text>") - t);
		assert_true(len > 141);
		assert_true(wid >= x + len * 8);
		n++;
	}
	assert_true(n >= 3);
	free(s);
	json_decref(runs);
}

/* File systems: the requested operations' rate, as vdbench reports it. */
static void
test_fs_rate(void **state)
{
	json_t *runs = json_array(), *r;
	const char *c, *end, *p;
	char *s;
	int i;

	(void)state;
	for (i = 1; i <= 2; i++) {
		r = run("rdf", "rdf", i == 1 ? "threads=1" : "threads=2", 1e5,
		    2);
		json_object_set_new(json_object_get(r, "average"),
		    "requested_ops", json_pack("{s:f,s:f}", "rate", 5000.0 * i,
		    "resp_ms", 2.0));
		json_array_append_new(runs, r);
	}
	s = draw(runs);
	c = chart_of(s, "forloop-rate", "rdf");
	assert_non_null(c);
	end = strstr(c, "</svg>");
	p = strstr(c, "<title>10000</title>");
	assert_true(p != NULL && p < end);
	p = strstr(c, "<title>100000</title>");
	assert_true(p == NULL || p > end);
	free(s);
	json_decref(runs);
}

/*
 * A matrix: the loop with the most values on the x axis, the outermost
 * on a tie, iorate= only when nothing else changes.
 */
static void
test_loop_axis(void **state)
{
	static const char *const a[] = {
		"threads=1 xfersize=4k iorate=10", "threads=1 xfersize=8k iorate=10",
		"threads=1 xfersize=16k iorate=10", "threads=2 xfersize=4k iorate=20",
		"threads=2 xfersize=8k iorate=20", "threads=2 xfersize=16k iorate=20",
	};
	json_t *runs = json_array();
	const char *c, *p;
	char *s;
	size_t i;

	(void)state;
	for (i = 0; i < 6; i++)
		json_array_append_new(runs, run("rda", "rda", a[i], 1e3, 2));
	/* rdb: threads and xfersize tie at two values each */
	json_array_append_new(runs, run("rdb", "rdb", "threads=1 xfersize=4k",
	    1e3, 2));
	json_array_append_new(runs, run("rdb", "rdb", "threads=1 xfersize=8k",
	    1e3, 2));
	json_array_append_new(runs, run("rdb", "rdb", "threads=2 xfersize=4k",
	    1e3, 2));
	json_array_append_new(runs, run("rdb", "rdb", "threads=2 xfersize=8k",
	    1e3, 2));
	json_array_append_new(runs, run("rdc", "rdc", "iorate=10", 1e3, 2));
	json_array_append_new(runs, run("rdc", "rdc", "iorate=20", 1e3, 2));
	s = draw(runs);
	c = chart_of(s, "forloop-rate", "rda");
	assert_non_null(c);
	p = strstr(c, "against xfersize=");
	assert_true(p != NULL && p < strstr(c, "</svg>"));
	c = chart_of(s, "forloop-rate", "rdb");
	assert_non_null(c);
	p = strstr(c, "against threads=");
	assert_true(p != NULL && p < strstr(c, "</svg>"));
	/* iorate= alone: the knee shows it, no for-loop chart */
	assert_null(chart_of(s, "forloop-rate", "rdc"));
	free(s);
	json_decref(runs);
}

/* Nothing to draw: nothing written. */
static void
test_no_runs(void **state)
{
	json_t *runs = json_array();
	char *s;

	(void)state;
	s = draw(runs);
	assert_string_equal(s, "");
	free(s);
	json_decref(runs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_runs),
		cmocka_unit_test(test_long_titles),
		cmocka_unit_test(test_fs_rate),
		cmocka_unit_test(test_loop_axis),
		cmocka_unit_test(test_no_runs),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
