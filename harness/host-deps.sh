#!/bin/bash
# Install the Debian packages the harness needs on the host, if missing.
# Arguments name more packages a command needs (make docs: Sphinx).
. "$(dirname "$0")/lib.sh"

need=(qemu-system-x86 busybox-static bc bison flex libelf-dev libssl-dev
      cpio ccache xz-utils gcc libc6-dev make perl patch dash kmod python3
      git trace-cmd libtracefs-dev libtraceevent-dev pkg-config "$@")
missing=()
for p in "${need[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

say "installing host packages: ${missing[*]}"
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
