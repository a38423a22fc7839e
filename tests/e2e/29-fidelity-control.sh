#!/bin/bash
# Run control and the command line (issue 15 part 3): vdbench's options
# and utilities vdbc does not build say so by name; -c/-co/-cy/-cn force
# the fsd format; loop= and -l repeat all runs; monitor= ends a run; rd
# startcmd=/endcmd= run around each run of their rd.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
V=("$VDBC" --port 0 --seed 7)

# Known options and utilities: a message naming them, not the usage text.
for a in -k -d1 print sds csim dsim showlba; do
	expect_rc 157 "$VDBC" "$a" -f "$T/none"
	expect_out "'$a' is a known vdbench"
	expect_out "that vdbc does not build"
	grep -q "usage:" "$T/out" && bad "$a: usage printed" || ok
done
# printjournal is built (master/tools/printjournal.c): vdbench's journal of
# the reference's killed -j run prints as vdbench printed it.
expect_rc 0 "$VDBC" printjournal "$VDBC_SRC/tests/data/dv/v3_after_kill_sd1.jnl"
expect_out " Before:  lba: 0x000001793000 key: 0x01  "
expect_out " Trying to go beyond journal file size"
expect_rc 1 "$VDBC" printjournal "$VDBC_SRC/tests/data/dv/v3_printjournal_excerpt.txt"
expect_out "v3_printjournal_excerpt.txt: offset 0x00000000: eyecatcher"
expect_rc 157 "$VDBC" -q
expect_out "Invalid execution parameter: '-q'"
expect_out "usage:"

# -mb: MB is 1000**2 in the reports (header and numbers), else 1024**2.
cat >"$T/mb.parm" <<P
sd=sd1,lun=$T/mblun,size=4m
wd=wd1,sd=sd1,xf=64k,rdpct=100
rd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1
P
expect_rc 0 "${V[@]}" -mb -f "$T/mb.parm" -o "$T/mb"
mb_check() {	# summary.html, the header's N**2, the divisor
	grep -q "rate  $2\*\*2" "$1" && ok || bad "$1: no $2**2 header"
	# the avg line: rate, MB/sec, bytes/io
	awk -v d=$3 '$2 == "avg_2-2" { want = $3 * $5 / d; if ($4 - want > 0.006 || want - $4 > 0.006) bad = 1; n++ }
		END { exit !(n == 1 && !bad) }' "$1" && ok || bad "$1: MB/sec is not rate x bytes / $3"
}
mb_check "$T/mb/summary.html" 1000 1000000

# -c, -co, -cy, -cn override format= of every fsd rd.
cat >"$T/fs.parm" <<P
fsd=fsd1,anchor=$T/a,depth=1,width=1,files=4,size=8k
fwd=fwd1,fsd=fsd1,operation=read,fileio=random,fileselect=random,threads=1
rd=rd1,fwd=fwd1,fwdrate=50,format=no,elapsed=2,interval=1
P
expect_rc 0 "$VDBC" -s -f "$T/fs.parm" -o "$T/s0"
grep -q "RD=format_for_rd1" "$T/out" && bad "format run without -c" || ok
expect_rc 0 "$VDBC" -s -cy -f "$T/fs.parm" -o "$T/s1"
expect_out "input argument scanned: '-cy'"
expect_out "Simulating RD=format_for_rd1"
expect_out "Simulating RD=rd1;"
expect_rc 0 "$VDBC" -s -co -f "$T/fs.parm" -o "$T/s2"
expect_out "Simulating RD=format_for_rd1"
grep -q "Simulating RD=rd1;" "$T/out" && bad "-co ran the rd" || ok
sed 's/format=no/format=yes/' "$T/fs.parm" >"$T/fsy.parm"
expect_rc 0 "$VDBC" -s -cn -f "$T/fsy.parm" -o "$T/s3"
grep -q "RD=format_for_rd1" "$T/out" && bad "-cn kept the format" || ok
# For real: -cy makes the files format=no would not. -c is vdbench's
# forced cleanup (FwgRun.setDeletePending; vdbench 5.04.06 run on the
# same parmfiles): the first run that uses an anchor deletes its old tree,
# then the rds run as written: format=no reads an empty anchor, format=yes
# makes the files again and runs rd1 (vdbench: 6 of 6 files and rd1 run
# on the audit's parmfile; vdbc's old -c deleted them and ran nothing).
expect_rc 0 "${V[@]}" -cy -f "$T/fs.parm" -o "$T/r1"
[ "$(find "$T/a" -name 'vdb_f*.file' | wc -l)" = 4 ] && ok || bad "-cy made no files"
expect_rc 0 "$VDBC" -s -c -f "$T/fs.parm" -o "$T/s4"
grep -q "RD=format_for_rd1" "$T/out" && bad "-c -s planned a format run for format=no" || ok
expect_rc 0 "${V[@]}" -c -f "$T/fs.parm" -o "$T/r2"
# vdbench 5.04.06 beside it: "Deleting old file structure ..." only in
# the slave's stdout.html, the deletes on the console; vdb_control.file
# kept; then the read finds no file: its slave's message, the threads
# shut down and the run ends after interval 1 (avg_2-1), FILE_MUST_EXIST
# once per thread (vdbc: FILE_NOT_FOUND), where vdbc spun at ~400k/s.
grep -q "Deleting old file structure" "$T/out" && bad "-c: the cleanup line on the console" || ok
grep -q "Deleting old file structure because of forced cleanupOldFiles" "$T/r2/localhost-0.stdout.html" && ok || bad "-c: no cleanup line in stdout.html"
expect_out "anchor=$T/a deleted 4 files"
expect_out "Starting RD=rd1;"
[ "$(find "$T/a" -name 'vdb_f*.file' | wc -l)" = 0 ] && ok || bad "-c left the old files"
[ -s "$T/a/vdb_control.file" ] && ok || bad "-c deleted vdb_control.file"
expect_out "Message from slave localhost-0: "
expect_out "Vdbench is trying to read from a file, but no files are available, and no"
expect_out "FwgThread.canWeGetMoreFiles(): Shutting down threads for operation=read"
grep -qE "^[0-9:.]+ +avg_2-1 " "$T/out" && ok || bad "no files: the run did not end after interval 1"
awk '$2 == "FILE_NOT_FOUND" { n = $(NF - 1) } END { exit !(n + 0 >= 1 && n + 0 <= 2) }' "$T/out" && ok || bad "no files: FILE_NOT_FOUND not once per thread: $(grep FILE_NOT_FOUND "$T/out")"
expect_rc 0 "${V[@]}" -cy -f "$T/fs.parm" -o "$T/r3"
expect_rc 0 "${V[@]}" -c -f "$T/fsy.parm" -o "$T/r4"
expect_out "anchor=$T/a deleted 4 files"
expect_out "Starting RD=format_for_rd1"
expect_out "Starting RD=rd1;"
[ "$(find "$T/a" -name 'vdb_f*.file' | wc -l)" = 4 ] && ok || bad "-c with format=yes: not 4 files"

# loop=2 runs everything twice; rd startcmd=/endcmd= around each run.
cat >"$T/loop.parm" <<P
loop=2
sd=sd1,lun=$T/lun,size=4m
wd=wd1,sd=sd1,xf=4k,rdpct=50
rd=rd1,wd=wd1,iorate=50,elapsed=2,interval=1,startcmd=("echo RDSTART \$output",cons),endcmd="touch \$output/end.\$\$"
P
expect_rc 0 "${V[@]}" -f "$T/loop.parm" -o "$T/l1"
[ "$(grep -c 'Starting RD=rd1;' "$T/out")" = 2 ] && ok || bad "loop=2: not 2 runs"
[ "$(grep -cE "^[0-9:.]+ RDSTART $T/l1$" "$T/out")" = 2 ] && ok || bad "rd startcmd not before each run"
expect_out "Loop pass 2: all runs again"
expect_out "vdbc: run 2 of 2; about 0m02s of loop pass 2 left"
[ "$(ls "$T/l1" | grep -c '^end\.')" = 2 ] && ok || bad "rd endcmd not after each run"
grep -c "Starting RD=SD_format" "$T/out" | grep -qx 1 && ok || bad "SD_format repeated"
# A remote host: vdbc cannot run an rd command on its slaves, so the run
# is refused before any slave starts (192.0.2.1 is never contacted).
"$VDBC" slave --gen-token "$T/tok" >/dev/null 2>&1
{ echo "hd=h1,system=192.0.2.1,shell=vdbench"; sed '/^loop=2$/d' "$T/loop.parm"; } >"$T/rr.parm"
expect_rc 157 "${V[@]}" -f "$T/rr.parm" -o "$T/rr" --token-file "$T/tok"
expect_out "rd=rd1: 'startcmd=' runs on every slave, and vdbc runs rd commands on this host only: host=h1 is remote."
grep -q "Starting slave" "$T/out" && bad "a slave was started" || ok
sed 's/^loop=2$//' "$T/loop.parm" >"$T/l.parm"
# Without the target master, an rd command runs once per slave (-m 2:
# twice per run); with it, once.
expect_rc 0 "${V[@]}" -m 2 -f "$T/l.parm" -o "$T/l3"
[ "$(grep -cE "^[0-9:.]+ RDSTART $T/l3$" "$T/out")" = 2 ] && ok || bad "rd startcmd not once per slave"
sed 's/,cons)/,cons,master)/' "$T/l.parm" >"$T/lm.parm"
expect_rc 0 "${V[@]}" -m 2 -f "$T/lm.parm" -o "$T/l4"
[ "$(grep -cE "^[0-9:.]+ RDSTART $T/l4$" "$T/out")" = 1 ] && ok || bad "rd startcmd with master not once"
# -l 3: passes until 3 seconds have passed, checked after each pass.
expect_rc 0 "${V[@]}" -l 3 -f "$T/l.parm" -o "$T/l2"
expect_out "input argument scanned: '-l3'"
n=$(grep -c 'Starting RD=rd1;' "$T/out")
[ "$n" -ge 2 ] && [ "$n" -le 3 ] && ok || bad "-l 3: $n passes"
expect_rc 157 "$VDBC" -l 5x -f "$T/l.parm"
expect_out "Invalid value for '-l': '5x'"
sed 's/^loop=2$/loop=2x/' "$T/loop.parm" >"$T/lb.parm"
expect_rc 157 "$VDBC" -s -f "$T/lb.parm" -o "$T/lb"
expect_out "Invalid 'loop=' value: 2x"

# monitor= as vdbench's Reporter.checkMonitorFile (vdbench 5.04.06 run
# side by side on these parmfiles): the file is emptied when the runs
# start ("User requesting monitoring of this run using file '...'."), so
# an old "shutdown" in it does nothing; its first line, trimmed and in any
# case, "shutdown"/"end_rd" ends this run after the interval ("User
# requested early shutdown of this run.") and the next rd runs in full;
# "terminate"/"end_vdbench" ends this run and the execution ("User
# requested early Vdbench termination.", also in status.html, rc 0); the
# file is emptied after each.
cat >"$T/mon.parm" <<P
monitor=$T/mon
sd=sd1,lun=$T/lun,size=4m
wd=wd1,sd=sd1,xf=4k
rd=rd1,wd=wd1,iorate=50,elapsed=2,interval=1
P
echo "shutdown" >"$T/mon"
expect_rc 0 "${V[@]}" -f "$T/mon.parm" -o "$T/m1"
expect_out "User requesting monitoring of this run using file '$T/mon'."
grep -q "avg_2-2" "$T/out" && ok || bad "monitor: an old 'shutdown' ended the run"
[ -f "$T/mon" ] && [ ! -s "$T/mon" ] && ok || bad "monitor: the file was not emptied at the start"
mb_check "$T/m1/summary.html" 1024 1048576	# without -mb
cat >"$T/mon2.parm" <<P
monitor=$T/mon
sd=sd1,lun=$T/lun,size=4m
wd=wd1,sd=sd1,xf=4k
rd=rd1,wd=wd1,iorate=50,elapsed=30,interval=1
rd=rd2,wd=wd1,iorate=50,elapsed=2,interval=1
P
# monitor_say WORD: once vdbc has emptied the file, WORD into it
monitor_say() {
	echo "old" >"$T/mon"
	( for _ in $(seq 1 400); do [ -s "$T/mon" ] || break; sleep 0.1; done
	  sleep 2; printf '%s\n' "$1" >"$T/mon" ) &
	mon_pid=$!
}
monitor_say "  End_RD "
expect_rc 0 "${V[@]}" -f "$T/mon2.parm" -o "$T/m2"
wait "$mon_pid"
expect_out "User requested early shutdown of this run."
grep -qE "^[0-9:.]+ +20 " "$T/out" && bad "monitor end_rd: rd1 went on" || ok
expect_out "Starting RD=rd2;"
grep -q "avg_2-2" "$T/out" && ok || bad "monitor end_rd: rd2 did not run in full"
[ ! -s "$T/mon" ] && ok || bad "monitor: the file was not emptied after end_rd"
monitor_say "terminate"
expect_rc 0 "${V[@]}" -f "$T/mon2.parm" -o "$T/m3"
wait "$mon_pid"
expect_out "User requested early Vdbench termination."
expect_out "Vdbench execution completed successfully"
grep -q "Starting RD=rd2;" "$T/out" && bad "monitor terminate: rd2 ran" || ok
grep -q "User requested early Vdbench termination." "$T/m3/status.html" && ok || bad "status.html: no termination line"
[ ! -s "$T/mon" ] && ok || bad "monitor: the file was not emptied after terminate"

# concatenatesds=no and fsd log=no are vdbc's own behaviour: accepted;
# yes is planned and a run refuses it by name before any I/O.
{ echo "concatenatesds=no"; cat "$T/mon.parm"; } | sed '/^monitor=/d' >"$T/cc.parm"
expect_rc 0 "${V[@]}" -f "$T/cc.parm" -o "$T/cc"
grep -q "concatenatesds" "$T/out" && bad "concatenatesds=no said something" || ok
sed "s/concatenatesds=no/concatenatesds=yes/; s|lun=[^,]*|lun=$T/cclun|" "$T/cc.parm" >"$T/cy.parm"
expect_rc 0 "$VDBC" -s -f "$T/cy.parm" -o "$T/cy0"
expect_rc 157 "${V[@]}" -f "$T/cy.parm" -o "$T/cy"
expect_out "'concatenatesds=yes' ($T/cy.parm:1:1) is not supported by vdbc yet"
[ -e "$T/cclun" ] && bad "concatenatesds=yes did I/O" || ok
sed 's/^wd=wd1,sd=sd1,xf=4k$/wd=wd1,sd=sd1,xf=4k,threads=4/' "$T/cy.parm" >"$T/cyt.parm"
expect_rc 0 "$VDBC" -s -f "$T/cyt.parm" -o "$T/cyt"
sed 's/^concatenatesds=yes$/concatenatesds=yes\nformatsds=yes/' "$T/cy.parm" >"$T/cyf.parm"
expect_rc 157 "$VDBC" -s -f "$T/cyf.parm" -o "$T/cyf"
expect_out "The 'formatsds=' and 'concatenatesds' parameters are mutually exclusive."
sed 's/^wd=wd1,sd=sd1,xf=4k$/wd=wd1,sd=sd1,xf=4k,threads=4/' "$T/cc.parm" >"$T/cnt.parm"
expect_rc 157 "$VDBC" -s -f "$T/cnt.parm" -o "$T/cnt"
expect_out "may only be used together with 'concatenatesds=yes'"
sed 's/^fsd=fsd1,/fsd=fsd1,log=no,/' "$T/fs.parm" >"$T/fl.parm"
expect_rc 0 "${V[@]}" -cy -f "$T/fl.parm" -o "$T/fl"
sed 's/log=no/log=yes/' "$T/fl.parm" >"$T/fly.parm"
expect_rc 157 "${V[@]}" -f "$T/fly.parm" -o "$T/fly"
expect_out "'log=yes' ($T/fly.parm:1:"
sed 's/,interval=1$/,interval=1,distribution=variable/' "$T/mon.parm" >"$T/dv.parm"
expect_rc 157 "$VDBC" -s -f "$T/dv.parm" -o "$T/dv"
expect_out "'distribution=variable' is not built in vdbc"

# rd mount=: the options of an hd's mount= command (its remounts, for
# real in a mount namespace: 30-rd-mount.sh).
cat >"$T/rm.parm" <<P
hd=localhost,mount="mount -t tmpfs none $T/mnt"
sd=sd1,lun=$T/rmlun,size=4m
wd=wd1,sd=sd1
rd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1,mount="-o size=8m"
P
expect_rc 0 "$VDBC" -s -f "$T/rm.parm" -o "$T/rm0"
sed 's/mount="-o size=8m"/mount="mount -o size=8m"/' "$T/rm.parm" >"$T/rm2.parm"
expect_rc 157 "$VDBC" -s -f "$T/rm2.parm" -o "$T/rm2"
expect_out "may not start with 'mount'"
sed '/^hd=/d' "$T/rm.parm" >"$T/rm3.parm"
expect_rc 157 "$VDBC" -s -f "$T/rm3.parm" -o "$T/rm3"
expect_out "rd=rd1: 'mount=' requires an 'hd=...,mount="

# sd=setsofN: one run per group of N shuffled sds, for real.
cat >"$T/set.parm" <<P
sd=sd1,lun=$T/setlun1,size=1m
sd=sd2,lun=$T/setlun2,size=1m
sd=sd3,lun=$T/setlun3,size=1m
wd=wd1,sd=sd*,xf=4k
rd=rd1,wd=wd1,sd=setsof2,iorate=20,elapsed=2,interval=1
P
expect_rc 0 "${V[@]}" -f "$T/set.parm" -o "$T/set"
# vdbench 5.04.06 -s on this parmfile: rd1_sd1_sd2, then rd1_sd3 (three
# sds come out of its n*8 swaps in their own order)
expect_out "Starting RD=rd1_sd1_sd2;"
expect_out "Starting RD=rd1_sd3;"

# replay=/rg=: parsed, checked and planned as vdbench does; a real run
# stops by name before anything starts.
ex6=$VDBC_SRC/../shared/corpus/parmfiles/mfinkelstine__vdbenchScripts__example6.parm
if [ -f "$ex6" ]; then
	expect_rc 157 "$VDBC" -s -f "$ex6" -o "$T/e6"
	expect_out "storeParameters(names): replay file name does not exist: /tmp/flatfile.bin.gz"
fi
: >"$T/trace.bin"
cat >"$T/rp.parm" <<P
rg=group1,devices=(123,456,789)
sd=sd1,lun=$T/rlun1,size=4m,replay=group1
sd=sd2,lun=$T/rlun2,size=4m,replay=(22,23)
wd=wd1,sd=sd1
rd=run1,wd=wd1,elapsed=4,interval=2,replay=$T/trace.bin
P
expect_rc 0 "$VDBC" -s -f "$T/rp.parm" -o "$T/rp0"
expect_out "Simulating RD=run1;"
expect_rc 157 "${V[@]}" -f "$T/rp.parm" -o "$T/rp1"
expect_out "'replay=' ($T/rp.parm:5:"
expect_out "'rg=' ($T/rp.parm:1:"
[ -e "$T/rlun1" ] && bad "a replay run did I/O" || ok
sed 's/replay=group1/replay=group9/' "$T/rp.parm" >"$T/rp2.parm"
expect_rc 157 "$VDBC" -s -f "$T/rp2.parm" -o "$T/rp2"
expect_out "sd=sd1,replay=group9: no replay group rg=group9 is defined"
sed 's/devices=(123,456,789)/devices=(abc,def)/' "$T/rp.parm" >"$T/rp3.parm"
expect_rc 157 "$VDBC" -s -f "$T/rp3.parm" -o "$T/rp3"
expect_out "rg=group1: 'devices=' takes the trace's device numbers, not 'abc'"
# vdbench's stop file (Reporter.checkMonitorFile): /tmp/vdbench.shutdown.<pid>
# touched during a run ends vdbench after that interval, no later rd run,
# the file removed.
printf 'sd=sd1,lun=%s/sflun,size=1m\nwd=wd1,sd=sd1,xfersize=4k\nrd=rd1,wd=wd1,iorate=50,elapsed=30,interval=1\nrd=rd2,wd=wd1,iorate=50,elapsed=30,interval=1\n' "$T" >"$T/sf.parm"
"${V[@]}" -f "$T/sf.parm" -o "$T/sf" >"$T/sf.out" 2>&1 &
sfp=$!
wait_for "$T/sf.out" "Starting RD=rd1" 30
touch "/tmp/vdbench.shutdown.$sfp"
wait "$sfp"
grep -q "User requested early Vdbench termination using file '/tmp/vdbench.shutdown.$sfp'." "$T/sf.out" && ok || { bad "the stop file was not honoured"; tail -5 "$T/sf.out"; }
grep -q "Starting RD=rd2" "$T/sf.out" && bad "rd2 ran after the stop file" || ok
[ -e "/tmp/vdbench.shutdown.$sfp" ] && { bad "the stop file was left"; rm -f "/tmp/vdbench.shutdown.$sfp"; } || ok

finish
