# Sourced by scripts/quickstart and scripts/test: install what is missing
# from Debian's archive (apt-get update first, once, only when needed).
VDBC_BUILD_PKGS="gcc libc6-dev make cmake pkg-config libevent-dev libjansson-dev
libyaml-dev libssl-dev libcmocka-dev libaio-dev liburing-dev libblkid-dev procps"

# apt-get that waits for the package manager's lock instead of failing
# when another apt (or unattended-upgrades) holds it: dpkg's lock through
# DPkg::Lock::Timeout, the lists lock of "update" by trying again, for up
# to VDBC_APT_LOCK_WAIT seconds (600) in all.
vdbc_apt_get() {
	local wait=${VDBC_APT_LOCK_WAIT:-600} start=$SECONDS rc err
	err=$(mktemp)
	while :; do
		rc=0
		"${VDBC_APT_GET:-apt-get}" -o DPkg::Lock::Timeout="$wait" "$@" 2>"$err" || rc=$?
		if [ "$rc" = 0 ] || [ $((SECONDS - start)) -ge "$wait" ] ||
			! grep -Eq "Could not get lock|Unable to acquire|Unable to lock" "$err"; then
			cat "$err" >&2
			rm -f "$err"
			return "$rc"
		fi
		echo "waiting for the package manager's lock (another apt is running)" >&2
		sleep "${VDBC_APT_LOCK_POLL:-5}"
	done
}

vdbc_install_deps() {
	local missing="" p
	for p in $VDBC_BUILD_PKGS "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q "install ok installed" || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "missing packages:$missing (run as root, or install them)" >&2
		return 1
	fi
	echo "installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	vdbc_apt_get update -qq
	# Packages such as openssh-server start a service when installed;
	# the tests start their own sshd in a namespace, so keep services
	# off while installing (Debian's policy-rc.d, only when there is none).
	local policy=""
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
		chmod 755 /usr/sbin/policy-rc.d
		policy=/usr/sbin/policy-rc.d
	fi
	local rc=0
	# shellcheck disable=SC2086
	vdbc_apt_get install -y -qq --no-install-recommends $missing >/dev/null || rc=$?
	if [ -n "$policy" ]; then rm -f "$policy"; fi
	return $rc
}
