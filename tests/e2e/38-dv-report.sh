#!/bin/bash
# Data validation's records beyond the console: a -vt run whose second rd
# finds two blocks corrupted between the rds (an rd startcmd zeroes one
# and writes random bytes over another) reports vdbench's -vt timeline
# lines, puts both blocks in results.json's "validation" (sd, lun, lba,
# sectors and flags) and opens summary.html with the first corruption.
# validate=ignore_zero_reads: a read-only rd of a lun never written runs
# to its end without vdbench's totals line or its "No read validations
# done" stop, and summary.html says no corruption was found.
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null || { echo "skip: needs jq"; exit 77; }

# The "random" bytes are seeded (sha256 of a counter), the same in every
# run: what the report says of them (no valid timestamp, the checksum
# flag) cannot change with chance.
for i in $(seq 0 127); do printf 'e2e38 %d\n' "$i" | sha256sum | cut -c1-64; done |
	sed 's/../\\x&/g' | while read -r l; do printf "$l"; done >"$T/rand.bin"
[ "$(stat -c %s "$T/rand.bin")" = 4096 ] && ok || bad "seeded bytes: $(stat -c %s "$T/rand.bin") bytes, not 4096"
cat >"$T/corrupt.sh" <<S
#!/bin/bash
# corrupt.sh LUN: block 100 zeroed (v2b), block 200 seeded random bytes (v2a)
dd if=/dev/zero of="\$1" bs=4096 seek=100 count=1 conv=notrunc status=none
dd if="$T/rand.bin" of="\$1" bs=4096 seek=200 count=1 conv=notrunc status=none
S
chmod +x "$T/corrupt.sh"
cat >"$T/a.parm" <<P
sd=sd1,lun=$T/lun,size=16m,threads=2
wd=wd1,sd=sd1,xfersize=4k,rdpct=0,seekpct=eof
wd=wd2,sd=sd1,xfersize=4k,rdpct=100,seekpct=random
rd=rd1,wd=wd1,iorate=max,elapsed=30,interval=1,threads=2
rd=rd2,wd=wd2,iorate=max,elapsed=2,interval=1,threads=2,startcmd=("$T/corrupt.sh $T/lun",master)
P
expect_rc 157 "$VDBC" -f "$T/a.parm" -o "$T/o1" -vt --port 0 --seed 5
cp "$T/out" "$T/out1"
R=$T/o1/results.json

# -vt: the timeline has the key block's last use (written by rd1)
[ "$(grep -c 'Key block was last written. (Timestamp is taken just AFTER the actual read or write).' "$T/out1")" = 2 ] &&
	ok || bad "not 2 'Key block was last written' lines"
# the zeroed block: sector time 1970 < last written < found, in that order
sed -n '/(0x00064000) xfersize=4096/,/ op: read /p' "$T/out1" >"$T/z"
order=$(grep -n 'Sector last written\|Key block was last written\|first found to be corrupted' "$T/z" |
	sed 's/:.*\(Sector last\|Key block was last\|first found\).*/ \1/' | awk '{print $2" "$3}' | tr '\n' ,)
[ "$order" = "Sector last,Key block,first found," ] && ok || bad "zeroed block timeline order: $order"
grep -q "Thu Jan 01 1970 00:00:00.000 .* Sector last written" "$T/z" && ok || bad "zeroed block: no 1970 sector time"
grep -q "localhost-0: .*Time that this key block 0x00064000 was last used for written: " "$T/z" && ok ||
	bad "zeroed block: no 'Time that this key block ... was last used' line"
# random bytes: no valid timestamp, then the last use
sed -n '/(0x000c8000) xfersize=4096/,/ op: read /p' "$T/out1" >"$T/r"
grep -A1 "No valid timestamp found in first corrupted sector" "$T/r" | grep -q "Key block was last written" &&
	ok || bad "random block: 'No valid timestamp' not followed by the last use"
grep -q "Data Validation. Allocating timestamp map requiring 8 \* 4,096 = 0.031MB of memory." "$T/o1/localhost-0.stdout.html" &&
	ok || bad "no timestamp map line in the slave's log"

# results.json: rd2's validation record
v() { jq -r "$1" "$R"; }
[ "$(v '.runs[] | select(.name == "rd2") | .validation.corrupted_data_blocks')" = 2 ] && ok || bad "rd2: corrupted_data_blocks not 2"
[ "$(v '.runs[] | select(.name == "rd2") | .validation.key_blocks_in_error')" = 2 ] && ok || bad "rd2: key_blocks_in_error not 2"
[ "$(v '.runs[] | select(.name == "rd2") | .validation.key_blocks_validated > 100')" = true ] && ok || bad "rd2: few key blocks validated"
[ "$(v '.runs[] | select(.name == "rd1") | .validation.corrupted_data_blocks')" = 0 ] && ok || bad "rd1: has corrupted blocks"
[ "$(v '[.runs[] | select(.name == "SD_format") | has("validation")] | .[0]')" = false ] && ok || bad "SD_format has a validation record"
blk() { jq -r ".runs[] | select(.name == \"rd2\") | .validation.data_blocks[] | select(.lba == $1) | $2" "$R"; }
[ "$(blk 409600 '.sd + " " + .lun + " " + (.xfersize|tostring) + " " + .rd + " " + .slave')" = "sd1 $T/lun 4096 rd2 localhost-0" ] &&
	ok || bad "zeroed block: sd/lun/xfersize/rd/slave"
[ "$(blk 409600 '.bad_sectors')" = 8 ] && ok || bad "zeroed block: bad_sectors not 8"
[ "$(blk 409600 '.sectors | length')" = 8 ] && ok || bad "zeroed block: not 8 sectors listed"
[ "$(blk 409600 '.sectors[1] | (.lba|tostring) + " " + (.sector|tostring) + " " + (.flags|join(","))')" = "410112 1 key,lba,name,compression" ] &&
	ok || bad "zeroed block: sector 1 is $(blk 409600 '.sectors[1]' | tr -d ' \n')"
[ "$(blk 409600 '.found_during')" = "workload requested read" ] && ok || bad "zeroed block: found_during"
[ "$(blk 819200 '.sectors[0].flags | index("checksum") != null')" = true ] && ok || bad "random block: no checksum flag"
[ "$(blk 409600 '.last_used.op')" = written ] && ok || bad "zeroed block: last_used.op not written (-vt)"
[ "$(blk 409600 '.last_used.ms < .found_ms')" = true ] && ok || bad "zeroed block: last used not before found"

# summary.html: the box, before the links, escaped, well formed
S=$T/o1/summary.html
grep -q '<div id="data-validation"' "$S" && ok || bad "summary.html: no box"
box=$(grep -n 'data-validation' "$S" | cut -d: -f1)
links=$(grep -n 'Link to logfile:' "$S" | cut -d: -f1)
[ -n "$box" ] && [ -n "$links" ] && [ "$box" -lt "$links" ] && ok || bad "summary.html: the box is not above the links"
grep -q "DATA VALIDATION: CORRUPTED DATA FOUND" "$S" && ok || bad "summary.html: no alarm line"
grep -qE "First corruption: +sd=sd1, lun=$T/lun, rd=rd2 \(slave localhost-0\)" "$S" && ok || bad "summary.html: first corruption line"
grep -qE "First bad sector: +lba 0x000(64|c8)000 \(sector 0 of the key block at 0x000(64|c8)000\); bad: key," "$S" &&
	ok || bad "summary.html: first bad sector line"
grep -qE "Totals: +2 corrupted data block\(s\); [0-9,]+ key blocks read and validated; 2 key blocks marked in error" "$S" &&
	ok || bad "summary.html: totals line"
[ "$(grep -c '<pre>' "$S")" = "$(grep -c '</pre>' "$S")" ] || [ "$(($(grep -o '<pre>' "$S" | wc -l) - $(grep -o '</pre>' "$S" | wc -l)))" = 1 ] &&
	ok || bad "summary.html: <pre> and </pre> do not pair"

# validate=ignore_zero_reads: reads of a lun never written go on to the
# end (vdbench prints no totals line then, and does not stop)
cat >"$T/b.parm" <<P
validate=ignore_zero_reads
sd=sd1,lun=$T/lun2,size=16m,threads=2
wd=wd1,sd=sd1,xfersize=4k,rdpct=100,seekpct=random
rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1,threads=2
P
truncate -s 16m "$T/lun2"
expect_rc 0 "$VDBC" -f "$T/b.parm" -o "$T/o2" --port 0 --seed 5
grep -q "Total amount of key blocks read and validated" "$T/out" && bad "ignore_zero_reads: a totals line" || ok
grep -q "No read validations done" "$T/out" && bad "ignore_zero_reads: the no-validations stop" || ok
[ "$(jq -r '.runs[] | select(.name == "rd1") | .validation.key_blocks_validated' "$T/o2/results.json")" = 0 ] &&
	ok || bad "ignore_zero_reads: no validation record"
grep -q "Data Validation: no corruption found; 0 key blocks read and validated." "$T/o2/summary.html" &&
	ok || bad "ignore_zero_reads: summary.html lacks the clean line"
# the same without it stops, as vdbench does
sed -i '/^validate=/d' "$T/b.parm"
expect_rc 157 "$VDBC" -f "$T/b.parm" -o "$T/o3" -v --port 0 --seed 5
expect_out "No read validations done during a Data Validation run."

finish
