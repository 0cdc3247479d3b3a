#!/bin/sh
# Copies the test-data trees (nodeA, vm) to DEST and makes their symbolic links, listed in `links`
# as "PATH TARGET": sysfs is made of links, and a distribution tarball cannot carry them.
# Usage: prepare.sh DEST
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:?usage: prepare.sh DEST}
mkdir -p "$dest"
cp -R "$here/nodeA" "$here/vm" "$dest/"
while read -r path target; do
    mkdir -p "$(dirname "$dest/$path")" # git keeps no empty folders
    ln -s "$target" "$dest/$path"
done <"$here/links"
