#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Which files of the module call each other, directly, in a circle.

usage: scripts/callgraph.py [--max N] [--edges] [FILE.c ...]

Reads the module's C files (default: net/dpillar/*.c but the KUnit ones),
finds each function defined at file level and each call in each body (a
name followed by "(", comments and strings left out), and draws an arrow
from file A to file B when a function of A calls a non-static function
defined in B.  Prints every set of files that reach each other through
the arrows (a strongly connected component) with more than one file,
largest first, and in each the pairs that call each other both ways.
--edges also prints, for each arrow inside a set, the functions called.

Calls through function pointers (dp_topo_ops, netdev ops, timers) are not
arrows: they are the way a lower file calls up without naming the upper
one, which is what a layered data plane does.  Macros that expand to
calls are not seen either.  A text reading, not a compiler's: good for a
structure, not for a proof.

Exit status: 1 when a set has more than N files (--max N), else 0.
"""
import glob
import os
import re
import sys

KEYWORDS = {
    'if', 'for', 'while', 'switch', 'return', 'sizeof', 'do', 'else',
    'case', 'typeof', '__typeof__', 'defined', 'alignof', '__alignof__',
    '_Static_assert', 'static_assert', '__attribute__', 'asm', '__asm__',
}
NAME_CALL = re.compile(r'\b([A-Za-z_]\w*)\s*\(')


def strip(text):
    """Comments, strings and character constants out; preprocessor lines
    out (a #define's body is not a function's)."""
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'),
                  text, flags=re.S)
    text = re.sub(r'//[^\n]*', '', text)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"'(\\.|[^'\\\n])*'", "''", text)
    out = []
    cont = False
    for line in text.split('\n'):
        if cont or line.lstrip().startswith('#'):
            cont = line.rstrip().endswith('\\')
            out.append('')
        else:
            out.append(line)
    return '\n'.join(out)


def functions(path):
    """[(name, static, body)] of the functions defined at file level."""
    text = strip(open(path, encoding='utf-8', errors='replace').read())
    found = []
    depth = 0
    start = 0		# where the text before the next top-level '{' begins
    body_from = None
    head = ''
    for i, c in enumerate(text):
        if c == '{':
            if depth == 0:
                head = text[start:i]
                body_from = i
            depth += 1
        elif c == '}':
            depth -= 1
            if depth == 0:
                m = None
                if '(' in head and '=' not in head.split('(')[0]:
                    for m in NAME_CALL.finditer(head):
                        if m.group(1) not in KEYWORDS and \
                           not m.group(1).startswith('__') and \
                           not m.group(1).isupper():
                            break
                    else:
                        m = None
                if m:
                    static = re.search(r'\bstatic\b', head[:m.start()])
                    found.append((m.group(1), bool(static),
                                  text[body_from:i]))
                start = i + 1
        elif c == ';' and depth == 0:
            start = i + 1
    return found


def sccs(nodes, edges):
    """Tarjan's strongly connected components of the graph."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main(argv):
    limit = None
    show_edges = False
    files = []
    args = iter(argv)
    for a in args:
        if a == '--max':
            limit = int(next(args))
        elif a == '--edges':
            show_edges = True
        elif a.startswith('-'):
            print(__doc__.strip(), file=sys.stderr)
            return 2
        else:
            files.append(a)
    if not files:
        here = os.path.dirname(os.path.abspath(__file__))
        files = sorted(f for f in glob.glob(
            os.path.join(here, '..', 'net', 'dpillar', '*.c'))
            if not f.endswith('_test.c') and
            os.path.basename(f) != 'test_lib.c')
    defs = {}		# non-static function -> file
    bodies = {}		# file -> [(name, static, body)]
    for f in files:
        name = os.path.basename(f)
        bodies[name] = functions(f)
        for fn, static, _ in bodies[name]:
            if not static:
                defs[fn] = name
    edges = {}		# file -> {file: {function called}}
    for name, fns in bodies.items():
        local = {fn for fn, static, _ in fns if static}
        for _, _, body in fns:
            for m in NAME_CALL.finditer(body):
                callee = m.group(1)
                where = defs.get(callee)
                if where and where != name and callee not in local:
                    edges.setdefault(name, {}).setdefault(where, set()).add(callee)
    comps = sorted((c for c in sccs(bodies, edges) if len(c) > 1),
                   key=lambda c: (-len(c), c))
    narrows = sum(len(v) for v in edges.values())
    print(f'{len(bodies)} files, {len(defs)} non-static functions, '
          f'{narrows} file-to-file arrows')
    worst = 0
    for c in comps:
        worst = max(worst, len(c))
        both = sorted((a, b) for a in c for b in c
                      if a < b and b in edges.get(a, {}) and
                      a in edges.get(b, {}))
        print(f'cycle of {len(c)} files: {" ".join(c)}')
        print(f'  calling each other both ways: '
              f'{", ".join(a + "<->" + b for a, b in both) or "none"}')
        if show_edges:
            for a in c:
                for b in sorted(edges.get(a, {})):
                    if b in c:
                        print(f'  {a} -> {b}: '
                              f'{" ".join(sorted(edges[a][b]))}')
    if not comps:
        print('no cycle: the files call each other one way')
    if limit is not None and worst > limit:
        print(f'callgraph: a cycle of {worst} files, more than {limit}')
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
