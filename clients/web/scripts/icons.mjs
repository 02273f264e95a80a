// SPDX-License-Identifier: AGPL-3.0-or-later
// Renders the app icons of the web app manifest (public/icon-192.png, icon-512.png)
// from public/favicon.svg in Chromium, so the PNGs never drift from the drawing.
// Run after changing the SVG: node scripts/icons.mjs
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";

const dir = new URL("../public/", import.meta.url).pathname;
const svg = readFileSync(dir + "favicon.svg", "utf8");
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium" });
for (const size of [192, 512]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  await page.setContent(`<html><body style="margin:0">${svg.replace("<svg ", `<svg width="${size}" height="${size}" `)}</body></html>`);
  await page.screenshot({ path: `${dir}icon-${size}.png`, omitBackground: true });
  await page.close();
}
await browser.close();
