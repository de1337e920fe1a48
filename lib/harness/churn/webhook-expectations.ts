/**
 * The webhook events the churn driver's changes cause, read from its log (churn.jsonl), so that the webhook sink
 * expects them instead of reporting them as unexpected. Data flows one way: the churn log goes to the sink's verdict
 * and nothing goes back to the driver or to k6.
 *
 * Which change emits what (docs/contract-gaps.md, Control API; test-hooks.openapi.yaml productTypeChange). A content
 * update emits product_type_content_updated. A withdrawal (available:false) emits product_type_not_available and its
 * undo (available:true) product_type_available when the product type's availability really changes. An undo sets the
 * type available even while another withdrawal of it is pending, and that one's undo then changes nothing: whether such
 * a call emits is the service's choice (docs/contract-freedoms.md, webhooks-unchanged-availability-event), so its
 * event is expected as optional. Seat, cap and sell-out changes emit nothing. Catalogue events go to every partner with a webhook URL, so the
 * expectations name no key. Every hot-set type starts available (pickHotSet() picks available ones) and only the driver
 * changes it. A change the control API did not accept (status other than 200) is taken as not made: the churn check
 * already fails the run for it.
 */
import type { ExpectationRecord } from "../../contract/index.ts";
import type { ChurnLogEntry } from "./log.ts";

export function churnExpectations(entries: readonly ChurnLogEntry[]): ExpectationRecord[] {
  const expectations: ExpectationRecord[] = [];
  const unavailable = new Set<string>();
  // The driver sends one request at a time and logs each change before the next: `at` is the order they took effect.
  const ordered = [...entries].sort((a, b) => a.at - b.at);
  for (const e of ordered) {
    if (e.status !== 200) continue;
    const base = { resource: e.productTypeUuid, at: e.at };
    if (e.kind === "content" && e.phase === "apply") {
      expectations.push({ ...base, type: "product_type_content_updated" });
    } else if (e.kind === "unavailable") {
      const withdraw = e.phase === "apply";
      const type = withdraw ? "product_type_not_available" : "product_type_available";
      if (withdraw === unavailable.has(e.productTypeUuid)) {
        expectations.push({ ...base, type, optional: true });
        continue;
      }
      expectations.push({ ...base, type });
      if (withdraw) unavailable.add(e.productTypeUuid);
      else unavailable.delete(e.productTypeUuid);
    }
  }
  return expectations;
}
