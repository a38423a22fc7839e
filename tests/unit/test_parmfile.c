/* Section parsers: PARMFILE.md section 14 cases that need CORE keywords. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "parmtest.h"
#include "place.h"

static void
test_t01_minimal(void **state)
{
	struct parm_opts o;
	struct model *m;
	struct errmsg e;
	struct sd *s;
	struct wd *w;
	struct rd *r;

	(void)state;
	pt_opts(&o);
	assert_int_equal(pt_parse("sd=sd1,lun=/dev/sdb\n"
	    "wd=wd1,sd=sd1,xfersize=4096,readpct=100\n"
	    "rd=run1,wd=wd1,iorate=100,elapsed=10,interval=1\n", &o, &m, &e),
	    0);
	s = model_find_sd(m, "sd1");
	w = model_find_wd(m, "wd1");
	r = model_find_rd(m, "run1");
	assert_non_null(s);
	assert_string_equal(s->luns[0].lun, "/dev/sdb");
	assert_int_equal(s->threads, 8);
	assert_int_equal(w->xfer.size_bytes[0], 4096);
	assert_true(w->seekpct == 100);
	assert_true(r->iorate[0] == 100);
	assert_int_equal(r->elapsed_s, 10);
	model_free(m);
}

static void
test_t02_flat_stream(void **state)
{
	struct parm_opts o;
	struct model *m;
	struct errmsg e;
	struct rd *r;

	(void)state;
	pt_opts(&o);
	assert_int_equal(pt_parse("sd=sd1,lun=/data/f1,size=100m  note\n"
	    "wd=wd1,\n sd=sd1,\n xf=8k,rdpct=70\nrd=rd1\nwd=wd1\n"
	    "iorate=max\nel=1m,in=5\n", &o, &m, &e), 0);
	assert_int_equal(model_find_sd(m, "sd1")->size_bytes, 104857600);
	assert_int_equal(model_find_wd(m, "wd1")->xfer.size_bytes[0], 8192);
	assert_true(model_find_wd(m, "wd1")->readpct == 70);
	r = model_find_rd(m, "rd1");
	assert_int_equal(r->elapsed_s, 60);
	assert_int_equal(r->interval_s, 5);
	assert_true(r->iorate[0] == RD_IORATE_MAX);
	model_free(m);
}

static void
test_t06_units(void **state)
{
	struct parm_opts o;
	struct model *m;
	struct errmsg e;
	struct wd *w;

	(void)state;
	pt_opts(&o);
	assert_int_equal(pt_parse("sd=sd1,lun=/data/f1,size=2g\n"
	    "sd=sd2,lun=/data/f2,size=1.5gb\nsd=sd3,lun=/data/f3,size=(10g,4)\n"
	    "wd=wd1,sd=sd*,xfersize=(4k,50,64k,50)\n"
	    "rd=rd1,wd=wd1,iorate=1000,elapsed=2h,interval=1m,warmup=5m\n",
	    &o, &m, &e), 0);
	assert_int_equal(model_find_sd(m, "sd1")->size_bytes, 2147483648ull);
	assert_int_equal(model_find_sd(m, "sd2")->size_bytes, 1610612736ull);
	assert_int_equal(model_find_sd(m, "sd3")->size_bytes, 2684354560ull);
	w = model_find_wd(m, "wd1");
	assert_int_equal(w->xfer.kind, XFER_DIST);
	assert_int_equal(w->xfer.size_bytes[1], 65536);
	assert_int_equal(model_find_rd(m, "rd1")->warmup_s, 300);
	model_free(m);
	assert_non_null(strstr(pt_error("sd=s,lun=/f\nwd=w,sd=s\n"
	    "rd=r,wd=w,iorate=1,elapsed=30s\n", &e), "elapsed="));
}

static void
test_t08_defaults(void **state)
{
	struct parm_opts o;
	struct model *m;
	struct errmsg e;

	(void)state;
	pt_opts(&o);
	assert_int_equal(pt_parse("sd=default,threads=16,openflags=o_direct\n"
	    "sd=sd1,lun=/dev/sdb\nsd=default,threads=4\nsd=sd2,lun=/dev/sdc\n"
	    "wd=default,xfersize=16k,rdpct=0\nwd=wd1,sd=sd*\n"
	    "rd=default,elapsed=20,interval=5,iorate=500\nrd=rd1,wd=wd1\n"
	    "rd=rd2,wd=wd1,elapsed=10\n", &o, &m, &e), 0);
	assert_int_equal(model_find_sd(m, "sd1")->threads, 16);
	assert_int_equal(model_find_sd(m, "sd2")->threads, 4);
	assert_string_equal(model_find_sd(m, "sd2")->openflags.v[0],
	    "o_direct");
	assert_true(model_find_wd(m, "wd1")->readpct == 0);
	assert_int_equal(model_find_rd(m, "rd2")->elapsed_s, 10);
	assert_true(model_find_rd(m, "rd2")->iorate[0] == 500);
	model_free(m);
	assert_string_equal(pt_error("sd=default,lun=/dev/sdb\n", &e),
	    "You may not specify the 'lun=' parameter for sd=default");
}

static void
test_t09_substitution(void **state)
{
	char n1[] = "lun", v1[] = "/dev/sdb", n2[] = "size", v2[] = "1g";
	char n3[] = "foo", v3s[] = "1";
	struct subvar v[2] = { { n1, v1, 0 }, { n2, v2, 0 } };
	struct subvar v3[3] = { { n1, v1, 0 }, { n2, v2, 0 },
	    { n3, v3s, 0 } };
	const char *t = "sd=sd1,lun=$lun,size=!size\nwd=wd1,sd=sd1\n"
	    "rd=rd1,wd=wd1,iorate=100,elapsed=10,interval=1\n";
	struct parm_opts o;
	struct model *m;
	struct errmsg e;

	(void)state;
	pt_opts(&o);
	o.vars.n = 2;
	o.vars.v = v;
	assert_int_equal(pt_parse(t, &o, &m, &e), 0);
	assert_int_equal(model_find_sd(m, "sd1")->size_bytes, 1073741824ull);
	model_free(m);
	o.vars.n = 3;
	o.vars.v = v3;
	assert_int_equal(pt_parse(t, &o, &m, &e), -1);
	assert_string_equal(e.text, "Unused parameter substitution.");
}

static void
test_t13_times(void **state)
{
	struct errmsg e;
	const char *head = "sd=s,lun=/dev/sdb\nwd=w,sd=s\n";
	char buf[256];

	(void)state;
	snprintf(buf, sizeof(buf), "%srd=r,wd=w,iorate=1,elapsed=10,"
	    "interval=3\n", head);
	assert_string_equal(pt_error(buf, &e),
	    "'elapsed=10' must be multiple of 'interval=3'.");
	snprintf(buf, sizeof(buf), "%srd=r,wd=w,iorate=1,elapsed=5,"
	    "interval=3\n", head);
	assert_string_equal(pt_error(buf, &e), "'elapsed=' time value must be "
	    "at least twice the 'interval=' value");
	snprintf(buf, sizeof(buf), "%srd=r,wd=w,iorate=1,elapsed=10,"
	    "interval=2,warmup=3\n", head);
	assert_string_equal(pt_error(buf, &e),
	    "'interval=2' must be multiple of 'warmup=3'.");
}

static void
test_t14_abbreviations(void **state)
{
	struct parm_opts o;
	struct model *m;
	struct errmsg e;
	struct rd *r;
	struct wd *w;

	(void)state;
	pt_opts(&o);
	assert_int_equal(pt_parse("sd=sd1,lun=/dev/sdb,th=4\n"
	    "wd=wd1,sd=sd1,xf=512,rdp=50,se=seq\n"
	    "rd=r1,wd=wd1,io=max,el=10,in=1,fo=(4k,8k)\n", &o, &m, &e), 0);
	assert_int_equal(model_find_sd(m, "sd1")->threads, 4);
	w = model_find_wd(m, "wd1");
	assert_int_equal(w->xfer.size_bytes[0], 512);
	assert_true(w->readpct == 50 && w->seekpct == 0);
	r = model_find_rd(m, "r1");
	assert_int_equal(r->nloops, 1);
	assert_int_equal(r->loops[0].kind, LOOP_XFERSIZE);
	assert_true(r->iorate[0] == RD_IORATE_MAX);
	model_free(m);
	assert_string_equal(pt_error("sd=s,lun=/d\nwd=wd1,sd=sd1,"
	    "xfersizee=4k\n", &e), "Unknown keyword: xfersizee (did you mean "
	    "'xfersize='?)");
	assert_int_equal(e.line, 2);
	assert_int_equal(e.col, 15);
}

static void
test_t15_section_order(void **state)
{
	struct errmsg e;

	(void)state;
	assert_non_null(strstr(pt_error("sd=sd1,lun=/dev/sdb\nwd=wd1,sd=sd1\n"
	    "sd=sd2,lun=/dev/sdc\nrd=rd1,wd=wd1,iorate=100\n", &e),
	    "Unknown keyword: lun"));
	assert_non_null(strstr(pt_error("sd=sd1,lun=/dev/sdb\ncompratio=2\n",
	    &e), "Unknown keyword: compratio"));
	assert_string_equal(pt_error("hd=default,jvms=2\n", &e),
	    "Early EOF on input parameters");
	assert_string_equal(pt_error("sd=s,lun=/d\nwd=w,sd=s\n", &e),
	    "No RD parameters specified");
	assert_string_equal(pt_error("hd=h1,bogus=1\n", &e),
	    "HostParms.ReadParms(): invalid keyword: bogus");
}

static void
test_t25_value_errors(void **state)
{
	struct errmsg e;

	(void)state;
	assert_string_equal(pt_error("sd=s,lun=/d\nwd=wd1,sd=s\n"
	    "rd=rd1,wd=wd1,iorate=1,seekpct=(0,100)\n", &e),
	    "For_loop(): 'rd=rd1,forseekpct=' or 'rd=rd1,seekpct=': the list "
	    "of NUMERIC values is empty. ");
	assert_string_equal(pt_error("sd=s,lun=/d\nwd=wd1,sd=s,"
	    "xfersize=(4k,60,8k,30)\n", &e),
	    "Xfersize distribution does not add up to 100: 90");
	assert_string_equal(pt_error("sd=s,lun=/d\nwd=wd1,sd=s,"
	    "xfersize=(1000,50,4096,50)\n", &e),
	    "data transfer size not multiple of 512 bytes: 1000");
	assert_string_equal(pt_error("sd=s,lun=/d\nwd=wd1,sd=s,"
	    "seekpct=sometimes\n", &e),
	    "Invalid contents for 'seekpct=': sometimes");
	assert_string_equal(pt_error("sd=s,lun=/d\nwd=wd1,sd=s,"
	    "seekpct=RANDOM\n", &e), "Invalid contents for 'seekpct=': RANDOM");
	assert_non_null(strstr(pt_error("sd=s,lun=/d\nwd=wd1,sd=s\n"
	    "rd=rd1,wd=wd1,elapsed=10,interval=1\n", &e),
	    "iorate= parameter is missing."));
	assert_string_equal(pt_error("sd=s1,lun=/a\nsd=s1,lun=/b\n", &e),
	    "An SD can only be defined once: sd=s1");
	assert_string_equal(pt_error("sd=s1\nwd=w\n", &e),
	    "No lun name specified for sd=s1");
	assert_string_equal(pt_error("sd=s,lun=/d,openflags=o_bogus\n", &e),
	    "Invalid 'openflags=' parameter for Linux: o_bogus");
	assert_string_equal(pt_error("sd=s,lun=/d\nwd=w,sd=s\n"
	    "rd=r,wd=w,iorate=1,distribution=zipf\n", &e),
	    "Unknown keyword value: zipf");
}

static void
test_overrides(void **state)
{
	struct parm_opts o;
	struct model *m;
	struct errmsg e;
	struct rd *r;

	(void)state;
	pt_opts(&o);
	o.elapsed_s = 20;
	o.interval_s = 2;
	o.extras = "iorate=max";
	assert_int_equal(pt_parse("sd=sd1,lun=/dev/sdb\n"
	    "wd=wd1,sd=sd1,xfersize=4096,readpct=100\n"
	    "rd=run1,wd=wd1,iorate=100,elapsed=10,interval=1\n", &o, &m, &e),
	    0);
	r = model_find_rd(m, "run1");
	assert_int_equal(r->elapsed_s, 20);
	assert_int_equal(r->interval_s, 2);
	assert_true(r->iorate[0] == RD_IORATE_MAX);
	model_free(m);
}

/*
 * Bounded input (issue 13, 7): a lun that is not UTF-8, count= past
 * 100,000 and an fsd tree that cannot be counted are located errors;
 * 100,000 sds by count= parse and plan (quadratic before).
 */
static void
test_bounded_values(void **state)
{
	struct parm_opts o;
	struct model *m;
	struct errmsg e;
	struct plan p;
	const struct sd *s;
	int n = 0;

	(void)state;
	assert_non_null(strstr(pt_error("sd=sd1,lun=/tmp/x\xff\xfe,size=1m\n"
	    "wd=wd1,sd=sd1\nrd=rd1,wd=wd1,elapsed=4,interval=1\n", &e),
	    "'lun=' is not valid UTF-8 text (byte 11 of the item, 0xff)"));
	assert_int_equal(e.line, 1);
	assert_int_equal(e.col, 8);
	/* overlong '/' and a surrogate are not UTF-8 either */
	assert_non_null(strstr(pt_error("sd=sd1,lun=/x\xc0\xaf\n", &e),
	    "not valid UTF-8"));
	assert_non_null(strstr(pt_error("sd=sd1,lun=/x\xed\xa0\x80\n", &e),
	    "not valid UTF-8"));
	assert_non_null(strstr(pt_error("sd=s\xe9,lun=/x\n", &e),
	    "'sd=' is not valid UTF-8"));
	pt_opts(&o);
	assert_int_equal(pt_parse("sd=sd1,lun=/tmp/caf\xc3\xa9\xf0\x9f\x92"
	    "\xbe,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10,elapsed=4,"
	    "interval=1\n", &o, &m, &e), 0);
	model_free(m);

	assert_string_equal(pt_error("sd=sd,lun=/tmp/f*,size=1m,"
	    "count=(1,100001)\n", &e), "'count=(1,100001)' asks for more "
	    "than 100000 copies of sd=sd; at most 100000 are allowed");
	assert_int_equal(e.col, 27);
	assert_string_equal(pt_error("sd=sd,lun=/tmp/f*,count=(1)\n", &e),
	    "'count=(start,count)' parameter requires two values");

	assert_string_equal(pt_error("fsd=fsd1,anchor=/tmp/a,depth=10,"
	    "width=100,files=100,size=4k\nfwd=fwd1,fsd=fsd1\n", &e),
	    "fsd=fsd1: depth=10,width=100,files=100 makes more directories, "
	    "files or bytes than 64 bits can count; that tree cannot exist");
	assert_int_equal(e.line, 1);

	pt_opts(&o);
	assert_int_equal(pt_parse("sd=sd,lun=/tmp/f*,size=1m,"
	    "count=(1,100000)\nwd=wd1,sd=(sd1,sd*)\n"
	    "rd=rd1,wd=wd1,iorate=10,elapsed=4,interval=1\n", &o, &m, &e), 0);
	TAILQ_FOREACH(s, &m->sds, entry)
		n++;
	assert_int_equal(n, 100000);
	assert_string_equal(TAILQ_LAST(&m->sds, sd_list)->luns[0].lun,
	    "/tmp/f100000");
	/* sd1 twice (named, and by sd*): found among 100,000 */
	memset(&p, 0, sizeof(p));
	assert_int_equal(plan_build(m, &p, &e), -1);
	assert_string_equal(e.text, "SD=sd1 is requested more than once in "
	    "wd=wd1");
	plan_free(&p);
	model_free(m);
	assert_non_null(strstr(pt_error("sd=sd1,lun=/a\nsd=sd,lun=/b*,"
	    "count=(1,3)\n", &e), "An SD can only be defined once: sd=sd1"));
}

/*
 * At most 100,000 sds, and 100,000 fsds, in all, count= copies included
 * (review 2, 3: 100 lines of count=(1,100000) ran for minutes in
 * gigabytes); refused at the entry that passes the limit.
 */
static void
test_total_sds(void **state)
{
	struct parm_opts o;
	struct model *m;
	struct errmsg e;
	const struct sd *s;
	int n = 0;

	(void)state;
	assert_string_equal(pt_error("sd=a,lun=/tmp/a*,size=1m,"
	    "count=(1,60000)\nsd=b,lun=/tmp/b*,size=1m,count=(1,60000)\n"
	    "wd=wd1,sd=*\nrd=rd1,wd=wd1,iorate=10,elapsed=4,interval=1\n", &e),
	    "sd=b with its count= brings the sds to 120000; at most 100000 "
	    "sds are allowed in all");
	assert_string_equal(e.file, "t.parm");
	assert_int_equal(e.line, 2);
	assert_int_equal(e.col, 1);
	/* one plain sd past 99,999 copies, after an sd=default */
	assert_string_equal(pt_error("sd=default,size=1m\nsd=a,lun=/tmp/a*,"
	    "count=(1,99999)\nsd=b,lun=/tmp/b\n  sd=c,lun=/tmp/c\n", &e),
	    "sd=c brings the sds to 100001; at most 100000 sds are allowed "
	    "in all");
	assert_int_equal(e.line, 4);
	assert_int_equal(e.col, 3);
	assert_string_equal(pt_error("fsd=f,anchor=/tmp/f,depth=1,width=1,"
	    "files=1,size=4k,count=(1,70000)\nfsd=g,anchor=/tmp/g,depth=1,"
	    "width=1,files=1,size=4k,count=(1,30001)\nfwd=fwd1,fsd=*\n", &e),
	    "fsd=g with its count= brings the fsds to 100001; at most 100000 "
	    "fsds are allowed in all");
	assert_int_equal(e.line, 2);

	/* exactly 100,000 is allowed */
	pt_opts(&o);
	assert_int_equal(pt_parse("sd=default,size=1m\nsd=a,lun=/tmp/a*,"
	    "count=(1,99999)\nsd=b,lun=/tmp/b\nwd=wd1,sd=*\n"
	    "rd=rd1,wd=wd1,iorate=10,elapsed=4,interval=1\n", &o, &m, &e), 0);
	TAILQ_FOREACH(s, &m->sds, entry)
		n++;
	assert_int_equal(n, 100000);
	model_free(m);
}

/*
 * The sd name index (review2 finding 2): model_find_sd answers as the list
 * walk did (first sd of the exact name) through inserts at the end and
 * before an entry, removals (linear probing's deletion), duplicates and a
 * plain TAILQ_INSERT_TAIL; the parser and the planner use it.
 */
static void
test_sd_index(void **state)
{
	struct parm_opts o;
	struct model *m = model_new();
	struct sd *v[3000], *a, *b, *c, *late;
	struct errmsg e;
	struct plan p;
	char name[32];
	int i;

	(void)state;
	assert_null(model_find_sd(m, "s0"));
	for (i = 0; i < 3000; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		v[i] = sd_new(name);
		model_insert_sd(m, v[i], NULL);
	}
	for (i = 0; i < 3000; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		assert_ptr_equal(model_find_sd(m, name), v[i]);
	}
	assert_null(model_find_sd(m, "S1"));
	assert_null(model_find_sd(m, "s"));
	assert_null(model_find_sd(m, "s1 "));
	for (i = 0; i < 3000; i += 3) {
		model_remove_sd(m, v[i]);
		sd_free(v[i]);
	}
	for (i = 0; i < 3000; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		if (i % 3 == 0)
			assert_null(model_find_sd(m, name));
		else
			assert_ptr_equal(model_find_sd(m, name), v[i]);
	}
	a = sd_new("dup");
	b = sd_new("dup");
	model_insert_sd(m, a, NULL);
	model_insert_sd(m, b, NULL);
	assert_ptr_equal(model_find_sd(m, "dup"), a);
	model_remove_sd(m, a);
	assert_ptr_equal(model_find_sd(m, "dup"), b);
	c = sd_new("dup");
	model_insert_sd(m, c, v[1]);
	assert_ptr_equal(model_find_sd(m, "dup"), c);
	model_insert_sd(m, a, v[2]);
	assert_ptr_equal(model_find_sd(m, "dup"), c);
	model_remove_sd(m, a);
	model_insert_sd(m, a, c);
	assert_ptr_equal(model_find_sd(m, "dup"), a);
	late = sd_new("late");
	TAILQ_INSERT_TAIL(&m->sds, late, entry);
	assert_ptr_equal(model_find_sd(m, "late"), late);
	assert_ptr_equal(model_find_sd(m, "s2999"), v[2999]);
	model_free(m);

	/* count= copies are indexed; the copied entry's name is free again */
	assert_string_equal(pt_error("sd=sd,lun=/b*,count=(1,3)\n"
	    "sd=sd2,lun=/c\n", &e), "An SD can only be defined once: sd=sd2");
	assert_int_equal(e.line, 2);
	pt_opts(&o);
	assert_int_equal(pt_parse("sd=sd,lun=/b*,count=(1,3)\nsd=sd,lun=/c\n"
	    "sd=sd4,lun=/d\nwd=wd1,sd=(sd3,sd,sd1-sd2,sd4)\n"
	    "rd=rd1,wd=wd1,iorate=10,elapsed=4,interval=1\n", &o, &m, &e), 0);
	memset(&p, 0, sizeof(p));
	assert_int_equal(plan_build(m, &p, &e), 0);
	assert_int_equal(p.runs[0].wds[0].nsds, 5);
	assert_string_equal(p.runs[0].wds[0].sds[0]->name, "sd3");
	assert_string_equal(p.runs[0].wds[0].sds[1]->luns[0].lun, "/c");
	assert_string_equal(p.runs[0].wds[0].sds[2]->name, "sd1");
	assert_string_equal(p.runs[0].wds[0].sds[4]->name, "sd4");
	plan_free(&p);
	model_free(m);
	pt_opts(&o);
	assert_int_equal(pt_parse("sd=sd1,lun=/a\nsd=sd2,lun=/b\n"
	    "wd=wd1,sd=(sd2,SD1)\nrd=rd1,wd=wd1,iorate=10,elapsed=4,"
	    "interval=1\n", &o, &m, &e), 0);
	memset(&p, 0, sizeof(p));
	assert_int_equal(plan_build(m, &p, &e), -1);
	assert_string_equal(e.text, "Could not find sd=SD1 for wd=wd1,"
	    "host=localhost");
	plan_free(&p);
	model_free(m);
}

/*
 * Placement of 100,000 sds (a real run's planning, review2 finding 2):
 * per sd, not every WG against every other, so well under 5 s (minutes
 * before, even in a release build; 5 s leaves room for sanitizers).
 */
static void
test_place_100k(void **state)
{
	struct parm_opts o;
	struct model *m;
	struct errmsg e;
	struct plan p;
	struct placement pl;
	struct timespec t0, t1;
	double s;
	int i, threads = 0;

	(void)state;
	pt_opts(&o);
	assert_int_equal(pt_parse("sd=sd,lun=/tmp/f*,size=1m,threads=2,"
	    "count=(1,100000)\nwd=wd1,sd=sd*\nwd=wd2,sd=sd9*,seekpct=eof\n"
	    "rd=rd1,wd=wd*,iorate=1000,elapsed=4,interval=1\n", &o, &m, &e),
	    0);
	memset(&p, 0, sizeof(p));
	assert_int_equal(plan_build(m, &p, &e), 0);
	/* The quadratic placement took minutes: SIGALRM ends the test. */
	alarm(30);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(place_run(&p.runs[0], 2, &pl, &e), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	alarm(0);
	s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	print_message("placed 100,000 sds on 2 slaves in %.3f s\n", s);
	assert_true(s < 5);
	/* wd1 random: a WG per sd and slave; wd2 (11,111 sds) sequential */
	assert_int_equal(pl.nwgs, 200000 + 11111);
	assert_int_equal(pl.nsds, 200000);
	for (i = 0; i < pl.nsds; i++) {
		assert_int_equal(pl.sds[i].threads, 1);
		assert_int_equal(pl.sds[i].slave, i % 2);
		assert_ptr_equal(pl.sds[i].sd, p.runs[0].wds[0].sds[i / 2]);
		threads += pl.sds[i].threads;
	}
	assert_int_equal(threads, 200000);
	place_free(&pl);
	plan_free(&p);
	model_free(m);
}

/* Append "section:kw " of one kind to a buffer. */
struct kwlist {
	enum parm_kw_kind	 kind;
	char			 buf[4096];
};

static void
kw_collect(void *arg, const char *section, const char *kw,
    enum parm_kw_kind kind)
{
	struct kwlist *l = arg;
	size_t n = strlen(l->buf);

	if (kind == l->kind)
		snprintf(l->buf + n, sizeof(l->buf) - n, "%s:%s ", section, kw);
}

/*
 * fileselect= lists read in order as vdbench's FwdEntry.parseFileSelect;
 * each form's exit status checked with vdbench 5.04.06 -s (all 0 but
 * midpoint=0, which vdbench fails as here).
 */
static void
test_fileselect_lists(void **state)
{
	static const struct {
		const char	*v, *sel;
		double		 mid;
	} c[] = {
		{ "poisson", "poisson", 3 }, { "skewed", "poisson", 3 },
		{ "(poisson,5)", "poisson", 5 }, { "midpoint=5", "poisson", 5 },
		{ "(random,midpoint=5)", "poisson", 5 },
		{ "(random,7)", "poisson", 7 }, { "7", "sequential", 0 },
		{ "(poisson,0)", "random", 0 }, { "(poisson,seq)", "sequential", 0 },
		{ "(seq,poisson)", "poisson", 3 }, { "r", "random", 0 },
		{ "once", "once", 0 },
	};
	struct parm_opts o;
	struct model *m;
	struct errmsg e;
	char text[512];
	size_t i;

	(void)state;
	pt_opts(&o);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		const struct fwd *f;

		snprintf(text, sizeof(text), "fsd=fsd1,anchor=/tmp/a,depth=1,"
		    "width=1,files=10,size=4k\nfwd=fwd1,fsd=fsd1,"
		    "operation=read,fileselect=%s\nrd=rd1,fwd=fwd1,"
		    "fwdrate=10,format=no,elapsed=2,interval=1\n", c[i].v);
		if (pt_parse(text, &o, &m, &e) != 0)
			fail_msg("%s: %s", c[i].v, e.text);
		f = TAILQ_FIRST(&m->fwds);
		print_message("fileselect=%s: %s %g\n", c[i].v, f->fileselect,
		    f->poisson_midpoint);
		assert_string_equal(f->fileselect, c[i].sel);
		if (c[i].mid > 0)
			assert_true(f->poisson_midpoint == c[i].mid);
		model_free(m);
	}
	assert_int_equal(pt_parse("fsd=fsd1,anchor=/tmp/a,depth=1,width=1,"
	    "files=10,size=4k\nfwd=fwd1,fsd=fsd1,operation=read,"
	    "fileselect=midpoint=0\nrd=rd1,fwd=fwd1,fwdrate=10,format=no,"
	    "elapsed=2,interval=1\n", &o, &m, &e), -1);
	assert_non_null(strstr(e.text, "Invalid 'fileselect' parameter "
	    "contents: midpoint=0"));
}

/*
 * An hd without shell=: vdbench's Host.host_shell defaults to "rsh", vdbc
 * uses ssh; said once at parse time, for the first such remote hd only.
 */
static void
test_noshell_note(void **state)
{
	struct strlist notes = { 0, NULL, 0 };
	struct parm_opts o;
	struct model *m;
	struct errmsg e;

	(void)state;
	pt_opts(&o);
	assert_int_equal(parmfile_load_buffer("t.parm", "hd=default,user=u\n"
	    "hd=h1,system=10.251.0.2\nhd=h2,system=10.251.0.3\n"
	    "sd=sd1,host=h1,lun=/dev/sdb\nwd=wd1,sd=sd1\n"
	    "rd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1\n", &o, &m, &notes,
	    &e), 0);
	assert_int_equal(notes.n, 1);
	assert_string_equal(notes.v[0], "hd=h1, hd=h2 have no 'shell=': "
	    "vdbench starts a remote host's slaves with rsh, vdbc with ssh "
	    "(shell=rsh or shell=ssh chooses)");
	strlist_clear(&notes);
	model_free(m);
	assert_int_equal(parmfile_load_buffer("t.parm", "hd=default,shell=ssh\n"
	    "hd=h1,system=10.251.0.2\nhd=h2,system=localhost,shell=rsh\n"
	    "sd=sd1,host=h1,lun=/dev/sdb\nwd=wd1,sd=sd1\n"
	    "rd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1\n", &o, &m, &notes,
	    &e), 0);
	assert_int_equal(notes.n, 0);
	strlist_clear(&notes);
	model_free(m);
}

/*
 * The keywords accepted with no behaviour are listed from the tables, so
 * adding one (or giving one a behaviour) shows here; each prints a console
 * line when used.
 */
static void
test_keyword_kinds(void **state)
{
	struct kwlist l;
	struct strlist notes = { 0, NULL, 0 };
	struct parm_opts o;
	struct model *m;
	struct errmsg e;

	(void)state;
	memset(&l, 0, sizeof(l));
	l.kind = PARM_KW_NOEFFECT;
	parmfile_keywords(kw_collect, &l);
	printf("no effect in vdbc: %s\n", l.buf);
	assert_string_equal(l.buf, "general:debug general:unix2windows "
	    "general:misc general:pattern_buffer "
	    "sd:kstat sd:instance sd:resetlun sd:resetbus ");
	/* psrset= is refused as vdbench refuses it on Linux */
	memset(&l, 0, sizeof(l));
	l.kind = PARM_KW_REJECT;
	parmfile_keywords(kw_collect, &l);
	assert_non_null(strstr(l.buf, "general:psrset "));
	/* every keyword is typed, unbuilt, without effect or rejected */
	memset(&l, 0, sizeof(l));
	l.kind = PARM_KW_BAG;
	parmfile_keywords(kw_collect, &l);
	printf("untyped (bag): %s\n", l.buf);
	assert_string_equal(l.buf, "");
	memset(&l, 0, sizeof(l));
	l.kind = PARM_KW_UNBUILT;
	parmfile_keywords(kw_collect, &l);
	printf("refused by a run (unbuilt): %s\n", l.buf);
	/* a keyword vdbc refuses with its reason is typed, yet a run
	 * stops on it (unbuilt) */
	pt_opts(&o);
	assert_int_equal(parmfile_load_buffer("t.parm", "dedupratio=2,"
	    "dedupunit=4k\ndeduphotsets=(10,2)\nsd=sd1,lun=/dev/sdb\n"
	    "wd=wd1,sd=sd1\n"
	    "rd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1\n", &o, &m, &notes,
	    &e), 0);
	assert_int_equal(m->unbuilt.n, 1);
	assert_non_null(strstr(m->unbuilt.v[0], "'deduphotsets=' (t.parm:2:1)"));
	strlist_clear(&notes);
	model_free(m);

	pt_opts(&o);
	assert_int_equal(parmfile_load_buffer("t.parm", "create_anchors=yes\n"
	    "sd=sd1,lun=/dev/sdb,resetlun=1\nwd=wd1,sd=sd1\n"
	    "rd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1\n", &o, &m, &notes,
	    &e), 0);
	assert_int_equal(notes.n, 1);
	assert_string_equal(notes.v[0], "vdbc: 'resetlun=' is accepted and "
	    "ignored: a Solaris-only option (a SCSI lun reset every n "
	    "seconds); it has no meaning on Linux (docs/differences.md)");
	assert_int_equal(m->unbuilt.n, 0);
	/* create_anchors= is typed: the slave makes the anchor's parents */
	assert_int_equal(m->general.create_anchors, 1);
	strlist_clear(&notes);
	model_free(m);
	assert_int_equal(parmfile_load_buffer("t.parm", "create_anchors=maybe\n"
	    "sd=sd1,lun=/dev/sdb\nwd=wd1,sd=sd1\n"
	    "rd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1\n", &o, &m, &notes,
	    &e), -1);
	assert_non_null(strstr(e.text, "Invalid 'create_anchors=' value: "
	    "maybe"));
	strlist_clear(&notes);
	/* Each keyword without meaning here says why, once; its value is
	 * still checked; showlba=yes (a trace vdbc does not write) stops a
	 * run, showlba=no is the default and says nothing. */
	assert_int_equal(parmfile_load_buffer("t.parm", "debug=3\n"
	    "unix2windows=(/mnt,c:\\)\nmisc=(fifo=100)\npattern_buffer=2\n"
	    "showlba=yes\nsd=sd1,lun=/dev/sdb,kstat=sd1,instance=sd1\n"
	    "sd=sd2,lun=/dev/sdc,kstat=sd2\nwd=wd1,sd=sd1\n"
	    "rd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1\n", &o, &m, &notes,
	    &e), 0);
	assert_int_equal(notes.n, 7);
	assert_non_null(strstr(notes.v[0], "'debug=' is accepted and ignored: "
	    "a switch of vdbench's own Java code"));
	assert_non_null(strstr(notes.v[1], "'unix2windows=' is accepted and "
	    "ignored: path translation for Windows slaves"));
	assert_non_null(strstr(notes.v[2], "'misc=' is accepted and ignored"));
	assert_non_null(strstr(notes.v[3], "'pattern_buffer=' is accepted "
	    "and ignored"));
	assert_non_null(strstr(notes.v[4], "'showlba=yes' is accepted for "
	    "planning, but vdbc cannot run it yet"));
	assert_non_null(strstr(notes.v[5], "'kstat=' is accepted and ignored: "
	    "a Solaris-only option"));
	assert_non_null(strstr(notes.v[6], "'instance=' is accepted and "
	    "ignored: a Solaris-only option"));
	assert_int_equal(m->unbuilt.n, 1);
	/* the place, then (after a tab) why it is not built */
	assert_string_equal(m->unbuilt.v[0], "'showlba=yes' (t.parm:5:1)\t"
	    "the per-I/O lba trace (<slave>.showlba.txt) is not written by "
	    "vdbc yet");
	strlist_clear(&notes);
	model_free(m);
	assert_int_equal(parmfile_load_buffer("t.parm", "showlba=no\n"
	    "sd=sd1,lun=/dev/sdb\nwd=wd1,sd=sd1\n"
	    "rd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1\n", &o, &m, &notes,
	    &e), 0);
	assert_int_equal(notes.n, 0);
	assert_int_equal(m->unbuilt.n, 0);
	strlist_clear(&notes);
	model_free(m);
	assert_int_equal(parmfile_load_buffer("t.parm", "debug=x\n"
	    "sd=sd1,lun=/dev/sdb\nwd=wd1,sd=sd1\n"
	    "rd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1\n", &o, &m, &notes,
	    &e), -1);
	assert_non_null(strstr(e.text, "'debug=' requires a numeric value"));
	strlist_clear(&notes);
	assert_int_equal(parmfile_load_buffer("t.parm", "psrset=1\n"
	    "sd=sd1,lun=/dev/sdb\nwd=wd1,sd=sd1\n"
	    "rd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1\n", &o, &m, &notes,
	    &e), -1);
	assert_non_null(strstr(e.text, "'psrset=' option is only supported "
	    "on Solaris"));
	strlist_clear(&notes);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t01_minimal),
		cmocka_unit_test(test_t02_flat_stream),
		cmocka_unit_test(test_t06_units),
		cmocka_unit_test(test_t08_defaults),
		cmocka_unit_test(test_t09_substitution),
		cmocka_unit_test(test_t13_times),
		cmocka_unit_test(test_t14_abbreviations),
		cmocka_unit_test(test_t15_section_order),
		cmocka_unit_test(test_t25_value_errors),
		cmocka_unit_test(test_overrides),
		cmocka_unit_test(test_bounded_values),
		cmocka_unit_test(test_total_sds),
		cmocka_unit_test(test_sd_index),
		cmocka_unit_test(test_place_100k),
		cmocka_unit_test(test_keyword_kinds),
		cmocka_unit_test(test_noshell_note),
		cmocka_unit_test(test_fileselect_lists),
	};
	return (cmocka_run_group_tests_name("parmfile", tests, NULL, NULL));
}
