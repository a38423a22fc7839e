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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
	};
	return (cmocka_run_group_tests_name("model_json", tests, NULL, NULL));
}
