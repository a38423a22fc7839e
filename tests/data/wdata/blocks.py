#!/usr/bin/env python3
# What a lun holds, as tests/e2e/28-fidelity-data.sh and vdbench.txt
# measure it: blocks.py LUN [LUN2] prints
#   distinct4k N of M      distinct 4 KiB blocks (md5)
#   gzip R                 the whole lun through zlib level 6, gzip format
#   chunk32k_zlib R        each 32 KiB chunk compressed alone, summed
#   chunk32k_dedup R       32 KiB chunks / distinct 32 KiB chunks
# and with LUN2: identical yes|no, same_offset_equal N (4 KiB blocks
# equal at the same offset), dedup_together R (4 KiB blocks of both /
# distinct ones).
import hashlib, sys, zlib

def blocks(d, n):
    return [hashlib.md5(d[i:i + n]).digest() for i in range(0, len(d), n)]

d = open(sys.argv[1], 'rb').read()
h = blocks(d, 4096)
print("distinct4k %d of %d" % (len(set(h)), len(h)))
c = zlib.compressobj(6, zlib.DEFLATED, 31)
print("gzip %.3f" % (len(d) / len(c.compress(d) + c.flush())))
C = 32768
z = sum(len(zlib.compress(d[i:i + C], 6)) for i in range(0, len(d), C))
h32 = blocks(d, C)
print("chunk32k_zlib %.3f" % (len(d) / z))
print("chunk32k_dedup %.3f" % (len(h32) / len(set(h32))))
if len(sys.argv) > 2:
    e = open(sys.argv[2], 'rb').read()
    h2 = blocks(e, 4096)
    print("identical %s" % ("yes" if d == e else "no"))
    print("same_offset_equal %d" % sum(a == b for a, b in zip(h, h2)))
    print("dedup_together %.3f" % ((len(h) + len(h2)) / len(set(h + h2))))
