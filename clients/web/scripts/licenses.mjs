// SPDX-License-Identifier: AGPL-3.0-or-later
// Writes dist/licenses.txt: the licence notice of every npm package whose code the
// built page contains, which its licence asks to go with every copy. casa-server
// serves it at /licenses.txt. Every other npm package only builds or tests the page.
import { existsSync, readFileSync, writeFileSync } from "node:fs";

// The packages the page's script bundles (imported from src/): Preact, with its
// hooks and JSX runtime, which are parts of the same package.
const BUNDLED = ["preact"];

const root = new URL("../", import.meta.url).pathname;
const parts = [
  "Licences of the third-party code in this page's script.",
  "The page itself is part of the La Casa table server: AGPL-3.0-or-later.",
  "",
];
for (const name of BUNDLED) {
  const dir = `${root}node_modules/${name}/`;
  const pkg = JSON.parse(readFileSync(`${dir}package.json`, "utf8"));
  const file = ["LICENSE", "LICENSE.md", "LICENSE.txt", "license"].find((f) => existsSync(dir + f));
  if (!file) throw new Error(`licenses.mjs: ${name} has no licence file`);
  parts.push(`== ${pkg.name} ${pkg.version} (${pkg.license})`, "", readFileSync(dir + file, "utf8").trim(), "");
}
writeFileSync(`${root}dist/licenses.txt`, parts.join("\n"));
