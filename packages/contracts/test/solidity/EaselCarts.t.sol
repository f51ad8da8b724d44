// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {EaselOrderFixture} from "./EaselOrderFixture.sol";
import {Vm} from "./Vm.sol";
import {TestActor} from "../../contracts/test/TestActor.sol";
import {EaselCollection} from "../../contracts/EaselCollection.sol";
import {EaselMarket} from "../../contracts/EaselMarket.sol";
import {MarketCore} from "../../contracts/market/MarketCore.sol";
import {Carts} from "../../contracts/market/Carts.sol";
import {SellOrders} from "../../contracts/market/SellOrders.sol";
import {Collaborator} from "../../contracts/interfaces/IEaselTypes.sol";
import {ERC721} from "solady/src/tokens/ERC721.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

/// @dev A creator, seller (ERC-1271, with an owner key) and royalty receiver that, each time the market pays it,
/// tries to re-enter: `buyMany` (with ETH, for a live listing), `fillSignedListing`, the cart's internal
/// `buyListedFor` and `fillSignedPurchaseFor` (for itself), and `withdraw` of a credit it holds. It records, in transient
/// storage (cheap enough for the market's 20,000-gas push), how often it was paid with its hook armed and the
/// revert selector each attempt got (0xffffffff: the attempt succeeded).
contract CartAttacker {
    EaselMarket internal immutable market;
    address public immutable owner;

    bool internal transient armed;
    bool internal transient rejecting;
    uint256 internal transient paidArmed;
    address internal transient targetCollection;
    uint256 internal transient targetId;
    uint256 internal transient targetPrice;
    bytes4 internal transient r0;
    bytes4 internal transient r1;
    bytes4 internal transient r2;
    bytes4 internal transient r3;
    bytes4 internal transient r4;

    constructor(EaselMarket market_, address owner_) {
        market = market_;
        owner = owner_;
    }

    function act(address target, bytes calldata data) external payable returns (bytes memory) {
        (bool ok, bytes memory result) = target.call{value: msg.value}(data);
        if (!ok) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
        return result;
    }

    function setRejecting(bool on) external {
        rejecting = on;
    }

    function arm(address collection, uint256 tokenId, uint256 price) external {
        armed = true;
        targetCollection = collection;
        targetId = tokenId;
        targetPrice = price;
    }

    function results() external view returns (uint256 paid, bytes4[5] memory reasons) {
        return (paidArmed, [r0, r1, r2, r3, r4]);
    }

    function isValidSignature(bytes32 digest, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        return ecrecover(digest, v, r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }

    receive() external payable {
        if (rejecting) revert("no ETH");
        if (!armed) return;
        paidArmed += 1;
        address c = targetCollection;
        uint256 id = targetId;
        uint256 price = targetPrice;
        Carts.ListedPurchase[] memory l = new Carts.ListedPurchase[](1);
        l[0] = Carts.ListedPurchase(c, id, price);
        r0 = _try(price, abi.encodeCall(market.buyMany, (l, new Carts.SignedPurchase[](0), false)));
        MarketCore.SignedListing memory z;
        r1 = _try(0, abi.encodeCall(market.fillSignedListing, (z, "")));
        r2 = _try(0, abi.encodeCall(market.buyListedFor, (c, id, price, address(this))));
        Carts.SignedPurchase memory p;
        r3 = _try(0, abi.encodeCall(market.fillSignedPurchaseFor, (p, address(this))));
        r4 = _try(0, abi.encodeWithSignature("withdraw()"));
    }

    function _try(uint256 value, bytes memory data) private returns (bytes4) {
        (bool ok, bytes memory ret) = address(market).call{value: value}(data);
        if (ok) return 0xffffffff;
        return ret.length >= 4 ? bytes4(ret) : bytes4(0);
    }
}

/// @dev Carts (`buyMany`), attacked: orders taken by someone else in the same block, duplicates, the buyer's own
/// listings, re-entry from a payee, the spend cap and the refund (to the wei, and to an account that refuses
/// ETH), all-or-nothing with each purchase's exact reason, the locks, bans, blocks and fee caps crossed in the
/// middle of a cart, a mixed cart paid out to the wei, the size bounds, and the internal single purchases called
/// from outside.
contract EaselCartsTest is EaselOrderFixture {
    uint256 internal constant HOLDER_KEY = 0x401DE2;
    address internal holder;
    address internal collab1 = address(0xC011AB1);
    address internal collab2 = address(0xC011AB2);

    function setUp() public override {
        super.setUp();
        holder = vm.addr(HOLDER_KEY);
        vm.prank(holder);
        sc.setApprovalForAll(address(market), true);
        vm.prank(holder);
        sc2.setApprovalForAll(address(market), true);
    }

    // ------------------------------------------------------------ helpers

    /// @dev A cart every moderation test crosses: an on-chain listing of the artist (1 ether), a signed listing
    /// of seller (0.5 ether) and a bulk listing of seller2 (0.25 ether, leaf 1 of a tree of 2).
    struct Std {
        uint256 listedId;
        uint256 signedId;
        uint256 bulkId;
        Carts.ListedPurchase[] listed;
        Carts.SignedPurchase[] signed;
    }

    function standardCart() internal returns (Std memory c) {
        c.listedId = listedByArtist(1 ether);
        c.signedId = mintIn(sc, seller);
        MarketCore.SignedListing memory o = order(sc, c.signedId, 0.5 ether, seller);
        MarketCore.SignedListing[] memory bulk = new MarketCore.SignedListing[](2);
        bulk[0] = order(sc2, mintIn(sc2, seller2), 3 ether, seller2);
        c.bulkId = mintIn(sc2, seller2);
        bulk[1] = order(sc2, c.bulkId, 0.25 ether, seller2);
        Tree memory t = buildTree(bulk, 1);
        c.listed = oneListed(listedP(address(collection), c.listedId, 1 ether));
        c.signed = twoSigned(signedP(o, sign(o, SELLER_KEY)), bulkP(bulk[1], signTree(t, SELLER2_KEY), t, 1));
    }

    uint256 internal constant STD_TOTAL = 1.75 ether;

    function runStd(Std memory c, address who)
        internal
        returns (uint256 spent, uint256 sales, uint256[] memory ids, bytes[] memory reasons)
    {
        uint256 before = who.balance;
        vm.recordLogs();
        cart(who, STD_TOTAL, c.listed, c.signed, false);
        Vm.Log[] memory logs = vm.getRecordedLogs();
        spent = before - who.balance;
        sales = countSales(logs);
        (ids,, reasons) = skips(logs);
        assertMarketSolvent();
    }

    function reasonOf(bytes4 selector) internal pure returns (bytes memory) {
        return abi.encodeWithSelector(selector);
    }

    // ------------------------------------------------------------ races and duplicates

    /// Two orders of the cart are taken by someone else first, in the same block: each is skipped with its
    /// reason and its price stays with the buyer; the rest is bought.
    function test_cart_ordersFilledFirstBySomeoneElse_skippedRefundedRestBought() public {
        uint256 a = listedByArtist(1 ether);
        uint256 b = listedByArtist(2 ether);
        uint256 c = mintIn(sc, seller);
        uint256 d = mintIn(sc, seller);
        MarketCore.SignedListing memory oc = order(sc, c, 1.5 ether, seller);
        MarketCore.SignedListing memory od = order(sc, d, 0.7 ether, seller);
        bytes memory sc_ = sign(oc, SELLER_KEY);
        bytes memory sd = sign(od, SELLER_KEY);
        vm.prank(other);
        market.buyNow{value: 1 ether}(address(collection), a);
        vm.prank(other);
        market.fillSignedListing{value: 1.5 ether}(oc, sc_);

        Carts.ListedPurchase[] memory listed =
            twoListed(listedP(address(collection), a, 1 ether), listedP(address(collection), b, 2 ether));
        Carts.SignedPurchase[] memory signed = twoSigned(signedP(oc, sc_), signedP(od, sd));
        // All or nothing: the first failure (the listing taken) reverts everything.
        vm.expectRevert(abi.encodeWithSelector(SellOrders.NoSellOrder.selector, address(collection), a));
        cart(buyer, 5.2 ether, listed, signed, true);

        uint256 before = buyer.balance;
        vm.recordLogs();
        cart(buyer, 5.2 ether, listed, signed, false);
        Vm.Log[] memory logs = vm.getRecordedLogs();
        (uint256[] memory ids, uint256[] memory prices, bytes[] memory reasons) = skips(logs);
        assertEq(ids.length, 2, "two skipped");
        assertEq(ids[0], a, "the listing taken");
        assertEq(prices[0], 1 ether, "its price");
        assertBytes(
            reasons[0], abi.encodeWithSelector(SellOrders.NoSellOrder.selector, address(collection), a), "listed reason"
        );
        assertEq(ids[1], c, "the signed listing taken");
        assertEq(prices[1], 1.5 ether, "its price");
        // Its new owner did not approve the market: the collection refuses to move it.
        assertBytes(reasons[1], reasonOf(ERC721.NotOwnerNorApproved.selector), "signed reason");
        assertEq(countSales(logs), 2, "one Sale per purchase made");
        assertEq(before - buyer.balance, 2.7 ether, "paid exactly what was bought");
        assertEq(collection.ownerOf(b), buyer, "b bought");
        assertEq(sc.ownerOf(d), buyer, "d bought");
        assertEq(collection.ownerOf(a), other, "a stays with the first buyer");
        assertEq(sc.ownerOf(c), other, "c stays with the first buyer");
        assertEq(marketAdmin.creditOf(buyer), 0, "refunded by push, not credit");
        assertMarketSolvent();
    }

    /// The same on-chain and signed order twice in one cart, from a buyer who approved the market for all
    /// their tokens (so the second attempt could move the token it just bought): each is bought once, the
    /// second refunded.
    function test_cart_sameOrderTwice_boughtOnce() public {
        uint256 b = listedByArtist(2 ether);
        uint256 d = mintIn(sc, seller);
        MarketCore.SignedListing memory od = order(sc, d, 0.7 ether, seller);
        bytes memory sd = sign(od, SELLER_KEY);
        vm.prank(buyer);
        collection.setApprovalForAll(address(market), true);
        vm.prank(buyer);
        sc.setApprovalForAll(address(market), true);
        uint256 before = buyer.balance;
        uint256 sellerBefore = seller.balance;
        uint256 artistBefore = artist.balance;
        vm.recordLogs();
        cart(
            buyer,
            5.4 ether,
            twoListed(listedP(address(collection), b, 2 ether), listedP(address(collection), b, 2 ether)),
            twoSigned(signedP(od, sd), signedP(od, sd)),
            false
        );
        Vm.Log[] memory logs = vm.getRecordedLogs();
        (uint256[] memory ids, uint256[] memory prices, bytes[] memory reasons) = skips(logs);
        assertEq(ids.length, 2, "the two duplicates skipped");
        assertEq(ids[0], b, "listed duplicate");
        assertEq(prices[0], 2 ether, "listed price");
        assertBytes(reasons[0], abi.encodeWithSelector(SellOrders.NoSellOrder.selector, address(collection), b), "r0");
        assertEq(ids[1], d, "signed duplicate");
        assertEq(prices[1], 0.7 ether, "signed price");
        assertBytes(reasons[1], abi.encodeWithSelector(MarketCore.SellOrderVoid.selector, 0, 1), "r1");
        assertEq(countSales(logs), 2, "two sales");
        assertEq(before - buyer.balance, 2.7 ether, "each paid once");
        assertEq(artist.balance - artistBefore, 1.8 ether, "artist paid once");
        assertEq(seller.balance - sellerBefore, 0.63 ether, "seller paid once");
        assertEq(sc.transferCountOf(d), 1, "the undone second attempt left no transfer");
        assertEq(collection.ownerOf(b), buyer, "owned");
        assertEq(sc.ownerOf(d), buyer, "owned");
        assertMarketSolvent();
        // All or nothing: the duplicate reverts the cart.
        uint256 b2 = listedByArtist(1 ether);
        vm.expectRevert(abi.encodeWithSelector(SellOrders.NoSellOrder.selector, address(collection), b2));
        cart(
            buyer,
            2 ether,
            twoListed(listedP(address(collection), b2, 1 ether), listedP(address(collection), b2, 1 ether)),
            noSigned(),
            true
        );
    }

    /// A seller puts their own listings (on chain and signed) in their cart: refused as in the single forms,
    /// the listings stay, the ETH comes back.
    function test_cart_sellerIsTheBuyer() public {
        uint256 own = mintIn(sc, seller);
        vm.prank(seller);
        market.setSellOrder(address(sc), own, 1 ether);
        uint256 ownSigned = mintIn(sc, seller);
        MarketCore.SignedListing memory o = order(sc, ownSigned, 0.5 ether, seller);
        bytes memory sig = sign(o, SELLER_KEY);
        uint256 theirs = listedByArtist(0.25 ether);
        vm.deal(seller, 10 ether);

        // The single forms' reasons.
        bytes memory listedReason;
        vm.prank(seller);
        try market.buyNow{value: 1 ether}(address(sc), own) {
            revert("bought own listing");
        } catch (bytes memory r) {
            listedReason = r;
        }
        assertBytes(listedReason, abi.encodeWithSelector(MarketCore.TokenOwnerCannotCall.selector, seller), "buyNow");

        uint256 before = seller.balance;
        vm.recordLogs();
        cart(
            seller,
            1.75 ether,
            twoListed(listedP(address(sc), own, 1 ether), listedP(address(collection), theirs, 0.25 ether)),
            oneSigned(signedP(o, sig)),
            false
        );
        (uint256[] memory ids,, bytes[] memory reasons) = skips(vm.getRecordedLogs());
        assertEq(ids.length, 2, "both own listings skipped");
        assertEq(ids[0], own, "own listed");
        assertBytes(reasons[0], listedReason, "same reason as buyNow");
        assertEq(ids[1], ownSigned, "own signed");
        assertBytes(reasons[1], abi.encodeWithSelector(MarketCore.TokenOwnerCannotCall.selector, seller), "signed");
        assertEq(before - seller.balance, 0.25 ether, "paid only the other's token");
        assertEq(collection.ownerOf(theirs), seller, "bought the other's token");
        (address listedBy, uint256 price,) = marketAdmin.getSellOrder(address(sc), own);
        assertEq(listedBy, seller, "own listing still live");
        assertEq(price, 1 ether, "at its price");
        assertEq(sc.transferCountOf(own), 0, "not moved");
        assertEq(sc.transferCountOf(ownSigned), 0, "not moved");
        assertMarketSolvent();
    }

    // ------------------------------------------------------------ re-entry

    function test_cart_reentrantRoyaltyReceiverAndSeller_nothingExtraPaid() public {
        uint256 attackerKey = 0xA77AC4;
        CartAttacker attacker = new CartAttacker(market, vm.addr(attackerKey));
        vm.prank(admin);
        marketAdmin.setArtistVerified(address(attacker), true);
        EaselCollection ac = EaselCollection(
            abi.decode(
                attacker.act(address(factory), abi.encodeCall(factory.createCollection, ("Attack Works", "ATK", "x"))),
                (address)
            )
        );
        attacker.act(address(ac), abi.encodeCall(ac.setApprovalForAll, (address(market), true)));
        uint256[3] memory ids;
        for (uint256 i; i < 3; ++i) {
            ids[i] = abi.decode(attacker.act(address(ac), abi.encodeCall(ac.mintNFT, (1_000, cid(900 + i), none()))), (uint256));
        }
        // Token 0: resold by holder, listed on chain (the attacker is paid the royalty).
        attacker.act(address(ac), abi.encodeCall(ac.transferFrom, (address(attacker), holder, ids[0])));
        vm.prank(holder);
        ac.setApprovalForAll(address(market), true);
        vm.prank(holder);
        market.setSellOrder(address(ac), ids[0], 1 ether);
        // Token 1: the attacker's own signed listing (ERC-1271): the attacker is paid the proceeds.
        MarketCore.SignedListing memory o1 = order(ac, ids[1], 1 ether, address(attacker));
        bytes memory s1 = sign(o1, attackerKey);
        // Token 2: sold while the attacker refuses ETH, so it holds a credit it will try to withdraw.
        MarketCore.SignedListing memory o2 = order(ac, ids[2], 0.5 ether, address(attacker));
        attacker.setRejecting(true);
        vm.prank(other);
        market.fillSignedListing{value: 0.5 ether}(o2, sign(o2, attackerKey));
        attacker.setRejecting(false);
        uint256 credit = marketAdmin.creditOf(address(attacker));
        assertEq(credit, 0.45 ether, "the attacker's credit");
        // The live listing the attacker tries to buy from inside.
        uint256 target = listedByArtist(0.05 ether);
        attacker.arm(address(collection), target, 0.05 ether);
        uint256 other2 = listedByArtist(2 ether);

        uint256 attackerBefore = address(attacker).balance;
        uint256 holderBefore = holder.balance;
        uint256 buyerBefore = buyer.balance;
        uint256 feesBefore = marketAdmin.feesAvailable();
        vm.recordLogs();
        cart(
            buyer,
            4 ether + 1,
            twoListed(listedP(address(ac), ids[0], 1 ether), listedP(address(collection), other2, 2 ether)),
            oneSigned(signedP(o1, s1)),
            false
        );
        Vm.Log[] memory logs = vm.getRecordedLogs();
        assertEq(countSales(logs), 3, "three sales");
        (uint256[] memory skipped,,) = skips(logs);
        assertEq(skipped.length, 0, "nothing skipped");

        (uint256 paid, bytes4[5] memory reasons) = attacker.results();
        assertEq(paid, 2, "paid twice with the hook armed, and the hook ran to its end");
        bytes4 guard = ReentrancyGuardTransient.ReentrancyGuardReentrantCall.selector;
        assertTrue(reasons[0] == guard, "buyMany re-entry refused by the guard");
        assertTrue(reasons[1] == guard, "fillSignedListing re-entry refused by the guard");
        assertTrue(reasons[2] == Carts.OnlyMarket.selector, "buyListedFor refused: not the market");
        assertTrue(reasons[3] == Carts.OnlyMarket.selector, "fillSignedPurchaseFor refused: not the market");
        assertTrue(reasons[4] == guard, "withdraw re-entry refused by the guard");

        assertEq(address(attacker).balance - attackerBefore, 0.1 ether + 0.9 ether, "royalty + proceeds, no more");
        assertEq(marketAdmin.creditOf(address(attacker)), credit, "credit not withdrawn from inside");
        assertEq(holder.balance - holderBefore, 0.8 ether, "holder: price less commission and royalty");
        assertEq(buyerBefore - buyer.balance, 4 ether, "buyer paid the three prices, the wei refunded");
        assertEq(marketAdmin.feesAvailable() - feesBefore, 0.4 ether, "three primary commissions");
        assertEq(collection.ownerOf(target), artist, "the attacker bought nothing");
        (address liveSeller,,) = marketAdmin.getSellOrder(address(collection), target);
        assertEq(liveSeller, artist, "the target listing is still live");
        assertMarketSolvent();
        // Outside a cart, the credit is the attacker's to withdraw.
        attacker.act(address(market), abi.encodeWithSignature("withdrawTo(address)", other));
        assertEq(marketAdmin.creditOf(address(attacker)), 0, "withdrawn");
        assertMarketSolvent();
    }

    // ------------------------------------------------------------ the ETH sent

    function test_cart_leftoverRefundedToTheWei() public {
        Std memory c = standardCart();
        uint256 before = buyer.balance;
        vm.prank(buyer);
        market.buyMany{value: STD_TOTAL + 123_456_789}(c.listed, c.signed, false);
        assertEq(before - buyer.balance, STD_TOTAL, "leftover refunded to the wei");
        assertEq(marketAdmin.creditOf(buyer), 0, "no credit");
        assertEq(collection.ownerOf(c.listedId), buyer, "bought");
        assertEq(sc.ownerOf(c.signedId), buyer, "bought");
        assertEq(sc2.ownerOf(c.bulkId), buyer, "bought");
        assertMarketSolvent();
    }

    function test_cart_refundToABuyerThatRejectsEth_isCredited() public {
        TestActor actor = new TestActor();
        actor.setMode(TestActor.Mode.Reject);
        vm.deal(address(this), 10 ether);
        uint256 a = listedByArtist(1 ether);
        uint256 b = listedByArtist(2 ether);
        vm.prank(other);
        market.buyNow{value: 2 ether}(address(collection), b);
        actor.act{value: 3.3 ether}(
            address(market),
            abi.encodeCall(
                market.buyMany,
                (
                    twoListed(listedP(address(collection), a, 1 ether), listedP(address(collection), b, 2 ether)),
                    noSigned(),
                    false
                )
            )
        );
        assertEq(collection.ownerOf(a), address(actor), "bought");
        assertEq(address(actor).balance, 0, "the push was refused");
        assertEq(marketAdmin.creditOf(address(actor)), 2.3 ether, "skipped price + leftover credited");
        assertMarketSolvent();
        uint256 otherBefore = other.balance;
        actor.act(address(market), abi.encodeWithSignature("withdrawTo(address)", other));
        assertEq(other.balance - otherBefore, 2.3 ether, "withdrawn elsewhere");
        assertEq(marketAdmin.creditOf(address(actor)), 0, "credit cleared");
        assertMarketSolvent();
    }

    /// msg.value below the sum: purchases are made in order, each that does not fit in what is left is skipped
    /// (`SpendCapReached(price, left)`), later cheaper ones are still made.
    function test_cart_spendCap_skipsInOrder() public {
        uint256 p1 = listedByArtist(1 ether);
        uint256 p2 = listedByArtist(2 ether);
        uint256 p3 = mintIn(sc, seller);
        uint256 p4 = mintIn(sc, seller);
        MarketCore.SignedListing memory o3 = order(sc, p3, 0.5 ether, seller);
        MarketCore.SignedListing memory o4 = order(sc, p4, 0.1 ether, seller);
        Carts.ListedPurchase[] memory listed =
            twoListed(listedP(address(collection), p1, 1 ether), listedP(address(collection), p2, 2 ether));
        Carts.SignedPurchase[] memory signed = twoSigned(signedP(o3, sign(o3, SELLER_KEY)), signedP(o4, sign(o4, SELLER_KEY)));

        vm.expectRevert(abi.encodeWithSelector(Carts.SpendCapReached.selector, 2 ether, 0.55 ether));
        cart(buyer, 1.55 ether, listed, signed, true);

        // Nothing sent: everything skipped, nothing bought.
        vm.recordLogs();
        cart(buyer, 0, listed, signed, false);
        (uint256[] memory ids0,, bytes[] memory reasons0) = skips(vm.getRecordedLogs());
        assertEq(ids0.length, 4, "all skipped");
        assertBytes(reasons0[3], abi.encodeWithSelector(Carts.SpendCapReached.selector, 0.1 ether, 0), "cap 0");

        uint256 before = buyer.balance;
        vm.recordLogs();
        cart(buyer, 1.55 ether, listed, signed, false);
        Vm.Log[] memory logs = vm.getRecordedLogs();
        (uint256[] memory ids, uint256[] memory prices, bytes[] memory reasons) = skips(logs);
        assertEq(ids.length, 2, "two over the cap");
        assertEq(ids[0], p2, "p2");
        assertEq(prices[0], 2 ether, "p2 price");
        assertBytes(reasons[0], abi.encodeWithSelector(Carts.SpendCapReached.selector, 2 ether, 0.55 ether), "p2");
        assertEq(ids[1], p4, "p4");
        assertBytes(reasons[1], abi.encodeWithSelector(Carts.SpendCapReached.selector, 0.1 ether, 0.05 ether), "p4");
        assertEq(countSales(logs), 2, "p1 and p3");
        assertEq(before - buyer.balance, 1.5 ether, "spent p1 + p3, the rest refunded");
        assertEq(collection.ownerOf(p1), buyer, "p1");
        assertEq(sc.ownerOf(p3), buyer, "p3");
        assertEq(collection.ownerOf(p2), artist, "p2 not bought");
        assertEq(sc.ownerOf(p4), seller, "p4 not bought");
        assertMarketSolvent();
    }

    // ------------------------------------------------------------ all or nothing

    function test_cart_allOrNothing_revertsWithTheExactReason() public {
        uint256 ok = listedByArtist(1 ether);
        Carts.ListedPurchase memory good = listedP(address(collection), ok, 1 ether);
        uint256 moved = mintIn(sc, seller);
        MarketCore.SignedListing memory om = order(sc, moved, 0.5 ether, seller);
        bytes memory sm = sign(om, SELLER_KEY);
        vm.prank(seller);
        sc.transferFrom(seller, other, moved);
        vm.prank(other);
        sc.transferFrom(other, seller, moved);
        uint256 before = buyer.balance;

        vm.expectRevert(abi.encodeWithSelector(MarketCore.SellOrderVoid.selector, 0, 2));
        cart(buyer, 1.5 ether, oneListed(good), oneSigned(signedP(om, sm)), true);

        MarketCore.SignedListing memory forged = order(sc, mintIn(sc, seller), 0.5 ether, seller);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller));
        cart(buyer, 1.5 ether, oneListed(good), oneSigned(signedP(forged, sign(forged, 0xBAD))), true);

        uint256 repriced = listedByArtist(1 ether);
        vm.prank(artist);
        market.setSellOrder(address(collection), repriced, 1.2 ether);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.IncorrectPayment.selector, 1.2 ether, 1 ether));
        cart(buyer, 3 ether, twoListed(good, listedP(address(collection), repriced, 1 ether)), noSigned(), true);

        assertEq(buyer.balance, before, "nothing spent");
        assertEq(collection.ownerOf(ok), artist, "the good purchase before the failure was undone");
        (address liveSeller,,) = marketAdmin.getSellOrder(address(collection), ok);
        assertEq(liveSeller, artist, "its listing lives");
        // The same carts without all-or-nothing: the good one is bought, the others skipped with those reasons.
        vm.recordLogs();
        cart(buyer, 1.5 ether, oneListed(good), twoSigned(signedP(om, sm), signedP(forged, sign(forged, 0xBAD))), false);
        (uint256[] memory ids,, bytes[] memory reasons) = skips(vm.getRecordedLogs());
        assertEq(ids.length, 2, "two skipped");
        assertBytes(reasons[0], abi.encodeWithSelector(MarketCore.SellOrderVoid.selector, 0, 2), "void");
        assertBytes(reasons[1], abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller), "sig");
        assertEq(before - buyer.balance, 1 ether, "paid the good one only");
        assertMarketSolvent();
    }

    // ------------------------------------------------------------ moderation in the middle of a cart

    function test_cart_marketLocked_everythingRefused() public {
        Std memory c = standardCart();
        vm.prank(admin);
        marketAdmin.setMarketLocked(true);
        vm.expectRevert(MarketCore.MarketIsLocked.selector);
        cart(buyer, STD_TOTAL, c.listed, c.signed, true);
        (uint256 spent, uint256 sales, uint256[] memory ids, bytes[] memory reasons) = runStd(c, buyer);
        assertEq(spent, 0, "all refunded");
        assertEq(sales, 0, "no sale");
        assertEq(ids.length, 3, "all skipped");
        for (uint256 i; i < 3; ++i) {
            assertBytes(reasons[i], reasonOf(MarketCore.MarketIsLocked.selector), "locked");
        }
    }

    function test_cart_entranceLocked_signedRefusedListedBought() public {
        Std memory c = standardCart();
        vm.prank(admin);
        marketAdmin.setEntranceLocked(true);
        vm.expectRevert(MarketCore.MarketEntranceIsLocked.selector);
        cart(buyer, STD_TOTAL, c.listed, c.signed, true);
        (uint256 spent, uint256 sales, uint256[] memory ids, bytes[] memory reasons) = runStd(c, buyer);
        assertEq(spent, 1 ether, "the on-chain listing only");
        assertEq(sales, 1, "one sale");
        assertEq(collection.ownerOf(c.listedId), buyer, "listed bought");
        assertEq(ids.length, 2, "signed and bulk skipped");
        assertEq(ids[0], c.signedId, "signed");
        assertEq(ids[1], c.bulkId, "bulk");
        assertBytes(reasons[0], reasonOf(MarketCore.MarketEntranceIsLocked.selector), "signed: entrance");
        assertBytes(reasons[1], reasonOf(MarketCore.MarketEntranceIsLocked.selector), "bulk: entrance");
    }

    function test_cart_bannedSeller() public {
        Std memory c = standardCart();
        // seller also lists a token on chain, in the same cart.
        uint256 onChain = mintIn(sc, seller);
        vm.prank(seller);
        market.setSellOrder(address(sc), onChain, 0.3 ether);
        c.listed = twoListed(c.listed[0], listedP(address(sc), onChain, 0.3 ether));
        vm.prank(admin);
        marketAdmin.setBanned(seller, true);
        uint256 before = buyer.balance;
        vm.recordLogs();
        cart(buyer, STD_TOTAL + 0.3 ether, c.listed, c.signed, false);
        Vm.Log[] memory logs = vm.getRecordedLogs();
        (uint256[] memory ids,, bytes[] memory reasons) = skips(logs);
        assertEq(ids.length, 2, "seller's two skipped");
        assertEq(ids[0], onChain, "on chain");
        assertBytes(reasons[0], abi.encodeWithSelector(MarketCore.UserIsBanned.selector, seller), "listed: banned");
        assertEq(ids[1], c.signedId, "signed");
        assertBytes(reasons[1], abi.encodeWithSelector(MarketCore.UserIsBanned.selector, seller), "signed: banned");
        assertEq(countSales(logs), 2, "the artist's and seller2's");
        assertEq(before - buyer.balance, 1.25 ether, "paid the others");
        assertEq(sc.ownerOf(onChain), seller, "not sold");
        assertEq(sc.transferCountOf(onChain), 0, "the undone delivery left no transfer");
        assertMarketSolvent();
    }

    function test_cart_bannedBuyer_everythingRefusedAndRefunded() public {
        Std memory c = standardCart();
        vm.prank(admin);
        marketAdmin.setBanned(buyer, true);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.UserIsBanned.selector, buyer));
        cart(buyer, STD_TOTAL, c.listed, c.signed, true);
        (uint256 spent, uint256 sales, uint256[] memory ids, bytes[] memory reasons) = runStd(c, buyer);
        assertEq(spent, 0, "refunded (a banned account still gets its own ETH back)");
        assertEq(sales, 0, "no sale");
        assertEq(ids.length, 3, "all skipped");
        for (uint256 i; i < 3; ++i) {
            assertBytes(reasons[i], abi.encodeWithSelector(MarketCore.UserIsBanned.selector, buyer), "banned buyer");
        }
        assertEq(marketAdmin.totalHeld(), 0, "nothing held");
    }

    function test_cart_blockedTokens() public {
        Std memory c = standardCart();
        vm.startPrank(admin);
        marketAdmin.setTokenBlocked(address(collection), c.listedId, true);
        marketAdmin.setTokenBlocked(address(sc2), c.bulkId, true);
        vm.stopPrank();
        (uint256 spent, uint256 sales, uint256[] memory ids, bytes[] memory reasons) = runStd(c, buyer);
        assertEq(spent, 0.5 ether, "the unblocked one only");
        assertEq(sales, 1, "one sale");
        assertEq(ids.length, 2, "two blocked");
        assertBytes(
            reasons[0],
            abi.encodeWithSelector(MarketCore.TokenIsBlocked.selector, address(collection), c.listedId),
            "listed blocked"
        );
        assertBytes(
            reasons[1],
            abi.encodeWithSelector(EaselCollection.TokenIsBlocked.selector, address(sc2), c.bulkId),
            "bulk blocked (the collection's copy)"
        );
        assertEq(sc.ownerOf(c.signedId), buyer, "bought");
    }

    function test_cart_blockedCollections() public {
        Std memory c = standardCart();
        vm.startPrank(admin);
        marketAdmin.setCollectionBlocked(address(collection), true);
        marketAdmin.setCollectionBlocked(address(sc), true);
        vm.stopPrank();
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.CollectionIsBlocked.selector, address(collection)));
        cart(buyer, STD_TOTAL, c.listed, c.signed, true);
        (uint256 spent, uint256 sales, uint256[] memory ids, bytes[] memory reasons) = runStd(c, buyer);
        assertEq(spent, 0.25 ether, "only seller2's collection is open");
        assertEq(sales, 1, "one sale");
        assertEq(ids.length, 2, "two blocked");
        assertBytes(
            reasons[0], abi.encodeWithSelector(EaselCollection.CollectionIsBlocked.selector, address(collection)), "l"
        );
        assertBytes(reasons[1], abi.encodeWithSelector(EaselCollection.CollectionIsBlocked.selector, address(sc)), "s");
        assertEq(sc2.ownerOf(c.bulkId), buyer, "bulk bought");
    }

    /// The commission is raised above what the signed orders accept, in the same block as the cart: the signed
    /// and bulk ones are refused, the on-chain one (no cap) pays the new fee.
    function test_cart_feeAboveMaxFeeBps() public {
        Std memory c = standardCart();
        vm.prank(admin);
        marketAdmin.setFees(1_500, 0);
        uint256 artistBefore = artist.balance;
        (uint256 spent, uint256 sales, uint256[] memory ids, bytes[] memory reasons) = runStd(c, buyer);
        assertEq(spent, 1 ether, "listed only");
        assertEq(sales, 1, "one sale");
        assertEq(artist.balance - artistBefore, 0.85 ether, "the new commission on the on-chain listing");
        assertEq(ids.length, 2, "two refused");
        assertBytes(reasons[0], abi.encodeWithSelector(MarketCore.FeeAboveSignedMax.selector, 1_500, 1_000), "s");
        assertBytes(reasons[1], abi.encodeWithSelector(MarketCore.FeeAboveSignedMax.selector, 1_500, 1_000), "b");
        vm.expectRevert(abi.encodeWithSelector(MarketCore.FeeAboveSignedMax.selector, 1_500, 1_000));
        cart(buyer, 0.75 ether, noListed(), c.signed, true);
    }

    /// A listed price that changed since the buyer put it in the cart (up or down, same block): skipped with
    /// `IncorrectPayment`, never paid at a price the buyer did not name.
    function test_cart_listedPriceChanged_skipped() public {
        uint256 id = listedByArtist(1 ether);
        vm.prank(artist);
        market.setSellOrder(address(collection), id, 2 ether);
        Carts.ListedPurchase[] memory l = oneListed(listedP(address(collection), id, 1 ether));
        uint256 before = buyer.balance;
        vm.expectEmit();
        emit PurchaseSkipped(
            address(collection),
            id,
            buyer,
            1 ether,
            abi.encodeWithSelector(MarketCore.IncorrectPayment.selector, 2 ether, 1 ether)
        );
        cart(buyer, 5 ether, l, noSigned(), false);
        vm.prank(artist);
        market.setSellOrder(address(collection), id, 0.5 ether);
        vm.expectEmit();
        emit PurchaseSkipped(
            address(collection),
            id,
            buyer,
            1 ether,
            abi.encodeWithSelector(MarketCore.IncorrectPayment.selector, 0.5 ether, 1 ether)
        );
        cart(buyer, 5 ether, l, noSigned(), false);
        assertEq(buyer.balance, before, "nothing paid");
        cart(buyer, 5 ether, oneListed(listedP(address(collection), id, 0.5 ether)), noSigned(), false);
        assertEq(before - buyer.balance, 0.5 ether, "bought at the named price");
        assertMarketSolvent();
    }

    // ------------------------------------------------------------ a mixed cart, paid to the wei

    struct Expect {
        address collection;
        uint256 tokenId;
        address seller;
        uint8 mechanism;
        uint256 price;
        uint256 fee;
        uint256 royalty;
        bool primary;
    }

    function splitCollabs() internal view returns (Collaborator[] memory c) {
        c = new Collaborator[](3);
        c[0] = Collaborator(seller, 50);
        c[1] = Collaborator(collab1, 30);
        c[2] = Collaborator(collab2, 20);
    }

    function test_cart_mixed_everyPayoutToTheWei() public {
        vm.prank(admin);
        marketAdmin.setFees(1_000, 250);
        // L1: the artist's primary sale, on chain.
        uint256 pL1 = 1 ether + 7;
        uint256 l1 = listedByArtist(pL1);
        // L2: holder resells seller's token on chain (never sold through the market: primary, plus royalty).
        uint256 pL2 = 2.345678901234567891 ether;
        uint256 l2 = mintIn(sc, holder);
        vm.prank(holder);
        market.setSellOrder(address(sc), l2, pL2);
        // S1: seller's split token (50/30/20), signed, primary.
        uint256 pS1 = 3.333333333333333333 ether;
        vm.prank(seller);
        uint256 s1 = sc.mintNFT(1_000, cid(501), splitCollabs());
        MarketCore.SignedListing memory o1 = order(sc, s1, pS1, seller);
        // S2: a split token sold once already (to holder), resold by holder with a signature: secondary fee,
        // royalty split among the collaborators.
        uint256 pS2 = 1.111111111111111111 ether;
        vm.prank(seller);
        uint256 s2 = sc.mintNFT(1_000, cid(502), splitCollabs());
        MarketCore.SignedListing memory pre = order(sc, s2, 1 ether, seller);
        vm.deal(holder, 1 ether);
        vm.prank(holder);
        market.fillSignedListing{value: 1 ether}(pre, sign(pre, SELLER_KEY));
        MarketCore.SignedListing memory o2 = order(sc, s2, pS2, holder);
        o2.maxFeeBps = 250;
        // B1, B2: seller2's bulk listing of three tokens of sc2 (leaves 2 and 0 bought).
        MarketCore.SignedListing[] memory bulk = new MarketCore.SignedListing[](3);
        uint256[2] memory pB = [uint256(0.5 ether + 3), 0.75 ether + 1];
        bulk[0] = order(sc2, mintIn(sc2, seller2), pB[1], seller2);
        bulk[1] = order(sc2, mintIn(sc2, seller2), 9 ether, seller2);
        bulk[2] = order(sc2, mintIn(sc2, seller2), pB[0], seller2);
        Tree memory t = buildTree(bulk, 2);
        bytes memory bsig = signTree(t, SELLER2_KEY);

        Carts.ListedPurchase[] memory listed = twoListed(listedP(address(collection), l1, pL1), listedP(address(sc), l2, pL2));
        Carts.SignedPurchase[] memory signed = new Carts.SignedPurchase[](4);
        signed[0] = signedP(o1, sign(o1, SELLER_KEY));
        signed[1] = signedP(o2, sign(o2, HOLDER_KEY));
        signed[2] = bulkP(bulk[2], bsig, t, 2);
        signed[3] = bulkP(bulk[0], bsig, t, 0);
        uint256 total = pL1 + pL2 + pS1 + pS2 + pB[0] + pB[1];

        Expect[] memory e = new Expect[](6);
        e[0] = Expect(address(collection), l1, artist, 1, pL1, pL1 * 1_000 / 10_000, 0, true);
        e[1] = Expect(address(sc), l2, holder, 1, pL2, pL2 * 1_000 / 10_000, pL2 * 1_000 / 10_000, true);
        e[2] = Expect(address(sc), s1, seller, 4, pS1, pS1 * 1_000 / 10_000, 0, true);
        e[3] = Expect(address(sc), s2, holder, 4, pS2, pS2 * 250 / 10_000, pS2 * 1_000 / 10_000, false);
        e[4] = Expect(address(sc2), bulk[2].tokenId, seller2, 4, pB[0], pB[0] * 1_000 / 10_000, 0, true);
        e[5] = Expect(address(sc2), bulk[0].tokenId, seller2, 4, pB[1], pB[1] * 1_000 / 10_000, 0, true);

        // Expected payouts.
        uint256 artistGets = pL1 - e[0].fee;
        uint256 holderGets = (pL2 - e[1].fee - e[1].royalty) + (pS2 - e[3].fee - e[3].royalty);
        uint256 sellerGets = e[1].royalty;
        uint256 c1Gets;
        uint256 c2Gets;
        {
            uint256 proceedsS1 = pS1 - e[2].fee;
            uint256 a1 = proceedsS1 * 30 / 100;
            uint256 a2 = proceedsS1 * 20 / 100;
            uint256 r = e[3].royalty;
            uint256 b1 = r * 30 / 100;
            uint256 b2 = r * 20 / 100;
            c1Gets = a1 + b1;
            c2Gets = a2 + b2;
            sellerGets += (proceedsS1 - a1 - a2) + (r - b1 - b2);
        }
        uint256 seller2Gets = pB[0] - e[4].fee + pB[1] - e[5].fee;
        uint256 fees = e[0].fee + e[1].fee + e[2].fee + e[3].fee + e[4].fee + e[5].fee;

        uint256[7] memory before = [
            buyer.balance,
            artist.balance,
            holder.balance,
            seller.balance,
            collab1.balance,
            collab2.balance,
            seller2.balance
        ];
        uint256 feesBefore = marketAdmin.feesAvailable();
        vm.recordLogs();
        cart(buyer, total + 5, listed, signed, true);
        Vm.Log[] memory logs = vm.getRecordedLogs();

        assertEq(before[0] - buyer.balance, total, "buyer: the sum, leftover refunded");
        assertEq(artist.balance - before[1], artistGets, "artist");
        assertEq(holder.balance - before[2], holderGets, "holder");
        assertEq(seller.balance - before[3], sellerGets, "seller: royalty, split proceeds and split royalty");
        assertEq(collab1.balance - before[4], c1Gets, "collaborator 1");
        assertEq(collab2.balance - before[5], c2Gets, "collaborator 2");
        assertEq(seller2.balance - before[6], seller2Gets, "seller2");
        assertEq(marketAdmin.feesAvailable() - feesBefore, fees, "platform fees");
        assertEq(
            artistGets + holderGets + sellerGets + c1Gets + c2Gets + seller2Gets + fees, total, "every wei accounted"
        );
        assertMarketSolvent();

        // One Sale per purchase, in cart order, each with its exact terms.
        uint256 k;
        for (uint256 i; i < logs.length; ++i) {
            if (logs[i].emitter != address(market) || logs[i].topics[0] != Sale.selector) continue;
            Expect memory x = e[k++];
            assertEq(address(uint160(uint256(logs[i].topics[1]))), x.collection, "Sale collection");
            assertEq(uint256(logs[i].topics[2]), x.tokenId, "Sale tokenId");
            assertEq(address(uint160(uint256(logs[i].topics[3]))), x.seller, "Sale seller");
            (address b, uint8 m, uint256 p, uint256 f, uint256 r, bool pr) =
                abi.decode(logs[i].data, (address, uint8, uint256, uint256, uint256, bool));
            assertEq(b, buyer, "Sale buyer");
            assertEq(m, x.mechanism, "Sale mechanism");
            assertEq(p, x.price, "Sale price");
            assertEq(f, x.fee, "Sale fee");
            assertEq(r, x.royalty, "Sale royalty");
            assertTrue(pr == x.primary, "Sale primary");
        }
        assertEq(k, 6, "six Sale events");
        assertEq(collection.ownerOf(l1), buyer, "l1");
        assertEq(sc.ownerOf(l2), buyer, "l2");
        assertEq(sc.ownerOf(s1), buyer, "s1");
        assertEq(sc.ownerOf(s2), buyer, "s2");
        assertEq(sc2.ownerOf(bulk[2].tokenId), buyer, "b1");
        assertEq(sc2.ownerOf(bulk[0].tokenId), buyer, "b2");
        assertEq(sc2.ownerOf(bulk[1].tokenId), seller2, "leaf 1 not in the cart");
    }

    // ------------------------------------------------------------ size

    function test_cart_size_zeroAnd51Refused_50Allowed() public {
        vm.expectRevert(abi.encodeWithSelector(Carts.CartSizeOutOfRange.selector, 0, 50));
        cart(buyer, 1 ether, noListed(), noSigned(), false);
        vm.expectRevert(abi.encodeWithSelector(Carts.CartSizeOutOfRange.selector, 0, 50));
        cart(buyer, 0, noListed(), noSigned(), true);

        // 20 on-chain listings and 30 leaves of one bulk signature.
        Carts.ListedPurchase[] memory listed = new Carts.ListedPurchase[](20);
        for (uint256 i; i < 20; ++i) {
            listed[i] = listedP(address(collection), listedByArtist(0.05 ether), 0.05 ether);
        }
        MarketCore.SignedListing[] memory orders = new MarketCore.SignedListing[](31);
        for (uint256 i; i < 31; ++i) {
            orders[i] = order(sc, mintIn(sc, seller), 0.05 ether, seller);
        }
        Tree memory t = buildTree(orders, 5);
        bytes memory sig = signTree(t, SELLER_KEY);
        Carts.SignedPurchase[] memory signed31 = new Carts.SignedPurchase[](31);
        Carts.SignedPurchase[] memory signed30 = new Carts.SignedPurchase[](30);
        for (uint256 i; i < 31; ++i) {
            signed31[i] = bulkP(orders[i], sig, t, i);
            if (i < 30) signed30[i] = signed31[i];
        }
        vm.expectRevert(abi.encodeWithSelector(Carts.CartSizeOutOfRange.selector, 51, 50));
        cart(buyer, 3 ether, listed, signed31, false);
        vm.expectRevert(abi.encodeWithSelector(Carts.CartSizeOutOfRange.selector, 51, 50));
        cart(buyer, 3 ether, listed, signed31, true);
        Carts.ListedPurchase[] memory listed51 = new Carts.ListedPurchase[](51);
        vm.expectRevert(abi.encodeWithSelector(Carts.CartSizeOutOfRange.selector, 51, 50));
        cart(buyer, 3 ether, listed51, noSigned(), false);
        Carts.SignedPurchase[] memory signed51 = new Carts.SignedPurchase[](51);
        vm.expectRevert(abi.encodeWithSelector(Carts.CartSizeOutOfRange.selector, 51, 50));
        cart(buyer, 3 ether, noListed(), signed51, false);

        uint256 before = buyer.balance;
        vm.recordLogs();
        cart(buyer, 3 ether, listed, signed30, true);
        Vm.Log[] memory logs = vm.getRecordedLogs();
        assertEq(countSales(logs), 50, "fifty sales");
        assertEq(before - buyer.balance, 2.5 ether, "fifty prices");
        for (uint256 i; i < 20; ++i) {
            assertEq(collection.ownerOf(listed[i].tokenId), buyer, "listed bought");
        }
        for (uint256 i; i < 30; ++i) {
            assertEq(sc.ownerOf(orders[i].tokenId), buyer, "bulk leaf bought");
        }
        assertEq(sc.ownerOf(orders[30].tokenId), seller, "leaf 30 was not in the cart");
        assertMarketSolvent();
    }

    // ------------------------------------------------------------ the cart's internals

    /// `buyListedFor` and `fillSignedPurchaseFor` pay from the market's balance: anyone but the market calling them
    /// would take a token for free.
    function test_directCallsToCartInternals_refused() public {
        uint256 id = listedByArtist(1 ether);
        uint256 sid = mintIn(sc, seller);
        MarketCore.SignedListing memory o = order(sc, sid, 1 ether, seller);
        Carts.SignedPurchase memory p = signedP(o, sign(o, SELLER_KEY));
        // The market holds ETH (fees) that a free purchase could be paid from.
        uint256 feeId = mintIn(sc, seller);
        MarketCore.SignedListing memory fo = order(sc, feeId, 0.5 ether, seller);
        vm.prank(other);
        market.fillSignedListing{value: 0.5 ether}(fo, sign(fo, SELLER_KEY));
        assertTrue(address(market).balance > 0, "the market holds fees");

        address[4] memory callers = [buyer, artist, admin, seller];
        for (uint256 i; i < callers.length; ++i) {
            vm.expectRevert(abi.encodeWithSelector(Carts.OnlyMarket.selector, callers[i]));
            vm.prank(callers[i]);
            market.buyListedFor(address(collection), id, 1 ether, callers[i]);
            vm.expectRevert(abi.encodeWithSelector(Carts.OnlyMarket.selector, callers[i]));
            vm.prank(callers[i]);
            market.fillSignedPurchaseFor(p, callers[i]);
        }
        TestActor actor = new TestActor();
        vm.expectRevert(abi.encodeWithSelector(Carts.OnlyMarket.selector, address(actor)));
        actor.act(address(market), abi.encodeCall(market.buyListedFor, (address(collection), id, 1 ether, address(actor))));
        vm.expectRevert(abi.encodeWithSelector(Carts.OnlyMarket.selector, address(actor)));
        actor.act(address(market), abi.encodeCall(market.fillSignedPurchaseFor, (p, address(actor))));
        // Through the administration code's own address: it has no such function.
        (bool ok,) = adminCode.call(abi.encodeCall(market.buyListedFor, (address(collection), id, 1 ether, buyer)));
        assertTrue(!ok, "the admin code does not sell");
        assertEq(collection.ownerOf(id), artist, "listed token not taken");
        assertEq(sc.ownerOf(sid), seller, "signed token not taken");
        // Both still sell, paid, through a cart.
        cart(buyer, 2 ether, oneListed(listedP(address(collection), id, 1 ether)), oneSigned(p), true);
        assertEq(collection.ownerOf(id), buyer, "bought");
        assertEq(sc.ownerOf(sid), buyer, "bought");
        assertMarketSolvent();
    }
}
