import fastJson from "fast-json-stringify";
import type { FastifySerializerCompiler } from "fastify/types/schema.js";
import { z } from "zod";

/**
 * Writes each route's answers with fast-json-stringify, compiled once per route and status from the route's
 * zod response schema (as JSON Schema, the shape the OpenAPI document shows). Only the fields the schema
 * declares go out, as with zod's check of each answer, which fastify-type-provider-zod runs before
 * `JSON.stringify`: that second walk of every answer cost a third of the time spent writing a page of cards.
 * A field the schema requires and the answer lacks is still an error (a 500, logged), never a partial answer.
 */
export const serializerCompiler: FastifySerializerCompiler<z.ZodType | { properties: z.ZodType }> = ({
  schema,
}) => {
  const zodSchema = schema instanceof z.ZodType ? schema : schema.properties;
  // Compiled at a route's first answer, not when the app starts: compiling every route's writer at once
  // added about 200 ms to the API's start (bench:startup), for routes most processes never answer.
  let write: ((data: unknown) => string) | null = null;
  return (data) => {
    write ??= fastJson(
      z.toJSONSchema(zodSchema, { io: "output", target: "draft-7", unrepresentable: "throw" }) as never,
    );
    return write(data);
  };
};
