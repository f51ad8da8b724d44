import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import { type Address, getAddress, parseEther, sha256, toHex } from "viem";
import { deployEasel, deploymentToEnv } from "../../src/deploy.ts";
import {
  easelCollectionAbi,
  easelFactoryAbi,
  easelMarketAbi,
  LAZY_MINT_DOMAIN,
  lazyMintVoucherTypes,
  SIGNED_LISTING_DOMAIN,
  SIGNED_LISTING_STATUS,
  signedListingMaxFeeBps,
  signedListingTypes,
} from "../../src/index.ts";

const cid = (seed: string): `0x${string}` => `0x01551220${sha256(toHex(seed)).slice(2)}`;

describe("deployEasel (generated artifacts, viem only)", async () => {
  const { viem, networkHelpers } = await network.create();
  const publicClient = await viem.getPublicClient();
  const [deployer, admin, signer, buyer] = await viem.getWalletClients();
  if (!deployer || !admin || !signer || !buyer) throw new Error("accounts");

  const deployment = await deployEasel({
    walletClient: deployer,
    publicClient,
    admin: admin.account.address,
    signer: signer.account.address,
    local: true,
  });
  const { market, factory, defaultCollection, ethUsdFeed, collectionImplementation } = deployment.contracts;

  it("records every address and hands the roles to the admin", async () => {
    assert.equal(deployment.chainId, 31337);
    assert.match(deployment.deployBlock, /^\d+$/);
    for (const address of [market, factory, defaultCollection, ethUsdFeed, collectionImplementation]) {
      assert.match(address ?? "", /^0x[0-9a-fA-F]{40}$/);
    }
    assert.equal(
      await publicClient.readContract({
        address: market as Address,
        abi: easelMarketAbi,
        functionName: "factory",
      }),
      factory,
    );
    const controller = await publicClient.readContract({
      address: market as Address,
      abi: easelMarketAbi,
      functionName: "CONTROLLER_ROLE",
    });
    const has = (account: Address) =>
      publicClient.readContract({
        address: market as Address,
        abi: easelMarketAbi,
        functionName: "hasRole",
        args: [controller, account],
      });
    assert.equal(await has(admin.account.address), true);
    assert.equal(await has(deployer.account.address), false, "deployer renounced its setup roles");
    const verified = await publicClient.readContract({
      address: market as Address,
      abi: easelMarketAbi,
      functionName: "isVerifiedArtist",
      args: [admin.account.address],
    });
    assert.equal(verified, true, "the local admin can mint");
    assert.match(deploymentToEnv(deployment), /^FACTORY_ADDRESS=0x[0-9a-fA-F]{40}$/m);
    assert.match(deploymentToEnv(deployment), /^ETH_USD_FEED_ADDRESS=0x/m);
  });

  it("mock ETH/USD feed answers like Chainlink", async () => {
    const feed = await viem.getContractAt("MockV3Aggregator", ethUsdFeed as Address);
    const [, answer] = await feed.read.latestRoundData();
    assert.equal(answer, 3_000n * 10n ** 8n);
    assert.equal(await feed.read.decimals(), 8);
  });

  it("a lazy-mint voucher signed with viem's signTypedData is accepted on chain", async () => {
    // Create a lazy collection through an admin-verified voucher path: the admin owns it.
    const collectionVoucher = {
      owner: admin.account.address,
      maxSupply: 10,
      name: "Night Walks",
      symbol: "NIGHT",
      category: "photography",
      deadline: BigInt(await networkHelpers.time.latest()) + 3600n,
    };
    const { LAZY_COLLECTION_DOMAIN, lazyCollectionVoucherTypes } = await import("../../src/constants.ts");
    const collectionSignature = await signer.signTypedData({
      domain: { ...LAZY_COLLECTION_DOMAIN, chainId: 31337, verifyingContract: factory as Address },
      types: lazyCollectionVoucherTypes,
      primaryType: "LazyCollectionVoucher",
      message: collectionVoucher,
    });
    const { result: lazy, request } = await publicClient.simulateContract({
      address: factory as Address,
      abi: easelFactoryAbi,
      functionName: "createLazyCollection",
      args: [{ ...collectionVoucher, signature: collectionSignature }],
      account: admin.account,
    });
    await publicClient.waitForTransactionReceipt({ hash: await admin.writeContract(request) });

    const price = parseEther("0.5");
    const voucher = {
      tokenId: 7n,
      price,
      royaltyBps: 500,
      cid: cid("metadata"),
      collaborators: [{ account: admin.account.address, share: 100 }],
      nonce: 0,
      deadline: BigInt(await networkHelpers.time.latest()) + 3600n,
    };
    // The buyer and the collection are part of what is signed, not of what is sent.
    const signature = await signer.signTypedData({
      domain: { ...LAZY_MINT_DOMAIN, chainId: 31337, verifyingContract: lazy },
      types: lazyMintVoucherTypes,
      primaryType: "LazyMintVoucher",
      message: { ...voucher, buyer: buyer.account.address, collection: lazy },
    });
    const before = await publicClient.getBalance({ address: admin.account.address });
    const hash = await buyer.writeContract({
      address: lazy,
      abi: easelCollectionAbi,
      functionName: "lazyMint",
      args: [{ ...voucher, signature }],
      value: price,
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, "success");
    const owner = await publicClient.readContract({
      address: lazy,
      abi: easelCollectionAbi,
      functionName: "ownerOf",
      args: [7n],
    });
    assert.equal(getAddress(owner), getAddress(buyer.account.address));
    const after = await publicClient.getBalance({ address: admin.account.address });
    assert.equal(after - before, parseEther("0.45"), "90% to the creator");
    const uri = await publicClient.readContract({
      address: lazy,
      abi: easelCollectionAbi,
      functionName: "tokenURI",
      args: [7n],
    });
    assert.match(uri, /^ipfs:\/\/bafkrei[a-z2-7]{52}$/);

    // The same voucher cannot be used twice.
    await assert.rejects(
      buyer.writeContract({
        address: lazy,
        abi: easelCollectionAbi,
        functionName: "lazyMint",
        args: [{ ...voucher, signature }],
        value: price,
      }),
      /RecordAlreadyRegistered/,
    );
  });

  it("a signed listing signed with viem's signTypedData is filled on chain, once", async () => {
    // The admin is a verified artist on the local chain: a token of the default collection, approved once.
    const { result: tokenId, request } = await publicClient.simulateContract({
      address: defaultCollection as Address,
      abi: easelCollectionAbi,
      functionName: "mintNFT",
      args: [500, cid("signed"), []],
      account: admin.account,
    });
    await publicClient.waitForTransactionReceipt({ hash: await admin.writeContract(request) });
    await publicClient.waitForTransactionReceipt({
      hash: await admin.writeContract({
        address: defaultCollection as Address,
        abi: easelCollectionAbi,
        functionName: "setApprovalForAll",
        args: [market as Address, true],
      }),
    });
    const order = {
      collection: defaultCollection as Address,
      tokenId,
      price: parseEther("1"),
      seller: admin.account.address,
      transferCount: 0n,
      counter: 0n,
      expiresAt: BigInt(await networkHelpers.time.latest()) + 86_400n,
      maxFeeBps: signedListingMaxFeeBps(
        await publicClient.readContract({
          address: market as Address,
          abi: easelMarketAbi,
          functionName: "config",
        }),
        false,
      ),
    };
    const signature = await admin.signTypedData({
      domain: { ...SIGNED_LISTING_DOMAIN, chainId: 31337, verifyingContract: market as Address },
      types: signedListingTypes,
      primaryType: "SignedListing",
      message: order,
    });
    const status = (s: `0x${string}`) =>
      publicClient.readContract({
        address: market as Address,
        abi: easelMarketAbi,
        functionName: "signedListingStatus",
        args: [order, s],
      });
    assert.equal(await status(signature), SIGNED_LISTING_STATUS.live);
    const hash = await buyer.writeContract({
      address: market as Address,
      abi: easelMarketAbi,
      functionName: "fillSignedListing",
      args: [order, signature],
      value: order.price,
    });
    assert.equal((await publicClient.waitForTransactionReceipt({ hash })).status, "success");
    assert.equal(await status(signature), SIGNED_LISTING_STATUS.void);
    await assert.rejects(
      buyer.writeContract({
        address: market as Address,
        abi: easelMarketAbi,
        functionName: "fillSignedListing",
        args: [order, signature],
        value: order.price,
      }),
      // The buyer now owns it and did not approve the market (Solady's NotOwnerNorApproved, 0x4b6e7f18, which
      // the market's ABI does not decode); the count moved anyway.
      /NotOwnerNorApproved|0x4b6e7f18/,
    );
  });
});
