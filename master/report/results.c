/* SPDX-License-Identifier: MIT */
/* results.json: the machine-readable record of an execution. */
#include "results.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lexer.h"
#include "mtime.h"
#include "ofile.h"
#include "xmalloc.h"

/*
 * The intervals of the runs are not kept in memory: a night at
 * interval=1 is tens of thousands of them (6.5 KB each as jansson
 * objects). Each goes to a spool (an unlinked temporary file) as its
 * JSON text, in the file's own form, after a line with its length; each
 * run keeps where its records are. The record's "intervals" arrays stay
 * empty and are filled from the spool as the file is written.
 * results_runs() reads them back for the charts at the end.
 */
struct rspan {
	long	 start;		/* the run's first record in the spool */
	long	 end;		/* past its last */
	unsigned int n;		/* records */
};

struct results {
	char	*path;
	json_t	*root;
	json_t	*run;		/* the current run, borrowed from root */
	int	 err;		/* errno of the first failed write, 0 = none */
	int	 err_tmp;	/* it was the temporary file's */
	uint64_t next_ns;	/* an interval's rewrite not before this */
	FILE	*spool;		/* the intervals' lines, or NULL: in root */
	struct rspan *spans;	/* per run of root, in order */
	int	 nspans;
	int	 filled;	/* results_runs() put them back in root */
};

/*
 * After an interval the whole record is rewritten, unless the previous
 * write took more than a tenth of the time since it: a run of days at
 * interval=1 makes a file of tens of MB, and the master must not spend
 * its time rewriting it. Such a run's file lags a few intervals at most
 * (kill -9 keeps everything up to the last write).
 */
#define RESULTS_WRITE_SHARE	10

/* The file's form, and its intervals' in the spool. */
#define RESULTS_DUMP	(JSON_ENCODE_ANY | JSON_INDENT(1) | \
			    JSON_REAL_PRECISION(10))


static const double pcts[] = { 50, 90, 95, 99, 99.9, 99.99 };
static const char *const pct_names[] = {
	"p50", "p90", "p95", "p99", "p99.9", "p99.99",
};

/* Percentiles in ms of one histogram (or {} when it is empty). */
static json_t *
percentiles(const struct hist *h)
{
	json_t *o = json_object();
	size_t i;

	if (h == NULL || hist_count(h) == 0)
		return (o);
	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		json_object_set_new(o, pct_names[i], json_real(
		    (double)hist_percentile_ns(h, pcts[i]) / 1e6));
	json_object_set_new(o, "max", json_real(
	    (double)hist_max_ns(h) / 1e6));
	return (o);
}

/*
 * File-system runs: the requested operations and every other operation
 * (count, rate, mean response) and vdbench's Miscellaneous counters.
 */
static void
fs_stats(json_t *o, const struct iostats *s, uint64_t dur_ns)
{
	double secs = dur_ns > 0 ? (double)dur_ns / 1e9 : 1;
	json_t *ops = NULL, *misc = NULL;
	int i;

	for (i = 0; i < FSOP_N; i++) {
		const struct fsop_side *x = &s->op[i];

		if (x->n == 0)
			continue;
		if (ops == NULL)
			ops = json_object();
		json_object_set_new(ops, fsop_name(i), json_pack("{s:I,s:f,"
		    "s:f,s:f}", "count", (json_int_t)x->n, "rate",
		    (double)x->n / secs, "resp_ms", (double)x->resp_sum_ns /
		    (double)x->n / 1e6, "resp_max_ms", (double)x->resp_max_ns /
		    1e6));
	}
	for (i = 0; i < FSM_N; i++) {
		if (s->misc[i] == 0)
			continue;
		if (misc == NULL)
			misc = json_object();
		json_object_set_new(misc, fsmisc_name(i),
		    json_integer((json_int_t)s->misc[i]));
	}
	if (s->req_n > 0)
		json_object_set_new(o, "requested_ops", json_pack("{s:I,s:f,"
		    "s:f}", "count", (json_int_t)s->req_n, "rate",
		    (double)s->req_n / secs, "resp_ms",
		    (double)s->req_resp_ns / (double)s->req_n / 1e6));
	if (ops != NULL)
		json_object_set_new(o, "operations", ops);
	if (misc != NULL)
		json_object_set_new(o, "misc", misc);
}

/* Counters, rates and percentiles of an interval or an average. */
static json_t *
stats(const struct iostats *s, uint64_t dur_ns, const struct cpu_pct *cpu,
    struct hist *const h[2])
{
	struct hist *all = hist_new();
	struct derived d;
	json_t *o;
	int i;

	report_derive(&d, s, dur_ns);
	for (i = 0; i < 2; i++) {
		if (h[i] != NULL)
			hist_merge(all, h[i]);
	}
	o = json_pack("{s:f,s:f,s:f,s:I,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:I,s:I,"
	    "s:I,s:I,s:I,s:{s:o,s:o,s:o}}",
	    "duration_s", (double)dur_ns / 1e9, "rate", d.rate,
	    "mb_per_s", d.mbs, "bytes_per_io", (json_int_t)d.bytes_io,
	    "read_pct", d.readpct, "resp_ms", d.resp, "read_resp_ms", d.rresp,
	    "write_resp_ms", d.wresp, "resp_max_ms", d.max,
	    "resp_stddev_ms", d.stddev, "queue_depth", d.qdepth,
	    "reads", (json_int_t)s->side[0].ios,
	    "writes", (json_int_t)s->side[1].ios,
	    "read_bytes", (json_int_t)s->side[0].bytes,
	    "write_bytes", (json_int_t)s->side[1].bytes,
	    "errors", (json_int_t)(s->side[0].errors + s->side[1].errors),
	    "percentiles_ms", "all", percentiles(all), "read",
	    percentiles(h[0]), "write", percentiles(h[1]));
	if (cpu != NULL && cpu->valid) {
		json_object_set_new(o, "cpu_sys_user_pct",
		    json_real(cpu->user_sys));
		json_object_set_new(o, "cpu_sys_pct", json_real(cpu->sys));
	}
	fs_stats(o, s, dur_ns);
	hist_free(all);
	return (o);
}

/* An ISO 8601 local time stamp. */
static json_t *
now_iso(void)
{
	char buf[40];
	time_t t = time(NULL);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S%z", &tm);
	return (json_string(buf));
}

/* A new record. */
struct results *
results_new(const char *outdir, uint64_t seed, int nfiles,
    char *const files[])
{
	struct results *r = xcalloc(1, sizeof(*r));
	json_t *pf = json_array();
	int i;

	for (i = 0; i < nfiles; i++)
		json_array_append_new(pf, json_string(files[i]));
	xasprintf(&r->path, "%s/results.json", outdir);
	/* no room for the spool: the intervals stay in memory */
	r->spool = tmpfile();
	r->root = json_pack("{s:s,s:i,s:s,s:o,s:s,s:I,s:o,s:[],s:[]}",
	    "schema", "vdbc-results", "schema_version",
	    RESULTS_SCHEMA_VERSION, "vdbc_version", VDBC_VERSION,
	    "started", now_iso(), "output_directory", outdir,
	    "seed", (json_int_t)(seed & 0x7fffffffffffffffull),
	    "parmfiles", pf, "hosts", "runs");
	return (r);
}

void
results_args(struct results *r, int nargs, char *const args[],
    const struct subvars *sv)
{
	json_t *a = json_array(), *s = json_object();
	int i;

	for (i = 0; i < nargs; i++)
		json_array_append_new(a, json_string(args[i]));
	for (i = 0; sv != NULL && i < sv->n; i++)
		json_object_set_new(s, sv->v[i].name,
		    json_string(sv->v[i].value));
	json_object_set_new(r->root, "arguments", a);
	json_object_set_new(r->root, "substitutions", s);
}

/* Free the record. NULL is fine. */
void
results_free(struct results *r)
{
	if (r == NULL)
		return;
	json_decref(r->root);
	if (r->spool != NULL)
		fclose(r->spool);
	free(r->spans);
	free(r->path);
	free(r);
}

/* One host of the execution: its label, system=, how its slaves start
 * and their names. */
void
results_host(struct results *r, const char *name, const char *system,
    const char *how, const char *const slaves[], int nslaves)
{
	json_t *sl = json_array();
	int i;

	for (i = 0; i < nslaves; i++)
		json_array_append_new(sl, json_string(slaves[i]));
	json_array_append_new(json_object_get(r->root, "hosts"),
	    json_pack("{s:s,s:s,s:s,s:o}", "name", name, "system", system,
	    "start", how, "slaves", sl));
}

/* A run starts. */
void
results_run(struct results *r, const char *name, const char *rd,
    const char *loops, const char *rate_text, double requested_rate,
    uint64_t elapsed_s, uint64_t interval_s, uint64_t warmup_s)
{
	r->run = json_pack("{s:s,s:s,s:s,s:s,s:f,s:I,s:I,s:I,s:o,s:[],"
	    "s:s}", "name", name, "rd", rd, "for_loops", loops,
	    "rate_text", rate_text, "requested_rate", requested_rate,
	    "elapsed_s", (json_int_t)elapsed_s,
	    "interval_s", (json_int_t)interval_s,
	    "warmup_s", (json_int_t)warmup_s, "started", now_iso(),
	    "intervals", "status", "running");
	json_array_append_new(json_object_get(r->root, "runs"), r->run);
	r->spans = xreallocarray(r->spans, (size_t)r->nspans + 1,
	    sizeof(*r->spans));
	memset(&r->spans[r->nspans++], 0, sizeof(*r->spans));
	if (r->spool != NULL && fseek(r->spool, 0, SEEK_END) == 0)
		r->spans[r->nspans - 1].start = r->spans[r->nspans - 1].end =
		    ftell(r->spool);
}

/*
 * An interval to the current run: a line of the spool (its span grows),
 * or, without a spool or once it failed, into the record itself.
 */
static void
spool_add(struct results *r, json_t *o)
{
	struct rspan *sp = &r->spans[r->nspans - 1];
	char *text;

	if (r->spool != NULL && !r->filled && (text = json_dumps(o,
	    RESULTS_DUMP)) != NULL) {
		int bad = fseek(r->spool, sp->end, SEEK_SET) != 0 ||
		    fprintf(r->spool, "%zu\n", strlen(text)) < 0 ||
		    fputs(text, r->spool) == EOF;

		free(text);
		if (!bad) {
			sp->end = ftell(r->spool);
			sp->n++;
			json_decref(o);
			return;
		}
		/* the spool's disk is full: the rest stays in memory,
		 * the spool's records are read back first */
		(void)results_runs(r);
	}
	json_array_append_new(json_object_get(r->run, "intervals"), o);
}

/* The next record of the spool (at its position) into *buf, its length
 * in *len; -1 at a damaged or short one. */
static int
spool_next(FILE *f, char **buf, size_t *cap, size_t *len)
{
	if (fscanf(f, "%zu", len) != 1 || getc(f) != '\n')
		return (-1);
	if (*len + 1 > *cap) {
		*cap = *len + 1;
		*buf = xreallocarray(*buf, *cap, 1);
	}
	if (fread(*buf, 1, *len, f) != *len)
		return (-1);
	(*buf)[*len] = '\0';
	return (0);
}

/* One interval of the current run. */
void
results_interval(struct results *r, unsigned int k, const struct iostats *s,
    uint64_t dur_ns, const struct cpu_pct *cpu, struct hist *const h[2],
    const char *lost)
{
	json_t *o;
	char tod[16];

	if (r->run == NULL)
		return;
	o = stats(s, dur_ns, cpu, h);
	json_object_set_new(o, "interval", json_integer(k));
	json_object_set_new(o, "tod", json_string(mtime_tod(mtime_wall_ns(),
	    tod)));
	if (lost != NULL && lost[0] != '\0') {
		json_t *a = json_array();
		char buf[600], *p, *save = NULL;

		snprintf(buf, sizeof(buf), "%s", lost);
		for (p = strtok_r(buf, ",", &save); p != NULL;
		    p = strtok_r(NULL, ",", &save))
			json_array_append_new(a, json_string(p));
		json_object_set_new(o, "lost_slaves", a);
	}
	spool_add(r, o);
	/* every whole interval on disk, so kill -9 of the master keeps
	 * them (status "running": vdbc index shows a run stopped early) */
	if (mtime_now_ns() >= r->next_ns) {
		uint64_t t0 = mtime_now_ns();

		results_write(r);
		r->next_ns = mtime_now_ns() + (mtime_now_ns() - t0) *
		    RESULTS_WRITE_SHARE;
	}
}

/* The average of the current run. */
void
results_average(struct results *r, const char *label,
    const struct iostats *s, uint64_t dur_ns, const struct cpu_pct *cpu,
    struct hist *const h[2])
{
	json_t *o;

	if (r->run == NULL)
		return;
	o = stats(s, dur_ns, cpu, h);
	json_object_set_new(o, "label", json_string(label));
	json_object_set_new(r->run, "average", o);
}

/* The average of one report key ("sds", "wds", "slaves", "hosts"). */
void
results_key_average(struct results *r, const char *kind, const char *name,
    const struct iostats *s, uint64_t dur_ns, struct hist *const h[2])
{
	json_t *group;

	if (r->run == NULL)
		return;
	if ((group = json_object_get(r->run, kind)) == NULL) {
		group = json_object();
		json_object_set_new(r->run, kind, group);
	}
	json_object_set_new(group, name, stats(s, dur_ns, NULL, h));
}

/* How the run ended. */
void
results_run_end(struct results *r, const char *status)
{
	if (r->run == NULL)
		return;
	json_object_set_new(r->run, "status", json_string(status));
	json_object_set_new(r->run, "ended", now_iso());
	results_write(r);
}

/* Each record of a run's span in the spool to f, as the elements of a
 * JSON array. */
static int
dump_span(struct results *r, FILE *f, const struct rspan *sp)
{
	char *text = NULL;
	size_t cap = 0, len;
	unsigned int k;
	int bad = 0;

	if (fseek(r->spool, sp->start, SEEK_SET) != 0)
		return (-1);
	bad |= fputs("[", f) == EOF;
	for (k = 0; k < sp->n && !bad; k++) {
		if (spool_next(r->spool, &text, &cap, &len) != 0) {
			bad = 1;
			break;
		}
		bad |= fputs(k > 0 ? ",\n" : "\n", f) == EOF ||
		    fwrite(text, 1, len, f) != len;
	}
	free(text);
	bad |= fputs(sp->n > 0 ? "\n]" : "]", f) == EOF;
	return (bad ? -1 : 0);
}

/* A key and its value, the first of an object or not. */
static int
dump_member(FILE *f, const char *key, int first)
{
	json_t *k = json_string(key);
	int bad;

	bad = fputs(first ? "\n" : ",\n", f) == EOF ||
	    json_dumpf(k, f, JSON_ENCODE_ANY) != 0 || fputs(": ", f) == EOF;
	json_decref(k);
	return (bad ? -1 : 0);
}

/* The record to f, the runs' intervals from the spool. */
static int
dump_spooled(struct results *r, FILE *f)
{
	const char *key, *rkey;
	json_t *v, *run, *rv;
	size_t i;
	int bad = fputs("{", f) == EOF, first = 1, rfirst;

	json_object_foreach(r->root, key, v) {
		bad |= dump_member(f, key, first) != 0;
		first = 0;
		if (strcmp(key, "runs") != 0 || !json_is_array(v)) {
			bad |= json_dumpf(v, f, RESULTS_DUMP) != 0;
			continue;
		}
		bad |= fputs("[", f) == EOF;
		json_array_foreach(v, i, run) {
			bad |= fputs(i > 0 ? ",\n{" : "\n{", f) == EOF;
			rfirst = 1;
			json_object_foreach(run, rkey, rv) {
				bad |= dump_member(f, rkey, rfirst) != 0;
				rfirst = 0;
				if (strcmp(rkey, "intervals") == 0 &&
				    i < (size_t)r->nspans)
					bad |= dump_span(r, f, &r->spans[i]);
				else
					bad |= json_dumpf(rv, f,
					    RESULTS_DUMP) != 0;
			}
			bad |= fputs("\n}", f) == EOF;
		}
		bad |= fputs(json_array_size(v) > 0 ? "\n]" : "]", f) == EOF;
	}
	bad |= fputs("\n}\n", f) == EOF;
	return (bad ? -1 : 0);
}

/* Write the whole record (atomically: temporary file, then rename). */
int
results_write(struct results *r)
{
	char tmp[4200];
	FILE *f;
	int bad;

	snprintf(tmp, sizeof(tmp), "%s.tmp", r->path);
	if ((f = ofile_fopen(tmp)) == NULL) {
		r->err = errno;
		r->err_tmp = 1;
		return (-1);
	}
	errno = 0;
	if (r->spool != NULL && !r->filled)
		bad = dump_spooled(r, f) != 0;
	else
		bad = json_dumpf(r->root, f, JSON_INDENT(1) |
		    JSON_REAL_PRECISION(10)) != 0;
	bad |= fflush(f) == EOF || ferror(f);
	if (bad) {
		int err = errno != 0 ? errno : EIO;

		fclose(f);
		unlink(tmp);
		r->err = err;
		r->err_tmp = 1;
		errno = err;
		return (-1);
	}
	if ((r->err_tmp = fclose(f) == EOF) || rename(tmp, r->path) != 0) {
		r->err = errno;
		unlink(tmp);
		errno = r->err;
		return (-1);
	}
	return (0);
}

int
results_check(const struct results *r, struct errmsg *e)
{
	if (r == NULL || r->err == 0)
		return (0);
	errmsg_set(e, NULL, 0, 0, "Cannot write %s%s: %s", r->path,
	    r->err_tmp ? ".tmp (written, then renamed over it)" : "",
	    strerror(r->err));
	return (-1);
}

/* The runs array, their intervals read back from the spool first. */
const json_t *
results_runs(struct results *r)
{
	json_t *runs = json_object_get(r->root, "runs"), *run;
	char *text = NULL;
	size_t cap = 0, len, i;

	if (r->spool == NULL || r->filled)
		return (runs);
	r->filled = 1;
	json_array_foreach(runs, i, run) {
		json_t *ivs = json_object_get(run, "intervals"), *o;
		unsigned int k;

		if (i >= (size_t)r->nspans || fseek(r->spool,
		    r->spans[i].start, SEEK_SET) != 0)
			continue;
		for (k = 0; k < r->spans[i].n; k++) {
			if (spool_next(r->spool, &text, &cap, &len) != 0)
				break;
			if ((o = json_loadb(text, len, 0, NULL)) != NULL)
				json_array_append_new(ivs, o);
		}
	}
	free(text);
	return (runs);
}

/* For fixed rates: the delay from each I/O's scheduled start. */
void
results_sched(struct results *r, const struct hist *h)
{
	json_t *avg;

	if (r->run == NULL || h == NULL || hist_count(h) == 0 ||
	    (avg = json_object_get(r->run, "average")) == NULL)
		return;
	json_object_set_new(avg, "schedule_delay_ms", percentiles(h));
}

/* The corrupted data blocks a run lists; the count goes on past it. */
#define RESULTS_DV_BLOCKS	1000

/* Add the integer field k of from to that of to. */
static void
add_int(json_t *to, const json_t *from, const char *k)
{
	json_t *v = json_object_get(from, k);

	if (!json_is_integer(v))
		return;
	json_object_set_new(to, k, json_integer(json_integer_value(
	    json_object_get(to, k)) + json_integer_value(v)));
}

void
results_dv(struct results *r, const char *slave, const char *rd,
    const json_t *dv)
{
	json_t *v, *blocks, *b;

	if (r == NULL || r->run == NULL)
		return;
	if ((v = json_object_get(r->run, "validation")) == NULL) {
		v = json_pack("{s:I,s:I,s:I,s:[]}", "key_blocks_validated",
		    (json_int_t)0, "key_blocks_in_error", (json_int_t)0,
		    "corrupted_data_blocks", (json_int_t)0, "data_blocks");
		json_object_set_new(r->run, "validation", v);
	}
	if (json_object_get(dv, "key_blocks_validated") != NULL) {
		/* a slave's totals at the end of the run */
		add_int(v, dv, "key_blocks_validated");
		add_int(v, dv, "key_blocks_in_error");
		return;
	}
	json_object_set_new(v, "corrupted_data_blocks", json_integer(
	    json_integer_value(json_object_get(v, "corrupted_data_blocks")) +
	    1));
	blocks = json_object_get(v, "data_blocks");
	if (json_array_size(blocks) >= RESULTS_DV_BLOCKS)
		return;
	b = json_deep_copy(dv);
	json_object_set_new(b, "slave", json_string(slave));
	json_object_set_new(b, "rd", json_string(rd));
	json_object_set_new(b, "run", json_object_get(r->run, "name") != NULL ?
	    json_copy(json_object_get(r->run, "name")) : json_string(""));
	json_array_append_new(blocks, b);
}
