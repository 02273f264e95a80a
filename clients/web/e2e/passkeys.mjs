// SPDX-License-Identifier: AGPL-3.0-or-later
// Passkeys end to end, in Debian's Chromium with its virtual authenticator (the
// DevTools protocol's WebAuthn domain) against a real casa-server on a free
// loopback port with a temporary database: a player claims a handle and adds a
// passkey on one browser profile; on a second, fresh profile whose authenticator
// holds the same passkey (as a synced passkey would be), "Sign in with a
// passkey" makes that device the same player, with its own session.
//
// The page is opened as http://localhost:PORT: WebAuthn runs only in a secure
// context and never for an IP address, and http://localhost is both.
//
//   CASA_SERVER_BIN   casa-server to run (default ../../build/server/casa-server)
//   CHROMIUM          browser binary (default /usr/bin/chromium)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { assert, freePort, waitHttp } from "./util.mjs";

const here = new URL(".", import.meta.url).pathname;
const webDir = resolve(here, "..");
const repo = resolve(webDir, "../..");
const serverBin = process.env.CASA_SERVER_BIN ?? join(repo, "build/server/casa-server");
const browserBin = process.env.CHROMIUM ?? "/usr/bin/chromium";
const started = Date.now();


const tmp = mkdtempSync(join(tmpdir(), "casa-passkeys-e2e-"));
const port = await freePort();
const server = spawn(
  serverBin,
  ["--address", "127.0.0.1", "--port", String(port), "--db", join(tmp, "casa.db"), "--testing",
    "--players-per-address-per-hour", "1000000", "--web-dir", join(webDir, "dist")],
  { stdio: ["ignore", "ignore", "pipe"] },
);
let serverLog = "";
server.stderr.on("data", (d) => (serverLog = (serverLog + d).slice(-20000)));
await waitHttp(`http://127.0.0.1:${port}/healthz`);
const base = `http://localhost:${port}`;

const browser = await chromium.launch({
  executablePath: browserBin,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
});

/** A fresh browser profile with a virtual platform authenticator that holds passkeys. */
async function device() {
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  page.errors_ = [];
  page.on("pageerror", (e) => page.errors_.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error") page.errors_.push(m.text());
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { context, page, cdp, authenticatorId };
}

/** GET /api/account as the page's own session. */
function account(page) {
  return page.evaluate(async () => {
    const r = await fetch("/api/account", { headers: { Authorization: `Bearer ${localStorage.getItem("casa.token")}` } });
    return { status: r.status, body: await r.json() };
  });
}

let failed = false;
try {
  // ---- the laptop: a guest claims "anna" and adds a passkey ----------------------
  const laptop = await device();
  let p = laptop.page;
  await p.goto("/");
  await p.fill('input[name="name"]', "anna");
  await p.click('.name-form button[type="submit"]');
  await p.waitForSelector(".conn-open");
  const claimed = await p.evaluate(async () => {
    const r = await fetch("/api/account/claim", {
      method: "POST",
      headers: { Authorization: `Bearer ${localStorage.getItem("casa.token")}`, "Content-Type": "application/json" },
      body: JSON.stringify({ handle: "anna" }),
    });
    return { status: r.status, body: await r.json() };
  });
  assert(claimed.status === 200 && claimed.body.handle === "anna", `claim: ${JSON.stringify(claimed)}`);
  const laptopToken = await p.evaluate(() => localStorage.getItem("casa.token"));
  const me = (await account(p)).body;

  await p.reload();
  await p.waitForSelector('.passkeys button[name="passkey-add"]');
  await p.fill('input[name="passkey-label"]', "laptop");
  await p.click('button[name="passkey-add"]');
  await p.waitForSelector('.passkey-list li:has-text("laptop")');
  const { credentials } = await laptop.cdp.send("WebAuthn.getCredentials", { authenticatorId: laptop.authenticatorId });
  assert(credentials.length === 1 && credentials[0].isResidentCredential, "one discoverable passkey on the laptop");
  assert(credentials[0].rpId === "localhost", `the passkey is for localhost, not ${credentials[0].rpId}`);
  console.log("ok   a claimed player adds a passkey (virtual authenticator, ES256)");

  // ---- the phone: a fresh profile that holds the same passkey --------------------
  const phone = await device();
  await phone.cdp.send("WebAuthn.addCredential", { authenticatorId: phone.authenticatorId, credential: credentials[0] });
  p = phone.page;
  await p.goto("/");
  // A new device: the welcome page asks for a name, or a passkey.
  await p.waitForSelector('.passkeys button[name="passkey-sign-in"]');
  assert((await p.evaluate(() => localStorage.getItem("casa.token"))) === null, "no player on the phone yet");
  await p.click('button[name="passkey-sign-in"]');
  // The panel keeps the new token and reloads: the connection says hello as anna.
  await p.waitForFunction(() => localStorage.getItem("casa.token"));
  await p.waitForSelector(".conn-open");
  const phoneToken = await p.evaluate(() => localStorage.getItem("casa.token"));
  assert(phoneToken !== laptopToken, "the phone has a session of its own");
  const same = (await account(p)).body;
  assert(same.player_id === me.player_id, `the same player on the phone: ${same.player_id} vs ${me.player_id}`);
  assert(same.handle === "anna", "with the same handle");
  assert((await p.inputValue('input[name="name"]')) === "anna", "the page shows the player's name");
  await p.waitForSelector('.passkey-list li:has-text("laptop")');
  assert(!(await p.textContent(".passkey-list")).includes("never used"), "the passkey shows it was used");
  const sessions = await p.evaluate(async () => {
    const r = await fetch("/api/account/sessions", { headers: { Authorization: `Bearer ${localStorage.getItem("casa.token")}` } });
    return (await r.json()).sessions;
  });
  assert(sessions.length >= 2, `the laptop's and the phone's sessions: ${JSON.stringify(sessions)}`);
  // The laptop's session still works: each device has its own.
  assert((await account(laptop.page)).body.player_id === me.player_id, "the laptop is still signed in");
  for (const d of [laptop, phone]) {
    const errs = d.page.errors_.filter((e) => !/favicon/.test(e));
    assert(errs.length === 0, `page errors: ${errs.join(" | ")}`);
  }
  console.log("ok   a second browser profile signs in with the passkey as the same player");
} catch (e) {
  failed = true;
  console.log(`FAIL passkeys: ${e && e.stack ? e.stack : e}`);
  console.log("server log tail:\n" + serverLog.slice(-3000));
}

await browser.close();
server.kill("SIGTERM");
rmSync(tmp, { recursive: true, force: true });
console.log(`passkeys e2e: ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(failed ? 1 : 0);
