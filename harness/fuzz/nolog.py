"""The rules of harness/fuzz/nolog.txt: which rejected writes may leave no
error_log entry.  Used by harness/fuzz.sh and by the harness selftest."""
import re


def load(path):
    """Return the (errno, compiled regex) rules of a nolog file."""
    rules = []
    for line in open(path):
        line = line.split('#', 1)[0].strip()
        if line:
            err, rx = line.split(None, 1)
            rules.append((int(err), re.compile(rx)))
    return rules


def excused(rules, err, cmd):
    """True if a write of cmd ('path<TAB>command') rejected with errno err
    may leave no error_log entry."""
    return any(int(err) == e and r.search(cmd) for e, r in rules)


if __name__ == '__main__':
    # nolog.py RULES CASES: each case line is "allow|deny <errno>
    # <path><TAB><command>" (\t and \\ escapes in the command); print
    # every case the rules decide otherwise and exit 1 if there is one.
    import sys
    rules = load(sys.argv[1])
    wrong = 0
    for n, line in enumerate(open(sys.argv[2]), 1):
        line = line.rstrip('\n')
        if not line or line.startswith('#'):
            continue
        want, err, cmd = line.split(' ', 2)
        cmd = cmd.replace('\\t', '\t').replace('\\\\', '\\')
        got = 'allow' if excused(rules, err, cmd) else 'deny'
        if got != want:
            print('%s:%d: expected %s, the rules %s: %s %r' %
                  (sys.argv[2], n, want, got, err, cmd))
            wrong += 1
    sys.exit(1 if wrong else 0)
