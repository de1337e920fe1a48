import { createServer } from "node:http";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { ResourceScraper } from "../../lib/harness/soak/resource-scraper.ts";

describe("soak resource scraper against a service without the metrics hook", () => {
  it("should stop asking after a 404, keep sampling the harness, and report no scrape errors", async () => {
    let asked = 0;
    const server = createServer((_req, res) => {
      asked++;
      res.writeHead(404, { "Content-Type": "application/json" }).end('{"error":{"code":"not_found"}}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const file = path.join(mkdtempSync(path.join(tmpdir(), "atd-scraper-")), "resources.jsonl");
    const scraper = new ResourceScraper({ url: `http://127.0.0.1:${String(port)}/metrics`, headers: {} }, 3600, file);
    try {
      await scraper.scrapeOnce();
      await scraper.scrapeOnce();
      await scraper.scrapeOnce();
    } finally {
      await scraper.stop();
      server.close();
    }
    expect(asked).toBe(1);
    expect(scraper.metricsAbsent).toBe(true);
    expect(scraper.errors).toEqual([]);
    expect(scraper.service).toEqual([]);
    expect(scraper.harness).toHaveLength(3);
  });
});
