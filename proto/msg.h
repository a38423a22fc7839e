/* SPDX-License-Identifier: MIT */
#ifndef PROTO_MSG_H
#define PROTO_MSG_H

#include <stdint.h>

#include <jansson.h>

#include "errmsg.h"

/*
 * Message bodies: the required fields of each type (PROTOCOL.md). A body
 * is checked against its type before dispatch, so handlers may rely on
 * the required fields being there with the right JSON types; unknown keys
 * are ignored (versioning rule 1).
 */
int	msg_validate(uint16_t type, const json_t *body, struct errmsg *);

#endif /* PROTO_MSG_H */
