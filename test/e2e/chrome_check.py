#!/usr/bin/env python3
"""chrome_check.py FILE [POLLS]: FILE is Chrome trace event JSON (the
JSON object format of the Trace Event Format that Perfetto UI and
chrome://tracing open), as d9top --chrome writes it: every event has the
fields its phase needs, complete events have a non-negative duration
and nest on their thread (each one ends before the next one that starts
after it, or encloses it: Perfetto draws a thread's slices as a stack),
each async event ("b") has one end ("e") of the same category and id on
the same thread, not before it, instants have a scope, counters numeric
values, each flow id has one start and one finish bound to a poll on the
finish's thread, every thread with a poll is named, and (with POLLS)
there is one poll event per poll. Exit 1 with a message otherwise.
(No validator of the format is packaged for Debian or npm.)"""
import json
import sys


def fail(msg):
    print("chrome_check: " + msg)
    sys.exit(1)


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        fail("no traceEvents array")
    if doc.get("displayTimeUnit") not in (None, "ms", "ns"):
        fail("displayTimeUnit must be ms or ns")
    num = (int, float)
    polls, names, starts, finishes = [], set(), {}, {}
    slices, begins, ends = {}, {}, {}
    for e in doc["traceEvents"]:
        if not isinstance(e, dict):
            fail("an event that is not an object: %r" % (e,))
        ph = e.get("ph")
        if not isinstance(e.get("name"), str) or ph not in "XMsfbeiC" or \
                len(ph) != 1:
            fail("event without a name or with phase %r: %r" % (ph, e))
        if not isinstance(e.get("pid"), int) or not isinstance(e.get("tid"), int):
            fail("pid and tid must be integers: %r" % (e,))
        if ph == "M":
            if e["name"] not in ("process_name", "thread_name",
                                 "thread_sort_index", "process_sort_index"):
                fail("unknown metadata event %r" % (e,))
            if not isinstance(e.get("args"), dict):
                fail("metadata without args: %r" % (e,))
            if e["name"] == "thread_name":
                names.add(e["tid"])
            continue
        if not isinstance(e.get("ts"), num) or e["ts"] < 0:
            fail("event without a time: %r" % (e,))
        if ph == "X":
            if not isinstance(e.get("dur"), num) or e["dur"] < 0:
                fail("complete event without a duration: %r" % (e,))
            if not isinstance(e.get("cat"), str):
                fail("complete event without a category: %r" % (e,))
            if e["cat"] == "poll":
                polls.append(e)
            slices.setdefault((e["pid"], e["tid"]), []).append(e)
            continue
        if ph in "be":
            if not isinstance(e.get("cat"), str) or "id" not in e:
                fail("async event without a category or id: %r" % (e,))
            table = begins if ph == "b" else ends
            key = (e["cat"], e["id"])
            if key in table:
                fail("async id %r twice with phase %s" % (key, ph))
            table[key] = e
            continue
        if ph == "i":
            if e.get("s") not in ("t", "p", "g"):
                fail("instant event without a scope: %r" % (e,))
            continue
        if ph == "C":
            args = e.get("args")
            if not isinstance(args, dict) or not args or \
                    not all(isinstance(v, num) for v in args.values()):
                fail("counter without numeric values: %r" % (e,))
            continue
        if "id" not in e:
            fail("flow event without an id: %r" % (e,))
        table = starts if ph == "s" else finishes
        if e["id"] in table:
            fail("flow id %r twice with phase %s" % (e["id"], ph))
        table[e["id"]] = e
        if ph == "f" and e.get("bp") != "e":
            fail("flow finish not bound to its enclosing slice: %r" % (e,))
    for thread, evs in slices.items():
        evs.sort(key=lambda e: (e["ts"], -e["dur"]))
        open_ = []
        for e in evs:
            while open_ and open_[-1]["ts"] + open_[-1]["dur"] <= e["ts"]:
                open_.pop()
            if open_ and e["ts"] + e["dur"] > \
                    open_[-1]["ts"] + open_[-1]["dur"]:
                fail("complete events overlap on thread %r without nesting:"
                     " %r and %r" % (thread, open_[-1], e))
            open_.append(e)
    if set(begins) != set(ends):
        fail("async events without both ends: %r" %
             (set(begins) ^ set(ends),))
    for k, b in begins.items():
        if ends[k]["ts"] < b["ts"] or ends[k]["tid"] != b["tid"]:
            fail("async event %r ends before it begins or elsewhere" % (k,))
    if set(starts) != set(finishes):
        fail("flows without both ends: %r" % (set(starts) ^ set(finishes),))
    at = {(p["tid"], p["ts"]) for p in polls}
    for k, f in finishes.items():
        if starts[k]["ts"] > f["ts"]:
            fail("flow %r ends before it starts" % (k,))
        if (f["tid"], f["ts"]) not in at:
            fail("flow %r finishes at no poll of its thread" % (k,))
    for p in polls:
        if p["tid"] not in names:
            fail("thread %r has polls and no name" % (p["tid"],))
    if len(sys.argv) > 2 and len(polls) != int(sys.argv[2]):
        fail("%d poll events, not %s" % (len(polls), sys.argv[2]))
    print("chrome_check: %d events, %d polls, %d flows: ok" %
          (len(doc["traceEvents"]), len(polls), len(starts)))


main()
