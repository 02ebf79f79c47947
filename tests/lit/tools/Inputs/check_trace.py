"""Checks a kiln --trace file: Chrome trace-event JSON with the VM call of FUNCTION, at least
MIN_DISPATCHES dispatch events (named, with source locations and workgroup counts), each
inside the call in time, and every worker's workgroup events inside their dispatch.

With --device (hip, hip-sim: dispatch events from the GPU's timestamps), also every
dispatch event inside a "queue_execute on device" event of its thread, and each of those
holding exactly its dispatches, in the order its "dispatches" arg lists them, starting in
that order.

usage: check_trace.py TRACE.json FUNCTION MIN_DISPATCHES [--device]
"""
import json
import sys


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def end(event):
    return event["ts"] + event["dur"]


def check_device_spans(complete, dispatches, eps):
    spans = [e for e in complete if e["cat"] == "queue" and e["name"] == "queue_execute on device"]
    if not spans:
        fail("no 'queue_execute on device' event")
    owner = {}
    for i, d in enumerate(dispatches):
        inside = [s for s in spans if s["tid"] == d["tid"] and s["ts"] - eps <= d["ts"] and end(d) <= end(s) + eps]
        if len(inside) != 1:
            fail("dispatch %s [%f, %f] is inside %d 'queue_execute on device' events, not one" %
                 (d["name"], d["ts"], end(d), len(inside)))
        owner.setdefault(id(inside[0]), []).append(i)
    for s in spans:
        mine = [dispatches[i] for i in owner.get(id(s), [])]  # sorted by start already
        listed = s["args"].get("dispatches", [])
        if [d["name"] for d in mine] != listed:
            fail("the submission [%f, %f] lists dispatches %r but holds %r" %
                 (s["ts"], end(s), listed, [d["name"] for d in mine]))
        for a, b in zip(mine, mine[1:]):
            if not a["ts"] < b["ts"]:
                fail("dispatches %s and %s of one submission start at %f and %f, not in order" %
                     (a["name"], b["name"], a["ts"], b["ts"]))


def main():
    path, function, min_dispatches = sys.argv[1], sys.argv[2], int(sys.argv[3])
    device = sys.argv[4:] == ["--device"]
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
    # The hip drivers allocate no transient buffer for this program (and trace no allocator).
    for category in ("vm.import", "queue", "wait") + (() if device else ("allocation",)):
        if not any(e["cat"] == category for e in complete):
            fail("no %r event" % category)
    if device:
        check_device_spans(complete, dispatches, eps)
    names = sorted(set(d["name"] for d in dispatches))
    print("trace ok: %d dispatches inside @%s (%s), %d workgroup ranges on %d threads" %
          (len(dispatches), function, " ".join(names), len(workgroups), len(set(w["tid"] for w in workgroups))))


if __name__ == "__main__":
    main()
