// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {Base} from "./Base.sol";
import {EaselCollection} from "../../contracts/EaselCollection.sol";
import {EaselFactory} from "../../contracts/EaselFactory.sol";
import {CollectionKind, LazyCollectionVoucher} from "../../contracts/interfaces/IEaselTypes.sol";

contract EaselFactoryTest is Base {
    event CollectionCreated(
        address indexed collection,
        address indexed owner,
        CollectionKind indexed kind,
        string name,
        string symbol,
        string category,
        uint256 maxSupply
    );

    /// Creating a collection takes what minting takes (a verified artist, not banned, the market open):
    /// `EaselModeration.t.sol` attacks that; here the callers are verified.
    function setUp() public override {
        super.setUp();
        vm.startPrank(admin);
        marketAdmin.setArtistVerified(address(this), true);
        marketAdmin.setArtistVerified(other, true);
        vm.stopPrank();
    }

    function test_createCollection_isCloneOwnedByCaller() public {
        vm.expectEmit(false, true, true, true);
        emit CollectionCreated(address(0), other, CollectionKind.Standard, "Abc", "A", "cat", 0);
        vm.prank(other);
        address c = factory.createCollection("Abc", "A", "cat");
        assertEq(EaselCollection(c).owner(), other, "owner");
        assertTrue(marketAdmin.isEaselCollection(c), "recognized by the market");
        // The standard EIP-1167 minimal proxy (45 bytes) that explorers and indexers recognise.
        bytes memory expected = abi.encodePacked(
            hex"363d3d373d3d3d363d73", factory.collectionImplementation(), hex"5af43d82803e903d91602b57fd5bf3"
        );
        assertEq(keccak256(c.code), keccak256(expected), "EIP-1167 bytecode");
        assertEq(keccak256(address(defaultCollection).code), keccak256(expected), "default collection too");
    }

    function test_defaultCollection() public view {
        (CollectionKind kind,,,) = defaultCollection.collectionInfo();
        assertEq(uint256(kind), uint256(CollectionKind.Default), "kind");
        assertEq(defaultCollection.name(), "Easel", "name");
        assertEq(factory.collectionImplementation().code.length > 1000 ? 1 : 0, 1, "implementation");
        assertTrue(!marketAdmin.isEaselCollection(factory.collectionImplementation()), "implementation is not a clone");
    }

    function test_nameAndSymbolLengths() public {
        vm.expectRevert(abi.encodeWithSelector(EaselFactory.NameLengthOutOfRange.selector, 2, 3, 50));
        factory.createCollection("ab", "A", "");
        vm.expectRevert(abi.encodeWithSelector(EaselFactory.NameLengthOutOfRange.selector, 51, 3, 50));
        factory.createCollection("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijk", "A", "");
        factory.createCollection("abcdefghijabcdefghijabcdefghijabcdefghijabcdefghij", "ABCDEFGH", "");
        vm.expectRevert(abi.encodeWithSelector(EaselFactory.SymbolLengthOutOfRange.selector, 0, 1, 8));
        factory.createCollection("abc", "", "");
        vm.expectRevert(abi.encodeWithSelector(EaselFactory.SymbolLengthOutOfRange.selector, 9, 1, 8));
        factory.createCollection("abc", "ABCDEFGHI", "");
    }

    /// The name and the symbol share one slot up to 30 bytes together, and spill into a second one beyond: every
    /// length the factory allows, around the 30-byte edge and at the 58-byte maximum, reads back as written.
    function test_nameAndSymbolReadBack() public {
        string memory fifty = "abcdefghijabcdefghijabcdefghijabcdefghijabcdefghij";
        string[6] memory names = ["abc", "abcdefghijabcdefghijabcdefghi", "abcdefghijabcdefghijabcdefghij",
            "abcdefghijabcdefghijabcdefghija", "abcdefghijabcdefghijabcdefghijabcdefghijabcdefghi", fifty];
        string[3] memory symbols = ["A", "AB", "ABCDEFGH"];
        for (uint256 i; i < names.length; ++i) {
            for (uint256 j; j < symbols.length; ++j) {
                EaselCollection c = EaselCollection(factory.createCollection(names[i], symbols[j], ""));
                assertEq(c.name(), names[i], "name");
                assertEq(c.symbol(), symbols[j], "symbol");
            }
        }
    }

    /// Any bytes (UTF-8, zero bytes) of any allowed length read back as written.
    function testFuzz_nameAndSymbolReadBack(bytes memory nameSeed, bytes memory symbolSeed) public {
        bytes memory name = bytes.concat(nameSeed, "xyz");
        bytes memory symbol = bytes.concat(symbolSeed, "\xc3");
        if (name.length > 50) assembly { mstore(name, 50) }
        if (symbol.length > 8) assembly { mstore(symbol, 8) }
        // Skip what is reserved (the default collection's name).
        vm.assume(!factory.isReserved(string(name)) && !factory.isReserved(string(symbol)));
        EaselCollection c = EaselCollection(factory.createCollection(string(name), string(symbol), ""));
        assertEq(c.name(), string(name), "name");
        assertEq(c.symbol(), string(symbol), "symbol");
    }

    /// The factory's word-at-a-time lower-casing gives the byte-by-byte result: a word reserved in one case is
    /// refused in every other, and nothing else is refused.
    function testFuzz_reservedIsCaseInsensitive(bytes memory word, uint256 flips) public {
        if (word.length > 70) assembly { mstore(word, 70) }
        bytes memory lower = new bytes(word.length);
        bytes memory other_ = new bytes(word.length);
        for (uint256 i; i < word.length; ++i) {
            bytes1 c = word[i];
            bool upper = c >= 0x41 && c <= 0x5a;
            bool letter = upper || (c >= 0x61 && c <= 0x7a);
            lower[i] = upper ? bytes1(uint8(c) + 32) : c;
            // Another spelling of the same word: some letters in the other case.
            other_[i] = letter && (flips >> (i % 256)) & 1 == 1 ? bytes1(uint8(c) ^ 0x20) : c;
        }
        vm.assume(keccak256(lower) != keccak256("easel"));
        assertTrue(!factory.isReserved(string(word)), "not reserved yet");
        vm.prank(admin);
        factory.setReserved(string(other_), true);
        assertTrue(factory.isReserved(string(word)), "reserved in any case");
        assertTrue(factory.isReserved(string(lower)), "lower case");
        assertTrue(factory.isReservedHash(keccak256(lower)), "keyed by the lower-cased bytes");
    }

    function test_reservedWords() public {
        vm.expectRevert(abi.encodeWithSelector(EaselFactory.ReservedWord.selector, "EaSeL"));
        factory.createCollection("EaSeL", "X", "");
        vm.expectRevert(abi.encodeWithSelector(EaselFactory.ReservedWord.selector, "EASEL"));
        factory.createCollection("My art", "EASEL", "");

        vm.expectRevert(abi.encodeWithSelector(EaselFactory.NotController.selector, other));
        vm.prank(other);
        factory.setReserved("Official", true);

        vm.prank(admin);
        factory.setReserved("Official", true);
        assertTrue(factory.isReserved("OFFICIAL"), "reserved");
        vm.expectRevert(abi.encodeWithSelector(EaselFactory.ReservedWord.selector, "official"));
        factory.createCollection("official", "X", "");
        vm.prank(admin);
        factory.setReserved("official", false);
        factory.createCollection("official", "X", "");
    }

    function test_createLazyCollection() public {
        EaselCollection lazy = createLazy(25);
        (CollectionKind kind, uint256 maxSupply,,) = lazy.collectionInfo();
        assertEq(uint256(kind), uint256(CollectionKind.Lazy), "kind");
        assertEq(maxSupply, 25, "max supply");
        assertEq(lazy.owner(), artist, "owner");
    }

    function test_createLazyCollection_voucherAttacks() public {
        LazyCollectionVoucher memory v =
            signCollectionVoucher(lazyCollectionVoucher(artist, 5, block.timestamp + 1 hours), SIGNER_KEY, address(factory));

        // Wrong caller.
        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(EaselFactory.WrongVoucherOwner.selector, artist, other));
        factory.createLazyCollection(v);

        // Wrong key.
        LazyCollectionVoucher memory forged =
            signCollectionVoucher(lazyCollectionVoucher(artist, 5, block.timestamp + 1 hours), 0xBAD, address(factory));
        vm.prank(artist);
        vm.expectRevert(EaselFactory.InvalidSignature.selector);
        factory.createLazyCollection(forged);

        // Another factory (domain bound to the verifying contract).
        LazyCollectionVoucher memory elsewhere =
            signCollectionVoucher(lazyCollectionVoucher(artist, 5, block.timestamp + 1 hours), SIGNER_KEY, address(0x1234));
        vm.prank(artist);
        vm.expectRevert(EaselFactory.InvalidSignature.selector);
        factory.createLazyCollection(elsewhere);

        // Another chain.
        vm.chainId(1);
        vm.prank(artist);
        vm.expectRevert(EaselFactory.InvalidSignature.selector);
        factory.createLazyCollection(v);
        vm.chainId(31337);

        // Tampered supply.
        LazyCollectionVoucher memory tampered =
            signCollectionVoucher(lazyCollectionVoucher(artist, 5, block.timestamp + 1 hours), SIGNER_KEY, address(factory));
        tampered.maxSupply = 500;
        vm.prank(artist);
        vm.expectRevert(EaselFactory.InvalidSignature.selector);
        factory.createLazyCollection(tampered);

        // Zero supply.
        LazyCollectionVoucher memory zero =
            signCollectionVoucher(lazyCollectionVoucher(artist, 0, block.timestamp + 1 hours), SIGNER_KEY, address(factory));
        vm.prank(artist);
        vm.expectRevert(EaselFactory.InvalidMaxSupply.selector);
        factory.createLazyCollection(zero);

        // Works once, then replay fails.
        vm.prank(artist);
        factory.createLazyCollection(v);
        bytes32 digest = collectionVoucherDigest(v);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(EaselFactory.VoucherAlreadyUsed.selector, digest));
        factory.createLazyCollection(v);

        // Expired.
        vm.warp(v.deadline + 1);
        LazyCollectionVoucher memory late =
            signCollectionVoucher(lazyCollectionVoucher(artist, 7, v.deadline), SIGNER_KEY, address(factory));
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(EaselFactory.VoucherExpired.selector, v.deadline));
        factory.createLazyCollection(late);
    }
}
