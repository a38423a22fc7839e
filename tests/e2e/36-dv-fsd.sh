#!/bin/bash
# Data validation on a file system (-v on fsd/fwd), the forms of
# reference/vdbench-5.04.06/validation/ v5 and v5b: one map per fsd over
# its files back to back (file N at FSD lba (N-1)*size), the format
# writing key 1 everywhere, pre-reads in the read percentage, vdbench's
# bytes in the files (its own jrandom_check.py model, with the file's
# FSD start), and a block of a file corrupted between rds reported in
# the FSD form, with exit 157.
. "$(dirname "$0")/lib.sh"

A=$T/fsd
mkdir -p "$A"

# v5: format=yes, then random writes and reads (two fwds) at a set rate:
# each fwd gets its share, so the writes' pre-reads make 2/3 reads.
cat >"$T/v5.parm" <<P
fsd=fsd1,anchor=$A/v5,depth=1,width=2,files=4,size=1m
fwd=fwdw,fsd=fsd1,operation=write,xfersize=4k,fileio=random,fileselect=random,threads=1
fwd=fwdr,fsd=fsd1,operation=read,xfersize=4k,fileio=random,fileselect=random,threads=1
rd=rd1,fwd=(fwdw,fwdr),fwdrate=2000,format=yes,elapsed=2,interval=1
P
# notod: each data validation line carries the slave's time of day
# after "localhost-0: " as vdbench's do (checked); then dropped from
# $T/out, so the checks below read the text.
notod() {
	grep -qE "^[0-9:.]{12} localhost-0: [0-9:]{8}\.[0-9]{3} $1" "$T/out" && ok || bad "$2: no time of day before '$1'"
	sed -i -E 's/^([0-9:.]{12} localhost-0: )[0-9:]{8}\.[0-9]{3} /\1/' "$T/out"
}
expect_rc 0 "$VDBC" -f "$T/v5.parm" -o "$T/o1" -v --port 0 --seed 1
notod "Total amount of key blocks" v5
# vdbench's map lines: errorlog.html and the slave's log, not the console
grep -qF "localhost-0: Allocating Data Validation map: 2,048 one-byte entries for each 4,096-byte block." "$T/o1/errorlog.html" && ok || bad "v5: no map line in errorlog.html"
grep -qF "localhost-0: Created new DV map: fsd1 size: 8,388,608 bytes; key block size: 4096; entries: 2,048" "$T/o1/errorlog.html" && ok || bad "v5: no 'Created new DV map' line in errorlog.html"
grep -q "Allocating Data Validation map" "$T/out" && bad "v5: the map line is on the console" || ok
expect_out "localhost-0: Total amount of key blocks read and validated:        0; key blocks marked in error:    0 "
grep 'Total amount of key blocks' "$T/out" | tail -1 | grep -qE 'validated: +[1-9][0-9,]*; key blocks marked in error:    0 $' && ok || bad "v5: rd1 validated nothing"
[ "$(grep -c 'Total amount of key blocks read and validated' "$T/o1/errorlog.html")" = 2 ] && ok || bad "v5: errorlog.html lacks the totals"
# the format erased the map and wrote every key block once, with key 1
grep -q "Erasing Data Validation map: fsd1" "$T/o1/localhost-0.stdout.html" && ok || bad "v5: no map erase at the format"
grep -qE "Key   1: reads: +0 writes: +2048 $" "$T/o1/localhost-0.stdout.html" && ok || bad "v5: the format's counters are not key 1 x 2048"
# read pct of rd1: the writes' pre-reads count (vdbench's 66.7 %)
pct=$(grep -E '^[0-9:.]+ +avg_[0-9]+-[0-9]+ ' "$T/out" | tail -1 | awk '{ print $7 }')
awk -v v="$pct" 'BEGIN { exit !(v >= 63 && v <= 70) }' && ok || { bad "v5: read pct '$pct' not about 66.7"; grep -E "^[0-9:.]+ +(avg_)?[0-9]" "$T/out"; }
# vdbench's bytes: the files back to back in anchor order are the FSD
# (file 2 at FSD lba 1m, file 5 = vdb.1_2.dir's first at 4m); every
# sector's lba field, checksum and pattern match vdbench's model
cat "$A"/v5/vdb.1_1.dir/vdb_f000[1-4].file "$A"/v5/vdb.1_2.dir/vdb_f000[1-4].file >"$T/fsd.img"
python3 "$VDBC_SRC/tests/data/dv/jrandom_check.py" "$T/fsd.img" 0 256 266 511 1024 2047 >"$T/jr" 2>&1
[ "$(grep -c 'match model: True' "$T/jr")" = 6 ] && ok || { bad "jrandom_check on vdbc's files"; cat "$T/jr"; }
grep -q "block 256: lba=0x100000 .*name=b'fsd1    '" "$T/jr" && ok || bad "file 2 block 0: not lba 0x100000, name fsd1"
grep -q "block 1024: lba=0x400000 " "$T/jr" && ok || bad "file 5 block 0: not lba 0x400000"

# v5b: format=only, then the master's startcmd overwrites file block 10
# of vdb_f0002.file with random bytes; rd1's reads find it.
cat >"$T/corrupt.sh" <<'S'
#!/bin/bash
# corrupt.sh random|zero FILE BLOCK: overwrite 4k block BLOCK of FILE
src=/dev/urandom
[ "$1" = zero ] && src=/dev/zero
dd if=$src of="$2" bs=4096 seek="$3" count=1 conv=notrunc status=none
S
chmod +x "$T/corrupt.sh"
F=$A/v5b/vdb.1_1.dir/vdb_f0002.file
cat >"$T/v5b.parm" <<P
fsd=fsd1,anchor=$A/v5b,depth=1,width=1,files=4,size=1m
fwd=fwdr,fsd=fsd1,operation=read,xfersize=4k,fileio=random,fileselect=random,threads=2
rd=rd0,fwd=fwdr,fwdrate=max,format=only,elapsed=5,interval=1
rd=rd1,fwd=fwdr,fwdrate=max,format=no,elapsed=2,interval=1,startcmd=("$T/corrupt.sh random $F 10",master)
P
expect_rc 157 "$VDBC" -f "$T/v5b.parm" -o "$T/o2" -v --port 0 --seed 1
notod "Corrupted data block for" v5b
expect_out "Starting RD=format_for_rd0"
expect_out "localhost-0: Corrupted data block for fsd=fsd1,file=$F; file lba: 0x0000a000 xfersize=4096"
expect_out "localhost-0: Data block has 1 key block(s) of 4096 bytes each."
expect_out "localhost-0: Key block lba: 0x0010a000"
expect_out "localhost-0:    Key block of 4,096 bytes has 8 512-byte sectors."
expect_out "Key block first found to be corrupted during a workload requested read."
expect_out "localhost-0:         Data Validation error for fsd=fsd1; FSD lba: 0x0010a000; Key block size: 4096; relative sector in data block: 0x00 "
expect_out "localhost-0:         File name: $F; file block lba: 0x0000a000; bad sector file lba: 0x0000a000"
expect_out "localhost-0:         Data Validation error for fsd=fsd1; FSD lba: 0x0010ae00; Key block size: 4096; relative sector in data block: 0x07 "
expect_out "localhost-0:         File name: $F; file block lba: 0x0000a000; bad sector file lba: 0x0000ae00"
expect_out "localhost-0:         ===> Data Validation Key miscompare. Expecting key=0x01 received key="
expect_out "localhost-0:         ===> Logical byte address miscompare. Expecting 0x0010a000, receiving "
grep -qE "localhost-0: 0x010   01\.\.0000 31647366 20202020 00000000   " "$T/out" && ok || bad "v5b: no 0x010 line with key 01 and 'fsd1    '"
grep -qF "op: read   lun: $F lba:        40960 0x0000A000 xfer:     4096 errno: 60003: '60003            A Data Validation error was discovered' " "$T/out" && ok || bad "v5b: no op: read line with the file lba"
[ "$(grep -c 'Corrupted data block for' "$T/out")" = 1 ] && ok || bad "v5b: not one corrupted data block"
# results.json's validation record and summary.html's box, as an sd's
# (the fsd as sd, its file as lun, the FSD lba)
jq -e --arg f "$F" '[.runs[].validation.data_blocks[]] | length == 1 and .[0].sd == "fsd1" and
	.[0].lun == $f and .[0].lba == 1089536 and .[0].sectors[0].key_block_lba == 1089536' "$T/o2/results.json" >/dev/null &&
	ok || bad "v5b: results.json does not hold the corrupted block"
jq -e '.runs[-1].validation.corrupted_data_blocks == 1 and .runs[-1].validation.key_blocks_validated > 0' "$T/o2/results.json" >/dev/null &&
	ok || bad "v5b: results.json's validation totals"
grep -q "First corruption: *sd=fsd1, lun=$F, rd=rd1" <(sed 's/<[^>]*>//g' "$T/o2/summary.html") && ok ||
	bad "v5b: summary.html does not open with the corruption"
expect_out "key blocks marked in error:    1 "
expect_out "Total Data Validation or I/O error count: 1"
expect_out "Vdbench terminating due to Data Validation or I/O errors. See errorlog.html."
[ "$(grep -c 'Corrupted data block for fsd=fsd1' "$T/o2/errorlog.html")" = 1 ] && ok || bad "v5b: errorlog.html lacks the report"

# A write finds a zeroed block in its pre-read; data_errors=1 stops rd1.
sed -e '1i data_errors=1' -e 's/operation=read/operation=write/' \
    -e 's/corrupt.sh random/corrupt.sh zero/' "$T/v5b.parm" >"$T/w.parm"
expect_rc 157 "$VDBC" -f "$T/w.parm" -o "$T/o3" -v --port 0 --seed 1
notod "Corrupted data block for" pre-read
expect_out "Key block first found to be corrupted during a read-before-write."
expect_out "localhost-0:    All corruptions are of the same type: "
expect_out "localhost-0:    ===> Logical byte address miscompare. Expecting 0x0010a000, receiving 0x00000000"
expect_out "'data_errors=1' requested. Abort rd=rd1 after last error."
[ "$(grep -c 'Corrupted data block for' "$T/out")" = 1 ] && ok || bad "pre-read: not one report"

# What -v cannot run on an fsd is refused by name before any I/O: the
# operations that create or delete files, and a shared fsd.
cat >"$T/no.parm" <<P
fsd=fsd1,anchor=$A/no,depth=1,width=1,files=2,size=64k,shared=yes
fwd=fwdd,fsd=fsd1,operation=delete,xfersize=4k,threads=1
fwd=fwdw,fsd=fsd1,operation=write,fileio=(sequential,delete),xfersize=4k,threads=1
rd=rd1,fwd=fwd*,fwdrate=max,format=yes,elapsed=2,interval=1
P
expect_rc 157 "$VDBC" -f "$T/no.parm" -o "$T/o4" -v --port 0
expect_out "Data Validation (-v, validate=) with fwd=fwdd,operation=delete is not supported by vdbc yet: what vdbench does to the Data Validation map"
expect_out "Data Validation (-v, validate=) with fwd=fwdw,fileio=(sequential,delete) is not supported by vdbc yet"
expect_out "Data Validation (-v, validate=) with fsd=fsd1,shared=yes is not supported by vdbc yet"
[ -e "$A/no" ] && bad "refused fsd -v: the anchor was made" || ok
# files that are not whole key blocks: the slave refuses before writing
cat >"$T/odd.parm" <<P
fsd=fsd1,anchor=$A/odd,depth=1,width=1,files=2,size=6k
fwd=fwdr,fsd=fsd1,operation=read,xfersize=4k,threads=1
rd=rd1,fwd=fwdr,fwdrate=max,format=yes,elapsed=2,interval=1
P
expect_rc 157 "$VDBC" -f "$T/odd.parm" -o "$T/o5" -v --port 0
expect_out "fsd=fsd1: Data Validation: file size 6144 (file 1) is not a multiple of the key block size 4096"
[ -e "$A/odd/vdb.1_1.dir/vdb_f0001.file" ] && bad "odd size: a file was written" || ok

# The journal of fsd workloads is not built: -j is refused before any
# I/O (it ran as plain -v, with no journal, before).
printf 'fsd=fsd1,anchor=%s/jfs,depth=1,width=1,files=2,size=64k\nfwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,fileio=random,fileselect=random,threads=1\nrd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=2,interval=1\n' "$A" >"$T/j.parm"
expect_rc 157 "$VDBC" -f "$T/j.parm" -o "$T/o9" -j --port 0
expect_out "rd=rd1: the journal (-j, journal=) of file system workloads (fsd/fwd) is not supported by vdbc yet"
[ -e "$A/jfs" ] && bad "fsd -j: the anchor was made before the refusal" || ok

finish
