/* SPDX-License-Identifier: MIT */
/*
 * Device safety (DESIGN.md, Safety): before a slave writes to a block
 * device it builds the small graph of devices the write touches or that
 * rest on it, from sysfs: the lun, the devices a loop device rests on
 * (followed down through backing_file while that is a block device), and
 * upwards their partitions, holders (dm, md, LVM) and loop devices layered
 * on them. Then, in order:
 *   mount check      any of them mounted (mountinfo major:minor or source),
 *                    active swap, or a device of a mounted btrfs;
 *   holder check     anyone but the lun's own chain uses one of them;
 *   signature check  libblkid finds a superblock or partition table on the
 *                    lun or what it rests on (every kind libblkid knows);
 *   exclusive check  a device is opened O_EXCL by someone the checks above
 *                    do not explain (a mount in another namespace, a ZFS
 *                    pool). vdbc slaves serialise this test with flock(2)
 *                    on the device node, so they never see each other.
 * A regular file lun is the user's own unless a loop device reads from it;
 * then the loop devices are its users, checked as above (mount, holder).
 * Reading is always allowed; this module only answers and never logs.
 */
#include "safety.h"

#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#define SAFETY_MAX_NODES	64
#define SAFETY_MAX_DEPTH	8	/* loop devices on loop devices */
#define SAFETY_LOCK_WAIT_MS	2000

struct node {
	dev_t	 dev;
	char	 name[64];	/* kernel name: loop0, dm-1, sdb2 */
	char	 rel[512];	/* how it relates: "holder of loop0" */
	char	 path[PATH_MAX];/* a node to open it by (chain only) */
	int	 chain;		/* the lun or a device it rests on */
	int	 user;		/* holds or is layered on the chain */
};

struct graph {
	struct node	n[SAFETY_MAX_NODES];
	int		count;
};

/* Read a sysfs "M:m" file. */
static int
read_dev(const char *path, dev_t *d)
{
	unsigned int maj, min;
	FILE *f = fopen(path, "r");
	int n;

	if (f == NULL)
		return (-1);
	n = fscanf(f, "%u:%u", &maj, &min);
	fclose(f);
	if (n != 2)
		return (-1);
	*d = makedev(maj, min);
	return (0);
}

/* The kernel name of a block device (loop0), or M:m. */
static void
dev_name(dev_t d, char *name, size_t len)
{
	char path[64], link[PATH_MAX];
	const char *base;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(d),
	    minor(d));
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0) {
		snprintf(name, len, "%u:%u", major(d), minor(d));
		return;
	}
	link[n] = '\0';
	base = strrchr(link, '/');
	snprintf(name, len, "%.63s", base != NULL ? base + 1 : link);
}

/* Add a device unless it is there already; its index, or -1. */
static int
add(struct graph *g, dev_t d, int chain, int user, const char *fmt, ...)
{
	struct node *n;
	va_list ap;
	int i;

	for (i = 0; i < g->count; i++)
		if (g->n[i].dev == d)
			return (-1);
	if (g->count == SAFETY_MAX_NODES)
		return (-1);
	n = &g->n[g->count];
	memset(n, 0, sizeof(*n));
	n->dev = d;
	n->chain = chain;
	n->user = user;
	dev_name(d, n->name, sizeof(n->name));
	va_start(ap, fmt);
	vsnprintf(n->rel, sizeof(n->rel), fmt, ap);
	va_end(ap);
	return (g->count++);
}

/* The block device a loop device reads from, if its backing is one. */
static int
loop_backing_file(const char *sysdir, char *path, size_t len)
{
	char p[400];
	FILE *f;
	size_t n;

	snprintf(p, sizeof(p), "%.300s/loop/backing_file", sysdir);
	if ((f = fopen(p, "r")) == NULL)
		return (-1);
	n = fgets(path, (int)len, f) != NULL ? strlen(path) : 0;
	fclose(f);
	if (n == 0)
		return (-1);
	if (path[n - 1] == '\n')
		path[n - 1] = '\0';
	return (0);
}

static int
loop_backing(dev_t d, dev_t *back, char *path, size_t len)
{
	char sys[64];
	struct stat st;

	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(d),
	    minor(d));
	if (loop_backing_file(sys, path, len) != 0 || stat(path, &st) != 0 ||
	    !S_ISBLK(st.st_mode))
		return (0);
	*back = st.st_rdev;
	return (1);
}

/* Add the partitions and holders of node i, and loop devices on it. */
static void
expand(struct graph *g, int i)
{
	char dir[64], p[PATH_MAX + 64], back[PATH_MAX];
	dev_t d = g->n[i].dev, x;
	struct dirent *e;
	struct stat st;
	DIR *dp;

	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(d), minor(d));
	if ((dp = opendir(dir)) != NULL) {
		while ((e = readdir(dp)) != NULL) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(p, sizeof(p), "%s/%s/partition", dir,
			    e->d_name);
			if (access(p, F_OK) != 0)
				continue;
			snprintf(p, sizeof(p), "%s/%s/dev", dir, e->d_name);
			if (read_dev(p, &x) == 0)
				add(g, x, 0, 0, "partition of %s", g->n[i].name);
		}
		closedir(dp);
	}
	snprintf(p, sizeof(p), "%s/holders", dir);
	if ((dp = opendir(p)) != NULL) {
		while ((e = readdir(dp)) != NULL) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(p, sizeof(p), "%s/holders/%s/dev", dir,
			    e->d_name);
			if (read_dev(p, &x) == 0)
				add(g, x, 0, 1, "holder of %s", g->n[i].name);
		}
		closedir(dp);
	}
	/* A loop device on a block device is no sysfs holder of it. */
	if ((dp = opendir("/sys/block")) == NULL)
		return;
	while ((e = readdir(dp)) != NULL) {
		if (strncmp(e->d_name, "loop", 4) != 0)
			continue;
		snprintf(p, sizeof(p), "/sys/block/%s", e->d_name);
		if (loop_backing_file(p, back, sizeof(back)) != 0 ||
		    stat(back, &st) != 0 || !S_ISBLK(st.st_mode) ||
		    st.st_rdev != d)
			continue;
		snprintf(p, sizeof(p), "/sys/block/%s/dev", e->d_name);
		if (read_dev(p, &x) == 0)
			add(g, x, 0, 1, "loop device on %s", g->n[i].name);
	}
	closedir(dp);
}

/* A regular file lun: the loop devices that read from it. */
static void
loops_on_file(struct graph *g, const struct stat *f, const char *lun)
{
	char p[320], back[PATH_MAX];
	struct dirent *e;
	struct stat st;
	DIR *dp;
	dev_t x;

	if ((dp = opendir("/sys/block")) == NULL)
		return;
	while ((e = readdir(dp)) != NULL) {
		if (strncmp(e->d_name, "loop", 4) != 0)
			continue;
		snprintf(p, sizeof(p), "/sys/block/%.256s", e->d_name);
		if (loop_backing_file(p, back, sizeof(back)) != 0 ||
		    stat(back, &st) != 0 || !S_ISREG(st.st_mode) ||
		    st.st_dev != f->st_dev || st.st_ino != f->st_ino)
			continue;
		snprintf(p, sizeof(p), "/sys/block/%.256s/dev", e->d_name);
		if (read_dev(p, &x) == 0)
			add(g, x, 0, 1, "loop device on %s", lun);
	}
	closedir(dp);
}

/* Is d a block device named by path? */
static int
names_dev(const char *path, dev_t d)
{
	struct stat st;

	return (path[0] == '/' && stat(path, &st) == 0 &&
	    S_ISBLK(st.st_mode) && st.st_rdev == d);
}

/* Mounted (mountinfo major:minor or source), swap, or a btrfs device? */
static int
mounted(dev_t d, char *where, size_t len)
{
	char line[4096], dir[PATH_MAX], p[PATH_MAX + 300];
	struct dirent *e, *f;
	DIR *fs, *devs;
	FILE *fp;
	dev_t x;
	int found = 0;

	if ((fp = fopen("/proc/self/mountinfo", "r")) != NULL) {
		while (!found && fgets(line, sizeof(line), fp) != NULL) {
			unsigned int maj, min;
			char mnt[2048], src[2048];
			const char *sep = strstr(line, " - ");

			if (sscanf(line, "%*d %*d %u:%u %*s %2047s", &maj,
			    &min, mnt) != 3)
				continue;
			if ((maj == major(d) && min == minor(d)) ||
			    (sep != NULL && sscanf(sep, " - %*s %2047s",
			    src) == 1 && names_dev(src, d))) {
				snprintf(where, len, "is mounted on %.1900s", mnt);
				found = 1;
			}
		}
		fclose(fp);
	}
	if (!found && (fp = fopen("/proc/swaps", "r")) != NULL) {
		while (!found && fgets(line, sizeof(line), fp) != NULL) {
			if (sscanf(line, "%2047s", p) == 1 && names_dev(p, d)) {
				snprintf(where, len, "is active swap space "
				    "(/proc/swaps)");
				found = 1;
			}
		}
		fclose(fp);
	}
	if (found || (fs = opendir("/sys/fs/btrfs")) == NULL)
		return (found);
	while (!found && (e = readdir(fs)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), "/sys/fs/btrfs/%s/devices",
		    e->d_name);
		if ((devs = opendir(dir)) == NULL)
			continue;
		while (!found && (f = readdir(devs)) != NULL) {
			snprintf(p, sizeof(p), "%s/%s/dev", dir, f->d_name);
			if (f->d_name[0] != '.' && read_dev(p, &x) == 0 &&
			    x == d) {
				snprintf(where, len, "is a device of the "
				    "mounted btrfs file system %s", e->d_name);
				found = 1;
			}
		}
		closedir(devs);
	}
	closedir(fs);
	return (found);
}

/* Append "TYPE (usage, magic at byte N)" for every signature found. */
static int
signatures(const char *path, char *out, size_t len)
{
	blkid_probe pr;
	size_t used = 0;
	int n = 0, rc;

	out[0] = '\0';
	if ((pr = blkid_new_probe_from_filename(path)) == NULL) {
		snprintf(out, len, "libblkid cannot open %s (%s)", path,
		    strerror(errno));
		return (-1);
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
	    BLKID_SUBLKS_USAGE | BLKID_SUBLKS_MAGIC | BLKID_SUBLKS_BADCSUM);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	/* Not safeprobe: every result, ambivalent ones included. */
	while ((rc = blkid_do_probe(pr)) == 0) {
		const char *type = NULL, *usage = NULL, *off = NULL;
		int bad = blkid_probe_has_value(pr, "SBBADCSUM");

		if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0) {
			(void)blkid_probe_lookup_value(pr, "USAGE", &usage,
			    NULL);
			(void)blkid_probe_lookup_value(pr, "SBMAGIC_OFFSET",
			    &off, NULL);
		} else if (blkid_probe_lookup_value(pr, "PTTYPE", &type,
		    NULL) == 0) {
			usage = "partition table";
			(void)blkid_probe_lookup_value(pr, "PTMAGIC_OFFSET",
			    &off, NULL);
		} else
			continue;
		if (used < len)
			used += (size_t)snprintf(out + used, len - used,
			    "%s%s (%s%s%s%s)", n > 0 ? ", " : "", type,
			    usage != NULL ? usage : "signature",
			    off != NULL ? ", magic at byte " : "",
			    off != NULL ? off : "",
			    bad ? ", bad checksum" : "");
		n++;
	}
	blkid_free_probe(pr);
	if (rc < 0 && n == 0) {
		snprintf(out, len, "libblkid cannot probe %s", path);
		return (-1);
	}
	return (n);
}

/*
 * Does someone hold path open with O_EXCL? Other vdbc slaves run this
 * same test only under flock(LOCK_EX) of the device node, so they cannot
 * be the one seen. 1 busy, 0 not, -1 the lock stayed taken.
 */
static int
exclusive_busy(const char *path)
{
	struct timespec pause = { 0, 10 * 1000 * 1000 }, t0, t;
	int lk, fd, busy = 0;

	if ((lk = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return (0);
	/* Bounded in real time, well inside the 5 s in which the master
	 * must hear from this slave (this runs on its main thread). */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (flock(lk, LOCK_EX | LOCK_NB) != 0) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (errno != EWOULDBLOCK || (t.tv_sec - t0.tv_sec) * 1000 +
		    (t.tv_nsec - t0.tv_nsec) / 1000000 >= SAFETY_LOCK_WAIT_MS) {
			close(lk);
			return (errno == EWOULDBLOCK ? -1 : 0);
		}
		nanosleep(&pause, NULL);
	}
	fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0)
		close(fd);
	else
		busy = errno == EBUSY;
	close(lk);
	return (busy);
}

/* "loop0 (backing device of loop1)", or the lun's own path. */
static void
who(const struct graph *g, int i, const char *lun, char *out, size_t len)
{
	if (i == 0 && g->n[0].chain)
		snprintf(out, len, "%s", lun);
	else
		snprintf(out, len, "%s (%s)", g->n[i].name, g->n[i].rel);
}

enum safety_verdict
safety_check_write(const char *lun, int overwrite, int mounted_ok,
    char *why, size_t len)
{
	char what[2048], name[1024], sigs[1024];
	struct graph *g;
	struct stat st;
	enum safety_verdict v = SAFETY_OK;
	int i, mount = -1, user = -1, r;

	if (stat(lun, &st) != 0 ||
	    (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode)))
		return (SAFETY_OK);
	if ((g = calloc(1, sizeof(*g))) == NULL) {
		snprintf(why, len, "out of memory for the safety checks");
		return (SAFETY_NEEDS_OVERWRITE);
	}
	/*
	 * A file is the user's own, unless a loop device reads from it:
	 * then what rests on that loop device is checked as for a device.
	 */
	if (S_ISREG(st.st_mode)) {
		loops_on_file(g, &st, lun);
		if (g->count == 0) {
			free(g);
			return (SAFETY_OK);
		}
	} else {
		add(g, st.st_rdev, 1, 0, "the lun");
		snprintf(g->n[0].path, sizeof(g->n[0].path), "%s", lun);
	}
	for (i = 0; i < SAFETY_MAX_DEPTH && g->count > 0 && g->n[0].chain;
	    i++) {
		char path[PATH_MAX];
		dev_t b;
		int k;

		if (!loop_backing(g->n[g->count - 1].dev, &b, path,
		    sizeof(path)) || (k = add(g, b, 1, 0,
		    "backing device of %s", g->n[g->count - 1].name)) < 0)
			break;
		snprintf(g->n[k].path, sizeof(g->n[k].path), "%s", path);
	}
	for (i = 0; i < g->count; i++)
		expand(g, i);

	for (i = 0; i < g->count && mount < 0; i++)
		if (mounted(g->n[i].dev, what, sizeof(what)))
			mount = i;
	for (i = 0; i < g->count && user < 0; i++)
		if (g->n[i].user)
			user = i;

	if (mount >= 0 && !(overwrite && mounted_ok)) {
		who(g, mount, lun, name, sizeof(name));
		snprintf(why, len, "mount check: %s %s", name, what);
		v = SAFETY_NEEDS_MOUNTED;
	} else if (user >= 0 && !overwrite) {
		who(g, user, lun, name, sizeof(name));
		snprintf(why, len, "holder check: %s uses it", name);
		v = SAFETY_NEEDS_OVERWRITE;
	}
	for (i = 0; v == SAFETY_OK && !overwrite && i < g->count; i++) {
		if (!g->n[i].chain)
			continue;
		if ((r = signatures(g->n[i].path, sigs, sizeof(sigs))) != 0) {
			who(g, i, lun, name, sizeof(name));
			if (r < 0)
				snprintf(why, len, "signature check: %s", sigs);
			else
				snprintf(why, len, "signature check: libblkid "
				    "finds %s on %s", sigs, name);
			v = SAFETY_NEEDS_OVERWRITE;
		}
	}
	/* Only what mount and holders do not explain. */
	for (i = 0; v == SAFETY_OK && mount < 0 && user < 0 &&
	    !(overwrite && mounted_ok) && i < g->count; i++) {
		if (!g->n[i].chain || (r = exclusive_busy(g->n[i].path)) == 0)
			continue;
		who(g, i, lun, name, sizeof(name));
		snprintf(why, len, "exclusive check: %s %s", name, r > 0 ?
		    "is opened exclusively (O_EXCL) by a user this mount "
		    "namespace does not show (a mount in another namespace, "
		    "a ZFS pool, ...)" : "stays locked (flock) by another "
		    "program");
		v = SAFETY_NEEDS_MOUNTED;
	}
	free(g);
	return (v);
}
