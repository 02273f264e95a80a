import { defineConfig } from "vite";

// The page is served by casa-server from dist/: hashed names under /assets/ and no
// inline script or style (the server's Content-Security-Policy forbids both).
export default defineConfig({
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
