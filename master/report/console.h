/* SPDX-License-Identifier: MIT */
#ifndef MASTER_CONSOLE_H
#define MASTER_CONSOLE_H

#include <stdio.h>

/*
 * vdbench's console: every line starts with the time of day
 * "HH:MM:SS.mmm ", but for console_plain()'s banner lines, which have
 * none in vdbench either. A fatal error is an empty line, the message, an empty
 * line (PARMFILE.md 3.5). The stream is stdout unless console_use()
 * moves it (--dump=json keeps stdout for the JSON).
 */
void	console_use(FILE *);
void	console_tee(FILE *);
void	console_line(const char *, ...) __attribute__((format(printf, 1, 2)));
void	console_logonly(const char *, ...)
	    __attribute__((format(printf, 1, 2)));
void	console_plain(const char *, ...) __attribute__((format(printf, 1, 2)));
void	console_held(const char *, ...) __attribute__((format(printf, 1, 2)));
void	console_fatal(const char *, ...) __attribute__((format(printf, 1, 2)));

#endif /* MASTER_CONSOLE_H */
