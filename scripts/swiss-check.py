#!/usr/bin/env python3
"""Pairs each round of every TRF16 file in a folder again with an
independent FIDE Dutch engine (caissify-pairings, from PyPI; its authors
check it against the FIDE-endorsed bbpPairings) and says how many rounds
came out the same: the same pairs and bye, and the same colours too.

    python3 scripts/swiss-check.py DIR [--show]

The last line printed is a JSON summary; --show prints each round that
differs. scripts/test installs the package.
"""

import json
import pathlib
import sys

from caissify_pairings.fpc import check_trf


def pairs(round_pairings, colours):
    out = set()
    for p in round_pairings:
        w, b = p["white"], p.get("black")
        if b is None:
            out.add((w, None))
        elif colours:
            out.add((w, b))
        else:
            out.add((min(w, b), max(w, b)))
    return out


def as_read_for(text, rnd):
    """The TRF as the other engine should read it to pair round `rnd`.

    It counts a zero-point bye (Z) in an earlier round as a bye received,
    so it never gives the pairing-allocated bye to a late joiner; neither
    the rules (C.04.1: only a pairing-allocated bye or a forfeit win bars
    it) nor bbpPairings do. TRF16 makes a blank round the same as Z, and
    a blank is read right, so the earlier rounds' Z are given as blanks
    (the round paired keeps its Z: the player is absent from it)."""
    out = []
    for line in text.splitlines(keepends=True):
        if line.startswith("001"):
            for k in range(1, rnd):
                at = 91 + 10 * (k - 1)
                if line[at:at + 8] == "0000 - Z":
                    line = line[:at] + " " * 8 + line[at + 8:]
        out.append(line)
    return "".join(out)


def rounds_of(text):
    """Each round's report, that round paired from the rounds before it."""
    reports = {}
    out = []
    for played in check_trf(text)["rounds"]:
        read = as_read_for(text, played["round"])
        if read not in reports:
            reports[read] = {r["round"]: r for r in check_trf(read)["rounds"]}
        out.append(reports[read][played["round"]])
    return out


def main():
    folder = pathlib.Path(sys.argv[1])
    show = "--show" in sys.argv
    files = rounds = same_pairs = same_colours = 0
    for path in sorted(folder.glob("*.trf")):
        files += 1
        for r in rounds_of(path.read_text(encoding="utf-8")):
            rounds += 1
            ours, theirs = r["trf_pairings"], r.get("engine_pairings", [])
            if pairs(ours, False) == pairs(theirs, False):
                same_pairs += 1
                if pairs(ours, True) == pairs(theirs, True):
                    same_colours += 1
                elif show:
                    print(f"{path.name} round {r['round']}: colours differ:",
                          sorted(pairs(ours, True) - pairs(theirs, True), key=str), "vs",
                          sorted(pairs(theirs, True) - pairs(ours, True), key=str))
            elif show:
                print(f"{path.name} round {r['round']}:", r["discrepancies"])
    print(json.dumps({"files": files, "rounds": rounds, "same_pairs": same_pairs,
                      "same_colours": same_colours}))


if __name__ == "__main__":
    main()
