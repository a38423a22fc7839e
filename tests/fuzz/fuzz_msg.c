/* libFuzzer target: a message body as it reaches a handler. The input is
 * a 2-byte big-endian type and a JSON body; the body is parsed and
 * checked as the link does (msg_validate), and a WORK body's work is
 * decoded as a slave decodes it (common/work_json.c). Never crash, never
 * leak. */
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "msg.h"
#include "proto.h"
#include "work_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t je;
	struct errmsg e;
	uint16_t type;
	json_t *body;

	if (size < 2)
		return (0);
	type = (uint16_t)(data[0] << 8 | data[1]);
	body = json_loadb((const char *)data + 2, size - 2,
	    JSON_REJECT_DUPLICATES, &je);
	if (body == NULL)
		return (0);
	if (msg_validate(type, body, &e) == 0 && type == MSG_WORK) {
		struct slave_work w;

		(void)work_from_json(&w, json_object_get(body, "work"), &e);
		slave_work_clear(&w);
	}
	json_decref(body);
	return (0);
}
