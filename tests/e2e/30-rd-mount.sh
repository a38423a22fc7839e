#!/bin/bash
# rd=...,mount="options" (issue 15, section 3): before each run of that
# rd the hd's mount= command again with the rd's options in place of its
# own (unmounted first), the commands and their output in logfile.html; a
# failing remount stops the execution before the rd's I/O; a remote host
# stays refused by name. The mounts are real tmpfs mounts in a mount
# namespace of the test's own (unshare -m), so nothing stays mounted.
. "$(dirname "$0")/lib.sh"

# 1. What needs no mount: the parser's checks and the remote host.
printf 'sd=sd1,lun=%s/lun,size=1m\nwd=wd1,sd=sd1,xfersize=4k,rdpct=100\nrd=rd1,wd=wd1,iorate=20,elapsed=2,interval=1,mount="-o ro"\n' "$T" >"$T/p0.parm"
expect_rc 157 "$VDBC" -s -f "$T/p0.parm" -o "$T/o_p0"
expect_out "rd=rd1: 'mount=' requires an 'hd=...,mount=\"mount ...\"' command to remount"
sed "1i hd=localhost,mount=\"mount -t tmpfs vdbc30 $T/mp\"" "$T/p0.parm" | sed 's|mount="-o ro"|mount="mount -o ro"|' >"$T/p1.parm"
expect_rc 157 "$VDBC" -s -f "$T/p1.parm" -o "$T/o_p1"
expect_out "rd=rd1: 'mount=' holds the options of the hd's mount= command, and may not start with 'mount'"
# an option without its value: refused before anything is mounted and
# before the first run (the hd's command word is true(1): this part runs
# outside a mount namespace)
sed "1i hd=localhost,mount=\"true -t tmpfs vdbc30 $T/mp\"" "$T/p0.parm" | sed 's|mount="-o ro"|mount="-o"|' >"$T/p2.parm"
printf 'rd=rd0,wd=wd1,iorate=20,elapsed=2,interval=1\n' | cat "$T/p2.parm" - >"$T/p2b.parm"
expect_rc 157 "$VDBC" -f "$T/p2b.parm" -o "$T/o_p2" --port 0 --seed 1
expect_out "rd=rd1,mount=\"-o\": option '-o' needs a value"
[ ! -e "$T/lun" ] && ok || bad "rd mount=\"-o\": I/O was done before the refusal"
grep -q 'Starting RD=' "$T/o_p2/logfile.html" && bad "rd mount=\"-o\": a run started" || ok
grep -q 'hd=localhost: mount: ' "$T/o_p2/logfile.html" && bad "rd mount=\"-o\": the hd's command ran first" || ok
# a remote host with mount= stays refused by name, before any slave
sed "1i hd=localhost\nhd=far,system=192.0.2.1,mount=\"true -t tmpfs vdbc30 $T/mp\"" "$T/p0.parm" >"$T/p3.parm"
expect_rc 157 "$VDBC" -f "$T/p3.parm" -o "$T/o_p3" --port 0 --seed 1
expect_out "hd=far,mount=: vdbc runs mount commands only on the master's own host"
[ ! -e "$T/lun" ] && ok || bad "remote hd mount=: I/O was done before the refusal"

if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null; then
	echo "skipped: the remounts need root and unshare"
	finish || exit 1
	exit 77
fi
if ! unshare -m sh -c 'mount --make-rprivate / && mkdir -p "$1" && mount -t tmpfs vdbc30 "$1" && umount "$1"' sh "$T/try" 2>"$T/try.err"; then
	echo "skipped: no mount namespace or no tmpfs mount here: $(cat "$T/try.err")"
	finish || exit 1
	exit 77
fi

# 2. Three rds: rd1 keeps the hd's mount (rw, size=1m), rd2 remounts it
# read-only at 2m, rd3 (two runs: forthreads) at 3m and rw again. Each
# rd's startcmd records the mount as the kernel has it during that run;
# the lun lives outside the mount (a tmpfs remount starts empty).
S="grep ' $T/mp ' /proc/self/mounts >>$T/opts"
cat >"$T/r.parm" <<EOF
hd=localhost,mount="mount -t tmpfs -o size=1m vdbc30 $T/mp"
sd=sd1,lun=$T/lun,size=1m
wd=wd1,sd=sd1,xfersize=4k,rdpct=100
rd=rd1,wd=wd1,iorate=20,elapsed=2,interval=1,startcmd=("$S",master)
rd=rd2,wd=wd1,iorate=20,elapsed=2,interval=1,mount="-o ro,size=2m",startcmd=("$S",master)
rd=rd3,wd=wd1,iorate=20,elapsed=2,interval=1,forthreads=(1,2),mount="-o rw,size=3m",startcmd=("$S",master)
EOF
cat >"$T/r.sh" <<EOS
mount --make-rprivate / 2>/dev/null
"$VDBC" -f "$T/r.parm" -o "$T/o_r" --port 0 --seed 1 || exit \$?
grep -c " $T/mp " /proc/self/mounts >"$T/r.count"
EOS
expect_rc 0 unshare -m bash "$T/r.sh"
expect_out "rd=rd2,hd=localhost: mount: mount -t tmpfs -o ro,size=2m vdbc30 $T/mp"
expect_out "rd=rd3,hd=localhost: mount: mount -t tmpfs -o rw,size=3m vdbc30 $T/mp"
# what the kernel had during each run: options field of /proc/self/mounts
awk '{ o = ""; n = split($4, a, ","); for (i = 1; i <= n; i++) if (a[i] ~ /^(ro|rw|size=)/) o = o (o == "" ? "" : ",") a[i]; print o }' "$T/opts" >"$T/seen"
want=$(printf 'rw,size=1024k\nro,size=2048k\nrw,size=3072k\nrw,size=3072k')
[ "$(cat "$T/seen")" = "$want" ] && ok || bad "mount options per run: $(paste -sd' ' "$T/seen"), wanted $(echo "$want" | paste -sd' ')"
# once per run of rd3, each after an unmount, logged with the command
[ "$(grep -c "rd=rd3,hd=localhost: mount: " "$T/o_r/logfile.html")" = 2 ] && ok || bad "rd3's two runs: not two remounts"
[ "$(grep -c "rd=rd3,hd=localhost: unmount: umount -f" "$T/o_r/logfile.html")" = 2 ] && ok || bad "rd3's remounts: not unmounted first"
grep -q "rd=rd1,hd=localhost: mount: " "$T/o_r/logfile.html" && bad "rd1 (no mount=) was remounted" || ok
[ "$(cat "$T/r.count")" = 1 ] && ok || bad "not mounted exactly once at the end: $(cat "$T/r.count")"
grep -q " $T/mp " /proc/self/mounts && bad "the mount leaked out of the namespace" || ok

# 3. A remount that fails stops the execution before rd2 does any I/O,
# naming the rd, the host, the command and mount(8)'s reason; rd1 ran.
sed 's|mount="-o ro,size=2m"|mount="-o vdbc30_no_such_option=1"|' "$T/r.parm" >"$T/f.parm"
cat >"$T/f.sh" <<EOS
mount --make-rprivate / 2>/dev/null
"$VDBC" -f "$T/f.parm" -o "$T/o_f" --port 0 --seed 1
EOS
rm -f "$T/opts"
expect_rc 157 unshare -m bash "$T/f.sh"
expect_out "rd=rd2,hd=localhost: Mount of file system failed: 'mount -t tmpfs -o vdbc30_no_such_option=1 vdbc30 $T/mp' exited with status 32: mount: "
grep -q 'Starting RD=rd1;' "$T/o_f/logfile.html" && ok || bad "rd1 did not run before the failing remount"
grep -q 'Starting RD=rd2;' "$T/o_f/logfile.html" && bad "rd2 started after its remount failed" || ok
grep -q 'output: mount: ' "$T/o_f/logfile.html" && ok || bad "mount's output is not in logfile.html"
[ "$(wc -l <"$T/opts")" = 1 ] && ok || bad "startcmd ran $(wc -l <"$T/opts") times, wanted once (rd1 only)"

finish
