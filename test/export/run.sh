#!/bin/sh
# run.sh SCRIPT ARGS...: a test of test/export, in node, with the readers
# build.sh installs (npm ci of test/export/package-lock.json into the
# build's npm/ folder, named by D9_NODE_MODULES). Skipped (77) when node
# is missing; the scripts skip when the readers are.
command -v node >/dev/null 2>&1 || { echo "SKIP: node is not installed"; exit 77; }
exec node "$@"
