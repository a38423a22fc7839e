/* SPDX-License-Identifier: MIT */
/* Token files and cookies (see auth.h), through libcrypto. */
#include "auth.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/rand.h>

/* Bytes to lower-case hex. */
static void
to_hex(const uint8_t *b, size_t n, char *out)
{
	static const char d[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = d[b[i] >> 4];
		out[2 * i + 1] = d[b[i] & 15];
	}
	out[2 * n] = '\0';
}

/* One hex digit, or -1. */
static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return (c - '0');
	if (c >= 'a' && c <= 'f')
		return (c - 'a' + 10);
	if (c >= 'A' && c <= 'F')
		return (c - 'A' + 10);
	return (-1);
}

/* Random bytes, or abort: a predictable token or nonce is worse. */
static void
random_bytes(uint8_t *b, size_t n)
{
	if (RAND_bytes(b, (int)n) != 1) {
		fprintf(stderr, "vdbc: no random bytes from libcrypto\n");
		abort();
	}
}

int
auth_gen_token(const char *path, struct errmsg *e)
{
	uint8_t key[AUTH_KEY_BYTES];
	char hex[2 * AUTH_KEY_BYTES + 2];
	int fd;

	random_bytes(key, sizeof(key));
	to_hex(key, sizeof(key), hex);
	strcat(hex, "\n");
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    0600)) < 0) {
		errmsg_set(e, NULL, 0, 0, "token file %s: %s%s", path,
		    strerror(errno), errno == EEXIST ? " (vdbc never "
		    "overwrites a token; remove it first)" : "");
		return (-1);
	}
	if (write(fd, hex, strlen(hex)) != (ssize_t)strlen(hex) ||
	    fsync(fd) != 0) {
		errmsg_set(e, NULL, 0, 0, "token file %s: %s", path,
		    strerror(errno));
		close(fd);
		unlink(path);
		return (-1);
	}
	close(fd);
	return (0);
}

int
auth_load_token(const char *path, uint8_t key[AUTH_KEY_BYTES],
    struct errmsg *e)
{
	char buf[256];
	struct stat st;
	ssize_t n;
	int fd, i;
	uint8_t nonzero = 0;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		errmsg_set(e, NULL, 0, 0, "token file %s: %s", path,
		    strerror(errno));
		return (-1);
	}
	if (fstat(fd, &st) != 0 || (st.st_mode & 077) != 0) {
		errmsg_set(e, NULL, 0, 0, "token file %s is readable by others "
		    "(mode %04o); chmod 600 it", path,
		    (unsigned)(st.st_mode & 07777));
		close(fd);
		return (-1);
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r' ||
	    buf[n - 1] == ' '))
		buf[--n] = '\0';
	if (n != 2 * AUTH_KEY_BYTES) {
		errmsg_set(e, NULL, 0, 0, "token file %s: expected %d hex "
		    "digits (make one with 'vdbc slave --gen-token FILE')",
		    path, 2 * AUTH_KEY_BYTES);
		return (-1);
	}
	for (i = 0; i < AUTH_KEY_BYTES; i++) {
		int hi = hexval(buf[2 * i]), lo = hexval(buf[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			errmsg_set(e, NULL, 0, 0, "token file %s: not a hex "
			    "digit at character %d", path, 2 * i +
			    (hi < 0 ? 1 : 2));
			return (-1);
		}
		key[i] = (uint8_t)(hi << 4 | lo);
		nonzero |= key[i];
	}
	if (nonzero == 0) {
		errmsg_set(e, NULL, 0, 0, "token file %s: an all-zero token is "
		    "no secret (make one with 'vdbc slave --gen-token FILE')",
		    path);
		return (-1);
	}
	return (0);
}

void
auth_nonce(char out[AUTH_NONCE_HEX + 1])
{
	uint8_t b[AUTH_NONCE_HEX / 2];

	random_bytes(b, sizeof(b));
	to_hex(b, sizeof(b), out);
}
