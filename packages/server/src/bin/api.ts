#!/usr/bin/env node
/** Production entry point of the `api` role, configured from environment variables (see docs/operating.md, "Settings"). */
import { runRole, startApi } from "../roles.ts";

await runRole(startApi);
