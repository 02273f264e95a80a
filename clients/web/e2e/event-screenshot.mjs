// SPDX-License-Identifier: AGPL-3.0-or-later
// Takes docs/screenshots/event-standings-desktop.png: a casa-server (or
// casa_test_server) on a free loopback port runs a small duplicate event of bots
// (created over the page's own WebSocket), and Chromium shows /event/{id} once
// the event is over. Run after scripts/build-web.sh:
//   node e2e/event-screenshot.mjs            (from clients/web)
// Environment: CASA_SERVER_BIN (default ../../build/server/casa-server),
// CHROMIUM (default /usr/bin/chromium), CASA_SCREENSHOTS (default docs/screenshots).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const repo = resolve(webDir, "../..");
const serverBin = process.env.CASA_SERVER_BIN ?? join(repo, "build/server/casa-server");
const shots = resolve(process.env.CASA_SCREENSHOTS ?? join(repo, "docs/screenshots"));

const port = await new Promise((ok) => {
  const s = createServer().listen(0, "127.0.0.1", () => {
    const p = s.address().port;
    s.close(() => ok(p));
  });
});
const tmp = mkdtempSync(join(tmpdir(), "casa-event-shot-"));
const server = spawn(serverBin, ["--address", "127.0.0.1", "--port", String(port), "--db", join(tmp, "casa.db"),
  "--web-dir", join(webDir, "dist")], { stdio: ["ignore", "ignore", "inherit"] });
const base = `http://127.0.0.1:${port}`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage"],
});
try {
  for (let i = 0; ; ++i) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {}
    if (i > 100) throw new Error("the server did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${base}/replay/none`);
  // Three boards of classic La Casa to 3 points: the Robot against two random bots.
  const event = await page.evaluate(async (url) => {
    const ws = new WebSocket(url);
    const next = () => new Promise((ok) => ws.addEventListener("message", (m) => ok(JSON.parse(m.data)), { once: true }));
    await new Promise((ok) => ws.addEventListener("open", ok, { once: true }));
    ws.send(JSON.stringify({ type: "hello", version: 1, name: "director" }));
    await next();
    ws.send(JSON.stringify({
      type: "create_event", game: "la-casa", players: 2, boards: 3, options: { format: "classic", target: 3 },
      sides: [{ name: "The Robot", members: [{ bot: "robot" }] }, { name: "Random", members: [{ bot: "random" }] }],
    }));
    const created = await next();
    ws.close();
    return created.event;
  }, `ws://127.0.0.1:${port}/ws`);
  if (!event) throw new Error("no event was created");
  for (let i = 0; ; ++i) {
    const e = await (await fetch(`${base}/api/events/${event}`)).json();
    if (e.status === "over") break;
    if (i > 600) throw new Error("the event did not end");
    await new Promise((r) => setTimeout(r, 100));
  }
  await page.goto(`${base}/event/${event}`);
  await page.waitForSelector(".standings tbody tr");
  await page.screenshot({ path: join(shots, "event-standings-desktop.png"), fullPage: true });
  console.log(`event ${event}: ${join(shots, "event-standings-desktop.png")}`);
} finally {
  await browser.close();
  server.kill();
  rmSync(tmp, { recursive: true, force: true });
}
