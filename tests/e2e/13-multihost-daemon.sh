#!/bin/bash
# Multi-host through slave daemons, proven across network namespaces:
# the master in one namespace, two "hosts" in two others, joined by veth
# pairs on a private subnet; nothing touches another address.
# - both hosts do I/O on their own file; totals = the sum of host reports;
#   the slaves dial back over TLS
# - a wrong token fails the TLS handshake, with clear words on both sides,
#   and the daemon serves the next master; so it does after garbage (plain
#   frames are garbage there too: the daemon speaks only TLS)
# - kill -9 of one remote slave: the master stops with the slave named
# - kill -9 of the master: every remote slave is gone within 5 s
# - a local host beside a daemon host with --master-addr: the local slave
#   dials that address over TLS keyed by its cookie; user nobody listening
#   on 127.0.0.1 at the master's port first gets no cookie, no plain
#   frame, and the run completes (attacker review 2026-12-04 #1)
. "$(dirname "$0")/lib.sh"

NET=10.$((100 + RANDOM % 100))
NS_M=vdbcm$$ NS_1=vdbc1$$ NS_2=vdbc2$$
need_netns "$NS_M"
ip netns add "$NS_1" && ip netns add "$NS_2" || { bad "netns"; finish; exit 1; }
netns_cleanup() {
	cleanup
	ip netns del "$NS_M" 2>/dev/null
	ip netns del "$NS_1" 2>/dev/null
	ip netns del "$NS_2" 2>/dev/null
}
trap netns_cleanup EXIT
for n in "$NS_M" "$NS_1" "$NS_2"; do ip -n "$n" link set lo up; done
ip -n "$NS_M" link add va type veth peer name vb netns "$NS_1"
ip -n "$NS_M" link add vc type veth peer name vd netns "$NS_2"
ip -n "$NS_M" addr add "$NET.1.1/24" dev va
ip -n "$NS_M" addr add "$NET.2.1/24" dev vc
ip -n "$NS_1" addr add "$NET.1.2/24" dev vb
ip -n "$NS_2" addr add "$NET.2.2/24" dev vd
ip -n "$NS_M" link set va up
ip -n "$NS_M" link set vc up
ip -n "$NS_1" link set vb up
ip -n "$NS_2" link set vd up

"$VDBC" slave --gen-token "$T/tok" >/dev/null || bad "gen-token"
"$VDBC" slave --gen-token "$T/wrong" >/dev/null || bad "gen-token"
# The daemons, one per host namespace, bound to the host's address.
ip netns exec "$NS_1" "$VDBC" slave --listen "$NET.1.2" --token-file "$T/tok" >"$T/d1.log" 2>&1 &
PIDS="$PIDS $!"
ip netns exec "$NS_2" "$VDBC" rsh "$NET.2.2" --token-file "$T/tok" >"$T/d2.log" 2>&1 &
PIDS="$PIDS $!"
wait_for "$T/d1.log" "listening on" 10 && wait_for "$T/d2.log" "listening on" 10 ||
	{ bad "daemons did not start"; cat "$T/d1.log" "$T/d2.log"; finish; exit 1; }

# mparm ELAPSED: the parmfile; both hosts, each with its own lun.
mparm() {
	printf 'hd=default,shell=vdbench\nhd=hd1,system=%s\nhd=hd2,system=%s\nsd=sd1,host=hd1,lun=%s/h1.dat,host=hd2,lun=%s/h2.dat,size=8m,threads=2\nwd=wd1,sd=sd1,xfersize=4k,rdpct=50\nrd=rd1,wd=wd1,iorate=400,elapsed=%s,interval=1\n' \
	    "$NET.1.2" "$NET.2.2" "$T" "$T" "$1" >"$T/mh.parm"
}
MASTER=(ip netns exec "$NS_M" "$VDBC" -f "$T/mh.parm" --port 0 --seed 5)

# 1. A wrong token: refused on both sides; nothing runs.
mparm 3
expect_rc 157 "${MASTER[@]}" -o "$T/o0" --token-file "$T/wrong"
expect_out "hd=hd1: no session with the daemon at $NET.1.2: TLS handshake failed"
grep -q "closed $NET.1.1:[0-9]*: TLS handshake failed" "$T/d1.log" && ok ||
	bad "daemon 1 did not log the refusal"
# Garbage on a daemon's port: that connection closes, the daemon lives.
ip netns exec "$NS_M" bash -c "exec 3<>/dev/tcp/$NET.1.2/5560; printf 'GET / HTTP/1.0\r\n\r\n' >&3; sleep 0.3" 2>/dev/null
# Another major version, then an oversize length: the same.
ip netns exec "$NS_M" bash -c "exec 3<>/dev/tcp/$NET.1.2/5560; printf 'VDBC\\x00\\x02\\x00\\x65\\x00\\x00\\x00\\x02\\x00\\x00\\x00\\x01{}' >&3; sleep 0.3" 2>/dev/null
ip netns exec "$NS_M" bash -c "exec 3<>/dev/tcp/$NET.1.2/5560; printf 'VDBC\\x00\\x01\\x00\\x65\\x7f\\xff\\xff\\xff\\x00\\x00\\x00\\x01' >&3; sleep 0.3" 2>/dev/null
sleep 0.3
[ "$(grep -c "closed $NET.1.1:[0-9]*: TLS handshake failed" "$T/d1.log")" = 4 ] && ok ||
	{ bad "not one log line for each garbage connection"; cat "$T/d1.log"; }

# 2. A whole run over both hosts.
mparm 4
expect_rc 0 "${MASTER[@]}" -o "$T/o1" --token-file "$T/tok"
expect_out "Clock offsets of 2 slaves on 2 hosts against the master"
for f in hd1.html hd2.html hd1-0.html hd2-0.html summary.html; do
	[ -s "$T/o1/$f" ] && ok || bad "no $f"
done
[ -s "$T/h1.dat" ] && [ -s "$T/h2.dat" ] && ok || bad "a host's file was not written"
avg() { sed -e 's/<[^>]*>//g' "$1" | awk '$2 ~ /^avg_/ { r = $3 } END { print r }'; }
tot=$(avg "$T/o1/summary.html")
a1=$(avg "$T/o1/hd1.html")
a2=$(avg "$T/o1/hd2.html")
echo "rate: total $tot = hd1 $a1 + hd2 $a2"
awk -v t="$tot" -v a="$a1" -v b="$a2" 'BEGIN { d = t - a - b; exit !(t > 300 && d * d < 0.0005) }' &&
	ok || bad "totals are not the sum of the hosts"
grep -q "started slave hd1-0" "$T/d1.log" && ok || bad "daemon 1 did not say it started hd1-0"
grep -q "slave hd1-0, protocol.*TLS 1.3 keyed by its one-time cookie" "$T/d1.log" && ok ||
	bad "hd1-0 did not dial back over TLS"

# 2b. vdbench= on a shell=vdbench hd: vdbench's daemon runs
# <vdbench>/vdbench, so a wrong directory fails there; vdbc's daemon
# checks that vdbench= names its own vdbc and refuses by name otherwise.
vparm() {
	printf 'hd=hd1,system=%s,shell=vdbench,vdbench=%s\nsd=sd1,host=hd1,lun=%s/v1.dat,size=8m,threads=1\nwd=wd1,sd=sd1,xfersize=4k\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n' \
	    "$NET.1.2" "$1" "$T" >"$T/v.parm"
}
vparm /nonexistent/dir/
expect_rc 157 ip netns exec "$NS_M" "$VDBC" -f "$T/v.parm" -o "$T/ov1" --port 0 --token-file "$T/tok"
expect_out "hd=hd1: the daemon at $NET.1.2 refused: hd vdbench=/nonexistent/dir/: /nonexistent/dir/vdbc: No such file or directory"
[ -e "$T/v1.dat" ] && bad "vdbench= wrong: the run did I/O" || ok
vparm "$(dirname "$(readlink -f "$VDBC")")/"
expect_rc 0 ip netns exec "$NS_M" "$VDBC" -f "$T/v.parm" -o "$T/ov2" --port 0 --token-file "$T/tok"
[ -s "$T/v1.dat" ] && ok || bad "vdbench= naming the daemon's vdbc: no I/O"

# 3. kill -9 of a remote slave mid-run: the master stops, naming it.
mparm 30
"${MASTER[@]}" -o "$T/o2" --token-file "$T/tok" >"$T/m2.out" 2>&1 &
mp=$!
PIDS="$PIDS $mp"
wait_for "$T/m2.out" " 3 " 20 || bad "the long run did not get going"
# Garbage on the master's own port: that connection closes, with a line.
mport=$(sed -n 's/.*dial back to [0-9.]*:\([0-9]*\).*/\1/p' "$T/m2.out" | head -1)
ip netns exec "$NS_M" bash -c "exec 3<>/dev/tcp/$NET.1.1/$mport; printf 'garbage!garbage!' >&3; sleep 0.3" 2>/dev/null
sleep 0.3
grep -q "closed a connection from $NET.1.1:[0-9]* before HELLO: protocol: bad magic" "$T/m2.out" && ok ||
	bad "the master did not log the garbage on its port $mport"
victim=$(pgrep -f "slave --connect $NET.2.1:[0-9]* --name hd2-0" | head -1)
[ -n "$victim" ] && kill -9 "$victim"
t0=$(date +%s)
timeout 30 tail --pid="$mp" -f /dev/null
wait "$mp"
rc=$?
t1=$(date +%s)
echo "master exit $rc, $((t1 - t0)) s after kill -9 of hd2-0 (pid $victim)"
[ "$rc" != 0 ] && [ $((t1 - t0)) -le 8 ] && ok || bad "master did not stop in time after losing hd2-0"
grep -q "hd2-0.*lost" "$T/m2.out" && ok || { bad "the loss does not name hd2-0"; tail -5 "$T/m2.out"; }
grep -q "hd2-0" "$T/o2/errorlog.html" && ok || bad "errorlog.html does not name hd2-0"

# 4. --on-slave-loss=continue: the run goes on with hd1; every later
# interval says what it lacks, on a line of its own and in results.json.
mparm 8
"${MASTER[@]}" -o "$T/o4" --token-file "$T/tok" --on-slave-loss=continue >"$T/m4.out" 2>&1 &
mp=$!
PIDS="$PIDS $mp"
wait_for "$T/m4.out" " 3 " 20 || bad "the continue run did not get going"
victim=$(pgrep -f "slave --connect $NET.2.1:[0-9]* --name hd2-0" | head -1)
[ -n "$victim" ] && kill -9 "$victim"
timeout 30 tail --pid="$mp" -f /dev/null
wait "$mp"
rc=$?
[ "$rc" = 0 ] && ok || { bad "continue run exit $rc"; tail -5 "$T/m4.out"; }
grep -q "going on without it" "$T/m4.out" && ok || bad "no continue line"
grep -q "interval 8 lacks lost slave(s) hd2-0" "$T/m4.out" && ok || bad "interval 8 not marked on the console"
grep -q "interval 8 lacks lost slave(s) hd2-0" "$T/o4/summary.html" && ok || bad "interval 8 not marked in summary.html"
grep -q '"lost_slaves"' "$T/o4/results.json" && ok || bad "results.json does not mark lost intervals"
sed -e 's/<[^>]*>//g' "$T/o4/summary.html" | grep -qE '^[0-9:.]+ +8 ' && ok || bad "interval 8 missing"

# 5. kill -9 of the master: every remote slave goes within 5 s.
"${MASTER[@]}" -o "$T/o3" --token-file "$T/tok" >"$T/m3.out" 2>&1 &
mp=$!
PIDS="$PIDS $mp"
wait_for "$T/m3.out" " 2 " 20 || bad "the third run did not get going"
kill -9 "$mp"
sleep 6
left=$(pgrep -f "slave --connect $NET\.[12]\.1:" | wc -l)
[ "$left" = 0 ] && ok || bad "$left remote slave(s) outlived their master by 6 s"

# 6. A local host and a daemon host, --master-addr: user nobody listens on
# 127.0.0.1 at the master's port first (the master holds only its
# --master-addr there). The local slave dials the master's address over
# TLS; the stranger gets nothing it can use.
P6=$((20000 + RANDOM % 20000))
printf 'hd=default,shell=vdbench\nhd=localhost,system=localhost\nhd=hd1,system=%s\nsd=sd1,host=localhost,lun=%s/l6.dat,host=hd1,lun=%s/h6.dat,size=8m,threads=2\nwd=wd1,sd=sd1,xfersize=4k,rdpct=50\nrd=rd1,wd=wd1,iorate=200,elapsed=2,interval=1\n' \
    "$NET.1.2" "$T" "$T" >"$T/m6.parm"
# nobody cannot run a python3 under root's home (pyenv): the system one
NOBODY=(setpriv --reuid=nobody --regid="$(id -g nobody 2>/dev/null)" --clear-groups /usr/bin/python3)
if id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null && "${NOBODY[@]}" -c 1 2>/dev/null; then
	ip netns exec "$NS_M" "${NOBODY[@]}" -c '
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(8); print("listening", flush=True)
s.settimeout(40)
while True:
    try: c, a = s.accept()
    except socket.timeout: break
    c.settimeout(3); got = b""
    try:
        while len(got) < 65536:
            d = c.recv(4096)
            if not d: break
            got += d
    except Exception: pass
    print("got", len(got), "bytes:", got.hex(), flush=True); c.close()
' "$P6" >"$T/nobody.out" 2>&1 &
	PIDS="$PIDS $!"
	wait_for "$T/nobody.out" listening 10 || { bad "nobody's listener did not start"; cat "$T/nobody.out"; }
	expect_rc 0 ip netns exec "$NS_M" "$VDBC" -f "$T/m6.parm" -o "$T/o6" --port "$P6" --master-addr "$NET.1.1" --token-file "$T/tok" --seed 5
	expect_out "slave --connect $NET.1.1:$P6 --name localhost-0 --tls"
	grep -q "localhost-0, protocol.*TLS 1.3 keyed by its one-time cookie" "$T/o6/localhost-0.stdout.html" && ok ||
		bad "the local slave did not dial over TLS"
	cookie=$(grep -o '"cookie": *"[0-9a-f]*"' "$T/nobody.out" | head -1)
	# "VDBC" in hex: a plain frame's magic
	[ -z "$cookie" ] && ! grep -q 56444243 "$T/nobody.out" && ok ||
		{ bad "user nobody on 127.0.0.1:$P6 got a plain frame"; cut -c1-300 "$T/nobody.out"; }
	[ -s "$T/l6.dat" ] && ok || bad "the local slave did no I/O"
else
	echo "part 6 skipped: needs user nobody, setpriv and /usr/bin/python3"
fi
# 7. A host whose packets are dropped (routed to hd1's namespace, which
# does not forward), named first: the master dials every daemon at once,
# so hd1 and hd2 start their slaves at once, and hd0 is named once, with
# its address, as timed out after its 10 s window; no token is blamed
# and no daemon drops the master (it once sat 10 s in a blocking connect
# while the healthy daemons dropped it, then blamed their tokens).
ip -n "$NS_M" route add "$NET.3.0/24" via "$NET.1.2"
printf 'hd=default,shell=vdbench\nhd=hd0,system=%s\nhd=hd1,system=%s\nhd=hd2,system=%s\nsd=sd1,host=hd0,lun=%s/x0.dat,host=hd1,lun=%s/x1.dat,host=hd2,lun=%s/x2.dat,size=1m\nwd=wd1,sd=sd1,xfersize=4k\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n' \
    "$NET.3.2" "$NET.1.2" "$NET.2.2" "$T" "$T" "$T" >"$T/m7.parm"
: >"$T/d1.log.7" ; cp "$T/d1.log" "$T/d1.log.7"
expect_rc 157 ip netns exec "$NS_M" "$VDBC" -f "$T/m7.parm" -o "$T/o7" --port 0 --token-file "$T/tok"
expect_out "hd=hd0: no slave daemon reachable: cannot connect to $NET.3.2:5560: timed out (no answer within 10 s"
expect_out "hd=hd1: the daemon at $NET.1.2 started the slaves"
expect_out "hd=hd2: the daemon at $NET.2.2 started the slaves"
[ "$(grep -c "cannot connect to $NET.3.2" "$T/out")" = 1 ] && ok ||
	{ bad "hd0 not named exactly once"; cat "$T/out"; }
! grep -qi -e "same token" -e "token was" -e "event loop ran" "$T/out" && ok ||
	{ bad "a token or a stall blamed for an unreachable host"; cat "$T/out"; }
! diff "$T/d1.log.7" "$T/d1.log" | grep -q "no authentication within" && ok ||
	{ bad "hd1's daemon dropped the waiting master"; cat "$T/d1.log"; }
# A port where nothing listens: refused, at once, in those words.
printf 'hd=default,shell=vdbench\nhd=hd1,system=%s:5599\nsd=sd1,lun=%s/x1.dat,size=1m\nwd=wd1,sd=sd1,xfersize=4k\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n' \
    "$NET.1.2" "$T" >"$T/m7b.parm"
expect_rc 157 ip netns exec "$NS_M" "$VDBC" -f "$T/m7b.parm" -o "$T/o7b" --port 0 --token-file "$T/tok"
expect_out "hd=hd1: no slave daemon reachable: cannot connect to $NET.1.2:5599: Connection refused"

# 8. Two hds on one system, and clients=2 on another: one session with
# each daemon starts them all (it serves one master at a time and once
# refused the second hd as "busy"); every clone is a host of its own in
# the reports, and the clones' labels select luns in sd host=, as in
# vdbench (a_cl0, a_cl1).
printf 'hd=default,shell=vdbench\nhd=hda,system=%s\nhd=hdb,system=%s\nhd=c,system=%s,clients=2\nsd=sd1,host=hda,lun=%s/a.dat,host=hdb,lun=%s/b.dat,host=c_cl0,lun=%s/c0.dat,host=c_cl1,lun=%s/c1.dat,size=1m\nwd=wd1,sd=sd1,xfersize=4k,rdpct=0\nrd=rd1,wd=wd1,iorate=200,elapsed=2,interval=1\n' \
    "$NET.1.2" "$NET.1.2" "$NET.2.2" "$T" "$T" "$T" "$T" >"$T/m8.parm"
expect_rc 0 ip netns exec "$NS_M" "$VDBC" -f "$T/m8.parm" -o "$T/o8" --port 0 --token-file "$T/tok"
expect_out "hd=hda,hdb: the daemon at $NET.1.2 started the slaves"
expect_out "hd=c_cl0,c_cl1: the daemon at $NET.2.2 started the slaves"
for f in hda hdb c_cl0 c_cl1 hda-0 hdb-0 c_cl0-0 c_cl1-0; do
	[ -s "$T/o8/$f.html" ] && ok || bad "no $f.html"
done
for f in a b c0 c1; do
	[ -s "$T/$f.dat" ] && ok || bad "$f.dat was not written"
done
finish
