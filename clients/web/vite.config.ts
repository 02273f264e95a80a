// SPDX-License-Identifier: AGPL-3.0-or-later
import { readFileSync } from "node:fs";
import { defineConfig, type Plugin } from "vite";

// Development only: a server that predates GET /api/games gets a catalogue from a
// file (CASA_CATALOGUE) through the preview server.
function catalogueFile(): Plugin {
  const file = process.env.CASA_CATALOGUE;
  return {
    name: "casa-catalogue-file",
    configurePreviewServer(server) {
      if (!file) return;
      server.middlewares.use((req, res, next) => {
        if (req.url !== "/api/games") return next();
        res.setHeader("Content-Type", "application/json");
        res.end(readFileSync(file));
      });
    },
  };
}

// The page is served by casa-server from dist/: hashed names under /assets/ and no
// inline script or style (the server's Content-Security-Policy forbids both).
export default defineConfig({
  plugins: [catalogueFile()],
  esbuild: { jsx: "automatic", jsxImportSource: "preact" },
  build: {
    outDir: "dist",
    assetsDir: "assets",
    modulePreload: { polyfill: false },
    target: "es2022",
    cssCodeSplit: false,
  },
  test: {
    environment: "happy-dom",
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
  },
  server: {
    proxy: {
      "/ws": { target: process.env.CASA_SERVER ?? "http://127.0.0.1:8080", ws: true },
      "/api": { target: process.env.CASA_SERVER ?? "http://127.0.0.1:8080" },
    },
  },
  preview: {
    proxy: {
      "/ws": { target: process.env.CASA_SERVER ?? "http://127.0.0.1:8080", ws: true },
      "/api": { target: process.env.CASA_SERVER ?? "http://127.0.0.1:8080" },
    },
  },
});
