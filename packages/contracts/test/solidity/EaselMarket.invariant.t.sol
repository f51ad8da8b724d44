// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {Base} from "./Base.sol";
import {Vm} from "./Vm.sol";
import {TestActor} from "../../contracts/test/TestActor.sol";
import {EaselMarket} from "../../contracts/EaselMarket.sol";
import {EaselCollection} from "../../contracts/EaselCollection.sol";

/// @dev Drives the market with random trades among a few accounts (one of which rejects ETH).
contract MarketHandler {
    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));
    uint256 public constant TOKENS = 4;

    EaselMarket public market;
    EaselCollection public collection;
    address public artist;
    address[4] public actors;
    /// Platform fees the market should hold, computed independently of the contract.
    uint256 public ghostFees;

    constructor(EaselMarket market_, EaselCollection collection_, address artist_) {
        market = market_;
        collection = collection_;
        artist = artist_;
        TestActor rejecter = new TestActor();
        rejecter.setMode(TestActor.Mode.Reject);
        actors = [artist_, address(0xC1), address(0xC2), address(rejecter)];
    }

    function _token(uint256 seed) internal pure returns (uint256) {
        return 1 + (seed % TOKENS);
    }

    function _actor(uint256 seed) internal view returns (address) {
        return actors[seed % actors.length];
    }

    function _approve(address owner) internal {
        if (!collection.isApprovedForAll(owner, address(market))) {
            vm.prank(owner);
            collection.setApprovalForAll(address(market), true);
        }
    }

    function _fee(address seller, uint256 price) internal view returns (uint256) {
        return seller == artist ? price / 10 : 0;
    }

    function warp(uint256 seconds_) external {
        vm.warp(block.timestamp + (seconds_ % 4 days));
    }

    function list(uint256 tokenSeed, uint256 price) external {
        uint256 id = _token(tokenSeed);
        address owner = collection.ownerOf(id);
        if (owner == address(market)) return;
        _approve(owner);
        vm.prank(owner);
        try market.setSellOrder(address(collection), id, 0.05 ether + (price % 5 ether)) {} catch {}
    }

    function buy(uint256 tokenSeed, uint256 actorSeed) external {
        uint256 id = _token(tokenSeed);
        (address seller, uint256 price,) = market.getSellOrder(address(collection), id);
        address buyer = _actor(actorSeed);
        if (price == 0 || buyer == seller) return;
        vm.deal(buyer, buyer.balance + price);
        vm.prank(buyer);
        try market.buyNow{value: price}(address(collection), id) {
            ghostFees += _fee(seller, price);
        } catch {}
    }

    function auction(uint256 tokenSeed, uint256 price, bool reserve) external {
        uint256 id = _token(tokenSeed);
        address owner = collection.ownerOf(id);
        if (owner == address(market)) return;
        _approve(owner);
        vm.prank(owner);
        if (reserve) {
            try market.setReserveAuction(address(collection), id, 0.1 ether + (price % 2 ether)) {} catch {}
        } else {
            try market.setStandardAuction(address(collection), id, 1 ether + (price % 2 ether), 0, 1 hours) {} catch {}
        }
    }

    function bid(uint256 tokenSeed, uint256 actorSeed, uint256 extra) external {
        uint256 id = _token(tokenSeed);
        EaselMarket.Auction memory a = market.getAuction(address(collection), id);
        address bidder = _actor(actorSeed);
        if (a.kind == 0 || bidder == a.seller) return;
        uint256 total = market.minimumBid(address(collection), id) + (extra % 1 ether);
        uint256 value = bidder == a.bidder ? total - a.amount : total;
        vm.deal(bidder, bidder.balance + value);
        vm.prank(bidder);
        try market.placeBid{value: value}(address(collection), id) {} catch {}
    }

    function complete(uint256 tokenSeed) external {
        uint256 id = _token(tokenSeed);
        EaselMarket.Auction memory a = market.getAuction(address(collection), id);
        try market.completeAuction(address(collection), id) {
            ghostFees += _fee(a.seller, a.amount);
        } catch {}
    }

    function cancelAuction(uint256 tokenSeed) external {
        uint256 id = _token(tokenSeed);
        EaselMarket.Auction memory a = market.getAuction(address(collection), id);
        vm.prank(a.seller);
        try market.invalidateAuction(address(collection), id) {} catch {}
    }

    function offer(uint256 tokenSeed, uint256 actorSeed, uint256 amount) external {
        uint256 id = _token(tokenSeed);
        address buyer = _actor(actorSeed);
        uint256 value = 0.05 ether + (amount % 3 ether);
        vm.deal(buyer, buyer.balance + value);
        vm.prank(buyer);
        try market.makeOffer{value: value}(address(collection), id) {} catch {}
    }

    function cancelOffer(uint256 tokenSeed) external {
        uint256 id = _token(tokenSeed);
        address buyer = market.getOffer(address(collection), id).buyer;
        vm.prank(buyer);
        try market.cancelOffer(address(collection), id) {} catch {}
    }

    function acceptOffer(uint256 tokenSeed) external {
        uint256 id = _token(tokenSeed);
        address owner = collection.ownerOf(id);
        uint256 amount = market.getOffer(address(collection), id).amount;
        if (owner == address(market)) return;
        _approve(owner);
        vm.prank(owner);
        try market.acceptOffer(address(collection), id, 0) {
            ghostFees += _fee(owner, amount);
        } catch {}
    }

    function withdraw(uint256 actorSeed) external {
        address account = _actor(actorSeed);
        vm.prank(account);
        try market.withdrawTo(address(0xFEE)) {} catch {}
    }
}

contract EaselMarketInvariantTest is Base {
    MarketHandler internal handler;

    function setUp() public override {
        super.setUp();
        handler = new MarketHandler(market, collection, artist);
        for (uint256 id = 1; id <= handler.TOKENS(); ++id) mint(id);
    }

    function targetContracts() public view returns (address[] memory targets) {
        targets = new address[](1);
        targets[0] = address(handler);
    }

    /// The market's ETH is exactly the live bids and offers, the credited withdrawals and the platform fees.
    function invariant_balanceMatchesEscrowCreditsAndFees() public view {
        uint256 escrow;
        for (uint256 id = 1; id <= handler.TOKENS(); ++id) {
            escrow += market.getOffer(address(collection), id).amount;
            EaselMarket.Auction memory a = market.getAuction(address(collection), id);
            if (a.bidder != address(0)) escrow += a.amount;
        }
        assertEq(market.escrowTotal(), escrow, "escrow total");
        assertEq(address(market).balance, escrow + market.totalCredits() + handler.ghostFees(), "market balance");
        assertEq(market.feesAvailable(), handler.ghostFees(), "fees");
    }

    /// A token is never both in an auction and in a sell order.
    function invariant_auctionAndListingExclusive() public view {
        for (uint256 id = 1; id <= handler.TOKENS(); ++id) {
            if (market.getAuction(address(collection), id).kind != 0) {
                (uint256 price,) = market.sellOrderOf(address(collection), id);
                assertEq(price, 0, "listed while in auction");
                assertEq(collection.ownerOf(id), address(market), "escrowed");
            }
        }
    }
}
