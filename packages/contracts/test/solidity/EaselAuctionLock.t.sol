// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {EaselOrderFixture} from "./EaselOrderFixture.sol";
import {Vm} from "./Vm.sol";
import {ERC721} from "solady/src/tokens/ERC721.sol";
import {EaselCollection} from "../../contracts/EaselCollection.sol";
import {MarketCore} from "../../contracts/market/MarketCore.sol";
import {EaselMarketAdmin} from "../../contracts/EaselMarketAdmin.sol";

/// @dev Auctions are non-custodial: the token stays with its seller, locked by its collection
/// (`reserveTokenForAuction`), until the market settles the auction (`sellAuctioned`, to the winner) or cancels it
/// (`restoreAuctioned`).
/// Each test attacks the lock: every other way to move, approve, burn, list or sell a token in an auction, with
/// and without a bid; the seller taking the market's approval back; listings signed before or during the auction;
/// the collection's auction functions called by others; and the transfer count each step adds.
contract EaselAuctionLockTest is EaselOrderFixture {
    address internal s;

    function setUp() public override {
        super.setUp();
        s = address(sc);
    }

    // ------------------------------------------------------------ helpers

    /// @dev A fresh token of the seller's collection (royalty 10%, the seller its creator), held by the seller,
    /// who approved the market for all (the fixture).
    function fresh() internal returns (uint256) {
        return mintIn(sc, seller);
    }

    /// @dev A reserve auction (1 ETH) of a fresh token; with the first bid (which starts its 72 hours) if asked.
    function auctioned(bool withBid) internal returns (uint256 id) {
        id = fresh();
        vm.prank(seller);
        market.setReserveAuction(s, id, 1 ether);
        if (withBid) {
            vm.prank(bidder);
            market.placeBid{value: 1 ether}(s, id, 1 ether);
        }
    }

    function inAuction(uint256 id) internal view returns (bytes memory) {
        return abi.encodeWithSelector(EaselCollection.TokenInAuction.selector, s, id);
    }

    function voided(uint256 signedCount, uint256 count) internal pure returns (bytes memory) {
        return abi.encodeWithSelector(MarketCore.SellOrderVoid.selector, signedCount, count);
    }

    function fill(address who, MarketCore.SignedListing memory o, bytes memory sig) internal {
        vm.prank(who);
        market.fillSignedListing{value: o.price}(o, sig);
    }

    /// @dev Every way to move, approve or burn the token outside the auction, by the seller, by an operator the
    /// seller approved for all (approving one still works: it is per owner) and by the market itself (approved
    /// for all, as every Easel seller has it): each refused with `TokenInAuction`, and nothing about the token
    /// changes.
    function assertFrozen(uint256 id) internal {
        uint256 count = sc.transferCountOf(id);
        uint256 held = sc.balanceOf(seller);
        vm.prank(seller);
        sc.setApprovalForAll(other, true);
        address[3] memory callers = [seller, other, address(market)];
        for (uint256 i; i < callers.length; ++i) {
            vm.startPrank(callers[i]);
            vm.expectRevert(inAuction(id));
            sc.transferFrom(seller, other, id);
            vm.expectRevert(inAuction(id));
            sc.transferFrom(seller, callers[i] == seller ? bidder : callers[i], id);
            vm.expectRevert(inAuction(id));
            sc.safeTransferFrom(seller, other, id);
            vm.expectRevert(inAuction(id));
            sc.safeTransferFrom(seller, other, id, "");
            vm.expectRevert(inAuction(id));
            sc.approve(other, id);
            vm.expectRevert(inAuction(id));
            sc.approve(address(0), id);
            vm.expectRevert(inAuction(id));
            sc.burnNFT(id);
            vm.stopPrank();
        }
        // The market's plain sale path refuses it too: only `sellAuctioned` moves a locked token.
        vm.prank(address(market));
        vm.expectRevert(inAuction(id));
        sc.deliverPurchase(other, id);
        vm.prank(seller);
        sc.setApprovalForAll(other, false);
        assertEq(sc.ownerOf(id), seller, "the seller keeps it");
        assertEq(sc.balanceOf(seller), held, "the seller's balance");
        assertEq(sc.balanceOf(address(market)), 0, "the market holds nothing");
        assertEq(sc.transferCountOf(id), count, "nothing counted");
        assertEq(sc.getApproved(id), address(0), "no approved address");
        assertTrue(isLocked(s, id), "still locked");
    }

    // ------------------------------------------------------------ the lock

    /// Creating an auction leaves the token with its seller (owner and balance), sets the lock, counts one
    /// transfer and clears the token's approved address and its bit; the collection emits no Transfer, only the
    /// `Approval` to nobody that says the approval is gone (and nothing without one). A standard auction that
    /// starts later locks the token at once.
    function test_lock_auctionKeepsTheTokenWithItsSeller() public {
        uint256 id = fresh();
        vm.prank(seller);
        sc.approve(other, id);
        assertEq(sc.balanceOf(seller), 1, "held");
        vm.recordLogs();
        vm.prank(seller);
        market.setReserveAuction(s, id, 1 ether);
        Vm.Log[] memory logs = vm.getRecordedLogs();
        uint256 fromCollection;
        for (uint256 i; i < logs.length; ++i) {
            if (logs[i].emitter != s) continue;
            ++fromCollection;
            assertEq(logs[i].topics[0], keccak256("Approval(address,address,uint256)"), "only the Approval");
            assertEq(logs[i].topics[1], bytes32(uint256(uint160(seller))), "by the seller");
            assertEq(logs[i].topics[2], bytes32(0), "to nobody");
            assertEq(logs[i].topics[3], bytes32(id), "of the token");
        }
        assertEq(fromCollection, 1, "one event from the collection");
        assertEq(sc.ownerOf(id), seller, "owner: the seller");
        assertEq(sc.balanceOf(seller), 1, "balance: the seller's");
        assertEq(sc.balanceOf(address(market)), 0, "the market holds nothing");
        assertTrue(isLocked(s, id), "locked");
        assertEq(sc.transferCountOf(id), 1, "the lock counts one transfer");
        assertEq(sc.getApproved(id), address(0), "the approval cleared");
        assertTrue((ownershipWord(s, id) >> (160 + 93)) & 1 == 0, "its bit cleared");
        assertEq(marketAdmin.getTokenInfo(s, id).owner, seller, "the market's view names the seller");

        uint256 later = fresh();
        vm.recordLogs();
        vm.prank(seller);
        market.setStandardAuction(s, later, 1 ether, block.timestamp + 1 days, 1 days);
        logs = vm.getRecordedLogs();
        for (uint256 i; i < logs.length; ++i) assertTrue(logs[i].emitter != s, "without an approval: no event");
        assertTrue(isLocked(s, later), "locked before its start");
        assertEq(sc.ownerOf(later), seller, "with its seller");
        assertFrozen(later);
    }

    /// While in an auction, with or without a bid, and after its end before anyone settles it, nobody can move,
    /// approve or burn the token.
    function test_attack_lockedTokenCannotMoveApproveOrBurn() public {
        assertFrozen(auctioned(false));
        uint256 id = auctioned(true);
        assertFrozen(id);
        vm.warp(block.timestamp + 72 hours);
        assertFrozen(id);
        // Settled later, it still reaches the winner.
        market.completeAuction(s, id);
        assertEq(sc.ownerOf(id), bidder, "the winner");
    }

    /// A listing made before the auction is void (the lock counted a transfer) and cannot be bought; the seller
    /// cannot list the token during the auction.
    function test_attack_lockedTokenCannotBeListedOrBoughtOnChain() public {
        for (uint256 round; round < 2; ++round) {
            uint256 id = fresh();
            vm.prank(seller);
            market.setSellOrder(s, id, 2 ether);
            vm.prank(seller);
            market.setReserveAuction(s, id, 1 ether);
            if (round == 1) {
                vm.prank(bidder);
                market.placeBid{value: 1 ether}(s, id, 1 ether);
            }
            (address listed,,) = marketAdmin.getSellOrder(s, id);
            assertEq(listed, address(0), "the listing is void");
            vm.prank(seller);
            vm.expectRevert(inAuction(id));
            market.setSellOrder(s, id, 3 ether);
            vm.prank(buyer);
            vm.expectRevert(inAuction(id));
            market.buyNow{value: 2 ether}(s, id);
            assertEq(sc.ownerOf(id), seller, "not sold");
            assertTrue(isLocked(s, id), "still locked");
        }
    }

    /// A listing signed before the auction, alone or in a bulk tree, and one signed during it (with the count
    /// the lock left) do not fill; the market's status says so. Once the winner has the token (and approved the
    /// market, as every Easel seller does), the seller's old listings are void: they cannot take it from the
    /// winner.
    function test_attack_signedListingsDoNotFillDuringOrAfterTheAuction() public {
        uint256 id = fresh();
        MarketCore.SignedListing memory before = order(sc, id, 1 ether, seller);
        bytes memory beforeSig = sign(before, SELLER_KEY);
        MarketCore.SignedListing[] memory leaves = new MarketCore.SignedListing[](1);
        leaves[0] = order(sc, id, 1.5 ether, seller);
        Tree memory tree = buildTree(leaves, 1);
        bytes memory bulkSig = packBulk(signTree(tree, SELLER_KEY), 0, proofOf(tree, 0));
        vm.prank(seller);
        market.setReserveAuction(s, id, 1 ether);
        MarketCore.SignedListing memory during = order(sc, id, 1 ether, seller);
        assertEq(during.transferCount, 1, "signed with the lock's count");
        bytes memory duringSig = sign(during, SELLER_KEY);

        for (uint256 round; round < 2; ++round) {
            if (round == 1) {
                vm.prank(bidder);
                market.placeBid{value: 1 ether}(s, id, 1 ether);
            }
            vm.expectRevert(inAuction(id));
            fill(buyer, before, beforeSig);
            vm.expectRevert(inAuction(id));
            fill(buyer, during, duringSig);
            vm.prank(buyer);
            vm.expectRevert(inAuction(id));
            market.fillBulkSignedListing{value: 1.5 ether}(leaves[0], bulkSig);
            assertTrue(
                marketAdmin.signedListingStatus(before, beforeSig) != EaselMarketAdmin.SignedListingStatus.Live,
                "the earlier listing is not live"
            );
            assertTrue(
                marketAdmin.signedListingStatus(during, duringSig) != EaselMarketAdmin.SignedListingStatus.Live,
                "the listing signed during the auction is not live"
            );
            assertEq(sc.ownerOf(id), seller, "not sold");
        }

        vm.warp(block.timestamp + 72 hours);
        market.completeAuction(s, id);
        vm.prank(bidder);
        sc.setApprovalForAll(address(market), true);
        vm.expectRevert(voided(0, 2));
        fill(buyer, before, beforeSig);
        vm.expectRevert(voided(1, 2));
        fill(buyer, during, duringSig);
        vm.prank(buyer);
        vm.expectRevert(voided(0, 2));
        market.fillBulkSignedListing{value: 1.5 ether}(leaves[0], bulkSig);
        assertEq(sc.ownerOf(id), bidder, "the winner keeps it");
    }

    /// Offers wait on a token in an auction but nobody can accept them while it is locked: not the seller (who
    /// still owns it), not the top bidder, not through an item, collection or trait offer. The winner may once
    /// it is settled.
    function test_attack_offersCannotBeAcceptedWhileLocked() public {
        uint256 id = auctioned(true);
        vm.prank(other);
        market.makeOffer{value: 2 ether}(s, id, 2 ether, block.timestamp + 7 days);
        MarketCore.CollectionOffer memory any = MarketCore.CollectionOffer({
            buyer: other, collection: s, tokenRoot: bytes32(0), price: 1 ether, expiresAt: block.timestamp + 7 days
        });
        bytes32 idLeaf = keccak256(abi.encode(id));
        bytes32 otherLeaf = keccak256(abi.encode(uint256(999)));
        MarketCore.CollectionOffer memory trait = MarketCore.CollectionOffer({
            buyer: other,
            collection: s,
            tokenRoot: idLeaf < otherLeaf
                ? keccak256(abi.encodePacked(idLeaf, otherLeaf))
                : keccak256(abi.encodePacked(otherLeaf, idLeaf)),
            price: 1 ether,
            expiresAt: block.timestamp + 7 days
        });
        bytes32[] memory proof = new bytes32[](1);
        proof[0] = otherLeaf;
        vm.startPrank(other);
        market.makeCollectionOffer{value: 1 ether}(any, 1);
        market.makeCollectionOffer{value: 1 ether}(trait, 1);
        vm.stopPrank();

        address[2] memory sellers = [seller, bidder];
        for (uint256 i; i < sellers.length; ++i) {
            vm.startPrank(sellers[i]);
            vm.expectRevert(inAuction(id));
            market.acceptOffer(s, id, 0);
            vm.expectRevert(inAuction(id));
            market.acceptCollectionOffer(any, id, new bytes32[](0));
            vm.expectRevert(inAuction(id));
            market.acceptCollectionOffer(trait, id, proof);
            vm.stopPrank();
        }
        assertEq(marketAdmin.getOffer(s, id).buyer, other, "the item offer waits");
        assertEq(marketAdmin.collectionOfferRemaining(keccak256(abi.encode(any))), 1, "the collection offer waits");
        assertEq(marketAdmin.collectionOfferRemaining(keccak256(abi.encode(trait))), 1, "the trait offer waits");
        assertEq(sc.ownerOf(id), seller, "not sold");
        assertTrue(isLocked(s, id), "still locked");

        vm.warp(block.timestamp + 72 hours);
        market.completeAuction(s, id);
        vm.prank(bidder);
        sc.setApprovalForAll(address(market), true);
        // The seller no longer owns it: the sale's transfer goes through (the winner approved the market) and the
        // owner check undoes it.
        vm.prank(seller);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.OnlyTokenOwner.selector, seller, bidder));
        market.acceptOffer(s, id, 0);
        vm.prank(bidder);
        market.acceptOffer(s, id, 2 ether);
        assertEq(sc.ownerOf(id), other, "the winner sold it to the item offer");
    }

    /// A token in an auction cannot be put in a second one, in the same block, by its seller (with or without a
    /// bid, with or without the market's approval) or by anyone else; the first auction, its bid and its escrow
    /// are untouched.
    function test_attack_secondAuctionOnALockedTokenIsRefused() public {
        uint256 id = fresh();
        vm.startPrank(seller);
        market.setReserveAuction(s, id, 1 ether);
        vm.expectRevert(inAuction(id));
        market.setReserveAuction(s, id, 2 ether);
        vm.expectRevert(inAuction(id));
        market.setStandardAuction(s, id, 1 ether, block.timestamp, 1 days);
        vm.stopPrank();
        assertEq(marketAdmin.getAuction(s, id).amount, 1 ether, "the first reserve kept");
        assertEq(marketAdmin.getAuction(s, id).kind, 2, "still a reserve auction");

        vm.prank(bidder);
        market.placeBid{value: 1 ether}(s, id, 1 ether);
        uint256 end = marketAdmin.getAuction(s, id).end;
        vm.prank(seller);
        vm.expectRevert(inAuction(id));
        market.setStandardAuction(s, id, 1 ether, block.timestamp, 1 days);
        // Without the market's approval the answer is the same: the lock is checked whatever the approval.
        vm.prank(seller);
        sc.setApprovalForAll(address(market), false);
        vm.prank(seller);
        vm.expectRevert(inAuction(id));
        market.setReserveAuction(s, id, 1 ether);
        vm.prank(seller);
        sc.setApprovalForAll(address(market), true);
        // Someone else (here an operator the seller approved for all) cannot auction the seller's token.
        vm.prank(seller);
        sc.setApprovalForAll(other, true);
        vm.prank(other);
        vm.expectRevert(ERC721.TransferFromIncorrectOwner.selector);
        market.setReserveAuction(s, id, 1 ether);

        MarketCore.Auction memory a = marketAdmin.getAuction(s, id);
        assertEq(a.seller, seller, "seller");
        assertEq(a.bidder, bidder, "the bid kept");
        assertEq(a.amount, 1 ether, "its amount");
        assertEq(a.end, end, "its end");
        assertEq(address(market).balance, 1 ether, "the bid still escrowed");
        assertEq(sc.transferCountOf(id), 1, "counted once");
        vm.warp(end);
        market.completeAuction(s, id);
        assertEq(sc.ownerOf(id), bidder, "the winner");
    }

    /// A cart holding a token in an auction (its on-chain listing from before, a listing signed before): by
    /// default the cart skips those purchases with the collection's reason and refunds their price, buying the
    /// rest; all or nothing, it reverts with that reason and nothing moves.
    function test_attack_cartWithALockedToken() public {
        uint256 id = fresh();
        MarketCore.SignedListing memory o = order(sc, id, 1 ether, seller);
        bytes memory sig = sign(o, SELLER_KEY);
        vm.prank(seller);
        market.setSellOrder(s, id, 1 ether);
        uint256 free = fresh();
        vm.prank(seller);
        market.setSellOrder(s, free, 1 ether);
        vm.prank(seller);
        market.setReserveAuction(s, id, 1 ether);

        uint256 paidBefore = buyer.balance;
        vm.recordLogs();
        cart(buyer, 3 ether, twoListed(listedP(s, id, 1 ether), listedP(s, free, 1 ether)), oneSigned(signedP(o, sig)), false);
        Vm.Log[] memory logs = vm.getRecordedLogs();
        assertEq(countSales(logs), 1, "one sale");
        (uint256[] memory ids, uint256[] memory prices, bytes[] memory reasons) = skips(logs);
        assertEq(ids.length, 2, "two skipped");
        for (uint256 i; i < 2; ++i) {
            assertEq(ids[i], id, "the locked token skipped");
            assertEq(prices[i], 1 ether, "its price");
            assertBytes(reasons[i], inAuction(id), "the collection's reason");
        }
        assertEq(paidBefore - buyer.balance, 1 ether, "only the free token paid, the rest refunded");
        assertEq(sc.ownerOf(free), buyer, "the free token bought");
        assertEq(sc.ownerOf(id), seller, "the locked one not");

        uint256 another = fresh();
        vm.prank(seller);
        market.setSellOrder(s, another, 1 ether);
        vm.prank(buyer);
        vm.expectRevert(inAuction(id));
        market.buyMany{value: 2 ether}(
            twoListed(listedP(s, another, 1 ether), listedP(s, id, 1 ether)), noSigned(), true
        );
        vm.prank(buyer);
        vm.expectRevert(inAuction(id));
        market.buyMany{value: 2 ether}(oneListed(listedP(s, another, 1 ether)), oneSigned(signedP(o, sig)), true);
        assertEq(sc.ownerOf(another), seller, "all or nothing: nothing bought");
        assertEq(sc.ownerOf(id), seller, "still with its seller");
        assertTrue(isLocked(s, id), "still locked");
    }

    // ------------------------------------------------------------ the seller's consent

    /// The lock is the seller's consent: taking the market's approval back during the auction (for all, or the
    /// token's own, which the lock already cleared) cannot keep the token from the winner, and the seller is paid.
    function test_lock_revokingTheMarketDoesNotStopSettlement() public {
        // Absolute times: via-IR may cache block.timestamp across vm.warp inside one test function.
        uint256 t0 = block.timestamp;
        uint256 id = auctioned(true);
        vm.prank(seller);
        sc.setApprovalForAll(address(market), false);
        assertTrue(!sc.isApprovedForAll(seller, address(market)), "revoked");
        vm.warp(t0 + 72 hours);
        uint256 paid = seller.balance;
        market.completeAuction(s, id);
        assertEq(sc.ownerOf(id), bidder, "the winner has it");
        assertEq(seller.balance - paid, 0.9 ether, "the seller (the creator) paid: the price less the 10% commission");
        assertEq(marketAdmin.feesAvailable(), 0.1 ether, "the commission");
        assertTrue(!isLocked(s, id), "unlocked");
        assertEq(sc.transferCountOf(id), 2, "lock and settlement");

        // Approved for this token only: the lock clears that approval, and the settlement needs none.
        vm.startPrank(artist);
        collection.setApprovalForAll(address(market), false);
        uint256 t = collection.mintNFT(1_000, cid(77), none());
        collection.approve(address(market), t);
        market.setReserveAuction(address(collection), t, 1 ether);
        vm.stopPrank();
        assertEq(collection.getApproved(t), address(0), "the token's approval cleared by the lock");
        vm.prank(buyer);
        market.placeBid{value: 1 ether}(address(collection), t, 1 ether);
        vm.warp(t0 + 144 hours);
        market.completeAuction(address(collection), t);
        assertEq(collection.ownerOf(t), buyer, "the winner has it");
    }

    // ------------------------------------------------------------ the auction's end

    /// Cancelled by its seller before any bid: the token is free (unlocked, movable, approvable) and still the
    /// seller's; every listing from before or during the auction is void (the unlock counted one more
    /// transfer), and a new one fills.
    function test_lock_sellerCancelUnlocksAndVoidsListings() public {
        uint256 id = fresh();
        vm.prank(seller);
        market.setSellOrder(s, id, 2 ether);
        MarketCore.SignedListing memory before = order(sc, id, 1 ether, seller);
        bytes memory beforeSig = sign(before, SELLER_KEY);
        vm.prank(seller);
        market.setReserveAuction(s, id, 1 ether);
        MarketCore.SignedListing memory during = order(sc, id, 1 ether, seller);
        bytes memory duringSig = sign(during, SELLER_KEY);

        vm.prank(seller);
        marketAdmin.invalidateAuction(s, id);
        assertTrue(!isLocked(s, id), "unlocked");
        assertEq(sc.ownerOf(id), seller, "still the seller's");
        assertEq(sc.transferCountOf(id), 2, "lock and unlock");
        assertEq(marketAdmin.getAuction(s, id).kind, 0, "no auction");
        vm.expectRevert(voided(0, 2));
        fill(buyer, before, beforeSig);
        vm.expectRevert(voided(1, 2));
        fill(buyer, during, duringSig);
        vm.prank(buyer);
        vm.expectRevert(voided(0, 2));
        market.buyNow{value: 2 ether}(s, id);

        vm.prank(seller);
        sc.approve(other, id);
        assertEq(sc.getApproved(id), other, "approvable again");
        MarketCore.SignedListing memory fresh_ = order(sc, id, 1 ether, seller);
        fill(buyer, fresh_, sign(fresh_, SELLER_KEY));
        assertEq(sc.ownerOf(id), buyer, "sold after the cancel");
        assertEq(sc.transferCountOf(id), 3, "counted");
    }

    /// Cancelled by an operator with a bid: the bid is refunded and the token is free and still the seller's,
    /// who moves it at once; the listings signed before and during the auction are void.
    function test_lock_operatorCancelRefundsAndUnlocks() public {
        uint256 id = fresh();
        MarketCore.SignedListing memory before = order(sc, id, 1 ether, seller);
        bytes memory beforeSig = sign(before, SELLER_KEY);
        vm.prank(seller);
        market.setReserveAuction(s, id, 1 ether);
        MarketCore.SignedListing memory during = order(sc, id, 1 ether, seller);
        bytes memory duringSig = sign(during, SELLER_KEY);
        vm.prank(bidder);
        market.placeBid{value: 1 ether}(s, id, 1 ether);
        vm.prank(seller);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.AuctionHasBid.selector, s, id, bidder));
        marketAdmin.invalidateAuction(s, id);

        uint256 refunded = bidder.balance;
        vm.prank(admin);
        marketAdmin.invalidateAuction(s, id);
        assertEq(bidder.balance - refunded, 1 ether, "the bid refunded");
        assertEq(address(market).balance, 0, "nothing left");
        assertTrue(!isLocked(s, id), "unlocked");
        assertEq(sc.ownerOf(id), seller, "still the seller's");
        assertEq(sc.transferCountOf(id), 2, "lock and unlock");
        vm.expectRevert(voided(0, 2));
        fill(buyer, before, beforeSig);
        vm.expectRevert(voided(1, 2));
        fill(buyer, during, duringSig);
        vm.prank(seller);
        sc.transferFrom(seller, other, id);
        assertEq(sc.ownerOf(id), other, "movable again");
    }

    /// After the settlement the winner holds a free token: they move it and list it; the seller and the operator
    /// the seller approved for all cannot touch it.
    function test_lock_winnerOwnsAFreeToken() public {
        uint256 id = auctioned(true);
        vm.prank(seller);
        sc.setApprovalForAll(other, true);
        vm.warp(block.timestamp + 72 hours);
        market.completeAuction(s, id);
        assertEq(sc.ownerOf(id), bidder, "the winner");
        assertEq(sc.balanceOf(seller), 0, "the seller's balance");
        assertEq(sc.balanceOf(bidder), 1, "the winner's balance");
        assertTrue(!isLocked(s, id), "unlocked");
        vm.prank(seller);
        vm.expectRevert(ERC721.TransferFromIncorrectOwner.selector);
        sc.transferFrom(seller, other, id);
        vm.prank(seller);
        vm.expectRevert(ERC721.NotOwnerNorApproved.selector);
        sc.transferFrom(bidder, seller, id);
        vm.prank(other);
        vm.expectRevert(ERC721.NotOwnerNorApproved.selector);
        sc.transferFrom(bidder, other, id);

        vm.startPrank(bidder);
        sc.approve(other, id);
        sc.setApprovalForAll(address(market), true);
        market.setSellOrder(s, id, 3 ether);
        vm.stopPrank();
        vm.prank(buyer);
        market.buyNow{value: 3 ether}(s, id);
        assertEq(sc.ownerOf(id), buyer, "the winner sold it");
        assertEq(sc.getApproved(id), address(0), "the sale cleared the winner's approval");
        assertEq(sc.transferCountOf(id), 3, "lock, settlement, sale");
    }

    /// Creating an auction adds 1 to the transfer count, its settlement 1, its cancel 1 (standard and reserve,
    /// by the seller or an operator).
    function test_lock_transferCountCreateSettleCancel() public {
        uint256 a = fresh();
        vm.prank(seller);
        market.setStandardAuction(s, a, 1 ether, block.timestamp, 1 days);
        assertEq(sc.transferCountOf(a), 1, "create");
        vm.prank(bidder);
        market.placeBid{value: 1 ether}(s, a, 1 ether);
        assertEq(sc.transferCountOf(a), 1, "a bid counts nothing");
        vm.warp(block.timestamp + 1 days);
        market.completeAuction(s, a);
        assertEq(sc.transferCountOf(a), 2, "settle");

        uint256 b = fresh();
        vm.prank(seller);
        market.setStandardAuction(s, b, 1 ether, block.timestamp, 1 days);
        assertEq(sc.transferCountOf(b), 1, "create");
        vm.prank(seller);
        marketAdmin.invalidateAuction(s, b);
        assertEq(sc.transferCountOf(b), 2, "cancel by the seller");
        vm.prank(seller);
        market.setReserveAuction(s, b, 1 ether);
        assertEq(sc.transferCountOf(b), 3, "create again");
        vm.prank(bidder);
        market.placeBid{value: 1 ether}(s, b, 1 ether);
        vm.prank(admin);
        marketAdmin.invalidateAuction(s, b);
        assertEq(sc.transferCountOf(b), 4, "cancel by an operator");
    }

    /// Writes that keep the rest of the token's record keep the lock: the owner's `cancelSignedListing` (allowed
    /// during the auction: it counts one more transfer) and an operator's block and unblock of the token.
    function test_lock_listingVoidAndBlocksKeepTheLock() public {
        uint256 id = auctioned(true);
        vm.prank(seller);
        marketAdmin.cancelSignedListing(s, id);
        assertEq(sc.transferCountOf(id), 2, "the void counted");
        assertTrue(isLocked(s, id), "still locked after the void");
        vm.startPrank(admin);
        marketAdmin.setTokenBlocked(s, id, true);
        marketAdmin.setTokenBlocked(s, id, false);
        vm.stopPrank();
        assertTrue(isLocked(s, id), "still locked after a block");
        assertFrozen(id);
        vm.warp(block.timestamp + 72 hours);
        market.completeAuction(s, id);
        assertEq(sc.ownerOf(id), bidder, "the winner");
        assertEq(sc.transferCountOf(id), 3, "lock, void, settlement");
    }

    /// The market never holds an auctioned token, so it cannot rescue one (the collection refuses: the market is
    /// not its holder), nor the winner's afterwards.
    function test_attack_rescueCannotTakeAnAuctionedToken() public {
        uint256 id = auctioned(true);
        vm.prank(admin);
        vm.expectRevert(ERC721.TransferFromIncorrectOwner.selector);
        marketAdmin.rescueToken(s, id, admin);
        assertTrue(isLocked(s, id), "still locked");
        assertEq(sc.ownerOf(id), seller, "still the seller's");
        vm.warp(block.timestamp + 72 hours);
        market.completeAuction(s, id);
        vm.prank(admin);
        vm.expectRevert(ERC721.TransferFromIncorrectOwner.selector);
        marketAdmin.rescueToken(s, id, admin);
        assertEq(sc.ownerOf(id), bidder, "the winner's");
    }

    // ------------------------------------------------------------ the collection's auction functions

    /// Only the market locks, settles or unlocks: the seller, the bidder, a stranger and the market's admin are
    /// refused (`NotMarket`).
    function test_attack_lockSettleUnlockAreMarketOnly() public {
        uint256 free = fresh();
        uint256 id = auctioned(true);
        address[4] memory callers = [seller, bidder, other, admin];
        for (uint256 i; i < callers.length; ++i) {
            vm.startPrank(callers[i]);
            vm.expectRevert(abi.encodeWithSelector(EaselCollection.NotMarket.selector, callers[i]));
            sc.reserveTokenForAuction(seller, free);
            vm.expectRevert(abi.encodeWithSelector(EaselCollection.NotMarket.selector, callers[i]));
            sc.sellAuctioned(callers[i], id);
            vm.expectRevert(abi.encodeWithSelector(EaselCollection.NotMarket.selector, callers[i]));
            sc.restoreAuctioned(id);
            vm.stopPrank();
        }
        assertTrue(!isLocked(s, free), "not locked");
        assertTrue(isLocked(s, id), "still locked");
        assertEq(sc.ownerOf(id), seller, "not settled");
        assertEq(sc.transferCountOf(id), 1, "nothing counted");
        assertEq(sc.transferCountOf(free), 0, "nothing counted");
    }

    /// The collection's side, called as the market: `reserveTokenForAuction` checks the token, its holder, the market's
    /// approval (for the token or for all) and that it is not locked yet; `sellAuctioned` and `restoreAuctioned`
    /// need a locked token (`TokenNotInAuction`); `sellAuctioned` refuses a blocked collection or token, needs no
    /// approval, answers as `deliverPurchase` (the count before the move), emits the Transfer and frees the token.
    function test_lock_collectionSideAsTheMarket() public {
        uint256 id = fresh();
        vm.startPrank(address(market));
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.TokenNotInAuction.selector, id));
        sc.sellAuctioned(other, id);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.TokenNotInAuction.selector, id));
        sc.restoreAuctioned(id);
        vm.expectRevert(ERC721.TokenDoesNotExist.selector);
        sc.reserveTokenForAuction(seller, 99);
        vm.expectRevert(ERC721.TransferFromIncorrectOwner.selector);
        sc.reserveTokenForAuction(other, id);
        vm.stopPrank();
        vm.prank(seller);
        sc.setApprovalForAll(address(market), false);
        vm.prank(address(market));
        vm.expectRevert(ERC721.NotOwnerNorApproved.selector);
        sc.reserveTokenForAuction(seller, id);
        // Approved for the token only.
        vm.prank(seller);
        sc.approve(address(market), id);
        vm.prank(address(market));
        sc.reserveTokenForAuction(seller, id);
        assertTrue(isLocked(s, id), "locked");
        assertEq(sc.getApproved(id), address(0), "the approval cleared");
        assertEq(sc.transferCountOf(id), 1, "counted");
        vm.prank(address(market));
        vm.expectRevert(inAuction(id));
        sc.reserveTokenForAuction(seller, id);
        assertEq(sc.transferCountOf(id), 1, "counted once");

        vm.prank(admin);
        marketAdmin.setCollectionBlocked(s, true);
        vm.prank(address(market));
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.CollectionIsBlocked.selector, s));
        sc.sellAuctioned(other, id);
        vm.startPrank(admin);
        marketAdmin.setCollectionBlocked(s, false);
        marketAdmin.setTokenBlocked(s, id, true);
        vm.stopPrank();
        vm.prank(address(market));
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.TokenIsBlocked.selector, s, id));
        sc.sellAuctioned(other, id);
        vm.prank(admin);
        marketAdmin.setTokenBlocked(s, id, false);

        vm.expectEmit();
        emit ERC721.Transfer(seller, other, id);
        vm.prank(address(market));
        (bool ok, bytes memory answer) = s.call(abi.encodeCall(sc.sellAuctioned, (other, id)));
        assertTrue(ok, "settled");
        (address from, address creator, uint256 royaltyBps, uint256 count, bool primary, uint256 splitCount) =
            abi.decode(answer, (address, address, uint256, uint256, bool, uint256));
        assertEq(from, seller, "the seller");
        assertEq(creator, seller, "the creator");
        assertEq(royaltyBps, 1_000, "royalty");
        assertEq(count, 1, "the count before the move");
        assertTrue(primary, "the primary sale");
        assertEq(splitCount, 0, "no split");
        assertEq(sc.ownerOf(id), other, "moved to the winner");
        assertTrue(!isLocked(s, id), "unlocked");
        assertEq(sc.transferCountOf(id), 2, "the settlement counted");
        assertTrue(marketAdmin.getTokenInfo(s, id).primarySold, "primary sale done");
        vm.prank(address(market));
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.TokenNotInAuction.selector, id));
        sc.sellAuctioned(buyer, id);
        vm.prank(other);
        sc.transferFrom(other, buyer, id);
        assertEq(sc.ownerOf(id), buyer, "free");
    }
}
