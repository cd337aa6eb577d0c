"""Convert Klong conformance cases from the shared JSONL layout (fields id, section, setup,
expr, and expected or printed) into this project's own files:

    values.jsonl    {"case", "group", "before", "klong", "matches"}
    display.jsonl   {"case", "group", "before", "klong", "writes"}

`before` runs first, then `klong` must match (~) the value of `matches`, or `.w` of it must
write exactly `writes`. Case names stay as they were, so that the lists of known failures
(tests/conformance_known_failures*.txt) name the same cases everywhere.

    python3 tests/conformance/convert.py VALUES.jsonl DISPLAY.jsonl
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def convert(source, target):
    count = 0
    with open(source, encoding="utf-8") as cases, \
            open(target, "w", encoding="utf-8", newline="\n") as out:
        for line in cases:
            if not line.strip():
                continue
            case = json.loads(line)
            ours = {"case": case["id"], "group": case["section"], "before": case["setup"],
                    "klong": case["expr"]}
            if "printed" in case:
                ours["writes"] = case["printed"]
            else:
                ours["matches"] = case["expected"]
            out.write(json.dumps(ours, ensure_ascii=False) + "\n")
            count += 1
    return count


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for source, name in zip(argv, ("values.jsonl", "display.jsonl")):
        print(f"{name}: {convert(source, os.path.join(HERE, name))} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
