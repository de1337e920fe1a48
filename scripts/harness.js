#!/usr/bin/env node
// The `harness` command's entry. Plain JavaScript so that an old Node can still say what is wrong: the harness
// itself is TypeScript run by Node >= 22.18's type stripping (npm scripts use the repo's Node 24).
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  console.error(
    `Failed to start the harness: Node ${process.versions.node} cannot run it (Node >= 22.18 is needed). ` +
      "Please run it through npm (npm start, npm run harness -- ..., npx harness ...), which uses the repo's Node 24.",
  );
  process.exit(2);
}
process.removeAllListeners("warning");
// Every command loads a few hundred TypeScript files: Node's compile cache (in the OS temp directory, keyed by each
// file's content) keeps their stripped and compiled form, so a command starts in about two thirds of the time. Set
// in the environment, it serves the embedded service's process too.
const { enableCompileCache } = await import("node:module");
const { tmpdir } = await import("node:os");
process.env.NODE_COMPILE_CACHE ??= `${tmpdir()}/node-compile-cache`;
enableCompileCache?.(process.env.NODE_COMPILE_CACHE);
await import("./harness-cli.ts");
