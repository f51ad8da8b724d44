import { and, count, eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { notifications } from "../db/schema.ts";

/** How many notifications of a wallet are not seen yet (the header badge). */
export async function countNewNotifications(db: Database, address: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.address, address.toLowerCase()), eq(notifications.seen, false)));
  return row?.n ?? 0;
}
