#!/bin/bash
# make series: the project as a git-format-patch series on the base.
#
#   series.sh [OUT]      writes OUT (default out/series), prints it
#
# Each harness/series/NN-*.txt is one commit: its first line the subject,
# then "files:" (project files, globs allowed), "patches:" (from
# harness/patches/), "series-patches:" and "series-patches-reversed:"
# lines, a blank line and the body.  A series patch
# (harness/patches/series-only/) is applied by the steps that name it,
# never by the overlay.  It adapts code that a later step replaces (the
# old hist triggers to the new tracing_map, say), so that every step
# builds and works on its own; or it is a feature of its own (hist.json,
# say), written against the final files: an earlier step takes it out of
# the files it adds (reversed), the feature's step puts it back.  The
# commits are made in a git repository of the pristine base (made once,
# in the cache) by copying the project's files and applying the patches,
# step by step;
# an owned base file (harness/owned.txt) is replaced or removed in the
# step that adds ours.  The MAINTAINERS entry (the patch named in
# MAINTAINERS_PATCH below) is not a step of its own: each commit carries
# the entry with the F: lines that match files it has, so no commit adds
# files MAINTAINERS does not cover.  The final tree must be exactly the
# harness's overlay (checked here), and every project file must be in
# exactly one commit.
. "$(dirname "$0")/lib.sh"

out=${1:-$REPO_DIR/out/series}
case $out in /*) ;; *) out=$PWD/$out ;; esac
steps_dir=$HARNESS_DIR/series
patch_dir=$PATCH_DIR
MAINTAINERS_PATCH=0009-maintainers-hist-triggers.patch

# The submitter: author, Signed-off-by (git commit -s) and the M: line of
# the MAINTAINERS entry of every commit.  SERIES_AUTHOR='Name <email>',
# else the git identity of the repository (its config or the user's).
# Never a stand-in: an identity missing or in a reserved domain (example,
# invalid, test, localhost: the machines' seeded placeholder is one) is
# refused, except for SERIES_STANDIN=1 (make series-check, whose series is
# only checked), which then signs with a stand-in that cannot be mailed.
STANDIN='Series Check <series-check@series-check.invalid>'
identity=${SERIES_AUTHOR:-}
if [ -z "$identity" ]; then
	n=$(git -C "$REPO_DIR" config user.name 2>/dev/null || true)
	e=$(git -C "$REPO_DIR" config user.email 2>/dev/null || true)
	[ -n "$n" ] && [ -n "$e" ] && identity="$n <$e>"
fi
identity_ok() { # "Name <email>": one space before "<", no control
	# characters or double quotes (mail headers would carry them, and
	# git am reads quotes away), a domain that is not reserved (trailing
	# dot ignored)
	local domain
	[[ $1 =~ [[:cntrl:]\"] ]] && return 1
	[[ $1 =~ ^[^\<\>@[:space:]]([^\<\>@]*[^\<\>@[:space:]])?\ \<[^\<\>@[:space:]]+@([^\<\>@[:space:]]+\.[^\<\>@[:space:]]+)\>$ ]] || return 1
	domain=${BASH_REMATCH[2],,}
	domain=${domain%.}
	[[ $domain =~ (^|\.)(example|invalid|test|localhost|local)$ ]] && return 1
	[[ $domain =~ (^|\.)example\.(com|net|org)$ ]] && return 1
	return 0
}
if ! identity_ok "$identity"; then
	if [ "${SERIES_STANDIN:-0}" = 1 ]; then
		identity=$STANDIN
	else
		die "make series: no submitter identity (found '${identity:-none}'). The series is authored and signed off (DCO) by whoever submits it: set yours with git config user.name / user.email, or SERIES_AUTHOR='Your Name <you@your.domain>'"
	fi
fi
sub_name=${identity% <*}
sub_email=${identity##*<}
sub_email=${sub_email%>}

"$HARNESS_DIR/host-deps.sh"
base=$("$HARNESS_DIR/fetch-base.sh")
overlay=$("$HARNESS_DIR/overlay.sh")
repo=$CACHE_DIR/series/git
base_version=$(make -s -C "$base" kernelversion 2>/dev/null || echo "$BASE_VERSION")

# No user or system git configuration in what we generate.
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
g() { git -C "$repo" "$@"; }

# The base as a git repository with one commit, tagged "base".
if [ "$(cat "$repo/.git/harness-base" 2>/dev/null)" != "$base" ]; then
	say "series: making a git repository of the base ($base_version) in $repo"
	rm -rf "$repo"
	mkdir -p "$repo"
	cp -a "$base/." "$repo/"
	g init -q
	g config user.name harness
	g config user.email harness@localhost
	g config core.autocrlf false
	g add -A -f
	GIT_AUTHOR_DATE='2024-01-01T00:00:00Z' GIT_COMMITTER_DATE='2024-01-01T00:00:00Z' \
		g commit -q -m "Linux $base_version (Debian $BASE_PKG)"
	g tag -f base >/dev/null
	echo "$base" >"$repo/.git/harness-base"
fi

# Author and committer: the submitter; the date: the project's last
# commit's, so the same repository state gives the same patches.
date=$(git -C "$REPO_DIR" log -1 --format=%cI 2>/dev/null || echo 2024-01-01T00:00:00Z)
export GIT_AUTHOR_NAME=$sub_name GIT_AUTHOR_EMAIL=$sub_email GIT_AUTHOR_DATE=$date
export GIT_COMMITTER_NAME=$sub_name GIT_COMMITTER_EMAIL=$sub_email GIT_COMMITTER_DATE=$date

project_files=$(cd "$REPO_DIR" && git ls-files --cached --others --exclude-standard -- \
	kernel include Documentation tools samples |
	while read -r f; do if [ -f "$f" ]; then echo "$f"; fi; done | sort)
owned=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$HARNESS_DIR/owned.txt")

field() { # step-file key -> the values of its "key:" lines
	sed -n '2,/^$/p' "$1" | sed -n "s/^$2:[[:space:]]*//p" | tr '\n' ' '
}

# MAINTAINERS as of the final tree, and the entry's F: lines.
final_maint=$(mktemp)
trap 'rm -f "$final_maint" "$final_maint".*' EXIT
cp "$base/MAINTAINERS" "$final_maint"
patch -s -p1 --batch --forward --fuzz=0 --no-backup-if-mismatch "$final_maint" <"$patch_dir/$MAINTAINERS_PATCH" ||
	die "$MAINTAINERS_PATCH does not apply"
# The entry's maintainer is the submitter (the patch names the project's
# own identity, which the overlay keeps).
[ "$(grep -cE '^\+M:' "$patch_dir/$MAINTAINERS_PATCH" || true)" = 1 ] ||
	die "$MAINTAINERS_PATCH: one M: line expected"
entry_m=$(grep -E '^\+M:' "$patch_dir/$MAINTAINERS_PATCH" | sed 's/^+M:[[:space:]]*//')
submitter_maint() { # MAINTAINERS on stdin, the entry's M: line the submitter's
	awk -v old="M:	$entry_m" -v new="M:	$identity" '$0 == old { $0 = new } { print }'
}
entry_f=$(grep -E '^\+F:' "$patch_dir/$MAINTAINERS_PATCH" | sed 's/^+F:[[:space:]]*//')
entry_name=$(grep -E '^\+[A-Z]' "$patch_dir/$MAINTAINERS_PATCH" | grep -v '^+[A-Z]:' | head -n 1 | sed 's/^+//')
maintainers_now() { # the final MAINTAINERS, F: lines only for files the series changed so far
	local - pat f keep=() changed
	set -f	# the F: patterns are matched below, never expanded
	changed=$(g diff --cached --name-only base -- . ':!MAINTAINERS')
	for pat in $entry_f; do
		for f in $changed; do
			# shellcheck disable=SC2053
			if [[ $f == $pat ]] || { [ "${pat%/}" != "$pat" ] && [[ $f == "$pat"* ]]; }; then
				keep+=("$pat")
				break
			fi
		done
	done
	awk -v keep="${keep[*]}" -v all="$(printf '%s ' $entry_f)" -v entry="$entry_name" '
		BEGIN { n = split(keep, k, " "); for (i = 1; i <= n; i++) K[k[i]] = 1
			n = split(all, a, " "); for (i = 1; i <= n; i++) A[a[i]] = 1 }
		# the whole entry goes while none of its files is there yet
		$0 == entry { in_entry = 1; if (n_keep == 0) skip = 1 }
		in_entry && /^$/ { in_entry = 0; if (skip) { skip = 0; next } }
		skip { next }
		/^F:\t/ { p = $0; sub(/^F:\t/, "", p); if ((p in A) && !(p in K)) next }
		{ print }' n_keep=${#keep[@]} "$final_maint"
}

say "series: committing the steps"
g checkout -q -f -B series base
g clean -q -fdx
used=$(mktemp -p "$(dirname "$final_maint")" "$(basename "$final_maint").XXXX")
used_patches=""
used_series_patches=""
taken_out=""
for step in "$steps_dir"/[0-9]*.txt; do
	subject=$(head -n 1 "$step")
	# the patterns are matched against the project's files, never
	# expanded in the current directory
	set -f
	pats=$(field "$step" files)
	for pat in $pats; do
		matched=0
		for f in $project_files; do
			# shellcheck disable=SC2053
			[[ $f == $pat ]] || continue
			matched=1
			mkdir -p "$repo/$(dirname "$f")"
			cp "$REPO_DIR/$f" "$repo/$f"
			g add -f -- "$f"
			echo "$f" >>"$used"
		done
		[ $matched = 1 ] || die "$(basename "$step"): '$pat' matches no project file"
	done
	set +f
	for p in $(field "$step" patches); do
		[ -f "$patch_dir/$p" ] || die "$(basename "$step"): no patch $p"
		apply_exact "$repo" "$patch_dir/$p" offset-ok ||
			die "$(basename "$step"): $p does not apply"
		used_patches="$used_patches $p"
	done
	for p in $(field "$step" series-patches-reversed); do
		pf=$patch_dir/series-only/$p
		[ -f "$pf" ] || die "$(basename "$step"): no series patch $p"
		# --forward: a tree that lacks the hunks is an error, not a
		# reason for patch to apply them the other way
		rev=$(patch -p1 -d "$repo" -R --forward --dry-run --batch --fuzz=0 -r - \
			--no-backup-if-mismatch <"$pf" 2>&1) && ! grep -qE 'offset|fuzz' <<<"$rev" ||
			{ printf '%s\n' "$rev" >&2; die "$(basename "$step"): series patch $p does not come out exactly"; }
		patch -s -p1 -d "$repo" -R --forward --batch --fuzz=0 -r - --no-backup-if-mismatch <"$pf" ||
			die "$(basename "$step"): series patch $p does not come out"
		[[ " $taken_out " != *" $p "* ]] || die "$(basename "$step"): $p taken out twice"
		taken_out="$taken_out $p"
	done
	for p in $(field "$step" series-patches); do
		[ -f "$patch_dir/series-only/$p" ] || die "$(basename "$step"): no series patch $p"
		apply_exact "$repo" "$patch_dir/series-only/$p" ||
			die "$(basename "$step"): series patch $p does not apply"
		used_series_patches="$used_series_patches $p"
		taken_out=$(echo " $taken_out " | sed "s/ $p / /")
	done
	g add -A
	maintainers_now | submitter_maint >"$repo/MAINTAINERS"
	g add -A
	{
		cat "$step" | head -n 1
		echo
		sed '1,/^$/d' "$step"
	} | g commit -q -s -F - || die "$(basename "$step"): nothing to commit"
	say "series: $subject"
done

# Owned base files the project did not provide in any step are removed
# by the last one that replaces something... there must be none.
for f in $owned; do
	grep -qxF "$f" "$used" || die "owned path $f is not replaced by any step"
done
# Every project file in exactly one step, every patch in one step.
dup=$(sort "$used" | uniq -d)
[ -z "$dup" ] || die "in more than one step: $dup"
missing=$(comm -23 <(echo "$project_files") <(sort -u "$used"))
[ -z "$missing" ] || die "in no step: $(echo $missing)"
for p in $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$patch_dir/series"); do
	[ "$p" = "$MAINTAINERS_PATCH" ] && continue
	[[ " $used_patches " == *" $p "* ]] || die "patch $p is in no step"
done
for p in "$patch_dir"/series-only/*.patch; do
	[ -e "$p" ] || continue
	[[ " $used_series_patches " == *" $(basename "$p") "* ]] ||
		die "series patch $(basename "$p") is in no step"
done
[ -z "$(echo $taken_out)" ] || die "series patches taken out and never put back: $(echo $taken_out)"

[ -z "$(g status --porcelain --ignored)" ] ||
	die "files left out of the commits: $(g status --porcelain --ignored | head -n 5)"

# The final tree is the overlay the harness builds: every file the series
# or the overlay touches has the same content (or is absent) in both.
say "series: comparing the final tree with the overlay $overlay"
bad=$( { g diff --no-renames --name-only base series; echo "$project_files"; echo "$owned";
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$patch_dir/series" |
		while read -r p; do grep -E '^\+\+\+ ' "$patch_dir/$p" | sed -e 's/^+++ [^/]*\///' -e 's/[[:space:]].*//'; done
	} | sort -u | while read -r f; do
		if [ "$f" = MAINTAINERS ]; then
			g show "series:$f" | cmp -s - <(submitter_maint <"$overlay/$f") || echo "$f"
		elif g cat-file -e "series:$f" 2>/dev/null; then
			g show "series:$f" | cmp -s - "$overlay/$f" || echo "$f"
		elif [ -e "$overlay/$f" ]; then
			echo "$f"
		fi
	done)
[ -z "$bad" ] || die "the series' tree differs from the overlay in: $(echo $bad)"

# Only ever remove a previous series (patches and nothing else).
if [ -e "$out" ]; then
	[ -d "$out" ] && [ -z "$(find "$out" -mindepth 1 ! -name '*.patch')" ] ||
		die "$out exists and is not a patch series: not overwriting it"
	rm -rf "$out"
fi
mkdir -p "$out"
g format-patch -q --cover-letter --base=base --no-signature --abbrev=12 \
	-o "$out" base..series >/dev/null
cover=$(ls "$out"/0000-cover-letter.patch)
# The cover letter's numbers: the first table of harness/bench-results.md
# (make bench's last committed run), indented as in a mail.
python3 - "$cover" "$steps_dir/cover.txt" "$base_version" "$BASE_PKG" \
	"$HARNESS_DIR/bench-results.md" <<'EOF'
import re, sys
path, text = sys.argv[1], open(sys.argv[2]).read().rstrip('\n').split('\n')
bench = open(sys.argv[5]).read()
block = bench.split('```\n')[1].split('\n')
def rows(first, stop):
    out, on = [], False
    for l in block:
        if l.startswith(first):
            on = True
        elif on and (not l.strip() or l.startswith(stop)):
            break
        if on:
            out.append('  ' + l.rstrip())
    if not out:
        sys.exit('bench-results.md: no table starting with ' + first)
    return '\n'.join(out)
table = rows('mode                    stock', 'pipeline-2048 on')
memory = rows('triggers', 'same key')
series = '.'.join(sys.argv[3].split('.')[:2])
subst = {'@BASE_VERSION@': sys.argv[3], '@BASE_SERIES@': series,
         '@BASE_PKG@': sys.argv[4], '@BENCH_TABLE@': table,
         '@BENCH_MEMORY@': memory}
unknown = sorted(set(re.findall('@[A-Z_]+@', '\n'.join(text))) - set(subst))
if unknown:
    sys.exit('cover.txt: unknown ' + ', '.join(unknown))
text = [re.sub('@[A-Z_]+@', lambda m: subst[m.group(0)], l) for l in text]
s = open(path).read()
s = s.replace('*** SUBJECT HERE ***', text[0], 1)
s = s.replace('*** BLURB HERE ***', '\n'.join(text[2:] if len(text) > 1 and text[1] == '' else text[1:]), 1)
open(path, 'w').write(s)
EOF
# Cc: whom scripts/get_maintainer.pl names for each patch (the final
# tree's MAINTAINERS), the submitter left out; the cover letter goes to
# all of them.
all_cc=$(mktemp -p "$(dirname "$final_maint")" "$(basename "$final_maint").XXXX")
cc_of() { # patch -> one address per line
	local who
	who=$(cd "$repo" && perl scripts/get_maintainer.pl --no-rolestats --no-git \
		--no-git-fallback --no-tree "$1") ||
		die "get_maintainer.pl failed on $(basename "$1")"
	echo "$who" | grep -vxF "$identity" | grep -vF "<$sub_email>" || true
}
add_cc() { # patch, addresses file
	python3 - "$1" "$2" <<'PY'
import sys
path, ccs = sys.argv[1], [l.strip() for l in open(sys.argv[2]) if l.strip()]
s = open(path).read()
head, sep, body = s.partition('\nSubject: ')
s = head + ''.join('\nCc: ' + c for c in ccs) + sep + body
open(path, 'w').write(s)
PY
}
for p in "$out"/[0-9]*.patch; do
	case $p in */0000-cover-letter.patch) continue ;; esac
	cc_of "$p" >"$all_cc.one"
	[ -s "$all_cc.one" ] || die "get_maintainer.pl names nobody for $(basename "$p")"
	add_cc "$p" "$all_cc.one"
	cat "$all_cc.one" >>"$all_cc"
done
awk '!seen[$0]++' "$all_cc" >"$all_cc.one"
add_cc "$cover" "$all_cc.one"
rm -f "$all_cc" "$all_cc.one"
say "series: $(ls "$out" | grep -vc cover) patches and a cover letter in $out, from $identity"
echo "$out"
