#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Makes small fuzz seeds out of a trace.dat v6 file.

The corpus files are about 1 MB, nearly all of it kallsyms (and, for the function tracer, the
formats of every event): a fuzzer mutating that spends its time parsing symbols and formats.
This keeps the first lines of the kallsyms, drops the event formats when they are big, cuts
the CPU data to MAX_PAGES pages per CPU and packs it without gaps, page aligned, with every
offset that points at it patched. Given the names of the events the pages hold, it keeps the
formats of those only (and a few more, see main()): each input parses every format of its
file, and fuzz_format fuzzes the formats one by one.

usage: mkseeds.py IN_V6.dat OUT.dat [EVENT,...]
"""
import struct
import sys

MAX_PAGES = 2
# Function-tracer recordings carry every event format: they go when above this size.
MAX_EVENT_FORMATS = 65536
MAX_KALLSYMS = 4096
OPT_BUFFER = 3


class Walker:
    def __init__(self, buf, pos, fmt):
        self.buf, self.pos, self.fmt = buf, pos, fmt

    def num(self, size):
        code = {2: 'H', 4: 'I', 8: 'Q'}[size]
        val = struct.unpack_from(self.fmt + code, self.buf, self.pos)[0]
        self.pos += size
        return val

    def skip(self, n):
        self.pos += n

    def cstr(self):
        end = self.buf.index(b'\0', self.pos)
        s = self.buf[self.pos:end]
        self.pos = end + 1
        return s


def read_pairs(buf, at, cpus, fmt):
    """The (field offset, data offset, size) of each CPU's pair starting at `at`."""
    pairs = []
    for i in range(cpus):
        off, size = struct.unpack_from(fmt + 'QQ', buf, at + 16 * i)
        pairs.append((at + 16 * i, off, size))
    return pairs


def compact(buf, fmt, page, cpus, top_at, buffers):
    """Rebuilds the data area with at most MAX_PAGES per CPU, no gaps, offsets patched."""
    pairs = read_pairs(buf, top_at, cpus, fmt) if top_at else []
    blocks = []
    for opt_at, off in buffers:
        blocks.append((opt_at, off))
        pairs += read_pairs(buf, off + 10, cpus, fmt)
    starts = [off for _, off, size in pairs if off] + [off for _, off in blocks]
    meta_end = min(starts) if starts else len(buf)
    out = bytearray(buf[:meta_end])
    moved = {}
    for opt_at, off in sorted(blocks, key=lambda b: b[1]):
        moved[off] = len(out)
        out += buf[off:off + 10 + 16 * cpus]
        struct.pack_into(fmt + 'Q', out, opt_at, moved[off])
    for field, off, size in pairs:
        if not off:
            continue
        size = min(size, MAX_PAGES * page)
        out += bytes(-len(out) % page)
        new_field = field if field < meta_end else \
            moved[max(b for b in moved if b <= field)] + field - max(b for b in moved if b <= field)
        struct.pack_into(fmt + 'QQ', out, new_field, len(out), size)
        out += buf[off:off + size]
    return bytes(out)


def format_name(text):
    line = text.split(b'\n', 1)[0]
    return line[len(b'name: '):].strip() if line.startswith(b'name: ') else None


def keep_formats(w, fmt, count, keep):
    """The formats of a section that `keep` names (all when it is None), with their count."""
    out = b''
    kept = 0
    for _ in range(count):
        size = w.num(8)
        text = w.buf[w.pos:w.pos + size]
        w.skip(size)
        if keep is None or format_name(text) in keep:
            out += struct.pack(fmt + 'Q', size) + text
            kept += 1
    return struct.pack(fmt + 'I', kept) + out


def shrink(data, keep=None):
    if data[:10] != b'\x17\x08\x44tracing' or data[10:12] != b'6\0':
        raise SystemExit('not a trace.dat v6 file')
    fmt = '>' if data[12] else '<'
    page = struct.unpack_from(fmt + 'I', data, 14)[0]
    w = Walker(data, 18, fmt)
    for name in (b'header_page\0', b'header_event\0'):
        w.skip(len(name))
        w.skip(w.num(8))
    events_at = w.pos       # from here: the ftrace formats, then the event systems
    ftrace = keep_formats(w, fmt, w.num(4), keep)
    systems = []
    for _ in range(w.num(4)):
        name = w.cstr()
        formats = keep_formats(w, fmt, w.num(4), keep)
        if keep is None or formats[:4] != bytes(4):
            systems.append(name + b'\0' + formats)
    events = struct.pack(fmt + 'I', len(systems)) + b''.join(systems)
    if len(events) > MAX_EVENT_FORMATS:
        events = struct.pack(fmt + 'I', 0)
    events = ftrace + events
    ks_field = w.pos
    ks_len = w.num(4)
    kallsyms = data[w.pos:w.pos + ks_len]
    kallsyms = kallsyms[:kallsyms.rfind(b'\n', 0, MAX_KALLSYMS) + 1]
    keep = len(kallsyms)
    removed = ks_field - events_at - len(events) + ks_len - keep
    buf = bytearray(data[:events_at] + events + struct.pack(fmt + 'I', keep) + kallsyms +
                    data[ks_field + 4 + ks_len:])
    ks_field -= ks_field - events_at - len(events)
    w = Walker(buf, ks_field + 4 + keep, fmt)
    w.skip(w.num(4))        # printk
    w.skip(w.num(8))        # cmdlines
    cpus = w.num(4)
    buffers = []
    top_at = 0
    if buf[w.pos:w.pos + 10] == b'options  \0':
        w.skip(10)
        while True:
            opt = w.num(2)
            if opt == 0:
                break
            size = w.num(4)
            if opt == OPT_BUFFER:
                off = struct.unpack_from(fmt + 'Q', buf, w.pos)[0] - removed
                struct.pack_into(fmt + 'Q', buf, w.pos, off)
                buffers.append((w.pos, off))
            w.skip(size)
    if buf[w.pos:w.pos + 10] == b'flyrecord\0':
        top_at = w.pos + 10
        for field, off, size in read_pairs(buf, top_at, cpus, fmt):
            struct.pack_into(fmt + 'Q', buf, field, off - removed if off else 0)
    for _, off in buffers:
        for field, doff, size in read_pairs(buf, off + 10, cpus, fmt):
            struct.pack_into(fmt + 'Q', buf, field, doff - removed if doff else 0)
    return compact(buf, fmt, page, cpus, top_at, buffers)


def main():
    with open(sys.argv[1], 'rb') as f:
        data = f.read()
    keep = None
    if len(sys.argv) > 3 and sys.argv[3]:
        # sched_switch: fuzz_dat's -F variant names it; power, kmem_free, user_stack: the
        # ftrace events the blk tracer's made-up format goes after (dat_blk.c)
        keep = set(n.encode() for n in sys.argv[3].split(',')) | \
            {b'sched_switch', b'power', b'kmem_free', b'user_stack'}
    with open(sys.argv[2], 'wb') as f:
        f.write(shrink(data, keep))


if __name__ == '__main__':
    main()
