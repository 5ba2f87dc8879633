#!/bin/sh
# layers.sh SRC: each layer includes only the layers below it
# (base <- parse <- model <- symbolize <- output <- tui, app; export
# above the model, below app; store, the index, above the model and
# below tui and app only), the
# recorder only base, and the model's core (load, finish) none of the
# model's analyses. Prints every include that breaks this; exit 1 then.
set -u
src=${1:?usage: layers.sh SRC}
bad=0

check() {	# dir, pattern of forbidden include folders or files
	for f in "$src/$1"/*.[ch]; do
		grep -Hn "^#include \"\\($2\\)" "$f" && bad=1
	done
}

check base '\(parse\|model\|store\|symbolize\|output\|tui\|app\|rec\)/'
check parse '\(model\|store\|symbolize\|output\|tui\|app\|rec\)/'
for w in model/core model/figures model/queries; do
	check "$w" '\(store\|symbolize\|output\|tui\|app\|rec\)/'
done
check store '\(symbolize\|output\|export\|tui\|app\|rec\)/'
check symbolize '\(store\|output\|tui\|app\|rec\)/'
check output '\(store\|tui\|app\|rec\)/'
check export '\(store\|symbolize\|output\|tui\|app\|rec\)/'
check tui '\(app\|rec\)/'
check rec '\(parse\|model\|symbolize\|output\|tui\|app\)/'
for f in model.c build.c timeline.c tables.c table.c; do
	grep -Hn '^#include "model/figures/analysis' "$src/model/core/$f" && bad=1
done
# small folders: none of src/ holds more than 40 source files
for d in $(find "$src" -type d); do
	n=$(find "$d" -maxdepth 1 -name '*.[ch]' | wc -l)
	if [ "$n" -gt 40 ]; then
		echo "layers: ${d#"$src"/} holds $n source files (at most 40)"
		bad=1
	fi
done
# the environment is read by src/app only (libd9rec's documented
# D9REC_SYMBOLS aside: src/rec/writer.c)
grep -rn 'getenv *(' "$src" --include='*.c' | grep -v "^$src/app/" |
    grep -v "^$src/rec/writer.c:" && bad=1
[ "$bad" -eq 0 ] && echo "layers: every include goes to a layer below"
exit "$bad"
