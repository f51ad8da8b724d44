// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {MerkleProofLib} from "solady/src/utils/MerkleProofLib.sol";
import {MarketCore} from "./MarketCore.sol";

/// @title CollectionOffers
/// @notice Offers on up to `quantity` tokens of a collection at one price each, escrowed in ETH: on any token of
/// the collection, or only on the tokens whose ids are in a Merkle root the offer names (a trait offer: the app
/// builds the root from the ids that carry the trait). Any owner of a matching token accepts it, one token at a
/// time, until none is left; every rule of `acceptOffer` applies (locks, bans of both parties, the blocked
/// collection and token, the owner's approval, never the offerer themselves). The offerer cancels the rest at any
/// time and is refunded at once; after its expiry nobody can accept it, and anyone may return the rest to the
/// offerer (sent, or credited if their account refuses ETH): `cancelCollectionOffer`, with the views, is in
/// `EaselMarketAdmin`. The terms (`CollectionOffer`) are not stored: the market keeps, under their hash, how many
/// tokens the offer still buys, and every call passes them again. The same terms made twice add up.
abstract contract CollectionOffers is MarketCore {
    uint8 private constant _MECHANISM_COLLECTION_OFFER = 5;
    /// @notice The most tokens one collection offer buys.
    uint256 internal constant MAX_OFFER_QUANTITY = 10_000;

    /// @notice Makes a collection offer, or adds `quantity` tokens to the same terms made before; sends exactly
    /// `offer.price * quantity`.
    /// @param offer The terms: the caller as buyer, an Easel collection that is not blocked, a price each from
    /// the offer minimum to `MAX_PRICE`, an expiry after now and at most 100 days ahead.
    function makeCollectionOffer(CollectionOffer calldata offer, uint256 quantity) external payable nonReentrant {
        Hot storage c = _config;
        _checkOpen(c);
        _checkNotBanned(msg.sender);
        if (offer.buyer != msg.sender) revert NotCollectionOfferBuyer(msg.sender, offer.buyer);
        _checkCollection(offer.collection);
        uint256 price = offer.price;
        _checkPrice(price, _minimum(c.offerMinimum));
        _checkOfferExpiry(offer.expiresAt);
        if (quantity == 0 || quantity > MAX_OFFER_QUANTITY) revert QuantityOutOfRange(quantity, MAX_OFFER_QUANTITY);
        bytes32 offerId = _collectionOfferId(offer);
        uint256 remaining = _collectionOffers[offerId] + quantity;
        if (remaining > MAX_OFFER_QUANTITY) revert QuantityOutOfRange(quantity, MAX_OFFER_QUANTITY);
        // price <= 2^80 and quantity <= 10,000: no overflow.
        if (msg.value != price * quantity) revert IncorrectPayment(price * quantity, msg.value);
        _collectionOffers[offerId] = remaining;
        emit CollectionOfferMade(
            offerId, offer.collection, msg.sender, offer.tokenRoot, price, offer.expiresAt, quantity, remaining
        );
    }

    /// @notice Sells the caller's token `tokenId` to a collection offer before it expires: the caller owns it and
    /// approved the market.
    /// @param proof For an offer with a token root: the sibling hashes that show `tokenId` is in it (empty
    /// otherwise).
    function acceptCollectionOffer(CollectionOffer calldata offer, uint256 tokenId, bytes32[] calldata proof)
        external
        nonReentrant
    {
        Hot storage c = _config;
        _checkOpen(c);
        _checkNotBanned(msg.sender);
        address collection = offer.collection;
        // The collection refuses the sale itself while it or the token is blocked (its copy of the token's
        // block, minted or not); only its code hash is checked here.
        if (!_isEaselCollection(collection)) revert CollectionNotSupported(collection);
        if (block.timestamp >= offer.expiresAt) revert OfferExpired(offer.expiresAt);
        bytes32 offerId = _collectionOfferId(offer);
        uint256 remaining = _collectionOffers[offerId];
        if (remaining == 0) revert NoCollectionOffer(offerId);
        bytes32 root = offer.tokenRoot;
        if (root != 0 && !MerkleProofLib.verifyCalldata(proof, root, keccak256(abi.encode(tokenId)))) {
            revert TokenNotInOffer(tokenId);
        }
        address buyer = offer.buyer;
        if (buyer == msg.sender) revert CannotAcceptOwnOffer(msg.sender);
        _checkNotBanned(buyer);
        unchecked {
            --remaining;
        }
        _collectionOffers[offerId] = remaining;
        emit CollectionOfferAccepted(offerId, tokenId, msg.sender, remaining);
        // The transfer changes the token's transfer count, which voids any listing of it.
        uint256 terms = _deliverFrom(collection, tokenId, msg.sender, buyer);
        _payout(c, collection, tokenId, terms, buyer, offer.price, _MECHANISM_COLLECTION_OFFER);
    }
}
