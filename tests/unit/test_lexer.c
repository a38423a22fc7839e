/* The lexical layer: PARMFILE.md sections 2.1-2.5, 2.8 and 14. */
#include <sys/stat.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "lexer.h"

/* Read and tokenize text; 0 or -1. */
static int
lex(const char *text, struct plines *pl, struct pitems *pi, struct errmsg *e,
    struct subvars *sv)
{
	memset(pl, 0, sizeof(*pl));
	memset(pi, 0, sizeof(*pi));
	if (lexer_read_buffer(pl, "t.parm", text, sv, e) != 0)
		return (-1);
	return (lexer_tokenize(pi, pl, e));
}

/* Free both. */
static void
done(struct plines *pl, struct pitems *pi)
{
	plines_free(pl);
	pitems_free(pi);
}

/*
 * A scratch directory for the file tests, removed by rm_scratch(); paths
 * in it are in one static buffer (copy what must stay).
 */
static char scratch[64];

static const char *
in_scratch(const char *name)
{
	static char path[128];

	if (scratch[0] == '\0') {
		snprintf(scratch, sizeof(scratch), "/tmp/vdbc-lexer.XXXXXX");
		assert_non_null(mkdtemp(scratch));
	}
	snprintf(path, sizeof(path), "%s/%s", scratch, name);
	return (path);
}

/* Write len bytes of text into scratch file name; its path. */
static const char *
put_file(const char *name, const char *text, size_t len)
{
	const char *path = in_scratch(name);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	return (path);
}

static void
rm_scratch(void)
{
	char cmd[128];

	if (scratch[0] != '\0') {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", scratch);
		assert_int_equal(system(cmd), 0);
		scratch[0] = '\0';	/* the next test makes a new one */
	}
}

/* Read one file; 0 or -1 with e filled. */
static int
read_file(const char *path, struct errmsg *e)
{
	struct plines pl;
	char *files[1];
	int rc;

	memset(&pl, 0, sizeof(pl));
	files[0] = (char *)path;
	errmsg_clear(e);
	rc = lexer_read_files(&pl, 1, files, NULL, e);
	plines_free(&pl);
	return (rc);
}

/*
 * Bounded input (issue 13, 7): only regular files of at most 16 MiB are
 * read (and pipes as -f); /dev/zero and an include= of a FIFO are refused
 * at once (they grew to 23 GB or hung), and a NUL byte is a located
 * error.
 */
static void
test_bounded_files(void **state)
{
	struct errmsg e;
	char text[256], fifo[128];
	const char *p;
	FILE *f;

	(void)state;
	assert_int_equal(read_file("/dev/zero", &e), -1);
	assert_non_null(strstr(e.text, "/dev/zero is a character device"));
	snprintf(fifo, sizeof(fifo), "%s", in_scratch("fifo"));
	assert_int_equal(mkfifo(fifo, 0600), 0);
	/* -f may be a pipe (/dev/stdin); one without a writer is empty at
	 * once (the open waited for a writer for ever) */
	assert_int_equal(read_file(fifo, &e), 0);
	assert_int_equal(read_file(scratch, &e), -1);
	assert_non_null(strstr(e.text, "is a directory"));

	/* include= of each: located at the include line */
	p = put_file("inc_zero.parm", "* first\ninclude=/dev/zero\n", 27);
	assert_int_equal(read_file(p, &e), -1);
	assert_int_equal(e.line, 2);
	assert_string_equal(e.file, p);
	assert_non_null(strstr(e.text, "/dev/zero is a character device"));
	snprintf(text, sizeof(text), "include=%s\n", fifo);
	p = put_file("inc_fifo.parm", text, strlen(text));
	assert_int_equal(read_file(p, &e), -1);
	assert_int_equal(e.line, 1);
	assert_non_null(strstr(e.text, "is a FIFO"));

	/* a NUL byte ends no line silently: lun=/x\0,size=1m */
	p = put_file("nul.parm", "sd=sd1,\nlun=/x\0,size=1m\n", 24);
	assert_int_equal(read_file(p, &e), -1);
	assert_int_equal(e.line, 2);
	assert_int_equal(e.col, 7);
	assert_non_null(strstr(e.text, "NUL byte"));

	/* 16 MiB is read; one byte more is refused (sparse files) */
	p = in_scratch("big.parm");
	f = fopen(p, "w");
	assert_non_null(f);
	assert_int_equal(ftruncate(fileno(f), LEXER_MAX_FILE + 1), 0);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(read_file(p, &e), -1);
	assert_non_null(strstr(e.text, "16777217 bytes; at most 16 MiB"));
	snprintf(text, sizeof(text), "include=%s\n", p);
	p = put_file("inc_big.parm", text, strlen(text));
	assert_int_equal(read_file(p, &e), -1);
	assert_int_equal(e.line, 1);
	assert_non_null(strstr(e.text, "at most 16 MiB"));
	p = in_scratch("fits.parm");
	f = fopen(p, "w");
	assert_non_null(f);
	assert_int_equal(ftruncate(fileno(f), LEXER_MAX_FILE), 0);
	assert_int_equal(fclose(f), 0);
	/* 16 MiB of NUL bytes: read, then refused for the NUL, not size */
	assert_int_equal(read_file(p, &e), -1);
	assert_non_null(strstr(e.text, "NUL byte"));

	p = put_file("ok.parm", "sd=sd1,lun=/x,size=1m\n", 22);
	assert_int_equal(read_file(p, &e), 0);
	assert_int_equal(read_file(in_scratch("missing.parm"), &e), -1);
	assert_non_null(strstr(e.text, "does not exist"));
	rm_scratch();
}

/* 16 MiB of tiny items would take a gigabyte: at most 1,000,000. */
static void
test_item_bound(void **state)
{
	size_t n = LEXER_MAX_ITEMS, len = 6 + 5 * n + 2, i;
	char *text = malloc(len);
	struct plines pl;
	struct pitems pi;
	struct errmsg e;

	(void)state;
	assert_non_null(text);
	memcpy(text, "sd=sd1", 6);
	for (i = 0; i < n; i++)
		memcpy(text + 6 + 5 * i, ",th=1", 5);
	memcpy(text + 6 + 5 * n, "\n", 2);	/* 1,000,001 items */
	assert_int_equal(lex(text, &pl, &pi, &e, NULL), -1);
	assert_string_equal(e.text, "More than 1000000 keyword=value items "
	    "in the parameter files");
	assert_int_equal(e.line, 1);
	assert_int_equal(e.col, (int)(6 + 5 * (n - 1) + 2));
	done(&pl, &pi);
	text[6 + 5 * (n - 1)] = '\n';		/* 1,000,000 items */
	text[6 + 5 * (n - 1) + 1] = '\0';
	assert_int_equal(lex(text, &pl, &pi, &e, NULL), 0);
	assert_int_equal(pi.n, 1000000);
	done(&pl, &pi);
	free(text);
}

static void
test_comments_and_trailing_text(void **state)
{
	struct plines pl;
	struct pitems pi;
	struct errmsg e;

	(void)state;
	assert_int_equal(lex("* star\n# hash\n/* slash */\n/dev/sdb\n\n"
	    "sd=sd1,lun=/data/f1,size=100m    everything after the blank\n"
	    "  wd=wd1,\n\t sd=sd1,\n   xf=8k,rdpct=70\neof\nrd=ignored\n",
	    &pl, &pi, &e, NULL), 0);
	assert_int_equal(pl.n, 4);
	assert_int_equal(pi.n, 7);
	assert_string_equal(pi.v[0].kw, "sd");
	assert_string_equal(pi.v[2].kw, "size");
	assert_true(pi.v[2].vals.v[0].num == 104857600);
	assert_string_equal(pi.v[5].kw, "xf");
	assert_true(pi.v[5].vals.v[0].num == 8192);
	/* Locations: line 6, column 1; and line 9 column 4 (after trim). */
	assert_int_equal(pi.v[0].lineno, 6);
	assert_int_equal(pi.v[0].col, 1);
	assert_int_equal(pi.v[1].col, 8);
	assert_int_equal(pi.v[5].lineno, 9);
	assert_int_equal(pi.v[5].col, 4);
	done(&pl, &pi);
}

static void
test_lists_and_ranges(void **state)
{
	struct plines pl;
	struct pitems pi;
	struct errmsg e;
	const struct pvals *v;

	(void)state;
	assert_int_equal(lex("rd=r,forxfersize=(4k-32k,d),forrdpct=(0-100,50),"
	    "forthreads=(1,2,4-16,4,32),fo=(64k-8k,d),sd=(sd1-sd3),"
	    "wd=(d01-d03),lun=(\"/dev/mapper/vg-a\")\n", &pl, &pi, &e, NULL),
	    0);
	v = &pi.v[1].vals;
	assert_int_equal(v->n, 4);
	assert_true(v->v[0].num == 4096 && v->v[3].num == 32768);
	v = &pi.v[2].vals;
	assert_int_equal(v->n, 3);
	assert_true(v->v[1].num == 50);
	v = &pi.v[3].vals;
	assert_int_equal(v->n, 7);
	assert_true(v->v[2].num == 4 && v->v[5].num == 16 && v->v[6].num == 32);
	v = &pi.v[4].vals;
	assert_int_equal(v->n, 4);
	assert_true(v->v[0].num == 65536 && v->v[3].num == 8192);
	v = &pi.v[5].vals;
	assert_int_equal(v->n, 3);
	assert_string_equal(v->v[2].str, "sd3");
	v = &pi.v[6].vals;
	assert_string_equal(v->v[0].str, "d01");
	assert_string_equal(v->v[1].str, "d2");
	v = &pi.v[7].vals;
	assert_int_equal(v->n, 1);
	assert_string_equal(v->v[0].str, "/dev/mapper/vg-a");
	done(&pl, &pi);
}

static void
test_values_and_quotes(void **state)
{
	struct plines pl;
	struct pitems pi;
	struct errmsg e;

	(void)state;
	assert_int_equal(lex("startcmd=\"echo hello, world\"\n"
	    "sd=sd1,lun=\"/data/my file.dat\",size=1g\n"
	    "rd=r,iorate=(100,max),io=max,el=2h,in=1m,size=(10g,4),"
	    "misc=(fifo=100),iorate=50%\n", &pl, &pi, &e, NULL), 0);
	assert_string_equal(pi.v[0].vals.v[0].str, "echo hello, world");
	assert_string_equal(pi.v[2].vals.v[0].str, "/data/my file.dat");
	assert_true(pi.v[3].vals.v[0].num == 1073741824.0);
	assert_true(pi.v[5].vals.v[1].is_num);		/* iorate=max */
	assert_false(pi.v[6].vals.v[0].is_num);	/* io=max stays alpha */
	assert_true(pi.v[7].vals.v[0].num == 7200);
	assert_true(pi.v[8].vals.v[0].num == 60);	/* minutes */
	assert_int_equal(pi.v[9].vals.n, 2);
	assert_string_equal(pi.v[10].vals.v[0].str, "fifo=100");
	assert_true(pi.v[11].vals.v[0].num == -50);
	done(&pl, &pi);
	/* Unquoted, the blank ends the line: size= is a comment. */
	assert_int_equal(lex("sd=sd1,lun=/data/my file.dat,size=1g\n", &pl,
	    &pi, &e, NULL), 0);
	assert_int_equal(pi.n, 2);
	assert_string_equal(pi.v[1].vals.v[0].str, "/data/my");
	done(&pl, &pi);
}

static void
test_errors(void **state)
{
	struct plines pl;
	struct pitems pi;
	struct errmsg e;

	(void)state;
	assert_int_equal(lex("x=1\n", &pl, &pi, &e, NULL), -1);
	assert_string_equal(e.text,
	    "Keyword must contain a minimum of 2 characters: x=1");
	done(&pl, &pi);
	assert_int_equal(lex("sd=sd1,rate\n", &pl, &pi, &e, NULL), -1);
	assert_string_equal(e.text, "Expecting 'keyword=' in parameter: rate");
	assert_int_equal(e.line, 1);
	assert_int_equal(e.col, 8);
	done(&pl, &pi);
	assert_int_equal(lex("sd=sd1)\n", &pl, &pi, &e, NULL), -1);
	assert_string_equal(e.text, "Unmatched Parenthesis ");
	done(&pl, &pi);
	assert_int_equal(lex("rd=r,forthreads=(1-4)\n", &pl, &pi, &e, NULL),
	    -1);
	assert_non_null(strstr(e.text, "requires an increment"));
	done(&pl, &pi);
	assert_int_equal(lex("rd=r,forxfersize=(4k,abc)\n", &pl, &pi, &e,
	    NULL), -1);
	assert_string_equal(e.text,
	    "Mix of alpha and numeric values not allowed: (forxfersize) abc");
	done(&pl, &pi);
	assert_int_equal(lex("wd=w,sd=(sd3-sd1)\n", &pl, &pi, &e, NULL), -1);
	assert_string_equal(e.text, "Numeric portions of alphanumeric re "
	    "values must be incremental: sd3/sd1");
	done(&pl, &pi);
	assert_int_equal(lex("wd=w,sd=(sda-sd1)\n", &pl, &pi, &e, NULL), -1);
	assert_non_null(strstr(e.text, "must be alphanumeric"));
	done(&pl, &pi);
}

static void
test_substitution(void **state)
{
	char n1[] = "lun", v1[] = "/dev/sdb", n2[] = "lun2", v2[] = "/dev/sdc";
	struct subvar v[2] = { { n1, v1, 0 }, { n2, v2, 0 } };
	struct subvars sv = { 2, v };
	struct plines pl;
	struct pitems pi;
	struct errmsg e;
	int i;

	(void)state;
	assert_int_equal(lex("sd=sd1,lun=$lun\nsd=sd2,lun=!lun2\n", &pl, &pi,
	    &e, &sv), 0);
	for (i = 0; i < 2; i++)
		assert_true(sv.v[i].used);
	for (i = 0; i < pi.n; i++) {
		if (strcmp(pi.v[i].kw, "lun") == 0)
			assert_int_equal(strncmp(pi.v[i].vals.v[0].str,
			    "/dev/sd", 7), 0);
	}
	assert_string_equal(pi.v[3].vals.v[0].str, "/dev/sdc");
	done(&pl, &pi);
	assert_int_equal(lex("sd=sd1,lun=$nope,size=1g\n", &pl, &pi, &e, &sv),
	    -1);
	assert_string_equal(e.text, "Unknown variable substitution request in "
	    "parameter file: sd=sd1,lun=$nope,size=1g");
	done(&pl, &pi);
	/* Even in a comment line, as the real vdbench does. */
	assert_int_equal(lex("* size=$x\n", &pl, &pi, &e, &sv), -1);
	done(&pl, &pi);
}

static void
test_extras(void **state)
{
	struct plines pl;
	struct pitems pi;
	struct errmsg e;
	int n;

	(void)state;
	memset(&pl, 0, sizeof(pl));
	assert_int_equal(lexer_read_buffer(&pl, "t", "rd=a,wd=w note\n"
	    "rd=b,\nwd=w\n", NULL, &e), 0);
	assert_int_equal(lexer_add_extras(&pl, "iorate=max,el=20", &n, &e), 0);
	assert_int_equal(n, 1);
	assert_string_equal(pl.v[0].text, "rd=a,wd=w,iorate=max,el=20");
	assert_string_equal(pl.v[1].text, "rd=b,");
	assert_int_equal(lexer_add_extras(&pl, "a b", &n, &e), -1);
	memset(&pi, 0, sizeof(pi));
	done(&pl, &pi);
}

/*
 * All parmfiles and includes together are read up to 16 MiB too: each
 * include of a 16 MiB file was bounded alone, so a hundred include= lines
 * kept 1.6 GB of lines.
 */
static void
test_bounded_total(void **state)
{
	char text[320], half[128], *big;
	size_t len = 9 << 20, i;
	struct errmsg e;
	const char *p;

	(void)state;
	big = malloc(len);
	assert_non_null(big);
	for (i = 0; i < len; i++)
		big[i] = i % 1024 == 1023 ? '\n' : i % 1024 == 0 ? '*' : 'x';
	snprintf(half, sizeof(half), "%s", put_file("half.parm", big, len));
	free(big);
	snprintf(text, sizeof(text), "include=%s\n", half);
	p = put_file("once.parm", text, strlen(text));
	assert_int_equal(read_file(p, &e), 0);
	snprintf(text, sizeof(text), "* two\ninclude=%s\ninclude=%s\n", half,
	    half);
	p = put_file("twice.parm", text, strlen(text));
	assert_int_equal(read_file(p, &e), -1);
	assert_string_equal(e.text, "Parameter files and includes go on past "
	    "16 MiB in all here; at most that is read");
	assert_string_equal(e.file, half);
	/* 16 MiB less the 9 MiB before and the include lines */
	assert_int_equal(e.line, (7 << 20) / 1024);
	rm_scratch();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_comments_and_trailing_text),
		cmocka_unit_test(test_lists_and_ranges),
		cmocka_unit_test(test_values_and_quotes),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_substitution),
		cmocka_unit_test(test_extras),
		cmocka_unit_test(test_bounded_files),
		cmocka_unit_test(test_bounded_total),
		cmocka_unit_test(test_item_bound),
	};
	return (cmocka_run_group_tests_name("lexer", tests, NULL, NULL));
}
