"""The org build's last phase (indexes and FTS5 beside the content hash), timed with each source tree.

    python benchmarks/bench_final_phase.py --trees /tmp/base /tmp/wt --scale 10 --rounds 2 --out /tmp/x

Builds one org (with the first tree) up to that phase and keeps a copy of the file; then, in rounds,
runs the phase on a fresh copy in a new process with each tree's code (interleaved): wall and CPU
of the phase, the hash thread's CPU, the content hash, peak RSS. `--hash-only` times the content
hash alone (what `Org.verify` does on a cached org)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

# Run in a child process with a tree first on sys.path: argv = tree, source file, work file, mode.
PHASE = r"""
import json, os, resource, shutil, sqlite3, sys, time
from pathlib import Path
tree, src, work, mode = sys.argv[1:5]
sys.path.insert(0, tree)
from simulator.crm import store
from simulator.crm.generator import build
from simulator.crm.schema import schema_for
shutil.copy(src, work)
schema, thread = schema_for("b2b"), {}
plain_hash = build._hash_file
def timed_hash(*args):
    t = time.thread_time()
    digest = plain_hash(*args)
    thread["hash_cpu"] = time.thread_time() - t
    return digest
build._hash_file = timed_hash
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
conn = sqlite3.connect(work, isolation_level=None)
for pragma in ("journal_mode=OFF", "synchronous=OFF", f"cache_size=-{build.INDEX_CACHE_KIB}"):
    conn.execute("PRAGMA " + pragma)
c0, w0 = cpu(), time.perf_counter()
if mode == "hash":
    digest = timed_hash(Path(work), schema, "none")
else:
    digest = build._index_and_hash(conn, Path(work), schema, "none")
    store.write_meta(conn, store.OrgMeta("b2b", 0, 1.0, build.DEFAULT_AS_OF, "bench", digest))
    conn.execute("PRAGMA journal_mode=DELETE")
conn.close()
print(json.dumps({"wall": time.perf_counter() - w0, "cpu": cpu() - c0, "hash_cpu": thread.get("hash_cpu", 0.0),
                  "hash": digest[:8], "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "load": os.getloadavg()[0]}))
"""

# Build with a tree until the last phase and copy the file then: argv = tree, scale, copy.
BEFORE = r"""
import shutil, sys
from pathlib import Path
tree, scale, copy = sys.argv[1], float(sys.argv[2]), Path(sys.argv[3])
sys.path.insert(0, tree)
from simulator.crm.generator import build
class Stop(Exception):
    pass
def keep(conn, path, schema, injections):
    shutil.copy(path, copy)
    raise Stop
build._index_and_hash = keep
try:
    build.build_org("b2b", copy.with_name("unused.db"), seed=0, scale=scale)
except Stop:
    pass
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trees", type=Path, nargs="+", required=True, help="source trees (the first builds the org)")
    ap.add_argument("--scale", type=float, default=10.0)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--out", type=Path, required=True, help="a folder for the org files (deleted after)")
    ap.add_argument("--hash-only", action="store_true", help="time the content hash alone")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    source, work = args.out / "before-final-phase.db", args.out / "work.db"
    try:
        subprocess.run([sys.executable, "-c", BEFORE, str(args.trees[0]), str(args.scale), str(source)], check=True)
        print("| round | tree | wall s | CPU s | hash thread CPU s | hash | peak RSS MiB | load |")
        print("|---|---|---|---|---|---|---|---|")
        for n in range(1, args.rounds + 1):
            for tree in args.trees:
                out = subprocess.run(
                    [
                        sys.executable,
                        "-c",
                        PHASE,
                        str(tree),
                        str(source),
                        str(work),
                        "hash" if args.hash_only else "both",
                    ],
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
                r = json.loads(out)
                print(
                    f"| {n} | {tree} | {r['wall']:.2f} | {r['cpu']:.2f} | {r['hash_cpu']:.2f} | {r['hash']}… | "
                    f"{r['rss_mib']:.0f} | {r['load']:.1f} |",
                    flush=True,
                )
    finally:
        for path in args.out.glob("*.db*"):
            path.unlink()


if __name__ == "__main__":
    main()
