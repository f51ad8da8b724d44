// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {Base} from "./Base.sol";
import {TestActor} from "../../contracts/test/TestActor.sol";
import {EaselCollection} from "../../contracts/EaselCollection.sol";
import {EaselFactory} from "../../contracts/EaselFactory.sol";
import {EaselMarket} from "../../contracts/EaselMarket.sol";
import {EaselMarketAdmin} from "../../contracts/EaselMarketAdmin.sol";
import {MarketCore} from "../../contracts/market/MarketCore.sol";
import {SellOrders} from "../../contracts/market/SellOrders.sol";
import {Auctions} from "../../contracts/market/Auctions.sol";
import {Offers} from "../../contracts/market/Offers.sol";
import {EaselCredits, EaselPayments} from "../../contracts/libraries/EaselPayments.sol";
import {LazyMintVoucher} from "../../contracts/interfaces/IEaselTypes.sol";
import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {ERC721} from "solady/src/tokens/ERC721.sol";

/// @dev Every event with all its fields (the indexer decodes them), and the library errors the other tests do not
/// reach. test/ts/abi-coverage.test.ts checks that every error and event of the ABIs is asserted somewhere.
contract EaselEventsAndErrorsTest is Base {
    address internal c;

    function setUp() public override {
        super.setUp();
        c = address(collection);
    }

    function test_events_moderationAndSettings() public {
        vm.startPrank(admin);
        vm.expectEmit();
        emit MarketCore.UserBanned(buyer, true);
        marketAdmin.setBanned(buyer, true);
        vm.expectEmit();
        emit MarketCore.ArtistVerified(other, true);
        marketAdmin.setArtistVerified(other, true);
        vm.expectEmit();
        emit MarketCore.CollectionBlocked(c, true);
        vm.expectEmit();
        emit EaselCollection.BlockedSet(true);
        marketAdmin.setCollectionBlocked(c, true);
        vm.expectEmit();
        emit MarketCore.TokenBlocked(c, 7, true);
        marketAdmin.setTokenBlocked(c, 7, true);
        vm.expectEmit();
        emit MarketCore.MarketLockSet(true);
        marketAdmin.setMarketLocked(true);
        vm.expectEmit();
        emit MarketCore.EntranceLockSet(true);
        marketAdmin.setEntranceLocked(true);
        vm.expectEmit();
        emit MarketCore.FeesSet(800, 200);
        marketAdmin.setFees(800, 200);
        vm.expectEmit();
        emit MarketCore.MinimumsSet(0.001 ether, 0.002 ether, 0.003 ether, 0.004 ether, 0.005 ether);
        marketAdmin.setMinimums(0.001 ether, 0.002 ether, 0.003 ether, 0.004 ether, 0.005 ether);
        vm.expectEmit();
        emit MarketCore.MinAuctionDurationSet(2 hours);
        marketAdmin.setMinAuctionDuration(2 hours);
        vm.expectEmit();
        emit MarketCore.SignerSet(other);
        marketAdmin.setSigner(other);
        vm.expectEmit();
        emit EaselFactory.ReservedWordSet("Studio", true);
        factory.setReserved("Studio", true);
        vm.stopPrank();
    }

    function test_events_roles() public {
        bytes32 operatorRole = marketAdmin.OPERATOR_ROLE();
        bytes32 controllerRole = marketAdmin.CONTROLLER_ROLE();
        // Every role is administered by the admin role (the default): no RoleAdminChanged at deployment.
        assertEq(marketAdmin.getRoleAdmin(controllerRole), bytes32(0), "controller role admin");

        vm.startPrank(admin);
        vm.expectEmit();
        emit IAccessControl.RoleGranted(operatorRole, other, admin);
        marketAdmin.grantRole(operatorRole, other);
        vm.expectEmit();
        emit IAccessControl.RoleRevoked(operatorRole, other, admin);
        marketAdmin.revokeRole(operatorRole, other);
        // renounceRole must name the caller itself.
        vm.expectRevert(IAccessControl.AccessControlBadConfirmation.selector);
        marketAdmin.renounceRole(operatorRole, other);
        vm.stopPrank();
    }

    function test_events_sellOrderAndFees() public {
        mintApproved(1);
        vm.expectEmit();
        emit SellOrders.SellOrderSet(c, 1, artist, 1 ether, block.timestamp + 100 days);
        vm.prank(artist);
        market.setSellOrder(c, 1, 1 ether);
        vm.expectEmit();
        emit SellOrders.SellOrderCancelled(c, 1, artist);
        vm.prank(artist);
        market.cancelSellOrder(c, 1);

        vm.prank(artist);
        market.setSellOrder(c, 1, 1 ether);
        vm.expectEmit();
        emit ERC721.Transfer(artist, buyer, 1);
        vm.prank(buyer);
        market.buyNow{value: 1 ether}(c, 1);

        vm.expectEmit();
        emit MarketCore.FeesWithdrawn(other, 0.1 ether);
        vm.prank(admin);
        marketAdmin.withdrawFees(other);
    }

    function test_events_auctions() public {
        mintApproved(1);
        uint256 start = block.timestamp + 1 hours;
        vm.expectEmit();
        emit Auctions.AuctionCreated(c, 1, artist, 1, 1 ether, start, start + 1 days);
        vm.prank(artist);
        market.setStandardAuction(c, 1, 1 ether, start, 1 days);
        vm.expectEmit();
        emit MarketCore.AuctionBaseValueChanged(c, 1, 2 ether);
        vm.prank(artist);
        marketAdmin.changeStandardAuctionBaseValue(c, 1, 2 ether);
        vm.expectEmit();
        emit MarketCore.AuctionCancelled(c, 1, artist, address(0), 0);
        vm.prank(artist);
        marketAdmin.invalidateAuction(c, 1);

        vm.prank(artist);
        collection.approve(address(market), 1);
        vm.expectEmit();
        emit Auctions.AuctionCreated(c, 1, artist, 2, 0.5 ether, 0, 0);
        vm.prank(artist);
        market.setReserveAuction(c, 1, 0.5 ether);
        vm.prank(bidder);
        market.placeBid{value: 0.5 ether}(c, 1, 0.5 ether);
        uint256 end = block.timestamp + 72 hours;
        vm.expectEmit();
        emit Auctions.BidPlaced(c, 1, buyer, 0.6 ether, end);
        vm.prank(buyer);
        market.placeBid{value: 0.6 ether}(c, 1, 0.6 ether);
        vm.warp(end);
        vm.expectEmit();
        emit MarketCore.Sale(c, 1, artist, buyer, 2, 0.6 ether, 0.06 ether, 0, true);
        market.completeAuction(c, 1);
    }

    function test_events_offers() public {
        mintApproved(1);
        vm.expectEmit();
        emit Offers.OfferMade(c, 1, buyer, 0.1 ether, block.timestamp + 7 days, address(0), 0);
        vm.prank(buyer);
        market.makeOffer{value: 0.1 ether}(c, 1, 0.1 ether, block.timestamp + 7 days);
        vm.expectEmit();
        emit Offers.OfferMade(c, 1, other, 0.2 ether, block.timestamp + 7 days, buyer, 0.1 ether);
        vm.prank(other);
        market.makeOffer{value: 0.2 ether}(c, 1, 0.2 ether, block.timestamp + 7 days);
        vm.expectEmit();
        emit Offers.OfferCancelled(c, 1, other, 0.2 ether);
        vm.prank(other);
        market.cancelOffer(c, 1);
        vm.prank(buyer);
        market.makeOffer{value: 0.3 ether}(c, 1, 0.3 ether, block.timestamp + 7 days);
        vm.expectEmit();
        emit Offers.OfferAccepted(c, 1, artist, buyer, 0.3 ether);
        vm.prank(artist);
        market.acceptOffer(c, 1, 0.3 ether);
    }

    function test_events_paymentCreditedAndWithdrawal() public {
        TestActor actor = new TestActor();
        actor.setMode(TestActor.Mode.Reject);
        vm.deal(address(actor), 1 ether);
        mintApproved(1);
        vm.prank(artist);
        market.setReserveAuction(c, 1, 0.5 ether);
        actor.act{value: 0.5 ether}(address(market), abi.encodeCall(Auctions.placeBid, (c, 1, 0.5 ether)));
        vm.expectEmit();
        emit EaselCredits.PaymentCredited(address(actor), 0.5 ether);
        vm.prank(bidder);
        market.placeBid{value: 0.6 ether}(c, 1, 0.6 ether);
        vm.expectEmit();
        emit EaselCredits.Withdrawal(address(actor), other, 0.5 ether);
        actor.act(address(market), abi.encodeCall(EaselMarketAdmin.withdrawTo, (other)));
    }

    function test_events_collection() public {
        mint(1);
        vm.expectEmit();
        emit ERC721.Approval(artist, other, 1);
        vm.prank(artist);
        collection.approve(other, 1);
        vm.expectEmit();
        emit ERC721.ApprovalForAll(artist, other, true);
        vm.prank(artist);
        collection.setApprovalForAll(other, true);

        EaselCollection lazy = createLazy(10);
        LazyMintVoucher memory v = signedVoucher(lazy, 5, 1 ether, buyer);
        vm.prank(buyer);
        lazy.lazyMint{value: 1 ether}(v);
        vm.expectEmit();
        emit EaselCollection.FeesSwept(0.1 ether);
        lazy.sweepFees();
    }

    function test_events_rescueAndSplitter() public {
        mint(1);
        vm.prank(artist);
        collection.transferFrom(artist, address(market), 1);
        vm.expectEmit();
        emit MarketCore.TokenRescued(c, 1, artist);
        vm.prank(admin);
        marketAdmin.rescueToken(c, 1, artist);

        address[] memory recipients = new address[](2);
        uint256[] memory shares = new uint256[](2);
        recipients[0] = artist;
        recipients[1] = other;
        shares[0] = 70;
        shares[1] = 30;
        vm.expectEmit(false, false, false, true);
        emit EaselFactory.RoyaltySplitterCreated(address(0), recipients, shares);
        factory.createRoyaltySplitter(recipients, shares);
    }

    function test_errors_erc721() public {
        mint(1);
        vm.expectRevert(ERC721.BalanceQueryForZeroAddress.selector);
        collection.balanceOf(address(0));
        vm.startPrank(artist);
        vm.expectRevert(ERC721.TransferFromIncorrectOwner.selector);
        collection.transferFrom(other, buyer, 1);
        vm.expectRevert(ERC721.TransferToZeroAddress.selector);
        collection.transferFrom(artist, address(0), 1);
        // A zero `from` is not "whoever owns it" outside a sale.
        vm.expectRevert(ERC721.TransferFromIncorrectOwner.selector);
        collection.transferFrom(address(0), buyer, 1);
        vm.expectRevert(ERC721.TokenDoesNotExist.selector);
        collection.transferFrom(artist, buyer, 2);
        // The market is a contract without onERC721Received.
        vm.expectRevert(ERC721.TransferToNonERC721ReceiverImplementer.selector);
        collection.safeTransferFrom(artist, address(market), 1);
        vm.stopPrank();
    }
}
