// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {Base} from "./Base.sol";
import {EaselCollection} from "../../contracts/EaselCollection.sol";
import {EaselCid} from "../../contracts/libraries/EaselCid.sol";
import {EaselPayments} from "../../contracts/libraries/EaselPayments.sol";
import {ERC721} from "solady/src/tokens/ERC721.sol";
import {Collaborator, CollectionKind, LazyMintVoucher} from "../../contracts/interfaces/IEaselTypes.sol";

contract EaselCollectionTest is Base {
    event Minted(
        uint256 indexed tokenId,
        address indexed creator,
        address indexed to,
        bytes cid,
        uint16 royaltyBps,
        Collaborator[] collaborators
    );
    event LazyMinted(uint256 indexed tokenId, address indexed buyer, uint256 price, uint256 fee, uint256 proceeds);

    function test_metadataAndOwner() public view {
        assertEq(collection.name(), "Sunset Studies", "name");
        assertEq(collection.symbol(), "SUN", "symbol");
        assertEq(collection.owner(), artist, "owner");
        (CollectionKind kind, uint256 maxSupply, uint256 minted) = collection.collectionInfo();
        assertEq(uint256(kind), uint256(CollectionKind.Standard), "kind");
        assertEq(maxSupply, 0, "max supply");
        assertEq(minted, 0, "minted");
        assertTrue(collection.supportsInterface(0x2a55205a), "erc2981");
        assertTrue(collection.supportsInterface(0x80ac58cd), "erc721");
        assertTrue(!collection.supportsInterface(0xdeadbeef), "unknown");
    }

    function test_mint_setsOwnerUriRoyalty() public {
        vm.expectEmit();
        emit Minted(7, artist, artist, cid(7), 1_000, none());
        mint(7);
        assertEq(collection.ownerOf(7), artist, "owner");
        assertEq(collection.creatorOf(7), artist, "creator");
        (address receiver, uint256 amount) = collection.royaltyInfo(7, 1 ether);
        assertEq(receiver, artist, "royalty receiver");
        assertEq(amount, 0.1 ether, "royalty amount");
        assertTrue(collection.isRegistered(7), "registered");
        assertEq(keccak256(collection.tokenCid(7)), keccak256(cid(7)), "cid bytes");
        assertEq(collection.lastTransferAt(7), block.timestamp, "last transfer");
    }

    function test_tokenURI_isCidV1Base32() public {
        // CIDv1 raw of sha256("") -> a well-known value.
        bytes memory emptyRaw = abi.encodePacked(hex"01551220", sha256(""));
        vm.prank(artist);
        collection.mintNFT(0, emptyRaw, 1, none());
        assertEq(
            collection.tokenURI(1), "ipfs://bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku", "raw cid"
        );
        bytes memory dagPb = abi.encodePacked(hex"01701220", sha256(""));
        vm.prank(artist);
        collection.mintNFT(0, dagPb, 2, none());
        assertEq(
            collection.tokenURI(2), "ipfs://bafybeihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku", "dag-pb cid"
        );
    }

    function test_tokenURI_unknownToken() public {
        vm.expectRevert(ERC721.TokenDoesNotExist.selector);
        collection.tokenURI(99);
        vm.expectRevert(ERC721.TokenDoesNotExist.selector);
        collection.tokenCid(99);
        vm.expectRevert(ERC721.TokenDoesNotExist.selector);
        collection.creatorOf(99);
        vm.expectRevert(ERC721.TokenDoesNotExist.selector);
        collection.lastTransferAt(99);
    }

    function test_mint_rejectsUnverifiedArtist() public {
        vm.prank(admin);
        market.setArtistVerified(artist, false);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.NotVerifiedArtist.selector, artist));
        mint(1);
    }

    function test_mint_onlyOwnerOfStandardCollection() public {
        vm.prank(admin);
        market.setArtistVerified(other, true);
        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.NotCollectionOwner.selector, other, artist));
        collection.mintNFT(0, cid(1), 1, none());
    }

    function test_defaultCollection_anyVerifiedArtistMints() public {
        vm.prank(admin);
        market.setArtistVerified(other, true);
        vm.prank(other);
        defaultCollection.mintNFT(500, cid(1), 1, none());
        vm.prank(artist);
        defaultCollection.mintNFT(500, cid(2), 2, none());
        assertEq(defaultCollection.creatorOf(1), other, "creator 1");
        assertEq(defaultCollection.creatorOf(2), artist, "creator 2");
        assertEq(defaultCollection.owner(), admin, "default owner");
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.NotVerifiedArtist.selector, buyer));
        defaultCollection.mintNFT(500, cid(3), 3, none());
    }

    function test_mint_royaltyCap() public {
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.RoyaltyTooHigh.selector, 2_001, 2_000));
        collection.mintNFT(2_001, cid(1), 1, none());
        vm.prank(artist);
        collection.mintNFT(2_000, cid(1), 1, none());
    }

    function test_mint_invalidCid() public {
        bytes[4] memory bad = [
            abi.encodePacked(hex"01561220", sha256("")),
            abi.encodePacked(hex"00551220", sha256("")),
            abi.encodePacked(hex"01551320", sha256("")),
            abi.encodePacked(hex"015512", sha256(""))
        ];
        for (uint256 i; i < bad.length; ++i) {
            vm.prank(artist);
            vm.expectRevert(EaselCid.InvalidCid.selector);
            collection.mintNFT(0, bad[i], 1, none());
        }
    }

    function test_mint_recordUsedOnceEvenAfterBurn() public {
        mint(1);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.RecordAlreadyRegistered.selector, 1));
        collection.mintNFT(0, cid(1), 1, none());
        vm.prank(artist);
        collection.burnNFT(1);
        assertTrue(collection.isRegistered(1), "still registered");
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.RecordAlreadyRegistered.selector, 1));
        collection.mintNFT(0, cid(1), 1, none());
    }

    function test_burn_onlyOwnerOrApproved() public {
        mint(1);
        vm.prank(other);
        vm.expectRevert(ERC721.NotOwnerNorApproved.selector);
        collection.burnNFT(1);
        vm.prank(artist);
        collection.approve(other, 1);
        vm.prank(other);
        collection.burnNFT(1);
        vm.expectRevert(ERC721.TokenDoesNotExist.selector);
        collection.ownerOf(1);
    }

    function test_collaborators_storedAndReturned() public {
        Collaborator[] memory c = new Collaborator[](3);
        c[0] = Collaborator(artist, 50);
        c[1] = Collaborator(other, 30);
        c[2] = Collaborator(bidder, 20);
        vm.prank(artist);
        collection.mintNFT(0, cid(1), 1, c);
        (address[] memory accounts, uint256[] memory shares) = collection.collaboratorsOf(1);
        assertEq(accounts.length, 3, "count");
        assertEq(accounts[1], other, "second");
        assertEq(accounts[2], bidder, "third");
        assertEq(shares[0], 50, "share 0");
        assertEq(shares[2], 20, "share 2");

        Collaborator[] memory solo = new Collaborator[](1);
        solo[0] = Collaborator(artist, 100);
        vm.prank(artist);
        collection.mintNFT(0, cid(2), 2, solo);
        (accounts, shares) = collection.collaboratorsOf(2);
        assertEq(accounts.length, 1, "solo count");
        assertEq(shares[0], 100, "solo share");
    }

    function test_collaborators_rules() public {
        Collaborator[] memory c = new Collaborator[](6);
        for (uint256 i; i < 6; ++i) c[i] = Collaborator(address(uint160(100 + i)), 5);
        c[0].account = artist;
        _expectMintRevert(c, abi.encodeWithSelector(EaselCollection.InvalidCollaboratorCount.selector, 6));

        c = new Collaborator[](2);
        c[0] = Collaborator(other, 50);
        c[1] = Collaborator(artist, 50);
        _expectMintRevert(c, abi.encodeWithSelector(EaselCollection.FirstCollaboratorNotCreator.selector, other, artist));

        c[0] = Collaborator(artist, 53);
        c[1] = Collaborator(other, 47);
        _expectMintRevert(c, abi.encodeWithSelector(EaselCollection.InvalidShare.selector, 0, 53));

        c[0] = Collaborator(artist, 100);
        c[1] = Collaborator(other, 0);
        _expectMintRevert(c, abi.encodeWithSelector(EaselCollection.InvalidShare.selector, 1, 0));

        c[0] = Collaborator(artist, 50);
        c[1] = Collaborator(artist, 50);
        _expectMintRevert(c, abi.encodeWithSelector(EaselCollection.DuplicateCollaborator.selector, artist));

        c[0] = Collaborator(artist, 50);
        c[1] = Collaborator(address(0), 50);
        _expectMintRevert(c, abi.encodeWithSelector(EaselPayments.ZeroAddress.selector));

        c[0] = Collaborator(artist, 50);
        c[1] = Collaborator(other, 45);
        _expectMintRevert(c, abi.encodeWithSelector(EaselCollection.SharesNotHundred.selector, 95));
    }

    function _expectMintRevert(Collaborator[] memory c, bytes memory err) private {
        vm.prank(artist);
        vm.expectRevert(err);
        collection.mintNFT(0, cid(1), 1, c);
    }

    function testFuzz_collaboratorShares(uint8 a, uint8 b, uint8 n) public {
        n = uint8(bound(n, 2, 3));
        Collaborator[] memory c = new Collaborator[](n);
        c[0] = Collaborator(artist, a);
        c[1] = Collaborator(other, b);
        if (n == 3) c[2] = Collaborator(bidder, uint8(100 - (uint256(a) + b) % 101));
        uint256 total;
        bool valid = true;
        for (uint256 i; i < n; ++i) {
            total += c[i].share;
            if (c[i].share == 0 || c[i].share % 5 != 0) valid = false;
        }
        if (total != 100) valid = false;
        vm.prank(artist);
        (bool ok,) = address(collection).call(abi.encodeCall(EaselCollection.mintNFT, (0, cid(1), 1, c)));
        assertTrue(ok == valid, "validity");
        if (ok) {
            (, uint256[] memory shares) = collection.collaboratorsOf(1);
            for (uint256 i; i < n; ++i) assertEq(shares[i], c[i].share, "share");
        }
    }

    function testFuzz_royalty(uint16 bps, uint128 price) public {
        vm.prank(artist);
        (bool ok,) = address(collection).call(abi.encodeCall(EaselCollection.mintNFT, (bps, cid(1), 1, none())));
        assertTrue(ok == (bps <= 2_000), "cap");
        if (ok) {
            (, uint256 amount) = collection.royaltyInfo(1, price);
            assertEq(amount, uint256(price) * bps / 10_000, "royalty");
        }
    }

    function test_initialize_onlyFactoryOnce() public {
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.NotFactory.selector, address(this)));
        collection.initialize(other, "x", "y", CollectionKind.Standard, 0);
        vm.prank(address(factory));
        vm.expectRevert(EaselCollection.AlreadyInitialized.selector);
        collection.initialize(other, "x", "y", CollectionKind.Standard, 0);
    }

    // ------------------------------------------------------------ lazy mint

    function test_lazyMint_paysLikePrimarySale() public {
        EaselCollection lazy = createLazy(10);
        LazyMintVoucher memory v = signMintVoucher(mintVoucher(lazy, 42, 1 ether, buyer), SIGNER_KEY, address(lazy));
        uint256 before = artist.balance;
        vm.expectEmit();
        emit LazyMinted(42, buyer, 1 ether, 0.1 ether, 0.9 ether);
        vm.prank(buyer);
        lazy.lazyMint{value: 1 ether}(v);
        assertEq(lazy.ownerOf(42), buyer, "owner");
        assertEq(lazy.creatorOf(42), artist, "creator");
        assertEq(artist.balance - before, 0.9 ether, "proceeds");
        assertEq(address(lazy).balance, 0.1 ether, "fee held");
        (,, uint256 minted) = lazy.collectionInfo();
        assertEq(minted, 1, "minted");

        uint256 marketBefore = address(market).balance;
        lazy.sweepFees();
        assertEq(address(market).balance - marketBefore, 0.1 ether, "swept");
        assertEq(market.feesAvailable(), 0.1 ether, "market fees");
    }

    function test_lazyMint_splitsAmongCollaborators() public {
        EaselCollection lazy = createLazy(10);
        LazyMintVoucher memory v = mintVoucher(lazy, 1, 1 ether, buyer);
        v.collaborators = new Collaborator[](2);
        v.collaborators[0] = Collaborator(artist, 75);
        v.collaborators[1] = Collaborator(other, 25);
        v = signMintVoucher(v, SIGNER_KEY, address(lazy));
        uint256 a = artist.balance;
        uint256 o = other.balance;
        vm.prank(buyer);
        lazy.lazyMint{value: 1 ether}(v);
        assertEq(artist.balance - a, 0.675 ether, "artist");
        assertEq(other.balance - o, 0.225 ether, "other");
    }

    function test_lazyMint_rules() public {
        EaselCollection lazy = createLazy(1);
        LazyMintVoucher memory v = signMintVoucher(mintVoucher(lazy, 1, 1 ether, buyer), SIGNER_KEY, address(lazy));

        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.WrongBuyer.selector, buyer, other));
        lazy.lazyMint{value: 1 ether}(v);

        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.IncorrectPayment.selector, 1 ether, 0.5 ether));
        lazy.lazyMint{value: 0.5 ether}(v);

        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.IncorrectPayment.selector, 1 ether, 2 ether));
        lazy.lazyMint{value: 2 ether}(v);

        vm.prank(buyer);
        vm.expectRevert(EaselCollection.NotLazyCollection.selector);
        collection.lazyMint{value: 1 ether}(v);

        vm.prank(buyer);
        lazy.lazyMint{value: 1 ether}(v);

        // Replay of the same voucher.
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.RecordAlreadyRegistered.selector, 1));
        lazy.lazyMint{value: 1 ether}(v);

        // Max supply.
        LazyMintVoucher memory v2 = signMintVoucher(mintVoucher(lazy, 2, 1 ether, buyer), SIGNER_KEY, address(lazy));
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.MaxSupplyReached.selector, 1));
        lazy.lazyMint{value: 1 ether}(v2);
    }

    function test_lazyMint_buyerCannotBeOwner() public {
        EaselCollection lazy = createLazy(10);
        vm.deal(artist, 10 ether);
        LazyMintVoucher memory v = signMintVoucher(mintVoucher(lazy, 1, 1 ether, artist), SIGNER_KEY, address(lazy));
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.BuyerIsCollectionOwner.selector, artist));
        lazy.lazyMint{value: 1 ether}(v);
    }

    function test_lazyMint_priceTooBig() public {
        EaselCollection lazy = createLazy(10);
        uint256 price = uint256(type(uint80).max) + 1;
        vm.deal(buyer, price);
        LazyMintVoucher memory v = signMintVoucher(mintVoucher(lazy, 1, price, buyer), SIGNER_KEY, address(lazy));
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.PriceTooHigh.selector, price, type(uint80).max));
        lazy.lazyMint{value: price}(v);
    }

    function test_lazyMint_voucherAttacks() public {
        EaselCollection lazy = createLazy(10);
        EaselCollection lazy2 = createLazy(10);

        // Expired.
        LazyMintVoucher memory v = signMintVoucher(mintVoucher(lazy, 1, 1 ether, buyer), SIGNER_KEY, address(lazy));
        vm.warp(v.deadline + 1);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.VoucherExpired.selector, v.deadline));
        lazy.lazyMint{value: 1 ether}(v);
        vm.warp(v.deadline - 10);

        // Signed by someone else.
        LazyMintVoucher memory forged = signMintVoucher(mintVoucher(lazy, 1, 1 ether, buyer), 0xBAD, address(lazy));
        vm.prank(buyer);
        vm.expectRevert(EaselCollection.InvalidSignature.selector);
        lazy.lazyMint{value: 1 ether}(forged);

        // Tampered price.
        LazyMintVoucher memory tampered = signMintVoucher(mintVoucher(lazy, 1, 1 ether, buyer), SIGNER_KEY, address(lazy));
        tampered.price = 0.5 ether;
        vm.prank(buyer);
        vm.expectRevert(EaselCollection.InvalidSignature.selector);
        lazy.lazyMint{value: 0.5 ether}(tampered);

        // Another contract: a voucher for lazy used on lazy2.
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.WrongCollection.selector, address(lazy)));
        lazy2.lazyMint{value: 1 ether}(v);
        // Signed for lazy2's domain but naming lazy: the domain binds the contract.
        LazyMintVoucher memory crossed = signMintVoucher(mintVoucher(lazy, 1, 1 ether, buyer), SIGNER_KEY, address(lazy2));
        vm.prank(buyer);
        vm.expectRevert(EaselCollection.InvalidSignature.selector);
        lazy.lazyMint{value: 1 ether}(crossed);

        // Another chain.
        vm.chainId(11155111);
        vm.prank(buyer);
        vm.expectRevert(EaselCollection.InvalidSignature.selector);
        lazy.lazyMint{value: 1 ether}(v);
        vm.chainId(31337);

        vm.prank(buyer);
        lazy.lazyMint{value: 1 ether}(v);
    }

    function test_lazyMint_freeVoucherPaysNothing() public {
        EaselCollection lazy = createLazy(10);
        LazyMintVoucher memory v = signMintVoucher(mintVoucher(lazy, 7, 0, buyer), SIGNER_KEY, address(lazy));
        uint256 before = artist.balance;
        vm.prank(buyer);
        lazy.lazyMint(v);
        assertEq(lazy.ownerOf(7), buyer, "minted");
        assertEq(artist.balance, before, "nothing paid");
        assertEq(lazy.creditOf(artist), 0, "nothing credited");
    }

    function test_lazyMint_rejectingCreatorIsCredited() public {
        // The creator's push fails -> credited, the sale still succeeds.
        EaselCollection lazy = createLazy(10);
        LazyMintVoucher memory v = signMintVoucher(mintVoucher(lazy, 1, 1 ether, buyer), SIGNER_KEY, address(lazy));
        vm.etch(artist, hex"5f5ffd");
        vm.prank(buyer);
        lazy.lazyMint{value: 1 ether}(v);
        assertEq(lazy.creditOf(artist), 0.9 ether, "credited");
        assertEq(lazy.totalCredits(), 0.9 ether, "total credits");
        lazy.sweepFees();
        assertEq(address(lazy).balance, 0.9 ether, "credits stay");
        vm.prank(artist);
        lazy.withdrawTo(other);
        assertEq(lazy.creditOf(artist), 0, "withdrawn");
    }
}
