/*
 * The WORK builder without processes: PARMFILE.md 12.2 (thread division),
 * 12.4 (rate division), 12.6 (address range, hit area, raw block 0,
 * rounding to the largest xfersize, offset=, too small a lun), hotband's
 * wrap past the end of the lun, 8.2 (for-loop values), 12.9 (SD_format),
 * maxdata= and 10.1 (fwd threads over the slaves of an fsd). Every expected number comes from the spec's rules.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "dataerr.h"
#include "parmtest.h"
#include "workgen.h"

#define MB	(1024ull * 1024)

/* A parsed and planned parmfile on one host of nslaves slaves. */
struct fix {
	struct model	*m;
	struct plan	 pl;
	struct mhost	 host;
	uint64_t	 size[8];
	uint64_t	 xmax[8];
	struct workgen_in in;
};

static void
fix_load(struct fix *f, const char *text, int nslaves, uint64_t lun_bytes)
{
	struct parm_opts o;
	struct errmsg e;
	int i;

	memset(f, 0, sizeof(*f));
	pt_opts(&o);
	if (pt_parse(text, &o, &f->m, &e) != 0)
		fail_msg("parse: %s", e.text);
	if (plan_build(f->m, &f->pl, &e) != 0)
		fail_msg("plan: %s", e.text);
	snprintf(f->host.label, sizeof(f->host.label), "localhost");
	f->host.first = 0;
	f->host.nslaves = nslaves;
	for (i = 0; i < 8; i++)
		f->size[i] = lun_bytes;
	workgen_xmax(f->m, &f->pl, f->xmax);
	f->in.model = f->m;
	f->in.hosts = &f->host;
	f->in.nhosts = 1;
	f->in.nslaves = nslaves;
	f->in.sd_size = f->size;
	f->in.sd_xmax = f->xmax;
}

static void
fix_free(struct fix *f)
{
	plan_free(&f->pl);
	model_free(f->m);
}

/* Build run r; the run, which must succeed. */
static void
build(struct fix *f, int r, struct workgen_run *w)
{
	struct errmsg e;

	errmsg_clear(&e);
	if (workgen_plan_run(&f->in, &f->pl.runs[r], w, &e) != 0)
		fail_msg("workgen: %s", e.text);
}

static json_int_t
ival(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_integer(v))
		fail_msg("%s: not an integer", key);
	return (json_integer_value(v));
}

static double
nval(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_number(v))
		fail_msg("%s: not a number", key);
	return (json_number_value(v));
}

/* WORK of slave s: its wg i and sd i. */
static json_t *
wg(const struct workgen_run *w, int s, int i)
{
	assert_non_null(w->work[s]);
	return (json_array_get(json_object_get(w->work[s], "wgs"), (size_t)i));
}

static json_t *
sdw(const struct workgen_run *w, int s, int i)
{
	assert_non_null(w->work[s]);
	return (json_array_get(json_object_get(w->work[s], "sds"), (size_t)i));
}

/* 12.6.1-2: a file lun, no range, no hits: the whole lun is the miss area. */
static void
test_range_whole_lun(void **state)
{
	struct fix f;
	struct workgen_run w;
	json_t *g;

	(void)state;
	fix_load(&f, "sd=sd1,lun=/tmp/x,size=100m\nwd=wd1,sd=sd1,xfersize=4k\n"
	    "rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n", 1, 100 * MB);
	build(&f, 0, &w);
	g = wg(&w, 0, 0);
	assert_int_equal(ival(g, "low_bytes"), 0);
	assert_int_equal(ival(g, "high_bytes"), 100 * MB);
	assert_int_equal(ival(g, "hit_low_bytes"), 0);
	assert_int_equal(ival(g, "hit_high_bytes"), 0);
	assert_null(json_object_get(g, "hot"));
	workgen_run_free(&w);
	fix_free(&f);
}

/* 12.6.1: percentages of the size; the WD's range= wins over the SD's. */
static void
test_range_percent_wd_over_sd(void **state)
{
	struct fix f;
	struct workgen_run w;
	json_t *g;

	(void)state;
	fix_load(&f, "sd=sd1,lun=/tmp/x,size=100m,range=(0,20)\n"
	    "wd=wd1,sd=sd1,xfersize=4k,range=(10,50)\n"
	    "rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n", 1, 100 * MB);
	build(&f, 0, &w);
	g = wg(&w, 0, 0);
	assert_int_equal(ival(g, "low_bytes"), 10 * MB);
	assert_int_equal(ival(g, "high_bytes"), 50 * MB);
	workgen_run_free(&w);
	fix_free(&f);
}

/* 12.6.1: values above 100 are byte offsets. */
static void
test_range_bytes(void **state)
{
	struct fix f;
	struct workgen_run w;
	json_t *g;

	(void)state;
	fix_load(&f, "sd=sd1,lun=/tmp/x,size=100m\n"
	    "wd=wd1,sd=sd1,xfersize=4k,range=(8192,1048576)\n"
	    "rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n", 1, 100 * MB);
	build(&f, 0, &w);
	g = wg(&w, 0, 0);
	assert_int_equal(ival(g, "low_bytes"), 8192);
	assert_int_equal(ival(g, "high_bytes"), 1048576);
	workgen_run_free(&w);
	fix_free(&f);
}

/* 12.6.2: with read hits the hit area is [low, low+H), misses above it. */
static void
test_hit_area(void **state)
{
	struct fix f;
	struct workgen_run w;
	json_t *g;

	(void)state;
	fix_load(&f, "sd=sd1,lun=/tmp/x,size=100m,hitarea=2m\n"
	    "wd=wd1,sd=sd1,xfersize=4k,rhpct=50,range=(10,100)\n"
	    "rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n", 1, 100 * MB);
	build(&f, 0, &w);
	g = wg(&w, 0, 0);
	assert_int_equal(ival(g, "hit_low_bytes"), 10 * MB);
	assert_int_equal(ival(g, "hit_high_bytes"), 12 * MB);
	assert_int_equal(ival(g, "low_bytes"), 12 * MB);
	assert_int_equal(ival(g, "high_bytes"), 100 * MB);
	workgen_run_free(&w);
	fix_free(&f);
}

/* 12.6.3: block 0 of a raw device is never used: a 0 bound becomes X. */
static void
test_raw_block_zero(void **state)
{
	struct fix f;
	struct workgen_run w;
	json_t *g;

	(void)state;
	fix_load(&f, "sd=sd1,lun=/dev/sdz\nwd=wd1,sd=sd1,xfersize=8k\n"
	    "rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n", 1, 100 * MB);
	build(&f, 0, &w);
	g = wg(&w, 0, 0);
	assert_int_equal(ival(g, "low_bytes"), 8192);
	assert_int_equal(ival(g, "hit_low_bytes"), 8192);
	workgen_run_free(&w);
	fix_free(&f);
}

/*
 * 12.6 X and 12.6.4: X is the largest xfersize of the sd in any run (here
 * a for-loop's 64k); bounds round down to it, offset= goes on the low ones.
 */
static void
test_round_to_largest_xfer_and_offset(void **state)
{
	struct fix f;
	struct workgen_run w;
	json_t *g;

	(void)state;
	fix_load(&f, "sd=sd1,lun=/tmp/x,size=1000000,offset=512\n"
	    "wd=wd1,sd=sd1,xfersize=4k\n"
	    "rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1,"
	    "forxfersize=(4k,64k)\n", 1, 1000000);
	assert_int_equal(f.xmax[0], 65536);
	build(&f, 0, &w);
	g = wg(&w, 0, 0);
	assert_int_equal(ival(g, "low_bytes"), 512);
	assert_int_equal(ival(g, "high_bytes"), 1000000 / 65536 * 65536);
	/* the run's own xfersize is the loop's first value */
	assert_int_equal(json_integer_value(json_array_get(json_object_get(
	    json_object_get(g, "xfer"), "size_bytes"), 0)), 4096);
	workgen_run_free(&w);
	fix_free(&f);
}

/* 12.6.5: a width under twice X is refused, naming wd and sd. */
static void
test_lun_too_small(void **state)
{
	struct fix f;
	struct workgen_run w;
	struct errmsg e;

	(void)state;
	fix_load(&f, "sd=sd1,lun=/tmp/x,size=6k\nwd=wd1,sd=sd1,xfersize=4k\n"
	    "rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n", 1, 6144);
	errmsg_clear(&e);
	assert_int_equal(workgen_plan_run(&f.in, &f.pl.runs[0], &w, &e), -1);
	assert_non_null(strstr(e.text, "wd=wd1,sd=sd1"));
	assert_non_null(strstr(e.text, "Insufficient amount of lun size"));
	workgen_run_free(&w);
	fix_free(&f);
}

/* hotband=(90,110): past the end of the lun the band wraps to its start. */
static void
test_hotband_wrap(void **state)
{
	struct fix f;
	struct workgen_run w;
	json_t *g;

	(void)state;
	fix_load(&f, "sd=sd1,lun=/tmp/x,size=100m\n"
	    "wd=wd1,sd=sd1,xfersize=4k,hotband=(90,110)\n"
	    "rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n", 1, 100 * MB);
	build(&f, 0, &w);
	g = wg(&w, 0, 0);
	assert_true(json_is_true(json_object_get(g, "hot")));
	assert_int_equal(ival(g, "low_bytes"), 90 * MB);
	assert_int_equal(ival(g, "high_bytes"), 110 * MB);
	assert_int_equal(ival(g, "wrap_end_bytes"), 100 * MB);
	assert_int_equal(ival(g, "wrap_to_bytes"), 0);
	workgen_run_free(&w);
	fix_free(&f);
}

/* A hotband inside the lun does not wrap. */
static void
test_hotband_no_wrap(void **state)
{
	struct fix f;
	struct workgen_run w;
	json_t *g;

	(void)state;
	fix_load(&f, "sd=sd1,lun=/tmp/x,size=100m\n"
	    "wd=wd1,sd=sd1,xfersize=4k,hotband=(10,20)\n"
	    "rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n", 1, 100 * MB);
	build(&f, 0, &w);
	g = wg(&w, 0, 0);
	assert_int_equal(ival(g, "low_bytes"), 10 * MB);
	assert_int_equal(ival(g, "high_bytes"), 20 * MB);
	assert_null(json_object_get(g, "wrap_end_bytes"));
	workgen_run_free(&w);
	fix_free(&f);
}

/* range=(90,110) on a wd or an sd wraps past the end as hotband= does. */
static void
test_range_wrap(void **state)
{
	static const char *const parms[] = {
		"sd=sd1,lun=/tmp/x,size=100m\n"
		"wd=wd1,sd=sd1,xfersize=4k,range=(90,110)\n"
		"rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n",
		"sd=sd1,lun=/tmp/x,size=100m,range=(90,110)\n"
		"wd=wd1,sd=sd1,xfersize=4k\n"
		"rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n",
	};
	struct fix f;
	struct workgen_run w;
	json_t *g;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(parms) / sizeof(parms[0]); i++) {
		fix_load(&f, parms[i], 1, 16 * MB);
		build(&f, 0, &w);
		g = wg(&w, 0, 0);
		assert_null(json_object_get(g, "hot"));
		assert_int_equal(ival(g, "low_bytes"), 16 * MB * 90 / 100 /
		    4096 * 4096);
		assert_int_equal(ival(g, "high_bytes"), 16 * MB * 110 / 100 /
		    4096 * 4096);
		assert_int_equal(ival(g, "wrap_end_bytes"), 16 * MB);
		assert_int_equal(ival(g, "wrap_to_bytes"), 0);
		workgen_run_free(&w);
		fix_free(&f);
	}
}

/* 12.6.1: seekpct=eof resets a crossing range's high end to 100. */
static void
test_range_wrap_eof(void **state)
{
	struct fix f;
	struct workgen_run w;
	json_t *g;

	(void)state;
	fix_load(&f, "sd=sd1,lun=/tmp/x,size=100m\n"
	    "wd=wd1,sd=sd1,xfersize=4k,range=(90,110),seekpct=eof\n"
	    "rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n", 1, 100 * MB);
	build(&f, 0, &w);
	g = wg(&w, 0, 0);
	assert_int_equal(ival(g, "low_bytes"), 90 * MB);
	assert_int_equal(ival(g, "high_bytes"), 100 * MB);
	assert_null(json_object_get(g, "wrap_end_bytes"));
	workgen_run_free(&w);
	fix_free(&f);
}

/*
 * 12.2 example: one host, two slaves, threads=8, one random WD: a WG on
 * each slave with 4 threads; 12.4: each gets half the rate and skew.
 */
static void
test_rate_and_thread_division(void **state)
{
	struct fix f;
	struct workgen_run w;
	int s;

	(void)state;
	fix_load(&f, "sd=sd1,lun=/tmp/x,size=100m,threads=8\n"
	    "wd=wd1,sd=sd1,xfersize=4k\n"
	    "rd=rd1,wd=wd1,iorate=1000,elapsed=2,interval=1\n", 2, 100 * MB);
	build(&f, 0, &w);
	for (s = 0; s < 2; s++) {
		assert_int_equal(ival(sdw(&w, s, 0), "threads"), 4);
		assert_true(nval(sdw(&w, s, 0), "rate_per_s") == 500);
		assert_true(nval(wg(&w, s, 0), "skew_pct") == 50);
	}
	assert_int_equal(w.nskew, 2);
	assert_true(w.req.reqrate == 1000);
	assert_true(w.req.threads == 8);
	workgen_run_free(&w);
	fix_free(&f);
}

/* 12.2.3: threads=3 over two slaves: 2 and 1 (ties to the lowest). */
static void
test_odd_threads(void **state)
{
	struct fix f;
	struct workgen_run w;

	(void)state;
	fix_load(&f, "sd=sd1,lun=/tmp/x,size=100m,threads=3\n"
	    "wd=wd1,sd=sd1,xfersize=4k\n"
	    "rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n", 2, 100 * MB);
	build(&f, 0, &w);
	assert_int_equal(ival(sdw(&w, 0, 0), "threads"), 2);
	assert_int_equal(ival(sdw(&w, 1, 0), "threads"), 1);
	workgen_run_free(&w);
	fix_free(&f);
}

/* 12.2.2: a sequential WD runs on one slave; seekpct=eof ends the run. */
static void
test_sequential_one_slave_eof(void **state)
{
	struct fix f;
	struct workgen_run w;

	(void)state;
	fix_load(&f, "sd=sd1,lun=/tmp/x,size=100m,threads=4\n"
	    "wd=wd1,sd=sd1,xfersize=4k,seekpct=eof\n"
	    "rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n", 2, 100 * MB);
	build(&f, 0, &w);
	assert_non_null(w.work[0]);
	assert_null(w.work[1]);
	assert_int_equal(ival(sdw(&w, 0, 0), "threads"), 4);
	assert_int_equal(w.has_eof[0], 1);
	assert_int_equal(w.has_eof[1], 0);
	assert_int_equal(w.eof_run, 1);
	workgen_run_free(&w);
	fix_free(&f);
}

/* 8.2: each for-loop run carries its own values, in the request too. */
static void
test_for_loops(void **state)
{
	static const int th[4] = { 2, 2, 4, 4 };
	static const double rd[4] = { 0, 100, 0, 100 };
	struct fix f;
	struct workgen_run w;
	int r;

	(void)state;
	fix_load(&f, "sd=sd1,lun=/tmp/x,size=100m\n"
	    "wd=wd1,sd=sd1,xfersize=4k\n"
	    "rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1,"
	    "forthreads=(2,4),forrdpct=(0,100)\n", 1, 100 * MB);
	assert_int_equal(f.pl.nruns, 4);
	for (r = 0; r < 4; r++) {
		build(&f, r, &w);
		assert_int_equal(ival(sdw(&w, 0, 0), "threads"), th[r]);
		assert_true(nval(wg(&w, 0, 0), "readpct") == rd[r]);
		assert_true(w.req.threads == th[r]);
		assert_true(w.req.rdpct == rd[r]);
		workgen_run_free(&w);
	}
	fix_free(&f);
}

/* 8.3: a curve point without a measured maximum assumes 10000/s. */
static void
test_curve_without_rate(void **state)
{
	struct fix f;
	struct workgen_run w;
	int r;

	(void)state;
	fix_load(&f, "sd=sd1,lun=/tmp/x,size=100m\n"
	    "wd=wd1,sd=sd1,xfersize=4k\n"
	    "rd=rd1,wd=wd1,iorate=curve,curve=(50),elapsed=2,interval=1\n",
	    1, 100 * MB);
	for (r = 0; r < f.pl.nruns && !f.pl.runs[r].curve_point; r++)
		;
	assert_true(r < f.pl.nruns);
	build(&f, r, &w);
	assert_int_equal(w.rate_guessed, 1);
	assert_true(w.req.reqrate == 5000);
	workgen_run_free(&w);
	f.in.observed_rate = 3000;
	build(&f, r, &w);
	assert_int_equal(w.rate_guessed, 0);
	assert_true(w.req.reqrate == 1500);
	workgen_run_free(&w);
	fix_free(&f);
}

/* 8.3 for fsd runs: fwdrate=curve's points are shares of the max run. */
static void
test_fs_curve(void **state)
{
	struct fix f;
	struct workgen_run w;
	int r;

	(void)state;
	fix_load(&f, "fsd=fsd1,anchor=/tmp/a,depth=1,width=2,files=4,size=8k\n"
	    "fwd=fwd1,fsd=fsd1,operation=read,threads=1\n"
	    "rd=rd1,fwd=fwd1,fwdrate=curve,curve=(50),elapsed=2,interval=1\n",
	    1, 0);
	for (r = 0; r < f.pl.nruns && f.pl.runs[r].format_run; r++)
		;
	assert_true(r < f.pl.nruns && !f.pl.runs[r].curve_point);
	build(&f, r, &w);
	assert_int_equal(w.curve_max, 1);
	assert_true(w.req.reqrate == RD_IORATE_MAX);
	workgen_run_free(&w);
	for (; r < f.pl.nruns && !f.pl.runs[r].curve_point; r++)
		;
	assert_true(r < f.pl.nruns);
	f.in.observed_rate = 42446;
	build(&f, r, &w);
	assert_int_equal(w.curve_max, 0);
	assert_true(w.req.reqrate == 21300);
	assert_non_null(strstr(w.text, "fwdrate=21300"));
	workgen_run_free(&w);
	fix_free(&f);
}

/* data_errors= (dataerr.h): the WORK limit, the count, the timeout. */
static void
test_data_errors(void **state)
{
	static const struct {
		const char	*kw;
		json_int_t	 max;
		int		 remove;
	} c[] = {
		{ "", 50, 0 },
		{ "data_errors=7\n", 7, 0 },
		{ "data_errors=(7,3)\n", 7, 0 },
		{ "data_errors=remove_device\n", 10000, 1 },
		{ "data_errors=\"echo x\"\n", 1, 0 },
	};
	char text[4096], why[512];
	struct dataerr d;
	struct fix f;
	struct workgen_run w;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(text, sizeof(text), "%ssd=sd1,lun=/tmp/x,size=100m\n"
		    "wd=wd1,sd=sd1,xfersize=4k\n"
		    "rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n", c[i].kw);
		fix_load(&f, text, 1, 100 * MB);
		build(&f, 0, &w);
		assert_int_equal(ival(w.work[0], "max_errors"), c[i].max);
		assert_int_equal(json_is_true(json_object_get(w.work[0],
		    "remove_device")), c[i].remove);
		dataerr_init(&d, &f.m->general);
		dataerr_run_start(&d);
		if (i == 2) {
			/* (7,3): 6 errors go on; 3 s after the last, stop */
			for (int k = 0; k < 6; k++)
				assert_int_equal(dataerr_note(&d, "rd1",
				    1000000000ull, why, sizeof(why)), 0);
			assert_int_equal(dataerr_expired(&d, 4000000000ull,
			    why, sizeof(why)), 0);
			assert_int_equal(dataerr_expired(&d, 4000000001ull,
			    why, sizeof(why)), 1);
			assert_string_equal(why, "It has been more than 3 "
			    "seconds since the last Data Validation or I/O "
			    "error.");
			assert_int_equal(dataerr_note(&d, "rd1", 5, why,
			    sizeof(why)), DATAERR_STOP);
		}
		if (i == 4) {
			assert_int_equal(dataerr_note(&d, "rd1", 5, why,
			    sizeof(why)), DATAERR_RUN_COMMAND | DATAERR_STOP);
			assert_string_equal(d.command, "echo x");
		}
		if (i == 3)
			assert_string_equal(dataerr_banner(&d),
			    "'data_errors=remove_device' option requested. "
			    "Max error count set to 10000");
		workgen_run_free(&w);
		fix_free(&f);
	}
}

/* priority= reaches each WG of the WORK (the slave orders by it). */
static void
test_priority(void **state)
{
	struct fix f;
	struct workgen_run w;

	(void)state;
	fix_load(&f, "sd=sd1,lun=/tmp/x,size=100m\n"
	    "wd=wd1,sd=sd1,xfersize=4k,iorate=100,priority=1\n"
	    "wd=wd2,sd=sd1,xfersize=4k,priority=2\n"
	    "rd=rd1,wd=wd*,iorate=400,elapsed=2,interval=1\n", 1, 100 * MB);
	build(&f, 0, &w);
	assert_int_equal(ival(wg(&w, 0, 0), "priority"), 1);
	assert_int_equal(ival(wg(&w, 0, 1), "priority"), 2);
	workgen_run_free(&w);
	fix_free(&f);
	fix_load(&f, "sd=sd1,lun=/tmp/x,size=100m\nwd=wd1,sd=sd1\n"
	    "rd=rd1,wd=wd1,iorate=400,elapsed=2,interval=1\n", 1, 100 * MB);
	build(&f, 0, &w);
	assert_null(json_object_get(wg(&w, 0, 0), "priority"));
	workgen_run_free(&w);
	fix_free(&f);
}

/* maxdata=2: twice the run's lun sizes. */
static void
test_maxdata_multiple(void **state)
{
	struct fix f;
	struct workgen_run w;

	(void)state;
	fix_load(&f, "sd=sd1,lun=/tmp/x,size=100m\n"
	    "wd=wd1,sd=sd1,xfersize=4k\n"
	    "rd=rd1,wd=wd1,iorate=max,elapsed=20,interval=1,maxdata=2\n", 1,
	    100 * MB);
	build(&f, 0, &w);
	assert_int_equal(w.maxdata_bytes, 200 * MB);
	assert_int_equal(w.maxdata_dir, 0);
	workgen_run_free(&w);
	fix_free(&f);
}

/* 12.9: SD_format writes each sd sequentially from where it ends. */
static void
test_format_run(void **state)
{
	struct fix f;
	struct workgen_run w;
	const struct sd *sd;
	const struct sd *sds[1];
	int host[1] = { 0 };
	uint64_t from[1] = { 4096 };
	json_t *g;

	(void)state;
	fix_load(&f, "sd=sd1,lun=/tmp/x,size=10m\nwd=wd1,sd=sd1,xfersize=4k\n"
	    "rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n", 1, 10 * MB);
	sd = TAILQ_FIRST(&f.m->sds);
	sds[0] = sd;
	f.in.nformat = 1;
	f.in.format_sd = sds;
	f.in.format_host = host;
	f.in.format_from = from;
	workgen_format_run(&f.in, &w);
	assert_string_equal(w.name, "SD_format");
	g = wg(&w, 0, 0);
	assert_string_equal(json_string_value(json_object_get(g, "wd")),
	    "SD_format_sd1");
	assert_int_equal(ival(g, "low_bytes"), 4096);
	assert_int_equal(ival(g, "high_bytes"), 10 * MB);
	assert_true(nval(g, "readpct") == 0);
	assert_int_equal(ival(sdw(&w, 0, 0), "threads"), 2);
	assert_true(json_is_true(json_object_get(sdw(&w, 0, 0), "create")));
	assert_int_equal(w.has_eof[0], 1);
	workgen_run_free(&w);
	fix_free(&f);
}

/* The names of the sds in slave s's WORK, comma separated ("" = none). */
static void
work_sds(const struct workgen_run *w, int s, char *buf, size_t len)
{
	json_t *a = w->work[s] != NULL ?
	    json_object_get(w->work[s], "sds") : NULL;
	size_t i;

	buf[0] = '\0';
	for (i = 0; a != NULL && i < json_array_size(a); i++) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, "%s%s", n > 0 ? "," : "",
		    json_string_value(json_object_get(json_array_get(a, i),
		    "sd")));
	}
}

/*
 * Data validation (issue 16 item 5): each sd is driven by one slave, the
 * one that holds its key map and journal, in every rd whatever sds the rd
 * uses: the sds dealt round-robin over the host's slaves in parmfile
 * order (sd1 and sd3 on slave 0, sd2 on slave 1), every thread of an sd
 * there; the SD_format of an sd on the same slave.
 */
static void
test_dv_sd_per_slave(void **state)
{
	struct fix f;
	struct workgen_run w;
	const struct sd *sds[1];
	int host[1] = { 0 };
	uint64_t from[1] = { 0 };
	char b0[64], b1[64];

	(void)state;
	fix_load(&f, "validate=yes\n"
	    "sd=sd1,lun=/tmp/x1,size=100m,threads=4\n"
	    "sd=sd2,lun=/tmp/x2,size=100m,threads=4\n"
	    "sd=sd3,lun=/tmp/x3,size=100m,threads=4\n"
	    "wd=wd1,sd=sd*,xfersize=4k,rdpct=50,seekpct=random\n"
	    "wd=wd2,sd=(sd2,sd3),xfersize=4k,rdpct=50,seekpct=random\n"
	    "rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n"
	    "rd=rd2,wd=wd2,iorate=max,elapsed=2,interval=1\n", 2, 100 * MB);
	assert_true(f.m->general.validate != 0);
	build(&f, 0, &w);
	work_sds(&w, 0, b0, sizeof(b0));
	work_sds(&w, 1, b1, sizeof(b1));
	assert_string_equal(b0, "sd1,sd3");
	assert_string_equal(b1, "sd2");
	assert_int_equal(ival(sdw(&w, 0, 0), "threads"), 4);
	assert_int_equal(ival(sdw(&w, 1, 0), "threads"), 4);
	workgen_run_free(&w);
	/* rd2 without sd1: sd2 and sd3 stay where their maps are */
	build(&f, 1, &w);
	work_sds(&w, 0, b0, sizeof(b0));
	work_sds(&w, 1, b1, sizeof(b1));
	assert_string_equal(b0, "sd3");
	assert_string_equal(b1, "sd2");
	workgen_run_free(&w);
	/* the format of sd2 goes to sd2's slave */
	sds[0] = TAILQ_NEXT(TAILQ_FIRST(&f.m->sds), entry);
	f.in.nformat = 1;
	f.in.format_sd = sds;
	f.in.format_host = host;
	f.in.format_from = from;
	workgen_format_run(&f.in, &w);
	assert_null(w.work[0]);
	work_sds(&w, 1, b1, sizeof(b1));
	assert_string_equal(b1, "sd2");
	workgen_run_free(&w);
	fix_free(&f);
}

/*
 * PARMFILE.md 10.1: an fsd that is not shared runs on one slave with all
 * the fwd's threads; a shared one on every slave, the threads dealt over
 * them as slices of the whole (2 + 1 of 3), each fwg with the fsd's tree.
 */
static void
test_fs_threads_and_tree(void **state)
{
	static const char *const text[2] = {
	    "fsd=fsd1,anchor=/tmp/a,depth=2,width=3,files=7,size=8k\n"
	    "fwd=fwd1,fsd=fsd1,operation=read,threads=3\n"
	    "rd=rd1,fwd=fwd1,fwdrate=max,elapsed=2,interval=1\n",
	    "fsd=fsd1,anchor=/tmp/a,depth=2,width=3,files=7,size=8k,"
	    "shared=yes\n"
	    "fwd=fwd1,fsd=fsd1,operation=read,threads=3\n"
	    "rd=rd1,fwd=fwd1,fwdrate=max,elapsed=2,interval=1\n" };
	struct fix f;
	struct workgen_run w;
	json_t *g, *t;
	int shared;

	(void)state;
	for (shared = 0; shared < 2; shared++) {
		fix_load(&f, text[shared], 2, 0);
		build(&f, 0, &w);
		assert_int_equal(w.fs, 1);
		g = json_array_get(json_object_get(w.work[0], "fwgs"), 0);
		assert_non_null(g);
		assert_int_equal(ival(g, "threads"), shared ? 2 : 3);
		assert_int_equal(ival(g, "thread_first"), 0);
		assert_int_equal(ival(g, "thread_total"), 3);
		t = json_object_get(g, "tree");
		assert_int_equal(ival(t, "depth"), 2);
		assert_int_equal(ival(t, "width"), 3);
		assert_int_equal(ival(t, "files"), 7);
		assert_int_equal(json_integer_value(json_array_get(
		    json_object_get(t, "size_bytes"), 0)), 8192);
		if (shared) {
			g = json_array_get(json_object_get(w.work[1], "fwgs"),
			    0);
			assert_int_equal(ival(g, "threads"), 1);
			assert_int_equal(ival(g, "thread_first"), 2);
		} else
			assert_null(w.work[1]);
		workgen_run_free(&w);
		fix_free(&f);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_range_whole_lun),
		cmocka_unit_test(test_range_percent_wd_over_sd),
		cmocka_unit_test(test_range_bytes),
		cmocka_unit_test(test_hit_area),
		cmocka_unit_test(test_raw_block_zero),
		cmocka_unit_test(test_round_to_largest_xfer_and_offset),
		cmocka_unit_test(test_lun_too_small),
		cmocka_unit_test(test_hotband_wrap),
		cmocka_unit_test(test_hotband_no_wrap),
		cmocka_unit_test(test_range_wrap),
		cmocka_unit_test(test_range_wrap_eof),
		cmocka_unit_test(test_rate_and_thread_division),
		cmocka_unit_test(test_odd_threads),
		cmocka_unit_test(test_sequential_one_slave_eof),
		cmocka_unit_test(test_for_loops),
		cmocka_unit_test(test_curve_without_rate),
		cmocka_unit_test(test_fs_curve),
		cmocka_unit_test(test_data_errors),
		cmocka_unit_test(test_priority),
		cmocka_unit_test(test_maxdata_multiple),
		cmocka_unit_test(test_format_run),
		cmocka_unit_test(test_dv_sd_per_slave),
		cmocka_unit_test(test_fs_threads_and_tree),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
