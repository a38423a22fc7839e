/*
 * The WORK body codec: tests/data/proto/WORK.json's "work" is what
 * work_to_json makes of the slave_work below (VDBC_WRITE_GOLDEN=1
 * rewrites the file from the encoder), it decodes back to the same
 * work, and the decoder names the field it refuses.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "work_json.h"
#include "xmalloc.h"

#ifndef GOLDEN_DIR
#error GOLDEN_DIR must name tests/data/proto
#endif

/* Two sds, two wgs: one with every optional field, one with none. */
static void
known_work(struct slave_work *w)
{
	struct work_sd *s;
	struct work_wg *g;

	memset(w, 0, sizeof(*w));
	vdbhist_edges_default(&w->edges);
	w->slave_index = 1;
	w->max_errors = 50;
	w->remove_device = 1;
	w->compratio = 2;
	w->distribution = 0;
	w->validate = 3;
	w->has_dedup = 1;
	w->dedup.ratio = 2;
	w->dedup.unit_bytes = 131072;
	w->dedup.sets = -5;
	w->dedup.not_across = 1;
	w->has_compseed = 1;
	w->compseed = 12345;
	w->pattern_file = xstrdup("/tmp/pattern.bin");
	w->sds = xcalloc(2, sizeof(*w->sds));
	w->wgs = xcalloc(2, sizeof(*w->wgs));
	s = &w->sds[w->nsds++];
	s->sd = xstrdup("sd1");
	s->lun = xstrdup("/tmp/f1");
	s->threads = 8;
	s->rate_per_s = 500;
	strlist_add(&s->openflags, "o_direct");
	s->engine = xstrdup("aio");
	s->has_dedup = 1;
	s->dedup_ratio = 4;
	s->dedup_sets = 10;
	s->dedup_not_across = 1;
	s->dv_kb_bytes = 4096;
	s = &w->sds[w->nsds++];
	s->sd = xstrdup("sd2");
	s->lun = xstrdup("/tmp/f2");
	s->threads = 2;
	s->create = 1;
	s->overwrite = 1;
	s->mounted_ok = 1;
	s->engine = xstrdup("sync");
	g = &w->wgs[w->nwgs++];
	g->wd = xstrdup("wd1");
	g->sd = xstrdup("sd1");
	g->skew_pct = 50;
	g->readpct = 70;
	g->seekpct = 100;
	g->rhpct = 10;
	xfer_set_single(&g->xfer, 4096);
	g->low_bytes = 1048576;
	g->high_bytes = 67108864;
	g->hit_low_bytes = 0;
	g->hit_high_bytes = 1048576;
	g->hot = 1;
	g->wrap_end_bytes = 67108864;
	g->wrap_to_bytes = 0;
	g->has_stride = 1;
	g->stride_min_bytes = 4096;
	g->stride_max_bytes = 65536;
	g->priority = 1;
	g->poisson_mid = 5;
	g->streams = 4;
	g = &w->wgs[w->nwgs++];
	g->wd = xstrdup("wd2");
	g->sd = xstrdup("sd2");
	g->skew_pct = 50;
	g->seek_eof = 1;
	xfer_set_single(&g->xfer, 131072);
	g->high_bytes = 10485760;
}

static json_t *
golden(void)
{
	char path[1024];
	json_error_t je;
	json_t *j;

	snprintf(path, sizeof(path), "%s/WORK.json", GOLDEN_DIR);
	if (getenv("VDBC_WRITE_GOLDEN") != NULL) {
		struct slave_work w;
		FILE *f = fopen(path, "w");

		assert_non_null(f);
		known_work(&w);
		j = json_pack("{s:I,s:s,s:I,s:I,s:I,s:b,s:o}", "run_id",
		    (json_int_t)2, "run", "rd1", "interval_ns",
		    (json_int_t)1000000000, "seed", (json_int_t)1, "elapsed_s",
		    (json_int_t)10, "format", 0, "work",
		    work_to_json(&w));
		assert_int_equal(json_dumpf(j, f, JSON_INDENT(1) |
		    JSON_SORT_KEYS), 0);
		fputc('\n', f);
		fclose(f);
		json_decref(j);
		slave_work_clear(&w);
	}
	j = json_load_file(path, 0, &je);
	if (j == NULL)
		fail_msg("%s: %s", path, je.text);
	return (j);
}

static void
test_encoder_makes_golden(void **state)
{
	struct slave_work w;
	json_t *g = golden(), *mine;

	(void)state;
	known_work(&w);
	mine = work_to_json(&w);
	assert_true(json_equal(mine, json_object_get(g, "work")));
	json_decref(mine);
	json_decref(g);
	slave_work_clear(&w);
}

static void
test_golden_decodes_back(void **state)
{
	struct slave_work w, k;
	struct errmsg e;
	json_t *g = golden(), *again, *want;

	(void)state;
	errmsg_clear(&e);
	if (work_from_json(&w, json_object_get(g, "work"), &e) != 0)
		fail_msg("%s", e.text);
	assert_int_equal(w.nsds, 2);
	assert_int_equal(w.nwgs, 2);
	assert_string_equal(w.sds[0].engine, "aio");
	assert_int_equal(w.sds[0].threads, 8);
	assert_int_equal(w.wgs[0].wrap_end_bytes, 67108864);
	assert_int_equal(w.wgs[0].stride_max_bytes, 65536);
	assert_int_equal(w.wgs[1].has_stride, 0);
	assert_int_equal(w.edges.n, 26);
	known_work(&k);
	again = work_to_json(&w);
	want = work_to_json(&k);
	assert_true(json_equal(again, want));
	json_decref(again);
	json_decref(want);
	slave_work_clear(&w);
	slave_work_clear(&k);
	json_decref(g);
}

/* Decode the golden work with one field changed; the error text. */
static const char *
mutated(const char *path1, const char *key, json_t *value, char *buf,
    size_t len)
{
	struct slave_work w;
	struct errmsg e;
	json_t *g = golden(), *wk = json_object_get(g, "work"), *o = wk;

	if (path1 != NULL)
		o = json_array_get(json_object_get(wk, path1), 0);
	if (value == NULL)
		json_object_del(o, key);
	else
		json_object_set_new(o, key, value);
	errmsg_clear(&e);
	if (work_from_json(&w, wk, &e) == 0) {
		slave_work_clear(&w);
		snprintf(buf, len, "(decoded)");
	} else
		snprintf(buf, len, "%s", e.text);
	json_decref(g);
	return (buf);
}

static void
test_decoder_names_the_field(void **state)
{
	char b[1024];

	(void)state;
	assert_string_equal(mutated("sds", "threads", json_integer(0), b,
	    sizeof(b)), "WORK: sds[0].threads: 0 out of [1, 2147483647]");
	assert_string_equal(mutated("sds", "lun", NULL, b, sizeof(b)),
	    "WORK: sds[0].lun: missing");
	assert_string_equal(mutated("sds", "openflags", json_string("x"), b,
	    sizeof(b)), "WORK: sds[0].openflags: expected an array of "
	    "strings");
	assert_string_equal(mutated("sds", "rate_per_s", json_real(-1), b,
	    sizeof(b)), "WORK: sds[0].rate_per_s: -1 out of [0, inf]");
	assert_string_equal(mutated("wgs", "high_bytes", json_integer(4096),
	    b, sizeof(b)), "WORK: wgs[0].high_bytes: not above low_bytes");
	assert_string_equal(mutated("wgs", "low_bytes", json_integer(-1), b,
	    sizeof(b)), "WORK: wgs[0].low_bytes: -1 out of "
	    "[0, 9223372036854775807]");
	assert_string_equal(mutated("wgs", "sd", json_string("sd9"), b,
	    sizeof(b)), "WORK: wgs[0].sd: not one of the work's sds");
	assert_string_equal(mutated("wgs", "seek_eof", json_integer(1), b,
	    sizeof(b)), "WORK: wgs[0].seek_eof: expected true or false");
	assert_string_equal(mutated("wgs", "stride_bytes", json_pack("[i,i]",
	    8, 4), b, sizeof(b)), "WORK: wgs[0].stride_bytes: expected "
	    "[min, max] with 0 <= min <= max");
	assert_string_equal(mutated("wgs", "wrap_to_bytes",
	    json_integer(67108864), b, sizeof(b)),
	    "WORK: wgs[0].wrap_to_bytes: not below wrap_end_bytes");
	assert_non_null(strstr(mutated("wgs", "xfer", json_integer(4), b,
	    sizeof(b)), "WORK: wgs[0].xfer: "));
	assert_string_equal(mutated(NULL, "wgs", NULL, b, sizeof(b)),
	    "WORK: wgs: expected an array");
	assert_string_equal(mutated(NULL, "max_errors", json_integer(-1), b,
	    sizeof(b)), "WORK: max_errors: -1 out of [0, 9223372036854775807]");
	assert_string_equal(mutated(NULL, "compratio", json_real(0.5), b,
	    sizeof(b)), "WORK: compratio: 0.5 out of [1, inf]");
	assert_string_equal(mutated(NULL, "validate", json_integer(65536), b,
	    sizeof(b)), "WORK: validate: 65536 out of [0, 65535]");
	assert_string_equal(mutated("sds", "dv_kb_bytes", json_integer(-1),
	    b, sizeof(b)), "WORK: sds[0].dv_kb_bytes: -1 out of [0, "
	    "1048576]");
	assert_string_equal(mutated(NULL, "histogram_edges_us",
	    json_pack("[i,i]", 20, 10), b, sizeof(b)), "WORK: "
	    "histogram_edges_us: expected an array of at most 63 increasing "
	    "integers");
	assert_string_equal(mutated(NULL, "dedup", json_pack("{s:f}",
	    "ratio", 2.0), b, sizeof(b)), "WORK: dedup.unit_bytes: missing");
	/* optional fields may be absent */
	assert_string_equal(mutated(NULL, "dedup", NULL, b, sizeof(b)),
	    "(decoded)");
	assert_string_equal(mutated("sds", "engine", NULL, b, sizeof(b)),
	    "(decoded)");
}

/* A file-system work: fwgs with their fsd trees, the format flags. */
static void
fs_work(struct slave_work *w)
{
	struct work_fwg *g;

	memset(w, 0, sizeof(*w));
	vdbhist_edges_default(&w->edges);
	w->max_errors = 50;
	w->compratio = 1;
	w->is_fs = 1;
	w->fs.clean = 1;
	w->fs.dirs_only = 1;
	w->fwgs = xcalloc(1, sizeof(*w->fwgs));
	g = &w->fwgs[w->nfwgs++];
	g->fwd = xstrdup("format");
	g->fsd = xstrdup("fsd1");
	g->anchor = xstrdup("/tmp/a");
	g->operation = xstrdup("format");
	xfer_set_single(&g->xfer, 131072);
	g->readpct = -1;
	g->threads = 2;
	g->thread_first = 2;
	g->thread_total = 4;
	g->fileio = xstrdup("sequential");
	g->fileselect = xstrdup("poisson");
	g->has_poisson_midpoint = 1;
	g->poisson_midpoint = 5;
	strlist_add(&g->openflags, "o_sync");
	g->tree.depth = 2;
	g->tree.width = 3;
	g->tree.files = 10;
	g->tree.nsizes = 2;
	g->tree.size_bytes = xcalloc(2, sizeof(uint64_t));
	g->tree.size_bytes[0] = 4096;
	g->tree.size_bytes[1] = 8192;
	g->tree.size_pct = xcalloc(2, sizeof(double));
	g->tree.size_pct[0] = 40;
	g->tree.size_pct[1] = 60;
	g->tree.wss_bytes = 1048576;
	g->clean_first = 1;	/* -c */
}

static void
test_fs_round_trip(void **state)
{
	struct slave_work w, back;
	struct errmsg e;
	json_t *j, *again;

	(void)state;
	fs_work(&w);
	j = work_to_json(&w);
	slave_work_clear(&w);
	assert_string_equal(json_string_value(json_object_get(j, "engine")),
	    "fs");
	assert_null(json_object_get(j, "wgs"));
	errmsg_clear(&e);
	if (work_from_json(&back, j, &e) != 0)
		fail_msg("%s", e.text);
	assert_int_equal(back.is_fs, 1);
	assert_int_equal(back.nfwgs, 1);
	assert_int_equal(back.fs.clean, 1);
	assert_int_equal(back.fs.restart, 0);
	assert_int_equal(back.fwgs[0].tree.nsizes, 2);
	assert_int_equal(back.fwgs[0].clean_first, 1);
	assert_true(back.fwgs[0].tree.size_pct[1] == 60);
	again = work_to_json(&back);
	assert_true(json_equal(j, again));
	/* refusals name the fwg field */
	json_object_set_new(json_array_get(json_object_get(j, "fwgs"), 0),
	    "thread_total", json_integer(3));
	assert_int_equal(work_from_json(&w, j, &e), -1);
	assert_string_equal(e.text,
	    "WORK: fwgs[0].thread_total: below thread_first + threads");
	json_object_set_new(json_array_get(json_object_get(j, "fwgs"), 0),
	    "thread_total", json_integer(4));
	json_object_set_new(json_object_get(json_array_get(json_object_get(j,
	    "fwgs"), 0), "tree"), "size_pct", json_pack("[f]", 50.0));
	assert_int_equal(work_from_json(&w, j, &e), -1);
	assert_string_equal(e.text,
	    "WORK: fwgs[0].tree.size_pct: expected none or one per size");
	json_decref(j);
	json_decref(again);
	slave_work_clear(&back);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encoder_makes_golden),
		cmocka_unit_test(test_golden_decodes_back),
		cmocka_unit_test(test_decoder_names_the_field),
		cmocka_unit_test(test_fs_round_trip),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
