/*
 * The master's command line (master/cli.c) as vdbench normalises it
 * (PARMFILE.md 3.1): glued and separate values (-fparm, -f a b c, -e60,
 * -e 60), defaults, name=value substitutions, "+" RD extras, the long
 * options, what vdbench echoes as "scanned", and a clear message for
 * every bad argument.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"
#include "log.h"

/* Parse a NULL-terminated argument list (argv[0] added); expect rc. */
static int
parse(struct cli *c, struct errmsg *e, const char *arg, ...)
{
	char *argv[32];
	const char *a;
	va_list ap;
	int argc = 0;

	argv[argc++] = (char *)"vdbc";
	va_start(ap, arg);
	for (a = arg; a != NULL; a = va_arg(ap, const char *)) {
		assert_true(argc < 31);
		argv[argc++] = (char *)a;
	}
	va_end(ap);
	argv[argc] = NULL;
	memset(e, 0, sizeof(*e));
	return (cli_parse(c, argc, argv, e));
}

/* The scanned list joined with spaces. */
static const char *
scanned(const struct cli *c)
{
	static char buf[512];
	int i;

	buf[0] = '\0';
	for (i = 0; i < c->scanned.n; i++) {
		if (i > 0)
			strcat(buf, " ");
		strcat(buf, c->scanned.v[i]);
	}
	return (buf);
}

static void
test_defaults(void **state)
{
	struct errmsg e;
	struct cli c;

	(void)state;
	assert_int_equal(parse(&c, &e, NULL), 0);
	assert_int_equal(c.files.n, 1);
	assert_string_equal(c.files.v[0], "parmfile");
	assert_string_equal(c.outdir, "output");
	assert_int_equal(c.elapsed_s, -1);
	assert_int_equal(c.interval_s, -1);
	assert_int_equal(c.warmup_s, -1);
	assert_int_equal(c.port, -1);
	assert_int_equal(c.jvms, 0);
	assert_int_equal(c.simulate, 0);
	assert_int_equal(c.seed_set, 0);
	assert_int_equal(c.loss_continue, 0);
	assert_int_equal(c.dump, CLI_DUMP_NONE);
	assert_null(c.extras);
	assert_int_equal(c.vars.n, 0);
	cli_free(&c);
}

static void
test_glued(void **state)
{
	struct errmsg e;
	struct cli c;

	(void)state;
	/* glued: -fparm -oout -e60 -i5 -w3 -m4 -p0 */
	assert_int_equal(parse(&c, &e, "-fparm", "-oout", "-e60", "-i5",
	    "-w3", "-m4", "-p0", "-s", NULL), 0);
	assert_int_equal(c.files.n, 1);
	assert_string_equal(c.files.v[0], "parm");
	assert_string_equal(c.outdir, "out");
	assert_int_equal(c.elapsed_s, 60);
	assert_int_equal(c.interval_s, 5);
	assert_int_equal(c.warmup_s, 3);
	assert_int_equal(c.jvms, 4);
	assert_int_equal(c.port, 0);
	assert_int_equal(c.simulate, 1);
	assert_string_equal(scanned(&c), "-fparm -oout -e60 -i5 -w3 -m4 -p0 -s");
	cli_free(&c);
	/* separate values, scanned glued as vdbench echoes them */
	assert_int_equal(parse(&c, &e, "-f", "parm", "-o", "out", "-e", "60",
	    "-i", "1", NULL), 0);
	assert_string_equal(c.files.v[0], "parm");
	assert_string_equal(c.outdir, "out");
	assert_int_equal(c.elapsed_s, 60);
	assert_int_equal(c.interval_s, 1);
	assert_string_equal(scanned(&c), "-fparm -oout -e60 -i1");
	cli_free(&c);
	/* -o twice: the last wins */
	assert_int_equal(parse(&c, &e, "-oa", "-o", "b", NULL), 0);
	assert_string_equal(c.outdir, "b");
	cli_free(&c);
}

static void
test_files(void **state)
{
	struct errmsg e;
	struct cli c;

	(void)state;
	/* -f a b c: more parmfiles until an option, '+' or name=value */
	assert_int_equal(parse(&c, &e, "-f", "a", "b", "c", "-s", NULL), 0);
	assert_int_equal(c.files.n, 3);
	assert_string_equal(c.files.v[2], "c");
	cli_free(&c);
	assert_int_equal(parse(&c, &e, "-fa", "b", "x=1", "d", NULL), -1);
	assert_string_equal(e.text, "Invalid execution parameter: 'd'");
	cli_free(&c);
	assert_int_equal(parse(&c, &e, "-fa", "b", "x=1", NULL), 0);
	assert_int_equal(c.files.n, 2);
	assert_int_equal(c.vars.n, 1);
	cli_free(&c);
	/* two -f options add up */
	assert_int_equal(parse(&c, &e, "-fa", "-fb", NULL), 0);
	assert_int_equal(c.files.n, 2);
	assert_string_equal(c.files.v[1], "b");
	cli_free(&c);
}

static void
test_vars_extras(void **state)
{
	struct errmsg e;
	struct cli c;

	(void)state;
	assert_int_equal(parse(&c, &e, "-fp", "lun=/dev/x", "n=", "+",
	    "elapsed=5", "interval=1", NULL), 0);
	assert_int_equal(c.vars.n, 2);
	assert_string_equal(c.vars.v[0].name, "lun");
	assert_string_equal(c.vars.v[0].value, "/dev/x");
	assert_string_equal(c.vars.v[1].name, "n");
	assert_string_equal(c.vars.v[1].value, "");
	assert_string_equal(c.extras, "elapsed=5,interval=1");
	assert_string_equal(scanned(&c), "-fp lun=/dev/x n=");
	cli_free(&c);
	/* '+' glued to its first extra; everything after it is extras */
	assert_int_equal(parse(&c, &e, "+forxfersize=(4k,8k)", "-s", NULL),
	    0);
	assert_string_equal(c.extras, "forxfersize=(4k,8k),-s");
	assert_int_equal(c.simulate, 0);
	cli_free(&c);
}

static void
test_quick_and_long(void **state)
{
	struct errmsg e;
	struct cli c;

	(void)state;
	assert_int_equal(parse(&c, &e, "-t", NULL), 0);
	assert_int_equal(c.quick, 't');
	assert_int_equal(c.files.n, 0);		/* no default parmfile */
	cli_free(&c);
	assert_int_equal(parse(&c, &e, "-t1", NULL), 0);
	assert_int_equal(c.quick, '1');
	cli_free(&c);
	assert_int_equal(parse(&c, &e, "-td", NULL), 0);
	assert_int_equal(c.quick, 't');
	assert_int_equal(c.quick_delete, 1);
	cli_free(&c);
	assert_int_equal(parse(&c, &e, "-tf", NULL), 0);
	assert_int_equal(c.quick, 'f');
	cli_free(&c);
	assert_int_equal(parse(&c, &e, "--seed=0x10", "--port", "5571",
	    "--token-file", "/t", "--master-addr=10.0.0.1",
	    "--on-slave-loss=continue", "--ssh", "ssh -F cfg", "--dump=yaml",
	    NULL), 0);
	assert_int_equal(c.seed, 16);
	assert_int_equal(c.seed_set, 1);
	assert_int_equal(c.port, 5571);
	assert_string_equal(c.token_file, "/t");
	assert_string_equal(c.master_addr, "10.0.0.1");
	assert_int_equal(c.loss_continue, 1);
	assert_string_equal(c.ssh, "ssh -F cfg");
	assert_int_equal(c.dump, CLI_DUMP_YAML);
	cli_free(&c);
	assert_int_equal(parse(&c, &e, "--on-slave-loss=stop", "--dump",
	    "json", NULL), 0);
	assert_int_equal(c.loss_continue, 0);
	assert_int_equal(c.dump, CLI_DUMP_JSON);
	cli_free(&c);
}

/* --debug=: the categories of common/log.h, checked at parse time. */
static void
test_debug(void **state)
{
	static const char *const badv[] = {
		"nett", "", "net,", ",net", "net,,plan", "NET", "net proto",
	};
	unsigned int mask;
	struct errmsg e;
	struct cli c;
	size_t i;

	(void)state;
	assert_int_equal(parse(&c, &e, "--debug=net,plan", NULL), 0);
	assert_string_equal(c.debug, "net,plan");
	assert_string_equal(scanned(&c), "--debug=net,plan");
	cli_free(&c);
	assert_int_equal(parse(&c, &e, "--debug", "all", "-s", NULL), 0);
	assert_string_equal(c.debug, "all");
	assert_int_equal(c.simulate, 1);
	/* a separate value is echoed with its option: the run can be
	 * repeated from the logfile's lines */
	assert_string_equal(scanned(&c), "--debug=all -s");
	cli_free(&c);
	assert_int_equal(log_debug_parse("net,plan", &mask), 0);
	assert_int_equal(mask, LOG_NET | LOG_PLAN);
	assert_int_equal(log_debug_parse("proto,aio", &mask), 0);
	assert_int_equal(mask, LOG_PROTO | LOG_AIO);
	assert_int_equal(log_debug_parse("all", &mask), 0);
	assert_true((mask & (LOG_NET | LOG_PROTO | LOG_PLAN | LOG_AIO)) ==
	    (LOG_NET | LOG_PROTO | LOG_PLAN | LOG_AIO));
	for (i = 0; i < sizeof(badv) / sizeof(badv[0]); i++) {
		char want[200];

		assert_int_equal(log_debug_parse(badv[i], &mask), -1);
		assert_int_equal(parse(&c, &e, "--debug", badv[i], NULL), -1);
		snprintf(want, sizeof(want), "Invalid value for '--debug': "
		    "'%s' (expected net,proto,plan,aio or all)", badv[i]);
		assert_string_equal(e.text, want);
		cli_free(&c);
	}
	/* parsing sets nothing; log_set_debug does */
	log_debug_mask = 0;
	assert_int_equal(log_set_debug("bogus"), -1);
	assert_int_equal(log_debug_mask, 0);
	assert_int_equal(log_set_debug("proto"), 0);
	assert_int_equal(log_debug_mask, LOG_PROTO);
}

static void
test_errors(void **state)
{
	static const struct {
		const char	*args[4];
		const char	*text;
	} bad[] = {
		{ { "-e", NULL }, "Option '-e' requires a value" },
		{ { "-e", "-s", NULL }, "Option '-e' requires a value" },
		{ { "-o", "x=1", NULL }, "Option '-o' requires a value" },
		{ { "-eabc", NULL }, "Invalid value for '-eabc': 'abc' "
		    "(expected a number from 0 to 100000000)" },
		{ { "-i", "5s", NULL }, "Invalid value for '-i': '5s' "
		    "(expected a number from 0 to 100000000)" },
		{ { "-m0", NULL }, "Invalid value for '-m': '0' (expected a "
		    "number from 1 to 256)" },
		{ { "-m257", NULL }, "Invalid value for '-m': '257'" },
		{ { "-p65536", NULL }, "Invalid value for '-p': '65536'" },
		{ { "--port=x", NULL }, "Invalid value for '--port': 'x'" },
		{ { "--seed", "", NULL }, "Invalid value for '--seed': ''" },
		{ { "--seed=12z", NULL }, "Invalid value for '--seed': '12z'" },
		{ { "--on-slave-loss=maybe", NULL }, "Invalid value for "
		    "'--on-slave-loss': 'maybe' (expected stop or continue)" },
		{ { "--dump=xml", NULL }, "Invalid value for '--dump': 'xml' "
		    "(expected json or yaml)" },
		{ { "--bogus", NULL }, "Invalid execution parameter: "
		    "'--bogus'" },
		{ { "--port", NULL }, "Invalid execution parameter: '--port'" },
		{ { "parm", NULL }, "Invalid execution parameter: 'parm' (not "
		    "a role either: the roles are slave, rsh, parseflat, "
		    "compare, index and help)" },
		{ { "-", NULL }, "Use of parameter file is now required." },
		{ { "-vx", NULL }, "Invalid execution parameter: '-vx' "
		    "(after -v: r, 2, w or t)" },
		{ { "-jri", NULL }, "'-jri': -ji (ignore pending writes" },
		{ { "-jx", NULL }, "Invalid execution parameter: '-jx' "
		    "(after -j: r, n, m, o, 2, t, i or s)" },
		{ { "-sx", NULL }, "Invalid execution parameter: '-sx'" },
		{ { "-t3", NULL }, "Invalid execution parameter: '-t3'" },
	};
	struct errmsg e;
	struct cli c;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(&c, &e, bad[i].args[0], bad[i].args[1],
		    bad[i].args[2], bad[i].args[3]), -1);
		if (strstr(e.text, bad[i].text) == NULL)
			fail_msg("case %zu: '%s', wanted '%s'", i, e.text,
			    bad[i].text);
		cli_free(&c);
	}
}

/* -c/-co/-cy/-cn and -l [n[s|m|h]] (PARMFILE.md 3.2). */
static void
test_control(void **state)
{
	struct errmsg e;
	struct cli c;

	(void)state;
	assert_int_equal(parse(&c, &e, "-c", "-f", "p", NULL), 0);
	assert_int_equal(c.force_format, 'c');
	assert_int_equal(c.loop, 0);
	cli_free(&c);
	assert_int_equal(parse(&c, &e, "-co", NULL), 0);
	assert_int_equal(c.force_format, 'o');
	cli_free(&c);
	assert_int_equal(parse(&c, &e, "-cy", NULL), 0);
	assert_int_equal(c.force_format, 'y');
	cli_free(&c);
	assert_int_equal(parse(&c, &e, "-cn", "-l", NULL), 0);
	assert_int_equal(c.force_format, 'n');
	assert_int_equal(c.loop, 1);
	assert_int_equal(c.loop_s, 0);
	assert_string_equal(scanned(&c), "-cn -l");
	cli_free(&c);
	assert_int_equal(parse(&c, &e, "-l", "90", "-f", "p", NULL), 0);
	assert_int_equal(c.loop, 1);
	assert_int_equal(c.loop_s, 90);
	assert_string_equal(scanned(&c), "-l90 -fp");
	cli_free(&c);
	assert_int_equal(parse(&c, &e, "-l2m", NULL), 0);
	assert_int_equal(c.loop_s, 120);
	cli_free(&c);
	assert_int_equal(parse(&c, &e, "-l1h", "lun=x", NULL), 0);
	assert_int_equal(c.loop_s, 3600);
	assert_int_equal(c.vars.n, 1);
	cli_free(&c);
	assert_int_equal(parse(&c, &e, "-l5x", NULL), -1);
	assert_non_null(strstr(e.text, "Invalid value for '-l': '5x'"));
	cli_free(&c);
	assert_int_equal(parse(&c, &e, "-mb", "-m", "2", NULL), 0);
	assert_int_equal(c.mb, 1);
	assert_int_equal(c.jvms, 2);
	assert_string_equal(scanned(&c), "-mb -m2");
	cli_free(&c);
	assert_int_equal(cli_duration("7s"), 7);
	assert_int_equal(cli_duration("0"), -1);
	assert_int_equal(cli_duration("m"), -1);
}

/* Known vdbench options and utilities vdbc does not build say so. */
static void
test_unbuilt(void **state)
{
	static const struct {
		const char *args[3];
		const char *text;
	} cases[] = {
		{ { "-k", NULL }, "'-k' is a known vdbench option (vdbench: "
		    "Solaris kstat" },
		{ { "-d1", NULL }, "'-d1' is a known vdbench option" },
		{ { "-d25", NULL }, "'-d25' is a known vdbench option" },
		{ { "print", "/dev/x", NULL }, "'print' is a known vdbench "
		    "utility" },
		{ { "sds", NULL }, "'sds' is a known vdbench utility" },
		{ { "csim", NULL }, "'csim' is a known vdbench utility" },
		{ { "dsim", NULL }, "'dsim' is a known vdbench utility" },
		{ { "showlba", NULL }, "'showlba' is a known vdbench utility" },
	};
	struct errmsg e;
	struct cli c;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(parse(&c, &e, cases[i].args[0],
		    cases[i].args[1], cases[i].args[2]), -1);
		if (strstr(e.text, cases[i].text) == NULL ||
		    strstr(e.text, "does not build") == NULL)
			fail_msg("case %zu: '%s', wanted '%s'", i, e.text,
			    cases[i].text);
		assert_int_equal(c.known, 1);
		cli_free(&c);
	}
	/* a utility's word is only one as the first argument; -d alone
	 * and -dx stay unknown */
	assert_int_equal(parse(&c, &e, "-s", "sds", NULL), -1);
	assert_non_null(strstr(e.text, "Invalid execution parameter"));
	assert_int_equal(c.known, 0);
	cli_free(&c);
	assert_int_equal(parse(&c, &e, "-dx", NULL), -1);
	assert_non_null(strstr(e.text, "Invalid execution parameter"));
	cli_free(&c);
}

/* -v and its letters (vdbench's Vdbmain.java). */
static void
test_validate(void **state)
{
	struct errmsg e;
	struct cli c;

	(void)state;
	assert_int_equal(parse(&c, &e, "-f", "p", NULL, NULL), 0);
	assert_int_equal(c.validate, 0);
	cli_free(&c);
	assert_int_equal(parse(&c, &e, "-v", NULL, NULL, NULL), 0);
	assert_int_equal(c.validate, VALIDATE_ON);
	cli_free(&c);
	assert_int_equal(parse(&c, &e, "-vr", NULL, NULL, NULL), 0);
	assert_int_equal(c.validate, VALIDATE_ON | VALIDATE_AFTER_WRITE);
	cli_free(&c);
	assert_int_equal(parse(&c, &e, "-v2", NULL, NULL, NULL), 0);
	assert_int_equal(c.validate, VALIDATE_ON | VALIDATE_AFTER_WRITE);
	cli_free(&c);
	assert_int_equal(parse(&c, &e, "-vw", NULL, NULL, NULL), 0);
	assert_int_equal(c.validate, VALIDATE_ON | VALIDATE_NO_PREREAD);
	cli_free(&c);
	assert_int_equal(parse(&c, &e, "-vt", NULL, NULL, NULL), 0);
	assert_int_equal(c.validate, VALIDATE_ON | VALIDATE_TIME);
	cli_free(&c);
	assert_int_equal(parse(&c, &e, "-vrt", NULL, NULL, NULL), 0);
	assert_int_equal(c.validate, VALIDATE_ON | VALIDATE_AFTER_WRITE |
	    VALIDATE_TIME);
	cli_free(&c);
	/* -j: journal and validate; its letters */
	assert_int_equal(parse(&c, &e, "-j", NULL, NULL, NULL), 0);
	assert_int_equal(c.validate, VALIDATE_ON);
	assert_int_equal(c.journal, JOURNAL_ON);
	cli_free(&c);
	assert_int_equal(parse(&c, &e, "-jrn2", NULL, NULL, NULL), 0);
	assert_int_equal(c.validate, VALIDATE_ON | VALIDATE_AFTER_WRITE);
	assert_int_equal(c.journal, JOURNAL_ON | JOURNAL_RECOVER |
	    JOURNAL_NOFLUSH);
	assert_int_equal(c.journal_only, 0);
	cli_free(&c);
	assert_int_equal(parse(&c, &e, "-jmo", NULL, NULL, NULL), 0);
	assert_int_equal(c.journal, JOURNAL_ON | JOURNAL_RECOVER |
	    JOURNAL_MAPONLY | JOURNAL_ONLY);
	assert_int_equal(c.journal_only, 1);
	cli_free(&c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_glued),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_vars_extras),
		cmocka_unit_test(test_quick_and_long),
		cmocka_unit_test(test_debug),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_control),
		cmocka_unit_test(test_unbuilt),
		cmocka_unit_test(test_validate),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
