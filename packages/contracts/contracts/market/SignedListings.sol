// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {MarketCore} from "./MarketCore.sol";

/// @title SignedListings
/// @notice Fixed-price listings the seller signs (EIP-712 `SignedListing`, see `MarketCore`) instead of sending
/// `setSellOrder`: listing costs nothing, and anyone fills the listing with the exact price. Every rule of
/// `buyNow` applies (the lock, the bans of the buyer, the seller and the payees, the blocked collection and
/// token, the listing minimum, the seller's approval) and the payout is `buyNow`'s (`_payout`, with `Sale`
/// mechanism 4), and while the market's entrance is locked no signed listing fills either (signing one is
/// listing: the lock pauses the orders signed before it as well as new ones). The fee that applies must not be
/// above the order's `maxFeeBps`. A filled listing cannot be filled again: the sale changes the token's transfer
/// count, which the listing names, so no fill writes a "filled" mark. The seller voids a signed listing with `cancelSignedListing`
/// (every listing of that token: the collection counts one transfer without moving it) or
/// `incrementListingCounter` (all of theirs); both, and the views, are in `EaselMarketAdmin`.
abstract contract SignedListings is MarketCore {
    uint8 private constant _MECHANISM_SIGNED_LISTING = 4;

    /// @notice Buys a token at the price its owner signed, sending exactly that price.
    /// @param order The signed listing, as signed.
    /// @param signature The seller's: 65 bytes (r, s, v) for an account with a key, or what the seller
    /// contract's `isValidSignature` accepts.
    function fillSignedListing(SignedListing calldata order, bytes calldata signature) external payable nonReentrant {
        _fillSigned(order, _signedListingDigest(order), signature, msg.sender, msg.value);
    }

    /// @notice Buys a token listed with one signature over many listings (a bulk listing, `BulkListing`: see
    /// `MarketCore._bulkListingDigest`), sending exactly its price. Every rule of `fillSignedListing` applies,
    /// and the listing is voided the same ways (its token's transfer count, the seller's counter, its expiry).
    /// @param bulkSignature The listing's place in the signed tree, then the seller's signature over the tree,
    /// packed: one byte for the tree's height h (1 to 10), two bytes for the listing's leaf index, the h sibling
    /// hashes from the leaf up, then the signature as `fillSignedListing` takes it (`packBulkSignature` in
    /// `src/orders.ts`). As Seaport packs its bulk signatures: the index and the proof take no ABI words of their
    /// own (an offset, a length and a 32-byte index, about 400 gas of calldata).
    function fillBulkSignedListing(SignedListing calldata order, bytes calldata bulkSignature)
        external
        payable
        nonReentrant
    {
        uint256 height;
        uint256 index;
        uint256 proofOffset;
        bytes calldata signature;
        assembly ("memory-safe") {
            let header := calldataload(bulkSignature.offset)
            height := shr(248, header)
            index := and(shr(232, header), 0xffff)
            proofOffset := add(bulkSignature.offset, 3)
            let signatureStart := add(3, shl(5, height))
            // Shorter than its own header and proof: height 0, which `_bulkListingDigest` refuses (nothing past
            // `bulkSignature` is used).
            if gt(signatureStart, bulkSignature.length) {
                height := 0
                signatureStart := bulkSignature.length
            }
            signature.offset := add(bulkSignature.offset, signatureStart)
            signature.length := sub(bulkSignature.length, signatureStart)
        }
        _fillSigned(order, _bulkListingDigest(order, index, proofOffset, height), signature, msg.sender, msg.value);
    }

    /// @dev Fills `order`, signed over `digest`, for `buyer`, who paid `paid` (exactly the price, or it reverts).
    function _fillSigned(
        SignedListing calldata order,
        bytes32 digest,
        bytes calldata signature,
        address buyer,
        uint256 paid
    ) internal {
        Hot storage c = _config;
        // The settings slot as one word (layout on `Hot`): the locks, the listing minimum and, after the
        // transfer, the fee rates. Nothing in the fill writes it before `_payout`.
        uint256 settings;
        assembly ("memory-safe") {
            settings := sload(c.slot)
        }
        if (uint8(settings >> LOCKED_SHIFT) != 0) revert MarketIsLocked();
        if (uint8(settings >> ENTRANCE_LOCKED_SHIFT) != 0) revert MarketEntranceIsLocked();
        _checkNotBanned(buyer);
        address collection = order.collection;
        uint256 tokenId = order.tokenId;
        // The collection refuses the sale itself while it or the token is blocked (it keeps a copy of the
        // token's block in the token's slot, which the sale reads anyway): only its code hash is checked here, and
        // the market's token slot is not read (a cold slot, 2,100 gas).
        if (!_isEaselCollection(collection)) revert CollectionNotSupported(collection);
        uint256 price = order.price;
        if (paid != price) revert IncorrectPayment(price, paid);
        _checkPrice(price, _minimum(uint24(settings >> LISTING_MINIMUM_SHIFT)));
        uint256 expiresAt = order.expiresAt;
        if (block.timestamp >= expiresAt) revert SellOrderExpired(expiresAt);
        // `expiresAt` > now (checked above): the difference cannot underflow. The chain never sees the signing,
        // so the 100-day bound is checked here.
        if (expiresAt - block.timestamp > SELL_ORDER_DURATION) {
            revert ExpiryTooFar(expiresAt, block.timestamp + SELL_ORDER_DURATION);
        }
        address seller = order.seller;
        if (seller == buyer) revert TokenOwnerCannotCall(buyer);
        // The seller's flags hold their ban and their listing counter: one read.
        uint256 flags;
        assembly ("memory-safe") {
            mstore(0x00, seller)
            mstore(0x20, _accounts.slot)
            flags := sload(keccak256(0x00, 0x40))
        }
        if (flags & BANNED != 0) revert UserIsBanned(seller);
        if (order.counter != flags >> COUNTER_SHIFT) revert ListingCounterChanged(order.counter, flags >> COUNTER_SHIFT);
        if (!_isSellerSignature(seller, digest, signature)) revert InvalidSellerSignature(seller);
        // The transfer and the checks below are one atomic step: a failed check undoes the transfer.
        uint256 terms = _deliverPurchase(collection, tokenId, buyer);
        uint256 transferCount = _termsWord(terms, 3);
        if (transferCount != order.transferCount) revert SellOrderVoid(order.transferCount, transferCount);
        // A listing signed for a token the seller does not own (or that the market holds for an auction).
        address owner = address(uint160(_termsWord(terms, 0)));
        if (owner != seller) revert OnlyTokenOwner(seller, owner);
        // The rate `_payout` will take: the primary commission (bits 0-15) on a primary sale, else the secondary
        // fee (bits 16-31).
        uint256 feeBps = uint16(_termsWord(terms, 4) != 0 ? settings : settings >> 16);
        if (feeBps > order.maxFeeBps) revert FeeAboveSignedMax(feeBps, order.maxFeeBps);
        _payout(c, collection, tokenId, terms, buyer, price, _MECHANISM_SIGNED_LISTING);
    }
}
