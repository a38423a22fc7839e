#!/bin/bash
# Data validation (-v, -vr, -vw, validate=) on a file lun, the forms of
# reference/vdbench-5.04.06/validation/ v1, v7a, v7b, v7c, v8a, v8b: the
# read percentages that vdbench's pre-reads and reads after writes give,
# the slave's per-rd totals, the "No read validations" abort, vdbench's
# bytes on disk (its own jrandom_check.py model), and what is not built
# yet refused by name before any I/O.
. "$(dirname "$0")/lib.sh"

# readpcts: the read pct of every avg_ line of the last run, in order.
readpcts() { grep -E '^[0-9:.]+ +avg_[0-9]+-[0-9]+ ' "$T/out" | awk '{ print $6 }' | tr '\n' ' '; }
# in_range V LO HI
in_range() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'; }
check_pct() { # LABEL INDEX LO HI: the INDEXth avg line (1 = SD_format)
	local v
	v=$(readpcts | awk -v i="$2" '{ print $i }')
	if [ -n "$v" ] && in_range "$v" "$3" "$4"; then ok; else bad "$1: read pct '$v' not in [$3, $4] (avg lines: $(readpcts))"; fi
}

# v1: rd1 sequential writes, rd2 random 50/50.
cat >"$T/v1.parm" <<P
messagescan=no
sd=sd1,lun=$T/lun1,size=16m,threads=2
wd=wd1,sd=sd1,xfersize=4k,rdpct=0,seekpct=seq
wd=wd2,sd=sd1,xfersize=4k,rdpct=50,seekpct=random
rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1,threads=2
rd=rd2,wd=wd2,iorate=max,elapsed=2,interval=1,threads=2
P
expect_rc 0 "$VDBC" -f "$T/v1.parm" -o "$T/o1" -v --port 0 --seed 1
# vdbench's map lines: errorlog.html and the slave's log, not the console
grep -qF "localhost-0: Allocating Data Validation map: 4,096 one-byte entries for each 4,096-byte block." "$T/o1/errorlog.html" &&
	ok || bad "v1: no map line in errorlog.html"
grep -qF "localhost-0: Created new DV map: sd1 size: 16,777,216 bytes; key block size: 4096; entries: 4,096" "$T/o1/errorlog.html" &&
	ok || bad "v1: no 'Created new DV map' line in errorlog.html"
grep -qF "Allocating Data Validation map: 4,096" "$T/o1/localhost-0.stdout.html" && ok || bad "v1: no map line in the slave's log"
grep -q "Allocating Data Validation map" "$T/out" && bad "v1: the map line is on the console" || ok
# the totals after the slave's time of day, one per rd (v1)
[ "$(grep -cE '^[0-9:.]{12} localhost-0: [0-9:]{8}\.[0-9]{3} Total amount of key blocks read and validated: +[0-9,]+; key blocks marked in error:    0 $' "$T/out")" = 2 ] &&
	ok || bad "v1: not one totals line per rd"
grep -q "Total Data Validation or I/O error count" "$T/out" && bad "v1: an error count in a clean run" || ok
expect_out "Vdbench execution completed successfully."
# -v: rdpct=0 -> about 50 % reads (the pre-reads), rdpct=50 -> 66.6 %
check_pct "v1 rd1" 2 45 50.01
check_pct "v1 rd2" 3 64 68
# The blocks on disk are vdbench's (its own model of the bytes).
python3 "$VDBC_SRC/tests/data/dv/jrandom_check.py" "$T/lun1" 0 1 511 1023 >"$T/jr" 2>&1
[ "$(grep -c 'match model: True' "$T/jr")" = 4 ] && ok || { bad "jrandom_check on vdbc's lun"; cat "$T/jr"; }
cp "$T/out" "$T/v1.console"
# errorlog.html has the totals too; the slave's log the per-key counters
[ "$(grep -cE '^[0-9:.]{12} localhost-0: [0-9:.]{12} Total amount of key blocks read and validated' "$T/o1/errorlog.html")" = 2 ] && ok || bad "errorlog.html lacks the totals"
grep -qE "info: [0-9:.]{12} Total amount of key blocks read and validated" "$T/o1/localhost-0.stdout.html" && ok || bad "the slave's log lacks the totals"
grep -q "Data Validation counters: $" "$T/o1/localhost-0.stdout.html" && ok || bad "no counters in the slave's log"
grep -qE "Key   1: reads: +[0-9]+ writes: +[1-9][0-9]* $" "$T/o1/localhost-0.stdout.html" && ok || bad "no key 1 counters"

# The key block is the smallest xfersize over every rd (here rd2's),
# though rd1 writes 8k blocks.
cat >"$T/kb.parm" <<P
sd=sd1,lun=$T/lun2,size=32m,threads=2
wd=wd1,sd=sd1,xfersize=8k,rdpct=0,seekpct=eof
wd=wd2,sd=sd1,xfersize=4k,rdpct=50,seekpct=random
rd=rd1,wd=wd1,iorate=max,elapsed=30,interval=1,threads=2
rd=rd2,wd=wd2,iorate=max,elapsed=2,interval=1,threads=2
P
expect_rc 0 "$VDBC" -f "$T/kb.parm" -o "$T/o15" -v --port 0 --seed 1
grep -qF "localhost-0: Allocating Data Validation map: 8,192 one-byte entries for each 4,096-byte block." "$T/o15/errorlog.html" &&
	ok || bad "8k then 4k: not a 4k key block"
grep 'Total amount' "$T/out" | tail -1 | grep -q 'validated: *[1-9]' && ok || bad "8k then 4k: nothing validated"

# v7a: -vr reads every write back: 66.6 % / 75 %.
rm -f "$T/lun1"
expect_rc 0 "$VDBC" -f "$T/v1.parm" -o "$T/o2" -vr --port 0 --seed 1
check_pct "-vr rd1" 2 64 67.5
check_pct "-vr rd2" 3 73 77
# validate=read_after_write in the parmfile is the same (v8a's form).
rm -f "$T/lun1"
{ echo "validate=read_after_write"; cat "$T/v1.parm"; } >"$T/v8.parm"
expect_rc 0 "$VDBC" -f "$T/v8.parm" -o "$T/o3" --port 0 --seed 1
check_pct "validate=read_after_write rd1" 2 64 67.5
grep -qE "localhost-0: [0-9:.]{12} Total amount of key blocks read and validated:" "$T/out" && ok || bad "validate=read_after_write: no totals"

# v7b: -vw (no pre-read) with a write-only rd validates nothing: abort.
rm -f "$T/lun1"
expect_rc 157 "$VDBC" -f "$T/v1.parm" -o "$T/o4" -vw --port 0 --seed 1
check_pct "-vw rd1" 2 0 0
grep -qE "localhost-0: [0-9:.]{12} Total amount of key blocks read and validated:        0; key blocks marked in error:    0 $" "$T/out" &&
	ok || bad "-vw: no zero totals line"
# vdbench's slave message and abort, line for line (v7b's README)
sed 's/^[0-9:.]\{12\} \{0,1\}//' "$T/out" | sed -n '/^Message from slave/,$p' >"$T/v7b.got"
cat >"$T/v7b.want" <<'W'
Message from slave localhost-0: 
No read validations done during a Data Validation run.
This means very likely that your run was not long enough to
access the same data block twice. 
There are several solutions to this: 
- increase elapsed time. 
- use larger xfersize. 
- use only a subset of your lun by using the 'sd=...,size=' 
  parameter or the 'sd=...,range=' parameter.
Or, you never did any writes so Vdbench does not know what to 
compare the data with. In that case, change the rdpct= parameter.
*
**************************************************************************************
* Slave localhost-0 aborting: No read validations done during a Data Validation run. *
**************************************************************************************
*

Slave localhost-0 prematurely terminated. 

Slave aborted. Abort message received: 
No read validations done during a Data Validation run.

Look at file localhost-0.stdout.html for more information.

Slave localhost-0 prematurely terminated. 

W
diff "$T/v7b.want" "$T/v7b.got" >"$T/v7b.diff" && ok || { bad "-vw: the abort differs from vdbench's"; cat "$T/v7b.diff"; }
grep -q "No read validations" "$T/o4/errorlog.html" && bad "-vw: the message is in errorlog.html" || ok
grep -q "Starting RD=rd2" "$T/out" && bad "-vw: rd2 ran after the abort" || ok

# v7c: -vw with random 50/50: reads are 50 %, and they validate.
cat >"$T/v7c.parm" <<P
sd=sd1,lun=$T/lun1,size=16m,threads=2
wd=wd1,sd=sd1,xfersize=4k,rdpct=50,seekpct=random
rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1,threads=2
P
expect_rc 0 "$VDBC" -f "$T/v7c.parm" -o "$T/o5" -vw --port 0 --seed 1
check_pct "-vw 50/50" 1 47 53
grep -q 'validated: *[1-9]' "$T/out" && ok || bad "-vw 50/50 validated nothing"

# A write-only single pass (seekpct=eof) is not an abort (v2 rd1).
cat >"$T/eof.parm" <<P
sd=sd1,lun=$T/lun1,size=16m,threads=2
wd=wd1,sd=sd1,xfersize=4k,rdpct=0,seekpct=eof
rd=rd1,wd=wd1,iorate=max,elapsed=30,interval=1,threads=2
P
expect_rc 0 "$VDBC" -f "$T/eof.parm" -o "$T/o6" -vw --port 0 --seed 1

# v8c: the size requirement (2000, 4000 at a set rate, + 256 + threads
# blocks of the largest xfersize in the miss area).
cat >"$T/v8c.parm" <<P
messagescan=no
sd=sd1,lun=$T/small,size=8m,threads=2
wd=wd1,sd=sd1,xfersize=4k,rdpct=50,seekpct=random
rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1,threads=2
P
expect_rc 157 "$VDBC" -f "$T/v8c.parm" -o "$T/o14" -v --port 0
# vdbench's console from its print_sizes lines to the end (v8c)
sed 's/^[0-9:.]\{12\} \{0,1\}//' "$T/out" | sed -n '/^wd=wd1$/,$p' >"$T/v8c.got"
cat >"$T/v8c.want" <<'W'
wd=wd1
Byte addresses for hits: Low:                0; High:                0; Width:                0
Byte addresses for miss: Low:                0; High:        8,388,608; Width:        8,388,608
sd max xfersize=4096
hitarea_used: 0
hitarea: 1048576

*
*********************************************************************************************************
*                                                                                                       *
* Data Validation has some extra SD size requirements.                                                  *
* The internal queue depth of Vdbench is 2000 for an uncontrolled maximum i/o rate,                     *
* and twice that, 4000, for all other workloads.                                                        *
* To that is added the number of threads requested (2),                                                 *
* plus a fudge factor of 256, all for a total of 4258.                                                  *
*                                                                                                       *
* The SD size (or range) must be large enough to accomodate 4258 times the maximum xfersize=4096 value, *
* for a total of 17,440,768 bytes (16.633m), but we only have 8,388,608 bytes (8m).                     *
*                                                                                                       *
*                                                                                                       *
* Why all this? To ensure Data Validation integrity each xfersize= block may have only ONE              *
* read or write outstanding at the same time. Each block internally is therefore                        *
* marked 'busy' with a dead-lock possible if ALL blocks are busy                                        *
*                                                                                                       *
* You may override the internal queue depth with 'misc=(fifo=nnn)',                                     *
* though lower queue depth may throttle throughput at high i/o rates.                                   *
*                                                                                                       *
*********************************************************************************************************
*

SD size for cache misses not large enough.

W
diff "$T/v8c.want" "$T/v8c.got" >"$T/v8c.diff" && ok || { bad "v8c: the console differs from vdbench's"; cat "$T/v8c.diff"; }
grep -q "Data Validation has some extra" "$T/o14/logfile.html" && ok || bad "v8c: the box is not in logfile.html"
grep -qE "^[0-9:.]{12} " "$T/o14/errorlog.html" && bad "v8c: errorlog.html has lines (vdbench's is empty)" || ok
grep -q "Starting RD=rd1" "$T/out" && bad "v8c: rd1 started" || ok

# v8b: validate=foo
{ echo "validate=foo"; cat "$T/v1.parm"; } >"$T/v8b.parm"
expect_rc 157 "$VDBC" -f "$T/v8b.parm" -o "$T/o7" --port 0
expect_out "Unknown keyword value for 'validate=': foo"
# validate=no runs without validation.
{ echo "validate=no"; cat "$T/v7c.parm"; } >"$T/no.parm"
expect_rc 0 "$VDBC" -f "$T/no.parm" -o "$T/o8" --port 0 --seed 1
grep -q "key blocks read and validated" "$T/out" && bad "validate=no validated" || ok

# journal=no is accepted (v8d's keyword); journal=max= is not built yet
# (the journal itself: e2e 35).
{ echo "journal=no"; cat "$T/v7c.parm"; } >"$T/jn.parm"
expect_rc 0 "$VDBC" -f "$T/jn.parm" -o "$T/o12" -v --port 0 --seed 1
{ echo "journal=(yes,max=10m)"; cat "$T/v7c.parm"; } >"$T/jy.parm"
expect_rc 157 "$VDBC" -f "$T/jy.parm" -o "$T/o13" --port 0
expect_out "'journal=max=' ($T/jy.parm:1:1) is not supported by vdbc yet"

# Not built yet: refused by name before any I/O.
expect_rc 157 "$VDBC" -f "$T/v1.parm" -o "$T/o9" -jti --port 0
expect_out "'-jti': -ji (ignore pending writes in journal recovery) is not supported by vdbc yet"
# dedup -v runs on one sd (e2e 37); over two sds it is refused
{ echo "dedupratio=2,dedupunit=4k"; sed "/^sd=/a sd=sd9,lun=$T/lun9,size=1m" "$T/v7c.parm"; } >"$T/dd.parm"
rm -f "$T/lun1"
expect_rc 157 "$VDBC" -f "$T/dd.parm" -o "$T/o10" -v --port 0
expect_out "Data Validation (-v, validate=) with dedupratio= on more than one sd (vdbench spreads the dedup sets over the sds' summed sizes) is not supported by vdbc yet"
[ -e "$T/lun1" ] && bad "dedup -v: the lun was made before the refusal" || ok
# an xfersize range: the key block is its min, every size min + n * align
sed -e 's/xfersize=4k/xfersize=(4k,8k,4k)/' -e '/^sd=/s/size=16m/size=32m/' -e '/^sd=/s/$/,align=4k/' "$T/v7c.parm" >"$T/xr.parm"
rm -f "$T/lun1"
expect_rc 0 "$VDBC" -f "$T/xr.parm" -o "$T/o14" -v --port 0
grep -qF "one-byte entries for each 4,096-byte block." "$T/o14/errorlog.html" && ok || bad "xfersize range -v: the key block is not 4k"
grep -q "Total amount of key blocks read and validated: *[1-9]" "$T/out" && ok || bad "xfersize range -v: nothing validated"
cat >"$T/fs.parm" <<P
fsd=fsd1,anchor=$T/dir,depth=1,width=1,files=2,size=64k
fwd=fwd1,fsd=fsd1,operation=create,xfersize=4k,fileio=random,fileselect=random,threads=1
rd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=2,interval=1
P
# -v on fsds runs (e2e 36); creating files under it is refused
expect_rc 157 "$VDBC" -f "$T/fs.parm" -o "$T/o11" -v --port 0
expect_out "Data Validation (-v, validate=) with fwd=fwd1,operation=create is not supported by vdbc yet"
[ -e "$T/dir" ] && bad "fsd -v create: the anchor was made before the refusal" || ok

# One sd on two hosts (here two local hosts on one file): two key maps
# of one lun would each call the other's writes corrupt, so it is
# refused before any I/O; an sd per host (sd host=) runs, each on its
# host's slave with its own map.
printf 'hd=h1,system=localhost\nhd=h2,system=127.0.0.1\nsd=sd1,lun=%s/two,size=32m\nwd=wd1,sd=sd1,xfersize=4k,rdpct=50\nrd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n' "$T" >"$T/two.parm"
expect_rc 157 "$VDBC" -f "$T/two.parm" -o "$T/o22" -v --port 0
expect_out "rd=rd1: Data Validation: sd=sd1 would be driven from hd=h1 and hd=h2; under validation an sd is driven by one slave"
[ -e "$T/two" ] && bad "sd on two hosts: the lun was made before the refusal" || ok
printf 'hd=h1,system=localhost\nhd=h2,system=127.0.0.1\nsd=sd1,host=h1,lun=%s/two1,size=32m\nsd=sd2,host=h2,lun=%s/two2,size=32m\nwd=wd1,sd=sd*,xfersize=4k,rdpct=50\nrd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n' "$T" "$T" >"$T/two2.parm"
expect_rc 0 "$VDBC" -f "$T/two2.parm" -o "$T/o23" -v --port 0
for h in h1 h2; do
	grep -qE "^[0-9:.]{12} $h-0: [0-9:.]{12} Total amount of key blocks read and validated: +[1-9][0-9,]*; key blocks marked in error:    0 " "$T/out" &&
		ok || bad "an sd per host: $h-0 validated nothing"
done

# -v runs in the one worker loop (sd_dv.h's hooks), so what that loop
# does holds under -v too: engine=aio submits through aio (not pread and
# pwrite), priority= serves wd1 first, and data_errors=remove_device
# stops the removed sd's I/O (the old second loop went on reading it:
# hundreds of "failed" lines), the others go on to the rd's end.
printf 'sd=sd1,lun=%s/aio,size=16m,threads=4,engine=aio\nwd=wd1,sd=sd1,xfersize=4k,rdpct=50\nrd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1\n' "$T" >"$T/aio.parm"
if command -v strace >/dev/null; then
	# (LeakSanitizer cannot run under ptrace: its leak check is off here)
	expect_rc 0 env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -qq -e trace=io_submit,pread64,pwrite64 -o "$T/aio.st" "$VDBC" -f "$T/aio.parm" -o "$T/o24" -v --port 0
	sub=$(grep -c 'io_submit(' "$T/aio.st"); rw=$(grep -cE 'p(read|write)64\(' "$T/aio.st")
	echo "engine=aio under -v: $sub io_submit, $rw pread/pwrite calls"
	[ "$sub" -gt 1000 ] && [ "$rw" -lt 100 ] && ok || bad "engine=aio under -v: $sub io_submit, $rw pread/pwrite"
else
	echo "note: no strace, engine=aio under -v is only run"
	expect_rc 0 "$VDBC" -f "$T/aio.parm" -o "$T/o24" -v --port 0
fi
grep -q "Total amount of key blocks read and validated: *[1-9]" "$T/out" && ok || bad "engine=aio under -v: nothing validated"
printf 'sd=sd1,lun=%s/pr,size=32m,threads=1\nwd=wd1,sd=sd1,skew=50,priority=1,xfersize=4k,rdpct=50\nwd=wd2,sd=sd1,skew=50,priority=2,xfersize=4k,rdpct=50\nrd=rd1,wd=wd*,iorate=max,elapsed=2,interval=1\n' "$T" >"$T/pr.parm"
expect_rc 0 "$VDBC" -f "$T/pr.parm" -o "$T/o25" -v --port 0
p1=$(awk '$2 ~ /^avg_/ {v = int($3)} END {print v}' "$T/o25/wd1.html")
p2=$(awk '$2 ~ /^avg_/ {v = int($3)} END {print v}' "$T/o25/wd2.html")
[ "${p1:-0}" -gt 0 ] && [ "$p2" = 0 ] && ok || bad "priority= under -v: wd1 $p1, wd2 $p2 ops/s (wd1 should take every I/O)"
dd if=/dev/zero of="$T/rm1" bs=1M count=32 status=none
dd if=/dev/zero of="$T/rm2" bs=1M count=32 status=none
# rd0 writes every block, rd1 reads them: sd1 shrinks in rd1's interval
# 1, so its reads fail short (a write could extend the file again, and
# a known block in the hole would read as a corruption).
printf 'messagescan=no\ndata_errors=remove_device\nsd=sd1,lun=%s/rm1,size=32m,threads=2\nsd=sd2,lun=%s/rm2,size=32m,threads=2\nwd=wd0,sd=sd*,xfersize=4k,rdpct=0,seekpct=eof\nwd=wd1,sd=sd*,xfersize=4k,rdpct=100\nrd=rd0,wd=wd0,iorate=20000,elapsed=60,interval=1\nrd=rd1,wd=wd1,iorate=2000,elapsed=4,interval=1\n' "$T" "$T" >"$T/rm.parm"
timeout 120 "$VDBC" -f "$T/rm.parm" -o "$T/o26" -v --port 0 >"$T/m_rm" 2>&1 &
mpid=$!
PIDS="$PIDS $mpid"
wait_for "$T/m_rm" "Starting RD=rd1" 60 || bad "remove_device -v: rd1 did not start"
for ((i = 0; i < 200; i++)); do
	sed -n '/Starting RD=rd1/,$p' "$T/m_rm" | grep -qE '^[0-9:.]+ +1 ' && break
	sleep 0.1
done
truncate -s 0 "$T/rm1"
wait "$mpid"
rc=$?
nf=$(grep -c "errno: short transfer" "$T/o26/errorlog.html")
[ "$rc" = 157 ] && [ "$nf" -ge 1 ] && [ "$nf" -le 4 ] && ok ||
	{ bad "remove_device -v: exit $rc (wanted 157: I/O errors end the execution after the rd), $nf failed lines (wanted 1 to 4, one per I/O in flight)"; grep -v "^ *$" "$T/m_rm" | tail -30; }
grep -q "'data_errors=remove_device' requested for sd=sd1 No longer issuing i/o against this SD" "$T/m_rm" && ok ||
	bad "remove_device -v: sd1 was not reported as removed"
grep -q "Data Validation error" "$T/m_rm" && bad "remove_device -v: the removed sd was validated on" || ok
# engine=null moves no data: nothing to validate, so it is refused
sed 's/engine=aio/engine=null/' "$T/aio.parm" >"$T/null.parm"
expect_rc 157 "$VDBC" -f "$T/null.parm" -o "$T/o27" -v --port 0
expect_out "rd=rd1: Data Validation: sd=sd1 has engine=null, which moves no data; validate with engine=sync, aio or io_uring"

finish
