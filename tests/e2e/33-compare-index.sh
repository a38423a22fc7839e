#!/bin/bash
# vdbc compare and vdbc index on vdbc's output directories and on
# vdbench's own (../shared/reference, when it is there); the index page
# sorted in headless Chromium (when it is there), a screenshot kept;
# hostile directories (FIFOs, /dev/zero, terminal escapes, formulas).
. "$(dirname "$0")/lib.sh"
ref=$VDBC_SRC/../shared/reference/vdbench-5.04.06
[ -d "$ref" ] || ref=$VDBC_SRC/tests/data/reference/vdbench-5.04.06	# the copy

# The first hour: help and version, exit 0, every role named.
for h in --help help -h; do
	expect_rc 0 "$VDBC" $h
	for role in "vdbc slave --listen" "vdbc rsh" "vdbc parseflat" "vdbc compare OLD NEW" "vdbc index DIR" "'-f xxx'" "--seed n" "--version"; do
		expect_out "$role"
	done
done
# scripts/deps.sh waits for another apt's lock (a stand-in apt-get that
# finds the lock held twice), and stops at once on any other failure.
cat >"$T/apt-get" <<'A'
#!/bin/bash
echo "$*" >>"$APT_LOG"
n=$(wc -l <"$APT_LOG")
case $FAKE in
lock) [ "$n" -ge 3 ] && exit 0
	echo "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (apt-get)" >&2; exit 100 ;;
*) echo "E: Unable to locate package nosuch" >&2; exit 100 ;;
esac
A
chmod +x "$T/apt-get"
rc=0
APT_LOG=$T/apt1 FAKE=lock VDBC_APT_GET=$T/apt-get VDBC_APT_LOCK_POLL=0.1 \
	timeout 30 bash -c ". '$VDBC_SRC/scripts/deps.sh'; vdbc_apt_get install -y foo" 2>"$T/apt1.err" || rc=$?
[ "$rc" = 0 ] && [ "$(wc -l <"$T/apt1")" = 3 ] && ok || bad "apt lock: rc $rc after $(wc -l <"$T/apt1") tries, wanted 0 after 3"
grep -q "waiting for the package manager's lock" "$T/apt1.err" && ok || bad "the lock wait is not said"
grep -q "^-o DPkg::Lock::Timeout=600 install -y foo" "$T/apt1" && ok || bad "apt-get without DPkg::Lock::Timeout: $(head -1 "$T/apt1")"
rc=0
APT_LOG=$T/apt2 FAKE=other VDBC_APT_GET=$T/apt-get VDBC_APT_LOCK_POLL=0.1 \
	timeout 30 bash -c ". '$VDBC_SRC/scripts/deps.sh'; vdbc_apt_get install -y nosuch" 2>"$T/apt2.err" || rc=$?
[ "$rc" = 100 ] && [ "$(wc -l <"$T/apt2")" = 1 ] && grep -q "Unable to locate" "$T/apt2.err" && ok || bad "other apt failure: rc $rc, $(wc -l <"$T/apt2") tries"

# scripts/quickstart with the build under test: vdbc installed (into a
# prefix of the test's own), the report where it says, the lun gone.
bdir=$(cd "$(dirname "$VDBC")/.." && pwd)
rc=0
TMPDIR=$T VDBC_NO_INSTALL=1 VDBC_BUILD_DIR=$bdir VDBC_PREFIX=$T/prefix VDBC_QUICKSTART_OUT=$T/qs \
	timeout 120 bash "$VDBC_SRC/scripts/quickstart" >"$T/qs.log" 2>&1 || rc=$?
[ "$rc" = 0 ] && ok || { bad "quickstart: exit $rc"; tail -20 "$T/qs.log"; }
"$T/prefix/bin/vdbc" --version >/dev/null 2>&1 && ok || bad "quickstart did not install vdbc into $T/prefix/bin"
grep -q "vdbc is installed as $T/prefix/bin/vdbc" "$T/qs.log" && ok || bad "quickstart does not say where vdbc is"
grep -q "The report is in $T/qs (start with $T/qs/summary.html)" "$T/qs.log" && [ -s "$T/qs/summary.html" ] &&
	ok || bad "quickstart's report is not where it says"
tmpdata=$(sed -n 's/^The run.s temporary data (\(.*\)) is removed.$/\1/p' "$T/qs.log")
[ -n "$tmpdata" ] && [ ! -e "$tmpdata" ] && ok || bad "quickstart left its temporary data: '$tmpdata'"

# parmfiles/: every example plans under vdbc -s, with the runs it says.
dd if=/dev/zero of="$T/l1" bs=1M count=1 status=none
cp "$T/l1" "$T/l2"
for f in "$VDBC_SRC"/parmfiles/*.parm; do
	case ${f##*/} in
	quick.parm) args=(lun="$T/q") runs=1 want="For loops: None" ;;
	raw-randwrite-threads.parm) args=(lun="$T/l1") runs=6 want="For loops: threads=32" ;;
	fs-format-then-run.parm) args=(dir="$T/anchor") runs=2 want="Simulating RD=format_for_rd1" ;;
	two-hosts-daemons.parm) args=(host1=127.0.0.1 host2=localhost lun1="$T/l1" lun2="$T/l2") runs=1 want="For loops: threads=16" ;;
	rw-mix-matrix.parm) args=(lun="$T/m") runs=20 want="For loops: threads=16 xfersize=256k rdpct=100" ;;
	quick-matrix.parm) args=(target="$T/qm" size=64m time=2) runs=25 want="For loops: threads=8 xfersize=1m" ;;
	*) bad "parmfiles/${f##*/} has no check here"; continue ;;
	esac
	expect_rc 0 "$VDBC" -s -f "$f" -o "$T/sim" "${args[@]}"
	expect_out "$want"
	[ "$(grep -c "Simulating RD=" "$T/out")" = "$runs" ] && ok || bad "${f##*/}: $(grep -c "Simulating RD=" "$T/out") runs, wanted $runs"
	grep -q "a real run would stop here" "$T/out" && bad "${f##*/}: $(grep "would stop" "$T/out")" || ok
done
[ -d "$T/anchor" ] && bad "vdbc -s made the anchor" || ok

# docs/parmfile.md's keyword reference names every keyword of the parser's
# tables (master/parm/parm_*.c), so users need nothing beyond docs/;
# no keyword found means the tables moved: a failure, not a pass.
missing=""
nkw=$(sed -n '/^const struct kwdef [a-z]*_kws\[\] = {/,/^};/p' "$VDBC_SRC"/master/parm/parm_*.c 2>/dev/null | sed -n 's/^\t{ "\([a-z_0-9]*\)".*/\1/p' | wc -l)
[ "$nkw" -gt 100 ] && ok || bad "found $nkw keywords in master/parm/parm_*.c's tables, wanted over 100"
for kw in $(sed -n '/^const struct kwdef [a-z]*_kws\[\] = {/,/^};/p' "$VDBC_SRC"/master/parm/parm_*.c |
	sed -n 's/^\t{ "\([a-z_0-9]*\)".*/\1/p' | sort -u); do
	grep -q "\`$kw\`" "$VDBC_SRC/docs/parmfile.md" || missing="$missing $kw"
done
[ -z "$missing" ] && ok || bad "docs/parmfile.md's Keyword reference lacks:$missing"
grep -n '\.\./shared\|reference/vdbench-5' "$VDBC_SRC"/docs/*.md "$VDBC_SRC"/README.md >"$T/shared" &&
	bad "docs point into ../shared: $(cat "$T/shared")" || ok
# README: its state of the build and its Running block are true
grep -q '^vdbc -f parm -o out --metrics' "$VDBC_SRC/README.md" && ok || bad "README's Running block lacks --metrics"
sed -n '/^Not built yet:/,/^$/p' "$VDBC_SRC/README.md" | tr '\n' ' ' | grep -q 'dedup hot sets, data validation,' &&
	bad "README says data validation is not built" || ok

want=$(sed -n 's/^project(vdbc VERSION \([0-9.]*\).*/\1/p' "$VDBC_SRC/CMakeLists.txt")
expect_rc 0 "$VDBC" --version
[ "$(cat "$T/out")" = "vdbc $want" ] && ok || bad "--version says '$(cat "$T/out")', wanted 'vdbc $want'"

# Two real runs of the same parmfile: every run matches, none only on one side.
cat >"$T/p" <<P
sd=sd1,lun=$T/f1,size=4m,engine=null
wd=wd1,sd=sd1,xfersize=4k,rdpct=70
rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1,forthreads=(1,2)
P
dd if=/dev/zero of="$T/f1" bs=1M count=4 status=none
expect_rc 0 "$VDBC" -f "$T/p" -o "$T/runs/old" --port 0 --seed 1
expect_rc 0 "$VDBC" -f "$T/p" -o "$T/runs/new" --port 0 --seed 2
expect_rc 0 "$VDBC" compare "$T/runs/old" "$T/runs/new" -o "$T/cmp1"
expect_out "rd1 threads=1"
expect_out "rd1 threads=2"
expect_out "2 runs matched"
expect_out "0 only in OLD, 0 only in NEW"
[ -s "$T/cmp1/compare.html" ] && ok || bad "no compare.html"
expect_out "  seed: OLD 1, NEW 2"
grep -q "version:\|substitutions:\|parmfile, only" "$T/out" && bad "inputs that do not differ are listed: $(grep "version:\|substitutions:\|parmfile, only" "$T/out")" || ok

# Hand-made results: the numbers and verdicts are known.
mkres() { # DIR RATE RESP P99 CPU [extra run]
	mkdir -p "$1"
	cat >"$1/results.json" <<J
{"schema":"vdbc-results","schema_version":1,"started":"2026-11-30T10:00:00+0000","runs":[
 {"name":"rd1","for_loops":"threads=4 xfersize=4k","status":"completed","started":"2026-11-30T10:00:01+0000",
  "average":{"rate":$2,"mb_per_s":$(($2 / 256)),"resp_ms":$3,"resp_max_ms":9,"cpu_sys_user_pct":$5,"errors":0,
   "percentiles_ms":{"all":{"p50":0.5,"p90":0.9,"p99":$4,"p99.9":5,"p99.99":7}}}}$6]}
J
}
mkres "$T/h/old" 10240 1.00 2.0 40 ""
mkres "$T/h/new" 5120 1.02 3.0 40 ',{"name":"rd2","for_loops":"None","status":"stopped: slave lost","average":{"rate":1,"errors":3}}'
# the resolved parmfiles (after '* Command line substitutions:') differ
mkparm() { # DIR RDPCT
	printf '<title>Vdbench x/parmfile.html</title><pre>\n\n* Contents of parameter file: p\n\nsd=sd1,lun=$lun\nwd=wd1,sd=sd1,rdpct=$rd\n\n* Command line substitutions: lun=/x rd=%s\n\n* Contents of parameter file: p, with the substitutions resolved\n\nsd=sd1,lun=/x\nwd=wd1,sd=sd1,rdpct=%s\n' "$2" "$2" >"$1/parmfile.html"
}
mkparm "$T/h/old" 70
mkparm "$T/h/new" 30
expect_rc 0 "$VDBC" compare "$T/h/old" "$T/h/new" -o "$T/cmp2"
expect_out "10240.0"
expect_out "Inputs that differ:"
expect_out "  parmfile, only OLD: wd=wd1,sd=sd1,rdpct=70"
expect_out "  parmfile, only NEW: wd=wd1,sd=sd1,rdpct=30"
grep -q "parmfile, only.*sd=sd1,lun=\|rdpct=\$rd" "$T/out" && bad "unchanged or unresolved parmfile lines listed" || ok
grep -q "<code>parmfile, only NEW: wd=wd1,sd=sd1,rdpct=30</code>" "$T/cmp2/compare.html" && ok || bad "compare.html lacks the inputs that differ"
expect_out "-50.0%  worse"
expect_out "+50.0%  worse"
grep -q "+2.0%" "$T/out" && ! grep -q "+2.0%  " "$T/out" && ok || bad "a 2 % change is marked at a 5 % threshold"
expect_out "rd2: only in NEW"
expect_out "1 runs matched, 3 changes above 5.0% (0 better, 3 worse)"
grep -q '<td class="v worse">-50.0%</td>' "$T/cmp2/compare.html" && ok || bad "compare.html lacks the coloured change"
grep -q 'only in NEW' "$T/cmp2/compare.html" && ok || bad "compare.html lacks the unmatched run"
expect_rc 0 "$VDBC" compare "$T/h/new" "$T/h/old" --threshold 1 -o "$T/cmp3"
expect_out "+100.0%  better"
expect_out "-2.0%  better"
expect_out "rd2: only in OLD"
# Format runs are shown apart and never counted as better or worse.
fmtrun='{"name":"SD_format","for_loops":"None","status":"completed","average":{"rate":RATE,"mb_per_s":1}}'
mkres "$T/f/old" 10240 1.00 2.0 40 ",${fmtrun/RATE/900}"
mkres "$T/f/new" 10240 1.00 2.0 40 ",${fmtrun/RATE/90}"
mkdir -p "$T/f/new2" && sed 's/,{"name":"SD_format".*\]}/]}/' "$T/f/old/results.json" >"$T/f/new2/results.json"
expect_rc 0 "$VDBC" compare "$T/f/old" "$T/f/new" -o "$T/cmpf"
expect_out "format runs in OLD (not compared):"
expect_out "  SD_format: rate 900.0"
expect_out "format runs in NEW (not compared):"
expect_out "1 runs matched, 0 changes above 5.0% (0 better, 0 worse), 0 only in OLD, 0 only in NEW"
grep -q "Format runs in NEW (not compared" "$T/cmpf/compare.html" && ok || bad "compare.html does not list the format runs apart"
expect_rc 0 "$VDBC" compare "$T/f/old" "$T/f/new2" -o "$T/cmpf"
expect_out "0 only in OLD, 0 only in NEW"
# An execution that stopped early says so; one that failed before its
# first run is a row of the index with its reason.
mkres "$T/x/stopped" 5120 1.02 3.0 40 ',{"name":"rd2","for_loops":"None","status":"stopped: Stopped by signal 2 (Ctrl-C)"}'
printf '<pre>\n12/01/2026-08:26:54-UTC \tShutting down slaves\n12/01/2026-08:26:54-UTC \tVdbench stopped: Stopped by signal 2 (Ctrl-C)\n' >"$T/x/stopped/status.html"
mkres "$T/x/old" 10240 1.00 2.0 40 ',{"name":"rd2","for_loops":"None","status":"completed","average":{"rate":9}}'
expect_rc 0 "$VDBC" compare "$T/x/old" "$T/x/stopped" -o "$T/cmpx"
expect_out "NEW stopped: Stopped by signal 2 (Ctrl-C)"
expect_out "  NEW: no average"
grep -q "stopped: Stopped by signal 2 (Ctrl-C)" "$T/cmpx/compare.html" && grep -q "NEW: no average" "$T/cmpx/compare.html" &&
	ok || bad "compare.html does not say NEW stopped early"
mkdir -p "$T/x/failed"
echo '{"schema":"vdbc-results","schema_version":1,"runs":[]}' >"$T/x/failed/results.json"
printf '<pre>\n* The values below are all tab-delimited.\n\n' >"$T/x/failed/status.html"
printf '<pre>\n08:24:12.293 vdbc: random seed 1\n08:24:12.293 \n08:24:12.293 Cannot serve --metrics on 127.0.0.1:1: Address already in use\n08:24:12.293 \n' >"$T/x/failed/logfile.html"
expect_rc 0 "$VDBC" index "$T/x" -o "$T/ixx"
grep -q ',vdbc,,,failed: Cannot serve --metrics on 127.0.0.1:1: Address already in use,' "$T/ixx/index.csv" && ok || bad "index.csv has no row for the failed execution"
grep -q '<td class=st>failed: Cannot serve --metrics' "$T/ixx/index.html" && ok || bad "index.html has no row for the failed execution"
expect_rc 0 "$VDBC" compare "$T/x/old" "$T/x/failed" -o "$T/cmpx"
expect_out "NEW failed: Cannot serve --metrics on 127.0.0.1:1: Address already in use"

# Issue 29 item 4: review never hides. Real runs of one parmfile, OLD
# plain and NEW under -v -m 2: every input that differs is listed (the
# options, the hosts' slaves) and the comparison is marked as one of
# different inputs.
cat >"$T/pv" <<P
sd=sd1,lun=$T/fv,size=64m
wd=wd1,sd=sd1,xfersize=4k,rdpct=70
rd=rd1,wd=wd1,iorate=max,elapsed=2,interval=1,threads=2
P
expect_rc 0 "$VDBC" -f "$T/pv" -o "$T/rv/plain" --port 0 --seed 1
expect_rc 0 "$VDBC" -f "$T/pv" -o "$T/rv/dv" --port 0 --seed 1 -v -m 2 -e 2
expect_rc 0 "$VDBC" compare "$T/rv/plain" "$T/rv/dv" -o "$T/cmpv"
expect_out "  options: OLD --port=0, NEW --port=0 -v -m2 -e2"
expect_out "  hosts: OLD localhost (local, 1 slave), NEW localhost (local, 2 slaves)"
expect_out "DIFFERENT INPUTS: OLD and NEW did not run the same workload"
expect_out "the inputs differ (2 differences besides the seed): not a like-for-like comparison"
grep -q 'seed:' "$T/out" && bad "the same seed is listed as differing" || ok
grep -q '<p class=differ id=different-inputs>DIFFERENT INPUTS' "$T/cmpv/compare.html" && ok || bad "compare.html does not mark different inputs"
grep -q '<code>options: OLD --port=0, NEW --port=0 -v -m2 -e2</code>' "$T/cmpv/compare.html" && ok || bad "compare.html lacks the options"
# p50/p99/p99.9 in a sidecar file linked from summary.html (totals.html
# keeps vdbench's columns): the same numbers as results.json's.
grep -q '<A HREF="percentiles.html">vdbc: response time percentiles per run</A>' "$T/rv/plain/summary.html" && ok || bad "summary.html does not link percentiles.html"
grep -c 'percentile\|p99' "$T/rv/plain/totals.html" | grep -qx 0 && ok || bad "totals.html gained percentile text"
python3 - "$T/rv/plain" <<'PY2' && ok || bad "percentiles.html does not hold results.json's percentiles"
import json, re, sys
d = sys.argv[1]
r = [x for x in json.load(open(d + '/results.json'))['runs'] if x['name'] == 'rd1'][0]['average']
want = r['percentiles_ms']
rows = {}
for l in open(d + '/percentiles.html'):
    m = re.match(r'^(avg_\S+) +(all|read|write) +(\d+) +(.*)$', l)
    if m and m.group(1) == r['label']:
        rows[m.group(2)] = [float(v) for v in m.group(4).split()]
for k in ('all', 'read', 'write'):
    got = rows[k]
    for i, p in enumerate(('p50', 'p90', 'p95', 'p99', 'p99.9', 'p99.99', 'max')):
        assert abs(got[i] - want[k][p]) <= 0.0005 + want[k][p] * 1e-6, (k, p, got[i], want[k][p])
PY2
expect_rc 0 "$VDBC" compare "$T/rv/plain" "$T/rv/plain" -o "$T/cmpv0"
expect_out "Inputs that differ: none"
grep -q 'DIFFERENT INPUTS\|inputs differ' "$T/out" && bad "a run compared with itself is marked as different inputs" || ok
# vdbench's directories: the options from logfile.html's scanned arguments
if [ -d "$ref/d1_m2_two_slaves/output" ]; then
	expect_rc 0 "$VDBC" compare "$ref/a_raw_randwrite_4k/output" "$ref/d1_m2_two_slaves/output" -o "$T/cmpvm"
	expect_out "  options: OLD (none), NEW -m2"
fi
# A faster NEW that found corrupted data, had I/O errors, or whose master
# was killed is never "better": the pair is not judged, and says why.
mkres "$T/j/old" 10240 1.00 2.0 40 ""
mkres "$T/j/bad" 20480 0.50 1.0 20 ""
python3 - "$T/j" <<'PY'
import json, sys
d = sys.argv[1]
r = json.load(open(d + '/bad/results.json'))
r['runs'][0]['validation'] = {'key_blocks_validated': 100, 'key_blocks_in_error': 2, 'corrupted_data_blocks': 2, 'data_blocks': []}
json.dump(r, open(d + '/bad/results.json', 'w'))
r['runs'][0].pop('validation'); r['runs'][0]['average']['errors'] = 7
import os; os.makedirs(d + '/ioerr'); json.dump(r, open(d + '/ioerr/results.json', 'w'))
r['runs'][0]['average']['errors'] = 0; r['runs'][0]['status'] = 'running'; r['runs'][0]['intervals'] = [{}, {}]
os.makedirs(d + '/killed'); json.dump(r, open(d + '/killed/results.json', 'w'))
PY
for side in bad ioerr killed; do
	expect_rc 0 "$VDBC" compare "$T/j/old" "$T/j/$side" -o "$T/cmpj"
	grep -q "better" "$T/out" | grep -v "never\|judged" && bad "$side: a run called better" || ok
	grep -Eq "^  rate .*\+100\.0%$" "$T/out" && ok || { bad "$side: the change is not shown unmarked"; cat "$T/out"; }
	expect_out "1 matched run not judged"
	grep -q 'class=unjudged>not judged: NEW' "$T/cmpj/compare.html" && ok || bad "$side: compare.html does not say why the pair is not judged"
	grep -q 'class="v better"' "$T/cmpj/compare.html" && bad "$side: compare.html colours a change better" || ok
done
expect_rc 0 "$VDBC" compare "$T/j/old" "$T/j/bad" -o "$T/cmpj"
expect_out "  not judged better or worse: NEW found corrupted data (2 data blocks)"
expect_rc 0 "$VDBC" compare "$T/j/old" "$T/j/ioerr" -o "$T/cmpj"
expect_out "  not judged better or worse: NEW had 7 I/O errors"
expect_rc 0 "$VDBC" compare "$T/j/bad" "$T/j/old" -o "$T/cmpj"
expect_out "  not judged better or worse: OLD found corrupted data (2 data blocks)"
# index: a column of its own for what went wrong, coloured by kind
# (vdbc's runs here; a vdbc run killed before results.json existed is
# still vdbc's; vdbench's corrupted and killed runs below).
cp -r "$T/rv/plain" "$T/j/nojson"
rm "$T/j/nojson/results.json"
sed -i '/Vdbench complete\|Shutting down/d' "$T/j/nojson/status.html"
expect_rc 0 "$VDBC" index "$T/j" -o "$T/ixj"
grep -q ',vdbc,rd1,.*,CORRUPTED DATA: 2 data blocks,2$' "$T/ixj/index.csv" && ok || bad "index.csv does not show the corruption: $(grep bad "$T/ixj/index.csv")"
grep -q '<td class="pb p-corrupt">CORRUPTED DATA: 2 data blocks</td>' "$T/ixj/index.html" && ok || bad "index.html does not colour the corruption"
grep -q '<td class="pb p-ioerr">I/O errors: 7</td>' "$T/ixj/index.html" && ok || bad "index.html does not colour the I/O errors"
grep -q '<td class="pb p-killed">killed: no end recorded</td>' "$T/ixj/index.html" && ok || bad "index.html does not mark the killed run"
grep '/nojson' "$T/ixj/index.csv" | grep -v SD_format >"$T/nj"
grep -q ',vdbc,rd1,.*,killed: no end recorded,' "$T/nj" && ok || bad "a killed vdbc run without results.json: $(cat "$T/nj")"
grep -q '/j/old,vdbc,rd1,.*completed,.*/summary.html,,$' "$T/ixj/index.csv" && ok || bad "a clean run without validation has a problem or a corrupted count"
if [ -d "$ref/validation/v2a_validate_corrupt_random/output" ]; then
	# vdbench's master killed: its status.html cut before the end
	cp -r "$ref/a_raw_randwrite_4k/output" "$T/vkilled"
	sed -i '/Vdbench complete\|Shutting down/d' "$T/vkilled/status.html"
	expect_rc 0 "$VDBC" index "$ref/validation/v2a_validate_corrupt_random" "$T/vkilled" -o "$T/ixv"
	grep -q ',vdbench,rd1,threads=2,completed,.*,,0$' "$T/ixv/index.csv" && ok || bad "vdbench's clean rd1: $(grep rd1 "$T/ixv/index.csv")"
	grep -q ',vdbench,rd2,threads=2,.*CORRUPTED DATA: [0-9]* data block' "$T/ixv/index.csv" && ok || bad "vdbench's corrupted rd2: $(grep rd2 "$T/ixv/index.csv")"
	grep -q 'vkilled,vdbench,rd1,.*killed: no end recorded' "$T/ixv/index.csv" && ok || bad "vdbench's killed run: $(grep vkilled "$T/ixv/index.csv")"
fi
# Bad input: named, never a crash.
mkdir -p "$T/empty"
expect_rc 1 "$VDBC" compare "$T/empty" "$T/h/old"
expect_out "$T/empty: not an output directory"
expect_rc 1 "$VDBC" compare "$T/h/old" "$T/nosuch"
expect_out "vdbc compare: $T/nosuch: No such file or directory"
: >"$T/afile"
expect_rc 1 "$VDBC" compare "$T/h/old" "$T/h/new" -o "$T/afile"
expect_out "cannot write into '$T/afile': Not a directory"
grep -q "runs matched" "$T/out" && bad "the table printed before a bad -o was found" || ok
expect_rc 2 "$VDBC" compare "$T/h/old" "$T/h/new" --threshold x
expect_out "invalid value for '--threshold': 'x'"
echo '{"schema":"vdbc-results","runs":' >"$T/empty/results.json"
expect_rc 1 "$VDBC" compare "$T/empty" "$T/h/old"
expect_out "$T/empty/results.json: not a readable results.json"
rm "$T/empty/results.json"

# The index of a parent directory: every run of every output directory.
expect_rc 0 "$VDBC" index "$T/runs" "$T/h" -o "$T/ix"
expect_out "index.html: $T/ix/index.html"
[ "$(wc -l <"$T/ix/index.csv")" = 8 ] && ok || bad "index.csv: $(wc -l <"$T/ix/index.csv") lines, wanted 1 + 7 runs"
grep -q ',vdbc,rd2,None,stopped: slave lost,' "$T/ix/index.csv" && ok || bad "index.csv lacks the stopped run"
grep -q ',vdbc,rd1,threads=4 xfersize=4k,completed,2026-11-30 10:00:01,10240,40,1,9,0.5,0.9,2,5,7,40,0,' "$T/ix/index.csv" && ok || bad "index.csv row of h/old wrong"
# every run links into its own summary.html, relative to the index
n=0
for l in $(grep -o 'href="[^"#]*summary.html#[^"]*"' "$T/ix/index.html" | sed 's/href="//; s/#.*//'); do
	[ -f "$T/ix/$l" ] && n=$((n + 1))
done
[ "$n" = 4 ] && ok || bad "$n run links reach a summary.html, wanted 4"
# the same directory given twice or through another path: listed once
expect_rc 0 "$VDBC" index "$T/runs" "$T/runs/old" "$T/runs/../runs" -o "$T/ixd"
[ "$(wc -l <"$T/ixd/index.csv")" = 5 ] && ok || bad "index.csv: $(wc -l <"$T/ixd/index.csv") lines for the same 2 directories, wanted 1 + 4 runs"
# -o in (or at) an output directory it would search: refused, nothing written
expect_rc 1 "$VDBC" index "$T/runs" -o "$T/runs/old"
expect_out "vdbc index: -o $T/runs/old: is an output directory (results.json or flatfile.html in it); give the index a directory of its own"
expect_rc 1 "$VDBC" index "$T/runs" -o "$T/runs/new/sub/x"
expect_out "vdbc index: -o $T/runs/new/sub/x: is in the output directory $T/runs/new;"
[ ! -e "$T/runs/old/index.html" ] && [ ! -e "$T/runs/new/sub" ] && ok || bad "index wrote into an output directory"
# links are URL-encoded: a directory named 'run#2 50%' is reachable
mkres "$T/u/run#2 50%" 100 1.00 2.0 40 ""
: >"$T/u/run#2 50%/summary.html"
expect_rc 0 "$VDBC" index "$T/u" -o "$T/ixu"
grep -q 'href="../u/run%232%2050%25/summary.html"' "$T/ixu/index.html" && ok || bad "index.html's link is not URL-encoded: $(grep -o 'href="[^"]*run[^"]*"' "$T/ixu/index.html" | head -1)"
expect_rc 0 "$VDBC" compare "$T/u/run#2 50%" "$T/u/run#2 50%" -o "$T/cmpu"
grep -q 'href="../u/run%232%2050%25/summary.html"' "$T/cmpu/compare.html" && ok || bad "compare.html's link is not URL-encoded"
expect_rc 1 "$VDBC" index "$T/empty" -o "$T/ix0"
expect_out "no output directory"
[ ! -e "$T/ix0" ] && ok || bad "a failed index left its -o directory"

# vdbench's own directories.
if [ -d "$ref/b_raw_mixed_forloop/output" ]; then
	expect_rc 0 "$VDBC" compare "$ref/a_raw_randwrite_4k/output" "$ref/a_raw_randwrite_4k_rerun/output" --threshold 1 -o "$T/cmp4"
	expect_out "  SD_format threads=2 iorate=max: rate 2048.0"
	expect_out "1 runs matched, 3 changes above 1.0% (2 better, 1 worse), 0 only in OLD, 0 only in NEW"
	grep -Eq "^  cpu% +56\.2 +61\.6 +\+9\.6%  worse" "$T/out" && ok || bad "vdbench's cpu% is not user+sys"
	expect_out "rd1 threads=8"
	grep -Eq "^  rate +41018\.8 +41766\.8 +\+1\.8%  better" "$T/out" && ok || bad "vdbench's rates not compared"
	expect_rc 0 "$VDBC" compare "$ref/b_raw_mixed_forloop/output" "$ref/b_raw_mixed_forloop/output" -o "$T/cmp5"
	expect_out "rd1 threads=4 iorate=2000"
	expect_out "4 runs matched, 0 changes"
	expect_rc 0 "$VDBC" index "$T/runs" "$T/h" "$ref/a_raw_randwrite_4k" "$ref/b_raw_mixed_forloop" "$ref/c_fsd_format_read" -o "$T/ix"
	grep -q ',vdbench,rd1,threads=4 iorate=1000,completed,2026-11-30 10:03:56,925.8,30.9328,0.2936,5.23,,,,,,' "$T/ix/index.csv" && ok || bad "index.csv lacks vdbench's for-loop run"
	grep -q ',vdbench,format_for_rd1,' "$T/ix/index.csv" && ok || bad "index.csv lacks vdbench's format run"
	[ "$(wc -l <"$T/ix/index.csv")" = 16 ] && ok || bad "index.csv: $(wc -l <"$T/ix/index.csv") lines, wanted 1 + 15 runs"
	expect_rc 0 "$VDBC" index "$ref/e_errors/e2_missing_sd" "$ref/validation/v8c_dv_lun_too_small" -o "$T/ixf"
	grep -q ',vdbench,,,"failed: Could not find sd=sd9 for wd=wd1,host=localhost",' "$T/ixf/index.csv" && ok || bad "vdbench's failed e2_missing_sd is not a row"
	grep -q ',vdbench,,,failed: SD size for cache misses not large enough.,' "$T/ixf/index.csv" && ok || bad "vdbench's failed v8c is not a row"
else
	echo "skip (vdbench part): $ref not found beside the project"
fi

# Hostile directories (attacker review 2026-12-04 #10, #11, #12): a
# FIFO summary.html and a /dev/zero flatfile.html are not read (no
# hang, no unbounded line); statuses with terminal escapes print as '?';
# a run named =HYPERLINK(...) is text in index.csv, not a formula.
mkdir -p "$T/hx/a" "$T/hx/b" "$T/hx/zero" "$T/hx/fifo"
python3 - "$T/hx" <<'PY'
import json, sys
d = sys.argv[1]
bad = 'x\u001b]0;PWNED\u0007\u001b[31mRED'
r = {"schema": "vdbc-results", "vdbc_version": "0.1.0", "started": "2026-12-04T10:00:00+0000",
     "runs": [{"name": '=HYPERLINK("http://evil.example/","click")', "for_loops": "None", "status": "stopped: " + bad,
               "started": "x", "average": {"rate": 1, "mb_per_s": 1, "resp_ms": 1, "errors": 0}}]}
json.dump(r, open(d + '/a/results.json', 'w'))
r["runs"][0]["status"] = "completed"
json.dump(r, open(d + '/b/results.json', 'w'))
open(d + '/a/status.html', 'w').write('x\tVdbench stopped: \u001b]0;STATUS\u0007boom\n')
PY
ln -s /dev/zero "$T/hx/zero/flatfile.html"
mkfifo "$T/hx/fifo/summary.html"
echo '{"schema":"vdbc-results","runs":[]}' >"$T/hx/fifo/results.json"
( [ "${VDBC_SANITIZED:-0}" = 1 ] || ulimit -v 2000000; timeout 20 "$VDBC" index "$T/hx/fifo" "$T/hx/zero" -o "$T/hxi1" >"$T/hx1.out" 2>&1 )
rc=$?
[ "$rc" = 0 ] && ok || { bad "index of a FIFO and /dev/zero: exit $rc (124: it hung)"; cat "$T/hx1.out"; }
grep -q "flatfile.html: cannot read: not a regular file" "$T/hx1.out" && ok || { bad "/dev/zero was not refused by name"; cat "$T/hx1.out"; }
( [ "${VDBC_SANITIZED:-0}" = 1 ] || ulimit -v 2000000; timeout 20 "$VDBC" parseflat -i /dev/zero -o "$T/pz.csv" -c run >"$T/pz.out" 2>&1 )
grep -q "/dev/zero (not a regular file" "$T/pz.out" && ok || { bad "parseflat read /dev/zero"; cat "$T/pz.out"; }
timeout 20 "$VDBC" compare "$T/hx/a" "$T/hx/b" -o "$T/hxc" >"$T/hxc.out" 2>&1
[ "$(tr -cd '\033\007' <"$T/hxc.out" | wc -c)" = 0 ] && ok || { bad "compare printed terminal escapes"; cat -v "$T/hxc.out" | head; }
grep -q "OLD: stopped: x?]0;PWNED??\[31mRED" "$T/hxc.out" && ok || { bad "compare lost the status text"; cat -v "$T/hxc.out"; }
timeout 20 "$VDBC" index "$T/hx/a" -o "$T/hxi2" >/dev/null 2>&1
grep -qF ",\"'=HYPERLINK(\"\"http://evil.example/\"\",\"\"click\"\")\"," "$T/hxi2/index.csv" && ok ||
	{ bad "index.csv holds a formula"; cat "$T/hxi2/index.csv"; }

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
	echo "skip (browser part): no chromium (scripts/test installs it)"
	finish
	exit $?
fi
flags="--headless --no-sandbox --disable-gpu --no-first-run
	--disable-background-networking --disable-component-update"
# dom URL: the rate (or other key) column's data-v values in row order
col_order() {
	# shellcheck disable=SC2086
	timeout 60 "$browser" $flags --user-data-dir="$T/profile" \
		--dump-dom "file://$T/ix/index.html#sort=$1" 2>/dev/null >"$T/dom"
	grep -o "class=\"n[a-z ]* c-$2\" data-v=\"[^\"]*\"" "$T/dom" | sed 's/.*data-v="//; s/"$//'
}
rows=$(grep -c '^<tr><td' "$T/ix/index.html")
col_order rate-desc rate >"$T/o1"
[ "$(wc -l <"$T/o1")" = "$rows" ] && ok || bad "the browser saw $(wc -l <"$T/o1") rows, wanted $rows"
grep -v '^$' "$T/o1" | sort -g -r -c && ok || bad "not sorted by rate, descending: $(tr '\n' ' ' <"$T/o1")"
[ "$(head -1 "$T/o1")" != "$(grep -v '^$' "$T/o1" | sort -g | head -1)" ] && ok || bad "sorting did nothing"
grep -q 'class="desc"[^>]*>rate' "$T/dom" || grep -q 'data-k="rate" class="desc"' "$T/dom" && ok || bad "the rate header is not marked"
col_order p99_ms p99_ms >"$T/o2"
# ascending, the runs without p99 (n/a) last
awk '/^$/ { e = 1; next } e { exit 1 }' "$T/o2" && ok || bad "n/a before a number in p99: $(tr '\n' ' ' <"$T/o2")"
grep -v '^$' "$T/o2" | sort -g -c && ok || bad "not sorted by p99: $(tr '\n' ' ' <"$T/o2")"
cshot=${VDBC_ARTIFACTS:-$PWD}/compare-page.png
# shellcheck disable=SC2086
timeout 60 "$browser" $flags --user-data-dir="$T/profile3" --hide-scrollbars \
	--window-size=1500,400 --screenshot="$cshot" "file://$T/cmp2/compare.html" \
	>/dev/null 2>&1
[ "$(stat -c %s "$cshot" 2>/dev/null || echo 0)" -gt 10000 ] && ok || bad "no compare screenshot"
echo "screenshot: $cshot"
shot=${VDBC_ARTIFACTS:-$PWD}/index-page.png
# shellcheck disable=SC2086
timeout 60 "$browser" $flags --user-data-dir="$T/profile2" --hide-scrollbars \
	--window-size=1800,600 --screenshot="$shot" "file://$T/ix/index.html#sort=rate-desc" \
	>/dev/null 2>&1
[ "$(stat -c %s "$shot" 2>/dev/null || echo 0)" -gt 10000 ] && ok || bad "no screenshot"
echo "screenshot: $shot"
finish
