/* The INTERVAL stats codec (common/interval_json.c): the golden message
 * is what the encoder writes for a known interval, it decodes back to
 * the same counters, the sender's deltas add up to its cumulative
 * counters, and malformed entries are refused naming the field.
 * VDBC_WRITE_GOLDEN=1 rewrites tests/data/proto/INTERVAL.json. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "interval_json.h"

#ifndef GOLDEN_DIR
#error GOLDEN_DIR must name tests/data/proto
#endif

/* The known interval: 700 reads and 300 writes of 4 KiB. */
static void
known(struct interval_wg *w)
{
	unsigned int i;

	memset(&w->io, 0, sizeof(w->io));
	memset(w->vdb, 0, sizeof(w->vdb));
	hist_reset(w->h[0]);
	hist_reset(w->h[1]);
	hist_reset(w->sched);
	w->io.side[0] = (struct iostats_side){ 700, 2867200, 70000000,
	    7100000, 900000, 0 };
	w->io.side[1] = (struct iostats_side){ 300, 1228800, 60000000,
	    12500000, 1200000, 1 };
	w->io.qdepth_ns = 130000000;
	for (i = 0; i < 700; i++)
		hist_add(w->h[0], i < 600 ? 95000 : 900000);
	for (i = 0; i < 300; i++)
		hist_add(w->h[1], 200000);
	hist_add(w->sched, 3000);
	w->vdb[0].count[5] = 600;
	w->vdb[0].count[9] = 100;
	w->vdb[1].count[6] = 300;
	w->nvdb = 27;
}

static json_t *
body(const struct interval_wg *w)
{
	return (json_pack("{s:i,s:i,s:I,s:b,s:{s:i,s:i,s:i,s:i,s:i,s:i,s:i},"
	    "s:[o]}", "run_id", 2, "interval", 1, "duration_ns",
	    (json_int_t)1000214000, "eof", 0, "cpu", "user", 100, "nice", 0,
	    "system", 50, "idle", 800, "iowait", 10, "irq", 0, "softirq", 5,
	    "stats", interval_wg_to_json(w)));
}

static void
wg_new(struct interval_wg *w)
{
	memset(w, 0, sizeof(*w));
	w->h[0] = hist_new();
	w->h[1] = hist_new();
	w->sched = hist_new();
}

static void
wg_free(struct interval_wg *w)
{
	hist_free(w->h[0]);
	hist_free(w->h[1]);
	hist_free(w->sched);
}

static void
test_golden(void **state)
{
	char path[1024];
	struct interval_wg w, back;
	struct errmsg e;
	json_error_t je;
	json_t *mine, *gold;
	int d;

	(void)state;
	wg_new(&w);
	wg_new(&back);
	known(&w);
	mine = body(&w);
	snprintf(path, sizeof(path), "%s/INTERVAL.json", GOLDEN_DIR);
	if (getenv("VDBC_WRITE_GOLDEN") != NULL)
		assert_int_equal(json_dump_file(mine, path, JSON_COMPACT |
		    JSON_SORT_KEYS), 0);
	gold = json_load_file(path, 0, &je);
	if (gold == NULL)
		fail_msg("%s: %s", path, je.text);
	if (!json_equal(mine, gold)) {
		char *a = json_dumps(mine, JSON_COMPACT | JSON_SORT_KEYS);

		fail_msg("the encoder writes %s, not the golden message", a);
	}
	/* and back */
	assert_int_equal(interval_wg_from_json(&back, json_array_get(
	    json_object_get(gold, "stats"), 0), &e), 0);
	assert_memory_equal(&back.io, &w.io, sizeof(w.io));
	assert_memory_equal(back.vdb, w.vdb, sizeof(w.vdb));
	assert_int_equal(back.nvdb, 10);	/* the highest bucket used */
	for (d = 0; d < 2; d++) {
		assert_int_equal(hist_count(back.h[d]), hist_count(w.h[d]));
		assert_int_equal(hist_percentile_ns(back.h[d], 50),
		    hist_percentile_ns(w.h[d], 50));
		assert_int_equal(hist_percentile_ns(back.h[d], 99.9),
		    hist_percentile_ns(w.h[d], 99.9));
	}
	assert_int_equal(hist_count(back.sched), 1);
	json_decref(mine);
	json_decref(gold);
	wg_free(&w);
	wg_free(&back);
}

/* The sender's deltas: each interval carries only its own I/O, and they
 * sum to the cumulative counters (what the master re-accumulates). */
static void
test_deltas(void **state)
{
	struct interval_base b;
	struct interval_wg back;
	struct iostats now, sum;
	struct interval_scratch sc;
	struct hist *h[2] = { hist_new(), hist_new() };
	struct vdbhist v[2];
	struct errmsg e;
	int k;

	(void)state;
	interval_base_init(&b);
	/* one scratch for every interval, as a slave keeps it for a run */
	interval_scratch_init(&sc);
	wg_new(&back);
	memset(&now, 0, sizeof(now));
	memset(&sum, 0, sizeof(sum));
	memset(v, 0, sizeof(v));
	for (k = 1; k <= 3; k++) {
		json_t *j;
		int i;

		for (i = 0; i < 10 * k; i++) {
			iostats_add(&now, IOSTATS_READ, 4096, 1000u * (unsigned)k);
			hist_add(h[0], 1000u * (unsigned)k);
			v[0].count[k]++;
		}
		now.side[0].resp_max_ns = 1000u * (unsigned)k;
		j = interval_encode(&b, &sc.out, &now, h, NULL, v, 27);
		assert_int_equal(interval_wg_from_json(&back, j, &e), 0);
		json_decref(j);
		assert_int_equal(back.io.side[0].ios, 10 * k);
		assert_int_equal(back.io.side[0].bytes, 40960 * k);
		assert_int_equal(back.io.side[0].resp_max_ns, 1000 * k);
		assert_int_equal(hist_count(back.h[0]), 10 * k);
		assert_int_equal(hist_count(back.h[1]), 0);
		assert_int_equal(back.vdb[0].count[k], 10 * k);
		assert_int_equal(back.vdb[0].count[k == 1 ? 2 : 1], 0);
		iostats_merge(&sum, &back.io);
	}
	assert_int_equal(sum.side[0].ios, now.side[0].ios);
	assert_int_equal(sum.side[0].bytes, now.side[0].bytes);
	assert_int_equal(sum.side[0].resp_sum_ns, now.side[0].resp_sum_ns);
	/* an idle interval is an empty object */
	now.side[0].resp_max_ns = 0;	/* the slave takes maxima per interval */
	{
		json_t *j = interval_encode(&b, &sc.out, &now, h, NULL, v, 27);

		assert_int_equal(json_object_size(j), 0);
		json_decref(j);
	}
	interval_base_free(&b);
	interval_scratch_free(&sc);
	hist_free(h[0]);
	hist_free(h[1]);
	wg_free(&back);
}

static void
test_refused(void **state)
{
	static const struct {
		const char	*json, *want;
	} bad[] = {
		{ "[]", "not an object" },
		{ "{\"io\":{\"read\":{}}}", "io is not a list of 14" },
		{ "{\"io\":[1,2,3]}", "io is not a list of 14" },
		{ "{\"io\":[-1,0,0,0,0,0,0,0,0,0,0,0,0,0]}",
		    "read ios is not a count" },
		{ "{\"io\":[0,0,0,0,0,0,0,0,0,0,\"x\",0,0,0]}",
		    "write resp_max_ns is not a count" },
		{ "{\"hr\":[1]}", "read histogram is not a list" },
		{ "{\"hr\":[5,1,4,1]}", "read histogram bucket at entry 1" },
		{ "{\"hr\":[5,1,5,1]}", "read histogram bucket at entry 1" },
		{ "{\"hw\":[99999,1]}", "write histogram bucket at entry 0" },
		{ "{\"hs\":[1,0]}", "sched histogram bucket 1: the count" },
		{ "{\"hr\":[1,9223372036854775807,2,9223372036854775807,"
		    "3,9223372036854775807]}", "overflow 64 bits" },
		{ "{\"vr\":[64,1]}", "read vdbench bucket at entry 0" },
		{ "{\"vw\":[0,-1]}", "write vdbench bucket 0: the count" },
		{ "{\"fs\":[]}", "fs is not an object" },
		{ "{\"fs\":{\"ops\":{\"fly\":[1,1,1]}}}",
		    "bad operation 'fly'" },
		{ "{\"fs\":{\"misc\":{\"x\":1}}}", "bad counter 'x'" },
		{ "{\"fs\":{\"req\":[1]}}", "bad req" },
	};
	struct interval_wg w;
	struct errmsg e;
	size_t i;

	(void)state;
	wg_new(&w);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *j = json_loads(bad[i].json, JSON_DECODE_ANY, NULL);

		assert_non_null(j);
		if (interval_wg_from_json(&w, j, &e) == 0)
			fail_msg("%s was accepted", bad[i].json);
		if (strstr(e.text, bad[i].want) == NULL)
			fail_msg("%s: '%s' does not say '%s'", bad[i].json,
			    e.text, bad[i].want);
		json_decref(j);
	}
	wg_free(&w);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_deltas),
		cmocka_unit_test(test_refused),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
