const collectionToken = [
  { name: "collection", type: "address", internalType: "address" },
  { name: "tokenId", type: "uint256", internalType: "uint256" },
] as const;

/**
 * The functions of the market contract (packages/contracts `easelMarketAbi`) that the accounts screens
 * call: artist verification and blocking (moderators), and the cancellations a banned user may still make. Kept as a
 * fragment so the bundle does not carry the contracts' bytecode; `marketAbi.test.ts` checks it against
 * the full ABI.
 */
export const marketAbi = [
  {
    type: "function",
    name: "isVerifiedArtist",
    stateMutability: "view",
    inputs: [{ name: "account", type: "address", internalType: "address" }],
    outputs: [{ name: "", type: "bool", internalType: "bool" }],
  },
  {
    type: "function",
    name: "setArtistVerified",
    stateMutability: "nonpayable",
    inputs: [
      { name: "account", type: "address", internalType: "address" },
      { name: "verified", type: "bool", internalType: "bool" },
    ],
    outputs: [],
  },
  {
    type: "function",
    name: "isCollectionBlocked",
    stateMutability: "view",
    inputs: [{ name: "", type: "address", internalType: "address" }],
    outputs: [{ name: "", type: "bool", internalType: "bool" }],
  },
  {
    type: "function",
    name: "isTokenBlocked",
    stateMutability: "view",
    inputs: [
      { name: "", type: "address", internalType: "address" },
      { name: "", type: "uint256", internalType: "uint256" },
    ],
    outputs: [{ name: "", type: "bool", internalType: "bool" }],
  },
  {
    type: "function",
    name: "setCollectionBlocked",
    stateMutability: "nonpayable",
    inputs: [
      { name: "collection", type: "address", internalType: "address" },
      { name: "blocked", type: "bool", internalType: "bool" },
    ],
    outputs: [],
  },
  {
    type: "function",
    name: "setTokenBlocked",
    stateMutability: "nonpayable",
    inputs: [...collectionToken, { name: "blocked", type: "bool", internalType: "bool" }],
    outputs: [],
  },
  {
    type: "function",
    name: "cancelSellOrder",
    stateMutability: "nonpayable",
    inputs: collectionToken,
    outputs: [],
  },
  {
    type: "function",
    name: "invalidateAuction",
    stateMutability: "nonpayable",
    inputs: collectionToken,
    outputs: [],
  },
  {
    type: "function",
    name: "cancelOffer",
    stateMutability: "nonpayable",
    inputs: collectionToken,
    outputs: [],
  },
] as const;
