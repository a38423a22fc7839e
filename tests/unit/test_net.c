/*
 * The listener: at most max unproved connections, the next one accepted
 * when the owner is done with one, and out of fds a pause (told once),
 * not a spinning loop.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>

#include <cmocka.h>
#include <event2/event.h>

#include "net.h"

struct acc {
	int	fds[16];
	int	n;
	int	failures;
	int	err;
	char	peer[128];
};

static void
on_accept(int fd, const char *peer, void *arg)
{
	struct acc *a = arg;

	if (fd < 0) {
		a->failures++;
		a->err = errno;
		return;
	}
	snprintf(a->peer, sizeof(a->peer), "%s", peer);
	a->fds[a->n++] = fd;
}

static int
dial(int port)
{
	struct sockaddr_in sa;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	return (fd);
}

/* Run the loop for ms milliseconds. */
static void
spin(struct event_base *base, int ms)
{
	struct timeval t = { ms / 1000, ms % 1000 * 1000 };

	event_base_loopexit(base, &t);
	event_base_dispatch(base);
}

static double
cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ((double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	    (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
}

static void
test_cap(void **state)
{
	struct event_base *base = event_base_new();
	struct listener *ls;
	struct errmsg e;
	struct acc a = { .n = 0 };
	int lfd, port, c[5], i;

	(void)state;
	lfd = net_listen("127.0.0.1", 0, 64, &port, &e);
	assert_true(lfd >= 0);
	ls = listener_new(base, lfd, 2, on_accept, &a);
	assert_non_null(ls);
	for (i = 0; i < 5; i++)
		c[i] = dial(port);
	spin(base, 100);
	assert_int_equal(a.n, 2);
	assert_int_equal(listener_unproved(ls), 2);
	assert_non_null(strstr(a.peer, "127.0.0.1:"));
	listener_done(ls);		/* one proved itself: room for one */
	spin(base, 100);
	assert_int_equal(a.n, 3);
	listener_done(ls);
	listener_done(ls);
	spin(base, 100);
	assert_int_equal(a.n, 5);
	assert_int_equal(a.failures, 0);
	for (i = 0; i < 5; i++) {
		close(c[i]);
		close(a.fds[i]);
	}
	listener_free(ls);
	close(lfd);
	event_base_free(base);
}

static void
test_out_of_fds(void **state)
{
	struct event_base *base = event_base_new();
	struct listener *ls;
	struct rlimit old, low;
	struct errmsg e;
	struct acc a = { .n = 0 };
	int lfd, port, c[3], i, top;
	double t0;

	(void)state;
	lfd = net_listen("127.0.0.1", 0, 64, &port, &e);
	assert_true(lfd >= 0);
	ls = listener_new(base, lfd, 10, on_accept, &a);
	for (i = 0; i < 3; i++)
		c[i] = dial(port);
	/* No fd left for accept. */
	top = dup(0);
	close(top);
	getrlimit(RLIMIT_NOFILE, &old);
	low = old;
	low.rlim_cur = (rlim_t)top;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	t0 = cpu_s();
	spin(base, 400);
	assert_true(cpu_s() - t0 < 0.1);	/* paused, not spinning */
	assert_int_equal(a.n, 0);
	assert_int_equal(a.failures, 1);	/* told once */
	assert_int_equal(a.err, EMFILE);
	/* fds again: accepting resumes within its pause (1 s). */
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	spin(base, 1200);
	assert_int_equal(a.n, 3);
	for (i = 0; i < 3; i++) {
		close(c[i]);
		close(a.fds[i]);
	}
	listener_free(ls);
	close(lfd);
	event_base_free(base);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_out_of_fds),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
