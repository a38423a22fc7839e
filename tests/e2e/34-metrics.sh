#!/bin/bash
# --metrics: Prometheus text exposition served by the master during the
# run, scraped while it runs and checked against the run's own
# flatfile.html for the same run and interval; bind and syntax errors stop
# the run before any I/O. The same run checks that its directory holds
# what repeating it takes: the arguments as vdbench logs them ("input
# argument scanned"), the seed, vdbc's version, and the parmfile with the
# command line's substitutions resolved.
# The server is bounded like one facing strangers (attacker review
# 2026-12-04 #3, #4, #5): at ulimit -n 1024, one client holding 1,100
# connections, one sending an endless header line and 60 asking for the
# page and never reading leave the run and its reports untouched, the
# master's fds and memory bounded and its log quiet; a scrape works
# after them.
. "$(dirname "$0")/lib.sh"
# scrape URL: the page's body on stdout (curl, or bash's /dev/tcp).
scrape() {
	if command -v curl >/dev/null; then
		timeout 5 curl -sf "$1"
		return
	fi
	local hp=${1#http://} host port
	hp=${hp%%/*}
	host=${hp%:*}
	port=${hp##*:}
	timeout 5 bash -c 'exec 3<>"/dev/tcp/$0/$1" || exit 1
		printf "GET /metrics HTTP/1.0\r\nHost: %s\r\n\r\n" "$0" >&3
		sed "1,/^\r\?$/d" <&3' "$host" "$port"
}
cat >"$T/m.parm" <<P
sd=sd1,lun=$T/f1,size=4m
wd=wd1,sd=sd1,xfersize=\$xf,rdpct=\$pct
rd=rd1,wd=wd1,iorate=400,elapsed=4,interval=1,forthreads=(1,2)
P
dd if=/dev/zero of="$T/f1" bs=1M count=4 status=none
timeout 60 "$VDBC" -f "$T/m.parm" -o "$T/o" --port 0 --seed 5 --metrics 0 \
	xf=8k pct=70 >"$T/run.out" 2>&1 &
pid=$!
PIDS="$PIDS $pid"
wait_for "$T/run.out" "metrics for Prometheus at" 10 && ok || bad "no metrics line: $(cat "$T/run.out")"
url=$(sed -n 's/.*metrics for Prometheus at \(http:[^ ]*\).*/\1/p' "$T/run.out")
case $url in
http://127.0.0.1:[0-9]*/metrics) ok ;;
*) bad "a bare port should listen on loopback, got '$url'" ;;
esac
port=${url##*:}
port=${port%/metrics}
# While the run goes on: the port is taken, so another master refuses
# before it starts a slave, naming the address and the reason.
timeout 30 "$VDBC" -f "$T/m.parm" -o "$T/o2" --port 0 --metrics "$port" \
	xf=8k pct=70 >"$T/out" 2>&1
rc=$?
[ "$rc" != 0 ] && ok || bad "a taken --metrics port ran (rc 0)"
expect_out "Cannot serve --metrics on 127.0.0.1:$port: Address already in use"
grep -q "Starting slave\|Starting RD" "$T/out" && bad "slaves started despite the bind error" || ok
n=0
while kill -0 "$pid" 2>/dev/null; do
	scrape "$url" >"$T/scrape.$n" 2>/dev/null && n=$((n + 1))
	[ -s "$T/query" ] || scrape "$url?x=1&job=vdbc" >"$T/query" 2>/dev/null
	sleep 0.3
done
if command -v curl >/dev/null; then
	# a query string (Prometheus' params:, a proxy's) is ignored
	grep -q '^vdbc_' "$T/query" && ok || bad "/metrics?x=1 did not serve the page"
fi
wait "$pid"
rc=$?
[ "$rc" = 0 ] && ok || { bad "the run failed (rc $rc)"; cat "$T/run.out"; }
[ "$n" -ge 4 ] && ok || bad "only $n scrapes during the run"
# Each scrape: valid exposition, and its numbers are the flatfile's.
python3 - "$T/o/flatfile.html" "$T"/scrape.* >"$T/check" 2>&1 <<'PY'
import re, sys
flat = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith(("*", "<"))]
head, rows = flat[0], flat[1:]
col = {h: i for i, h in enumerate(head)}
sample = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*",?)*)\})? (\S+)$')
matched = {}
bad = 0
for path in sys.argv[2:]:
    typed, helped, vals = set(), set(), {}
    for line in open(path).read().splitlines():
        if line.startswith("# HELP "):
            helped.add(line.split()[2]); continue
        if line.startswith("# TYPE "):
            typed.add(line.split()[2])
            if line.split()[3] != "gauge":
                print("FAIL type", line); bad += 1
            continue
        m = sample.match(line)
        if not m:
            print("FAIL not exposition format:", line); bad += 1; continue
        name = m.group(1)
        if name not in typed or name not in helped:
            print("FAIL no HELP/TYPE before", name); bad += 1
        labels = dict(re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"', m.group(3) or ""))
        vals[(name, labels.get("level"), labels.get("name"), labels.get("quantile"))] = (float(m.group(4)), labels)
    if ("vdbc_interval", None, None, None) not in vals:
        continue
    k, lab = vals[("vdbc_interval", None, None, None)]
    if lab.get("run") != "rd1" or "threads" not in lab:
        print("FAIL run and for-loop labels", lab); bad += 1; continue
    row = [r for r in rows if r[col["Run"]] == "rd1" and r[col["Interval"]] == str(int(k))
           and float(r[col["threads"]]) == float(lab["threads"])]
    if len(row) != 1:
        print("FAIL no flatfile row for", lab, k); bad += 1; continue
    row = row[0]
    def near(what, have, want, tol):
        global bad
        if abs(have - want) > tol:
            print("FAIL %s: metrics %.6f, flatfile %.6f (%s interval %d)" % (what, have, want, lab["threads"], k)); bad += 1
    g = lambda n, lv="total", nm="total": vals[(n, lv, nm, None)][0]
    near("rate", g("vdbc_io_rate"), float(row[col["rate"]]), 0.0001)
    near("MB/sec", g("vdbc_mb_per_second"), float(row[col["MB/sec"]]), 0.0001)
    near("resp ms", g("vdbc_response_time_seconds") * 1000, float(row[col["resp"]]), 0.0001)
    near("read%", g("vdbc_read_percent"), float(row[col["read%"]]), 0.0001)
    near("resp_max ms", g("vdbc_response_time_max_seconds") * 1000, float(row[col["resp_max"]]), 0.0001)
    near("queue depth", g("vdbc_queue_depth"), float(row[col["queue_depth"]]), 0.0001)
    near("cpu", g("vdbc_cpu_used_percent"), float(row[col["cpu_used"]]), 0.0001)
    # host and sd: one of each here, so the total's numbers
    near("host rate", g("vdbc_io_rate", "host", "localhost"), g("vdbc_io_rate"), 0)
    near("sd rate", g("vdbc_io_rate", "sd", "sd1"), g("vdbc_io_rate"), 0)
    q = [vals.get(("vdbc_response_time_quantile_seconds", "total", "total", x), (None,))[0]
         for x in ("0.5", "0.9", "0.99", "0.999", "0.9999")]
    if None in q or q != sorted(q) or q[-1] > g("vdbc_response_time_max_seconds") * 1.01:
        print("FAIL percentiles", q); bad += 1
    matched[lab["threads"]] = matched.get(lab["threads"], 0) + 1
print("matched", matched)
if sorted(matched) != ["1", "2"]:
    print("FAIL scrapes did not cover both runs"); bad += 1
print("bad", bad)
PY
grep -q '^bad 0$' "$T/check" && ok || { bad "the scrapes differ from flatfile.html"; cat "$T/check"; }
grep '^matched' "$T/check"
# a malformed --metrics stops at once, named
expect_rc 157 "$VDBC" -f "$T/m.parm" -o "$T/o3" --port 0 --metrics 127.0.0.1:99999 xf=8k pct=70
expect_out "Invalid value for '--metrics': '127.0.0.1:99999'"
# Label values are escaped: a host label with a backslash and a quote.
cat >"$T/q.parm" <<P
hd="h'q\\x",system=localhost
sd=sd1,lun=$T/f1,size=1m,engine=null
wd=wd1,sd=sd1,xfersize=4k,rdpct=70
rd=rd1,wd=wd1,iorate=200,elapsed=3,interval=1
P
timeout 30 "$VDBC" -f "$T/q.parm" -o "$T/oq" --port 0 --metrics 0 >"$T/q.out" 2>&1 &
qpid=$!
PIDS="$PIDS $qpid"
got=""
if wait_for "$T/q.out" "metrics for Prometheus at" 10 && wait_for "$T/q.out" "^.\{12\} *1 " 10; then
	got=$(scrape "$(sed -n 's/.*metrics for Prometheus at \(http:[^ ]*\).*/\1/p' "$T/q.out")")
fi
wait "$qpid"
printf '%s\n' "$got" | grep -qF "vdbc_io_rate{run=\"rd1\",rd=\"rd1\",level=\"host\",name=\"h'q\\\\x\"} " && ok ||
	{ bad "the host label is not escaped as the format wants"; printf '%s\n' "$got" | grep 'level="host"'; }
# Hostile clients. The page of 200 sds is ~200 KB: replies kept per
# unread request would show in the master's RSS.
mkdir -p "$T/many"
# long enough for the attacks and a scrape after them (sanitized: slower)
hel=10
[ "${VDBC_SANITIZED:-0}" = 1 ] && hel=40
cat >"$T/h.parm" <<P
sd=default,size=1m,engine=null,threads=1
sd=sd1,lun=$T/many/l1,count=(1,200)
wd=wd1,sd=sd*,xfersize=4k,rdpct=50
rd=rd1,wd=wd1,iorate=2000,elapsed=$hel,interval=1
P
bash -c "ulimit -n 1024; exec '$VDBC' -f '$T/h.parm' -o '$T/oh' --port 0 --metrics 0" >"$T/h.out" 2>&1 &
hpid=$!
PIDS="$PIDS $hpid"
if wait_for "$T/h.out" "metrics for Prometheus at" 10 && wait_for "$T/h.out" "^.\{12\} *1 " 15; then
	hurl=$(sed -n 's/.*metrics for Prometheus at \(http:[^ ]*\).*/\1/p' "$T/h.out")
	hport=${hurl##*:}
	hport=${hport%/metrics}
	timeout 60 python3 - "$hport" "$hpid" >"$T/hostile" 2>&1 <<'PY'
import os, resource, socket, sys, time
port, pid = int(sys.argv[1]), int(sys.argv[2])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
def fds(): return len(os.listdir('/proc/%d/fd' % pid))
def rss(): return int([l for l in open('/proc/%d/status' % pid) if l.startswith('VmRSS')][0].split()[1])
rss0, fd0 = rss(), fds()
print("before: rss_kb %d fds %d" % (rss0, fd0))
maxfd, maxrss = fd0, rss0
def sample():
    global maxfd, maxrss
    maxfd, maxrss = max(maxfd, fds()), max(maxrss, rss())
# 60 ask for the page (4 pipelined requests each) and never read
unread = []
for i in range(60):
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(('127.0.0.1', port)); s.sendall(b'GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n' * 4); unread.append(s)
sample()
# one endless header line: closed by the server, not read forever
h = socket.create_connection(('127.0.0.1', port)); h.settimeout(0.5)
h.sendall(b'GET /metrics HTTP/1.1\r\nHost: x\r\nX-A: ')
sent, t0, closed_after = 0, time.time(), None
chunk = b'a' * 65536
while time.time() - t0 < 10 and sent < (64 << 20):
    try:
        sent += h.send(chunk)
    except socket.timeout:
        pass
    except OSError:
        closed_after = time.time() - t0; break
try:
    h.settimeout(1); reply = h.recv(200)
except OSError:
    reply = b''
print("endless header: %d bytes taken, closed after %s s, reply %r" % (sent, closed_after, reply[:40]))
# 1,100 connections held (most wait in the kernel's queue or fail)
held = []
for i in range(1100):
    s = socket.socket(); s.setblocking(False)
    try: s.connect(('127.0.0.1', port))
    except BlockingIOError: pass
    except OSError: s.close(); continue
    held.append(s)
    if i % 100 == 0: sample()
for i in range(30):
    time.sleep(0.1); sample()
print("held %d connections; master max fds %d max rss_kb %d" % (len(held), maxfd, maxrss))
for s in held + unread: s.close()
time.sleep(1)
s = socket.create_connection(('127.0.0.1', port), timeout=5)
s.sendall(b'GET /metrics HTTP/1.0\r\n\r\n'); got = b''
try:
    while True:
        d = s.recv(65536)
        if not d: break
        got += d
except OSError: pass
print("scrape after: %s, %d bytes, vdbc_io_rate %s" % (got[:15], len(got), b'vdbc_io_rate{' in got))
print("delta: rss_kb %d fds %d" % (maxrss - rss0, maxfd - fd0))
PY
	cat "$T/hostile"
	grep -q 'endless header: [0-9]* bytes taken, closed after [0-9.]* s' "$T/hostile" && ok ||
		bad "the endless header was not cut off"
	taken=$(sed -n 's/endless header: \([0-9]*\) bytes.*/\1/p' "$T/hostile")
	[ -n "$taken" ] && [ "$taken" -lt $((8 << 20)) ] && ok || bad "the server took $taken bytes of one header"
	grep -q "scrape after: b'HTTP/1.1 200 OK'.*vdbc_io_rate True" "$T/hostile" && ok || bad "no scrape after the attack"
	dfd=$(sed -n 's/delta: rss_kb [0-9-]* fds \([0-9-]*\)/\1/p' "$T/hostile")
	drss=$(sed -n 's/delta: rss_kb \([0-9-]*\) .*/\1/p' "$T/hostile")
	# 64 connections at most, and one page each at most in flight (the
	# run itself grows some MB over 10 s at 200 sds)
	[ -n "$dfd" ] && [ "$dfd" -le 70 ] && ok || bad "the master's fds grew by $dfd"
	[ "${VDBC_SANITIZED:-0}" = 1 ] || { [ -n "$drss" ] && [ "$drss" -lt 49152 ] && ok || bad "the master's RSS grew by $drss KiB"; }
else
	bad "the hostile-client run did not start"; cat "$T/h.out"
fi
wait "$hpid"
rc=$?
[ "$rc" = 0 ] && ok || { bad "the run under hostile clients exited $rc"; tail -5 "$T/h.out"; }
grep -q "Vdbench execution completed successfully" "$T/h.out" && ok || bad "the run under hostile clients did not complete"
[ -s "$T/oh/results.json" ] && grep -q '"name": *"rd1"' "$T/oh/results.json" && ok || bad "results.json of the attacked run lacks rd1"
n=$(grep -ci "accept" "$T/h.out")
[ "$n" -le 2 ] && ok || bad "$n lines about accept in the console"

# What it takes to repeat the run is in its directory.
sed "s/&#39;/'/g" "$T/o/logfile.html" >"$T/log"
for a in "-f$T/m.parm" "-o$T/o" "--seed=5" "--metrics=0" "xf=8k" "pct=70"; do
	grep -qF "input argument scanned: '$a'" "$T/log" && ok || bad "logfile.html lacks input argument scanned: '$a'"
done
grep -q "vdbc: random seed 5 (repeat with --seed 5)" "$T/log" && ok || bad "logfile.html lacks the seed"
grep -q "^vdbc [0-9]" "$T/log" && ok || bad "logfile.html lacks vdbc's version"
grep -qF 'xfersize=$xf,rdpct=$pct' "$T/o/parmfile.html" && ok || bad "parmfile.html lost the file as written"
subs=$(grep -F '* Command line substitutions:' "$T/o/parmfile.html")
case $subs in
*" xf=8k"*" pct=70"* | *" pct=70"*" xf=8k"*) ok ;;
*) bad "parmfile.html lacks the substitutions: '$subs'" ;;
esac
grep -qF 'wd=wd1,sd=sd1,xfersize=8k,rdpct=70' "$T/o/parmfile.html" && ok || bad "parmfile.html lacks the resolved parmfile"
python3 - "$T/o/results.json" "$T/scrape.0" <<'PY' && ok || bad "results.json lacks arguments, substitutions, seed or version"
import json, re, sys
r = json.load(open(sys.argv[1]))
assert r["seed"] == 5, r["seed"]
assert r["substitutions"] == {"xf": "8k", "pct": "70"}, r["substitutions"]
assert "--seed=5" in r["arguments"] and "xf=8k" in r["arguments"], r["arguments"]
v = re.search(r'vdbc_info\{version="([^"]*)"\} 1', open(sys.argv[2]).read()).group(1)
assert r["vdbc_version"] == v, (r["vdbc_version"], v)
PY
finish
