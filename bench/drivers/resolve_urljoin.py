#!/usr/bin/env python3
"""Resolver peer: urllib.parse.urljoin over the reference list."""
import sys
import time
from urllib.parse import urljoin


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: resolve_urljoin.py REFS-FILE BASE-URL [PASSES]")
    with open(sys.argv[1], encoding="utf-8", newline="\n") as f:
        refs = f.read().split("\n")
    if refs and refs[-1] == "":
        refs.pop()
    base = sys.argv[2]
    passes = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    best = best_cpu = float("inf")
    for _ in range(passes):
        t0, c0 = time.perf_counter(), time.process_time()
        n = 0
        for ref in refs:
            n += len(urljoin(base, ref))
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    print(f"urljoin refs={len(refs)} resolved={len(refs)} bytes={n} seconds={best:.6f} "
          f"refs_per_s={len(refs) / best:.0f} cpu_seconds={best_cpu:.6f} cpu_refs_per_s={len(refs) / best_cpu:.0f}")


main()
