#!/bin/bash
# A slave waits for its master's first word as long as the master waits
# for its slaves (30 s), not the 5 s silence limit of a running link: a
# master accepting 1,024 slaves proves them a batch at a time, and on a
# loaded host a slave could sit in the accept queue for more than 5 s
# (e2e 22's 16 x 64 case lost slaves that way: "the master has been
# silent for 5 s" before it had said anything). Here a fake master
# accepts the connection and says nothing: the slave must still be there
# after 7 s, and leave by itself, saying why, once 30 s have passed.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "skip: needs python3 for the fake master"; exit 77; }

python3 - "$T/port" <<'PY' &
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(1)
open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1]))
import os
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
c, _ = s.accept()
time.sleep(40)
PY
PIDS="$PIDS $!"
for ((i = 0; i < 50; i++)); do [ -s "$T/port" ] && break; sleep 0.1; done
port=$(cat "$T/port")
t0=$(date +%s)
timeout 60 "$VDBC" slave --connect "127.0.0.1:$port" --name s1 >"$T/s.out" 2>&1 &
spid=$!
PIDS="$PIDS $spid"
sleep 7
kill -0 "$spid" 2>/dev/null && ok || { bad "the slave left before the master's first word, within 7 s"; cat "$T/s.out"; }
wait "$spid"
rc=$?
t1=$(date +%s)
[ "$rc" != 0 ] && ok || bad "the slave exited 0 without a master"
grep -q "no word from the master within 30 s of connecting" "$T/s.out" && ok ||
	{ bad "the slave did not say why it left"; cat "$T/s.out"; }
if [ "${VDBC_SANITIZED:-0}" != 1 ]; then
	awk -v d="$((t1 - t0))" 'BEGIN { exit !(d >= 29 && d <= 34) }' && ok ||
		bad "the slave left after $((t1 - t0)) s, not about 30 s"
fi
finish
