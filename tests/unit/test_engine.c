/* The engine table and the engines behind it: every name the parser
 * accepts has ops on the slave; each engine writes and reads back whole
 * blocks through init, queue, commit, getevents and event (a synchronous
 * one completing in queue), and a read past the end of a file comes
 * back short, so the worker loop can count it as an error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine.h"
#include "engines.h"

#define QD	4
#define BS	4096

static char dir[] = "/tmp/vdbc-test-engine.XXXXXX";

/* Every name of the table, split out of engines_list. */
static int
names(char out[][32], int max)
{
	char buf[128], *p, *tok;
	int n = 0;

	engines_list(buf, sizeof(buf));
	for (p = buf; (tok = strtok(p, ", ")) != NULL && n < max; p = NULL) {
		if (strcmp(tok, "or") == 0)
			continue;
		snprintf(out[n++], 32, "%s", tok);
	}
	return (n);
}

static void
test_table(void **state)
{
	char nm[16][32];
	int i, n = names(nm, 16);

	(void)state;
	assert_true(n >= 3);
	for (i = 0; i < n; i++) {
		assert_non_null(engines_find(nm[i]));
		assert_non_null(engine_find(nm[i]));	/* a row has ops */
	}
	assert_null(engines_find("posixaio"));
	assert_null(engine_find("posixaio"));
	assert_string_equal(engines_default(1), "aio");
	assert_string_equal(engines_default(0), "sync");
	assert_true(engines_flags("null") & ENGINE_NOIO);
	assert_true(engines_flags("sync") & ENGINE_SYNC);
	assert_true(engine_threads(engine_find("sync")));
	assert_true(engine_threads(engine_find("null")));
	assert_false(engine_threads(engine_find("aio")));
}

/* Run qd I/Os through ops, all queued before any is reaped; each
 * completed one is checked off in seen. Returns how many completed. */
static int
run_ios(const struct engine_ops *ops, void *ed, struct io_u *u, int n)
{
	int i, r, done = 0, inflight = 0;

	for (i = 0; i < n; i++) {
		if (ops->prep != NULL)
			ops->prep(ed, &u[i]);
		if (ops->queue(ed, &u[i]) == ENGINE_Q_COMPLETED)
			done++;
		else
			inflight++;
	}
	if (inflight > 0 && ops->commit != NULL)
		assert_int_equal(ops->commit(ed), 0);
	while (inflight > 0) {
		r = ops->getevents(ed, 1, inflight, 5000000000u);
		assert_true(r > 0);
		for (i = 0; i < r; i++) {
			struct io_u *x = ops->event(ed, i);

			assert_true(x >= u && x < u + n);
			inflight--;
			done++;
		}
	}
	return (done);
}

/* Write QD blocks of distinct bytes, read them back, then read past
 * the end of the file. */
static void
check_engine(const char *name)
{
	const struct engine_ops *ops = engine_find(name);
	struct io_u u[QD];
	char path[200];
	static char wb[QD][BS], rb[QD][BS];
	void *ed = NULL;
	int fd, i, noio = (engines_flags(name) & ENGINE_NOIO) != 0;

	assert_non_null(ops);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ops->init(&ed, fd, QD), 0);
	memset(u, 0, sizeof(u));
	for (i = 0; i < QD; i++) {
		memset(wb[i], 'a' + i, BS);
		memset(rb[i], 0, BS);
		u[i].index = i;
		u[i].dir = 1;
		u[i].wbuf = wb[i];
		u[i].buf = rb[i];
		u[i].len = BS;
		u[i].off = (uint64_t)(QD - 1 - i) * BS;
		u[i].res = -1;
	}
	assert_int_equal(run_ios(ops, ed, u, QD), QD);
	for (i = 0; i < QD; i++) {
		assert_int_equal(u[i].res, BS);
		u[i].dir = 0;
		u[i].res = -1;
	}
	assert_int_equal(run_ios(ops, ed, u, QD), QD);
	for (i = 0; i < QD; i++) {
		assert_int_equal(u[i].res, BS);
		if (!noio)
			assert_memory_equal(rb[i], wb[i], BS);
	}
	if (!noio) {
		/* past the end: short (0 bytes), never a whole block */
		assert_int_equal(lseek(fd, 0, SEEK_END), QD * BS);
		u[0].off = QD * BS;
		u[0].res = -1;
		assert_int_equal(run_ios(ops, ed, u, 1), 1);
		assert_int_equal(u[0].res, 0);
	} else {
		assert_int_equal(lseek(fd, 0, SEEK_END), 0);	/* no I/O */
	}
	ops->cleanup(ed);
	close(fd);
}

static void
test_sync(void **state)
{
	(void)state;
	check_engine("sync");
}

static void
test_null(void **state)
{
	(void)state;
	/* asynchronous: nothing completes in queue */
	assert_null(engine_find("null")->commit);
	assert_non_null(engine_find("null")->getevents);
	check_engine("null");
}

static void
test_aio(void **state)
{
	(void)state;
	check_engine("aio");
}

/* io_uring: skipped where the kernel refuses a ring (sysctl
 * kernel.io_uring_disabled, seccomp); e2e 23 says so too. */
static void
test_io_uring(void **state)
{
	const struct engine_ops *ops = engine_find("io_uring");
	void *ed = NULL;
	int r;

	(void)state;
	assert_non_null(ops);
	if ((r = ops->init(&ed, 0, 1)) < 0) {
		skip();
		return;
	}
	ops->cleanup(ed);
	check_engine("io_uring");
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
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_sync),
		cmocka_unit_test(test_null),
		cmocka_unit_test(test_aio),
		cmocka_unit_test(test_io_uring),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
