#!/bin/bash
# Data validation finds every corruption of a block it knows, with
# vdbench's report (reference/vdbench-5.04.06/validation/ v2a-v2d): a -v
# run writes a file lun twice, and while an rd on another lun runs, the
# test overwrites known blocks (random bytes, zeros, one byte, the block
# of another lba, a stale older copy of the same block = a lost write);
# the next rd's reads report each one and the run ends with 157.
# data_errors=2 stops after the second.
. "$(dirname "$0")/lib.sh"

# corrupt MODE LUN BLOCK [FROM]: overwrite 4k block BLOCK of LUN.
corrupt() {
	case $1 in
	random) dd if=/dev/urandom of="$2" bs=4096 seek="$3" count=1 conv=notrunc status=none ;;
	zero) dd if=/dev/zero of="$2" bs=4096 seek="$3" count=1 conv=notrunc status=none ;;
	byte) # byte 0x100 of sector 2, XOR 0xff (v2c)
		local off=$(($3 * 4096 + 1280)) old
		old=$(od -A n -t x1 -j $off -N 1 "$2" | tr -d ' ')
		printf "\\x$(printf '%02x' $((0x$old ^ 0xff)))" |
			dd of="$2" bs=1 seek=$off count=1 conv=notrunc status=none ;;
	copy) dd if="$4" of="$2" bs=4096 seek="$3" count=1 conv=notrunc status=none ;;
	esac
}

# parm FILE DATA_ERRORS RD3_THREADS [RD3_WD]
parm() {
	# messagescan=no: other tests' kernel messages stay off the console
	cat >"$1" <<P
messagescan=no
data_errors=$2
sd=sd1,lun=$LUN,size=16m,threads=2${LUNFLAGS:-}
sd=sd2,lun=$T/pause,size=16m,threads=1
wd=wd1,sd=sd1,xfersize=4k,rdpct=0,seekpct=eof
wd=wd2,sd=sd1,xfersize=4k,rdpct=100,seekpct=random
wd=wd3,sd=sd1,xfersize=4k,rdpct=0,seekpct=random
wd=wdp,sd=sd2,xfersize=4k,rdpct=0,seekpct=random
rd=rd1,wd=wd1,iorate=max,elapsed=30,interval=1,threads=2
rd=p1,wd=wdp,iorate=max,elapsed=2,interval=1,threads=1
rd=rd2,wd=wd1,iorate=max,elapsed=30,interval=1,threads=2
rd=p2,wd=wdp,iorate=max,elapsed=4,interval=1,threads=1
rd=rd3,wd=${4:-wd2},iorate=max,elapsed=3,interval=1,threads=$3
P
}

# run PARM OUT N: the run in the background; during p1 keep a copy of
# block 1023 (key 1), during p2 corrupt N blocks (of 5); the console in
# $T/out, the exit code in $T/rc.
run() {
	local pid
	rm -f "$T/pause"
	[ "$LUN" = "$T/lun" ] && rm -f "$T/lun"	# a file lun, never a device
	: >"$T/out"	# now: wait_for must not see the last run's lines
	timeout 60 "$VDBC" -f "$1" -o "$2" -v --port 0 --seed 3 >"$T/out" 2>&1 &
	pid=$!
	PIDS="$PIDS $pid"
	if wait_for "$T/out" "Starting RD=p1;" 30; then
		dd if="$LUN" of="$T/stale" bs=4096 skip=1023 count=1 status=none
		dd if="$LUN" of="$T/b10" bs=4096 skip=10 count=1 status=none
	else bad "rd p1 never started"; fi
	if wait_for "$T/out" "Starting RD=p2;" 30; then
		corrupt random "$LUN" 100
		corrupt zero "$LUN" 200
		corrupt byte "$LUN" 300
		corrupt copy "$LUN" 400 "$T/b10"
		corrupt copy "$LUN" 1023 "$T/stale"
		# rd3 reads sd1: the blocks must be whole before it starts
		grep -q "Starting RD=rd3;" "$T/out" &&
			bad "the corruption ended after rd3 began (machine too slow)"
	else bad "rd p2 never started"; fi
	wait $pid
	echo $? >"$T/rc"
}

# section LBA_HEX: the report of the data block at LBA_HEX, up to its
# "op: read" line.
section() {
	sed -n "/Corrupted data block for sd=sd1,lun=.*(0x$1) xfersize=4096/,/ op: read /p" "$T/out"
}
has() { # LBA_HEX TEXT
	if section "$1" | grep -qF -- "$2"; then ok; else bad "block 0x$1: lacks '$2'"; section "$1" | head -40; fi
}

LUN=$T/lun
parm "$T/a.parm" 50 2
run "$T/a.parm" "$T/o1"
[ "$(cat "$T/rc")" = 157 ] && ok || { bad "exit $(cat "$T/rc"), wanted 157"; cat "$T/out"; }
# each report line after the slave's time of day, as vdbench's
grep -qE "^[0-9:.]{12} localhost-0: [0-9:.]{12} Time of first corruption: " "$T/out" && ok || bad "no banner"
[ "$(grep -c 'Time of first corruption' "$T/out")" = 1 ] && ok || bad "the banner twice"
[ "$(grep -c 'Corrupted data block for' "$T/out")" = 5 ] && ok || bad "not 5 corrupted data blocks"
# the master's end of the rd, in vdbench's order (v2a): its count
# between '*' lines, the slave's totals, then its last words
sed 's/^[0-9:.]\{12\} \{0,1\}//' "$T/out" | sed -n '/^Total Data Validation/,$p' |
	sed 's/^\(localhost-0: \)[0-9:.]\{12\} \(Total amount of key blocks read and validated: \).*\(; key blocks\)/\1\2N\3/' >"$T/end.got"
cat >"$T/end.want" <<'W'
Total Data Validation or I/O error count: 5
*
localhost-0: Total amount of key blocks read and validated: N; key blocks marked in error:    5 

Vdbench terminating due to Data Validation or I/O errors. See errorlog.html.

W
diff "$T/end.want" "$T/end.got" >"$T/end.diff" && ok || { bad "the end of the rd differs from vdbench's"; cat "$T/end.diff"; }
grep -B1 "Total Data Validation or I/O error count: 5" "$T/out" | head -1 | grep -qE '^[0-9:.]{12} \*$' && ok || bad "no '*' before the error count"
# errorlog.html: the same but the last words; the slave's lines named
# (sd2 is validated on the second slave: its lines may come in any order)
sed -e 's/<[^>]*>//g' "$T/o1/errorlog.html" | sed 's/^[0-9:.]\{12\} //' | grep -v '^localhost-[0-9]*: ' | tail -3 >"$T/el.got"
printf '%s\n' "*" "Total Data Validation or I/O error count: 5" "*" >"$T/el.want"
grep -q "localhost-1: Created new DV map: sd2 size: 16,777,216 bytes; key block size: 4096; entries: 4,096" "$T/o1/errorlog.html" &&
	ok || bad "sd2's map is not on the second slave"
diff "$T/el.want" "$T/el.got" >"$T/el.diff" && ok || { bad "errorlog.html's master lines differ"; cat "$T/el.diff"; }
grep -qE "^[0-9:.]{12} localhost-0: [0-9:.]{12} Total amount of key blocks read and validated: +[0-9,]+; key blocks marked in error:    5 $" "$T/o1/errorlog.html" &&
	ok || bad "errorlog.html lacks the slave's totals"
grep -q "Vdbench terminating" "$T/o1/errorlog.html" && bad "errorlog.html has the last words (vdbench's has not)" || ok
# random bytes (v2a)
has 00064000 "lba: 409,600 (0x00064000) xfersize=4096"
has 00064000 "All 8 sectors in this key block are corrupted."
has 00064000 "===> Data Validation Key miscompare. Expecting key=0x02 received key="
has 00064000 "Key block first found to be corrupted during a workload requested read."
# zeros (v2b)
has 000c8000 "All corruptions are of the same type: "
has 000c8000 "   ===> Data Validation Key miscompare. Expecting key=0x02 received key=0x00 (2/0)"
has 000c8000 "   ===> Logical byte address miscompare. Expecting 0x000c8000, receiving 0x00000000"
has 000c8000 "receiving 'garbage1' (0x0000000000000000)"
has 000c8000 "Only the FIRST sector will be reported:"
# one byte (v2c)
has 0012c000 "   1 of 8 sectors are corrupted."
has 0012c000 "   All 1 corrupted sectors will be reported."
has 0012c000 "relative sector in data block: 0x02 ( 2)"
has 0012c000 "        ===> Compression pattern miscompare."
section 0012c000 | grep -qE "localhost-0: [0-9:.]{12} 0x100\*  [0-9a-f]{8} .*   [0-9a-f]{8} .* $" && ok || bad "no 0x100* hex line"
# the block of another lba
has 00190000 "   ===> Logical byte address miscompare. Expecting 0x00190000, receiving 0x0000a000"
has 00190000 "   ===> Compression pattern miscompare."
# a lost write: the older copy of the same block
has 003ff000 "   ===> Data Validation Key miscompare. Expecting key=0x02 received key=0x01 (2/1)"
section 003ff000 | grep -q "Logical byte address\|Compression pattern" && bad "stale copy: more than the key" || ok
has 003ff000 "Sector last written."
# each block's error line, and errorlog.html holds the report
[ "$(grep -c "op: read   lun: $LUN .* errno: 60003: '60003            A Data Validation error was discovered' " "$T/out")" = 5 ] && ok || bad "not 5 op: read lines"
[ "$(grep -c 'Corrupted data block for' "$T/o1/errorlog.html")" = 5 ] && ok || bad "errorlog.html lacks the reports"

# data_errors=2 stops at the second corrupted block (v2d).
parm "$T/b.parm" 2 1
run "$T/b.parm" "$T/o2"
[ "$(cat "$T/rc")" = 157 ] && ok || bad "data_errors=2: exit $(cat "$T/rc")"
[ "$(grep -c 'Corrupted data block for' "$T/out")" = 2 ] && ok || bad "data_errors=2: not 2 reports"
# vdbench's stop (v2d): the line framed by empty ones, no totals, not
# in errorlog.html
grep -A1 -B1 "'data_errors=2' requested. Abort rd=rd3 after last error.\$" "$T/out" | sed 's/^[0-9:.]\{12\} \{0,1\}//' >"$T/de.got"
printf '\n%s\n\n' "'data_errors=2' requested. Abort rd=rd3 after last error." >"$T/de.want"
diff "$T/de.want" "$T/de.got" >/dev/null && ok || { bad "no data_errors=2 abort as vdbench's"; tail -5 "$T/out"; }
grep -q "Total Data Validation or I/O error count\|key blocks marked in error:    2" "$T/out" && bad "data_errors=2: totals after the stop" || ok
grep -q "data_errors=2" "$T/o2/errorlog.html" && bad "data_errors=2: the stop is in errorlog.html" || ok

# A write finds the corruption in its pre-read (writes only, one thread,
# data_errors=1: the first corrupted block stops the run).
parm "$T/w.parm" 1 1 wd3
run "$T/w.parm" "$T/o4"
[ "$(cat "$T/rc")" = 157 ] && ok || bad "pre-read: exit $(cat "$T/rc")"
[ "$(grep -c 'Corrupted data block for' "$T/out")" = 1 ] && ok || bad "pre-read: not 1 report"
grep -qF "Key block first found to be corrupted during a read-before-write." "$T/out" && ok || bad "pre-read: not found by the read-before-write"
grep -qF "'data_errors=1' requested. Abort rd=rd3 after last error." "$T/out" && ok || bad "pre-read: no data_errors=1 abort"

# The same on a loop device (root only): the corruptions written to the
# device are found as on a file.
LOOP=""
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null && [ -e /dev/loop-control ]; then
	truncate -s 16M "$T/disk.img"
	LOOP=$(timeout 20 losetup -f --show "$T/disk.img" 2>/dev/null) || LOOP=""
fi
if [ -n "$LOOP" ]; then
	trap 'losetup -d "$LOOP" 2>/dev/null; cleanup' EXIT
	LUN=$LOOP
	LUNFLAGS=",openflags=o_direct"	# vdbench's rule for /dev/ luns
	parm "$T/c.parm" 50 2
	run "$T/c.parm" "$T/o3"
	[ "$(cat "$T/rc")" = 157 ] && ok || { bad "loop: exit $(cat "$T/rc")"; tail -20 "$T/out"; }
	[ "$(grep -c 'Corrupted data block for' "$T/out")" = 5 ] && ok || bad "loop: not 5 corrupted data blocks"
	has 0012c000 "   1 of 8 sectors are corrupted."
	has 003ff000 "   ===> Data Validation Key miscompare. Expecting key=0x02 received key=0x01 (2/1)"
	has 00190000 "   ===> Logical byte address miscompare. Expecting 0x00190000, receiving 0x0000a000"
	losetup -d "$LOOP"
	trap cleanup EXIT
else
	echo "skip (loop device part): needs root, losetup and /dev/loop-control"
fi

finish
