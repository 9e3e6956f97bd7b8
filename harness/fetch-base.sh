#!/bin/bash
# Fetch Debian's linux-source-$KERNEL (6.12: suite trixie; 7.3:
# trixie-backports) with a private apt state, unpack it once into the
# cache and print the base tree's path.
#
# The mirror is read from the machine's own apt sources at run time; the
# system's apt configuration is never changed and nothing gets installed.
. "$(dirname "$0")/lib.sh"

base_ok() {
	[ -f "$BASE_DIR/Makefile" ] && [ -f "$BASE_DIR/.harness-unpacked" ] &&
		grep -qx "VERSION = ${KERNEL%%.*}" "$BASE_DIR/Makefile" &&
		grep -qx "PATCHLEVEL = ${KERNEL#*.}" "$BASE_DIR/Makefile"
}

# The Debian version of the package the tree was unpacked from (empty for
# a tree unpacked before it was recorded).
have_deb() { cat "$BASE_DIR/.harness-unpacked" 2>/dev/null || true; }

# Everything made from the base: stale once the base changes.  (ccache
# stays: it keys on the preprocessed source, so it can never serve an
# object of the old tree.)
drop_derived() {
	rm -rf "$CACHE_DIR/src-ours" "$CACHE_DIR/src-stock" "$CACHE_DIR"/build-* "$CACHE_DIR/series" \
		"$CACHE_DIR"/docs-*
}

# A warm cache must test what a fresh machine would: at most every
# BASE_CHECK_MINUTES (30), ask the archive which version it serves, and
# unpack it again if that is not the one the cache holds.  OFFLINE=1
# skips the look-up (and says so).
stamp=$CACHE_DIR/apt/checked
refresh=0
if base_ok; then
	# (run.sh's first lines say that the archive was not asked)
	if [ "${OFFLINE:-0}" = 1 ]; then
		echo "$BASE_DIR"
		exit 0
	fi
	if [ -n "$(find "$stamp" -mmin "-${BASE_CHECK_MINUTES:-30}" 2>/dev/null)" ]; then
		echo "$BASE_DIR"
		exit 0
	fi
	refresh=1
fi

# The first URI that serves a plain release suite (not -security/-updates).
find_mirror() {
	local f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk '$1 == "deb" {
			i = 2
			if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
			if ($(i + 1) !~ /-/) { print $i; exit }
		}' "$f"
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk 'BEGIN { RS = ""; FS = "\n" }
		{
			uri = ""; suites = ""; deb = 0
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^Types:/ && $i ~ /[ \t]deb([ \t]|$)/) deb = 1
				if ($i ~ /^URIs:/) { uri = $i; sub(/^URIs:[ \t]*/, "", uri); sub(/[ \t].*/, "", uri) }
				if ($i ~ /^Suites:/) { suites = $i; sub(/^Suites:[ \t]*/, "", suites) }
			}
			n = split(suites, s, /[ \t]+/)
			for (j = 1; j <= n; j++)
				if (deb && uri != "" && s[j] != "" && s[j] !~ /-/) { print uri; exit }
		}' "$f"
	done
}

mirror=$(find_mirror | head -n 1)
[ -n "$mirror" ] || die "no Debian mirror found in the machine's apt sources"

apt_dir=$CACHE_DIR/apt
mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial" "$apt_dir/etc/preferences.d" \
	"$apt_dir/etc/sources.list.d" "$apt_dir/dl"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
echo "deb [signed-by=$keyring] $mirror $BASE_SUITE main" >"$apt_dir/etc/sources.list"

apt_opts=(-o "Dir::State=$apt_dir" -o "Dir::State::Lists=$apt_dir/lists"
	  -o "Dir::State::status=/dev/null" -o "Dir::Cache=$apt_dir"
	  -o "Dir::Cache::archives=$apt_dir/archives"
	  -o "Dir::Etc::SourceList=$apt_dir/etc/sources.list"
	  -o "Dir::Etc::SourceParts=$apt_dir/etc/sources.list.d"
	  -o "Dir::Etc::Preferences=/dev/null"
	  -o "Dir::Etc::PreferencesParts=$apt_dir/etc/preferences.d"
	  -o "APT::Sandbox::User=root" -o "Debug::NoLocking=1")

if [ "$refresh" = 1 ]; then
	if ! apt-get "${apt_opts[@]}" -qq update 2>/dev/null; then
		say "base: the archive did not answer; testing the cached $(base_version) (deb $(have_deb))"
		echo "$BASE_DIR"
		exit 0
	fi
	cand=$(apt-cache "${apt_opts[@]}" policy "$BASE_PKG" 2>/dev/null |
		awk '$1 == "Candidate:" { print $2 }')
	touch "$stamp"
	if [ -z "$cand" ] || [ "$cand" = "(none)" ]; then
		say "base: the archive lists no $BASE_PKG; testing the cached $(base_version)"
		echo "$BASE_DIR"
		exit 0
	fi
	if [ "$cand" = "$(have_deb)" ]; then
		echo "$BASE_DIR"
		exit 0
	fi
	say "base: the archive serves $BASE_PKG $cand, the cache holds ${BASE_PKG} $(have_deb || true) ($(base_version)): refreshing"
	rm -f "$apt_dir"/dl/*.deb
fi

deb=$(ls "$apt_dir"/dl/${BASE_PKG}_*.deb 2>/dev/null | tail -n 1 || true)
if [ -z "$deb" ]; then
	say "download: $BASE_PKG from $BASE_SUITE"
	[ "$refresh" = 1 ] || apt-get "${apt_opts[@]}" -qq update
	(cd "$apt_dir/dl" && apt-get "${apt_opts[@]}" -qq download "$BASE_PKG")
	deb=$(ls "$apt_dir"/dl/${BASE_PKG}_*.deb | tail -n 1)
fi
[ -f "$deb" ] || die "download of $BASE_PKG failed"

say "unpack: $(basename "$deb")"
work=$CACHE_DIR/base.tmp
rm -rf "$work"
mkdir -p "$work"
dpkg-deb -x "$deb" "$work/deb"
tarball=$(ls "$work"/deb/usr/src/linux-source-"$BASE_VERSION".tar.* | head -n 1)
[ -f "$tarball" ] || die "no source tarball in $deb"
tar -C "$work" -xf "$tarball"
[ -d "$work/linux-source-$BASE_VERSION" ] || die "unexpected tarball layout"
dpkg-deb -f "$deb" Version >"$work/linux-source-$BASE_VERSION/.harness-unpacked"
drop_derived
rm -rf "$CACHE_DIR/base"
mkdir -p "$CACHE_DIR/base"
mv "$work/linux-source-$BASE_VERSION" "$BASE_DIR"
rm -rf "$work"
base_ok || die "unpacked tree at $BASE_DIR is not Linux $BASE_VERSION"
mkdir -p "$(dirname "$stamp")"
touch "$stamp"
say "base: Linux $(base_version) (Debian $BASE_PKG $(have_deb))"
echo "$BASE_DIR"
