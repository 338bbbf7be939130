#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/version.sh gives later commits higher versions: in a scratch
# repository holding this tree's scripts/version.sh and VERSION, twelve
# commits in a row (no tag), then a tag and three more, each commit's
# version as the packages have it (scripts/deb.sh: "+" for "-") is an
# upgrade of the one before for dpkg --compare-versions, a dirty tree's
# of its commit's, and a tree without git says VERSION.  Run by
# scripts/install-check.sh.  Last line "N passed, N failed".
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/scripts/check-lib.sh"
scratch
command -v dpkg >/dev/null || { ko "no dpkg"; finish; }

r=$tmp/r
mkdir -p "$r/scripts"
cp "$repo/scripts/version.sh" "$r/scripts/"
cp "$repo/VERSION" "$r/"
base=$(cat "$r/VERSION")
g() { git -C "$r" -c user.name=t -c user.email=t@example.invalid "$@"; }
g init -q
g add -A
# debv: the package version of the scratch tree as it is now
debv() { sh "$r/scripts/version.sh" | tr - +; }
prev=
bad=
commit() { # commit N: the Nth commit; checks it upgrades the one before
	echo "$1" >"$r/f"
	g add f
	g commit -q -m "c$1"
	cur=$(debv)
	if [ -n "$prev" ] && ! dpkg --compare-versions "$cur" gt "$prev"; then
		bad="$bad $prev->$cur"
	fi
	prev=$cur
}
first=
for i in $(seq 1 12); do
	commit "$i"
	[ -n "$first" ] || first=$prev
done
[ -z "$bad" ] && ok "12 untagged commits: each an upgrade ($first ... $prev)" ||
	ko "untagged commits that dpkg calls no upgrade:$bad"
case $prev in
"$base"*) ok "untagged versions start with VERSION ($base)" ;;
*) ko "untagged version $prev does not start with VERSION $base" ;;
esac

echo x >>"$r/f"
dirty=$(debv)
dpkg --compare-versions "$dirty" gt "$prev" &&
	ok "a dirty tree upgrades its commit ($dirty)" ||
	ko "dirty $dirty is no upgrade of $prev"
g checkout -q f

# A release: a tag newer than VERSION, then commits after it.
bad=
g tag -a -m v9.0 v9.0
cur=$(debv)
[ "$cur" = 9.0 ] && ok "the tagged commit is the tag's version (9.0)" ||
	ko "tagged commit: $cur, not 9.0"
dpkg --compare-versions "$cur" gt "$prev" || bad="$bad $prev->$cur"
prev=$cur
for i in $(seq 13 15); do
	commit "$i"
done
[ -z "$bad" ] && ok "tag and 3 commits after it: each an upgrade (... $prev)" ||
	ko "tagged commits that dpkg calls no upgrade:$bad"

rm -rf "$r/.git"
[ "$(sh "$r/scripts/version.sh")" = "$base" ] &&
	ok "without git: VERSION ($base)" ||
	ko "without git: $(sh "$r/scripts/version.sh"), not $base"
finish
