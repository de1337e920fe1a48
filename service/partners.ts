/** Partners (API keys): seeded deterministically, changed through PUT /__control/partners/{apiKey}. */
import { createHash } from "node:crypto";

export const SEEDED_PARTNER_COUNT = 40;

export interface Partner {
  /** 0 for atd-partner-01; registration order for keys added later. */
  index: number;
  apiKey: string;
  name: string;
  /** Opt-in to alternatives on a failed confirmation (spec 7.2 rule 1). */
  alternatives: boolean;
  webhookUrl: string | null;
  /** Standard Webhooks secret, `whsec_<base64>`; the HMAC key is the decoded bytes. */
  webhookSecret: string;
  /** Set when the endpoint answered 410 or exhausted its retries; cleared when a webhookUrl is set again. */
  webhookDisabled: boolean;
  /** Origin restrictions set through the control API, by product uuid (seeded ones are computed). */
  restrictions: Map<string, { allowedCountries: string[]; excludedCountries: string[] }>;
}

export function partnerKey(n: number): string {
  return `atd-partner-${String(n).padStart(2, "0")}`;
}

export function defaultWebhookSecret(apiKey: string): string {
  return `whsec_${createHash("sha256").update(`atd-webhook-secret:${apiKey}`).digest().subarray(0, 24).toString("base64")}`;
}

export function newPartner(index: number, apiKey: string): Partner {
  return {
    index,
    apiKey,
    name: `Partner ${apiKey}`,
    alternatives: false,
    webhookUrl: null,
    webhookSecret: defaultWebhookSecret(apiKey),
    webhookDisabled: false,
    restrictions: new Map(),
  };
}

/** atd-partner-01 .. atd-partner-40; the even-numbered ones (02, 04, ...) have alternatives on. */
export function seedPartners(): Map<string, Partner> {
  const partners = new Map<string, Partner>();
  for (let n = 1; n <= SEEDED_PARTNER_COUNT; n++) {
    const partner = newPartner(n - 1, partnerKey(n));
    partner.name = `Seeded Partner ${String(n).padStart(2, "0")}`;
    partner.alternatives = n % 2 === 0;
    partners.set(partner.apiKey, partner);
  }
  return partners;
}

export function publicPartner(p: Partner): Record<string, unknown> {
  return {
    apiKey: p.apiKey,
    name: p.name,
    alternatives: p.alternatives,
    webhookUrl: p.webhookUrl,
    webhookSecret: p.webhookSecret,
    webhookEnabled: p.webhookUrl !== null && !p.webhookDisabled,
  };
}
