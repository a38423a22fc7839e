#!/bin/bash
# summary.html in a real browser: headless Chromium parses the page and
# its inline SVG charts and renders them. Per run: the for-loop charts
# (rate and response time against the loop value), the knee (response
# time against the achieved rate) and the percentiles, one point per run;
# per interval: one line per run, none for the SD_format run.
. "$(dirname "$0")/lib.sh"
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
	echo "skip: no chromium (scripts/test installs it)"
	exit 77
fi
# f2 does not exist: an SD_format run (one interval) creates it first.
cat >"$T/c.parm" <<P
sd=sd1,lun=$T/f1,size=4m,engine=null
sd=sd2,lun=$T/f2,size=1m
wd=wd1,sd=(sd1,sd2),xfersize=4k,rdpct=70
rd=rd1,wd=wd1,iorate=(1000,2000),elapsed=3,interval=1,forthreads=(1,2)
rd=rd2,wd=wd1,iorate=curve,curve=(50,100),elapsed=2,interval=1,threads=2
P
dd if=/dev/zero of="$T/f1" bs=1M count=4 status=none
expect_rc 0 "$VDBC" -f "$T/c.parm" -o "$T/o" --port 0 --seed 7
grep -q "Starting RD=SD_format" "$T/o/logfile.html" && ok || bad "no SD_format run: the test lost its format case"
flags="--headless --no-sandbox --disable-gpu --no-first-run
	--disable-background-networking --disable-component-update"
# shellcheck disable=SC2086
timeout 60 "$browser" $flags --user-data-dir="$T/profile1" \
	--dump-dom "file://$T/o/summary.html" >"$T/dom" 2>/dev/null
grep -q "avg_2-3" "$T/dom" && ok || bad "the browser lost vdbench's text"
# the run links lead to the charts at the end of the page
grep -q 'href="#vdbc_charts"' "$T/dom" && grep -q '<a name="vdbc_charts">' "$T/dom" && ok || bad "no link to the charts"

# Every chart as the browser has it: kind, title, and per series its
# label and number of points, against what results.json says ran.
python3 - "$T/dom" "$T/o/results.json" >"$T/check" 2>&1 <<'PY'
import json, re, sys
dom = open(sys.argv[1]).read()
runs = [r for r in json.load(open(sys.argv[2]))["runs"]
        if r["rd"] != "SD_format" and not r["name"].startswith("format_for_")]
charts = []
for svg in re.findall(r"<svg[^>]*data-kind.*?</svg>", dom, re.S):
    kind = re.search(r'data-kind="([^"]+)"', svg).group(1)
    title = re.search(r'<text[^>]*font-weight="bold"[^>]*>([^<]*)<', svg).group(1)
    series = [(l, int(n)) for n, l in re.findall(
        r'<g class="series" data-points="(\d+)" data-label="([^"]*)"', svg)]
    legends = re.findall(r'class="legend">([^<]*)<', svg)
    pts = [len(p.split()) for p in re.findall(r'<polyline[^>]*points="([^"]*)"', svg)]
    charts.append((kind, title, series, legends, pts))
    if [s[0] for s in series] != legends:
        print("FAIL legends cut or lost in", title, legends)
    if [s[1] for s in series] != pts:
        print("FAIL polyline points differ from data-points in", title)
    style = re.findall(r'<polyline fill="none" stroke="([^"]+)" stroke-width="1.5"( stroke-dasharray="[^"]*")?', svg)
    if len(set(style)) != len(style):
        print("FAIL repeated colour and dash in", title)
    for lab in re.findall(r'<text[^>]*>([^<]*)</text>', svg):
        if re.search(r"\de[+-]\d", lab):
            print("FAIL axis label", lab, "in", title)
def got(kind, rd):
    return [c for c in charts if c[0] == kind and c[1].startswith("rd=%s:" % rd)]
def expect(what, have, want):
    print(("ok " if have == want else "FAIL ") + what, "have", have, "want", want)
rd1 = [r for r in runs if r["rd"] == "rd1"]
rd2 = [r for r in runs if r["rd"] == "rd2"]
expect("runs", (len(rd1), len(rd2)), (4, 3))
# for-loops: threads on x, one line per iorate, a point per run
for kind in ("forloop-rate", "forloop-resp"):
    c = got(kind, "rd1")
    expect(kind + " rd1", [sorted(c[0][2])] if c else None,
           [[("iorate=1000", 2), ("iorate=2000", 2)]])
    expect(kind + " rd1 points = runs", sum(n for _, n in c[0][2]) if c else 0, len(rd1))
    expect(kind + " rd2 (no for-loop)", len(got(kind, "rd2")), 0)
# the knee: rd1 one line per thread count, rd2's curve one line
c = got("knee", "rd1")
expect("knee rd1", sorted(c[0][2]) if c else None, [("threads=1", 2), ("threads=2", 2)])
c = got("knee", "rd2")
expect("knee rd2", c[0][2] if c else None, [("threads=2", len(rd2))])
for rd, n in (("rd1", len(rd1)), ("rd2", len(rd2))):
    c = got("percentiles", rd)
    expect("percentiles " + rd, c[0][2] if c else None,
           [(p, n) for p in ("p50", "p90", "p99", "p99.9", "p99.99")])
    c = got("interval", rd)
    expect("interval charts " + rd, [len(x[2]) for x in c], [n] * 4)
expect("charts of SD_format", [c[1] for c in charts if "SD_format" in c[1]], [])
PY
while read -r word what; do
	case $word in
	ok) ok ;;
	*) bad "$word $what" ;;
	esac
done <"$T/check"
[ "$(grep -c '^ok ' "$T/check")" = 14 ] && ok || { bad "the checks did not all run"; cat "$T/check"; }
# The charts alone, kept beside the test run for a person to look at.
art=${VDBC_ARTIFACTS:-$PWD}
for part in run interval; do
	case $part in
	run) sed -n '/<a name="vdbc_charts">/,/^vdbc: charts per interval/p' "$T/o/summary.html" ;;
	interval) sed -n '/^vdbc: charts per interval/,$p' "$T/o/summary.html" ;;
	esac | { echo "<html><body>"; cat; echo "</body></html>"; } >"$T/charts-$part.html"
	shot=$art/summary-charts-$part.png
	# shellcheck disable=SC2086
	timeout 60 "$browser" $flags --user-data-dir="$T/profile-$part" \
		--hide-scrollbars --window-size=800,2800 --screenshot="$shot" \
		"file://$T/charts-$part.html" >/dev/null 2>&1
	[ "$(stat -c %s "$shot" 2>/dev/null || echo 0)" -gt 10000 ] && ok || bad "no screenshot $shot"
	echo "screenshot: $shot"
done
finish
