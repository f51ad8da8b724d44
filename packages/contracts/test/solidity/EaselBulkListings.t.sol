// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {EaselOrderFixture} from "./EaselOrderFixture.sol";
import {TestWallet} from "../../contracts/test/TestWallet.sol";
import {EaselCollection} from "../../contracts/EaselCollection.sol";
import {MarketCore} from "../../contracts/market/MarketCore.sol";
import {Carts} from "../../contracts/market/Carts.sol";
import {EaselMarketAdmin} from "../../contracts/EaselMarketAdmin.sol";
import {ERC721} from "solady/src/tokens/ERC721.sol";

/// @dev Bulk listings (`fillBulkSignedListing`), attacked: trees of 2, 64 and 1,024 leaves; proofs from another
/// seller's tree, of another depth, of another leaf; indexes outside the tree; the zero padding leaves; a leaf in
/// two trees; every way a signed listing dies; high-s twins; a seller contract (ERC-1271). The trees are built
/// here from the EIP-712 rules, not with the market's helpers, so a test also checks the market's hashing.
contract EaselBulkListingsTest is EaselOrderFixture {
    // ------------------------------------------------------------ helpers

    function status(MarketCore.SignedListing memory o, bytes memory sig, Tree memory t, uint256 index)
        internal
        view
        returns (EaselMarketAdmin.SignedListingStatus)
    {
        return marketAdmin.bulkSignedListingStatus(o, sig, index, proofOf(t, index));
    }

    function fillBulk(address who, MarketCore.SignedListing memory o, bytes memory sig, Tree memory t, uint256 index)
        internal
    {
        vm.prank(who);
        market.fillBulkSignedListing{value: o.price}(o, packBulk(sig, index, proofOf(t, index)));
    }

    function fillBulkProof(
        address who,
        MarketCore.SignedListing memory o,
        bytes memory sig,
        uint256 index,
        bytes32[] memory proof
    ) internal {
        vm.prank(who);
        market.fillBulkSignedListing{value: o.price}(o, packBulk(sig, index, proof));
    }

    /// @dev `n` listings by `seller` of fresh tokens of `sc`, priced 1 ether + i wei.
    function freshOrders(uint256 n) internal returns (MarketCore.SignedListing[] memory orders) {
        orders = new MarketCore.SignedListing[](n);
        for (uint256 i; i < n; ++i) {
            uint256 id = mintIn(sc, seller);
            orders[i] = order(sc, id, 1 ether + i, seller);
        }
    }

    function isLive(MarketCore.SignedListing memory o, bytes memory sig, Tree memory t, uint256 index)
        internal
        view
        returns (bool)
    {
        return status(o, sig, t, index) == EaselMarketAdmin.SignedListingStatus.Live;
    }

    function isVoid(MarketCore.SignedListing memory o, bytes memory sig, Tree memory t, uint256 index)
        internal
        view
        returns (bool)
    {
        return status(o, sig, t, index) == EaselMarketAdmin.SignedListingStatus.Void;
    }

    // ------------------------------------------------------------ trees of every size

    function test_tree2_height1_bothLeavesFill() public {
        MarketCore.SignedListing[] memory orders = freshOrders(2);
        Tree memory t = buildTree(orders, 1);
        bytes memory sig = signTree(t, SELLER_KEY);
        assertEq(marketAdmin.hashBulkListing(rootOf(t), 1), bulkDigest(rootOf(t), 1), "the market's digest is ours");
        assertTrue(isLive(orders[1], sig, t, 1) && isLive(orders[0], sig, t, 0), "both live");
        uint256 sellerBefore = seller.balance;
        uint256 feesBefore = marketAdmin.feesAvailable();
        uint256 p1 = orders[1].price;
        assertEq(p1, 1 ether + 1, "odd price");
        // The right leaf first.
        vm.expectEmit();
        emit Sale(address(sc), orders[1].tokenId, seller, buyer, 4, p1, p1 * 1_000 / 10_000, 0, true);
        fillBulk(buyer, orders[1], sig, t, 1);
        assertEq(sc.ownerOf(orders[1].tokenId), buyer, "right leaf bought");
        assertTrue(isVoid(orders[1], sig, t, 1), "right leaf void after its fill");
        assertTrue(isLive(orders[0], sig, t, 0), "left leaf still live");
        fillBulk(other, orders[0], sig, t, 0);
        assertEq(sc.ownerOf(orders[0].tokenId), other, "left leaf bought");
        uint256 fees = p1 * 1_000 / 10_000 + 1 ether * 1_000 / 10_000;
        assertEq(marketAdmin.feesAvailable() - feesBefore, fees, "two primary commissions");
        assertEq(seller.balance - sellerBefore, p1 + 1 ether - fees, "seller paid both, to the wei");
        assertMarketSolvent();
    }

    function test_tree64_height6_everyLeafFillsOnce() public {
        MarketCore.SignedListing[] memory orders = freshOrders(64);
        Tree memory t = buildTree(orders, 6);
        bytes memory sig = signTree(t, SELLER_KEY);
        assertEq(marketAdmin.hashBulkListing(rootOf(t), 6), bulkDigest(rootOf(t), 6), "digest");
        for (uint256 k; k < 64; ++k) {
            // A scrambled order of leaves: 0, 37, 10, 47, ... (37 is odd, so every leaf comes once).
            uint256 i = (k * 37) % 64;
            assertTrue(isLive(orders[i], sig, t, i), "live before its fill");
            fillBulk(k % 2 == 0 ? buyer : other, orders[i], sig, t, i);
            assertTrue(isVoid(orders[i], sig, t, i), "void after its fill");
        }
        for (uint256 i; i < 64; ++i) {
            assertEq(sc.ownerOf(orders[i].tokenId), _ownerOfLeaf(i), "the buyer of each leaf");
        }
        // A second fill of any leaf is refused.
        vm.expectRevert(abi.encodeWithSelector(ERC721.NotOwnerNorApproved.selector));
        fillBulk(bidder, orders[63], sig, t, 63);
        assertMarketSolvent();
    }

    /// @dev Who bought leaf `i` in `test_tree64_height6_everyLeafFillsOnce`: leaf i came at step k with
    /// k * 37 = i (mod 64), i.e. k = i * 45 mod 64 (45 = 37^-1 mod 64).
    function _ownerOfLeaf(uint256 i) private view returns (address) {
        uint256 k = (i * 45) % 64;
        return k % 2 == 0 ? buyer : other;
    }

    function test_tree1024_height10_edgesAndMiddleFill() public {
        uint256[4] memory real = [uint256(0), 1, 512, 1023];
        MarketCore.SignedListing[] memory orders = new MarketCore.SignedListing[](1024);
        for (uint256 i; i < 1024; ++i) {
            // Listings of tokens that do not exist (yet): they fill nothing, but they are leaves of the tree.
            orders[i] = MarketCore.SignedListing({
                collection: address(sc),
                tokenId: 100_000 + i,
                price: 1 ether,
                seller: seller,
                transferCount: 0,
                counter: 0,
                expiresAt: block.timestamp + 30 days,
                maxFeeBps: 1_000
            });
        }
        for (uint256 j; j < 4; ++j) {
            uint256 id = mintIn(sc, seller);
            orders[real[j]] = order(sc, id, 2 ether + j, seller);
        }
        Tree memory t = buildTree(orders, 10);
        bytes memory sig = signTree(t, SELLER_KEY);
        assertEq(marketAdmin.hashBulkListing(rootOf(t), 10), bulkDigest(rootOf(t), 10), "digest");
        // A leaf whose token does not exist: the signature is valid, the token is not there.
        assertTrue(isVoid(orders[700], sig, t, 700), "missing token: void");
        vm.expectRevert(ERC721.TokenDoesNotExist.selector);
        fillBulk(buyer, orders[700], sig, t, 700);
        for (uint256 j; j < 4; ++j) {
            uint256 i = real[j];
            assertTrue(isLive(orders[i], sig, t, i), "live");
            vm.expectEmit();
            emit Sale(address(sc), orders[i].tokenId, seller, buyer, 4, 2 ether + j, (2 ether + j) * 1_000 / 10_000, 0, true);
            fillBulk(buyer, orders[i], sig, t, i);
            assertEq(sc.ownerOf(orders[i].tokenId), buyer, "bought");
            assertTrue(isVoid(orders[i], sig, t, i), "void");
        }
        assertMarketSolvent();
    }

    /// For every height 1..10, the type string the market publishes is the spec's, and its hash is the type hash
    /// the market uses: a signature over the digest computed here from that string fills.
    function test_typeHash_everyHeight() public {
        for (uint256 h = 1; h <= 10; ++h) {
            assertEq(marketAdmin.bulkListingType(h), bulkType(h), "type string");
            uint256 id = mintIn(sc, seller);
            MarketCore.SignedListing[] memory orders = new MarketCore.SignedListing[](1 << h);
            uint256 index = (1 << h) - 1;
            for (uint256 i; i < index; ++i) {
                orders[i] = zeroListing();
            }
            // The last leaf: every bit of its index says "right".
            orders[index] = order(sc, id, 1 ether, seller);
            Tree memory t = buildTree(orders, h);
            bytes32 ours = keccak256(
                abi.encodePacked(
                    "\x19\x01", domainSeparator(), keccak256(abi.encode(keccak256(bytes(bulkType(h))), rootOf(t)))
                )
            );
            assertEq(marketAdmin.hashBulkListing(rootOf(t), h), ours, "hashBulkListing");
            bytes memory sig = signDigest(ours, SELLER_KEY);
            assertTrue(isLive(orders[index], sig, t, index), "live");
            fillBulk(buyer, orders[index], sig, t, index);
            assertEq(sc.ownerOf(id), buyer, "filled at this height");
        }
        vm.expectRevert(MarketCore.InvalidBulkProof.selector);
        marketAdmin.bulkListingType(0);
        vm.expectRevert(MarketCore.InvalidBulkProof.selector);
        marketAdmin.bulkListingType(11);
        vm.expectRevert(MarketCore.InvalidBulkProof.selector);
        marketAdmin.hashBulkListing(bytes32(0), 11);
        vm.expectRevert(MarketCore.InvalidBulkProof.selector);
        marketAdmin.hashBulkListing(bytes32(0), 0);
    }

    // ------------------------------------------------------------ forged proofs

    /// seller2 signs a tree with a listing that names seller (and seller's token); seller's listing with
    /// seller2's signature and proof; seller2's genuine listing under seller's name.
    function test_proofForAnotherSellersRoot() public {
        MarketCore.SignedListing[] memory mine = freshOrders(3);
        Tree memory myTree = buildTree(mine, 2);
        bytes memory mySig = signTree(myTree, SELLER_KEY);

        MarketCore.SignedListing[] memory theirs = new MarketCore.SignedListing[](4);
        theirs[0] = order(sc2, mintIn(sc2, seller2), 1 ether, seller2);
        theirs[1] = order(sc2, mintIn(sc2, seller2), 1 ether, seller2);
        // seller2 lists seller's token, under seller's name, at a low price.
        theirs[2] = mine[0];
        theirs[2].price = 0.05 ether;
        theirs[3] = mine[1];
        Tree memory theirTree = buildTree(theirs, 2);
        bytes memory theirSig = signTree(theirTree, SELLER2_KEY);

        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller));
        fillBulk(buyer, theirs[2], theirSig, theirTree, 2);
        // Even a leaf identical to one of seller's own.
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller));
        fillBulk(buyer, theirs[3], theirSig, theirTree, 3);
        assertTrue(
            status(theirs[3], theirSig, theirTree, 3) == EaselMarketAdmin.SignedListingStatus.InvalidSignature, "st"
        );
        // seller's leaf and proof with seller2's signature.
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller));
        fillBulk(buyer, mine[1], theirSig, myTree, 1);
        // seller's leaf with seller2's proof (and seller's signature).
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller));
        fillBulkProof(buyer, mine[1], mySig, 3, proofOf(theirTree, 3));
        // seller2's genuine leaf, with seller's signature.
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller2));
        fillBulk(buyer, theirs[0], mySig, theirTree, 0);
        // Nothing moved; both trees still fill as signed.
        assertEq(sc.ownerOf(mine[0].tokenId), seller, "seller's token stayed");
        fillBulk(buyer, mine[1], mySig, myTree, 1);
        fillBulk(buyer, theirs[0], theirSig, theirTree, 0);
        assertEq(sc.ownerOf(mine[1].tokenId), buyer, "seller's own tree");
        assertEq(sc2.ownerOf(theirs[0].tokenId), buyer, "seller2's own tree");
    }

    /// A height-5 proof (the first five siblings) for a leaf of a height-6 tree, a height-7 one, and the
    /// height-5 subtree's root signed as a tree of its own.
    function test_proofOfTheWrongDepth() public {
        MarketCore.SignedListing[] memory orders = freshOrders(40);
        Tree memory t = buildTree(orders, 6);
        bytes memory sig = signTree(t, SELLER_KEY);
        uint256 i = 37;
        bytes32[] memory full = proofOf(t, i);
        bytes32[] memory short = new bytes32[](5);
        for (uint256 k; k < 5; ++k) {
            short[k] = full[k];
        }
        // Index 37 >> 5 = 1 is outside a height-5 tree: the shape itself is refused ...
        vm.expectRevert(MarketCore.InvalidBulkProof.selector);
        fillBulkProof(buyer, orders[i], sig, i, short);
        // ... and within it (37 mod 32 = 5), the height-5 digest is not the one signed.
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller));
        fillBulkProof(buyer, orders[i], sig, i % 32, short);
        assertTrue(
            marketAdmin.bulkSignedListingStatus(orders[i], sig, i % 32, short)
                == EaselMarketAdmin.SignedListingStatus.InvalidSignature,
            "short status"
        );
        bytes32[] memory long = new bytes32[](7);
        for (uint256 k; k < 6; ++k) {
            long[k] = full[k];
        }
        long[6] = rootOf(t);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller));
        fillBulkProof(buyer, orders[i], sig, i, long);
        // The left height-5 half (leaves 0-31) is node 0 of level 5: signed over the height-6 type, its root
        // with a height-5 type is another digest.
        Tree memory half = buildTree(_slice(orders, 0, 32), 5);
        assertEq(rootOf(half), t.levels[5][0], "the half is the subtree");
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller));
        fillBulk(buyer, orders[5], sig, half, 5);
        // The right proof of the right depth fills.
        fillBulkProof(buyer, orders[i], sig, i, full);
        assertEq(sc.ownerOf(orders[i].tokenId), buyer, "filled with its own proof");
    }

    function _slice(MarketCore.SignedListing[] memory a, uint256 from, uint256 to)
        private
        pure
        returns (MarketCore.SignedListing[] memory b)
    {
        b = new MarketCore.SignedListing[](to - from);
        for (uint256 i = from; i < to; ++i) {
            b[i - from] = a[i];
        }
    }

    function test_proofShape_outOfRangeEmptyAndTooDeep() public {
        MarketCore.SignedListing[] memory orders = freshOrders(5);
        Tree memory t = buildTree(orders, 3);
        bytes memory sig = signTree(t, SELLER_KEY);
        bytes32[] memory proof = proofOf(t, 4);
        // Index 8 in a tree of 8 leaves, and index 4 with a high bit set (the same low bits): the highest of the
        // fill's 16-bit index, and of the status view's 256-bit one.
        vm.expectRevert(MarketCore.InvalidBulkProof.selector);
        fillBulkProof(buyer, orders[4], sig, 8, proof);
        vm.expectRevert(MarketCore.InvalidBulkProof.selector);
        fillBulkProof(buyer, orders[4], sig, 4 | (1 << 15), proof);
        vm.expectRevert(MarketCore.InvalidBulkProof.selector);
        marketAdmin.bulkSignedListingStatus(orders[4], sig, 4 | (1 << 255), proof);
        vm.expectRevert(MarketCore.InvalidBulkProof.selector);
        fillBulkProof(buyer, orders[4], sig, 4 | (1 << 3), proof);
        vm.expectRevert(MarketCore.InvalidBulkProof.selector);
        marketAdmin.bulkSignedListingStatus(orders[4], sig, 12, proof);
        // An empty proof.
        vm.expectRevert(MarketCore.InvalidBulkProof.selector);
        fillBulkProof(buyer, orders[4], sig, 0, new bytes32[](0));
        vm.expectRevert(MarketCore.InvalidBulkProof.selector);
        marketAdmin.bulkSignedListingStatus(orders[4], sig, 0, new bytes32[](0));
        // Eleven levels (the signer could not even have signed such a type).
        bytes32[] memory deep = new bytes32[](11);
        for (uint256 k; k < 3; ++k) {
            deep[k] = proof[k];
        }
        vm.expectRevert(MarketCore.InvalidBulkProof.selector);
        fillBulkProof(buyer, orders[4], sig, 4, deep);
        vm.expectRevert(MarketCore.InvalidBulkProof.selector);
        marketAdmin.bulkSignedListingStatus(orders[4], sig, 4, deep);
        // A leaf's proof used at its sibling's index.
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller));
        fillBulkProof(buyer, orders[4], sig, 5, proof);
        assertTrue(
            marketAdmin.bulkSignedListingStatus(orders[4], sig, 5, proof)
                == EaselMarketAdmin.SignedListingStatus.InvalidSignature,
            "sibling index"
        );
        // A bulk leaf sent as a single signed listing.
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller));
        vm.prank(buyer);
        market.fillSignedListing{value: orders[4].price}(orders[4], sig);
        // In a cart: an empty proof means a single signed listing (refused the same way), and a bad shape is
        // refused as in the single form.
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller));
        cart(buyer, orders[4].price, noListed(), oneSigned(signedP(orders[4], sig)), true);
        Carts.SignedPurchase memory bad = bulkP(orders[4], sig, t, 4);
        bad.bulkIndex = 8;
        vm.expectRevert(MarketCore.InvalidBulkProof.selector);
        cart(buyer, orders[4].price, noListed(), oneSigned(bad), true);
        bad.bulkIndex = 4;
        bad.bulkProof = deep;
        vm.expectEmit();
        emit PurchaseSkipped(
            address(sc), orders[4].tokenId, buyer, orders[4].price, abi.encodeWithSelector(MarketCore.InvalidBulkProof.selector)
        );
        cart(buyer, orders[4].price, noListed(), oneSigned(bad), false);
        fillBulkProof(buyer, orders[4], sig, 4, proof);
        assertEq(sc.ownerOf(orders[4].tokenId), buyer, "the genuine proof fills");
    }

    // ------------------------------------------------------------ one listing, many signatures

    /// The same listing in two trees (and signed alone): it fills once, whichever form comes first, even when its
    /// first buyer approved the market for all their tokens.
    function test_leafReusedAcrossTwoRoots_fillsOnce() public {
        MarketCore.SignedListing[] memory orders = freshOrders(4);
        MarketCore.SignedListing[] memory a = new MarketCore.SignedListing[](2);
        a[0] = orders[0];
        a[1] = orders[1];
        MarketCore.SignedListing[] memory b = new MarketCore.SignedListing[](4);
        b[0] = orders[2];
        b[1] = orders[3];
        b[2] = orders[0];
        b[3] = orders[1];
        Tree memory ta = buildTree(a, 1);
        Tree memory tb = buildTree(b, 2);
        bytes memory sa = signTree(ta, SELLER_KEY);
        bytes memory sb = signTree(tb, SELLER_KEY);
        bytes memory single = sign(orders[0], SELLER_KEY);
        assertTrue(isLive(orders[0], sa, ta, 0) && isLive(orders[0], sb, tb, 2), "live in both trees");

        vm.prank(buyer);
        sc.setApprovalForAll(address(market), true);
        uint256 sellerBefore = seller.balance;
        fillBulk(buyer, orders[0], sa, ta, 0);
        assertEq(seller.balance - sellerBefore, 0.9 ether, "paid once");
        // The other tree, then the single signature: the token moved (count 1, the count the sale reads before
        // its own move); the attempt would move it from the approving buyer to `other`, and is undone.
        vm.expectRevert(abi.encodeWithSelector(MarketCore.SellOrderVoid.selector, 0, 1));
        fillBulk(other, orders[0], sb, tb, 2);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.SellOrderVoid.selector, 0, 1));
        vm.prank(other);
        market.fillSignedListing{value: 1 ether}(orders[0], single);
        assertTrue(isVoid(orders[0], sb, tb, 2) && isVoid(orders[0], sa, ta, 0), "void in both trees");
        assertTrue(
            marketAdmin.signedListingStatus(orders[0], single) == EaselMarketAdmin.SignedListingStatus.Void, "single"
        );
        assertEq(sc.ownerOf(orders[0].tokenId), buyer, "the first buyer keeps it");
        assertEq(sc.transferCountOf(orders[0].tokenId), 1, "the undone attempt left no trace");
        assertEq(seller.balance - sellerBefore, 0.9 ether, "still paid once");
        // Leaf 1 is in both trees too: the second tree fills it, then the first cannot.
        fillBulk(other, orders[1], sb, tb, 3);
        vm.expectRevert(abi.encodeWithSelector(ERC721.NotOwnerNorApproved.selector));
        fillBulk(buyer, orders[1], sa, ta, 1);
        assertMarketSolvent();
    }

    // ------------------------------------------------------------ every way a listing dies

    function test_counterBump_voidsTheWholeTree() public {
        MarketCore.SignedListing[] memory orders = freshOrders(3);
        Tree memory t = buildTree(orders, 2);
        bytes memory sig = signTree(t, SELLER_KEY);
        fillBulk(buyer, orders[0], sig, t, 0);
        vm.prank(seller);
        marketAdmin.incrementListingCounter();
        for (uint256 i = 1; i < 3; ++i) {
            assertTrue(
                status(orders[i], sig, t, i) == EaselMarketAdmin.SignedListingStatus.CounterIncremented, "status"
            );
            vm.expectRevert(abi.encodeWithSelector(MarketCore.ListingCounterChanged.selector, 0, 1));
            fillBulk(buyer, orders[i], sig, t, i);
        }
        // A new tree at the new counter.
        MarketCore.SignedListing[] memory again = new MarketCore.SignedListing[](2);
        again[0] = order(sc, orders[1].tokenId, 1 ether, seller);
        again[1] = order(sc, orders[2].tokenId, 1 ether, seller);
        assertEq(again[0].counter, 1, "new counter");
        Tree memory t2 = buildTree(again, 1);
        bytes memory sig2 = signTree(t2, SELLER_KEY);
        assertTrue(isLive(again[1], sig2, t2, 1), "new tree live");
        fillBulk(buyer, again[1], sig2, t2, 1);
        assertEq(sc.ownerOf(orders[2].tokenId), buyer, "re-signed listing fills");
    }

    function test_cancelSignedListing_voidsThatTokenOnly() public {
        MarketCore.SignedListing[] memory orders = freshOrders(4);
        Tree memory t = buildTree(orders, 2);
        bytes memory sig = signTree(t, SELLER_KEY);
        vm.prank(seller);
        marketAdmin.cancelSignedListing(address(sc), orders[2].tokenId);
        assertTrue(isVoid(orders[2], sig, t, 2), "cancelled: void");
        vm.expectRevert(abi.encodeWithSelector(MarketCore.SellOrderVoid.selector, 0, 1));
        fillBulk(buyer, orders[2], sig, t, 2);
        assertEq(sc.ownerOf(orders[2].tokenId), seller, "not sold");
        // The others of the tree are untouched.
        for (uint256 i; i < 4; ++i) {
            if (i == 2) continue;
            assertTrue(isLive(orders[i], sig, t, i), "others live");
            fillBulk(buyer, orders[i], sig, t, i);
        }
    }

    function test_tokenMovedAndCameBack_void() public {
        MarketCore.SignedListing[] memory orders = freshOrders(2);
        Tree memory t = buildTree(orders, 1);
        bytes memory sig = signTree(t, SELLER_KEY);
        vm.prank(seller);
        sc.transferFrom(seller, other, orders[0].tokenId);
        vm.prank(other);
        sc.transferFrom(other, seller, orders[0].tokenId);
        assertEq(sc.ownerOf(orders[0].tokenId), seller, "back with the seller");
        assertTrue(isVoid(orders[0], sig, t, 0), "void");
        vm.expectRevert(abi.encodeWithSelector(MarketCore.SellOrderVoid.selector, 0, 2));
        fillBulk(buyer, orders[0], sig, t, 0);
        assertTrue(isLive(orders[1], sig, t, 1), "the other leaf lives");
    }

    /// `fillBulkSignedListing`'s packed `bulkSignature`, misstated: shorter than its header, a header claiming
    /// more or fewer levels than the proof holds, a height of zero, a signature cut short or followed by more
    /// bytes, and a header completed from the ABI padding after the bytes (read from raw calldata).
    function test_packedBulkSignature_misstated() public {
        MarketCore.SignedListing[] memory orders = freshOrders(5);
        Tree memory t = buildTree(orders, 3);
        bytes memory sig = signTree(t, SELLER_KEY);
        // Leaf 1: an index inside a tree of 2, 3 or 4 levels, so that only the misstated height is wrong.
        bytes32[] memory proof = proofOf(t, 1);
        MarketCore.SignedListing memory o = orders[1];
        bytes memory good = packBulk(sig, 1, proof);
        // Shorter than the header, and than the header and the proof it announces.
        bytes[4] memory short = [bytes(""), bytes(hex"03"), bytes(hex"0300"), _cut(good, 3 + 3 * 32 - 1)];
        for (uint256 k; k < short.length; ++k) {
            vm.expectRevert(MarketCore.InvalidBulkProof.selector);
            vm.prank(buyer);
            market.fillBulkSignedListing{value: o.price}(o, short[k]);
        }
        // A height of zero before a whole proof and signature.
        bytes memory zeroHeight = bytes.concat(good);
        zeroHeight[0] = 0x00;
        vm.expectRevert(MarketCore.InvalidBulkProof.selector);
        vm.prank(buyer);
        market.fillBulkSignedListing{value: o.price}(o, zeroHeight);
        // One level more (the signature's first 32 bytes read as a hash) or one less (the last hash read as the
        // signature's start): the signature no longer checks.
        bytes memory more = bytes.concat(good);
        more[0] = 0x04;
        bytes memory less = bytes.concat(good);
        less[0] = 0x02;
        bytes[4] memory wrong = [more, less, _cut(good, good.length - 1), bytes.concat(good, hex"00")];
        for (uint256 k; k < wrong.length; ++k) {
            vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller));
            vm.prank(buyer);
            market.fillBulkSignedListing{value: o.price}(o, wrong[k]);
        }
        // A two-byte `bulkSignature` whose ABI padding holds the rest of a valid header and proof: only the
        // declared bytes count.
        bytes memory raw = abi.encodeCall(market.fillBulkSignedListing, (o, good));
        uint256 lengthAt = raw.length - ((good.length + 31) / 32) * 32 - 32;
        assembly ("memory-safe") {
            mstore(add(add(raw, 0x20), lengthAt), 2)
        }
        vm.prank(buyer);
        (bool ok, bytes memory reason) = address(market).call{value: o.price}(raw);
        assertTrue(!ok, "a header completed from the padding");
        assertEq(
            keccak256(reason), keccak256(abi.encodeWithSelector(MarketCore.InvalidBulkProof.selector)), "a short proof"
        );
        // The genuine one fills.
        vm.prank(buyer);
        market.fillBulkSignedListing{value: o.price}(o, good);
        assertEq(sc.ownerOf(o.tokenId), buyer, "filled");
    }

    function _cut(bytes memory b, uint256 length) private pure returns (bytes memory out) {
        out = new bytes(length);
        for (uint256 i; i < length; ++i) {
            out[i] = b[i];
        }
    }

    function test_everyRuleOfASignedFillApplies() public {
        MarketCore.SignedListing[] memory orders = freshOrders(3);
        orders[1].maxFeeBps = 500;
        orders[2].expiresAt = block.timestamp + 1 hours;
        Tree memory t = buildTree(orders, 2);
        bytes memory sig = signTree(t, SELLER_KEY);
        // The exact price.
        vm.expectRevert(
            abi.encodeWithSelector(MarketCore.IncorrectPayment.selector, orders[0].price, orders[0].price + 1)
        );
        vm.prank(buyer);
        market.fillBulkSignedListing{value: orders[0].price + 1}(orders[0], packBulk(sig, 0, proofOf(t, 0)));
        // The fee cap the seller signed.
        assertTrue(status(orders[1], sig, t, 1) == EaselMarketAdmin.SignedListingStatus.FeeAboveMax, "fee st");
        vm.expectRevert(abi.encodeWithSelector(MarketCore.FeeAboveSignedMax.selector, 1_000, 500));
        fillBulk(buyer, orders[1], sig, t, 1);
        // The entrance lock.
        vm.prank(admin);
        marketAdmin.setEntranceLocked(true);
        assertTrue(status(orders[0], sig, t, 0) == EaselMarketAdmin.SignedListingStatus.Refused, "lock st");
        vm.expectRevert(MarketCore.MarketEntranceIsLocked.selector);
        fillBulk(buyer, orders[0], sig, t, 0);
        vm.prank(admin);
        marketAdmin.setEntranceLocked(false);
        // The seller cannot buy their own.
        vm.deal(seller, 10 ether);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.TokenOwnerCannotCall.selector, seller));
        fillBulk(seller, orders[0], sig, t, 0);
        // Expiry.
        vm.warp(orders[2].expiresAt);
        assertTrue(status(orders[2], sig, t, 2) == EaselMarketAdmin.SignedListingStatus.Expired, "expired st");
        vm.expectRevert(abi.encodeWithSelector(MarketCore.SellOrderExpired.selector, orders[2].expiresAt));
        fillBulk(buyer, orders[2], sig, t, 2);
        fillBulk(buyer, orders[0], sig, t, 0);
        assertEq(sc.ownerOf(orders[0].tokenId), buyer, "the valid leaf fills");
    }

    // ------------------------------------------------------------ padding

    /// A tree of 3 listings is padded with one zero listing (leaf 3): its proof is valid, but it names no
    /// collection, no seller and no price, and nobody can fill it (directly or in a cart).
    function test_zeroPaddingLeaf_cannotBeFilled() public {
        MarketCore.SignedListing[] memory orders = freshOrders(3);
        Tree memory t = buildTree(orders, 2);
        bytes memory sig = signTree(t, SELLER_KEY);
        MarketCore.SignedListing memory zero = zeroListing();
        assertEq(t.levels[0][3], structHash(zero), "leaf 3 is the zero listing");
        assertTrue(
            status(zero, sig, t, 3) == EaselMarketAdmin.SignedListingStatus.InvalidSignature,
            "the seller of a zero listing is nobody"
        );
        vm.expectRevert(abi.encodeWithSelector(MarketCore.CollectionNotSupported.selector, address(0)));
        fillBulk(buyer, zero, sig, t, 3);
        // In a cart: skipped with the same reason, the ETH sent returned.
        uint256 before = buyer.balance;
        vm.expectEmit();
        emit PurchaseSkipped(
            address(0),
            0,
            buyer,
            0,
            abi.encodeWithSelector(MarketCore.CollectionNotSupported.selector, address(0))
        );
        cart(buyer, 1 ether, noListed(), oneSigned(bulkP(zero, sig, t, 3)), false);
        assertEq(buyer.balance, before, "refunded");
        vm.expectRevert(abi.encodeWithSelector(MarketCore.CollectionNotSupported.selector, address(0)));
        cart(buyer, 1 ether, noListed(), oneSigned(bulkP(zero, sig, t, 3)), true);
        // The padding's proof with a real listing in its place does not verify.
        MarketCore.SignedListing memory planted = order(sc, mintIn(sc, seller), 0.05 ether, seller);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller));
        fillBulk(buyer, planted, sig, t, 3);
        assertMarketSolvent();
    }

    // ------------------------------------------------------------ signatures

    function test_highSTwinOfABulkSignature_refused() public {
        MarketCore.SignedListing[] memory orders = freshOrders(2);
        Tree memory t = buildTree(orders, 1);
        bytes32 d = bulkDigest(rootOf(t), 1);
        bytes memory twin = highSTwin(d, SELLER_KEY);
        (uint8 v, bytes32 r, bytes32 s_) = vm.sign(SELLER_KEY, d);
        assertEq(
            ecrecover(d, v == 27 ? 28 : 27, r, bytes32(SECP256K1_N - uint256(s_))), seller, "the twin recovers seller"
        );
        assertTrue(status(orders[0], twin, t, 0) == EaselMarketAdmin.SignedListingStatus.InvalidSignature, "st");
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller));
        fillBulk(buyer, orders[0], twin, t, 0);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, seller));
        cart(buyer, orders[0].price, noListed(), oneSigned(bulkP(orders[0], twin, t, 0)), true);
        fillBulk(buyer, orders[0], abi.encodePacked(r, s_, v), t, 0);
        assertEq(sc.ownerOf(orders[0].tokenId), buyer, "the low-s signature fills");
    }

    function test_erc1271SellerSignsABulkRoot() public {
        uint256 ownerKey = 0x5AFE;
        TestWallet wallet = new TestWallet(vm.addr(ownerKey));
        wallet.act(address(sc), abi.encodeCall(sc.setApprovalForAll, (address(market), true)));
        MarketCore.SignedListing[] memory orders = new MarketCore.SignedListing[](3);
        for (uint256 i; i < 3; ++i) {
            orders[i] = order(sc, mintIn(sc, address(wallet)), 1 ether, address(wallet));
        }
        Tree memory t = buildTree(orders, 2);
        bytes memory sig = signTree(t, ownerKey);

        wallet.setAnswer(TestWallet.Answer.WrongMagic);
        assertTrue(status(orders[0], sig, t, 0) == EaselMarketAdmin.SignedListingStatus.InvalidSignature, "st");
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, address(wallet)));
        fillBulk(buyer, orders[0], sig, t, 0);
        wallet.setAnswer(TestWallet.Answer.Revert);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, address(wallet)));
        fillBulk(buyer, orders[0], sig, t, 0);
        wallet.setAnswer(TestWallet.Answer.Honest);
        // Another key's signature over the same tree: the wallet says no.
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, address(wallet)));
        fillBulk(buyer, orders[0], signTree(t, 0xBAD), t, 0);
        // The honest answer over a proof to another leaf's index: the digest differs, the wallet says no.
        vm.expectRevert(abi.encodeWithSelector(MarketCore.InvalidSellerSignature.selector, address(wallet)));
        fillBulkProof(buyer, orders[0], sig, 1, proofOf(t, 0));

        uint256 before = address(wallet).balance;
        assertTrue(isLive(orders[2], sig, t, 2), "live");
        fillBulk(buyer, orders[2], sig, t, 2);
        fillBulk(other, orders[0], sig, t, 0);
        assertEq(sc.ownerOf(orders[2].tokenId), buyer, "sold by the wallet's bulk signature");
        assertEq(sc.ownerOf(orders[0].tokenId), other, "and another leaf");
        // Primary commission 10% and the creator's (seller's) 10% royalty on each.
        assertEq(address(wallet).balance - before, 1.6 ether, "wallet paid");
        assertTrue(isVoid(orders[2], sig, t, 2) && isLive(orders[1], sig, t, 1), "statuses");
    }
}
