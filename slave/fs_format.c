/* SPDX-License-Identifier: MIT */
/*
 * The format run of an fsd (PARMFILE.md 10): clean what vdbc's
 * naming made, the anchor and directories, each thread's slice of
 * the files, and vdb_control.file at the end.
 */
#include "fs_int.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "mtime.h"
#include "ofile.h"

/*
 * Remove what vdbc's naming made under dir; foreign entries stay. The
 * deletes are counted in t's statistics; with t NULL (-c's clean-up on
 * the anchor walk, before the run's first interval) they are not, and
 * the walk's cancel stops it.
 */
static void
clean_dir(struct fswork *w, struct fthread *t, const char *dir,
    uint64_t n[2])
{
	struct dirent *de;
	DIR *d = opendir(dir);
	char p[FS_PATH_MAX];

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL && (t != NULL ? !stopping(w) :
	    !__atomic_load_n(&w->walk_cancel, __ATOMIC_RELAXED))) {
		struct stat st;
		uint64_t t0;

		if (!fstree_is_ours(de->d_name))
			continue;
		if (snprintf(p, sizeof(p), "%s/%s", dir, de->d_name) >=
		    (int)sizeof(p) || lstat(p, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			clean_dir(w, t, p, n);
			t0 = mtime_now_ns();
			if (rmdir(p) == 0) {
				if (t != NULL) {
					count_op(t, FSOP_RMDIR, t0);
					count_misc(t, FSM_DIRECTORY_DELETES);
				}
				n[1]++;
			}
		} else if (strcmp(de->d_name, "vdb_control.file") == 0) {
			/* not one of the tree's files: not counted; -c (no
			 * thread) keeps it, as vdbench's cleanupOldFiles */
			if (t != NULL)
				(void)unlink(p);
		} else if (S_ISREG(st.st_mode)) {
			t0 = mtime_now_ns();
			if (unlink(p) == 0) {
				if (t != NULL) {
					count_op(t, FSOP_DELETE, t0);
					count_misc(t, FSM_FILE_DELETES);
				}
				n[0]++;
			}
		}
	}
	closedir(d);
}

/* vdbench's words after a clean-up of anchor that took from c0 on. */
static void
clean_said(struct fswork *w, const char *anchor, const uint64_t gone[2],
    uint64_t c0)
{
	double secs = (double)(mtime_now_ns() - c0) / 1e9;

	if (gone[0] > 0)
		fs_note(w, 0, "anchor=%s deleted %llu files; %d/sec", anchor,
		    (unsigned long long)gone[0], secs > 0 ?
		    (int)((double)gone[0] / secs) : 0);
	if (gone[1] > 0)
		fs_note(w, 0, "anchor=%s deleted %llu directories; %d/sec",
		    anchor, (unsigned long long)gone[1], secs > 0 ?
		    (int)((double)gone[1] / secs) : 0);
}

/*
 * -c, vdbench's forced cleanupOldFiles (FwgRun.setDeletePending): the
 * first run that uses an anchor (the master marks its fwgs clean_first)
 * deletes the anchor's old tree before anything else, whatever format=
 * says; the run then goes on as written. On the anchor walk, before
 * READY, so the tree's counts are taken after it; a shared fsd is
 * cleaned by the slave with slice 0 only.
 */
void
fs_force_clean(struct fswork *w)
{
	int k, h;

	/* once, on the walk before READY (not on the one after the run) */
	if (w->force_cleaned)
		return;
	w->force_cleaned = 1;
	for (k = 0; k < w->nfwgs; k++) {
		struct fwg *g = &w->fwgs[k];
		uint64_t gone[2] = { 0, 0 }, c0;
		int seen = 0;

		if (!g->clean_first || g->first != 0)
			continue;
		for (h = 0; h < k; h++)
			seen |= w->fwgs[h].clean_first && w->fwgs[h].first ==
			    0 && strcmp(w->fwgs[h].anchor, g->anchor) == 0;
		if (seen)
			continue;
		/* vdbench's slave says it in its own log (stdout.html) */
		log_info("Deleting old file structure because of forced "
		    "cleanupOldFiles ('-c').");
		fs_dv_erase(w, g);
		fs_note(w, 0, "Starting cleanup for anchor=%s", g->anchor);
		c0 = mtime_now_ns();
		clean_dir(w, NULL, g->anchor, gone);
		clean_said(w, g->anchor, gone, c0);
	}
}

/* vdb_control.file: what the tree is, in vdbench's layout. */
static void
write_control(struct fwg *g)
{
	char p[FS_PATH_MAX], when[64];
	time_t now = time(NULL);
	struct tm tm;
	FILE *f;

	if (snprintf(p, sizeof(p), "%s/vdb_control.file", g->anchor) >=
	    (int)sizeof(p) || (f = ofile_fopen(p)) == NULL)
		return;
	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%a %b %d %H:%M:%S %Z %Y", &tm);
	fprintf(f, "when  end %s\ndepth %d\nwidth %d\nfiles %llu\ndist  %s\n"
	    "size  %llu\ndirectory status %llu\n", when, g->tree.depth,
	    g->tree.width, (unsigned long long)g->tree.files_per_dir,
	    g->tree.dist_all ? "all" : "bottom",
	    (unsigned long long)g->tree.size_bytes[0],
	    (unsigned long long)g->tree.ndirs);
	if (g->tree.ndirs > 0)
		fprintf(f, "y\n= %llu\n", (unsigned long long)g->tree.ndirs - 1);
	fprintf(f, "file status %llu\n", (unsigned long long)g->tree.nfiles);
	if (g->tree.nfiles > 0 && !g->dirs_only)
		fprintf(f, "f\n= %llu\n", (unsigned long long)g->tree.nfiles -
		    1);
	fprintf(f, "written by vdbc: its own layout of vdbench's file\n");
	fclose(f);
}

/*
 * create_anchors=yes: make the missing parents of a path, each directory
 * in turn from the top (mkdir -p without the last component); 0 or -1
 * with errno.
 */
static int
make_parents(const char *path)
{
	char p[FS_PATH_MAX], *s;
	int end;

	if (snprintf(p, sizeof(p), "%s", path) >= (int)sizeof(p)) {
		errno = ENAMETOOLONG;
		return (-1);
	}
	if ((s = strrchr(p, '/')) == NULL || s == p)
		return (0);
	*s = '\0';
	for (s = p + 1; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		end = *s == '\0';
		*s = '\0';
		if (mkdir(p, 0755) != 0 && errno != EEXIST)
			return (-1);
		if (end)
			return (0);
		*s = '/';
	}
}

/* The format run of one fsd: clean, anchor, directories, files. */
void
do_format(struct fthread *t)
{
	struct fwg *g = t->g;
	uint64_t f, n, d, t0;
	char p[FS_PATH_MAX];
	struct stat st;

	if (t->slice == g->first) {
		/* One thread of the slave prepares the tree. */
		if (stat(g->anchor, &st) != 0) {
			t0 = mtime_now_ns();
			if (g->create_anchors && make_parents(g->anchor) != 0)
				fs_note(t->w, 1, "anchor=%s: create_anchors=yes "
				    "cannot create its parent directories: %s",
				    g->anchor, strerror(errno));
			else if (mkdir(g->anchor, 0755) != 0 &&
			    errno != EEXIST) {
				fs_note(t->w, 1, "anchor=%s: cannot create the "
				    "anchor directory: %s%s", g->anchor,
				    strerror(errno), errno == ENOENT ?
				    " (its parent must exist); "
				    "create_anchors=yes makes the parents" :
				    "");
			} else {
				/* vdbench does not count the anchor. */
				(void)t0;
				fs_note(t->w, 0, "Created anchor directory: %s",
				    g->anchor);
			}
		} else if (!S_ISDIR(st.st_mode))
			fs_note(t->w, 1, "anchor=%s: not a directory",
			    g->anchor);
		/* A shared fsd: only the slave with slice 0 cleans (the
		 * master lets a shared fsd clean only in a clean-only run) */
		/* (-c's clean-up of this anchor ran before READY) */
		if (!stopping(t->w) && g->format_clean && g->first == 0 &&
		    !g->clean_first) {
			uint64_t gone[2] = { 0, 0 }, c0 = mtime_now_ns();

			/* vdbench forgets the fsd's blocks at its clean-up */
			fs_dv_erase(t->w, g);

			fs_note(t->w, 0, "Starting cleanup for anchor=%s",
			    g->anchor);
			clean_dir(t->w, t, g->anchor, gone);
			clean_said(t->w, g->anchor, gone, c0);
		}
		for (d = 0; d < g->tree.ndirs && !stopping(t->w) &&
		    !g->clean_only; d++) {
			dir_path(g, d, p, sizeof(p));
			t0 = mtime_now_ns();
			if (mkdir(p, 0755) == 0) {
				count_op(t, FSOP_MKDIR, t0);
				count_misc(t, FSM_DIRECTORY_CREATES);
			} else if (errno == EEXIST) {
				count_misc(t, FSM_DIR_EXISTS);
			} else {
				fs_note(t->w, 1, "anchor=%s: mkdir %s failed: "
				    "%s", g->anchor, p, strerror(errno));
			}
		}
		if (!stopping(t->w))
			fs_note(t->w, 0, "anchor=%s %s complete.", g->anchor,
			    g->clean_only ? "clean" : "mkdir");
	}
	pthread_barrier_wait(&g->barrier);
	n = slice_count(g, t->slice);
	for (f = 0; f < n && !stopping(t->w) && !g->dirs_only &&
	    !g->clean_only; f++) {
		uint64_t fi = (uint64_t)t->slice + f * (uint64_t)g->total;

		file_path(g, fi, p, sizeof(p));
		if (fill_file(t, p, fi, fstree_file_size(&g->tree, fi),
		    g->format_restart, 0) != 0)
			break;
	}
	if (__atomic_add_fetch(&g->finished, 1, __ATOMIC_ACQ_REL) ==
	    g->nthreads && !stopping(t->w) && !g->clean_only) {
		write_control(g);
		fs_note(t->w, 0, "anchor=%s %s complete.", g->anchor,
		    g->dirs_only ? "mkdir" : "create");
	}
}
