#!/bin/bash
# shell=ssh across network namespaces: Debian's sshd with its own config,
# a throwaway key pair and host key, on a private subnet inside a host
# namespace (and a private /run, so nothing of the machine's changes);
# the master in another namespace runs --ssh "ssh -F <test config>".
# - a run on the ssh host writes its file; host and slave reports exist;
#   the slave dialled back over TLS keyed by the cookie on ssh's stdin
# - a wrong key: the master stops at once with ssh's own message
. "$(dirname "$0")/lib.sh"

if [ ! -x /usr/sbin/sshd ] || ! command -v ssh >/dev/null || ! command -v ssh-keygen >/dev/null; then
	echo "skipped: needs openssh-server and openssh-client"
	exit 77
fi
NET=10.$((100 + RANDOM % 100))
NS_M=vdbcsm$$ NS_1=vdbcs1$$
need_netns "$NS_M"
ip netns add "$NS_1" || { bad "netns"; finish; exit 1; }
netns_cleanup() {
	cleanup
	ip netns del "$NS_M" 2>/dev/null
	ip netns del "$NS_1" 2>/dev/null
}
trap netns_cleanup EXIT
for n in "$NS_M" "$NS_1"; do ip -n "$n" link set lo up; done
ip -n "$NS_M" link add va type veth peer name vb netns "$NS_1"
ip -n "$NS_M" addr add "$NET.1.1/24" dev va
ip -n "$NS_1" addr add "$NET.1.2/24" dev vb
ip -n "$NS_M" link set va up
ip -n "$NS_1" link set vb up

ssh-keygen -q -t ed25519 -N '' -f "$T/hostkey" || bad "host key"
ssh-keygen -q -t ed25519 -N '' -f "$T/id" || bad "client key"
ssh-keygen -q -t ed25519 -N '' -f "$T/other" || bad "other key"
cp "$T/id.pub" "$T/authorized_keys"
chmod 700 "$T"
cat >"$T/sshd_config" <<EOF
Port 2222
ListenAddress $NET.1.2
HostKey $T/hostkey
AuthorizedKeysFile $T/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PidFile none
LogLevel ERROR
EOF
for k in id other; do
	cat >"$T/ssh_$k" <<EOF
Host *
	Port 2222
	User root
	IdentityFile $T/$k
	IdentitiesOnly yes
	UserKnownHostsFile /dev/null
	GlobalKnownHostsFile /dev/null
	StrictHostKeyChecking no
	LogLevel ERROR
	ConnectTimeout 5
EOF
done
# sshd wants /run/sshd: a private /run in its own mount namespace.
ip netns exec "$NS_1" unshare -m --propagation private sh -c \
	"mount -t tmpfs vdbc-run /run && mkdir -p /run/sshd && exec /usr/sbin/sshd -D -e -f '$T/sshd_config'" \
	>"$T/sshd.log" 2>&1 &
PIDS="$PIDS $!"
for i in $(seq 50); do
	ip netns exec "$NS_M" ssh -F "$T/ssh_id" -o BatchMode=yes "$NET.1.2" true 2>/dev/null && break
	sleep 0.2
done
ip netns exec "$NS_M" ssh -F "$T/ssh_id" -o BatchMode=yes "$NET.1.2" true ||
	{ bad "sshd did not come up"; cat "$T/sshd.log"; finish; exit 1; }

printf 'hd=hd1,system=%s,shell=ssh\nsd=sd1,lun=%s/s1.dat,size=8m,threads=2\nwd=wd1,sd=sd1,xfersize=4k,rdpct=50\nrd=rd1,wd=wd1,iorate=200,elapsed=3,interval=1\n' \
	"$NET.1.2" "$T" >"$T/s.parm"

# 1. A run through ssh.
expect_rc 0 ip netns exec "$NS_M" "$VDBC" -f "$T/s.parm" -o "$T/o1" --port 0 --seed 3 --ssh "ssh -F $T/ssh_id"
expect_out "Starting slave hd1-0 on hd=hd1: ssh -F $T/ssh_id $NET.1.2"
expect_out "Vdbench execution completed successfully"
for f in hd1.html hd1-0.stdout.html summary.html; do
	[ -s "$T/o1/$f" ] && ok || bad "no $f"
done
[ -s "$T/s1.dat" ] && ok || bad "the ssh host's file was not written"
grep -q "slave hd1-0, protocol" "$T/o1/hd1-0.stdout.html" && ok || bad "the slave's own output is not in hd1-0.stdout.html"
grep -q "slave hd1-0, protocol.*TLS 1.3 keyed by its one-time cookie" "$T/o1/hd1-0.stdout.html" && ok ||
	bad "the ssh slave did not dial back over TLS"
[ -z "$(pgrep -f "slave --connect '\?$NET.1.1")" ] && ok || bad "a slave outlived the run"

# 2. A key the host does not accept: ssh's own words, at once.
t0=$(date +%s)
expect_rc 157 ip netns exec "$NS_M" "$VDBC" -f "$T/s.parm" -o "$T/o2" --port 0 --ssh "ssh -F $T/ssh_other"
t1=$(date +%s)
expect_out "hd=hd1: slave hd1-0 did not start: ssh -F $T/ssh_other exited with status 255"
expect_out "Permission denied"
[ $((t1 - t0)) -lt 15 ] && ok || bad "the ssh failure took $((t1 - t0)) s to surface"
finish
