/**
 * Webhook delivery end to end: booking journeys and catalogue changes that between them cause all eight webhook
 * kinds, judged by the webhook sink that runs beside k6 (lib/harness/webhooks; always on for this scenario). Bookings
 * are created, confirmed and cancelled through the partner API; supplier decisions and cancellation approvals come
 * from moving the service's clock (the contract gives no delay: what the booking shows afterwards is expected, an
 * approval or a rejection alike), catalogue changes from the required hooks (both through ATD_CONTROL_URL, which the
 * sink's extension passes). Its product types come from walking the public catalogue from its end. Every operation logs the events it must cause; expiry of the bookings left reserved is
 * triggered and recorded by the extension after k6. Use a short time scale so that retries come within the run:
 * `harness run webhooks --service-args "--time-scale 120"`.
 */
export { options, setup, default } from "../lib/k6/webhooks/scenario.ts";
export { handleSummary } from "../lib/k6/summary.ts";
