/** --webhook-listen: where the webhook sink listens, host:port (port 0: any free one). */
import { EXIT, HarnessError } from "../exit-codes.ts";

export function parseListen(listen: string): { host: string; port: number } {
  const match = /^(.*):(\d+)$/.exec(listen.trim());
  const port = match ? Number(match[2]) : NaN;
  if (!match || !match[1] || port > 65_535) {
    throw new HarnessError(
      `Failed to read --webhook-listen "${listen}": not host:port. Please give an address such as 127.0.0.1:0 or 0.0.0.0:9000.`,
      EXIT.usage,
    );
  }
  return { host: match[1].replace(/^\[|\]$/g, ""), port };
}
