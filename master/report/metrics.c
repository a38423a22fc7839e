/* SPDX-License-Identifier: MIT */
/* --metrics: the last interval as Prometheus text exposition. */
#include "metrics.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <event2/util.h>

#include "hist.h"
#include "httpd.h"
#include "iostats.h"
#include "xmalloc.h"

struct metrics {
	struct httpd	*http;		/* serves the last interval's page */
	char		 url[NI_MAXHOST + NI_MAXSERV + 32];
};

/* The quantiles served, from the merged log-linear histograms. */
static const double quants[] = { 0.5, 0.9, 0.95, 0.99, 0.999, 0.9999 };
#define NQ	(sizeof(quants) / sizeof(quants[0]))

/* One key's numbers of the interval. */
struct kval {
	const char	*level;
	const char	*name;
	double		 rate, mbs, readpct, resp_s, max_s, qdepth;
	double		 q[NQ];		/* seconds, or -1: no I/O */
};

/* Split spec into a host and a port; -1 when it is malformed. */
static int
parse_spec(const char *spec, char *host, size_t hlen, long *port)
{
	const char *colon, *p;
	char *end;

	if (spec[0] == '[') {
		const char *rb = strchr(spec, ']');

		if (rb == NULL || rb[1] != ':' || (size_t)(rb - spec) >= hlen)
			return (-1);
		snprintf(host, hlen, "%.*s", (int)(rb - spec - 1), spec + 1);
		p = rb + 2;
	} else if ((colon = strrchr(spec, ':')) != NULL) {
		if (strchr(spec, ':') != colon || (size_t)(colon - spec) >= hlen)
			return (-1);	/* a bare IPv6 address needs [] */
		snprintf(host, hlen, "%.*s", (int)(colon - spec), spec);
		p = colon + 1;
	} else {
		host[0] = '\0';
		p = spec;
	}
	if (host[0] == '\0')
		snprintf(host, hlen, "127.0.0.1");
	errno = 0;
	*port = strtol(p, &end, 10);
	if (*p == '\0' || *end != '\0' || errno != 0 || *port < 0 ||
	    *port > 65535)
		return (-1);
	return (0);
}

/* The page before the first interval, and the head of every page. */
static void
page_head(FILE *f)
{
	fprintf(f, "# HELP vdbc_info vdbc's version; always 1.\n"
	    "# TYPE vdbc_info gauge\nvdbc_info{version=\"%s\"} 1\n",
	    VDBC_VERSION);
}

static void
set_page(struct metrics *mt, char *page, size_t len)
{
	httpd_set_page(mt->http, page, len);
}

struct metrics *
metrics_new(struct event_base *base, const char *spec, struct errmsg *e)
{
	struct addrinfo hints, *ai = NULL;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct metrics *mt;
	char host[256], ps[16], hb[NI_MAXHOST], pb[NI_MAXSERV], *page;
	long port;
	int one = 1, rc, fd;
	size_t len;
	FILE *f;

	if (parse_spec(spec, host, sizeof(host), &port) != 0) {
		errmsg_set(e, NULL, 0, 0, "Invalid value for '--metrics': "
		    "'%s' (expected PORT, ADDR:PORT or [IPv6]:PORT, port 0 "
		    "to 65535)", spec);
		return (NULL);
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	snprintf(ps, sizeof(ps), "%ld", port);
	if ((rc = getaddrinfo(host, ps, &hints, &ai)) != 0) {
		errmsg_set(e, NULL, 0, 0, "Cannot serve --metrics on %s: "
		    "address '%s': %s", spec, host, gai_strerror(rc));
		if (ai != NULL)
			freeaddrinfo(ai);
		return (NULL);
	}
	mt = xcalloc(1, sizeof(*mt));
	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one,
	    sizeof(one)) != 0 || bind(fd, ai->ai_addr,
	    ai->ai_addrlen) != 0 || listen(fd, 16) != 0 ||
	    evutil_make_socket_nonblocking(fd) != 0 ||
	    getsockname(fd, (struct sockaddr *)&ss, &sl) != 0 ||
	    getnameinfo((struct sockaddr *)&ss, sl, hb, sizeof(hb), pb,
	    sizeof(pb), NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
		errmsg_set(e, NULL, 0, 0, "Cannot serve --metrics on %s%s%s:%ld: "
		    "%s", strchr(host, ':') ? "[" : "", host, strchr(host, ':') ?
		    "]" : "", port, strerror(errno));
		freeaddrinfo(ai);
		if (fd >= 0)
			close(fd);
		free(mt);
		return (NULL);
	}
	freeaddrinfo(ai);
	snprintf(mt->url, sizeof(mt->url), "http://%s%s%s:%s/metrics",
	    ss.ss_family == AF_INET6 ? "[" : "", hb,
	    ss.ss_family == AF_INET6 ? "]" : "", pb);
	if ((mt->http = httpd_new(base, fd, "/metrics", "text/plain; "
	    "version=0.0.4; charset=utf-8")) == NULL) {
		errmsg_set(e, NULL, 0, 0, "Cannot serve --metrics on %s: out "
		    "of memory", spec);
		free(mt);
		return (NULL);
	}
	if ((f = open_memstream(&page, &len)) != NULL) {
		page_head(f);
		fclose(f);
		set_page(mt, page, len);
	}
	return (mt);
}

void
metrics_free(struct metrics *mt)
{
	if (mt == NULL)
		return;
	httpd_free(mt->http);	/* closes the bound socket */
	free(mt);
}

const char *
metrics_url(const struct metrics *mt)
{
	return (mt->url);
}

/* A label value with \, " and newline escaped. */
static void
label_value(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s != '\0'; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '"')
			fputs("\\\"", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* A label name: [a-zA-Z_][a-zA-Z0-9_]*, other characters become _. */
static void
label_name(FILE *f, const char *s, size_t n)
{
	size_t i;

	if (n == 0 || (s[0] >= '0' && s[0] <= '9'))
		fputc('_', f);
	for (i = 0; i < n; i++) {
		char c = s[i];

		fputc((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '_' ? c : '_', f);
	}
}

/* The labels of the run: run, rd and one per for-loop ("threads"). */
static void
run_labels(FILE *f, const char *run, const char *rd, const char *loops)
{
	const char *p = loops;

	fputs("run=", f);
	label_value(f, run);
	fputs(",rd=", f);
	label_value(f, rd);
	if (strcmp(loops, "None") == 0)
		return;
	while (*p != '\0') {
		const char *sp = strchr(p, ' ');
		size_t n = sp != NULL ? (size_t)(sp - p) : strlen(p);
		const char *eq = memchr(p, '=', n);

		if (eq != NULL) {
			char v[256];

			fputc(',', f);
			label_name(f, p, (size_t)(eq - p));
			fputc('=', f);
			snprintf(v, sizeof(v), "%.*s", (int)(n - (size_t)(eq -
			    p) - 1), eq + 1);
			label_value(f, v);
		}
		p += n;
		while (*p == ' ')
			p++;
	}
}

/* A key's numbers; fs: the requested operations are the I/O. */
static void
key_values(struct kval *v, const struct kacc *k, uint64_t dur_ns, int fs)
{
	struct hist *all = hist_new();
	double secs = dur_ns > 0 ? (double)dur_ns / 1e9 : 1;
	struct derived d;
	size_t i;

	report_derive(&d, &k->st, dur_ns);
	v->rate = d.rate;
	v->mbs = d.mbs;
	v->readpct = d.readpct;
	v->resp_s = d.resp / 1e3;
	v->max_s = d.max / 1e3;
	v->qdepth = d.qdepth;
	if (fs) {
		v->rate = (double)k->st.req_n / secs;
		v->resp_s = k->st.req_n > 0 ? (double)k->st.req_resp_ns /
		    (double)k->st.req_n / 1e9 : 0;
	}
	for (i = 0; i < 2; i++) {
		if (k->h[i] != NULL)
			hist_merge(all, k->h[i]);
	}
	for (i = 0; i < NQ; i++)
		v->q[i] = hist_count(all) > 0 ? (double)hist_percentile_ns(all,
		    quants[i] * 100) / 1e9 : -1;
	hist_free(all);
}

/* One family: HELP, TYPE and a sample per key (field at off). */
static void
family(FILE *f, const char *name, const char *help, const struct kval *v,
    int n, size_t off, const char *run, const char *rd, const char *loops)
{
	int i;

	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
	for (i = 0; i < n; i++) {
		fprintf(f, "%s{", name);
		run_labels(f, run, rd, loops);
		fputs(",level=", f);
		label_value(f, v[i].level);
		fputs(",name=", f);
		label_value(f, v[i].name);
		fprintf(f, "} %.10g\n", *(const double *)(const void *)
		    ((const char *)&v[i] + off));
	}
}

void
metrics_interval(struct metrics *mt, const struct report *rep,
    const char *run, const char *rd, const char *loops, unsigned int k,
    const struct iacc *a, uint64_t dur_ns, const struct cpu_pct *cpu, int fs)
{
	struct kval *v;
	char *page;
	size_t len, q;
	FILE *f;
	int i, n = 0;

	if (mt == NULL || (f = open_memstream(&page, &len)) == NULL)
		return;
	v = xcalloc((size_t)a->nkeys + 1, sizeof(*v));
	for (i = 0; i < a->nkeys; i++) {
		enum rkey_kind kind = report_key_kind(rep, i);
		const char *level = kind == RKEY_TOTAL ? "total" :
		    kind == RKEY_HOST ? "host" : kind == RKEY_SD ||
		    kind == RKEY_SDQUIET ? "sd" : kind == RKEY_FSD ? "fsd" :
		    NULL;

		if (level == NULL)
			continue;
		v[n].level = level;
		v[n].name = report_key_name(rep, i);
		key_values(&v[n++], &a->keys[i], dur_ns, fs);
	}
	page_head(f);
	fputs("# HELP vdbc_interval The interval these numbers are of (as "
	    "in flatfile.html's Interval column).\n# TYPE vdbc_interval "
	    "gauge\nvdbc_interval{", f);
	run_labels(f, run, rd, loops);
	fprintf(f, "} %u\n", k);
	fputs("# HELP vdbc_interval_duration_seconds How long the interval "
	    "took.\n# TYPE vdbc_interval_duration_seconds gauge\n"
	    "vdbc_interval_duration_seconds{", f);
	run_labels(f, run, rd, loops);
	fprintf(f, "} %.10g\n", (double)dur_ns / 1e9);
	family(f, "vdbc_io_rate", "I/O operations per second in the last "
	    "interval (file systems: the requested operations).", v, n,
	    offsetof(struct kval, rate), run, rd, loops);
	family(f, "vdbc_mb_per_second", "MB/sec (1024**2) in the last "
	    "interval.", v, n, offsetof(struct kval, mbs), run, rd, loops);
	family(f, "vdbc_read_percent", "Reads in percent of all I/O in the "
	    "last interval.", v, n, offsetof(struct kval, readpct), run, rd,
	    loops);
	family(f, "vdbc_response_time_seconds", "Mean response time in the "
	    "last interval.", v, n, offsetof(struct kval, resp_s), run, rd,
	    loops);
	family(f, "vdbc_response_time_max_seconds", "Longest response time "
	    "in the last interval.", v, n, offsetof(struct kval, max_s), run,
	    rd, loops);
	family(f, "vdbc_queue_depth", "Mean number of I/Os in flight in the "
	    "last interval.", v, n, offsetof(struct kval, qdepth), run, rd,
	    loops);
	fputs("# HELP vdbc_response_time_quantile_seconds Response time "
	    "percentiles of the last interval (log-linear histograms, under "
	    "1% error).\n# TYPE vdbc_response_time_quantile_seconds gauge\n",
	    f);
	for (i = 0; i < n; i++) {
		for (q = 0; q < NQ; q++) {
			if (v[i].q[q] < 0)
				continue;
			fputs("vdbc_response_time_quantile_seconds{", f);
			run_labels(f, run, rd, loops);
			fputs(",level=", f);
			label_value(f, v[i].level);
			fputs(",name=", f);
			label_value(f, v[i].name);
			fprintf(f, ",quantile=\"%g\"} %.10g\n", quants[q],
			    v[i].q[q]);
		}
	}
	if (cpu != NULL && cpu->valid) {
		fputs("# HELP vdbc_cpu_used_percent Processor use, user+sys, "
		    "of the hosts in the last interval.\n# TYPE "
		    "vdbc_cpu_used_percent gauge\nvdbc_cpu_used_percent{", f);
		run_labels(f, run, rd, loops);
		fprintf(f, ",level=\"total\",name=\"total\"} %.10g\n",
		    cpu->user_sys);
		fputs("# HELP vdbc_cpu_sys_percent Processor use, sys, of the "
		    "hosts in the last interval.\n# TYPE vdbc_cpu_sys_percent "
		    "gauge\nvdbc_cpu_sys_percent{", f);
		run_labels(f, run, rd, loops);
		fprintf(f, ",level=\"total\",name=\"total\"} %.10g\n",
		    cpu->sys);
	}
	free(v);
	if (fclose(f) == 0)
		set_page(mt, page, len);
	else
		free(page);
}
