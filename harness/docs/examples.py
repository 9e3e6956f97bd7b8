#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Runnable examples of Documentation/trace/*.rst.

An example is a literal block preceded by an rst comment

    .. example: NAME
       setup: CMD        (hidden, before the block's commands)
       workload: CMD     (hidden, just before the block's first `cat`)
       mask: SED-ERE     (applied to expected and actual output)
       cleanup: CMD      (hidden, after the block)
       fails: N[,N...]   (the block's commands N, counted from 1, must
                         fail: a command shown rejected; every other
                         command must succeed)

In the block, "# CMD" lines whose first word is a command below are run in
/sys/kernel/tracing; the lines after one, up to the next command, are its
expected stdout.

    examples.py gen OUTDIR FILE...     one NNN-name.{sh,expected,mask} each
    examples.py update LOG FILE...     rewrite the expected outputs of the
                                       examples from a guest log's
                                       @@DOCEX-BEGIN/END sections
    examples.py list FILE...           names and commands (for checking)
"""
import re
import shlex
import sys

COMMANDS = {'echo', 'cat', 'grep', 'head', 'tail', 'sort', 'ls', 'mkdir',
            'rmdir', 'cut', 'sleep', 'wc'}
KEYS = ('setup', 'workload', 'mask', 'cleanup', 'fails')
TIME_MASK = r's/^\[ *[0-9]+\.[0-9]+\] /[TIME] /'


def indent_of(line):
    return len(line) - len(line.lstrip(' '))


def is_command(text):
    if not text.startswith('# '):
        return False
    words = text[2:].split()
    return bool(words) and words[0] in COMMANDS


class Example:
    def __init__(self, path, name, lineno):
        self.path, self.name, self.lineno = path, name, lineno
        self.hidden = {k: [] for k in KEYS}
        self.first = self.last = None   # block line range [first, last)
        self.indent = 0
        self.steps = []                 # [command, [expected lines]]


def parse(path, lines):
    examples = []
    i = 0
    while i < len(lines):
        m = re.match(r'^\.\. example: *([A-Za-z0-9_.-]+) *$', lines[i])
        if not m:
            if re.match(r'^\s*\.\.\s+example', lines[i]):
                sys.exit(f'{path}:{i + 1}: malformed or indented example marker')
            i += 1
            continue
        ex = Example(path, m.group(1), i + 1)
        i += 1
        while i < len(lines) and (lines[i].startswith(' ') and lines[i].strip()):
            km = re.match(r'^\s+(\w+):\s?(.*)$', lines[i])
            if not km or km.group(1) not in KEYS:
                sys.exit(f'{path}:{i + 1}: example {ex.name}: bad line {lines[i]!r}')
            ex.hidden[km.group(1)].append(km.group(2))
            i += 1
        # The literal block: after the paragraph that follows, which
        # must end in "::" (or be "::" alone).
        while i < len(lines) and not lines[i].strip():
            i += 1
        while i < len(lines) and lines[i].strip() and \
                not lines[i].rstrip().endswith('::'):
            i += 1
        if i >= len(lines) or not lines[i].rstrip().endswith('::'):
            sys.exit(f'{path}:{ex.lineno}: example {ex.name}: no literal block')
        base = indent_of(lines[i])
        i += 1
        while i < len(lines) and not lines[i].strip():
            i += 1
        ex.first = i
        ex.indent = indent_of(lines[i])
        if ex.indent <= base:
            sys.exit(f'{path}:{i + 1}: example {ex.name}: literal block not indented')
        # The block ends at the first line indented less than its first.
        while i < len(lines) and (not lines[i].strip() or
                                  indent_of(lines[i]) >= ex.indent):
            i += 1
        ex.last = i
        while ex.last > ex.first and not lines[ex.last - 1].strip():
            ex.last -= 1
        for line in lines[ex.first:ex.last]:
            text = line[ex.indent:] if line.strip() else ''
            if is_command(text):
                ex.steps.append([text[2:], []])
            elif not ex.steps:
                sys.exit(f'{path}:{ex.lineno}: example {ex.name}: output before any command')
            else:
                ex.steps[-1][1].append(text)
        for st in ex.steps:
            while st[1] and not st[1][-1]:
                st[1].pop()
        examples.append(ex)
    return examples


def load(files):
    out = []
    names = set()
    for path in files:
        with open(path) as f:
            lines = f.read().split('\n')
        for ex in parse(path, lines):
            if ex.name in names:
                sys.exit(f'{path}:{ex.lineno}: example name {ex.name} used twice')
            names.add(ex.name)
            out.append(ex)
    return out


def hidden_cmd(line):
    """An inject line keeps its fields as written (quotes included)."""
    m = re.match(r'^inject\s+(\S+)\s+(\d+)\s+(.*)$', line)
    if m:
        return f'inject {m.group(1)} {m.group(2)} {shlex.quote(m.group(3))}'
    return line


def gen(outdir, files):
    for n, ex in enumerate(load(files)):
        stem = f'{outdir}/{n:03d}-{ex.name}'
        sh = ['#!/bin/sh',
              f'# {ex.path}:{ex.lineno}: example {ex.name}',
              'cd /sys/kernel/tracing',
              'inject() { # system/event count fields...',
              '\tev=$1; n=$2; shift 2',
              '\twhile [ "$n" -gt 0 ]; do',
              '\t\techo "$*" > events/$ev/inject',
              '\t\tn=$((n - 1))',
              '\tdone',
              '}',
              'workload_done=0',
              'workload() {',
              '\t[ $workload_done = 1 ] && return',
              '\tworkload_done=1',
              ':']
        sh += ['\t' + hidden_cmd(w) for w in ex.hidden['workload']]
        sh += ['}']
        fails = set()
        for f in ex.hidden['fails']:
            try:
                fails |= {int(n) for n in f.split(',')}
            except ValueError:
                sys.exit(f'{ex.path}:{ex.lineno}: example {ex.name}: bad fails: {f!r}')
        if not fails <= set(range(1, len(ex.steps) + 1)):
            sys.exit(f'{ex.path}:{ex.lineno}: example {ex.name}: fails: names no command')
        sh += [hidden_cmd(c) for c in ex.hidden['setup']]
        for k, (cmd, _) in enumerate(ex.steps):
            if cmd.split()[0] == 'cat':
                sh.append('workload >/dev/null 2>&1')
            sh.append(f'echo "@@CMD {k + 1}"')
            # every documented command must succeed, those "fails:"
            # names must fail: otherwise it is reported (run_example()
            # in harness/guest/docex/lib.sh)
            sh.append(f'{{ {cmd}\n}}')
            if k + 1 in fails:
                sh.append(f'rc=$?; [ $rc != 0 ] || echo "@@RC {k + 1} 0, documented as failing"')
            else:
                sh.append(f'rc=$?; [ $rc = 0 ] || echo "@@RC {k + 1} $rc"')
        sh += [hidden_cmd(c) for c in ex.hidden['cleanup']]
        sh.append('exit 0')
        with open(stem + '.sh', 'w') as f:
            f.write('\n'.join(sh) + '\n')
        with open(stem + '.expected', 'w') as f:
            for k, (_, exp) in enumerate(ex.steps):
                f.write(f'@@CMD {k + 1}\n')
                for line in exp:
                    f.write(line + '\n')
        with open(stem + '.mask', 'w') as f:
            f.write(TIME_MASK + '\n')
            for m in ex.hidden['mask']:
                f.write(m + '\n')


def update(log, files):
    actual = {}
    cur = None
    with open(log, errors='replace') as f:
        for line in f:
            line = line.rstrip('\r\n')
            m = re.match(r'^@@DOCEX-BEGIN \d+-(\S+)$', line)
            if m:
                cur = m.group(1)
                actual[cur] = []
                continue
            if line.startswith('@@DOCEX-END'):
                cur = None
                continue
            if cur is not None:
                actual[cur].append(line)
    for path in files:
        with open(path) as f:
            lines = f.read().split('\n')
        changed = 0
        for ex in reversed(parse(path, lines)):
            if ex.name not in actual:
                continue
            outs = {}
            k = None
            for line in actual[ex.name]:
                m = re.match(r'^@@CMD (\d+)$', line)
                if m:
                    k = int(m.group(1))
                    outs[k] = []
                elif k is not None:
                    line = line.expandtabs(8).rstrip()
                    if is_command(line):
                        sys.exit(f'{path}: example {ex.name}: output line '
                                 f'{line!r} would read as a command')
                    outs[k].append(line)
            block = []
            pad = ' ' * ex.indent
            for k, (cmd, _) in enumerate(ex.steps):
                block.append(pad + '# ' + cmd)
                out = outs.get(k + 1, [])
                while out and not out[-1]:
                    out.pop()
                block += [pad + o if o else '' for o in out]
            lines[ex.first:ex.last] = block
            changed += 1
        with open(path, 'w') as f:
            f.write('\n'.join(lines))
        print(f'{path}: {changed} example(s) updated')


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    mode = sys.argv[1]
    if mode == 'gen':
        gen(sys.argv[2], sys.argv[3:])
    elif mode == 'update':
        update(sys.argv[2], sys.argv[3:])
    elif mode == 'list':
        for ex in load(sys.argv[2:]):
            print(f'{ex.path}:{ex.lineno}: {ex.name}: ' +
                  ' | '.join(c for c, _ in ex.steps))
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
