#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""XDCent's parallel paths of two dpsim builds, pair by pair.

A change to the routing core's disjoint paths (xdc_dj_build()) should
only add pairs: every pair whose k+1 paths were internally disjoint
(servers and switches) keeps the same paths.  For each size this runs
"dpsim pairs --mode pM" (M = 0..k) with both binaries and counts:
  same          pairs whose k+1 paths are equal
  changed       pairs with some path different, split into
    kept        disjoint before and after (must be 0: paths that were
                already disjoint do not change)
    gained      not disjoint before, disjoint after
    lost        disjoint before, not after (must be 0)
    other       not disjoint either way
Exit 1 when kept or lost is not 0 (or --allow-kept for kept).

Usage: xdcent-paths-diff.py OLD_DPSIM NEW_DPSIM N K I [N K I ...]
  -v: print the pairs that changed, old and new paths
"""
import argparse
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    'eval_xdcent_paths', os.path.join(HERE, 'eval-xdcent-paths.py'))
ev = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ev)


def routes_of(dpsim, n, k, i):
    ev.DPSIM = dpsim
    return ev.routes(n, k, i)


def addr(x, n, top):
    return ''.join(str(x // n ** j % n) for j in range(top, -1, -1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('-v', action='store_true')
    ap.add_argument('--allow-kept', action='store_true',
                    help='disjoint pairs may change to other disjoint '
                    'paths')
    ap.add_argument('old')
    ap.add_argument('new')
    ap.add_argument('size', nargs='+', type=int, help='N K I triples')
    o = ap.parse_args()
    if len(o.size) % 3:
        ap.error('sizes are N K I triples')
    bad = False
    for j in range(0, len(o.size), 3):
        n, k, i = o.size[j:j + 3]
        g = ev.fabric(n, k, i)
        old = routes_of(os.path.abspath(o.old), n, k, i)
        new = routes_of(os.path.abspath(o.new), n, k, i)
        c = {'same': 0, 'kept': 0, 'gained': 0, 'lost': 0, 'other': 0}
        for pair in sorted(old):
            if old[pair] == new[pair]:
                c['same'] += 1
                continue
            a = ev.check_paths(g, old[pair])[1]
            b = ev.check_paths(g, new[pair])[1]
            key = ('kept' if b else 'lost') if a else \
                ('gained' if b else 'other')
            c[key] += 1
            if o.v:
                print('%s %s %s' % (addr(pair[0], n, i),
                                    addr(pair[1], n, i), key))
                for tag, p in (('-', old[pair]), ('+', new[pair])):
                    for m, q in enumerate(p):
                        print('  %s p%d %s' % (tag, m, ' '.join(
                            addr(x, n, i) for x in q)))
        print('XDCent (%d,%d,%d): %d ordered pairs, same %d, changed %d '
              '(kept %d, gained %d, lost %d, other %d)' %
              (n, k, i, len(old), c['same'], len(old) - c['same'],
               c['kept'], c['gained'], c['lost'], c['other']))
        sys.stdout.flush()
        if c['lost'] or (c['kept'] and not o.allow_kept):
            bad = True
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
