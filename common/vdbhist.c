/* SPDX-License-Identifier: MIT */
/* vdbench's own histogram buckets, kept exact at their edges. */
#include "vdbhist.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const uint64_t default_edges_us[] = {
	20, 40, 60, 80, 100, 200, 400, 600, 800,
	1000, 2000, 4000, 6000, 8000, 10000, 20000, 40000, 60000, 80000,
	100000, 200000, 400000, 600000, 800000,
	1000000, 2000000,
};

/* The built-in 26 bounds. */
void
vdbhist_edges_default(struct vdbhist_edges *ed)
{
	memset(ed, 0, sizeof(*ed));
	ed->n = sizeof(default_edges_us) / sizeof(default_edges_us[0]);
	memcpy(ed->edge_us, default_edges_us, sizeof(default_edges_us));
}

/* One bound: digits with an optional u, m or s suffix, in microseconds. */
static int
parse_bound(const char *w, uint64_t *us)
{
	char *end;
	unsigned long long v;
	uint64_t mult = 1;

	if (!isdigit((unsigned char)w[0]))
		return (-1);
	v = strtoull(w, &end, 10);
	if (*end == 'u' || *end == 'U')
		end++;
	else if (*end == 'm' || *end == 'M') {
		mult = 1000;
		end++;
	} else if (*end == 's' || *end == 'S') {
		mult = 1000000;
		end++;
	}
	if (*end != '\0')
		return (-1);
	*us = (uint64_t)v * mult;
	return (0);
}

/* Parse histogram= words (after "default"). */
int
vdbhist_edges_parse(struct vdbhist_edges *ed, int nwords,
    const char *const words[], struct errmsg *e)
{
	uint64_t vals[256];
	int nvals = 0, i;
	unsigned int n = 0;

	memset(ed, 0, sizeof(*ed));
	for (i = 0; i < nwords; i++) {
		if (strcasecmp(words[i], "suppress") == 0) {
			ed->suppress = 1;
			continue;
		}
		if (strcasecmp(words[i], "default") == 0)
			continue;
		if (nvals == (int)(sizeof(vals) / sizeof(vals[0])) ||
		    parse_bound(words[i], &vals[nvals]) != 0) {
			errmsg_set(e, NULL, 0, 0,
			    "Invalid 'histogram=' value: %s", words[i]);
			return (-1);
		}
		nvals++;
	}
	if (nvals == 0) {
		if (ed->suppress) {
			int sup = ed->suppress;

			vdbhist_edges_default(ed);
			ed->suppress = sup;
			return (0);
		}
		errmsg_set(e, NULL, 0, 0, "'histogram=' requires bucket values");
		return (-1);
	}
	if (vals[0] == 0) {
		errmsg_set(e, NULL, 0, 0, "First bucket may not be zero: 0");
		return (-1);
	}
	for (i = 0; i < nvals; i++) {
		uint64_t v = vals[i];

		if (n > 0 && v <= ed->edge_us[n - 1]) {
			/* An increment: fill up to the next value. */
			uint64_t step = v, next;

			if (i + 1 >= nvals) {
				errmsg_set(e, NULL, 0, 0, "Histogram increment "
				    "%llu must be followed by a value",
				    (unsigned long long)v);
				return (-1);
			}
			next = vals[++i];
			while (ed->edge_us[n - 1] + step < next) {
				if (n + 1 >= VDBHIST_MAX_BUCKETS)
					goto too_many;
				ed->edge_us[n] = ed->edge_us[n - 1] + step;
				n++;
			}
			v = next;
			if (v <= ed->edge_us[n - 1])
				continue;
		}
		if (n + 1 >= VDBHIST_MAX_BUCKETS)
			goto too_many;
		ed->edge_us[n++] = v;
	}
	ed->n = n;
	return (0);
too_many:
	errmsg_set(e, NULL, 0, 0,
	    "Histogram bucket list may not contain more than 64 buckets");
	return (-1);
}

/* The buckets a report prints (suppress: the empty ones each end go). */
void
vdbhist_shown(const struct vdbhist_edges *ed, const uint64_t *count,
    unsigned int *from, unsigned int *to)
{
	unsigned int b, lo = ed->n + 1, hi = 0;

	*from = 0;
	*to = ed->n;
	if (!ed->suppress)
		return;
	for (b = 0; b <= ed->n; b++) {
		if (count[b] == 0)
			continue;
		if (lo > ed->n)
			lo = b;
		hi = b;
	}
	if (lo > ed->n)
		return;		/* nothing counted: the whole list */
	*from = lo > 0 ? lo - 1 : 0;
	*to = hi < ed->n ? hi + 1 : ed->n;
}

/* Index of the bucket holding a latency: min <= v < max. */
unsigned int
vdbhist_bucket_of(const struct vdbhist_edges *ed, uint64_t lat_ns)
{
	unsigned int lo = 0, hi = ed->n;

	/* First edge strictly above the sample. */
	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (lat_ns < ed->edge_us[mid] * 1000)
			hi = mid;
		else
			lo = mid + 1;
	}
	return (lo);
}

/* Count one sample. */
void
vdbhist_add(struct vdbhist *h, const struct vdbhist_edges *ed,
    uint64_t lat_ns)
{
	h->count[vdbhist_bucket_of(ed, lat_ns)]++;
}

json_t *
vdbhist_to_json(const struct vdbhist *h, unsigned int n)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i <= n; i++)
		json_array_append_new(a, json_integer((json_int_t)h->count[i]));
	return (a);
}
