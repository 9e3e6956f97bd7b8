#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the hist.json documents a guest run sent to the host.

    json-check.py RESULTS_LOG

test.d/trigger/hist-json.tc keeps each hist.json it reads in
$HIST_JSON_DIR, which the guest's init sets and sends to the results
port as

    @@JSON-BEGIN <name>
    @@J <line of the document>
    ...
    @@JSON-END <name>

Every document must load with Python's json module (strict: no NaN or
Infinity, no duplicate names in an object, nothing after the document),
have the shape Documentation/trace/histogram.rst describes, and, for the
named ones below, decode to the given strings.  If the test ran, there
must be documents.  Prints what is wrong; exits 1 then.
"""
import json
import re
import sys

TEST_TITLE = 'Hist triggers - hist.json'


def no_dups(pairs):
    names = [k for k, _ in pairs]
    dup = {k for k in names if names.count(k) > 1}
    if dup:
        raise ValueError(f'duplicate names {sorted(dup)}')
    return dict(pairs)


def bad_constant(name):
    raise ValueError(f'{name} is not JSON')


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def check_key_part(name, v):
    if is_int(v) or isinstance(v, str):
        return None
    if isinstance(v, list):
        if all(isinstance(x, str) and x for x in v):
            return None
        return f'key {name}: a stack must be a list of texts'
    if isinstance(v, dict):
        shapes = ({'comm', 'pid'}, {'name', 'id'}, {'log2'}, {'from', 'to'},
                  {'below'}, {'from'})
        if set(v) in shapes:
            return None
    return f'key {name}: unexpected {v!r}'


def check_value(name, v):
    if is_int(v):
        return None
    if isinstance(v, dict) and list(v) == ['p50', 'p90', 'p99', 'p99.9', 'max'] \
            and all(is_int(x) for x in v.values()):
        return None
    return f'value {name}: unexpected {v!r}'


def check_shape(doc):
    errs = []
    if not isinstance(doc, dict) or list(doc) != ['system', 'event', 'histograms']:
        return ['top level: not {"system", "event", "histograms"}']
    if not all(isinstance(doc[k], str) and doc[k] for k in ('system', 'event')):
        errs.append('system/event: not names')
    for i, h in enumerate(doc['histograms']):
        if not isinstance(h, dict) or list(h) != ['trigger', 'paused', 'entries', 'totals']:
            errs.append(f'histogram {i}: unexpected members')
            continue
        if not isinstance(h['trigger'], str) or not h['trigger'].startswith('hist:') \
                or h['trigger'].endswith(']'):
            errs.append(f'histogram {i}: trigger {h["trigger"]!r}')
        if not isinstance(h['paused'], bool):
            errs.append(f'histogram {i}: paused is not a boolean')
        t = h['totals']
        if list(t) != ['hits', 'entries', 'dropped'] or not all(is_int(x) for x in t.values()):
            errs.append(f'histogram {i}: totals {t!r}')
        elif t['entries'] != len(h['entries']):
            errs.append(f'histogram {i}: {len(h["entries"])} entries, totals say {t["entries"]}')
        for j, e in enumerate(h['entries']):
            if list(e) not in (['key', 'values'], ['key', 'values', 'actions']):
                errs.append(f'histogram {i} entry {j}: members {list(e)}')
                continue
            for k, v in e['key'].items():
                err = check_key_part(k, v)
                if err:
                    errs.append(f'histogram {i} entry {j}: {err}')
            for k, v in e['values'].items():
                err = check_value(k, v)
                if err:
                    errs.append(f'histogram {i} entry {j}: {err}')
            for a in e.get('actions', []):
                if not isinstance(a, dict) or list(a) not in \
                        (['max'], ['changed'], ['max', 'saved'], ['changed', 'saved']) or \
                        not is_int(a[list(a)[0]]) or \
                        not isinstance(a.get('saved', {}), dict) or \
                        not all(v is None or is_int(v) or isinstance(v, (str, list))
                                for v in a.get('saved', {}).values()):
                    errs.append(f'histogram {i} entry {j}: action {a!r}')
    return errs


def entries(doc):
    return [e for h in doc['histograms'] for e in h['entries']]


# Named documents: what their strings must decode to.
def expect_strings(doc):
    want = 'zz_q"\\\t\u00e9'
    got = entries(doc)[0]['key']['common_comm']
    return [] if got == want else [f'common_comm decodes to {got!r}, not {want!r}']


def expect_execname(doc):
    want = 'zz_q"\\\t\u00e9'
    got = [e['key'].get('common_pid.execname') for e in entries(doc)]
    if any(k and k['comm'] == want and is_int(k['pid']) and k['pid'] > 0 for k in got):
        return []
    return [f'.execname keys {got!r} lack the comm {want!r}']


def expect_synthetic(doc):
    acts = [a for e in entries(doc) for a in e.get('actions', [])]
    want = [{'max': 30, 'saved': {'lat': 30, 'name': 'n30'}}]
    return [] if acts == want else [f'actions {acts!r}, not {want!r}']


def expect_symbols(doc):
    key = entries(doc)[0]['key']
    errs = []
    if key.get('call_site.sym') != 'schedule':
        errs.append(f'call_site.sym is {key.get("call_site.sym")!r}')
    if not re.fullmatch(r'schedule\+0x0/0x[0-9a-f]+', key.get('ptr.sym-offset', '')):
        errs.append(f'ptr.sym-offset is {key.get("ptr.sym-offset")!r}')
    return errs


def expect_stack(doc):
    stack = entries(doc)[0]['key']['common_stacktrace']
    if not 1 <= len(stack) <= 16 or not all(re.fullmatch(r'\S+\+0x[0-9a-f]+/0x[0-9a-f]+( \[\S+\])?', f)
                                           for f in stack):
        return [f'stack {stack!r}']
    return []


def expect_syscalls(doc):
    keys = [e['key']['id.syscall'] for e in entries(doc)]
    if not keys or not all(re.fullmatch(r'sys_\w+', k['name'] or '') for k in keys):
        return [f'system calls {keys!r}']
    return []


EXPECT = {
    'strings': expect_strings,
    'execname': expect_execname,
    'synthetic': expect_synthetic,
    'symbols': expect_symbols,
    'stack': expect_stack,
    'syscalls': expect_syscalls,
}


def main():
    # bytes: a document must be strict UTF-8 (RFC 8259), checked per document
    lines = open(sys.argv[1], 'rb').read().split(b'\n')
    ran = any(TEST_TITLE.encode() in line and re.search(rb'\t\[(PASS|FAIL)\]$', line)
              for line in lines)
    docs, name, buf, errs = [], None, [], []
    for line in lines:
        if line.startswith(b'@@JSON-BEGIN '):
            name, buf = line.split(b' ', 1)[1].decode('ascii', 'replace'), []
        elif line.startswith(b'@@JSON-END ') and name is not None:
            docs.append((name, b'\n'.join(buf) + b'\n'))
            name = None
        elif name is not None and line.startswith(b'@@J'):
            buf.append(line[4:])
    if ran and not docs:
        errs.append('the hist.json test ran but sent no documents')
    seen = set()
    for name, raw in docs:
        try:
            text = raw.decode('utf-8')
        except UnicodeDecodeError as e:
            errs.append(f'{name}: not UTF-8: {e}')
            continue
        try:
            doc = json.loads(text, object_pairs_hook=no_dups, parse_constant=bad_constant)
        except ValueError as e:
            errs.append(f'{name}: not valid JSON: {e}')
            continue
        problems = check_shape(doc)
        if not problems and name in EXPECT:
            try:
                problems = EXPECT[name](doc)
            except (KeyError, IndexError, TypeError) as e:
                problems = [f'missing {e}']
        errs += [f'{name}: {p}' for p in problems]
        seen.add(name)
    if ran:
        errs += [f'{n}: document not sent' for n in sorted(set(EXPECT) - seen)]
    for e in errs:
        print(f'hist.json: {e}')
    if docs and not errs:
        print(f'hist.json: {len(docs)} documents valid')
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
