#!/usr/bin/env python3
"""An arena of bots, measured (docs/tournaments.md, "How good").

Starts a server (SQLite) or two server processes on one PostgreSQL
database (--postgres URL, a database it may create), makes an arena
(--minutes long, 1+0 games), and starts --bots copies of the project's
own bot client (`virus-wars bot --tournament`), each with its own engine
at level 1, 2 or 3 in turn (niced: they stand for players on other
machines, and must not starve the server measured). Once the arena is over it reads the database
and reports, checking the server's standings against its own:

- games played, and bot errors (a bot that exits with an error);
- the pairing delay: for each player, from the end of a game to the
  pairing of its next one (p50, p99, max);
- nobody in two games at once (a player's games never overlap);
- every player's points recomputed here from the games alone (2/1/0, a
  streak of two wins doubles until a non-win, an aborted game nothing)
  equal to the stored points, and the final places in the order points,
  performance, name.

Loopback only; the bots and servers are killed at the end. Usage:

    scripts/arena-bench.py --binary target/release/virus-wars --bots 200 --minutes 5
    scripts/arena-bench.py --binary target/release/virus-wars --bots 200 --minutes 5 \\
        --postgres postgres://vw@127.0.0.1:25432/postgres
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request


def call(base, method, path, body=None, cookie=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        req.add_header("content-type", "application/json")
    if cookie:
        req.add_header("cookie", f"vw_session={cookie}")
        req.add_header("origin", base)
    with urllib.request.urlopen(req, timeout=60) as r:
        headers = r.headers
        return json.loads(r.read()), headers


def serve(binary, data, port, db_url, log):
    args = [binary, "serve", "--no-rate-limits", "--signups-per-hour", "0",
            "--logins-per-hour", "0", "--addr", f"127.0.0.1:{port}", "--data", data,
            "--first-step-within", "30"]
    if db_url:
        args += ["--database-url", db_url]
    p = subprocess.Popen(args, stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(base + "/healthz", timeout=1)
            return p, base
        except OSError:
            time.sleep(0.1)
    p.kill()
    sys.exit(f"the server on {port} did not start")


def rows(db, postgres, sql):
    """The rows of `sql` as lists of strings."""
    if postgres:
        out = subprocess.run(["psql", db, "-At", "-F", "\t", "-c", sql],
                             check=True, capture_output=True, text=True).stdout
        return [line.split("\t") for line in out.splitlines() if line]
    import sqlite3
    with sqlite3.connect(db) as c:
        return [[str(v) for v in r] for r in c.execute(sql)]


def points_of(results):
    """A player's points from its games' outcomes in order ('w', 'd', 'l',
    'a'), written apart from the server's code (no berserk: bots do not)."""
    total, in_a_row = 0, 0
    for r in results:
        if r == "a":
            continue
        base = {"w": 2, "d": 1, "l": 0}[r]
        total += base * (2 if in_a_row >= 2 else 1)
        in_a_row = in_a_row + 1 if r == "w" else 0
    return total


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] if xs else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--bots", type=int, default=200)
    ap.add_argument("--minutes", type=int, default=5)
    ap.add_argument("--postgres", help="a PostgreSQL URL: two server processes on a fresh database")
    ap.add_argument("--port", type=int, default=19450)
    a = ap.parse_args()
    binary = os.path.abspath(a.binary)
    work = tempfile.mkdtemp(prefix="vw-arena-")
    log = open(os.path.join(work, "server.log"), "w")
    servers, bases = [], []
    if a.postgres:
        name = f"arena{int(time.time())}"
        subprocess.run(["psql", a.postgres, "-c", f"CREATE DATABASE {name}"], check=True,
                       capture_output=True)
        db = a.postgres.rsplit("/", 1)[0] + "/" + name
        for k in range(2):
            p, base = serve(binary, os.path.join(work, f"d{k}"), a.port + k, db, log)
            servers.append(p)
            bases.append(base)
    else:
        p, base = serve(binary, os.path.join(work, "d0"), a.port, None, log)
        servers.append(p)
        bases.append(base)
        db = os.path.join(work, "d0", "virus-wars.sqlite")
    bots = []
    try:
        _, h = call(bases[0], "POST", "/api/accounts", {"name": "Host", "password": "violet tram under paper"})
        cookie = h["set-cookie"].split("vw_session=")[1].split(";")[0]
        starts_in = 20 + a.bots // 10
        made, _ = call(bases[0], "POST", "/api/tournaments", {
            "kind": "arena", "name": "Bench arena", "minutes": a.minutes, "starts_in_s": starts_in,
            "clock": {"base_s": 60, "inc_s": 0}, "rated": False, "max_players": 500}, cookie)
        tid = made["id"]
        for k in range(a.bots):
            level = 1 + k % 3
            engine = f"(echo setoption name Player value level:{level}; exec cat) | exec {binary} engine"
            err = open(os.path.join(work, f"bot{k}.err"), "w")
            # The bots stand for players on other machines: niced, so that
            # 200 engines thinking on the same cores do not starve the
            # server being measured.
            bots.append((subprocess.Popen(
                ["nice", "-n", "19", binary, "bot", "--server", bases[k % len(bases)], "--register", f"bench{k:03}",
                 "--engine", engine, "--tournament", tid],
                stdout=subprocess.DEVNULL, stderr=err), err))
        print(f"arena {tid}: {a.bots} bots, starts in {starts_in} s, {a.minutes} min; work in {work}", flush=True)
        while True:
            t, _ = call(bases[-1], "GET", f"/api/tournaments/{tid}")
            if t["state"] == "finished":
                break
            time.sleep(2)
        deadline = time.time() + 60
        for p, _ in bots:
            p.wait(timeout=max(1, deadline - time.time()))
        errors = [k for k, (p, _) in enumerate(bots) if p.returncode != 0]
        postgres = bool(a.postgres)
        games = rows(db, postgres,
                     "SELECT tg.game, tg.x_account, tg.o_account, tg.paired_ms, g.result, "
                     "g.last_active_ms, tg.x_points, tg.o_points FROM tournament_games tg "
                     f"JOIN games g ON g.id = tg.game WHERE tg.tournament = '{tid}' "
                     "ORDER BY tg.paired_ms, tg.game")
        players = {r[0]: (int(r[1]), int(r[2]), r[3]) for r in rows(
            db, postgres, "SELECT account, points, place, name FROM tournament_players "
            f"WHERE tournament = '{tid}'")}
        by_player = {}
        for g in games:
            game, x, o, paired, result, ended = g[0], g[1], g[2], int(g[3]), g[4], int(g[5])
            for side, acc in (("x", x), ("o", o)):
                out = "a" if result == "aborted" else "d" if result == "draw" else "w" if result == side else "l"
                by_player.setdefault(acc, []).append((paired, ended, out))
        delays, overlaps, wrong = [], 0, []
        for acc, gs in by_player.items():
            for (p1, e1, _), (p2, _, _) in zip(gs, gs[1:]):
                if p2 < e1:
                    overlaps += 1
                delays.append(p2 - e1)
            mine = points_of([r for _, _, r in gs])
            if mine != players[acc][0]:
                wrong.append((acc, mine, players[acc][0]))
        counted = {}
        for r in [g[4] for g in games]:
            counted[r if r in ("draw", "aborted") else "won"] = counted.get(r if r in ("draw", "aborted") else "won", 0) + 1
        print(json.dumps({
            "servers": len(bases), "bots": a.bots, "minutes": a.minutes,
            "games": len(games), "results": counted,
            "bot_errors": len(errors),
            "pairing_delay_ms": {"p50": pct(delays, 50), "p99": pct(delays, 99), "max": max(delays or [0]),
                                 "n": len(delays)},
            "overlapping_games": overlaps,
            "points_recomputed_wrong": len(wrong), "examples": wrong[:5],
            "places_in_points_order": all(
                players[x][0] >= players[y][0]
                for x, y in zip(sorted(players, key=lambda k: players[k][1]),
                                sorted(players, key=lambda k: players[k][1])[1:])),
        }, indent=1))
        for k in errors[:3]:
            with open(os.path.join(work, f"bot{k}.err")) as f:
                print(f"bot {k}: {f.read()[-500:]}")
    finally:
        for p, _ in bots:
            p.kill()
        for p in servers:
            p.kill()
        if not os.environ.get("KEEP"):
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
