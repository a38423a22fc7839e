/*
 * Token files and cookies (proto/auth.c): a generated token loads back
 * to the same key and is never overwritten; a token others can read, of
 * the wrong length, with a non-hex digit or all zero is refused naming
 * the file and what is wrong; nonces are hex and fresh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "auth.h"

static char dir[64];

static int
setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/vdbc-test-auth.XXXXXX");
	return (mkdtemp(dir) == NULL ? -1 : 0);
}

static int
teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return (system(cmd) == 0 ? 0 : -1);
}

/* Write text to dir/name with mode; the path goes to path. */
static void
put(const char *name, const char *text, mode_t mode, char *path,
    size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", dir, name);
	unlink(path);
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
}

/* Load path; expect failure with want in the message. */
static void
refused(const char *path, const char *want)
{
	uint8_t key[AUTH_KEY_BYTES];
	struct errmsg e;

	memset(&e, 0, sizeof(e));
	assert_int_equal(auth_load_token(path, key, &e), -1);
	if (strstr(e.text, want) == NULL || strstr(e.text, path) == NULL)
		fail_msg("'%s' lacks '%s' or the path", e.text, want);
}

static void
test_gen_load(void **state)
{
	uint8_t key[AUTH_KEY_BYTES], again[AUTH_KEY_BYTES], zero[AUTH_KEY_BYTES];
	char path[128], hex[80];
	struct errmsg e;
	struct stat st;
	FILE *f;
	int i;

	(void)state;
	snprintf(path, sizeof(path), "%s/tok", dir);
	assert_int_equal(auth_gen_token(path, &e), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(st.st_size, 2 * AUTH_KEY_BYTES + 1);
	assert_int_equal(auth_load_token(path, key, &e), 0);
	memset(zero, 0, sizeof(zero));
	assert_memory_not_equal(key, zero, sizeof(key));
	/* the file's hex is the key */
	assert_non_null(f = fopen(path, "r"));
	assert_non_null(fgets(hex, sizeof(hex), f));
	fclose(f);
	for (i = 0; i < AUTH_KEY_BYTES; i++) {
		unsigned b;

		assert_int_equal(sscanf(hex + 2 * i, "%2x", &b), 1);
		assert_int_equal(b, key[i]);
	}
	/* never over an existing token: the old key stays */
	memset(&e, 0, sizeof(e));
	assert_int_equal(auth_gen_token(path, &e), -1);
	assert_non_null(strstr(e.text, "never overwrites a token"));
	assert_int_equal(auth_load_token(path, again, &e), 0);
	assert_memory_equal(key, again, sizeof(key));
	/* two tokens differ */
	snprintf(path, sizeof(path), "%s/tok2", dir);
	assert_int_equal(auth_gen_token(path, &e), 0);
	assert_int_equal(auth_load_token(path, again, &e), 0);
	assert_memory_not_equal(key, again, sizeof(key));
	/* a directory that does not exist */
	snprintf(path, sizeof(path), "%s/no/tok", dir);
	assert_int_equal(auth_gen_token(path, &e), -1);
	assert_non_null(strstr(e.text, path));
}

static void
test_load_forms(void **state)
{
	uint8_t key[AUTH_KEY_BYTES];
	char path[128], text[100];
	struct errmsg e;
	int i;

	(void)state;
	/* upper case, CRLF and trailing blanks are fine */
	for (i = 0; i < AUTH_KEY_BYTES; i++)
		snprintf(text + 2 * i, 3, "%02X", (unsigned)(i + 0xa0));
	strcat(text, " \r\n");
	put("upper", text, 0600, path, sizeof(path));
	assert_int_equal(auth_load_token(path, key, &e), 0);
	for (i = 0; i < AUTH_KEY_BYTES; i++)
		assert_int_equal(key[i], i + 0xa0);
	/* 0400 is fine too: only group and others matter */
	assert_int_equal(chmod(path, 0400), 0);
	assert_int_equal(auth_load_token(path, key, &e), 0);
}

static void
test_load_refused(void **state)
{
	char path[128], text[100];

	(void)state;
	snprintf(path, sizeof(path), "%s/missing", dir);
	refused(path, "No such file");
	memset(text, 'a', 64);
	strcpy(text + 64, "\n");
	put("group", text, 0640, path, sizeof(path));
	refused(path, "readable by others (mode 0640)");
	put("other", text, 0604, path, sizeof(path));
	refused(path, "readable by others (mode 0604)");
	/* one digit short, one too many, empty */
	put("short", text + 1, 0600, path, sizeof(path));
	refused(path, "expected 64 hex digits");
	text[64] = 'a';
	strcpy(text + 65, "\n");
	put("long", text, 0600, path, sizeof(path));
	refused(path, "expected 64 hex digits");
	put("empty", "", 0600, path, sizeof(path));
	refused(path, "expected 64 hex digits");
	/* a non-hex digit, named by its position (1-based) */
	memset(text, 'a', 64);
	strcpy(text + 64, "\n");
	text[9] = 'g';
	put("nonhex", text, 0600, path, sizeof(path));
	refused(path, "not a hex digit at character 10");
	text[9] = 'a';
	text[0] = 'z';
	put("nonhex1", text, 0600, path, sizeof(path));
	refused(path, "not a hex digit at character 1");
	/* all zero is no secret */
	memset(text, '0', 64);
	put("zero", text, 0600, path, sizeof(path));
	refused(path, "all-zero token");
}

static void
test_nonce(void **state)
{
	char a[AUTH_NONCE_HEX + 1], b[AUTH_NONCE_HEX + 1];

	(void)state;
	memset(a, 'x', sizeof(a));
	auth_nonce(a);
	auth_nonce(b);
	assert_int_equal(strlen(a), AUTH_NONCE_HEX);
	assert_int_equal(strspn(a, "0123456789abcdef"), AUTH_NONCE_HEX);
	assert_string_not_equal(a, b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gen_load),
		cmocka_unit_test(test_load_forms),
		cmocka_unit_test(test_load_refused),
		cmocka_unit_test(test_nonce),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
