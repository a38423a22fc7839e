/* Escaping of outside text for the pages and the console (common/html.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "html.h"

static void
test_html_esc(void **state)
{
	char buf[256], small[12];

	(void)state;
	assert_string_equal(html_esc(buf, sizeof(buf),
	    "<script>alert('x')</script> & \"q\""),
	    "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; "
	    "&quot;q&quot;");
	/* tab and newline stay; other control characters do not */
	assert_string_equal(html_esc(buf, sizeof(buf), "a\tb\nc\033[31md\x7f"),
	    "a\tb\nc?[31md?");
	/* UTF-8 passes as it is */
	assert_string_equal(html_esc(buf, sizeof(buf), "caf\xc3\xa9"),
	    "caf\xc3\xa9");
	/* cut at a whole entity, never half of one */
	assert_string_equal(html_esc(small, sizeof(small), "abcdefgh<i>"),
	    "abcdefgh");
	assert_string_equal(html_esc(small, sizeof(small), "ab<cd"),
	    "ab&lt;cd");
	assert_string_equal(html_esc(buf, sizeof(buf), NULL), "");
}

static void
test_html_put(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	html_put(f, "<b>&</b>\n");
	assert_int_equal(fclose(f), 0);
	assert_string_equal(text, "&lt;b&gt;&amp;&lt;/b&gt;\n");
	free(text);
}

static void
test_text_clean(void **state)
{
	char a[] = "red\033[31m, bell\a, cr\r, del\x7f, tab\tnl\n";
	char b[] = "csi\xc2\x9b" "2J and \xc3\xa9 \xe2\x82\xac";
	char c[] = "\x9b" "2J lone and a\x9b" "b";
	char d[] = "line\nnext";

	(void)state;
	assert_string_equal(text_clean(a, 1),
	    "red?[31m, bell?, cr?, del?, tab\tnl\n");
	/* the 8-bit CSI as UTF-8 (U+009B) goes; other UTF-8 stays */
	assert_string_equal(text_clean(b, 1),
	    "csi??2J and \xc3\xa9 \xe2\x82\xac");
	/* a lone C1 byte, outside any UTF-8 sequence */
	assert_string_equal(text_clean(c, 1), "?2J lone and a?b");
	assert_string_equal(text_clean(d, 0), "line?next");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_html_esc),
		cmocka_unit_test(test_html_put),
		cmocka_unit_test(test_text_clean),
	};

	return (cmocka_run_group_tests_name("html", tests, NULL, NULL));
}
