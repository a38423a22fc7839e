#!/bin/bash
# The YAML form: a hand-written YAML parmfile plans like its vdbench twin;
# errors point into the YAML file; and --dump=yaml of every parmfile we
# have (parmfiles/, the section 14 style cases here, and the corpus when
# ../shared is there) reads back to the identical model.
. "$(dirname "$0")/lib.sh"

cat >"$T/t.yaml" <<'Y'
# T03 in YAML
sd:
  - { sd: sd1, lun: /dev/sdb }
wd:
  - { wd: wd1, sd: sd1 }
rd:
  - rd: rd1
    wd: wd1
    iorate: max
    elapsed: 10
    interval: 1
    forxfersize: [4k, 64k]
    forthreads: "(1-8,7)"
    forrdpct: [0, 100]
Y
expect_rc 0 "$VDBC" -s -f "$T/t.yaml" -o "$T/o"
n=$(grep -c "Simulating RD=rd1; I/O rate: Uncontrolled MAX; elapsed=10; For loops: " "$T/out")
[ "$n" = 8 ] && ok || bad "YAML T03 gave $n runs"
expect_out "For loops: xfersize=64k threads=8 rdpct=100"

printf 'sd:\n  - { sd: sd1, lun: /dev/sdb }\nwd:\n  - { wd: wd1, sd: sd1, xfersise: 4k }\n' >"$T/bad.yaml"
expect_rc 157 "$VDBC" -s -f "$T/bad.yaml" -o "$T/o"
expect_out "$T/bad.yaml:4:25: Unknown keyword: xfersise (did you mean 'xfersize='?)"
printf 'sd:\n  - { sd: sd1, lun: [/dev/sdb\n' >"$T/broken.yaml"
expect_rc 157 "$VDBC" -s -f "$T/broken.yaml" -o "$T/o"
expect_out "$T/broken.yaml:"
expect_out "YAML:"
printf 'disks:\n  - { sd: sd1 }\n' >"$T/sect.yaml"
expect_rc 157 "$VDBC" -s -f "$T/sect.yaml" -o "$T/o"
expect_out "unknown section 'disks'"

# round_trip FILE [vars...]: json(FILE) == json(yaml(FILE)).
round_trip() {
	local f=$1 dir
	shift
	dir=$(dirname "$f")
	(cd "$dir" && timeout 20 "$VDBC" -s --dump=json -f "$f" -o "$T/o" "$@") >"$T/a.json" 2>/dev/null || return 2
	(cd "$dir" && timeout 20 "$VDBC" -s --dump=yaml -f "$f" -o "$T/o" "$@") >"$T/x.yaml" 2>/dev/null
	timeout 20 "$VDBC" -s --dump=json -f "$T/x.yaml" -o "$T/o" >"$T/b.json" 2>"$T/err"
	cmp -s "$T/a.json" "$T/b.json"
}
for f in "$VDBC_SRC"/parmfiles/*.parm; do
	# each $name the example leaves to the command line gets a value:
	# a host, a size, a time or a path
	# shellcheck disable=SC2046
	round_trip "$f" $(grep -v '^\*' "$f" | grep -o '\$[a-z][a-z0-9_]*' |
	    sort -u | sed 's|^\$\(host.*\)|\1=127.0.0.1|; s|^\$\(size\)$|\1=1g|;
	    s|^\$\(time\)$|\1=4|; s|^\$\([^=]*\)$|\1=/tmp/x|') &&
		ok || bad "YAML round trip of $f"
done
cat >"$T/mix.parm" <<'P'
compratio=2
histogram=(default,100,200,100,1000,suppress)
hd=default,jvms=2
hd=localhost,system=localhost
sd=default,threads=4,openflags=(o_direct,o_sync)
sd=sd1,host=localhost,lun="/tmp/a file",size=(10g,4),range=(10,90),offset=4096,align=8192
sd=sd%d,lun=/tmp/f%02d,count=(2,3),size=1m,engine=null,align=4k
wd=default,xfersize=(4k,25,8k,75),rhpct=10,whpct=5
wd=wd1,sd=sd*,seekpct=eof,rdpct=0,skew=40
wd=wd2,sd=(sd2-sd4),xfersize=(4k,64k,4k),seekpct=30,hotband=(10,14)
rd=default,elapsed=20,interval=2,warmup=4,pause=3
rd=rd1,wd=wd*,iorate=(100,200,max,50%),forthreads=(1-4,1),forxfersize=(64k-4k,d),maxdata=2
rd=rd2,sd=sd1,iorate=curve,curve=(20,80),distribution=uniform,openflags=o_sync
P
round_trip "$T/mix.parm" && ok || { bad "YAML round trip of a mixed parmfile"; diff "$T/a.json" "$T/b.json" | head; cat "$T/err"; }
cat >"$T/fs.parm" <<'P'
fsd=default,depth=2,width=3,files=5
fsd=fsd1,anchor=/tmp/a1,sizes=(4k,40,1m,60),totalsize=10m,shared=yes
fsd=fs,anchor=/tmp/b,count=(1,2),distribution=all,sizes=(64k,0)
fwd=format,threads=4,xfersize=64k
fwd=default,xfersize=(4k,50,8k,50),fileio=random,fileselect=random,threads=8
fwd=fwd1,fsd=fsd1,operation=read,rdpct=70,stopafter=50%
fwd=fwd2,fsd=fs*,operation=write,fileio=(sequential,delete),fileselect=once,skew=30
fwd=fwd3,fsd=fsd1,operation=copy,target=fs1,fileio=(random,shared)
rd=rd1,fwd=fwd*,fwdrate=(100,200),format=(restart,once),forthreads=(2,4),elapsed=10,interval=1
rd=rd2,fwd=fwd1,fwdrate=max,format=only,foroperations=(read,getattr),elapsed=10,interval=1
P
round_trip "$T/fs.parm" && ok || { bad "YAML round trip of a file-system parmfile"; diff "$T/a.json" "$T/b.json" | head; cat "$T/err"; }
shared=$VDBC_SRC/../shared/corpus
if [ -d "$shared/parmfiles" ]; then
	n=0
	for f in "$shared"/parmfiles/*.parm; do
		name=$(basename "$f" .parm)
		[ "$(cat "$shared/vdbench-simulate/$name.rc")" = 0 ] || continue
		round_trip "$f" && ok || bad "YAML round trip of corpus $name"
		n=$((n + 1))
	done
	echo "round trip over $n corpus files"
else
	echo "skip: no ../shared corpus for the round trip"
fi
finish
