/* Run-list expansion: nesting order, names, For loops text, intervals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "parmtest.h"

/* Plan text; "name|rate|loops" per run joined with newlines. */
static char *
plan_text(const char *text, char *buf, size_t len, struct plan *p)
{
	struct parm_opts o;
	struct model *m;
	struct errmsg e;
	size_t n = 0;
	int i;

	pt_opts(&o);
	assert_int_equal(pt_parse(text, &o, &m, &e), 0);
	assert_int_equal(plan_build(m, p, &e), 0);
	buf[0] = '\0';
	for (i = 0; i < p->nruns; i++) {
		char rate[64], loops[256];

		plan_rate_text(&p->runs[i], 10000, rate, sizeof(rate));
		plan_loops_text(&p->runs[i], loops, sizeof(loops));
		n += (size_t)snprintf(buf + n, len - n, "%s|%s|%s\n",
		    p->runs[i].sim_name, rate, loops);
	}
	plan_free(p);
	model_free(m);
	return (buf);
}

static void
test_t03_nesting(void **state)
{
	char buf[4096];
	struct plan p;

	(void)state;
	assert_string_equal(plan_text("sd=sd1,lun=/dev/sdb\nwd=wd1,sd=sd1\n"
	    "rd=rd1,wd=wd1,iorate=max,elapsed=10,interval=1,"
	    "forxfersize=(4k,64k),forthreads=(1,8),forrdpct=(0,100)\n",
	    buf, sizeof(buf), &p),
	    "rd1|Uncontrolled MAX|xfersize=4k threads=1 rdpct=0\n"
	    "rd1|Uncontrolled MAX|xfersize=4k threads=1 rdpct=100\n"
	    "rd1|Uncontrolled MAX|xfersize=4k threads=8 rdpct=0\n"
	    "rd1|Uncontrolled MAX|xfersize=4k threads=8 rdpct=100\n"
	    "rd1|Uncontrolled MAX|xfersize=64k threads=1 rdpct=0\n"
	    "rd1|Uncontrolled MAX|xfersize=64k threads=1 rdpct=100\n"
	    "rd1|Uncontrolled MAX|xfersize=64k threads=8 rdpct=0\n"
	    "rd1|Uncontrolled MAX|xfersize=64k threads=8 rdpct=100\n");
}

static void
test_t04_iorate_innermost(void **state)
{
	char buf[4096];
	struct plan p;

	(void)state;
	assert_string_equal(plan_text("sd=sd1,lun=/dev/sdb\nwd=wd1,sd=sd1\n"
	    "rd=rd1,wd=wd1,iorate=(100,200),forthreads=(2,4),elapsed=4,"
	    "interval=2\n", buf, sizeof(buf), &p),
	    "rd1|100|threads=2 iorate=100\nrd1|200|threads=2 iorate=200\n"
	    "rd1|100|threads=4 iorate=100\nrd1|200|threads=4 iorate=200\n");
}

/*
 * A fwdrate= list is a for-loop at its place among the rd's loops (vdbench's
 * RD_entry: new For_loop("foriorate", ...) while parsing). The expected
 * order and "For loops:" texts are vdbench 5.04.06's `-s` output for these
 * two rds: "fwdrate=50 files=3 sizes=8k", "fwdrate=50 files=3 sizes=16k",
 * ... and "files=3 fwdrate=50 sizes=8k", "files=3 fwdrate=50 sizes=16k",
 * "files=3 fwdrate=100 sizes=8k", ...
 */
static void
test_fwdrate_at_its_place(void **state)
{
	const char *fs = "fsd=fsd1,anchor=/tmp/a,depth=1,width=2,files=3,"
	    "size=8k\nfwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,"
	    "threads=1\n";
	char text[1024], buf[4096], *l;
	struct plan p;
	int i;

	(void)state;
	snprintf(text, sizeof(text), "%srd=rd2,fwd=fwd1,fwdrate=(50,100),"
	    "format=no,elapsed=2,interval=1,forfiles=(3,4),"
	    "forsizes=(8k,16k)\n", fs);
	plan_text(text, buf, sizeof(buf), &p);
	for (i = 0, l = buf; i < 3; i++)
		l = strchr(l, '\n') + 1;
	*l = '\0';
	assert_string_equal(buf,
	    "rd2|50|fwdrate=50 files=3 sizes=8k\n"
	    "rd2|50|fwdrate=50 files=3 sizes=16k\n"
	    "rd2|50|fwdrate=50 files=4 sizes=8k\n");
	snprintf(text, sizeof(text), "%srd=rd3,fwd=fwd1,forfiles=(3,4),"
	    "fwdrate=(50,100),format=no,elapsed=2,interval=1,"
	    "forsizes=(8k,16k)\n", fs);
	plan_text(text, buf, sizeof(buf), &p);
	assert_string_equal(buf,
	    "rd3|50|files=3 fwdrate=50 sizes=8k\n"
	    "rd3|50|files=3 fwdrate=50 sizes=16k\n"
	    "rd3|100|files=3 fwdrate=100 sizes=8k\n"
	    "rd3|100|files=3 fwdrate=100 sizes=16k\n"
	    "rd3|50|files=4 fwdrate=50 sizes=8k\n"
	    "rd3|50|files=4 fwdrate=50 sizes=16k\n"
	    "rd3|100|files=4 fwdrate=100 sizes=8k\n"
	    "rd3|100|files=4 fwdrate=100 sizes=16k\n");
	/* a later fwdrate= replaces the list and takes the last place */
	snprintf(text, sizeof(text), "%srd=rd4,fwd=fwd1,fwdrate=(1,2),"
	    "forfiles=(3,4),fwdrate=(50,100),format=no,elapsed=2,"
	    "interval=1\n", fs);
	plan_text(text, buf, sizeof(buf), &p);
	assert_string_equal(buf,
	    "rd4|50|files=3 fwdrate=50\nrd4|100|files=3 fwdrate=100\n"
	    "rd4|50|files=4 fwdrate=50\nrd4|100|files=4 fwdrate=100\n");
}

static void
test_loop_replaced_moves_last(void **state)
{
	char buf[4096];
	struct plan p;

	(void)state;
	/* rd=default loops are inherited; repeating one moves it last. */
	assert_string_equal(plan_text("sd=sd1,lun=/dev/b\n"
	    "rd=default,sd=sd*,seekpct=100,xfersize=8k,iorate=max,threads=32\n"
	    "rd=a,rdpct=0,xfersize=32k\nrd=b\n", buf, sizeof(buf), &p),
	    "a|Uncontrolled MAX|seekpct=100 threads=32 rdpct=0 xfersize=32k\n"
	    "b|Uncontrolled MAX|seekpct=100 xfersize=8k threads=32\n");
}

static void
test_t10_curve(void **state)
{
	char buf[4096];
	struct plan p;

	(void)state;
	assert_string_equal(plan_text("sd=sd1,lun=/dev/sdb\nwd=wd1,sd=sd1\n"
	    "rd=rd1,wd=wd1,iorate=curve,curve=(50,100),elapsed=10,"
	    "interval=1\n", buf, sizeof(buf), &p),
	    "rd1|Uncontrolled curve|None\nrd1_(50%)|5000|None\n"
	    "rd1_(100%)|10000|None\n");
	assert_true(plan_pct_rate(12345, 50) == 6200);
	assert_true(plan_pct_rate(12345, 100) == 12400);
	assert_true(plan_pct_rate(850, 50) == 430);
	assert_true(plan_pct_rate(850, 100) == 850);
}

static void
test_t07_wildcards_and_controlled(void **state)
{
	char buf[4096];
	struct plan p;
	struct parm_opts o;
	struct model *m;
	struct errmsg e;

	(void)state;
	assert_string_equal(plan_text("sd=sd1,lun=/dev/sdb\nsd=sd2,lun=/dev/c\n"
	    "sd=sd3,lun=/dev/d\nsd=sdx,lun=/dev/e\nwd=wd1,sd=(sd1-sd3)\n"
	    "wd=wd2,sd=sd*,skew=50\nrd=rd1,wd=wd1,iorate=max\n"
	    "rd=rd2,wd=wd*,iorate=max\n", buf, sizeof(buf), &p),
	    "rd1|Uncontrolled MAX|None\nrd2|Controlled MAX|None\n");
	pt_opts(&o);
	assert_int_equal(pt_parse("sd=sd1,lun=/dev/sdb\nwd=wd1,sd=sd1-sd3\n"
	    "rd=rd1,wd=wd1,iorate=300\n", &o, &m, &e), 0);
	assert_int_equal(plan_build(m, &p, &e), -1);
	assert_string_equal(e.text,
	    "Could not find sd=sd1-sd3 for wd=wd1,host=localhost");
	model_free(m);
	assert_int_equal(pt_parse("sd=sd1,lun=/dev/sdb\nwd=wd1,sd=sd1\n"
	    "rd=rd1,wd=wd9,iorate=300\n", &o, &m, &e), 0);
	assert_int_equal(plan_build(m, &p, &e), -1);
	assert_string_equal(e.text, "Could not find WD=wd9 for RD=rd1");
	model_free(m);
}

static void
test_intervals(void **state)
{
	struct parm_opts o;
	struct model *m;
	struct errmsg e;
	struct plan p;
	char el[64];

	(void)state;
	pt_opts(&o);
	assert_int_equal(pt_parse("sd=s,lun=/dev/b\nwd=w,sd=s\n"
	    "rd=a,wd=w,iorate=1,elapsed=10,interval=1\n"
	    "rd=b,wd=w,iorate=1,elapsed=10,interval=1,warmup=5\n"
	    "rd=c,wd=w,iorate=1,elapsed=60,interval=5\n"
	    "rd=d,wd=w,iorate=1,elapsed=10,interval=2,warmup=4\n",
	    &o, &m, &e), 0);
	assert_int_equal(plan_build(m, &p, &e), 0);
	assert_int_equal(p.runs[0].nintervals, 10);
	assert_int_equal(p.runs[0].first_avg, 2);
	assert_int_equal(p.runs[1].nintervals, 15);
	assert_int_equal(p.runs[1].first_avg, 6);
	assert_int_equal(p.runs[2].nintervals, 12);
	assert_int_equal(p.runs[3].nintervals, 7);
	assert_int_equal(p.runs[3].first_avg, 3);
	assert_string_equal(plan_elapsed_text(&p.runs[1], el, sizeof(el)),
	    "elapsed=10 warmup=5");
	plan_free(&p);
	model_free(m);
}

static void
test_sd_format_rule(void **state)
{
	struct sd *s = sd_new("sd1");
	struct errmsg e;

	(void)state;
	assert_int_equal(plan_sd_needs_format(s, "/dev/sdb", 0, 0, -1, &e), 0);
	assert_int_equal(plan_sd_needs_format(s, "/tmp/f", 0, 0, -1, &e), -1);
	assert_string_equal(e.text, "Unknown lun size for sd=sd1");
	s->size_bytes = 40 << 20;
	assert_int_equal(plan_sd_needs_format(s, "/tmp/f", 0, 0, -1, &e), 1);
	assert_int_equal(plan_sd_needs_format(s, "/tmp/f", 1, 1 << 20, -1,
	    &e), 1);
	assert_int_equal(plan_sd_needs_format(s, "/tmp/f", 1, 40 << 20, -1,
	    &e), 0);
	assert_int_equal(plan_sd_needs_format(s, "/tmp/f", 1, 40 << 20, 1,
	    &e), 1);
	assert_int_equal(plan_sd_needs_format(s, "/tmp/f", 0, 0, 0, &e), 0);
	sd_free(s);
}

/*
 * At most 100,000 runs (review 2, 9): an rd that passes it is refused at
 * its own line and column, alone or with the rds before it; the count is
 * the runs the rd makes (15,000 threads was refused as 105,000 runs).
 */
static void
test_run_limit(void **state)
{
	const char *head = "sd=sd1,lun=/tmp/f,size=1m\nwd=wd1,sd=sd1\n";
	char text[512];
	struct parm_opts o;
	struct model *m;
	struct errmsg e;
	struct plan p;

	(void)state;
	snprintf(text, sizeof(text), "%srd=rd1,wd=wd1,iorate=10,elapsed=4,"
	    "interval=1,forthreads=(1-100000,1),forrdpct=(1-100,1),"
	    "forseekpct=(1-100,1)\n", head);
	assert_string_equal(pt_error(text, &e), "rd=rd1 expands to "
	    "1000000000 runs; vdbc plans at most 100000");
	assert_string_equal(e.file, "t.parm");
	assert_int_equal(e.line, 3);
	assert_int_equal(e.col, 1);
	snprintf(text, sizeof(text), "%srd=a,wd=wd1,iorate=10,elapsed=4,"
	    "interval=1,forthreads=(1-60000,1)\n  rd=b,wd=wd1,iorate=10,"
	    "elapsed=4,interval=1,forthreads=(1-40001,1)\n", head);
	assert_string_equal(pt_error(text, &e), "rd=b expands to 40001 "
	    "runs, 100001 with the rds before it; vdbc plans at most 100000");
	assert_int_equal(e.line, 4);
	assert_int_equal(e.col, 3);

	/* 15,000 and exactly 100,000 runs are planned */
	pt_opts(&o);
	snprintf(text, sizeof(text), "%srd=rd1,wd=wd1,iorate=10,elapsed=4,"
	    "interval=1,forthreads=(1-15000,1)\n", head);
	assert_int_equal(pt_parse(text, &o, &m, &e), 0);
	assert_int_equal(plan_build(m, &p, &e), 0);
	assert_int_equal(p.nruns, 15000);
	plan_free(&p);
	model_free(m);
	snprintf(text, sizeof(text), "%srd=a,wd=wd1,iorate=10,elapsed=4,"
	    "interval=1,forthreads=(1-60000,1)\nrd=b,wd=wd1,iorate=10,"
	    "elapsed=4,interval=1,forthreads=(1-40000,1)\n", head);
	assert_int_equal(pt_parse(text, &o, &m, &e), 0);
	assert_int_equal(plan_build(m, &p, &e), 0);
	assert_int_equal(p.nruns, 100000);
	plan_free(&p);
	model_free(m);

	/* curve points, format runs and sd=single clones are counted */
	assert_int_equal(pt_parse("sd=sd1,lun=/tmp/f1,size=1m\n"
	    "sd=sd2,lun=/tmp/f2,size=1m\nsd=sd3,lun=/tmp/f3,size=1m\n"
	    "wd=wd1,sd=sd*\nrd=a,wd=wd1,iorate=curve,elapsed=4,interval=1,"
	    "format=yes,forthreads=(1,2)\nrd=b,wd=wd1,sd=single,iorate=(10,"
	    "20),elapsed=4,interval=1,forthreads=(1,2)\n", &o, &m, &e), 0);
	assert_true(plan_rd_runs(m, model_find_rd(m, "a")) == 16);
	assert_true(plan_rd_runs(m, model_find_rd(m, "b")) == 12);
	assert_int_equal(plan_build(m, &p, &e), 0);
	assert_int_equal(p.nruns, 28);
	plan_free(&p);
	model_free(m);
}

/*
 * sd=setsofN: the parmfile's sds after vdbench's n*8 swaps of two
 * Random(0).nextInt(n) picks (RD_entry.repeatSdSingles), one run per group
 * of N, named <rd>_<sd>_<sd>. The expected names are vdbench 5.04.06's
 * own `-s` output for these parmfiles (/opt/vdbref/vdbench -s, five sds,
 * and twelve listed sd6..sd12 then sd1..sd5); setsof1 keeps the
 * parmfile's order.
 */
static void
test_setsof(void **state)
{
	const char *sds = "sd=sd1,lun=/tmp/f1,size=1m\n"
	    "sd=sd2,lun=/tmp/f2,size=1m\nsd=sd3,lun=/tmp/f3,size=1m\n"
	    "sd=sd4,lun=/tmp/f4,size=1m\nsd=sd5,lun=/tmp/f5,size=1m\n"
	    "wd=wd1,sd=sd*\n";
	char text[1024], buf[4096];
	struct parm_opts o;
	struct model *m;
	struct errmsg e;
	struct plan p;

	(void)state;
	snprintf(text, sizeof(text), "%srd=rd1,wd=wd1,sd=setsof2,"
	    "iorate=10,elapsed=4,interval=1\n", sds);
	assert_string_equal(plan_text(text, buf, sizeof(buf), &p),
	    "rd1_sd5_sd4|10|None\nrd1_sd1_sd3|10|None\nrd1_sd2|10|None\n");
	snprintf(text, sizeof(text), "%srd=rd1,wd=wd1,sd=setsof4,"
	    "iorate=10,elapsed=4,interval=1\n", sds);
	assert_string_equal(plan_text(text, buf, sizeof(buf), &p),
	    "rd1_sd5_sd4_sd1_sd3|10|None\nrd1_sd2|10|None\n");
	snprintf(text, sizeof(text), "sd=sd6,lun=/tmp/f6,size=1m\n"
	    "sd=sd7,lun=/tmp/f7,size=1m\nsd=sd8,lun=/tmp/f8,size=1m\n"
	    "sd=sd9,lun=/tmp/f9,size=1m\nsd=sd10,lun=/tmp/f10,size=1m\n"
	    "sd=sd11,lun=/tmp/f11,size=1m\nsd=sd12,lun=/tmp/f12,size=1m\n"
	    "%srd=rd1,wd=wd1,sd=setsof3,iorate=10,elapsed=4,interval=1\n",
	    sds);
	assert_string_equal(plan_text(text, buf, sizeof(buf), &p),
	    "rd1_sd9_sd4_sd1|10|None\nrd1_sd2_sd10_sd8|10|None\n"
	    "rd1_sd11_sd5_sd7|10|None\nrd1_sd3_sd12_sd6|10|None\n");
	snprintf(text, sizeof(text), "%srd=rd1,wd=wd1,sd=setsof1,"
	    "iorate=10,elapsed=4,interval=1,forthreads=(1,2)\n", sds);
	pt_opts(&o);
	assert_int_equal(pt_parse(text, &o, &m, &e), 0);
	assert_true(plan_rd_runs(m, model_find_rd(m, "rd1")) == 10);
	assert_int_equal(plan_build(m, &p, &e), 0);
	assert_int_equal(p.nruns, 10);
	assert_string_equal(p.runs[0].name, "rd1_sd1");
	assert_string_equal(p.runs[8].name, "rd1_sd5");
	assert_int_equal(p.runs[0].nwds, 1);
	assert_int_equal(p.runs[0].wds[0].nsds, 1);
	assert_string_equal(p.runs[0].wds[0].sds[0]->name, "sd1");
	plan_free(&p);
	model_free(m);
	snprintf(text, sizeof(text), "%srd=rd1,wd=wd1,sd=setsofx,"
	    "iorate=10,elapsed=4,interval=1\n", sds);
	assert_int_equal(pt_parse(text, &o, &m, &e), 0);
	assert_int_equal(plan_build(m, &p, &e), -1);
	assert_non_null(strstr(e.text, "rd=rd1: 'sd=setsofx': expected "
	    "setsofN"));
	model_free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t03_nesting),
		cmocka_unit_test(test_t04_iorate_innermost),
		cmocka_unit_test(test_loop_replaced_moves_last),
		cmocka_unit_test(test_t10_curve),
		cmocka_unit_test(test_t07_wildcards_and_controlled),
		cmocka_unit_test(test_intervals),
		cmocka_unit_test(test_sd_format_rule),
		cmocka_unit_test(test_run_limit),
		cmocka_unit_test(test_setsof),
		cmocka_unit_test(test_fwdrate_at_its_place),
	};
	return (cmocka_run_group_tests_name("plan", tests, NULL, NULL));
}
