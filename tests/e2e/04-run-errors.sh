#!/bin/bash
# Runs that cannot start say why, naming the lun, before any I/O: a
# transfer size direct I/O cannot do, a lun that does not exist without
# size=, the null engine; and Ctrl-C still leaves the reports.
. "$(dirname "$0")/lib.sh"

# o_direct with 1000-byte transfers: refused before GO (the file system
# may also refuse o_direct itself, e.g. tmpfs; either way the lun is named).
cat >"$T/d.parm" <<P
sd=sd1,lun=$T/f1,size=4m,openflags=o_direct
wd=wd1,sd=sd1,xfersize=1000,rdpct=100
rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1,threads=1
P
dd if=/dev/zero of="$T/f1" bs=1M count=4 status=none
expect_rc 157 "$VDBC" -f "$T/d.parm" -o "$T/o1" --port 0
expect_out "sd=sd1,lun=$T/f1"
grep -qE "not a multiple of the lun's block size of [0-9]+ bytes|does not support o_direct" "$T/out" && ok || bad "no block size or o_direct reason"
grep -q "sd=sd1,lun=$T/f1" "$T/o1/errorlog.html" && ok || bad "errorlog.html lacks the reason"

# A lun that does not exist and has no size=.
printf 'sd=sd1,lun=%s/none\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1\n' "$T" >"$T/n.parm"
expect_rc 157 "$VDBC" -f "$T/n.parm" -o "$T/o2" --port 0
expect_out "Unknown lun size for sd=sd1"
[ ! -e "$T/none" ] && ok || bad "a lun was created without size="

# The null engine does no I/O at all but counts requests.
cat >"$T/null.parm" <<P
sd=sd1,lun=$T/f1,size=4m,engine=null
wd=wd1,sd=sd1,xfersize=4k,rdpct=50
rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1,threads=2
P
before=$(md5sum <"$T/f1")
expect_rc 0 "$VDBC" -f "$T/null.parm" -o "$T/o3" --port 0 --seed 5
[ "$(md5sum <"$T/f1")" = "$before" ] && ok || bad "the null engine wrote to the lun"
rate=$(grep 'avg_2-2' "$T/o3/flatfile.html" | awk '{ print $6 }')
awk -v r="$rate" 'BEGIN { exit !(r > 1000) }' && ok || bad "null engine rate $rate"
expect_rc 157 "$VDBC" -s -f /dev/stdin -o "$T/o4" <<P
sd=sd1,lun=$T/f1,engine=bogus
P
expect_out "Invalid 'engine=' value: bogus (expected aio, io_uring, sync or null)"

# xfersize=(min,max,align) needs the same align= on its sds (PARMFILE.md
# 16 item 5); with it the run goes.
printf 'sd=sd1,lun=%s/f1,size=4m\nwd=wd1,sd=sd1,xfersize=(4k,64k,4k)\nrd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n' "$T" >"$T/al.parm"
expect_rc 157 "$VDBC" -s -f "$T/al.parm" -o "$T/oal"
expect_out "The 'sd=...,align=xxx' parameter must be set to the same alignment value used in 'xfersize=(min,max,align)' (4096)"
sed -i 's/size=4m$/size=4m,align=4k/' "$T/al.parm"
expect_rc 0 "$VDBC" -f "$T/al.parm" -o "$T/oal" --port 0

# A keyword vdbc cannot run yet: -s plans it, a real run refuses to start.
printf 'deduphotsets=2\nsd=sd1,lun=%s/f1,size=4m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1\n' "$T" >"$T/u.parm"
expect_rc 0 "$VDBC" -s -f "$T/u.parm" -o "$T/o6"
expect_rc 157 "$VDBC" -f "$T/u.parm" -o "$T/o6" --port 0
expect_out "'deduphotsets=' ($T/u.parm:1:1) is not supported by vdbc yet"
grep -q "Starting slave" "$T/out" && bad "slaves started for a refused run" || ok

# maxdata=2: twice the lun size written, then one more interval.
printf 'sd=sd1,lun=%s/f1,size=4m\nwd=wd1,sd=sd1,rdpct=0,xfersize=64k,seekpct=0\nrd=rd1,wd=wd1,iorate=100,elapsed=60,interval=1,maxdata=2\n' "$T" >"$T/md.parm"
expect_rc 0 "$VDBC" -f "$T/md.parm" -o "$T/o7" --port 0
expect_out "Reached maxdata=2. rd=rd1 shutting down after next interval."
grep -q 'avg_2-3 ' "$T/out" && ok || bad "maxdata did not end the run after interval 3"

# I/O errors: each reported with lun, offset, size and reason; the run
# stops at data_errors=. The file shrinks under the run: reads fail short.
dd if=/dev/zero of="$T/fe" bs=1M count=4 status=none
printf 'data_errors=5\nsd=sd1,lun=%s/fe,size=4m\nwd=wd1,sd=sd1,rdpct=100\nrd=rd1,wd=wd1,iorate=200,elapsed=30,interval=1\n' "$T" >"$T/e.parm"
"$VDBC" -f "$T/e.parm" -o "$T/o8" --port 0 >"$T/m8" 2>&1 &
mpid=$!
PIDS="$PIDS $mpid"
wait_for "$T/m8" " 1 " 20 && ok || bad "error run did not reach interval 1"
truncate -s 0 "$T/fe"
wait "$mpid"
[ $? = 157 ] && ok || bad "I/O errors did not stop the run with 157"
grep -q "localhost-0: sd=sd1,lun=$T/fe: read of 4096 bytes at offset [0-9]* failed: short transfer" "$T/m8" && ok || bad "an I/O error was not reported with lun, size and offset"
grep -q "the limit data_errors=5 is reached" "$T/m8" && ok || bad "data_errors=5 not honoured"
[ "$(grep -c 'failed: short transfer' "$T/o8/errorlog.html")" -ge 5 ] && ok || bad "errorlog.html lacks the errors"

# Ctrl-C: the run stops, the reports stay, the exit status says so.
printf 'sd=sd1,lun=%s/f1,size=4m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=100,elapsed=60,interval=1\n' "$T" >"$T/c.parm"
"$VDBC" -f "$T/c.parm" -o "$T/o5" --port 0 >"$T/m5" 2>&1 &
mpid=$!
PIDS="$PIDS $mpid"
wait_for "$T/m5" " 2 " 20 && ok || bad "run did not reach interval 2"
kill -INT "$mpid"
wait "$mpid"
rc=$?
[ "$rc" = 130 ] && ok || bad "Ctrl-C exited $rc, not 130"
grep -q "Stopped by signal" "$T/o5/errorlog.html" && ok || bad "errorlog.html does not say why it stopped"
grep -qE '^[0-9:.]+ +2 ' "$T/o5/summary.html" && ok || bad "summary.html lost its intervals"
sleep 1
[ -z "$(slave_pids "$T/m5")" ] && ok || bad "a slave outlived Ctrl-C"
finish
