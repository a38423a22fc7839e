#!/bin/bash
# The data validation journal (-j, -jr, journal=, sd journal=<dir>) on a
# file lun, the forms of reference/vdbench-5.04.06/validation/ v8d
# (journal=yes), v4 (a clean -j run, two blocks corrupted, -jr reports
# them with the 128k reads of the journal_recovery rd) and v3 (kill -9
# under -j, then -jr): VDBC_JNL_KILLS kill points (default 2) at random
# times, of the slave and of the master, each followed by a -jr whose
# recovery must validate every known block with no corruption.
. "$(dirname "$0")/lib.sh"

# The journal files go to a tmpfs when there is one: journal writes are
# synchronous (O_SYNC), which on a disk costs milliseconds each; without
# one the -j runs go without O_SYNC (-jn: what a kill -9 tests is the
# process, not the host, and the page cache survives it).
J=$T/jnl
N=n
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	J=$(mktemp -d /dev/shm/vdbc-e2e-jnl.XXXXXX)
	trap 'cleanup; rm -rf "$J"' EXIT
	N=
fi

# known_in_map FILE: the key blocks with a key in a .map file.
known_in_map() {
	python3 - "$1" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
w = struct.unpack_from('<8I', b, 0)
assert w[0] == 0x4d41502e and w[1] == w[0], 'map header incomplete'
nkb = (w[2] << 32) | w[3]
n = 0
for r in range((nkb + 511) // 480):
	for i in range(120):
		v = struct.unpack_from('<I', b, 512 + r * 512 + 32 + 4 * i)[0]
		for j in range(4):
			blk = r * 480 + i * 4 + j
			if blk < nkb and (v >> (24 - 8 * j)) & 0xff:
				n += 1
print(n)
PY
}
# validated N-th: the "read and validated" count of the Nth totals line.
validated() { grep "Total amount of key blocks read and validated" "$T/out" | sed -n "${1}p" | sed 's/.*validated: *\([0-9,]*\);.*/\1/' | tr -d ,; }

# v8d: journal=yes in the parmfile, sd journal=<dir>.
cat >"$T/v8d.parm" <<P
journal=yes
sd=sd1,lun=$T/lun8,size=32m,threads=2,journal=$J/v8
wd=wd1,sd=sd1,xfersize=4k,rdpct=50,seekpct=random
rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1,threads=2
P
expect_rc 0 "$VDBC" -f "$T/v8d.parm" -o "$T/o1" --port 0 --seed 5
[ -s "$J/v8/sd1.jnl" ] && [ -s "$J/v8/sd1.map" ] && ok || bad "v8d: no sd1.jnl/sd1.map in $J/v8"
grep -q "Writing Data Validation map to $J/v8/sd1.jnl" "$T/o1/errorlog.html" && ok || bad "v8d: errorlog lacks the map dump"
[ "$(stat -c %s "$J/v8/sd1.map")" = 10240 ] && ok || bad "v8d: sd1.map is not vdbench's 10240 bytes"
grep -q "Writing Data Validation map" "$T/out" && bad "v8d: the map dump lines are on the console" || ok

# v4: a clean -j run, then -jr finds nothing ...
cat >"$T/v4.parm" <<P
sd=sd1,lun=$T/lun4,size=32m,threads=2,journal=$J/v4
wd=wd1,sd=sd1,xfersize=4k,rdpct=0,seekpct=eof
wd=wd2,sd=sd1,xfersize=4k,rdpct=0,seekpct=random
rd=rd1,wd=wd1,iorate=max,elapsed=30,interval=1,threads=2
rd=rd2,wd=wd2,iorate=max,elapsed=2,interval=1,threads=2
P
cat >"$T/v4r.parm" <<P
sd=sd1,lun=$T/lun4,size=32m,threads=2,journal=$J/v4
wd=wd1,sd=sd1,xfersize=4k,rdpct=100,seekpct=random
rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1,threads=2
P
expect_rc 0 "$VDBC" -f "$T/v4.parm" -o "$T/o2" -j$N --port 0 --seed 4
expect_rc 0 "$VDBC" -f "$T/v4r.parm" -o "$T/o3" -jr$N --port 0 --seed 4
expect_out "Starting RD=journal_recovery; I/O rate: Uncontrolled MAX; elapsed=(none); For loops: None"
expect_out "Total amount of key blocks read and validated:    8,192; key blocks marked in error:    0 "
grep -q "Map contains            8,192 known blocks." "$T/o3/errorlog.html" && ok || bad "v4: map not restored with 8,192 blocks"
grep -q "Completed apply of journal records (before/after): 0/0" "$T/o3/errorlog.html" && ok || bad "v4: a clean journal applied records"
[ -s "$T/o3/journal_recovery_sd1.html" ] && ok || bad "v4: no journal_recovery_sd1.html"
# ... then 4k of random bytes at block 100 and one byte in block 300
dd if=/dev/urandom of="$T/lun4" bs=4096 seek=100 count=1 conv=notrunc 2>/dev/null
printf '\x71' | dd of="$T/lun4" bs=1 seek=1230080 conv=notrunc 2>/dev/null
expect_rc 157 "$VDBC" -f "$T/v4r.parm" -o "$T/o4" -jr$N --port 0 --seed 4
expect_out "Corrupted data block for sd=sd1,lun=$T/lun4; lba: 393,216 (0x00060000) xfersize=131072"
expect_out "Corrupted data block for sd=sd1,lun=$T/lun4; lba: 1,179,648 (0x00120000) xfersize=131072"
expect_out "Data block has 32 key block(s) of 4096 bytes each."
expect_out "Key block lba: 0x00064000"
expect_out "Key block lba: 0x0012c000"
expect_out "   1 of 8 sectors are corrupted."
expect_out "Total amount of key blocks read and validated:    8,128; key blocks marked in error:   64 "
grep -q "Starting RD=rd1" "$T/out" && bad "v4: rd1 ran after the corruption" || ok

# Two slaves (-m 2), two sds: each sd driven by one slave, sd1 by
# localhost-0 and sd2 by localhost-1, under -v, -j and -jr alike: both
# slaves validate, both journals are written and each slave recovers its
# sd's before it drives it again.
m2() {
	cat >"$T/m2.parm" <<P
sd=sd1,lun=$T/lunm1,size=32m,threads=2$1
sd=sd2,lun=$T/lunm2,size=32m,threads=2$2
wd=wd1,sd=sd*,xfersize=4k,rdpct=50,seekpct=random
rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1
P
}
# slave_validated SLAVE: the "read and validated" count of its first totals line.
slave_validated() { grep "$1: .*Total amount of key blocks read and validated" "$T/out" | head -1 | sed 's/.*validated: *\([0-9,]*\);.*/\1/' | tr -d ,; }
m2 "" ""
expect_rc 0 "$VDBC" -f "$T/m2.parm" -o "$T/m2v" -v -m 2 --port 0 --seed 6
for s in localhost-0 localhost-1; do
	v=$(slave_validated $s)
	[ -n "$v" ] && [ "$v" -gt 0 ] && ok || bad "-m 2 -v: $s validated '$v' key blocks"
done
m2 ",journal=$J/m2" ",journal=$J/m2"
expect_rc 0 "$VDBC" -f "$T/m2.parm" -o "$T/m2j" -j$N -m 2 --port 0 --seed 6
for s in localhost-0 localhost-1; do
	v=$(slave_validated $s)
	[ -n "$v" ] && [ "$v" -gt 0 ] && ok || bad "-m 2 -j: $s validated '$v' key blocks"
done
k1=$(known_in_map "$J/m2/sd1.map")
k2=$(known_in_map "$J/m2/sd2.map")
[ "$k1" -gt 0 ] && [ "$k2" -gt 0 ] && ok || bad "-m 2 -j: maps know $k1 and $k2 blocks"
expect_rc 0 "$VDBC" -f "$T/m2.parm" -o "$T/m2r" -jr$N -m 2 --port 0 --seed 6
grep -q "localhost-0: [0-9:.]* Completed journal recovery for sd1\. Starting data validation\." "$T/out" && ok || bad "-m 2 -jr: localhost-0 did not recover sd1"
grep -q "localhost-1: [0-9:.]* Completed journal recovery for sd2\. Starting data validation\." "$T/out" && ok || bad "-m 2 -jr: localhost-1 did not recover sd2"
[ "$(slave_validated localhost-0)" = "$k1" ] && [ "$(slave_validated localhost-1)" = "$k2" ] && ok || bad "-m 2 -jr: recovery validated $(slave_validated localhost-0)/$(slave_validated localhost-1) of $k1/$k2 known blocks"
grep -q "Corrupted data block" "$T/out" && bad "-m 2 -jr: false corruption" || ok

# v3: kill -9 points under -j random writes, each followed by -jr.
cat >"$T/v3.parm" <<P
sd=sd1,lun=$T/lun3,size=32m,threads=2,journal=$J/v3
wd=wd1,sd=sd1,xfersize=4k,rdpct=0,seekpct=random
rd=rd1,wd=wd1,iorate=max,elapsed=30,interval=1,threads=2
P
cat >"$T/v3r.parm" <<P
sd=sd1,lun=$T/lun3,size=32m,threads=2,journal=$J/v3
wd=wd1,sd=sd1,xfersize=4k,rdpct=100,seekpct=random
rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1,threads=2
P
RANDOM=16
KILLS=${VDBC_JNL_KILLS:-2}
pending=0
for ((k = 1; k <= KILLS; k++)); do
	flag=-jr$N
	[ "$k" = 1 ] && flag=-j$N
	timeout 60 "$VDBC" -f "$T/v3.parm" -o "$T/k$k" $flag --port 0 --seed "$k" >"$T/out" 2>&1 &
	tpid=$!
	PIDS="$PIDS $tpid"
	if ! wait_for "$T/out" "Starting RD=rd1" 20; then
		bad "kill $k: rd1 did not start"; cat "$T/out"; break
	fi
	# the recovery of the previous kill: nothing bad, and every block
	# its map knew validated (the .map holds the map rd1 starts with,
	# the recovered one)
	if [ "$k" -gt 1 ]; then
		known=$(known_in_map "$J/v3/sd1.map")
		v=$(validated 1)
		[ -n "$v" ] && [ "$v" = "$known" ] && [ "$known" -gt 0 ] && ok || bad "kill $k: recovery validated '$v' of $known known blocks"
		grep -q "Corrupted data block" "$T/out" && bad "kill $k: false corruption" || ok
		grep -q "key blocks marked in error:    0 " "$T/out" && ok || bad "kill $k: blocks in error"
		p=$(sed -n 's/.*sd=sd1 \([0-9]*\) pending writes found.*/\1/p' "$T/k$k/errorlog.html")
		pending=$((pending + ${p:-0}))
	fi
	sleep "$((RANDOM % 15 / 10)).$((RANDOM % 10))"
	mpid=$(pgrep -P "$tpid" | head -1)
	spid=$(slave_pids "$T/out")
	for ((i = 0; i < 50; i++)); do
		[ -n "$spid" ] && break
		sleep 0.1
		spid=$(slave_pids "$T/out")
	done
	if [ $((k % 2)) = 1 ]; then victim=slave; pid=$spid; else victim=master; pid=$mpid; fi
	if [ -n "$pid" ]; then kill -9 $pid; else bad "kill $k: no $victim pid"; fi
	wait "$tpid"
	rc=$?
	[ "$rc" != 0 ] && ok || bad "kill $k ($victim): exit 0"
	if [ "$victim" = slave ]; then
		grep -q "Receiving unexpected EOFException from slave: localhost-0" "$T/out" && ok || { bad "kill $k: not vdbench's EOF words"; grep -i "lost\|slave" "$T/out" | tail -5; }
		[ "$rc" = 157 ] && ok || bad "kill $k: exit $rc, wanted 157"
	fi
	# the master's slave follows it (--parent-death)
	for ((i = 0; i < 50; i++)); do kill -0 $spid 2>/dev/null || break; sleep 0.1; done
	# never two runs on one lun: a slave still there is ours to end
	[ -n "$spid" ] && kill -0 $spid 2>/dev/null && kill -9 $spid
	[ -s "$J/v3/sd1.jnl" ] && ok || bad "kill $k: the journal is gone"
done
# Damage inside the records (attacker review, 2026-12-06): a zeroed
# record, or one whose count was cut, ended the walk there, and every
# write journaled after it was blamed on the lun. The writer only
# appends and never writes zeros: both are damage. The journal of the
# last kill holds this dump's records (word 3 of each: the low word of
# the header's tod, its word 6).
live_records() {
	local tod first
	tod=$(od -An -tu4 -j24 -N4 "$J/v3/sd1.jnl" 2>/dev/null | tr -d ' ')
	first=$(( (1 + ($(od -An -tu4 -j12 -N4 "$J/v3/sd1.jnl" 2>/dev/null) + 0 + 511) / 480) * 512 ))
	od -An -tu4 -v -w512 -j "$first" "$J/v3/sd1.jnl" 2>/dev/null |
		awk -v t="${tod:-x}" -v eye=$((0x4a4e4c2e)) '$1 == eye && $4 == t { n++ } END { print n + 0 }'
}
# a journal with records of its dump: -jr writes, killed once 4 are in
timeout 60 "$VDBC" -f "$T/v3.parm" -o "$T/kl" -jr$N --port 0 --seed 7 >"$T/out" 2>&1 &
tpid=$!
PIDS="$PIDS $tpid"
live=0
for ((i = 0; i < 150 && live < 4; i++)); do
	sleep 0.1
	live=$(live_records)
done
# the slave first: one that loses its master ends cleanly, and its last
# map dump leaves no record of a live dump
spid=""
for ((i = 0; i < 50; i++)); do spid=$(slave_pids "$T/out"); [ -n "$spid" ] && break; sleep 0.1; done
mpid=$(pgrep -P "$tpid" | head -1)
[ -n "$spid" ] && kill -9 $spid
[ -n "$mpid" ] && kill -9 $mpid
wait "$tpid"
live=$(live_records)
first=$(( (1 + ($(od -An -tu4 -j12 -N4 "$J/v3/sd1.jnl") + 511) / 480) * 512 ))
cp "$J/v3/sd1.jnl" "$T/live.jnl"
cp "$J/v3/sd1.map" "$T/live.map"
jnl_inside() {	# label, want offset, words
	expect_rc 157 "$VDBC" -f "$T/v3r.parm" -o "$T/kd" -jro$N --port 0 --seed 9
	expect_out "$3"
	grep -q "sd1.jnl: offset $2: .*the journal is damaged, not the lun" "$T/out" && ok || { bad "$1: file and offset not named"; cat "$T/out"; }
	grep -q "Corrupted data block" "$T/out" && bad "$1: blamed on the lun" || ok
	cp "$T/live.jnl" "$J/v3/sd1.jnl"
	cp "$T/live.map" "$J/v3/sd1.map"
}
if [ "$live" -ge 3 ]; then
	dd if=/dev/zero of="$J/v3/sd1.jnl" bs=512 seek=$((first / 512 + 1)) count=1 conv=notrunc 2>/dev/null
	jnl_inside "a zeroed record" "$(printf 0x%08x $((first + 512)))" "all zeros where this dump's records go on"
	printf '\005\000\000\000' | dd of="$J/v3/sd1.jnl" bs=1 seek=$((first + 4)) conv=notrunc 2>/dev/null
	jnl_inside "a record's count cut" "$(printf 0x%08x "$first")" "the records end there, but the one at offset"
else
	bad "the killed -j run left $live records of its dump (4 wanted)"
fi
expect_rc 0 "$VDBC" -f "$T/v3r.parm" -o "$T/k0" -jr$N --port 0 --seed 9
v=$(validated 1)
known=$(known_in_map "$J/v3/sd1.map")
[ -n "$v" ] && [ "$v" = "$known" ] && [ "$known" -gt 0 ] && ok || bad "last recovery validated '$v' of $known known blocks"
expect_out "key blocks marked in error:    0 "
grep -q "Corrupted data block" "$T/out" && bad "last recovery: false corruption" || ok
# -jo: recover, validate, and stop before the user's rds
expect_rc 0 "$VDBC" -f "$T/v3r.parm" -o "$T/ko" -jro$N --port 0 --seed 9
expect_out "'journal=(recover,only)' requested. Terminating execution."
grep -q "Starting RD=rd1" "$T/out" && bad "-jro ran rd1" || ok
# A damaged journal is named as damaged, with the file, the offset and
# what was expected there, in vdbench's words (its -jr stops rc 157 at
# the same offsets: 0 for an emptied .jnl, 0xe00 for one cut in its
# map, the first journal record for one cut after its map), and never
# blamed on the lun. Before, an emptied or zeroed header fell back to
# the .map and the journal's entries were lost: every block written
# after the dump was reported corrupted.
cp "$J/v3/sd1.jnl" "$T/sd1.jnl.good"
jnl_damaged() {	# label, want offset, vdbench's words
	expect_rc 157 "$VDBC" -f "$T/v3r.parm" -o "$T/kd" -jro$N --port 0 --seed 9
	expect_out "$3"
	grep -q "sd1.jnl: offset $2: .*the journal is damaged, not the lun" "$T/out" && ok || { bad "$1: file and offset not named"; cat "$T/out"; }
	grep -q "Corrupted data block" "$T/out" && bad "$1: blamed on the lun" || ok
	cp "$T/sd1.jnl.good" "$J/v3/sd1.jnl"
}
dd if=/dev/zero of="$J/v3/sd1.jnl" bs=512 count=1 conv=notrunc 2>/dev/null
jnl_damaged "zeroed header" 0x00000000 "Invalid contents on journal or map file: 00000000"
: > "$J/v3/sd1.jnl"
jnl_damaged "emptied" 0x00000000 "Error while restoring the journal map. Journal likely is corrupted. Journal read failed: INCORRECT_SIZE"
truncate -s 4000 "$J/v3/sd1.jnl"
jnl_damaged "cut in the map" 0x00000e00 "Journal read failed: INCORRECT_SIZE"
first=$(( (1 + ($(od -An -tu4 -j12 -N4 "$J/v3/sd1.jnl") + 511) / 480) * 512 ))
truncate -s $first "$J/v3/sd1.jnl"
jnl_damaged "cut after the map" "$(printf 0x%08x $first)" "Error while reading journal records."
# -jr on a raw device (a loop device over a file of ours): the
# journal_recovery rd validates every key block the map knows. Before,
# its reads started after the largest xfersize (128k) as a raw lun's
# runs do, so the 31 known 4k blocks below 128k were never read (4,095
# known, 4,064 validated; vdbench validates them all).
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null && [ -e /dev/loop-control ]; then
	truncate -s 16m "$T/loopf"
	if LOOP=$(timeout 20 losetup -f --show "$T/loopf" 2>/dev/null); then
		mkdir -p "$J/raw"
		printf 'messagescan=no\nsd=sd1,lun=%s,openflags=o_direct,threads=2,journal=%s/raw\nwd=wd1,sd=sd1,xfersize=4k,rdpct=0,seekpct=eof\nrd=rd1,wd=wd1,iorate=max,elapsed=60,interval=1\n' "$LOOP" "$J" >"$T/raw.parm"
		expect_rc 0 "$VDBC" -f "$T/raw.parm" -o "$T/raw1" -jn --port 0 --seed 5
		expect_rc 0 "$VDBC" -f "$T/raw.parm" -o "$T/raw2" -jro --port 0 --seed 5
		losetup -d "$LOOP"
		grep -q "Map contains            4,095 known blocks." "$T/raw2/errorlog.html" && ok ||
			bad "raw -jr: the map does not hold the 4,095 blocks written"
		expect_out "Total amount of key blocks read and validated:    4,095; key blocks marked in error:    0 "
	else
		echo "note: no free loop device: the raw -jr case is skipped"
	fi
else
	echo "note: no root or losetup: the raw -jr case is skipped"
fi

echo "kill points: $KILLS, pending writes resolved: $pending"
finish
