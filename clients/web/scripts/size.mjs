// SPDX-License-Identifier: AGPL-3.0-or-later
// Measures what a first page load fetches: index.html and every script and
// stylesheet it links, gzip-compressed as casa-server sends them. Prints the
// figures; exits non-zero above the budget (150 KB of compressed JS + CSS).
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const dist = new URL("../dist/", import.meta.url).pathname;
const BUDGET = 150 * 1024;
const html = readFileSync(dist + "index.html", "utf8");
const refs = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
// Modules the entry imports statically are fetched on the first load too.
const seen = new Set();
const queue = [...refs];
while (queue.length) {
  const f = queue.shift();
  if (seen.has(f)) continue;
  seen.add(f);
  if (f.endsWith(".js")) {
    const src = readFileSync(dist + f, "utf8");
    for (const m of src.matchAll(/from\s*"\.\/([^"]+\.js)"/g)) queue.push("assets/" + m[1]);
  }
}
let total = 0;
for (const f of seen) {
  const raw = readFileSync(dist + f);
  const gz = gzipSync(raw, { level: 9 }).length;
  total += gz;
  console.log(`${f}\t${raw.length} B raw\t${gz} B gzip`);
}
console.log(`first load JS+CSS: ${total} B gzip (${(total / 1024).toFixed(1)} KB; budget ${BUDGET / 1024} KB)`);
if (total > BUDGET) process.exit(1);
