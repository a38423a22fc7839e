/* SPDX-License-Identifier: MIT */
#ifndef COMMON_FSTREE_H
#define COMMON_FSTREE_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/*
 * The tree an fsd describes (PARMFILE.md 9), as pure geometry shared by
 * the master (anchor sizes) and the slaves (what to create, read, clean):
 * directories vdb.<level>_<n>.dir, files vdb_f<nnnn>.file, vdbench's
 * names. Directories are numbered level by level (parents first); files
 * directory by directory in tree order. A file's size is a fixed function
 * of its number, so every slave and every run agree without a list.
 */
struct fstree {
	int		 depth, width;
	uint64_t	 files_per_dir;
	int		 dist_all;
	uint64_t	 ndirs;		/* all directories */
	uint64_t	 nholders;	/* directories that hold files */
	uint64_t	 nfiles_all;	/* the whole tree */
	uint64_t	 bytes_all;
	uint64_t	 nfiles;	/* used: after totalsize= */
	uint64_t	 total_bytes;	/* of those files */
	uint64_t	 nfiles_wss;	/* the first files within workingsetsize= */
	int		 nsizes;
	uint64_t	 size_bytes[16];
	uint64_t	 size_count[16];	/* files of each size */
	int		 size_avg;	/* sizes=(avg,0) */
};

/*
 * Geometry of an fsd; 0, -1 when it has more than 16 sizes, -2 when its
 * directories, files or bytes do not fit in 64 bits (the tree cannot
 * exist; depth=10,width=100,files=100 is one).
 */
int		fstree_init(struct fstree *, const struct fsd *);
/* Relative path of directory d (0 .. ndirs-1). */
void		fstree_dir_path(const struct fstree *, uint64_t d, char *buf,
		    size_t len);
/* Relative path of file f (0 .. nfiles-1). */
void		fstree_file_path(const struct fstree *, uint64_t f, char *buf,
		    size_t len);
uint64_t	fstree_file_size(const struct fstree *, uint64_t f);
/* Whether a name is one vdbc's naming makes ("vdb.1_2.dir",
 * "vdb_f0001.file", "vdb_control.file"). */
int		fstree_is_ours(const char *name);

#endif /* COMMON_FSTREE_H */
