/* SPDX-License-Identifier: MIT */
/*
 * I/O counters: sums, not rates, so that merging slaves and intervals is
 * exact and the master derives every rate itself.
 */
#include "iostats.h"

#include <math.h>
#include <string.h>

/* Count one I/O. */
void
iostats_add(struct iostats *s, enum iostats_dir d, uint64_t bytes,
    uint64_t resp_ns)
{
	struct iostats_side *x = &s->side[d];
	uint64_t us = (resp_ns + 500) / 1000;

	x->ios++;
	x->bytes += bytes;
	x->resp_sum_ns += resp_ns;
	x->resp_sumsq_us2 += us * us;
	if (resp_ns > x->resp_max_ns)
		x->resp_max_ns = resp_ns;
}

/* Add src into dst. */
void
iostats_merge(struct iostats *dst, const struct iostats *src)
{
	int d;

	for (d = 0; d < IOSTATS_NDIR; d++) {
		struct iostats_side *a = &dst->side[d];
		const struct iostats_side *b = &src->side[d];

		a->ios += b->ios;
		a->bytes += b->bytes;
		a->resp_sum_ns += b->resp_sum_ns;
		a->resp_sumsq_us2 += b->resp_sumsq_us2;
		a->errors += b->errors;
		if (b->resp_max_ns > a->resp_max_ns)
			a->resp_max_ns = b->resp_max_ns;
	}
	dst->qdepth_ns += src->qdepth_ns;
	dst->busy_ns += src->busy_ns;
	for (d = 0; d < FSOP_N; d++) {
		dst->op[d].n += src->op[d].n;
		dst->op[d].resp_sum_ns += src->op[d].resp_sum_ns;
		if (src->op[d].resp_max_ns > dst->op[d].resp_max_ns)
			dst->op[d].resp_max_ns = src->op[d].resp_max_ns;
	}
	for (d = 0; d < FSM_N; d++)
		dst->misc[d] += src->misc[d];
	dst->req_n += src->req_n;
	dst->req_resp_ns += src->req_resp_ns;
}

static const char *const op_names[FSOP_N] = {
	"mkdir", "rmdir", "create", "open", "close", "delete", "getattr",
	"setattr", "access", "copy", "move",
};

static const char *const misc_names[FSM_N][2] = {
	{ "FILE_CREATES", "Files created" },
	{ "DIRECTORY_CREATES", "Directories created" },
	{ "FILE_DELETES", "Files deleted" },
	{ "DIRECTORY_DELETES", "Directories deleted" },
	{ "READ_OPENS", "Files opened for read activity" },
	{ "WRITE_OPENS", "Files opened for write activity" },
	{ "DIR_EXISTS", "Directory may not exist (yet)" },
	{ "FILE_BUSY", "File busy" },
	{ "FILE_NOT_FOUND", "File not found" },
	{ "FILE_CLOSES", "Close requests" },
};

const char *
fsop_name(enum fsop o)
{
	return (op_names[o]);
}

const char *
fsmisc_name(enum fsmisc m)
{
	return (misc_names[m][0]);
}

const char *
fsmisc_text(enum fsmisc m)
{
	return (misc_names[m][1]);
}

void
iostats_op(struct iostats *s, enum fsop o, uint64_t resp_ns)
{
	s->op[o].n++;
	s->op[o].resp_sum_ns += resp_ns;
	if (resp_ns > s->op[o].resp_max_ns)
		s->op[o].resp_max_ns = resp_ns;
}

/* Interval delta of two cumulative snapshots. */
void
iostats_delta(struct iostats *dst, const struct iostats *now,
    const struct iostats *prev)
{
	int d;

	for (d = 0; d < IOSTATS_NDIR; d++) {
		struct iostats_side *o = &dst->side[d];
		const struct iostats_side *a = &now->side[d];
		const struct iostats_side *b = &prev->side[d];

		o->ios = a->ios - b->ios;
		o->bytes = a->bytes - b->bytes;
		o->resp_sum_ns = a->resp_sum_ns - b->resp_sum_ns;
		o->resp_sumsq_us2 = a->resp_sumsq_us2 - b->resp_sumsq_us2;
		o->errors = a->errors - b->errors;
		o->resp_max_ns = a->resp_max_ns;
	}
	dst->qdepth_ns = now->qdepth_ns - prev->qdepth_ns;
	dst->busy_ns = now->busy_ns - prev->busy_ns;
	for (d = 0; d < FSOP_N; d++) {
		dst->op[d].n = now->op[d].n - prev->op[d].n;
		dst->op[d].resp_sum_ns = now->op[d].resp_sum_ns -
		    prev->op[d].resp_sum_ns;
		dst->op[d].resp_max_ns = now->op[d].resp_max_ns;
	}
	for (d = 0; d < FSM_N; d++)
		dst->misc[d] = now->misc[d] - prev->misc[d];
	dst->req_n = now->req_n - prev->req_n;
	dst->req_resp_ns = now->req_resp_ns - prev->req_resp_ns;
}

/* sqrt((n*Q - S^2) / (n*(n-1))) with S and Q in microseconds, in ms. */
double
iostats_stddev_ms(uint64_t n, uint64_t sum_ns, uint64_t sumsq_us2)
{
	double dn = (double)n, s = (double)sum_ns / 1000.0, v;

	if (n <= 1)
		return (0.0);
	v = (dn * (double)sumsq_us2 - s * s) / (dn * (dn - 1));
	return (v > 0 ? sqrt(v) / 1000.0 : 0.0);
}
