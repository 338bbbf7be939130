#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make install, checked without installing anything: "make install-tools"
# into a scratch prefix (the module half is the kernel's modules_install),
# then what an operator's machine would see there: every file, man pages
# that render without warnings, bash completions that load and complete,
# the systemd unit with its paths filled in and accepted by
# "systemd-analyze verify", the Wireshark dissector where Wireshark looks
# for it, the iproute2 plugin where Debian's ip looks (under the prefix)
# and loaded by that ip, and one version everywhere (dpctl -V,
# dpsim -V, dkms.conf, VERSION), later commits with higher versions
# (scripts/version-check.sh).  Last line "N passed, N failed".
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 1
. "$repo/scripts/check-lib.sh"
scratch
P=$tmp/usr

# A real prefix, not DESTDIR: the unit's ExecStart then names a dpctl
# that exists, and systemd-analyze can check it.
if make -s install-tools PREFIX="$P" >"$tmp/log" 2>&1; then
	ok "make install-tools PREFIX=..."
else
	ko "make install-tools"; cat "$tmp/log"
fi
for f in sbin/dpctl bin/dpsim share/man/man8/dpctl.8 share/man/man1/dpsim.1 \
	 share/bash-completion/completions/dpctl \
	 share/bash-completion/completions/dpsim \
	 lib/systemd/system/dpillar@.service \
	 etc/network/if-pre-up.d/dpillar etc/network/if-post-down.d/dpillar; do
	[ -s "$P/$f" ] && ok "installs $f" || ko "no $f"
done
[ -x "$P/sbin/dpctl" ] && [ -x "$P/bin/dpsim" ] && ok "programs are executable" ||
	ko "programs not executable"

# The iproute2 plugin: lib/<multiarch>/ip, as Debian's ip has it (PREFIX
# /usr); the port kind a link to it; Debian's ip loads it (IP_LIB_DIR,
# help needs no kernel) and matches it.
ipd=$P/lib/$(cc -print-multiarch)/ip
[ -s "$ipd/link_dpillar.so" ] && ok "installs lib/$(cc -print-multiarch)/ip/link_dpillar.so" ||
	ko "no $ipd/link_dpillar.so"
[ "$(readlink "$ipd/link_dpillar_slave.so")" = link_dpillar.so ] &&
	ok "link_dpillar_slave.so -> link_dpillar.so" || ko "no link_dpillar_slave.so link"
IP_LIB_DIR=$ipd ip link help dpillar 2>&1 | grep -q '^Usage: ip link add DEV type dpillar' &&
	IP_LIB_DIR=$ipd ip link help dpillar_slave 2>&1 | grep -q '^Usage: ip link set NIC master DEV' &&
	ok "ip link help dpillar, dpillar_slave (the installed plugin)" ||
	ko "ip link help dpillar: $(IP_LIB_DIR=$ipd ip link help dpillar 2>&1 | head -2)"
if out=$(sh tools/iproute2/check-ip.sh ip "$ipd/link_dpillar.so" 2>&1); then
	ok "$out"
else
	ko "$out"
fi

# man pages: no groff/man warnings
for m in man8/dpctl.8 man1/dpsim.1; do
	w=$(MANWIDTH=80 man --warnings -l "$P/share/man/$m" 2>&1 >/dev/null)
	[ -z "$w" ] && ok "$m renders without warnings" || ko "$m: $w"
done

# The unit: @SBINDIR@ replaced, and systemd accepts it.
unit=$P/lib/systemd/system/dpillar@.service
grep -q '@SBINDIR@' "$unit" && ko "unit still says @SBINDIR@" ||
	ok "unit has dpctl's path"
grep -qx "ExecStart=$P/sbin/dpctl up %i -w 30 -W" "$unit" &&
	grep -qx "ExecStop=-$P/sbin/dpctl down %i" "$unit" &&
	grep -qx "Type=notify" "$unit" && grep -qx "Restart=on-failure" "$unit" &&
	grep -qx "AssertPathExists=/etc/dpillar/%i.conf" "$unit" &&
	ok "the unit: dpctl up -W (Type=notify, restarted on failure), down %i, its file asserted" ||
	ko "the unit: ExecStart, ExecStop, Type, Restart or AssertPathExists"
if command -v systemd-analyze >/dev/null; then
	# An instance of the template, as "systemctl start dpillar@dp0" makes
	# it; MANPATH: Documentation=man:dpctl(8) is checked too.
	cp "$unit" "$tmp/dpillar@dp0.service"
	if out=$(MANPATH=$P/share/man systemd-analyze verify \
		 "$tmp/dpillar@dp0.service" 2>&1) && [ -z "$out" ]; then
		ok "systemd-analyze verify dpillar@dp0.service"
	else
		ko "systemd-analyze verify: $out"
	fi
else
	ko "no systemd-analyze (scripts/deps.sh installs systemd)"
fi

# Completions: they load, and complete a command and a subcommand.
comp() { # comp TOOL WORD...: the completions of the last WORD of "TOOL WORD..."
	bash -c '. /usr/share/bash-completion/bash_completion 2>/dev/null
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_$1 "$1" "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}"
		printf "%s\n" "${COMPREPLY[@]}"' _ \
		"$P/share/bash-completion/completions/$1" "$@"
}
if [ -f /usr/share/bash-completion/bash_completion ]; then
	[ "$(comp dpctl u | sort | paste -sd' ')" = "up" ] &&
		ok "completion: dpctl u -> up" || ko "completion: dpctl u: $(comp dpctl u)"
	[ "$(comp dpctl showc)" = "showconf" ] &&
		ok "completion: dpctl showc -> showconf" || ko "completion: dpctl showc: $(comp dpctl showc)"
	[ "$(comp dpctl up dp0 -c f - | paste -sd' ')" = "-c -w -W --wait-ports -t --dry-run" ] &&
		ok "completion: dpctl up DEV - -> -c -w -W --wait-ports -t --dry-run" || ko "completion: dpctl up DEV -: $(comp dpctl up dp0 -c f -)"
	[ "$(comp dpctl che)" = "check" ] &&
		ok "completion: dpctl che -> check" || ko "completion: dpctl che: $(comp dpctl che)"
	# What each command takes (its help), no more: stats DEV all or
	# prometheus, not port
	[ "$(comp dpctl stats dp0 '' | paste -sd' ')" = "all prometheus" ] &&
		ok "completion: dpctl stats DEV -> all prometheus (no port)" ||
		ko "completion: dpctl stats DEV: $(comp dpctl stats dp0 '' | paste -sd' ')"
	[ "$(comp dpctl neigh dp0 '' | paste -sd' ')" = "port" ] &&
		ok "completion: dpctl neigh DEV -> port" ||
		ko "completion: dpctl neigh DEV: $(comp dpctl neigh dp0 '' | paste -sd' ')"
	[ -z "$(comp dpctl show dp0 '')" ] &&
		ok "completion: dpctl show DEV -> nothing" ||
		ko "completion: dpctl show DEV: $(comp dpctl show dp0 '' | paste -sd' ')"
	[ "$(comp dpctl plan topo s2 -n 4 no)" = "nodes" ] &&
	[ "$(comp dpctl plan topo s2 -n 4 nodes 8 spaces 2 seed 1 mo)" = "mode" ] &&
	[ "$(comp dpctl plan topo s2 -n 4 nodes 8 spaces 2 seed 1 mode p)" = "plan" ] &&
	[ "$(comp dpctl plan topo s2 -n 4 nodes 8 spaces 2 seed 1 mode plan g)" = "grow" ] &&
		ok "completion: dpctl plan: S2's nodes, spaces, seed, mode plan, grow" ||
		ko "completion: dpctl plan topo s2: $(comp dpctl plan topo s2 -n 4 '' | paste -sd' ')"
	[ "$(comp dpctl help sh | paste -sd' ')" = "show shortcut showconf" ] &&
		ok "completion: dpctl help sh -> show shortcut showconf" ||
		ko "completion: dpctl help sh: $(comp dpctl help sh | paste -sd' ')"
	# No drift: every command of dpctl's help is completed, after dpctl
	# and after dpctl help.
	want=$("$P/sbin/dpctl" help 2>&1 |
		sed -n 's/^dpctl \([a-z][a-z]*\) .*/\1/p; s/^dpctl \([a-z][a-z]*\)$/\1/p' |
		grep -v '^help$' | sort -u)
	# (as a prefix: help says "addr" and "neigh" of address, neighbour)
	miss= miss2=
	for w in $want; do
		[ -n "$(comp dpctl "$w")" ] || miss="$miss $w"
		[ -n "$(comp dpctl help "$w")" ] || miss2="$miss2 $w"
	done
	[ -n "$want" ] && [ -z "$miss$miss2" ] &&
		ok "completion: every dpctl command, and after help ($(echo $want))" ||
		ko "completion: dpctl lacks: $miss; dpctl help lacks: $miss2"
	[ "$(comp dpctl link a)" = "add" ] &&
		ok "completion: dpctl link a -> add" || ko "completion: dpctl link a"
	[ "$(comp dpctl -V)" = "-Version" ] &&
		ok "completion: dpctl -V -> -Version" || ko "completion: dpctl -V"
	# Topologies and modes come from dpctl words (the registry): the
	# installed dpctl, first in PATH.
	[ "$(PATH=$P/sbin:$PATH comp dpctl link add topo d | paste -sd' ')" = "dpillar dcell" ] &&
		ok "completion: dpctl link add topo d -> dpillar dcell" ||
		ko "completion: dpctl link add topo d: $(PATH=$P/sbin:$PATH comp dpctl link add topo d)"
	[ "$(PATH=$P/sbin:$PATH comp dpsim pairs --mode 2h | paste -sd' ')" = "2hop 2hop-sim" ] &&
		ok "completion: dpsim --mode 2h -> 2hop 2hop-sim" ||
		ko "completion: dpsim --mode 2h: $(PATH=$P/sbin:$PATH comp dpsim pairs --mode 2h)"
	[ "$(comp dpsim route --to x --d)" = "--dot" ] &&
		ok "completion: dpsim route --d -> --dot" || ko "completion: dpsim route --d: $(comp dpsim route --to x --d)"
	# No drift: every command the tools' help names is completed.
	want=$( { "$P/bin/dpsim" help; "$P/bin/dpsim" help --topo s2; } 2>&1 |
		sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' | sort -u)
	have=$(comp dpsim '' | sort -u)
	miss=$(comm -23 <(echo "$want") <(echo "$have") | paste -sd' ')
	[ -n "$want" ] && [ -z "$miss" ] &&
		ok "completion: every dpsim command ($(echo $want))" ||
		ko "completion: dpsim lacks: $miss"
	want=$("$P/sbin/dpctl" route help 2>&1 |
		sed -n 's/^dpctl route \([a-z]*\) .*/\1/p' | sort -u)
	have=$(comp dpctl route '' | sort -u)
	miss=$(comm -23 <(echo "$want") <(echo "$have") | paste -sd' ')
	[ -n "$want" ] && [ -z "$miss" ] &&
		ok "completion: every dpctl route command ($(echo $want))" ||
		ko "completion: dpctl route lacks: $miss"
else
	ko "no bash-completion (scripts/deps.sh installs it)"
fi

# The Wireshark dissector: under PREFIX=/usr (a package's), in the
# directory Wireshark itself reads (tshark -G folders); tshark loads it.
if command -v tshark >/dev/null; then
	make -s install-tools PREFIX=/usr DESTDIR="$tmp/dest" >"$tmp/log" 2>&1 ||
		{ ko "make install-tools PREFIX=/usr DESTDIR=..."; cat "$tmp/log"; }
	wsdir=$(tshark -G folders 2>/dev/null | sed -n 's/^Global Lua Plugins:[[:space:]]*//p')
	lua=$tmp/dest$wsdir/dpillar.lua
	[ -n "$wsdir" ] && [ -s "$lua" ] &&
		ok "PREFIX=/usr installs dpillar.lua in Wireshark's Lua plugin directory ($wsdir)" ||
		ko "no dpillar.lua in $tmp/dest$wsdir: $(cd "$tmp/dest" && find . -name '*.lua')"
	# An empty pcap; the filter compiles only once the script has loaded.
	printf '\xd4\xc3\xb2\xa1\x02\x00\x04\x00\0\0\0\0\0\0\0\0\xff\xff\0\0\x01\0\0\0' \
		> "$tmp/empty.pcap"
	if out=$(tshark -X "lua_script:$lua" -Y dpillar.type -r "$tmp/empty.pcap" 2>&1) &&
	   ! echo "$out" | grep -qi lua; then
		ok "tshark loads the installed dpillar.lua (filter dpillar.type)"
	else
		ko "tshark -X lua_script:dpillar.lua: $out"
	fi
else
	ko "no tshark (scripts/deps.sh installs it)"
fi

# One version: the sources', in both tools; dkms.conf's is VERSION.
v=$(sh scripts/version.sh)
[ "$("$P/sbin/dpctl" -V)" = "dpctl (dpillar) $v" ] && ok "dpctl -V: $v" ||
	ko "dpctl -V: $("$P/sbin/dpctl" -V), sources $v"
[ "$("$P/bin/dpsim" -V)" = "dpsim (dpillar) $v" ] && ok "dpsim -V: $v" ||
	ko "dpsim -V: $("$P/bin/dpsim" -V), sources $v"
dv=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)
[ "$dv" = "$(cat VERSION)" ] && ok "dkms.conf PACKAGE_VERSION = VERSION ($dv)" ||
	ko "dkms.conf PACKAGE_VERSION $dv, VERSION $(cat VERSION)"
# Later commits have higher versions (dpkg --compare-versions).
bash scripts/version-check.sh >"$tmp/version.log" 2>&1
sed 's/^/version-check: /' "$tmp/version.log"
read -r np w1 nf w2 < <(tail -n 1 "$tmp/version.log")
[ "${w1:-}" = passed, ] && [ "${w2:-}" = failed ] &&
	pass=$((pass + np)) fail=$((fail + nf)) ||
	ko "version-check.sh: no closing line"
grep -qx 'BUILD_EXCLUSIVE_KERNEL_MIN="6.1"' dkms.conf &&
	ok "dkms.conf: BUILD_EXCLUSIVE_KERNEL_MIN 6.1" ||
	ko "dkms.conf lacks BUILD_EXCLUSIVE_KERNEL_MIN=\"6.1\""

finish
