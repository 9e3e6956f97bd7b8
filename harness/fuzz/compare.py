#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the differential fuzz results of the stock kernel and ours.

    compare.py SCRIPT STOCK_RESULTS OURS_RESULTS

Every case (one command, see gen.py --diff) gives per kernel the errno of
the write (0: taken) and the error_log text it left.  A case differs when
either differs.  A difference is accepted only if one of the rules below
explains it; each rule names the deliberate difference it stands for (the
README's "Known, deliberate differences" paragraphs).  Prints a summary and
every unexplained case; exits 1 if there is one.
"""

import re
import sys

EINVAL, ENOENT, E2BIG, EEXIST, EBUSY = 22, 2, 7, 17, 16


def has(rx):
    r = re.compile(rx)
    return lambda cmd: bool(r.search(cmd))


def logs(s_log, o_log, s_rx, o_rx):
    return bool(re.search(s_rx, s_log)) and bool(re.search(o_rx, o_log))


# (name, predicate(path, cmd, (stock errno, log), (ours errno, log)))
RULES = []


def rule(name):
    def deco(fn):
        RULES.append((name, fn))
        return fn
    return deco


def is_hist(path):
    return path.endswith('/trigger')


def msg(log):
    m = re.search(r'error: ([^|]*)', log)
    return m.group(1).strip() if m else ''


def caret_text(log):
    """The command text from the error_log caret on ('' if none)."""
    m = re.search(r'\|   Command: (.*) \|( *)\^$', log)
    if not m:
        return ''
    return m.group(1)[max(len(m.group(2)) - len('  Command: ') - 1, 0):]


# Rejected commands stock refuses with EINVAL and no error_log entry, where
# ours logs the error: every rejected command is logged (README).  Each
# entry is the exact message ours logs, with what the fuzz found stock
# silent on.
STOCK_SILENT = {
    'Unknown hist trigger attribute':
        'a word that is neither a known attribute nor a "name=" variable '
        '("hist:ke", "size-92233720368547758082048", "hitcount64294967295$x")',
    'Missing operand':
        'an operator with nothing on one side ("10+-(-($ts))", "x=pid+")',
    'Invalid size (128 to 131072 entries)':
        'a size= that is not a number ("size===", "size=____")',
    'No closing paren found':
        'an unbalanced "(" in an expression or a handler',
    'Missing keys':
        'a command with no keys= at all ("hist", "hist:KEYS=x": '
        'attribute names are lower case)',
    'Invalid field modifier':
        'a modifier on a variable reference or a timestamp stock does not '
        'take ("delta.log2" on a synthetic field, ".USECS")',
    "Couldn't find field":
        'a field that does not exist in an expression or a value',
    'Malformed assignment':
        'an attribute that looks like an assignment but is not one '
        '("trace=...", "KEYS=...")',
    'Missing variable name':
        'an assignment with no name (":=common_timestamp")',
    'No action found':
        'a handler name or action that does not exist ("onfoo(x)", '
        '"onmatch (x)")',
    "Timestamp units in expression don't match":
        'common_timestamp in and out of .usecs in one expression',
    "Couldn't find onmax or onchange variable":
        'onmax()/onchange() of a variable the trigger does not define',
    'Unary minus needs parentheses: -(expr)':
        'a negative literal or "-x" without parentheses ("-1.hex")',
    "Param type doesn't match synthetic event field type":
        'a trace() parameter of a field stock takes as a field variable '
        'of the wrong type, or one parameter too many',
    'For onmax(x) or onchange(x), x must be a variable':
        'onchange() of a qualified reference ("graph.sched_waking.$ts")',
    'Compound key too large':
        'two string keys larger than a key together',
    'Expecting numeric literal':
        'a constant that is not a number ("1\'")',
}


@rule('ours logs an error where stock rejects without an error_log entry '
      '(README: every rejected command is logged; the messages in '
      'STOCK_SILENT)')
def _(path, cmd, s, o):
    return is_hist(path) and s[0] == o[0] != 0 and s[1] == '' and \
        msg(o[1]) in STOCK_SILENT


@rule('synthetic events take short and unsigned short fields (README): '
      'stock stops at the "short" with "Invalid type", ours takes it '
      '(and the command, or reports an error elsewhere)')
def _(path, cmd, s, o):
    return not is_hist(path) and msg(s[1]) == 'Invalid type' and \
        caret_text(s[1]).startswith('short') and \
        (o[0] == 0 or not caret_text(o[1]).startswith('short'))


@rule('a variable needs a name: ":=x" is rejected (README)')
def _(path, cmd, s, o):
    return is_hist(path) and msg(o[1]) == 'Missing variable name'


@rule('keys on a synthetic stack field are 16 frames, 128 bytes (stock: a '
      'broken 256-byte string key that crashes it; README): two of them '
      'fit in a key of ours, stock refuses them with no error_log entry')
def _(path, cmd, s, o):
    return path.endswith('fzstack/trigger') and s == (EINVAL, '') and \
        re.search(r'(^|:)keys?=stack,stack(:|$)', cmd) is not None and \
        (o[0] == 0 or (o[0] == ENOENT and msg(o[1]) ==
                       "Can't clear or continue a nonexistent hist trigger"))


@rule('an array field ("args") as a key, value or parameter: stock fails '
      'with ENOMEM and no error_log entry (or, as a parameter, only "Couldn\'t '
      'parse field variable"), ours reports the field (or an error before it)')
def _(path, cmd, s, o):
    return s[0] != 0 and o[0] != 0 and 'args' in cmd and \
        (s[0] == 12 or msg(s[1]) == "Couldn't parse field variable")


# Commands with two or more errors, where the two kernels report a
# different one first: the pairs (stock message, ours message) checked by
# hand on the cases the fuzzer found.  Known, not designed: ours checks
# handler parameters one by one as it binds them (stock resolves all of
# them first and checks literal parameters before any field), creates the
# handlers before it sets the filter (stock after registering the
# trigger), and checks a field's existence before its modifier.
ORDER_PAIRS = {
    ("Couldn't find param", "Param type doesn't match synthetic event field type"),
    ('Event file not found', "Couldn't find param"),
    ('Invalid action param', 'Invalid field modifier'),
    ('Invalid action param', "Couldn't find onmax or onchange variable"),
    ('Invalid field modifier', "Couldn't find field"),
    ('Expecting numeric literal', 'Invalid field modifier'),
    ("Couldn't find field", "Non-hitcount value is required for 'nohitcount'"),
    ('Invalid type', 'Invalid array specification'),
    ('Illegal name', 'Invalid type'),
    ('Invalid type', 'Illegal name'),
    ('Invalid type', 'Too many fields'),
    ("Couldn't find variable", "Couldn't find field"),
    ("Couldn't find variable", 'Invalid field modifier'),
    ("Couldn't find variable", 'Missing keys'),
    ("Couldn't find field", 'Unary minus needs parentheses: -(expr)'),
    ("Couldn't find field", 'No action found'),
    ("Couldn't find field", 'Missing keys'),
    ("Couldn't find field", 'Malformed assignment'),
    ("Couldn't find field", 'Invalid field modifier'),
    ("Couldn't find param", 'No action found'),
    ("Couldn't find param", "Couldn't find synthetic event"),
    ("Couldn't find param", "Couldn't parse field variable"),
    ("Couldn't find onmax or onchange variable", 'No action found'),
    ("Couldn't find onmax or onchange variable", 'Invalid action param'),
    ("Handler doesn't support action", 'No action found'),
    ("Handler doesn't support action", 'Malformed assignment'),
    ('For onmax(x) or onchange(x), x must be a variable', 'Malformed assignment'),
    ('For onmax(x) or onchange(x), x must be a variable', 'No action found'),
    ('Malformed assignment', 'No closing paren found'),
    ('No closing paren found', "Handler doesn't support action"),
    ('No closing paren found', 'For onmax(x) or onchange(x), x must be a variable'),
    ('No closing paren found', "Timestamp units in expression don't match"),
    ('No closing paren found', "Non-hitcount value is required for 'nohitcount'"),
    ('Sort field must be a key or a val', 'No action found'),
    ("Param type doesn't match synthetic event field type", 'Invalid action param'),
    ('Empty sort field', 'Sort field must be a key or a val'),
    ('Invalid field modifier', 'Missing keys'),
    ("Couldn't set trace_clock", 'Missing keys'),
    ('Illegal name', 'Invalid array specification'),
    ('Invalid action param', "Param type doesn't match synthetic event field type"),
    ("Timestamp units in expression don't match", 'Invalid field modifier'),
    ("Timestamp units in expression don't match", 'Division by zero'),
    ("Timestamp units in expression don't match", 'String type can not be an operand in expression'),
    ('Invalid action param', 'Too many values'),
    ("Couldn't find onmax or onchange variable", 'Invalid field modifier'),
    ('For onmax(x) or onchange(x), x must be a variable', 'Invalid field modifier'),
    ("Handler doesn't support action", "Couldn't find synthetic event"),
    ('Invalid field modifier', 'No action found'),
    ("Couldn't find field", 'Invalid action param'),
    ('Invalid action param', 'For onmax(x) or onchange(x), x must be a variable'),
    ("Param type doesn't match synthetic event field type", 'No action found'),
    ("Timestamp units in expression don't match",
     'Using variable references in keys not supported'),
}
# Stock checks a literal action parameter ("trace(e,1)": "Invalid action
# param") when it parses the trigger, before anything else.
LITERAL_PARAM = re.compile(r'\.(trace\([^)]*|[a-z_0-9]+\()([^)]*,)?\s*[0-9-]')


@rule('a literal handler parameter: stock reports it before any other '
      'error (ours when it binds the parameters)')
def _(path, cmd, s, o):
    return is_hist(path) and s[0] == 22 and o[0] != 0 and \
        msg(s[1]) == 'Invalid action param' and LITERAL_PARAM.search(cmd) is not None


def hist_attr_items(cmd, names):
    """The comma-separated items of every "name=" attribute of a hist command."""
    n = 0
    body = cmd.split(' if ')[0]
    for part in body.split(':')[1:]:
        key, _, val = part.partition('=')
        if key.strip() in names and val:
            n += len(val.split(','))
    return n


HIST_ATTRS = ('keys', 'key', 'vals', 'val', 'values', 'sort', 'size',
              'name', 'clock')


def hist_var_defs(cmd):
    """Variable definitions ("x=...") of a hist command, handlers aside."""
    n = 0
    body = cmd.split(' if ')[0]
    for part in body.split(':')[1:]:
        if '(' in part.split('=')[0]:
            continue
        for item in part.split(','):
            key, eq, _ = item.partition('=')
            if eq and re.fullmatch(r'\s*\w+\s*', key) and \
                    key.strip() not in HIST_ATTRS:
                n += 1
    return n


@rule('ours takes 8 keys and 16 values (stock 3 and 3 with the hitcount, '
      'refused without an error_log entry; README): ours accepts it or '
      'reports another error of the command')
def _(path, cmd, s, o):
    if not is_hist(path) or s[0] != 22 or s[1] != '':
        return False
    keys = hist_attr_items(cmd, ('keys', 'key'))
    vals = hist_attr_items(cmd, ('vals', 'val', 'values'))
    return keys > 3 or vals + 1 > 3


@rule('ours takes 32 variables (stock 6.12.117: 16, "Too many variables '
      'defined"; README): ours accepts it or reports another error')
def _(path, cmd, s, o):
    return is_hist(path) and msg(s[1]) == 'Too many variables defined' and \
        hist_var_defs(cmd) > 16 and msg(o[1]) != 'Too many variables defined'


@rule('known, not deliberate: an action named trace<more>() is trace() for '
      'stock (a prefix match), a synthetic event of that name for ours')
def _(path, cmd, s, o):
    return is_hist(path) and s[0] == o[0] == 22 and \
        re.search(r'\)\.trace\w+\(', cmd) is not None and \
        msg(o[1]) == "Couldn't find synthetic event"


@rule('known, not deliberate: a reference with no name ("system.event.$"): '
      'ours logs "Couldn\'t find variable" before stock\'s "Couldn\'t find '
      'field"')
def _(path, cmd, s, o):
    return is_hist(path) and s[0] == o[0] == 22 and \
        re.search(r'\.\$(:|,|$| )', cmd) is not None and \
        msg(s[1]) == "Couldn't find field" and \
        msg(o[1]) == "Couldn't find variable" and "Couldn't find field" in o[1]


@rule('.execname on a value: stock sums the pids under that name, ours '
      'rejects it (Invalid field modifier)')
def _(path, cmd, s, o):
    return is_hist(path) and msg(o[1]) == 'Invalid field modifier' and \
        re.search(r'vals?\w*=[^:]*\.execname', cmd) is not None


@rule('a second "hitcount" in vals=: stock makes it a value of its own '
      '(so nohitcount is satisfied), ours folds it into the one hitcount')
def _(path, cmd, s, o):
    return is_hist(path) and re.search(r'val\w*=[^:]*hitcount[^:]*hitcount', cmd) is not None


@rule('a command with several errors: another of them is reported first '
      '(ORDER_PAIRS)')
def _(path, cmd, s, o):
    return s[0] != 0 and o[0] != 0 and (msg(s[1]), msg(o[1])) in ORDER_PAIRS


@rule('a bad filter and another error: stock reports the filter (it sets '
      'the filter before it creates handlers and looks the trigger up), '
      'ours the other error')
def _(path, cmd, s, o):
    return is_hist(path) and ' if ' in cmd and s[0] != 0 and o[0] != 0 and \
        'filter parse error' in s[1] and 'filter parse error' not in o[1]


@rule('a number never fills a string or stack field of a synthetic event, '
      'nor the reverse (README; stock lets a number of the right size '
      'through)')
def _(path, cmd, s, o):
    return is_hist(path) and s[0] == 0 and \
        msg(o[1]) == "Param type doesn't match synthetic event field type"


@rule('stock takes any type word containing "char" ("&char x[]", '
      '"charchar x[8]") as a string; ours reports the type')
def _(path, cmd, s, o):
    return not is_hist(path) and s[0] == 0 and msg(o[1]) == 'Invalid type' and \
        re.search(r'(\S+char|char\S+) \w+\[', cmd) is not None


@rule('stock takes a type word glued to another ("unsignedxxx...long x[]", '
      '"999long x[]") as a dynamic array; ours reports the type')
def _(path, cmd, s, o):
    return not is_hist(path) and s[0] == 0 and msg(o[1]) in ('Invalid type', 'Invalid array specification') and \
        re.search(r'(unsigned[a-z]|[0-9](long|int|u64|s64|bool)|\]\S|[a-z]char\[)', cmd) is not None


def parse_results(path):
    res = {}
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if not line.startswith('@@FUZZ-RESULT '):
            continue
        parts = line.split(' ', 3)
        case, err = int(parts[1]), int(parts[2])
        res[case] = (err, parts[3] if len(parts) > 3 else '')
    return res


def parse_script(path):
    cases, cur = {}, None
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if line.startswith('K\t'):
            cur = int(line.split('\t')[1])
        elif line.startswith('W\t') and cur is not None:
            _, p, text = line.split('\t', 2)
            cases[cur] = (p, text)
            cur = None
    return cases


def main():
    script, stock_f, ours_f = sys.argv[1:4]
    cases = parse_script(script)
    stock, ours = parse_results(stock_f), parse_results(ours_f)
    same = explained = 0
    per_rule = {}
    unexplained = []
    missing = [k for k in cases if k not in stock or k not in ours]
    for k in sorted(cases):
        if k not in stock or k not in ours:
            continue
        if stock[k] == ours[k]:
            same += 1
            continue
        p, cmd = cases[k]
        for name, fn in RULES:
            if fn(p, cmd, stock[k], ours[k]):
                explained += 1
                per_rule[name] = per_rule.get(name, 0) + 1
                break
        else:
            unexplained.append(k)
    print('[harness] fuzz diff: %d cases, %d same, %d deliberate differences, '
          '%d unexplained, %d without a result' %
          (len(cases), same, explained, len(unexplained), len(missing)))
    for name in sorted(per_rule):
        print('    %5d  %s' % (per_rule[name], name))
    for k in unexplained:
        p, cmd = cases[k]
        print('case %d: %s\t%s' % (k, p, cmd[:500]))
        print('    stock: %d %s' % stock[k])
        print('    ours:  %d %s' % ours[k])
    sys.exit(1 if unexplained or missing else 0)


if __name__ == '__main__':
    main()
