/**
 * Gas benchmark: runs each operation as a real transaction on Hardhat's in-process chain and writes the
 * receipts' gasUsed (21,000 base included) to gas-report.json, then prints a table.
 * Run: npm run bench:gas (from the root or -w @easel/contracts).
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { network } from "hardhat";
import { type Address, type Hash, parseEther, sha256, toHex } from "viem";
import {
  LAZY_COLLECTION_DOMAIN,
  LAZY_MINT_DOMAIN,
  lazyCollectionVoucherTypes,
  lazyMintVoucherTypes,
} from "../src/constants.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { viem, networkHelpers } = await network.create();
const publicClient = await viem.getPublicClient();
const [admin, artist, buyer, bidder1, bidder2, signer, c1, c2, c3, c4] = await viem.getWalletClients();
if (!admin || !artist || !buyer || !bidder1 || !bidder2 || !signer || !c1 || !c2 || !c3 || !c4) {
  throw new Error("not enough accounts");
}

const cid = (seed: string): `0x${string}` => `0x01551220${sha256(toHex(seed)).slice(2)}`;
const report: Record<string, bigint> = {};
async function measure(name: string, hash: Promise<Hash>) {
  const receipt = await publicClient.waitForTransactionReceipt({ hash: await hash });
  if (receipt.status !== "success") throw new Error(`${name} reverted`);
  report[name] = receipt.gasUsed;
}

const market = await viem.deployContract("EaselMarket", [admin.account.address, signer.account.address]);
const factory = await viem.getContractAt("EaselFactory", await market.read.factory());
await market.write.setArtistVerified([artist.account.address, true]);

// Collections.
const created = await factory.simulate.createCollection(["Sunset Studies", "SUN", "painting"], {
  account: artist.account.address,
});
await measure(
  "createCollection",
  factory.write.createCollection(created.request.args, { account: artist.account }),
);
const collection = await viem.getContractAt("EaselCollection", created.result);

const chainId = await publicClient.getChainId();
const deadline = BigInt(await networkHelpers.time.latest()) + 3600n;
const lazyCollectionVoucher = {
  owner: artist.account.address,
  maxSupply: 100,
  name: "Night Walks",
  symbol: "NIGHT",
  category: "photography",
  deadline,
};
const collectionSignature = await signer.signTypedData({
  domain: { ...LAZY_COLLECTION_DOMAIN, chainId, verifyingContract: factory.address },
  types: lazyCollectionVoucherTypes,
  primaryType: "LazyCollectionVoucher",
  message: lazyCollectionVoucher,
});
const lazyArgs = [{ ...lazyCollectionVoucher, signature: collectionSignature }] as const;
const lazyCreated = await factory.simulate.createLazyCollection(lazyArgs, {
  account: artist.account.address,
});
await measure(
  "createLazyCollection",
  factory.write.createLazyCollection(lazyArgs, { account: artist.account }),
);
const lazy = await viem.getContractAt("EaselCollection", lazyCreated.result);

// Minting: the artist's first token in a fresh collection (so the balance slot is new too).
await measure("mint", collection.write.mintNFT([1000, cid("1"), 1n, []], { account: artist.account }));
const split = [artist, c1, c2, c3, c4].map((w, i) => ({
  account: w.account.address,
  share: i === 0 ? 60 : 10,
}));
await measure(
  "mintSplit5",
  collection.write.mintNFT([1000, cid("2"), 2n, split], { account: artist.account }),
);
for (const id of [3n, 4n, 5n, 6n, 7n, 8n]) {
  await collection.write.mintNFT([1000, cid(id.toString()), id, []], { account: artist.account });
}
await collection.write.setApprovalForAll([market.address, true], { account: artist.account });

// Fixed price: primary sale, one recipient, buyer's first token.
const price = parseEther("1");
await measure(
  "setSellOrder",
  market.write.setSellOrder([collection.address, 1n, price], { account: artist.account }),
);
await measure(
  "buyNow",
  market.write.buyNow([collection.address, 1n], { account: buyer.account, value: price }),
);
await market.write.setSellOrder([collection.address, 3n, price], { account: artist.account });
await measure(
  "cancelSellOrder",
  market.write.cancelSellOrder([collection.address, 3n], { account: artist.account }),
);

// Auctions.
const now = BigInt(await networkHelpers.time.latest());
await measure(
  "setStandardAuction",
  market.write.setStandardAuction([collection.address, 4n, price, now, 86_400n], { account: artist.account }),
);
await measure(
  "setReserveAuction",
  market.write.setReserveAuction([collection.address, 5n, parseEther("0.5")], { account: artist.account }),
);
await measure(
  "placeBidFirst",
  market.write.placeBid([collection.address, 4n], { account: bidder1.account, value: price }),
);
await measure(
  "placeBidOutbid",
  market.write.placeBid([collection.address, 4n], { account: bidder2.account, value: parseEther("1.1") }),
);
await networkHelpers.time.increase(86_400);
await measure(
  "completeAuction",
  market.write.completeAuction([collection.address, 4n], { account: bidder2.account }),
);

// Offers.
const offer = parseEther("0.2");
await measure(
  "makeOffer",
  market.write.makeOffer([collection.address, 6n], { account: buyer.account, value: offer }),
);
await measure(
  "updateOffer",
  market.write.makeOffer([collection.address, 6n], { account: buyer.account, value: offer }),
);
await measure(
  "acceptOffer",
  market.write.acceptOffer([collection.address, 6n, 0n], { account: artist.account }),
);
await market.write.makeOffer([collection.address, 7n], { account: bidder1.account, value: offer });
await measure(
  "cancelOffer",
  market.write.cancelOffer([collection.address, 7n], { account: bidder1.account }),
);

// Lazy mint: voucher for one buyer, exact payment, one recipient.
const lazyPrice = parseEther("0.5");
const mintVoucher = {
  price: lazyPrice,
  buyer: bidder1.account.address as Address,
  royaltyBps: 500,
  collection: lazy.address,
  cid: cid("lazy"),
  tokenId: 1001n,
  collaborators: [] as { account: Address; share: number }[],
  deadline: BigInt(await networkHelpers.time.latest()) + 3600n,
};
const mintSignature = await signer.signTypedData({
  domain: { ...LAZY_MINT_DOMAIN, chainId, verifyingContract: lazy.address },
  types: lazyMintVoucherTypes,
  primaryType: "LazyMintVoucher",
  message: mintVoucher,
});
await measure(
  "lazyMint",
  lazy.write.lazyMint([{ ...mintVoucher, signature: mintSignature }], {
    account: bidder1.account,
    value: lazyPrice,
  }),
);

const order = [
  "createCollection",
  "createLazyCollection",
  "mint",
  "mintSplit5",
  "setSellOrder",
  "buyNow",
  "cancelSellOrder",
  "setStandardAuction",
  "setReserveAuction",
  "placeBidFirst",
  "placeBidOutbid",
  "completeAuction",
  "makeOffer",
  "updateOffer",
  "acceptOffer",
  "cancelOffer",
  "lazyMint",
] as const;
const targets: Partial<Record<(typeof order)[number], number>> = {
  createCollection: 170_000,
  mint: 120_000,
  setSellOrder: 70_000,
  buyNow: 95_000,
  placeBidFirst: 85_000,
  lazyMint: 125_000,
};
const json: Record<string, number> = {};
for (const name of order) {
  const gas = report[name];
  if (gas === undefined) throw new Error(`missing measurement: ${name}`);
  json[name] = Number(gas);
}
writeFileSync(join(root, "gas-report.json"), `${JSON.stringify(json, null, 2)}\n`);
console.table(
  order.map((name) => ({
    operation: name,
    gasUsed: json[name],
    target: targets[name] ?? "",
    status: targets[name] === undefined ? "" : (json[name] ?? 0) <= (targets[name] ?? 0) ? "ok" : "OVER",
  })),
);
console.log(`wrote ${join(root, "gas-report.json")}`);
