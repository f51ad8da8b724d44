#!/usr/bin/env node
/** Production entry point of the `worker` role, configured from environment variables (see README). */
import { runRole, startWorkerRole } from "../roles.ts";

await runRole(startWorkerRole);
