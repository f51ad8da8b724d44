import type { SignedListingOrder } from "@easel/common";
import { bulkListing } from "@easel/contracts";
import { encodeAbiParameters, hashStruct, keccak256, recoverTypedDataAddress, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { orderArgs } from "../../trade/api/signedListings.ts";
import { bulkTypedData } from "./bulkOrders.ts";
import { listSeveralPath } from "./paths.ts";

// Anvil's well-known first key: a test key, never a real one.
const seller = privateKeyToAccount("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
const market = { address: "0x5fbdb2315678afecb367f032d93f642f64180aa3", chainId: 31337 } as const;

const order = (tokenId: number): SignedListingOrder => ({
  collection: "0x9a676e781a523b5d0c0e43731313a708cb607508",
  tokenId: String(tokenId),
  price: String(10n ** 17n * BigInt(tokenId)),
  seller: seller.address.toLowerCase(),
  transferCount: "1",
  counter: "0",
  expiresAt: "1900000000",
  maxFeeBps: 1000,
});

describe("bulkTypedData", () => {
  it("is one BulkListing over the tree of the orders, in the market's domain, that the seller signs once", async () => {
    const orders = [1, 2, 3].map(order);
    const typed = bulkTypedData(orders, market);
    expect(typed.primaryType).toBe("BulkListing");
    expect(typed.domain).toMatchObject({
      name: "Easel Market",
      chainId: 31337,
      verifyingContract: market.address,
    });
    // Three orders make a tree of 2 levels (4 leaves, the last a zero listing).
    expect(typed.types.BulkListing).toEqual([{ name: "tree", type: "SignedListing[2][2]" }]);
    const signature = await seller.signTypedData(typed as never);
    expect(await recoverTypedDataAddress({ ...typed, signature } as never)).toBe(seller.address);
    // What the seller signs is the root the buyers' proofs lead to (`hashBulkListing(root, height)` on chain).
    const tree = bulkListing(orders.map(orderArgs));
    const typeHash = keccak256(
      toHex(
        "BulkListing(SignedListing[2][2] tree)SignedListing(address collection,uint256 tokenId,uint256 price,address seller,uint256 transferCount,uint256 counter,uint256 expiresAt,uint16 maxFeeBps)",
      ),
    );
    expect(hashStruct({ types: typed.types, primaryType: "BulkListing", data: typed.message as never })).toBe(
      keccak256(encodeAbiParameters([{ type: "bytes32" }, { type: "bytes32" }], [typeHash, tree.root])),
    );
  });
});

describe("listSeveralPath", () => {
  it("names the collection, lowercased, or none", () => {
    expect(listSeveralPath()).toBe("/List/several");
    expect(listSeveralPath("0xAbC")).toBe("/List/several?collection=0xabc");
  });
});
