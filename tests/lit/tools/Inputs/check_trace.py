"""Checks a kiln --trace file: Chrome trace-event JSON with the VM call of FUNCTION, at least
MIN_DISPATCHES dispatch events (named, with source locations and workgroup counts), each
inside the call in time, and every worker's workgroup events inside their dispatch.

usage: check_trace.py TRACE.json FUNCTION MIN_DISPATCHES
"""
import json
import sys


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def end(event):
    return event["ts"] + event["dur"]


def main():
    path, function, min_dispatches = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(path) as f:
        trace = json.load(f)
    events = trace["traceEvents"]
    complete = [e for e in events if e.get("ph") == "X"]
    for e in complete:
        for key in ("name", "cat", "ts", "dur", "pid", "tid", "args"):
            if key not in e:
                fail("event without %r: %r" % (key, e))
        if e["dur"] < 0:
            fail("negative duration: %r" % e)
    calls = [e for e in complete if e["cat"] == "vm" and e["name"] == "@" + function]
    if len(calls) != 1:
        fail("expected one VM call event '@%s', found %d" % (function, len(calls)))
    call = calls[0]
    dispatches = sorted((e for e in complete if e["cat"] == "dispatch"), key=lambda e: e["ts"])
    if len(dispatches) < min_dispatches:
        fail("expected at least %d dispatch events, found %d" % (min_dispatches, len(dispatches)))
    # A small slack for rounding to nanoseconds.
    eps = 0.002
    for d in dispatches:
        if not d["name"].startswith(function + "_dispatch_"):
            fail("dispatch event not named after its dispatch: %r" % d["name"])
        if not d["args"].get("source_location") or len(d["args"].get("workgroup_count", [])) != 3:
            fail("dispatch event without source location or workgroup count: %r" % d)
        if d["ts"] < call["ts"] - eps or end(d) > end(call) + eps:
            fail("dispatch %s [%f, %f] is not inside the call [%f, %f]" %
                 (d["name"], d["ts"], end(d), call["ts"], end(call)))
    workgroups = [e for e in complete if e["cat"] == "workgroups"]
    for w in workgroups:
        owners = [d for d in dispatches if d["name"] == w["name"] and
                  d["ts"] - eps <= w["ts"] and end(w) <= end(d) + eps]
        if not owners:
            fail("workgroup range of %s on thread %d is inside no dispatch of that name" % (w["name"], w["tid"]))
    for category in ("vm.import", "queue", "wait", "allocation"):
        if not any(e["cat"] == category for e in complete):
            fail("no %r event" % category)
    names = sorted(set(d["name"] for d in dispatches))
    print("trace ok: %d dispatches inside @%s (%s), %d workgroup ranges on %d threads" %
          (len(dispatches), function, " ".join(names), len(workgroups), len(set(w["tid"] for w in workgroups))))


if __name__ == "__main__":
    main()
