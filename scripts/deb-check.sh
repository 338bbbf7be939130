#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make deb, checked without installing anything: the packages build
# (scripts/deb.sh), lintian finds no error and no warning in them (and
# there are no overrides), dpillar-tools and dpillar-iproute2 (the ip
# plugin, which depends on the one iproute2 it is built for) hold exactly
# what "make install-tools PREFIX=/usr" installs with the paths filled in, its
# programs print the version of the sources, dpillar-dkms holds the
# module's sources and a postinst that hands them to DKMS, and DKMS
# builds the packaged sources (extracted, in private trees:
# scripts/dkms-check.sh --src) for the kernels given.
#
# Usage: scripts/deb-check.sh [KERNELRELEASE...]   (e.g. 6.12.117+deb12-amd64)
# Last line "N passed, N failed"; exit status 1 if anything failed.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 1
. "$repo/scripts/check-lib.sh"
scratch

# The version the packages must have: the sources' (deb.sh's "+" for "-").
v=$(sh scripts/version.sh)
dv=$(echo "$v" | tr - +)
if bash scripts/deb.sh "$tmp/out" >"$tmp/deb.log" 2>&1; then
	ok "make deb: $(cd "$tmp/out" && echo *.deb)"
else
	ko "make deb"; cat "$tmp/deb.log"; finish
fi
tools=$(ls "$tmp"/out/dpillar-tools_"$dv"_*.deb 2>/dev/null)
dkms=$(ls "$tmp"/out/dpillar-dkms_"$dv"_all.deb 2>/dev/null)
ipp=$(ls "$tmp"/out/dpillar-iproute2_"$dv"_*.deb 2>/dev/null)
[ -n "$tools" ] && [ -n "$dkms" ] && [ -n "$ipp" ] &&
	ok "the three packages are version $dv" ||
	{ ko "no dpillar-tools, dpillar-dkms and dpillar-iproute2 of version $dv: $(ls "$tmp/out")"; finish; }

# lintian on the .changes: the source package and both binaries.
if [ -n "$(find debian -name '*lintian-overrides*')" ]; then
	ko "lintian overrides in debian/: $(find debian -name '*lintian-overrides*')"
fi
if lintian --fail-on error,warning build/deb/*.changes >"$tmp/lintian" 2>&1; then
	ok "lintian: no error, no warning$(grep -c '^[IP]:' "$tmp/lintian" | sed 's/^0$//; s/..*/ (& info)/')"
else
	ko "lintian:"; grep -v '^running with root' "$tmp/lintian"
fi

# dpillar-tools: what make install-tools installs, nothing more (but
# /usr/share/doc), man pages compressed.
make -s install-tools DESTDIR="$tmp/inst" PREFIX=/usr \
	UNITDIR=/lib/systemd/system >"$tmp/inst.log" 2>&1 ||
	{ ko "make install-tools DESTDIR=..."; cat "$tmp/inst.log"; }
(cd "$tmp/inst" && find . ! -type d | sort) >"$tmp/want"
dpkg-deb -x "$tools" "$tmp/tools"
dpkg-deb -x "$ipp" "$tmp/ipp"
# The two packages together, and the ip plugin only in dpillar-iproute2.
for d in tools ipp; do
	(cd "$tmp/$d" && find . ! -type d ! -path './usr/share/doc/*' |
		sed 's|^\(./usr/share/man/.*\)\.gz$|\1|')
done | sort >"$tmp/got"
if cmp -s "$tmp/want" "$tmp/got"; then
	ok "dpillar-tools and dpillar-iproute2 hold the $(wc -l <"$tmp/want") files of make install-tools"
else
	ko "dpillar-tools + dpillar-iproute2 differ from make install-tools (< install-tools, > packages):"
	diff "$tmp/want" "$tmp/got"
fi
(cd "$tmp/ipp" && find . ! -type d ! -path './usr/share/doc/*' | sort) >"$tmp/ipp.files"
[ "$(grep -c '/ip/link_dpillar' "$tmp/ipp.files")" = 2 ] &&
	[ "$(wc -l <"$tmp/ipp.files")" = 2 ] &&
	ok "dpillar-iproute2 holds the ip plugin, nothing else" ||
	{ ko "dpillar-iproute2 holds:"; cat "$tmp/ipp.files"; }
# Built for iproute2 6.1.0's layout (tools/iproute2/iproute2.h): exactly
# that version, so that an iproute2 upgrade removes the plugin.
ipv=$(sed -n 's/^#define IP_VERSION[[:space:]]*"\(.*\)"$/\1/p' tools/iproute2/iproute2.h)
dep=$(dpkg-deb -f "$ipp" Depends)
[[ $dep == *"iproute2 (>= $ipv)"* ]] &&
	[[ $dep == *"iproute2 (<< ${ipv%.*}.$((${ipv##*.} + 1))~)"* ]] &&
	ok "dpillar-iproute2 depends on iproute2 $ipv exactly: $dep" ||
	ko "dpillar-iproute2: Depends '$dep', not iproute2 $ipv exactly"
[ -s "$tmp/tools/usr/share/doc/dpillar-tools/copyright" ] &&
	ok "dpillar-tools: copyright" || ko "dpillar-tools: no copyright"
T=$tmp/tools
# README.Debian and the example configurations (issue 55, item 10), each
# one the packaged dpctl checks as "dpctl up" would read it
doc=$T/usr/share/doc/dpillar-tools
[ -s "$doc/README.Debian" ] || [ -s "$doc/README.Debian.gz" ] &&
	ok "dpillar-tools: README.Debian" || ko "dpillar-tools: no README.Debian"
for f in dp0.conf s2-derived.conf s2-plan.conf; do
	e=$doc/examples/$f
	[ -f "$e.gz" ] && gzip -dc "$e.gz" >"$tmp/$f" && e=$tmp/$f
	[ -s "$e" ] && "$T/usr/sbin/dpctl" check -c "$e" >/dev/null 2>"$tmp/ex.err" &&
		ok "dpillar-tools: examples/$f, which dpctl check takes" ||
		{ ko "dpillar-tools: examples/$f"; cat "$tmp/ex.err" 2>/dev/null; }
done
[ "$("$T/usr/sbin/dpctl" -V)" = "dpctl (dpillar) $v" ] && ok "packaged dpctl -V: $v" ||
	ko "packaged dpctl -V: $("$T/usr/sbin/dpctl" -V), sources $v"
[ "$("$T/usr/bin/dpsim" -V)" = "dpsim (dpillar) $v" ] && ok "packaged dpsim -V: $v" ||
	ko "packaged dpsim -V: $("$T/usr/bin/dpsim" -V), sources $v"
grep -qx 'ExecStart=/usr/sbin/dpctl up %i -w 30 -W' "$T/lib/systemd/system/dpillar@.service" &&
	ok "unit runs /usr/sbin/dpctl" || ko "unit's ExecStart is not /usr/sbin/dpctl"
for h in if-pre-up.d if-post-down.d; do
	f=$T/etc/network/$h/dpillar
	[ -x "$f" ] && grep -q '/usr/sbin/dpctl ' "$f" && ! grep -q @SBINDIR@ "$f" &&
		ok "ifupdown hook $h/dpillar runs /usr/sbin/dpctl" ||
		ko "ifupdown hook $h/dpillar"
	dpkg-deb -e "$tools" "$tmp/tools-ctl"
	grep -qx "/etc/network/$h/dpillar" "$tmp/tools-ctl/conffiles" &&
		ok "$h/dpillar is a conffile" || ko "$h/dpillar is no conffile"
done

# dpillar-dkms: the module's sources, dkms.conf, and the postinst.
dpkg-deb -x "$dkms" "$tmp/dkms"
dpkg-deb -e "$dkms" "$tmp/dkms-ctl"
s=$(ls -d "$tmp"/dkms/usr/src/dpillar-* 2>/dev/null)
missing=
for f in dkms.conf Makefile Kbuild VERSION scripts/version.sh \
	$(git ls-files net/dpillar include/uapi); do
	[ -f "$s/$f" ] || missing="$missing $f"
done
[ -n "$s" ] && [ -z "$missing" ] && ok "dpillar-dkms: ${s#"$tmp/dkms"} holds the module's sources" ||
	ko "dpillar-dkms lacks:${missing:- /usr/src/dpillar-*}"
# DKMS's version is the package's: an upgrade is a new DKMS version.
[ "$s" = "$tmp/dkms/usr/src/dpillar-$dv" ] &&
	ok "dpillar-dkms: sources in /usr/src/dpillar-$dv" ||
	ko "dpillar-dkms: sources in ${s#"$tmp/dkms"}, not /usr/src/dpillar-$dv"
grep -qx "PACKAGE_VERSION=\"$dv\"" "$s/dkms.conf" 2>/dev/null &&
	ok "dpillar-dkms: dkms.conf PACKAGE_VERSION $dv" ||
	ko "dpillar-dkms: dkms.conf $(grep '^PACKAGE_VERSION=' "$s/dkms.conf" 2>/dev/null), not $dv"
grep -q 'dkms' "$tmp/dkms-ctl/postinst" 2>/dev/null &&
	ok "dpillar-dkms: postinst runs DKMS" || ko "dpillar-dkms: no DKMS in postinst"
dpkg-deb -f "$dkms" Depends | grep -qw dkms && ok "dpillar-dkms depends on dkms" ||
	ko "dpillar-dkms: Depends '$(dpkg-deb -f "$dkms" Depends)' lacks dkms"

# DKMS builds what the package holds.
if [ -n "$s" ]; then
	bash scripts/dkms-check.sh --src "$s" "$@" >"$tmp/dkms.log" 2>&1
	sed 's/^/dkms-check: /' "$tmp/dkms.log"
	read -r np w1 nf w2 < <(tail -n 1 "$tmp/dkms.log")
	[ "${w1:-}" = passed, ] && [ "${w2:-}" = failed ] &&
		pass=$((pass + np)) fail=$((fail + nf)) ||
		ko "dkms-check.sh: no closing line"
fi
finish
