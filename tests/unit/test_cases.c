/* PARMFILE.md section 14 cases not covered in test_parmfile/test_plan:
 * T05, T11, T12, T16, T18, T21, T22, T23, T24 (and the T17 negative). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "parmtest.h"

/* "name|loops" per run, or "name" alone for a format run. */
static const char *
runs_of(const char *text, struct parm_opts *o, char *buf, size_t len)
{
	struct model *m;
	struct errmsg e;
	struct plan p;
	size_t n = 0;
	int i;

	assert_int_equal(pt_parse(text, o, &m, &e), 0);
	if (plan_build(m, &p, &e) != 0)
		fail_msg("plan: %s", e.text);
	buf[0] = '\0';
	for (i = 0; i < p.nruns; i++) {
		char loops[256];

		if (p.runs[i].format_run)
			n += (size_t)snprintf(buf + n, len - n, "%s\n",
			    p.runs[i].name);
		else
			n += (size_t)snprintf(buf + n, len - n, "%s|%s\n",
			    p.runs[i].name, plan_loops_text(&p.runs[i], loops,
			    sizeof(loops)));
	}
	plan_free(&p);
	model_free(m);
	return (buf);
}

static const char head[] = "sd=sd1,lun=/dev/sdb\nwd=wd1,sd=sd1\n";

static void
test_t05_ranges(void **state)
{
	struct parm_opts o;
	char buf[4096], t[512];

	(void)state;
	pt_opts(&o);
	snprintf(t, sizeof(t), "%srd=rd1,wd=wd1,iorate=max,elapsed=10,"
	    "interval=1,forxfersize=(4k-32k,d),forrdpct=(0-100,50)\n", head);
	runs_of(t, &o, buf, sizeof(buf));
	assert_non_null(strstr(buf, "rd1|xfersize=4k rdpct=0\n"));
	assert_non_null(strstr(buf, "rd1|xfersize=32k rdpct=100\n"));
	assert_int_equal(strlen(buf) - strlen(strstr(buf, "rd1|xfersize=32k "
	    "rdpct=100\n")) + strlen("rd1|xfersize=32k rdpct=100\n"),
	    strlen(buf));
	snprintf(t, sizeof(t), "%srd=rd1,wd=wd1,iorate=max,forthreads="
	    "(1,2,4-16,4,32)\n", head);
	assert_string_equal(runs_of(t, &o, buf, sizeof(buf)),
	    "rd1|threads=1\nrd1|threads=2\nrd1|threads=4\nrd1|threads=8\n"
	    "rd1|threads=12\nrd1|threads=16\nrd1|threads=32\n");
	snprintf(t, sizeof(t), "%srd=rd1,wd=wd1,iorate=max,fo=(64k-8k,d)\n",
	    head);
	assert_string_equal(runs_of(t, &o, buf, sizeof(buf)),
	    "rd1|xfersize=64k\nrd1|xfersize=32k\nrd1|xfersize=16k\n"
	    "rd1|xfersize=8k\n");
}

static void
test_t11_percent_of_previous(void **state)
{
	struct parm_opts o;
	char buf[1024], t[512];

	(void)state;
	pt_opts(&o);
	snprintf(t, sizeof(t), "%srd=rd1,wd=wd1,iorate=max,elapsed=10,"
	    "interval=1\nrd=rd2,wd=wd1,iorate=50%%,elapsed=10,interval=1\n",
	    head);
	assert_string_equal(runs_of(t, &o, buf, sizeof(buf)),
	    "rd1|None\nrd2_(50%)|None\n");
}

static void
test_t12_overrides_and_extras(void **state)
{
	struct parm_opts o;
	struct model *m;
	struct errmsg e;
	struct plan p;
	char rate[64];

	(void)state;
	pt_opts(&o);
	o.elapsed_s = 20;
	o.interval_s = 2;
	o.extras = "iorate=max";
	assert_int_equal(pt_parse("sd=sd1,lun=/dev/sdb\n"
	    "wd=wd1,sd=sd1,xfersize=4096,readpct=100\n"
	    "rd=run1,wd=wd1,iorate=100,elapsed=10,interval=1\n", &o, &m, &e),
	    0);
	assert_int_equal(plan_build(m, &p, &e), 0);
	assert_int_equal(p.runs[0].nintervals, 10);
	assert_int_equal(p.runs[0].first_avg, 2);
	assert_string_equal(plan_rate_text(&p.runs[0], 10000, rate,
	    sizeof(rate)), "Uncontrolled MAX");
	plan_free(&p);
	model_free(m);
}

static void
test_t16_count(void **state)
{
	struct parm_opts o;
	struct model *m;
	struct errmsg e;
	struct sd *s;

	(void)state;
	pt_opts(&o);
	assert_int_equal(pt_parse("sd=sd,lun=/data/file%02d,count=(1,3),"
	    "size=10m\nwd=wd1,sd=sd*\nrd=rd1,wd=wd1,iorate=300,elapsed=4,"
	    "interval=1\n", &o, &m, &e), 0);
	s = model_find_sd(m, "sd2");
	assert_non_null(s);
	assert_string_equal(s->luns[0].lun, "/data/file02");
	assert_int_equal(s->size_bytes, 10 << 20);
	assert_null(model_find_sd(m, "sd"));
	assert_non_null(model_find_sd(m, "sd3"));
	model_free(m);
	assert_string_equal(pt_error("sd=s,lun=/d,count=(1)\n", &e),
	    "'count=(start,count)' parameter requires two values");
}

static void
test_t18_host_replication(void **state)
{
	struct parm_opts o;
	struct model *m;
	struct errmsg e;
	struct sd *s;

	(void)state;
	pt_opts(&o);
	assert_int_equal(pt_parse("hd=default,user=root,shell=ssh\n"
	    "hd=hostA,system=10.0.0.1\nhd=hostB,system=10.0.0.2\n"
	    "sd=sd_$host,host=$host,lun=/dev/sdb,threads=#hosts\n"
	    "wd=wd1,sd=sd_*\nrd=rd1,wd=wd1,iorate=1000,elapsed=10,"
	    "interval=1\n", &o, &m, &e), 0);
	s = model_find_sd(m, "sd_hostB");
	assert_non_null(s);
	assert_string_equal(s->luns[0].host, "hostB");
	assert_int_equal(s->threads, 2);
	assert_non_null(model_find_sd(m, "sd_hostA"));
	model_free(m);
}

static void
test_t21_sd_single(void **state)
{
	struct parm_opts o;
	char buf[1024];

	(void)state;
	pt_opts(&o);
	assert_string_equal(runs_of("sd=sd1,lun=/dev/sdb\nsd=sd2,lun=/dev/sdc\n"
	    "sd=sd3,lun=/dev/sdd\nwd=wd1,sd=sd*\nrd=rd1,wd=wd1,sd=single,"
	    "iorate=max,elapsed=4,interval=1\n", &o, buf, sizeof(buf)),
	    "rd1_sd1|None\nrd1_sd2|None\nrd1_sd3|None\n");
	assert_string_equal(runs_of("sd=sd1,lun=/dev/sdb\nsd=sd2,lun=/dev/sdc\n"
	    "wd=wd1,sd=sd*\nrd=rd1,wd=wd1,sd=range,iorate=max,elapsed=4,"
	    "interval=1\n", &o, buf, sizeof(buf)),
	    "rd1_sd1-sd1|None\nrd1_sd1-sd2|None\n");
}

static const char t22[] =
    "fsd=fsd1,anchor=/mnt/test,depth=2,width=3,files=10,size=64k\n"
    "fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,fileio=sequential,"
    "fileselect=random,threads=4\n";

static void
test_t22_fsd_format(void **state)
{
	struct parm_opts o;
	struct model *m;
	struct errmsg e;
	uint64_t dirs, files, bytes;
	char buf[1024], t[1024];

	(void)state;
	pt_opts(&o);
	snprintf(t, sizeof(t), "%srd=rd1,fwd=fwd1,fwdrate=max,format=yes,"
	    "elapsed=30,interval=5\n", t22);
	assert_string_equal(runs_of(t, &o, buf, sizeof(buf)),
	    "format_for_rd1\nrd1|None\n");
	assert_int_equal(pt_parse(t, &o, &m, &e), 0);
	plan_anchor_size(TAILQ_FIRST(&m->fsds), &dirs, &files, &bytes);
	assert_int_equal(dirs, 12);
	assert_int_equal(files, 90);
	assert_int_equal(bytes, 90 * 65536);
	TAILQ_FIRST(&m->fsds)->dist_all = 1;
	plan_anchor_size(TAILQ_FIRST(&m->fsds), &dirs, &files, &bytes);
	assert_int_equal(files, 120);
	model_free(m);
	snprintf(t, sizeof(t), "%srd=rd1,fwd=fwd1,fwdrate=max,format=only,"
	    "elapsed=30,interval=5\n", t22);
	assert_string_equal(runs_of(t, &o, buf, sizeof(buf)),
	    "format_for_rd1\n");
}

static void
test_t23_format_loops(void **state)
{
	struct parm_opts o;
	struct errmsg e;
	char buf[1024], t[1024];

	(void)state;
	pt_opts(&o);
	snprintf(t, sizeof(t), "%srd=rd1,fwd=fwd1,fwdrate=100,format=yes,"
	    "forthreads=(1,2),elapsed=10,interval=1\n", t22);
	assert_string_equal(runs_of(t, &o, buf, sizeof(buf)),
	    "format_for_rd1\nrd1|threads=1\nformat_for_rd1\nrd1|threads=2\n");
	snprintf(t, sizeof(t), "%srd=rd1,fwd=fwd1,fwdrate=100,format=once,"
	    "forthreads=(1,2),elapsed=10,interval=1\n", t22);
	assert_string_equal(runs_of(t, &o, buf, sizeof(buf)),
	    "format_for_rd1\nrd1|threads=1\nrd1|threads=2\n");
	snprintf(t, sizeof(t), "%srd=rd1,fwd=fwd1,fwdrate=100,format=once,"
	    "elapsed=10,interval=1\n", t22);
	assert_string_equal(pt_error(t, &e), "'format=once' can only be used "
	    "with 'forxxx=' parameters");
}

static void
test_t24_quoting(void **state)
{
	struct parm_opts o;
	struct model *m;
	struct errmsg e;
	const struct pvals *v;

	(void)state;
	pt_opts(&o);
	assert_int_equal(pt_parse("startcmd=\"echo hello, world\"\n"
	    "sd=sd1,lun=\"/data/my file.dat\",size=1g\nwd=wd1,sd=sd1\n"
	    "rd=rd1,wd=wd1,iorate=10\n", &o, &m, &e), 0);
	v = bag_get(&m->general.bag, "startcmd");
	assert_non_null(v);
	assert_int_equal(v->n, 1);
	assert_string_equal(v->v[0].str, "echo hello, world");
	assert_string_equal(model_find_sd(m, "sd1")->luns[0].lun,
	    "/data/my file.dat");
	assert_int_equal(model_find_sd(m, "sd1")->size_bytes, 1ull << 30);
	model_free(m);
}

/* fwd keywords and vdbench's checks (PARMFILE.md 10.1, 10.2). */
static void
test_fwd_checks(void **state)
{
	const char *fsd = "fsd=fsd1,anchor=/tmp/x\n";
	struct parm_opts o;
	struct model *m;
	struct errmsg e;
	char t[512];
	struct fwd *f;

	(void)state;
	pt_opts(&o);
	snprintf(t, sizeof(t), "%sfwd=fwd1,fsd=fsd1,operation=write,"
	    "fileio=(random,shared),rdpct=30,xfersize=(4k,50,8k,50),"
	    "threads=3\nrd=rd1,fwd=fwd1,fwdrate=10\n", fsd);
	assert_int_equal(pt_parse(t, &o, &m, &e), 0);
	f = TAILQ_FIRST(&m->fwds);
	assert_string_equal(f->operation, "write");
	assert_string_equal(f->fileio, "random");
	assert_true(f->fileio_shared);
	assert_int_equal(f->threads, 3);
	assert_int_equal(f->xfer.kind, XFER_DIST);
	model_free(m);
	snprintf(t, sizeof(t), "%sfwd=fwd1,fsd=fsd1,rdpct=30\n", fsd);
	assert_string_equal(pt_error(t, &e), "'fileio=sequential' and 'rdpct=' "
	    "are mutually exclusive.");
	snprintf(t, sizeof(t), "%sfwd=fwd1,fsd=fsd1,operation=(read,write)\n",
	    fsd);
	assert_string_equal(pt_error(t, &e), "'fwd=fwd1,operations=' accepts "
	    "only ONE parameter.");
	snprintf(t, sizeof(t), "%sfwd=fwd1,fsd=fsd1,operation=frob\n", fsd);
	assert_string_equal(pt_error(t, &e), "Unknown operation: frob");
	snprintf(t, sizeof(t), "%sfwd=read,fsd=fsd1\n", fsd);
	assert_string_equal(pt_error(t, &e), "fwd name may not match a valid "
	    "operation: fwd=read");
	snprintf(t, sizeof(t), "%sfwd=fwd1,fsd=fsd1,target=fsd1\n", fsd);
	assert_string_equal(pt_error(t, &e), "'target=' may only be specified "
	    "together with 'operation=move' or 'operation=copy'");
	assert_string_equal(pt_error("fsd=fsd1,depth=2\n", &e),
	    "Directory name required for fsd=fsd1");
	assert_string_equal(pt_error("fsd=fsd1,anchor=/x,totalsize=50%\n",
	    &e), "A percentage value as a 'totalsize=' parameter is NOT "
	    "allowed for an FSD; only for an RD.");
	snprintf(t, sizeof(t), "%sfwd=fwd1,fsd=fsd1\nrd=rd1,fwd=fwd1,"
	    "fwdrate=10,operations=read,foroperations=(read,write)\n", fsd);
	assert_string_equal(pt_error(t, &e), "rd=rd1: 'operations' and "
	    "'foroperations' parameters are mutually exclusive");
}

/* General and hd checks with vdbench's texts (section 11.2). */
static void
test_general_checks(void **state)
{
	struct errmsg e;

	(void)state;
	assert_string_equal(pt_error("report=all_detail\n", &e),
	    "Invalid 'reports=' parameter: all_detail");
	assert_string_equal(pt_error("compressionseed=soon\n", &e),
	    "Invalid 'compressionseed=' parameter: soon");
	assert_string_equal(pt_error("debug=yes\n", &e),
	    "'debug=' requires a numeric value");
	assert_string_equal(pt_error("validate=maybe\n", &e),
	    "Unknown keyword value for 'validate=': maybe");
	assert_string_equal(pt_error("swat=x\n", &e),
	    "The 'swat=' parameter is no longer supported");
	assert_string_equal(pt_error("hd=h1,vdbench=vdbench_dir\n", &e),
	    "'vdbench=' directory name must end with a file separator (\\ or "
	    "/): vdbench_dir");
	assert_string_equal(pt_error("sd=s,lun=/d\nwd=w,sd=s,stride=(8k)\n",
	    &e), "stride= requires two parameters: 'stride=(min,max)'");
	assert_string_equal(pt_error("sd=s,lun=/d,streams=2\n", &e),
	    "The 'streams=' parameter no longer is a Storage Definition (SD) "
	    "parameter, but has become a Workload Definition (WD) parameter.");
}

/* Found by fuzzing: a huge number, and a plan of 10^10 runs. */
static void
test_fuzz_regressions(void **state)
{
	struct parm_opts o;
	struct model *m;
	struct errmsg e;
	struct plan p;

	(void)state;
	assert_string_equal(pt_error("sd=s,lun=/d\nwd=w,sd=s,xfersize="
	    "(1e120,50,4k,50)\n", &e), "Numeric value out of range: 1e120");
	pt_opts(&o);
	assert_int_equal(pt_parse("sd=s,lun=/d\nwd=w,sd=s\nrd=r,wd=w,"
	    "iorate=max,forthreads=(1-90000,1),forrdpct=(1-90000,1)\n", &o,
	    &m, &e), -1);
	assert_string_equal(e.text, "rd=r expands to 8100000000 runs; vdbc "
	    "plans at most 100000");
	assert_int_equal(e.line, 3);
	/* the planner checks again (a model not from the parser) */
	assert_int_equal(pt_parse("sd=s,lun=/d\nwd=w,sd=s\nrd=r,wd=w,"
	    "iorate=max,forthreads=(1-90000,1)\n", &o, &m, &e), 0);
	TAILQ_FIRST(&m->rds)->loops[0].n = 200000;
	assert_int_equal(plan_build(m, &p, &e), -1);
	assert_string_equal(e.text, "rd=r expands to 200000 runs; vdbc plans "
	    "at most 100000");
	model_free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t05_ranges),
		cmocka_unit_test(test_t11_percent_of_previous),
		cmocka_unit_test(test_t12_overrides_and_extras),
		cmocka_unit_test(test_t16_count),
		cmocka_unit_test(test_t18_host_replication),
		cmocka_unit_test(test_t21_sd_single),
		cmocka_unit_test(test_t22_fsd_format),
		cmocka_unit_test(test_t23_format_loops),
		cmocka_unit_test(test_t24_quoting),
		cmocka_unit_test(test_fwd_checks),
		cmocka_unit_test(test_general_checks),
		cmocka_unit_test(test_fuzz_regressions),
	};
	return (cmocka_run_group_tests_name("cases", tests, NULL, NULL));
}
