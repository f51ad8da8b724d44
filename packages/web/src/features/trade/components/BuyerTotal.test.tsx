import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import { parseEther } from "viem";
import { mainnet } from "viem/chains";
import { describe, expect, it } from "vitest";
import { createConfig, custom, WagmiProvider } from "wagmi";
import { fakeApi } from "../../../test/harness.tsx";
import type { GasSource } from "../../../web3/networkFee.ts";
import { BuyerTotal, feeText, TOTAL_TEXT } from "./BuyerTotal.tsx";

const BUYER = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
const MARKET = "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512";
const GWEI = 10n ** 9n;

const buyNow: GasSource = {
  call: {
    address: MARKET,
    abi: [
      {
        type: "function",
        name: "buyNow",
        stateMutability: "payable",
        inputs: [
          { name: "collection", type: "address" },
          { name: "tokenId", type: "uint256" },
        ],
        outputs: [],
      },
    ],
    chainId: mainnet.id,
    functionName: "buyNow",
    args: [MARKET, 42n],
    value: parseEther("1"),
  },
};

/**
 * A chain that estimates 100,000 gas at a base fee of 1 gwei and a priority fee of 1 gwei: viem's maxFeePerGas is
 * 1.2 × 1 + 1 = 2.2 gwei, so the fee is 0.00022 ETH. `failGas` makes the estimate fail as a revert would.
 */
function chain({ failGas = false }: { failGas?: boolean } = {}) {
  const requests: { method: string; params?: unknown }[] = [];
  const transport = custom({
    async request({ method, params }: { method: string; params?: unknown }) {
      requests.push({ method, params });
      switch (method) {
        case "eth_estimateGas":
          if (failGas) throw Object.assign(new Error("execution reverted"), { code: 3 });
          return "0x186a0";
        case "eth_getBlockByNumber":
          return {
            number: "0x10",
            hash: `0x${"ab".repeat(32)}`,
            parentHash: `0x${"cd".repeat(32)}`,
            timestamp: "0x6560a000",
            baseFeePerGas: `0x${GWEI.toString(16)}`,
            gasLimit: "0x1c9c380",
            gasUsed: "0x0",
            transactions: [],
          };
        case "eth_maxPriorityFeePerGas":
          return `0x${GWEI.toString(16)}`;
        case "eth_chainId":
          return "0x1";
        default:
          throw new Error(`unexpected ${method}`);
      }
    },
  });
  const config = createConfig({ chains: [mainnet], transports: { [mainnet.id]: transport } });
  return { config, requests };
}

function renderTotal(options: { failGas?: boolean; source?: GasSource | null; usd?: string } = {}) {
  fakeApi({
    "GET /api/nft/eth-price": () => ({
      body: { data: { usd: options.usd ?? "2000", updatedAt: "2026-11-29" } },
    }),
  });
  const { config, requests } = chain(options);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <WagmiProvider config={config} reconnectOnMount={false}>
      <QueryClientProvider client={queryClient}>
        <BuyerTotal
          label="Price"
          wei={parseEther("1")}
          source={options.source === undefined ? buyNow : options.source}
          account={BUYER}
        />
      </QueryClientProvider>
    </WagmiProvider>,
  );
  return { requests, region: screen.getByRole("region", { name: TOTAL_TEXT.region }) };
}

const row = (region: HTMLElement, term: string) =>
  (within(region).getByText(term).closest("div") as HTMLElement).textContent ?? "";

describe("BuyerTotal", () => {
  it("adds the estimated network fee to the price, in ETH and USD, before the wallet opens", async () => {
    const { region, requests } = renderTotal();
    expect(row(region, "Price")).toContain("1 ETH");
    expect(await within(region).findByText("0.000220 ETH")).toBeTruthy();
    expect(row(region, TOTAL_TEXT.fee)).toContain("≈ $0.44");
    expect(row(region, TOTAL_TEXT.total)).toContain("1.000220 ETH");
    expect(row(region, TOTAL_TEXT.total)).toContain("≈ $2,000.44");
    // The call itself was estimated, from the buyer, with the amount it sends.
    const estimate = requests.find((r) => r.method === "eth_estimateGas")?.params as [
      { from: string; to: string; value: string },
    ];
    expect(estimate[0].from.toLowerCase()).toBe(BUYER);
    expect(estimate[0].to.toLowerCase()).toBe(MARKET);
    expect(BigInt(estimate[0].value)).toBe(parseEther("1"));
  });

  it("says plainly when the fee cannot be estimated, and that it comes on top", async () => {
    const { region } = renderTotal({ failGas: true });
    expect(await within(region).findByText(TOTAL_TEXT.unavailable)).toBeTruthy();
    expect(row(region, TOTAL_TEXT.total)).toContain(`1 ETH ${TOTAL_TEXT.plusFee}`);
  });

  it("estimates a measured gas figure (a lazy mint) at the current fee", async () => {
    const { region, requests } = renderTotal({ source: { gas: 200_000n, chainId: mainnet.id } });
    expect(await within(region).findByText("0.000440 ETH")).toBeTruthy();
    expect(requests.some((r) => r.method === "eth_estimateGas")).toBe(false);
  });

  it("shows the fee as estimating at first, never as nothing", () => {
    const { region } = renderTotal();
    expect(row(region, TOTAL_TEXT.fee)).toContain(TOTAL_TEXT.estimating);
  });
});

describe("feeText", () => {
  it("gives six decimals, and a floor for fees that would read as zero", () => {
    expect(feeText(213_456_789_000_000n)).toBe("0.000213 ETH");
    expect(feeText(5n)).toBe("< 0.000001 ETH");
    expect(feeText(0n)).toBe("0.000000 ETH");
  });
});
