/* SPDX-License-Identifier: MIT */
/*
 * vdbc: one binary, the first word picks the role. Without a role word it
 * is the master: parse the parmfile(s), plan the runs, then print the
 * plan (-s) or drive the runs through local slaves ("vdbc slave ...").
 */
#include <errno.h>
#include <ftw.h>
#include <glob.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"
#include "dvreport.h"
#include "journal_rd.h"
#include "console.h"
#include "link.h"
#include "log.h"
#include "model_json.h"
#include "ofile.h"
#include "parmfile.h"
#include "plan.h"
#include "mtime.h"
#include "net.h"
#include "xmalloc.h"
#include "report.h"
#include "run.h"
#include "simulate.h"
#include "slave.h"
#include "parmyaml.h"
#include "parseflat.h"
#include "compare.h"
#include "index.h"
#include "quick.h"
#include "printjournal.h"
#include "help.h"
#include "html.h"

#define VDBC_EXIT_FATAL	157	/* vdbench's -99 as the shell sees it */

/* Print a fatal error as vdbench does and give its exit status. */
static int
fatal_errmsg(const struct errmsg *e, int usage)
{
	char buf[2048];
	int i;

	if (e->source[0] != '\0') {
		/* The message, the line, and a caret under the column. */
		console_line("%s", "");
		console_line("%s", errmsg_str(e, buf, sizeof(buf)));
		console_line("    %s", e->source);
		console_line("    %*s^", e->caret, "");
		console_line("%s", "");
	} else
		console_fatal("%s", errmsg_str(e, buf, sizeof(buf)));
	if (usage) {
		for (i = 0; cli_usage[i] != NULL; i++)
			console_line("%s", cli_usage[i]);
	}
	return (VDBC_EXIT_FATAL);
}

/* Create the output directory, or empty it of vdbench's files. */
static int
prepare_outdir(const char *dir, struct errmsg *e)
{
	struct stat st;
	glob_t g;
	char pat[4096];
	size_t i;
	int k;

	/*
	 * A link at the -o path owned by another user (planted in a shared
	 * directory) is not followed: root would write its reports into,
	 * and empty of *.html, a directory of that user's choosing.
	 */
	if (lstat(dir, &st) == 0 && S_ISLNK(st.st_mode) &&
	    st.st_uid != geteuid() && st.st_uid != 0) {
		errmsg_set(e, NULL, 0, 0, "Output directory '%s' is a symbolic "
		    "link owned by uid %u, another user: vdbc follows no "
		    "other user's link for its output", dir,
		    (unsigned int)st.st_uid);
		return (-1);
	}
	if (stat(dir, &st) != 0) {
		char path[4096], *p;

		snprintf(path, sizeof(path), "%s", dir);
		for (p = path + 1; *p != '\0'; p++) {
			if (*p != '/')
				continue;
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
		if (mkdir(path, 0755) != 0 && errno != EEXIST) {
			errmsg_set(e, NULL, 0, 0, "Unable to create output "
			    "directory '%s': %s", dir, strerror(errno));
			return (-1);
		}
		console_line("Created output directory '%s'", dir);
		return (0);
	}
	if (!S_ISDIR(st.st_mode)) {
		errmsg_set(e, NULL, 0, 0, "Output directory '%s' exists and "
		    "is not a directory", dir);
		return (-1);
	}
	/* a results.json of before would outlive a -s run here and be
	 * read as this directory's (vdbc index, quick) */
	snprintf(pat, sizeof(pat), "%s/results.json", dir);
	unlink(pat);
	for (k = 0; k < 2; k++) {
		snprintf(pat, sizeof(pat), "%s/*.%s", dir, k ? "bin" : "html");
		if (glob(pat, 0, NULL, &g) != 0)
			continue;
		for (i = 0; i < g.gl_pathc; i++)
			unlink(g.gl_pathv[i]);
		globfree(&g);
	}
	return (0);
}

/* Does a host name or address (of HOST[:PORT]) resolve? */
static int
host_exists(const char *system)
{
	struct addrinfo hints, *res = NULL;
	char host[256], port[32];

	if (net_split(system, host, sizeof(host), port, sizeof(port)) != 0)
		return (0);
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(host, NULL, &hints, &res) != 0)
		return (0);
	freeaddrinfo(res);
	return (1);
}

/*
 * vdbench's -o forms: "out+" picks the first free out001..out998, and a
 * name ending in ".tod" gets ".yyMMdd.HHmmss" instead. Returns a new name.
 */
static char *
resolve_outdir(const char *dir, struct errmsg *e)
{
	size_t len = strlen(dir);
	struct stat st;
	char *out;
	int i;

	if (len > 1 && dir[len - 1] == '+') {
		for (i = 1; i <= 998; i++) {
			xasprintf(&out, "%.*s%03d", (int)(len - 1), dir, i);
			if (stat(out, &st) != 0)
				return (out);
			free(out);
		}
		errmsg_set(e, NULL, 0, 0, "No free output directory name "
		    "left for '%s' (001 to 998 are taken)", dir);
		return (NULL);
	}
	if (len > 4 && strcmp(dir + len - 4, ".tod") == 0) {
		time_t t = time(NULL);
		struct tm tm;
		char stamp[32];

		localtime_r(&t, &tm);
		/* vdbench's yyMMdd: a two-digit year on purpose. */
		snprintf(stamp, sizeof(stamp), "%02d%02d%02d.%02d%02d%02d",
		    tm.tm_year % 100, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		    tm.tm_min, tm.tm_sec);
		xasprintf(&out, "%.*s.%s", (int)(len - 4), dir, stamp);
		return (out);
	}
	return (xstrdup(dir));
}

/*
 * Write vdbench's quick-test parmfile (-t, -t1, -t2, -tf) in a private
 * directory made with mkdtemp under $TMPDIR (mode 0700: no other user
 * can plant a link where the test's lun, tree or parmfile go, as one
 * could at vdbench's fixed $TMPDIR/quick_vdbench_test and
 * $TMPDIR/fsd1); the parmfile's path, *dirp the directory (removed at
 * the end, quick_remove()).
 */
static char *
quick_parmfile(int kind, char **dirp, struct errmsg *e)
{
	const char *tmp = getenv("TMPDIR") != NULL && getenv("TMPDIR")[0] !=
	    '\0' ? getenv("TMPDIR") : "/tmp";
	char *path, *lun, *dir;
	FILE *f;

	xasprintf(&dir, "%s/vdbc-quick.XXXXXX", tmp);
	if (mkdtemp(dir) == NULL) {
		errmsg_set(e, NULL, 0, 0, "cannot make a private directory "
		    "for the quick test in %s: %s", tmp, strerror(errno));
		free(dir);
		return (NULL);
	}
	*dirp = dir;
	xasprintf(&path, "%s/vdbc_quick_parmfile", dir);
	xasprintf(&lun, "%s/quick_vdbench_test", dir);
	if ((f = ofile_fopen(path)) == NULL) {
		errmsg_set(e, NULL, 0, 0, "cannot write %s: %s", path,
		    strerror(errno));
		free(path);
		free(lun);
		return (NULL);
	}
	if (kind == 'f') {
		fprintf(f, "fsd=fsd1,anchor=%s/fsd1,depth=1,width=1,files=100,"
		    "size=128k\nfwd=default,xfersize=4k,fileio=random,"
		    "fileselect=random,threads=8,stopafter=100\n"
		    "fwd=fwd1,fsd=fsd1,operation=read\n"
		    "fwd=fwd2,fsd=fsd1,operation=write\n"
		    "rd=rd1,fwd=fwd*,fwdrate=100,format=yes,elapsed=5,"
		    "interval=1\n", dir);
	} else {
		fprintf(f, "sd=sd1,lun=%s,size=40m%s\n", lun,
		    kind == '1' ? ",openflags=o_sync" : "");
		fprintf(f, "wd=wd1,sd=sd1,xf=1k,rdpct=%d\n", kind == '2' ? 0 :
		    50);
		fprintf(f, "rd=rd1,wd=wd1,iorate=%s,elapsed=5,interval=1\n",
		    kind == '2' ? "max" : "100");
	}
	fclose(f);
	free(lun);
	return (path);
}

static int
quick_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return (0);
}

/* The quick test's private directory and all in it (links not followed). */
static void
quick_remove(const char *dir)
{
	nftw(dir, quick_rm, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

/*
 * Before the parmfile: --debug, the console, the output directory made
 * ready, the arguments echoed; -1 with e set when the directory is not.
 */
static int
master_setup(struct cli *c, struct errmsg *e)
{
	const char *debug = c->debug != NULL ? c->debug : getenv("VDBC_DEBUG");
	char *od;
	int i;

	if (debug != NULL) {
		/* VDBC_DEBUG is checked here as --debug is: a slave refusing
		 * it would only leave the master waiting for it */
		if (log_set_debug(debug) != 0) {
			errmsg_set(e, NULL, 0, 0, "Invalid value for VDBC_DEBUG "
			    "(the environment's --debug): '%s' (expected %s)",
			    debug, LOG_DEBUG_WORDS);
			return (-1);
		}
		/* local slaves inherit it (slave/main.c reads VDBC_DEBUG) */
		setenv("VDBC_DEBUG", debug, 1);
		if (log_debug_mask & LOG_PROTO)
			link_set_trace(log_frame);
	}
	if (c->dump != CLI_DUMP_NONE)
		console_use(stderr);
	console_line("vdbc %s, a vdbench-compatible storage load generator",
	    VDBC_VERSION);
	console_plain("Vdbench distribution: vdbc-%s", VDBC_VERSION);
	if ((od = resolve_outdir(c->outdir, e)) == NULL)
		return (-1);
	free(c->outdir);
	c->outdir = od;
	if (c->outdir[0] != '/') {
		/* vdbench names it absolute ("Created output directory",
		 * "... completed successfully. Output directory: ") */
		char cwd[4096];

		if (getcwd(cwd, sizeof(cwd)) != NULL) {
			od = xmalloc(strlen(cwd) + strlen(c->outdir) + 2);
			sprintf(od, "%s/%s", strcmp(cwd, "/") == 0 ? "" : cwd,
			    c->outdir);
			free(c->outdir);
			c->outdir = od;
		}
	}
	if (prepare_outdir(c->outdir, e) != 0)
		return (-1);
	for (i = 0; i < c->scanned.n; i++)
		console_line("input argument scanned: '%s'", c->scanned.v[i]);
	return (0);
}

/* parmscan.html in the output directory, or NULL when it cannot be made. */
static FILE *
open_parmscan(const char *outdir)
{
	char path[4200];
	const char *base = strrchr(outdir, '/');
	FILE *f;

	snprintf(path, sizeof(path), "%s/parmscan.html", outdir);
	if ((f = ofile_fopen(path)) != NULL)
		fprintf(f, "<title>Vdbench %s/parmscan.html</title>"
		    "<pre>\n", base != NULL && base[1] != '\0' ?
		    base + 1 : outdir);
	return (f);
}

/*
 * Close parmscan.html: a report that cannot be written stops a load
 * that went well (rc 0), named; the load's rc otherwise.
 */
static int
close_parmscan(FILE *f, int rc, const char *outdir, struct errmsg *e)
{
	int bad, err;

	errno = 0;
	bad = fflush(f) == EOF || ferror(f);
	err = errno != 0 ? errno : EIO;
	if (fclose(f) != 0 && !bad) {
		bad = 1;
		err = errno;
	}
	if (bad && rc == 0) {
		errmsg_set(e, NULL, 0, 0, "Cannot write report file "
		    "%s/parmscan.html: %s", outdir, strerror(err));
		rc = -1;
	}
	return (rc);
}

/* Read the parmfiles of the command line into *m, echoing the notes. */
static int
load_parmfiles(const struct cli *c, struct model **m, struct errmsg *e)
{
	struct strlist notes = { 0, NULL, 0 };
	struct parm_opts po;
	int i, rc;

	memset(&po, 0, sizeof(po));
	po.nfiles = c->files.n;
	po.files = c->files.v;
	po.vars = c->vars;
	po.extras = c->extras;
	po.elapsed_s = c->elapsed_s;
	po.interval_s = c->interval_s;
	po.warmup_s = c->warmup_s;
	po.force_format = c->force_format;
	po.host_exists = host_exists;
	po.scan = open_parmscan(c->outdir);
	rc = parmfile_load(&po, m, &notes, e);
	if (po.scan != NULL)
		rc = close_parmscan(po.scan, rc, c->outdir, e);
	for (i = 0; i < notes.n; i++)
		console_held("%s", notes.v[i]);
	strlist_clear(&notes);
	return (rc);
}

/* --dump: the model as JSON or YAML on standard output. */
static void
dump_model(const struct model *m, int dump)
{
	if (dump == CLI_DUMP_JSON) {
		json_t *j = model_to_json(m);

		json_dumpf(j, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
		fputc('\n', stdout);
		json_decref(j);
	} else if (dump == CLI_DUMP_YAML)
		parmyaml_dump(m, stdout);
}

/* Run the plan with the options of the command line: the exit status. */
static int
run_plan(struct model *m, const struct plan *plan, const struct cli *c)
{
	struct run_opts ro;

	memset(&ro, 0, sizeof(ro));
	ro.outdir = c->outdir;
	ro.jvms = c->jvms;
	ro.port = c->port;
	ro.seed = c->seed_set ? c->seed : mtime_wall_ns();
	ro.nfiles = c->files.n;
	ro.files = c->files.v;
	ro.token_file = c->token_file;
	ro.master_addr = c->master_addr;
	ro.loss_continue = c->loss_continue;
	ro.ssh = c->ssh;
	ro.nscanned = c->scanned.n;
	ro.scanned = c->scanned.v;
	ro.vars = &c->vars;
	ro.metrics = c->metrics;
	if (c->loop) {
		/* -l [n]: forever, or until n seconds have passed */
		ro.loop = 1;
		ro.loop_s = (uint64_t)c->loop_s;
	} else if (m->general.loop.n == 1) {
		/* loop=: n times, or ns/nm/nh like -l */
		const char *v = m->general.loop.v[0];

		ro.loop = 1;
		if (strspn(v, "0123456789") == strlen(v))
			ro.loop_count = (uint64_t)atol(v);
		else
			ro.loop_s = (uint64_t)cli_duration(v);
	}
	if (m->general.monitor.n == 1)
		ro.monitor = m->general.monitor.v[0];
	ro.force_cleanup = c->force_format == 'c';
	console_line("vdbc: random seed %llu (repeat with --seed %llu)",
	    (unsigned long long)ro.seed, (unsigned long long)ro.seed);
	return (run_all(m, plan, &ro));
}

/* The master role. */
static int
master_main(int argc, char *argv[])
{
	struct model *m = NULL;
	struct plan plan;
	struct errmsg e;
	struct cli c;
	char *quick_path = NULL, *quick_dir = NULL;
	int rc = VDBC_EXIT_FATAL;

	errmsg_clear(&e);
	memset(&plan, 0, sizeof(plan));
	if (cli_parse(&c, argc, argv, &e) != 0) {
		rc = fatal_errmsg(&e, !c.known);
		cli_free(&c);
		return (rc);
	}
	if (c.mb)
		report_mb = 1000000.0;
	if (master_setup(&c, &e) != 0) {
		rc = fatal_errmsg(&e, 0);
		goto out;
	}
	if (c.quick != 0) {
		char *qp = quick_parmfile(c.quick, &quick_dir, &e);

		if (qp == NULL) {
			rc = fatal_errmsg(&e, 0);
			goto out;
		}
		strlist_add(&c.files, qp);
		console_line("Quick test parmfile: %s", qp);
		quick_path = qp;
	}
	if (load_parmfiles(&c, &m, &e) != 0) {
		rc = fatal_errmsg(&e, 0);
		goto out;
	}
	journal_model_apply(m, c.journal);
	dv_model_check(m, c.validate);
	simulate_anchors(m);
	if (plan_build(m, &plan, &e) != 0) {
		rc = fatal_errmsg(&e, 0);
		goto out;
	}
	dump_model(m, c.dump);
	if (!c.simulate) {
		rc = run_plan(m, &plan, &c);
		goto out;
	}
	if (simulate_print(m, &plan, c.jvms) != 0) {
		rc = VDBC_EXIT_FATAL;
		goto out;
	}
	console_line("Vdbench simulation completed successfully. Output "
	    "directory: %s", c.outdir);
	rc = 0;
out:
	plan_free(&plan);
	model_free(m);
	cli_free(&c);
	free(quick_path);	/* parmfile.html keeps a copy */
	if (quick_dir != NULL) {
		quick_remove(quick_dir);
		free(quick_dir);
	}
	return (rc);
}

/*
 * "vdbc quick TARGET ...": the matrix's parmfile in the report directory
 * (quick.h), run as any parmfile is, then its table and quick.html.
 */
static int
quick_main(int argc, char *argv[])
{
	struct quick q;
	struct errmsg e;
	char *od, buf[2048], *av[9];
	int rc, n = 0;

	if ((rc = quick_args(argc, argv, &q)) != 0)
		return (rc < 0 ? 0 : rc);
	errmsg_clear(&e);
	if ((od = resolve_outdir(q.outdir, &e)) == NULL ||
	    quick_setup(&q, od, &e) != 0) {
		errmsg_str(&e, buf, sizeof(buf));
		fprintf(stderr, "vdbc quick: %s\n", text_clean(buf, 0));
		free(od);
		quick_free(&q);
		return (VDBC_EXIT_FATAL);
	}
	av[n++] = argv[0];
	av[n++] = (char *)"-f";
	av[n++] = q.parm;
	av[n++] = (char *)"-o";
	av[n++] = od;
	if (q.seed != NULL) {
		av[n++] = (char *)"--seed";
		av[n++] = (char *)q.seed;
	}
	if (q.simulate)
		av[n++] = (char *)"-s";
	av[n] = NULL;
	rc = master_main(n, av);
	if (!q.simulate)
		rc = quick_report(&q, od, rc);
	free(od);
	quick_free(&q);
	return (rc);
}

int
main(int argc, char *argv[])
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && strcmp(argv[1], "slave") == 0)
		return (slave_main(argc, argv));
	/* vdbench's word for its daemon: "vdbc rsh" = "vdbc slave --listen". */
	if (argc > 1 && strcmp(argv[1], "rsh") == 0) {
		char **av = xcalloc((size_t)argc + 2, sizeof(char *));
		int i, rc;

		av[0] = argv[0];
		av[1] = (char *)"slave";
		av[2] = (char *)"--listen";
		for (i = 2; i < argc; i++)
			av[i + 1] = argv[i];
		rc = slave_main(argc + 1, av);
		free(av);
		return (rc);
	}
	/* vdbench takes any first word starting with "parse". */
	if (argc > 1 && strncmp(argv[1], "parse", 5) == 0)
		return (parseflat_main(argc, argv));
	if (argc > 1 && strcmp(argv[1], "compare") == 0)
		return (compare_main(argc, argv));
	if (argc > 1 && strcmp(argv[1], "index") == 0)
		return (index_main(argc, argv));
	if (argc > 1 && strcmp(argv[1], "quick") == 0)
		return (quick_main(argc, argv));
	if (argc > 1 && strcmp(argv[1], "printjournal") == 0)
		return (printjournal_main(argc, argv));
	if (argc > 1 && (strcmp(argv[1], "help") == 0 || strcmp(argv[1],
	    "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1],
	    "--version") == 0))
		return (help_main(argc, argv));
	return (master_main(argc, argv));
}
