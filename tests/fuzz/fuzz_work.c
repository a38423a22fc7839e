/* libFuzzer target: the "work" object of a WORK body, decoded as a slave
 * decodes it (common/work_json.c). What decodes must encode and decode
 * again to the same JSON. Never crash, never leak. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "work_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct slave_work w, again;
	json_error_t je;
	struct errmsg e;
	json_t *j, *enc, *enc2;

	j = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &je);
	if (j == NULL)
		return (0);
	if (work_from_json(&w, j, &e) == 0) {
		enc = work_to_json(&w);
		if (work_from_json(&again, enc, &e) != 0)
			abort();
		enc2 = work_to_json(&again);
		if (!json_equal(enc, enc2))
			abort();
		json_decref(enc);
		json_decref(enc2);
		slave_work_clear(&again);
		slave_work_clear(&w);
	}
	json_decref(j);
	return (0);
}
