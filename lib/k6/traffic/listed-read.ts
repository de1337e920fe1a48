/**
 * A read of a product or product type the journey listed a moment ago (docs/contract-gaps.md, Lists and pagination):
 * it may have been withdrawn since, and then answers the contract's 404 not_found or 410 gone, which the status check
 * takes (checks.ts, withdrawnSinceListed). So that a service answering those for what it still lists is not passed by
 * it, each such answer is confirmed before it is taken: the list it came from is read again, and where that still
 * names the resource the read is made once more; only when it is still gone while listed does the status check fail.
 * A resource put back in between reads 200 the second time, one withdrawn for good is gone from its list: neither is
 * blamed. The confirmation costs requests only on those answers.
 */
import { isRecord } from "../../contract/index.ts";
import { checkResponse, expectThat, statusCheckName, type ReadOptions } from "../checks.ts";
import type { ApiClient, ApiResponse } from "../client.ts";
import { withdrawnAnswer } from "../withdrawn.ts";

const LISTED: ReadOptions = { withdrawnSinceListed: true };

/**
 * Sends the read and judges it; the answer when it can be used (a 200), else undefined. `stillListed` reads the list
 * the resource came from again: true when it still names it (undefined when that list could not be read).
 */
export function readListed<T>(
  send: () => ApiResponse<T>,
  stillListed: () => boolean | undefined,
): ApiResponse<T> | undefined {
  const res = send();
  if (checkResponse(res, 200, LISTED)) return res;
  if (!withdrawnAnswer(res) || stillListed() !== true) return undefined;
  const again = send();
  if (!withdrawnAnswer(again)) return undefined;
  expectThat(
    statusCheckName(res.endpoint),
    `${res.endpoint}: answered ${String(res.status)} ${String(res.error?.code)} twice, while its list still named it (${res.url})`,
  );
  return undefined;
}

/** Whether a list answer names the uuid; undefined when it is no list. */
function names(list: ApiResponse<unknown>, uuid: string): boolean | undefined {
  const body = list.body;
  if (list.status !== 200 || !isRecord(body) || !Array.isArray(body.data)) return undefined;
  return (body.data as unknown[]).some((item) => isRecord(item) && item.uuid === uuid);
}

/** The products page a product was listed on names it still. */
export function onProductsPage(
  client: ApiClient,
  page: number,
  perPage: number,
  uuid: string,
): () => boolean | undefined {
  return () => names(client.listProducts({ page, per_page: perPage }), uuid);
}

/** A product's product types name the type still (a withdrawn product's list is gone too: not named). */
export function amongProductTypes(client: ApiClient, productUuid: string, typeUuid: string): () => boolean | undefined {
  return () => {
    const list = client.listProductTypes(productUuid, { per_page: 100 });
    return withdrawnAnswer(list) ? false : names(list, typeUuid);
  };
}
