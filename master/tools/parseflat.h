/* SPDX-License-Identifier: MIT */
#ifndef MASTER_PARSEFLAT_H
#define MASTER_PARSEFLAT_H

/* "vdbc parseflat ...": flatfile.html columns to CSV, as vdbench's. */
int	parseflat_main(int argc, char *argv[]);

#endif /* MASTER_PARSEFLAT_H */
