// SPDX-License-Identifier: AGPL-3.0-or-later
// Writes a gzip copy (level 9) next to every asset of dist/, which casa-server sends
// to browsers that accept it. Node's own zlib: no extra dependency.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const root = new URL("../dist/", import.meta.url).pathname;
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (/\.(js|css|html|svg|json|map|txt|wasm)$/.test(name)) {
      writeFileSync(`${p}.gz`, gzipSync(readFileSync(p), { level: 9 }));
    }
  }
}
walk(root);
