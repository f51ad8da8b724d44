// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {Vm} from "./Vm.sol";
import {EaselMarket} from "../../contracts/EaselMarket.sol";
import {EaselMarketAdmin} from "../../contracts/EaselMarketAdmin.sol";
import {EaselFactory} from "../../contracts/EaselFactory.sol";
import {EaselCollection} from "../../contracts/EaselCollection.sol";
import {EaselRoyaltySplitter} from "../../contracts/EaselRoyaltySplitter.sol";
import {
    Collaborator,
    CollectionKind,
    LazyCollectionVoucher,
    LazyMintVoucher
} from "../../contracts/interfaces/IEaselTypes.sol";

/// @dev Shared fixture: a market (with its factory and default collection), a verified artist with a standard
/// collection, and helpers for CIDs, vouchers and assertions.
abstract contract Base {
    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));

    /// @dev A token's ownership slot in Solady's ERC-721 layout: the owner in the low 160 bits, the extra data
    /// above (in `EaselCollection`: bit 93 an approved address is set, bit 94 in an auction, bit 95 blocked).
    function ownershipWord(address c, uint256 id) internal view returns (uint256) {
        uint256 slot;
        assembly ("memory-safe") {
            mstore(0x00, id)
            mstore(0x1c, shl(192, 0x7d8825530a5a2e7a))
            slot := add(id, add(id, keccak256(0x00, 0x20)))
        }
        return uint256(vm.load(c, bytes32(slot)));
    }

    /// @dev The token is locked for an auction (bit 94 of its extra data).
    function isLocked(address c, uint256 id) internal view returns (bool) {
        return (ownershipWord(c, id) >> (160 + 94)) & 1 == 1;
    }

    uint256 internal constant SIGNER_KEY = 0xA11CE;
    address internal admin = address(0xAD);
    address internal signer;
    address internal artist = address(0xA1);
    address internal buyer = address(0xB1);
    address internal bidder = address(0xB2);
    address internal other = address(0xB3);

    EaselMarket internal market;
    /// @dev The market's address with `EaselMarketAdmin`'s functions (which the market runs from its fallback).
    EaselMarketAdmin internal marketAdmin;
    /// @dev The `EaselMarketAdmin` contract itself, at its own address.
    address internal adminCode;
    address internal splitterImplementation;
    EaselFactory internal factory;
    EaselCollection internal collection;
    EaselCollection internal defaultCollection;

    function setUp() public virtual {
        vm.warp(1_700_000_000);
        signer = vm.addr(SIGNER_KEY);
        splitterImplementation = address(new EaselRoyaltySplitter());
        adminCode = address(new EaselMarketAdmin());
        market = new EaselMarket(admin, signer, splitterImplementation, adminCode);
        marketAdmin = EaselMarketAdmin(address(market));
        factory = marketAdmin.factory();
        defaultCollection = EaselCollection(factory.defaultCollection());
        vm.prank(admin);
        marketAdmin.setArtistVerified(artist, true);
        vm.prank(artist);
        collection = EaselCollection(factory.createCollection("Sunset Studies", "SUN", "painting"));
        vm.deal(buyer, 1_000 ether);
        vm.deal(bidder, 1_000 ether);
        vm.deal(other, 1_000 ether);
    }

    // ------------------------------------------------------------ helpers

    /// @dev keccak256, not sha256: the sha256 precompile is a call and would consume a pending prank.
    function cid(uint256 seed) internal pure returns (bytes memory) {
        return abi.encodePacked(hex"01551220", keccak256(abi.encode("cid", seed)));
    }

    function none() internal pure returns (Collaborator[] memory) {
        return new Collaborator[](0);
    }

    /// @dev Mints the collection's next token, which must be `expectedId` (ids are assigned 1, 2, 3, …).
    function mint(uint256 expectedId) internal returns (uint256) {
        vm.prank(artist);
        uint256 tokenId = collection.mintNFT(1_000, cid(expectedId), none());
        assertEq(tokenId, expectedId, "assigned token id");
        return tokenId;
    }

    function mintApproved(uint256 tokenId) internal returns (uint256) {
        mint(tokenId);
        vm.prank(artist);
        collection.approve(address(market), tokenId);
        return tokenId;
    }

    function lazyCollectionVoucher(address owner, uint32 maxSupply, uint256 deadline)
        internal
        pure
        returns (LazyCollectionVoucher memory v)
    {
        v = LazyCollectionVoucher({
            owner: owner,
            maxSupply: maxSupply,
            name: "Night Walks",
            symbol: "NIGHT",
            category: "photography",
            deadline: deadline,
            signature: ""
        });
    }

    function signCollectionVoucher(LazyCollectionVoucher memory v, uint256 key, address verifyingContract)
        internal
        view
        returns (LazyCollectionVoucher memory)
    {
        bytes32 structHash = keccak256(
            abi.encode(
                factory.LAZY_COLLECTION_TYPEHASH(),
                v.owner,
                v.maxSupply,
                keccak256(bytes(v.name)),
                keccak256(bytes(v.symbol)),
                keccak256(bytes(v.category)),
                v.deadline
            )
        );
        v.signature = _sign(key, _domain("Easel Factory", verifyingContract), structHash);
        return v;
    }

    /// @dev The EIP-712 digest the factory records as used.
    function collectionVoucherDigest(LazyCollectionVoucher memory v) internal view returns (bytes32) {
        bytes32 structHash = keccak256(
            abi.encode(
                factory.LAZY_COLLECTION_TYPEHASH(),
                v.owner,
                v.maxSupply,
                keccak256(bytes(v.name)),
                keccak256(bytes(v.symbol)),
                keccak256(bytes(v.category)),
                v.deadline
            )
        );
        return keccak256(abi.encodePacked("\x19\x01", _domain("Easel Factory", address(factory)), structHash));
    }

    uint256 private _lazyCount;

    function createLazy(uint32 maxSupply) internal returns (EaselCollection) {
        LazyCollectionVoucher memory v =
            lazyCollectionVoucher(artist, maxSupply, block.timestamp + 1 hours + _lazyCount++);
        v = signCollectionVoucher(v, SIGNER_KEY, address(factory));
        vm.prank(artist);
        return EaselCollection(factory.createLazyCollection(v));
    }

    /// @dev An unsigned voucher for `lazy`'s current nonce.
    function mintVoucher(EaselCollection lazy, uint256 tokenId, uint256 price)
        internal
        view
        returns (LazyMintVoucher memory v)
    {
        v.price = price;
        v.royaltyBps = 500;
        v.cid = cid(tokenId);
        v.tokenId = tokenId;
        v.collaborators = none();
        (,,, uint256 nonce) = lazy.collectionInfo();
        v.nonce = uint48(nonce);
        v.deadline = block.timestamp + 1 hours;
    }

    /// @dev Signs a voucher for `buyer_` in `verifyingContract` (both are part of the signed struct, not of the
    /// voucher passed to the call).
    /// @dev A signed voucher for `buyer_` in `lazy`.
    function signedVoucher(EaselCollection lazy, uint256 tokenId, uint256 price, address buyer_)
        internal
        view
        returns (LazyMintVoucher memory)
    {
        return signMintVoucher(mintVoucher(lazy, tokenId, price), SIGNER_KEY, address(lazy), buyer_);
    }

    function signMintVoucher(LazyMintVoucher memory v, uint256 key, address verifyingContract, address buyer_)
        internal
        view
        returns (LazyMintVoucher memory)
    {
        bytes32[] memory hashes = new bytes32[](v.collaborators.length);
        for (uint256 i; i < hashes.length; ++i) {
            hashes[i] = keccak256(
                abi.encode(collection.COLLABORATOR_TYPEHASH(), v.collaborators[i].account, v.collaborators[i].share)
            );
        }
        bytes32 structHash = keccak256(
            abi.encode(
                collection.LAZY_MINT_TYPEHASH(),
                v.tokenId,
                v.price,
                buyer_,
                v.royaltyBps,
                verifyingContract,
                keccak256(v.cid),
                keccak256(abi.encodePacked(hashes)),
                v.nonce,
                v.deadline
            )
        );
        v.signature = _sign(key, _domain("Easel Collection", verifyingContract), structHash);
        return v;
    }

    function _domain(string memory name, address verifyingContract) private view returns (bytes32) {
        return keccak256(
            abi.encode(
                keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
                keccak256(bytes(name)),
                keccak256("1"),
                block.chainid,
                verifyingContract
            )
        );
    }

    function _sign(uint256 key, bytes32 domain, bytes32 structHash) private pure returns (bytes memory) {
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(key, keccak256(abi.encodePacked("\x19\x01", domain, structHash)));
        return abi.encodePacked(r, s, v);
    }

    function bound(uint256 x, uint256 min, uint256 max) internal pure returns (uint256) {
        return min + (x % (max - min + 1));
    }

    // ------------------------------------------------------------ assertions

    function assertEq(uint256 a, uint256 b, string memory what) internal pure {
        if (a != b) revert(string.concat(what, ": ", _str(a), " != ", _str(b)));
    }

    function assertEq(bytes32 a, bytes32 b, string memory what) internal pure {
        if (a != b) revert(string.concat(what, ": bytes32 mismatch"));
    }

    function assertEq(address a, address b, string memory what) internal pure {
        if (a != b) revert(string.concat(what, ": address mismatch"));
    }

    function assertEq(string memory a, string memory b, string memory what) internal pure {
        if (keccak256(bytes(a)) != keccak256(bytes(b))) revert(string.concat(what, ": ", a, " != ", b));
    }

    function assertTrue(bool condition, string memory what) internal pure {
        if (!condition) revert(what);
    }

    function _str(uint256 value) private pure returns (string memory) {
        if (value == 0) return "0";
        bytes memory buffer = new bytes(78);
        uint256 i = 78;
        while (value != 0) {
            buffer[--i] = bytes1(uint8(48 + (value % 10)));
            value /= 10;
        }
        bytes memory out = new bytes(78 - i);
        for (uint256 j; j < out.length; ++j) out[j] = buffer[i + j];
        return string(out);
    }
}
