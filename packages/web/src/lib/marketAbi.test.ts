import { easelMarketAbi } from "@easel/contracts";
import { describe, expect, it } from "vitest";
import { marketAbi } from "./marketAbi.ts";

describe("market ABI fragment", () => {
  it("matches the contract's own ABI for every function the web app calls", () => {
    for (const fragment of marketAbi) {
      const full = easelMarketAbi.find((item) => item.type === "function" && item.name === fragment.name);
      expect(full, fragment.name).toBeTruthy();
      expect(full).toMatchObject({
        stateMutability: fragment.stateMutability,
        inputs: fragment.inputs.map(({ type }) => expect.objectContaining({ type })),
        outputs: fragment.outputs.map(({ type }) => expect.objectContaining({ type })),
      });
    }
  });
});
