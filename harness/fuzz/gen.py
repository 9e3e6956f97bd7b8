#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Generate a make-fuzz script: tracefs commands for harness/guest/fuzz.c.

    gen.py --seed S --count N [--seq K] [--diff]

Two kinds of script:

- state (default): sequences of 10-60 operations that create, use, read,
  pause, clear and remove hist triggers, enable_hist/disable_hist
  triggers, synthetic and dynamic events in the top-level array and in
  instances, remove instances that hold them, then undo what is left and
  have the guest check that the state is clean.  Sequences are generated
  until the script holds N operations.  Sequence K depends only on (S, K),
  so --seq K regenerates exactly that one sequence.

- differential (--diff): a fixture (synthetic events and variables that
  other commands can use), then N single-command cases, each undone if the
  kernel took it.  Commands that are known to crash the stock kernel are
  never generated here.

Every command is valid by the grammar (about 60 %), almost valid (one
token dropped, duplicated, replaced, truncated, a huge number, a long name,
odd blanks) or random tokens.
"""

import argparse
import random
import sys

# Events the guest's background load fires, and their fields.
STR, NUM, PID, PTR, SYSID, ARR, DSTR = 'str', 'num', 'pid', 'ptr', 'sysid', 'arr', 'dstr'
EVENTS = {
    'sched/sched_switch': {'prev_comm': STR, 'prev_pid': PID, 'prev_prio': NUM,
                           'prev_state': NUM, 'next_comm': STR, 'next_pid': PID,
                           'next_prio': NUM},
    'sched/sched_waking': {'comm': STR, 'pid': PID, 'prio': NUM, 'target_cpu': NUM},
    'sched/sched_wakeup': {'comm': STR, 'pid': PID, 'prio': NUM, 'target_cpu': NUM},
    'sched/sched_process_fork': {'parent_comm': STR, 'parent_pid': PID,
                                 'child_comm': STR, 'child_pid': PID},
    'sched/sched_process_exit': {'comm': STR, 'pid': PID, 'prio': NUM},
    'sched/sched_process_exec': {'filename': DSTR, 'pid': PID, 'old_pid': PID},
    'raw_syscalls/sys_enter': {'id': SYSID, 'args': ARR},
    'raw_syscalls/sys_exit': {'id': SYSID, 'ret': NUM},
    'syscalls/sys_enter_lseek': {'__syscall_nr': SYSID, 'fd': NUM, 'offset': NUM,
                                 'whence': NUM},
    'syscalls/sys_exit_lseek': {'__syscall_nr': SYSID, 'ret': NUM},
    'kmem/kmalloc': {'call_site': PTR, 'ptr': PTR, 'bytes_req': NUM,
                     'bytes_alloc': NUM, 'gfp_flags': NUM, 'node': NUM},
    'kmem/kfree': {'call_site': PTR, 'ptr': PTR},
}
COMMON = {'common_pid': PID, 'common_timestamp': NUM, 'common_cpu': NUM,
          'cpu': NUM, 'common_stacktrace': 'stack', 'stacktrace': 'stack',
          'common_type': NUM, 'common_flags': NUM, 'common_preempt_count': NUM}
# Pairs that make sense for onmatch(): (start event, its key, end event, its key).
PAIRS = [
    ('sched/sched_waking', 'pid', 'sched/sched_switch', 'next_pid'),
    ('sched/sched_wakeup', 'pid', 'sched/sched_switch', 'next_pid'),
    ('sched/sched_waking', 'pid', 'sched/sched_wakeup', 'pid'),
    ('raw_syscalls/sys_enter', 'common_pid', 'raw_syscalls/sys_exit', 'common_pid'),
    ('syscalls/sys_enter_lseek', 'common_pid', 'syscalls/sys_exit_lseek', 'common_pid'),
    ('sched/sched_process_fork', 'child_pid', 'sched/sched_process_exit', 'pid'),
    ('kmem/kmalloc', 'ptr', 'kmem/kfree', 'ptr'),
]
SYNTH_TYPES = ['u64', 's64', 'u32', 's32', 'u16', 's16', 'u8', 's8', 'int',
               'unsigned int', 'long', 'unsigned long', 'pid_t', 'bool',
               'char[16]', 'char[]', 'char[8]', 'gfp_t', 'unsigned long[]',
               'short', 'unsigned short', 'char', 'u128', 'float', 'char[0]',
               'char[300]', 'long[]', 'struct x']
NUM_MODS = ['hex', 'sym', 'sym-offset', 'log2', 'buckets=10', 'buckets=1',
            'buckets=0', 'buckets=999999999999', 'usecs', 'execname',
            'syscall', 'percent', 'graph', 'stacktrace', 'cpu', 'foo', '']
CLOCKS = ['global', 'local', 'mono', 'mono_raw', 'perf', 'counter', 'boot',
          'tai', 'x86-tsc', 'bogus']
SIZES = ['1', '2', '3', '16', '100', '128', '1024', '2048', '4096', '131072',
         '262144', '0', '-1', '18446744073709551616', 'x']
HANDLERS = ['onmatch', 'onmax', 'onchange', 'onfoo']
VOCAB = ['hist', 'keys', 'key', 'vals', 'values', 'val', 'sort', 'size',
         'name', 'clock', 'pause', 'cont', 'continue', 'clear', 'nohitcount',
         'NOHC', 'hitcount', 'common_pid', 'common_timestamp', 'usecs',
         'onmatch', 'onmax', 'onchange', 'trace', 'save', 'snapshot',
         'descending', 'ascending', 'if', 'enable_hist', 'disable_hist',
         '$', '.', ',', ':', '=', '(', ')', '+', '-', '*', '/', '&&', '||',
         '==', '!=', '~', '"', 'u64', 'char[16]', ';', 'pid', 'prio', '0',
         '1', '-1', '4294967296', 'sched', 'sched_switch', 'synthetic',
         'stacktrace', 'common_stacktrace', 'log2', 'hex', 'sym', 'execname',
         'buckets', 'graph', 'percent', '\t', '  ', '!']


class Gen:
    def __init__(self, rnd, diff=False):
        self.r = rnd
        self.diff = diff
        self.ops = []
        self.nsynth = 0
        self.nvar = 0
        # differential mode: the grammar makes valid commands only, so that
        # a mutated one has a single error to compare
        self.clean = diff

    # --- small helpers -------------------------------------------------
    def chance(self, p):
        return self.r.random() < p

    def pick(self, seq):
        return self.r.choice(seq)

    def emit(self, *fields):
        self.ops.append('\t'.join(fields))

    def fields(self, ev):
        if ev.startswith('synthetic/'):
            return dict(self.synth.get(ev.split('/', 1)[1], {}))
        return dict(EVENTS[ev])

    def varname(self):
        self.nvar += 1
        if self.chance(0.03):
            return 'v' * self.r.randint(30, 300)
        return self.pick(['ts', 'lat', 'v', 'x', 'prio', 'pid', 'common_pid',
                          'hitcount', 'stamp', 'w']) + str(self.nvar % 7)

    def number(self):
        if self.clean:
            return self.pick(['0', '1', '2', '10', '1000', '0x10'])
        return self.pick(['0', '1', '2', '10', '1000', '-1', '-3',
                          '9223372036854775807', '18446744073709551615',
                          '99999999999999999999999', '0x10', '1e3', '07'])

    # --- fields and expressions -----------------------------------------
    def field(self, ev, kinds=None, mods=True):
        f = self.fields(ev)
        names = [n for n, k in f.items() if kinds is None or k in kinds]
        if self.chance(0.15) or not names:
            names = names + ['common_pid', 'common_timestamp', 'cpu',
                             'common_cpu']
        name = self.pick(names)
        if self.chance(0.03) and not self.clean:
            name = self.pick(['nosuchfield', 'pid.', '.pid', 'x' * 300,
                              'common_stacktrace', 'hitcount', 'common_comm'])
        kind = f.get(name, COMMON.get(name, NUM))
        if mods and self.chance(0.3):
            mod = self.mod_for(kind, name)
            if mod:
                name += '.' + mod
        return name

    def mod_for(self, kind, name):
        if self.diff and kind != 'stack':
            pool = [m for m in NUM_MODS if m != 'stacktrace']
        else:
            pool = NUM_MODS
        if self.chance(0.6) or self.clean:
            if kind == PID:
                return self.pick(['execname', 'hex', 'log2'])
            if kind == SYSID:
                return 'syscall'
            if kind == PTR:
                return self.pick(['sym', 'sym-offset', 'hex'])
            if name.startswith('common_timestamp'):
                return 'usecs'
            if kind == 'stack' and not self.diff:
                return 'stacktrace'
            if kind == NUM:
                return self.pick(['hex', 'log2', 'buckets=%d' % self.r.randint(1, 2000)])
            if self.clean:
                return ''
        return self.pick(pool)

    def operand(self, ev, refs):
        c = self.r.random()
        if c < 0.35 and refs:
            return self.ref(refs)
        if c < 0.5:
            return self.number()
        if c < 0.65:
            return 'common_timestamp' + self.pick(['', '.usecs'])
        return self.field(ev, kinds=(NUM, PID, SYSID, PTR), mods=self.chance(0.3))

    def expr(self, ev, refs, depth=0):
        c = self.r.random()
        if depth > 2 or c < 0.4:
            e = self.operand(ev, refs)
        elif c < 0.85:
            e = '%s%s%s' % (self.operand(ev, refs), self.pick('+-*/'),
                            self.expr(ev, refs, depth + 1))
        elif c < 0.95:
            e = '-(%s)' % self.expr(ev, refs, depth + 1)
        else:
            e = '(%s)%s' % (self.expr(ev, refs, depth + 1),
                            self.pick(['.usecs', '.hex', '']))
        return e

    def ref(self, refs):
        arr, ev, var = self.pick(refs)
        c = self.r.random()
        if c < 0.7:
            return '$' + var
        sysn, evn = ev.split('/')
        if c < 0.9:
            return '%s.%s.$%s' % (sysn, evn, var)
        return '$%s.%s.%s' % (sysn, evn, var)

    def filt(self, ev):
        f = self.fields(ev)
        terms = []
        for _ in range(self.r.randint(1, 3)):
            name = self.pick(list(f) + ['common_pid', 'cpu', 'comm'])
            kind = f.get(name, NUM)
            if kind in (STR, DSTR):
                terms.append('%s %s "%s"' % (name, self.pick(['==', '!=', '~']),
                                             self.pick(['sh', 'fuzz*', '*z*', 'a' * 40])))
            else:
                terms.append('%s %s %s' % (name, self.pick(['==', '!=', '<', '>', '>=', '&']),
                                           self.number()))
        sep = self.pick([' && ', ' || '])
        return sep.join(terms)

    # --- hist triggers ----------------------------------------------------
    def keys(self, ev, key=None):
        ks = []
        if key:
            ks.append(key)
        for _ in range(self.r.randint(0 if key else 1, 2)):
            if self.chance(0.08) and (not self.diff or ev.startswith('synthetic/') is False):
                ks.append(self.pick(['common_stacktrace', 'stacktrace']))
            else:
                ks.append(self.field(ev))
        if self.chance(0.02):
            ks = ks * self.r.randint(2, 4)
        return ','.join(ks)

    def hist(self, ev, refs, key=None, defvars=None, handler=None, name=None):
        """A hist trigger on ev; defvars gets (var, kind) of the variables
        it defines."""
        parts = ['%s=%s' % (self.pick(['keys', 'keys', 'key']), self.keys(ev, key))]
        if self.chance(0.5):
            vals = []
            for _ in range(self.r.randint(1, 3)):
                c = self.r.random()
                if c < 0.2:
                    vals.append('hitcount')
                elif c < 0.35 and refs:
                    vals.append(self.ref(refs))
                else:
                    vals.append(self.field(ev, kinds=(NUM, PID, PTR, SYSID)))
            parts.append('%s=%s' % (self.pick(['vals', 'vals', 'values', 'val']), ','.join(vals)))
        nvars = self.r.randint(0, 3) if defvars is not None else 0
        if self.chance(0.01):
            nvars = self.r.randint(15, 20)
        for _ in range(nvars):
            v = self.varname()
            c = self.r.random()
            if c < 0.4:
                body = 'common_timestamp' + self.pick(['', '.usecs', '.usecs', '.hex'])
            elif c < 0.7:
                body = self.field(ev, mods=self.chance(0.2))
            else:
                body = self.expr(ev, refs)
            if self.chance(0.01):
                v = ''
            parts.append('%s=%s' % (v, body))
            if defvars is not None:
                defvars.append(v)
        if self.chance(0.3):
            if self.clean:
                parts.append('sort=hitcount' + self.pick(['', '.descending']))
            else:
                parts.append('sort=' + ','.join(
                    self.pick(['hitcount', self.field(ev, mods=False), 'nosuch']) +
                    self.pick(['', '.descending', '.ascending', '.bogus'])
                    for _ in range(self.r.randint(1, 3))))
        # mostly small valid sizes: a debug kernel allocates every entry
        if self.chance(0.85):
            parts.append('size=' + (self.pick(['128', '256', '128', '2048'])
                                    if self.chance(0.8) or self.clean else self.pick(SIZES)))
        if name or (self.chance(0.08) and not self.clean):
            parts.append('name=' + (name or self.pick(['fzn', 'fzm', 'x' * 300, 'a-b'])))
        if self.chance(0.1):
            parts.append('clock=' + self.pick(CLOCKS[:5] if self.clean else CLOCKS))
        if self.chance(0.12):
            parts.append(self.pick(['pause', 'cont', 'continue', 'clear',
                                    'nohitcount', 'NOHC']))
        if handler:
            parts.append(handler)
        if self.chance(0.1):
            self.r.shuffle(parts)
        cmd = 'hist:' + ':'.join(parts)
        if self.chance(0.15) and not self.clean:
            cmd += ' if ' + self.filt(ev)
        return cmd

    def handler(self, ev, refs, match_ev=None):
        h = self.pick(HANDLERS[:3] if self.chance(0.97) else HANDLERS)
        if h == 'onmatch':
            m = match_ev or self.pick(list(EVENTS))
            arg = m.replace('/', '.')
        else:
            arg = self.ref(refs) if refs else '$' + self.varname()
        actions = []
        for _ in range(1 if self.chance(0.9) else 2):
            c = self.r.random()
            if c < 0.5 and self.synth:
                s = self.pick(list(self.synth))
                params = self.params(ev, refs, self.synth[s])
                if self.chance(0.3):
                    actions.append('%s(%s)' % (s, params))
                else:
                    actions.append('trace(%s%s)' % (s, ',' + params if params else ''))
            elif c < 0.8:
                actions.append('save(%s)' % ','.join(
                    self.field(ev, mods=False) for _ in range(self.r.randint(1, 3))))
            else:
                actions.append('snapshot()')
        return '%s(%s).%s' % (h, arg, '.'.join(actions))

    def params(self, ev, refs, sfields):
        out = []
        n = len(sfields)
        if self.chance(0.15):
            n = max(0, n + self.pick([-1, 1, 2]))
        kinds = list(sfields.values())
        for i in range(n):
            want = kinds[i] if i < len(kinds) else NUM
            c = self.r.random()
            if c < 0.45 and refs:
                out.append(self.ref(refs))
            elif c < 0.9:
                out.append(self.field(ev, kinds=(want,) if want in (STR, NUM, PID) else None,
                                      mods=self.chance(0.05)))
            else:
                out.append(self.pick(['common_timestamp', 'cpu', '1', 'comm', '$nosuch',
                                      'sched.sched_switch.prev_pid']))
        return ','.join(out)

    # --- synthetic events -------------------------------------------------
    def synth_def(self):
        self.nsynth += 1
        name = 'fz%d' % (self.nsynth % 5)
        if self.chance(0.03):
            name = self.pick(['x' * 300, '1abc', 'a-b', 'sched_switch', ''])
        fields = {}
        text = []
        for i in range(self.r.randint(1, 4) if self.chance(0.97) else self.r.randint(30, 70)):
            t = self.pick(SYNTH_TYPES[:14]) if self.chance(0.8) else self.pick(SYNTH_TYPES)
            fname = self.pick(['lat', 'pid', 'prio', 'comm', 'f', 'val', 'stack']) + str(i)
            if t.endswith('[]') or t.startswith('char['):
                base, arr = t.split('[', 1)
                decl = '%s %s[%s' % (base, fname, arr)
                kind = STR if base == 'char' else 'stack'
            else:
                decl = '%s %s' % (t, fname)
                kind = PID if t == 'pid_t' else NUM
            text.append(decl)
            fields[fname] = kind
        sep = self.pick(['; ', ';', ' ; ']) if self.chance(0.9) else self.pick(['  ', '\t', ';;'])
        return name, fields, ' '.join([name, sep.join(text)]) if text else name

    # --- mutation ---------------------------------------------------------
    def tokens(self, s):
        out, cur = [], ''
        for ch in s:
            if ch in ':,=().;$ \t!+-*/"':
                if cur:
                    out.append(cur)
                out.append(ch)
                cur = ''
            else:
                cur += ch
        if cur:
            out.append(cur)
        return out

    def mutate(self, s):
        c = self.r.random()
        if c < 0.6:
            return s, 'valid'
        if c < 0.92 and s:
            t = self.tokens(s)
            i = self.r.randrange(len(t))
            m = self.r.randrange(9)
            if m == 0:
                del t[i]
            elif m == 1:
                t.insert(i, t[i])
            elif m == 2:
                t[i] = self.pick(VOCAB)
            elif m == 3:
                return s[:self.r.randrange(len(s) + 1)], 'mutated'
            elif m == 4:
                t[i] = self.pick(['18446744073709551616', '4294967295',
                                  '-9223372036854775808', '9' * 40])
            elif m == 5:
                t[i] = self.pick('abcx_') * self.r.choice([64, 255, 256, 1000, 3000])
            elif m == 6:
                t.insert(i, self.pick([' ', '  ', '\t', ' \t ']))
            elif m == 7:
                t[i] = t[i].upper()
            else:
                t.insert(i, self.pick('~`@#%^&[]{}<>?|\\\'"'))
            return ''.join(t), 'mutated'
        n = self.r.randint(1, 20)
        return ''.join(self.pick(VOCAB) for _ in range(n)), 'random'

    # --- script pieces ----------------------------------------------------
    def trig_path(self, arr, ev):
        return '%sevents/%s/trigger' % (arr, ev)


def sequence(seed, n):
    """Operations of sequence n (list of strings) and the events it touched."""
    g = Gen(random.Random('%s:%d' % (seed, n)))
    g.synth = {}
    arrays = ['']
    triggers = []        # (path, text), in creation order
    refs = []            # (array, event, var): defined by accepted-looking triggers
    touched = set()
    inst = 0

    def put(path, text, ops='W'):
        g.emit(ops, path, text)

    def add_trigger(arr, ev, text):
        text, how = g.mutate(text)
        path = g.trig_path(arr, ev)
        touched.add(ev)
        put(path, text)
        triggers.append((path, text))
        return how

    steps = g.r.randint(8, 45)
    for _ in range(steps):
        c = g.r.random()
        arr = g.pick(arrays)
        if c < 0.06 and inst < 3:
            inst += 1
            name = 'fz%d_%d' % (n % 1000, inst)
            if g.chance(0.03):
                name = g.pick(['x' * 200, 'a b'])
            g.emit('M', 'instances/' + name)
            arrays.append('instances/%s/' % name)
        elif c < 0.09 and len(arrays) > 1:
            victim = g.pick(arrays[1:])
            g.emit('D', victim.rstrip('/'))
            arrays.remove(victim)
            refs[:] = [x for x in refs if x[0] != victim]
        elif c < 0.2:
            name, fields, text = g.synth_def()
            text, how = g.mutate(text) if g.chance(0.3) else (text, 'valid')
            if g.chance(0.3):
                put('dynamic_events', 's:%s%s' % (g.pick(['', 'synthetic/']), text))
            else:
                put('synthetic_events', text)
            if how == 'valid':
                g.synth[name] = fields
        elif c < 0.25 and g.synth:
            name = g.pick(list(g.synth))
            if g.chance(0.5):
                put('synthetic_events', '!' + name)
            else:
                put('dynamic_events', '-:%s%s' % (g.pick(['', 'synthetic/']), name))
        elif c < 0.42:
            # A variable-defining trigger on a pair's start event.
            s_ev, s_key, e_ev, e_key = g.pick(PAIRS)
            defs = []
            text = g.hist(s_ev, [], key=s_key, defvars=defs)
            if not defs:
                v = g.varname()
                text = text.replace('hist:', 'hist:%s=common_timestamp.usecs:' % v, 1)
                defs.append(v)
            if add_trigger(arr, s_ev, text) == 'valid':
                refs.extend((arr, s_ev, v) for v in defs if v)
        elif c < 0.58:
            # A consumer: handler on a pair's end event using variables.
            usable = [x for x in refs if x[0] == arr]
            pair = None
            if usable:
                r_arr, r_ev, r_var = g.pick(usable)
                for p in PAIRS:
                    if p[0] == r_ev:
                        pair = p
            s_ev, s_key, e_ev, e_key = pair or g.pick(PAIRS)
            defs = []
            lat = g.varname()
            ts = [x for x in usable if x[1] == s_ev]
            body = 'common_timestamp.usecs-$%s' % g.pick(ts)[2] if ts else g.expr(e_ev, usable)
            handler = g.handler(e_ev, usable + [(arr, e_ev, lat)], match_ev=s_ev)
            text = g.hist(e_ev, usable, key=e_key, defvars=defs, handler=handler)
            text = text.replace('hist:', 'hist:%s=%s:' % (lat, body), 1)
            if add_trigger(arr, e_ev, text) == 'valid':
                refs.append((arr, e_ev, lat))
        elif c < 0.66 and g.synth:
            # A hist on a synthetic event.
            ev = 'synthetic/' + g.pick(list(g.synth))
            add_trigger(arr, ev, g.hist(ev, []))
        elif c < 0.76:
            ev = g.pick(list(EVENTS))
            add_trigger(arr, ev, g.hist(ev, [x for x in refs if x[0] == arr],
                                        name=g.pick(['fzn', None, None])))
        elif c < 0.8:
            ev = g.pick(list(EVENTS))
            other = g.pick(list(EVENTS) + ['synthetic/' + s for s in g.synth])
            text = '%s:%s%s' % (g.pick(['enable_hist', 'disable_hist']),
                                other.replace('/', ':'),
                                g.pick(['', ':2', ':fzn', ':0', ':x']))
            if g.chance(0.2):
                text += ' if ' + g.filt(ev)
            add_trigger(arr, ev, text)
        elif c < 0.86 and triggers:
            path, text = g.pick(triggers)
            if text.startswith('hist:'):
                base = text.split(' if ')[0]
                put(path, base + ':' + g.pick(['pause', 'cont', 'clear']))
        elif c < 0.9 and triggers:
            i = g.r.randrange(len(triggers))
            path, text = triggers[i]
            put(path, '!' + text)
        elif c < 0.97:
            what = g.pick(['hist', 'hist_debug', 'trigger', 'format'])
            ev = g.pick(list(touched) or list(EVENTS))
            if what == 'format' and g.synth:
                ev = 'synthetic/' + g.pick(list(g.synth))
            g.emit('R', '%sevents/%s/%s' % (arr, ev, what))
            if g.chance(0.2):
                g.emit('R', arr + 'error_log')
            if g.chance(0.1):
                g.emit('R', 'synthetic_events')
        else:
            g.emit('P', str(g.r.randint(1, 20)))
        if g.chance(0.05):
            g.emit('P', str(g.r.randint(1, 5)))
    # Undo in reverse order; the guest finds anything that stays.
    for path, text in reversed(triggers):
        if any(path.startswith(a) for a in arrays if a) or path.startswith('events/'):
            g.emit('U', path, '!' + text)
    for name in g.synth:
        g.emit('U', 'synthetic_events', '!' + name)
    for a in arrays[1:]:
        g.emit('D', a.rstrip('/'))
    g.emit('C', ' '.join(sorted(touched)))
    return g.ops


FIXTURE = [
    ('synthetic_events', 'fzlat u64 lat; pid_t pid; char comm[16]'),
    ('synthetic_events', 'fzone int val'),
    ('synthetic_events', 'fzstack unsigned long[] stack; u64 delta'),
    ('events/sched/sched_waking/trigger', 'hist:keys=pid:fzts=common_timestamp.usecs:fzprio=prio'),
    ('events/raw_syscalls/sys_enter/trigger', 'hist:keys=common_pid:fzid=id:fzt=common_timestamp'),
]
FIXTURE_REFS = [('', 'sched/sched_waking', 'fzts'), ('', 'sched/sched_waking', 'fzprio'),
                ('', 'raw_syscalls/sys_enter', 'fzid'), ('', 'raw_syscalls/sys_enter', 'fzt')]


def diff_script(seed, count):
    """Single-command cases against a fixture, for stock vs ours."""
    g = Gen(random.Random('%s:diff' % seed), diff=True)
    g.synth = {'fzlat': {'lat': NUM, 'pid': PID, 'comm': STR}, 'fzone': {'val': NUM},
               'fzstack': {'stack': 'stack', 'delta': NUM}}
    ops = []

    def fixture():
        ops.append('C\t*')
        for path, text in FIXTURE:
            ops.append('V\t%s\t%s' % (path, text))

    for k in range(count):
        if k % 250 == 0:
            fixture()
        g.ops = []
        c = g.r.random()
        if c < 0.55:
            ev = g.pick(list(EVENTS))
            handler = None
            if g.chance(0.4):
                s_ev = g.pick(['sched/sched_waking', 'raw_syscalls/sys_enter'])
                handler = g.handler(ev, FIXTURE_REFS, match_ev=s_ev)
            defs = []
            text = g.hist(ev, FIXTURE_REFS, defvars=defs, handler=handler)
            if g.chance(0.4):
                text = text.replace('hist:', 'hist:fzl=%s:' % g.expr(ev, FIXTURE_REFS), 1)
            path = 'events/%s/trigger' % ev
        elif c < 0.65:
            ev = 'synthetic/' + g.pick(list(g.synth))
            text = g.hist(ev, [])
            path = 'events/%s/trigger' % ev
        elif c < 0.7:
            ev = g.pick(list(EVENTS))
            text = '%s:%s' % (g.pick(['enable_hist', 'disable_hist']),
                              g.pick(list(EVENTS)).replace('/', ':'))
            path = 'events/%s/trigger' % ev
        elif c < 0.9:
            name, fields, text = g.synth_def()
            if g.chance(0.3):
                path, text = 'dynamic_events', 's:' + text
            else:
                path = 'synthetic_events'
        else:
            path = g.pick(['synthetic_events', 'dynamic_events',
                           'events/sched/sched_switch/trigger'])
            text = ''.join(g.pick(VOCAB) for _ in range(g.r.randint(1, 12)))
        text, how = g.mutate(text)
        if '\t' in text or text.startswith('!') or text.startswith('-:'):
            text = text.replace('\t', ' ').lstrip('!')
            if text.startswith('-:'):
                text = text[2:]
        ops.append('K\t%d' % k)
        ops.append('W\t%s\t%s' % (path, text))
        # Undo if it was taken (the guest runs Y only after a taken W).
        words = text.split()
        if path == 'synthetic_events':
            undo = '!' + words[0].split(';')[0] if words else ''
        elif path == 'dynamic_events':
            rest = text[2:].split() if text.startswith('s:') else []
            undo = '-:' + rest[0].split(';')[0] if rest else ''
        else:
            undo = '!' + text
        if undo:
            ops.append('Y\t%s\t%s' % (path, undo))
    ops.append('C\t*')
    return ops


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--seed', required=True)
    ap.add_argument('--count', type=int, default=1000)
    ap.add_argument('--seq', type=int)
    ap.add_argument('--first', type=int, default=0)
    ap.add_argument('--diff', action='store_true')
    a = ap.parse_args()
    w = sys.stdout.write
    if a.diff:
        for op in diff_script(a.seed, a.count):
            w(op + '\n')
        return
    if a.seq is not None:
        w('S\t%d\n' % a.seq)
        for op in sequence(a.seed, a.seq):
            w(op + '\n')
        return
    total, n = 0, a.first
    while total < a.count:
        ops = sequence(a.seed, n)
        w('S\t%d\n' % n)
        for op in ops:
            w(op + '\n')
        total += sum(1 for op in ops if op[0] in 'WUTRMD')
        n += 1


if __name__ == '__main__':
    main()
