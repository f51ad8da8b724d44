import type { CartQuoteLine } from "@easel/common";
import { easelMarketAbi } from "@easel/contracts/abis";
import { encodeAbiParameters, encodeErrorResult, encodeEventTopics, type Hex, parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { cartOutcome } from "./cartOutcome.ts";

const MARKET = "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512";
const BUYER = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
const SELLER = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
const ART = "0x00000000000000000000000000000000000000c0";

const line = (tokenId: string, price: bigint): CartQuoteLine => ({
  collection: ART,
  tokenId,
  name: `Low tide #${tokenId}`,
  path: `/x/${tokenId}`,
  image: null,
  seller: null,
  priceWei: price.toString(),
  unavailable: null,
  message: null,
  soldTo: null,
  listed: { collection: ART, tokenId, price: price.toString() },
  signed: null,
});

function sale(tokenId: bigint, price: bigint) {
  return {
    address: MARKET,
    topics: encodeEventTopics({
      abi: easelMarketAbi,
      eventName: "Sale",
      args: { collection: ART, tokenId, seller: SELLER },
    }) as [Hex, ...Hex[]],
    data: encodeAbiParameters(
      [
        { type: "address" },
        { type: "uint8" },
        { type: "uint256" },
        { type: "uint256" },
        { type: "uint256" },
        { type: "bool" },
      ],
      [BUYER, 1, price, price / 10n, 0n, true],
    ),
  };
}

function skipped(tokenId: bigint, price: bigint, reason: Hex) {
  return {
    address: MARKET,
    topics: encodeEventTopics({
      abi: easelMarketAbi,
      eventName: "PurchaseSkipped",
      args: { collection: ART, tokenId, buyer: BUYER },
    }) as [Hex, ...Hex[]],
    data: encodeAbiParameters([{ type: "uint256" }, { type: "bytes" }], [price, reason]),
  };
}

const receipt = (logs: ReturnType<typeof sale>[]) =>
  ({
    transactionHash: `0x${"ab".repeat(32)}`,
    logs: logs.map((log, i) => ({
      ...log,
      blockHash: `0x${"cd".repeat(32)}`,
      blockNumber: 1n,
      logIndex: i,
      transactionHash: `0x${"ab".repeat(32)}`,
      transactionIndex: 0,
      removed: false,
    })),
  }) as never;

describe("the outcome of a mined cart", () => {
  it("lists the works bought and those skipped and refunded, with the reason in words and the amounts", () => {
    const noListing = encodeErrorResult({
      abi: easelMarketAbi,
      errorName: "NoSellOrder",
      args: [ART, 2n],
    });
    const lines = [line("1", parseEther("0.2")), line("2", parseEther("0.3")), line("3", parseEther("0.4"))];
    const outcome = cartOutcome(
      receipt([
        sale(1n, parseEther("0.2")),
        skipped(2n, parseEther("0.3"), noListing),
        sale(3n, parseEther("0.4")),
      ]),
      MARKET,
      BUYER,
      lines,
      parseEther("0.9"),
    );
    expect(outcome.bought.map((w) => [w.tokenId, w.priceWei])).toEqual([
      ["1", parseEther("0.2").toString()],
      ["3", parseEther("0.4").toString()],
    ]);
    expect(outcome.skipped).toEqual([
      expect.objectContaining({
        tokenId: "2",
        priceWei: parseEther("0.3").toString(),
        reason: "This item is not listed for sale.",
      }),
    ]);
    expect(outcome.spentWei).toBe(parseEther("0.6"));
    expect(outcome.refundedWei).toBe(parseEther("0.3"));
  });

  it("never counts a work as bought without its Sale (another market's or buyer's events are not ours)", () => {
    const other = { ...sale(1n, parseEther("0.2")), address: "0x00000000000000000000000000000000000000ff" };
    const outcome = cartOutcome(
      receipt([other]),
      MARKET,
      BUYER,
      [line("1", parseEther("0.2"))],
      parseEther("0.2"),
    );
    expect(outcome.bought).toEqual([]);
    expect(outcome.skipped[0]?.reason).toBe("The transaction recorded no sale of this work.");
    expect(outcome.refundedWei).toBe(parseEther("0.2"));
  });
});
