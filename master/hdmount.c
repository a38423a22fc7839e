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
 * the last line it wrote.
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
		snprintf(last, len, "%s", line);
	}
	st = pclose(f);
	return (st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 +
	    (WIFSIGNALED(st) ? WTERMSIG(st) : 0));
}

/* One "mount [options] special mountpoint" request of a host. */
static int
mount_one(const char *host, const char *req, struct errmsg *e)
{
	char *copy = xstrdup(req), *w[64], *tok, *sv = NULL, last[1024];
	char *cmd;
	struct stat st;
	int n = 0, rc, nl;

	for (tok = strtok_r(copy, " \t", &sv); tok != NULL && n < 64;
	    tok = strtok_r(NULL, " \t", &sv))
		w[n++] = tok;
	if (n < 2) {
		errmsg_set(e, NULL, 0, 0, "'hd=%s,mount=\"special [options] "
		    "mountpoint\"' must contain a minimum of two blank "
		    "separated fields: %s", host, req);
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
		rc = run_cmd("Unmount", cmd, last, sizeof(last), &nl);
		free(cmd);
		if (rc != 0) {
			errmsg_set(e, NULL, 0, 0, "hd=%s: Unmount of file system "
			    "failed (%s, exit status %d)%s%s", host, w[n - 1], rc,
			    last[0] != '\0' ? ": " : "", last);
			free(copy);
			return (-1);
		}
	}
	free(copy);
	console_line("hd=%s: mount: %s", host, req);
	rc = run_cmd("Mount", req, last, sizeof(last), &nl);
	if (rc != 0) {
		errmsg_set(e, NULL, 0, 0, "hd=%s: Mount of file system failed: "
		    "'%s' exited with status %d%s%s (%d lines in logfile.html)",
		    host, req, rc, last[0] != '\0' ? ": " : "", last, nl);
		return (-1);
	}
	return (0);
}

int
hdmount_run(const struct model *m, struct errmsg *e)
{
	const struct hd *h;
	const struct pvals *v;
	int i;

	TAILQ_FOREACH(h, &m->hds, entry) {
		const char *sys = h->system != NULL ? h->system : h->name;

		if (strcmp(h->name, "default") == 0 ||
		    (v = bag_get(&h->bag, "mount")) == NULL)
			continue;
		if (!hosts_is_local(sys)) {
			errmsg_set(e, NULL, 0, 0, "hd=%s,mount=: vdbc runs mount "
			    "commands only on the master's own host, and "
			    "system=%s is another; mount it there first", h->name,
			    sys);
			return (-1);
		}
		for (i = 0; i < v->n; i++) {
			if (mount_one(h->name, v->v[i].str, e) != 0)
				return (-1);
		}
	}
	return (0);
}
