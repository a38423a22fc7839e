/* SPDX-License-Identifier: MIT */
/*
 * A slave's data validation session (dv_session.h): the pattern, the
 * pid, the banner flag and the report of a corrupted block, shared by
 * sd validation (sd_dv.c) and fsd validation (fs_dv.c).
 */
#include "dv_session.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "dv.h"
#include "model.h"
#include "mtime.h"
#include "work.h"
#include "xmalloc.h"

struct dv_session *
dv_session_new(void)
{
	struct dv_session *v = xcalloc(1, sizeof(*v));

	v->pid = (uint32_t)getpid();
	return (v);
}

void
dv_session_free(struct dv_session *v)
{
	if (v == NULL)
		return;
	wdata_free(&v->wd);
	free(v);
}

const unsigned char *
dv_session_pattern(struct dv_session *v, int64_t seed, double compratio,
    uint64_t max_xfer_bytes, uint64_t unit_bytes)
{
	if (v->pat == NULL) {
		wdata_init(&v->wd, compratio < 1 ? 1 : compratio, seed,
		    max_xfer_bytes, unit_bytes);
		v->pat = v->wd.pat;
	}
	return (v->pat);
}

void
dv_session_report(struct dv_session *v, const struct dv_bad_block *b,
    const char *lun, uint64_t lba, uint64_t ms, struct strlist *out)
{
	struct strlist lines = { 0, NULL, 0 };
	time_t sec = (time_t)(ms / 1000);
	char hms[16], now[16], *text, *rec, *l;
	struct tm tm;
	int i, zero = 0;

	/* the banner first, once per slave (sds and fsds alike) */
	if (__atomic_compare_exchange_n(&v->reported, &zero, 1, 0,
	    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		dv_report_banner(&lines, b->found_ms);
	dv_report_block(&lines, v->pat, b);
	localtime_r(&sec, &tm);
	strftime(hms, sizeof(hms), "%H:%M:%S", &tm);
	xasprintf(&text, "%s.%03u op: read   lun: %-27s lba: %12llu "
	    "0x%08llX xfer: %8u errno: 60003: '60003            A Data "
	    "Validation error was discovered' ", hms, (unsigned)(ms % 1000),
	    lun, (unsigned long long)lba, (unsigned long long)lba, b->xfer);
	/* results.json's record of the block rides on that line */
	rec = dv_block_json(v->pat, b);
	xasprintf(&l, "%s%c%s", text, WORK_DV_SEP, rec);
	strlist_add(&lines, l);
	free(l);
	free(rec);
	free(text);
	/*
	 * all but the last ("op: read ...") line are the report's detail:
	 * WORK_DETAIL_MARK says so to slave/main.c, which sends them as LOG
	 * "detail", so the master counts one error per corrupted data
	 * block; each after the slave's time of day, as vdbench's
	 */
	for (i = 0; i < lines.n; i++) {
		mtime_tod(mtime_wall_ns(), now);
		if (i + 1 < lines.n)
			xasprintf(&l, "%c%s %s", WORK_DETAIL_MARK, now,
			    lines.v[i]);
		else
			xasprintf(&l, "%s %s", now, lines.v[i]);
		strlist_add(out, l);
		free(l);
	}
	strlist_clear(&lines);
}
