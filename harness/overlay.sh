#!/bin/bash
# Build the project's source tree from the pristine base:
#
#   base - owned paths (harness/owned.txt) + project files + patches
#
# The tree is a hard-link copy of the base made once.  Project files are
# symlinks into the repository, so editing one only rebuilds what depends
# on it.  Patched files are private copies, redone only when the patch
# series changes.  Prints the tree's path.
. "$(dirname "$0")/lib.sh"

base=$("$HARNESS_DIR/fetch-base.sh")
src=$CACHE_DIR/src-ours
state=$src/.harness

# The tree is of one base: its path and version.
base_id="$base $(base_version "$base") $(cat "$base/.harness-unpacked" 2>/dev/null || true)"
if [ ! -f "$state/created" ] || [ "$(cat "$state/created")" != "$base_id" ]; then
	say "overlay: creating $src from the base (hard links)"
	rm -rf "$src"
	mkdir -p "$CACHE_DIR"
	cp -al "$base" "$src"
	mkdir -p "$state"
	echo "$base_id" >"$state/created"
fi

restore_from_base() {	# path relative to the tree
	rm -f "$src/$1"
	if [ -e "$base/$1" ]; then
		cp -p "$base/$1" "$src/$1"
	fi
}

# 1. Patches to shared base files: undo the previous series, apply the new.
patches=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PATCH_DIR/series" 2>/dev/null || true)
sum=$( (cd "$PATCH_DIR" && for p in $patches; do cat "$p"; done) | sha1sum | cut -d' ' -f1)
if [ "$(cat "$state/patches.sum" 2>/dev/null)" != "$sum" ]; then
	if [ -f "$state/patched.list" ]; then
		while read -r f; do restore_from_base "$f"; done <"$state/patched.list"
	fi
	: >"$state/patched.list"
	for p in $patches; do
		pf=$PATCH_DIR/$p
		[ -f "$pf" ] || die "patch $p listed in series is missing"
		# Break the hard links first: patch must never write into the base.
		grep -E '^\+\+\+ ' "$pf" | sed -e 's/^+++ [^/]*\///' -e 's/[[:space:]].*//' |
			while read -r f; do
				grep -qxF "$f" "$state/patched.list" && continue
				echo "$f" >>"$state/patched.list"
				[ -e "$src/$f" ] && cp -p --remove-destination "$src/$f" "$src/$f.tmp.$$" &&
					mv "$src/$f.tmp.$$" "$src/$f"
			done
		say "overlay: applying $p"
		# Exactly or not at all: no fuzz, no offset.  A patch whose
		# context moved stops the build with the patch and hunk named.
		apply_base_patch "$src" "$pf"
	done
	echo "$sum" >"$state/patches.sum"
fi

# 2. Owned paths: never the base's version.
owned=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$HARNESS_DIR/owned.txt")
for f in $owned; do
	[ -L "$src/$f" ] || rm -f "$src/$f"
done

# 3. Project files, as symlinks into the repository.
cd "$REPO_DIR"
files=$(git ls-files --cached --others --exclude-standard -- kernel include Documentation tools samples |
	while read -r f; do [ -f "$f" ] && echo "$f"; done | sort)
for f in $files; do
	if [ -e "$base/$f" ] && ! grep -qxF "$f" <<<"$owned"; then
		die "$f would shadow a base file that harness/owned.txt does not list"
	fi
	mkdir -p "$src/$(dirname "$f")"
	[ "$(readlink "$src/$f" 2>/dev/null)" = "$REPO_DIR/$f" ] || ln -sfn "$REPO_DIR/$f" "$src/$f"
done
# Files the project had last time but no longer has.
if [ -f "$state/overlay.list" ]; then
	comm -23 "$state/overlay.list" <(echo "$files") | while read -r f; do
		[ -n "$f" ] || continue
		rm -f "$src/$f"
		grep -qxF "$f" <<<"$owned" || restore_from_base "$f"
	done
fi
echo "$files" >"$state/overlay.list"
echo "$src"
