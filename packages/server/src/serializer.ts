import { isDeepStrictEqual } from "node:util";
import fastJson from "fast-json-stringify";
import type { FastifySerializerCompiler } from "fastify/types/schema.js";
import { z } from "zod";

/** The response schemas whose answers are built field by field, exactly as declared (`answersBuiltExactly`). */
const builtExactly = new WeakSet<z.ZodType>();

/**
 * Marks response schemas whose answers the API builds field by field in the schema's own type (the card
 * builders of browse/cards.ts; a collection's description is its stored document, which the strict rich-text
 * schema checked when it was saved): they are written with `JSON.stringify`, which keeps whatever an answer
 * holds. So under the tests (vitest) every such answer is also written by the schema's writer and the two
 * compared, and a builder that adds, drops or retypes a field fails them.
 *
 * Why: a page of NFT cards is the API's busiest answer. fast-json-stringify builds it from a few thousand
 * small strings (each value quoted, then joined): a third of everything the API allocated under the explore
 * list's load (Buy Now at 50 connections, 1,000,000 items, V8's sampling heap profiler). Writing a page of 24
 * cards (19.5 KB) took it 47 µs against `JSON.stringify`'s 31 µs, counting the flattening the socket's write
 * needs (Node 24, 20,000 pages each in two alternating passes, this 2-core machine, 2026-11-27 08:00 UTC).
 */
export function answersBuiltExactly(...schemas: z.ZodType[]): void {
  for (const schema of schemas) builtExactly.add(schema);
}

const compareUnderTests = Boolean(process.env.VITEST);

/**
 * Writes each route's answers with fast-json-stringify, compiled once per route and status from the route's
 * zod response schema (as JSON Schema, the shape the OpenAPI document shows). Only the fields the schema
 * declares go out, as with zod's check of each answer, which fastify-type-provider-zod runs before
 * `JSON.stringify`: that second walk of every answer cost a third of the time spent writing a page of cards.
 * A field the schema requires and the answer lacks is still an error (a 500, logged), never a partial answer.
 * Answers built exactly (above) go out through `JSON.stringify`.
 */
export const serializerCompiler: FastifySerializerCompiler<z.ZodType | { properties: z.ZodType }> = ({
  schema,
  method,
  url,
}) => {
  const zodSchema = schema instanceof z.ZodType ? schema : schema.properties;
  // Compiled at a route's first answer, not when the app starts: compiling every route's writer at once
  // added about 200 ms to the API's start (bench:startup), for routes most processes never answer.
  let write: ((data: unknown) => string) | null = null;
  const schemaWriter = (data: unknown) => {
    write ??= fastJson(
      z.toJSONSchema(zodSchema, { io: "output", target: "draft-7", unrepresentable: "throw" }) as never,
    );
    return write(data);
  };
  if (!builtExactly.has(zodSchema)) return schemaWriter;
  return (data) => {
    const json = JSON.stringify(data);
    if (compareUnderTests && !isDeepStrictEqual(JSON.parse(json), JSON.parse(schemaWriter(data)))) {
      throw new Error(`${method} ${url}: an answer built exactly differs from its schema's writing`);
    }
    return json;
  };
};
