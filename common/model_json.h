/* SPDX-License-Identifier: MIT */
#ifndef COMMON_MODEL_JSON_H
#define COMMON_MODEL_JSON_H

#include <jansson.h>

#include "errmsg.h"
#include "model.h"

/*
 * The one model <-> JSON codec, used by WORK messages, --dump=json and
 * results.json. Field names are the vdbench keywords with units appended
 * (size_bytes, elapsed_s); untyped keywords travel in "bag". The decoder
 * checks every field's type and fails with the field's path in e.
 */
json_t		*model_to_json(const struct model *);
struct model	*model_from_json(const json_t *, struct errmsg *);
/* One transfer-size spec (part of the model; WORK carries it alone). */
json_t		*xfer_to_json(const struct xfer *);
int		 xfer_from_json(struct xfer *, const json_t *, struct errmsg *);

#endif /* COMMON_MODEL_JSON_H */
