#!/usr/bin/env node
/** Production entry point of the `api` role, configured from environment variables (see README). */
import { runRole, startApi } from "../roles.ts";

await runRole(startApi);
