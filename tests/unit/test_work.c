/* A slave's run as WORK builds it: what a WORK may ask (threads, xfersize,
 * memory), bad WORKs refused without a crash, per-(sd, wd) counters
 * summed from only the threads that carry each workload, and snapshots
 * taken while the threads count that are never torn. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "interval_json.h"
#include "model.h"
#include "model_json.h"
#include "work.h"
#include "work_json.h"
#include "xmalloc.h"

static char dir[] = "/tmp/vdbc-test-work.XXXXXX";

/* An sd entry: null engine, a file in the test's directory. */
static json_t *
sd(const char *name, int threads)
{
	char lun[128];

	snprintf(lun, sizeof(lun), "%s/%s", dir, name);
	return (json_pack("{s:s,s:s,s:i,s:f,s:[],s:b,s:s}", "sd", name, "lun",
	    lun, "threads", threads, "rate_per_s", 0.0, "openflags", "create",
	    1, "engine", "null"));
}

/* A random WG of one transfer size over the first MiB. */
static json_t *
wg(const char *wd, const char *sdname, double readpct, uint64_t xfer)
{
	struct xfer x;
	json_t *j;

	memset(&x, 0, sizeof(x));
	xfer_set_single(&x, xfer);
	j = json_pack("{s:s,s:s,s:f,s:f,s:f,s:b,s:f,s:f,s:o,s:I,s:I,s:I,s:I,"
	    "s:I}", "wd", wd, "sd", sdname, "skew_pct", 0.0, "readpct",
	    readpct, "seekpct", 100.0, "seek_eof", 0, "rhpct", 0.0, "whpct",
	    0.0, "xfer", xfer_to_json(&x), "low_bytes", (json_int_t)0,
	    "high_bytes", (json_int_t)(1 << 20) + (json_int_t)xfer,
	    "hit_low_bytes", (json_int_t)0, "hit_high_bytes", (json_int_t)0,
	    "align_bytes", (json_int_t)0);
	xfer_clear(&x);
	return (j);
}

/* A WORK body around sds and wgs (references taken). */
static json_t *
body(json_t *sds, json_t *wgs)
{
	return (json_pack("{s:i,s:I,s:i,s:{s:s,s:o,s:o}}", "run_id", 1,
	    "interval_ns", (json_int_t)1000000000, "seed", 1, "work", "engine",
	    "null", "sds", sds, "wgs", wgs));
}

/* A run built from WORK body b (reference taken) and started. */
static struct work *
started(json_t *b)
{
	struct errmsg e;
	struct work *w = work_new(b, NULL, &e);

	json_decref(b);
	if (w == NULL)
		fail_msg("%s", e.text);
	assert_int_equal(work_start(w, &e), 0);
	return (w);
}

/* work_new must refuse b with a text holding each of want[]. */
static void
refused(json_t *b, const char *const want[])
{
	struct errmsg e;
	struct work *w;
	int i;

	memset(&e, 0, sizeof(e));
	w = work_new(b, NULL, &e);
	json_decref(b);
	if (w != NULL)
		work_free(w);
	assert_null(w);
	for (i = 0; want[i] != NULL; i++) {
		if (strstr(e.text, want[i]) == NULL)
			fail_msg("'%s' lacks '%s'", e.text, want[i]);
	}
}

static void
test_threads_over_limit(void **state)
{
	static const char *const one[] = { "5000 threads", "at most 4096",
	    "threads=", NULL };
	static const char *const two[] = { "4097 threads", "at most 4096",
	    NULL };
	static const char *const huge[] = { "200000 threads", "at most 4096",
	    NULL };

	(void)state;
	/* threads=100000 from a fake master once hung the slave in WORK. */
	refused(body(json_pack("[o]", sd("sd1", 5000)), json_pack("[o]",
	    wg("wd1", "sd1", 100, 4096))), one);
	/* Not a bare "bad sd entry" past 100000 either. */
	refused(body(json_pack("[o]", sd("sd1", 200000)), json_pack("[o]",
	    wg("wd1", "sd1", 100, 4096))), huge);
	/* The limit is the slave's sum over its sds. */
	refused(body(json_pack("[o,o]", sd("sd1", 4000), sd("sd2", 97)),
	    json_pack("[o,o]", wg("wd1", "sd1", 100, 4096), wg("wd1", "sd2",
	    100, 4096))), two);
}

static void
test_xfersize_over_limit(void **state)
{
	static const char *const want[] = { "wd=wd1,sd=sd1", "xfersize="
	    "2147483648", "limit of 1073741824 bytes", NULL };

	(void)state;
	refused(body(json_pack("[o]", sd("sd1", 1)), json_pack("[o]",
	    wg("wd1", "sd1", 100, 2ull << 30))), want);
}

static void
test_memory_over_limit(void **state)
{
	/* 4096 threads x two 1 GiB buffers: 8 TiB. */
	static const char *const want[] = { "would take 838", "MiB",
	    "% of this host's memory", "lower threads= or xfersize=", NULL };

	(void)state;
	refused(body(json_pack("[o]", sd("sd1", 4096)), json_pack("[o]",
	    wg("wd1", "sd1", 100, 1ull << 30))), want);
}

static void
test_fs_threads_over_limit(void **state)
{
	static const char *const want[] = { "fwds", "5000 threads",
	    "at most 4096", NULL };
	struct slave_work w;
	int i;

	(void)state;
	/* complete fwgs (the codec refuses partial ones first) */
	memset(&w, 0, sizeof(w));
	vdbhist_edges_default(&w.edges);
	w.max_errors = 50;
	w.compratio = 1;
	w.is_fs = 1;
	w.fwgs = xcalloc(2, sizeof(*w.fwgs));
	for (i = 0; i < 2; i++) {
		struct work_fwg *g = &w.fwgs[w.nfwgs++];

		g->fwd = xstrdup(i == 0 ? "fwd1" : "fwd2");
		g->fsd = xstrdup("fsd1");
		g->anchor = xstrdup("/nonexistent/a");
		g->operation = xstrdup("read");
		xfer_set_single(&g->xfer, 4096);
		g->threads = g->thread_total = i == 0 ? 3000 : 2000;
		g->tree.nsizes = 1;
		g->tree.size_bytes = xcalloc(1, sizeof(uint64_t));
		g->tree.size_bytes[0] = 4096;
	}
	refused(json_pack("{s:i,s:I,s:i,s:o}", "run_id", 1, "interval_ns",
	    (json_int_t)1000000000, "seed", 1, "work", work_to_json(&w)), want);
	slave_work_clear(&w);
}

/* An sd without a workload after one with threads: refused, no crash. */
static void
test_sd_without_workload(void **state)
{
	static const char *const want[] = { "sd=sd2 has no workload", NULL };

	(void)state;
	refused(body(json_pack("[o,o]", sd("sd1", 2), sd("sd2", 2)),
	    json_pack("[o]", wg("wd1", "sd1", 100, 4096))), want);
}

/* Two wds on each of two sds with different thread counts: every
 * (wd, sd) entry has its own I/Os, wd1 reads only, wd2 writes only. */
static void
test_stats_per_sd_and_wd(void **state)
{
	struct errmsg e;
	struct work *w;
	struct interval_wg iw;
	json_t *b, *st, *v;
	size_t i;

	(void)state;
	b = body(json_pack("[o,o]", sd("sd1", 3), sd("sd2", 2)),
	    json_pack("[o,o,o,o]", wg("wd1", "sd1", 100, 4096), wg("wd1",
	    "sd2", 100, 4096), wg("wd2", "sd1", 0, 4096), wg("wd2", "sd2", 0,
	    4096)));
	w = started(b);
	usleep(100000);
	work_stop(w);
	st = work_stats_json(w, 1, 0);
	assert_int_equal(json_array_size(st), 4);
	/* in WORK order: wd1 on sd1, sd2, then wd2 on sd1, sd2 */
	iw.h[0] = hist_new();
	iw.h[1] = hist_new();
	iw.sched = hist_new();
	json_array_foreach(st, i, v) {
		uint64_t r, wr;

		assert_int_equal(interval_wg_from_json(&iw, v, &e), 0);
		r = iw.io.side[0].ios;
		wr = iw.io.side[1].ios;
		assert_int_equal(hist_count(iw.h[0]), r);
		assert_int_equal(hist_count(iw.h[1]), wr);
		if (i < 2) {
			assert_true(r > 0);
			assert_int_equal(wr, 0);
		} else {
			assert_int_equal(r, 0);
			assert_true(wr > 0);
		}
	}
	hist_free(iw.h[0]);
	hist_free(iw.h[1]);
	hist_free(iw.sched);
	json_decref(st);
	work_free(w);
}

/* Does one decoded interval hold whole I/Os only? NULL, or what is off. */
static const char *
torn(const struct interval_wg *iw, uint64_t xfer)
{
	int d;

	for (d = 0; d < 2; d++) {
		const struct iostats_side *x = &iw->io.side[d];
		uint64_t vsum = 0;
		unsigned int b;

		for (b = 0; b < iw->nvdb; b++)
			vsum += iw->vdb[d].count[b];
		if (x->bytes != x->ios * xfer)
			return ("bytes not ios x xfersize");
		if (x->ios == 0 && (x->resp_sum_ns != 0 ||
		    x->resp_sumsq_us2 != 0))
			return ("response time over 0 I/Os");
		if (hist_count(iw->h[d]) != x->ios)
			return ("histogram count not ios");
		if (vsum != x->ios)
			return ("vdbench buckets not ios");
	}
	return (NULL);
}

/*
 * The race of the hosts review (2026-12-04, "grew by 2084 ns over 0
 * operations"): snapshots taken as fast as the loop thread can while
 * null-engine threads count at iorate=max. Each interval must hold whole
 * I/Os: bytes, response times, buckets and histogram of the same I/Os.
 * Runs under TSan in scripts/test.
 */
static void
test_stats_whole_while_running(void **state)
{
	struct errmsg e;
	struct work *w;
	struct interval_wg iw;
	json_t *b, *st, *v;
	uint64_t t_end, k, ios = 0;
	struct timespec ts;
	const char *bad = NULL;
	size_t i;

	(void)state;
	b = body(json_pack("[o]", sd("sd1", 4)), json_pack("[o]",
	    wg("wd1", "sd1", 50, 4096)));
	w = work_new(b, NULL, &e);
	json_decref(b);
	if (w == NULL)
		fail_msg("%s", e.text);
	iw.h[0] = hist_new();
	iw.h[1] = hist_new();
	iw.sched = hist_new();
	assert_int_equal(work_start(w, &e), 0);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t_end = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000 +
	    700;
	for (k = 1; bad == NULL; k++) {
		st = work_stats_json(w, k, 0);
		json_array_foreach(st, i, v) {
			assert_int_equal(interval_wg_from_json(&iw, v, &e), 0);
			ios += iw.io.side[0].ios + iw.io.side[1].ios;
			if (bad == NULL && (bad = torn(&iw, 4096)) != NULL)
				print_message("snapshot %llu: %s (read %llu "
				    "I/Os %llu bytes, write %llu I/Os %llu "
				    "bytes)\n", (unsigned long long)k, bad,
				    (unsigned long long)iw.io.side[0].ios,
				    (unsigned long long)iw.io.side[0].bytes,
				    (unsigned long long)iw.io.side[1].ios,
				    (unsigned long long)iw.io.side[1].bytes);
		}
		json_decref(st);
		clock_gettime(CLOCK_MONOTONIC, &ts);
		/* 0.7 s and 50 snapshots, or 5 s (TSan is slow) */
		if ((uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec /
		    1000000 >= t_end + (k < 50 ? 4300 : 0))
			break;
	}
	work_stop(w);
	assert_null(bad);
	assert_true(k >= 20);
	assert_true(ios > 0);
	hist_free(iw.h[0]);
	hist_free(iw.h[1]);
	hist_free(iw.sched);
	work_free(w);
}

/* A stop wakes the threads asleep until their next arrival at once: at
 * 0.05 I/O a second over 4 threads each sleeps about 80 s (pace.h). */
static void
test_stop_wakes_sleepers(void **state)
{
	struct work *w;
	json_t *b, *s;
	struct timespec ts, t0, t1;
	double took_s;

	(void)state;
	s = sd("sd1", 4);
	json_object_set_new(s, "rate_per_s", json_real(0.05));
	b = body(json_pack("[o]", s), json_pack("[o]", wg("wd1", "sd1", 100,
	    4096)));
	w = started(b);
	ts.tv_sec = 0;
	ts.tv_nsec = 300000000;
	nanosleep(&ts, NULL);		/* the threads are asleep by now */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	work_stop(w);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	took_s = (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (took_s > 5)
		fail_msg("work_stop took %.3f s with threads asleep", took_s);
	work_free(w);
}

static int
setup(void **state)
{
	(void)state;
	return (mkdtemp(dir) == NULL ? -1 : 0);
}

static int
teardown(void **state)
{
	char cmd[200];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return (system(cmd) == 0 ? 0 : -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threads_over_limit),
		cmocka_unit_test(test_xfersize_over_limit),
		cmocka_unit_test(test_memory_over_limit),
		cmocka_unit_test(test_fs_threads_over_limit),
		cmocka_unit_test(test_sd_without_workload),
		cmocka_unit_test(test_stats_per_sd_and_wd),
		cmocka_unit_test(test_stats_whole_while_running),
		cmocka_unit_test(test_stop_wakes_sleepers),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
