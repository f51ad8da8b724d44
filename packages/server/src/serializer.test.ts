import { nftCardSchema } from "@easel/common";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { answersBuiltExactly, serializerCompiler } from "./serializer.ts";

/** A Fastify app with one GET route answering `answer` under `schema`, and its JSON answer. */
async function answerOf(schema: z.ZodType, answer: unknown) {
  const app = Fastify({ logger: false });
  app.setSerializerCompiler(serializerCompiler);
  app.get("/", { schema: { response: { 200: schema } } }, async () => answer);
  try {
    const response = await app.inject({ method: "GET", url: "/" });
    return { status: response.statusCode, body: response.body };
  } finally {
    await app.close();
  }
}

const card = {
  _id: "0xc1:1",
  collection: { address: "0xc1", name: "Tides", kind: "standard" },
  tokenId: "1",
  name: "Tides #1",
  creator: "0xa1",
  owner: "0xa2",
  status: "fix",
  image_cid: null,
  category: "Photography",
  royaltyBps: 500,
  collaborators: [{ account: "0xa3", share: 25 }],
  price: "0.5",
  priceWei: "500000000000000000",
  lastPriceWei: null,
  creatorData: { address: "0xa1", username: "ada", name: null, avatar: null },
  collaboratorsData: [{ address: "0xa3", username: null, name: "Bruno", avatar: null, share: 25 }],
  auctionKind: null,
  endTime: null,
  offerWei: null,
  favorites: 3,
  views: 10,
  isFavorite: false,
  blocked: false,
};

describe("serializerCompiler", () => {
  it("writes every field of an answer, nulls, arrays and nested objects included", async () => {
    const schema = z.object({
      data: z.object({ nfts: z.array(nftCardSchema), nextCursor: z.string().nullable() }),
    });
    const answer = { data: { nfts: [card, { ...card, _id: "0xc1:2", tokenId: "2" }], nextCursor: null } };
    const { status, body } = await answerOf(schema, answer);
    expect(status).toBe(200);
    expect(JSON.parse(body)).toEqual(answer);
  });

  it("sends only the fields the schema declares, as zod's check of the answer did", async () => {
    const schema = z.object({ address: z.string(), name: z.string().nullable() });
    const { body } = await answerOf(schema, { address: "0xa1", name: "Ada", email: "ada@example.com" });
    expect(JSON.parse(body)).toEqual({ address: "0xa1", name: "Ada" });
  });

  it("answers 500, never part of an answer, when a required field is missing", async () => {
    const schema = z.object({ address: z.string(), name: z.string() });
    const { status, body } = await answerOf(schema, { address: "0xa1" });
    expect(status).toBe(500);
    expect(body).not.toContain("0xa1");
  });

  it("keeps every member of a union as it is", async () => {
    const schema = z.object({
      value: z.union([
        z.object({ kind: z.literal("a"), n: z.number() }),
        z.object({ kind: z.literal("b"), s: z.string() }),
      ]),
    });
    for (const value of [
      { kind: "a", n: 2 },
      { kind: "b", s: "x" },
    ]) {
      expect((await answerOf(schema, { value })).body).toBe(JSON.stringify({ value }));
    }
  });

  it("writes an answer built exactly with JSON.stringify, the same as the schema's writer", async () => {
    const schema = z.object({
      data: z.object({ nfts: z.array(nftCardSchema), nextCursor: z.string().nullable() }),
    });
    answersBuiltExactly(schema);
    const answer = { data: { nfts: [card, { ...card, _id: "0xc1:2", tokenId: "2" }], nextCursor: "abc" } };
    const { status, body } = await answerOf(schema, answer);
    expect(status).toBe(200);
    expect(body).toBe(JSON.stringify(answer));
  });

  it("writes names with quotes, backslashes, line breaks, control characters and emoji the same both ways", async () => {
    const schema = z.object({ data: z.object({ nfts: z.array(nftCardSchema) }) });
    answersBuiltExactly(schema);
    const name = 'The "Tide" \\ line\nbreak\ttab\u0001 🎨 </script>';
    const answer = { data: { nfts: [{ ...card, name }] } };
    const { status, body } = await answerOf(schema, answer);
    expect(status).toBe(200);
    expect(JSON.parse(body).data.nfts[0].name).toBe(name);
  });

  it("fails an answer marked built exactly that holds a field its schema does not declare (under the tests)", async () => {
    const schema = z.object({ address: z.string(), name: z.string().nullable() });
    answersBuiltExactly(schema);
    const { status, body } = await answerOf(schema, {
      address: "0xa1",
      name: "Ada",
      email: "ada@example.com",
    });
    expect(status).toBe(500);
    expect(body).not.toContain("ada@example.com");
  });

  it("fails an answer marked built exactly that lacks a required field or has one of another type", async () => {
    const schema = z.object({ address: z.string(), favorites: z.number().int() });
    answersBuiltExactly(schema);
    expect((await answerOf(schema, { address: "0xa1" })).status).toBe(500);
    expect((await answerOf(schema, { address: "0xa1", favorites: "3" })).status).toBe(500);
    expect((await answerOf(schema, { address: "0xa1", favorites: 3 })).status).toBe(200);
  });
});
