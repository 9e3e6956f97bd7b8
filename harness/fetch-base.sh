#!/bin/bash
# Fetch Debian's linux-source-6.12 (suite trixie) with a private apt state,
# unpack it once into the cache and print the base tree's path.
#
# The mirror is read from the machine's own apt sources at run time; the
# system's apt configuration is never changed and nothing gets installed.
. "$(dirname "$0")/lib.sh"

base_ok() {
	[ -f "$BASE_DIR/Makefile" ] && [ -f "$BASE_DIR/.harness-unpacked" ] &&
		grep -q '^VERSION = 6$' "$BASE_DIR/Makefile" &&
		grep -q '^PATCHLEVEL = 12$' "$BASE_DIR/Makefile"
}

if base_ok; then
	echo "$BASE_DIR"
	exit 0
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

deb=$(ls "$apt_dir"/dl/${BASE_PKG}_*.deb 2>/dev/null | tail -n 1 || true)
if [ -z "$deb" ]; then
	say "download: $BASE_PKG from $BASE_SUITE"
	apt-get "${apt_opts[@]}" -qq update
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
touch "$work/linux-source-$BASE_VERSION/.harness-unpacked"
rm -rf "$CACHE_DIR/base"
mkdir -p "$CACHE_DIR/base"
mv "$work/linux-source-$BASE_VERSION" "$BASE_DIR"
rm -rf "$work"
base_ok || die "unpacked tree at $BASE_DIR is not Linux $BASE_VERSION"
echo "$BASE_DIR"
