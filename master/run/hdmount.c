/* SPDX-License-Identifier: MIT */
/* The hosts' mount= commands (see hdmount.h). */
#include "hdmount.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "console.h"
#include "hosts.h"
#include "xmalloc.h"

static int	remount_cmd(const char *, const char *, const char *,
		    const char *, char **, struct errmsg *);

/* Is special mounted on mountpoint (/proc/self/mounts)? */
static int
is_mounted(const char *special, const char *mountpoint)
{
	char line[4096], dev[2048], dir[2048];
	FILE *f = fopen("/proc/self/mounts", "r");
	int found = 0;

	if (f == NULL)
		return (0);
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%2047s %2047s", dev, dir) == 2 &&
		    strcmp(dev, special) == 0 && strcmp(dir, mountpoint) == 0)
			found = 1;
	}
	fclose(f);
	return (found);
}

/* Make a directory and its missing parents; 0 or -1 with errno. */
static int
mkdirs(const char *path)
{
	char *p = xstrdup(path), *s;
	int rc = 0;

	for (s = p + 1; *s != '\0' && rc == 0; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) != 0 && errno != EEXIST)
			rc = -1;
		*s = '/';
	}
	if (rc == 0 && mkdir(p, 0755) != 0 && errno != EEXIST)
		rc = -1;
	free(p);
	return (rc);
}

/*
 * Run a command through the shell, its output lines into the logfile as
 * vdbench's plog does; the exit status (-1: it could not run) and in last
 * the first line it wrote (mount(8) says what went wrong there).
 */
static int
run_cmd(const char *what, const char *cmd, char *last, size_t len,
    int *nlines)
{
	char *full, line[1024];
	FILE *f;
	int st;

	last[0] = '\0';
	*nlines = 0;
	xasprintf(&full, "%s 2>&1", cmd);
	f = popen(full, "r");
	free(full);
	if (f == NULL)
		return (-1);
	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if ((*nlines)++ == 0)
			console_logonly("%s command output for %s:", what, cmd);
		console_logonly("output: %s", line);
		if (last[0] == '\0')
			snprintf(last, len, "%s", line + strspn(line, " \t"));
	}
	st = pclose(f);
	return (st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 +
	    (WIFSIGNALED(st) ? WTERMSIG(st) : 0));
}

/*
 * One "mount [options] special mountpoint" request; who names it in the
 * messages ("hd=NAME", or "rd=NAME,hd=NAME" for a remount).
 */
static int
mount_one(const char *who, const char *req, struct errmsg *e)
{
	char *copy = xstrdup(req), *w[64], *tok, *sv = NULL, last[1024];
	char *cmd;
	struct stat st;
	int n = 0, rc, nl;

	for (tok = strtok_r(copy, " \t", &sv); tok != NULL && n < 64;
	    tok = strtok_r(NULL, " \t", &sv))
		w[n++] = tok;
	if (n < 2) {
		errmsg_set(e, NULL, 0, 0, "'%s,mount=\"special [options] "
		    "mountpoint\"' must contain a minimum of two blank "
		    "separated fields: %s", who, req);
		free(copy);
		return (-1);
	}
	/* the last word is the mount point, the one before it the special */
	if (stat(w[n - 1], &st) == 0 && !S_ISDIR(st.st_mode)) {
		errmsg_set(e, NULL, 0, 0, "Mountpoint exists, but is a file, "
		    "not a directory: %s", w[n - 1]);
		free(copy);
		return (-1);
	}
	if (stat(w[n - 1], &st) != 0) {
		if (mkdirs(w[n - 1]) != 0) {
			errmsg_set(e, NULL, 0, 0, "Unable to create mountpoint: "
			    "%s: %s", w[n - 1], strerror(errno));
			free(copy);
			return (-1);
		}
		console_line("Created mountpoint: %s", w[n - 1]);
	}
	if (is_mounted(w[n - 2], w[n - 1])) {
		xasprintf(&cmd, "umount -f '%s'", w[n - 1]);
		console_logonly("%s: unmount: %s", who, cmd);
		rc = run_cmd("Unmount", cmd, last, sizeof(last), &nl);
		free(cmd);
		if (rc != 0) {
			errmsg_set(e, NULL, 0, 0, "%s: Unmount of file system "
			    "failed (%s, exit status %d)%s%s", who, w[n - 1], rc,
			    last[0] != '\0' ? ": " : "", last);
			free(copy);
			return (-1);
		}
	}
	free(copy);
	console_line("%s: mount: %s", who, req);
	rc = run_cmd("Mount", req, last, sizeof(last), &nl);
	if (rc != 0) {
		errmsg_set(e, NULL, 0, 0, "%s: Mount of file system failed: "
		    "'%s' exited with status %d%s%s (%d lines in logfile.html)",
		    who, req, rc, last[0] != '\0' ? ": " : "", last, nl);
		return (-1);
	}
	return (0);
}

/*
 * Every rd mount= against every hd mount= command, before anything is
 * mounted: an option without its value stops the execution here rather
 * than at the rd's run. 0, or -1 with e.
 */
static int
check_remounts(const struct model *m, struct errmsg *e)
{
	const struct rd *r;
	const struct hd *h;
	char *cmd;
	int i;

	TAILQ_FOREACH(r, &m->rds, entry) {
		if (r->mount == NULL)
			continue;
		TAILQ_FOREACH(h, &m->hds, entry) {
			if (strcmp(h->name, "default") == 0 || h->mount.n == 0)
				continue;
			for (i = 0; i < h->mount.n; i++) {
				if (remount_cmd(r->name, h->name, h->mount.v[i],
				    r->mount, &cmd, e) != 0)
					return (-1);
				free(cmd);
			}
		}
	}
	return (0);
}

int
hdmount_run(const struct model *m, struct errmsg *e)
{
	const struct hd *h;
	int i;

	if (check_remounts(m, e) != 0)
		return (-1);
	TAILQ_FOREACH(h, &m->hds, entry) {
		const char *sys = h->system != NULL ? h->system : h->name;

		if (strcmp(h->name, "default") == 0 || h->mount.n == 0)
			continue;
		if (!hosts_is_local(sys)) {
			errmsg_set(e, NULL, 0, 0, "hd=%s,mount=: vdbc runs mount "
			    "commands only on the master's own host, and "
			    "system=%s is another; mount it there first", h->name,
			    sys);
			return (-1);
		}
		for (i = 0; i < h->mount.n; i++) {
			char *who;
			int rc;

			xasprintf(&who, "hd=%s", h->name);
			rc = mount_one(who, h->mount.v[i], e);
			free(who);
			if (rc != 0)
				return (-1);
		}
	}
	return (0);
}

/* One option of a mount command: "-o ro" (flag and value) or "-r". */
struct mopt {
	const char	*flag;
	size_t		 flen;
	const char	*val;		/* NULL: a flag without a value */
};

/* Option words into options; -1 (bad: the flag) when one lacks its value. */
static int
parse_opts(char **w, int n, struct mopt *o, int max, const char **bad)
{
	static const char *const valued[] = { "-o", "-t", "-O", "-L", "-U",
	    "--options", "--types" };
	int i, k, no = 0;

	for (i = 0; i < n && no < max; i++) {
		struct mopt *p = &o[no++];

		p->flag = w[i];
		p->flen = strlen(w[i]);
		p->val = NULL;
		if (w[i][0] != '-')
			continue;
		/* the long names are the letters' */
		if (strcmp(w[i], "--options") == 0)
			p->flag = "-o", p->flen = 2;
		else if (strcmp(w[i], "--types") == 0)
			p->flag = "-t", p->flen = 2;
		for (k = 0; k < (int)(sizeof(valued) / sizeof(valued[0])); k++) {
			if (strcmp(w[i], valued[k]) != 0)
				continue;
			if (i + 1 >= n) {
				*bad = w[i];
				return (-1);
			}
			p->val = w[++i];
		}
		/* "-oro": the letter and its value in one word */
		if (p->val == NULL && w[i][1] != '-' && w[i][1] != '\0' &&
		    strchr("otOLU", w[i][1]) != NULL && w[i][2] != '\0') {
			p->flen = 2;
			p->val = w[i] + 2;
		}
	}
	return (no);
}

/* Append " word" (or its first len bytes) to *s. */
static void
append(char **s, const char *word, size_t len)
{
	char *n;

	xasprintf(&n, "%s%s%.*s", *s, (*s)[0] != '\0' ? " " : "", (int)len,
	    word);
	free(*s);
	*s = n;
}

/*
 * The hd's mount command with the rd's options in place of its own: each
 * rd option replaces the hd's option of the same letter, or is added
 * after the hd's options; the command word, the special and the mount
 * point stay. 0 with *out (to free), or -1 with e.
 */
static int
remount_cmd(const char *rd, const char *host, const char *hdcmd,
    const char *rdopts, char **out, struct errmsg *e)
{
	char *hc = xstrdup(hdcmd), *rc = xstrdup(rdopts), *hw[64], *rw[64];
	char *tok, *sv = NULL, *s;
	struct mopt ho[64], ro[64];
	const char *bad = NULL;
	int hn = 0, rn = 0, nh, nr, i, j;

	for (tok = strtok_r(hc, " \t", &sv); tok != NULL && hn < 64;
	    tok = strtok_r(NULL, " \t", &sv))
		hw[hn++] = tok;
	sv = NULL;
	for (tok = strtok_r(rc, " \t", &sv); tok != NULL && rn < 64;
	    tok = strtok_r(NULL, " \t", &sv))
		rw[rn++] = tok;
	if (hn < 3) {
		errmsg_set(e, NULL, 0, 0, "rd=%s,mount=: hd=%s's mount command "
		    "has no command word before its special and mount point to "
		    "remount with: %s", rd, host, hdcmd);
		goto fail;
	}
	if ((nr = parse_opts(rw, rn, ro, 64, &bad)) < 0) {
		errmsg_set(e, NULL, 0, 0, "rd=%s,mount=\"%s\": option '%s' "
		    "needs a value", rd, rdopts, bad);
		goto fail;
	}
	if ((nh = parse_opts(hw + 1, hn - 3, ho, 64 - nr, &bad)) < 0) {
		errmsg_set(e, NULL, 0, 0, "hd=%s,mount=\"%s\": option '%s' "
		    "needs a value", host, hdcmd, bad);
		goto fail;
	}
	for (j = 0; j < nr; j++) {
		for (i = 0; i < nh; i++) {
			if (ho[i].flag[0] == '-' && ho[i].flen == ro[j].flen &&
			    memcmp(ho[i].flag, ro[j].flag, ro[j].flen) == 0)
				break;
		}
		if (i < nh)
			ho[i] = ro[j];		/* replaced */
		else
			ho[nh++] = ro[j];	/* added */
	}
	s = xstrdup("");
	append(&s, hw[0], strlen(hw[0]));
	for (i = 0; i < nh; i++) {
		append(&s, ho[i].flag, ho[i].flen);
		if (ho[i].val != NULL)
			append(&s, ho[i].val, strlen(ho[i].val));
	}
	append(&s, hw[hn - 2], strlen(hw[hn - 2]));
	append(&s, hw[hn - 1], strlen(hw[hn - 1]));
	*out = s;
	free(hc);
	free(rc);
	return (0);
fail:
	free(hc);
	free(rc);
	return (-1);
}

int
hdmount_remount(const struct model *m, const struct rd *r, struct errmsg *e)
{
	const struct hd *h;
	int i, rc;

	if (r->mount == NULL)
		return (0);
	TAILQ_FOREACH(h, &m->hds, entry) {
		const char *sys = h->system != NULL ? h->system : h->name;

		if (strcmp(h->name, "default") == 0 || h->mount.n == 0)
			continue;
		if (!hosts_is_local(sys)) {
			errmsg_set(e, NULL, 0, 0, "rd=%s,mount=: vdbc remounts "
			    "only on the master's own host, and hd=%s has "
			    "system=%s", r->name, h->name, sys);
			return (-1);
		}
		for (i = 0; i < h->mount.n; i++) {
			char *cmd, *who;

			if (remount_cmd(r->name, h->name, h->mount.v[i],
			    r->mount, &cmd, e) != 0)
				return (-1);
			xasprintf(&who, "rd=%s,hd=%s", r->name, h->name);
			rc = mount_one(who, cmd, e);
			free(who);
			free(cmd);
			if (rc != 0)
				return (-1);
		}
	}
	return (0);
}
