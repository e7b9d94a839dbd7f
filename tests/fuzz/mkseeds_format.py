#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Makes fuzz_format inputs out of the event formats of trace.dat v6 files.

Each distinct format becomes one input as fuzz_format.c reads it: a byte naming the system
(1: ftrace, 0: any other), the format text, a NUL, then a record of the event (its id in
common_type, zeroes after).

usage: mkseeds_format.py OUT_DIR IN_V6.dat...
"""
import hashlib
import os
import re
import struct
import sys

RECORD_SIZE = 64


def formats(buf):
    """(is_ftrace, text) of each format in the file's ftrace and event sections."""
    pos = buf.index(b'header_event\0') + len(b'header_event\0')
    size = struct.unpack_from('<Q', buf, pos)[0]
    pos += 8 + size
    for system in (True, None):
        nsys = 1
        if system is None:
            nsys = struct.unpack_from('<I', buf, pos)[0]
            pos += 4
        for _ in range(nsys):
            if system is None:
                end = buf.index(b'\0', pos)
                pos = end + 1
            count = struct.unpack_from('<I', buf, pos)[0]
            pos += 4
            for _ in range(count):
                size = struct.unpack_from('<Q', buf, pos)[0]
                yield system is True, buf[pos + 8:pos + 8 + size]
                pos += 8 + size


def main():
    out = sys.argv[1]
    for path in sys.argv[2:]:
        with open(path, 'rb') as f:
            buf = f.read()
        try:
            found = list(formats(buf))
        except (ValueError, struct.error):
            print(f'{path}: not a readable v6 file, skipped', file=sys.stderr)
            continue
        for ftrace, text in found:
            m = re.search(rb'ID: (\d+)', text)
            ident = int(m.group(1)) & 0xffff if m else 0
            record = struct.pack('<H', ident) + bytes(RECORD_SIZE - 2)
            data = bytes([1 if ftrace else 0]) + text + b'\0' + record
            name = re.search(rb'name: (\S+)', text)
            name = name.group(1).decode(errors='replace') if name else 'noname'
            digest = hashlib.sha1(data).hexdigest()[:8]
            with open(os.path.join(out, f'{name}-{digest}'), 'wb') as f:
                f.write(data)


main()
