#!/bin/bash
# Run-time fidelity with vdbench (issue 15): range= crossing 100 wraps,
# -s checks the skews, fwdrate=curve points are rate-controlled, the
# data_errors= policies, heartbeat_error=, abort_failed_skew=.
. "$(dirname "$0")/lib.sh"

# Non-zero bytes in 4k blocks [from, from+count) of $1.
nonzero() {
	dd if="$1" bs=4096 skip="$2" count="$3" status=none | tr -d '\000' | wc -c
}

# range=(90,110) on a wd and on an sd: writes land in the last tenth and
# in the first tenth of the lun (past the end they wrap), nowhere else.
for where in wd sd; do
	truncate -s 16m "$T/r_$where"
	if [ $where = wd ]; then
		printf 'sd=sd1,lun=%s/r_wd,threads=1\nwd=wd1,sd=sd1,range=(90,110),rdpct=0\nrd=rd1,wd=wd1,iorate=1000,elapsed=2,interval=1\n' "$T"
	else
		printf 'sd=sd1,lun=%s/r_sd,threads=1,range=(90,110)\nwd=wd1,sd=sd1,rdpct=0\nrd=rd1,wd=wd1,iorate=1000,elapsed=2,interval=1\n' "$T"
	fi >"$T/r_$where.parm"
	expect_rc 0 "$VDBC" -f "$T/r_$where.parm" -o "$T/o_r_$where" --port 0 --seed 11
	top=$(nonzero "$T/r_$where" 3687 409)
	bot=$(nonzero "$T/r_$where" 0 409)
	mid=$(nonzero "$T/r_$where" 420 3250)
	echo "range=(90,110) on $where: last tenth $top, first tenth $bot, middle $mid non-zero bytes"
	[ "$top" -gt 0 ] && [ "$bot" -gt 0 ] && [ "$mid" = 0 ] && ok ||
		bad "range=(90,110) on $where did not wrap to the start of the lun"
done
# A crossing range may not cover 100 % or more (vdbench's words).
printf 'sd=sd1,lun=%s/r_wd\nwd=wd1,sd=sd1,range=(50,150)\nrd=rd1,wd=wd1,iorate=max,elapsed=2\n' "$T" >"$T/r_big.parm"
expect_rc 157 "$VDBC" -f "$T/r_big.parm" -s
expect_out "range=(50,150) may not have a total range of 100% or more"

# -s checks that the skews of an rd add up to 100, as the run does, and
# the run stops before any I/O (no SD_format of the missing lun).
printf 'sd=sd1,lun=%s/sk\nwd=wd1,sd=sd1,skew=60\nwd=wd2,sd=sd1,skew=55\nrd=rdsk,wd=wd*,iorate=max,elapsed=2,interval=1\n' "$T" >"$T/sk.parm"
expect_rc 157 "$VDBC" -f "$T/sk.parm" -s
expect_out "rd=rdsk: Total skew must add up to 100: 115.00"
expect_rc 157 "$VDBC" -f "$T/sk.parm" -o "$T/o_sk" --port 0
expect_out "rd=rdsk: Total skew must add up to 100: 115.00"
[ ! -e "$T/sk" ] && ok || bad "the skew error came after the lun was formatted"

# fwdrate=curve: the curve point runs at its share of the max run's rate
# (it ran unthrottled). The requested rate is in the run line.
mkdir "$T/anc"
printf 'fsd=fsd1,anchor=%s/anc,depth=1,width=2,files=8,size=4k\nfwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,threads=1\nrd=rd1,fwd=fwd1,fwdrate=curve,curve=(20),format=yes,elapsed=2,interval=1\n' "$T" >"$T/fc.parm"
expect_rc 0 "$VDBC" -f "$T/fc.parm" -o "$T/o_fc" --port 0
max=$(grep -A100 'Starting RD=rd1;' "$T/o_fc/logfile.html" | awk '$2 ~ /^avg_/ {print int($3); exit}')
req=$(sed -n 's/.*Starting RD=rd1_(20%); elapsed=2; fwdrate=\([0-9]*\).*/\1/p' "$T/o_fc/logfile.html")
got=$(grep -A100 'Starting RD=rd1_(20%)' "$T/o_fc/logfile.html" | awk '$2 ~ /^avg_/ {print int($3); exit}')
echo "fwdrate=curve: max $max ops/s, 20% point requested ${req:-none}, ran at ${got:-?}"
[ -n "$req" ] && [ -n "$max" ] && [ "$req" -ge $((max / 5)) ] && [ "$req" -le $((max / 5 + 100)) ] && ok ||
	bad "the 20% point did not request a fifth of the max run's rate"
if [ "${VDBC_SANITIZED:-0}" = 0 ]; then
	[ -n "$got" ] && [ "$got" -le $((req * 11 / 10)) ] && [ "$got" -ge $((req * 8 / 10)) ] && ok ||
		bad "the 20% point ran at $got ops/s, not at about $req"
fi

finish
