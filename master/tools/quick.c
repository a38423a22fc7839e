/* SPDX-License-Identifier: MIT */
/*
 * vdbc quick (quick.h): the standard matrix as a parmfile, and its answer
 * as a compact table and a page.
 */
#include "quick.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <linux/fs.h>

#include "charts.h"
#include "html.h"
#include "ofile.h"
#include "runtable.h"
#include "safety.h"
#include "units.h"
#include "xmalloc.h"

#define QUICK_TIME_S	4		/* each run's elapsed= */
#define QUICK_SIZE	(1ull << 30)	/* a new file's size */
#define QUICK_MIN_SIZE	(16ull << 20)	/* 8 threads of 1 MiB, twice */
#define QUICK_FILE	"vdbc_quick.dat"	/* in a directory TARGET */

/*
 * The matrix: the lines of parmfiles/quick-matrix.parm after its sd,
 * $time included (e2e 40 checks they stay the same); $time is written as
 * each run's elapsed=.
 */
static const char *const matrix[] = {
	"wd=seqr,sd=sd1,xfersize=1m,rdpct=100,seekpct=0",
	"wd=seqw,sd=sd1,xfersize=1m,rdpct=0,seekpct=0",
	"wd=rndr,sd=sd1,xfersize=4k,rdpct=100,seekpct=100",
	"wd=rndw,sd=sd1,xfersize=4k,rdpct=0,seekpct=100",
	"wd=mixseq,sd=sd1,xfersize=64k,seekpct=0",
	"wd=mixrnd,sd=sd1,xfersize=4k,seekpct=100",
	"wd=sweep,sd=sd1,rdpct=70,seekpct=100",
	"rd=default,iorate=max,elapsed=$time,interval=1",
	"rd=seq_read_1m_q8,wd=seqr,threads=8",
	"rd=seq_write_1m_q8,wd=seqw,threads=8",
	"rd=rnd_read_4k_q32,wd=rndr,threads=32",
	"rd=rnd_write_4k_q32,wd=rndw,threads=32",
	"rd=rnd_read_4k_q1,wd=rndr,threads=1",
	"rd=rnd_write_4k_q1,wd=rndw,threads=1",
	"rd=mix_seq,wd=mixseq,threads=8,forrdpct=(0,25,50,75,100)",
	"rd=mix_rnd,wd=mixrnd,threads=32,forrdpct=(0,25,50,75,100)",
	"rd=xfer_sweep,wd=sweep,threads=8,forxfersize=(4k,8k,16k,32k,64k,"
	    "128k,256k,512k,1m)",
};
#define QUICK_RUNS	25	/* the rds above, their for-loops counted */

/* The usage, after why (NULL: asked for, on stdout). */
static int
usage(const char *why)
{
	FILE *f = why != NULL ? stderr : stdout;

	if (why != NULL)
		fprintf(f, "vdbc quick: %s\n", why);
	fprintf(f, "usage: vdbc quick TARGET [--size S] [--time T] [-o DIR] "
	    "[--seed N] [--overwrite] [-s]\n  TARGET: a file (made when "
	    "missing; in a directory, %s) or a block device\n  S: the "
	    "file's size (default %s, or the file's own; a device: all of "
	    "it)\n  T: seconds per run, at least 2 (default %u: %u runs, "
	    "about two minutes)\n  DIR: the report directory (default "
	    "'quick'), with quick.html and quick.parm\n  --overwrite: an "
	    "existing file holding data may be written over\n  -s: write "
	    "quick.parm and simulate it, as vdbench -s (no I/O)\n",
	    QUICK_FILE, "1g", QUICK_TIME_S, QUICK_RUNS);
	return (2);
}

/* The value of option argv[*i] ("--x V" or "--x=V"), or NULL. */
static const char *
optval(int argc, char *argv[], int *i, const char *name)
{
	size_t n = strlen(name);

	if (strcmp(argv[*i], name) == 0 && *i + 1 < argc)
		return (argv[++*i]);
	if (strncmp(argv[*i], name, n) == 0 && argv[*i][n] == '=')
		return (argv[*i] + n + 1);
	return (NULL);
}

int
quick_args(int argc, char *argv[], struct quick *q)
{
	const char *v;
	double d;
	int i;

	memset(q, 0, sizeof(*q));
	q->time_s = QUICK_TIME_S;
	q->outdir = "quick";
	for (i = 2; i < argc; i++) {
		if ((v = optval(argc, argv, &i, "--size")) != NULL) {
			if (units_parse(v, UNITS_SIZE, &d) != 0 || d < 0 ||
			    d < (double)QUICK_MIN_SIZE || d > 1e18) {
				fprintf(stderr, "vdbc quick: invalid value for "
				    "'--size': '%s' (expected a size of at "
				    "least 16m, such as 4g)\n", v);
				return (2);
			}
			q->size = (uint64_t)d;
		} else if ((v = optval(argc, argv, &i, "--time")) != NULL) {
			if (units_parse(v, UNITS_TIME, &d) != 0 || d < 2 ||
			    d > 86400 || d != floor(d)) {
				fprintf(stderr, "vdbc quick: invalid value for "
				    "'--time': '%s' (expected whole seconds, 2 "
				    "or more: each run's elapsed= with "
				    "interval=1)\n", v);
				return (2);
			}
			q->time_s = (unsigned int)d;
		} else if ((v = optval(argc, argv, &i, "-o")) != NULL)
			q->outdir = v;
		else if ((v = optval(argc, argv, &i, "--seed")) != NULL)
			q->seed = v;
		else if (strcmp(argv[i], "-s") == 0)
			q->simulate = 1;
		else if (strcmp(argv[i], "--overwrite") == 0)
			q->overwrite = 1;
		else if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0) {
			usage(NULL);
			return (-1);
		}
		else if (strcmp(argv[i], "--hosts") == 0 ||
		    strncmp(argv[i], "--hosts=", 8) == 0)
			return (usage("--hosts is not built yet: add hd= lines "
			    "to the quick.parm a local run writes and run it "
			    "with -f"));
		else if (argv[i][0] == '-')
			return (usage("unknown option"));
		else if (q->target == NULL)
			q->target = argv[i];
		else
			return (usage("one TARGET only"));
	}
	if (q->target == NULL || q->target[0] == '\0')
		return (usage("a TARGET is needed"));
	return (0);
}

/* Does the file system of file path take O_DIRECT? */
static int
file_takes_direct(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);

	if (fd >= 0)
		close(fd);
	return (fd >= 0);
}

/* Does the file system of directory dir take O_DIRECT (a probe file)? */
static int
dir_takes_direct(const char *dir)
{
	char *probe;
	int fd, ok;

	xasprintf(&probe, "%s/.vdbc_quick_XXXXXX", dir);
	if ((fd = mkstemp(probe)) < 0) {
		free(probe);
		return (0);
	}
	close(fd);
	fd = open(probe, O_RDWR | O_DIRECT | O_CLOEXEC);
	ok = fd >= 0;
	if (fd >= 0)
		close(fd);
	unlink(probe);
	free(probe);
	return (ok);
}

/* The directory part of path ("." for a bare name). */
static char *
dir_of(const char *path)
{
	const char *s = strrchr(path, '/');

	if (s == NULL)
		return (xstrdup("."));
	if (s == path)
		return (xstrdup("/"));
	return (xstrndup(path, (size_t)(s - path)));
}

/* path made absolute on its directory (the parmfile is run from
 * anywhere): the directory resolved, the name kept; NULL when the
 * directory does not resolve. */
static char *
absolute(const char *path)
{
	const char *base = strrchr(path, '/');
	char *dir, *real, *out;

	if (path[0] == '/')
		return (xstrdup(path));
	dir = dir_of(path);
	real = realpath(dir, NULL);
	free(dir);
	if (real == NULL)
		return (NULL);
	xasprintf(&out, "%s%s%s", real, strcmp(real, "/") == 0 ? "" : "/",
	    base == NULL ? path : base + 1);
	free(real);
	return (out);
}

/* Room for size bytes at path (have of them there already): 0, or -1
 * with e set. */
static int
room(const char *path, uint64_t size, uint64_t have, struct errmsg *e)
{
	char *dir = dir_of(path);
	struct statvfs sv;
	uint64_t avail;
	char a[32], b[32];

	if (statvfs(dir, &sv) != 0 || size <= have) {
		free(dir);
		return (0);
	}
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (size - have > avail) {
		units_whatsize((double)size, a, sizeof(a));
		units_whatsize((double)avail, b, sizeof(b));
		errmsg_set(e, NULL, 0, 0, "'%s' needs %s and its file system "
		    "(%s) has %s free: give a smaller --size", path, a, dir, b);
		free(dir);
		return (-1);
	}
	free(dir);
	return (0);
}

/* Decide the lun, its size and O_DIRECT: 0, or -1 with e set. */
static int
look(struct quick *q, struct errmsg *e)
{
	struct stat st;
	char *dir, *t;

	if (stat(q->target, &st) == 0 && S_ISDIR(st.st_mode)) {
		xasprintf(&t, "%s%s%s", q->target, q->target[strlen(
		    q->target) - 1] == '/' ? "" : "/", QUICK_FILE);
	} else
		t = xstrdup(q->target);
	q->lun = absolute(t);
	if (q->lun == NULL) {
		dir = dir_of(t);
		errmsg_set(e, NULL, 0, 0, "'%s': no directory '%s' to make it "
		    "in", t, dir);
		free(dir);
		free(t);
		return (-1);
	}
	free(t);
	if (strpbrk(q->lun, "\"\n") != NULL) {
		errmsg_set(e, NULL, 0, 0, "'%s': a path with a double quote or "
		    "a new line cannot be written into a parmfile", q->lun);
		return (-1);
	}
	if (stat(q->lun, &st) == 0) {
		char why[600];

		if (S_ISBLK(st.st_mode)) {
			q->device = 1;
			q->direct = 1;	/* vdbench refuses raw I/O without */
			/* the slaves' own checks, before the first run
			 * rather than at the first write (run 2) */
			if (!q->simulate && safety_check_write(q->lun, 0, 0,
			    why, sizeof(why)) != SAFETY_OK) {
				errmsg_set(e, NULL, 0, 0, "'%s' is not "
				    "written: %s. quick writes only a device "
				    "that holds nothing; to write this one "
				    "anyway, run 'vdbc quick %s -s', add "
				    "overwrite_data=yes (and, mounted, "
				    "allow_mounted_write=yes) to the sd of its "
				    "quick.parm and run that with vdbc -f",
				    q->lun, why, q->lun);
				return (-1);
			}
			return (0);
		}
		if (!S_ISREG(st.st_mode)) {
			errmsg_set(e, NULL, 0, 0, "'%s' is neither a file nor "
			    "a block device", q->lun);
			return (-1);
		}
		/* an existing file's data is written over: said first
		 * (not of quick's own vdbc_quick.dat) */
		if (st.st_size > 0 && !q->overwrite && !q->simulate &&
		    strcmp(strrchr(q->lun, '/') + 1, QUICK_FILE) != 0) {
			errmsg_set(e, NULL, 0, 0, "'%s' exists and holds %lld "
			    "bytes, which the runs would write over: give "
			    "--overwrite to let them, or a new file or a "
			    "directory", q->lun, (long long)st.st_size);
			return (-1);
		}
		if (q->size == 0)
			q->size = (uint64_t)st.st_size >= QUICK_MIN_SIZE ?
			    (uint64_t)st.st_size : QUICK_SIZE;
		q->direct = file_takes_direct(q->lun);
		return (q->simulate ? 0 : room(q->lun, q->size,
		    (uint64_t)st.st_size, e));
	}
	if (errno != ENOENT) {
		errmsg_set(e, NULL, 0, 0, "'%s': %s", q->lun, strerror(errno));
		return (-1);
	}
	dir = dir_of(q->lun);
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		errmsg_set(e, NULL, 0, 0, "'%s': no directory '%s' to make it "
		    "in", q->lun, dir);
		free(dir);
		return (-1);
	}
	if (q->size == 0)
		q->size = QUICK_SIZE;
	q->direct = dir_takes_direct(dir);
	free(dir);
	return (q->simulate ? 0 : room(q->lun, q->size, 0, e));
}

/* A size as a parmfile writes it: 4g, 512m, 64k or bytes. */
static void
size_text(char *buf, size_t len, uint64_t v)
{
	static const char sfx[] = "tgmk";
	int i;

	for (i = 0; i < 4; i++) {
		uint64_t u = 1ull << (10 * (4 - i));

		if (v >= u && v % u == 0) {
			snprintf(buf, len, "%llu%c", (unsigned long long)(v / u),
			    sfx[i]);
			return;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)v);
}

/* What the header says of the target. */
static void
target_text(const struct quick *q, char *buf, size_t len)
{
	char sz[32];
	uint64_t dev = 0;
	int fd;

	if (q->device) {
		if (q->size == 0 && (fd = open(q->lun, O_RDONLY |
		    O_CLOEXEC)) >= 0) {
			if (ioctl(fd, BLKGETSIZE64, &dev) != 0)
				dev = 0;
			close(fd);
		}
		size_text(sz, sizeof(sz), q->size != 0 ? q->size : dev);
		snprintf(buf, len, "%s, a block device, %s%s, O_DIRECT",
		    q->lun, q->size != 0 || dev != 0 ? sz : "all",
		    q->size != 0 ? " of it" : "");
		return;
	}
	size_text(sz, sizeof(sz), q->size);
	snprintf(buf, len, "%s, a %s file, %s", q->lun, sz, q->direct ?
	    "O_DIRECT" : "through the page cache (its file system does not "
	    "take O_DIRECT: the figures are the cache's, not the device's)");
}

int
quick_setup(struct quick *q, const char *outdir, struct errmsg *e)
{
	char sz[32], what[768];
	FILE *f;
	size_t i;

	if (look(q, e) != 0 || runtable_mkdirs(outdir, e) != 0)
		return (-1);
	xasprintf(&q->parm, "%s/quick.parm", outdir);
	if ((f = ofile_fopen(q->parm)) == NULL) {
		errmsg_set(e, NULL, 0, 0, "cannot write %s: %s", q->parm,
		    strerror(errno));
		return (-1);
	}
	target_text(q, what, sizeof(what));
	fprintf(f, "* vdbc quick %s: the standard matrix (%u runs of %u s)."
	    "\n* It runs unchanged under vdbench: vdbench -f quick.parm\n",
	    what, QUICK_RUNS, q->time_s);
	size_text(sz, sizeof(sz), q->size);
	fprintf(f, "sd=sd1,lun=%s%s%s%s%s%s\n", strpbrk(q->lun, " ,=()*")
	    != NULL ? "\"" : "", q->lun, strpbrk(q->lun, " ,=()*") != NULL ?
	    "\"" : "", q->size != 0 ? ",size=" : "", q->size != 0 ? sz : "",
	    q->direct ? ",openflags=o_direct" : "");
	for (i = 0; i < sizeof(matrix) / sizeof(matrix[0]); i++) {
		const char *t = strstr(matrix[i], "$time");

		if (t != NULL)
			fprintf(f, "%.*s%u%s\n", (int)(t - matrix[i]),
			    matrix[i], q->time_s, t + 5);
		else
			fprintf(f, "%s\n", matrix[i]);
	}
	if (runtable_fclose(f, q->parm, e) != 0)
		return (-1);
	printf("vdbc quick: %s; %u runs of %u s, about %u s in all\n", what,
	    QUICK_RUNS, q->time_s, QUICK_RUNS * (q->time_s + 1));
	return (0);
}

/* A figure for the table: "n/a" when the run has none. */
static const char *
fig(char *buf, size_t len, double v, int decimals)
{
	if (isnan(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.*f", decimals, v);
	return (buf);
}

/* The for-loop text of a run without its threads= (the queue column),
 * "" for none. */
static const char *
loops(const struct rt_run *r)
{
	const char *s = r->for_loops;

	if (strcmp(s, "None") == 0)
		return ("");
	if (strncmp(s, "threads=", 8) == 0) {
		s += 8 + strcspn(s + 8, " ");
		s += strspn(s, " ");
	}
	return (s);
}

/* The queue depth of a run (its threads=), "" when it has none. */
static const char *
queue(const struct rt_run *r, char *buf, size_t len)
{
	const char *s = r->for_loops;

	buf[0] = '\0';
	if (strncmp(s, "threads=", 8) == 0)
		snprintf(buf, len, "%.*s", (int)strcspn(s + 8, " "), s + 8);
	return (buf);
}

static void
print_table(const struct rt_dir *d)
{
	char a[32], b[32], c[32], x[32], qd[16];
	int i;

	printf("\n%-18s %5s %-14s %10s %10s %9s %9s\n", "run", "queue",
	    "for-loop", "MB/s", "IOPS", "p50 ms", "p99 ms");
	for (i = 0; i < d->n; i++) {
		const struct rt_run *r = &d->runs[i];

		if (runtable_is_format(r))
			continue;
		printf("%-18s %5s %-14s %10s %10s %9s %9s%s%s\n", r->name,
		    queue(r, qd, sizeof(qd)), loops(r), fig(a, sizeof(a),
		    r->mbps, 2), fig(b, sizeof(b),
		    r->rate, 0), fig(c, sizeof(c), r->p50, 3), fig(x,
		    sizeof(x), r->p99, 3), strcmp(r->status, "completed") ==
		    0 ? "" : "  ", strcmp(r->status, "completed") == 0 ? "" :
		    r->status);
	}
	printf("(MB/s in MiB, as vdbench's MB/sec; p50 and p99 over reads "
	    "and writes)\n");
}

/* The run named name with for-loop text lp ("" for none), or NULL. */
static const struct rt_run *
find(const struct rt_dir *d, const char *name, const char *lp)
{
	int i;

	for (i = 0; i < d->n; i++)
		if (strcmp(d->runs[i].name, name) == 0 &&
		    strcmp(loops(&d->runs[i]), lp) == 0)
			return (&d->runs[i]);
	return (NULL);
}

/* One cell: MB/s over IOPS, or n/a. */
static void
cell(FILE *f, const struct rt_run *r)
{
	char a[32], b[32];

	if (r == NULL) {
		fputs("<td class=v>n/a</td>", f);
		return;
	}
	fprintf(f, "<td class=v>%s<br><small>%s IOPS</small></td>",
	    fig(a, sizeof(a), r->mbps, 1), fig(b, sizeof(b), r->rate, 0));
}

/* The read % x sequential/random matrix and the transfer-size sweep. */
static void
html_matrix(FILE *f, const struct rt_dir *d)
{
	static const char *const pct[] = { "0", "25", "50", "75", "100" };
	static const char *const xs[] = { "4k", "8k", "16k", "32k", "64k",
	    "128k", "256k", "512k", "1m" };
	char lp[64];
	size_t i;
	int k;

	fputs("<h3>Read % x sequential / random (MB/s)</h3>\n<table><tr>"
	    "<th></th>", f);
	for (i = 0; i < 5; i++)
		fprintf(f, "<th>%s %% reads</th>", pct[i]);
	fputs("</tr>\n", f);
	for (k = 0; k < 2; k++) {
		fprintf(f, "<tr><th>%s</th>", k == 0 ? "sequential 64k, "
		    "queue 8" : "random 4k, queue 32");
		for (i = 0; i < 5; i++) {
			snprintf(lp, sizeof(lp), "rdpct=%s", pct[i]);
			cell(f, find(d, k == 0 ? "mix_seq" : "mix_rnd", lp));
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n<h3>Transfer size, random, 70 % reads, queue 8 "
	    "(MB/s)</h3>\n<table><tr>", f);
	for (i = 0; i < sizeof(xs) / sizeof(xs[0]); i++)
		fprintf(f, "<th>%s</th>", xs[i]);
	fputs("</tr>\n<tr>", f);
	for (i = 0; i < sizeof(xs) / sizeof(xs[0]); i++) {
		snprintf(lp, sizeof(lp), "xfersize=%s", xs[i]);
		cell(f, find(d, "xfer_sweep", lp));
	}
	fputs("</tr>\n</table>\n", f);
}

/* The four figures desktop benchmarks show, and every run. */
static void
html_runs(FILE *f, const struct rt_dir *d)
{
	static const char *const four[][2] = {
		{ "seq_read_1m_q8", "Sequential read 1 MiB, queue 8" },
		{ "seq_write_1m_q8", "Sequential write 1 MiB, queue 8" },
		{ "rnd_read_4k_q32", "Random read 4k, queue 32" },
		{ "rnd_write_4k_q32", "Random write 4k, queue 32" },
		{ "rnd_read_4k_q1", "Random read 4k, queue 1" },
		{ "rnd_write_4k_q1", "Random write 4k, queue 1" },
	};
	char a[32], b[32], c[32], x[32], qd[16];
	size_t i;
	int k;

	fputs("<h3>The desktop figures</h3>\n<table><tr><th></th><th>MB/s"
	    "</th><th>IOPS</th><th>p50 ms</th><th>p99 ms</th></tr>\n", f);
	for (i = 0; i < sizeof(four) / sizeof(four[0]); i++) {
		const struct rt_run *r = find(d, four[i][0], "");

		fprintf(f, "<tr><th>%s</th>", four[i][1]);
		if (r == NULL) {
			fputs("<td class=v colspan=4>not run</td></tr>\n", f);
			continue;
		}
		fprintf(f, "<td class=v>%s</td><td class=v>%s</td><td class="
		    "v>%s</td><td class=v>%s</td></tr>\n", fig(a, sizeof(a),
		    r->mbps, 1), fig(b, sizeof(b), r->rate, 0), fig(c,
		    sizeof(c), r->p50, 3), fig(x, sizeof(x), r->p99, 3));
	}
	fputs("</table>\n", f);
	html_matrix(f, d);
	fputs("<h3>Every run</h3>\n<table><tr><th>run</th><th>queue</th>"
	    "<th>for-loop</th><th>MB/s</th><th>IOPS</th><th>p50 ms</th><th>p99 ms</th><th>"
	    "status</th></tr>\n", f);
	for (k = 0; k < d->n; k++) {
		const struct rt_run *r = &d->runs[k];

		if (runtable_is_format(r))
			continue;
		fputs("<tr><td>", f);
		html_put(f, r->name);
		fputs("</td><td class=v>", f);
		html_put(f, queue(r, qd, sizeof(qd)));
		fputs("</td><td>", f);
		html_put(f, loops(r));
		fprintf(f, "</td><td class=v>%s</td><td class=v>%s</td><td "
		    "class=v>%s</td><td class=v>%s</td><td%s>", fig(a,
		    sizeof(a), r->mbps, 2), fig(b, sizeof(b), r->rate, 0),
		    fig(c, sizeof(c), r->p50, 3), fig(x, sizeof(x), r->p99,
		    3), strcmp(r->status, "completed") == 0 ? "" :
		    " class=stop");
		html_put(f, r->status);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* outdir/quick.html: 0, or -1 with e set. */
static int
write_html(const struct quick *q, const char *outdir, const struct rt_dir *d,
    int rc, struct errmsg *e)
{
	char *path, what[768];
	FILE *f;
	int r;

	xasprintf(&path, "%s/quick.html", outdir);
	if ((f = ofile_fopen(path)) == NULL) {
		errmsg_set(e, NULL, 0, 0, "cannot write %s: %s", path,
		    strerror(errno));
		free(path);
		return (-1);
	}
	target_text(q, what, sizeof(what));
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
	    "<title>vdbc quick</title>\n<style>\nbody{font-family:sans-serif;"
	    "font-size:13px;margin:16px}\ntable{border-collapse:collapse;"
	    "margin-bottom:12px}\nth,td{border:1px solid #ccc;padding:3px "
	    "6px}\ntd.v{text-align:right;font-family:monospace}\nth{background:"
	    "#eee;text-align:left}\n.stop{color:#c00}\n</style></head><body>\n"
	    "<h2>vdbc quick</h2>\n<p>", f);
	html_put(f, what);
	fprintf(f, "; %u s a run.", q->time_s);
	if (rc != 0 || d->outcome[0] != '\0') {
		fputs(" <b class=stop>The execution did not complete", f);
		if (d->outcome[0] != '\0') {
			fputs(": ", f);
			html_put(f, d->outcome);
		}
		fputs("</b>", f);
	}
	fputs("</p>\n<p><a href=\"summary.html\">summary.html</a> (the "
	    "vdbench report) &middot; <a href=\"quick.parm\">quick.parm</a> "
	    "(runs unchanged under vdbench)</p>\n", f);
	html_runs(f, d);
	if (d->runs_json != NULL) {
		fputs("<pre>", f);
		charts_write(f, d->runs_json);
		fputs("</pre>\n", f);
	}
	fputs("</body></html>\n", f);
	r = runtable_fclose(f, path, e);
	if (r == 0)
		printf("quick.html: %s\nquick.parm: %s (runs unchanged under "
		    "vdbench)\n", path, q->parm);
	free(path);
	return (r);
}

int
quick_report(const struct quick *q, const char *outdir, int rc)
{
	struct rt_dir d;
	struct errmsg e;
	char buf[2048];

	errmsg_clear(&e);
	if (runtable_read(outdir, &d, &e) != 0) {
		errmsg_str(&e, buf, sizeof(buf));
		fprintf(stderr, "vdbc quick: no table: %s\n", text_clean(buf,
		    0));
		runtable_free(&d);
		return (rc != 0 ? rc : 1);
	}
	print_table(&d);
	if (write_html(q, outdir, &d, rc, &e) != 0) {
		errmsg_str(&e, buf, sizeof(buf));
		fprintf(stderr, "vdbc quick: %s\n", text_clean(buf, 0));
		if (rc == 0)
			rc = 1;
	}
	runtable_free(&d);
	return (rc);
}

void
quick_free(struct quick *q)
{
	free(q->lun);
	free(q->parm);
	q->lun = q->parm = NULL;
}
