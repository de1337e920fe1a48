/**
 * How scenarios/*.ts become the k6 scripts in dist/k6/. One place for the options, used by `npm run build` and by
 * the harness before every run.
 */
import type { BuildOptions } from "esbuild";

export const K6_BUNDLE_DIR = "dist/k6";

export const k6BuildOptions = {
  // One self-contained file per scenario: k6 cannot resolve node_modules or remote URLs offline.
  bundle: true,
  // k6 loads ES modules.
  format: "esm",
  // k6's JavaScript runtime (Sobek) is neither Node nor a browser; "browser" keeps esbuild from pulling Node built-ins.
  platform: "browser",
  // What Sobek supports; esbuild lowers anything newer.
  target: "es2020",
  // The k6 modules are provided by the k6 binary at run time.
  external: ["k6", "k6/*"],
  // Source maps inline so that k6 stack traces point at the TypeScript lines.
  sourcemap: "inline",
  // Readable output: the bundles are small and a person may need to read what k6 ran.
  minify: false,
  // Tree-shaking keeps each scenario's bundle to what it imports.
  treeShaking: true,
  // Writes one .js per entry into dist/k6.
  outdir: K6_BUNDLE_DIR,
  // Fails the build on warnings that would become runtime surprises in k6.
  logLevel: "warning",
  // Loads lib/contract's JSON-free TypeScript as is; no other loaders are needed.
  resolveExtensions: [".ts", ".js"],
} satisfies BuildOptions;
