/* One output directory's run table (master/runtable.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "runtable.h"

static char dir[64];

static void
put(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int
setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/vdbc-rt.XXXXXX");
	return (mkdtemp(dir) == NULL ? -1 : 0);
}

static int
teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return (system(cmd) == 0 ? 0 : -1);
}

#define FLAT_HDR \
	"<title>Vdbench x/flatfile.html</title><pre>\n* comment\n" \
	"         tod               timestamp        Run   Interval    " \
	"rate     MB/sec       resp   resp_max   cpu_used\n"

/*
 * vdbench's directory: three runs started, the second stopped before
 * its avg_ line; the third has the same name and must get the second
 * avg_ line, not the first run's.
 */
static void
test_vdbench_dir(void **state)
{
	struct rt_dir d;
	struct errmsg e;
	char key[256];

	(void)state;
	put("flatfile.html", FLAT_HDR
	    "10:00:01.000 11/30/2026-10:00:01-UTC rd1 1 100.0 1.0 0.5 2.0 10.0\n"
	    "10:00:02.000 11/30/2026-10:00:02-UTC rd1 avg_2-1 100.0 1.0 0.5 2.0 10.0\n"
	    "10:00:05.000 11/30/2026-10:00:05-UTC rd1 1 300.0 3.0 0.25 4.0 n/a\n"
	    "10:00:06.000 11/30/2026-10:00:06-UTC rd1 avg_2-1 300.0 3.0 0.25 4.0 n/a\n");
	put("summary.html",
	    "<a name=\"_11\"></a><i><b>10:00:00.500 Starting RD=rd1; I/O "
	    "rate: 100; elapsed=1; For loops: threads=1</b></i>\n"
	    "<a name=\"_22\"></a><i><b>10:00:03.000 Starting RD=rd1; I/O "
	    "rate: 200; elapsed=1; For loops: threads=2</b></i>\n"
	    "<a name=\"_33\"></a><i><b>10:00:04.000 Starting RD=rd1; I/O "
	    "rate: 300; elapsed=1; For loops: threads=4</b></i>\n");
	assert_true(runtable_is_outdir(dir));
	assert_int_equal(runtable_read(dir, &d, &e), 0);
	assert_string_equal(d.kind, "vdbench");
	assert_string_equal(d.started, "2026-11-30 10:00:01");
	assert_int_equal(d.n, 3);
	assert_string_equal(d.runs[0].for_loops, "threads=1");
	assert_string_equal(d.runs[0].anchor, "_11");
	assert_string_equal(d.runs[0].started, "2026-11-30 10:00:00");
	assert_true(d.runs[0].rate == 100.0 && d.runs[0].cpu == 10.0);
	assert_true(d.runs[0].resp_max_ms == 2.0);
	assert_true(isnan(d.runs[0].p99) && d.runs[0].errors == -1);
	/* the third run ran after the one with no average */
	assert_string_equal(d.runs[1].status, "no average");
	assert_true(isnan(d.runs[1].rate));
	assert_string_equal(d.runs[2].status, "completed");
	assert_true(d.runs[2].rate == 300.0 && d.runs[2].resp_ms == 0.25);
	assert_true(isnan(d.runs[2].cpu));	/* "n/a" */
	runtable_key(&d.runs[2], key, sizeof(key));
	assert_string_equal(key, "rd1 threads=4");
	runtable_free(&d);
}

/* Without summary.html the flatfile's avg_ lines are the runs. */
static void
test_flatfile_only(void **state)
{
	struct rt_dir d;
	struct errmsg e;
	char key[256];

	(void)state;
	put("flatfile.html", FLAT_HDR
	    "10:00:02.000 11/30/2026-10:00:02-UTC SD_format avg_2-1 64.0 8.0 0.5 2.0 10.0\n");
	{
		char p[128];

		snprintf(p, sizeof(p), "%s/summary.html", dir);
		unlink(p);
	}
	assert_int_equal(runtable_read(dir, &d, &e), 0);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.runs[0].name, "SD_format");
	runtable_key(&d.runs[0], key, sizeof(key));
	assert_string_equal(key, "SD_format");
	runtable_free(&d);
	/* no header: refused, named */
	put("flatfile.html", "<pre>\nnothing here\n");
	assert_int_equal(runtable_read(dir, &d, &e), -1);
	assert_non_null(strstr(e.text, "flatfile.html: no column header"));
	runtable_free(&d);
}

/* vdbc's results.json wins over the flatfile; percentiles and errors. */
static void
test_results_json(void **state)
{
	struct rt_dir d;
	struct errmsg e;

	(void)state;
	put("results.json", "{\"schema\":\"vdbc-results\",\"started\":"
	    "\"2026-12-01T07:04:28+0000\",\"runs\":[{\"name\":\"rd1\","
	    "\"for_loops\":\"None\",\"status\":\"completed\",\"average\":"
	    "{\"rate\":5,\"errors\":2,\"percentiles_ms\":{\"all\":"
	    "{\"p99\":1.5,\"p99.99\":3}}}},{\"name\":\"rd2\",\"status\":"
	    "\"stopped: x\"}]}");
	assert_int_equal(runtable_read(dir, &d, &e), 0);
	assert_string_equal(d.kind, "vdbc");
	assert_string_equal(d.started, "2026-12-01 07:04:28");
	assert_int_equal(d.n, 2);
	assert_true(d.runs[0].rate == 5 && d.runs[0].p99 == 1.5 &&
	    d.runs[0].p9999 == 3 && d.runs[0].errors == 2);
	assert_true(isnan(d.runs[0].mbps));
	assert_string_equal(d.runs[1].status, "no average");
	runtable_free(&d);
	put("results.json", "{\"schema\":\"other\",\"runs\":[]}");
	assert_int_equal(runtable_read(dir, &d, &e), -1);
	assert_non_null(strstr(e.text, "not a vdbc results.json"));
	runtable_free(&d);
}

/*
 * vdbench 5.04.06 writes the user percentage as cpu_used; its totals.html
 * "cpu% sys+u" is cpu_user + cpu_kernel (a_raw_randwrite_4k: 14.1746 +
 * 42.0052 = 56.2).
 */
static void
test_vdbench_cpu(void **state)
{
	struct rt_dir d;
	struct errmsg e;
	char p[128];

	(void)state;
	snprintf(p, sizeof(p), "%s/summary.html", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/results.json", dir);
	unlink(p);	/* test_results_json's */
	put("flatfile.html", "<pre>\n         tod               timestamp  "
	    "      Run   Interval    rate   cpu_used   cpu_user cpu_kernel\n"
	    "10:03:20.140 11/30/2026-10:03:20-UTC rd1 avg_2-10 41018.8 "
	    "14.1746 14.1746 42.0052\n");
	assert_int_equal(runtable_read(dir, &d, &e), 0);
	assert_int_equal(d.n, 1);
	assert_true(fabs(d.runs[0].cpu - 56.1798) < 1e-9);
	runtable_free(&d);
}

/* How the execution ended: status.html, then logfile.html's reason. */
static void
test_outcome(void **state)
{
	struct rt_dir d;
	struct errmsg e;
	char p[128];

	(void)state;
	snprintf(p, sizeof(p), "%s/flatfile.html", dir);
	unlink(p);
	put("results.json", "{\"schema\":\"vdbc-results\",\"runs\":[]}");
	assert_int_equal(runtable_read(dir, &d, &e), 0);
	assert_string_equal(d.outcome, "");	/* nothing says otherwise */
	runtable_free(&d);
	put("status.html", "<pre>\n* The values below are all tab-"
	    "delimited.\n\n12/01/2026-08:26:54-UTC \tShutting down slaves\n"
	    "12/01/2026-08:26:54-UTC \tVdbench stopped: Stopped by signal 2 "
	    "(Ctrl-C) &amp; more\n");
	assert_int_equal(runtable_read(dir, &d, &e), 0);
	assert_string_equal(d.outcome,
	    "stopped: Stopped by signal 2 (Ctrl-C) & more");
	runtable_free(&d);
	put("status.html", "<pre>\n12/01/2026-08:26:54-UTC \tVdbench "
	    "complete\n");
	assert_int_equal(runtable_read(dir, &d, &e), 0);
	assert_string_equal(d.outcome, "");
	runtable_free(&d);
	/* vdbench failed before its first run: no flatfile header */
	unlink(p);
	snprintf(p, sizeof(p), "%s/results.json", dir);
	unlink(p);
	put("flatfile.html", "<pre>\n");
	put("status.html", "<pre>\n11/30/2026-10:05:58-UTC \tShutting "
	    "down slaves\n");
	put("logfile.html", "<pre>\n10:05:58.673 \n10:05:58.673 Could not "
	    "find sd=sd9\n10:05:58.674 \njava.lang.RuntimeException: Could "
	    "not find sd=sd9 for wd=wd1\n\tat Vdb.common.failure(common."
	    "java:335)\n10:05:59.000 removeKillAtEnd(): x\n");
	assert_int_equal(runtable_read(dir, &d, &e), 0);
	assert_string_equal(d.kind, "vdbench");
	assert_int_equal(d.n, 0);
	assert_string_equal(d.outcome, "failed: Could not find sd=sd9 for "
	    "wd=wd1");
	runtable_free(&d);
	/* vdbc's fatal message is its logfile's last */
	put("logfile.html", "<pre>\n08:24:12.293 vdbc: random seed 1\n"
	    "08:24:12.293 \n08:24:12.293 Cannot serve --metrics on "
	    "127.0.0.1:1: Address already in use\n08:24:12.293 \n");
	assert_int_equal(runtable_read(dir, &d, &e), 0);
	assert_string_equal(d.outcome, "failed: Cannot serve --metrics on "
	    "127.0.0.1:1: Address already in use");
	runtable_free(&d);
	snprintf(p, sizeof(p), "%s/status.html", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/logfile.html", dir);
	unlink(p);
}

static void
test_relpath_fmt(void **state)
{
	char a[128], b[128], c[128], buf[64], *r;
	struct errmsg e;

	(void)state;
	snprintf(a, sizeof(a), "%s/x/idx", dir);
	snprintf(b, sizeof(b), "%s/y/run1", dir);
	snprintf(c, sizeof(c), "%s/x", dir);
	assert_int_equal(runtable_mkdirs(a, &e), 0);
	assert_int_equal(runtable_mkdirs(b, &e), 0);
	r = runtable_relpath(a, b, "summary.html");
	assert_string_equal(r, "../../y/run1/summary.html");
	free(r);
	r = runtable_relpath(c, a, "summary.html");
	assert_string_equal(r, "idx/summary.html");
	free(r);
	r = runtable_relpath(a, c, "summary.html");
	assert_string_equal(r, "../summary.html");
	free(r);
	r = runtable_relpath(a, a, "summary.html");
	assert_string_equal(r, "summary.html");
	free(r);
	/* links: '#', ' ', '%' and the like encoded, '/' kept */
	snprintf(b, sizeof(b), "%s/y/run#2 50%%&\xc3\xa9", dir);
	assert_int_equal(runtable_mkdirs(b, &e), 0);
	r = runtable_url(a, b, "summary.html");
	assert_string_equal(r, "../../y/run%232%2050%25%26%C3%A9/summary.html");
	free(r);
	runtable_fmt(buf, sizeof(buf), NAN, 3);
	assert_string_equal(buf, "n/a");
	runtable_fmt(buf, sizeof(buf), 0.000062, 3);
	assert_string_equal(buf, "0.000062");
	runtable_fmt(buf, sizeof(buf), 1.5, 3);
	assert_string_equal(buf, "1.500");
	runtable_fmt(buf, sizeof(buf), 0, 1);
	assert_string_equal(buf, "0.0");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vdbench_dir),
		cmocka_unit_test(test_flatfile_only),
		cmocka_unit_test(test_results_json),
		cmocka_unit_test(test_vdbench_cpu),
		cmocka_unit_test(test_outcome),
		cmocka_unit_test(test_relpath_fmt),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
