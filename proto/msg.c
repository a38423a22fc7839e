/* SPDX-License-Identifier: MIT */
/* Required fields per message type, as jansson unpack formats. */
#include "msg.h"

#include "proto.h"

struct msg_spec {
	uint16_t	 type;
	const char	*fmt;	/* json_unpack format of the required part */
};

/* Keys here must match PROTOCOL.md and tests/data/proto/. */
static const struct msg_spec specs[] = {
	{ MSG_HELLO,	 "{s:i,s:i,s:s,s:s,s:I,s:s,s:i,s:I}" },
	{ MSG_AUTH,	 "{s:s}" },
	{ MSG_INFO,	 "{s:o}" },
	{ MSG_LAUNCH,	 "{s:s,s:o}" },
	{ MSG_WORK,	 "{s:I,s:s,s:I,s:I,s:I,s:b,s:o}" },
	{ MSG_READY,	 "{s:I}" },
	{ MSG_GO,	 "{s:I}" },
	{ MSG_STOP,	 "{s:I}" },
	{ MSG_RUN_END,	 "{s:I,s:b}" },
	{ MSG_SHUTDOWN,	 "{}" },
	{ MSG_HEARTBEAT, "{s:I}" },
	{ MSG_INTERVAL,	 "{s:I,s:I,s:I,s:o}" },
	{ MSG_SKEW,	 "{s:I}" },
	{ MSG_ERROR,	 "{s:s}" },
	{ MSG_LOG,	 "{s:s,s:s}" },
};

/* The key names, in the order of each format above. */
static const char *const keys[][8] = {
	{ "major", "minor", "slave", "host", "pid", "version", "cores",
	    "clock_wall_ns" },
	{ "step" },
	{ "luns" },
	{ "connect", "slaves" },
	{ "run_id", "run", "interval_ns", "seed", "elapsed_s", "format",
	    "work" },
	{ "run_id" },
	{ "run_id" },
	{ "run_id" },
	{ "run_id", "eof" },
	{ NULL },
	{ "seq" },
	{ "run_id", "interval", "duration_ns", "stats" },
	{ "run_id" },
	{ "text" },
	{ "level", "text" },
};

/*
 * INTERVAL (and RUN_END's optional stats): numbers in range, and each
 * stats entry an object (common/interval_json.c decodes and checks its
 * contents, the master checks them against the run).
 */
static int
check_stats(const char *what, const json_t *stats, struct errmsg *e)
{
	const json_t *v;
	size_t i;

	if (!json_is_array(stats)) {
		errmsg_set(e, NULL, 0, 0, "protocol: %s stats is not an array",
		    what);
		return (-1);
	}
	json_array_foreach(stats, i, v) {
		if (!json_is_object(v)) {
			errmsg_set(e, NULL, 0, 0, "protocol: %s stats %zu "
			    "is not an object", what, i);
			return (-1);
		}
	}
	return (0);
}

/* RUN_END beyond its keys: the run_id and the stats when there. */
static int
check_run_end(const json_t *body, json_int_t run_id, struct errmsg *e)
{
	if (run_id < 0) {
		errmsg_set(e, NULL, 0, 0, "protocol: RUN_END "
		    "run_id %lld is negative", (long long)run_id);
		return (-1);
	}
	if (json_object_get(body, "stats") != NULL &&
	    check_stats("RUN_END", json_object_get(body, "stats"), e) != 0)
		return (-1);
	return (0);
}

/*
 * INTERVAL beyond its keys: run_id, interval and duration_ns (v) in
 * range, the stats, the cpu when there.
 */
static int
check_interval(const json_t *body, const json_int_t *v, const json_t *stats,
    struct errmsg *e)
{
	if (v[0] < 0 || v[1] < 1 || v[2] < 1) {
		errmsg_set(e, NULL, 0, 0, "protocol: INTERVAL "
		    "run_id %lld, interval %lld, duration_ns %lld: "
		    "expected run_id >= 0, interval >= 1, "
		    "duration_ns >= 1", (long long)v[0],
		    (long long)v[1], (long long)v[2]);
		return (-1);
	}
	if (check_stats("INTERVAL", stats, e) != 0)
		return (-1);
	if (json_object_get(body, "cpu") != NULL &&
	    !json_is_object(json_object_get(body, "cpu"))) {
		errmsg_set(e, NULL, 0, 0, "protocol: INTERVAL "
		    "cpu is not an object");
		return (-1);
	}
	return (0);
}

/* Check a body against its type. */
int
msg_validate(uint16_t type, const json_t *body, struct errmsg *e)
{
	json_error_t je;
	json_int_t i64[8];
	const char *s[8];
	json_t *o[8];
	int in[8], b[8];
	size_t k;

	if (!json_is_object(body)) {
		errmsg_set(e, NULL, 0, 0, "protocol: %s body is not a JSON "
		    "object", proto_type_name(type));
		return (-1);
	}
	for (k = 0; k < sizeof(specs) / sizeof(specs[0]); k++) {
		const char *const *kk = keys[k];
		int rc;

		if (specs[k].type != type)
			continue;
		switch (type) {
		case MSG_HELLO:
			rc = json_unpack_ex((json_t *)body, &je, 0,
			    specs[k].fmt, kk[0], &in[0], kk[1], &in[1], kk[2],
			    &s[0], kk[3], &s[1], kk[4], &i64[0], kk[5], &s[2],
			    kk[6], &in[2], kk[7], &i64[1]);
			break;
		case MSG_SHUTDOWN:
			rc = 0;
			break;
		case MSG_AUTH:
		case MSG_ERROR:
			rc = json_unpack_ex((json_t *)body, &je, 0,
			    specs[k].fmt, kk[0], &s[0]);
			break;
		case MSG_LAUNCH:
			rc = json_unpack_ex((json_t *)body, &je, 0,
			    specs[k].fmt, kk[0], &s[0], kk[1], &o[0]);
			if (rc == 0 && !json_is_array(o[0])) {
				errmsg_set(e, NULL, 0, 0, "protocol: LAUNCH "
				    "slaves is not an array");
				return (-1);
			}
			break;
		case MSG_INFO:
			rc = json_unpack_ex((json_t *)body, &je, 0,
			    specs[k].fmt, kk[0], &o[0]);
			if (rc == 0 && !json_is_array(o[0])) {
				errmsg_set(e, NULL, 0, 0, "protocol: INFO "
				    "luns is not an array");
				return (-1);
			}
			break;
		case MSG_WORK:
			rc = json_unpack_ex((json_t *)body, &je, 0,
			    specs[k].fmt, kk[0], &i64[0], kk[1], &s[0], kk[2],
			    &i64[1], kk[3], &i64[2], kk[4], &i64[3], kk[5],
			    &b[0], kk[6], &o[0], kk[7], &o[1]);
			break;
		case MSG_READY:
		case MSG_GO:
		case MSG_STOP:
		case MSG_SKEW:
		case MSG_HEARTBEAT:
			rc = json_unpack_ex((json_t *)body, &je, 0,
			    specs[k].fmt, kk[0], &i64[0]);
			break;
		case MSG_RUN_END:
			rc = json_unpack_ex((json_t *)body, &je, 0,
			    specs[k].fmt, kk[0], &i64[0], kk[1], &b[0]);
			if (rc == 0 && check_run_end(body, i64[0], e) != 0)
				return (-1);
			break;
		case MSG_INTERVAL:
			rc = json_unpack_ex((json_t *)body, &je, 0,
			    specs[k].fmt, kk[0], &i64[0], kk[1], &i64[1],
			    kk[2], &i64[2], kk[3], &o[0]);
			if (rc == 0 && check_interval(body, i64, o[0], e) != 0)
				return (-1);
			break;
		case MSG_LOG:
			rc = json_unpack_ex((json_t *)body, &je, 0,
			    specs[k].fmt, kk[0], &s[0], kk[1], &s[1]);
			break;
		default:
			rc = -1;
			je.text[0] = '\0';
		}
		if (rc != 0) {
			errmsg_set(e, NULL, 0, 0, "protocol: bad %s body: %s",
			    proto_type_name(type), je.text);
			return (-1);
		}
		return (0);
	}
	errmsg_set(e, NULL, 0, 0, "protocol: unknown message type %u", type);
	return (-1);
}
