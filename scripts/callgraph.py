#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Which files of the module call each other, directly, in a circle.

usage: scripts/callgraph.py [--max N] [--edges] [FILE.c ...]
       scripts/callgraph.py --walk FUNCTION [--skip F,...] [--dir DIR] [--show]

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

--walk FUNCTION: the files a frame visits from FUNCTION (dp_handle_frame:
the receive handler), read the same way from the module's .c and .h
files (DIR, default net/dpillar; KUnit files left out), static and inline
functions included: depth first, in the order the calls are written,
every branch taken, each function walked once (a later call to it is a
visit to its file, not walked again).  A constant ops table of the same
file passed by address ("&dp_relay_data_ops") is a call to each function
it names, in its order: the calls a constant table makes are known at
build time (an inlined dp_relay()), unlike those through a topology's or
a netdev's ops.  Prints the files in the order visited, a run of calls
in one file being one stop, then "S stops in F files, R returns to a
file already left (X entered N times)", R = S - F.  --skip F,...: the
branches a frame does not take, by the functions they call (a relayed
DATA frame: --skip dp_hello_rcv,dp_sc_rcv,dp_relay_sc,dp_probe_rcv,
dp_deliver).
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
HEADS = {}		# (file, function) -> the text before its body
FRAME = re.compile(r'\bstruct\s+(?:sk_buff|dpillar_hdr)\s*\*+\s*(\w+)')


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
                    HEADS[(os.path.basename(path), m.group(1))] = head
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


OPS_TABLE = re.compile(r'\bconst\s+struct\s+\w+\s+(\w+)\s*=\s*\{(.*?)\};',
                       re.S)
OPS_MEMBER = re.compile(r'\.\w+\s*=\s*([A-Za-z_]\w*)\s*[,}\n]')


def arguments(body, at):
    """The text between the parentheses of the call at @at of @body."""
    i = body.index('(', at)
    depth = 0
    for j in range(i, len(body)):
        depth += {'(': 1, ')': -1}.get(body[j], 0)
        if depth == 0:
            return body[i + 1:j]
    return body[i + 1:]


def walk(start, where, skip=()):
    """The stops of a walk from function @start (see --walk)."""
    paths = sorted(f for f in glob.glob(os.path.join(where, '*.[ch]'))
                   if not f.endswith('_test.c') and
                   not os.path.basename(f).startswith('test_lib'))
    local = {}		# (file, name) -> body, every function
    public = {}		# name -> file, non-static .c functions
    inline = {}		# name -> file, static functions of headers
    tables = {}		# (file, table) -> [function names]
    for f in paths:
        base = os.path.basename(f)
        for fn, static, body in functions(f):
            local.setdefault((base, fn), body)
            if not static and base.endswith('.c'):
                public[fn] = base
            elif base.endswith('.h'):
                inline.setdefault(fn, base)
        text = strip(open(f, encoding='utf-8', errors='replace').read())
        for m in OPS_TABLE.finditer(text):
            tables[(base, m.group(1))] = OPS_MEMBER.findall(m.group(2) + ',')

    def resolve(fn, caller):
        if (caller, fn) in local:
            return caller
        return public.get(fn) or inline.get(fn)

    first = [(b, fn) for (b, fn) in local if fn == start]
    if not first:
        raise SystemExit(f'callgraph: no function {start} in {where}')
    seq, done = [], set()
    sys.setrecursionlimit(10000)

    def visit(base, fn):
        seq.append((base, fn))
        if (base, fn) in done:
            return
        done.add((base, fn))
        body = local[(base, fn)]
        calls = [(m.start(), m.group(1)) for m in NAME_CALL.finditer(body)
                 if m.group(1) not in KEYWORDS]
        frame = set(FRAME.findall(HEADS.get((base, fn), '') + body))
        taken = []
        for at, callee in calls:
            args = arguments(body, at)
            if callee in skip or not frame & set(re.findall(r'\w+', args)):
                continue	# a branch left out, or the frame not passed on
            taken.append((at, callee))
            for (b, t), names in tables.items():
                if b == base and re.search(r'&\s*' + t + r'\b', args):
                    taken += [(at, n) for n in names]
        for _, callee in taken:
            at = resolve(callee, base)
            if at and (at, callee) in local and callee not in skip:
                visit(at, callee)
    visit(*first[0])
    stops = []
    for base, fn in seq:
        if not stops or stops[-1][0] != base:
            stops.append((base, [fn]))
        elif fn not in stops[-1][1]:
            stops[-1][1].append(fn)
    return stops


def main_walk(argv):
    start, where, show, skip = None, None, False, set()
    args = iter(argv)
    for a in args:
        if a == '--walk':
            start = next(args)
        elif a == '--dir':
            where = next(args)
        elif a == '--skip':
            skip |= set(next(args).split(','))
        elif a == '--show':
            show = True
        else:
            print(__doc__.strip(), file=sys.stderr)
            return 2
    if where is None:
        where = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                             '..', 'net', 'dpillar')
    stops = walk(start, where, skip)
    count = {}
    for base, _ in stops:
        count[base] = count.get(base, 0) + 1
    if show:
        for i, (base, fns) in enumerate(stops, 1):
            print(f'{i:4} {base:16} {" ".join(fns)}')
    most = max(count, key=lambda b: (count[b], b))
    print(f'{len(stops)} stops in {len(count)} files, '
          f'{len(stops) - len(count)} returns to a file already left '
          f'({most} entered {count[most]} times)')
    return 0


def main(argv):
    if '--walk' in argv:
        return main_walk(argv)
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
