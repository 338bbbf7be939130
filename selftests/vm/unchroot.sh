# SPDX-License-Identifier: GPL-2.0
#
# unchroot.sh CMD...: run CMD in the test root, but as the root of a new
# mount namespace instead of a chroot (selftests/vm/init chroots into
# /newroot): the kernel refuses to create a user namespace from inside a
# chroot.  Runs under the initramfs' busybox, entered as
#   nsenter -t 1 -m -r /bin/busybox unshare -m /bin/busybox sh \
#       /newroot/<repo>/selftests/vm/unchroot.sh CMD...
# and does what switch_root does, in that new mount namespace only.
set -e
/bin/busybox mount --make-rprivate /
cd /newroot
/bin/busybox mount --move . /
exec /bin/busybox chroot . "$@"
