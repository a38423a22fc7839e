/* The model codec: a parsed model survives encode -> decode -> encode. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model_json.h"
#include "parmtest.h"

static void
test_round_trip(void **state)
{
	struct parm_opts o;
	struct model *m, *back;
	struct errmsg e;
	json_t *j1, *j2;

	(void)state;
	pt_opts(&o);
	assert_int_equal(pt_parse("compratio=2\nhistogram=(default,10,20)\n"
	    "dedupratio=3\ndedupunit=4k\n"
	    "hd=default,jvms=2\nhd=localhost,system=localhost\n"
	    "sd=sd1,lun=/dev/sdb,threads=4,range=(10,20),openflags=o_direct\n"
	    "sd=sd2,lun=/tmp/f,size=1g,dedupratio=2\n"
	    "wd=wd1,sd=sd*,xfersize=(4k,50,8k,50),rdpct=70,seekpct=eof\n"
	    "wd=wd2,sd=sd1,xfersize=(4k,64k,4k),skew=10,hotband=(10,14)\n"
	    "rd=rd1,wd=wd*,iorate=(100,max,50%),forthreads=(1-4,1),"
	    "curve=(10,20),warmup=2,elapsed=10,interval=1\n", &o, &m, &e), 0);
	j1 = model_to_json(m);
	back = model_from_json(j1, &e);
	assert_non_null(back);
	j2 = model_to_json(back);
	assert_true(json_equal(j1, j2));
	json_decref(j2);
	model_free(back);
	/* A wrong type anywhere is refused with its path. */
	json_object_set_new(json_array_get(json_object_get(j1, "sd"), 0),
	    "threads", json_string("many"));
	assert_null(model_from_json(j1, &e));
	assert_non_null(strstr(e.text, "sd"));
	json_decref(j1);
	model_free(m);
}

/* Default values come from the field tables. */
static void
test_defaults(void **state)
{
	struct model *m = model_new();
	struct rd *r = rd_new("r");
	struct fwd *f = fwd_new("f");
	struct sd *s = sd_new("s");
	struct wd *w = wd_new("w");

	(void)state;
	assert_true(m->general.compratio == 1);
	assert_int_equal(m->general.formatsds, -1);
	assert_int_equal(m->general.data_errors, 50);
	assert_int_equal(m->general.dedupunit_bytes, 131072);
	assert_true(m->general.dedupsets == -5);
	assert_true(m->general.dedupratio == 0);
	assert_int_equal(s->threads, 8);
	assert_int_equal(s->hitarea_bytes, 1024 * 1024);
	assert_null(s->engine);
	assert_int_equal(w->xfer.size_bytes[0], 4096);
	assert_true(w->readpct == 100 && w->seekpct == 100);
	assert_int_equal(r->elapsed_s, 30);
	assert_int_equal(r->maxdata_dir, -1);
	assert_string_equal(f->operation, "read");
	assert_true(f->poisson_midpoint == 3);
	model_free(m);
	rd_free(r);
	fwd_free(f);
	sd_free(s);
	wd_free(w);
}

/*
 * The keywords with behaviour that lived only in the bag are typed by the
 * parser, with the rules the run applied to the bag, and travel in JSON.
 */
static void
test_promoted(void **state)
{
	struct parm_opts o;
	struct model *m, *back;
	struct errmsg e;
	struct sd *s;
	struct wd *w;
	struct rd *r;
	json_t *j;

	(void)state;
	pt_opts(&o);
	assert_int_equal(pt_parse("data_errors=5\ndataerrors=9\n"
	    "dedupratio=2\ndedupunit=8k\ndedupsets=10\nreport=host_detail\n"
	    "startcmd=(\"echo x\",cons)\n"
	    "sd=default,overwrite_data=yes\n"
	    "sd=sd1,lun=/dev/sdb,engine=null,allow_mounted_write=no\n"
	    "wd=wd1,sd=sd1,hotband=(90,150),stride=(4k,8k)\n"
	    "wd=wd2,sd=sd1,hotband=(10,20)\n"
	    "rd=default,maxdatawritten=3\n"
	    "rd=rd1,wd=wd1,iorate=max,elapsed=10,interval=1,maxdata=1g,"
	    "stopcurve=5\n"
	    "rd=rd2,wd=wd1,iorate=max,elapsed=10,interval=1,maxdataread=1\n",
	    &o, &m, &e), 0);
	assert_int_equal(m->general.data_errors, 5);
	assert_true(m->general.dedupratio == 2);
	assert_int_equal(m->general.dedupunit_bytes, 8192);
	assert_true(m->general.dedupsets == 10);
	assert_int_equal(m->general.report.n, 1);
	assert_string_equal(m->general.report.v[0], "host_detail");
	assert_int_equal(m->general.startcmd.n, 2);
	assert_int_equal(m->general.endcmd.n, 0);
	s = model_find_sd(m, "sd1");
	assert_string_equal(s->engine, "null");
	assert_int_equal(s->overwrite_data, 1);
	assert_int_equal(s->allow_mounted_write, 0);
	w = model_find_wd(m, "wd1");
	assert_true(w->hotband_set && w->hotband_wrap);
	assert_true(w->hotband[0] == 90 && w->hotband[1] == 150);
	assert_true(w->stride_set && w->stride_bytes[1] == 8192);
	w = model_find_wd(m, "wd2");
	assert_true(w->hotband_set && !w->hotband_wrap && !w->stride_set);
	/* maxdatawritten= from rd=default outranks maxdata= (as the run) */
	r = model_find_rd(m, "rd1");
	assert_int_equal(r->maxdata_dir, 2);
	assert_true(r->maxdata == 3 && r->stopcurve_ms == 5);
	r = model_find_rd(m, "rd2");
	assert_int_equal(r->maxdata_dir, 2);
	j = model_to_json(m);
	back = model_from_json(j, &e);
	assert_non_null(back);
	assert_int_equal(back->general.data_errors, 5);
	assert_true(model_find_wd(back, "wd1")->hotband_wrap);
	assert_string_equal(model_find_sd(back, "sd1")->engine, "null");
	model_free(back);
	/* an older peer's model without them still decodes, with defaults */
	json_object_del(json_object_get(j, "general"), "data_errors");
	back = model_from_json(j, &e);
	assert_non_null(back);
	assert_int_equal(back->general.data_errors, 50);
	model_free(back);
	json_decref(j);
	model_free(m);

	assert_int_equal(pt_parse("fsd=fsd1,anchor=/tmp/a,openflags=o_sync\n"
	    "fwd=fwd1,fsd=fsd1,fileselect=(poisson,5)\n"
	    "rd=rd1,fwd=fwd1,fwdrate=max,format=yes,operations=(READ,write),"
	    "elapsed=10,interval=1\n", &o, &m, &e), 0);
	assert_string_equal(TAILQ_FIRST(&m->fsds)->openflags.v[0], "o_sync");
	assert_true(TAILQ_FIRST(&m->fwds)->poisson_midpoint == 5);
	r = model_find_rd(m, "rd1");
	assert_int_equal(r->operations.n, 2);
	assert_string_equal(r->operations.v[0], "read");
	model_free(m);
}

/* validate=: every value runs; time is exact, the others prefixes. */
static void
test_validate_values(void **state)
{
	static const char body[] = "sd=sd1,lun=/tmp/x,size=1m\n"
	    "wd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n";
	struct parm_opts o;
	struct model *m;
	struct errmsg e;
	char text[256];

	(void)state;
	pt_opts(&o);
	snprintf(text, sizeof(text), "validate=(time,ig)\n%s", body);
	assert_int_equal(pt_parse(text, &o, &m, &e), 0);
	assert_int_equal(m->general.validate, VALIDATE_ON | VALIDATE_TIME |
	    VALIDATE_IGNORE_ZERO);
	assert_int_equal(m->unbuilt.n, 0);
	model_free(m);
	snprintf(text, sizeof(text), "validate=(r,no_p)\n%s", body);
	assert_int_equal(pt_parse(text, &o, &m, &e), 0);
	assert_int_equal(m->general.validate, VALIDATE_ON |
	    VALIDATE_AFTER_WRITE | VALIDATE_NO_PREREAD);
	model_free(m);
	snprintf(text, sizeof(text), "validate=tim\n%s", body);
	assert_int_not_equal(pt_parse(text, &o, &m, &e), 0);
	assert_non_null(strstr(e.text, "Unknown keyword value for "
	    "'validate=': tim"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_promoted),
		cmocka_unit_test(test_validate_values),
	};
	return (cmocka_run_group_tests_name("model_json", tests, NULL, NULL));
}
