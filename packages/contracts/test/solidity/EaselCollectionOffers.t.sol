// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {Base} from "./Base.sol";
import {ERC721} from "solady/src/tokens/ERC721.sol";
import {Vm} from "./Vm.sol";
import {TestActor} from "../../contracts/test/TestActor.sol";
import {EaselCollection} from "../../contracts/EaselCollection.sol";
import {MarketCore} from "../../contracts/market/MarketCore.sol";
import {CollectionOffers} from "../../contracts/market/CollectionOffers.sol";
import {EaselMarketAdmin} from "../../contracts/EaselMarketAdmin.sol";
import {Collaborator} from "../../contracts/interfaces/IEaselTypes.sol";
import {MerkleProofLib} from "solady/src/utils/MerkleProofLib.sol";

/// @dev Token roots for trait offers, built as `src/orders.ts` `tokenRoot` builds them: leaves
/// `keccak256(abi.encode(id))` in the given order, sorted-pair hashing (Solady's `MerkleProofLib`), an odd node out
/// rising to the next level unchanged.
library TokenTree {
    function leaf(uint256 id) internal pure returns (bytes32) {
        return keccak256(abi.encode(id));
    }

    function hashPair(bytes32 a, bytes32 b) internal pure returns (bytes32) {
        return a < b ? keccak256(abi.encodePacked(a, b)) : keccak256(abi.encodePacked(b, a));
    }

    function _next(bytes32[] memory level) private pure returns (bytes32[] memory next) {
        next = new bytes32[]((level.length + 1) / 2);
        for (uint256 i; i < level.length; i += 2) {
            next[i / 2] = i + 1 < level.length ? hashPair(level[i], level[i + 1]) : level[i];
        }
    }

    function _leaves(uint256[] memory ids) private pure returns (bytes32[] memory level) {
        level = new bytes32[](ids.length);
        for (uint256 i; i < ids.length; ++i) level[i] = leaf(ids[i]);
    }

    function root(uint256[] memory ids) internal pure returns (bytes32) {
        bytes32[] memory level = _leaves(ids);
        while (level.length > 1) level = _next(level);
        return level[0];
    }

    /// @dev The sibling path of `ids[index]`, from the leaf up (levels where the node rises alone add nothing).
    function proof(uint256[] memory ids, uint256 index) internal pure returns (bytes32[] memory path) {
        bytes32[] memory level = _leaves(ids);
        path = new bytes32[](32);
        uint256 n;
        while (level.length > 1) {
            uint256 sibling = index ^ 1;
            if (sibling < level.length) path[n++] = level[sibling];
            level = _next(level);
            index >>= 1;
        }
        assembly ("memory-safe") {
            mstore(path, n)
        }
    }

    function range(uint256 from, uint256 count) internal pure returns (uint256[] memory ids) {
        ids = new uint256[](count);
        for (uint256 i; i < count; ++i) ids[i] = from + i;
    }
}

/// @dev Collection and trait offers (`CollectionOffers`), tested by someone trying to break each rule at its edge.
contract EaselCollectionOffersTest is Base {
    uint256 internal constant MAX_PRICE = type(uint80).max;
    uint256 internal constant MIN_OFFER = 0.05 ether;
    uint256 internal constant MAX_QTY = 10_000;

    address internal c;
    address internal collab = address(0xC0);

    function setUp() public override {
        super.setUp();
        c = address(collection);
    }

    // ------------------------------------------------------------ helpers

    function terms(address who, bytes32 root, uint256 price, uint256 expiresAt)
        internal
        view
        returns (MarketCore.CollectionOffer memory)
    {
        return MarketCore.CollectionOffer({buyer: who, collection: c, tokenRoot: root, price: price, expiresAt: expiresAt});
    }

    /// @dev A fresh copy (memory structs alias on assignment).
    function copy(MarketCore.CollectionOffer memory o) internal pure returns (MarketCore.CollectionOffer memory) {
        return MarketCore.CollectionOffer(o.buyer, o.collection, o.tokenRoot, o.price, o.expiresAt);
    }

    function anyToken(address who, uint256 price) internal view returns (MarketCore.CollectionOffer memory) {
        return terms(who, bytes32(0), price, block.timestamp + 7 days);
    }

    function make(MarketCore.CollectionOffer memory o, uint256 quantity) internal returns (bytes32 id) {
        vm.prank(o.buyer);
        market.makeCollectionOffer{value: o.price * quantity}(o, quantity);
        return keccak256(abi.encode(o));
    }

    function make2(MarketCore.CollectionOffer memory o, uint256 quantity)
        internal
        returns (MarketCore.CollectionOffer memory)
    {
        make(o, quantity);
        return o;
    }

    function accept(address seller, MarketCore.CollectionOffer memory o, uint256 tokenId) internal {
        vm.prank(seller);
        market.acceptCollectionOffer(o, tokenId, new bytes32[](0));
    }

    function remaining(MarketCore.CollectionOffer memory o) internal view returns (uint256) {
        return marketAdmin.collectionOfferRemaining(keccak256(abi.encode(o)));
    }

    function mintAll(uint256 count) internal {
        for (uint256 i = 1; i <= count; ++i) mint(i);
        vm.prank(artist);
        collection.setApprovalForAll(address(market), true);
    }

    function noOffer(MarketCore.CollectionOffer memory o) internal pure returns (bytes memory) {
        return abi.encodeWithSelector(MarketCore.NoCollectionOffer.selector, keccak256(abi.encode(o)));
    }

    /// @dev What the market must hold: the given escrows + credits + held payments + fees.
    function assertConservation(uint256 escrows, string memory what) internal view {
        assertEq(
            address(market).balance,
            escrows + marketAdmin.totalCredits() + marketAdmin.totalHeld() + marketAdmin.feesAvailable(),
            what
        );
    }

    // ------------------------------------------------------------ make: quantity

    function test_make_quantityZeroOneMaxAndOverMax() public {
        vm.deal(buyer, 10_000 ether);
        MarketCore.CollectionOffer memory o = anyToken(buyer, MIN_OFFER);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.QuantityOutOfRange.selector, 0, MAX_QTY));
        market.makeCollectionOffer{value: 0}(o, 0);

        make(o, 1);
        assertEq(remaining(o), 1, "one");

        MarketCore.CollectionOffer memory big = anyToken(buyer, MIN_OFFER + 1);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.QuantityOutOfRange.selector, MAX_QTY + 1, MAX_QTY));
        market.makeCollectionOffer{value: big.price * (MAX_QTY + 1)}(big, MAX_QTY + 1);
        make(big, MAX_QTY);
        assertEq(remaining(big), MAX_QTY, "ten thousand");
        assertConservation(MIN_OFFER + big.price * MAX_QTY, "escrows");
    }

    function test_make_sameTermsAddUpButNeverPastTheMaximum() public {
        vm.deal(buyer, 10_000 ether);
        MarketCore.CollectionOffer memory o = anyToken(buyer, MIN_OFFER);
        bytes32 id = keccak256(abi.encode(o));
        make(o, 9_998);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.QuantityOutOfRange.selector, 3, MAX_QTY));
        market.makeCollectionOffer{value: MIN_OFFER * 3}(o, 3);
        vm.expectEmit();
        emit MarketCore.CollectionOfferMade(id, c, buyer, bytes32(0), MIN_OFFER, o.expiresAt, 2, MAX_QTY);
        make(o, 2);
        assertEq(remaining(o), MAX_QTY, "full");
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.QuantityOutOfRange.selector, 1, MAX_QTY));
        market.makeCollectionOffer{value: MIN_OFFER}(o, 1);
        // Once some are sold, the same terms may be topped up again, to the maximum.
        mintAll(1);
        accept(artist, o, 1);
        assertEq(remaining(o), MAX_QTY - 1, "one sold");
        make(o, 1);
        assertEq(remaining(o), MAX_QTY, "topped up");
    }

    /// An absurd quantity must not slip past the cap by overflowing `remaining + quantity`; it is refused with the
    /// documented error.
    function test_attack_make_quantityOverflowIsRefusedAsOutOfRange() public {
        MarketCore.CollectionOffer memory o = anyToken(buyer, MIN_OFFER);
        make(o, 1);
        vm.prank(buyer);
        vm.expectRevert(
            abi.encodeWithSelector(MarketCore.QuantityOutOfRange.selector, type(uint256).max, MAX_QTY)
        );
        market.makeCollectionOffer{value: 0}(o, type(uint256).max);
        assertEq(remaining(o), 1, "unchanged");
    }

    // ------------------------------------------------------------ make: payment, price, expiry

    function test_make_paymentOffByOneWeiEitherWay() public {
        MarketCore.CollectionOffer memory o = anyToken(buyer, 0.3 ether + 1);
        uint256 due = o.price * 3;
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.IncorrectPayment.selector, due, due - 1));
        market.makeCollectionOffer{value: due - 1}(o, 3);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.IncorrectPayment.selector, due, due + 1));
        market.makeCollectionOffer{value: due + 1}(o, 3);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.IncorrectPayment.selector, due, o.price));
        market.makeCollectionOffer{value: o.price}(o, 3);
        make(o, 3);
        assertEq(address(market).balance, due, "exactly escrowed");
        assertEq(remaining(o), 3, "three");
    }

    function test_make_priceBoundsToTheWei() public {
        vm.prank(buyer);
        vm.expectRevert(
            abi.encodeWithSelector(MarketCore.PriceOutOfRange.selector, MIN_OFFER - 1, MIN_OFFER, MAX_PRICE)
        );
        market.makeCollectionOffer{value: MIN_OFFER - 1}(anyToken(buyer, MIN_OFFER - 1), 1);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.PriceOutOfRange.selector, 0, MIN_OFFER, MAX_PRICE));
        market.makeCollectionOffer{value: 0}(anyToken(buyer, 0), 1);
        make(anyToken(buyer, MIN_OFFER), 1);

        vm.deal(buyer, MAX_PRICE + 2);
        vm.prank(buyer);
        vm.expectRevert(
            abi.encodeWithSelector(MarketCore.PriceOutOfRange.selector, MAX_PRICE + 1, MIN_OFFER, MAX_PRICE)
        );
        market.makeCollectionOffer{value: MAX_PRICE + 1}(anyToken(buyer, MAX_PRICE + 1), 1);
        MarketCore.CollectionOffer memory top = anyToken(buyer, MAX_PRICE);
        make(top, 1);
        assertEq(remaining(top), 1, "max price accepted");

        // Collection offers need no whole gwei: the odd wei is kept and paid out.
        mintAll(1);
        uint256 a0 = artist.balance;
        accept(artist, top, 1);
        assertEq(artist.balance - a0, MAX_PRICE - MAX_PRICE / 10, "90% of the maximum to the wei");
        assertEq(marketAdmin.feesAvailable(), MAX_PRICE / 10, "10% commission");
        assertConservation(MIN_OFFER, "the minimum offer is left");
    }

    function test_make_expiryEdges() public {
        uint256 t = block.timestamp;
        uint256 latest = t + 100 days;
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.OfferExpiryOutOfRange.selector, t, latest));
        market.makeCollectionOffer{value: MIN_OFFER}(terms(buyer, 0, MIN_OFFER, t), 1);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.OfferExpiryOutOfRange.selector, t - 1, latest));
        market.makeCollectionOffer{value: MIN_OFFER}(terms(buyer, 0, MIN_OFFER, t - 1), 1);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.OfferExpiryOutOfRange.selector, 0, latest));
        market.makeCollectionOffer{value: MIN_OFFER}(terms(buyer, 0, MIN_OFFER, 0), 1);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.OfferExpiryOutOfRange.selector, latest + 1, latest));
        market.makeCollectionOffer{value: MIN_OFFER}(terms(buyer, 0, MIN_OFFER, latest + 1), 1);
        vm.prank(buyer);
        vm.expectRevert(
            abi.encodeWithSelector(MarketCore.OfferExpiryOutOfRange.selector, type(uint256).max, latest)
        );
        market.makeCollectionOffer{value: MIN_OFFER}(terms(buyer, 0, MIN_OFFER, type(uint256).max), 1);

        MarketCore.CollectionOffer memory soon = terms(buyer, 0, MIN_OFFER, t + 1);
        MarketCore.CollectionOffer memory far = terms(buyer, 0, MIN_OFFER, latest);
        make(soon, 1);
        make(far, 1);
        assertEq(remaining(soon), 1, "now + 1");
        assertEq(remaining(far), 1, "now + 100 days");
        // A second later the same terms cannot be topped up: `soon` has expired.
        vm.warp(t + 1);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.OfferExpiryOutOfRange.selector, t + 1, t + 1 + 100 days));
        market.makeCollectionOffer{value: MIN_OFFER}(soon, 1);
        assertEq(remaining(soon), 1, "not topped up");
    }

    // ------------------------------------------------------------ make: who and where

    function test_attack_make_inSomeoneElsesName() public {
        MarketCore.CollectionOffer memory o = anyToken(buyer, MIN_OFFER);
        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.NotCollectionOfferBuyer.selector, other, buyer));
        market.makeCollectionOffer{value: MIN_OFFER}(o, 1);
        MarketCore.CollectionOffer memory zero = anyToken(address(0), MIN_OFFER);
        vm.prank(other);
        vm.expectRevert(
            abi.encodeWithSelector(MarketCore.NotCollectionOfferBuyer.selector, other, address(0))
        );
        market.makeCollectionOffer{value: MIN_OFFER}(zero, 1);
        // Nor may anyone top up someone else's offer.
        make(o, 1);
        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.NotCollectionOfferBuyer.selector, other, buyer));
        market.makeCollectionOffer{value: MIN_OFFER}(o, 1);
        assertEq(remaining(o), 1, "unchanged");
    }

    function test_make_refusedWhenBannedLockedBlockedOrForeign() public {
        MarketCore.CollectionOffer memory o = anyToken(buyer, MIN_OFFER);
        vm.prank(admin);
        marketAdmin.setBanned(buyer, true);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.UserIsBanned.selector, buyer));
        market.makeCollectionOffer{value: MIN_OFFER}(o, 1);
        vm.prank(admin);
        marketAdmin.setBanned(buyer, false);

        vm.prank(admin);
        marketAdmin.setMarketLocked(true);
        vm.prank(buyer);
        vm.expectRevert(MarketCore.MarketIsLocked.selector);
        market.makeCollectionOffer{value: MIN_OFFER}(o, 1);
        vm.prank(admin);
        marketAdmin.setMarketLocked(false);

        vm.prank(admin);
        marketAdmin.setCollectionBlocked(c, true);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.CollectionIsBlocked.selector, c));
        market.makeCollectionOffer{value: MIN_OFFER}(o, 1);
        vm.prank(admin);
        marketAdmin.setCollectionBlocked(c, false);

        // A foreign contract, an account without code and the collection implementation itself.
        address[3] memory foreign = [address(new TestActor()), address(0xdead), factory.collectionImplementation()];
        for (uint256 i; i < foreign.length; ++i) {
            MarketCore.CollectionOffer memory f = copy(o);
            f.collection = foreign[i];
            vm.prank(buyer);
            vm.expectRevert(abi.encodeWithSelector(MarketCore.CollectionNotSupported.selector, foreign[i]));
            market.makeCollectionOffer{value: MIN_OFFER}(f, 1);
        }

        make(o, 1);
        assertEq(address(market).balance, MIN_OFFER, "only the last one escrowed");
    }

    // ------------------------------------------------------------ accept

    function test_attack_accept_sameTokenTwice() public {
        mintAll(2);
        MarketCore.CollectionOffer memory o = anyToken(buyer, 1 ether);
        make(o, 3);
        accept(artist, o, 1);
        assertEq(remaining(o), 2, "one sold");
        // The token now belongs to the buyer: the artist cannot sell it again, refused by the sale's transfer
        // (the buyer did not approve the market) or, once they did, by the seller check after it.
        vm.prank(artist);
        vm.expectRevert(ERC721.NotOwnerNorApproved.selector);
        market.acceptCollectionOffer(o, 1, new bytes32[](0));
        vm.prank(buyer);
        collection.setApprovalForAll(address(market), true);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.OnlyTokenOwner.selector, artist, buyer));
        market.acceptCollectionOffer(o, 1, new bytes32[](0));
        // Nor can the buyer sell it back to their own offer.
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.CannotAcceptOwnOffer.selector, buyer));
        market.acceptCollectionOffer(o, 1, new bytes32[](0));
        assertEq(remaining(o), 2, "counted once");
        assertEq(collection.ownerOf(1), buyer, "buyer keeps it");
        assertConservation(2 ether, "two left in escrow");
    }

    function test_attack_accept_beyondTheQuantity() public {
        mintAll(3);
        MarketCore.CollectionOffer memory o = anyToken(buyer, 1 ether);
        make(o, 2);
        accept(artist, o, 1);
        accept(artist, o, 2);
        assertEq(remaining(o), 0, "filled");
        vm.prank(artist);
        vm.expectRevert(noOffer(o));
        market.acceptCollectionOffer(o, 3, new bytes32[](0));
        vm.expectRevert(noOffer(o));
        marketAdmin.cancelCollectionOffer(o);
        assertEq(collection.ownerOf(3), artist, "kept");
        assertConservation(0, "escrow spent exactly");
        assertEq(marketAdmin.feesAvailable(), 0.2 ether, "two commissions");
    }

    function test_accept_atExpiryAndOneSecondBefore() public {
        mintAll(2);
        MarketCore.CollectionOffer memory o = anyToken(buyer, 1 ether);
        make(o, 2);
        vm.warp(o.expiresAt - 1);
        accept(artist, o, 1);
        vm.warp(o.expiresAt);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.OfferExpired.selector, o.expiresAt));
        market.acceptCollectionOffer(o, 2, new bytes32[](0));
        vm.warp(o.expiresAt + 365 days);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.OfferExpired.selector, o.expiresAt));
        market.acceptCollectionOffer(o, 2, new bytes32[](0));
        assertEq(remaining(o), 1, "one left");
    }

    /// Forging the terms (a later expiry, a higher price, no root) names another offer, which does not exist.
    function test_attack_accept_withForgedTerms() public {
        mintAll(1);
        uint256[] memory ids = TokenTree.range(2, 3);
        MarketCore.CollectionOffer memory o = terms(buyer, TokenTree.root(ids), 1 ether, block.timestamp + 1 days);
        make(o, 1);
        MarketCore.CollectionOffer memory f = terms(buyer, o.tokenRoot, 1 ether, o.expiresAt + 1);
        vm.prank(artist);
        vm.expectRevert(noOffer(f));
        market.acceptCollectionOffer(f, 1, new bytes32[](0));
        f = terms(buyer, o.tokenRoot, 2 ether, o.expiresAt);
        vm.prank(artist);
        vm.expectRevert(noOffer(f));
        market.acceptCollectionOffer(f, 1, new bytes32[](0));
        f = terms(buyer, 0, 1 ether, o.expiresAt);
        vm.prank(artist);
        vm.expectRevert(noOffer(f));
        market.acceptCollectionOffer(f, 1, new bytes32[](0));
        f = terms(other, o.tokenRoot, 1 ether, o.expiresAt);
        vm.prank(artist);
        vm.expectRevert(noOffer(f));
        market.acceptCollectionOffer(f, 1, new bytes32[](0));
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenNotInOffer.selector, 1));
        market.acceptCollectionOffer(o, 1, new bytes32[](0));
        assertEq(remaining(o), 1, "untouched");
    }

    /// A token of another collection with the same id cannot be sold to this collection's offer.
    function test_attack_accept_tokenOfAnotherCollection() public {
        // This collection's token 1 is the artist's, with the market approved: only the artist may sell it.
        mintApproved(1);
        vm.prank(admin);
        marketAdmin.setArtistVerified(other, true);
        vm.startPrank(other);
        EaselCollection mine = EaselCollection(factory.createCollection("Other Things", "OTH", "painting"));
        mine.mintNFT(0, cid(99), none());
        mine.setApprovalForAll(address(market), true);
        vm.stopPrank();
        MarketCore.CollectionOffer memory o = anyToken(buyer, 1 ether);
        make(o, 1);
        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.OnlyTokenOwner.selector, other, artist));
        market.acceptCollectionOffer(o, 1, new bytes32[](0));
        assertEq(remaining(o), 1, "untouched");
        assertEq(mine.ownerOf(1), other, "kept");
    }

    function test_accept_tokenOutsideItsRoot() public {
        mintAll(5);
        uint256[] memory ids = TokenTree.range(1, 3);
        MarketCore.CollectionOffer memory o = terms(buyer, TokenTree.root(ids), 1 ether, block.timestamp + 1 days);
        make(o, 3);
        bytes32[] memory proof1 = TokenTree.proof(ids, 0);
        // Token 4 with a valid proof of token 1, with an empty proof, with a made-up one.
        vm.startPrank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenNotInOffer.selector, 4));
        market.acceptCollectionOffer(o, 4, proof1);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenNotInOffer.selector, 4));
        market.acceptCollectionOffer(o, 4, new bytes32[](0));
        bytes32[] memory junk = new bytes32[](2);
        junk[0] = keccak256("a");
        junk[1] = keccak256("b");
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenNotInOffer.selector, 4));
        market.acceptCollectionOffer(o, 4, junk);
        // Token 2 (in the root) with the proof of token 1, and token 1 with an empty proof.
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenNotInOffer.selector, 2));
        market.acceptCollectionOffer(o, 2, proof1);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenNotInOffer.selector, 1));
        market.acceptCollectionOffer(o, 1, new bytes32[](0));
        // The proof of token 1 with an extra element.
        bytes32[] memory longer = new bytes32[](proof1.length + 1);
        for (uint256 i; i < proof1.length; ++i) longer[i] = proof1[i];
        longer[proof1.length] = TokenTree.leaf(5);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenNotInOffer.selector, 1));
        market.acceptCollectionOffer(o, 1, longer);
        // Token 1 with its own proof.
        market.acceptCollectionOffer(o, 1, proof1);
        vm.stopPrank();
        assertEq(collection.ownerOf(1), buyer, "sold");
        assertEq(remaining(o), 2, "two left");
    }

    /// An interior node of the tree passed off as a token id (with the rest of the path) is not a leaf: leaves are
    /// hashed once more, so no second preimage.
    function test_attack_accept_interiorNodeAsTokenId() public {
        uint256[] memory ids = TokenTree.range(1, 4);
        bytes32 root = TokenTree.root(ids);
        bytes32 node12 = TokenTree.hashPair(TokenTree.leaf(1), TokenTree.leaf(2));
        bytes32 node34 = TokenTree.hashPair(TokenTree.leaf(3), TokenTree.leaf(4));
        assertEq(TokenTree.hashPair(node12, node34), root, "tree shape");
        bytes32[] memory path = new bytes32[](1);
        path[0] = node34;
        assertTrue(MerkleProofLib.verify(path, root, node12), "node12 is on the path");
        MarketCore.CollectionOffer memory o = terms(buyer, root, 1 ether, block.timestamp + 1 days);
        make(o, 1);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenNotInOffer.selector, uint256(node12)));
        market.acceptCollectionOffer(o, uint256(node12), path);
        // Nor is the root itself a token of an offer with an empty proof.
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenNotInOffer.selector, uint256(root)));
        market.acceptCollectionOffer(o, uint256(root), new bytes32[](0));
    }

    function test_accept_refusedForBannedPartiesUntilLifted() public {
        mintAll(1);
        MarketCore.CollectionOffer memory o = anyToken(buyer, 1 ether);
        make(o, 1);
        vm.prank(admin);
        marketAdmin.setBanned(artist, true);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.UserIsBanned.selector, artist));
        market.acceptCollectionOffer(o, 1, new bytes32[](0));
        vm.prank(admin);
        marketAdmin.setBanned(artist, false);
        vm.prank(admin);
        marketAdmin.setBanned(buyer, true);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.UserIsBanned.selector, buyer));
        market.acceptCollectionOffer(o, 1, new bytes32[](0));
        vm.prank(admin);
        marketAdmin.setMarketLocked(true);
        vm.prank(artist);
        vm.expectRevert(MarketCore.MarketIsLocked.selector);
        market.acceptCollectionOffer(o, 1, new bytes32[](0));
        // Locked and banned: the buyer may still cancel.
        uint256 b0 = buyer.balance;
        vm.prank(buyer);
        marketAdmin.cancelCollectionOffer(o);
        assertEq(buyer.balance - b0, 1 ether, "refunded while banned and locked");
        assertEq(collection.ownerOf(1), artist, "kept");
        assertConservation(0, "empty");
    }

    function test_accept_blockedTokenBeforeAndAfterMintAndBlockedCollection() public {
        vm.prank(admin);
        marketAdmin.setTokenBlocked(c, 2, true); // before its mint
        mintAll(2);
        MarketCore.CollectionOffer memory o = anyToken(buyer, 1 ether);
        make(o, 2);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenIsBlocked.selector, c, 2));
        market.acceptCollectionOffer(o, 2, new bytes32[](0));
        vm.prank(admin);
        marketAdmin.setTokenBlocked(c, 1, true); // after its mint
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenIsBlocked.selector, c, 1));
        market.acceptCollectionOffer(o, 1, new bytes32[](0));
        vm.prank(admin);
        marketAdmin.setTokenBlocked(c, 1, false);
        vm.prank(admin);
        marketAdmin.setCollectionBlocked(c, true);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.CollectionIsBlocked.selector, c));
        market.acceptCollectionOffer(o, 1, new bytes32[](0));
        assertEq(remaining(o), 2, "nothing sold");
        vm.prank(admin);
        marketAdmin.setCollectionBlocked(c, false);
        accept(artist, o, 1);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenIsBlocked.selector, c, 2));
        market.acceptCollectionOffer(o, 2, new bytes32[](0));
        assertEq(remaining(o), 1, "only the unblocked one sold");
    }

    function test_attack_accept_ownOfferAfterBuyingAToken() public {
        mintApproved(1);
        vm.prank(artist);
        market.setSellOrder(c, 1, 1 ether);
        MarketCore.CollectionOffer memory o = anyToken(buyer, 2 ether);
        make(o, 1);
        vm.prank(buyer);
        market.buyNow{value: 1 ether}(c, 1);
        vm.prank(buyer);
        collection.setApprovalForAll(address(market), true);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.CannotAcceptOwnOffer.selector, buyer));
        market.acceptCollectionOffer(o, 1, new bytes32[](0));
        assertEq(remaining(o), 1, "untouched");
        assertConservation(2 ether, "escrow intact");
    }

    function test_accept_ownerWithoutApprovalOrTokenInAuction() public {
        mint(1);
        mintApproved(2);
        MarketCore.CollectionOffer memory o = anyToken(buyer, 1 ether);
        make(o, 2);
        // The sale's transfer checks the market's approval (no separate read before it).
        vm.prank(artist);
        vm.expectRevert(ERC721.NotOwnerNorApproved.selector);
        market.acceptCollectionOffer(o, 1, new bytes32[](0));
        // Token 2 in an auction: it stays with the artist, locked. The lock cleared the market's approval of the
        // token, so the sale's transfer is refused; approved for all, the sale reaches the lock and is refused.
        vm.prank(artist);
        market.setReserveAuction(c, 2, 1 ether);
        vm.prank(artist);
        vm.expectRevert(ERC721.NotOwnerNorApproved.selector);
        market.acceptCollectionOffer(o, 2, new bytes32[](0));
        vm.prank(artist);
        collection.setApprovalForAll(address(market), true);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.TokenInAuction.selector, c, 2));
        market.acceptCollectionOffer(o, 2, new bytes32[](0));
        // Nobody else may sell it either (a stranger).
        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.TokenInAuction.selector, c, 2));
        market.acceptCollectionOffer(o, 2, new bytes32[](0));
        assertEq(collection.ownerOf(2), artist, "still the artist's (locked)");
        assertEq(remaining(o), 2, "nothing sold");
        // A nonexistent token.
        vm.prank(artist);
        vm.expectRevert();
        market.acceptCollectionOffer(o, 3, new bytes32[](0));
        assertEq(remaining(o), 2, "still nothing sold");
    }

    function test_accept_nonEaselCollection() public {
        TestActor fake = new TestActor();
        MarketCore.CollectionOffer memory o = anyToken(buyer, 1 ether);
        o.collection = address(fake);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.CollectionNotSupported.selector, address(fake)));
        market.acceptCollectionOffer(o, 1, new bytes32[](0));
    }

    // ------------------------------------------------------------ trait roots

    function _traitRoundTrip(uint256 count) internal {
        mintAll(count + 1);
        uint256[] memory ids = TokenTree.range(1, count);
        bytes32 root = TokenTree.root(ids);
        MarketCore.CollectionOffer memory o = terms(buyer, root, MIN_OFFER, block.timestamp + 1 days);
        make(o, count + 1);
        // The id just outside the root, with every proof of the tree.
        for (uint256 i; i < count; ++i) {
            vm.prank(artist);
            vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenNotInOffer.selector, count + 1));
            market.acceptCollectionOffer(o, count + 1, TokenTree.proof(ids, i));
        }
        // Every id with its own proof, in reverse order.
        for (uint256 i = count; i > 0; --i) {
            bytes32[] memory proof = TokenTree.proof(ids, i - 1);
            assertTrue(MerkleProofLib.verify(proof, root, TokenTree.leaf(ids[i - 1])), "proof verifies");
            vm.prank(artist);
            market.acceptCollectionOffer(o, ids[i - 1], proof);
            assertEq(collection.ownerOf(ids[i - 1]), buyer, "sold");
        }
        assertEq(remaining(o), 1, "one left for a token outside the root");
    }

    function test_traitRoot_oneId() public {
        uint256[] memory ids = TokenTree.range(1, 1);
        assertEq(TokenTree.root(ids), TokenTree.leaf(1), "a lone leaf is the root");
        assertEq(TokenTree.proof(ids, 0).length, 0, "empty proof");
        assertEq(
            TokenTree.root(ids), 0xb10e2d527612073b26eecdfd717e6a320cf44b4afac2b0732d9fcbe2b7fa0cf6, "as orders.ts"
        );
        _traitRoundTrip(1);
    }

    function test_traitRoot_twoIds() public {
        assertEq(
            TokenTree.root(TokenTree.range(1, 2)),
            0x2a171b5bcd1449348c3e09a5424946b5e6d6f5471221941d585131d673952ee4,
            "as orders.ts"
        );
        _traitRoundTrip(2);
    }

    function test_traitRoot_threeIds() public {
        uint256[] memory ids = TokenTree.range(1, 3);
        assertEq(
            TokenTree.root(ids), 0x4cdbcd942bd29b80bbd5eb9929ec8d0ea9c97d2690f9d2f8318390505ec1a769, "as orders.ts"
        );
        // The odd id rises unchanged: its proof is the single node of the other two.
        bytes32[] memory p = TokenTree.proof(ids, 2);
        assertEq(p.length, 1, "one sibling");
        assertEq(p[0], 0x2a171b5bcd1449348c3e09a5424946b5e6d6f5471221941d585131d673952ee4, "node of 1 and 2");
        _traitRoundTrip(3);
    }

    function test_traitRoot_fiftyIds() public {
        assertEq(
            TokenTree.root(TokenTree.range(1, 50)),
            0x312004ac3b1a263e19c43e1b9ccd77a5b6b75a30e30ea0f41867debec49ed33d,
            "as orders.ts"
        );
        _traitRoundTrip(50);
    }

    /// Ids in any order (not sorted, not contiguous) give a root whose proofs work.
    function test_traitRoot_unsortedIds() public {
        uint256[] memory ids = new uint256[](3);
        ids[0] = 7;
        ids[1] = 3;
        ids[2] = 11;
        assertEq(
            TokenTree.root(ids), 0x1a22d654d767ab56ad68c6fbd792b344265e17dd3c84d9cef4e4613549e2e0cc, "as orders.ts"
        );
        mintAll(11);
        MarketCore.CollectionOffer memory o = terms(buyer, TokenTree.root(ids), MIN_OFFER, block.timestamp + 1 days);
        make(o, 3);
        for (uint256 i; i < 3; ++i) {
            vm.prank(artist);
            market.acceptCollectionOffer(o, ids[i], TokenTree.proof(ids, i));
        }
        assertEq(remaining(o), 0, "all three");
    }

    // ------------------------------------------------------------ payouts and events

    function test_payouts_primaryThenResaleToTheWei() public {
        Collaborator[] memory split = new Collaborator[](2);
        split[0] = Collaborator(artist, 65);
        split[1] = Collaborator(collab, 35);
        vm.startPrank(artist);
        collection.mintNFT(1_500, cid(1), split);
        collection.setApprovalForAll(address(market), true);
        vm.stopPrank();
        vm.prank(admin);
        marketAdmin.setFees(1_250, 275);

        // Primary: the commission, the rest split among the collaborators (no royalty: the creator sells).
        uint256 p1 = 1.234567890123456789 ether;
        MarketCore.CollectionOffer memory o1 = anyToken(buyer, p1);
        bytes32 id1 = make(o1, 2);
        uint256 fee1 = p1 * 1_250 / 10_000;
        uint256 net1 = p1 - fee1;
        uint256 collab1 = net1 * 35 / 100;
        uint256 a0 = artist.balance;
        uint256 k0 = collab.balance;
        vm.expectEmit();
        emit MarketCore.CollectionOfferAccepted(id1, 1, artist, 1);
        vm.expectEmit();
        emit MarketCore.Sale(c, 1, artist, buyer, 5, p1, fee1, 0, true);
        accept(artist, o1, 1);
        assertEq(artist.balance - a0, net1 - collab1, "artist: the rest");
        assertEq(collab.balance - k0, collab1, "collaborator: 35% of the rest");
        assertEq(marketAdmin.feesAvailable(), fee1, "commission");
        assertEq(collection.ownerOf(1), buyer, "delivered");
        assertConservation(p1, "one left in escrow");

        // Resale by the buyer to another collection offer: the secondary fee, the royalty split, the rest to the
        // seller.
        uint256 p2 = 3.000000000000000007 ether;
        MarketCore.CollectionOffer memory o2 = anyToken(bidder, p2);
        bytes32 id2 = make(o2, 1);
        vm.prank(buyer);
        collection.setApprovalForAll(address(market), true);
        uint256 fee2 = p2 * 275 / 10_000;
        uint256 royalty2 = p2 * 1_500 / 10_000;
        uint256 collab2 = royalty2 * 35 / 100;
        a0 = artist.balance;
        k0 = collab.balance;
        uint256 b0 = buyer.balance;
        vm.expectEmit();
        emit MarketCore.CollectionOfferAccepted(id2, 1, buyer, 0);
        vm.expectEmit();
        emit MarketCore.Sale(c, 1, buyer, bidder, 5, p2, fee2, royalty2, false);
        accept(buyer, o2, 1);
        assertEq(buyer.balance - b0, p2 - fee2 - royalty2, "seller: the rest");
        assertEq(artist.balance - a0, royalty2 - collab2, "artist's royalty share");
        assertEq(collab.balance - k0, collab2, "collaborator's royalty share");
        assertEq(marketAdmin.feesAvailable(), fee1 + fee2, "fees");
        assertEq(collection.ownerOf(1), bidder, "delivered again");
        assertEq(remaining(o2), 0, "filled");
        assertConservation(p1, "the first offer's last escrow");
    }

    /// A resale to a collection offer while the creator is banned: the royalty is held, not paid, and counted.
    function test_payouts_bannedCreatorsRoyaltyIsHeld() public {
        mintAll(1);
        accept(artist, make2(anyToken(buyer, 1 ether), 1), 1);
        vm.prank(admin);
        marketAdmin.setBanned(artist, true);
        MarketCore.CollectionOffer memory o = anyToken(bidder, 2 ether);
        make(o, 1);
        vm.prank(buyer);
        collection.setApprovalForAll(address(market), true);
        uint256 a0 = artist.balance;
        uint256 b0 = buyer.balance;
        vm.expectEmit();
        emit MarketCore.PaymentHeld(artist, 0.2 ether);
        accept(buyer, o, 1);
        assertEq(artist.balance, a0, "nothing paid to the banned creator");
        assertEq(marketAdmin.heldOf(artist), 0.2 ether, "royalty held");
        assertEq(buyer.balance - b0, 1.8 ether, "seller paid (secondary fee 0)");
        assertConservation(0, "held counted");
    }

    /// In the default collection each token has its own creator: a collection offer pays that creator.
    function test_payouts_defaultCollectionPaysEachTokensCreator() public {
        vm.prank(admin);
        marketAdmin.setArtistVerified(other, true);
        vm.startPrank(other);
        uint256 id = defaultCollection.mintNFT(500, cid(7), none());
        defaultCollection.setApprovalForAll(address(market), true);
        vm.stopPrank();
        MarketCore.CollectionOffer memory o = anyToken(buyer, 1 ether);
        o.collection = address(defaultCollection);
        make(o, 1);
        uint256 s0 = other.balance;
        uint256 d0 = admin.balance;
        vm.expectEmit();
        emit MarketCore.Sale(address(defaultCollection), id, other, buyer, 5, 1 ether, 0.1 ether, 0, true);
        vm.prank(other);
        market.acceptCollectionOffer(o, id, new bytes32[](0));
        assertEq(other.balance - s0, 0.9 ether, "the token's creator");
        assertEq(admin.balance, d0, "not the collection's owner");
        assertEq(defaultCollection.ownerOf(id), buyer, "delivered");
    }

    function test_ids_viewEventsAndRemaining() public {
        uint256[] memory ids = TokenTree.range(1, 2);
        MarketCore.CollectionOffer memory o = terms(buyer, TokenTree.root(ids), 0.5 ether, block.timestamp + 3 days);
        bytes32 id = keccak256(abi.encode(o));
        assertEq(marketAdmin.collectionOfferId(o), id, "view = keccak256(abi.encode(offer))");
        assertEq(marketAdmin.collectionOfferRemaining(id), 0, "never made");
        vm.recordLogs();
        make(o, 2);
        assertEq(_madeId(vm.getRecordedLogs()), id, "event id = view id");
        assertEq(marketAdmin.collectionOfferRemaining(id), 2, "two");
        vm.expectEmit();
        emit MarketCore.CollectionOfferMade(id, c, buyer, o.tokenRoot, 0.5 ether, o.expiresAt, 3, 5);
        make(o, 3);
        assertEq(marketAdmin.collectionOfferRemaining(id), 5, "added up");
        mintAll(2);
        vm.prank(artist);
        market.acceptCollectionOffer(o, 2, TokenTree.proof(ids, 1));
        assertEq(marketAdmin.collectionOfferRemaining(id), 4, "one sold");
        vm.expectEmit();
        emit MarketCore.CollectionOfferCancelled(id, buyer, 4, 2 ether);
        vm.prank(buyer);
        marketAdmin.cancelCollectionOffer(o);
        assertEq(marketAdmin.collectionOfferRemaining(id), 0, "cancelled");
        // Each field is part of the identity.
        MarketCore.CollectionOffer memory f = copy(o);
        f.expiresAt += 1;
        assertTrue(marketAdmin.collectionOfferId(f) != id, "expiry in the id");
        f = terms(buyer, o.tokenRoot, o.price + 1, o.expiresAt);
        assertTrue(marketAdmin.collectionOfferId(f) != id, "price in the id");
        f = terms(other, o.tokenRoot, o.price, o.expiresAt);
        assertTrue(marketAdmin.collectionOfferId(f) != id, "buyer in the id");
        f = terms(buyer, bytes32(0), o.price, o.expiresAt);
        assertTrue(marketAdmin.collectionOfferId(f) != id, "root in the id");
        f = copy(o);
        f.collection = address(defaultCollection);
        assertTrue(marketAdmin.collectionOfferId(f) != id, "collection in the id");
    }

    /// @dev The offer id (topic 1) of the one `CollectionOfferMade` the market logged.
    function _madeId(Vm.Log[] memory logs) internal view returns (bytes32 id) {
        uint256 found;
        for (uint256 i; i < logs.length; ++i) {
            if (logs[i].emitter == address(market) && logs[i].topics[0] == MarketCore.CollectionOfferMade.selector) {
                id = logs[i].topics[1];
                ++found;
            }
        }
        assertEq(found, 1, "one CollectionOfferMade");
    }

    // ------------------------------------------------------------ cancel

    function test_cancel_byTheBuyerRefundsTheRestExactly() public {
        mintAll(3);
        MarketCore.CollectionOffer memory o = anyToken(buyer, 0.123456789012345678 ether);
        bytes32 id = make(o, 7);
        accept(artist, o, 1);
        accept(artist, o, 3);
        uint256 b0 = buyer.balance;
        vm.expectEmit();
        emit MarketCore.CollectionOfferCancelled(id, buyer, 5, o.price * 5);
        vm.prank(buyer);
        marketAdmin.cancelCollectionOffer(o);
        assertEq(buyer.balance - b0, o.price * 5, "price * remaining");
        assertEq(remaining(o), 0, "gone");
        assertConservation(0, "only fees left");
        vm.prank(buyer);
        vm.expectRevert(noOffer(o));
        marketAdmin.cancelCollectionOffer(o);
        vm.prank(artist);
        vm.expectRevert(noOffer(o));
        market.acceptCollectionOffer(o, 2, new bytes32[](0));
    }

    function test_attack_cancel_byAStrangerBeforeAndAfterExpiry() public {
        MarketCore.CollectionOffer memory o = anyToken(buyer, 1 ether);
        make(o, 2);
        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.NotCollectionOfferBuyer.selector, other, buyer));
        marketAdmin.cancelCollectionOffer(o);
        vm.warp(o.expiresAt - 1);
        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.NotCollectionOfferBuyer.selector, other, buyer));
        marketAdmin.cancelCollectionOffer(o);
        // A forged expiry in the past names another offer, which does not exist.
        MarketCore.CollectionOffer memory f = copy(o);
        f.expiresAt = block.timestamp - 1;
        vm.prank(other);
        vm.expectRevert(noOffer(f));
        marketAdmin.cancelCollectionOffer(f);

        vm.warp(o.expiresAt);
        uint256 b0 = buyer.balance;
        uint256 s0 = other.balance;
        vm.prank(other);
        marketAdmin.cancelCollectionOffer(o);
        assertEq(buyer.balance - b0, 2 ether, "refund to the buyer");
        assertEq(other.balance, s0, "the stranger gets nothing");
        assertConservation(0, "empty");
        vm.prank(other);
        vm.expectRevert(noOffer(o));
        marketAdmin.cancelCollectionOffer(o);
    }

    /// A stranger cannot inflate the refund by restating a higher price: that is another offer.
    function test_attack_cancel_withAHigherPriceForABiggerRefund() public {
        MarketCore.CollectionOffer memory o = anyToken(buyer, 1 ether);
        make(o, 1);
        MarketCore.CollectionOffer memory small = anyToken(other, MIN_OFFER);
        make(small, 1);
        MarketCore.CollectionOffer memory f = anyToken(other, 1_000 ether);
        vm.prank(other);
        vm.expectRevert(noOffer(f));
        marketAdmin.cancelCollectionOffer(f);
        f = anyToken(other, MIN_OFFER);
        vm.prank(other);
        marketAdmin.cancelCollectionOffer(f);
        assertConservation(1 ether, "the buyer's escrow intact");
    }

    function test_cancel_rejectingBuyerIsCredited() public {
        TestActor actor = new TestActor();
        vm.deal(address(actor), 10 ether);
        MarketCore.CollectionOffer memory o = anyToken(address(actor), 1 ether);
        actor.act{value: 3 ether}(address(market), abi.encodeCall(market.makeCollectionOffer, (o, 3)));
        assertEq(remaining(o), 3, "made by the contract");
        actor.setMode(TestActor.Mode.Reject);
        vm.warp(o.expiresAt);
        vm.prank(other);
        marketAdmin.cancelCollectionOffer(o); // a stranger, after expiry: the refund cannot be pushed
        assertEq(marketAdmin.creditOf(address(actor)), 3 ether, "credited");
        assertConservation(0, "the credit is held");
        actor.act(address(market), abi.encodeWithSelector(EaselMarketAdmin.withdrawTo.selector, collab));
        assertEq(collab.balance, 3 ether, "withdrawn elsewhere");
        assertEq(address(market).balance, 0, "empty");
    }

    function test_cancel_gasBurningBuyerIsCredited() public {
        TestActor actor = new TestActor();
        MarketCore.CollectionOffer memory o = anyToken(address(actor), 1 ether);
        actor.act{value: 2 ether}(address(market), abi.encodeCall(market.makeCollectionOffer, (o, 2)));
        actor.setMode(TestActor.Mode.BurnGas);
        actor.act(address(market), abi.encodeCall(marketAdmin.cancelCollectionOffer, (o)));
        assertEq(marketAdmin.creditOf(address(actor)), 2 ether, "credited");
        actor.setMode(TestActor.Mode.Accept);
        actor.act(address(market), abi.encodeCall(marketAdmin.withdraw, ()));
        assertEq(address(actor).balance, 2 ether, "all back (the test contract paid the escrow)");
    }

    // ------------------------------------------------------------ reentrancy

    function _reentrantSeller(bytes memory reentry, MarketCore.CollectionOffer memory o) internal returns (TestActor) {
        TestActor seller = new TestActor();
        mint(1);
        mint(2);
        vm.startPrank(artist);
        collection.transferFrom(artist, address(seller), 1);
        collection.transferFrom(artist, address(seller), 2);
        vm.stopPrank();
        seller.act(c, abi.encodeWithSignature("setApprovalForAll(address,bool)", address(market), true));
        make(o, 2);
        seller.setMode(TestActor.Mode.Reenter);
        seller.setReentry(address(market), reentry);
        return seller;
    }

    function test_attack_reentrantSellerAcceptsAgain() public {
        MarketCore.CollectionOffer memory o = anyToken(buyer, 1 ether);
        bytes memory again = abi.encodeCall(market.acceptCollectionOffer, (o, 2, new bytes32[](0)));
        TestActor seller = _reentrantSeller(again, o);
        seller.act(address(market), abi.encodeCall(market.acceptCollectionOffer, (o, 1, new bytes32[](0))));
        assertEq(seller.reentrySuccesses(), 0, "no re-entry with the 20k push");
        assertEq(remaining(o), 1, "one sold");
        assertEq(collection.ownerOf(2), address(seller), "the second token not sold");
        // First market sale, not by the creator: 10% commission, 10% royalty.
        uint256 proceeds = 0.8 ether;
        assertEq(address(seller).balance + marketAdmin.creditOf(address(seller)), proceeds, "paid once");
        // The 20k push cannot even count the attempt: the proceeds are credited.
        assertEq(marketAdmin.creditOf(address(seller)), proceeds, "credited");
        assertConservation(1 ether, "one escrow left");
        // Withdrawing with all the gas: the re-entry is tried and refused by the guard.
        seller.act(address(market), abi.encodeCall(marketAdmin.withdraw, ()));
        assertEq(seller.reentryAttempts(), 1, "tried on withdraw");
        assertEq(seller.reentrySuccesses(), 0, "refused");
        assertEq(address(seller).balance, proceeds, "no extra ETH left the market");
        assertEq(remaining(o), 1, "still one");
        assertConservation(1 ether, "one escrow left after the withdrawal");
    }

    function test_attack_reentrantSellerCancels() public {
        MarketCore.CollectionOffer memory o = terms(buyer, 0, 1 ether, block.timestamp + 1 days);
        TestActor seller = _reentrantSeller(abi.encodeCall(marketAdmin.cancelCollectionOffer, (o)), o);
        vm.warp(o.expiresAt - 1);
        seller.act(address(market), abi.encodeCall(market.acceptCollectionOffer, (o, 1, new bytes32[](0))));
        assertEq(seller.reentrySuccesses(), 0, "no re-entry");
        // After expiry anyone could cancel: the seller's withdrawal tries it while holding the guard.
        vm.warp(o.expiresAt);
        uint256 b0 = buyer.balance;
        seller.act(address(market), abi.encodeCall(marketAdmin.withdraw, ()));
        assertEq(seller.reentrySuccesses(), 0, "cancel inside the withdrawal refused");
        assertEq(remaining(o), 1, "not cancelled");
        assertEq(buyer.balance, b0, "nothing moved to the buyer");
        assertEq(address(seller).balance, 0.8 ether, "paid once");
        assertConservation(1 ether, "one escrow left");
        // The plain cancel still works and returns exactly the rest.
        vm.prank(other);
        marketAdmin.cancelCollectionOffer(o);
        assertEq(buyer.balance - b0, 1 ether, "rest refunded");
        assertConservation(0, "only fees left");
    }

    /// A buyer contract whose offer is being accepted cannot re-enter either (it receives nothing during the
    /// sale), and an accept inside a `makeCollectionOffer` callback is impossible (no callback). Here the buyer
    /// re-enters on its refund from a stranger's cancel: trying to make the same offer again with the refund.
    function test_attack_reentrantBuyerOnRefund() public {
        TestActor actor = new TestActor();
        MarketCore.CollectionOffer memory o = terms(address(actor), 0, 1 ether, block.timestamp + 1 days);
        actor.act{value: 2 ether}(address(market), abi.encodeCall(market.makeCollectionOffer, (o, 2)));
        actor.setMode(TestActor.Mode.Reenter);
        actor.setReentry(address(market), abi.encodeCall(marketAdmin.cancelCollectionOffer, (o)));
        actor.act(address(market), abi.encodeCall(marketAdmin.cancelCollectionOffer, (o)));
        assertEq(actor.reentrySuccesses(), 0, "no second cancel");
        assertEq(marketAdmin.creditOf(address(actor)), 2 ether, "credited");
        assertEq(address(actor).balance + marketAdmin.creditOf(address(actor)), 2 ether, "refunded once (the test contract paid the escrow)");
        assertConservation(0, "credits only");
        actor.act(address(market), abi.encodeCall(marketAdmin.withdraw, ()));
        assertEq(actor.reentryAttempts(), 1, "tried on withdraw");
        assertEq(actor.reentrySuccesses(), 0, "refused");
        assertEq(address(actor).balance, 2 ether, "exactly once");
        assertEq(address(market).balance, 0, "empty");
    }
}
