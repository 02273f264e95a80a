// SPDX-License-Identifier: AGPL-3.0-or-later
// One player on two devices (docs/accounts.md), run by run.mjs with its helpers: a
// guest claims their name as an account, plays a rated game and sits at a waiting
// table, adds a friend; a second browser profile signs in with a device code shown
// on the first and shows the same tables, rating and friends; a friend's invitation
// reaches the friend's page, which joins by it.
import { join } from "node:path";

/** Claims the page's guest name as an account with `password`. */
async function claim(page, password) {
  await page.click("a.nav-account");
  await page.waitForSelector(".claim-form");
  await page.fill('input[name="claim-password"]', password);
  await page.click('.claim-form button[type="submit"]');
  await page.waitForSelector(".signed-in .handle");
}

/** The text of the rating cells of a player's profile. */
async function ratingOf(page, playerId) {
  await page.goto(`/players/${playerId}`);
  await page.waitForSelector(".profile td.rating");
  return (await page.locator(".profile td.rating").allTextContents()).join(" | ");
}

async function friendsShown(page) {
  await page.click("a.nav-account");
  await page.waitForSelector(".friend-list li");
  return page.locator(".friend-list li").evaluateAll((lis) => lis.map((li) => `${li.dataset.handle}: ${li.className}`));
}

async function yourTables(page) {
  await page.click("a.brand");
  // The lobby settles on Your games (the server's list of the player's tables).
  await page.waitForSelector("section.your-games li");
  return (await page.locator("section.your-games li a").evaluateAll((as) => as.map((a) => a.getAttribute("href")))).sort();
}

export async function devices(h) {
  const { browser, base, shots, person, openCreateForm, setTesting, playToEnd, assert, tableIdOf, checkCleanPage, DESKTOP, PHONE } = h;
  const anna = await person("Annabel");
  await claim(anna, "annabel's password");
  const annaId = await anna.evaluate(() => new URL(document.querySelector(".me a").href).pathname.split("/").pop());

  // A rated game against the robot (one round), then a waiting table of two.
  await openCreateForm(anna, "la-casa", 2);
  await setTesting(anna, "rounds", 1);
  await anna.selectOption("#rated", "true");
  await anna.click('button[name="play-now"]');
  await anna.waitForURL("**/table/*");
  await playToEnd(anna);
  await openCreateForm(anna, "casino", 2);
  await anna.click('button[name="create"]');
  await anna.waitForURL("**/table/*");
  const waiting = tableIdOf(anna);

  // A friend, both ways.
  const bert = await person("Bertram");
  await claim(bert, "bertram's password");
  await bert.fill('input[name="friend-handle"]', "annabel");
  await bert.click('.friend-add button[type="submit"]');
  await bert.waitForSelector('.friend-list li[data-handle="Annabel"].pending');
  await anna.click("a.nav-account");
  await anna.waitForSelector(".friend-requests li");
  await anna.click(".friend-requests button");
  await anna.waitForSelector('.friend-list li[data-handle="Bertram"].online');

  const rating = await ratingOf(anna, annaId);
  assert(rating.includes("±"), `Annabel is rated: ${rating}`);
  const tablesA = await yourTables(anna);
  assert(tablesA.includes(`/table/${waiting}`), `the waiting table is Annabel's: ${tablesA}`);

  // A device code, shown on the first device.
  await anna.click("a.nav-account");
  await anna.click("button.new-code");
  await anna.waitForSelector(".device-code");
  const code = (await anna.locator(".device-code").textContent()).trim();
  assert(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/.test(code), `a device code: ${code}`);
  await anna.screenshot({ path: join(shots, "account-desktop.png"), fullPage: true });
  await anna.setViewportSize(PHONE);
  await anna.screenshot({ path: join(shots, "account-phone.png"), fullPage: true });
  await anna.setViewportSize(DESKTOP);

  // A second browser profile, a phone: nothing in its storage.
  const context = await browser.newContext({ viewport: PHONE, baseURL: base });
  const phone = await context.newPage();
  phone.errors_ = [];
  phone.on("pageerror", (e) => phone.errors_.push(String(e)));
  await phone.goto("/");
  await phone.waitForSelector(".sign-in");
  await phone.screenshot({ path: join(shots, "sign-in-phone.png"), fullPage: true });
  // A wrong code is refused and changes nothing.
  await phone.fill('input[name="device-code"]', "ZZZZ-ZZZZ");
  await phone.click('.code-form button[type="submit"]');
  await phone.waitForSelector(".sign-in .error");
  await phone.fill('input[name="device-code"]', code.toLowerCase());
  await phone.click('.code-form button[type="submit"]');
  await phone.waitForSelector(".conn-open");
  await phone.waitForFunction(() => document.querySelector(".me a")?.textContent === "Annabel");
  const phoneId = await phone.evaluate(() => new URL(document.querySelector(".me a").href).pathname.split("/").pop());
  assert(phoneId === annaId, `the same player on both devices: ${phoneId} / ${annaId}`);
  // The code was used: it signs in no one else.
  const again = await fetch(`${base}/api/account/device-codes/redeem`, { method: "POST", body: JSON.stringify({ code }) });
  assert(again.status === 401, `a used code is refused (${again.status})`);

  // The same tables, rating and friends.
  const tablesB = await yourTables(phone);
  assert(JSON.stringify(tablesB) === JSON.stringify(tablesA), `the same tables: ${tablesB} / ${tablesA}`);
  const ratingB = await ratingOf(phone, annaId);
  assert(ratingB === rating, `the same rating: ${ratingB} / ${rating}`);
  const friendsB = await friendsShown(phone);
  assert(friendsB.length === 1 && friendsB[0].startsWith("Bertram:") && friendsB[0].includes("online"), `the same friends: ${friendsB}`);
  // Both devices in the list of sessions.
  await phone.waitForSelector(".sessions li.current");
  assert((await phone.locator(".sessions li").count()) === 2, "two sessions listed");

  // From the phone, Annabel invites Bertram to her waiting table: his page shows it.
  await phone.click(`.friend-list li[data-handle="Bertram"] button.invite`);
  await phone.waitForSelector(".friends .note");
  await bert.waitForSelector(".table-invitation");
  assert((await bert.locator(".table-invitation").textContent()).includes("Annabel"), "the invitation names who sent it");
  await phone.screenshot({ path: join(shots, "friends-phone.png"), fullPage: true });
  await bert.screenshot({ path: join(shots, "invitation-desktop.png") });
  await bert.setViewportSize(PHONE);
  await bert.screenshot({ path: join(shots, "invitation-phone.png") });
  await bert.setViewportSize(DESKTOP);
  await bert.locator(".table-invitation button.primary").click();
  await bert.waitForURL(`**/table/${waiting}`);
  await bert.waitForFunction(() => !document.querySelector(".table-invitation"));
  // Settled on Annabel's first device too (it never showed there: it was hers to send).
  await anna.waitForFunction(() => !document.querySelector(".table-invitation"));

  // Signing out on the phone ends its session only.
  await phone.click("a.nav-account");
  await phone.click("button.sign-out");
  await phone.waitForSelector('input[name="name"]');
  await anna.click("a.nav-account");
  await anna.waitForSelector(".sessions li.current");
  assert((await anna.locator(".sessions li").count()) === 1, "one session left after signing out on the phone");
  assert(phone.errors_.length === 0, `no page errors on the phone: ${phone.errors_}`);
  await context.close();
  await checkCleanPage(anna);
}
