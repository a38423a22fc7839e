/* SPDX-License-Identifier: MIT */
/*
 * data_errors=: the count, the limit and what happens at an error, in one
 * place for I/O errors and data validation alike (dataerr.h).
 */
#include "dataerr.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

void
dataerr_init(struct dataerr *d, const struct general *g)
{
	memset(d, 0, sizeof(*d));
	d->mode = DATAERR_LIMIT;
	d->limit = g->data_errors >= 0 ? (uint64_t)g->data_errors : 50;
	if (g->data_errors_cmd != NULL) {
		if (strcasecmp(g->data_errors_cmd, "remove_device") == 0) {
			d->mode = DATAERR_REMOVE;
			d->limit = DATAERR_REMOVE_MAX;
		} else {
			/* vdbench: the command, then max errors 0: the
			 * first error ends the run */
			d->mode = DATAERR_COMMAND;
			d->command = g->data_errors_cmd;
			d->limit = 1;
		}
		return;
	}
	if (g->data_errors_wait_s >= 1)
		d->wait_s = (uint64_t)g->data_errors_wait_s;
}

const char *
dataerr_banner(const struct dataerr *d)
{
	return (d->mode == DATAERR_REMOVE ? "'data_errors=remove_device' "
	    "option requested. Max error count set to 10000" : "");
}

void
dataerr_run_start(struct dataerr *d)
{
	d->count = 0;
	d->last_ns = 0;
}

uint64_t
dataerr_slave_limit(const struct dataerr *d)
{
	return (d->limit);	/* 0: the first error ends the rd, as 1 */
}

int
dataerr_note(struct dataerr *d, const char *rd, uint64_t now_ns, char *text,
    size_t len)
{
	int r = 0;

	d->count++;
	d->last_ns = now_ns;
	if (d->mode == DATAERR_COMMAND)
		r |= DATAERR_RUN_COMMAND;
	if (d->count < d->limit)
		return (r);
	if (d->mode == DATAERR_COMMAND)
		snprintf(text, len, "'data_errors=%s' requested: the command "
		    "ran after the first error. Abort rd=%s after last error.",
		    d->command, rd);
	else
		/* vdbench's words (ErrorLog.java:191-215, v2d) */
		snprintf(text, len, "'data_errors=%llu' requested. Abort rd=%s "
		    "after last error.", (unsigned long long)d->limit, rd);
	return (r | DATAERR_STOP);
}

int
dataerr_expired(const struct dataerr *d, uint64_t now_ns, char *text,
    size_t len)
{
	if (d->wait_s == 0 || d->last_ns == 0 ||
	    now_ns - d->last_ns <= d->wait_s * 1000000000ull)
		return (0);
	snprintf(text, len, "It has been more than %llu seconds since the "
	    "last Data Validation or I/O error.", (unsigned long long)d->wait_s);
	return (1);
}
