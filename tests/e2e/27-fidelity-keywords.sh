#!/bin/bash
# Keywords vdbc once accepted and ignored (issue 15, section 2): each must
# now act as vdbench's does or say plainly why it cannot. openflags= on an
# fsd reaches the files' open(), openflags=fsync syncs before close on an
# sd, fwd and fsd.
. "$(dirname "$0")/lib.sh"

# strace, followed by the syscalls and -o TRACE (LeakSanitizer cannot run
# under ptrace, so an ASan build's leak check is off for these runs).
TRACED=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq)
# st_opens TRACE DIR: the openat() calls of files under DIR.
st_opens() { grep -F "openat(AT_FDCWD, \"$2/" "$1" | grep -v O_DIRECTORY; }

# 1. openflags= on an fsd and fsync on an fsd, fwd and sd (strace sees the
# flags and the fsync() calls; the file system under $T must take
# O_DIRECT).
if ! command -v strace >/dev/null; then
	echo "skipped part 1: no strace"
elif ! dd if=/dev/zero of="$T/dio" bs=4096 count=1 oflag=direct 2>/dev/null; then
	echo "skipped part 1: $T does not take O_DIRECT (tmpfs?)"
else
	A=$T/a1
	printf 'fsd=fsd1,anchor=%s,depth=1,width=2,files=3,size=64k,openflags=(o_direct,0x40000)\nfwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,fileio=sequential,fileselect=random,threads=1\nfwd=fwd2,fsd=fsd1,operation=open,xfersize=4k,fileselect=random,threads=1\nrd=rd1,fwd=(fwd1,fwd2),fwdrate=max,format=yes,elapsed=2,interval=1\n' "$A" >"$T/of.parm"
	expect_rc 0 "${TRACED[@]}" -e trace=openat,fsync,fdatasync -o "$T/of.st" \
		"$VDBC" -f "$T/of.parm" -o "$T/o_of" --port 0 --seed 1
	n=$(st_opens "$T/of.st" "$A" | grep -c 'vdb_f')
	d=$(st_opens "$T/of.st" "$A" | grep 'vdb_f' | grep 'O_DIRECT' | grep -c 'O_NOATIME')
	[ "$n" -gt 6 ] && [ "$d" = "$n" ] && ok || bad "fsd openflags=(o_direct,0x40000): $d of $n file opens carry O_DIRECT|O_NOATIME"
	# operation=open opens for reading, with the flags too
	[ "$(st_opens "$T/of.st" "$A" | grep 'vdb_f' | grep -c 'O_RDONLY')" -gt 3 ] && ok || bad "fsd openflags=: no read opens seen"
	[ "$(grep -c 'fsync(' "$T/of.st")" = 0 ] && ok || bad "fsync() without openflags=fsync"

	# fsd openflags=fsync (the format's 4 creates: fwd=format has no
	# openflags of its own) and fwd openflags=fsync (the run's writes):
	# each file closed after writing is synced first.
	printf 'fsd=fsd1,anchor=%s,depth=1,width=1,files=4,size=16k,openflags=fsync\nfwd=fwd1,fsd=fsd1,operation=write,xfersize=4k,fileio=sequential,fileselect=sequential,threads=1,openflags=fsync\nrd=rd1,fwd=fwd1,fwdrate=20,format=yes,elapsed=2,interval=1\n' "$T/a2" >"$T/fs.parm"
	expect_rc 0 "${TRACED[@]}" -e trace=openat,fsync,close -o "$T/fs.st" \
		"$VDBC" -f "$T/fs.parm" -o "$T/o_fs" --port 0 --seed 1
	w=$(st_opens "$T/fs.st" "$T/a2" | grep 'vdb_f' | grep -c 'O_WRONLY')
	s=$(grep -c 'fsync(' "$T/fs.st")
	[ "$w" -ge 8 ] && [ "$s" = "$w" ] && ok || bad "fsd/fwd openflags=fsync: $s fsync() calls for $w files written"

	# sd openflags=fsync: the lun is synced before it is closed
	printf 'sd=sd1,lun=%s,size=1m,openflags=fsync\nwd=wd1,sd=sd1,xfersize=4k,rdpct=0\nrd=rd1,wd=wd1,iorate=50,elapsed=2,interval=1\n' "$T/lun1" >"$T/sd.parm"
	expect_rc 0 "${TRACED[@]}" -e trace=openat,fsync,fdatasync -o "$T/sd.st" \
		"$VDBC" -f "$T/sd.parm" -o "$T/o_sd" --port 0 --seed 1
	# (opens that succeeded: a lun vdbc creates is first looked for,
	# ENOENT, then made with O_EXCL)
	fd=$(st_opens "$T/sd.st" "$T" | grep -F "$T/lun1\"" | grep O_RDWR | grep -vc '= -1')
	s=$(grep -c 'fsync(' "$T/sd.st")
	[ "$fd" -ge 2 ] && [ "$s" = "$fd" ] && ok || bad "sd openflags=fsync: $s fsync() calls for $fd opens of the lun"
fi

# 1b. o_sync, o_dsync and o_rsync open with O_DSYNC, as vdbench's Linux
# slave (OpenFlags.translateFlags: 0x1000 for all three), on an sd and
# on an fsd's files.
if command -v strace >/dev/null; then
	for f in o_sync o_dsync o_rsync; do
		printf 'sd=sd1,lun=%s,size=1m,openflags=%s\nwd=wd1,sd=sd1,xfersize=4k,rdpct=0\nrd=rd1,wd=wd1,iorate=20,elapsed=2,interval=1\n' "$T/lun_$f" "$f" >"$T/os.parm"
		expect_rc 0 "${TRACED[@]}" -e trace=openat -o "$T/os.st" \
			"$VDBC" -f "$T/os.parm" -o "$T/o_os" --port 0 --seed 1
		o=$(grep -F "\"$T/lun_$f\"" "$T/os.st" | grep O_RDWR)
		[ -n "$o" ] && ! grep -q 'O_SYNC' <<<"$o" && grep -q 'O_DSYNC' <<<"$o" && ok ||
			bad "sd openflags=$f: not opened O_DSYNC (vdbench's flag): $o"
	done
	printf 'fsd=fsd1,anchor=%s,depth=1,width=1,files=2,size=8k,openflags=o_sync\nfwd=fwd1,fsd=fsd1,operation=write,xfersize=4k,fileio=sequential,fileselect=sequential,threads=1\nrd=rd1,fwd=fwd1,fwdrate=20,format=yes,elapsed=2,interval=1\n' "$T/a_os" >"$T/fos.parm"
	expect_rc 0 "${TRACED[@]}" -e trace=openat -o "$T/fos.st" \
		"$VDBC" -f "$T/fos.parm" -o "$T/o_fos" --port 0 --seed 1
	n=$(st_opens "$T/fos.st" "$T/a_os" | grep -c 'vdb_f')
	d=$(st_opens "$T/fos.st" "$T/a_os" | grep 'vdb_f' | grep 'O_DSYNC' | grep -vc 'O_SYNC')
	[ "$n" -gt 0 ] && [ "$d" = "$n" ] && ok || bad "fsd openflags=o_sync: $d of $n file opens O_DSYNC"
fi

# 2. histogram=(default,suppress): the empty buckets before the first and
# after the last counted one go (of 27), one empty bucket each side stays.
# buckets FILE: the bucket lines of the first block of a histogram file.
buckets() { awk '/ < / && $1 ~ /^[0-9.]+$/ { n++ } /^$/ && n { exit } END { print n + 0 }' "$1"; }
# empty_ends FILE: the empty bucket lines at the start and end of the block.
empty_ends() { awk '/ < / && $1 ~ /^[0-9.]+$/ { c[++n] = $4 } /^$/ && n { exit }
	END { a = 0; while (a < n && c[a + 1] == "0") a++; b = 0; while (b < n && c[n - b] == "0") b++; print a, b }' "$1"; }
truncate -s 1m "$T/lun2" "$T/lun4" "$T/lun5" "$T/lun6"
printf 'histogram=(default,suppress)\nsd=sd1,lun=%s,size=1m\nwd=wd1,sd=sd1,xfersize=4k,rdpct=100\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n' "$T/lun2" >"$T/h.parm"
expect_rc 0 "$VDBC" -f "$T/h.parm" -o "$T/o_h" --port 0 --seed 1
n=$(buckets "$T/o_h/sd1.histogram.html")
e=$(empty_ends "$T/o_h/sd1.histogram.html")
[ "$n" -ge 2 ] && [ "$n" -lt 27 ] && ok || bad "suppress: $n buckets printed"
case "$e" in "0 1"|"1 0"|"1 1") ok ;; *) bad "suppress: empty buckets at the ends: $e (want at most one each)" ;; esac
grep -c ' < ' "$T/o_h/histogram.html" >/dev/null && [ "$(buckets "$T/o_h/histogram.html")" = "$n" ] && ok ||
	bad "histogram.html does not suppress as sd1.histogram.html does"

# 3. create_anchors=yes makes an anchor's missing parents; without it the
# run stops naming the anchor and the keyword.
A=$T/new1/new2/anchor
printf 'create_anchors=yes\nfsd=fsd1,anchor=%s,depth=1,width=1,files=2,size=4k\nfwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,fileio=sequential,fileselect=random,threads=1\nrd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=2,interval=1\n' "$A" >"$T/ca.parm"
expect_rc 0 "$VDBC" -f "$T/ca.parm" -o "$T/o_ca" --port 0 --seed 1
[ "$(find "$A" -name 'vdb_f*.file' | wc -l)" = 2 ] && ok || bad "create_anchors=yes: the anchor's tree was not made"
sed "1d; s,$T/new1,$T/new3," "$T/ca.parm" >"$T/ca0.parm"
expect_rc 157 "$VDBC" -f "$T/ca0.parm" -o "$T/o_ca0" --port 0 --seed 1
expect_out "cannot create the anchor directory: No such file or directory (its parent must exist); create_anchors=yes makes the parents"
[ ! -e "$T/new3" ] && ok || bad "without create_anchors= a parent was made"

# 4. Keywords with no meaning on Linux say so once, on the console and in
# logfile.html, and the run goes on; psrset= is refused as vdbench
# refuses it on Linux; showlba=yes (a trace vdbc does not write) stops the
# run before any I/O, naming it.
printf 'debug=3\nmisc=(fifo=100)\npattern_buffer=2\nsd=sd1,lun=%s,size=1m,kstat=sd1,resetlun=5\nsd=sd2,lun=%s,size=1m,kstat=sd2\nwd=wd1,sd=sd*,xfersize=4k,rdpct=100\nrd=rd1,wd=wd1,iorate=20,elapsed=2,interval=1\n' "$T/lun4" "$T/lun5" >"$T/k.parm"
expect_rc 0 "$VDBC" -f "$T/k.parm" -o "$T/o_k" --port 0 --seed 1
for w in "'kstat=' is accepted and ignored: a Solaris-only option" "'resetlun=' is accepted and ignored: a Solaris-only option" \
	"'debug=' is accepted and ignored" "'misc=' is accepted and ignored" "'pattern_buffer=' is accepted and ignored"; do
	[ "$(grep -cF -- "$w" "$T/out")" = 1 ] && ok || bad "console: not once: $w"
	[ "$(sed -e 's/<[^>]*>//g' -e "s/&#39;/'/g" "$T/o_k/logfile.html" | grep -cF -- "$w")" = 1 ] && ok || bad "logfile.html: not once: $w"
done
expect_out "Starting RD=rd1"
# messagescan= (part 6) by default: /var/log/messages where it exists,
# else /dev/kmsg
if [ -r /var/log/messages ] || [ -r /dev/kmsg ]; then
	grep -q "vdbc: messagescan: scanning \(/var/log/messages\|/dev/kmsg\) for new messages" "$T/o_k/logfile.html" &&
		ok || bad "messagescan: neither /var/log/messages nor /dev/kmsg scanned"
fi
printf 'psrset=(1,2)\n' | cat - "$T/k.parm" >"$T/k2.parm"
expect_rc 157 "$VDBC" -f "$T/k2.parm" -o "$T/o_k2" --port 0
expect_out "'psrset=' option is only supported on Solaris"
printf 'showlba=yes\n' | cat - "$T/k.parm" >"$T/k3.parm"
rm -f "$T/lun4" "$T/lun5"
expect_rc 157 "$VDBC" -f "$T/k3.parm" -o "$T/o_k3" --port 0
expect_out "'showlba=yes' ($T/k3.parm:1:1)"
[ ! -e "$T/lun4" ] && ok || bad "showlba=yes: the run did I/O before it stopped"

# 5. hd mount= runs the mount command before the first run (the mount
# point made first, a file system already mounted there from the same
# special unmounted first); a failing command stops the run before any
# I/O; a host that is not this one is refused.
printf 'hd=localhost,mount="false vdbc27 %s/mp"\nsd=sd1,lun=%s/mp/lun,size=1m\nwd=wd1,sd=sd1,xfersize=4k,rdpct=100\nrd=rd1,wd=wd1,iorate=20,elapsed=2,interval=1\n' "$T" "$T" >"$T/m1.parm"
expect_rc 157 "$VDBC" -f "$T/m1.parm" -o "$T/o_m1" --port 0 --seed 1
expect_out "Created mountpoint: $T/mp"
expect_out "hd=localhost: Mount of file system failed: 'false vdbc27 $T/mp' exited with status 1"
[ -d "$T/mp" ] && [ ! -e "$T/mp/lun" ] && ok || bad "hd mount= failing: no mount point, or I/O was done"
sed "1s|.*|hd=localhost\nhd=far,system=192.0.2.1,mount=\"mount -t tmpfs x $T/mp\"|" "$T/m1.parm" >"$T/m2.parm"
expect_rc 157 "$VDBC" -f "$T/m2.parm" -o "$T/o_m2" --port 0 --seed 1
expect_out "hd=far,mount=: vdbc runs mount commands only on the master's own host"
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	echo "skipped part 5 (a real mount): needs root and mount namespaces"
else
	# in a mount namespace of its own, so nothing stays mounted
	sed "1s|.*|hd=localhost,mount=\"mount -t tmpfs vdbc27 $T/mp\"|" "$T/m1.parm" >"$T/m3.parm"
	cat >"$T/m3.sh" <<EOS
mount --make-rprivate / 2>/dev/null
mkdir -p "$T/mp" && mount -t tmpfs vdbc27 "$T/mp" && : >"$T/mp/before"
"$VDBC" -f "$T/m3.parm" -o "$T/o_m3" --port 0 --seed 1 || exit \$?
grep " $T/mp " /proc/self/mounts | grep -c '^vdbc27 ' >"$T/m3.count"
ls "$T/mp" >"$T/m3.ls"
EOS
	expect_rc 0 unshare -m bash "$T/m3.sh"
	expect_out "hd=localhost: mount: mount -t tmpfs vdbc27 $T/mp"
	[ "$(cat "$T/m3.count")" = 1 ] && ok || bad "hd mount=: not mounted once at the end"
	# the file made before was on the tmpfs that was unmounted first
	[ "$(cat "$T/m3.ls")" = lun ] && ok || bad "hd mount=: the old mount was not replaced: $(cat "$T/m3.ls")"
	grep -q " $T/mp " /proc/self/mounts && bad "hd mount=: the mount leaked out of the namespace" || ok
fi

# 6. messagescan=: new lines of the system log during the run (here a
# file of the test's own, VDBC_MESSAGES_FILE, in place of
# /var/log/messages or /dev/kmsg) go to the console under vdbench's title
# and into localhost.var_adm_msgs.html; nodisplay keeps them off the
# console, a number caps them, no turns the scan off.
# msgrun NAME GENERAL: a 2 s run while 3 lines are added to $T/msgs.
msgrun() {
	: >"$T/msgs"
	printf '%bsd=sd1,lun=%s,size=1m\nwd=wd1,sd=sd1,xfersize=4k,rdpct=100\nrd=rd1,wd=wd1,iorate=20,elapsed=2,interval=1\n' "$2" "$T/lun6" >"$T/$1.parm"
	(sleep 1; printf 'vdbc27-one\nvdbc27 <two>\nvdbc27-three\n' >>"$T/msgs") &
	expect_rc 0 env VDBC_MESSAGES_FILE="$T/msgs" "$VDBC" -f "$T/$1.parm" -o "$T/o_$1" --port 0 --seed 1
	wait
}
adm() { sed -e 's/<[^>]*>//g' -e 's/&lt;/</g; s/&gt;/>/g' "$T/o_$1/localhost.var_adm_msgs.html"; }
msgrun ms1 ''
expect_out "New messages found on /var/adm/messages. Do they belong to you?"
expect_out "$T/msgs: vdbc27 <two>"
[ "$(adm ms1 | grep -c "^$T/msgs: vdbc27")" = 3 ] && ok || bad "var_adm_msgs.html lacks the 3 new lines"
msgrun ms2 'messagescan=nodisplay\n'
grep -q 'vdbc27' "$T/out" && bad "messagescan=nodisplay: lines on the console" || ok
[ "$(sed -e 's/<[^>]*>//g' "$T/o_ms2/logfile.html" | grep -c "^[0-9:.]* $T/msgs: vdbc27")" = 3 ] && ok || bad "messagescan=nodisplay: not in logfile.html"
msgrun ms3 'messagescan=1\n'
expect_out "* Maximum of 1 $T/msgs messages reported. Shutting down scan."
[ "$(grep -c "$T/msgs: vdbc27" "$T/out")" = 1 ] && ok || bad "messagescan=1: not 1 line on the console"
# nothing readable (as nobody: no /dev/kmsg): logfile.html says so, the
# console does not (vdbench: its slave's log, "Monitoring bypassed")
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
if [ "$(id -u)" != 0 ] || [ -e /var/log/messages ] || ! command -v setpriv >/dev/null; then
	echo "skipped the unreadable-log part: needs root, setpriv and no /var/log/messages"
elif ! nobody "$VDBC" --version >/dev/null 2>&1; then
	# e.g. the build's libraries are under a directory only root reads
	echo "skipped the unreadable-log part: user nobody cannot run $VDBC"
else
	chmod o+x "$T" && mkdir -m 777 "$T/nobody" && cp "$T/ms1.parm" "$T/nobody/n.parm" && chmod 644 "$T/nobody/n.parm" && truncate -s 1m "$T/nobody/lun" && chmod 666 "$T/nobody/lun"
	sed -i "s|lun=[^,]*|lun=$T/nobody/lun|" "$T/nobody/n.parm"
	expect_rc 0 setpriv --reuid=65534 --regid=65534 --clear-groups "$VDBC" -f "$T/nobody/n.parm" -o "$T/nobody/o" --port 0 --seed 1
	grep -q "Monitoring bypassed" "$T/out" && bad "messagescan: the bypass is on the console" || ok
	grep -q "vdbc: messagescan: neither /var/log/messages nor /dev/kmsg can be read on this host. Monitoring bypassed" \
		"$T/nobody/o/logfile.html" && ok || bad "messagescan: no bypass line in logfile.html"
fi
msgrun ms4 'messagescan=no\n'
grep -q 'vdbc27' "$T/out" && bad "messagescan=no: lines on the console" || ok
adm ms4 | grep -q 'vdbc27\|New lines' && bad "messagescan=no: lines in var_adm_msgs.html" || ok

# compratio= under 1: vdbench 5.04.06's words (Patterns.java, its %.0f
# rounding 0.5 up: "Minimum value for compratio=1 is compratio=1").
printf 'compratio=0.5\nsd=sd1,lun=%s/cr,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10,elapsed=2\n' "$T" >"$T/cr.parm"
expect_rc 157 "$VDBC" -s -f "$T/cr.parm"
expect_out "Minimum value for compratio=1 is compratio=1"

# vdbench= on an hd that is this host: vdbench's SlaveStarter runs
# <vdbench=>/vdbench locally too, so vdbc runs <vdbench=>/vdbc; a
# directory without one (a vdbench install) is said, and this vdbc runs.
printf 'hd=h1,system=localhost,vdbench=%s/nodir\nsd=sd1,lun=%s/hv,size=1m\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10,elapsed=2,interval=1\n' "$T" "$T" >"$T/hv.parm"
expect_rc 0 "$VDBC" -f "$T/hv.parm" -o "$T/o_hv" --port 0
expect_out "hd=h1,vdbench=$T/nodir: no vdbc at $T/nodir/vdbc (No such file or directory); its slaves run this vdbc"

# fwdrate= lists with percentages: vdbench 5.04.06's -s "For loops:" text
# keeps the last number and the last percentage, each from its first
# place (issue 26, D9), measured with /opt/vdbref/vdbench -s.
printf 'fsd=fsd1,anchor=%s/fp,depth=1,width=2,files=3,size=8k\nfwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,threads=1\nrd=rd4,fwd=fwd*,fwdrate=(100,50%%,200),format=yes,elapsed=2,interval=1\nrd=rd5,fwd=fwd*,fwdrate=(50%%,100,25%%),format=yes,elapsed=2,interval=1\n' "$T" >"$T/fp.parm"
expect_rc 0 "$VDBC" -s -f "$T/fp.parm" -o "$T/o_fp"
sed 's/^[0-9:.]\{12\} //' "$T/out" | grep '^Simulating RD=rd[45];' >"$T/fp.got"
cat >"$T/fp.want" <<'W'
Simulating RD=rd4; elapsed=2; fwdrate=100; For loops: fwdrate=100
Simulating RD=rd4; elapsed=2; fwdrate=-50; For loops: fwdrate=100 iorate=50%
Simulating RD=rd4; elapsed=2; fwdrate=200; For loops: fwdrate=200 iorate=50%
Simulating RD=rd5; elapsed=2; fwdrate=-50; For loops: iorate=50%
Simulating RD=rd5; elapsed=2; fwdrate=100; For loops: iorate=50% fwdrate=100
Simulating RD=rd5; elapsed=2; fwdrate=-25; For loops: iorate=25% fwdrate=100
W
diff "$T/fp.want" "$T/fp.got" && ok || bad "fwdrate= lists with percentages: -s lines differ from vdbench's"

finish
