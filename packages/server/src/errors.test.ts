import { DrizzleQueryError } from "drizzle-orm/errors";
import { describe, expect, it } from "vitest";
import { loggableError } from "./errors.ts";

describe("loggableError", () => {
  it("keeps a failed query's database error but none of its SQL or parameters", () => {
    const cause = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
      code: "22021",
    });
    const error = new DrizzleQueryError(
      'select * from "profiles" where "email" = $1',
      ["alice@example.com"],
      cause,
    );
    const logged = JSON.stringify(loggableError(error));
    expect(logged).not.toContain("alice@example.com");
    expect(logged).not.toContain("profiles");
    expect(logged).toContain("22021");
  });

  it("passes other errors through", () => {
    const other = new Error("boom");
    expect(loggableError(other)).toBe(other);
  });
});
