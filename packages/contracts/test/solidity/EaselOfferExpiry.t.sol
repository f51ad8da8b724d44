// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {Base} from "./Base.sol";
import {TestActor} from "../../contracts/test/TestActor.sol";
import {MarketCore} from "../../contracts/market/MarketCore.sol";
import {Offers} from "../../contracts/market/Offers.sol";
import {EaselMarketAdmin} from "../../contracts/EaselMarketAdmin.sol";

/// @dev Item offers' expiry and whole-gwei amounts, tested by someone trying to break each rule at its edge.
contract EaselOfferExpiryTest is Base {
    uint256 internal constant MAX_PRICE = type(uint80).max;
    /// @dev The largest whole-gwei amount at or below `MAX_PRICE`.
    uint256 internal constant MAX_GWEI_PRICE = MAX_PRICE - (MAX_PRICE % 1 gwei);
    uint256 internal constant MIN_OFFER = 0.05 ether;

    address internal c;

    function setUp() public override {
        super.setUp();
        c = address(collection);
    }

    // ------------------------------------------------------------ helpers

    function offerOf(uint256 id) internal view returns (EaselMarketAdmin.OfferView memory) {
        return marketAdmin.getOffer(c, id);
    }

    function makeOffer(address who, uint256 id, uint256 amount, uint256 value, uint256 expiresAt) internal {
        vm.prank(who);
        market.makeOffer{value: value}(c, id, amount, expiresAt);
    }

    function expectOfferTooLow(uint256 amount, uint256 minimum) internal {
        vm.expectRevert(abi.encodeWithSelector(Offers.OfferTooLow.selector, amount, minimum));
    }

    /// @dev What the market must hold: the given escrows + credits + held payments + fees.
    function assertConservation(uint256 escrows, string memory what) internal view {
        assertEq(
            address(market).balance,
            escrows + marketAdmin.totalCredits() + marketAdmin.totalHeld() + marketAdmin.feesAvailable(),
            what
        );
    }

    // ------------------------------------------------------------ expiry when making

    function test_makeOffer_expiryEdges() public {
        mint(1);
        uint256 t = block.timestamp;
        uint256 latest = t + 100 days;
        uint256[5] memory refused = [t, t - 1, 0, latest + 1, type(uint256).max];
        for (uint256 i; i < refused.length; ++i) {
            vm.prank(buyer);
            vm.expectRevert(abi.encodeWithSelector(MarketCore.OfferExpiryOutOfRange.selector, refused[i], latest));
            market.makeOffer{value: 1 ether}(c, 1, 1 ether, refused[i]);
        }
        // uint40 wrap: an expiry that would truncate to a near time is refused rather than stored truncated.
        uint256 wrapped = (uint256(1) << 40) + t + 1 days;
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.OfferExpiryOutOfRange.selector, wrapped, latest));
        market.makeOffer{value: 1 ether}(c, 1, 1 ether, wrapped);
        assertEq(address(market).balance, 0, "nothing escrowed");

        makeOffer(buyer, 1, 1 ether, 1 ether, t + 1);
        assertEq(offerOf(1).expiresAt, t + 1, "now + 1");
        makeOffer(other, 1, 1 ether + 1 gwei, 1 ether + 1 gwei, latest);
        assertEq(offerOf(1).expiresAt, latest, "now + 100 days");
        assertEq(offerOf(1).buyer, other, "beaten");
    }

    /// The expiry is measured from each call: after time passes, the furthest expiry moves with it.
    function test_makeOffer_latestMovesWithTheClock() public {
        mint(1);
        vm.warp(block.timestamp + 50 days);
        uint256 latest = block.timestamp + 100 days;
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.OfferExpiryOutOfRange.selector, latest + 1, latest));
        market.makeOffer{value: 1 ether}(c, 1, 1 ether, latest + 1);
        makeOffer(buyer, 1, 1 ether, 1 ether, latest);
        assertEq(offerOf(1).expiresAt, latest, "stored exactly");
    }

    // ------------------------------------------------------------ accept and expiry

    function test_acceptOffer_atExpiryAndOneSecondBefore() public {
        mintApproved(1);
        mintApproved(2);
        uint256 e = block.timestamp + 1 hours;
        makeOffer(buyer, 1, 1 ether, 1 ether, e);
        makeOffer(buyer, 2, 1 ether, 1 ether, e);
        vm.warp(e - 1);
        vm.prank(artist);
        market.acceptOffer(c, 1, 1 ether);
        assertEq(collection.ownerOf(1), buyer, "sold a second before");
        vm.warp(e);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.OfferExpired.selector, e));
        market.acceptOffer(c, 2, 0);
        vm.warp(e + 1_000 days);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.OfferExpired.selector, e));
        market.acceptOffer(c, 2, 0);
        assertEq(collection.ownerOf(2), artist, "kept");
        assertConservation(1 ether, "the expired offer is still escrowed until returned");
    }

    /// An offer expiring one second from now is live for this second only: accepted in the same block, refused at
    /// the next second.
    function test_acceptOffer_sameSecondAsMadeThenNextSecond() public {
        mintApproved(1);
        mintApproved(2);
        makeOffer(buyer, 1, 1 ether, 1 ether, block.timestamp + 1);
        makeOffer(buyer, 2, 1 ether, 1 ether, block.timestamp + 1);
        vm.prank(artist);
        market.acceptOffer(c, 1, 0);
        vm.warp(block.timestamp + 1);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.OfferExpired.selector, block.timestamp));
        market.acceptOffer(c, 2, 0);
    }

    /// At its expiry an offer can be replaced and the new one accepted in the same second.
    function test_expiredOffer_replacedAndAcceptedInTheSameSecond() public {
        mintApproved(1);
        uint256 e = block.timestamp + 1 days;
        makeOffer(buyer, 1, 2 ether, 2 ether, e);
        vm.warp(e);
        uint256 b0 = buyer.balance;
        makeOffer(other, 1, MIN_OFFER, MIN_OFFER, e + 1);
        assertEq(buyer.balance - b0, 2 ether, "expired offer refunded");
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(Offers.OfferTooLow.selector, MIN_OFFER, 2 ether));
        market.acceptOffer(c, 1, 2 ether); // the owner's minAmount protects them from the swap
        vm.prank(artist);
        market.acceptOffer(c, 1, MIN_OFFER);
        assertEq(collection.ownerOf(1), other, "sold to the newcomer");
        assertConservation(0, "only the fee left");
    }

    // ------------------------------------------------------------ beating, renewing, raising

    function test_expiredOffer_needNotBeBeaten() public {
        mint(1);
        uint256 e = block.timestamp + 7 days;
        makeOffer(buyer, 1, 1 ether, 1 ether, e);
        vm.warp(e - 1);
        vm.prank(other);
        expectOfferTooLow(MIN_OFFER, 1 ether + 1 gwei);
        market.makeOffer{value: MIN_OFFER}(c, 1, MIN_OFFER, e + 7 days);
        vm.warp(e);
        // Still the offer minimum.
        vm.prank(other);
        expectOfferTooLow(MIN_OFFER - 1 gwei, MIN_OFFER);
        market.makeOffer{value: MIN_OFFER - 1 gwei}(c, 1, MIN_OFFER - 1 gwei, e + 7 days);
        uint256 b0 = buyer.balance;
        vm.expectEmit();
        emit Offers.OfferMade(c, 1, other, MIN_OFFER, e + 7 days, buyer, 1 ether);
        makeOffer(other, 1, MIN_OFFER, MIN_OFFER, e + 7 days);
        assertEq(buyer.balance - b0, 1 ether, "refunded exactly");
        assertEq(offerOf(1).buyer, other, "replaced");
        assertEq(offerOf(1).amount, MIN_OFFER, "at the minimum");
        assertConservation(MIN_OFFER, "only the new offer escrowed");
        // The expired buyer cannot cancel what is no longer theirs.
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(Offers.NotOfferBuyer.selector, buyer, other));
        market.cancelOffer(c, 1);
    }

    function test_expiredOffer_replacedRefundToARejectingBuyerIsCredited() public {
        mint(1);
        TestActor actor = new TestActor();
        uint256 e = block.timestamp + 1 days;
        actor.act{value: 1 ether}(address(market), abi.encodeCall(market.makeOffer, (c, 1, 1 ether, e)));
        actor.setMode(TestActor.Mode.Reject);
        vm.warp(e);
        makeOffer(other, 1, MIN_OFFER, MIN_OFFER, e + 1 days);
        assertEq(marketAdmin.creditOf(address(actor)), 1 ether, "credited");
        assertConservation(MIN_OFFER, "credit + new offer");
        actor.setMode(TestActor.Mode.Accept);
        actor.act(address(market), abi.encodeCall(marketAdmin.withdraw, ()));
        assertEq(address(actor).balance, 1 ether, "withdrawn");
    }

    function test_renewOwnExpiredOffer_sameAmountSendsNothingRaiseSendsTheDifference() public {
        mint(1);
        uint256 e = block.timestamp + 1 days;
        makeOffer(buyer, 1, 1 ether, 1 ether, e);
        vm.warp(e);
        // Same amount: the escrow counts, so nothing more may be sent.
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.IncorrectPayment.selector, 0, 1));
        market.makeOffer{value: 1}(c, 1, 1 ether, e + 1 days);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.IncorrectPayment.selector, 0, 1 ether));
        market.makeOffer{value: 1 ether}(c, 1, 1 ether, e + 1 days);
        // Lower: refused (cancel instead).
        vm.prank(buyer);
        expectOfferTooLow(1 ether - 1 gwei, 1 ether);
        market.makeOffer{value: 0}(c, 1, 1 ether - 1 gwei, e + 1 days);
        uint256 b0 = buyer.balance;
        vm.expectEmit();
        emit Offers.OfferMade(c, 1, buyer, 1 ether, e + 1 days, address(0), 0);
        makeOffer(buyer, 1, 1 ether, 0, e + 1 days);
        assertEq(buyer.balance, b0, "nothing sent, nothing refunded");
        assertEq(offerOf(1).expiresAt, e + 1 days, "renewed");
        assertConservation(1 ether, "one escrow");

        // Raising after it expired again: exactly the difference.
        vm.warp(e + 1 days);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.IncorrectPayment.selector, 0.5 ether, 1.5 ether));
        market.makeOffer{value: 1.5 ether}(c, 1, 1.5 ether, e + 2 days);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.IncorrectPayment.selector, 0.5 ether, 0.5 ether - 1));
        market.makeOffer{value: 0.5 ether - 1}(c, 1, 1.5 ether, e + 2 days);
        makeOffer(buyer, 1, 1.5 ether, 0.5 ether, e + 2 days);
        assertEq(b0 - buyer.balance, 0.5 ether, "paid the difference");
        assertEq(offerOf(1).amount, 1.5 ether, "raised");
        assertConservation(1.5 ether, "one escrow of the new total");

        // While live, the same amount is not a renewal: it must rise by at least 1 gwei.
        vm.prank(buyer);
        expectOfferTooLow(1.5 ether, 1.5 ether + 1 gwei);
        market.makeOffer{value: 0}(c, 1, 1.5 ether, e + 3 days);
        makeOffer(buyer, 1, 1.5 ether + 1 gwei, 1 gwei, e + 3 days);
        assertEq(offerOf(1).amount, 1.5 ether + 1 gwei, "raised by a gwei");
        assertEq(offerOf(1).expiresAt, e + 3 days, "with a new expiry");
        assertConservation(1.5 ether + 1 gwei, "escrow follows");
    }

    /// The offerer's own offer shortened to expire sooner is still their own: they can then renew at the same
    /// amount once it has expired, and nobody else got in between.
    function test_ownOffer_expiryCanBeShortenedByRaising() public {
        mint(1);
        makeOffer(buyer, 1, 1 ether, 1 ether, block.timestamp + 50 days);
        makeOffer(buyer, 1, 1 ether + 1 gwei, 1 gwei, block.timestamp + 1);
        assertEq(offerOf(1).expiresAt, block.timestamp + 1, "shortened");
        vm.warp(block.timestamp + 1);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.OfferExpired.selector, block.timestamp));
        market.acceptOffer(c, 1, 0);
    }

    function test_liveOfferMustBeBeatenByAtLeastOneGwei() public {
        mint(1);
        makeOffer(buyer, 1, 1 ether, 1 ether, block.timestamp + 1 days);
        uint256[3] memory tooLow = [uint256(1 ether), 1 ether + 1, 1 ether + 1 gwei - 1];
        for (uint256 i; i < tooLow.length; ++i) {
            vm.prank(other);
            expectOfferTooLow(tooLow[i], 1 ether + 1 gwei);
            market.makeOffer{value: tooLow[i]}(c, 1, tooLow[i], block.timestamp + 1 days);
        }
        uint256 b0 = buyer.balance;
        makeOffer(other, 1, 1 ether + 1 gwei, 1 ether + 1 gwei, block.timestamp + 1 days);
        assertEq(buyer.balance - b0, 1 ether, "outbid refunded exactly");
        // The next one, in the same second: again at least 1 gwei more.
        vm.prank(bidder);
        expectOfferTooLow(1 ether + 1 gwei, 1 ether + 2 gwei);
        market.makeOffer{value: 1 ether + 1 gwei}(c, 1, 1 ether + 1 gwei, block.timestamp + 1 days);
        makeOffer(bidder, 1, 1 ether + 2 gwei, 1 ether + 2 gwei, block.timestamp + 1 days);
        assertConservation(1 ether + 2 gwei, "only the top offer escrowed");
    }

    // ------------------------------------------------------------ whole gwei

    function test_amountNotWholeGwei() public {
        mint(1);
        uint256[4] memory odd = [MIN_OFFER + 1, MIN_OFFER + 1 gwei - 1, 1 ether + 123, 10 ether + 999_999_999];
        for (uint256 i; i < odd.length; ++i) {
            vm.prank(buyer);
            vm.expectRevert(abi.encodeWithSelector(Offers.AmountNotWholeGwei.selector, odd[i]));
            market.makeOffer{value: odd[i]}(c, 1, odd[i], block.timestamp + 1 days);
        }
        // The range checks come first: below the minimum and odd, above the maximum and odd.
        vm.prank(buyer);
        expectOfferTooLow(MIN_OFFER - 1, MIN_OFFER);
        market.makeOffer{value: MIN_OFFER - 1}(c, 1, MIN_OFFER - 1, block.timestamp + 1 days);

        makeOffer(buyer, 1, 1 ether, 1 ether, block.timestamp + 1 days);
        // One wei above a valid beating amount, by a newcomer and by the offerer raising.
        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(Offers.AmountNotWholeGwei.selector, 1 ether + 1 gwei + 1));
        market.makeOffer{value: 1 ether + 1 gwei + 1}(c, 1, 1 ether + 1 gwei + 1, block.timestamp + 1 days);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(Offers.AmountNotWholeGwei.selector, 2 ether + 1));
        market.makeOffer{value: 1 ether + 1}(c, 1, 2 ether + 1, block.timestamp + 1 days);
        assertEq(offerOf(1).amount, 1 ether, "unchanged");
        assertConservation(1 ether, "one escrow");
    }

    function test_maxOffer_roundedDownToWholeGweiIsStoredExactly() public {
        mintApproved(1);
        vm.deal(buyer, MAX_PRICE + 1 ether);
        vm.deal(other, MAX_PRICE + 1 ether);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(Offers.AmountNotWholeGwei.selector, MAX_PRICE));
        market.makeOffer{value: MAX_PRICE}(c, 1, MAX_PRICE, block.timestamp + 1 days);
        vm.prank(buyer);
        vm.expectRevert(
            abi.encodeWithSelector(MarketCore.PriceOutOfRange.selector, MAX_PRICE + 1, MIN_OFFER, MAX_PRICE)
        );
        market.makeOffer{value: MAX_PRICE + 1}(c, 1, MAX_PRICE + 1, block.timestamp + 1 days);
        uint256 next = MAX_GWEI_PRICE + 1 gwei;
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.PriceOutOfRange.selector, next, MIN_OFFER, MAX_PRICE));
        market.makeOffer{value: next}(c, 1, next, block.timestamp + 1 days);

        makeOffer(buyer, 1, MAX_GWEI_PRICE, MAX_GWEI_PRICE, block.timestamp + 1 days);
        assertEq(offerOf(1).amount, MAX_GWEI_PRICE, "stored to the wei");
        assertConservation(MAX_GWEI_PRICE, "escrowed exactly");
        // Nobody can beat it: the next gwei is above the maximum.
        vm.prank(other);
        expectOfferTooLow(MAX_PRICE, next);
        market.makeOffer{value: MAX_PRICE}(c, 1, MAX_PRICE, block.timestamp + 1 days);
        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.PriceOutOfRange.selector, next, next, MAX_PRICE));
        market.makeOffer{value: next}(c, 1, next, block.timestamp + 1 days);

        uint256 a0 = artist.balance;
        vm.prank(artist);
        market.acceptOffer(c, 1, MAX_GWEI_PRICE);
        assertEq(artist.balance - a0, MAX_GWEI_PRICE - MAX_GWEI_PRICE / 10, "90% to the wei");
        assertEq(marketAdmin.feesAvailable(), MAX_GWEI_PRICE / 10, "10% commission");
        assertConservation(0, "only the fee");
    }

    // ------------------------------------------------------------ cancel

    function test_cancelOffer_byAStrangerBeforeAndAfterExpiry() public {
        mint(1);
        uint256 e = block.timestamp + 2 days;
        makeOffer(buyer, 1, 0.7 ether, 0.7 ether, e);
        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(Offers.NotOfferBuyer.selector, other, buyer));
        market.cancelOffer(c, 1);
        vm.warp(e - 1);
        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(Offers.NotOfferBuyer.selector, other, buyer));
        market.cancelOffer(c, 1);
        vm.warp(e);
        uint256 b0 = buyer.balance;
        uint256 s0 = other.balance;
        vm.expectEmit();
        emit Offers.OfferCancelled(c, 1, buyer, 0.7 ether);
        vm.prank(other);
        market.cancelOffer(c, 1);
        assertEq(buyer.balance - b0, 0.7 ether, "refunded to the offerer");
        assertEq(other.balance, s0, "the stranger gets nothing");
        assertEq(offerOf(1).buyer, address(0), "gone");
        assertConservation(0, "empty");
        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(Offers.NoOffer.selector, c, 1));
        market.cancelOffer(c, 1);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(Offers.NoOffer.selector, c, 1));
        market.cancelOffer(c, 1);
    }

    function test_cancelOffer_offererAnyTimeEvenBannedAndLocked() public {
        mint(1);
        makeOffer(buyer, 1, 0.7 ether, 0.7 ether, block.timestamp + 2 days);
        vm.startPrank(admin);
        marketAdmin.setBanned(buyer, true);
        marketAdmin.setMarketLocked(true);
        vm.stopPrank();
        uint256 b0 = buyer.balance;
        vm.prank(buyer);
        market.cancelOffer(c, 1);
        assertEq(buyer.balance - b0, 0.7 ether, "refunded");
        assertConservation(0, "empty");
    }

    function test_cancelOffer_expiredOffererThatRejectsEthIsCredited() public {
        mint(1);
        TestActor actor = new TestActor();
        uint256 e = block.timestamp + 1 days;
        actor.act{value: 0.3 ether}(address(market), abi.encodeCall(market.makeOffer, (c, 1, 0.3 ether, e)));
        actor.setMode(TestActor.Mode.BurnGas);
        vm.warp(e);
        vm.prank(other);
        market.cancelOffer(c, 1);
        assertEq(marketAdmin.creditOf(address(actor)), 0.3 ether, "credited");
        assertConservation(0, "credit only");
        actor.setMode(TestActor.Mode.Accept);
        actor.act(address(market), abi.encodeCall(marketAdmin.withdraw, ()));
        assertEq(address(actor).balance, 0.3 ether, "withdrawn once");
        assertEq(address(market).balance, 0, "empty");
    }

    // ------------------------------------------------------------ views

    function test_views_reportAmountInWeiAndExpiry() public {
        mint(1);
        uint256 e = block.timestamp + 12 days + 34;
        uint256 amount = 1.234567891 ether; // whole gwei, not whole 0.001 ETH
        makeOffer(buyer, 1, amount, amount, e);
        EaselMarketAdmin.OfferView memory o = offerOf(1);
        assertEq(o.buyer, buyer, "buyer");
        assertEq(o.amount, amount, "amount in wei");
        assertEq(o.expiresAt, e, "expiresAt");
        EaselMarketAdmin.TokenInfo memory info = marketAdmin.getTokenInfo(c, 1);
        assertEq(info.offerBuyer, buyer, "info buyer");
        assertEq(info.offerAmount, amount, "info amount");
        assertEq(info.offerExpiresAt, e, "info expiresAt");
        // Still reported after it expired (the caller compares with the time).
        vm.warp(e + 1);
        info = marketAdmin.getTokenInfo(c, 1);
        assertEq(info.offerAmount, amount, "reported after expiry");
        assertEq(info.offerExpiresAt, e, "its expiry");
        vm.prank(other);
        market.cancelOffer(c, 1);
        info = marketAdmin.getTokenInfo(c, 1);
        assertEq(info.offerBuyer, address(0), "cleared buyer");
        assertEq(info.offerAmount, 0, "cleared amount");
        assertEq(info.offerExpiresAt, 0, "cleared expiry");
    }
}
