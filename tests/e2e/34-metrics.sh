#!/bin/bash
# --metrics: Prometheus text exposition served by the master during the
# run, scraped while it runs and checked against the run's own
# flatfile.html for the same run and interval; bind and syntax errors stop
# the run before any I/O. The same run checks that its directory holds
# what repeating it takes: the arguments as vdbench logs them ("input
# argument scanned"), the seed, vdbc's version, and the parmfile with the
# command line's substitutions resolved.
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
