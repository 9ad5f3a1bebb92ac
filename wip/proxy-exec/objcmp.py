#!/usr/bin/env python3
"""objcmp.py A.o B.o: compare two builds of an object function by function.

Disassembles both (objdump -d -r), drops addresses and relocation offsets,
and prints the functions that are identical and, for each that differs,
its instruction counts and a unified diff. Used to show that Patch A
leaves the mutex fast paths of kernel/locking/mutex.o unchanged.
"""
import difflib
import re
import subprocess
import sys


def functions(obj):
    dis = subprocess.run(["objdump", "-d", "-r", "--no-show-raw-insn", obj],
                         check=True, capture_output=True, text=True).stdout
    funcs, cur = {}, None
    for line in dis.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.+)>:$", line.strip())
        if m:
            cur = funcs.setdefault(m.group(1), [])
            continue
        line = re.sub(r"^\s*[0-9a-f]+:\s*", "", line)
        line = re.sub(r"[0-9a-f]+ <([^>+]+)(\+0x[0-9a-f]+)?>", r"<\1>", line)
        line = re.sub(r"\.text\+0x[0-9a-f]+", ".text", line)
        if cur is not None and line.strip():
            cur.append(line.strip())
    return funcs


a, b = functions(sys.argv[1]), functions(sys.argv[2])
same = sorted(f for f in a.keys() & b.keys() if a[f] == b[f])
print(f"identical ({len(same)}): {' '.join(same)}")
for f in sorted((a.keys() | b.keys()) - set(same)):
    na, nb = len(a.get(f, [])), len(b.get(f, []))
    print(f"differs: {f} ({na} -> {nb} lines)")
    for line in difflib.unified_diff(a.get(f, []), b.get(f, []), lineterm="", n=1):
        if not line.startswith(("---", "+++")):
            print("    " + line)
