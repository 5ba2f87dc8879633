# tmux_lib.sh: what the screen tests (tmux_test.sh, tmux_fit.sh) share,
# sourced by them: a private tmux server, one session "s" at a time
# running PROGRAM, the screen read with capture-pane, and checks that
# poll the screen (a bounded retry) until it shows a state. What cannot
# run is skipped, never passed: exit 77 without tmux or the shared trace.
set -u
skip() { echo "SKIP: $*"; exit 77; }
[ -n "${D9_TRACES:-}" ] || skip "D9_TRACES unset"
demo=$D9_TRACES/demo-2026-06.bin.gz
[ -r "$demo" ] || skip "no $demo"
command -v tmux >/dev/null 2>&1 || skip "no tmux"
sock=d9t-$$
fails=0
checks=0
skipped=0
T() { tmux -L "$sock" "$@"; }
trap 'T kill-server 2>/dev/null' EXIT
trap 'exit 1' INT TERM
# a session that outlives the others, so the server never exits between
# two tests (killing the last session would end it)
T new-session -d -s keep -x 20 -y 5 "sleep 600" ||
    skip "tmux cannot start a server here"

start() {	# start W H CMD...
	w=$1 h=$2
	shift 2
	T kill-session -t s 2>/dev/null
	T new-session -d -s s -x "$w" -y "$h" \
	    "env LANG=C.UTF-8 TERM=tmux-256color $*; echo EXITED \$?; sleep 30"
}

screen() { T capture-pane -p -t s; }

# gone: the program has exited (or its session has): waiting for it to
# draw more is pointless, a failing check fails at once
gone() {
	! T has-session -t s 2>/dev/null || screen | grep -q '^EXITED [0-9]'
}

# wait_for TEXT [SECONDS]: poll the screen until TEXT shows up (the
# bound in seconds of the clock: a loaded machine polls less often)
wait_for() {
	end=$(($(date +%s) + ${2:-10}))
	while :; do
		screen | grep -qF -- "$1" && return 0
		# gone: what it drew before it exited is all there is
		case $1 in EXITED*) ;; *) gone && {
			screen | grep -qF -- "$1"
			return
		} ;; esac
		[ "$(date +%s)" -lt "$end" ] || return 1
		sleep 0.05
	done
}

expect() {	# expect NAME TEXT [SECONDS, default 5]
	checks=$((checks + 1))
	if wait_for "$2" "${3:-5}"; then
		echo "ok $checks - $1"
	else
		fails=$((fails + 1))
		echo "not ok $checks - $1: no '$2' on screen:"
		screen | sed 's/^/    | /'
	fi
}

keys() { T send-keys -t s "$@"; sleep 0.15; }

lacks() {	# lacks NAME TEXT: the screen (now) has no TEXT
	checks=$((checks + 1))
	if screen | grep -qF -- "$2"; then
		fails=$((fails + 1))
		echo "not ok $checks - $1: '$2' on screen:"
		screen | sed 's/^/    | /'
	else
		echo "ok $checks - $1"
	fi
}

# holds NAME SECONDS PREDICATE [ARGS...]: poll until PREDICATE (a
# function reading the screen, setting $why to what it saw) succeeds;
# fails after SECONDS with $why and the screen
holds() {
	name=$1 secs=$2
	shift 2
	checks=$((checks + 1))
	end=$(($(date +%s) + secs))
	while why= && ! "$@"; do
		# gone: one last look at what it drew before it exited
		if gone && why= && "$@"; then
			break
		fi
		if [ "$(date +%s)" -ge "$end" ] || gone; then
			fails=$((fails + 1))
			echo "not ok $checks - $name: $why"
			screen | sed 's/^/    | /'
			return 1
		fi
		sleep 0.05
	done
	echo "ok $checks - $name${why:+ ($why)}"
}

# loaded: the header has the window's length and no "loading", the
# hint bar is drawn
loaded() {
	hd=$(screen)
	echo "$hd" | head -1 | grep -q ' window .*(.*)' &&
	    ! echo "$hd" | head -1 | grep -q loading &&
	    echo "$hd" | tail -1 | grep -q '^?:help' && return 0
	why="header: $(echo "$hd" | head -1)"
	return 1
}

few_blank() {	# few_blank N: fewer than N rows of the screen are blank
	b=$(screen | grep -c '^ *$')
	why="$b blank rows"
	[ "$b" -lt "$1" ]
}

blank_below() {	# blank_below NAME N: fewer than N blank rows
	holds "$1" 5 few_blank "$2"
}
