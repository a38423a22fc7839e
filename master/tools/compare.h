/* SPDX-License-Identifier: MIT */
#ifndef MASTER_COMPARE_H
#define MASTER_COMPARE_H

/*
 * "vdbc compare OLD NEW [-o DIR] [--threshold PCT]": the runs of two
 * output directories (vdbc's or vdbench's) matched by name and for-loop
 * values, their averages side by side with the change in %; a text table
 * on the console and DIR/compare.html. argv[1] is "compare".
 */
int	compare_main(int argc, char *argv[]);

#endif /* MASTER_COMPARE_H */
