#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run one test script inside a throw-away QEMU (TCG) guest that sees the
# host root file system read-only over virtio-9p.  See selftests/README.md.
#
# Exit: 0 pass, 1 fail (script failed, kernel splat, timeout, no exit
# sentinel, rig error), 4 skip (script exited 4).
set -u

usage() {
	cat <<EOF
usage: $0 [options] -- SCRIPT [ARGS...]
  --kernel ABI|PATH   Debian ABI (e.g. 6.12.117+deb12, or 6.1 / 6.12 short
                      forms) or path to a bzImage (default: the 6.12 ABI)
  --modules-dir DIR   modules of a --kernel PATH (dir holding modules.dep)
  --timeout SEC       kill the guest after SEC seconds (default 300)
  --cpu-timeout SEC   kill the guest once QEMU has used SEC seconds of host
                      CPU (default: none); --timeout still applies.  A busy
                      host slows a TCG guest, not the CPU it needs: make
                      check's guests set this and a wall clock far above it
  --mem MB            guest memory (default 1024)
  --smp N             guest CPUs (default 2)
  --cpu MODEL         QEMU's -cpu (default max).  make check passes
                      max,-erms: with ERMS the guest kernel copies to and
                      from user space and clears pages with rep movsb /
                      rep stosb, which TCG runs one byte per iteration
                      (see below)
  --tcg-thread single|multi
                      TCG's threading (default single: see below)
  --icount SHIFT      instruction-counted guest time (QEMU -icount
                      shift=SHIFT,sleep=off; 0..10): every guest instruction
                      is 2^SHIFT ns of guest time, idle waits skip ahead;
                      forces --tcg-thread single (default: \$DPILLAR_ICOUNT,
                      else off; "off" or empty: off)
  --icount-sleep on|off
                      with --icount: QEMU's sleep= (default: \$DPILLAR_ICOUNT_SLEEP,
                      else off).  off: an idle guest's clock jumps to its next
                      timer, also while it waits on the host (9p, a tap);
                      on: idle time passes as the host's, busy time still
                      counts instructions (make check's guests; see below)
  --insn-plugin SO    load QEMU TCG plugin SO (tools/insn-plugin/insn-plugin.so)
                      with out=<the run dir>/insns.txt: every vCPU's guest
                      instructions at each marker instruction the guest
                      executes (insn-mark); the guest finds the file as
                      \$DPILLAR_INSNS (see tools/insn-plugin/insn-plugin.c);
                      with INSN_PROF=1 in the environment, also each
                      window's instructions per vCPU and block (insn-prof.txt)
  --log FILE          full console log (default \$DPILLAR_CACHE/logs/<id>.log)
  --out DIR           keep the per-run shared dir here (default: temp, removed
                      on success)
  --env VAR=VALUE     export VAR in the guest (repeatable)
  --append ARGS       more kernel command line (repeatable)
  --nic MODEL:HUB     one more emulated NIC (repeatable): MODEL is a QEMU
                      NIC (virtio-net-pci, e1000, ...) plugged into QEMU hub
                      HUB (0..255: one hub is one dumb switch or cable); the
                      i-th --nic (from 0) has MAC 52:54:00:d9:HUB:i
  --nic MODEL:HUB/Q   the same through a host tap of Q queues (1..8) on a
                      host bridge HUB instead of a QEMU hub (a hub's port
                      has one queue); virtio-net-pci gets Q queue pairs.
                      Needs root and /dev/net/tun: the taps and bridges live
                      in a network namespace of this run, QEMU runs in it
  -v, --verbose       show the whole console, not only the test's output
Host variables passed through when set: DPILLAR_KO DPILLAR_REPO V
(and DPILLAR_ICOUNT, the shift, when the guest runs on instruction-counted
time)
EOF
	exit "${1:-1}"
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${DPILLAR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dpillar}

kernel='' moddir='' timeout=300 cpu_timeout='' mem=1024 smp=2 log='' outdir='' verbose=${V:-0}
tcg_thread=${DPILLAR_TCG_THREAD:-single}
icount=${DPILLAR_ICOUNT:-}
[ "$icount" != off ] || icount=
icount_sleep=${DPILLAR_ICOUNT_SLEEP:-off}
envs=() append='' nics=() insn_plugin= qemu_cpu=max
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift 2 ;;
	--modules-dir) moddir=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--cpu-timeout) cpu_timeout=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--cpu) qemu_cpu=$2; shift 2 ;;
	--tcg-thread) tcg_thread=$2; shift 2 ;;
	--icount) icount=${2#off}; shift 2 ;;
	--icount-sleep) icount_sleep=$2; shift 2 ;;
	--insn-plugin) insn_plugin=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--out) outdir=$2; shift 2 ;;
	--env)
		case "$2" in
		[A-Za-z_]*=*) envs+=("$2") ;;
		*) echo "run-vm: bad --env '$2'" >&2; usage ;;
		esac
		shift 2 ;;
	--append) append+=" $2"; shift 2 ;;
	--nic)
		[[ "$2" =~ ^[a-z0-9-]+:([0-9]+)(/[1-8])?$ ]] &&
			[ "${BASH_REMATCH[1]}" -le 255 ] ||
			{ echo "run-vm: bad --nic '$2'" >&2; usage; }
		nics+=("$2"); shift 2 ;;
	-v|--verbose) verbose=1; shift ;;
	-h|--help) usage 0 ;;
	--) shift; break ;;
	-*) echo "run-vm: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || usage
script=$1; shift
[[ "$timeout" =~ ^[0-9]+$ ]] || { echo "run-vm: bad --timeout" >&2; exit 1; }
[[ "$cpu_timeout" =~ ^[0-9]*$ ]] || { echo "run-vm: bad --cpu-timeout" >&2; exit 1; }
[[ "$qemu_cpu" =~ ^[A-Za-z0-9][A-Za-z0-9_.,=+-]*$ ]] ||
	{ echo "run-vm: bad --cpu" >&2; exit 1; }
case "$tcg_thread" in
single | multi) ;;
*) echo "run-vm: bad --tcg-thread (single or multi)" >&2; exit 1 ;;
esac
# Instruction-counted time: QEMU counts the instructions it runs and
# the guest's clocks (TSC, HPET, PIT, APIC timer) follow the count,
# 2^SHIFT ns an instruction, so a guest's busy time is its instruction
# count, whatever the host's load.  sleep=off: when every vCPU is idle
# the clock jumps to the next timer instead of waiting for the host's,
# which makes sleeps and timer-driven waits free (make bench's closed
# loops); but a wait on the host (a 9p read, a tap's frame) is idle too,
# so the clock jumps on while the host is slow: on a loaded host (load
# average 10-13, 2026-11-30) vm_smoke.sh read 811 s of guest time for
# its usual 72 and two suites hit their 1,200-s limits with 8-12 s of
# host CPU.  sleep=on (make check's guests): idle time passes as the
# host's, so a timeout never expires during a wait on the host faster
# than by the wall clock, and busy time still counts instructions.
# QEMU refuses icount with a thread per vCPU.
if [ -n "$icount" ]; then
	[[ "$icount" =~ ^([0-9]|10)$ ]] ||
		{ echo "run-vm: bad --icount (a shift, 0..10)" >&2; exit 1; }
	case "$icount_sleep" in
	on | off) ;;
	*) echo "run-vm: bad --icount-sleep (on or off)" >&2; exit 1 ;;
	esac
	tcg_thread=single
fi

err() { echo "run-vm: $*" >&2; exit 1; }
if [ -n "$insn_plugin" ]; then
	[ -f "$insn_plugin" ] || err "no plugin $insn_plugin (make -C tools/insn-plugin)"
	insn_plugin=$(realpath "$insn_plugin")
fi

for c in qemu-system-x86_64 cpio gzip modprobe; do
	command -v "$c" >/dev/null || err "missing $c (run scripts/deps.sh)"
done
[ -x /bin/busybox ] || err "missing /bin/busybox (busybox-static)"

# ---- kernel and its modules ----------------------------------------------
abis=
resolve_abi() {	# ABI or short form -> full ABI, empty if unknown
	local want=$1 a
	[ -n "$abis" ] || abis=$(sh "$repo/scripts/deps.sh" --print-abis) ||
		err "deps.sh --print-abis failed"
	for a in $abis; do
		case "$a" in
		"$want"|"$want".*|"$want"-*) echo "$a"; return ;;
		esac
	done
}
if [ -z "$kernel" ]; then
	resolve_abi x >/dev/null
	kernel=${abis##* }
fi
if [ -f "$kernel" ]; then
	bzimage=$(realpath "$kernel")
	kname=$(basename "$bzimage")
	if [ -n "$moddir" ]; then
		[ -f "$moddir/modules.dep" ] || err "no modules.dep in $moddir"
		moddir=$(realpath "$moddir")
	fi
else
	abi=$(resolve_abi "$kernel")
	[ -n "$abi" ] || abi=$kernel
	bzimage=/boot/vmlinuz-$abi-amd64
	[ -f "$bzimage" ] || err "no kernel $bzimage (known ABIs: ${abis:-?})"
	kname=$abi
	[ -n "$moddir" ] || moddir=/lib/modules/$abi-amd64
fi

# ---- initramfs (cached, rebuilt when its inputs change) --------------------
mkdir -p "$cache/logs" "$cache/run" || err "cannot create $cache"
mods_for() {	# list module files (in load order) needed to mount 9p
	local dir=$1 tmp ver
	tmp=$(mktemp -d)
	ver=v
	mkdir -p "$tmp/lib/modules"
	ln -s "$dir" "$tmp/lib/modules/$ver"
	modprobe -d "$tmp" -S "$ver" --show-depends -a \
		virtio_pci 9pnet_virtio 9p overlay 2>/dev/null |
		sed -n 's/^insmod \([^ ]*\).*/\1/p' |
		sed "s|^$tmp/lib/modules/$ver|$dir|" | awk '!seen[$0]++'
	rm -rf "$tmp"
}
modfiles=()
if [ -n "$moddir" ]; then
	mapfile -t modfiles < <(mods_for "$moddir")
fi
key=$( {
	echo "v1 $bzimage"
	cat "$here/init" /bin/busybox | sha256sum
	for f in "${modfiles[@]}"; do stat -c '%n %s %Y' "$f"; done
} | sha256sum | cut -c1-16)
initrd=$cache/initramfs-$kname.cpio.gz
if [ "$(cat "$initrd.key" 2>/dev/null)" != "$key" ]; then
	build=$(mktemp -d "$cache/initramfs.XXXXXX")
	mkdir -p "$build"/{bin,dev,proc,sys,lib/mods}
	cp /bin/busybox "$build/bin/busybox"
	cp "$here/init" "$build/init"
	chmod 0755 "$build/init"
	: > "$build/modules.list"
	for f in "${modfiles[@]}"; do
		b=$(basename "$f")
		case "$b" in
		*.ko.xz) b=${b%.xz}; xz -dc "$f" > "$build/lib/mods/$b" ;;
		*.ko.zst) b=${b%.zst}; zstd -qdc "$f" > "$build/lib/mods/$b" ;;
		*.ko.gz) b=${b%.gz}; gzip -dc "$f" > "$build/lib/mods/$b" ;;
		*) cp "$f" "$build/lib/mods/$b" ;;
		esac || err "cannot unpack $f"
		echo "$b" >> "$build/modules.list"
	done
	(cd "$build" && find . | LC_ALL=C sort | cpio -o -H newc --quiet |
		gzip -1) > "$initrd.tmp.$$" || err "cpio failed"
	mv "$initrd.tmp.$$" "$initrd"
	echo "$key" > "$initrd.key"
	rm -rf "$build"
fi

# ---- per-run directory shared read-write with the guest (9p tag "out") ----
id=$(date +%Y%m%d-%H%M%S)-$$
keep_out=1
if [ -z "$outdir" ]; then
	outdir=$cache/run/$id
	keep_out=0
fi
mkdir -p "$outdir" || err "cannot create $outdir"
outdir=$(realpath "$outdir")
rm -f "$outdir/rc" "$outdir/dmesg" "$outdir/insns.txt" "$outdir/qemu.pid" \
	"$outdir/cpu-timeout"
[ -n "$log" ] || log=$cache/logs/$id.log
mkdir -p "$(dirname "$log")"
: > "$log" || err "cannot write $log"
log=$(realpath "$log")

q() { printf '%q' "$1"; }
# guest.conf is sourced by busybox sh in the initramfs: single quotes.
sq() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
{
	echo "OUTDIR=$(sq "$outdir")"
	echo "MODDIR=$(sq "$moddir")"
	echo "VMHOST=dpillar-vm"
	echo "CPUS=$smp"
} > "$outdir/guest.conf"

drepo=${DPILLAR_REPO:-$repo}
{
	echo "# generated by run-vm.sh"
	echo "export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	echo "export HOME=/root TERM=dumb LANG=C.UTF-8"
	echo "export DPILLAR_IN_VM=1 DPILLAR_OUT=$(q "$outdir")"
	echo "export DPILLAR_REPO=$(q "$drepo")"
	echo "export DPILLAR_CACHE=$(q "$cache")"
	for v in DPILLAR_KO V; do
		[ -n "${!v+x}" ] && echo "export $v=$(q "${!v}")"
	done
	# The shift, for a suite that reads instructions off the clock.
	[ -z "$icount" ] || echo "export DPILLAR_ICOUNT=$icount"
	[ -z "$icount" ] || echo "export DPILLAR_ICOUNT_SLEEP=$icount_sleep"
	[ -z "$insn_plugin" ] || echo "export DPILLAR_INSNS=$(q "$outdir/insns.txt")"
	for e in "${envs[@]}"; do
		echo "export ${e%%=*}=$(q "${e#*=}")"
	done
	echo "cd $(q "$drepo") || exit 1"
	printf 'exec bash'
	printf ' %q' "$script" "$@"
	echo
} > "$outdir/cmd.sh"

# oops=panic: a guest that oopsed is finished; stop at once instead of
# waiting for the timeout (the console already holds the splat).
# ---- boot ------------------------------------------------------------------
cmdline="console=ttyS0 loglevel=5 printk.time=1 printk.devkmsg=on panic=-1 oops=panic"
cmdline+=" mitigations=off no_timer_check tsc=reliable rdinit=/init"
cmdline+=" 8250.nr_uarts=1 net.ifnames=0 noresume$append"
# The TSC's rate.  Under TCG the guest's TSC is the host's, and the
# kernel calibrates it against the PIT, by a loop that a busy host can
# stretch: 3 of 100 boots on a loaded 2-core host took 280 or 521 MHz for
# 2,596 ("PIT calibration deviates from HPET", and the PIT's value wins),
# so the guest's clock ran 5-9 times fast and its suites' timeouts fired
# early.  tsc=reliable (no clocksource watchdog) keeps such a clock.  So
# the host's own figure is given (tsc_early_khz, 5.3 and later): the host
# kernel's, else the last one a guest here refined (kept in the cache).
tsc_khz=$(dmesg 2>/dev/null | sed -n \
	-e 's/.*tsc: Refined TSC clocksource calibration: \([0-9]*\)\.\([0-9]\{3\}\) MHz.*/\1\2/p' \
	-e 's/.*tsc: Detected \([0-9]*\)\.\([0-9]\{3\}\) MHz processor.*/\1\2/p' | tail -n 1)
[ -n "$tsc_khz" ] || tsc_khz=$(cat "$cache/tsc_khz" 2>/dev/null)
# Under icount the TSC is QEMU's virtual clock in ns (cpu_get_ticks() is
# icount_get()): 1 GHz whatever the shift and the host.
[ -z "$icount" ] || tsc_khz=1000000
[[ "$tsc_khz" =~ ^[1-9][0-9]{5,7}$ ]] && cmdline+=" tsc_early_khz=$tsc_khz"
# Boot on one vCPU; init brings the others online before the test.  The
# kernel flips static keys while it boots (sched_clock_stable ...), and
# under TCG live-patching code another vCPU executes can end in an int3
# Oops (seen in ~2 of 100 boots of Debian's 6.12 with two vCPUs).
[ "$smp" -gt 1 ] && cmdline+=" maxcpus=1"
# A kernel that boots with pci=noacpi built in (the debug kernel: see
# selftests/debug-kernel.config) gets the PCI root bus's default
# resources, all of memory: the BIOS's BARs fail to claim against the
# ACPI host bridge's window and are reassigned from free space, where the
# local APIC (0xfee00000) is not yet listed.  With four e1000e NICs the
# fourth got its BAR 0 there: its PHY read failed (probe -2) and a
# second vCPU got no IPI ("APIC delivery error").  Keep that MiB out.
kcfg=$(dirname "$bzimage")/../../../.config
if [ -f "$kcfg" ] && grep -q '^CONFIG_CMDLINE=".*pci=noacpi' "$kcfg"; then
	cmdline+=" reserve=0xfee00000,0x100000"
fi

# One host thread runs every vCPU in turn (thread=single).  With a thread
# per vCPU (multi), code the kernel patches at run time while the other
# vCPU executes it ends in Oopses: Debian's 6.12, two vCPUs, dpillar not
# loaded, pings flipping netstamp_needed_key while the other vCPU
# received UDP: "Oops: int3" in __netif_receive_skb_core within 72 s
# (2026-11-27); with one thread, two 600-s runs of it, no Oops.  The
# guest keeps its CPUs (per-CPU softirqs, IPIs, RCU, lockdep's view of
# two CPUs); it only loses running them at once on the host.  It does
# not cure the double fault that killed make check's 6.12 guest on its
# second vCPU (scripts/check.sh boots the Debian guests with one vCPU;
# selftests/README.md, "TCG threading").
# debug-threads: QEMU names its threads ("CPU 0/TCG"), so that a guest can
# find a vCPU's own host CPU time in qemuproc below (make bench).
# --cpu: with ERMS (-cpu max has it, not FSRM) Linux copies to and from
# user space with rep movsb (copy_user_64.S, above 64 bytes) and clears
# pages with rep stosb (clear_page_erms); QEMU 7.2's TCG runs a rep
# string instruction one iteration per pass through its translation
# block, so both cost a pass per byte.  Without ERMS they are rep movsq
# and rep stosq, a pass per 8 bytes.  make check's guests: the NIC
# matrix and dpillar_data.sh on 6.12 used 11% less host CPU (331.6 s
# against 371.0 s, the two guests side by side, 2026-12-01), TCP moved
# 95.9 against 64.3 Mbit/s per guest second (e1000e, icount shift 3).
qemu=(qemu-system-x86_64 -accel "tcg,thread=$tcg_thread" -cpu "$qemu_cpu" -m "$mem" -smp "$smp"
	-name "dpillar,debug-threads=on"
	${icount:+-icount "shift=$icount,sleep=$icount_sleep"}
	-nodefaults -no-user-config -display none -no-reboot
	-serial stdio -monitor none
	-kernel "$bzimage" -initrd "$initrd" -append "$cmdline"
	-fsdev "local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap"
	-fsdev "local,id=out,path=$outdir,security_model=none"
	# QEMU's own /proc/PID (opened at start-up, so /proc/self is this
	# QEMU), read-only: the CPU the host gave this guest, which a suite
	# measuring rates divides by (nic_tcp_test.sh, own_cs).
	-fsdev "local,id=qemuproc,path=/proc/self,security_model=none,readonly=on"
	# The three shares are functions of one PCI slot: the i440FX bus has
	# 32 slots, and make check's 6.12 guest fills the others with NICs
	# (a third share on a slot of its own left a vmxnet3 without one).
	-device "virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot,addr=0x2.0,multifunction=on"
	-device "virtio-9p-pci,fsdev=out,mount_tag=out,addr=0x2.1"
	-device "virtio-9p-pci,fsdev=qemuproc,mount_tag=qemuproc,addr=0x2.2")
# The guest finds each NIC by its MAC; a hub floods every frame to all its
# other ports, as the fabric's dumb switches do, and filters nothing.
# A NIC with queues (MODEL:HUB/Q) is a multi-queue tap instead, on a Linux
# bridge in a network namespace of this run (a QEMU hub port has one queue,
# so a NIC behind it has one too): the bridge learns, which a dumb switch
# also does, and it filters nothing of ours (no netfilter, no VLANs).
netns='' taphubs=' ' qhubs=' '
for i in "${!nics[@]}"; do
	hub=${nics[i]#*:} q=${hub#*/} hub=${hub%/*}
	[ "$q" = "${nics[i]#*:}" ] && { qhubs+="$hub "; continue; }
	[[ "$taphubs" == *" $hub "* ]] || taphubs+="$hub "
done
for hub in $taphubs; do
	[[ "$qhubs" == *" $hub "* ]] &&
		err "hub $hub has both QEMU hub ports and taps"
done
if [ "$taphubs" != ' ' ]; then
	[ "$(id -u)" = 0 ] && [ -c /dev/net/tun ] ||
		err "--nic MODEL:HUB/Q needs root and /dev/net/tun"
	netns=dpvm-$$
	ip netns add "$netns" || err "cannot create netns $netns"
	trap 'ip netns del "$netns" 2>/dev/null' EXIT
	for hub in $taphubs; do
		ip -n "$netns" link add "hub$hub" type bridge stp_state 0 &&
			ip -n "$netns" link set "hub$hub" up ||
			err "cannot make bridge hub$hub"
	done
fi
for i in "${!nics[@]}"; do
	hub=${nics[i]#*:} q=${hub#*/} hub=${hub%/*} model=${nics[i]%%:*}
	mac=$(printf '52:54:00:d9:%02x:%02x' "$hub" "$i")
	if [ "$q" = "${nics[i]#*:}" ]; then
		qemu+=(-netdev "hubport,id=nic$i,hubid=$hub"
			-device "$model,netdev=nic$i,mac=$mac")
		continue
	fi
	# QEMU opens a tap of one queue without IFF_MULTI_QUEUE.  MTU 9000:
	# the bridge takes its ports' least, and the suites try jumbo frames.
	mq=multi_queue
	[ "$q" -gt 1 ] || mq=
	ip -n "$netns" tuntap add dev "tap$i" mode tap $mq &&
		ip -n "$netns" link set "tap$i" mtu 9000 master "hub$hub" up ||
		err "cannot make tap$i"
	dev="$model,netdev=nic$i,mac=$mac"
	# Queue pairs, and a vector each way per pair plus config and control.
	[ "$model" = virtio-net-pci ] && [ "$q" -gt 1 ] &&
		dev+=",mq=on,vectors=$((2 * q + 2))"
	qemu+=(-netdev "tap,id=nic$i,ifname=tap$i,queues=$q,script=no,downscript=no,vhost=off"
		-device "$dev")
done
# The plugin writes the file itself, on the host (a comma in the path
# would end QEMU's option: the run dir has none unless --out gives one).
if [ -n "$insn_plugin" ]; then
	[[ "$outdir$insn_plugin" != *,* ]] || err "--insn-plugin: a comma in $outdir or $insn_plugin"
	# INSN_PROF=1: also each window's instructions per vCPU and block
	# (insn-prof.txt; dp_bench.py splitprof names them).
	prof=
	[ "${INSN_PROF:-0}" != 1 ] || prof=",prof=$outdir/insn-prof.txt"
	qemu+=(-plugin "file=$insn_plugin,out=$outdir/insns.txt$prof")
fi
[ -z "$netns" ] || qemu=(ip netns exec "$netns" "${qemu[@]}")

# --cpu-timeout: the host CPU QEMU has used (utime + stime of its
# process, from its -pidfile), every 2 s.  Until 2026-12-01 make check's
# guests had wall-clock limits only: beside two busy host cores and other
# work (load average 6-9) the 6.12 guest had used 1,092 s of host CPU, a
# quiet run's 936 and a few suites more, when its 5,000 s ran out.
cpu_watch() {
	local pid='' t hz
	hz=$(getconf CLK_TCK)
	while sleep 2; do
		[ -n "$pid" ] || pid=$(cat "$outdir/qemu.pid" 2>/dev/null) ||
			continue
		t=$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null |
			awk -v hz="$hz" '{ print int(($12 + $13) / hz) }') || return 0
		[ -n "$t" ] || return 0
		if [ "$t" -ge "$cpu_timeout" ]; then
			echo "$t" > "$outdir/cpu-timeout"
			kill -TERM "$pid" 2>/dev/null
			sleep 5
			kill -KILL "$pid" 2>/dev/null
			return 0
		fi
	done
}
watch_pid=''
if [ -n "$cpu_timeout" ]; then
	qemu+=(-pidfile "$outdir/qemu.pid")
	cpu_watch &
	watch_pid=$!
fi

stats=$(mktemp)
t0=$(date +%s.%N)
# Console: strip CRs, keep everything in $log, show the test's part live.
set -o pipefail
timeout -k 5 "$timeout" "${qemu[@]}" < /dev/null 2> "$outdir/qemu.err" |
	sed -u 's/\r$//' | tee -a "$log" | {
	started=0
	while IFS= read -r line; do
		case "$line" in
		*DPILLAR-VM-START*)
			started=1
			echo "boot=$(echo "$(date +%s.%N) - $t0" | bc)" > "$stats"
			[ "$verbose" = 1 ] || continue ;;
		*DPILLAR-VM-EXIT:*)
			started=2
			[ "$verbose" = 1 ] || continue ;;
		esac
		[ $started = 1 ] || [ "$verbose" = 1 ] && printf '%s\n' "$line"
		true
	done
}
qrc=${PIPESTATUS[0]}
set +o pipefail
[ -z "$watch_pid" ] || kill "$watch_pid" 2>/dev/null
t1=$(date +%s.%N)
total=$(printf '%.1f' "$(echo "$t1 - $t0" | bc)")
boot=$(sed -n 's/^boot=//p' "$stats")
boot=${boot:+$(printf '%.1f' "$boot")}
# The host CPU the guest took (qemu and the console filter: this shell's
# children), against its wall time: how much of a TCG guest's time is
# computing and how much waiting (timers, sleeps), which decides what two
# host cores can run side by side (scripts/check.sh, the matrix).
# (times in this shell, not in a pipe's subshell: that has no children)
times > "$stats"
cpu=$(tail -n 1 "$stats" | awk '{
	s = 0
	for (i = 1; i <= 2; i++) {
		split($i, a, "m"); sub("s", "", a[2]); s += a[1] * 60 + a[2]
	}
	printf "%.1f", s }')
rm -f "$stats"

if [ -s "$outdir/dmesg" ]; then
	{ echo "==== guest dmesg ===="; cat "$outdir/dmesg"; } >> "$log"
fi
if [ -s "$outdir/qemu.err" ]; then
	{ echo "==== qemu stderr ===="; cat "$outdir/qemu.err"; } >> "$log"
fi

# ---- verdict ---------------------------------------------------------------
rc=$(grep -a -o 'DPILLAR-VM-EXIT: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
# The guest's refined TSC rate, for a host whose dmesg does not tell it.
khz=$(sed -n 's/.*tsc: Refined TSC clocksource calibration: \([0-9]*\)\.\([0-9]\{3\}\) MHz.*/\1\2/p' \
	"$outdir/dmesg" 2>/dev/null | tail -n 1)
[ -z "$khz" ] || [ -n "$icount" ] || echo "$khz" > "$cache/tsc_khz"
why=
if [ -s "$outdir/cpu-timeout" ]; then
	why="timeout: guest killed after $(cat "$outdir/cpu-timeout")s of host CPU (--cpu-timeout ${cpu_timeout})"
elif [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	why="timeout: guest killed after ${timeout}s"
elif [ -z "$rc" ]; then
	why="no exit sentinel (guest crashed or rig failure; qemu rc=$qrc)"
	tail -n 30 "$log" | sed 's/^/# /'
fi
splats=$("$here/splat-scan.sh" "$log" | awk '!seen[$0]++')
if [ -n "$splats" ]; then
	echo "run-vm: kernel splat detected:"
	printf '%s\n' "$splats" | head -n 40 | sed 's/^/# /'
	why="${why:+$why; }kernel splat"
fi

verdict=FAIL status=1
if [ -z "$why" ]; then
	case "$rc" in
	0) verdict=PASS status=0 ;;
	4) verdict=SKIP status=4 ;;
	*) why="script exited $rc" ;;
	esac
fi
echo "run-vm: $verdict $script (kernel $kname${icount:+, icount shift $icount sleep=$icount_sleep}, boot ${boot:-?}s, total ${total}s, host cpu ${cpu}s)${why:+: $why}"
if [ $status = 1 ]; then
	echo "run-vm: console log: $log"
	[ $keep_out = 1 ] || echo "run-vm: run dir kept: $outdir"
else
	[ $keep_out = 1 ] || rm -rf "$outdir"
fi
# Keep the 100 newest logs.
ls -1t "$cache/logs"/*.log 2>/dev/null | tail -n +101 | xargs -r rm -f
exit $status
