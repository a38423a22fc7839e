/* SPDX-License-Identifier: MIT */
/* Command-line normalisation for the master role. */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "xmalloc.h"

const char *const cli_usage[] = {
	" usage: ",
	" vdbc [-f xxx] [-o xxx] [-e nn] [-i nn] [-w nn] [-m nn] [-s] "
	    "[name=value ...] [+ rd extras]",
	" ",
	" '-f xxx': Workload parameter file name(s). Default 'parmfile' in "
	    "current directory",
	" '-o xxx': Output directory for reporting. Default 'output' in "
	    "current directory",
	" '-e nn':  Override elapsed=seconds. ",
	" '-i nn':  Override interval=seconds. ",
	" '-w nn':  Override warmup=seconds. ",
	" '-m nn':  Override the number of slaves (jvms=) per host. ",
	" '-mb':    MB is 1000**2 in the reports (default 1024**2). ",
	" '-s':     Simulate: parse and plan, print the runs, do no I/O. ",
	" '-l [nn]': Loop all runs (forever, or until nn seconds, nnm "
	    "minutes or nnh hours have passed). ",
	" '-c':     Clean the FSDs first (-co format=only, -cy format=yes, "
	    "-cn format=no). ",
	" '-v':     Data Validation (-vr: read after write, -vw: no "
	    "pre-read; docs/validation.md). ",
	" '-j':     Data Validation with a journal (-jr: recover first, "
	    "-jn: no O_SYNC, -jm: map only, -jo: recover only). ",
	" '-t':     Quick test on a 40 MiB file in the temp directory "
	    "(-t1 o_sync, -t2 writes at max, -tf file system, -td fresh). ",
	" '--dump=json|yaml': With -s, print the resolved model. ",
	" '--seed n':    Seed every random choice (default: time of day). ",
	" '--port n':    Master port (default 5570; 0 picks a free one). ",
	" '--token-file f': Token for hosts with shell=vdbench (vdbc slave "
	"--listen daemons). ",
	" '--master-addr a': Address remote slaves dial back to (default: "
	"the one that reaches them). ",
	" '--on-slave-loss=continue': Go on without a lost slave (default: "
	"stop). ",
	" '--metrics [addr:]port': Serve the last interval to Prometheus at "
	"http://addr:port/metrics (addr 127.0.0.1 unless given). ",
	" '--ssh cmd':   Command for shell=ssh hosts (default 'ssh'), e.g. "
	"--ssh \"ssh -F file\". ",
	" '--debug=list': Debug lines on stderr (and in the slaves' logs): "
	"net,proto,plan,aio or all. ",
	" 'name=value':  Replace $name and !name in the parmfile(s). ",
	" '+ a=b,c=d':   Append parameters to every one-line RD. ",
	NULL,
};

/*
 * Options and utilities of vdbench 5.04.06 that vdbc knows and does not
 * build, with vdbench's meaning in a few words and why.
 */
static const struct {
	const char	*word;		/* the argument, or its prefix */
	int		 prefix;	/* "-d1", "-d2", ...: match by prefix */
	const char	*what;
} unbuilt_opts[] = {
	{ "-k", 0, "vdbench: Solaris kstat statistics on the console; "
	    "Linux has no kstat" },
	{ "-d", 1, "vdbench: an internal debug flag of its Java code; "
	    "vdbc's own debug lines are --debug=list" },
	{ "print", 0, "vdbench: print raw blocks of a lun; use od or "
	    "hexdump" },
	{ "-print", 0, "vdbench: print raw blocks of a lun; use od or "
	    "hexdump" },
	{ "sds", 0, "vdbench: discover devices and write sd= lines" },
	{ "csim", 0, "vdbench: compression simulator" },
	{ "dsim", 0, "vdbench: dedup simulator" },
	{ "showlba", 0, "vdbench: display an lba trace (showlba=yes)" },
	{ NULL, 0, NULL },
};

/* A known, unbuilt option or utility: 1 with e filled, else 0. */
static int
unbuilt_opt(const char *a, int first, struct errmsg *e)
{
	int i;

	for (i = 0; unbuilt_opts[i].word != NULL; i++) {
		const char *w = unbuilt_opts[i].word;

		if (w[0] != '-' && !first)
			continue;	/* utilities are a first word */
		if (unbuilt_opts[i].prefix ? strncmp(a, w, strlen(w)) != 0 ||
		    a[strlen(w)] < '0' || a[strlen(w)] > '9' :
		    strcmp(a, w) != 0)
			continue;
		errmsg_set(e, NULL, 0, 0, "'%s' is a known vdbench %s (%s) "
		    "that vdbc does not build", a, w[0] == '-' ? "option" :
		    "utility", unbuilt_opts[i].what);
		return (1);
	}
	return (0);
}

/* vdbench's duration: n (seconds), ns, nm or nh; -1 if s is not one. */
long
cli_duration(const char *s)
{
	char *end;
	long v;

	errno = 0;
	if (*s < '0' || *s > '9')
		return (-1);
	v = strtol(s, &end, 10);
	if (errno != 0 || v <= 0 || v > 100000000L)
		return (-1);
	if (*end == 's' || *end == 'S')
		end++;
	else if (*end == 'm' || *end == 'M') {
		v *= 60;
		end++;
	} else if (*end == 'h' || *end == 'H') {
		v *= 3600;
		end++;
	}
	return (*end == '\0' ? v : -1);
}

/* Parse a decimal number for an option; -1 with e filled if it is not. */
static int
num_arg(const char *opt, const char *s, long lo, long hi, long *out,
    struct errmsg *e)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || v < lo || v > hi) {
		errmsg_set(e, NULL, 0, 0, "Invalid value for '%s': '%s' "
		    "(expected a number from %ld to %ld)", opt, s, lo, hi);
		return (-1);
	}
	*out = v;
	return (0);
}

/* Add a substitution variable. */
static void
add_var(struct cli *c, const char *arg)
{
	const char *eq = strchr(arg, '=');
	struct subvar *v;

	c->vars.v = xreallocarray(c->vars.v, (size_t)c->vars.n + 1,
	    sizeof(*c->vars.v));
	v = &c->vars.v[c->vars.n++];
	v->name = xstrndup(arg, (size_t)(eq - arg));
	v->value = xstrdup(eq + 1);
	v->used = 0;
}

/* Join the extras after '+'. */
static void
set_extras(struct cli *c, int i, int argc, char *const argv[])
{
	char *s = xstrdup(argv[i] + 1), *n;

	for (i++; i < argc; i++) {
		if (*s == '\0') {
			free(s);
			s = xstrdup(argv[i]);
			continue;
		}
		xasprintf(&n, "%s,%s", s, argv[i]);
		free(s);
		s = n;
	}
	c->extras = s;
}

/* A long option with a value, "--name=v" or "--name v". */
static const char *
long_value(const char *arg, const char *name, int *i, int argc,
    char *const argv[])
{
	size_t len = strlen(name);

	if (strncmp(arg, name, len) != 0)
		return (NULL);
	if (arg[len] == '=')
		return (arg + len + 1);
	if (arg[len] == '\0' && *i + 1 < argc)
		return (argv[++*i]);
	return (NULL);
}

/* A --name[=value] option a; -1 on a bad one. */
static int
parse_long(struct cli *c, const char *a, int *i, int argc,
    char *const argv[], struct errmsg *e)
{
	const char *v;
	long n;
	int i0 = *i;

	if ((v = long_value(a, "--seed", i, argc, argv))) {
		char *end;

		errno = 0;
		c->seed = strtoull(v, &end, 0);
		if (*v == '\0' || *end != '\0' || errno) {
			errmsg_set(e, NULL, 0, 0, "Invalid "
			    "value for '--seed': '%s'", v);
			return (-1);
		}
		c->seed_set = 1;
	} else if ((v = long_value(a, "--port", i, argc, argv))) {
		if (num_arg("--port", v, 0, 65535, &n, e))
			return (-1);
		c->port = (int)n;
	} else if ((v = long_value(a, "--token-file", i, argc, argv))) {
		free(c->token_file);
		c->token_file = xstrdup(v);
	} else if ((v = long_value(a, "--on-slave-loss", i, argc, argv))) {
		if (strcmp(v, "stop") != 0 && strcmp(v, "continue") != 0) {
			errmsg_set(e, NULL, 0, 0, "Invalid "
			    "value for '--on-slave-loss': '%s' "
			    "(expected stop or continue)", v);
			return (-1);
		}
		c->loss_continue = strcmp(v, "continue") == 0;
	} else if ((v = long_value(a, "--ssh", i, argc, argv))) {
		free(c->ssh);
		c->ssh = xstrdup(v);
	} else if ((v = long_value(a, "--metrics", i, argc, argv))) {
		free(c->metrics);
		c->metrics = xstrdup(v);
	} else if ((v = long_value(a, "--master-addr", i, argc, argv))) {
		free(c->master_addr);
		c->master_addr = xstrdup(v);
	} else if ((v = long_value(a, "--debug", i, argc, argv))) {
		unsigned int mask;

		if (log_debug_parse(v, &mask) != 0) {
			errmsg_set(e, NULL, 0, 0, "Invalid "
			    "value for '--debug': '%s' "
			    "(expected %s)", v, LOG_DEBUG_WORDS);
			return (-1);
		}
		free(c->debug);
		c->debug = xstrdup(v);
	} else if ((v = long_value(a, "--dump", i, argc, argv))) {
		if (strcmp(v, "json") == 0)
			c->dump = CLI_DUMP_JSON;
		else if (strcmp(v, "yaml") == 0)
			c->dump = CLI_DUMP_YAML;
		else {
			errmsg_set(e, NULL, 0, 0, "Invalid "
			    "value for '--dump': '%s' "
			    "(expected json or yaml)", v);
			return (-1);
		}
	} else {
		errmsg_set(e, NULL, 0, 0, "Invalid execution "
		    "parameter: '%s'", a);
		return (-1);
	}
	if (*i != i0) {	/* "--seed 42" is echoed "--seed=42": repeatable */
		char *scan;

		xasprintf(&scan, "%s=%s", a, argv[*i]);
		strlist_add(&c->scanned, scan);
		free(scan);
	} else
		strlist_add(&c->scanned, a);
	return (0);
}

/*
 * A one-letter option of "foeiwmp" with its value, glued ("-fparm") or
 * the next argument (vdbench's flags); -1 on a bad one.
 */
static int
parse_valued(struct cli *c, const char *a, int *i, int argc,
    char *const argv[], struct errmsg *e)
{
	char opt = a[1], *scan;
	const char *v = a + 2;
	long n;

	if (*v == '\0') {
		if (*i + 1 >= argc || argv[*i + 1][0] == '-' ||
		    strchr(argv[*i + 1], '=') != NULL) {
			errmsg_set(e, NULL, 0, 0, "Option '-%c' "
			    "requires a value", opt);
			return (-1);
		}
		v = argv[++*i];
	}
	xasprintf(&scan, "-%c%s", opt, v);
	strlist_add(&c->scanned, scan);
	free(scan);
	switch (opt) {
	case 'f':
		strlist_add(&c->files, v);
		/* More parmfiles may follow: -f a b c. */
		while (*i + 1 < argc && argv[*i + 1][0] != '-' &&
		    argv[*i + 1][0] != '+' &&
		    strchr(argv[*i + 1], '=') == NULL)
			strlist_add(&c->files, argv[++*i]);
		break;
	case 'o':
		free(c->outdir);
		c->outdir = xstrdup(v);
		break;
	case 'e':
	case 'i':
	case 'w':
		if (num_arg(a, v, 0, 100000000L, &n, e) != 0)
			return (-1);
		*(opt == 'e' ? &c->elapsed_s : opt == 'i' ?
		    &c->interval_s : &c->warmup_s) = n;
		break;
	case 'm':
		if (num_arg("-m", v, 1, 256, &n, e) != 0)
			return (-1);
		c->jvms = (int)n;
		break;
	case 'p':
		if (num_arg("-p", v, 0, 65535, &n, e) != 0)
			return (-1);
		c->port = (int)n;
		break;
	}
	return (0);
}

/*
 * -j and its letters (vdbench's Vdbmain.java:352-384): journal and
 * validate; r recover, n no flush (no O_SYNC), m map only, o recover
 * and stop, 2 read after write, t store times (as -vt). i and s are not
 * built: refused here, before anything runs.
 */
static int
journal_flags(struct cli *c, const char *a, struct errmsg *e)
{
	const char *p;

	c->validate |= VALIDATE_ON;
	c->journal |= JOURNAL_ON;
	for (p = a + 2; *p != '\0'; p++) {
		if (*p == 'r')
			c->journal |= JOURNAL_RECOVER;
		else if (*p == 'n')
			c->journal |= JOURNAL_NOFLUSH;
		else if (*p == 'm')
			c->journal |= JOURNAL_MAPONLY;
		else if (*p == 'o') {
			c->journal |= JOURNAL_RECOVER | JOURNAL_ONLY;
			c->journal_only = 1;
		} else if (*p == '2')
			c->validate |= VALIDATE_AFTER_WRITE;
		else if (*p == 't')
			c->validate |= VALIDATE_TIME;
		else if (*p == 'i' || *p == 's') {
			errmsg_set(e, NULL, 0, 0, "'%s': -j%c (%s) is not "
			    "supported by vdbc yet", a, *p, *p == 'i' ?
			    "ignore pending writes in journal recovery" :
			    "skip the journal recovery's reads");
			return (-1);
		} else {
			errmsg_set(e, NULL, 0, 0, "Invalid execution "
			    "parameter: '%s' (after -j: r, n, m, o, 2, t, i "
			    "or s)", a);
			return (-1);
		}
	}
	return (0);
}

/*
 * -v and its letters (vdbench's Vdbmain.java): r or 2 read after write,
 * w no pre-read, t store the time of each key block's last read or
 * write.
 */
static int
dv_flags(struct cli *c, const char *a, struct errmsg *e)
{
	const char *p;

	if (a[1] == 'j')
		return (journal_flags(c, a, e));
	c->validate |= VALIDATE_ON;
	for (p = a + 2; *p != '\0'; p++) {
		if (*p == 'r' || *p == '2')
			c->validate |= VALIDATE_AFTER_WRITE;
		else if (*p == 'w')
			c->validate |= VALIDATE_NO_PREREAD;
		else if (*p == 't')
			c->validate |= VALIDATE_TIME;
		else {
			errmsg_set(e, NULL, 0, 0, "Invalid execution "
			    "parameter: '%s' (after -v: r, 2, w or t)", a);
			return (-1);
		}
	}
	return (0);
}

/* Normalise and parse the arguments (argv[0] is the program). */
int
cli_parse(struct cli *c, int argc, char *const argv[], struct errmsg *e)
{
	int i;

	memset(c, 0, sizeof(*c));
	c->elapsed_s = c->interval_s = c->warmup_s = -1;
	c->port = -1;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] == '+') {
			set_extras(c, i, argc, argv);
			break;
		}
		if (strncmp(a, "--", 2) == 0) {
			if (parse_long(c, a, &i, argc, argv, e) != 0)
				return (-1);
			continue;
		}
		if (unbuilt_opt(a, i == 1, e)) {
			c->known = 1;
			return (-1);
		}
		if (a[0] != '-') {
			if (strchr(a, '=') != NULL) {
				add_var(c, a);
				strlist_add(&c->scanned, a);
				continue;
			}
			/* the first word: perhaps a mistyped role */
			errmsg_set(e, NULL, 0, 0, "Invalid execution parameter: "
			    "'%s'%s", a, i == 1 ? " (not a role either: the "
			    "roles are slave, rsh, parseflat, compare, index and "
			    "help)" : "");
			return (-1);
		}
		if (a[1] == '\0') {
			errmsg_set(e, NULL, 0, 0, "Use of parameter file is "
			    "now required.");
			return (-1);
		}
		if (strcmp(a, "-mb") == 0) {
			/* MB = 1000**2 in the reports (PARMFILE.md 3.2) */
			c->mb = 1;
			strlist_add(&c->scanned, a);
			continue;
		}
		if (strchr("foeiwmp", a[1]) != NULL) {
			if (parse_valued(c, a, &i, argc, argv, e) != 0)
				return (-1);
			continue;
		}
		if (strcmp(a, "-c") == 0 || strcmp(a, "-co") == 0 ||
		    strcmp(a, "-cy") == 0 || strcmp(a, "-cn") == 0) {
			/* PARMFILE.md 3.2: FSD clean / format override */
			c->force_format = a[2] == '\0' ? 'c' : a[2];
			strlist_add(&c->scanned, a);
			continue;
		}
		if (a[1] == 'l') {
			/* -l, -l60, -l 60, -l2m: loop all runs */
			const char *v = a + 2;

			if (*v == '\0' && i + 1 < argc && argv[i + 1][0] >= '0' &&
			    argv[i + 1][0] <= '9' && strchr(argv[i + 1], '=') ==
			    NULL)
				v = argv[++i];
			if (*v != '\0' && (c->loop_s = cli_duration(v)) < 0) {
				errmsg_set(e, NULL, 0, 0, "Invalid value for "
				    "'-l': '%s' (expected seconds, or a number "
				    "with s, m or h)", v);
				return (-1);
			}
			c->loop = 1;
			if (*v == '\0')
				strlist_add(&c->scanned, a);
			else {
				char *sc;

				xasprintf(&sc, "-l%s", v);
				strlist_add(&c->scanned, sc);
				free(sc);
			}
			continue;
		}
		if (strcmp(a, "-s") == 0) {
			c->simulate = 1;
			strlist_add(&c->scanned, a);
			continue;
		}
		if (a[1] == 'v' || a[1] == 'j') {
			if (dv_flags(c, a, e) != 0)
				return (-1);
			strlist_add(&c->scanned, a);
			continue;
		}
		if (a[1] == 't' && (a[2] == '\0' || strcmp(a + 2, "1") == 0 ||
		    strcmp(a + 2, "2") == 0 || strcmp(a + 2, "f") == 0 ||
		    strcmp(a + 2, "d") == 0)) {
			/* vdbench's quick self-test (PARMFILE.md 3.2). */
			c->quick = a[2] == '\0' || a[2] == 'd' ? 't' : a[2];
			c->quick_delete = a[2] == 'd';
			strlist_add(&c->scanned, a);
			continue;
		}
		errmsg_set(e, NULL, 0, 0, "Invalid execution parameter: '%s'",
		    a);
		return (-1);
	}
	if (c->files.n == 0 && c->quick == 0)
		strlist_add(&c->files, "parmfile");
	if (c->outdir == NULL)
		c->outdir = xstrdup("output");
	return (0);
}

/* Free what cli_parse allocated. */
void
cli_free(struct cli *c)
{
	int i;

	strlist_clear(&c->files);
	strlist_clear(&c->scanned);
	free(c->outdir);
	free(c->extras);
	free(c->token_file);
	free(c->master_addr);
	free(c->ssh);
	free(c->metrics);
	free(c->debug);
	for (i = 0; i < c->vars.n; i++) {
		free(c->vars.v[i].name);
		free(c->vars.v[i].value);
	}
	free(c->vars.v);
	memset(c, 0, sizeof(*c));
}
