/*
 * whytrace.h: one trace with a case of each figure of ANALYSIS 17.1 and
 * 20 to 22 (issue 35), for the unit tests of the model, the JSON and the
 * report, the browser's tests and (through mkplanted --why) its screen
 * tests. Everything runs on worker 0 (thread 11); the trace states a CPU
 * sampling rate of 1000 Hz (d9rec.cpu_frequency_hz).
 *
 * From WHY_TASKS (ANALYSIS 22): tasks 20, 21, 22 spawned; task 22 polled
 * once for 10 us, alive to the end (long-idle); task 20 wakes itself 40
 * times, each wake followed 10 us later by a 10 us poll (self-wake);
 * task 21's only poll lasts 15 ms (never-yields); 20 and 21 end.
 *
 * From WHY_VERDICT (ANALYSIS 17.1, 21): a thread sample 1 ms before;
 * task 1's 10 ms poll with no sample where 10 were due (off-cpu, high
 * confidence); task 2's 1.4 ms poll whose one sample is a switch under
 * exit_to_user_mode_loop above a futex wake (preempted, low confidence);
 * task 3's 1.2 ms poll with one on-CPU sample whose leaf is the mapping
 * symbol $x above svc::compute; task 4's 1.9 ms poll with 3 on-CPU
 * samples in d9rec_event (the recorder's: 3 of the trace's 7 on-CPU
 * samples, the recorder-overhead flag); task 5's 4 ms poll with 2 on-CPU
 * samples (of the 4 due) and 3 switches by a timer interrupt: on CPU,
 * not preempted; task 6's 1.6 ms poll with no sample: off-cpu, a hint
 * (about 2 due).
 *
 * From WHY_BLAME (ANALYSIS 20): task 10's 20 ms poll; task 11, woken by
 * it 1 ms in, waits 19 ms for the worker (held by task 10); the worker
 * parks; task 12, woken while it is parked, waits 11 ms (held by no
 * poll: parked).
 */
#ifndef D9_WHYTRACE_H
#define D9_WHYTRACE_H

#include "mktrace.h"

#define WHY_MS		1000000ull
#define WHY_TASKS	(100 * WHY_MS)
#define WHY_VERDICT	(200 * WHY_MS)
#define WHY_BLAME	(300 * WHY_MS)

void	mt_why(struct mt *t);

#endif
