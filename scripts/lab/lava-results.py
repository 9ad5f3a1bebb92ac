#!/usr/bin/python3
"""lava-results.py OUTDIR LOG...: turn the logs of LAVA jobs of lava/ into
results. A LOG is lava-run's output (one JSON object per line) or a LAVA
server's log of the job ("lavacli jobs logs --raw ID": a YAML list of the
same objects). Writes, in OUTDIR:

  results.tsv   one line per LAVA result of the test definitions:
                log, suite, case, result, measurement, units
  console-LOG.txt  the guest's console (kernel log included), without
                the dispatcher's own lines (which quote kernel messages as
                the patterns it watches for)
  raw/LOG.NAME.txt  what the guest printed between "=== BEGIN NAME" and
                "=== END NAME" (a selftest's KTAP output, a perf bench or
                ping_bench run), the files make bench keeps in raw/

and prints a table: per log, the cases passed, failed and skipped, each
failure, and the measurements side by side (one column per log; for two
logs, the ratio of the second to the first). Exits 1 if a log has no
result of a test definition, a failed case, or a job that did not
complete."""
import json
import os
import re
import sys

import yaml


def entries(path):
    with open(path, errors="replace") as f:
        text = f.read()
    if text.lstrip().startswith("- "):
        return yaml.safe_load(text) or []
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{"):
            # JSON, but for values that lava-run writes as YAML ('! "12"').
            try:
                out.append(json.loads(line))
            except ValueError:
                try:
                    out.append(yaml.safe_load(line))
                except yaml.YAMLError:
                    pass
    return out


def logtag(path):
    """A log's name without its directory and .log, .yaml suffixes."""
    name = os.path.basename(path)
    for suffix in (".log", ".yaml", ".yml", ".json"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return name


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    outdir, logs = sys.argv[1], sys.argv[2:]
    os.makedirs(os.path.join(outdir, "raw"), exist_ok=True)
    rows, bad = [], 0
    measures = {}
    for log in logs:
        tag = logtag(log)
        counts = {"pass": 0, "fail": 0, "skip": 0}
        failures, complete, raw, name = [], False, None, None
        console = open(os.path.join(outdir, "console-%s.txt" % tag), "w")
        for e in entries(log):
            lvl, msg = e.get("lvl"), e.get("msg")
            if lvl == "results" and isinstance(msg, dict):
                if msg.get("definition") == "lava":
                    if msg.get("case") == "job" and msg.get("result") == "pass":
                        complete = True
                    continue
                suite = re.sub(r"^\d+_", "", msg.get("definition", ""))
                res = msg.get("result", "")
                counts[res] = counts.get(res, 0) + 1
                if res == "fail":
                    failures.append(msg["case"])
                rows.append((tag, suite, msg["case"], res,
                             str(msg.get("measurement", "")), msg.get("units", "")))
                if "measurement" in msg:
                    measures.setdefault(msg["case"], {})[tag] = (float(msg["measurement"]),
                                                                 msg.get("units", ""))
            elif lvl == "target" and isinstance(msg, str):
                console.write(msg + "\n")
                m = re.match(r"=== BEGIN (.*)$", msg)
                if m:
                    name, raw = re.sub(r"[^-_.a-zA-Z0-9]", "_", m.group(1)), []
                elif msg.startswith("=== END ") and raw is not None:
                    with open(os.path.join(outdir, "raw", "%s.%s.txt" % (tag, name)), "w") as f:
                        f.write("".join(l + "\n" for l in raw))
                    raw = None
                elif raw is not None:
                    raw.append(msg)
        console.close()
        total = sum(counts.values())
        print("%s: %d results, %d passed, %d failed, %d skipped, job %s" % (
            tag, total, counts["pass"], counts["fail"], counts["skip"],
            "complete" if complete else "NOT complete"))
        for c in failures:
            print("  FAIL %s" % c)
        if not total or failures or not complete:
            bad = 1
    with open(os.path.join(outdir, "results.tsv"), "w") as f:
        f.write("log\tsuite\tcase\tresult\tmeasurement\tunits\n")
        for r in rows:
            f.write("\t".join(r) + "\n")
    if measures:
        tags = [logtag(log) for log in logs]
        print("\n%-40s %6s %s%s" % ("measurement", "units", " ".join("%14s" % t[-14:] for t in tags),
                                    "    ratio" if len(tags) == 2 else ""))
        for case in sorted(measures):
            vals = [measures[case].get(t) for t in tags]
            units = next(v[1] for v in vals if v)
            line = "%-40s %6s %s" % (case[:40], units, " ".join(
                "%14.6g" % v[0] if v else "%14s" % "-" for v in vals))
            if len(tags) == 2 and all(vals) and vals[0][0]:
                line += " %8.3f" % (vals[1][0] / vals[0][0])
            print(line)
    print("\nresults: %s" % outdir)
    return bad


if __name__ == "__main__":
    sys.exit(main())
