#!/bin/bash
# Fleet set-up (docs/fleet.md), checked offline: the systemd unit with
# systemd-analyze verify (its vdbc path pointed at the build under test;
# any warning fails) and its ExecStart run for real (the daemon listens,
# and refuses a token others can read); the Kubernetes manifests with a
# structural check in python3 (not the API server's OpenAPI schema: kinds
# and apiVersions, the fields used against the Kubernetes API's names,
# selectors that select, every volume, Secret, ConfigMap key and claim
# referred to defined, the token's mode, the daemon's port and command),
# and the master Job's script run with a stand-in getent, its generated
# parmfile planned by vdbc -s.
. "$(dirname "$0")/lib.sh"
D=$VDBC_SRC/deploy

# The unit. systemd-analyze verify needs a systemd it can reach: in a
# bare chroot (tools/fresh-machine) it fails on any unit, so a trivial
# unit is verified first and the part skipped, with the reason, if that
# fails too.
printf '[Service]\nExecStart=/bin/true\n' >"$T/probe.service"
if ! command -v systemd-analyze >/dev/null; then
	echo "skip (unit part): no systemd-analyze (scripts/test installs systemd)"
elif ! systemd-analyze verify "$T/probe.service" >"$T/probe.out" 2>&1 ||
	[ -s "$T/probe.out" ]; then
	echo "skip (unit part): systemd-analyze cannot verify even a trivial unit here: $(head -c 300 "$T/probe.out")"
else
	sed "s|/usr/local/bin/vdbc|$VDBC|" "$D/systemd/vdbc-slave.service" >"$T/vdbc-slave.service"
	systemd-analyze verify "$T/vdbc-slave.service" >"$T/verify" 2>&1
	rc=$?
	[ "$rc" = 0 ] && [ ! -s "$T/verify" ] && ok || { bad "systemd-analyze verify: rc $rc"; cat "$T/verify"; }
	# a typo is a warning there, so any output fails: the check can fail
	sed 's/^Restart=/Restrat=/' "$T/vdbc-slave.service" >"$T/bad.service"
	systemd-analyze verify "$T/bad.service" >"$T/verify2" 2>&1
	grep -q "Unknown key 'Restrat'" "$T/verify2" && ok || bad "systemd-analyze verify does not see a typo: $(cat "$T/verify2")"
fi
grep -q '^Restart=always$' "$D/systemd/vdbc-slave.service" && grep -q '^StandardError=journal$' "$D/systemd/vdbc-slave.service" &&
	ok || bad "the unit does not restart or log to the journal"
# ExecStart as systemd runs it: ${VDBC_LISTEN} from Environment=
listen=$(sed -n 's/^Environment=VDBC_LISTEN=//p' "$D/systemd/vdbc-slave.service")
[ "$listen" = 0.0.0.0:5560 ] && ok || bad "the unit's default address: '$listen'"
cmd=$(sed -n 's/^ExecStart=//p' "$D/systemd/vdbc-slave.service")
cmd=${cmd//\/usr\/local\/bin\/vdbc/$VDBC}
cmd=${cmd//\$\{VDBC_LISTEN\}/127.0.0.1:0}
cmd=${cmd//\/etc\/vdbc\/token/$T/token}
"$VDBC" slave --gen-token "$T/token" >/dev/null 2>&1
# shellcheck disable=SC2086
$cmd >"$T/d.log" 2>&1 &
PIDS="$PIDS $!"
wait_for "$T/d.log" "slave daemon listening on 127.0.0.1:" 10 && ok || { bad "the unit's ExecStart did not listen"; cat "$T/d.log"; }
kill $! 2>/dev/null
chmod 0644 "$T/token"
# shellcheck disable=SC2086
timeout 10 $cmd >"$T/d2.log" 2>&1
grep -q "$T/token" "$T/d2.log" && ok || { bad "the daemon took a token others can read"; cat "$T/d2.log"; }

# The manifests.
py=""
for p in python3 /usr/bin/python3; do
	"$p" -c 'import yaml' 2>/dev/null && { py=$p; break; }
done
if [ -z "$py" ]; then
	echo "skip (manifest part): no python3 with yaml (scripts/test installs python3-yaml)"
	finish
	exit $?
fi
cat >"$T/k8s.py" <<'PY'
import sys, yaml
docs = [d for f in sys.argv[1:] for d in yaml.safe_load_all(open(f)) if d]
bad = []
def need(c, why):
    if not c: bad.append(why)
API = {'DaemonSet': 'apps/v1', 'Job': 'batch/v1', 'Service': 'v1',
       'ConfigMap': 'v1', 'PersistentVolumeClaim': 'v1', 'Secret': 'v1'}
# field names of the Kubernetes API (core/v1, apps/v1, batch/v1) used here
POD = {'containers', 'volumes', 'restartPolicy', 'hostNetwork', 'dnsPolicy',
       'nodeSelector', 'tolerations', 'serviceAccountName', 'securityContext'}
CONT = {'name', 'image', 'command', 'args', 'env', 'ports', 'volumeMounts',
        'securityContext', 'resources', 'imagePullPolicy'}
VOL = {'name', 'secret', 'configMap', 'hostPath', 'persistentVolumeClaim', 'emptyDir'}
by = {}
for d in docs:
    k = d.get('kind'); n = d.get('metadata', {}).get('name')
    need(k in API, f'unknown kind {k}')
    need(d.get('apiVersion') == API.get(k), f'{k} {n}: apiVersion {d.get("apiVersion")}')
    need(n, f'{k} without metadata.name')
    by[(k, n)] = d
def pod(k, d):
    t = d['spec']['template']; s = t['spec']
    need(set(s) <= POD, f'{k}: unknown pod fields {set(s) - POD}')
    vols = {v['name']: v for v in s.get('volumes', [])}
    for v in vols.values():
        need(set(v) <= VOL, f'{k}: unknown volume fields {set(v) - VOL}')
        if 'secret' in v:
            need(('Secret', v['secret']['secretName']) in by or v['secret']['secretName'] == 'vdbc-token',
                 f'{k}: secret {v["secret"]}')
            need(v['secret'].get('defaultMode') == 0o400, f'{k}: the token is not mode 0400')
        if 'configMap' in v:
            need(('ConfigMap', v['configMap']['name']) in by, f'{k}: no ConfigMap {v["configMap"]["name"]}')
        if 'persistentVolumeClaim' in v:
            need(('PersistentVolumeClaim', v['persistentVolumeClaim']['claimName']) in by, f'{k}: no claim')
    for c in s['containers']:
        need(set(c) <= CONT, f'{k}: unknown container fields {set(c) - CONT}')
        need(c.get('image'), f'{k}: no image')
        for m in c.get('volumeMounts', []):
            need(m['name'] in vols, f'{k}: mount of an undefined volume {m["name"]}')
        for e in c.get('env', []):
            r = e.get('valueFrom', {}).get('configMapKeyRef')
            if r:
                cm = by.get(('ConfigMap', r['name']))
                need(cm and r['key'] in cm['data'], f'{k}: no key {r["key"]} in {r["name"]}')
    return t, s
ds = by.get(('DaemonSet', 'vdbc-slave')); need(ds, 'no DaemonSet vdbc-slave')
t, s = pod('DaemonSet', ds)
sel = ds['spec']['selector']['matchLabels']
need(sel.items() <= t['metadata']['labels'].items(), 'the DaemonSet selector does not select its pods')
c = s['containers'][0]
need(c['command'][1:4] == ['slave', '--listen', '0.0.0.0:5560'], f'daemon command {c["command"]}')
tok = c['command'][c['command'].index('--token-file') + 1]
mounts = {m['mountPath']: m['name'] for m in c['volumeMounts']}
need(tok == '/etc/vdbc/token/token' and mounts.get('/etc/vdbc/token') == 'token', f'token path {tok}')
need(any(p['containerPort'] == 5560 for p in c['ports']), 'daemon port')
need(s.get('hostNetwork') is True, 'the daemons are not on the nodes\' network')
svc = by.get(('Service', 'vdbc-slaves')); need(svc, 'no Service vdbc-slaves')
need(svc['spec'].get('clusterIP') == 'None', 'the Service is not headless')
need(svc['spec']['selector'].items() <= t['metadata']['labels'].items(), 'the Service selects no daemon')
job = by.get(('Job', 'vdbc-master')); need(job, 'no Job vdbc-master')
jt, js = pod('Job', job)
need(js.get('restartPolicy') in ('Never', 'OnFailure'), 'Job restartPolicy')
script = js['containers'][0]['args'][0]
need('getent ahostsv4 vdbc-slaves ' in script, 'the Job does not resolve the Service')
need('--token-file /etc/vdbc/token/token' in script, 'the Job\'s token path')
need('-o /results/' in script and any(m['mountPath'] == '/results' for m in js['containers'][0]['volumeMounts']),
     'the report directory is not on the volume')
print('\n'.join(bad) if bad else 'ok')
with open('job.sh', 'w') as f: f.write(script)
with open('workload.parm', 'w') as f: f.write(by[('ConfigMap', 'vdbc-workload')]['data']['workload.parm'])
sys.exit(1 if bad else 0)
PY
(cd "$T" && "$py" "$T/k8s.py" "$D/kubernetes/slaves.yaml" "$D/kubernetes/master-job.yaml") >"$T/k8s" 2>&1
rc=$?
[ "$rc" = 0 ] && ok || { bad "manifest check"; cat "$T/k8s"; }
# the check can fail: a selector that selects nothing is found
sed 's/^      app.kubernetes.io\/name: vdbc-slave$/      app.kubernetes.io\/name: vdbc-slav/' "$D/kubernetes/slaves.yaml" >"$T/bad.yaml"
mkdir -p "$T/b"
(cd "$T/b" && "$py" "$T/k8s.py" "$T/bad.yaml" "$D/kubernetes/master-job.yaml") >"$T/k8s2" 2>&1
grep -q "the DaemonSet selector does not select its pods" "$T/k8s2" && ok || { bad "the manifest check misses a bad selector"; cat "$T/k8s2"; }

# The Job's script, with a stand-in getent (three answers for two
# daemons) and its paths in $T: the parmfile it makes plans under -s.
mkdir -p "$T/bin" "$T/etc/vdbc/workload" "$T/etc/vdbc/token" "$T/results"
printf '#!/bin/sh\n[ "$1 $2" = "ahostsv4 vdbc-slaves" ] || exit 2\nprintf "10.9.8.7 STREAM vdbc-slaves\\n10.9.8.7 DGRAM\\n10.9.8.6 STREAM\\n"\n' >"$T/bin/getent"
chmod +x "$T/bin/getent"
cp "$T/workload.parm" "$T/etc/vdbc/workload/"
cp "$T/token" "$T/etc/vdbc/token/token" && chmod 0400 "$T/etc/vdbc/token/token"
sed -e "s|/tmp/\([a-z]*\.parm\)|$T/\1|g" -e "s|/usr/local/bin/vdbc|$VDBC -s|" -e "s|/etc/vdbc|$T/etc/vdbc|g" \
	-e "s|/results|$T/results|g" "$T/job.sh" >"$T/job2.sh"
HOSTS_WANTED=2 POD_IP=10.9.8.1 PATH="$T/bin:$PATH" timeout 60 sh "$T/job2.sh" >"$T/job.out" 2>&1
rc=$?
[ "$rc" = 0 ] && ok || { bad "the Job's script: rc $rc"; cat "$T/job.out"; }
[ "$(cat "$T/hosts.parm")" = "$(printf 'hd=hd1,system=10.9.8.6,shell=vdbench\nhd=hd2,system=10.9.8.7,shell=vdbench')" ] &&
	ok || bad "the Job's hd= lines: $(cat "$T/hosts.parm")"
grep -q "Simulating RD=rd1" "$T/job.out" && ok || { bad "vdbc -s did not plan the Job's parmfile"; cat "$T/job.out"; }
finish
