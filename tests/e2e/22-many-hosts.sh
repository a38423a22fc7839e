#!/bin/bash
# Many hosts through slave daemons, each "host" a network namespace on a
# bridge (as docs/multihost.md lays out a lab): the master in one
# namespace, one `vdbc slave --listen` daemon per host namespace, null
# engine, nothing outside the namespaces this script makes.
# - 8 hosts x 8 slaves (4 x 4 in a sanitizer build) at a fixed rate with
#   deterministic arrivals: every slave ends interval k at GO + k *
#   interval and rates are counts per interval, so the avg is the request
#   within 1 % and the intervals' counts add up to the whole run's
# - results.json's top-level hosts list names the hosts, their system=,
#   how their slaves start, and their slaves
# - more than 64 slaves: 2 hosts x 40 slaves run, the master raising its
#   soft fd limit as needed; a hard limit too low and more than 1,024
#   slaves are refused before any daemon is asked; 16 x 64 = 1,024 run
# - the default stop with one host's link down names every slave of that
#   host, once, console and errorlog.html, and results.json keeps the run
#   up to the last whole interval (issue 18 item 4)
# - --on-slave-loss=continue with one host's link taken down mid-run
#   (issue 18 item 1): only that host's slaves are lost, all named, in
#   one event; every other slave stays to the end; interval lines keep
#   coming (no stall past the 5 s silence limit) and the run completes
# - each host's report has its own cpu% (issue 28 item 3)
# - counters published whole (issue 28 item 1): 32 local slaves x 8
#   threads at iorate=max never send a torn INTERVAL ("grew by ... over 0
#   operations"; 10 of 10 runs of 64 x 8 stopped so before the fix)
# - clock offsets from round trips after the TLS handshake (issue 28
#   item 2): daemons on the master's own clock get no "run NTP" warning,
#   and the console has one summary line, not a line per slave
# It prints what the run cost (connect, interval 1, master CPU; not
# asserted); VDBC_MANY_HOSTS=HxJ (e.g. 16x8) runs another layout
# (scripts/bench does); the timing checks are off in sanitizer builds.
# Without network namespaces (no root) the local part still runs: two
# local hosts x 40 forked slaves, their hosts in results.json, and rates
# that are counts per second.
. "$(dirname "$0")/lib.sh"

# 0. Two local hosts x 40 slaves: past the old cap of 64, each host named
# in results.json, every flatfile rate its interval's count per second.
printf 'hd=default,jvms=40\nhd=h1,system=localhost\nhd=h2,system=127.0.0.1\nsd=sd1,lun=%s/l1,size=1m,engine=null,threads=80\nwd=wd1,sd=sd1,xfersize=4k\nrd=rd1,wd=wd1,iorate=800,elapsed=3,interval=1,distribution=deterministic\n' "$T" >"$T/l.parm"
expect_rc 0 "$VDBC" -f "$T/l.parm" -o "$T/ol" --port 0 --seed 7
got=$(jq -j '.hosts[] | "\(.name)=\(.system)/\(.start)/\(.slaves | length)/\(.slaves[-1]) "' "$T/ol/results.json")
[ "$got" = "h1=localhost/local/40/h1-39 h2=127.0.0.1/local/40/h2-39 " ] && ok || bad "local results.json hosts: '$got'"
jq -r '.runs[-1].intervals[] | "\(.interval) \(.reads + .writes)"' "$T/ol/results.json" >"$T/lcounts"
awk '$3 == "rd1" && $4 ~ /^[0-9]+$/ { print $4, $6 }' "$T/ol/flatfile.html" |
	join "$T/lcounts" - | awk '{ n++; d = $3 - $2; if (d * d > 0.01) off++ } END { exit !(n == 3 && !off) }' &&
	ok || bad "local: the flatfile's rates are not the intervals' counts per second"

# 0b. Many local slaves x many threads at iorate=max: every INTERVAL
# whole (a torn one stops the run naming the field; on a starved machine
# the master may stop on its own stall instead, which is said, not a
# failure of this check).
printf 'hd=default,jvms=32\nhd=h1,system=localhost\nsd=sd1,lun=%s/m1,size=1m,engine=null,threads=128\nsd=sd2,lun=%s/m2,size=1m,engine=null,threads=128\nwd=wd1,sd=sd*,xfersize=4k,rdpct=70\nrd=rd1,wd=wd1,iorate=max,elapsed=4,interval=1\n' "$T" "$T" >"$T/m.parm"
"$VDBC" -f "$T/m.parm" -o "$T/om" --port 0 --seed 7 >"$T/m.out" 2>&1
rc=$?
echo "32 local slaves x 8 threads at iorate=max: exit $rc"
grep -q "bad INTERVAL" "$T/m.out" && bad "a torn INTERVAL: $(grep -m1 "bad INTERVAL" "$T/m.out")" || ok
[ "$rc" = 0 ] || grep -q "event loop ran" "$T/m.out" && ok || { bad "iorate=max: exit $rc"; tail -5 "$T/m.out"; }

# 0c. Each host's report shows its own CPU (issue 28 item 3): two local
# hosts under --on-slave-loss=continue, h2's slave killed after interval
# 2: h2's later lines have no I/O and no CPU, h1's have CPU. (Before,
# every host's report had the all-hosts cpu%, the lost host's too.) At
# iorate=20000, so h1's CPU shows: 200 I/Os a second rounded to 0.0 % on a
# quiet machine.
printf 'hd=default,jvms=1\nhd=h1,system=localhost\nhd=h2,system=127.0.0.1\nsd=sd1,lun=%s/c1,size=1m,engine=null,threads=2\nwd=wd1,sd=sd1,xfersize=4k\nrd=rd1,wd=wd1,iorate=20000,elapsed=6,interval=1\n' "$T" >"$T/hc.parm"
"$VDBC" -f "$T/hc.parm" -o "$T/ohc" --port 0 --seed 7 --on-slave-loss=continue >"$T/hc.out" 2>&1 &
hcpid=$!
if wait_for "$T/hc.out" '^[0-9][0-9]:[0-9:.]*  *2  ' 30; then
	port=$(sed -n 's/.*--connect 127.0.0.1:\([0-9]*\) --name h2-0.*/\1/p' "$T/hc.out" | head -1)
	vp=$(pgrep -f "vdbc slave --connect 127.0.0.1:$port --name h2-0( |$)")
	[ -n "$vp" ] && kill -9 $vp
fi
wait "$hcpid"
hcpu() { sed -e 's/<[^>]*>//g' "$T/ohc/$1.html" | awk '$2 == 6 { print $3, $13 }'; }
read -r lr lc <<<"$(hcpu h2)"
read -r hr hc <<<"$(hcpu h1)"
echo "own CPU: interval 6: h2 (lost) rate ${lr:-?} cpu ${lc:-?}, h1 rate ${hr:-?} cpu ${hc:-?}"
awk -v lr="${lr:-x}" -v lc="${lc:-x}" -v hc="${hc:-x}" 'BEGIN { exit !(lr == 0 && lc == 0 && hc > 0) }' && ok ||
	bad "a lost host's report shows CPU it did not report (h2 cpu ${lc:-?}, h1 ${hc:-?})"

NET=10.$((100 + RANDOM % 100))
NS_M=vdbcm$$
# no namespaces here: say so, unless the local part failed
( need_netns "$NS_M" ) || { r=$?; [ "$FAILS" = 0 ] && [ "$r" = 77 ] && exit 77; finish; exit 1; }
NSS=""
netns_cleanup() {
	local n
	cleanup
	ip netns del "$NS_M" 2>/dev/null
	for n in $NSS; do ip netns del "$n" 2>/dev/null; done
}
trap netns_cleanup EXIT
ip -n "$NS_M" link set lo up
ip -n "$NS_M" link add br0 type bridge
ip -n "$NS_M" addr add "$NET.0.1/16" dev br0
ip -n "$NS_M" link set br0 up
"$VDBC" slave --gen-token "$T/tok" >/dev/null || bad "gen-token"

# host I: namespace, a veth into the bridge, address NET.1.I, a daemon.
NHOSTS=0
add_host() {
	local i=$1 ns=vdbc$$h$1
	ip netns add "$ns" || return 1
	NSS="$NSS $ns"
	ip -n "$ns" link set lo up
	ip -n "$NS_M" link add "p$i" type veth peer name eth0 netns "$ns"
	ip -n "$NS_M" link set "p$i" master br0
	ip -n "$NS_M" link set "p$i" up
	ip -n "$ns" addr add "$NET.1.$i/16" dev eth0
	ip -n "$ns" link set eth0 up
	ip netns exec "$ns" "$VDBC" slave --listen "$NET.1.$i" --token-file "$T/tok" >"$T/d$i.log" 2>&1 &
	PIDS="$PIDS $!"
}
# hosts N: at least N hosts up with their daemons listening.
hosts() {
	local i
	for ((i = NHOSTS + 1; i <= $1; i++)); do add_host "$i" || { bad "host $i"; return 1; }; done
	for ((i = NHOSTS + 1; i <= $1; i++)); do
		wait_for "$T/d$i.log" "listening on" 10 || { bad "daemon $i did not start"; cat "$T/d$i.log"; return 1; }
	done
	[ "$1" -gt "$NHOSTS" ] && NHOSTS=$1
	return 0
}
# mparm FILE H J RATE ELAPSED: H hosts x J slaves, NSDS null sds, one
# thread per slave on each.
mparm() {
	local i s
	{
		printf 'hd=default,shell=vdbench,jvms=%s\n' "$3"
		for ((i = 1; i <= $2; i++)); do printf 'hd=h%s,system=%s\n' "$i" "$NET.1.$i"; done
		for ((s = 1; s <= NSDS; s++)); do
			printf 'sd=sd%s,lun=%s/lun%s,size=1m,engine=null,threads=%s\n' "$s" "$T" "$s" $(($2 * $3))
		done
		printf 'wd=wd1,sd=sd*,xfersize=4k,rdpct=70\n'
		printf 'rd=rd1,wd=wd1,iorate=%s,elapsed=%s,interval=%s,distribution=deterministic\n' "$4" "$5" "${6:-1}"
	} >"$1"
}
# master ARGS...: the master in its namespace; with TIMED=1 its elapsed,
# user and system seconds go to $T/time (scripts/bench reads them).
master() {
	local tm=()
	[ "${TIMED:-0}" = 1 ] && [ -x /usr/bin/time ] && tm=(/usr/bin/time -f "%e %U %S" -o "$T/time")
	timeout 200 "${tm[@]}" ip netns exec "$NS_M" "$VDBC" --port 0 --seed 7 --token-file "$T/tok" "$@"
}
# secs HH:MM:SS.mmm
secs() { echo "$1" | awk -F: '{ print $1 * 3600 + $2 * 60 + $3 }'; }

# 1. Rate accuracy at H x J daemon slaves.
LAYOUT=${VDBC_MANY_HOSTS:-8x8}
[ "${VDBC_SANITIZED:-0}" = 1 ] && LAYOUT=${VDBC_MANY_HOSTS:-4x4}
H=${LAYOUT%x*} J=${LAYOUT#*x} RATE=16000 EL=10 NSDS=16
hosts "$H" || { finish; exit 1; }
mparm "$T/r.parm" "$H" "$J" "$RATE" "$EL"
rm -f "$T/time"
TIMED=1 master -f "$T/r.parm" -o "$T/or" >"$T/r.out" 2>&1
rc=$?
[ "$rc" = 0 ] && ok || { bad "$LAYOUT run exit $rc"; tail -20 "$T/r.out"; }
flat="$T/or/flatfile.html"
# What it cost (printed, not asserted): from the master's first line to
# every slave connected and to interval 1's line; its CPU over the run.
t0=$(secs "$(awk 'NR == 1 { print $1 }' "$T/r.out")")
tc=$(secs "$(awk '/All slaves are now connected/ { print $1; exit }' "$T/r.out")")
ti=$(secs "$(awk '$3 == "rd1" && $4 == "1" { print $1 }' "$flat")")
awk -v l="$LAYOUT" -v a="$t0" -v c="$tc" -v i="$ti" -v tm="$(cat "$T/time" 2>/dev/null)" 'BEGIN {
	split(tm, t, " "); printf "%s: connected after %.3f s, interval 1 after %.3f s, master CPU %s\n", l, c - a, i - a,
	    (t[1] > 0 ? sprintf("%.1f %% of one core over %.1f s", 100 * (t[2] + t[3]) / t[1], t[1]) : "unknown") }'
# the avg over intervals 2-EL, as the summary prints it
avg=$(awk '$3 == "rd1" && $4 ~ /^avg_/ { print $6 }' "$flat")
echo "$LAYOUT: avg $avg of iorate=$RATE"
awk -v a="$avg" -v r="$RATE" 'BEGIN { exit !(a > 0.99 * r && a < 1.01 * r) }' && ok ||
	bad "$LAYOUT: avg $avg is not within 1 % of iorate=$RATE"
# Each interval's I/O count (results.json) against its flatfile rate: a
# rate is the count per nominal interval, as vdbench divides.
jq -r '.runs[-1].intervals[] | "\(.interval) \(.reads + .writes)"' "$T/or/results.json" >"$T/counts"
awk '$3 == "rd1" && $4 ~ /^[0-9]+$/ { print $4, $6 }' "$flat" >"$T/rates"
join "$T/counts" "$T/rates" | awk -v r="$RATE" -v el="$EL" '{ n++; s += $2; d = $3 - $2; if (d * d > 0.01) off++
	if ($2 < lo || lo == "") lo = $2; if ($2 > hi) hi = $2 }
	END { printf "intervals %d: %d I/Os of %d (%.2f %%), %.0f to %.0f per interval, %d rate(s) not count/1 s\n",
	    n, s, r * el, 100 * s / (r * el), lo, hi, off; exit !(n == el && !off) }' && ok ||
	bad "$LAYOUT: the flatfile's interval rates are not the intervals' counts per second"
if [ "${VDBC_SANITIZED:-0}" = 1 ]; then
	echo "skip: interval timing not asserted in a sanitizer build"
else
	# Deterministic arrivals: GO to GO + EL s holds RATE x EL I/Os (one
	# more or less per thread; no I/O starts after GO + EL, however late
	# a busy slave's last interval timer fires: 101.12 % in CI before
	# that). Slaves whose intervals end early (re-armed from a stale
	# time) cover less: 98.8 % at 8 x 8 before that fix.
	awk -v r="$RATE" -v el="$EL" '{ n++; s += $2 }
		END { exit !(n == el && s > 0.995 * r * el && s < 1.005 * r * el) }' "$T/counts" && ok ||
		bad "$LAYOUT: the intervals' counts do not add up to $RATE x $EL within 0.5 %"
	t1=$(awk '$3 == "rd1" && $4 == "1" { print $1 }' "$flat")
	tn=$(awk -v el="$EL" '$3 == "rd1" && $4 == el { print $1 }' "$flat")
	echo "$LAYOUT: interval lines 1 to $EL span $(awk -v a="$(secs "$t1")" -v b="$(secs "$tn")" 'BEGIN { printf "%.3f", b - a }') s"
fi

# 1b. Clock offsets: every daemon here runs on the master's clock, so no
# "run NTP" warning, and one summary line for all H x J slaves (the HELLO
# stamp of before counted the TLS handshake as offset: 1-63 false
# warnings of 64, and two lines per slave).
grep -q "run NTP" "$T/r.out" && bad "$LAYOUT: a false clock warning: $(grep -m1 "run NTP" "$T/r.out")" || ok
n=$(grep -c "Clock offsets of $((H * J)) slaves on $H hosts against the master" "$T/r.out")
[ "$n" = 1 ] && [ "$(grep -c "Clock offsets of" "$T/r.out")" = 1 ] &&
	! grep -q "clock offset" "$T/r.out" && ok ||
	bad "$LAYOUT: $n clock summary lines, $(grep -c "clock offset" "$T/r.out") per-slave clock lines"
grep -m1 "Clock offsets of" "$T/r.out" | cut -c 14-

# 2. results.json's hosts: each host with its system and its own slaves.
want_h=$(for ((i = 1; i <= H; i++)); do printf 'h%s=%s:' "$i" "$NET.1.$i"; done)
got_h=$(jq -j '.hosts[] | "\(.name)=\(.system):"' "$T/or/results.json")
[ "$got_h" = "$want_h" ] && ok || bad "results.json hosts are '$got_h', not '$want_h'"
want_s=$(for ((k = 0; k < J; k++)); do printf 'h%s-%s,' "$H" "$k"; done)
got_s=$(jq -j --arg h "h$H" '.hosts[] | select(.name == $h) | .slaves[] | "\(.),"' "$T/or/results.json")
[ "$got_s" = "$want_s" ] && ok || bad "results.json: host h$H has slaves '$got_s', not '$want_s'"
[ "$(jq -r '[.hosts[].start] | unique | join(",")' "$T/or/results.json")" = vdbench ] && ok ||
	bad "results.json: the hosts do not say their slaves started through a daemon"

# 2b. --on-slave-loss=continue, H x J slaves, host 3's link down at
# interval 3: only its J slaves are lost (each named, all within one
# silence deadline of each other), the other slaves stay to the end
# (none stops on a silent master), interval lines keep coming and the run
# completes. Before the fix (tick_cb returned after one loss) 48 of 64
# were lost and printing stalled 12 s.
XH=3 XEL=14
NSDS=4 mparm "$T/x.parm" "$H" "$J" "$RATE" "$XEL"
master -f "$T/x.parm" -o "$T/ox" --on-slave-loss=continue >"$T/x.out" 2>&1 &
xpid=$!
if wait_for "$T/x.out" '^[0-9][0-9]:[0-9:.]*  *3  ' 60; then
	ip -n "$NS_M" link set "p$XH" down
	down_at=$(date +%H:%M:%S.%N)
else
	bad "continue: interval 3 never printed"; tail -5 "$T/x.out"
fi
wait "$xpid"
rc=$?
ip -n "$NS_M" link set "p$XH" up
[ "$rc" = 0 ] && ok || { bad "continue: exit $rc"; tail -20 "$T/x.out"; }
want_l=$(for ((k = 0; k < J; k++)); do printf 'h%s-%s\n' "$XH" "$k"; done | sort)
got_l=$(sed -n 's/.*Slave \([^ ]*\) (host [^)]*) lost: .*/\1/p' "$T/x.out" | sort)
[ "$got_l" = "$want_l" ] && ok || bad "continue: lost '$(echo $got_l)', wanted host h$XH's $J slaves"
# lateness FILE: the seconds the master said its own event loop ran late
# ("vdbc: the master's event loop ran X s late"): a deadline of the
# master's is load-tolerant by that much, and by no more.
lateness() {
	sed -n 's/.*vdbc: the master.s event loop ran \([0-9.]*\) s late.*/\1/p' "$1" |
		awk '{ s += $1 } END { printf "%.1f", s + 0 }'
}
# one event: every loss within 1.5 s of the first (plus the master's
# own lateness)
awk -v late="$(lateness "$T/x.out")" '/Slave .* lost: / { split($1, t, ":"); s = t[1] * 3600 + t[2] * 60 + t[3]; if (f == "") f = s; if (s - f > d) d = s - f }
	END { printf "continue: link down at %s, %d losses over %.2f s (master %.1f s late)\n", dn, n, d, late; exit !(d < 1.5 + late) }' dn="${down_at:-?}" n="$(echo "$got_l" | grep -c .)" "$T/x.out" &&
	ok || bad "continue: the losses were not one event"
# the others stayed: no other daemon's slave stopped on a silent master
for ((i = 1; i <= H; i++)); do
	[ "$i" = "$XH" ] && continue
	grep -q "silent for 5 s" "$T/d$i.log" && bad "continue: a slave of host $i stopped on a silent master"
done
ok
n=$(jq '[.runs[-1].intervals[] | select(.interval != null)] | length' "$T/ox/results.json" 2>/dev/null)
[ "$n" = "$XEL" ] && ok || bad "continue: results.json has $n intervals, not $XEL"
lost_json=$(jq -r '.runs[-1].intervals[-1].lost_slaves // [] | .[]' "$T/ox/results.json" 2>/dev/null | sort)
[ "$lost_json" = "$want_l" ] && ok || bad "continue: the last interval's lost_slaves are '$(echo $lost_json)'"
grep -q "every run completed, without lost slave(s)" "$T/x.out" && ok || bad "continue: the run did not complete"
# The healthy slaves' I/O goes on: the last interval holds about
# (H - 1) / H of the rate (each slave runs its share; not asserted
# closely, a loaded machine lags), far more than the (XH - 1) / H left
# when the hosts after XH stop too.
last=$(jq '.runs[-1].intervals[-1] | .reads + .writes' "$T/ox/results.json" 2>/dev/null)
awk -v c="${last:-0}" -v r="$RATE" -v h="$H" 'BEGIN { w = r * (h - 1) / h; printf "continue: last interval %d I/Os, %d expected\n", c, w
	exit !(c > 0.8 * w && c < 1.05 * w) }' && ok || bad "continue: the healthy slaves did not run to the end"
if [ "${VDBC_SANITIZED:-0}" = 1 ]; then
	echo "skip: interval print gaps not asserted in a sanitizer build"
else
	# Interval lines as the console printed them: the longest gap is the
	# silence limit (5 s) plus an interval, never the old 12 s stall
	# (plus the master's own lateness on a loaded machine).
	awk -v late="$(lateness "$T/x.out")" '$2 ~ /^[0-9]+$/ && $1 ~ /^[0-9][0-9]:/ && NF > 10 { split($1, t, ":"); s = t[1] * 3600 + t[2] * 60 + t[3]
		if (p != "" && s - p > g) g = s - p; p = s; n++ }
		END { printf "continue: %d interval lines, longest gap %.2f s (master %.1f s late)\n", n, g, late; exit !(g < 7.5 + late) }' "$T/x.out" &&
		ok || bad "continue: interval printing stalled"
fi

# 2c. The default stop, H x J slaves, the last host's link down at interval 3
# (issue 18 item 4): the stop names every one of its J slaves with its
# host, once, on the console and in errorlog.html; results.json's run
# keeps what ran up to the last whole interval (average, hosts, slaves,
# sds). Before, only the first lost slave was named.
XH=$H XEL=20
NSDS=4 mparm "$T/y.parm" "$H" "$J" "$RATE" "$XEL"
master -f "$T/y.parm" -o "$T/oy" >"$T/y.out" 2>&1 &
xpid=$!
if wait_for "$T/y.out" '^[0-9][0-9]:[0-9:.]*  *3  ' 60; then
	ip -n "$NS_M" link set "p$XH" down
else
	bad "default stop: interval 3 never printed"; tail -5 "$T/y.out"
fi
wait "$xpid"
rc=$?
ip -n "$NS_M" link set "p$XH" up
[ "$rc" = 157 ] && ok || { bad "default stop: exit $rc, not 157"; tail -20 "$T/y.out"; }
stop=$(grep "slaves lost: " "$T/y.out" | grep -v "; stopping the run" | head -1)
echo "default stop: $(cut -c1-160 <<<"$stop")..."
for ((k = 0; k < J; k++)); do
	grep -q "h$XH-$k (pid [0-9]*) on host h$XH " <<<"$stop" ||
		{ bad "default stop: the stop does not name h$XH-$k with its host: $stop"; break; }
done
[ "$k" = "$J" ] && ok
grep -q "^.*$J slaves lost: " <<<"$stop" && ok || bad "default stop: not one stop for $J slaves: $stop"
[ "$(grep -c "$J slaves lost: " "$T/oy/errorlog.html")" = 1 ] && ok ||
	bad "default stop: errorlog.html does not hold one stop naming the $J slaves"
grep -q "slaves lost: .*h$XH-$((J - 1)) (pid" "$T/oy/errorlog.html" && ok ||
	bad "default stop: errorlog.html does not name h$XH-$((J - 1))"
# nothing of another host in the stop
[ "$(grep -oE "on host h[0-9]+ " <<<"$stop" | sort -u)" = "on host h$XH " ] && ok ||
	bad "default stop: a slave of another host was named: $stop"
n=$(sed -n 's/.*stopped during run [^ ]* after \([0-9]*\) complete interval.*/\1/p' "$T/y.out" | head -1)
jq -e --argjson n "${n:-0}" --argjson j "$((H * J))" '.runs[0] |
	(.status | startswith("stopped: ")) and (.intervals | length) == $n and $n >= 2 and
	(.average != null) and (.hosts | length) > 0 and (.sds | length) > 0 and
	(.slaves | length) == $j' "$T/oy/results.json" >/dev/null && ok ||
	bad "default stop: results.json's run lacks what ran up to interval ${n:-?}"

# 3. More than 64 slaves: 2 hosts x 40, with a soft fd limit (128) far
# below what 80 slaves need: the master raises it to the hard limit.
hosts 2 || { finish; exit 1; }
NSDS=1 mparm "$T/b.parm" 2 40 800 2
( ulimit -Sn 128; master -f "$T/b.parm" -o "$T/ob" ) >"$T/b.out" 2>&1
rc=$?
[ "$rc" = 0 ] && ok || { bad "2 x 40 slaves: exit $rc"; tail -20 "$T/b.out"; }
n=$(jq '[.hosts[].slaves[]] | length' "$T/ob/results.json" 2>/dev/null)
[ "$n" = 80 ] && ok || bad "2 x 40: results.json lists $n slaves"
[ -s "$T/ob/h2-39.html" ] && ok || bad "2 x 40: no report of slave h2-39"
grep -q "runs at most" "$T/b.out" && bad "2 x 40 slaves refused" || ok
# A hard fd limit too low for them: refused before any daemon is asked,
# naming the limit.
( ulimit -n 200; master -f "$T/b.parm" -o "$T/ob2" ) >"$T/b2.out" 2>&1
rc=$?
[ "$rc" = 157 ] && grep -q "80 slaves on 2 host(s): the master needs about [0-9]* file descriptors and may open 200 (RLIMIT_NOFILE" "$T/b2.out" &&
	! grep -q "Starting .* through its daemon" "$T/b2.out" && ok ||
	{ bad "a low fd limit: exit $rc"; cat "$T/b2.out"; }
# The cap on all slaves: 1,024 (and 256 per host).
NSDS=1 mparm "$T/c.parm" 5 256 800 2
master -f "$T/c.parm" -o "$T/oc" >"$T/c.out" 2>&1
rc=$?
[ "$rc" = 157 ] && grep -q "1280 slaves requested over 5 hosts; vdbc runs at most 1024 in all (and 256 per host)" "$T/c.out" &&
	ok || { bad "1280 slaves: exit $rc"; tail -3 "$T/c.out"; }

# 4. The cap itself: 16 hosts x 64 = 1,024 slaves (one null sd, a thread
# each) connect and run. About 2.4 GB and 10 s; not in a sanitizer build.
if [ "${VDBC_SANITIZED:-0}" = 1 ]; then
	echo "skip: 1,024 slaves not run in a sanitizer build"
else
	hosts 16 || { finish; exit 1; }
	# interval=5: the slaves' silence limit while I/O runs is max(2
	# intervals, 5 s), and 1,024 slaves starting their I/O on 2 cores
	# left 246 of them silent 5 s after GO (all on time at 10 s)
	NSDS=1 mparm "$T/k.parm" 16 64 10240 10 5
	# CPU pressure (PSI: the share of time some task waited for a CPU)
	# over the run, to tell a starved machine from a false loss
	psi() { awk '/^some/ { sub("total=", "", $5); print $5 }' /proc/pressure/cpu 2>/dev/null; }
	p0=$(psi) w0=$(date +%s%N)
	master -f "$T/k.parm" -o "$T/ok" >"$T/k.out" 2>&1
	rc=$?
	p1=$(psi) w1=$(date +%s%N)
	press=$(awk -v a="$p0" -v b="$p1" -v s="$w0" -v e="$w1" 'BEGIN {
		if (a == "" || b == "" || e <= s) print "unknown"; else printf "%.0f", 100 * (b - a) * 1000 / (e - s) }')
	echo "16x64: CPU pressure over the run ${press} %"
	# 1,024 slaves waking on 2 cores (beside CI's other tests) can
	# leave one silent past max(2 intervals, 5 s): such a stop passes
	# only when every loss was a silence and the machine was starved
	# (PSI over 50 %); a slave lost any other way fails
	if [ "$rc" = 157 ] && [ "$press" != unknown ] && [ "$press" -ge 50 ] &&
	    grep -q "lost: silent for too long (no heartbeat)" "$T/k.out" &&
	    ! grep " lost: " "$T/k.out" | grep -vq "silent for too long (no heartbeat)"; then
		echo "1,024 slaves: this machine starved its slaves (CPU pressure $press %); the stop names the silence: $(grep -m1 " lost: " "$T/k.out" | cut -c 14-)"
		ok
		finish
		exit $?
	fi
	# Here the 1,024 slaves start on the master's own 2 cores (CI:
	# with other tests beside): their start can starve the master for
	# 5-20 s, and slaves and daemons then leave a master silent past
	# their limits. Such a stop must name the master's stall as its
	# cause (it is said, not a false loss); any other stop fails.
	if [ "$rc" = 157 ] && grep -qE "Vdbench stopped: The master(&#39;|')s event loop ran" "$T/ok/status.html" 2>/dev/null ||
	    { [ "$rc" = 157 ] && grep -qE "^[0-9:.]+ The master's event loop ran .* slaves lost: " "$T/k.out"; }; then
		echo "1,024 slaves: this machine starved the master; the stop names it: $(grep -m1 -oE "The master's event loop ran [0-9.]+ s late" "$T/k.out")"
		ok
		finish
		exit $?
	fi
	# on failure the lines that say why, not 2,048 clock lines
	[ "$rc" = 0 ] && ok || { bad "1,024 slaves: exit $rc"; grep -v \
		-e "lun is not formatted" -e "Starting 64 slave" -e "started the slaves" "$T/k.out" | head -40; }
	n=$(jq '[.hosts[].slaves[]] | length' "$T/ok/results.json" 2>/dev/null)
	[ "$n" = 1024 ] && [ -s "$T/ok/h16-63.html" ] && ok || bad "1,024 slaves: results.json lists $n slaves"
	awk '$3 == "rd1" && $4 == "avg_2-2" { exit !($6 > 9000) }' "$T/ok/flatfile.html" && ok ||
		bad "1,024 slaves: no avg near iorate=10240"
	t0=$(secs "$(awk 'NR == 1 { print $1 }' "$T/k.out")")
	tc=$(secs "$(awk '/All slaves are now connected/ { print $1; exit }' "$T/k.out")")
	echo "16x64: 1,024 slaves connected after $(awk -v a="$t0" -v c="$tc" 'BEGIN { printf "%.2f", c - a }') s"
	grep -q "run NTP" "$T/k.out" && bad "16x64: a false clock warning: $(grep -m1 "run NTP" "$T/k.out")" || ok
	grep -m1 "Clock offsets of" "$T/k.out" | cut -c 14-
fi

finish
