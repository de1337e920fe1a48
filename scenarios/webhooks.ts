/**
 * Webhook delivery end to end, judged by the webhook sink that runs beside k6 (lib/harness/webhooks; always on for
 * this scenario). With test hooks: booking journeys and catalogue changes that between them cause all eight kinds,
 * supplier decisions and approvals brought on by moving the service's clock; use a short time scale so that retries
 * come within the run: `harness run webhooks --service-args "--time-scale 120"`. Without them (lib/k6/webhooks/
 * public-api.ts): only booking journeys that need no hook, the sink registered by hand or by --webhook-register-cmd,
 * and what the service decides after its own delays observed, not expected.
 */
export { options, setup, default } from "../lib/k6/webhooks/scenario.ts";
export { handleSummary } from "../lib/k6/summary.ts";
