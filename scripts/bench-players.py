#!/usr/bin/env python3
"""The players' pages on a big database (docs/api.md, "Big databases").

Makes a SQLite database of --games finished games between --accounts
accounts (every game a copy of one real game played through the API, so
that each replays), then, for each binary given, serves a copy of it and
measures:

- the player page (GET /api/players/{name}): p50 and p99 over --pages
  requests, one at a time;
- the export (GET /api/players/{name}/export): games a second;
- the step round trip of `virus-wars loadtest` while --readers clients
  read player pages without pause.

Loopback only, bounded in count and time. Usage:

    scripts/bench-players.py --binary old=/tmp/old/virus-wars --binary new=target/release/virus-wars
"""

import argparse
import json
import os
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request


def call(base, method, path, body=None, raw=False):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        req.add_header("content-type", "application/json")
    with urllib.request.urlopen(req, timeout=600) as r:
        answer = r.read()
    return answer if raw else json.loads(answer)


def serve(binary, db, port, log):
    p = subprocess.Popen(
        [binary, "serve", "--no-rate-limits", "--addr", f"127.0.0.1:{port}",
         "--database-url", f"sqlite://{db}?mode=rwc"],
        stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    started = time.time()
    while time.time() - started < 600:
        try:
            urllib.request.urlopen(base + "/healthz", timeout=2).read()
            return p, base, time.time() - started
        except Exception:
            if p.poll() is not None:
                sys.exit(f"{binary} stopped: see {log.name}")
            time.sleep(0.2)
    p.kill()
    sys.exit(f"{binary} did not start within 600 s")


def template_game(base):
    """One game played to its end through the API: its id."""
    made = call(base, "POST", "/api/games", {"size": "10x10", "side": "x"})
    joined = call(base, "POST", f"/api/games/{made['id']}/join", {})
    tokens = {"x": made["token"], "o": joined["token"]}
    rng = random.Random(7)
    for _ in range(40):
        s = call(base, "GET", f"/api/games/{made['id']}")
        if not s.get("to_move") or not s["legal"]:
            break
        step = rng.choice(s["legal"])
        req = urllib.request.Request(
            base + f"/api/games/{made['id']}/steps",
            data=json.dumps({"seq": s["seq"], "steps": [step]}).encode(), method="POST")
        req.add_header("content-type", "application/json")
        req.add_header("authorization", "Bearer " + tokens[s["to_move"]])
        urllib.request.urlopen(req, timeout=10).read()
    s = call(base, "GET", f"/api/games/{made['id']}")
    if s.get("to_move"):
        req = urllib.request.Request(
            base + f"/api/games/{made['id']}/resign", data=b"", method="POST")
        req.add_header("authorization", "Bearer " + tokens[s["to_move"]])
        urllib.request.urlopen(req, timeout=10).read()
    return made["id"]


def fill(db, template, games, accounts):
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    row = dict(con.execute("SELECT * FROM games WHERE id = ?", (template,)).fetchone())
    steps = [tuple(r) for r in con.execute(
        "SELECT seq, step, played_ms FROM steps WHERE game_id = ? ORDER BY seq", (template,))]
    now = int(time.time() * 1000)
    cols = [c for c in row]
    account_cols = {r[1] for r in con.execute("PRAGMA table_info(accounts)")}
    # Since migration 0008 a name's skeleton is unique: 'pending:' ones are
    # worked out by the server as it starts.
    skeleton = ", skeleton" if "skeleton" in account_cols else ""
    con.executemany(
        f"INSERT INTO accounts (id, name, name_key, password_hash, kind, created_ms{skeleton}) "
        f"VALUES (?, ?, ?, '', 'person', ?{', ?' if skeleton else ''})",
        [(f"acc{k}", f"player{k}", f"player{k}", now) + ((f"pending:acc{k}",) if skeleton else ())
         for k in range(accounts)])
    rng = random.Random(1)
    batch, step_batch = [], []
    for k in range(games):
        g = dict(row)
        g["id"] = f"b{k:07d}"
        x = rng.randrange(accounts)
        o = (x + 1 + rng.randrange(accounts - 1)) % accounts
        g["x_account"], g["o_account"] = f"acc{x}", f"acc{o}"
        g["x_token"], g["o_token"] = f"{k:032x}x", f"{k:032x}o"
        g["result"] = rng.choice(["x", "o", "x", "o", "draw", "aborted"])
        g["last_active_ms"] = now - (games - k) * 1000
        g["created_ms"] = g["last_active_ms"] - 600_000
        batch.append(tuple(g[c] for c in cols))
        step_batch.extend((g["id"],) + s for s in steps)
        if len(batch) == 10_000:
            flush(con, cols, batch, step_batch)
            batch, step_batch = [], []
    flush(con, cols, batch, step_batch)
    played_games(con)
    con.commit()
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()


def played_games(con):
    """Each account's finished games and counts, as the server keeps them
    from migration 0008 on (a database of an older schema gets them when a
    newer server migrates it)."""
    if not con.execute("SELECT 1 FROM sqlite_master WHERE name = 'player_games'").fetchone():
        return
    for me, other, mine in (("x_account", "o_account", "x"), ("o_account", "x_account", "o")):
        theirs = "o" if mine == "x" else "x"
        con.execute(
            f"INSERT OR IGNORE INTO player_games (account_id, game_id, ended_ms, result, family, rated, opponent) "
            f"SELECT {me}, id, last_active_ms, CASE result WHEN '{mine}' THEN 'won' WHEN '{theirs}' THEN 'lost' "
            f"WHEN 'draw' THEN 'drawn' ELSE 'aborted' END, family, rated, {other} "
            f"FROM games WHERE finished = 1 AND {me} <> ''")
    for column, result in (("won", "won"), ("lost", "lost"), ("drawn", "drawn")):
        con.execute(
            f"UPDATE accounts SET {column} = (SELECT COUNT(*) FROM player_games p "
            f"WHERE p.account_id = accounts.id AND p.result = '{result}')")


def flush(con, cols, batch, step_batch):
    marks = ", ".join("?" for _ in cols)
    con.executemany(f"INSERT INTO games ({', '.join(cols)}) VALUES ({marks})", batch)
    con.executemany(
        "INSERT INTO steps (game_id, seq, step, played_ms) VALUES (?, ?, ?, ?)", step_batch)


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p / 100))]


def measure(name, binary, db, args, port):
    log = open(os.path.join(args.work, f"{name}.log"), "w")
    server, base, start_s = serve(binary, db, port, log)
    out = {"start_s": round(start_s, 1)}
    try:
        rng = random.Random(2)
        times = []
        for _ in range(args.pages):
            who = f"player{rng.randrange(args.accounts)}"
            t = time.perf_counter()
            call(base, "GET", f"/api/players/{who}")
            times.append((time.perf_counter() - t) * 1000)
        out["page_p50_ms"] = round(statistics.median(times), 2)
        out["page_p99_ms"] = round(pct(times, 99), 2)
        t = time.perf_counter()
        body = call(base, "GET", "/api/players/player0/export?format=jsonl", raw=True)
        secs = time.perf_counter() - t
        exported = body.count(b"\n")
        out["export_games"] = exported
        out["export_games_per_s"] = round(exported / secs, 1)
        stop = threading.Event()
        read = [0]

        def reader(seed):
            r = random.Random(seed)
            while not stop.is_set():
                call(base, "GET", f"/api/players/player{r.randrange(args.accounts)}")
                read[0] += 1

        threads = [threading.Thread(target=reader, args=(k,)) for k in range(args.readers)]
        for th in threads:
            th.start()
        t = time.perf_counter()
        load = subprocess.run(
            [binary, "loadtest", "--url", base, "--games", str(args.load_games),
             "--seconds", str(args.load_seconds)],
            capture_output=True, text=True, timeout=args.load_seconds + 300)
        elapsed = time.perf_counter() - t
        stop.set()
        for th in threads:
            th.join()
        last = (load.stdout.strip().splitlines() or [load.stderr.strip()])[-1]
        out["loadtest"] = last
        out["pages_read_a_s"] = round(read[0] / elapsed, 1)
        m = re.search(r"p50 ([\d.]+) ms, p99 ([\d.]+) ms", last)
        if m:
            out["step_p50_ms"], out["step_p99_ms"] = float(m.group(1)), float(m.group(2))
    finally:
        server.terminate()
        server.wait(timeout=60)
        log.close()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", action="append", required=True, help="NAME=PATH")
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--accounts", type=int, default=200)
    ap.add_argument("--pages", type=int, default=300)
    ap.add_argument("--readers", type=int, default=10)
    ap.add_argument("--load-games", type=int, default=100)
    ap.add_argument("--load-seconds", type=int, default=30)
    ap.add_argument("--work", default=None)
    args = ap.parse_args()
    args.work = args.work or tempfile.mkdtemp(prefix="vw-bench-players-")
    os.makedirs(args.work, exist_ok=True)
    binaries = [b.split("=", 1) for b in args.binary]
    # The database is made by the first binary (the oldest schema), then
    # each binary serves a copy of it (a newer one migrates it first).
    seed = os.path.join(args.work, "seed.sqlite")
    log = open(os.path.join(args.work, "seed.log"), "w")
    server, base, _ = serve(binaries[0][1], seed, 18700, log)
    template = template_game(base)
    server.terminate()
    server.wait(timeout=60)
    t = time.time()
    fill(seed, template, args.games, args.accounts)
    print(f"{args.games} games stored in {time.time() - t:.0f} s ({args.work})", flush=True)
    for k, (name, binary) in enumerate(binaries):
        db = os.path.join(args.work, f"{name}.sqlite")
        shutil.copy(seed, db)
        result = measure(name, binary, db, args, 18710 + k)
        print(name, json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
