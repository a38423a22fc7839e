/* Placement: PARMFILE.md 12.2-12.4 and case T20. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "parmtest.h"
#include "place.h"

/* Parse, plan, and place run i over n slaves. */
static void
placed(const char *text, int run, int nslaves, struct placement *p,
    struct model **m, struct plan *pl)
{
	struct parm_opts o;
	struct errmsg e;

	pt_opts(&o);
	assert_int_equal(pt_parse(text, &o, m, &e), 0);
	assert_int_equal(plan_build(*m, pl, &e), 0);
	assert_int_equal(place_run(&pl->runs[run], nslaves, p, &e), 0);
}

static const char t20[] =
    "sd=sd1,lun=/dev/sdb,threads=8\nwd=wd1,sd=sd1\n"
    "wd=wd2,sd=sd1,seekpct=seq\n"
    "rd=rd1,wd=wd1,iorate=900,elapsed=4,interval=1\n"
    "rd=rd2,wd=wd2,iorate=max,elapsed=4,interval=1\n";

static void
test_t20_random_over_three_slaves(void **state)
{
	struct placement p;
	struct model *m;
	struct plan pl;
	int i, threads[3] = { 0 };

	(void)state;
	placed(t20, 0, 3, &p, &m, &pl);
	assert_int_equal(p.nwgs, 3);
	for (i = 0; i < p.nsds; i++)
		threads[p.sds[i].slave] = p.sds[i].threads;
	assert_int_equal(threads[0], 3);
	assert_int_equal(threads[1], 3);
	assert_int_equal(threads[2], 2);
	for (i = 0; i < p.nwgs; i++) {
		assert_true(p.wgs[i].rate_per_s > 299.99 &&
		    p.wgs[i].rate_per_s < 300.01);
		assert_false(p.wgs[i].sequential);
	}
	place_free(&p);
	plan_free(&pl);
	model_free(m);
}

static void
test_t20_sequential_on_one_slave(void **state)
{
	struct placement p;
	struct model *m;
	struct plan pl;

	(void)state;
	placed(t20, 1, 3, &p, &m, &pl);
	assert_int_equal(p.nwgs, 1);
	assert_int_equal(p.wgs[0].slave, 0);
	assert_true(p.wgs[0].sequential);
	assert_int_equal(p.nsds, 1);
	assert_int_equal(p.sds[0].threads, 8);
	assert_true(p.wgs[0].rate_per_s == 0);
	place_free(&p);
	plan_free(&pl);
	model_free(m);
}

static void
test_t19_skew(void **state)
{
	struct placement p;
	struct model *m;
	struct plan pl;
	struct parm_opts o;
	struct errmsg e;
	int i;

	(void)state;
	placed("sd=sd1,lun=/dev/sdb\nsd=sd2,lun=/dev/sdc\n"
	    "wd=wd1,sd=sd1,skew=40\nwd=wd2,sd=sd1,rdpct=0\nwd=wd3,sd=sd2\n"
	    "rd=rd1,wd=wd*,iorate=1000,elapsed=10,interval=1\n", 0, 1, &p, &m,
	    &pl);
	assert_int_equal(p.nwgs, 3);
	for (i = 0; i < p.nwgs; i++) {
		double want = strcmp(p.wgs[i].wd->name, "wd1") == 0 ? 400 :
		    300;

		assert_true(p.wgs[i].rate_per_s > want - 0.01 &&
		    p.wgs[i].rate_per_s < want + 0.01);
	}
	place_free(&p);
	plan_free(&pl);
	model_free(m);
	pt_opts(&o);
	assert_int_equal(pt_parse("sd=sd1,lun=/dev/sdb\nsd=sd2,lun=/dev/sdc\n"
	    "wd=wd1,sd=sd1,skew=40\nwd=wd2,sd=sd1,skew=30\nwd=wd3,sd=sd2,"
	    "skew=20\nrd=rd1,wd=wd*,iorate=1000,elapsed=10,interval=1\n", &o,
	    &m, &e), 0);
	assert_int_equal(plan_build(m, &pl, &e), 0);
	assert_int_equal(place_run(&pl.runs[0], 1, &p, &e), -1);
	assert_string_equal(e.text, "rd=rd1: Total skew must add up to 100: "
	    "90.00");
	plan_free(&pl);
	model_free(m);
}

static void
test_more_slaves_than_threads(void **state)
{
	struct placement p;
	struct model *m;
	struct plan pl;

	(void)state;
	/* 2 threads over 4 slaves: two WGs are dropped, rate split by 2. */
	placed("sd=sd1,lun=/dev/sdb,threads=2\nwd=wd1,sd=sd1\n"
	    "rd=rd1,wd=wd1,iorate=100,elapsed=4,interval=1\n", 0, 4, &p, &m,
	    &pl);
	assert_int_equal(p.nwgs, 2);
	assert_true(p.wgs[0].rate_per_s == 50);
	place_free(&p);
	plan_free(&pl);
	model_free(m);
}

/* A wd with iorate= takes its rate; the skewed ones share the rest. */
static void
test_wd_iorate(void **state)
{
	static const char text[] =
	    "sd=sd1,lun=/dev/sdb,threads=8\n"
	    "wd=wd1,sd=sd1,iorate=300,priority=1\n"
	    "wd=wd2,sd=sd1,priority=2\n"
	    "rd=rd1,wd=wd*,iorate=1000,elapsed=4,interval=1\n"
	    "rd=rd2,wd=wd*,iorate=max,elapsed=4,interval=1\n";
	struct placement p;
	struct errmsg e;
	struct model *m;
	struct plan pl;
	double r1 = 0, r2 = 0, s1 = 0, s2 = 0;
	int i;

	(void)state;
	placed(text, 0, 2, &p, &m, &pl);
	for (i = 0; i < p.nwgs; i++) {
		if (strcmp(p.wgs[i].wd->name, "wd1") == 0) {
			r1 += p.wgs[i].rate_per_s;
			s1 += p.wgs[i].skew_pct;
		} else {
			r2 += p.wgs[i].rate_per_s;
			s2 += p.wgs[i].skew_pct;
		}
	}
	assert_true(r1 > 299.99 && r1 < 300.01);
	assert_true(r2 > 699.99 && r2 < 700.01);
	assert_true(s1 > 29.99 && s1 < 30.01);
	assert_true(s2 > 69.99 && s2 < 70.01);
	place_free(&p);
	/* With iorate=max the others would take every I/O: refused. */
	assert_int_equal(place_run(&pl.runs[1], 2, &p, &e), -1);
	assert_non_null(strstr(e.text, "needs a numeric rd iorate="));
	plan_free(&pl);
	model_free(m);
}

/* Two hosts: an sd on both gets its threads dealt host by host; an sd
 * with host= only on its host; a sequential wd on one slave only. */
static void
test_two_hosts(void **state)
{
	static const char text[] =
	    "hd=hd1,system=localhost,jvms=2\nhd=hd2,system=localhost\n"
	    "sd=sd1,lun=/dev/sdb,threads=8\n"
	    "sd=sd2,host=hd2,lun=/dev/sdc,threads=6\n"
	    "wd=wd1,sd=(sd1,sd2)\nwd=wd2,sd=sd1,seekpct=seq\n"
	    "rd=rd1,wd=wd1,iorate=900,elapsed=4,interval=1\n"
	    "rd=rd2,wd=wd2,iorate=max,elapsed=4,interval=1\n";
	struct place_host h[2] = { { "hd1", 2 }, { "hd2", 1 } };
	struct parm_opts o;
	struct placement p;
	struct errmsg e;
	struct model *m;
	struct plan pl;
	int i, t1[3] = { 0 }, t2[3] = { 0 };
	double rate = 0;

	(void)state;
	pt_opts(&o);
	assert_int_equal(pt_parse(text, &o, &m, &e), 0);
	assert_int_equal(plan_build(m, &pl, &e), 0);
	assert_string_equal(place_sd_lun(TAILQ_LAST(&m->sds, sd_list), "hd2"),
	    "/dev/sdc");
	assert_null(place_sd_lun(TAILQ_LAST(&m->sds, sd_list), "hd1"));
	assert_int_equal(place_run_hosts(&pl.runs[0], h, 2, &p, &e), 0);
	/* sd1: 3 WGs (hd1-0, hd1-1, hd2-0); sd2: 1 WG (hd2-0) */
	assert_int_equal(p.nwgs, 4);
	for (i = 0; i < p.nsds; i++) {
		if (strcmp(p.sds[i].sd->name, "sd1") == 0)
			t1[p.sds[i].slave] = p.sds[i].threads;
		else
			t2[p.sds[i].slave] = p.sds[i].threads;
	}
	/* 8 threads alternate hd1, hd2: 4 each; hd1's 4 split 2 and 2 */
	assert_int_equal(t1[0], 2);
	assert_int_equal(t1[1], 2);
	assert_int_equal(t1[2], 4);
	assert_int_equal(t2[0] + t2[1], 0);
	assert_int_equal(t2[2], 6);
	for (i = 0; i < p.nwgs; i++)
		rate += p.wgs[i].rate_per_s;
	assert_true(rate > 899.99 && rate < 900.01);
	place_free(&p);
	/* sequential: one WG, on the first host's least busy slave */
	assert_int_equal(place_run_hosts(&pl.runs[1], h, 2, &p, &e), 0);
	assert_int_equal(p.nwgs, 1);
	assert_int_equal(p.wgs[0].slave, 0);
	place_free(&p);
	plan_free(&pl);
	model_free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t20_random_over_three_slaves),
		cmocka_unit_test(test_t20_sequential_on_one_slave),
		cmocka_unit_test(test_t19_skew),
		cmocka_unit_test(test_more_slaves_than_threads),
		cmocka_unit_test(test_wd_iorate),
		cmocka_unit_test(test_two_hosts),
	};
	return (cmocka_run_group_tests_name("place", tests, NULL, NULL));
}
