// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {SellOrders} from "./SellOrders.sol";
import {SignedListings} from "./SignedListings.sol";

/// @title Carts
/// @notice Buys several tokens in one transaction, across collections and sellers: on-chain listings
/// (`buyNow`'s) and signed listings, single or bulk (`fillSignedListing`'s and `fillBulkSignedListing`'s). Each
/// purchase follows every rule of its single form and pays out the same way, with the same events (one `Sale`
/// each). The ETH sent is the most the buyer spends: purchases are made in order (the listed ones first), one
/// whose price would take the total above it is not made, and whatever is not spent is refunded in the same
/// transaction (sent, or credited if the buyer's account refuses ETH). By default a purchase that cannot be made
/// (sold, cancelled, repriced, refused) is skipped (`PurchaseSkipped`, with the reason) and its price refunded;
/// `allOrNothing` makes any such purchase revert the whole transaction instead.
abstract contract Carts is SellOrders, SignedListings {
    /// @notice The most purchases one transaction makes.
    uint256 internal constant MAX_CART = 50;

    /// @notice A token listed on chain (`setSellOrder`), at the price the buyer expects to pay.
    struct ListedPurchase {
        address collection;
        uint256 tokenId;
        uint256 price;
    }

    /// @notice A signed listing and its signature; for a listing from a bulk signature, its leaf index and proof
    /// (as `bulkSignedListingStatus` takes them), else an empty proof.
    struct SignedPurchase {
        SignedListing order;
        bytes signature;
        uint256 bulkIndex;
        bytes32[] bulkProof;
    }

    /// @notice A purchase of a cart was not made and its price stayed with the buyer: `reason` is the revert data
    /// of its single form (`SpendCapReached` when the ETH sent was spent).
    event PurchaseSkipped(
        address indexed collection, uint256 indexed tokenId, address indexed buyer, uint256 price, bytes reason
    );

    /// @notice A cart holds 1 to 50 purchases.
    error CartSizeOutOfRange(uint256 size, uint256 max);
    /// @notice The purchase's `price` is above what is left of the ETH sent (`left`).
    error SpendCapReached(uint256 price, uint256 left);
    /// @notice A cart's single purchases are the market's own calls.
    error OnlyMarket(address caller);

    /// @notice Buys every purchase it can, paying with the ETH sent (the cap on the total), and refunds the rest.
    /// @param allOrNothing Revert the whole transaction, with its reason, if any purchase cannot be made.
    function buyMany(ListedPurchase[] calldata listed, SignedPurchase[] calldata signed, bool allOrNothing)
        external
        payable
        nonReentrant
    {
        uint256 size = listed.length + signed.length;
        if (size == 0 || size > MAX_CART) revert CartSizeOutOfRange(size, MAX_CART);
        uint256 left = msg.value;
        for (uint256 i; i < listed.length; ++i) {
            ListedPurchase calldata p = listed[i];
            uint256 price = p.price;
            bool bought;
            if (price > left) {
                _skip(allOrNothing, p.collection, p.tokenId, price, abi.encodeWithSelector(SpendCapReached.selector, price, left));
            } else if (allOrNothing) {
                _buyListed(p.collection, p.tokenId, price, msg.sender);
                bought = true;
            } else {
                try this.buyListedFor(p.collection, p.tokenId, price, msg.sender) {
                    bought = true;
                } catch (bytes memory reason) {
                    _skip(false, p.collection, p.tokenId, price, reason);
                }
            }
            // price <= left when bought.
            unchecked {
                if (bought) left -= price;
            }
        }
        for (uint256 i; i < signed.length; ++i) {
            SignedPurchase calldata p = signed[i];
            uint256 price = p.order.price;
            bool bought;
            if (price > left) {
                _skip(
                    allOrNothing,
                    p.order.collection,
                    p.order.tokenId,
                    price,
                    abi.encodeWithSelector(SpendCapReached.selector, price, left)
                );
            } else if (allOrNothing) {
                _fillSignedPurchase(p, msg.sender);
                bought = true;
            } else {
                try this.fillSignedPurchaseFor(p, msg.sender) {
                    bought = true;
                } catch (bytes memory reason) {
                    _skip(false, p.order.collection, p.order.tokenId, price, reason);
                }
            }
            unchecked {
                if (bought) left -= price;
            }
        }
        if (left != 0) _send(msg.sender, left);
    }

    /// @notice One on-chain listing of a cart, for `buyer`, paid from the cart's ETH. Only the market calls it
    /// (from `buyMany`, inside its reentrancy lock): a failure here undoes this purchase alone.
    function buyListedFor(address collection, uint256 tokenId, uint256 price, address buyer) external {
        if (msg.sender != address(this)) revert OnlyMarket(msg.sender);
        _buyListed(collection, tokenId, price, buyer);
    }

    /// @notice One signed listing of a cart, for `buyer`; as `buyListedFor`.
    function fillSignedPurchaseFor(SignedPurchase calldata p, address buyer) external {
        if (msg.sender != address(this)) revert OnlyMarket(msg.sender);
        _fillSignedPurchase(p, buyer);
    }

    function _fillSignedPurchase(SignedPurchase calldata p, address buyer) private {
        bytes32 digest = p.bulkProof.length == 0
            ? _signedListingDigest(p.order)
            : _bulkListingDigest(p.order, p.bulkIndex, p.bulkProof);
        _fillSigned(p.order, digest, p.signature, buyer, p.order.price);
    }

    /// @dev Records a purchase not made, or reverts with its reason when the cart is all or nothing.
    function _skip(bool allOrNothing, address collection, uint256 tokenId, uint256 price, bytes memory reason)
        private
    {
        if (allOrNothing) {
            assembly ("memory-safe") {
                revert(add(reason, 0x20), mload(reason))
            }
        }
        emit PurchaseSkipped(collection, tokenId, msg.sender, price, reason);
    }
}
