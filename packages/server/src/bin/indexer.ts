#!/usr/bin/env node
/** Production entry point of the `indexer` role, configured from environment variables (see README). */
import { runRole, startIndexerRole } from "../roles.ts";

await runRole(startIndexerRole);
