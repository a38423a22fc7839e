#!/bin/bash
# The remote link runs TLS 1.3 keyed by the token (DESIGN.md "Processes"
# item 3), proven across network namespaces: the master in one, a "host"
# in another with its daemon on that host's loopback, reached through a
# python3 relay at system=HOST:5561 that records every byte it passes and
# can flip one byte of a chosen TLS record.
# - a clean run through the relay; its capture holds no plaintext frame
#   (a plain frame through the same relay is caught by the same grep)
# - one flipped byte after the handshake (in the master's LAUNCH record)
#   ends the session with a TLS error on both sides; no slave starts;
#   one flipped later, while the slaves run: the master names the lost
#   session and stops (the daemon stops that host's slaves)
# - a wrong token: the handshake fails, named on both sides
# - a remote slave's name in a plain HELLO on the master's port is refused
# - impostor daemons (openssl s_server): one with the token's key that
#   answers a LAUNCH never sent, one with a certificate instead of the
#   key: the master refuses both and sends no LAUNCH (no cookie leaves)
# - an all-zero token is refused by the daemon and by the master
# - --listen refuses :99999 or :abc, and --listen :PORT listens there
# - system=HOST:PORT with a bad port or unknown host: a located error;
#   with shell=ssh a port is refused
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || { echo "skipped: needs python3"; exit 77; }
NET=10.$((100 + RANDOM % 100))
NS_M=vdbctm$$ NS_1=vdbct1$$
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

# relay.py LISTEN_ADDR LISTEN_PORT TARGET_PORT CAPTURE FLIP: forwards to
# 127.0.0.1:TARGET_PORT, appends both directions to CAPTURE; FLIP "c2s:N"
# flips one byte in the N-th TLS application-data record (type 0x17) the
# client sends on each connection, "none" flips nothing.
cat >"$T/relay.py" <<'PY'
import socket, sys, threading
laddr, lport, tport, cap, flip = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
want = int(flip.split(":")[1]) if flip.startswith("c2s:") else 0
lock = threading.Lock()
def record(b):
    with lock, open(cap, "ab") as f:
        f.write(b)
def c2s(src, dst):
    buf, n = b"", 0
    while True:
        d = src.recv(65536)
        if not d:
            break
        record(d)
        if not want:
            dst.sendall(d)
            continue
        buf += d
        while len(buf) >= 5 and len(buf) >= 5 + (buf[3] << 8 | buf[4]):
            ln = 5 + (buf[3] << 8 | buf[4])
            rec = bytearray(buf[:ln])
            buf = buf[ln:]
            if rec[0] == 0x17:
                n += 1
                if n == want:
                    rec[5 + (ln - 5) // 2] ^= 0x01
                    print("flipped a byte of record %d (%d bytes)" % (n, ln), flush=True)
            dst.sendall(bytes(rec))
    dst.shutdown(socket.SHUT_WR)
def s2c(src, dst):
    while True:
        d = src.recv(65536)
        if not d:
            break
        record(d)
        dst.sendall(d)
    dst.shutdown(socket.SHUT_WR)
def pump(f, a, b):
    try:
        f(a, b)
    except OSError:
        pass
ls = socket.socket()
ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind((laddr, lport))
ls.listen(8)
print("relay ready", flush=True)
while True:
    c, _ = ls.accept()
    s = socket.create_connection(("127.0.0.1", tport))
    for f, a, b in ((c2s, c, s), (s2c, s, c)):
        threading.Thread(target=pump, args=(f, a, b), daemon=True).start()
PY

"$VDBC" slave --gen-token "$T/tok" >/dev/null || bad "gen-token"
"$VDBC" slave --gen-token "$T/wrong" >/dev/null || bad "gen-token"

# 1. An all-zero token is no secret: refused on both sides.
printf '%064d\n' 0 >"$T/zero" && chmod 600 "$T/zero"
expect_rc 2 timeout 10 "$VDBC" slave --listen 127.0.0.1:0 --token-file "$T/zero"
expect_out "token file $T/zero: an all-zero token is no secret"
printf 'hd=default,shell=vdbench\nhd=hd1,system=%s\nsd=sd1,host=hd1,lun=%s/z.dat,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1\n' "$NET.1.2" "$T" >"$T/z.parm"
expect_rc 157 timeout 20 "$VDBC" -f "$T/z.parm" -o "$T/oz" --port 0 --token-file "$T/zero"
expect_out "token file $T/zero: an all-zero token is no secret"
# --listen [ADDR][:PORT]: a port of 0 to 65535, nothing else.
for p in 127.0.0.1:99999 :abc :99999 127.0.0.1: :; do
	expect_rc 2 timeout 10 "$VDBC" slave --listen "$p" --token-file "$T/tok"
	expect_out "wanted [ADDR][:PORT] with a port of 0 to 65535, not '$p'"
done
ip netns exec "$NS_1" timeout 5 "$VDBC" slave --listen :5563 --token-file "$T/tok" >"$T/d0.log" 2>&1
grep -q "listening on 127.0.0.1:5563 " "$T/d0.log" && ok || { bad "--listen :5563 did not listen there"; cat "$T/d0.log"; }
# A bare IPv6 address is an address, not ":PORT".
if ip netns exec "$NS_1" python3 -c 'import socket; socket.socket(socket.AF_INET6).bind(("::1", 0))' 2>/dev/null; then
	ip netns exec "$NS_1" timeout 3 "$VDBC" slave --listen ::1 --token-file "$T/tok" >"$T/d6.log" 2>&1
	grep -q "listening on ::1:5560 " "$T/d6.log" && ok || { bad "--listen ::1 did not listen there"; cat "$T/d6.log"; }
fi

# The daemon on the host's loopback; the relay on its address, port 5561.
ip netns exec "$NS_1" "$VDBC" slave --listen --token-file "$T/tok" >"$T/d1.log" 2>&1 &
PIDS="$PIDS $!"
wait_for "$T/d1.log" "listening on 127.0.0.1:5560 (TLS 1.3" 10 || { bad "daemon did not start"; cat "$T/d1.log"; finish; exit 1; }
# relay NAME FLIP: start a relay (killed by the next one) capturing to $T/NAME.cap.
RELAY=
relay() {
	[ -n "$RELAY" ] && { kill "$RELAY" 2>/dev/null; wait "$RELAY" 2>/dev/null; }
	: >"$T/$1.cap"
	ip netns exec "$NS_1" timeout 300 python3 "$T/relay.py" "$NET.1.2" 5561 5560 "$T/$1.cap" "$2" >"$T/$1.relay" 2>&1 &
	RELAY=$!
	PIDS="$PIDS $RELAY"
	wait_for "$T/$1.relay" "relay ready" 10 || bad "relay $1 did not start"
}

# mparm SYSTEM: the parmfile, one daemon host.
mparm() {
	printf 'hd=default,shell=vdbench\nhd=hd1,system=%s\nsd=sd1,host=hd1,lun=%s/h1.dat,size=4m,threads=2\nwd=wd1,sd=sd1,xfersize=4k,rdpct=50\nrd=rd1,wd=wd1,iorate=200,elapsed=3,interval=1\n' \
	    "$1" "$T" >"$T/mh.parm"
}
MASTER=(ip netns exec "$NS_M" "$VDBC" -f "$T/mh.parm" --port 0 --seed 5)

# 2. A clean run through the relay at system=HOST:5561.
relay clean none
mparm "$NET.1.2:5561"
t0=$(date +%s%N)
expect_rc 0 "${MASTER[@]}" -o "$T/o1" --token-file "$T/tok"
t1=$(date +%s%N)
echo "a 3 s run through the relay took $(((t1 - t0) / 1000000)) ms"
expect_out "they dial back to $NET.1.1:"
[ -s "$T/h1.dat" ] && ok || bad "the host's file was not written"
[ -s "$T/clean.cap" ] && ok || bad "the relay captured nothing"
grep -q "closed .*TLS" "$T/d1.log" && bad "the daemon saw a TLS error in a clean session" || ok
# No frame magic, no JSON key, no message text in the capture.
if grep -aqE 'VDBC|"step"|"slaves"|"cookie"|"connect"|hello|LAUNCH' "$T/clean.cap"; then
	bad "plaintext in the capture of a TLS session"
else ok; fi
# The same grep catches a plain frame sent through the same relay.
relay plain none
ip netns exec "$NS_M" bash -c "exec 3<>/dev/tcp/$NET.1.2/5561; printf 'VDBC\\x00\\x01\\x00\\x65\\x00\\x00\\x00\\x10\\x00\\x00\\x00\\x01{\"step\":\"hello\"}' >&3; sleep 0.3" 2>/dev/null
sleep 0.3
grep -aqE 'VDBC|"step"' "$T/plain.cap" && ok || bad "the capture grep misses a plain frame"
wait_for "$T/d1.log" "closed 127.0.0.1:[0-9]*: TLS handshake failed" 5 && ok || { bad "daemon did not log the plain frame"; tail -3 "$T/d1.log"; }

# 3. One flipped byte in the master's third record (its LAUNCH).
relay flip c2s:3
started=$(grep -c "started slave" "$T/d1.log")
expect_rc 157 "${MASTER[@]}" -o "$T/o2" --token-file "$T/tok"
grep -q "flipped a byte of record 3" "$T/flip.relay" && ok || bad "the relay flipped nothing"
expect_out "hd=hd1: lost the daemon at $NET.1.2:5561: TLS: "
grep -qi "bad record mac" "$T/out" && ok || { bad "master's error does not name the bad record"; cat "$T/out"; }
wait_for "$T/d1.log" "closed 127.0.0.1:[0-9]*: TLS: .*bad record mac" 5 && ok || { bad "daemon did not log the bad record"; tail -3 "$T/d1.log"; }
[ "$(grep -c "started slave" "$T/d1.log")" = "$started" ] && ok || bad "a slave started from a damaged LAUNCH"

# 3b. A flipped byte after the slaves started (the master's second
# HEARTBEAT answer, record 5): the daemon drops the session, and the
# master names the lost session and the host's slaves at once, not a
# "completed successfully" (attacker review of the TLS link).
relay late c2s:5
mparm "$NET.1.2:5561"
sed -i 's/elapsed=3/elapsed=8/' "$T/mh.parm"
expect_rc 157 "${MASTER[@]}" -o "$T/o2b" --token-file "$T/tok"
grep -q "flipped a byte of record 5" "$T/late.relay" && ok || bad "the relay flipped nothing late"
expect_out "lost: hd=hd1: lost the daemon at $NET.1.2:5561"
grep -q "completed successfully" "$T/out" && bad "a run whose daemon session broke completed successfully" || ok
grep -q "lost the daemon at $NET.1.2:5561" "$T/o2b/errorlog.html" && ok || bad "errorlog.html does not name the lost daemon session"
wait_for "$T/d1.log" "closed 127.0.0.1:[0-9]*: TLS: .*bad record mac" 5 && ok || { bad "daemon did not log the late bad record"; tail -3 "$T/d1.log"; }
mparm "$NET.1.2:5561"

# 4. A wrong token: the handshake fails, named on both sides.
relay wrong none
expect_rc 157 "${MASTER[@]}" -o "$T/o3" --token-file "$T/wrong"
expect_out "hd=hd1: no session with the daemon at $NET.1.2:5561: TLS handshake failed"
wait_for "$T/d1.log" "closed 127.0.0.1:[0-9]*: TLS handshake failed" 5 && ok || bad "daemon did not log the handshake failure"

# 5. The daemon serves the next master; a plain HELLO as its remote slave
# on the master's port is refused (remote slaves speak TLS only).
relay again none
mparm "$NET.1.2:5561"
sed -i 's/elapsed=3/elapsed=6/' "$T/mh.parm"
"${MASTER[@]}" -o "$T/o4" --token-file "$T/tok" >"$T/m4.out" 2>&1 &
mp=$!
PIDS="$PIDS $mp"
wait_for "$T/m4.out" " 2 " 20 || bad "the run did not get going"
mport=$(sed -n 's/.*dial back to [0-9.]*:\([0-9]*\).*/\1/p' "$T/m4.out" | head -1)
[ -n "$mport" ] && ip netns exec "$NS_M" python3 - "$NET.1.1" "$mport" <<'PY'
import json, socket, struct, sys, time
b = json.dumps({"major": 1, "minor": 1, "slave": "hd1-0", "host": "x", "pid": 1,
    "version": "0", "cores": 1, "clock_wall_ns": 0, "cookie": "0" * 32}).encode()
s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
s.sendall(b"VDBC" + struct.pack(">HHII", 1, 100, len(b), 1) + b)
time.sleep(0.5)
PY
timeout 30 tail --pid="$mp" -f /dev/null
wait "$mp"
rc=$?
[ "$rc" = 0 ] && ok || { bad "the run with a plain impostor exit $rc"; tail -5 "$T/m4.out"; }
[ -z "$mport" ] || { grep -q "HELLO as slave hd1-0 of another host without TLS" "$T/m4.out" && ok || bad "the plain HELLO was not refused as such"; }

# 6b. A slave the daemon started that dies before it dials back (here:
# --master-addr 127.0.0.1 is the host's own loopback, where no master
# listens): the daemon tells the master at once, which names the slave
# and the daemon's words, not "did not connect within 30 seconds".
relay early none
mparm "$NET.1.2:5561"
t0=$(date +%s)
expect_rc 157 "${MASTER[@]}" -o "$T/o4b" --token-file "$T/tok" --master-addr 127.0.0.1
t1=$(date +%s)
expect_out "says it exited before it dialled back (slave pid"
[ $((t1 - t0)) -lt 15 ] && ok || bad "a slave that died before HELLO took $((t1 - t0)) s to be named"

# 7. Impostor daemons, with openssl s_server on the host's port 5562.
if command -v openssl >/dev/null; then
	# The key a daemon derives from the token (proto/tls.c).
	psk=$(python3 -c 'import hmac, hashlib, sys; print(hmac.new(bytes.fromhex(open(sys.argv[1]).read().strip()), b"vdbc daemon link v1", hashlib.sha256).hexdigest())' "$T/tok")
	# A LAUNCH reply (tag 1) sent right after the handshake, before any hello.
	python3 -c 'import json, struct, sys; b = json.dumps({"connect": "x:1", "slaves": [1, 2, 3]}).encode(); sys.stdout.buffer.write(b"VDBC" + struct.pack(">HHII", 1, 103, len(b), 1) + b)' >"$T/launch.bin"
	(sleep 2; cat "$T/launch.bin"; sleep 5) | ip netns exec "$NS_1" timeout 20 openssl s_server -accept "$NET.1.2:5562" -nocert \
	    -psk "$psk" -psk_identity vdbc-daemon -tls1_3 -ciphersuites TLS_AES_128_GCM_SHA256 -naccept 1 >"$T/fake1.out" 2>&1 &
	PIDS="$PIDS $!"
	sleep 0.5
	mparm "$NET.1.2:5562"
	expect_rc 157 "${MASTER[@]}" -o "$T/o8" --token-file "$T/tok"
	expect_out "hd=hd1: the daemon at $NET.1.2:5562 answered a LAUNCH it was never sent"
	grep -q "started the slaves" "$T/out" && bad "the master believed a LAUNCH reply it never asked for" || ok
	grep -aq '"slaves"' "$T/fake1.out" && bad "the master sent LAUNCH to a daemon that never said hello" || ok
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$T/k.pem" -out "$T/c.pem" \
	    -subj /CN=impostor -days 1 >/dev/null 2>&1
	(sleep 5) | ip netns exec "$NS_1" timeout 20 openssl s_server -accept "$NET.1.2:5562" -cert "$T/c.pem" -key "$T/k.pem" \
	    -tls1_3 -naccept 1 >"$T/fake2.out" 2>&1 &
	PIDS="$PIDS $!"
	sleep 0.5
	expect_rc 157 "${MASTER[@]}" -o "$T/o9" --token-file "$T/tok"
	expect_out "hd=hd1: no session with the daemon at $NET.1.2:5562: TLS handshake failed: certificate verify failed (the peer showed a certificate instead of using the key: not a vdbc peer)"
	grep -aq '"slaves"\|"step"' "$T/fake2.out" && bad "the master talked to a daemon with a certificate" || ok
else
	echo "note: no openssl command; impostor daemons not tried"
fi

# 6. system=HOST:PORT checks, located at the system= line.
printf 'hd=default,shell=vdbench\nhd=hd1,\n system=%s\nsd=sd1,host=hd1,lun=/tmp/x,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1\n' "$NET.1.2:abc" >"$T/bad.parm"
expect_rc 157 timeout 20 "$VDBC" -f "$T/bad.parm" -o "$T/o5" --port 0
expect_out "bad.parm:3:"
expect_out "Invalid 'system=' value: $NET.1.2:abc (expected HOST or HOST:PORT with a port of 1 to 65535)"
sed -i "s/$NET.1.2:abc/no-such-host.invalid:5561/" "$T/bad.parm"
expect_rc 157 timeout 20 "$VDBC" -f "$T/bad.parm" -o "$T/o6" --port 0
expect_out "bad.parm:3:"
expect_out "Host 'no-such-host.invalid:5561' does not exist"
printf 'hd=hd1,system=%s,shell=ssh\nsd=sd1,host=hd1,lun=/tmp/x,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1\n' "$NET.1.2:22" >"$T/ssh.parm"
expect_rc 157 timeout 20 "$VDBC" -f "$T/ssh.parm" -o "$T/o7" --port 0
expect_out "hd=hd1: system=$NET.1.2:22: a port is for a slave daemon"
# A bracketed IPv6 address without a port is no port.
sed -i 's/system=[^,]*,/system=[fd00::5],/' "$T/ssh.parm"
timeout 20 "$VDBC" -f "$T/ssh.parm" -o "$T/o10" --port 0 --ssh false >"$T/out" 2>&1
grep -q "a port is for a slave daemon" "$T/out" && { bad "system=[fd00::5] taken for a port"; cat "$T/out"; } || ok
finish
