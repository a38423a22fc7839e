/* SPDX-License-Identifier: MIT */
/*
 * One operation of a run thread on one file or directory: read or
 * write it (rw_file), or one metadata operation (meta_op), copy and
 * move to the target fsd's tree among them.
 */
#include "fs_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mtime.h"

/* Read or write one selected file (fi): open, stopafter worth, close. */
int
rw_file(struct fthread *t, const char *path, uint64_t fi, uint64_t size,
    uint64_t *next)
{
	struct fwg *g = t->g;
	int writes = g->op == OP_WRITE || g->readpct >= 0;
	uint64_t t0 = mtime_now_ns(), done = 0, want, off = 0;
	/* -v reads a block before it writes it over (fs_dv.c) */
	int fd = -1, mode = (writes ? (g->readpct >= 0 || g->dvm != NULL ?
	    O_RDWR : O_WRONLY) : O_RDONLY) | O_CLOEXEC | g->oflags;

	if (g->delete_first && g->op == OP_WRITE) {
		/* fileio=(sequential,delete): a new file each time */
		if (unlink(path) == 0) {
			count_op(t, FSOP_DELETE, t0);
			count_misc(t, FSM_FILE_DELETES);
		}
		t0 = mtime_now_ns();
	} else
		fd = open(path, mode | O_NOFOLLOW);
	if (fd < 0 && g->op == OP_WRITE && (g->delete_first ||
	    errno == ENOENT)) {
		/* operation=write makes a missing file (a create) */
		if ((fd = open(path, mode | O_CREAT | O_EXCL, 0644)) >= 0) {
			count_op(t, FSOP_CREATE, t0);
			count_misc(t, FSM_FILE_CREATES);
		}
	}
	if (fd < 0) {
		count_misc(t, errno == EEXIST ? FSM_FILE_BUSY :
		    FSM_FILE_NOT_FOUND);
		return (errno == ENOENT || errno == EEXIST ? 0 : -1);
	}
	count_op(t, FSOP_OPEN, t0);
	count_misc(t, writes ? FSM_WRITE_OPENS : FSM_READ_OPENS);
	want = g->stopafter == 0 ? size : g->stopafter > 0 ?
	    (uint64_t)g->stopafter * g->xfer.size_bytes[0] :
	    (uint64_t)(-g->stopafter / 100 * (double)size);
	while (done < want && !stopping(t->w)) {
		uint64_t x = g->xfer.kind == XFER_DIST ? g->xfer.size_bytes[
		    workload_pick(g->xfer_cum, g->xfer.n, &t->rng)] :
		    g->xfer.size_bytes[0], s;
		int dir = g->readpct >= 0 ? rng_double(&t->rng) * 100 >=
		    g->readpct : g->op == OP_WRITE;
		ssize_t r;

		if (x > size)
			x = size;
		if (x == 0)
			break;
		if (g->random_io)
			off = rng_below(&t->rng, size / x) * x;
		else if (off + x > size)
			break;		/* sequential: stop at end of file */
		if (pace(t, next) != 0)
			break;
		if (g->dvm != NULL) {
			/* -v: pre-read, validate, keys (fs_dv.c) */
			int rc = fs_dv_rw(t, fd, path, fi, dir, off, x);

			if (rc < 0) {
				close(fd);
				return (-1);
			}
			if (!g->random_io)
				off += x;
			done += x;
			continue;
		}
		if (dir)
			wdata_block(&t->w->wd, NULL, (unsigned char *)t->buf,
			    off, x, (uint32_t)fd,
			    (uint32_t)(mtime_now_ns() / 1000));
		s = mtime_now_ns();
		r = dir ? pwrite(fd, t->buf, x, (off_t)off) :
		    pread(fd, t->buf, x, (off_t)off);
		if (r < 0) {
			fs_note(t->w, 1, "anchor=%s: %s %s at offset %llu "
			    "failed: %s", g->anchor, dir ? "write" : "read",
			    path, (unsigned long long)off, strerror(errno));
			close(fd);
			return (-1);
		}
		count_io(t, dir, (uint64_t)r, s, mtime_now_ns());
		if (!g->random_io)
			off += x;
		done += x;
	}
	close_counted(t, fd);
	return (0);
}

/* The same file in the target fsd's tree; its directory made if need be. */
static void
target_path(const struct fwg *g, uint64_t f, char *buf, size_t len)
{
	char rel[FS_PATH_MAX], *slash;

	fstree_file_path(&g->tree, f, rel, sizeof(rel));
	if (snprintf(buf, len, "%s/%s", g->target, rel) >= (int)len)
		buf[len - 1] = '\0';
	if ((slash = strrchr(buf, '/')) != NULL && slash > buf) {
		*slash = '\0';
		if (mkdir(buf, 0755) != 0 && errno == ENOENT) {
			/* the target anchor itself may be missing */
			char *up = strrchr(buf, '/');

			if (up != NULL && up > buf) {
				*up = '\0';
				mkdir(buf, 0755);
				*up = '/';
			}
			mkdir(buf, 0755);
		}
		*slash = '/';
	}
}

/* copy: the file to the target tree; move: rename it there. 0 when the
 * source is gone (already moved). */
static int
copy_move(struct fthread *t, const char *path, uint64_t fi)
{
	struct fwg *g = t->g;
	char dst[FS_PATH_MAX];
	uint64_t t0 = mtime_now_ns();
	int in, out;
	ssize_t r;

	target_path(g, fi, dst, sizeof(dst));
	if (g->op == OP_MOVE) {
		if (rename(path, dst) != 0) {
			count_misc(t, FSM_FILE_NOT_FOUND);
			return (0);
		}
		count_op(t, FSOP_MOVE, t0);
		return (1);
	}
	if ((in = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) < 0) {
		count_misc(t, FSM_FILE_NOT_FOUND);
		return (0);
	}
	if ((out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
	    O_NOFOLLOW, 0644)) < 0) {
		fs_note(t->w, 1, "copy %s to %s: %s", path, dst,
		    strerror(errno));
		close(in);
		return (0);
	}
	/* A copy finishes its file even when the run stops: a half copy
	 * would leave the target tree short. */
	while ((r = read(in, t->buf, t->buflen)) > 0) {
		if (write(out, t->buf, (size_t)r) != r) {
			fs_note(t->w, 1, "copy %s to %s: %s", path, dst,
			    strerror(errno));
			break;
		}
	}
	close(in);
	close(out);
	count_op(t, FSOP_COPY, t0);
	return (1);
}

/* One metadata operation on a file or directory; 0 when there was
 * nothing to do (the file exists for create, is gone for delete, ...). */
int
meta_op(struct fthread *t, const char *path, uint64_t fi)
{
	struct fwg *g = t->g;
	uint64_t t0 = mtime_now_ns();
	struct stat st;
	int fd;

	switch (g->op) {
	case OP_CREATE:
		if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC |
		    g->oflags, 0644)) < 0) {
			count_misc(t, errno == EEXIST ? FSM_FILE_BUSY :
			    FSM_FILE_NOT_FOUND);
			return (0);
		}
		count_op(t, FSOP_CREATE, t0);
		count_misc(t, FSM_FILE_CREATES);
		close(fd);
		fill_file(t, path, fi, fstree_file_size(&g->tree, fi), 0, 1);
		break;
	case OP_DELETE:
		if (unlink(path) == 0) {
			count_op(t, FSOP_DELETE, t0);
			count_misc(t, FSM_FILE_DELETES);
		} else {
			count_misc(t, FSM_FILE_NOT_FOUND);
			return (0);
		}
		break;
	case OP_OPEN:
	case OP_CLOSE:
		if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW |
		    g->oflags)) < 0) {
			count_misc(t, FSM_FILE_NOT_FOUND);
			return (0);
		}
		count_op(t, FSOP_OPEN, t0);
		count_misc(t, FSM_READ_OPENS);
		close_counted(t, fd);
		break;
	case OP_GETATTR:
		if (stat(path, &st) == 0)
			count_op(t, FSOP_GETATTR, t0);
		else
			count_misc(t, FSM_FILE_NOT_FOUND);
		break;
	case OP_SETATTR:
		if (chmod(path, fi % 2 ? 0640 : 0644) == 0)
			count_op(t, FSOP_SETATTR, t0);
		else
			count_misc(t, FSM_FILE_NOT_FOUND);
		break;
	case OP_COPY:
	case OP_MOVE:
		return (copy_move(t, path, fi));
	case OP_ACCESS:
		if (access(path, R_OK) == 0)
			count_op(t, FSOP_ACCESS, t0);
		else
			count_misc(t, FSM_FILE_NOT_FOUND);
		break;
	case OP_MKDIR:
		if (mkdir(path, 0755) == 0) {
			count_op(t, FSOP_MKDIR, t0);
			count_misc(t, FSM_DIRECTORY_CREATES);
		} else {
			count_misc(t, FSM_DIR_EXISTS);
			return (0);
		}
		break;
	case OP_RMDIR:
		if (rmdir(path) == 0) {
			count_op(t, FSOP_RMDIR, t0);
			count_misc(t, FSM_DIRECTORY_DELETES);
		} else {
			count_misc(t, FSM_FILE_BUSY);
			return (0);
		}
		break;
	default:
		break;
	}
	return (1);
}
