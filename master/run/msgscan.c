/* SPDX-License-Identifier: MIT */
/* messagescan=: the system log of this host during the runs (msgscan.h). */
#include "msgscan.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "console.h"
#include "html.h"
#include "ofile.h"
#include "xmalloc.h"

#define MSGSCAN_EVERY_S	5	/* vdbench's Adm_msgs sleeps 5 s */
#define MSGSCAN_KEEP	500	/* lines kept for the hosts' files */

struct msgscan {
	struct event	*ev;
	char		*src;		/* the file read, or NULL: none */
	int		 kmsg;		/* src is /dev/kmsg */
	int		 fd;
	off_t		 off;		/* a file: bytes read so far */
	char		 part[4096];	/* a file: a line not ended yet */
	size_t		 npart;
	int		 display;	/* not nodisplay */
	long		 max, count;	/* messagescan=n; lines reported */
	int		 stopped;	/* past max: the scan is over */
	char		*outdir;
	char		**labels;	/* hosts on this machine */
	int		 nlabels;
	char		**other;	/* hosts elsewhere */
	int		 nother;
	char		**kept;		/* the last MSGSCAN_KEEP lines */
	int		 nkept, kept_next;
	char		**batch;	/* this scan's new lines */
	int		 nbatch;
};

/* messagescan= words: yes, no, nodisplay, a number; 0 when it is off. */
static int
options(const struct model *m, int *display, long *max)
{
	*display = m->general.messagescan_display;
	*max = m->general.messagescan_max;
	return (m->general.messagescan);
}

/* Keep a line for the files (a ring of the last MSGSCAN_KEEP). */
static void
keep(struct msgscan *ms, const char *line)
{
	if (ms->kept == NULL)
		ms->kept = xcalloc(MSGSCAN_KEEP, sizeof(char *));
	free(ms->kept[ms->kept_next]);
	ms->kept[ms->kept_next] = xstrdup(line);
	ms->kept_next = (ms->kept_next + 1) % MSGSCAN_KEEP;
	if (ms->nkept < MSGSCAN_KEEP)
		ms->nkept++;
}

static void
add_line(struct msgscan *ms, const char *text)
{
	char *line;

	xasprintf(&line, "%s: %s", ms->src, text);
	keep(ms, line);
	ms->batch = xreallocarray(ms->batch, (size_t)ms->nbatch + 1,
	    sizeof(char *));
	ms->batch[ms->nbatch++] = line;
}

/* /dev/kmsg: each read is one record "pri,seq,usec,flags;text". */
static void
read_kmsg(struct msgscan *ms)
{
	char rec[8192], text[8300];
	ssize_t r;

	for (;;) {
		unsigned long long usec = 0;
		char *semi, *nl;

		r = read(ms->fd, rec, sizeof(rec) - 1);
		if (r < 0 && errno == EPIPE)
			continue;	/* overwritten records: go on */
		if (r <= 0)
			break;
		rec[r] = '\0';
		if ((semi = strchr(rec, ';')) == NULL)
			continue;
		sscanf(rec, "%*u,%*u,%llu", &usec);
		if ((nl = strchr(semi + 1, '\n')) != NULL)
			*nl = '\0';	/* continuation lines: key=value */
		snprintf(text, sizeof(text), "[%5llu.%06llu] %s", usec /
		    1000000, usec % 1000000, semi + 1);
		add_line(ms, text);
	}
}

/* A file (/var/log/messages): the lines added since the last scan. */
static void
read_file(struct msgscan *ms)
{
	char buf[4096];
	struct stat st;
	ssize_t r;
	size_t i;

	if (fstat(ms->fd, &st) == 0 && st.st_size < ms->off)
		ms->off = 0;	/* rotated or truncated: from the start */
	while ((r = pread(ms->fd, buf, sizeof(buf), ms->off)) > 0) {
		ms->off += r;
		for (i = 0; i < (size_t)r; i++) {
			if (buf[i] != '\n' && ms->npart < sizeof(ms->part) - 1) {
				ms->part[ms->npart++] = buf[i];
				continue;
			}
			if (buf[i] != '\n')
				continue;	/* a very long line: cut */
			ms->part[ms->npart] = '\0';
			add_line(ms, ms->part);
			ms->npart = 0;
		}
	}
}

/* One scan: new lines to the console (or the logfile), as vdbench. */
static void
scan(struct msgscan *ms)
{
	int i;

	if (ms->src == NULL || ms->stopped)
		return;
	if (ms->kmsg)
		read_kmsg(ms);
	else
		read_file(ms);
	for (i = 0; i < ms->nbatch; i++) {
		if (ms->count >= ms->max && !ms->stopped) {
			ms->stopped = 1;
			console_line("*");
			console_line("* Maximum of %ld %s messages reported. "
			    "Shutting down scan.", ms->max, ms->src);
			console_line("*");
			console_line("* This maximum count can be overriden "
			    "using 'messagescan=12345'");
			console_line("*");
		}
		if (ms->stopped)
			break;
		if (i == 0 && ms->display)
			console_line("New messages found on /var/adm/messages. "
			    "Do they belong to you?");
		else if (i == 0)
			console_logonly("New messages found on /var/adm/"
			    "messages. Do they belong to you?");
		if (ms->display)
			console_line("%s", ms->batch[i]);
		else
			console_logonly("%s", ms->batch[i]);
		ms->count++;
	}
	for (i = 0; i < ms->nbatch; i++)
		free(ms->batch[i]);
	ms->nbatch = 0;
}

static void
tick(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	scan(arg);
}

/* Where the messages are: /var/log/messages, else /dev/kmsg. */
static void
open_source(struct msgscan *ms)
{
	const char *env = getenv("VDBC_MESSAGES_FILE");
	const char *cand[] = { env, "/var/log/messages", "/dev/kmsg" };
	struct stat st;
	int i;

	for (i = 0; i < 3; i++) {
		if (cand[i] == NULL || cand[i][0] == '\0')
			continue;
		if (i == 2)
			ms->fd = open(cand[i], O_RDONLY | O_NONBLOCK |
			    O_CLOEXEC);
		else
			ms->fd = open(cand[i], O_RDONLY | O_CLOEXEC);
		if (ms->fd < 0)
			continue;
		ms->src = xstrdup(cand[i]);
		ms->kmsg = i == 2;
		if (ms->kmsg)
			lseek(ms->fd, 0, SEEK_END);	/* new records only */
		else if (fstat(ms->fd, &st) == 0)
			ms->off = st.st_size;
		return;
	}
}

struct msgscan *
msgscan_start(struct event_base *base, const struct model *m,
    const char *outdir, const struct mhost *hosts, int nhosts)
{
	struct timeval every = { MSGSCAN_EVERY_S, 0 };
	struct msgscan *ms;
	int display, i;
	long max;

	if (!options(m, &display, &max))
		return (NULL);
	ms = xcalloc(1, sizeof(*ms));
	ms->fd = -1;
	ms->display = display;
	ms->max = max;
	ms->outdir = xstrdup(outdir);
	for (i = 0; i < nhosts; i++) {
		char ***v = hosts_is_local(hosts[i].system) ? &ms->labels :
		    &ms->other;
		int *n = v == &ms->labels ? &ms->nlabels : &ms->nother;

		*v = xreallocarray(*v, (size_t)*n + 1, sizeof(char *));
		(*v)[(*n)++] = xstrdup(hosts[i].label);
	}
	open_source(ms);
	if (ms->src == NULL)
		console_logonly("vdbc: messagescan: neither /var/log/messages "
		    "nor /dev/kmsg can be read on this host. Monitoring "
		    "bypassed");
	else
		console_logonly("vdbc: messagescan: scanning %s for new "
		    "messages", ms->src);
	if (ms->src != NULL && base != NULL) {
		ms->ev = event_new(base, -1, EV_PERSIST, tick, ms);
		evtimer_add(ms->ev, &every);
	}
	return (ms);
}

/* Add what the scan saw to one host's var_adm_msgs file. */
static void
write_host(const struct msgscan *ms, const char *label, int local)
{
	char path[4200];
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/%s.var_adm_msgs.html", ms->outdir,
	    label);
	if ((f = ofile_fappend(path)) == NULL)
		return;		/* the report's own check names it */
	if (!local)
		fputs("vdbc scans the messages of the master's host only; "
		    "this host is another.\n", f);
	else if (ms->src == NULL)
		fputs("vdbc: neither /var/log/messages nor /dev/kmsg could "
		    "be read on this host.\n", f);
	else {
		fprintf(f, "New lines of ");
		html_put(f, ms->src);
		fprintf(f, " during the run (the last %d at most): %d\n\n",
		    MSGSCAN_KEEP, ms->nkept);
		for (i = 0; i < ms->nkept; i++) {
			int k = ms->nkept < MSGSCAN_KEEP ? i :
			    (ms->kept_next + i) % MSGSCAN_KEEP;

			html_put(f, ms->kept[k]);
			fputc('\n', f);
		}
	}
	fclose(f);
}

void
msgscan_finish(struct msgscan *ms)
{
	int i;

	if (ms == NULL)
		return;
	scan(ms);
	for (i = 0; i < ms->nlabels; i++)
		write_host(ms, ms->labels[i], 1);
	for (i = 0; i < ms->nother; i++)
		write_host(ms, ms->other[i], 0);
	if (ms->ev != NULL)
		event_free(ms->ev);
	if (ms->fd >= 0)
		close(ms->fd);
	for (i = 0; i < ms->nlabels; i++)
		free(ms->labels[i]);
	for (i = 0; i < ms->nother; i++)
		free(ms->other[i]);
	for (i = 0; ms->kept != NULL && i < MSGSCAN_KEEP; i++)
		free(ms->kept[i]);
	free(ms->kept);
	free(ms->labels);
	free(ms->other);
	free(ms->batch);
	free(ms->outdir);
	free(ms->src);
	free(ms);
}
