#!/bin/sh
# tmux_test.sh PROGRAM [D9DEMO [MKPLANTED [MKHOSTILE [MKDIFFPAIR]]]]:
# screen tests of the browser. Drives PROGRAM (the d9top binary), on the
# shared traces, on a recording D9DEMO (examples/d9demo, libd9rec) makes,
# on the planted trace MKPLANTED writes, on the hostile inputs MKHOSTILE
# (test/e2e/mkhostile.c) makes and on the two runs in one trace
# MKDIFFPAIR (test/fixtures/mkdiffpair.c) writes, inside
# tmux at 160x48 and 80x24 (and at 80x2, 1x1, 3x3, and with TERM=dumb)
# with send-keys and reads the screen with capture-pane. What cannot run
# is skipped, never passed: exit 77 (meson's "skipped") without tmux or
# the shared trace (D9_TRACES), and at the end when D9DEMO, MKPLANTED,
# MKHOSTILE or MKDIFFPAIR was missing and nothing failed.
. "$(dirname "$0")/tmux_lib.sh"
prog=$1
d9demo=${2:-}
mkplanted=${3:-}
mkhostile=${4:-}
mkdiffpair=${5:-}
if [ -z "$d9demo" ] || [ ! -x "$d9demo" ]; then
	echo "SKIP: no d9demo: the recording tests do not run"
	skipped=1
	d9demo=
fi
if [ -z "$mkplanted" ] || [ ! -x "$mkplanted" ]; then
	echo "SKIP: no mkplanted: the planted-trace tests do not run"
	skipped=1
	mkplanted=
fi
if [ -z "$mkhostile" ] || [ ! -x "$mkhostile" ]; then
	echo "SKIP: no mkhostile: the hostile-input tests do not run"
	skipped=1
	mkhostile=
fi
if [ -z "$mkdiffpair" ] || [ ! -x "$mkdiffpair" ]; then
	echo "SKIP: no mkdiffpair: the baseline tests do not run"
	skipped=1
	mkdiffpair=
fi

for size in "160 48" "80 24"; do
	set -- $size
	echo "# $1x$2"
	start "$1" "$2" "$prog" "$demo"
	expect "timeline $1x$2" "1 timeline"
	expect "loaded $1x$2" "(4.15s)"
	expect "lanes $1x$2" "w1"
	keys w
	expect "worst poll $1x$2" "poll 5.90ms  task 3"
	expect "worst spawn location $1x$2" "main.rs:289:14"
	keys Enter
	expect "detail $1x$2" "Poll of 5.90ms"
	expect "detail stacks $1x$2" "On-CPU stacks"
	keys q
	keys w
	expect "next worst $1x$2" "1.01ms poll of task 55"
	keys c
	expect "wake chain $1x$2" "Wake chain of task 55"
	keys q
	keys g 1 s Enter
	expect "go to $1x$2" "cursor 1.000000s"
	keys +
	expect "zoom in $1x$2" "(2.07s)"
	keys '['
	keys u
	keys 0
	expect "whole trace $1x$2" "window 0.000s..4.145s"
	keys 2
	expect "tasks view $1x$2" "Tasks by spawn location"
	keys 3
	expect "cpu view $1x$2" "CPU samples (on-CPU)"
	keys 4
	expect "off-cpu view $1x$2" "off-CPU samples"
	keys 5
	expect "alloc view $1x$2" "sampled allocations"
	keys 6
	expect "spans view $1x$2" "Spans by name"
	keys 7
	expect "report view $1x$2" "RED FLAGS"
	keys 1 / 5 5 Enter
	expect "search $1x$2" "of task 55"
	keys '?'
	expect "help $1x$2" "Keys of the timeline view"
	keys q q
	expect "quit $1x$2" "EXITED 0"
done

echo "# hiding a tree's plumbing at 80x24 (H)"
start 80 24 "$prog" "$demo"
expect "hide: loaded" "(4.15s)"
keys 3
expect "hide: cpu tree" "CPU samples (on-CPU)"
keys j z
expect "hide: focused" "zoomed into: tokio::runtime::scheduler"
keys H Enter
expect "hide: what is hidden" "hidden: tokio::runtime | tokio::task"
# at 80 columns their module names are shortened (m:: metrics_service)
expect "hide: the application's frames first" \
    "  ▾  89.8%      132  <m::a::WithGracefulShutdown<L,M,S,F> as c::f::i::"
expect "hide: then hyper's" \
    "    ▾  67.3%       99  <h::s::c::a::UpgradeableConnection<I,S,E> as"
lacks "hide: no runtime frame shown" "tokio::runtime::scheduler"
lacks "hide: nor shortened" "t::r::s::"
keys H C-u Enter
expect "hide: every frame again" "every frame shown"
lacks "hide: nothing hidden" "hidden:"
# the detail of the second-worst poll: a 182-frame stack whose runs of
# runtime frames fold, its application frame in sight after paging
keys 1 w w Enter
expect "detail: runs of runtime frames fold" "… 16 runtime frames (Enter"
keys NPage NPage
expect "detail: the application's frame" \
    "metrics_service::routes::record_metric::{{closure}}"
keys q q
expect "hide: quit" "EXITED 0"

echo "# pipe on stdin, keys from the terminal"
start 120 40 sh -c "'cat $demo | $prog -'"
expect "stdin pipe" "(4.15s)"
keys w
expect "stdin pipe keys" "poll 5.90ms"
keys q
expect "stdin pipe quit" "EXITED 0"

echo "# SIGTERM restores the terminal"
start 120 40 "$prog" "$demo"
expect "before signal" "(4.15s)"
pid=$(pgrep -n -f "$prog $demo" || true)
if [ -n "$pid" ]; then
	kill -TERM "$pid"
	expect "signal exit" "EXITED"
fi

echo "# tiny terminals: one line saying so, then the browser when it grows"
msg="terminal too small (need 40x10)"
for size in "80 2" "1 1" "3 3"; do
	set -- $size
	start "$1" "$2" "$prog" "$demo"
	# the one cell of 1x1 is the lower-right corner, which ncurses
	# cannot write on a terminal that wraps there (tmux): it stays blank
	[ "$1" -gt 1 ] &&
	    expect "too small $1x$2" "$(printf '%s' "$msg" | cut -c1-"$1")"
	sleep 1
	T resize-window -t s -x 80 -y 24
	expect "grown from $1x$2" "1 timeline"
	keys q
	expect "quit after $1x$2" "EXITED 0"
done
start 80 2 "$prog" "$demo"
expect "too small before q" "$msg"
keys q
expect "q while too small" "EXITED 0"

echo "# TERM=dumb: no usable terminal, nothing drawn"
start 80 24 env TERM=dumb "$prog" "$demo"
expect "dumb: why" "no usable terminal for the browser: TERM=dumb cannot"
expect "dumb: status" "EXITED 1"
checks=$((checks + 1))
if screen | grep -q -e "timeline" -e "d9top  " ||
    T capture-pane -e -p -t s | LC_ALL=C grep -q "$(printf '\033')"; then
	fails=$((fails + 1))
	echo "not ok $checks - dumb: something was drawn:"
	screen | sed 's/^/    | /'
else
	echo "ok $checks - dumb: nothing drawn"
fi

echo "# TERM unset, or one terminfo does not know: said which"
start 80 24 env -u TERM "$prog" "$demo"
expect "no TERM: why" "no usable terminal for the browser: TERM is not set"
expect "no TERM: status" "EXITED 1"
start 80 24 env TERM=vt-nosuch "$prog" "$demo"
expect "unknown TERM: why" \
    "browser: TERM=vt-nosuch: terminfo does not"
expect "unknown TERM: status" "EXITED 1"

echo "# no colour, ASCII locale"
T kill-session -t s 2>/dev/null
T new-session -d -s s -x 100 -y 30 \
    "env LANG=C LC_ALL=C NO_COLOR=1 $prog $demo; echo EXITED \$?; sleep 30"
expect "ascii timeline" "w0    |"
keys q
expect "ascii quit" "EXITED 0"

if [ -n "$d9demo" ]; then
	echo "# a recording made with libd9rec (examples/d9demo)"
	rec=$(mktemp -d /tmp/d9t-rec-XXXXXX)
	# crunch polls of 400 ms: the worst poll, with CPU samples, even when
	# a loaded machine stretches a bulk poll (seen: 151 ms) or leaves a
	# 40 ms poll (wall time) too little CPU for one sample at 99 Hz
	"$d9demo" --out "$rec/trace" --seconds 2 --crunch-ms 400 >/dev/null 2>&1
	start 120 40 "$prog" "$rec/trace"
	expect "recording loaded" "2 workers"
	# the whole recording, not a part read so far: w on a part picks
	# the worst of that part
	holds "recording read to its end" 30 loaded
	keys w
	# d9demo's planted long poll: crunch_numbers for tens of ms
	expect "recording worst poll" "examples/d9demo.c:crunch"
	keys Enter
	expect "recording on-CPU stack" "crunch_numbers"
	keys q
	# strips with nothing recorded are not drawn
	lacks "recording: no empty cpu strip" "no process CPU samples"
	lacks "recording: no kw strip at 0" "max 0ns"
	keys q
	expect "recording quit" "EXITED 0"
	rm -rf "$rec"
fi

echo "# stdin that pauses: the part read so far is browsable"
T kill-session -t s 2>/dev/null
T new-session -d -s s -x 160 -y 48 "(cat $demo; sleep 4) | env \
    LANG=C.UTF-8 TERM=tmux-256color $prog -; echo EXITED \$?; sleep 30"
expect "pipe: partial model while stdin is open" "loading: 0.5M events"
keys w
expect "pipe: w on the partial model" "poll 5.90ms  task 3"
checks=$((checks + 1))
if wait_for "EXITED" 0 || ! screen | head -1 | grep -q "loading"; then
	fails=$((fails + 1))
	echo "not ok $checks - pipe: still loading before the end of stdin"
else
	echo "ok $checks - pipe: still loading before the end of stdin"
fi
# the pipe closes 4 s after the trace: the header loses "loading" then
# (waited for, up to 30 s, however loaded the machine is)
checks=$((checks + 1))
i=0
while [ $i -lt 600 ] && screen | head -1 | grep -q "loading"; do
	sleep 0.05
	i=$((i + 1))
done
if screen | head -1 | grep -q "loading"; then
	fails=$((fails + 1))
	echo "not ok $checks - pipe: whole model after the end of stdin"
	screen | sed 's/^/    | /'
else
	echo "ok $checks - pipe: whole model after the end of stdin"
fi
expect "pipe: selection kept" "poll 5.90ms  task 3"
keys q
expect "pipe: quit" "EXITED 0"

echo "# quit while stdin is silent"
fifo=$(mktemp -u /tmp/d9t-fifo-XXXXXX)
mkfifo "$fifo"
(cat "$demo"; exec sleep 60) > "$fifo" 2>/dev/null &
wpid=$!
start 100 30 "$prog" - "<" "$fifo"
expect "silent pipe: partial model" "loading: 0.5M events"
keys q
expect "silent pipe: q quits at once" "EXITED 0"
kill $wpid 2>/dev/null
rm -f "$fifo"

echo "# --follow on stdin: following while it is open, ended once closed"
fifo=$(mktemp -u /tmp/d9t-fifo-XXXXXX)
mkfifo "$fifo"
(cat "$demo"; exec sleep 60) > "$fifo" 2>/dev/null &
wpid=$!
start 120 30 "$prog" --follow - "<" "$fifo"
expect "follow stdin: open" "following: 0.5M events"
kill $wpid 2>/dev/null
expect "follow stdin: closed" "stdin ended: 0.5M events"
keys q
expect "follow stdin: quit" "EXITED 0"
rm -f "$fifo"

if [ -n "$d9demo" ]; then
	echo "# --follow on a directory d9demo is writing"
	rec=$(mktemp -d /tmp/d9t-follow-XXXXXX)
	# crunch polls of 120 ms: the worst poll even when the load of the
	# other tests stretches the blocking task's 20 ms sleep
	"$d9demo" --out "$rec" --seconds 4 --crunch-ms 120 >/dev/null 2>&1 &
	dpid=$!
	sleep 0.3
	start 120 40 "$prog" --follow "$rec"
	expect "follow: badge" "following:"
	sleep 1
	a=$(screen | head -1 | sed -n 's/.*window 0.000s..\([0-9.]*\)s.*/\1/p')
	wait $dpid
	sleep 2
	b=$(screen | head -1 | sed -n 's/.*window 0.000s..\([0-9.]*\)s.*/\1/p')
	checks=$((checks + 1))
	if [ -n "$a" ] && [ -n "$b" ] && awk "BEGIN { exit !($b > $a + 1) }"
	then
		echo "ok $checks - follow: the window grows ($a s, then $b s)"
	else
		fails=$((fails + 1))
		echo "not ok $checks - follow: the window grows ($a s, then $b s)"
		screen | sed 's/^/    | /'
	fi
	# the worst poll is a crunch poll, unless the load of the other
	# tests stretched a bulk or blocking poll past it: w again steps to
	# the next worst, until a crunch poll is selected
	for i in 1 2 3 4 5 6; do
		keys w
		sleep 0.5
		screen | grep -q "examples/d9demo.c:crunch" && break
	done
	expect "follow: worst poll" "examples/d9demo.c:crunch" 20
	keys Enter
	# names come from d9demo's DWARF, read by a child process: on a
	# loaded machine that can take longer than a key press
	expect "follow: symbolized stack" "crunch_numbers" 30
	keys q q
	expect "follow: quit" "EXITED 0"
	rm -rf "$rec"
fi

# signal_test SIG STATUS TRACE READY: the browser on TRACE, up once READY
# shows, ended by SIG (a name for kill(1), or C-\\ typed as a key): exit
# status STATUS (128 + signal), terminal modes as before, normal screen,
# cursor on, mouse reporting off
signal_test() {
	T kill-session -t s 2>/dev/null
	rm -f "$pidf"
	T new-session -d -s s -x 100 -y 30 "ulimit -c 0; s0=\$(stty -g); \
	    env LANG=C.UTF-8 TERM=tmux-256color sh -c 'echo \$\$ > $pidf; \
	    exec $prog $3'; echo EXITED \$?; [ \"\$(stty -g)\" = \"\$s0\" ] && \
	    echo TTY-MODES-SAME; sleep 30"
	expect "$1: browser up" "$4"
	case $1 in
	C-*) T send-keys -t s "$1" ;;
	*) kill -s "$1" "$(cat "$pidf")" ;;
	esac
	expect "$1: exit status" "EXITED $2"
	expect "$1: terminal modes restored" "TTY-MODES-SAME"
	checks=$((checks + 1))
	if [ "$(T display -p -t s \
	    '#{alternate_on}#{cursor_flag}#{mouse_any_flag}')" = 010 ]; then
		echo "ok $checks - $1: normal screen, cursor on, mouse off"
	else
		fails=$((fails + 1))
		echo "not ok $checks - $1: normal screen, cursor on, mouse off"
	fi
}

echo "# a fatal signal: the terminal is restored"
pidf=$(mktemp /tmp/d9t-pid-XXXXXX)
echo "# block_in_place: its two open-ended polls shaded at every zoom"
# (issue 37) the polls that called block_in_place (w0 at 344.73 ms, w3
# at 344.75 ms: the worker's next event came from another thread) are
# drawn as the block-in-place shading, over the whole trace and zoomed
# in around them
expect_lane() {	# expect_lane NAME LANE TEXT: LANE's row shows TEXT
	checks=$((checks + 1))
	i=0
	while [ $i -lt 60 ]; do
		screen | grep "^$2 " | grep -qF -- "$3" && break
		sleep 0.05
		i=$((i + 1))
	done
	if [ $i -lt 60 ]; then
		echo "ok $checks - $1"
	else
		fails=$((fails + 1))
		echo "not ok $checks - $1: no '$3' in lane $2:"
		screen | sed 's/^/    | /'
	fi
}
bip=$D9_TRACES/block-in-place-2026-05.bin
start 160 48 "$prog" "$bip"
expect "block-in-place loaded" "(646.49ms)"
for zoom in whole 8 11; do
	if [ "$zoom" != whole ]; then
		keys 0 g 344.74ms Enter
		n=0
		while [ $n -lt "$zoom" ]; do keys +; n=$((n + 1)); done
	fi
	expect_lane "block-in-place shaded on w0 ($zoom)" w0 "░"
	expect_lane "block-in-place shaded on w3 ($zoom)" w3 "░"
done

signal_test SEGV 139 "$demo" "(4.15s)"
expect "crash: message" "the terminal was restored"

echo "# every signal that ends d9top restores the terminal, status 128 + N"
small=$D9_TRACES/block-in-place-2026-05.bin
signum() {	# the number of signal NAME (kill -l N prints N's name)
	n=1
	while [ $n -lt 64 ] && [ "$(kill -l $n)" != "$1" ]; do
		n=$((n + 1))
	done
	echo $n
}
for s in HUP INT QUIT PIPE ALRM TERM USR1 USR2 VTALRM PROF XCPU XFSZ; do
	signal_test $s $((128 + $(signum $s))) "$small" "(646.49ms)"
done
# Ctrl-\ sends SIGQUIT: the loop takes it like the others
signal_test 'C-\' $((128 + $(signum QUIT))) "$small" "(646.49ms)"
rm -f "$pidf"

if [ -n "$mkplanted" ]; then
	echo "# verdicts and points of interest on the planted trace"
	pl=$(mktemp /tmp/d9planted-XXXXXX)
	"$mkplanted" "$pl"
	for size in "160 48" "80 24"; do
		set -- $size
		start "$1" "$2" "$prog" "$pl"
		expect "planted loaded $1x$2" "(4"
		keys w Enter
		expect "verdict in the detail $1x$2" "verdict: cpu: 8 of 8"
		keys q
		# the axis is on the lanes only: the detail is gone
		expect "back on the lanes $1x$2" "time   ╷"
		expect "verdict below the lanes $1x$2" "verdict: cpu: 8 of 8"
		keys p
		expect "points of interest $1x$2" "sched-delay: 2"
		keys f f
		expect "one kind $1x$2" "only sched-delay"
		keys j j j Enter
		expect "jump to the 4 ms delay $1x$2" \
		    "sched-delay: task 120 waited 4.000 ms"
		expect "its poll selected $1x$2" "task 120  worker 0"
		keys n
		expect "next delay $1x$2" "task 121 waited 6.000 ms"
		keys 7
		expect "red flags $1x$2" "RED FLAGS"
	done
	rm -f "$pl"
	echo "# a 70-frame stack: inverted CPU tree, from the leaf"
	pl=$(mktemp /tmp/d9deep-XXXXXX)
	"$mkplanted" --deep "$pl"
	start 160 48 "$prog" "$pl"
	# the window's length shows once loading is over (keys wait till then)
	expect "deep loaded" "(28.00ms)"
	keys 3
	expect "cpu tree" "20, weight 20"
	keys r
	expect "inverted tree" "inverted: leaf first"
	expect "leaf under the root" "100.0%       20  deep::leaf"
	# the cursor opens on "all"; the leaf heads the chain of its
	# callers: Enter shows them a row each, Enter again focuses
	keys j Enter Enter
	expect "frame's source line" "deep::leaf at src/lib.rs:42"
	rm -f "$pl"
fi

if [ -n "$mkhostile" ]; then
	echo "# hostile names and trace strings reach the screen escaped"
	hd=$(mktemp -d /tmp/d9t-hostile-XXXXXX)
	"$mkhostile" dir "$hd"
	# OSC 52 from a pane would make a paste buffer
	T set -g set-clipboard on
	# the shell sees the hostile names only through a glob
	start 160 40 sh -c "'exec $prog $hd/d*'"
	expect "hostile: header escaped" 'd\x1b]0;PWNED\x07\u202edir  window'
	keys 2
	# too long for the row: cut on its left, > shows its start
	expect "hostile: spawn location's end escaped" \
	    '|pdi:\u2069|zw:\u200b|bom:\ufeff|comb:e\u0301|c1:\xc2\x9b|'
	keys '>'
	expect "hostile: spawn location escaped" \
	    'src/<\x1b]0;PWNED\x07\x1b]52;c;UFdORUQ=\x07\x1b[2Jrlo:\u202e|'
	raw=$(T capture-pane -e -p -t s | LC_ALL=C grep -c \
	    -e "$(printf '\033]')" -e "$(printf '\342\200\256')" \
	    -e "$(printf '\342\201\246')" -e "$(printf '\342\200\213')" \
	    -e "$(printf '\357\273\277')" -e "$(printf '\314\201')")
	checks=$((checks + 1))
	if [ "$raw" = 0 ]; then
		echo "ok $checks - hostile: no raw control on the screen"
	else
		fails=$((fails + 1))
		echo "not ok $checks - hostile: $raw lines with raw controls"
	fi
	keys q q
	expect "hostile: stderr after the browser" \
	    'schema Bad\x1b]0;PWNED\x07\u202e\0TAIL-AFTER-NUL: field'
	expect "hostile: file name on stderr" \
	    '\u2066inv\x9b.bin: not a dial9 trace, skipped'
	expect "hostile: exit" "EXITED 0"
	checks=$((checks + 1))
	if T display -p -t s '#{pane_title}' | grep -q PWNED ||
	    [ -n "$(T list-buffers)" ]; then
		fails=$((fails + 1))
		echo "not ok $checks - hostile: title or clipboard was set"
	else
		echo "ok $checks - hostile: title and clipboard untouched"
	fi
	rm -rf "$hd"
fi

if [ -n "$mkdiffpair" ]; then
	echo "# a baseline window: the base run, then the regressed one"
	pl=$(mktemp /tmp/d9both-XXXXXX)
	"$mkdiffpair" both "$pl"
	for size in "160 48" "80 24"; do
		set -- $size
		start "$1" "$2" "$prog" "$pl"
		expect "both runs loaded $1x$2" "(401.00ms)"
		keys g 200ms Enter ]
		keys b
		expect "baseline marked $1x$2" "baseline: window 0.000s..0.200s"
		keys 0 g 202ms Enter '['
		keys 2
		expect "tasks compared $1x$2" "compared with the baseline window"
		expect "the API's p99 change $1x$2" "+4.90ms"
		keys d
		expect "tasks by change $1x$2" "rows by their change against the"
		keys 3
		expect "the hot function's change $1x$2" "+59.7%"
		keys b
		expect "a new baseline $1x$2" "baseline: window 0.202s..0.401s"
		keys b
		expect "baseline cleared $1x$2" "baseline cleared"
	done
	T kill-session -t s 2>/dev/null
	rm -f "$pl"
fi

if [ -n "$mkplanted" ]; then
	echo "# application events, two processes, liveset, task dumps"
	ev=$(mktemp /tmp/d9events-XXXXXX)
	mem=$(mktemp /tmp/d9memory-XXXXXX)
	srcdir=$(mktemp -d /tmp/d9sources-XXXXXX)
	"$mkplanted" --events "$ev"
	"$mkplanted" --memory "$mem"
	"$mkplanted" --sources "$srcdir"
	for size in "160 48" "80 24"; do
		set -- $size
		start "$1" "$2" "$prog" "$ev"
		expect "events loaded $1x$2" "(70.00ms)"
		expect "event marks on the lanes $1x$2" "◆"
		keys 8
		expect "view 8 $1x$2" "Application events: 3 in the window"
		expect "view 8 fields $1x$2" "worker_id=null tid=101"
		keys / req-7 Enter
		expect "matches in spans and events $1x$2" \
		    "Matches of 'req-7' in spans and events: 3"
		keys n Enter
		expect "Enter jumps to the span $1x$2" "cursor 0.031000s"
		keys / req-9 Enter
		expect "timeline search $1x$2" "match 1 of 1: event LogLine"
		keys q
		expect "events quit $1x$2" "EXITED 0"
		start "$1" "$2" "$prog" "$srcdir"
		expect "first source $1x$2" "source 0 api h1 abcd-1"
		expect "second source $1x$2" "source 1 api h2 wxyz-2"
		expect "one axis of seconds $1x$2" "(2.39s)"
		start "$1" "$2" "$prog" "$mem"
		expect "memory loaded $1x$2" "(40.00ms)"
		keys 5
		expect "liveset strip $1x$2" "max 6.0 kB"
		keys / app::parse Enter Enter
		expect "liveset of a call site $1x$2" "max 2.0 kB"
		keys 4 a
		expect "task-dump tree $1x$2" \
		    "task dumps (what idle tasks awaited) in the window: 1"
		expect "idle time $1x$2" "9.00ms  app::wait"
	done
	T kill-session -t s 2>/dev/null
	rm -rf "$ev" "$mem" "$srcdir"
fi

if [ -n "$mkplanted" ]; then
	echo "# why, with the evidence: a case of each (test/fixtures/whytrace.h)"
	why=$(mktemp /tmp/d9why-XXXXXX)
	"$mkplanted" --why "$why"
	start 160 48 "$prog" "$why"
	expect "why loaded" "(241.09ms)"
	keys / 1 Enter Enter
	expect "off CPU by absence" "verdict: off-cpu: no on-CPU sample where \
about 10.0 were due at the trace's rate"
	keys q / 2 Enter Enter
	expect "preemption at system-call exit" "verdict: preempted: 1 of 1"
	expect "its caveat" "(only 1 sample: a hint, not a finding)"
	keys q / 4 Enter Enter
	expect "the recorder's frames" "hottest in d9rec_event, in the \
recorder's own frames"
	keys q / 1 1 Enter Enter
	expect "held by" "held by    task 10's 20.00ms poll (19.00ms of the wait)"
	keys / held Enter Enter
	expect "Enter on held by: that poll" "poll 20.00ms  task 10"
	keys Enter
	expect "whom it held back" "task 11 waited 19.00ms for its poll"
	keys 7
	expect "recorder-overhead flag" "recorder-overhead"
	keys / Observer Enter
	expect "observer line" "Observer:     the recorder's own code is in 3"
	keys 2
	expect "self-wake lint" "self-wake     task 20 woke itself 40 of 40 times"
	keys / yield.rs Enter Enter
	expect "a location's tasks" "Tasks spawned at svc/yield.rs:1:1: 1 in the"
	expect "a task's figures" "40     40  self-wake"
	keys Enter
	expect "a task's detail" "Task 20, spawned at svc/yield.rs:1:1"
	expect "its histogram" "Poll durations: 40 polls in the window"
	expect "its bin" "10.0µs..20.0µs          40 ████"
	keys Escape
	expect "Esc: the location's tasks" "Tasks spawned at svc/yield.rs"
	keys Escape
	expect "Esc: the tasks view" "Tasks by spawn location"
	keys q q
	expect "why quit" "EXITED 0"
	rm -f "$why"
fi

echo "# a directory that gained a segment: its older entry, then the read"
gd=$(mktemp -d)
mkdir "$gd/tr"
ln -s "$D9_TRACES/demo-2026-03.bin" "$gd/tr/a.bin"
XDG_CACHE_HOME=$gd "$prog" --json "$gd/tr" >/dev/null
# the entry is written by a detached copy: wait for it (bounded)
for i in $(seq 100); do
	ls "$gd"/d9top/*.img >/dev/null 2>&1 && break
	sleep 0.1
done
ln -s "$D9_TRACES/block-in-place-2026-05.bin" "$gd/tr/b.bin"
start 160 48 "XDG_CACHE_HOME=$gd" "$prog" "$gd/tr"
# said when the whole model takes the older entry's place, and only
# when the older entry was shown first
expect "grown: the older entry, then all" \
    "all files read: the whole trace is shown"
keys q
expect "grown: quit" "EXITED 0"
T kill-session -t s 2>/dev/null
# the oldest segment removed (a recorder's retention): the entry of both
# shown first too
XDG_CACHE_HOME=$gd "$prog" --json "$gd/tr" >/dev/null
for i in $(seq 100); do
	[ "$(ls "$gd"/d9top/*.img 2>/dev/null | wc -l)" -ge 2 ] && break
	sleep 0.1
done
rm "$gd/tr/a.bin"
start 160 48 "XDG_CACHE_HOME=$gd" "$prog" "$gd/tr"
expect "rotated: the older entry, then all" \
    "all files read: the whole trace is shown"
keys q
expect "rotated: quit" "EXITED 0"
T kill-session -t s 2>/dev/null
rm -rf "$gd"

echo "# nothing readable"
start 80 24 "$prog" /dev/null
expect "bad input status" "EXITED 1"

echo "$((checks - fails)) passed, $fails failed"
[ $fails -eq 0 ] || exit 1
[ $skipped -eq 0 ] || exit 77
