// SPDX-License-Identifier: AGPL-3.0-or-later
// How long the page takes from a WebSocket frame's arrival to the rendered change,
// measured in Debian's Chromium on a real game: a 5-player Trophy Case table (the
// largest hands and the most frames per move) played by clicking, against a real
// casa-server on a free loopback port. Prints the figures; asserts nothing.
//
//   node bench/render-bench.mjs            (CASA_SERVER_BIN, CHROMIUM as for e2e/run.mjs)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

const webDir = resolve(new URL(".", import.meta.url).pathname, "..");
const serverBin = process.env.CASA_SERVER_BIN ?? join(webDir, "../../build/server/casa-server");
const MOVES = Number(process.env.BENCH_MOVES ?? 60);

const port = await new Promise((res) => {
  const s = createServer().listen(0, "127.0.0.1", () => {
    const p = s.address().port;
    s.close(() => res(p));
  });
});
const tmp = mkdtempSync(join(tmpdir(), "casa-web-bench-"));
const server = spawn(serverBin, ["--address", "127.0.0.1", "--port", String(port), "--db", join(tmp, "db"), "--web-dir", join(webDir, "dist")], { stdio: "ignore" });
for (let i = 0; i < 200; i++) {
  try {
    if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
  } catch {
    await new Promise((r) => setTimeout(r, 100));
  }
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, baseURL: `http://127.0.0.1:${port}` });
// Timestamps: a frame's message event (before the page's own handler), the first DOM
// mutation after it (the page re-rendered), and the next animation frame (painted).
await page.addInitScript(() => {
  const w = window;
  w.__dom = [];
  w.__paint = [];
  let t0 = null;
  const Orig = WebSocket;
  w.WebSocket = class extends Orig {
    constructor(...a) {
      super(...a);
      this.addEventListener("message", () => {
        t0 = performance.now();
      });
    }
  };
  new MutationObserver(() => {
    if (t0 === null) return;
    const start = t0;
    t0 = null;
    w.__dom.push(performance.now() - start);
    requestAnimationFrame(() => w.__paint.push(performance.now() - start));
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
});
await page.goto("/");
await page.fill('input[name="name"]', "bench");
await page.click('.name-form button[type="submit"]');
await page.waitForSelector(".create-form");
await page.selectOption("#game", "trophy-case");
await page.selectOption("#players", "5");
await page.click('button[name="play-now"]');
await page.waitForSelector(".board.trophy-case");
let moves = 0;
while (moves < MOVES) {
  const what = await page.waitForFunction(() => (document.querySelector(".game-over") ? "over" : document.querySelector(".choices") ? "move" : false), null, { timeout: 30000, polling: 20 });
  if ((await what.jsonValue()) === "over") break;
  const lit = page.locator(".hand button.card.legal").first();
  try {
    if (await lit.count()) await lit.click({ timeout: 1000 });
    else await page.locator(".choices button.choice").first().click({ timeout: 1000 });
    moves++;
  } catch {
    /* re-rendered under the click */
  }
}
await page.waitForTimeout(300);
const { dom, paint } = await page.evaluate(() => ({ dom: window.__dom, paint: window.__paint }));
const stat = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return `median ${q(0.5).toFixed(2)} ms, p95 ${q(0.95).toFixed(2)} ms, max ${s[s.length - 1].toFixed(2)} ms`;
};
console.log(`frames rendered: ${dom.length} over ${moves} moves (Trophy Case, 5 players)`);
console.log(`frame arrival -> DOM updated: ${stat(dom)}`);
console.log(`frame arrival -> next animation frame (painted): ${stat(paint)}`);
await browser.close();
server.kill("SIGTERM");
rmSync(tmp, { recursive: true, force: true });
