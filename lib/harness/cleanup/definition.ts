/** The reservation cleanup in every run: it has a job only on a target without test hooks (onlyWithoutControl). */
import type { ExtensionDefinition } from "../extension-plan.ts";
import { ReservationCleanupExtension } from "./reservation-cleanup.ts";

export const reservationCleanup: ExtensionDefinition = {
  enabled: () => true,
  create: () => new ReservationCleanupExtension(),
};
