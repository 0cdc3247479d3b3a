#!/bin/sh
# Installs what fabperf needs to build and test on Debian or Ubuntu (run as root or with sudo).
set -eu
packages="build-essential autoconf automake libtool libtool-bin pkg-config python3
openmpi-bin libopenmpi-dev mpich libmpich-dev gnuplot-nox shellcheck
libfabric-bin ucx-utils iproute2 slurm-wlm munge clang libclang-rt-dev help2man
libhwloc-dev libfabric-dev libucx-dev chromium python3-html5lib python3-junitparser
prometheus prometheus-node-exporter"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "install-deps.sh: run as root (no sudo found)" >&2; exit 1; }
    sudo=sudo
fi
missing=""
for package in $packages; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $package"
done
if [ -z "$missing" ]; then
    echo "install-deps.sh: all packages present"
    exit 0
fi
echo "install-deps.sh: installing$missing"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
# shellcheck disable=SC2086 # a word list by design
$sudo apt-get install -y -q --no-install-recommends $missing
