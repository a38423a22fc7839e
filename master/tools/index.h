/* SPDX-License-Identifier: MIT */
#ifndef MASTER_INDEX_H
#define MASTER_INDEX_H

/*
 * "vdbc index DIR... [-o DIR]": every run of every output directory
 * (vdbc's or vdbench's; a directory that is not one is searched for them)
 * in one page, DIR/index.html, sortable by any column in the browser,
 * and DIR/index.csv. argv[1] is "index".
 */
int	index_main(int argc, char *argv[]);

#endif /* MASTER_INDEX_H */
