import { parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { PRICE_MESSAGES } from "../../../lib/eth.ts";
import { BULK_PRICE_TEXT, bulkPrices } from "./bulkPrices.ts";

const MIN = parseEther("0.001");

describe("bulkPrices", () => {
  it("asks for at least one work", () => {
    expect(bulkPrices([], "one", "1", {}, MIN).errors).toEqual({ selection: BULK_PRICE_TEXT.nothingChosen });
  });

  it("gives every work the one price, or says what is wrong with it", () => {
    const { prices, errors } = bulkPrices(["a:1", "a:2"], "one", "0.25", {}, MIN);
    expect(errors).toEqual({});
    expect([...prices]).toEqual([
      ["a:1", parseEther("0.25")],
      ["a:2", parseEther("0.25")],
    ]);
    expect(bulkPrices(["a:1"], "one", "", {}, MIN).errors).toEqual({ one: PRICE_MESSAGES.required });
    expect(bulkPrices(["a:1"], "one", "0.0001", {}, MIN).errors).toEqual({ one: PRICE_MESSAGES.min(MIN) });
  });

  it("takes a price each, with an error beside each wrong one", () => {
    const { prices, errors } = bulkPrices(["a:1", "a:2", "a:3"], "each", "", { "a:1": "1", "a:2": "x" }, MIN);
    expect([...prices]).toEqual([["a:1", parseEther("1")]]);
    expect(errors).toEqual({ "a:2": PRICE_MESSAGES.invalid, "a:3": PRICE_MESSAGES.required });
  });
});
