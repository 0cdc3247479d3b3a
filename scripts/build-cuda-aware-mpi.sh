#!/usr/bin/env bash
# Build a CUDA-aware Open MPI from the distribution's source packages
# (Debian/Ubuntu "apt-get source openmpi") into a self-contained prefix.
#
# Use this when the system MPI is not CUDA-aware (ompi_info reports
# mpi_built_with_cuda_support:value:false), which is the case for the
# openmpi packages shipped by Debian and Ubuntu.
#
# Run with --help for options.
set -euo pipefail

PROG=${0##*/}
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$SCRIPT_DIR/.." && pwd)

PREFIX="$REPO_ROOT/.cuda-mpi"
CUDA_DIR="${CUDA_HOME:-/usr/local/cuda}"
JOBS=$(nproc 2>/dev/null || echo 2)
SOURCE_DIR=""
WITH_UCX=0
DO_STRIP=0
WORK_DIR="${FABPERF_MPI_BUILD_DIR:-${TMPDIR:-/tmp}/fabperf-mpi-build}"

usage() {
    cat <<EOF
Usage: $PROG [--prefix DIR] [--cuda DIR] [--jobs N] [--source DIR]
             [--with-ucx] [--strip] [--help]

Build a CUDA-aware Open MPI from the distribution's source package and
install it into a prefix that can be copied to another machine.

Options:
  --prefix DIR   install prefix (default: $REPO_ROOT/.cuda-mpi)
  --cuda DIR     CUDA toolkit root (default: \$CUDA_HOME or /usr/local/cuda)
  --jobs N       parallel make jobs (default: number of CPUs, here $JOBS)
  --source DIR   use an already unpacked Open MPI source tree instead of
                 running 'apt-get source openmpi'
  --with-ucx     first build UCX with CUDA from 'apt-get source ucx' and
                 build Open MPI against it; falls back to Open MPI's own
                 CUDA support (no UCX) if that is not possible
  --strip        drop man pages, docs and libtool archives and strip
                 binaries and libraries (a few MB instead of ~100 MB)
  --help         show this help

UCX is off by default: Open MPI's built-in CUDA support (the smcuda BTL
with CUDA IPC) already moves device buffers between ranks of one node,
which is what fabperf needs; UCX's CUDA transports additionally need
nvml.h, which CUDA toolkits installed without the NVML development
package lack, and the UCX source package needs extra preparation.

Sources are fetched and built in \$FABPERF_MPI_BUILD_DIR (default:
\${TMPDIR:-/tmp}/fabperf-mpi-build). If no deb-src entries are configured,
they are added (as root) and 'apt-get update' is run.

Using the prefix (also printed at the end):
  export OPAL_PREFIX=PREFIX
  export PATH=PREFIX/bin:\$PATH
  export LD_LIBRARY_PATH=PREFIX/lib:\$LD_LIBRARY_PATH
  mpirun -np 2 --mca pml ob1 --mca btl smcuda,self ./program

Notes:
  * OPAL_PREFIX makes the prefix relocatable: copy it anywhere, point
    OPAL_PREFIX at its new location and mpicc/mpirun work from there.
  * Do not restrict the BTLs to "vader,self" when passing device buffers:
    vader is not CUDA-aware and crashes on them; keep smcuda.
  * A harmless "cuMemHostRegister ... failed" warning at start-up goes
    away with "--mca orte_tmpdir_base /dev/shm".
  * libcuda is loaded at run time with dlopen, so the prefix needs only
    the GPU driver on the target machine, not a CUDA toolkit.
EOF
}

die() {
    printf '%s: error: %s\n' "$PROG" "$*" >&2
    exit 1
}

warn() {
    printf '%s: warning: %s\n' "$PROG" "$*" >&2
}

log() {
    printf '==> %s\n' "$*"
}

trap 'die "unexpected failure (exit $?) at line $LINENO: $BASH_COMMAND"' ERR

need_arg() {
    [[ $# -ge 2 && -n $2 ]] || die "option $1 needs a value"
}

while [[ $# -gt 0 ]]; do
    case $1 in
        --prefix) need_arg "$@"; PREFIX=$2; shift 2 ;;
        --prefix=*) PREFIX=${1#*=}; shift ;;
        --cuda) need_arg "$@"; CUDA_DIR=$2; shift 2 ;;
        --cuda=*) CUDA_DIR=${1#*=}; shift ;;
        --jobs|-j) need_arg "$@"; JOBS=$2; shift 2 ;;
        --jobs=*) JOBS=${1#*=}; shift ;;
        --source) need_arg "$@"; SOURCE_DIR=$2; shift 2 ;;
        --source=*) SOURCE_DIR=${1#*=}; shift ;;
        --with-ucx) WITH_UCX=1; shift ;;
        --strip) DO_STRIP=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
done

[[ $JOBS =~ ^[1-9][0-9]*$ ]] || die "--jobs wants a positive integer, got '$JOBS'"
[[ -n $PREFIX ]] || die "--prefix must not be empty"
case $PREFIX in
    /*) ;;
    *) PREFIX="$(pwd)/$PREFIX" ;;
esac
PREFIX=${PREFIX%/}

# ---------------------------------------------------------------- checks

[[ -f $CUDA_DIR/include/cuda.h ]] ||
    die "no CUDA toolkit at '$CUDA_DIR' (cuda.h missing); pass --cuda DIR or set CUDA_HOME"

for tool in gcc g++ make perl readelf; do
    command -v "$tool" >/dev/null 2>&1 ||
        die "'$tool' not found; install build-essential (apt-get install build-essential)"
done
if [[ $DO_STRIP -eq 1 ]]; then
    command -v strip >/dev/null 2>&1 || die "'strip' not found; install binutils"
fi

mkdir -p "$WORK_DIR" "$WORK_DIR/logs" || die "cannot create work directory '$WORK_DIR'"
WORK_DIR=$(cd "$WORK_DIR" && pwd)
LOG_DIR="$WORK_DIR/logs"

# Run a build step with its output in a log file; one line on failure.
run_step() {
    local name=$1
    shift
    local logf="$LOG_DIR/$name.log"
    log "$name (log: $logf)"
    local rc=0
    "$@" >"$logf" 2>&1 || rc=$?
    if [[ $rc -ne 0 ]]; then
        die "$name failed (exit $rc); see $logf"
    fi
}

# -------------------------------------------------------- source packages

have_deb_src() {
    local f
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
        [[ -f $f ]] || continue
        if grep -Eq '^[[:space:]]*deb-src[[:space:]]|^Types:.*deb-src' "$f"; then
            return 0
        fi
    done
    return 1
}

enable_deb_src() {
    [[ $(id -u) -eq 0 ]] ||
        die "no deb-src entries in APT sources; enable them (or rerun as root), or pass --source DIR"
    log "enabling deb-src entries in APT sources"
    local f
    for f in /etc/apt/sources.list.d/*.sources; do
        [[ -f $f ]] || continue
        sed -i 's/^Types:[[:space:]]*deb[[:space:]]*$/Types: deb deb-src/' "$f"
    done
    if [[ -f /etc/apt/sources.list ]] && grep -Eq '^[[:space:]]*deb[[:space:]]' /etc/apt/sources.list; then
        sed -n 's/^[[:space:]]*deb\([[:space:]]\)/deb-src\1/p' /etc/apt/sources.list \
            >/etc/apt/sources.list.d/fabperf-deb-src.list
    fi
    have_deb_src || die "could not enable deb-src entries; add them to the APT sources by hand"
    run_step apt-get-update apt-get update
}

apt_source() (
    cd "$1" && apt-get source "$2"
)

# fetch_source PACKAGE DIRVAR: unpack the source package in $WORK_DIR
# (reusing an earlier unpack) and store its directory in DIRVAR.
fetch_source() {
    local pkg=$1
    local -n out=$2
    local dir
    dir=$(find "$WORK_DIR" -mindepth 1 -maxdepth 1 -type d -name "$pkg-[0-9]*" | sort -V | tail -n 1)
    if [[ -z $dir ]]; then
        command -v apt-get >/dev/null 2>&1 ||
            die "apt-get not found; unpack the $pkg source yourself and pass --source DIR"
        command -v dpkg-source >/dev/null 2>&1 ||
            die "dpkg-source not found; install dpkg-dev (apt-get install dpkg-dev)"
        have_deb_src || enable_deb_src
        run_step "apt-get-source-$pkg" apt_source "$WORK_DIR" "$pkg"
        dir=$(find "$WORK_DIR" -mindepth 1 -maxdepth 1 -type d -name "$pkg-[0-9]*" | sort -V | tail -n 1)
        [[ -n $dir ]] || die "apt-get source $pkg left no $pkg-* directory in $WORK_DIR"
    else
        log "reusing unpacked source $dir"
    fi
    # shellcheck disable=SC2034  # assigned through the nameref
    out=$dir
}

if [[ -z $SOURCE_DIR ]]; then
    fetch_source openmpi SOURCE_DIR
fi
[[ -d $SOURCE_DIR ]] || die "source directory '$SOURCE_DIR' does not exist"
SOURCE_DIR=$(cd "$SOURCE_DIR" && pwd)
[[ -x $SOURCE_DIR/configure && -f $SOURCE_DIR/VERSION ]] ||
    die "'$SOURCE_DIR' is not an Open MPI source tree (no configure/VERSION)"
OMPI_MAJOR=$(sed -n 's/^major=//p' "$SOURCE_DIR/VERSION")
OMPI_VERSION="$OMPI_MAJOR.$(sed -n 's/^minor=//p' "$SOURCE_DIR/VERSION").$(sed -n 's/^release=//p' "$SOURCE_DIR/VERSION")"
log "Open MPI $OMPI_VERSION source: $SOURCE_DIR"
[[ $OMPI_MAJOR == 4 ]] ||
    warn "this script was written for Open MPI 4.x; $OMPI_VERSION may need other configure options"

# The Debian patches touch configure.ac, *.m4 and Makefile.am files (for
# Debian's library layout and other architectures), which makes "make" try
# to rerun the exact automake version the tarball was made with. None of
# those changes matter for this build, so keep the shipped autotools output
# by making it newer than its inputs: aclocal.m4, then configure, then the
# *.in templates.
keep_autotools_output() {
    local src=$1 now
    now=$(date +%s)
    find "$src" -name aclocal.m4 -type f -exec touch -d "@$now" {} +
    find "$src" -name configure -type f -exec touch -d "@$((now + 1))" {} +
    find "$src" -name '*.in' -type f -exec touch -d "@$((now + 2))" {} +
}
keep_autotools_output "$SOURCE_DIR"

# --------------------------------------------------------------- UCX (opt)

find_nvml_h() {
    local d
    for d in "$CUDA_DIR/include" "$CUDA_DIR"/targets/*/include /usr/include /usr/local/include; do
        if [[ -f $d/nvml.h ]]; then
            printf '%s\n' "$d"
            return 0
        fi
    done
    return 1
}

UCX_PREFIX=""
build_ucx() {
    local nvml_dir
    if ! nvml_dir=$(find_nvml_h); then
        warn "--with-ucx: nvml.h not found under $CUDA_DIR or /usr/include; UCX's CUDA support needs it (install the CUDA NVML development package, e.g. cuda-nvml-dev-<version>)"
        warn "falling back to Open MPI's own CUDA support without UCX"
        return 1
    fi
    local ucx_src
    fetch_source ucx ucx_src
    log "UCX source: $ucx_src (nvml.h in $nvml_dir)"
    # Debian moves upstream's debian/ (templates that autogen/configure
    # expect) to debian.upstream/; put those files back.
    if [[ -d $ucx_src/debian.upstream ]]; then
        cp -r "$ucx_src/debian.upstream/." "$ucx_src/debian/"
    fi
    local rc=0
    # (set -e does not apply inside a subshell tested with ||, so chain.)
    (
        cd "$ucx_src" || exit 1
        if [[ ! -x configure ]]; then
            ./autogen.sh >"$LOG_DIR/ucx-autogen.log" 2>&1 || exit 2
        fi
        mkdir -p build-cuda && cd build-cuda || exit 1
        ../configure --prefix="$PREFIX" --with-cuda="$CUDA_DIR" \
            CPPFLAGS="-I$nvml_dir" \
            --disable-static --disable-doxygen-doc --disable-logging \
            --disable-debug --disable-assertions --disable-params-check \
            --without-java --without-go --without-rocm \
            >"$LOG_DIR/ucx-configure.log" 2>&1 || exit 3
        make -j "$JOBS" >"$LOG_DIR/ucx-make.log" 2>&1 || exit 4
        make install >"$LOG_DIR/ucx-install.log" 2>&1 || exit 5
    ) || rc=$?
    if [[ $rc -ne 0 ]]; then
        warn "UCX build failed (exit $rc); logs: $LOG_DIR/ucx-*.log"
        warn "falling back to Open MPI's own CUDA support without UCX"
        return 1
    fi
    UCX_PREFIX=$PREFIX
    return 0
}

if [[ $WITH_UCX -eq 1 ]]; then
    build_ucx || true
fi

# ---------------------------------------------------------------- Open MPI

OMPI_CONFIG=(
    --prefix="$PREFIX"
    --with-cuda="$CUDA_DIR"
    --with-hwloc=internal
    --with-libevent=internal
    --with-pmix=internal
    --without-ofi
    --without-verbs
    --disable-mpi-fortran
    --disable-mpi-java
    --disable-oshmem
    --disable-static
    --disable-man-pages
)
if [[ -n $UCX_PREFIX ]]; then
    OMPI_CONFIG+=(--with-ucx="$UCX_PREFIX")
else
    OMPI_CONFIG+=(--without-ucx)
fi

# Build out of tree unless the source tree was already configured in place.
if [[ -f $SOURCE_DIR/config.status ]]; then
    BUILD_DIR=$SOURCE_DIR
    log "source tree already configured in place; building there"
else
    BUILD_DIR="$WORK_DIR/build-openmpi-$OMPI_VERSION"
    mkdir -p "$BUILD_DIR"
fi

start=$SECONDS
cd "$BUILD_DIR"
run_step openmpi-configure "$SOURCE_DIR/configure" "${OMPI_CONFIG[@]}"
run_step openmpi-make make -j "$JOBS"
mkdir -p "$PREFIX" || die "cannot create prefix '$PREFIX'"
run_step openmpi-install make install
log "built and installed in $((SECONDS - start)) s"

# ------------------------------------------------------------------- strip

is_elf() {
    [[ $(head -c 4 "$1" 2>/dev/null | od -An -c | tr -d ' ') == '177ELF' ]]
}

if [[ $DO_STRIP -eq 1 ]]; then
    log "stripping $PREFIX"
    rm -rf "$PREFIX/share/man" "$PREFIX/share/doc" "$PREFIX/share/info"
    find "$PREFIX" -name '*.la' -type f -delete
    find "$PREFIX" -name '*.a' -type f -delete
    while IFS= read -r -d '' f; do
        if is_elf "$f"; then
            strip --strip-unneeded "$f" 2>/dev/null || warn "could not strip $f"
        fi
    done < <(find "$PREFIX/bin" "$PREFIX/lib" -type f -print0)
fi

# ------------------------------------------------------------------ verify

export OPAL_PREFIX="$PREFIX"
export PATH="$PREFIX/bin:$PATH"
export LD_LIBRARY_PATH="$PREFIX/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

log "verifying CUDA support"
"$PREFIX/bin/ompi_info" --parsable --all 2>/dev/null |
    grep -q '^mca:mpi:base:param:mpi_built_with_cuda_support:value:true' ||
    die "ompi_info does not report mpi_built_with_cuda_support:value:true"

VERIFY_DIR="$WORK_DIR/verify"
mkdir -p "$VERIFY_DIR"
cat >"$VERIFY_DIR/cuda_query.c" <<'EOF'
#include <stdio.h>
#include <mpi.h>
#include <mpi-ext.h>
#if !defined(MPIX_CUDA_AWARE_SUPPORT) || !MPIX_CUDA_AWARE_SUPPORT
#error "mpi-ext.h does not announce CUDA-aware support"
#endif
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int ok = MPIX_Query_cuda_support();
    printf("MPIX_Query_cuda_support() = %d\n", ok);
    MPI_Finalize();
    return ok == 1 ? 0 : 2;
}
EOF
"$PREFIX/bin/mpicc" -o "$VERIFY_DIR/cuda_query" "$VERIFY_DIR/cuda_query.c" \
    >"$LOG_DIR/verify-mpicc.log" 2>&1 ||
    die "the prefix's mpicc cannot compile a test program; see $LOG_DIR/verify-mpicc.log"

# Every library must resolve from the prefix or the system; nothing may
# point into this machine's CUDA toolkit or build directory.
bad=""
while IFS= read -r -d '' f; do
    is_elf "$f" || continue
    deps=$(ldd "$f" 2>/dev/null || true)
    if grep -q 'not found' <<<"$deps"; then
        bad+=" $f(missing: $(grep 'not found' <<<"$deps" | awk '{print $1}' | tr '\n' ' '))"
    fi
    if grep -Eq "=> ($CUDA_DIR|$WORK_DIR)" <<<"$deps"; then
        bad+=" $f(uses $CUDA_DIR or $WORK_DIR)"
    fi
    rpath=$(readelf -d "$f" 2>/dev/null | sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p')
    if [[ -n $rpath && ( $rpath == *"$CUDA_DIR"* || $rpath == *"$WORK_DIR"* ) ]]; then
        bad+=" $f(rpath $rpath)"
    fi
done < <(find "$PREFIX/bin" "$PREFIX/lib" "$VERIFY_DIR/cuda_query" -type f -print0)
[[ -z $bad ]] || die "machine-specific library dependencies:$bad"

if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    root_env=()
    if [[ $(id -u) -eq 0 ]]; then
        root_env=(env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)
    fi
    "${root_env[@]}" "$PREFIX/bin/mpirun" -np 1 --mca orte_tmpdir_base /dev/shm \
        "$VERIFY_DIR/cuda_query" || die "test program did not report CUDA support at run time"
else
    log "no GPU visible here; compiled the MPIX_Query_cuda_support test but did not run it"
fi

size=$(du -sh "$PREFIX" | cut -f1)
cat <<EOF

CUDA-aware Open MPI $OMPI_VERSION installed in $PREFIX ($size)$( [[ -n $UCX_PREFIX ]] && printf ' with UCX' )

To use it (here, or after copying the directory elsewhere and adjusting
the path):

  export OPAL_PREFIX=$PREFIX
  export PATH=\$OPAL_PREFIX/bin:\$PATH
  export LD_LIBRARY_PATH=\$OPAL_PREFIX/lib:\${LD_LIBRARY_PATH:-}

  mpirun -np 2 --mca pml ob1 --mca btl smcuda,self --mca orte_tmpdir_base /dev/shm ./program

(--mca orte_tmpdir_base /dev/shm silences a harmless "cuMemHostRegister
... failed" warning; do not use "--mca btl vader,self" with device buffers.)
EOF
