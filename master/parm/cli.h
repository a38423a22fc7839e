/* SPDX-License-Identifier: MIT */
#ifndef MASTER_CLI_H
#define MASTER_CLI_H

#include <stdint.h>

#include "errmsg.h"
#include "lexer.h"
#include "model.h"

/*
 * The master's command line, normalised as vdbench does it (PARMFILE.md
 * 3.1): "-f a b c", "-fparm", "-e60", "name=value" substitutions and "+"
 * RD extras. Hand-written: getopt cannot glue arguments this way.
 */
enum cli_dump {
	CLI_DUMP_NONE,
	CLI_DUMP_JSON,
	CLI_DUMP_YAML,
};

struct cli {
	struct strlist	 files;		/* -f, default "parmfile" */
	char		*outdir;	/* -o, default "output" */
	int		 simulate;	/* -s */
	enum cli_dump	 dump;		/* --dump=json */
	long		 elapsed_s;	/* -e, or -1 */
	long		 interval_s;	/* -i, or -1 */
	long		 warmup_s;	/* -w, or -1 */
	int		 jvms;		/* -m, or 0 */
	int		 port;		/* -p / --port, or -1 */
	uint64_t	 seed;		/* --seed */
	int		 seed_set;
	struct subvars	 vars;		/* name=value */
	char		*extras;	/* + ..., or NULL */
	struct strlist	 scanned;	/* arguments as vdbench echoes them */
	int		 quick;		/* -t: 't', '1', '2' or 'f'; 0 */
	int		 quick_delete;	/* -td: a fresh file (always so) */
	char		*token_file;	/* --token-file, for daemons */
	char		*master_addr;	/* --master-addr, or NULL */
	int		 loss_continue;	/* --on-slave-loss=continue */
	char		*ssh;		/* --ssh "ssh -F cfg", or NULL */
	char		*metrics;	/* --metrics [ADDR:]PORT, or NULL */
	char		*debug;		/* --debug=net,proto,..., or NULL */
	int		 force_format;	/* -c/-co/-cy/-cn: 'c','o','y','n'; 0 */
	int		 loop;		/* -l: repeat all runs */
	long		 loop_s;	/* -l n[s|m|h]: until n s passed; 0 */
	int		 known;		/* the error is a known, unbuilt option */
	int		 mb;		/* -mb: MB = 1000**2 in the reports */
	int		 validate;	/* -v letters: VALIDATE_* (model.h) */
	int		 journal;	/* -j letters: JOURNAL_* (model.h) */
	int		 journal_only;	/* -jo: recover, then stop */
};

int	cli_parse(struct cli *, int argc, char *const argv[],
	    struct errmsg *);
/*
 * vdbench's duration of -l and loop=: "n" (seconds), "ns", "nm" or "nh";
 * the seconds, or -1 when s is not one.
 */
long	cli_duration(const char *s);
void	cli_free(struct cli *);
/* vdbench's usage text, one line per element. */
extern const char *const cli_usage[];

#endif /* MASTER_CLI_H */
