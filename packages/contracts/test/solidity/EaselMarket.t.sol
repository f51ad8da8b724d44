// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {Base} from "./Base.sol";
import {TestActor} from "../../contracts/test/TestActor.sol";
import {EaselCollection} from "../../contracts/EaselCollection.sol";
import {MarketCore} from "../../contracts/market/MarketCore.sol";
import {SellOrders} from "../../contracts/market/SellOrders.sol";
import {Auctions} from "../../contracts/market/Auctions.sol";
import {Offers} from "../../contracts/market/Offers.sol";
import {EaselMarket} from "../../contracts/EaselMarket.sol";
import {EaselMarketAdmin} from "../../contracts/EaselMarketAdmin.sol";
import {EaselFactory} from "../../contracts/EaselFactory.sol";
import {ERC721} from "solady/src/tokens/ERC721.sol";
import {EaselCredits, EaselPayments} from "../../contracts/libraries/EaselPayments.sol";
import {Collaborator} from "../../contracts/interfaces/IEaselTypes.sol";

contract EaselMarketTest is Base {
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
    event BidPlaced(
        address indexed collection, uint256 indexed tokenId, address indexed bidder, uint256 amount, uint256 end
    );

    event AuctionCancelled(
        address indexed collection,
        uint256 indexed tokenId,
        address indexed seller,
        address refundedBidder,
        uint256 refundedAmount
    );

    address internal c;

    function setUp() public override {
        super.setUp();
        c = address(collection);
    }

    function list(uint256 id, uint256 price) internal {
        mintApproved(id);
        vm.prank(artist);
        market.setSellOrder(c, id, price);
    }

    function standard(uint256 id, uint256 price, uint256 duration) internal {
        mintApproved(id);
        vm.prank(artist);
        market.setStandardAuction(c, id, price, block.timestamp, duration);
    }

    function reserve(uint256 id, uint256 price) internal {
        mintApproved(id);
        vm.prank(artist);
        market.setReserveAuction(c, id, price);
    }

    /// @dev Bids a new total of `amount`, sending what the market requires (the difference when raising).
    function bid(address who, uint256 id, uint256 amount) internal {
        MarketCore.Auction memory a = marketAdmin.getAuction(c, id);
        uint256 value = a.bidder == who ? amount - a.amount : amount;
        vm.prank(who);
        market.placeBid{value: value}(c, id, amount);
    }

    /// @dev Offers a new total of `amount`, sending what the market requires (the difference when raising).
    function offer(address who, uint256 id, uint256 amount) internal {
        EaselMarketAdmin.OfferView memory o = marketAdmin.getOffer(c, id);
        uint256 value = o.buyer == who ? amount - o.amount : amount;
        vm.prank(who);
        market.makeOffer{value: value}(c, id, amount, block.timestamp + 7 days);
    }

    // ------------------------------------------------------------ sell orders

    function test_buyNow_primarySale() public {
        list(1, 1 ether);
        (address seller, uint256 price, uint256 expiresAt) = marketAdmin.getSellOrder(c, 1);
        assertEq(seller, artist, "seller");
        assertEq(price, 1 ether, "price");
        assertEq(expiresAt, block.timestamp + 100 days, "expiry");
        uint256 before = artist.balance;
        vm.expectEmit();
        emit Sale(c, 1, artist, buyer, 1, 1 ether, 0.1 ether, 0, true);
        vm.prank(buyer);
        market.buyNow{value: 1 ether}(c, 1);
        assertEq(collection.ownerOf(1), buyer, "owner");
        assertEq(artist.balance - before, 0.9 ether, "proceeds");
        assertEq(marketAdmin.feesAvailable(), 0.1 ether, "fee");
        (seller,,) = marketAdmin.getSellOrder(c, 1);
        assertEq(seller, address(0), "cleared");

        vm.prank(admin);
        marketAdmin.withdrawFees(admin);
        assertEq(admin.balance, 0.1 ether, "fees withdrawn");
        assertEq(address(market).balance, 0, "market empty");
    }

    /// A token in an auction never has an approved address: an approval from before the auction dies with the
    /// auction's lock, nobody can approve a locked token (its seller, who still owns it, and the market, approved
    /// for all, included), and the winner's token has none.
    function test_lock_takesNoApproval_andTheWinnerGetsNone() public {
        mint(1);
        vm.startPrank(artist);
        collection.setApprovalForAll(address(market), true);
        collection.approve(other, 1);
        market.setStandardAuction(c, 1, 1 ether, block.timestamp, 1 days);
        vm.stopPrank();
        assertEq(collection.getApproved(1), address(0), "the lock cleared the approval");
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.TokenInAuction.selector, c, 1));
        collection.approve(other, 1);
        vm.prank(address(market));
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.TokenInAuction.selector, c, 1));
        collection.approve(other, 1);
        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.TokenInAuction.selector, c, 1));
        collection.approve(other, 1);
        assertEq(collection.getApproved(1), address(0), "still none");

        bid(buyer, 1, 1 ether);
        vm.warp(block.timestamp + 1 days);
        market.completeAuction(c, 1);
        assertEq(collection.ownerOf(1), buyer, "winner owns");
        assertEq(collection.getApproved(1), address(0), "no approval");
        vm.prank(other);
        vm.expectRevert(ERC721.NotOwnerNorApproved.selector);
        collection.transferFrom(buyer, other, 1);
        // The winner's own approvals work as usual, and the next transfer clears them.
        vm.prank(buyer);
        collection.approve(other, 1);
        vm.prank(other);
        collection.transferFrom(buyer, other, 1);
        assertEq(collection.ownerOf(1), other, "moved by the approved address");
        assertEq(collection.getApproved(1), address(0), "cleared by the transfer");
    }

    /// A sale writes the new owner, one more transfer and the primary-sale bit in one write of the token's
    /// ownership slot (`EaselCollection._moveToken`): nothing else stored with them may change.
    function test_sale_keepsTheTokenRecordAndCountsOnce() public {
        Collaborator[] memory split = new Collaborator[](2);
        split[0] = Collaborator(artist, 70);
        split[1] = Collaborator(other, 30);
        bytes memory id1 = cid(1);
        vm.prank(artist);
        collection.mintNFT(1_500, id1, split);
        // The market approved for this token only: the sale clears that approval.
        vm.prank(artist);
        collection.approve(address(market), 1);
        vm.prank(artist);
        market.setSellOrder(c, 1, 1 ether);
        vm.prank(buyer);
        market.buyNow{value: 1 ether}(c, 1);

        assertEq(collection.ownerOf(1), buyer, "buyer owns it");
        assertEq(collection.getApproved(1), address(0), "the token's approval cleared");
        assertEq(collection.balanceOf(artist), 0, "seller's balance");
        assertEq(collection.balanceOf(buyer), 1, "buyer's balance");
        assertEq(collection.transferCountOf(1), 1, "one transfer");
        assertTrue(marketAdmin.getTokenInfo(c, 1).primarySold, "primary sale done");
        assertEq(keccak256(collection.tokenCid(1)), keccak256(id1), "cid kept");
        (, uint256 royalty) = collection.royaltyInfo(1, 10_000);
        assertEq(royalty, 1_500, "royalty kept");
        (address[] memory recipients, uint256[] memory shares) = collection.collaboratorsOf(1);
        assertEq(recipients[1], other, "split kept");
        assertEq(shares[1], 30, "shares kept");

        // The second sale: secondary (the bit stays set), the count moves by exactly one again.
        vm.startPrank(buyer);
        collection.setApprovalForAll(address(market), true);
        market.setSellOrder(c, 1, 2 ether);
        vm.stopPrank();
        vm.prank(bidder);
        market.buyNow{value: 2 ether}(c, 1);
        assertEq(collection.transferCountOf(1), 2, "two transfers");
        assertTrue(marketAdmin.getTokenInfo(c, 1).primarySold, "still primary sold");
        assertEq(collection.ownerOf(1), bidder, "second buyer owns it");
        (, royalty) = collection.royaltyInfo(1, 10_000);
        assertEq(royalty, 1_500, "royalty still kept");

        // A plain transfer counts once too, and the token's record survives it.
        vm.prank(bidder);
        collection.safeTransferFrom(bidder, other, 1);
        assertEq(collection.transferCountOf(1), 3, "three transfers");
        assertEq(keccak256(collection.tokenCid(1)), keccak256(id1), "cid still kept");
        assertTrue(marketAdmin.getTokenInfo(c, 1).primarySold, "a transfer keeps the bit");
    }

    function test_attack_saleAfterTheSellerRevokedTheMarket() public {
        list(1, 1 ether);
        // `list` approved the market for this token only.
        vm.prank(artist);
        collection.approve(address(0), 1);
        vm.prank(buyer);
        vm.expectRevert(ERC721.NotOwnerNorApproved.selector);
        market.buyNow{value: 1 ether}(c, 1);
        assertEq(collection.ownerOf(1), artist, "nothing moved");
        assertEq(collection.transferCountOf(1), 0, "nothing counted");
    }

    function test_buyNow_secondarySalePaysRoyaltySplit() public {
        Collaborator[] memory split = new Collaborator[](2);
        split[0] = Collaborator(artist, 80);
        split[1] = Collaborator(other, 20);
        bytes memory id1 = cid(1);
        vm.prank(artist);
        collection.mintNFT(1_000, id1, split);
        vm.prank(artist);
        collection.approve(address(market), 1);
        vm.prank(artist);
        market.setSellOrder(c, 1, 1 ether);
        uint256 o0 = other.balance;
        vm.prank(buyer);
        market.buyNow{value: 1 ether}(c, 1);
        assertEq(other.balance - o0, 0.18 ether, "primary split");

        vm.prank(admin);
        marketAdmin.setFees(1_000, 250);
        vm.startPrank(buyer);
        collection.setApprovalForAll(address(market), true);
        market.setSellOrder(c, 1, 2 ether);
        vm.stopPrank();
        uint256 a = artist.balance;
        uint256 o = other.balance;
        uint256 b = buyer.balance;
        vm.expectEmit();
        emit Sale(c, 1, buyer, bidder, 1, 2 ether, 0.05 ether, 0.2 ether, false);
        vm.prank(bidder);
        market.buyNow{value: 2 ether}(c, 1);
        assertEq(artist.balance - a, 0.16 ether, "artist royalty");
        assertEq(other.balance - o, 0.04 ether, "collaborator royalty");
        assertEq(buyer.balance - b, 1.75 ether, "seller proceeds");
    }

    function test_royaltyReceiverIsAlsoSeller() public {
        // A collaborator who received the token sells it: paid both a royalty share and the proceeds. It is the
        // token's first sale through the market, so the primary commission applies.
        Collaborator[] memory split = new Collaborator[](2);
        split[0] = Collaborator(artist, 50);
        split[1] = Collaborator(buyer, 50);
        bytes memory id1 = cid(1);
        vm.startPrank(artist);
        collection.mintNFT(2_000, id1, split);
        collection.transferFrom(artist, buyer, 1);
        vm.stopPrank();
        vm.startPrank(buyer);
        collection.approve(address(market), 1);
        market.setSellOrder(c, 1, 1 ether);
        vm.stopPrank();
        uint256 b = buyer.balance;
        uint256 a = artist.balance;
        vm.prank(bidder);
        market.buyNow{value: 1 ether}(c, 1);
        assertEq(buyer.balance - b, 0.8 ether, "seller: 0.7 proceeds + 0.1 royalty share");
        assertEq(artist.balance - a, 0.1 ether, "artist royalty share");
        assertEq(marketAdmin.feesAvailable(), 0.1 ether, "primary commission");
    }

    function test_attack_primaryCommissionCannotBeAvoidedWithASecondWallet() public {
        // The creator moves the token to a second wallet and sells from there: still the token's first sale
        // through the market, so the 10% commission applies (and the royalty, paid to the creator, is no
        // saving either).
        address secondWallet = address(0x5EC);
        mint(1);
        vm.prank(artist);
        collection.transferFrom(artist, secondWallet, 1);
        vm.startPrank(secondWallet);
        collection.setApprovalForAll(address(market), true);
        market.setSellOrder(c, 1, 1 ether);
        vm.stopPrank();
        vm.expectEmit();
        emit Sale(c, 1, secondWallet, buyer, 1, 1 ether, 0.1 ether, 0.1 ether, true);
        vm.prank(buyer);
        market.buyNow{value: 1 ether}(c, 1);
        assertEq(marketAdmin.feesAvailable(), 0.1 ether, "commission paid");
        assertTrue(marketAdmin.getTokenInfo(c, 1).primarySold, "primary sale done");

        // The next sale is secondary: the secondary fee (0 by default), royalty to the creator.
        vm.startPrank(buyer);
        collection.setApprovalForAll(address(market), true);
        market.setSellOrder(c, 1, 2 ether);
        vm.stopPrank();
        vm.expectEmit();
        emit Sale(c, 1, buyer, other, 1, 2 ether, 0, 0.2 ether, false);
        vm.prank(other);
        market.buyNow{value: 2 ether}(c, 1);
    }

    function test_setSellOrder_rules() public {
        // A token that does not exist: the collection's answer comes back through the hand-made call.
        vm.prank(artist);
        vm.expectRevert(ERC721.TokenDoesNotExist.selector);
        market.setSellOrder(c, 1, 1 ether);
        mint(1);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.MarketNotApproved.selector, c, 1));
        market.setSellOrder(c, 1, 1 ether);
        vm.prank(artist);
        collection.approve(address(market), 1);
        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.OnlyTokenOwner.selector, other, artist));
        market.setSellOrder(c, 1, 1 ether);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.PriceOutOfRange.selector, 0.01 ether, 0.05 ether, type(uint80).max));
        market.setSellOrder(c, 1, 0.01 ether);
        uint256 tooBig = uint256(type(uint80).max) + 1;
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.PriceOutOfRange.selector, tooBig, 0.05 ether, type(uint80).max));
        market.setSellOrder(c, 1, tooBig);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.CollectionNotSupported.selector, address(0x1234)));
        market.setSellOrder(address(0x1234), 1, 1 ether);
        address impl = factory.collectionImplementation();
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.CollectionNotSupported.selector, impl));
        market.setSellOrder(impl, 1, 1 ether);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.CollectionNotSupported.selector, impl));
        market.buyNow{value: 1 ether}(impl, 1);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.CollectionNotSupported.selector, impl));
        market.acceptOffer(impl, 1, 0);
    }

    function test_moderation_refusesAndAllowsCancels() public {
        list(1, 1 ether);
        vm.startPrank(admin);
        marketAdmin.setBanned(buyer, true);
        vm.stopPrank();
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.UserIsBanned.selector, buyer));
        market.buyNow{value: 1 ether}(c, 1);

        vm.prank(admin);
        marketAdmin.setBanned(artist, true);
        assertTrue(marketAdmin.isBanned(artist), "banned");
        assertTrue(marketAdmin.isVerifiedArtist(artist), "still verified: the flags are independent");
        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.UserIsBanned.selector, artist));
        market.buyNow{value: 1 ether}(c, 1);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.UserIsBanned.selector, artist));
        market.setSellOrder(c, 1, 2 ether);
        // A banned seller may still cancel.
        vm.prank(artist);
        market.cancelSellOrder(c, 1);
        vm.prank(admin);
        marketAdmin.setBanned(artist, false);
        assertTrue(!marketAdmin.isBanned(artist), "unbanned");
        assertTrue(marketAdmin.isVerifiedArtist(artist), "verified");

        vm.prank(admin);
        marketAdmin.setTokenBlocked(c, 1, true);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenIsBlocked.selector, c, 1));
        market.setSellOrder(c, 1, 1 ether);
        vm.prank(admin);
        marketAdmin.setTokenBlocked(c, 1, false);

        vm.prank(admin);
        marketAdmin.setCollectionBlocked(c, true);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.CollectionIsBlocked.selector, c));
        market.setSellOrder(c, 1, 1 ether);
        vm.prank(admin);
        marketAdmin.setCollectionBlocked(c, false);

        vm.prank(admin);
        marketAdmin.setEntranceLocked(true);
        vm.prank(artist);
        vm.expectRevert(MarketCore.MarketEntranceIsLocked.selector);
        market.setSellOrder(c, 1, 1 ether);
        vm.prank(admin);
        marketAdmin.setEntranceLocked(false);

        vm.prank(artist);
        market.setSellOrder(c, 1, 1 ether);
        vm.prank(admin);
        marketAdmin.setMarketLocked(true);
        vm.prank(other);
        vm.expectRevert(MarketCore.MarketIsLocked.selector);
        market.buyNow{value: 1 ether}(c, 1);
        vm.prank(artist);
        market.cancelSellOrder(c, 1);
    }

    function test_tokenBlock_sharesTheListingSlot() public {
        list(1, 1 ether);
        vm.prank(admin);
        marketAdmin.setTokenBlocked(c, 1, true);
        assertTrue(marketAdmin.isTokenBlocked(c, 1), "blocked");
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenIsBlocked.selector, c, 1));
        market.buyNow{value: 1 ether}(c, 1);
        // A blocked collection refuses the sale too (the collection itself checks its copy of the flag).
        vm.startPrank(admin);
        marketAdmin.setTokenBlocked(c, 1, false);
        marketAdmin.setCollectionBlocked(c, true);
        vm.stopPrank();
        assertTrue(collection.isBlocked(), "the collection's copy");
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.CollectionIsBlocked.selector, c));
        market.buyNow{value: 1 ether}(c, 1);
        vm.startPrank(admin);
        marketAdmin.setCollectionBlocked(c, false);
        marketAdmin.setTokenBlocked(c, 1, true);
        vm.stopPrank();
        // Cancelling the listing keeps the block.
        vm.prank(artist);
        market.cancelSellOrder(c, 1);
        assertTrue(marketAdmin.isTokenBlocked(c, 1), "blocked");
        (uint256 price, uint256 listedAt,) = marketAdmin.sellOrderOf(c, 1);
        assertEq(price, 0, "price cleared");
        assertEq(listedAt, 0, "time cleared");
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenIsBlocked.selector, c, 1));
        market.setSellOrder(c, 1, 1 ether);
        // Unblocking keeps no listing; a new one sells normally and leaves the token unblocked.
        vm.prank(admin);
        marketAdmin.setTokenBlocked(c, 1, false);
        assertTrue(!marketAdmin.isTokenBlocked(c, 1), "unblocked");
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(SellOrders.NoSellOrder.selector, c, 1));
        market.buyNow{value: 1 ether}(c, 1);
        vm.prank(artist);
        market.setSellOrder(c, 1, 1 ether);
        vm.prank(buyer);
        market.buyNow{value: 1 ether}(c, 1);
        assertTrue(!marketAdmin.isTokenBlocked(c, 1), "unblocked");
        assertEq(collection.ownerOf(1), buyer, "owner");
        // The lock stops the other trades too (they share _checkTrade).
        vm.prank(admin);
        marketAdmin.setMarketLocked(true);
        vm.prank(other);
        vm.expectRevert(MarketCore.MarketIsLocked.selector);
        market.makeOffer{value: 1 ether}(c, 1, 1 ether, block.timestamp + 7 days);
    }

    function test_buyNow_rules() public {
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(SellOrders.NoSellOrder.selector, c, 1));
        market.buyNow{value: 1 ether}(c, 1);
        list(1, 1 ether);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.IncorrectPayment.selector, 1 ether, 0.9 ether));
        market.buyNow{value: 0.9 ether}(c, 1);
        vm.deal(artist, 2 ether);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenOwnerCannotCall.selector, artist));
        market.buyNow{value: 1 ether}(c, 1);
        vm.warp(block.timestamp + 100 days);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.SellOrderExpired.selector, block.timestamp));
        market.buyNow{value: 1 ether}(c, 1);
    }

    function test_cancelSellOrder_rules() public {
        vm.expectRevert(abi.encodeWithSelector(SellOrders.NoSellOrder.selector, c, 1));
        market.cancelSellOrder(c, 1);
        list(1, 1 ether);
        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.OnlyTokenOwner.selector, other, artist));
        market.cancelSellOrder(c, 1);
        vm.prank(artist);
        market.cancelSellOrder(c, 1);
        (, uint256 price,) = marketAdmin.getSellOrder(c, 1);
        assertEq(price, 0, "cancelled");
    }

    function test_attack_listingLeftBehindAfterTransfer() public {
        // All in the same block and second: list at the minimum, hand the token to a victim who approved the
        // market for all (as every Easel seller has), and try to buy it back at the attacker's price.
        list(1, 0.05 ether);
        vm.prank(other);
        collection.setApprovalForAll(address(market), true);
        vm.prank(artist);
        collection.transferFrom(artist, other, 1);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.SellOrderVoid.selector, 0, 1));
        market.buyNow{value: 0.05 ether}(c, 1);
        (address seller,,) = marketAdmin.getSellOrder(c, 1);
        assertEq(seller, address(0), "void listing hidden");
        // Even when the token comes back to the lister (who approved the market for all), the old listing
        // stays void.
        vm.prank(other);
        collection.transferFrom(other, artist, 1);
        vm.prank(artist);
        collection.setApprovalForAll(address(market), true);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.SellOrderVoid.selector, 0, 2));
        market.buyNow{value: 0.05 ether}(c, 1);
        (seller,,) = marketAdmin.getSellOrder(c, 1);
        assertEq(seller, address(0), "still void");
        assertEq(collection.ownerOf(1), artist, "nothing moved");
    }

    function test_attack_listingVoidAfterTransferInsideOneTransaction() public {
        // The same attack by a contract, in one transaction: list, transfer to the victim, buy back.
        TestActor attacker = new TestActor();
        mint(1);
        vm.prank(artist);
        collection.transferFrom(artist, address(attacker), 1);
        vm.prank(other);
        collection.setApprovalForAll(address(market), true);
        attacker.act(c, abi.encodeWithSignature("setApprovalForAll(address,bool)", address(market), true));
        bytes[] memory calls = new bytes[](3);
        calls[0] = abi.encodeCall(market.setSellOrder, (c, 1, 0.05 ether));
        calls[1] = abi.encodeWithSignature("transferFrom(address,address,uint256)", address(attacker), other, 1);
        calls[2] = abi.encodeCall(market.buyNow, (c, 1));
        address[] memory targets = new address[](3);
        targets[0] = address(market);
        targets[1] = c;
        targets[2] = address(market);
        uint256[] memory values = new uint256[](3);
        values[2] = 0.05 ether;
        vm.deal(address(attacker), 1 ether);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.SellOrderVoid.selector, 1, 2));
        attacker.actMany(targets, calls, values);
        assertEq(collection.ownerOf(1), address(attacker), "the victim was never robbed (all undone)");
    }

    // ------------------------------------------------------------ auctions

    function test_standardAuction_fullFlow() public {
        standard(1, 1 ether, 1 days);
        assertEq(collection.ownerOf(1), artist, "the seller keeps it (locked)");
        assertEq(collection.balanceOf(address(market)), 0, "the market holds no token");
        assertEq(marketAdmin.minimumBid(c, 1), 1 ether, "first minimum");
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(Auctions.BidTooLow.selector, 0.5 ether, 1 ether));
        market.placeBid{value: 0.5 ether}(c, 1, 0.5 ether);
        bid(buyer, 1, 1 ether);
        assertEq(marketAdmin.minimumBid(c, 1), 1.1 ether, "next minimum");
        vm.prank(bidder);
        vm.expectRevert(abi.encodeWithSelector(Auctions.BidTooLow.selector, 1.09 ether, 1.1 ether));
        market.placeBid{value: 1.09 ether}(c, 1, 1.09 ether);
        uint256 b0 = buyer.balance;
        bid(bidder, 1, 1.1 ether);
        assertEq(buyer.balance - b0, 1 ether, "outbid refunded");
        // The top bidder raises to a new total by sending exactly the difference.
        vm.prank(bidder);
        market.placeBid{value: 0.11 ether}(c, 1, 1.21 ether);
        assertEq(marketAdmin.getAuction(c, 1).amount, 1.21 ether, "raised");
        assertEq(address(market).balance, 1.21 ether, "escrowed");

        vm.prank(bidder);
        vm.expectRevert(abi.encodeWithSelector(Auctions.AuctionNotEnded.selector, block.timestamp + 1 days));
        market.completeAuction(c, 1);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.AuctionHasBid.selector, c, 1, bidder));
        vm.prank(artist);
        marketAdmin.invalidateAuction(c, 1);

        vm.warp(block.timestamp + 1 days);
        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(Auctions.AuctionTimeFinished.selector, block.timestamp));
        market.placeBid{value: 5 ether}(c, 1, 5 ether);
        uint256 a0 = artist.balance;
        vm.prank(other); // anyone may settle
        market.completeAuction(c, 1);
        assertEq(collection.ownerOf(1), bidder, "winner owns");
        assertEq(artist.balance - a0, 1.089 ether, "seller proceeds");
        assertEq(address(market).balance, 0.121 ether, "escrow released, the fee stays");
        assertEq(marketAdmin.feesAvailable(), 0.121 ether, "fee");
        vm.expectRevert(abi.encodeWithSelector(MarketCore.NoAuction.selector, c, 1));
        market.completeAuction(c, 1);
    }

    function test_standardAuction_rules() public {
        mintApproved(1);
        vm.startPrank(artist);
        uint256 t = block.timestamp;
        vm.expectRevert(abi.encodeWithSelector(Auctions.StartTooFarAhead.selector, t + 15 days, t + 14 days));
        market.setStandardAuction(c, 1, 1 ether, t + 15 days, 1 days);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.DurationOutOfRange.selector, 60, 15 minutes, 2 weeks));
        market.setStandardAuction(c, 1, 1 ether, t, 60);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.DurationOutOfRange.selector, 15 days, 15 minutes, 2 weeks));
        market.setStandardAuction(c, 1, 1 ether, t, 15 days);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.PriceOutOfRange.selector, 0.5 ether, 1 ether, type(uint80).max));
        market.setStandardAuction(c, 1, 0.5 ether, t, 1 days);
        market.setStandardAuction(c, 1, 1 ether, t + 1 days, 1 days);
        marketAdmin.changeStandardAuctionBaseValue(c, 1, 2 ether);
        vm.stopPrank();
        assertEq(marketAdmin.getAuction(c, 1).amount, 2 ether, "base value");
        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.NotAuctionSeller.selector, other, artist));
        marketAdmin.changeStandardAuctionBaseValue(c, 1, 3 ether);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(Auctions.StartTimeNotReached.selector, t + 1 days));
        market.placeBid{value: 2 ether}(c, 1, 2 ether);
        vm.deal(artist, 5 ether);
        vm.warp(t + 1 days);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenOwnerCannotCall.selector, artist));
        market.placeBid{value: 2 ether}(c, 1, 2 ether);
        bid(buyer, 1, 2 ether);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.AuctionHasBid.selector, c, 1, buyer));
        marketAdmin.changeStandardAuctionBaseValue(c, 1, 3 ether);
    }

    function test_bidInLastMinutesExtends() public {
        // Absolute times: via-IR may cache block.timestamp across vm.warp inside one test function.
        uint256 t0 = 1_700_000_000;
        standard(1, 1 ether, 1 hours);
        uint256 end = t0 + 1 hours;
        // 16 minutes before the end: no extension.
        vm.warp(end - 16 minutes);
        bid(buyer, 1, 1 ether);
        assertEq(marketAdmin.getAuction(c, 1).end, end, "not extended");
        // Exactly 15 minutes before the end: inside the window; 15 minutes are added to the end.
        vm.warp(end - 15 minutes);
        vm.expectEmit();
        emit BidPlaced(c, 1, bidder, 1.1 ether, end + 15 minutes);
        bid(bidder, 1, 1.1 ether);
        assertEq(marketAdmin.getAuction(c, 1).end, end + 15 minutes, "extended by 15 minutes");
        // The last second of the extended auction: another 15 minutes.
        vm.warp(end + 15 minutes - 1);
        bid(buyer, 1, 1.21 ether);
        assertEq(marketAdmin.getAuction(c, 1).end, end + 30 minutes, "extended again");
        vm.warp(end + 30 minutes);
        vm.prank(bidder);
        vm.expectRevert(abi.encodeWithSelector(Auctions.AuctionTimeFinished.selector, end + 30 minutes));
        market.placeBid{value: 2 ether}(c, 1, 2 ether);
    }

    function test_bidAfterEndFails() public {
        standard(1, 1 ether, 1 hours);
        vm.warp(1_700_000_000 + 1 hours);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(Auctions.AuctionTimeFinished.selector, 1_700_000_000 + 1 hours));
        market.placeBid{value: 1 ether}(c, 1, 1 ether);
    }

    function test_reserveAuction_flow() public {
        reserve(1, 0.5 ether);
        assertEq(marketAdmin.getAuction(c, 1).end, 0, "not started");
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(Auctions.BidTooLow.selector, 0.4 ether, 0.5 ether));
        market.placeBid{value: 0.4 ether}(c, 1, 0.4 ether);
        bid(buyer, 1, 0.5 ether);
        assertEq(marketAdmin.getAuction(c, 1).end, block.timestamp + 72 hours, "started for 72h");
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.AuctionHasBid.selector, c, 1, buyer));
        marketAdmin.invalidateAuction(c, 1);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.NotStandardAuction.selector, c, 1));
        marketAdmin.changeStandardAuctionBaseValue(c, 1, 1 ether);
        vm.warp(block.timestamp + 72 hours);
        market.completeAuction(c, 1);
        assertEq(collection.ownerOf(1), buyer, "winner");
    }

    function test_invalidateAuction() public {
        reserve(1, 0.5 ether);
        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.NotAuctionSeller.selector, other, artist));
        marketAdmin.invalidateAuction(c, 1);
        vm.prank(artist);
        marketAdmin.invalidateAuction(c, 1);
        assertEq(collection.ownerOf(1), artist, "still the seller's");
        assertEq(collection.transferCountOf(1), 2, "locked and unlocked");
        vm.expectRevert(abi.encodeWithSelector(MarketCore.NoAuction.selector, c, 1));
        marketAdmin.invalidateAuction(c, 1);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.NoAuction.selector, c, 1));
        market.placeBid{value: 1 ether}(c, 1, 1 ether);
        // An operator may take down an auction without bids.
        vm.startPrank(artist);
        collection.approve(address(market), 1);
        market.setReserveAuction(c, 1, 0.5 ether);
        vm.stopPrank();
        vm.prank(admin);
        marketAdmin.invalidateAuction(c, 1);
        assertEq(collection.ownerOf(1), artist, "freed by the operator");
        // Unlocked: the seller moves it.
        vm.prank(artist);
        collection.transferFrom(artist, other, 1);
        assertEq(collection.ownerOf(1), other, "movable");
        standard(2, 1 ether, 1 hours);
        vm.warp(block.timestamp + 2 hours);
        vm.expectRevert(abi.encodeWithSelector(Auctions.AuctionHasNoWinner.selector, c, 2));
        market.completeAuction(c, 2);
    }

    function test_attack_twoAuctionsAndListingDuringAuction() public {
        list(1, 1 ether);
        vm.prank(artist);
        market.setReserveAuction(c, 1, 0.5 ether);
        (, uint256 price,) = marketAdmin.getSellOrder(c, 1);
        assertEq(price, 0, "listing void once the auction locks the token");
        // The lock refuses a second auction of a token already in one.
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.TokenInAuction.selector, c, 1));
        market.setStandardAuction(c, 1, 1 ether, block.timestamp, 1 days);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.TokenInAuction.selector, c, 1));
        market.setSellOrder(c, 1, 1 ether);
        // The listing was set before the lock: void. The market's approval for this token died with the lock, so
        // the sale's transfer is refused; with the market approved for all (as most sellers have it), the locked
        // token refuses the sale before its count is compared.
        vm.prank(buyer);
        vm.expectRevert(ERC721.NotOwnerNorApproved.selector);
        market.buyNow{value: 1 ether}(c, 1);
        vm.prank(artist);
        collection.setApprovalForAll(address(market), true);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.TokenInAuction.selector, c, 1));
        market.buyNow{value: 1 ether}(c, 1);
        assertEq(collection.ownerOf(1), artist, "still the seller's");
        assertEq(collection.transferCountOf(1), 1, "counted once");
    }

    function test_attack_buyNowCompleteCancelPaysOnce() public {
        reserve(1, 0.5 ether);
        bid(buyer, 1, 0.5 ether);
        vm.warp(block.timestamp + 72 hours);
        market.completeAuction(c, 1);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.NoAuction.selector, c, 1));
        market.completeAuction(c, 1);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.NoAuction.selector, c, 1));
        marketAdmin.invalidateAuction(c, 1);
        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(SellOrders.NoSellOrder.selector, c, 1));
        market.buyNow{value: 0.5 ether}(c, 1);
        assertEq(address(market).balance, 0.05 ether, "only the fee remains");
        assertEq(marketAdmin.feesAvailable(), 0.05 ether, "fee");
    }

    /// Making an offer does not read the token, so one can wait on a token in an auction: nobody can accept it
    /// while the auction locks the token (not the seller, who still owns it, nor the top bidder: the sale's
    /// transfer refuses a locked token); once the auction is settled, the winner may.
    function test_attack_offerOnATokenInAuction() public {
        standard(1, 1 ether, 1 hours);
        bid(buyer, 1, 1 ether);
        vm.warp(block.timestamp + 2 hours);
        vm.prank(other);
        market.makeOffer{value: 2 ether}(c, 1, 2 ether, block.timestamp + 7 days);
        // The seller approves the market for all (the lock cleared its approval of this token), so the sale's
        // transfer reaches the lock.
        vm.startPrank(artist);
        collection.setApprovalForAll(address(market), true);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.TokenInAuction.selector, c, 1));
        market.acceptOffer(c, 1, 2 ether);
        vm.stopPrank();
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.TokenInAuction.selector, c, 1));
        market.acceptOffer(c, 1, 2 ether);
        assertEq(collection.ownerOf(1), artist, "still the seller's (locked)");

        market.completeAuction(c, 1);
        vm.startPrank(buyer);
        collection.setApprovalForAll(address(market), true);
        market.acceptOffer(c, 1, 2 ether);
        vm.stopPrank();
        assertEq(collection.ownerOf(1), other, "the winner sold it to the offer");
        assertEq(marketAdmin.getOffer(c, 1).buyer, address(0), "offer used");
    }

    // ------------------------------------------------------------ offers

    function test_offers_flow() public {
        mintApproved(1);
        vm.deal(artist, 1 ether);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(Offers.OfferTooLow.selector, 0.01 ether, 0.05 ether));
        market.makeOffer{value: 0.01 ether}(c, 1, 0.01 ether, block.timestamp + 7 days);
        // The owner's offer on their own token waits like any other (making an offer does not read the token),
        // but its maker cannot accept it.
        vm.startPrank(artist);
        market.makeOffer{value: 0.1 ether}(c, 1, 0.1 ether, block.timestamp + 7 days);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.CannotAcceptOwnOffer.selector, artist));
        market.acceptOffer(c, 1, 0);
        market.cancelOffer(c, 1);
        vm.stopPrank();
        assertEq(artist.balance, 1 ether, "refunded");
        vm.prank(buyer);
        market.makeOffer{value: 0.1 ether}(c, 1, 0.1 ether, block.timestamp + 7 days);
        vm.prank(buyer);
        market.makeOffer{value: 0.05 ether}(c, 1, 0.15 ether, block.timestamp + 7 days);
        assertEq(marketAdmin.getOffer(c, 1).amount, 0.15 ether, "raised by the difference");
        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(Offers.OfferTooLow.selector, 0.15 ether, 0.15 ether + 1 gwei));
        market.makeOffer{value: 0.15 ether}(c, 1, 0.15 ether, block.timestamp + 7 days);
        uint256 b0 = buyer.balance;
        vm.prank(other);
        market.makeOffer{value: 0.2 ether}(c, 1, 0.2 ether, block.timestamp + 7 days);
        assertEq(buyer.balance - b0, 0.15 ether, "previous refunded");
        assertEq(address(market).balance, 0.2 ether, "escrowed");

        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(Offers.OfferTooLow.selector, 0.2 ether, 0.3 ether));
        market.acceptOffer(c, 1, 0.3 ether);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.OnlyTokenOwner.selector, buyer, artist));
        market.acceptOffer(c, 1, 0);
        uint256 a0 = artist.balance;
        vm.expectEmit();
        emit Sale(c, 1, artist, other, 3, 0.2 ether, 0.02 ether, 0, true);
        vm.prank(artist);
        market.acceptOffer(c, 1, 0.2 ether);
        assertEq(collection.ownerOf(1), other, "new owner");
        assertEq(artist.balance - a0, 0.18 ether, "proceeds");
        assertEq(address(market).balance, 0.02 ether, "escrow released, the fee stays");
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(Offers.NoOffer.selector, c, 1));
        market.acceptOffer(c, 1, 0);
    }

    function test_cancelOffer() public {
        mint(1);
        vm.expectRevert(abi.encodeWithSelector(Offers.NoOffer.selector, c, 1));
        market.cancelOffer(c, 1);
        vm.prank(buyer);
        market.makeOffer{value: 0.1 ether}(c, 1, 0.1 ether, block.timestamp + 7 days);
        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(Offers.NotOfferBuyer.selector, other, buyer));
        market.cancelOffer(c, 1);
        vm.prank(admin);
        marketAdmin.setBanned(buyer, true);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.UserIsBanned.selector, buyer));
        market.acceptOffer(c, 1, 0);
        uint256 b0 = buyer.balance;
        vm.prank(buyer); // banned users may cancel
        market.cancelOffer(c, 1);
        assertEq(buyer.balance - b0, 0.1 ether, "refunded");
        assertEq(address(market).balance, 0, "empty");
    }

    // ------------------------------------------------------------ hostile recipients

    function test_attack_rejectingAndGasBurningBidders() public {
        TestActor rejecter = new TestActor();
        TestActor burner = new TestActor();
        rejecter.setMode(TestActor.Mode.Reject);
        burner.setMode(TestActor.Mode.BurnGas);
        vm.deal(address(rejecter), 10 ether);
        vm.deal(address(burner), 10 ether);
        reserve(1, 0.5 ether);
        rejecter.act{value: 0.5 ether}(address(market), abi.encodeCall(market.placeBid, (c, 1, 0.5 ether)));
        burner.act{value: 0.6 ether}(address(market), abi.encodeCall(market.placeBid, (c, 1, 0.6 ether)));
        assertEq(marketAdmin.creditOf(address(rejecter)), 0.5 ether, "rejecter credited");
        bid(buyer, 1, 1 ether);
        assertEq(marketAdmin.creditOf(address(burner)), 0.6 ether, "burner credited");
        assertEq(marketAdmin.totalCredits(), 1.1 ether, "total credits");
        vm.expectRevert();
        rejecter.act(address(market), abi.encodeCall(marketAdmin.withdraw, ()));
        rejecter.act(address(market), abi.encodeWithSelector(EaselMarketAdmin.withdrawTo.selector, other));
        assertEq(marketAdmin.creditOf(address(rejecter)), 0, "withdrawn elsewhere");
        vm.expectRevert(abi.encodeWithSelector(EaselCredits.NothingToWithdraw.selector, address(rejecter)));
        rejecter.act(address(market), abi.encodeWithSelector(EaselMarketAdmin.withdrawTo.selector, other));
        vm.expectRevert(EaselCredits.ZeroAddress.selector);
        burner.act(address(market), abi.encodeWithSelector(EaselMarketAdmin.withdrawTo.selector, address(0)));
        burner.setMode(TestActor.Mode.Accept);
        burner.act(address(market), abi.encodeCall(marketAdmin.withdraw, ()));
        assertEq(address(burner).balance, 10.6 ether, "burner got its bid back");
    }

    function test_attack_reentrantBidderAndSeller() public {
        TestActor actor = new TestActor();
        vm.deal(address(actor), 10 ether);
        reserve(1, 0.5 ether);
        actor.act{value: 0.5 ether}(address(market), abi.encodeCall(market.placeBid, (c, 1, 0.5 ether)));
        actor.setMode(TestActor.Mode.Reenter);
        actor.setReentry(address(market), abi.encodeCall(market.placeBid, (c, 1, 2 ether)));
        bid(buyer, 1, 1 ether);
        // The 20k gas cap leaves no room to re-enter: the push fails and the refund is credited instead.
        assertEq(actor.reentrySuccesses(), 0, "re-entry refused");
        assertEq(address(actor).balance + marketAdmin.creditOf(address(actor)), 10.5 ether, "refund paid or credited");
        actor.act(address(market), abi.encodeCall(marketAdmin.withdraw, ()));
        assertEq(actor.reentryAttempts(), 1, "re-entry attempted with full gas on withdraw");
        assertEq(actor.reentrySuccesses(), 0, "still refused (nonReentrant)");
        assertEq(address(actor).balance, 10.5 ether, "withdrawn");

        // A reentrant seller: a contract that owns a token, lists it, and re-enters on payment.
        TestActor seller = new TestActor();
        mint(2);
        vm.prank(artist);
        collection.transferFrom(artist, address(seller), 2);
        vm.warp(block.timestamp + 1);
        seller.act(c, abi.encodeWithSignature("approve(address,uint256)", address(market), 2));
        seller.act(address(market), abi.encodeCall(market.setSellOrder, (c, 2, 1 ether)));
        seller.setMode(TestActor.Mode.Reenter);
        seller.setReentry(address(market), abi.encodeCall(market.cancelSellOrder, (c, 2)));
        vm.prank(buyer);
        market.buyNow{value: 1 ether}(c, 2);
        assertEq(collection.ownerOf(2), buyer, "buyer got it");
        assertEq(seller.reentrySuccesses(), 0, "re-entry refused");
        assertEq(
            address(seller).balance + marketAdmin.creditOf(address(seller)),
            0.8 ether,
            "seller paid (first market sale: 10% commission, 10% royalty to the creator)"
        );
    }

    // ------------------------------------------------------------ admin

    function test_admin_rolesAndSettings() public {
        bytes32 controllerRole = marketAdmin.CONTROLLER_ROLE();
        bytes32 operatorRole = marketAdmin.OPERATOR_ROLE();
        vm.startPrank(other);
        vm.expectRevert(abi.encodeWithSignature("AccessControlUnauthorizedAccount(address,bytes32)", other, controllerRole));
        marketAdmin.setFees(0, 0);
        vm.expectRevert(abi.encodeWithSignature("AccessControlUnauthorizedAccount(address,bytes32)", other, operatorRole));
        marketAdmin.setBanned(buyer, true);
        vm.stopPrank();

        vm.startPrank(admin);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.FeeTooHigh.selector, 2_001, 2_000));
        marketAdmin.setFees(2_001, 0);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.FeeTooHigh.selector, 1_001, 1_000));
        marketAdmin.setFees(1_000, 1_001);
        marketAdmin.setFees(500, 100);
        marketAdmin.setMinimums(0.2 ether, 0.3 ether, 0.35 ether, 0.4 ether, 0.5 ether);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.DurationOutOfRange.selector, 30, 1 minutes, 1 days));
        marketAdmin.setMinAuctionDuration(30);
        marketAdmin.setMinAuctionDuration(1 hours);
        vm.expectRevert(EaselCredits.ZeroAddress.selector);
        marketAdmin.setSigner(address(0));
        marketAdmin.setSigner(other);
        marketAdmin.grantRole(operatorRole, other);
        vm.expectRevert(EaselCredits.ZeroAddress.selector);
        marketAdmin.withdrawFees(address(0));
        vm.stopPrank();

        MarketCore.Config memory cfg = marketAdmin.config();
        assertEq(cfg.primaryFeeBps, 500, "primary");
        assertEq(cfg.secondaryFeeBps, 100, "secondary");
        assertEq(cfg.minAuctionDuration, 1 hours, "duration");
        assertEq(cfg.signer, other, "signer");
        assertEq(market.signer(), other, "lazy signer");
        MarketCore.Minimums memory m = marketAdmin.minimums();
        assertEq(m.listing, 0.2 ether, "listing minimum");
        assertEq(m.offer, 0.3 ether, "offer minimum");
        assertEq(m.lazyMint, 0.35 ether, "lazy-mint minimum");
        assertEq(m.standardAuction, 0.4 ether, "standard minimum");
        assertEq(m.reserveAuction, 0.5 ether, "reserve minimum");
        assertTrue(marketAdmin.hasRole(operatorRole, other), "granted");
        assertTrue(marketAdmin.supportsInterface(0x7965db0b), "access control");
    }

    function test_getTokenInfo() public {
        list(1, 1 ether);
        vm.prank(buyer);
        market.makeOffer{value: 0.5 ether}(c, 1, 0.5 ether, block.timestamp + 7 days);
        EaselMarketAdmin.TokenInfo memory info = marketAdmin.getTokenInfo(c, 1);
        assertEq(info.owner, artist, "owner");
        assertEq(info.creator, artist, "creator");
        assertEq(info.royaltyBps, 1_000, "royalty");
        assertEq(info.seller, artist, "seller");
        assertEq(info.price, 1 ether, "price");
        assertEq(info.offerBuyer, buyer, "offer buyer");
        assertEq(info.offerAmount, 0.5 ether, "offer");
        assertEq(info.auctionKind, 0, "no auction");
        standard(2, 1 ether, 1 days);
        bid(bidder, 2, 1 ether);
        info = marketAdmin.getTokenInfo(c, 2);
        assertEq(info.auctionKind, 1, "standard");
        assertEq(info.topBidder, bidder, "bidder");
        assertEq(info.minimumBid, 1.1 ether, "next bid");
        assertEq(info.owner, artist, "the seller keeps it during the auction");
        assertEq(marketAdmin.minimumBid(c, 99), 0, "no auction");
        vm.expectRevert(abi.encodeWithSelector(MarketCore.CollectionNotSupported.selector, address(0xdead)));
        marketAdmin.getTokenInfo(address(0xdead), 1);
        (address s,,) = marketAdmin.getSellOrder(address(0xdead), 1);
        assertEq(s, address(0), "unsupported collection");
        vm.prank(artist);
        collection.burnNFT(1);
        (s,,) = marketAdmin.getSellOrder(c, 1);
        assertEq(s, address(0), "burned token");
    }

    function test_constructor_zeroAdminAndDeployerAsAdmin() public {
        vm.expectRevert(EaselCredits.ZeroAddress.selector);
        new EaselMarket(address(0), signer, splitterImplementation, adminCode);
        vm.expectRevert(EaselCredits.ZeroAddress.selector);
        new EaselMarket(admin, address(0), splitterImplementation, adminCode);
        // The splitter implementation must be deployed code.
        vm.expectRevert(EaselFactory.InvalidSplit.selector);
        new EaselMarket(admin, signer, address(0x5917), adminCode);
        // So must the administration code: a delegatecall to an account without code would do nothing.
        vm.expectRevert(abi.encodeWithSelector(EaselMarket.AdminCodeMissing.selector, address(0xAD0)));
        new EaselMarket(admin, signer, splitterImplementation, address(0xAD0));
        // Deployed by the admin itself: no separate setup roles are granted.
        vm.prank(admin);
        EaselMarketAdmin m = EaselMarketAdmin(address(new EaselMarket(admin, signer, splitterImplementation, adminCode)));
        assertTrue(m.hasRole(m.CONTROLLER_ROLE(), admin), "admin controller");
        assertTrue(!m.hasRole(m.CONTROLLER_ROLE(), address(this)), "no setup role");
        // The factory's address, derived from the market's (its first creation), is the factory it created.
        assertEq(address(m.factory().market()), address(m), "derived factory belongs to this market");
        assertTrue(address(m.factory()) != address(factory), "each market its own factory");
        assertEq(address(marketAdmin.factory().market()), address(market), "the fixture's factory");
    }

    function test_bidAndOfferAboveMaxPrice() public {
        uint256 tooMuch = uint256(type(uint80).max) + 1;
        vm.deal(bidder, tooMuch);
        reserve(1, 1 ether);
        vm.prank(bidder);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.PriceOutOfRange.selector, tooMuch, 1 ether, type(uint80).max));
        market.placeBid{value: tooMuch}(c, 1, tooMuch);
        mint(2);
        vm.prank(bidder);
        vm.expectRevert(
            abi.encodeWithSelector(MarketCore.PriceOutOfRange.selector, tooMuch, 0.05 ether, type(uint80).max)
        );
        market.makeOffer{value: tooMuch}(c, 2, tooMuch, block.timestamp + 7 days);
    }

    // ------------------------------------------------------------ v2 rules

    function test_attack_raisedBidStatesItsTotal() public {
        reserve(1, 1 ether);
        bid(buyer, 1, 1 ether);
        // The leader raises to 1.1 ETH: sending the total (a stale page) is refused, the difference is required.
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.IncorrectPayment.selector, 0.1 ether, 1.1 ether));
        market.placeBid{value: 1.1 ether}(c, 1, 1.1 ether);
        vm.prank(buyer);
        market.placeBid{value: 0.1 ether}(c, 1, 1.1 ether);
        assertEq(marketAdmin.getAuction(c, 1).amount, 1.1 ether, "new total");
        // The same transaction sent again cannot add to it: 1.1 ETH is no longer a valid new total.
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(Auctions.BidTooLow.selector, 1.1 ether, 1.21 ether));
        market.placeBid{value: 0.1 ether}(c, 1, 1.1 ether);
        // A newcomer must send the whole total.
        vm.prank(bidder);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.IncorrectPayment.selector, 1.21 ether, 0.11 ether));
        market.placeBid{value: 0.11 ether}(c, 1, 1.21 ether);
        assertEq(address(market).balance, 1.1 ether, "the market holds exactly the top bid");
    }

    function test_attack_raisedOfferStatesItsTotal() public {
        mint(1);
        offer(buyer, 1, 1 ether);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.IncorrectPayment.selector, 0.1 ether, 1.1 ether));
        market.makeOffer{value: 1.1 ether}(c, 1, 1.1 ether, block.timestamp + 7 days);
        vm.prank(buyer);
        market.makeOffer{value: 0.1 ether}(c, 1, 1.1 ether, block.timestamp + 7 days);
        assertEq(marketAdmin.getOffer(c, 1).amount, 1.1 ether, "new total");
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(Offers.OfferTooLow.selector, 1.1 ether, 1.1 ether + 1 gwei));
        market.makeOffer{value: 0.1 ether}(c, 1, 1.1 ether, block.timestamp + 7 days);
        assertEq(address(market).balance, 1.1 ether, "the market holds exactly the offer");
    }

    function test_attack_bannedSellersAuctionTakesNoBidsAndDoesNotPayOut() public {
        reserve(1, 1 ether);
        bid(buyer, 1, 1 ether);
        vm.prank(admin);
        marketAdmin.setBanned(artist, true);
        vm.prank(bidder);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.UserIsBanned.selector, artist));
        market.placeBid{value: 2 ether}(c, 1, 2 ether);
        vm.warp(block.timestamp + 72 hours);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.UserIsBanned.selector, artist));
        market.completeAuction(c, 1);
        // The banned seller cannot cancel an auction with a bid; an operator can, refunding the bidder.
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.AuctionHasBid.selector, c, 1, buyer));
        marketAdmin.invalidateAuction(c, 1);
        uint256 b0 = buyer.balance;
        vm.expectEmit();
        emit AuctionCancelled(c, 1, artist, buyer, 1 ether);
        vm.prank(admin);
        marketAdmin.invalidateAuction(c, 1);
        assertEq(buyer.balance - b0, 1 ether, "bid refunded");
        assertEq(collection.ownerOf(1), artist, "the token stays with its seller");
        assertEq(address(market).balance, 0, "nothing left");
    }

    function test_completeAuction_refusedWhileBlockedOrWinnerBanned() public {
        reserve(1, 1 ether);
        bid(buyer, 1, 1 ether);
        vm.warp(block.timestamp + 72 hours);
        vm.prank(admin);
        marketAdmin.setTokenBlocked(c, 1, true);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenIsBlocked.selector, c, 1));
        market.completeAuction(c, 1);
        vm.startPrank(admin);
        marketAdmin.setTokenBlocked(c, 1, false);
        marketAdmin.setCollectionBlocked(c, true);
        vm.stopPrank();
        vm.expectRevert(abi.encodeWithSelector(MarketCore.CollectionIsBlocked.selector, c));
        market.completeAuction(c, 1);
        vm.startPrank(admin);
        marketAdmin.setCollectionBlocked(c, false);
        marketAdmin.setBanned(buyer, true);
        vm.stopPrank();
        vm.expectRevert(abi.encodeWithSelector(MarketCore.UserIsBanned.selector, buyer));
        market.completeAuction(c, 1);
        vm.startPrank(admin);
        marketAdmin.setBanned(buyer, false);
        // Settlement works while the market is locked.
        marketAdmin.setMarketLocked(true);
        vm.stopPrank();
        market.completeAuction(c, 1);
        assertEq(collection.ownerOf(1), buyer, "settled");
    }

    function test_changeStandardAuctionBaseValue_respectsLockBanAndBlocks() public {
        standard(1, 1 ether, 1 days);
        vm.prank(admin);
        marketAdmin.setMarketLocked(true);
        vm.prank(artist);
        vm.expectRevert(MarketCore.MarketIsLocked.selector);
        marketAdmin.changeStandardAuctionBaseValue(c, 1, 2 ether);
        vm.startPrank(admin);
        marketAdmin.setMarketLocked(false);
        marketAdmin.setBanned(artist, true);
        vm.stopPrank();
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.UserIsBanned.selector, artist));
        marketAdmin.changeStandardAuctionBaseValue(c, 1, 2 ether);
        vm.startPrank(admin);
        marketAdmin.setBanned(artist, false);
        marketAdmin.setTokenBlocked(c, 1, true);
        vm.stopPrank();
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenIsBlocked.selector, c, 1));
        marketAdmin.changeStandardAuctionBaseValue(c, 1, 2 ether);
        vm.startPrank(admin);
        marketAdmin.setTokenBlocked(c, 1, false);
        marketAdmin.setCollectionBlocked(c, true);
        vm.stopPrank();
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.CollectionIsBlocked.selector, c));
        marketAdmin.changeStandardAuctionBaseValue(c, 1, 2 ether);
        // Bids are refused on a blocked token or collection too.
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.CollectionIsBlocked.selector, c));
        market.placeBid{value: 1 ether}(c, 1, 1 ether);
        vm.startPrank(admin);
        marketAdmin.setCollectionBlocked(c, false);
        marketAdmin.setTokenBlocked(c, 1, true);
        vm.stopPrank();
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenIsBlocked.selector, c, 1));
        market.placeBid{value: 1 ether}(c, 1, 1 ether);
    }

    function test_attack_ownerCannotAcceptOwnEarlierOffer() public {
        mint(1);
        offer(buyer, 1, 1 ether);
        // The offerer becomes the owner (here by a plain transfer), then tries to accept their own offer.
        vm.prank(artist);
        collection.transferFrom(artist, buyer, 1);
        vm.startPrank(buyer);
        collection.setApprovalForAll(address(market), true);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.CannotAcceptOwnOffer.selector, buyer));
        market.acceptOffer(c, 1, 0);
        // They cancel it instead and get it back.
        market.cancelOffer(c, 1);
        vm.stopPrank();
        assertEq(address(market).balance, 0, "refunded");
    }

    function test_attack_controllerCannotRevokeOtherControllers() public {
        bytes32 controllerRole = marketAdmin.CONTROLLER_ROLE();
        bytes32 adminRole = marketAdmin.DEFAULT_ADMIN_ROLE();
        vm.prank(admin);
        marketAdmin.grantRole(controllerRole, other);
        // A controller is not the role's admin: it cannot revoke the admin's controller role, nor grant one.
        vm.startPrank(other);
        vm.expectRevert(abi.encodeWithSignature("AccessControlUnauthorizedAccount(address,bytes32)", other, adminRole));
        marketAdmin.revokeRole(controllerRole, admin);
        vm.expectRevert(abi.encodeWithSignature("AccessControlUnauthorizedAccount(address,bytes32)", other, adminRole));
        marketAdmin.grantRole(controllerRole, buyer);
        vm.stopPrank();
        // The admin revokes and restores roles.
        vm.startPrank(admin);
        marketAdmin.revokeRole(controllerRole, other);
        marketAdmin.grantRole(controllerRole, other);
        vm.stopPrank();
        assertTrue(marketAdmin.hasRole(controllerRole, other), "restored by the admin");
        // Granting a held role or revoking one not held changes nothing and emits nothing.
        vm.recordLogs();
        vm.startPrank(admin);
        marketAdmin.grantRole(controllerRole, other);
        marketAdmin.revokeRole(controllerRole, buyer);
        vm.stopPrank();
        assertEq(vm.getRecordedLogs().length, 0, "no role events");
        assertTrue(marketAdmin.hasRole(controllerRole, other), "still held");
        // A holder gives up its own role.
        vm.prank(other);
        marketAdmin.renounceRole(controllerRole, other);
        assertTrue(!marketAdmin.hasRole(controllerRole, other), "renounced");
        assertEq(marketAdmin.getRoleAdmin(controllerRole), adminRole, "controller role administered by the admin");
        assertEq(marketAdmin.getRoleAdmin(marketAdmin.OPERATOR_ROLE()), adminRole, "operator role administered by the admin");
    }

    function test_setMinimums_refusesZeroAndFractionsOfAThousandthOfAnEther() public {
        vm.startPrank(admin);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidMinimum.selector, 0));
        marketAdmin.setMinimums(0, 1 ether, 1 ether, 1 ether, 1 ether);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidMinimum.selector, 0));
        marketAdmin.setMinimums(1 ether, 0, 1 ether, 1 ether, 1 ether);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidMinimum.selector, 0));
        marketAdmin.setMinimums(1 ether, 1 ether, 0, 1 ether, 1 ether);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidMinimum.selector, 0));
        marketAdmin.setMinimums(1 ether, 1 ether, 1 ether, 0, 1 ether);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidMinimum.selector, 0));
        marketAdmin.setMinimums(1 ether, 1 ether, 1 ether, 1 ether, 0);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidMinimum.selector, 1 ether + 1));
        marketAdmin.setMinimums(1 ether + 1, 1 ether, 1 ether, 1 ether, 1 ether);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidMinimum.selector, 0.0005 ether));
        marketAdmin.setMinimums(1 ether, 1 ether, 1 ether, 0.0005 ether, 1 ether);
        uint256 tooBig = (uint256(type(uint24).max) + 1) * 0.001 ether;
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidMinimum.selector, tooBig));
        marketAdmin.setMinimums(1 ether, tooBig, 1 ether, 1 ether, 1 ether);
        // The extremes that fit.
        marketAdmin.setMinimums(0.001 ether, tooBig - 0.001 ether, 0.001 ether, 0.001 ether, 0.001 ether);
        vm.stopPrank();
        assertEq(marketAdmin.minimums().offer, tooBig - 0.001 ether, "largest minimum");
        assertEq(marketAdmin.minimums().listing, 0.001 ether, "smallest minimum");
    }

    function test_rescueToken_returnsStrayTokensButNeverAuctionedOnes() public {
        // The market holds only tokens sent to it by hand.
        mint(1);
        vm.prank(artist);
        collection.transferFrom(artist, address(market), 1);
        bytes32 operatorRole = marketAdmin.OPERATOR_ROLE();
        vm.prank(other);
        vm.expectRevert(
            abi.encodeWithSignature("AccessControlUnauthorizedAccount(address,bytes32)", other, operatorRole)
        );
        marketAdmin.rescueToken(c, 1, other);
        vm.prank(admin);
        vm.expectRevert(EaselCredits.ZeroAddress.selector);
        marketAdmin.rescueToken(c, 1, address(0));
        vm.prank(admin);
        marketAdmin.rescueToken(c, 1, artist);
        assertEq(collection.ownerOf(1), artist, "returned");

        // An auctioned token stays with its seller, locked: the market does not hold it, so the collection refuses
        // the rescue's transfer.
        standard(2, 1 ether, 1 days);
        vm.prank(admin);
        vm.expectRevert(ERC721.TransferFromIncorrectOwner.selector);
        marketAdmin.rescueToken(c, 2, admin);
        assertEq(collection.ownerOf(2), artist, "still the seller's");
        assertEq(marketAdmin.getAuction(c, 2).seller, artist, "the auction intact");
    }

    // ------------------------------------------------------------ the market's two contracts

    /// Called at its own address, the admin contract refuses everything that changes state, even from accounts
    /// that hold every role at the market, and its own storage stays empty.
    function test_adminCode_directCallsChangeNothing() public {
        EaselMarketAdmin direct = EaselMarketAdmin(adminCode);
        standard(1, 1 ether, 1 days);
        bytes32 operatorRole = marketAdmin.OPERATOR_ROLE();
        vm.deal(adminCode, 1 ether);
        vm.startPrank(admin);
        vm.expectRevert(EaselMarketAdmin.DirectCallRefused.selector);
        direct.grantRole(operatorRole, other);
        vm.expectRevert(EaselMarketAdmin.DirectCallRefused.selector);
        direct.revokeRole(operatorRole, admin);
        vm.expectRevert(EaselMarketAdmin.DirectCallRefused.selector);
        direct.renounceRole(operatorRole, admin);
        vm.expectRevert(EaselMarketAdmin.DirectCallRefused.selector);
        direct.setBanned(buyer, true);
        vm.expectRevert(EaselMarketAdmin.DirectCallRefused.selector);
        direct.setArtistVerified(other, true);
        vm.expectRevert(EaselMarketAdmin.DirectCallRefused.selector);
        direct.setFees(0, 0);
        vm.expectRevert(EaselMarketAdmin.DirectCallRefused.selector);
        direct.setMinimums(1 ether, 1 ether, 1 ether, 1 ether, 1 ether);
        vm.expectRevert(EaselMarketAdmin.DirectCallRefused.selector);
        direct.setMinAuctionDuration(1 hours);
        vm.expectRevert(EaselMarketAdmin.DirectCallRefused.selector);
        direct.setSigner(other);
        vm.expectRevert(EaselMarketAdmin.DirectCallRefused.selector);
        direct.withdrawFees(admin);
        vm.expectRevert(EaselMarketAdmin.DirectCallRefused.selector);
        direct.setCollectionBlocked(c, true);
        vm.expectRevert(EaselMarketAdmin.DirectCallRefused.selector);
        direct.setTokenBlocked(c, 1, true);
        vm.expectRevert(EaselMarketAdmin.DirectCallRefused.selector);
        direct.setMarketLocked(true);
        vm.expectRevert(EaselMarketAdmin.DirectCallRefused.selector);
        direct.setEntranceLocked(true);
        vm.expectRevert(EaselMarketAdmin.DirectCallRefused.selector);
        direct.rescueToken(c, 1, admin);
        vm.expectRevert(EaselMarketAdmin.DirectCallRefused.selector);
        direct.invalidateAuction(c, 1);
        vm.stopPrank();
        vm.prank(artist);
        vm.expectRevert(EaselMarketAdmin.DirectCallRefused.selector);
        direct.invalidateAuction(c, 1);

        // Its own storage holds nothing: no role, no setting, no auction; the market's is untouched.
        assertTrue(!direct.hasRole(operatorRole, admin), "no role at the admin contract");
        assertTrue(!direct.hasRole(operatorRole, other), "none granted");
        assertEq(direct.feesAvailable(), 0, "no fees");
        assertEq(direct.config().signer, address(0), "no settings");
        assertEq(direct.getAuction(c, 1).seller, address(0), "no auction");
        assertEq(adminCode.balance, 1 ether, "its ether stays");
        assertTrue(marketAdmin.hasRole(operatorRole, admin), "market roles unchanged");
        assertTrue(!marketAdmin.hasRole(operatorRole, other), "nothing granted at the market");
        assertTrue(!marketAdmin.isBanned(buyer), "nobody banned");
        assertTrue(!marketAdmin.isTokenBlocked(c, 1), "token not blocked");
        assertTrue(!marketAdmin.isCollectionBlocked(c), "collection not blocked");
        assertEq(marketAdmin.config().signer, signer, "signer unchanged");
        assertEq(marketAdmin.getAuction(c, 1).seller, artist, "auction still there");
        // Views that need the market's code hash of collections cannot answer there.
        vm.expectRevert();
        direct.getTokenInfo(c, 1);
    }

    /// The fallback passes the admin code's return data and reverts (custom errors with their arguments) through,
    /// and a selector neither contract has still reverts.
    function test_fallback_passesReturnsAndRevertsThrough() public {
        standard(1, 1 ether, 1 days);
        // Return data: a word, a struct, several values.
        assertEq(marketAdmin.minimumBid(c, 1), 1 ether, "word");
        MarketCore.Auction memory a = marketAdmin.getAuction(c, 1);
        assertEq(a.seller, artist, "struct seller");
        assertEq(a.amount, 1 ether, "struct amount");
        (bool ok, bytes memory ret) = address(market).staticcall(abi.encodeCall(EaselMarketAdmin.getAuction, (c, 1)));
        assertTrue(ok, "raw call succeeds");
        assertEq(ret.length, 7 * 32, "the whole struct comes back");
        // Reverts: custom errors with their arguments, from the admin code's checks and its own calls.
        vm.expectRevert(abi.encodeWithSelector(MarketCore.NotAuctionSeller.selector, other, artist));
        vm.prank(other);
        marketAdmin.invalidateAuction(c, 1);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.CollectionNotSupported.selector, other));
        marketAdmin.getTokenInfo(other, 1);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidMinimum.selector, 1));
        vm.prank(admin);
        marketAdmin.setMinimums(1, 1 ether, 1 ether, 1 ether, 1 ether);
        // Value sent to a function that takes none is refused.
        vm.deal(admin, 1 ether);
        vm.prank(admin);
        (ok,) = address(market).call{value: 1}(abi.encodeCall(EaselMarketAdmin.setMarketLocked, (true)));
        assertTrue(!ok, "not payable");
        assertTrue(!marketAdmin.config().locked, "not locked");
        // Unknown selectors and short calldata revert, with or without value.
        (ok, ret) = address(market).call(abi.encodeWithSelector(bytes4(0xdeadbeef), uint256(1)));
        assertTrue(!ok, "unknown selector");
        assertEq(ret.length, 0, "no reason");
        (ok,) = address(market).call{value: 1}(hex"01");
        assertTrue(!ok, "short calldata with value");
        assertEq(marketAdmin.feesAvailable(), 0, "no value kept");
        // State written through the fallback is what the trades read, and the other way round.
        vm.prank(admin);
        marketAdmin.setMarketLocked(true);
        vm.expectRevert(MarketCore.MarketIsLocked.selector);
        vm.prank(bidder);
        market.placeBid{value: 1 ether}(c, 1, 1 ether);
    }

    function test_receive_countsAsFees() public {
        vm.deal(address(this), 1 ether);
        (bool ok,) = address(market).call{value: 0.3 ether}("");
        assertTrue(ok, "accepted");
        assertEq(marketAdmin.feesAvailable(), 0.3 ether, "fees");
    }

    // ------------------------------------------------------------ fuzz

    /// Every sale pays out exactly the price: fee + royalty + proceeds == price, in ETH actually moved.
    function testFuzz_salePaysExactlyThePrice(uint80 price, uint16 royaltyBps, uint16 secondaryFeeBps, uint8 shareSeed)
        public
    {
        uint256 p = bound(price, 0.05 ether, 100_000 ether);
        royaltyBps = uint16(bound(royaltyBps, 0, 2_000));
        secondaryFeeBps = uint16(bound(secondaryFeeBps, 0, 1_000));
        uint8 s1 = uint8(bound(shareSeed, 1, 19) * 5);
        Collaborator[] memory split = new Collaborator[](2);
        split[0] = Collaborator(artist, 100 - s1);
        split[1] = Collaborator(other, s1);
        bytes memory id1 = cid(1);
        vm.startPrank(artist);
        collection.mintNFT(royaltyBps, id1, split);
        collection.setApprovalForAll(address(market), true);
        vm.stopPrank();
        vm.prank(admin);
        marketAdmin.setFees(1_000, secondaryFeeBps);

        // Primary sale by the creator: commission, the rest split among the collaborators.
        vm.prank(artist);
        market.setSellOrder(c, 1, p);
        vm.deal(buyer, p);
        uint256 before = artist.balance + other.balance + address(market).balance;
        vm.prank(buyer);
        market.buyNow{value: p}(c, 1);
        assertEq(artist.balance + other.balance + address(market).balance - before, p, "primary: all paid out");
        uint256 primaryFee = p * 1_000 / 10_000;
        assertEq(marketAdmin.feesAvailable(), primaryFee, "commission");
        assertEq(buyer.balance, 0, "buyer paid exactly");

        // Secondary sale: secondary fee, royalty split, the rest to the seller.
        vm.startPrank(buyer);
        collection.setApprovalForAll(address(market), true);
        market.setSellOrder(c, 1, p);
        vm.stopPrank();
        vm.deal(bidder, p);
        before = artist.balance + other.balance + buyer.balance + address(market).balance;
        vm.prank(bidder);
        market.buyNow{value: p}(c, 1);
        uint256 afterSale = artist.balance + other.balance + buyer.balance + address(market).balance;
        assertEq(afterSale - before, p, "secondary: all paid out");
        assertEq(marketAdmin.feesAvailable(), primaryFee + p * secondaryFeeBps / 10_000, "secondary fee");
        assertEq(bidder.balance, 0, "buyer paid exactly");
    }

    function testFuzz_auctionTimes(uint32 startOffset, uint32 duration) public {
        mintApproved(1);
        uint256 start = block.timestamp + startOffset;
        bool valid = startOffset <= 2 weeks && duration >= 15 minutes && duration <= 2 weeks;
        vm.prank(artist);
        (bool ok,) = address(market).call(abi.encodeCall(market.setStandardAuction, (c, 1, 1 ether, start, duration)));
        assertTrue(ok == valid, "validity");
        if (ok) {
            assertEq(marketAdmin.getAuction(c, 1).end, start + duration, "end");
        }
    }

    function testFuzz_bidIncrement(uint96 first, uint96 second) public {
        uint256 f = bound(first, 1 ether, 1_000 ether);
        uint256 s = bound(second, 0, 2_000 ether);
        standard(1, 1 ether, 1 days);
        bid(buyer, 1, f);
        vm.deal(bidder, s);
        vm.prank(bidder);
        (bool ok,) = address(market).call{value: s}(abi.encodeCall(market.placeBid, (c, 1, s)));
        assertTrue(ok == (s >= f + f / 10), "10% rule");
        assertEq(address(market).balance, ok ? s : f, "the market holds exactly the top bid");
    }
}
