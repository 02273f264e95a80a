// SPDX-License-Identifier: AGPL-3.0-or-later
// Writes test/fixtures/replay-*.json: real replays of finished games, one per
// engine, that test/verify.test.ts checks (and tampers with) through the
// WebAssembly module. Each game is played by bots alone on a casa-server started
// here with --testing (fixed seeds, so the same build writes the same files) on a
// free loopback port and a temporary database.
//
//   node --experimental-websocket scripts/replay-fixtures.mjs   (Node 20; 22 needs no flag)
//   CASA_SERVER_BIN   casa-server to run (default ../../build/server/casa-server)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const webDir = resolve(new URL(".", import.meta.url).pathname, "..");
const serverBin = process.env.CASA_SERVER_BIN ?? join(webDir, "../../build/server/casa-server");
const games = [
  { file: "la-casa", game: "la-casa", players: 2, options: { rounds: 1 }, seed: 31415926535897 },
  { file: "la-casa-solo", game: "la-casa", players: 1, options: { rounds: 1 }, seed: 7 },
  { file: "casino", game: "casino", players: 2, options: {}, seed: 11 },
  { file: "conference", game: "conference", players: 4, options: { hands: 1 }, seed: 12 },
  { file: "trophy-case", game: "trophy-case", players: 3, options: { target: 8 }, seed: 13 },
];

const port = await new Promise((res, rej) => {
  const s = createServer();
  s.listen(0, "127.0.0.1", () => {
    const p = s.address().port;
    s.close(() => res(p));
  });
  s.on("error", rej);
});
const tmp = mkdtempSync(join(tmpdir(), "casa-fixtures-"));
const server = spawn(serverBin, ["--address", "127.0.0.1", "--port", String(port), "--db", join(tmp, "casa.db"), "--testing"], {
  stdio: ["ignore", "ignore", "inherit"],
});
const base = `http://127.0.0.1:${port}`;
try {
  for (let i = 0; ; i++) {
    if (i > 200) throw new Error("the server did not start");
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
  await new Promise((res, rej) => ((ws.onopen = res), (ws.onerror = rej)));
  let id = 0;
  const waiting = new Map();
  ws.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (msg.id !== undefined && waiting.has(msg.id)) waiting.get(msg.id)(msg);
  };
  const call = (body) =>
    new Promise((res) => {
      waiting.set(++id, res);
      ws.send(JSON.stringify({ ...body, id }));
    });
  await call({ type: "hello", version: 1, name: "fixtures" });
  for (const g of games) {
    const created = await call({ type: "create_table", game: g.game, players: g.players, options: g.options, seed: g.seed, seat: -1 });
    if (created.type !== "table_created") throw new Error(JSON.stringify(created));
    for (let seat = 0; seat < g.players; seat++) {
      const added = await call({ type: "add_bot", table: created.table, seat, bot: "robot" });
      if (added.type !== "bot_added") throw new Error(JSON.stringify(added));
    }
    let replay;
    for (let i = 0; !replay; i++) {
      if (i > 600) throw new Error(`${g.file}: the game did not end`);
      const r = await fetch(`${base}/api/tables/${created.table}/replay`);
      if (r.ok) replay = await r.text();
      else await new Promise((res) => setTimeout(res, 100));
    }
    writeFileSync(join(webDir, `test/fixtures/replay-${g.file}.json`), replay);
    console.log(`replay-${g.file}.json: ${JSON.parse(replay).log.length} moves`);
  }
  ws.close();
} finally {
  server.kill();
  rmSync(tmp, { recursive: true, force: true });
}
