/** Where named baselines are kept by default, apart from baselines.ts so that the settings table loads no reports. */
import path from "node:path";
import { REPO_ROOT } from "../paths.ts";

export const DEFAULT_BASELINES_DIR = path.join(REPO_ROOT, "baselines");
