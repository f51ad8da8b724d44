import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import helmet from "helmet";
import { describe, expect, it } from "vitest";
import { fixedHeadersOf } from "./app.ts";

/** The headers a real response carries after `apply` ran on it. */
async function headersAfter(apply: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer((req, res) => {
    res.setHeader("x-powered-by", "something");
    apply(req, res);
    res.end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const headers = Object.fromEntries(response.headers);
    delete headers.date;
    return headers;
  } finally {
    server.close();
  }
}

describe("fixedHeadersOf", () => {
  it("sets and removes on every answer exactly what helmet's middleware does", async () => {
    const options = {
      contentSecurityPolicy: {
        directives: { defaultSrc: ["'self'"], connectSrc: ["'self'", "https://rpc.example"] },
      },
      crossOriginEmbedderPolicy: false,
      hsts: true,
    };
    const middleware = helmet(options);
    const fixed = fixedHeadersOf(middleware);
    const byHelmet = await headersAfter((req, res) => middleware(req, res, () => {}));
    const byList = await headersAfter((_req, res) => {
      for (const [name, value] of fixed.set) res.setHeader(name, value);
      for (const name of fixed.removed) res.removeHeader(name);
    });
    expect(byList).toEqual(byHelmet);
    expect(byList["content-security-policy"]).toContain("connect-src 'self' https://rpc.example");
    expect(byList["x-powered-by"]).toBeUndefined();
  });

  it("refuses a middleware that fails or does not finish at once", () => {
    expect(() => fixedHeadersOf((_req, _res, next) => next(new Error("bad directive")))).toThrow(
      "bad directive",
    );
    expect(() => fixedHeadersOf((_req, _res, next) => setTimeout(next, 0))).toThrow("did not finish at once");
  });
});
