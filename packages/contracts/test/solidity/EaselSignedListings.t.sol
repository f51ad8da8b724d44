// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {Base} from "./Base.sol";
import {TestWallet} from "../../contracts/test/TestWallet.sol";
import {EaselCollection} from "../../contracts/EaselCollection.sol";
import {MarketCore} from "../../contracts/market/MarketCore.sol";
import {EaselMarket} from "../../contracts/EaselMarket.sol";
import {EaselMarketAdmin} from "../../contracts/EaselMarketAdmin.sol";
import {EaselRoyaltySplitter} from "../../contracts/EaselRoyaltySplitter.sol";
import {ERC721} from "solady/src/tokens/ERC721.sol";

/// @dev Signed listings, attacked: replays on another chain, market or collection; a transfer in the same second
/// as the fill; bans and blocks after signing; expired, cancelled, counter-bumped and filled listings; malleable
/// signatures; wrong ERC-1271 answers; prices below the minimum; tokens locked in an auction and listed tokens.
contract EaselSignedListingsTest is Base {
    event Sale(
        address indexed collection,
        uint256 indexed tokenId,
        address indexed seller,
        address buyer,
        uint8 mechanism,
        uint256 price,
        uint256 fee,
        uint256 royalty,
        bool primary
    );
    event SignedListingCancelled(
        address indexed collection, uint256 indexed tokenId, address indexed seller, uint256 transferCount
    );
    event ListingCounterIncremented(address indexed seller, uint256 counter);

    uint256 internal constant SELLER_KEY = 0x5E11E2;
    uint256 internal constant SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141;
    address internal seller;
    EaselCollection internal sc;
    address internal s;

    function setUp() public override {
        super.setUp();
        seller = vm.addr(SELLER_KEY);
        vm.prank(admin);
        marketAdmin.setArtistVerified(seller, true);
        vm.prank(seller);
        sc = EaselCollection(factory.createCollection("Seller Works", "SW", "painting"));
        s = address(sc);
        vm.prank(seller);
        sc.setApprovalForAll(address(market), true);
    }

    // ------------------------------------------------------------ helpers

    function mintTo(address who) internal returns (uint256 id) {
        vm.prank(seller);
        id = sc.mintNFT(1_000, cid(uint256(uint160(who)) + block.timestamp), none());
        if (who != seller) {
            vm.prank(seller);
            sc.transferFrom(seller, who, id);
        }
    }

    function order(address collection_, uint256 id, uint256 price, address seller_)
        internal
        view
        returns (MarketCore.SignedListing memory o)
    {
        o.collection = collection_;
        o.tokenId = id;
        o.price = price;
        o.seller = seller_;
        o.transferCount = EaselCollection(collection_).transferCountOf(id);
        o.counter = marketAdmin.listingCounterOf(seller_);
        o.expiresAt = block.timestamp + 30 days;
        // The primary commission today.
        o.maxFeeBps = 1_000;
    }

    function domain(address market_) internal view returns (bytes32) {
        return keccak256(
            abi.encode(
                keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
                keccak256("Easel Market"),
                keccak256("1"),
                block.chainid,
                market_
            )
        );
    }

    function digest(MarketCore.SignedListing memory o, address market_) internal view returns (bytes32) {
        bytes32 structHash = keccak256(
            abi.encode(
                keccak256(
                    "SignedListing(address collection,uint256 tokenId,uint256 price,address seller,uint256 transferCount,uint256 counter,uint256 expiresAt,uint16 maxFeeBps)"
                ),
                o.collection,
                o.tokenId,
                o.price,
                o.seller,
                o.transferCount,
                o.counter,
                o.expiresAt,
                o.maxFeeBps
            )
        );
        return keccak256(abi.encodePacked("\x19\x01", domain(market_), structHash));
    }

    function sign(MarketCore.SignedListing memory o, uint256 key) internal view returns (bytes memory) {
        (uint8 v, bytes32 r, bytes32 s_) = vm.sign(key, digest(o, address(market)));
        return abi.encodePacked(r, s_, v);
    }

    function fill(address who, MarketCore.SignedListing memory o, bytes memory sig) internal {
        vm.prank(who);
        market.fillSignedListing{value: o.price}(o, sig);
    }

    // ------------------------------------------------------------ the sale

    function test_fill_paysAsBuyNowAndLogsMechanism4() public {
        uint256 id = mintTo(seller);
        MarketCore.SignedListing memory o = order(s, id, 1 ether, seller);
        bytes memory sig = sign(o, SELLER_KEY);
        assertEq(marketAdmin.hashSignedListing(o), digest(o, address(market)), "the market's digest is ours");
        assertTrue(
            marketAdmin.signedListingStatus(o, sig) == EaselMarketAdmin.SignedListingStatus.Live, "live before"
        );
        uint256 sellerBefore = seller.balance;
        uint256 feesBefore = marketAdmin.feesAvailable();
        vm.expectEmit();
        emit Sale(s, id, seller, buyer, 4, 1 ether, 0.1 ether, 0, true);
        fill(buyer, o, sig);
        assertEq(sc.ownerOf(id), buyer, "buyer owns the token");
        assertEq(seller.balance - sellerBefore, 0.9 ether, "creator-seller gets the price less the commission");
        assertEq(marketAdmin.feesAvailable() - feesBefore, 0.1 ether, "primary commission");
        assertTrue(
            marketAdmin.signedListingStatus(o, sig) == EaselMarketAdmin.SignedListingStatus.Void, "void after"
        );
    }

    function test_fill_resalePaysRoyaltyToCreator() public {
        uint256 id = mintTo(bidder);
        uint256 bidderKey = 0xB1D;
        address holder = vm.addr(bidderKey);
        vm.prank(bidder);
        sc.transferFrom(bidder, holder, id);
        vm.prank(holder);
        sc.setApprovalForAll(address(market), true);
        MarketCore.SignedListing memory o = order(s, id, 2 ether, holder);
        bytes memory sig = sign(o, bidderKey);
        uint256 creatorBefore = seller.balance;
        // Never sold through the market: this is still its primary sale (10% commission) and the holder pays
        // the creator's 10% royalty.
        fill(buyer, o, sig);
        assertEq(seller.balance - creatorBefore, 0.2 ether, "royalty to the creator");
        assertEq(holder.balance, 1.6 ether, "holder gets the rest");
    }

    function test_fill_filledOnceOnly() public {
        uint256 id = mintTo(seller);
        MarketCore.SignedListing memory o = order(s, id, 1 ether, seller);
        bytes memory sig = sign(o, SELLER_KEY);
        fill(buyer, o, sig);
        // Even when the token comes back to the seller, the filled listing names an old transfer count.
        vm.prank(buyer);
        sc.transferFrom(buyer, seller, id);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.SellOrderVoid.selector, 0, 2));
        fill(other, o, sig);
    }

    // ------------------------------------------------------------ replays

    function test_replay_otherChain() public {
        uint256 id = mintTo(seller);
        MarketCore.SignedListing memory o = order(s, id, 1 ether, seller);
        bytes memory sig = sign(o, SELLER_KEY);
        vm.chainId(31_337_000);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller));
        fill(buyer, o, sig);
    }

    function test_replay_otherMarket() public {
        EaselMarket market2 = new EaselMarket(admin, signer, splitterImplementation, adminCode);
        EaselMarketAdmin admin2 = EaselMarketAdmin(address(market2));
        vm.prank(admin);
        admin2.setArtistVerified(seller, true);
        vm.startPrank(seller);
        EaselCollection c2 = EaselCollection(admin2.factory().createCollection("Second Market", "SM", "x"));
        c2.setApprovalForAll(address(market2), true);
        uint256 id = c2.mintNFT(0, cid(9), none());
        vm.stopPrank();
        MarketCore.SignedListing memory o = order(address(c2), id, 1 ether, seller);
        o.counter = 0;
        // Signed for the first market, submitted to the second.
        bytes memory sig = sign(o, SELLER_KEY);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller));
        vm.prank(buyer);
        market2.fillSignedListing{value: 1 ether}(o, sig);
        assertTrue(admin2.hashSignedListing(o) != marketAdmin.hashSignedListing(o), "domains differ");
    }

    function test_replay_otherCollectionOrToken() public {
        uint256 id = mintTo(seller);
        uint256 id2 = mintTo(seller);
        vm.prank(artist);
        uint256 idA = collection.mintNFT(0, cid(77), none());
        assertEq(idA, id, "same id in the artist's collection");
        MarketCore.SignedListing memory o = order(s, id, 1 ether, seller);
        bytes memory sig = sign(o, SELLER_KEY);
        MarketCore.SignedListing memory moved = o;
        moved.tokenId = id2;
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller));
        fill(buyer, moved, sig);
        moved = order(s, id, 1 ether, seller);
        moved.collection = address(collection);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller));
        fill(buyer, moved, sig);
        moved = order(s, id, 0.5 ether, seller);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller));
        fill(buyer, moved, sig);
    }

    // ------------------------------------------------------------ the token moved

    /// The same-second theft: list, move the token to a victim who approved the market, buy it from them.
    function test_transferInTheSameSecond_voids() public {
        uint256 id = mintTo(seller);
        MarketCore.SignedListing memory o = order(s, id, 1 ether, seller);
        bytes memory sig = sign(o, SELLER_KEY);
        vm.prank(other);
        sc.setApprovalForAll(address(market), true);
        vm.prank(seller);
        sc.transferFrom(seller, other, id);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.SellOrderVoid.selector, 0, 1));
        fill(buyer, o, sig);
        // Back to the seller in the same second: still void.
        vm.prank(other);
        sc.transferFrom(other, seller, id);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.SellOrderVoid.selector, 0, 2));
        fill(buyer, o, sig);
    }

    function test_signedForATokenTheSellerDoesNotOwn() public {
        uint256 id = mintTo(other);
        MarketCore.SignedListing memory o = order(s, id, 1 ether, seller);
        bytes memory sig = sign(o, SELLER_KEY);
        vm.prank(other);
        sc.setApprovalForAll(address(market), true);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.OnlyTokenOwner.selector, seller, other));
        fill(buyer, o, sig);
    }

    function test_lockedInAnAuction() public {
        uint256 id = mintTo(seller);
        MarketCore.SignedListing memory o = order(s, id, 1 ether, seller);
        bytes memory sig = sign(o, SELLER_KEY);
        vm.prank(seller);
        market.setReserveAuction(s, id, 1 ether);
        // Signed before the auction: void (the lock counted a transfer), and the locked token refuses the sale
        // before its count is compared.
        assertEq(sc.transferCountOf(id), 1, "the lock counted");
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.TokenInAuction.selector, s, id));
        fill(buyer, o, sig);
        // Signed during the auction, with the current count, by the seller who still owns the token: refused.
        MarketCore.SignedListing memory during = order(s, id, 1 ether, seller);
        bytes memory sig2 = sign(during, SELLER_KEY);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.TokenInAuction.selector, s, id));
        fill(buyer, during, sig2);
        assertEq(sc.ownerOf(id), seller, "still the seller's (locked)");
        // Cancelled, the auction unlocks the token and both listings stay void.
        vm.prank(seller);
        marketAdmin.invalidateAuction(s, id);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.SellOrderVoid.selector, 0, 2));
        fill(buyer, o, sig);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.SellOrderVoid.selector, 1, 2));
        fill(buyer, during, sig2);
        assertEq(sc.ownerOf(id), seller, "the seller's");
    }

    function test_alsoListedOnChain_fillVoidsTheOnChainListing() public {
        uint256 id = mintTo(seller);
        vm.prank(seller);
        market.setSellOrder(s, id, 3 ether);
        MarketCore.SignedListing memory o = order(s, id, 1 ether, seller);
        fill(buyer, o, sign(o, SELLER_KEY));
        (address liveSeller,,) = marketAdmin.getSellOrder(s, id);
        assertEq(liveSeller, address(0), "the on-chain listing is void");
        vm.prank(buyer);
        sc.setApprovalForAll(address(market), true);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.SellOrderVoid.selector, 0, 1));
        vm.prank(other);
        market.buyNow{value: 3 ether}(s, id);
    }

    function test_sellerWithoutApproval() public {
        uint256 id = mintTo(seller);
        MarketCore.SignedListing memory o = order(s, id, 1 ether, seller);
        bytes memory sig = sign(o, SELLER_KEY);
        vm.prank(seller);
        sc.setApprovalForAll(address(market), false);
        assertTrue(
            marketAdmin.signedListingStatus(o, sig) == EaselMarketAdmin.SignedListingStatus.NotApproved, "status"
        );
        vm.expectRevert(ERC721.NotOwnerNorApproved.selector);
        fill(buyer, o, sig);
    }

    // ------------------------------------------------------------ moderation after signing

    function test_banAndBlockAfterSigning() public {
        uint256 id = mintTo(seller);
        MarketCore.SignedListing memory o = order(s, id, 1 ether, seller);
        bytes memory sig = sign(o, SELLER_KEY);

        vm.prank(admin);
        marketAdmin.setBanned(seller, true);
        assertTrue(marketAdmin.signedListingStatus(o, sig) == EaselMarketAdmin.SignedListingStatus.Refused, "banned");
        vm.expectRevert(abi.encodeWithSelector(MarketCore.UserIsBanned.selector, seller));
        fill(buyer, o, sig);
        vm.prank(admin);
        marketAdmin.setBanned(seller, false);

        vm.prank(admin);
        marketAdmin.setBanned(buyer, true);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.UserIsBanned.selector, buyer));
        fill(buyer, o, sig);
        vm.prank(admin);
        marketAdmin.setBanned(buyer, false);

        vm.prank(admin);
        marketAdmin.setTokenBlocked(s, id, true);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenIsBlocked.selector, s, id));
        fill(buyer, o, sig);
        vm.prank(admin);
        marketAdmin.setTokenBlocked(s, id, false);

        vm.prank(admin);
        marketAdmin.setCollectionBlocked(s, true);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.CollectionIsBlocked.selector, s));
        fill(buyer, o, sig);
        vm.prank(admin);
        marketAdmin.setCollectionBlocked(s, false);

        vm.prank(admin);
        marketAdmin.setMarketLocked(true);
        vm.expectRevert(MarketCore.MarketIsLocked.selector);
        fill(buyer, o, sig);
        vm.prank(admin);
        marketAdmin.setMarketLocked(false);

        fill(buyer, o, sig);
        assertEq(sc.ownerOf(id), buyer, "fills once nothing refuses it");
    }

    function test_priceRulesAndPayment() public {
        uint256 id = mintTo(seller);
        MarketCore.SignedListing memory cheap = order(s, id, 0.049 ether, seller);
        bytes memory sig = sign(cheap, SELLER_KEY);
        vm.expectRevert(
            abi.encodeWithSelector(MarketCore.PriceOutOfRange.selector, 0.049 ether, 0.05 ether, type(uint80).max)
        );
        fill(buyer, cheap, sig);
        MarketCore.SignedListing memory o = order(s, id, 1 ether, seller);
        sig = sign(o, SELLER_KEY);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.IncorrectPayment.selector, 1 ether, 0.9 ether));
        vm.prank(buyer);
        market.fillSignedListing{value: 0.9 ether}(o, sig);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.IncorrectPayment.selector, 1 ether, 1.1 ether));
        vm.prank(buyer);
        market.fillSignedListing{value: 1.1 ether}(o, sig);
        vm.deal(seller, 2 ether);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenOwnerCannotCall.selector, seller));
        fill(seller, o, sig);
        MarketCore.SignedListing memory foreign = o;
        foreign.collection = address(0xC0FFEE);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.CollectionNotSupported.selector, address(0xC0FFEE)));
        fill(buyer, foreign, sig);
    }

    // ------------------------------------------------------------ expiry, cancel, counter

    function test_expiry() public {
        uint256 id = mintTo(seller);
        MarketCore.SignedListing memory o = order(s, id, 1 ether, seller);
        bytes memory sig = sign(o, SELLER_KEY);
        vm.warp(o.expiresAt);
        assertTrue(marketAdmin.signedListingStatus(o, sig) == EaselMarketAdmin.SignedListingStatus.Expired, "st");
        vm.expectRevert(abi.encodeWithSelector(MarketCore.SellOrderExpired.selector, o.expiresAt));
        fill(buyer, o, sig);

        MarketCore.SignedListing memory far = order(s, id, 1 ether, seller);
        far.expiresAt = block.timestamp + 100 days + 1;
        sig = sign(far, SELLER_KEY);
        assertTrue(
            marketAdmin.signedListingStatus(far, sig) == EaselMarketAdmin.SignedListingStatus.NotYetValid, "far"
        );
        vm.expectRevert(
            abi.encodeWithSelector(MarketCore.ExpiryTooFar.selector, far.expiresAt, block.timestamp + 100 days)
        );
        fill(buyer, far, sig);
        // Exactly 100 days is allowed.
        far.expiresAt = block.timestamp + 100 days;
        fill(buyer, far, sign(far, SELLER_KEY));
    }

    function test_cancelOne() public {
        uint256 id = mintTo(seller);
        uint256 id2 = mintTo(seller);
        MarketCore.SignedListing memory o = order(s, id, 1 ether, seller);
        MarketCore.SignedListing memory o2 = order(s, id2, 1 ether, seller);
        bytes memory sig = sign(o, SELLER_KEY);
        vm.prank(seller);
        market.setSellOrder(s, id, 2 ether);
        // Only the owner cancels, and only in an Easel collection.
        vm.expectRevert(abi.encodeWithSelector(MarketCore.OnlyTokenOwner.selector, other, seller));
        vm.prank(other);
        marketAdmin.cancelSignedListing(s, id);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.CollectionNotSupported.selector, address(0xC0FFEE)));
        vm.prank(seller);
        marketAdmin.cancelSignedListing(address(0xC0FFEE), id);
        vm.expectEmit();
        emit SignedListingCancelled(s, id, seller, 1);
        vm.prank(seller);
        marketAdmin.cancelSignedListing(s, id);
        assertEq(sc.ownerOf(id), seller, "the token did not move");
        assertEq(sc.transferCountOf(id), 1, "counted as a transfer");
        assertTrue(marketAdmin.signedListingStatus(o, sig) == EaselMarketAdmin.SignedListingStatus.Void, "st");
        vm.expectRevert(abi.encodeWithSelector(MarketCore.SellOrderVoid.selector, 0, 1));
        fill(buyer, o, sig);
        // The on-chain listing of the token is void too; the other token's signed listing is untouched.
        (address liveSeller,,) = marketAdmin.getSellOrder(s, id);
        assertEq(liveSeller, address(0), "on-chain listing void");
        fill(buyer, o2, sign(o2, SELLER_KEY));
        // A new listing of the first signs the new count.
        MarketCore.SignedListing memory again = order(s, id, 1.5 ether, seller);
        assertEq(again.transferCount, 1, "new count");
        fill(other, again, sign(again, SELLER_KEY));
        assertEq(sc.ownerOf(id), other, "re-signed listing fills");
    }

    function test_cancelAllByCounter() public {
        uint256 id = mintTo(seller);
        uint256 id2 = mintTo(seller);
        MarketCore.SignedListing memory o = order(s, id, 1 ether, seller);
        MarketCore.SignedListing memory o2 = order(s, id2, 1 ether, seller);
        bytes memory sig = sign(o, SELLER_KEY);
        bytes memory sig2 = sign(o2, SELLER_KEY);
        vm.expectEmit();
        emit ListingCounterIncremented(seller, 1);
        vm.prank(seller);
        marketAdmin.incrementListingCounter();
        assertTrue(
            marketAdmin.signedListingStatus(o, sig) == EaselMarketAdmin.SignedListingStatus.CounterIncremented, "st"
        );
        vm.expectRevert(abi.encodeWithSelector(MarketCore.ListingCounterChanged.selector, 0, 1));
        fill(buyer, o, sig);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.ListingCounterChanged.selector, 0, 1));
        fill(buyer, o2, sig2);
        // The counter shares the seller's flags: bans and verification are unaffected, and vice versa.
        assertTrue(marketAdmin.isVerifiedArtist(seller) && !marketAdmin.isBanned(seller), "flags kept");
        vm.prank(admin);
        marketAdmin.setBanned(seller, true);
        vm.prank(admin);
        marketAdmin.setBanned(seller, false);
        assertEq(marketAdmin.listingCounterOf(seller), 1, "counter kept");
        MarketCore.SignedListing memory fresh = order(s, id, 1 ether, seller);
        fill(buyer, fresh, sign(fresh, SELLER_KEY));
    }

    // ------------------------------------------------------------ signatures

    function test_malleableAndMalformedSignatures() public {
        uint256 id = mintTo(seller);
        MarketCore.SignedListing memory o = order(s, id, 1 ether, seller);
        (uint8 v, bytes32 r, bytes32 s_) = vm.sign(SELLER_KEY, digest(o, address(market)));
        // The high-s twin recovers the same address through the precompile, and is refused.
        bytes memory twin = abi.encodePacked(r, bytes32(SECP256K1_N - uint256(s_)), v == 27 ? uint8(28) : uint8(27));
        assertEq(ecrecover(digest(o, address(market)), v == 27 ? 28 : 27, r, bytes32(SECP256K1_N - uint256(s_))), seller, "twin recovers");
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller));
        fill(buyer, o, twin);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller));
        fill(buyer, o, abi.encodePacked(r, s_, v + 2));
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller));
        fill(buyer, o, abi.encodePacked(r, s_));
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller));
        fill(buyer, o, sign(o, 0xBAD));
        assertTrue(
            marketAdmin.signedListingStatus(o, twin) == EaselMarketAdmin.SignedListingStatus.InvalidSignature, "st"
        );
        fill(buyer, o, abi.encodePacked(r, s_, v));
    }

    function test_erc1271Wallet() public {
        uint256 ownerKey = 0x5AFE;
        TestWallet wallet = new TestWallet(vm.addr(ownerKey));
        uint256 id = mintTo(address(wallet));
        wallet.act(s, abi.encodeCall(sc.setApprovalForAll, (address(market), true)));
        MarketCore.SignedListing memory o = order(s, id, 1 ether, address(wallet));
        bytes memory sig = sign(o, ownerKey);

        wallet.setAnswer(TestWallet.Answer.WrongMagic);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, address(wallet)));
        fill(buyer, o, sig);
        wallet.setAnswer(TestWallet.Answer.Revert);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, address(wallet)));
        fill(buyer, o, sig);
        wallet.setAnswer(TestWallet.Answer.Honest);
        // Another key's signature: the wallet says no.
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, address(wallet)));
        fill(buyer, o, sign(o, 0xBAD));

        uint256 before = address(wallet).balance;
        fill(buyer, o, sig);
        assertEq(sc.ownerOf(id), buyer, "sold by the wallet's signature");
        assertEq(address(wallet).balance - before, 0.8 ether, "wallet paid: price less commission and royalty");
    }

    /// A seller's key cannot sign for a wallet that does not accept it, and an EOA cannot be impersonated by
    /// an ERC-1271 answer (it has no code to answer).
    function test_eoaSellerHasNoErc1271() public {
        uint256 id = mintTo(seller);
        MarketCore.SignedListing memory o = order(s, id, 1 ether, seller);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller));
        fill(buyer, o, hex"1234");
    }

    function test_views() public view {
        (bytes1 fields, string memory name, string memory version, uint256 chainId, address verifying,,) =
            marketAdmin.eip712Domain();
        assertTrue(fields == hex"0f", "fields");
        assertEq(name, "Easel Market", "name");
        assertEq(version, "1", "version");
        assertEq(chainId, block.chainid, "chain");
        assertEq(verifying, address(market), "verifying contract");
        assertEq(
            keccak256(bytes(marketAdmin.signedListingType())),
            keccak256(
                "SignedListing(address collection,uint256 tokenId,uint256 price,address seller,uint256 transferCount,uint256 counter,uint256 expiresAt,uint16 maxFeeBps)"
            ),
            "type"
        );
    }

    function test_status_foreignCollectionAndBurnedToken() public {
        uint256 id = mintTo(seller);
        MarketCore.SignedListing memory o = order(s, id, 1 ether, seller);
        MarketCore.SignedListing memory foreign = order(s, id, 1 ether, seller);
        foreign.collection = address(0xC0FFEE);
        assertTrue(
            marketAdmin.signedListingStatus(foreign, sign(foreign, SELLER_KEY))
                == EaselMarketAdmin.SignedListingStatus.Refused,
            "not an Easel collection"
        );
        vm.prank(seller);
        sc.burnNFT(id);
        assertTrue(
            marketAdmin.signedListingStatus(o, sign(o, SELLER_KEY)) == EaselMarketAdmin.SignedListingStatus.Void,
            "burned"
        );
    }

    // ------------------------------------------------------------ the v3 review (issue 50 §2), attacked

    /// L-1: a token the operator blocked before its mint (a standard collection's next id) is sold through a
    /// signed listing: the fill read only the collection's copy, which was never written for an unminted id.
    function test_L1_tokenBlockedBeforeItsMint_signedFillRefused() public {
        vm.prank(admin);
        marketAdmin.setTokenBlocked(s, 1, true);
        // The artist's mint is not stopped; the token is born blocked.
        uint256 id = mintTo(seller);
        assertEq(id, 1, "the blocked id");
        assertTrue(marketAdmin.isTokenBlocked(s, id), "blocked at the market");
        MarketCore.SignedListing memory o = order(s, id, 1 ether, seller);
        bytes memory sig = sign(o, SELLER_KEY);
        assertTrue(marketAdmin.signedListingStatus(o, sig) == EaselMarketAdmin.SignedListingStatus.Refused, "st");
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.TokenIsBlocked.selector, s, id));
        fill(buyer, o, sig);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenIsBlocked.selector, s, id));
        vm.prank(seller);
        market.setSellOrder(s, id, 1 ether);
        // Unblocked: status and fill agree again.
        vm.prank(admin);
        marketAdmin.setTokenBlocked(s, id, false);
        assertTrue(marketAdmin.signedListingStatus(o, sig) == EaselMarketAdmin.SignedListingStatus.Live, "live");
        fill(buyer, o, sig);
        assertEq(sc.ownerOf(id), buyer, "sold once unblocked");
    }

    /// L-1 in the default collection (any verified artist mints the next id there).
    function test_L1_defaultCollectionIdBlockedBeforeItsMint() public {
        address d = address(defaultCollection);
        vm.prank(admin);
        marketAdmin.setTokenBlocked(d, 1, true);
        vm.prank(seller);
        uint256 id = defaultCollection.mintNFT(0, cid(41), none());
        assertEq(id, 1, "the blocked id");
        vm.prank(seller);
        defaultCollection.setApprovalForAll(address(market), true);
        MarketCore.SignedListing memory o = order(d, id, 1 ether, seller);
        bytes memory sig = sign(o, SELLER_KEY);
        assertTrue(marketAdmin.signedListingStatus(o, sig) == EaselMarketAdmin.SignedListingStatus.Refused, "st");
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.TokenIsBlocked.selector, d, id));
        fill(buyer, o, sig);
        // Blocked and unblocked before its mint: the next token is born free.
        vm.prank(admin);
        marketAdmin.setTokenBlocked(d, 2, true);
        vm.prank(admin);
        marketAdmin.setTokenBlocked(d, 2, false);
        vm.prank(seller);
        uint256 id2 = defaultCollection.mintNFT(0, cid(42), none());
        MarketCore.SignedListing memory o2 = order(d, id2, 1 ether, seller);
        fill(buyer, o2, sign(o2, SELLER_KEY));
        assertEq(defaultCollection.ownerOf(id2), buyer, "an unblocked id sells");
    }

    /// L-1: a block can only be written where every path reads it: a collection that does not exist yet (or a
    /// foreign contract) is refused instead of being blocked at the market alone.
    function test_L1_setTokenBlocked_onlyEaselCollections() public {
        vm.expectRevert(abi.encodeWithSelector(MarketCore.CollectionNotSupported.selector, address(0xC0FFEE)));
        vm.prank(admin);
        marketAdmin.setTokenBlocked(address(0xC0FFEE), 1, true);
    }

    /// L-2: the entrance lock ("no new listings") let an order signed during the lock fill; now every signed
    /// order waits for the entrance to open, whenever it was signed.
    function test_L2_entranceLockPausesSignedListings() public {
        uint256 id = mintTo(seller);
        uint256 id2 = mintTo(seller);
        MarketCore.SignedListing memory before = order(s, id, 1 ether, seller);
        bytes memory beforeSig = sign(before, SELLER_KEY);
        vm.prank(admin);
        marketAdmin.setEntranceLocked(true);
        MarketCore.SignedListing memory during = order(s, id2, 1 ether, seller);
        bytes memory duringSig = sign(during, SELLER_KEY);
        assertTrue(
            marketAdmin.signedListingStatus(during, duringSig) == EaselMarketAdmin.SignedListingStatus.Refused, "st"
        );
        vm.expectRevert(MarketCore.MarketEntranceIsLocked.selector);
        fill(buyer, during, duringSig);
        vm.expectRevert(MarketCore.MarketEntranceIsLocked.selector);
        fill(buyer, before, beforeSig);
        vm.prank(admin);
        marketAdmin.setEntranceLocked(false);
        fill(buyer, during, duringSig);
        fill(buyer, before, beforeSig);
        assertEq(sc.ownerOf(id), buyer, "both fill once the entrance opens");
    }

    /// I-1: an order signed with an expiry more than 100 days out is not yet valid, not dead: it fills at its
    /// signed price once its expiry comes within 100 days (the API refuses to store such an order).
    function test_I1_farExpiryIsNotYetValid() public {
        uint256 id = mintTo(seller);
        MarketCore.SignedListing memory o = order(s, id, 1 ether, seller);
        o.expiresAt = block.timestamp + 150 days;
        bytes memory sig = sign(o, SELLER_KEY);
        assertTrue(
            marketAdmin.signedListingStatus(o, sig) == EaselMarketAdmin.SignedListingStatus.NotYetValid, "not yet"
        );
        vm.expectRevert(
            abi.encodeWithSelector(MarketCore.ExpiryTooFar.selector, o.expiresAt, block.timestamp + 100 days)
        );
        fill(buyer, o, sig);
        vm.warp(block.timestamp + 50 days);
        assertTrue(marketAdmin.signedListingStatus(o, sig) == EaselMarketAdmin.SignedListingStatus.Live, "valid");
        fill(buyer, o, sig);
    }

    /// I-4: an ERC-1271 seller's check got all the buyer's gas; it now gets at most 200,000.
    function test_I4_erc1271CheckGasIsCapped() public {
        uint256 ownerKey = 0x5AFE;
        TestWallet wallet = new TestWallet(vm.addr(ownerKey));
        uint256 id = mintTo(address(wallet));
        wallet.act(s, abi.encodeCall(sc.setApprovalForAll, (address(market), true)));
        MarketCore.SignedListing memory o = order(s, id, 1 ether, address(wallet));
        bytes memory sig = sign(o, ownerKey);

        // A check that burns everything it gets costs the buyer the cap, not the transaction's gas.
        wallet.setHunger(type(uint256).max);
        assertTrue(
            marketAdmin.signedListingStatus(o, sig) == EaselMarketAdmin.SignedListingStatus.InvalidSignature, "st"
        );
        uint256 gasBefore = gasleft();
        vm.prank(buyer);
        try market.fillSignedListing{value: 1 ether, gas: 5_000_000}(o, sig) {
            revert("filled");
        } catch (bytes memory reason) {
            assertEq(
                keccak256(reason),
                keccak256(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, address(wallet))),
                "refused as an invalid signature"
            );
        }
        assertTrue(gasBefore - gasleft() < 300_000, "the buyer lost at most the cap");
        // A check that needs more than the cap fails (the API, asking the status, refuses such an order) ...
        wallet.setHunger(210_000);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, address(wallet)));
        vm.prank(buyer);
        market.fillSignedListing{value: 1 ether, gas: 5_000_000}(o, sig);
        // ... one within it passes.
        wallet.setHunger(150_000);
        assertTrue(marketAdmin.signedListingStatus(o, sig) == EaselMarketAdmin.SignedListingStatus.Live, "live");
        fill(buyer, o, sig);
        assertEq(sc.ownerOf(id), buyer, "sold");
    }

    /// I-5: a fee raised after signing applied to the signed order; now the order names the highest fee its
    /// seller accepts.
    function test_I5_feeRaisedAfterSigningIsRefused() public {
        uint256 id = mintTo(seller);
        MarketCore.SignedListing memory o = order(s, id, 1 ether, seller);
        assertEq(o.maxFeeBps, 1_000, "signed at today's commission");
        bytes memory sig = sign(o, SELLER_KEY);
        vm.prank(admin);
        marketAdmin.setFees(2_000, 0);
        assertTrue(
            marketAdmin.signedListingStatus(o, sig) == EaselMarketAdmin.SignedListingStatus.FeeAboveMax, "status"
        );
        vm.expectRevert(abi.encodeWithSelector(MarketCore.FeeAboveSignedMax.selector, 2_000, 1_000));
        fill(buyer, o, sig);
        // Back at (or below) what the seller signed for: it fills.
        vm.prank(admin);
        marketAdmin.setFees(1_000, 0);
        fill(buyer, o, sig);
        assertEq(sc.ownerOf(id), buyer, "sold at the signed fee");

        // A resale pays the secondary fee: a seller who accepts none is refused once there is one.
        vm.prank(buyer);
        sc.transferFrom(buyer, seller, id);
        MarketCore.SignedListing memory resale = order(s, id, 1 ether, seller);
        resale.maxFeeBps = 0;
        bytes memory resaleSig = sign(resale, SELLER_KEY);
        vm.prank(admin);
        marketAdmin.setFees(1_000, 250);
        assertTrue(
            marketAdmin.signedListingStatus(resale, resaleSig) == EaselMarketAdmin.SignedListingStatus.FeeAboveMax,
            "resale status"
        );
        vm.expectRevert(abi.encodeWithSelector(MarketCore.FeeAboveSignedMax.selector, 250, 0));
        fill(other, resale, resaleSig);
        vm.prank(admin);
        marketAdmin.setFees(2_000, 0);
        fill(other, resale, resaleSig);
        assertEq(sc.ownerOf(id), other, "the primary commission does not apply to a resale");
    }
}
