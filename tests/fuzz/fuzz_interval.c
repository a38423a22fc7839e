/* libFuzzer target: an INTERVAL body as it reaches the master. The input
 * is the JSON body; when the link would pass it (msg_validate), each
 * stats entry is decoded with the INTERVAL codec (common/interval_json.c)
 * as master/intervals.c decodes it, then encoded again and decoded back,
 * which must give the same counters. Never crash, never leak. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "interval_json.h"
#include "msg.h"
#include "proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
wg_init(struct interval_wg *w)
{
	memset(w, 0, sizeof(*w));
	w->h[0] = hist_new();
	w->h[1] = hist_new();
	w->sched = hist_new();
}

static void
wg_done(struct interval_wg *w)
{
	hist_free(w->h[0]);
	hist_free(w->h[1]);
	hist_free(w->sched);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct interval_wg w, again;
	struct errmsg e;
	json_error_t je;
	json_t *body, *v;
	size_t i;

	body = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES,
	    &je);
	if (body == NULL)
		return (0);
	if (msg_validate(MSG_INTERVAL, body, &e) != 0) {
		json_decref(body);
		return (0);
	}
	wg_init(&w);
	wg_init(&again);
	json_array_foreach(json_object_get(body, "stats"), i, v) {
		json_t *re;

		if (interval_wg_from_json(&w, v, &e) != 0)
			continue;
		re = interval_wg_to_json(&w);
		if (interval_wg_from_json(&again, re, &e) != 0 ||
		    memcmp(&again.io, &w.io, sizeof(w.io)) != 0 ||
		    memcmp(again.vdb, w.vdb, sizeof(w.vdb)) != 0 ||
		    hist_count(again.h[0]) != hist_count(w.h[0]) ||
		    hist_count(again.h[1]) != hist_count(w.h[1]) ||
		    hist_count(again.sched) != hist_count(w.sched))
			abort();	/* the codec does not round-trip */
		json_decref(re);
	}
	wg_done(&w);
	wg_done(&again);
	json_decref(body);
	return (0);
}
