#!/bin/sh
# test/wraps.sh [BUILDDIR]: build d9top with every wrap fallback forced
# (subprojects/*.wrap: check, libzstd, zlib, libdwarf) and offline
# (--wrap-mode=nodownload), then run the unit suites (unit, parse) there.
#
# The tarballs are the .orig files of Debian 12's source packages, fetched
# when missing with `apt-get source --download-only` through a private apt
# state (a deb-src entry for bookworm on the mirror this machine's own
# bookworm entry uses; /etc/apt is left alone) and put where the wraps
# want them: subprojects/packagecache/ for a wrap with a source_url,
# subprojects/packagefiles/ for one without. Neither is committed.
# Exit 77 (meson's SKIP) when they cannot be fetched; a tarball whose
# sha256 is not the wrap's fails. Each run starts from a new BUILDDIR and
# new trees extracted from the tarballs with the committed overlays.
# Run by `meson test --suite wraps` (./build.sh wraps), or by hand.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build-wraps}
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
wraps="check libzstd zlib libdwarf"
sub=$top/subprojects

skip() { echo "wraps.sh: SKIP: $*"; exit 77; }
die() { echo "wraps.sh: FAIL: $*"; exit 1; }
# key WRAP NAME: the value of NAME in subprojects/WRAP.wrap
key() { sed -n "s/^$2[[:space:]]*=[[:space:]]*//p" "$sub/$1.wrap" | head -n 1; }
# where meson looks for WRAP's tarball
tarball() {
	if [ -n "$(key "$1" source_url)" ]; then
		echo "$sub/packagecache/$(key "$1" source_filename)"
	else
		echo "$sub/packagefiles/$(key "$1" source_filename)"
	fi
}
hash_ok() { [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d ' ' -f 1)" = "$2" ]; }

rm -rf "$out"

missing=""
for w in $wraps; do
	hash_ok "$(tarball "$w")" "$(key "$w" source_hash)" ||
	    missing="$missing $w"
done

if [ -n "$missing" ]; then
	echo "wraps.sh: fetching Debian's sources for:$missing"
	command -v apt-get >/dev/null 2>&1 ||
	    skip "no apt-get here: Debian's source packages cannot be fetched"
	targets=$(apt-get indextargets --format \
	    '$(SITE) $(RELEASE) $(COMPONENT) $(IDENTIFIER)') ||
	    skip "apt-get indextargets failed: no apt sources to start from"
	site=$(echo "$targets" | awk '$2 == "bookworm" && $3 == "main" &&
	    $4 == "Packages" { print $1; exit }')
	[ -n "$site" ] ||
	    skip "this machine's apt sources have no bookworm main entry"
	apt=$(mktemp -d "${TMPDIR:-/tmp}/d9top-wraps.XXXXXX")
	trap 'rm -rf "$apt"' EXIT
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" \
	    "$apt/parts" "$apt/dl"
	chmod 755 "$apt"
	{
		echo "Types: deb-src"
		echo "URIs: $site"
		echo "Suites: bookworm"
		echo "Components: main"
		k=/usr/share/keyrings/debian-archive-keyring.gpg
		[ -f "$k" ] && echo "Signed-By: $k"
	} > "$apt/d9top-src.sources"
	# as root apt downloads as _apt, which must be able to write there
	[ "$(id -u)" -ne 0 ] || ! id _apt >/dev/null 2>&1 ||
	    chown -R _apt "$apt/lists" "$apt/dl"
	set -- -o "Dir::Etc::SourceList=$apt/d9top-src.sources" \
	    -o "Dir::Etc::SourceParts=$apt/parts" \
	    -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
	apt-get "$@" -qq update ||
	    skip "apt-get update of the bookworm deb-src entry failed"
	pkgs=""
	for w in $missing; do
		p=$(sed -n 's/^# debian-source:[[:space:]]*//p' "$sub/$w.wrap")
		[ -n "$p" ] || die "subprojects/$w.wrap names no debian-source"
		pkgs="$pkgs $p"
	done
	# shellcheck disable=SC2086
	(cd "$apt/dl" && apt-get "$@" -qq source --download-only $pkgs) ||
	    skip "apt-get source --download-only$pkgs failed"
	for w in $missing; do
		f=$(tarball "$w")
		name=$(basename "$f")
		[ -f "$apt/dl/$name" ] || skip "Debian's archive no longer has" \
		    "$name (it has: $(cd "$apt/dl" && ls ./*.orig.tar.* | tr '\n' ' '))" \
		    "- subprojects/$w.wrap needs the new version"
		mkdir -p "$(dirname "$f")"
		cp "$apt/dl/$name" "$f"
	done
fi

for w in $wraps; do
	f=$(tarball "$w")
	hash_ok "$f" "$(key "$w" source_hash)" ||
	    die "$f: sha256 is not subprojects/$w.wrap's source_hash"
	echo "wraps.sh: $w from $(basename "$f")"
	# extract again, with the overlay as committed
	rm -rf "${sub:?}/$(key "$w" directory)"
done

start=$(date +%s)
meson setup "$out" "$top" --wrap-mode=nodownload \
    --force-fallback-for=check,libzstd,zlib,libdwarf
meson compile -C "$out" -j 2
echo "wraps.sh: set-up and build took $(($(date +%s) - start)) s"

# The fallbacks were the ones used: four subprojects, and d9top needs
# none of the system's libz, libzstd, libdwarf.
subs=$(meson introspect --projectinfo "$out" | python3 -c \
    'import json, sys
print(" ".join(sorted(s["name"] for s in json.load(sys.stdin)["subprojects"])))')
[ "$subs" = "check libdwarf libzstd zlib" ] ||
    die "subprojects used: '$subs', not check libdwarf libzstd zlib"
if readelf -d "$out/src/app/d9top" |
    grep -E 'NEEDED.*\[lib(z|zstd|dwarf)\.so' ; then
	die "d9top still links the system's library above"
fi

LANG=C.UTF-8 meson test -C "$out" --suite unit --suite parse \
    --num-processes 2 --print-errorlogs
