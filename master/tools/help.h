/* SPDX-License-Identifier: MIT */
#ifndef MASTER_HELP_H
#define MASTER_HELP_H

/*
 * "vdbc help", "vdbc --help", "vdbc -h": the roles and the master's
 * options on standard output, exit 0; "vdbc --version": the version.
 */
int	help_main(int argc, char *argv[]);

#endif /* MASTER_HELP_H */
