#!/bin/bash
# summary.html in a real browser: headless Chromium parses the page and
# its inline SVG charts (one polyline per run and chart), and renders it.
. "$(dirname "$0")/lib.sh"
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
	echo "skip: no chromium (scripts/test installs it)"
	exit 77
fi
cat >"$T/c.parm" <<P
sd=sd1,lun=$T/f1,size=4m,engine=null
wd=wd1,sd=sd1,xfersize=4k,rdpct=70
rd=rd1,wd=wd1,iorate=(1000,2000),elapsed=3,interval=1,forthreads=(1,2)
P
dd if=/dev/zero of="$T/f1" bs=1M count=4 status=none
expect_rc 0 "$VDBC" -f "$T/c.parm" -o "$T/o" --port 0
flags="--headless --no-sandbox --disable-gpu --no-first-run
	--disable-background-networking --disable-component-update"
# shellcheck disable=SC2086
timeout 60 "$browser" $flags --user-data-dir="$T/profile1" \
	--dump-dom "file://$T/o/summary.html" >"$T/dom" 2>/dev/null
n=$(grep -o "<polyline" "$T/dom" | wc -l)
[ "$n" = 16 ] && ok || bad "the browser saw $n chart lines, wanted 16 (4 charts x 4 runs)"
grep -q "avg_2-3" "$T/dom" && ok || bad "the browser lost vdbench's text"
# The charts alone, kept beside the test run for a person to look at.
(echo "<html><body>"; sed -n '/vdbc: charts per interval/,$p' "$T/o/summary.html"; echo "</body></html>") >"$T/charts.html"
shot=${VDBC_ARTIFACTS:-$PWD}/summary-charts.png
# shellcheck disable=SC2086
timeout 60 "$browser" $flags --user-data-dir="$T/profile2" --hide-scrollbars \
	--window-size=760,1000 --screenshot="$shot" "file://$T/charts.html" \
	>/dev/null 2>&1
[ "$(stat -c %s "$shot" 2>/dev/null || echo 0)" -gt 10000 ] && ok || bad "no screenshot"
echo "screenshot: $shot"
finish
