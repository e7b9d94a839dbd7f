#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A scripted host for `ktrace agent -N`: trace-cmd 3.1.6's record -A side of the protocol.

Usage: agent_host.py PORT SECONDS OUTDIR ARG...
Sends TRACE_REQ with ARG... (and "ptp" offered), checks TRACE_RESP, stores the metadata
(SEND_DATA until FIN_DATA) in OUTDIR/meta, connects every CPU's data port and stores its pages
in OUTDIR/cpuN while SECONDS pass, then sends CLOSE, waits for CLOSE_RESP, and reads each data
connection to its end. Prints "cpus=N page_size=P trace_id=X" on success; exits 1 with one line
on any protocol error.
"""
import os
import socket
import struct
import sys
import threading
import time

CLOSE, SEND_DATA, FIN_DATA, TRACE_REQ, TRACE_RESP, CLOSE_RESP = 0, 3, 4, 6, 7, 8


def die(msg):
    print("agent_host: " + msg, file=sys.stderr)
    sys.exit(1)


def recv_all(s, n):
    buf = b""
    while len(buf) < n:
        got = s.recv(n - len(buf))
        if not got:
            die("connection closed after %d of %d bytes" % (len(buf), n))
        buf += got
    return buf


def recv_msg(s):
    size, cmd, fixed = struct.unpack(">III", recv_all(s, 12))
    if size < 12 or size > 8192 or fixed > size - 12:
        die("bad message header %d/%d/%d" % (size, cmd, fixed))
    body = recv_all(s, size - 12)
    return cmd, body[:fixed], body[fixed:]


def msg(cmd, fixed=b"", payload=b""):
    return struct.pack(">III", 12 + len(fixed) + len(payload), cmd, len(fixed)) + fixed + payload


def trace_req(args):
    argv = struct.pack(">I", len(args)) + b"".join(a.encode() + b"\0" for a in args)
    protos = b"ptp\0\0"
    payload = struct.pack(">II", 0, len(argv)) + argv + struct.pack(">II", 1, len(protos)) + protos
    return msg(TRACE_REQ, struct.pack(">IIQ", 0, 0, 0x1122334455667788), payload)


def reader(sock, path, done):
    with open(path, "wb") as f:
        while True:
            got = sock.recv(65536)
            if not got:
                break
            f.write(got)
    done.append(path)


def main():
    port, seconds, out = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
    ctl = socket.create_connection(("127.0.0.1", port), timeout=60)
    ctl.sendall(trace_req(sys.argv[4:]))
    cmd, fixed, payload = recv_msg(ctl)
    if cmd != TRACE_RESP or len(fixed) != 40:
        die("answer %d with %d fixed bytes, not TRACE_RESP with 40" % (cmd, len(fixed)))
    flags, cpus, page_size, trace_id = struct.unpack(">IIIQ", fixed[:20])
    proto = fixed[20:36].rstrip(b"\0").decode()
    ports = [int(p) for p in payload.split(b"\0")[:-1]]
    if len(ports) != cpus or payload[-1:] != b"\0":
        die("%d CPUs but ports %r" % (cpus, payload))
    if proto not in ("", "ptp"):
        die("time sync %r was not offered" % proto)
    with open(os.path.join(out, "meta"), "wb") as f:
        while True:
            cmd, fixed, payload = recv_msg(ctl)
            if cmd == FIN_DATA:
                break
            if cmd != SEND_DATA:
                die("message %d in the metadata" % cmd)
            f.write(payload)
    done, threads = [], []
    for cpu, p in enumerate(ports):
        d = socket.create_connection(("127.0.0.1", p), timeout=60)
        t = threading.Thread(target=reader, args=(d, os.path.join(out, "cpu%d" % cpu), done))
        t.start()
        threads.append(t)
    time.sleep(seconds)
    ctl.sendall(msg(CLOSE))
    cmd, _, _ = recv_msg(ctl)
    if cmd != CLOSE_RESP:
        die("answer %d to CLOSE, not CLOSE_RESP" % cmd)
    for t in threads:
        t.join(60)
    if len(done) != cpus:
        die("%d of %d data connections did not end" % (cpus - len(done), cpus))
    print("cpus=%d page_size=%d trace_id=%x" % (cpus, page_size, trace_id))


main()
