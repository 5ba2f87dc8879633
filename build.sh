#!/bin/sh
# build.sh: the two set-up commands of the README.
#   ./build.sh demo   install what is missing, build, record a demo trace
#                     with examples/d9demo and open d9top on it
#   ./build.sh test   install what is missing, build, run every test
#   ./build.sh wraps  the same build, then the slow test of the wrap
#                     fallbacks (suite 'wraps', test/wraps.sh): the project
#                     built again with every fallback forced, offline
# Debian 12 packages only; uses sudo for apt-get when not root.
set -eu
cd "$(dirname "$0")"

PKGS="meson ninja-build pkg-config gcc libc6-dev libncurses-dev libzstd-dev
zlib1g-dev libdeflate-dev libdwarf-dev libelf-dev libiberty-dev libuv1-dev
check valgrind tmux binutils llvm-14 zstd python3"
# node for the tests of --export parquet (test/export), which read the
# files with DuckDB and hyparquet from the npm registry; Debian's npm
# only where no npm came with node (nodesource's does)
NODE_PKGS="nodejs"
BUILD=${BUILD:-build}

install_missing() {
	missing=""
	for p in $PKGS; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		    grep -q "install ok installed" || missing="$missing $p"
	done
	command -v node >/dev/null 2>&1 || missing="$missing $NODE_PKGS"
	command -v npm >/dev/null 2>&1 || missing="$missing npm"
	[ -z "$missing" ] && return 0
	echo "build.sh: installing$missing"
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
	    --no-install-recommends $missing >/dev/null
}

build() {
	if [ ! -f "$BUILD/build.ninja" ]; then
		meson setup --wrap-mode=nodownload "$BUILD"
	fi
	meson compile -C "$BUILD"
}

# The readers of test/export (package-lock.json there) into $BUILD/npm,
# again only when the lock file changed; the tests skip without them.
npm_readers() {
	lock=test/export/package-lock.json
	dir=$BUILD/npm
	if [ -d "$dir/node_modules" ] && cmp -s "$lock" "$dir/package-lock.json"
	then
		return 0
	fi
	mkdir -p "$dir"
	cp test/export/package.json "$lock" "$dir/"
	(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) ||
	    echo "build.sh: npm ci failed: the export tests will skip" >&2
}

# meson's summary is not a line CI reads: end with Check's totals
# (of the build in $1, $BUILD by default).
check_summary() {
	awk '/^[0-9]+%: Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+/ {
		gsub(",", ""); c += $3; f += $5; e += $7; n++ }
	    END { if (n) { p = c ? int(100 * (c - f - e) / c) : 0;
		printf "%d%%: Checks: %d, Failures: %d, Errors: %d\n", p, c, f, e;
		printf "%d passed, %d failed\n", c - f - e, f + e } }' \
	    "${1:-$BUILD}/meson-logs/testlog.txt"
}

case "${1:-}" in
demo)
	install_missing
	build
	if [ -x "$BUILD/examples/d9demo" ]; then
		rm -rf demo-trace
		"$BUILD/examples/d9demo" --out demo-trace --seconds 5
		set -- demo-trace
	else
		set -- ../shared/traces/demo-2026-06.bin.gz
	fi
	if [ -t 1 ] && [ -f "$BUILD/src/tui/libd9tui.a" ]; then
		exec "$BUILD/src/app/d9top" "$@"
	fi
	exec "$BUILD/src/app/d9top" --report "$@"
	;;
test)
	install_missing
	build
	npm_readers
	rc=0
	LANG=C.UTF-8 meson test -C "$BUILD" --print-errorlogs \
	    --num-processes 2 --no-suite wraps || rc=$?
	check_summary
	exit $rc
	;;
wraps)
	install_missing
	build
	rc=0
	LANG=C.UTF-8 meson test -C "$BUILD" --print-errorlogs \
	    --suite wraps || rc=$?
	# the unit suites' totals in the forced-fallback build, if it ran
	# (test/wraps.sh removes that build first, so a SKIP leaves none)
	if [ -f "$BUILD/test/wraps/meson-logs/testlog.txt" ]; then
		check_summary "$BUILD/test/wraps"
	fi
	exit $rc
	;;
*)
	echo "usage: ./build.sh demo | test | wraps" >&2
	exit 2
	;;
esac
