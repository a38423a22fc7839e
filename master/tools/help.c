/* SPDX-License-Identifier: MIT */
/* vdbc help and vdbc --version (help.h). */
#include "help.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char *const roles[] = {
	"vdbc [options] [name=value ...] [+ rd extras]",
	"    the master: run the parmfile(s), reports in the -o directory",
	"vdbc slave --connect HOST:PORT --name LABEL ...",
	"    a slave (the master starts its own; rarely typed)",
	"vdbc slave --listen [ADDR][:PORT] --token-file FILE",
	"    the slave daemon on a host whose hd= says shell=vdbench",
	"vdbc slave --gen-token FILE",
	"    a token for the daemons and the master (mode 0600)",
	"vdbc rsh ADDR[:PORT] --token-file FILE",
	"    vdbench's word for the daemon: vdbc slave --listen",
	"vdbc parseflat -i flatfile.html [-o out.csv] -c col ... [-a] "
	    "[-f col value ...] [-q]",
	"    flatfile.html columns to CSV, as vdbench's parseflat",
	"vdbc quick TARGET [--size S] [--time T] [-o DIR] [--seed N] [-s]",
	"    what a file or device can do: the standard matrix (25 runs, "
	    "about two minutes),",
	"    a table, DIR/quick.html and DIR/quick.parm (runs under "
	    "vdbench)",
	"vdbc compare OLD NEW [-o DIR] [--threshold PCT]",
	"    two output directories (vdbc's or vdbench's) run by run; "
	    "DIR/compare.html",
	"vdbc index DIR... [-o DIR]",
	"    every run of many output directories: DIR/index.html "
	    "(sortable), DIR/index.csv",
	"vdbc printjournal FILE.jnl|FILE.map [-l LBA]",
	"    a Data Validation journal or map, as vdbench's printjournal",
	"vdbc help | --help | -h        this text",
	"vdbc --version                 the version",
	NULL,
};

int
help_main(int argc, char *argv[])
{
	int i;

	if (argc > 1 && strcmp(argv[1], "--version") == 0) {
		printf("vdbc %s\n", VDBC_VERSION);
		return (0);
	}
	printf("vdbc %s, a vdbench-compatible storage load generator\n\n"
	    "The first word picks the role:\n\n", VDBC_VERSION);
	for (i = 0; roles[i] != NULL; i++)
		printf("  %s\n", roles[i]);
	printf("\nThe master's options (vdbench's, and vdbc's --long "
	    "ones):\n");
	for (i = 0; cli_usage[i] != NULL; i++) {
		if (strstr(cli_usage[i], "usage:") != NULL)
			continue;
		printf("%s\n", cli_usage[i]);
	}
	printf("\nDocumentation: README.md and docs/ (docs/parmfile.md: "
	    "every keyword).\n");
	return (0);
}
