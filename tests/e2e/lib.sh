# Sourced by the e2e scripts: a private temp dir, cleanup of only the PIDs
# this script started, and small assertions. VDBC_TEST_KEEP=1 keeps the dir.
set -u
: "${VDBC:?VDBC must name the vdbc binary}"
: "${VDBC_SRC:?VDBC_SRC must name the source tree}"
T=$(mktemp -d /tmp/vdbc-e2e.XXXXXX)
PIDS=""
cleanup() {
	local p
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	[ "${VDBC_TEST_KEEP:-0}" = 1 ] && echo "kept $T" || rm -rf "$T"
}
trap cleanup EXIT
FAILS=0
PASSES=0
ok() { PASSES=$((PASSES + 1)); }
bad() { FAILS=$((FAILS + 1)); echo "FAIL: $*"; }
# expect_rc WANT CMD...: run CMD (output in $T/out) under timeout.
expect_rc() {
	local want=$1; shift
	timeout 60 "$@" >"$T/out" 2>&1
	local rc=$?
	if [ "$rc" = "$want" ]; then ok; else bad "exit $rc, wanted $want: $*"; cat "$T/out"; fi
}
# expect_out TEXT: the last command's output contains TEXT.
expect_out() {
	if grep -qF -- "$1" "$T/out"; then ok; else bad "output lacks: $1"; cat "$T/out"; fi
}
finish() {
	echo "$PASSES passed, $FAILS failed"
	[ "$FAILS" = 0 ]
}
# wait_for FILE PATTERN SECONDS: poll until FILE has a line with PATTERN.
wait_for() {
	local i
	for ((i = 0; i < $3 * 10; i++)); do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
# slave_pids FILE: the pids of the slaves a master's console FILE started.
slave_pids() {
	local port
	port=$(sed -n 's/.*Starting slave: .*--connect 127.0.0.1:\([0-9]*\).*/\1/p' "$1" | head -1)
	[ -n "$port" ] && pgrep -f "vdbc slave --connect 127.0.0.1:$port " || true
}
# need_netns NS: create network namespace NS for a multi-host test, or
# exit 77 saying why (not root, no iproute2/unshare, a chroot without a
# private mount namespace, no netns support).
need_netns() {
	if [ "$(id -u)" != 0 ] || ! command -v ip >/dev/null || ! command -v unshare >/dev/null; then
		echo "skipped: needs root, iproute2 and unshare for network namespaces"
		exit 77
	fi
	# ip netns exec needs a private mount of / (not there in a plain chroot).
	if ! unshare -m sh -c 'mount --make-rslave /' 2>/dev/null; then
		echo "skipped: cannot make a private mount namespace here (a chroot?)"
		exit 77
	fi
	if ! ip netns add "$1" 2>/dev/null; then
		echo "skipped: cannot create network namespaces here"
		exit 77
	fi
}
