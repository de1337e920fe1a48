/**
 * What --chaos needs before the extensions are made: the chaos plan checked against the run (exit 2), and, when it
 * puts faults on the webhooks link, the route service -> proxy -> sink fixed up front. The sink tells the
 * service its public URL when it starts, so that URL must already be the proxy's: the sink gets a concrete listen
 * port and the proxy's address as its public URL.
 */
import { EXIT, HarnessError } from "../exit-codes.ts";
import { parseListen } from "../webhooks/listen-address.ts";
import type { ChaosPlan } from "./chaos-file.ts";
import type { ChaosChoice } from "./network-chaos-extension.ts";
import { freePort } from "./toxiproxy-server.ts";

export interface WebhookRoute {
  /** The sink runs in this run (webhooks scenario or --webhooks). */
  sinkEnabled: boolean;
  /** --webhook-listen. */
  listen: string;
  /** --webhook-url. */
  publicUrl: string | undefined;
}

export interface PreparedChaos {
  chaos: ChaosChoice | undefined;
  /** The sink's listen address and public URL to use (changed only when the webhooks link is proxied). */
  webhookListen: string;
  webhookUrl: string | undefined;
}

/** plan: the chaos file, read and validated up front (lib/harness/run-settings.ts); undefined without --chaos. */
export async function prepareChaos(plan: ChaosPlan | undefined, webhooks: WebhookRoute): Promise<PreparedChaos> {
  const unchanged = { webhookListen: webhooks.listen, webhookUrl: webhooks.publicUrl };
  if (!plan) return { chaos: undefined, ...unchanged };
  const file = plan.file;
  if (!plan.faults.some((f) => f.link === "webhooks")) return { chaos: { plan }, ...unchanged };
  if (!webhooks.sinkEnabled) {
    throw new HarnessError(
      `Failed to read the chaos file ${file}: it puts faults on the webhooks link, but this run has no webhook sink. Please add --webhooks or run the webhooks scenario.`,
      EXIT.usage,
    );
  }
  if (webhooks.publicUrl) {
    throw new HarnessError(
      `Failed to read the chaos file ${file}: its webhooks link must be the sink's public URL, but --webhook-url already sets it to ${webhooks.publicUrl}. Please drop --webhook-url or the webhooks faults.`,
      EXIT.usage,
    );
  }
  const { host, port } = parseListen(webhooks.listen);
  const reachable = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  const sinkPort = port === 0 ? await freePort(reachable) : port;
  const proxyListen = `127.0.0.1:${String(await freePort())}`;
  return {
    chaos: { plan, webhookProxy: { listen: proxyListen, upstream: `${reachable}:${String(sinkPort)}` } },
    webhookListen: `${host.includes(":") ? `[${host}]` : host}:${String(sinkPort)}`,
    webhookUrl: `http://${proxyListen}`,
  };
}
