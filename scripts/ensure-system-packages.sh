#!/usr/bin/env bash
# What the tests need from Debian's packages, installed when missing: Chromium's headless shell
# (Playwright drives it; a browser download does not work here), bubblewrap and slirp4netns (the runner's sandbox backend).
set -euo pipefail
missing=()
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium-headless-shell}" ] || missing+=(chromium-headless-shell)
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
# The sandbox's own network namespace (a paper that allows network) and its per-job disk.
[ -x /usr/bin/slirp4netns ] || missing+=(slirp4netns)
[ -x /usr/sbin/mkfs.ext4 ] || [ -x /sbin/mkfs.ext4 ] || missing+=(e2fsprogs)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != "0" ]; then
  echo "Missing: ${missing[*]}. Run 'sudo apt-get install -y ${missing[*]}' (or set CHROMIUM_PATH)" >&2
  exit 1
fi
echo "Installing ${missing[*]} from Debian's packages…"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
