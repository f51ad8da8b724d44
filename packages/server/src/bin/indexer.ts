#!/usr/bin/env node
/** Production entry point of the `indexer` role, configured from environment variables (see docs/operating.md, "Settings"). */
import { runRole, startIndexerRole } from "../roles.ts";

await runRole(startIndexerRole);
