// SPDX-License-Identifier: AGPL-3.0-or-later
// Writes dist/fair-play.txt from docs/fair-play.md: how the deals are proved fair,
// which the replay page links to. casa-server serves it at /fair-play.txt.
import { readFileSync, writeFileSync } from "node:fs";

const root = new URL("../", import.meta.url).pathname;
writeFileSync(`${root}dist/fair-play.txt`, readFileSync(`${root}../../docs/fair-play.md`, "utf8"));
