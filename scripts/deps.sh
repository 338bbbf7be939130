#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install exactly the Debian packages that building, testing and demoing
# dpillar need.  Idempotent: a second run installs nothing.
#
# The two guest kernels are resolved from Debian's meta-packages at run
# time (linux-headers-amd64 -> 6.1 ABI, linux-headers-6.12-amd64 -> 6.12
# ABI) so no ABI number is hard-coded here.
#
# Usage: scripts/deps.sh [--print-abis]
set -eu

export DEBIAN_FRONTEND=noninteractive

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

STAMP=${DPILLAR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dpillar}/apt-updated

apt_update_once() {
	[ -f "$STAMP" ] && return 0
	$SUDO apt-get update -qq -o DPkg::Lock::Timeout=600
	mkdir -p "$(dirname "$STAMP")" && touch "$STAMP"
}

# Name of the package a meta-package depends on (e.g. the ABI headers).
resolve_meta() {
	apt-cache depends "$1" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-[a-z]*-[0-9][^ ]*\)$/\1/p' | head -n 1
}

abi_of() {
	# linux-headers-6.1.0-56-amd64 -> 6.1.0-56
	echo "$1" | sed -e 's/^linux-headers-//' -e 's/-amd64$//'
}

resolve_abis() {
	h61=$(resolve_meta linux-headers-amd64)
	h612=$(resolve_meta linux-headers-6.12-amd64)
	if [ -z "$h61" ] || [ -z "$h612" ]; then
		apt_update_once
		h61=$(resolve_meta linux-headers-amd64)
		h612=$(resolve_meta linux-headers-6.12-amd64)
	fi
	if [ -z "$h61" ] || [ -z "$h612" ]; then
		echo "deps: cannot resolve kernel ABIs from Debian meta-packages" >&2
		exit 1
	fi
	ABI61=$(abi_of "$h61")
	ABI612=$(abi_of "$h612")
}

# flex, bison, libelf-dev: building the debug kernel (scripts/debug-kernel.sh)
# from linux-source-6.12.  python3-yaml, python3-jsonschema: the kernel's
# YNL tools (scripts/ynl.sh).  clang-14 and libclang-rt-14-dev (which
# ships libclang_rt.fuzzer and the sanitizer runtimes), llvm-14 (llvm-cov,
# llvm-profdata): the libFuzzer targets of tools/fuzz.  netsniff-ng
# (trafgen): make bench's generator.
# systemd (systemd-analyze verify), man-db, bash-completion: the install
# check (scripts/install-check.sh).  graphviz: the fabric pictures
# (dpsim plan --dot, Documentation/networking/images).  dkms, openssl
# (the signing key DKMS makes): README's install, built by
# scripts/dkms-check.sh.  tcpdump: the S2 suite's capture in the guest
# (from the host's root); tshark (with wireshark-common's editcap and
# mergecap): make check decodes that capture with the Wireshark dissector
# (scripts/capture-check.py, scripts/install-check.sh).
# debhelper, dh-dkms, lintian: make deb and its check (scripts/deb.sh,
# scripts/deb-check.sh).
# iproute2: the ip that tools/iproute2's plugin is built for and checked
# against (check-ip.sh: nm, build-essential's binutils).  libns3-dev
# (ns-3.37): tools/ns3, the throughput model (make ns3).
# python3-networkx, python3-scipy: tools/dpsim/eval-s2bw.py (max-flow
# bisection and LP throughput; its selftest runs in make -C tools/dpsim
# check).  python3-prometheus-client: its parser reads "dpctl stats
# prometheus" in the offline tests (Prometheus' own, not ours).
# python3-sphinx: the documents built as the kernel's are
# (scripts/docs-check.sh).  gnuplot-nox: the evaluation's plots
# (tools/dpsim/*.gp, tools/ns3/*.gp, drawn by the eval scripts into
# Documentation/networking/images); no check needs it, the scripts skip
# the plots without it.  gojq: the guest suites' jq (selftests/lib.sh),
# 15 times quicker to start than jq 1.6 under TCG.
PKGS_BASE="python3-sphinx build-essential bc kmod cpio busybox-static qemu-system-x86
qemu-utils iproute2 iputils-ping libmnl-dev pkg-config python3 sparse
jq ethtool linux-source-6.12 xz-utils fping iperf3 flex bison libelf-dev
python3-yaml python3-jsonschema clang-14 libclang-rt-14-dev llvm-14
netsniff-ng systemd man-db bash-completion graphviz dkms openssl tcpdump
tshark debhelper dh-dkms lintian libns3-dev python3-networkx python3-scipy
python3-prometheus-client gnuplot-nox gojq"

main() {
	resolve_abis
	if [ "${1:-}" = "--print-abis" ]; then
		echo "$ABI61 $ABI612"
		return 0
	fi
	pkgs="$PKGS_BASE"
	for abi in $ABI61 $ABI612; do
		pkgs="$pkgs linux-headers-$abi-amd64 linux-image-$abi-amd64-unsigned"
	done
	missing=
	for p in $pkgs; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || missing="$missing $p"
	done
	if [ -z "$missing" ]; then
		echo "deps: all installed (kernels $ABI61, $ABI612)"
		return 0
	fi
	echo "deps: installing$missing"
	apt_update_once
	# The guest kernels are only booted, never installed as the host's
	# kernel: skip initramfs and bootloader hooks, which would fail (and
	# are pointless) inside containers and CI.
	$SUDO env INITRD=No apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=600 \
		-o Dpkg::Options::=--force-confdef $missing
}

main "$@"
