/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pattern.h"

#include "jrandom.h"
#include "xmalloc.h"

/*
 * Patterns.java set7000Numbers(): pairs of (compression ratio, zero
 * limit); the limit / 100 is the percentage of ints set to zero.
 */
static const double zero_table[][2] = {
	{ 1.00, 0 }, { 1.10, 3500 }, { 1.15, 3600 }, { 1.16, 3700 },
	{ 1.17, 3800 }, { 1.19, 3900 }, { 1.20, 4000 }, { 1.21, 4100 },
	{ 1.23, 4200 }, { 1.24, 4300 }, { 1.26, 4400 }, { 1.27, 4500 },
	{ 1.29, 4600 }, { 1.31, 4700 }, { 1.32, 4800 }, { 1.34, 4900 },
	{ 1.36, 5000 }, { 1.38, 5100 }, { 1.40, 5200 }, { 1.42, 5300 },
	{ 1.45, 5400 }, { 1.47, 5500 }, { 1.49, 5600 }, { 1.52, 5700 },
	{ 1.55, 5800 }, { 1.57, 5900 }, { 1.60, 6000 }, { 1.64, 6100 },
	{ 1.67, 6200 }, { 1.70, 6300 }, { 1.74, 6400 }, { 1.78, 6500 },
	{ 1.82, 6600 }, { 1.87, 6700 }, { 1.92, 6800 }, { 1.97, 6900 },
	{ 2.02, 7000 }, { 2.08, 7100 }, { 2.13, 7200 }, { 2.20, 7300 },
	{ 2.27, 7400 }, { 2.34, 7500 }, { 2.43, 7600 }, { 2.52, 7700 },
	{ 2.62, 7800 }, { 2.72, 7900 }, { 2.84, 8000 }, { 2.96, 8100 },
	{ 3.10, 8200 }, { 3.25, 8300 }, { 3.42, 8400 }, { 3.62, 8500 },
	{ 3.83, 8600 }, { 4.06, 8700 }, { 4.33, 8800 }, { 4.66, 8900 },
	{ 5.04, 9000 }, { 5.08, 9010 }, { 5.12, 9020 }, { 5.18, 9030 },
	{ 5.21, 9040 }, { 5.26, 9050 }, { 5.29, 9060 }, { 5.35, 9070 },
	{ 5.40, 9080 }, { 5.45, 9090 }, { 5.49, 9100 }, { 5.55, 9110 },
	{ 5.60, 9120 }, { 5.67, 9130 }, { 5.71, 9140 }, { 5.74, 9150 },
	{ 5.84, 9160 }, { 5.87, 9170 }, { 5.90, 9180 }, { 5.97, 9190 },
	{ 6.03, 9200 }, { 6.12, 9210 }, { 6.19, 9220 }, { 6.19, 9230 },
	{ 6.30, 9240 }, { 6.34, 9250 }, { 6.38, 9260 }, { 6.50, 9270 },
	{ 6.55, 9280 }, { 6.63, 9290 }, { 6.67, 9300 }, { 6.76, 9310 },
	{ 6.81, 9320 }, { 6.90, 9330 }, { 6.99, 9340 }, { 7.04, 9350 },
	{ 7.16, 9360 }, { 7.24, 9370 }, { 7.34, 9380 }, { 7.40, 9390 },
	{ 7.56, 9400 }, { 7.59, 9410 }, { 7.68, 9420 }, { 7.82, 9430 },
	{ 7.85, 9440 }, { 7.97, 9450 }, { 8.07, 9460 }, { 8.23, 9470 },
	{ 8.33, 9480 }, { 8.40, 9490 }, { 8.61, 9500 }, { 8.65, 9510 },
	{ 8.80, 9520 }, { 8.91, 9530 }, { 9.07, 9540 }, { 9.23, 9550 },
	{ 9.40, 9560 }, { 9.49, 9570 }, { 9.62, 9580 }, { 9.76, 9590 },
	{ 9.95, 9600 }, { 10.15, 9610 }, { 10.25, 9620 }, { 10.46, 9630 },
	{ 10.62, 9640 }, { 10.85, 9650 }, { 11.02, 9660 }, { 11.21, 9670 },
	{ 11.39, 9680 }, { 11.65, 9690 }, { 11.79, 9700 }, { 12.21, 9710 },
	{ 12.23, 9720 }, { 12.44, 9730 }, { 12.82, 9740 }, { 12.98, 9750 },
	{ 13.50, 9760 }, { 13.50, 9770 }, { 13.95, 9780 }, { 14.25, 9790 },
	{ 14.55, 9800 }, { 14.98, 9810 }, { 15.20, 9820 }, { 15.78, 9830 },
	{ 16.03, 9840 }, { 16.55, 9850 }, { 16.97, 9860 }, { 17.25, 9870 },
	{ 18.00, 9880 }, { 18.17, 9890 }, { 19.37, 9900 }, { 19.56, 9910 },
	{ 20.54, 9920 }, { 21.18, 9930 }, { 21.62, 9940 }, { 23.09, 9950 },
	{ 23.09, 9960 }, { 24.76, 9970 }, { 25.38, 9980 }, { 25.69, 9990 },
};

#define WDATA_MIB	(1ull << 20)

double
wdata_zero_limit(double compratio)
{
	size_t i, n = sizeof(zero_table) / sizeof(zero_table[0]);
	double limit = 0;

	/* createCompressionPattern(): the row at or above, else the last */
	for (i = 0; i < n; i++) {
		limit = zero_table[i][1];
		if (zero_table[i][0] >= compratio)
			break;
	}
	return (limit);
}

void
wdata_init(struct wdata *d, double compratio, int64_t seed,
    uint64_t max_xfer_bytes, uint64_t unit_bytes)
{
	uint64_t s = jr_seed(seed), i, n;
	double limit = wdata_zero_limit(compratio);

	/* calculatePatternBufferSize(): 1 MiB, or the largest transfer
	 * rounded up to MiB; doubled, and two dedup units more */
	d->span = max_xfer_bytes <= WDATA_MIB ? WDATA_MIB :
	    (max_xfer_bytes + WDATA_MIB - 1) / WDATA_MIB * WDATA_MIB;
	d->pat_bytes = 2 * d->span + 2 * unit_bytes;
	d->pat = xmalloc(d->pat_bytes);
	n = d->pat_bytes / 4;
	for (i = 0; i < n; i++) {
		uint32_t v = (uint32_t)(int32_t)(jr_next_double(&s) *
		    2147483647.0);

		memcpy(d->pat + 4 * i, &v, 4);	/* the host's order */
	}
	/* at compratio=1 no draw can zero a word: its 2 M draws skipped
	 * (each slave builds the pattern; 1,024 of them start at once) */
	for (i = 0; limit > 0 && i < n; i++)
		if (jr_next_double(&s) * 100 < limit / 100.)
			memset(d->pat + 4 * i, 0, 4);
}

void
wdata_free(struct wdata *d)
{
	free(d->pat);
	d->pat = NULL;
}

int
wdata_sd_init(struct wdata_sd *s, const char *sd_name, uint64_t lun_bytes,
    uint64_t group_bytes, uint64_t rel_bytes, uint64_t unit_bytes,
    double ratio, double sets, int not_across, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	dv_name8(s->name8, sd_name);
	s->pid = (uint32_t)getpid();
	if (dv_dedup_init_group(&s->dd, sd_name, lun_bytes, group_bytes,
	    rel_bytes, unit_bytes, ratio, sets, not_across, err,
	    errlen) != 0) {
		wdata_sd_free(s);
		return (-1);
	}
	return (0);
}

void
wdata_sd_free(struct wdata_sd *s)
{
	dv_dedup_free(&s->dd);
	s->dd.unit_bytes = 0;
}

/* Dedup: each unit's part of [lba, lba + len), as vdbench fills it. */
static void
dedup_block(const struct wdata *d, const struct wdata_sd *sd,
    unsigned char *buf, uint64_t lba, uint64_t len)
{
	uint64_t u = sd->dd.unit_bytes, p = lba;
	struct dv_stamp st;
	struct dv_kb kb;

	st.ts_ms = 0;				/* no validation: no time */
	st.pid = sd->pid;
	memcpy(st.name, sd->name8, 8);
	while (p < lba + len) {
		uint64_t unit = p / u * u, end = unit + u;

		if (end > lba + len)
			end = lba + len;
		/* key 0: without validation vdbench's keys stay 0 */
		dv_kb_of(&sd->dd, unit, 0, &kb);
		kb.comp += (uint32_t)(p - unit);	/* a part of the unit */
		dv_fill_kb(d->pat, buf + (p - lba), p, (uint32_t)(end - p), 0,
		    &kb, &st);
		p = end;
	}
}

void
wdata_block(const struct wdata *d, const struct wdata_sd *sd,
    unsigned char *buf, uint64_t lba, uint64_t len, uint32_t fhandle,
    uint32_t tod_us)
{
	uint64_t off;

	if (sd != NULL && sd->dd.unit_bytes != 0) {
		dedup_block(d, sd, buf, lba, len);
		return;
	}
	memcpy(buf, d->pat + lba % d->span, len);
	/* prevent_dedup(): every 4 KiB piece, a partial last one too */
	for (off = 0; off < len; off += 4096) {
		uint32_t w[2];

		w[0] = (uint32_t)((lba + off) / 4096) ^ fhandle << 16;
		w[1] = tod_us;
		memcpy(buf + off, w, len - off < 8 ? len - off : 8);
	}
}

/* pattern=file (pattern.h). */
int
pattern_load(const char *path, unsigned char *buf, uint64_t len,
    uint64_t *got, uint64_t *used, struct errmsg *e)
{
	char abs[PATH_MAX];
	unsigned char *raw;
	uint64_t n = 0, i;
	ssize_t r;
	int fd;

	if (realpath(path, abs) == NULL)
		snprintf(abs, sizeof(abs), "%s", path);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		errmsg_set(e, NULL, 0, 0, "readPattern() pattern file does not "
		    "exist: %s%s%s", abs, errno == ENOENT ? "" : ": ",
		    errno == ENOENT ? "" : strerror(errno));
		return (-1);
	}
	raw = malloc(len > 0 ? len : 1);
	if (raw == NULL) {
		close(fd);
		errmsg_set(e, NULL, 0, 0, "pattern=%s: no memory", abs);
		return (-1);
	}
	while (n < len && (r = read(fd, raw + n, len - n)) > 0)
		n += (uint64_t)r;
	close(fd);
	*got = n;
	if (n == 0) {
		free(raw);
		errmsg_set(e, NULL, 0, 0, "Pattern file empty: %s", abs);
		return (-1);
	}
	n -= n % 4;
	*used = n;
	if (n == 0) {
		free(raw);
		errmsg_set(e, NULL, 0, 0, "Data pattern length for file '%s' "
		    "must be a minimum of 4 bytes ", abs);
		return (-1);
	}
	for (i = 0; i + 4 <= len; i += 4) {
		uint32_t w = (uint32_t)raw[i % n] << 24 |
		    (uint32_t)raw[(i + 1) % n] << 16 |
		    (uint32_t)raw[(i + 2) % n] << 8 | raw[(i + 3) % n];

		memcpy(buf + i, &w, 4);
	}
	free(raw);
	return (0);
}
