#!/bin/bash
# Every write to the output directory is checked: a report or results.json
# that cannot be written (in the way, disk full) stops the run naming the
# file and errno, with a non-zero exit and never "completed successfully".
# Text from the parmfile and from slaves is HTML-escaped in every page
# (Chromium shows it literally and runs no script of it) and reaches the
# console without control characters.
. "$(dirname "$0")/lib.sh"
MNT=""
# umount_mnt: unmount the test's tmpfs (retried while a process of the
# run still lets go of it).
umount_mnt() {
	local i
	for i in 1 2 3 4 5; do
		umount "$MNT" 2>/dev/null && { MNT=""; return 0; }
		sleep 1
	done
	return 1
}
cleanup_mnt() {
	[ -n "$MNT" ] && umount_mnt
	cleanup
}
trap cleanup_mnt EXIT

# run_fails NAME CMD...: CMD exits non-zero (not a timeout), output in
# $T/NAME.log, and never says "completed successfully".
run_fails() {
	local name=$1 rc; shift
	timeout 60 "$@" >"$T/$name.log" 2>&1
	rc=$?
	if [ "$rc" != 0 ] && [ "$rc" != 124 ]; then ok; else
		bad "$name: exit $rc, wanted a failure"; cat "$T/$name.log"; fi
	if grep -q "completed successfully" "$T/$name.log"; then
		bad "$name: says completed successfully"; else ok; fi
}
# says NAME TEXT: $T/NAME.log has TEXT.
says() {
	if grep -qF -- "$2" "$T/$1.log"; then ok; else
		bad "$1: output lacks: $2"; cat "$T/$1.log"; fi
}

cat >"$T/p.parm" <<P
sd=sd1,lun=$T/f1,size=1m,engine=null
wd=wd1,sd=sd1,xfersize=4k,rdpct=70
rd=rd1,wd=wd1,iorate=200,elapsed=2,interval=1
P
dd if=/dev/zero of="$T/f1" bs=1M count=1 status=none

# 1. results.json cannot be written (a directory where its temporary
# file goes): found when the run ends, before any success.
mkdir -p "$T/o1/results.json.tmp"
run_fails o1 "$VDBC" -f "$T/p.parm" -o "$T/o1" --port 0 --seed 1
says o1 "Cannot write $T/o1/results.json.tmp (written, then renamed over it): Is a directory"
grep -q "Cannot write $T/o1/results.json.tmp (written, then renamed over it): Is a directory" "$T/o1/errorlog.html" &&
	ok || bad "errorlog.html lacks the results.json failure"

# 1b. A symbolic link left where results.json's temporary goes (a reused
# -o, the master as root) is never followed: the run stops naming the
# path, and the link's target is untouched. (Report pages replace what
# stands at their names: a link there is removed, its target kept.)
mkdir -p "$T/ol"
echo precious >"$T/victim"
echo precious >"$T/victim2"
ln -s "$T/victim" "$T/ol/results.json.tmp"
ln -s "$T/victim2" "$T/ol/sd1.html"
run_fails ol "$VDBC" -f "$T/p.parm" -o "$T/ol" --port 0 --seed 1
says ol "Cannot write $T/ol/results.json.tmp (written, then renamed over it): Too many levels of symbolic links"
[ "$(cat "$T/victim")" = precious ] && ok || bad "the link at results.json.tmp was followed: its target was written"
[ "$(cat "$T/victim2")" = precious ] && ok || bad "the link at sd1.html was followed: its target was written"
# 1c. Names become file names: a '/' in one is refused where it stands.
printf 'sd="../../trav",lun=%s/f1,size=1m,engine=null\nwd=wd1,sd=*\nrd=rd1,wd=wd1,iorate=10,elapsed=1,interval=1\n' "$T" >"$T/trav.parm"
run_fails trav "$VDBC" -f "$T/trav.parm" -o "$T/otrav" --port 0
says trav "trav.parm:1:1: sd=../../trav: a name may not contain '/'"
[ -e "$T/trav.html" ] && bad "a report was written outside -o" || ok

# 2. A report file cannot be created: the sd's own page.
mkdir -p "$T/o2/sd1.html"
run_fails o2 "$VDBC" -f "$T/p.parm" -o "$T/o2" --port 0 --seed 1
says o2 "Cannot write report file $T/o2/sd1.html: Is a directory"
# found before any I/O: no interval line, no run started
grep -q "Starting RD=" "$T/o2.log" && bad "o2: a run started before the report failure was seen" || ok
# 2b. The same for a key's histogram page and for a host/sd page
# (report=host_detail): every page report_key_add opens is checked.
mkdir -p "$T/o2h/sd1.histogram.html"
run_fails o2h "$VDBC" -f "$T/p.parm" -o "$T/o2h" --port 0 --seed 1
says o2h "Cannot write report file $T/o2h/sd1.histogram.html: Is a directory"
{ echo "report=host_detail"; cat "$T/p.parm"; } >"$T/phd.parm"
mkdir -p "$T/o2d/localhost.sd1.html"
run_fails o2d "$VDBC" -f "$T/phd.parm" -o "$T/o2d" --port 0 --seed 1
says o2d "Cannot write report file $T/o2d/localhost.sd1.html: Is a directory"

# 3. The output directory's file system fills up mid-run (the attacker
# review's repro: a 64 KiB tmpfs, 30 intervals).
if [ "$(id -u)" = 0 ] && mkdir -p "$T/mnt" &&
    mount -t tmpfs -o size=64k tmpfs "$T/mnt" 2>/dev/null; then
	MNT=$T/mnt
	cat >"$T/p3.parm" <<P
sd=sd1,lun=$T/f1,size=1m,engine=null
wd=wd1,sd=sd1,xfersize=4k,rdpct=50
rd=rd1,wd=wd1,iorate=200,elapsed=30,interval=1
P
	start=$(date +%s)
	run_fails o3 "$VDBC" -f "$T/p3.parm" -o "$T/mnt/out" --port 0 --seed 1
	took=$(($(date +%s) - start))
	says o3 "Cannot write report file $T/mnt/out/"
	says o3 ": No space left on device"
	if [ "${VDBC_SANITIZED:-0}" != 1 ]; then
		# it stops at the first interval that cannot be written
		[ "$took" -lt 20 ] && ok || bad "the full disk was found only after $took s"
	fi
	umount_mnt || bad "cannot unmount $MNT"
else
	echo "note: not root or no tmpfs mount: the disk-full case is skipped"
fi

# 4. Script in an rd name, a parmfile comment and (from the slave) a lun
# path with a terminal escape code in it.
D="$T/<svg onload=document.title='HACKED'+'2'>"$'\033[31m'
mkdir -p "$D"
cat >"$T/p4.parm" <<P
* <script>document.title='HACKED'+'3'</script> & more
sd=sd1,lun=$T/f1,size=1m,engine=null
wd=wd1,sd=sd1,xfersize=4k,rdpct=70
rd="<script>document.title='HACKED'+'1'</script>",wd=wd1,iorate=200,elapsed=2,interval=1
P
expect_rc 0 "$VDBC" -f "$T/p4.parm" -o "$T/o4" --port 0 --seed 1
cp "$T/out" "$T/o4.log"
printf 'sd=sd1,lun="%s",size=1m\nwd=wd1,sd=sd1,xfersize=4k\nrd=rd1,wd=wd1,iorate=100,elapsed=2,interval=1\n' \
	"$D" >"$T/p5.parm"
run_fails o5 "$VDBC" -f "$T/p5.parm" -o "$T/o5" --port 0 --seed 1
says o5 "open failed: Is a directory"
for f in o4.log o5.log; do
	if grep -q $'\033' "$T/$f"; then bad "$f: a control character reached the console"; else ok; fi
done
says o5 "<svg onload=document.title='HACKED'+'2'>?[31m"
# A host label with markup: it names the slave, its pages and their links.
cat >"$T/p6.parm" <<P
hd="<svg onload=document.title='HACKED'+'4'>",system=localhost
sd=sd1,lun=$T/f1,size=1m,engine=null
wd=wd1,sd=sd1,xfersize=4k,rdpct=70
rd=rd1,wd=wd1,iorate=200,elapsed=2,interval=1
P
expect_rc 0 "$VDBC" -f "$T/p6.parm" -o "$T/o6" --port 0 --seed 1
[ "$(ls "$T"/o6/*HACKED*.html 2>/dev/null | wc -l)" -ge 3 ] && ok ||
	bad "the host's and slave's pages are missing"
grep -qF "&lt;svg onload=document.title=&#39;HACKED&#39;+&#39;4&#39;&gt;-0" \
	"$T"/o6/*-0.stdout.html && ok || bad "the slave's page lacks its escaped name"
# No page holds the markup itself.
for f in "$T"/o4/*.html "$T"/o5/*.html "$T"/o6/*.html; do
	if grep -qE "<(script|svg onload)" "$f"; then bad "$f holds the parmfile's markup"; else ok; fi
done
grep -qF "&lt;script&gt;document.title=&#39;HACKED&#39;+&#39;1&#39;&lt;/script&gt;" \
	"$T/o4/summary.html" && ok || bad "summary.html lacks the escaped rd name"
grep -qF "&lt;script&gt;document.title=&#39;HACKED&#39;+&#39;3&#39;&lt;/script&gt; &amp; more" \
	"$T/o4/parmfile.html" && ok || bad "parmfile.html lacks the escaped comment"

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
	echo "note: no chromium: pages checked by grep only (scripts/test installs it)"
	finish
	exit $?
fi
flags="--headless --no-sandbox --disable-gpu --no-first-run
	--disable-background-networking --disable-component-update"
n=0
for page in o4/summary.html o4/totals.html o4/logfile.html o4/parmfile.html \
    o4/parmscan.html o4/flatfile.html o4/status.html o4/skew.html \
    o4/sd1.html o5/errorlog.html o5/logfile.html o5/summary.html \
    o6/summary.html o6/status.html o6/logfile.html; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	timeout 60 "$browser" $flags --user-data-dir="$T/profile$n" \
		--dump-dom "file://$T/$page" >"$T/dom$n" 2>/dev/null
	if ! grep -q "<pre>" "$T/dom$n"; then
		bad "$page: the browser showed nothing"
	elif grep -q "HACKED[0-9]" "$T/dom$n"; then
		bad "$page: a script from the parmfile or a slave ran"
	else
		ok
	fi
done
for page in 1:summary 2:totals 3:logfile; do
	grep -qF "&lt;script&gt;document.title='HACKED'+'1'&lt;/script&gt;" \
		"$T/dom${page%%:*}" && ok || bad "${page#*:}.html does not show the rd name as text"
done
grep -qF "&lt;script&gt;document.title='HACKED'+'3'&lt;/script&gt; &amp; more" "$T/dom4" &&
	ok || bad "parmfile.html does not show the comment as text"
grep -qF "&lt;svg onload=document.title='HACKED'+'2'&gt;" "$T/dom10" &&
	ok || bad "errorlog.html does not show the slave's text as text"
echo "pages checked in chromium: $n"
finish
