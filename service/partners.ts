/** Partners (API keys): seeded deterministically, changed through PUT /__control/partners/{apiKey}. */
import { createHash } from "node:crypto";
import { DEFAULT_KEY_PREFIX, DEFAULT_OPTIONS } from "./options.ts";
import { hash, uuidFrom } from "../lib/reference/rng.ts";

/** Seeded partners without --partners. */
export const SEEDED_PARTNER_COUNT = DEFAULT_OPTIONS.partners;

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

/** The uuidFrom/hash kind of seeded key names, apart from the catalogue's kinds. */
const KEY_KIND = 101;

/**
 * With the default prefix: atd-partner-01 .. atd-partner-40, the even-numbered ones (02, 04, ...) with alternatives
 * on. With any other prefix the names (prefix + 8 hex digits) and which keys have alternatives are drawn from `seed`,
 * so a client that guesses names or a numbering rule finds nothing: it has to read the keys (--keys-file).
 */
export function seedPartners(
  keyPrefix: string,
  seed: number,
  count: number = SEEDED_PARTNER_COUNT,
): Map<string, Partner> {
  const numbered = keyPrefix === DEFAULT_KEY_PREFIX;
  const partners = new Map<string, Partner>();
  for (let n = 1; n <= count; n++) {
    let apiKey = numbered ? partnerKey(n) : `${keyPrefix}${uuidFrom(seed, KEY_KIND, n).slice(0, 8)}`;
    // Two 32-bit draws can meet; the key must stay unique.
    if (partners.has(apiKey)) apiKey = `${apiKey}-${n}`;
    const partner = newPartner(n - 1, apiKey);
    partner.name = `Seeded Partner ${String(n).padStart(2, "0")}`;
    partner.alternatives = numbered ? n % 2 === 0 : (hash(seed, KEY_KIND, n, 7) & 1) === 1;
    partners.set(partner.apiKey, partner);
  }
  // The alternatives scenario needs keys of both kinds; a draw of 40 equal coins must not take that away.
  const all = [...partners.values()];
  const first = all[0];
  if (first !== undefined && all.every((p) => p.alternatives === first.alternatives)) {
    first.alternatives = !first.alternatives;
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
