/* libFuzzer target: a message body as it reaches a handler. The input is
 * a 2-byte big-endian type and a JSON body; the body is parsed and
 * checked as the link does (msg_validate), and a WORK body's model is
 * decoded as a slave decodes it. Never crash, never leak. */
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "model.h"
#include "model_json.h"
#include "msg.h"
#include "proto.h"

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
		struct model *m = model_from_json(json_object_get(body,
		    "model"), &e);

		if (m != NULL)
			model_free(m);
	}
	json_decref(body);
	return (0);
}
