# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# QEMU's own /proc/self inside the guest: run-vm.sh exports it over 9p,
# tag "qemuproc".  What a piece of guest work cost the host (make
# check's budget, debug_checks.sh) and the guest's own time under TCG
# (nic_tcp_test.sh) are read from it, and bench.sh finds the vCPU
# threads there.  Sourced by lib.sh and by debug_checks.sh (which does
# not take lib.sh's EXIT trap).  Builtins only in what runs per sample.

# qemuproc_mount: mount it at /run/qemuproc unless it is there already.
# QEMUPROC is the directory, or empty outside run-vm.sh (a real machine,
# an older run-vm.sh).  Status 0 only when this call mounted it: the
# caller unmounts then, since a virtio 9p tag takes one mount at a time
# and a suite that debug_checks.sh runs finds its parent's mount.
qemuproc_mount() {
	QEMUPROC=/run/qemuproc
	[ -r $QEMUPROC/stat ] && return 1
	mkdir -p $QEMUPROC && mount -t 9p \
		-o trans=virtio,version=9p2000.L,ro,cache=none \
		qemuproc $QEMUPROC 2>/dev/null && [ -r $QEMUPROC/stat ] &&
		return 0
	QEMUPROC=
	return 1
}

# qemu_cpu_cs: QEMU_CS, the host CPU time QEMU has used so far (utime +
# stime of every thread, the vCPUs' and the emulated devices',
# centiseconds), or empty without QEMUPROC.
qemu_cpu_cs() {
	local l f
	QEMU_CS=
	[ -n "${QEMUPROC:-}" ] && read -r l < "$QEMUPROC/stat" || return 0
	read -r -a f <<<"${l##*) }"	# f[0] is field 3 (state)
	QEMU_CS=$(( f[11] + f[12] ))
}
