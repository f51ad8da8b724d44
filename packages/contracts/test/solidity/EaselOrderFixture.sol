// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {Base} from "./Base.sol";
import {Vm} from "./Vm.sol";
import {EaselCollection} from "../../contracts/EaselCollection.sol";
import {MarketCore} from "../../contracts/market/MarketCore.sol";
import {Carts} from "../../contracts/market/Carts.sol";

/// @dev Shared by the cart and bulk-listing tests: two sellers with keys and collections, signed listings signed
/// in Solidity, and bulk-listing trees built independently of the market's code (leaves, pairs, type strings and
/// digests computed here from the EIP-712 rules, never read from the contract).
abstract contract EaselOrderFixture is Base {
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
    event PurchaseSkipped(
        address indexed collection, uint256 indexed tokenId, address indexed buyer, uint256 price, bytes reason
    );

    uint256 internal constant SELLER_KEY = 0x5E11E2;
    uint256 internal constant SELLER2_KEY = 0x5E11E3;
    uint256 internal constant SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141;
    string internal constant LISTING_TYPE =
        "SignedListing(address collection,uint256 tokenId,uint256 price,address seller,uint256 transferCount,uint256 counter,uint256 expiresAt,uint16 maxFeeBps)";

    address internal seller;
    address internal seller2;
    EaselCollection internal sc;
    EaselCollection internal sc2;

    /// @dev A bulk listing as a seller signs it: every level of the tree (level 0 = the 2^height leaves).
    struct Tree {
        uint256 height;
        bytes32[][] levels;
    }

    function setUp() public virtual override {
        super.setUp();
        seller = vm.addr(SELLER_KEY);
        seller2 = vm.addr(SELLER2_KEY);
        vm.startPrank(admin);
        marketAdmin.setArtistVerified(seller, true);
        marketAdmin.setArtistVerified(seller2, true);
        vm.stopPrank();
        vm.startPrank(seller);
        sc = EaselCollection(factory.createCollection("Seller Works", "SW", "painting"));
        sc.setApprovalForAll(address(market), true);
        vm.stopPrank();
        vm.startPrank(seller2);
        sc2 = EaselCollection(factory.createCollection("Second Works", "SW2", "painting"));
        sc2.setApprovalForAll(address(market), true);
        vm.stopPrank();
        vm.prank(artist);
        collection.setApprovalForAll(address(market), true);
    }

    // ------------------------------------------------------------ tokens

    uint256 private _seed;

    /// @dev The creator of `c` mints a token (royalty 10%) and gives it to `holder` (if someone else).
    function mintIn(EaselCollection c, address holder) internal returns (uint256 id) {
        address creator = c.owner();
        vm.prank(creator);
        id = c.mintNFT(1_000, cid(++_seed + 1_000_000), none());
        if (holder != creator) {
            vm.prank(creator);
            c.transferFrom(creator, holder, id);
        }
    }

    /// @dev The artist lists a fresh token of the base collection on chain.
    function listedByArtist(uint256 price) internal returns (uint256 id) {
        vm.prank(artist);
        id = collection.mintNFT(1_000, cid(++_seed + 2_000_000), none());
        vm.prank(artist);
        market.setSellOrder(address(collection), id, price);
    }

    // ------------------------------------------------------------ signed listings

    function order(EaselCollection c, uint256 id, uint256 price, address seller_)
        internal
        view
        returns (MarketCore.SignedListing memory o)
    {
        o.collection = address(c);
        o.tokenId = id;
        o.price = price;
        o.seller = seller_;
        o.transferCount = c.transferCountOf(id);
        o.counter = marketAdmin.listingCounterOf(seller_);
        o.expiresAt = block.timestamp + 30 days;
        o.maxFeeBps = 1_000;
    }

    function structHash(MarketCore.SignedListing memory o) internal pure returns (bytes32) {
        return keccak256(
            abi.encode(
                keccak256(bytes(LISTING_TYPE)),
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
    }

    function domainSeparator() internal view returns (bytes32) {
        return keccak256(
            abi.encode(
                keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
                keccak256("Easel Market"),
                keccak256("1"),
                block.chainid,
                address(market)
            )
        );
    }

    function typedDigest(bytes32 hash) internal view returns (bytes32) {
        return keccak256(abi.encodePacked("\x19\x01", domainSeparator(), hash));
    }

    function digest(MarketCore.SignedListing memory o) internal view returns (bytes32) {
        return typedDigest(structHash(o));
    }

    function signDigest(bytes32 d, uint256 key) internal pure returns (bytes memory) {
        (uint8 v, bytes32 r, bytes32 s_) = vm.sign(key, d);
        return abi.encodePacked(r, s_, v);
    }

    /// @dev The malleable high-s twin of a low-s signature of `d` (recovers the same address).
    function highSTwin(bytes32 d, uint256 key) internal pure returns (bytes memory) {
        (uint8 v, bytes32 r, bytes32 s_) = vm.sign(key, d);
        return abi.encodePacked(r, bytes32(SECP256K1_N - uint256(s_)), v == 27 ? uint8(28) : uint8(27));
    }

    function sign(MarketCore.SignedListing memory o, uint256 key) internal view returns (bytes memory) {
        return signDigest(digest(o), key);
    }

    // ------------------------------------------------------------ bulk listings

    /// @dev The EIP-712 type string of a `height`-level bulk listing, written from the spec.
    function bulkType(uint256 height) internal pure returns (string memory levels) {
        for (uint256 i; i < height; ++i) {
            levels = string.concat(levels, "[2]");
        }
        return string.concat("BulkListing(SignedListing", levels, " tree)", LISTING_TYPE);
    }

    function zeroListing() internal pure returns (MarketCore.SignedListing memory o) {}

    /// @dev The tree of `orders` (padded with zero listings) `height` levels deep: a node's parent is
    /// keccak256(left . right), the left child at the even position.
    function buildTree(MarketCore.SignedListing[] memory orders, uint256 height) internal pure returns (Tree memory t) {
        uint256 size = 1 << height;
        require(orders.length <= size, "too many orders");
        t.height = height;
        t.levels = new bytes32[][](height + 1);
        t.levels[0] = new bytes32[](size);
        bytes32 zero = structHash(zeroListing());
        for (uint256 i; i < size; ++i) {
            t.levels[0][i] = i < orders.length ? structHash(orders[i]) : zero;
        }
        for (uint256 k; k < height; ++k) {
            uint256 n = size >> (k + 1);
            bytes32[] memory up = new bytes32[](n);
            bytes32[] memory down = t.levels[k];
            for (uint256 j; j < n; ++j) {
                up[j] = keccak256(abi.encodePacked(down[2 * j], down[2 * j + 1]));
            }
            t.levels[k + 1] = up;
        }
    }

    function rootOf(Tree memory t) internal pure returns (bytes32) {
        return t.levels[t.height][0];
    }

    /// @dev The sibling hashes of leaf `index`, from the leaf up.
    function proofOf(Tree memory t, uint256 index) internal pure returns (bytes32[] memory proof) {
        proof = new bytes32[](t.height);
        for (uint256 i; i < t.height; ++i) {
            proof[i] = t.levels[i][(index >> i) ^ 1];
        }
    }

    function bulkDigest(bytes32 root, uint256 height) internal view returns (bytes32) {
        return typedDigest(keccak256(abi.encode(keccak256(bytes(bulkType(height))), root)));
    }

    function signTree(Tree memory t, uint256 key) internal view returns (bytes memory) {
        return signDigest(bulkDigest(rootOf(t), t.height), key);
    }

    /// @dev `fillBulkSignedListing`'s `bulkSignature`, written from its NatSpec: the height (the proof's length)
    /// in one byte, the index in two, the proof, then the signature.
    function packBulk(bytes memory sig, uint256 index, bytes32[] memory proof) internal pure returns (bytes memory) {
        require(proof.length < 1 << 8 && index < 1 << 16, "does not fit the header");
        return abi.encodePacked(uint8(proof.length), uint16(index), proof, sig);
    }

    // ------------------------------------------------------------ carts

    function listedP(address c, uint256 id, uint256 price) internal pure returns (Carts.ListedPurchase memory p) {
        p.collection = c;
        p.tokenId = id;
        p.price = price;
    }

    function signedP(MarketCore.SignedListing memory o, bytes memory sig)
        internal
        pure
        returns (Carts.SignedPurchase memory p)
    {
        p.order = o;
        p.signature = sig;
        p.bulkProof = new bytes32[](0);
    }

    function bulkP(MarketCore.SignedListing memory o, bytes memory sig, Tree memory t, uint256 index)
        internal
        pure
        returns (Carts.SignedPurchase memory p)
    {
        p.order = o;
        p.signature = sig;
        p.bulkIndex = index;
        p.bulkProof = proofOf(t, index);
    }

    function noListed() internal pure returns (Carts.ListedPurchase[] memory) {
        return new Carts.ListedPurchase[](0);
    }

    function noSigned() internal pure returns (Carts.SignedPurchase[] memory) {
        return new Carts.SignedPurchase[](0);
    }

    function oneListed(Carts.ListedPurchase memory a) internal pure returns (Carts.ListedPurchase[] memory l) {
        l = new Carts.ListedPurchase[](1);
        l[0] = a;
    }

    function twoListed(Carts.ListedPurchase memory a, Carts.ListedPurchase memory b)
        internal
        pure
        returns (Carts.ListedPurchase[] memory l)
    {
        l = new Carts.ListedPurchase[](2);
        l[0] = a;
        l[1] = b;
    }

    function oneSigned(Carts.SignedPurchase memory a) internal pure returns (Carts.SignedPurchase[] memory l) {
        l = new Carts.SignedPurchase[](1);
        l[0] = a;
    }

    function twoSigned(Carts.SignedPurchase memory a, Carts.SignedPurchase memory b)
        internal
        pure
        returns (Carts.SignedPurchase[] memory l)
    {
        l = new Carts.SignedPurchase[](2);
        l[0] = a;
        l[1] = b;
    }

    function cart(
        address who,
        uint256 value,
        Carts.ListedPurchase[] memory listed,
        Carts.SignedPurchase[] memory signed,
        bool allOrNothing
    ) internal {
        vm.prank(who);
        market.buyMany{value: value}(listed, signed, allOrNothing);
    }

    // ------------------------------------------------------------ logs

    /// @dev The market's `Sale` logs among `logs`.
    function countSales(Vm.Log[] memory logs) internal view returns (uint256 n) {
        for (uint256 i; i < logs.length; ++i) {
            if (logs[i].emitter == address(market) && logs[i].topics[0] == Sale.selector) ++n;
        }
    }

    /// @dev The market's `PurchaseSkipped` logs among `logs`, as (tokenId, price, reason) in order.
    function skips(Vm.Log[] memory logs)
        internal
        view
        returns (uint256[] memory ids, uint256[] memory prices, bytes[] memory reasons)
    {
        uint256 n;
        for (uint256 i; i < logs.length; ++i) {
            if (logs[i].emitter == address(market) && logs[i].topics[0] == PurchaseSkipped.selector) ++n;
        }
        ids = new uint256[](n);
        prices = new uint256[](n);
        reasons = new bytes[](n);
        uint256 k;
        for (uint256 i; i < logs.length; ++i) {
            if (logs[i].emitter == address(market) && logs[i].topics[0] == PurchaseSkipped.selector) {
                ids[k] = uint256(logs[i].topics[2]);
                (prices[k], reasons[k]) = abi.decode(logs[i].data, (uint256, bytes));
                ++k;
            }
        }
    }

    function assertBytes(bytes memory a, bytes memory b, string memory what) internal pure {
        if (keccak256(a) != keccak256(b)) revert(string.concat(what, ": bytes mismatch"));
    }

    /// @dev With no escrow (no bid or offer) in play: the market holds exactly the credits, the held payments and
    /// the fees.
    function assertMarketSolvent() internal view {
        assertEq(
            address(market).balance,
            marketAdmin.totalCredits() + marketAdmin.totalHeld() + marketAdmin.feesAvailable(),
            "market balance = credits + held + fees"
        );
    }
}
