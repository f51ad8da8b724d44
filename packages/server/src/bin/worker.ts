#!/usr/bin/env node
/** Production entry point of the `worker` role, configured from environment variables (see docs/operating.md, "Settings"). */
import { runRole, startWorkerRole } from "../roles.ts";

await runRole(startWorkerRole);
