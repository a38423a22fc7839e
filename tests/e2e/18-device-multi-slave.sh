#!/bin/bash
# Several vdbc slaves on one host write one raw lun (issue 13, section 3):
# -m 2, two sds on one device (vdbench's rule then starts two slaves) and
# jvms=4. vdbc's own slaves never count as another user of the device, and
# the loop device's own write count (/sys/block/loopN/stat) agrees with
# what results.json reports. Only a loop device over this test's own file.
. "$(dirname "$0")/lib.sh"
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null ||
    [ ! -e /dev/loop-control ] || ! command -v jq >/dev/null; then
	echo "skip: needs root, /dev/loop-control, losetup and jq"
	exit 77
fi
truncate -s 64M "$T/disk.img"
loop=$(timeout 20 losetup -f --show "$T/disk.img" 2>/dev/null)
if [ -z "$loop" ]; then
	echo "skip: cannot make a loop device here"
	exit 77
fi
trap 'losetup -d "$loop"; cleanup' EXIT
stat_file=/sys/block/${loop#/dev/}/stat
# O_DIRECT so that every write reaches the loop device as itself.
if ! dd if=/dev/zero of="$loop" bs=4k count=1 oflag=direct status=none 2>/dev/null; then
	echo "skip: O_DIRECT on the loop device fails here"
	exit 77
fi

kwrites() {	# write I/Os (completed + merged) and sectors the kernel counted
	awk '{ print $5 + $6, $7 }' "$stat_file"
}

# check NAME SLAVES ARGS...: run the parmfile $T/p.parm with ARGS; it must
# run on SLAVES slaves, each writing, and the kernel must count exactly the
# writes results.json reports.
check() {
	local name=$1 want=$2 before after kw ks rw n per w
	shift 2
	read -r kw ks <<<"$(kwrites)"
	before="$kw $ks"
	timeout 120 "$VDBC" -f "$T/p.parm" -o "$T/o-$name" --port 0 --seed 7 "$@" >"$T/out" 2>&1
	local rc=$?
	read -r kw ks <<<"$(kwrites)"
	after="$kw $ks"
	if [ "$rc" != 0 ]; then
		bad "$name: exit $rc"
		cat "$T/out"
		return
	fi
	ok
	grep -q "refusing to write" "$T/out" && bad "$name: a slave refused the lun" || ok
	n=$(jq '.hosts[0].slaves | length' "$T/o-$name/results.json")
	[ "$n" = "$want" ] && ok || bad "$name: $n slaves, wanted $want"
	per=$(jq -r '.runs[-1].slaves | to_entries | map(.value.writes) | map(tostring) | join(" ")' \
		"$T/o-$name/results.json")
	for w in $per; do
		[ "$w" -gt 0 ] && ok || bad "$name: a slave wrote nothing ($per)"
	done
	rw=$(jq '[.runs[-1].intervals[].writes] | add' "$T/o-$name/results.json")
	set -- $before
	kw=$(( ${after% *} - $1 ))
	ks=$(( ${after#* } - $2 ))
	echo "$name: slaves $n ($per), results.json writes $rw, kernel writes $kw, sectors $ks"
	# The slaves stop their threads before the last interval's report,
	# so every write done is in some interval: the counts are equal.
	if [ "$rw" -gt 0 ] && [ "$kw" = "$rw" ]; then
		ok
	else
		bad "$name: the kernel counted $kw writes, results.json $rw"
	fi
	[ "$ks" = $((kw * 8)) ] && ok || bad "$name: $ks sectors for $kw 4 KiB writes"
}

# -m 2: one sd, random 4 KiB writes, two slaves.
cat >"$T/p.parm" <<EOF
sd=sd1,lun=$loop,openflags=o_direct,threads=4
wd=wd1,sd=sd1,xfersize=4k,rdpct=0,seekpct=100
rd=rd1,wd=wd1,iorate=400,elapsed=3,interval=1
EOF
check m2 2 -m 2

# Two sds on the one device at iorate=max: vdbench's rule (PARMFILE.md 5,
# automatic jvms) starts two slaves.
cat >"$T/p.parm" <<EOF
sd=sd1,lun=$loop,openflags=o_direct,threads=4,range=(0,50)
sd=sd2,lun=$loop,openflags=o_direct,threads=4,range=(50,100)
wd=wd1,sd=(sd1,sd2),xfersize=4k,rdpct=0,seekpct=100
rd=rd1,wd=wd1,iorate=max,elapsed=3,interval=1
EOF
check two-sds 2
expect_out "Adjusted default JVM count for host=localhost from jvms=1 to jvms=2"

# jvms=4: four slaves take the safety checks at the same moment.
cat >"$T/p.parm" <<EOF
hd=default,jvms=4
hd=hd1,system=localhost
sd=sd1,lun=$loop,openflags=o_direct,threads=4
wd=wd1,sd=sd1,xfersize=4k,rdpct=0,seekpct=100
rd=rd1,wd=wd1,iorate=400,elapsed=3,interval=1
EOF
check jvms4 4

# A slow fixed rate: threads sleep up to 100 ms between arrivals. The
# last interval still lasts one interval (the stop does not add the time
# the threads take to see it), and the kernel count still matches.
cat >"$T/p.parm" <<EOF
sd=sd1,lun=$loop,openflags=o_direct,threads=8
wd=wd1,sd=sd1,xfersize=4k,rdpct=0,seekpct=100
rd=rd1,wd=wd1,iorate=10,elapsed=4,interval=1
EOF
check slow 2 -m 2
if [ "${VDBC_SANITIZED:-0}" != 1 ]; then
	last=$(jq '.runs[-1].intervals[-1].duration_s' "$T/o-slow/results.json")
	awk -v d="$last" 'BEGIN { exit !(d > 0.95 && d < 1.04) }' && ok ||
		bad "the last interval lasted $last s, not 1"
fi
finish
