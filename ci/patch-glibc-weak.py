#!/usr/bin/env python3
"""Make MDK's native library loadable on hosts whose glibc predates the one it was linked against.

libmdk_uniffi.so (mdk-python 0.8.0) lists GLIBC_2.39 in its version-needed table only because
Rust's std references pidfd_spawnp / pidfd_getpid *weakly* and probes for them at run time. The
dynamic loader still refuses the whole library when a needed version is missing, unless that
version's Vernaux entry carries VER_FLG_WEAK. Setting that one flag bit is exactly what a linker
would have written had the references been declared weak at link time, so the library behaves
as upstream intends: the probes find no symbol and std falls back to fork/exec.

mdk-python 0.7.0 needs GLIBC_2.38 for one strong symbol, `__isoc23_strtol` (C23's strtol, which
also parses 0b prefixes). Marking that version weak lets the library load; the symbol itself is
then supplied by the one-function preload shim drivers/mdk/worldshim/isoc23.c (ci/setup builds it
and the driver of the mdk-0.7 engine preloads it). So every GLIBC_2.N newer than the host's is
marked weak, and the module is imported with the shims that exist preloaded.

Usage: patch-glibc-weak.py VENV_DIR
Idempotent; prints one line saying what it did; exits non-zero if MDK still does not import.
"""

import os
import pathlib
import struct
import subprocess
import sys

LIBRARY = "libmdk_uniffi.so"
MODULE = "mdk"
# The GLIBC versions newer than the host's found in the library are marked weak (see above).
VERSION_PREFIX = b"GLIBC_2."
VER_FLG_WEAK = 0x2
SHT_GNU_VERNEED = 0x6FFFFFFE


def host_glibc():
    """(major, minor) of the running glibc, or None on a non-glibc host."""
    try:
        text = os.confstr("CS_GNU_LIBC_VERSION") or ""
    except (ValueError, OSError):
        return None
    parts = text.split()
    if len(parts) != 2 or parts[0] != "glibc":
        return None
    try:
        major, minor = parts[1].split(".")[:2]
        return int(major), int(minor)
    except ValueError:
        return None


def find_library(venv):
    hits = sorted(pathlib.Path(venv).glob(f"lib/python*/site-packages/{MODULE}/{LIBRARY}"))
    return hits[0] if hits else None


def read_cstring(data, offset):
    end = data.find(b"\0", offset)
    if end < 0:
        raise ValueError(f"unterminated string at {offset}")
    return data[offset:end]


def vernaux_flag_offsets(data, wanted):
    """File offsets of the vna_flags fields of every Vernaux whose name `wanted` accepts, with their
    flags and names.

    ELF64 little-endian only (the wheel is x86_64/aarch64 Linux). Layouts, from the gABI and the
    GNU symbol-versioning extension:
      Elf64_Ehdr: ... e_shoff u64 @0x28, e_shentsize u16 @0x3A, e_shnum u16 @0x3C
      Elf64_Shdr: sh_name u32, sh_type u32, sh_flags u64, sh_addr u64, sh_offset u64, sh_size u64,
                  sh_link u32, sh_info u32, sh_addralign u64, sh_entsize u64   (64 bytes)
      Elf64_Verneed: vn_version u16, vn_cnt u16, vn_file u32, vn_aux u32, vn_next u32
      Elf64_Vernaux: vna_hash u32, vna_flags u16, vna_other u16, vna_name u32, vna_next u32
    """
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("not a little-endian ELF64 file")
    (shoff,) = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    if shentsize != 64:
        raise ValueError(f"unexpected section header size {shentsize}")
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * 64) for i in range(shnum)]
    found = []
    for _name, sh_type, _fl, _addr, offset, _size, link, info, _al, _es in sections:
        if sh_type != SHT_GNU_VERNEED:
            continue
        strtab = sections[link][4]
        need = offset
        for _ in range(info):  # sh_info = number of Verneed entries
            _ver, count, _file, aux, nxt = struct.unpack_from("<HHIII", data, need)
            entry = need + aux
            for _ in range(count):
                _hash, flags, _other, name, anext = struct.unpack_from("<IHHII", data, entry)
                text = read_cstring(data, strtab + name)
                if wanted(text):
                    found.append((entry + 4, flags, text.decode()))
                if anext == 0:
                    break
                entry += anext
            if nxt == 0:
                break
            need += nxt
    return found


def newer_than(glibc):
    """Accepts a version name GLIBC_2.N with N above the host's minor version (major 2)."""
    def accepts(name):
        if not name.startswith(VERSION_PREFIX):
            return False
        try:
            return glibc[0] == 2 and int(name[len(VERSION_PREFIX):].split(b".")[0]) > glibc[1]
        except ValueError:
            return False
    return accepts


def module_imports(python, venv):
    # The shim ci/setup builds for symbols newer than the host's glibc (mdk-python 0.7.0's).
    env = dict(os.environ)
    shim = os.path.join(venv, "lib", "libisoc23.so")
    if os.path.exists(shim):
        env["LD_PRELOAD"] = shim
    probe = subprocess.run([python, "-c", f"import {MODULE}"], capture_output=True, text=True, env=env)
    return probe.returncode == 0, probe.stderr.strip().splitlines()[-1:] or [""]


def main(argv):
    if len(argv) != 2:
        print("usage: patch-glibc-weak.py VENV_DIR", file=sys.stderr)
        return 2
    venv = argv[1]
    python = os.path.join(venv, "bin", "python")
    library = find_library(venv)
    if library is None:
        print(f"patch-glibc-weak: {LIBRARY} not found under {venv}; nothing to do")
        return 0
    glibc = host_glibc()
    entries = [] if glibc is None else vernaux_flag_offsets(library.read_bytes(), newer_than(glibc))
    if glibc is None or not entries:
        action = f"host glibc {glibc and '.'.join(map(str, glibc))} has every version {library.name} needs; left unchanged"
    else:
        todo = [(offset, flags, name) for offset, flags, name in entries if not flags & VER_FLG_WEAK]
        names = ", ".join(sorted({name for _, _, name in entries}))
        if not todo:
            action = f"{library.name}: {names} already weak; left unchanged"
        else:
            with open(library, "r+b") as handle:
                for offset, flags, _ in todo:
                    handle.seek(offset)
                    handle.write(struct.pack("<H", flags | VER_FLG_WEAK))
            action = (f"host glibc {glibc[0]}.{glibc[1]}: marked {names} "
                      f"weak (VER_FLG_WEAK) in {len(todo)} Vernaux entr{'y' if len(todo) == 1 else 'ies'} of {library}")
    ok, tail = module_imports(python, venv)
    print(f"patch-glibc-weak: {action}; `import {MODULE}` {'works' if ok else 'FAILS: ' + tail[0]}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
