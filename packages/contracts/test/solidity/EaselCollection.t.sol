// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {Base} from "./Base.sol";
import {EaselCollection} from "../../contracts/EaselCollection.sol";
import {EaselCid} from "../../contracts/libraries/EaselCid.sol";
import {EaselCredits, EaselPayments} from "../../contracts/libraries/EaselPayments.sol";
import {ERC721} from "solady/src/tokens/ERC721.sol";
import {MarketCore} from "../../contracts/market/MarketCore.sol";
import {EaselFactory} from "../../contracts/EaselFactory.sol";
import {EaselRoyaltySplitter} from "../../contracts/EaselRoyaltySplitter.sol";
import {TestActor} from "../../contracts/test/TestActor.sol";
import {TestToken} from "../../contracts/test/TestToken.sol";
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
    event LazyMinted(
        uint256 indexed tokenId,
        address indexed creator,
        address indexed buyer,
        bytes cid,
        uint16 royaltyBps,
        Collaborator[] collaborators,
        uint256 price,
        uint256 fee
    );
    event VouchersRevoked(uint256 nonce);
    event RoyaltiesDistributed(address indexed token, uint256 amount);

    function test_metadataAndOwner() public view {
        assertEq(collection.name(), "Sunset Studies", "name");
        assertEq(collection.symbol(), "SUN", "symbol");
        assertEq(collection.owner(), artist, "owner");
        (CollectionKind kind, uint256 maxSupply, uint256 minted, uint256 nonce) = collection.collectionInfo();
        assertEq(uint256(kind), uint256(CollectionKind.Standard), "kind");
        assertEq(maxSupply, 0, "max supply");
        assertEq(minted, 0, "minted");
        assertEq(nonce, 0, "voucher nonce");
        assertTrue(collection.supportsInterface(0x2a55205a), "erc2981");
        assertTrue(collection.supportsInterface(0x80ac58cd), "erc721");
        assertTrue(!collection.supportsInterface(0xdeadbeef), "unknown");
    }

    function test_mint_setsOwnerUriRoyalty() public {
        vm.expectEmit();
        emit Minted(1, artist, artist, cid(1), 1_000, none());
        mint(1);
        assertEq(collection.ownerOf(1), artist, "owner");
        assertEq(collection.creatorOf(1), artist, "creator");
        (address receiver, uint256 amount) = collection.royaltyInfo(1, 1 ether);
        assertEq(receiver, artist, "royalty receiver");
        assertEq(amount, 0.1 ether, "royalty amount");
        assertTrue(collection.isRegistered(1), "registered");
        assertEq(keccak256(collection.tokenCid(1)), keccak256(cid(1)), "cid bytes");
        assertEq(collection.transferCountOf(1), 0, "no transfer yet");
        (,, uint256 minted,) = collection.collectionInfo();
        assertEq(minted, 1, "minted");
    }

    /// `mintNFT` reads the state slot as one word and writes the counter back into it: the owner, the kind, the
    /// voucher nonce and the block flag stay as they were.
    function test_mint_counterKeepsTheRestOfTheState() public {
        vm.prank(artist);
        collection.revokeVouchers();
        mint(1);
        mint(2);
        (CollectionKind kind,, uint256 minted, uint256 nonce) = collection.collectionInfo();
        assertEq(uint256(kind), uint256(CollectionKind.Standard), "kind");
        assertEq(minted, 2, "minted");
        assertEq(nonce, 1, "voucher nonce");
        assertEq(collection.owner(), artist, "owner");
        assertTrue(!collection.isBlocked(), "not blocked");
        assertEq(collection.name(), "Sunset Studies", "name");
    }

    /// The counter has 32 bits: the mint after id 2^32 - 1 reverts (checked arithmetic) instead of carrying into
    /// the voucher nonce.
    function test_mint_counterCannotWrap() public {
        // The state slot: the one whose low 160 bits are the owner.
        bytes32 slot;
        bytes32 word;
        for (uint256 i; i < 16; ++i) {
            word = vm.load(address(collection), bytes32(i));
            if (address(uint160(uint256(word))) == artist) {
                slot = bytes32(i);
                break;
            }
        }
        assertEq(uint256(word) >> 160, uint256(CollectionKind.Standard), "state word found, nothing minted");
        vm.store(address(collection), slot, bytes32(uint256(word) | (uint256(type(uint32).max - 1) << 168)));
        mint(type(uint32).max);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSignature("Panic(uint256)", 0x11));
        collection.mintNFT(1_000, cid(0), none());
        (,, uint256 minted, uint256 nonce) = collection.collectionInfo();
        assertEq(minted, type(uint32).max, "minted");
        assertEq(nonce, 0, "voucher nonce untouched");
    }

    function test_mint_idsAreAssignedInOrder() public {
        mint(1);
        mint(2);
        vm.prank(artist);
        collection.burnNFT(2);
        // A burned id is never reused.
        mint(3);
    }

    function test_attack_defaultCollectionIdsCannotBeSquatted() public {
        // Another verified artist mints first: they get the next id, and the artist's mint still succeeds with
        // the following one. No call can choose an id, so none can be taken ahead of someone else.
        vm.prank(admin);
        marketAdmin.setArtistVerified(other, true);
        vm.prank(other);
        assertEq(defaultCollection.mintNFT(0, cid(1), none()), 1, "first id");
        vm.prank(artist);
        assertEq(defaultCollection.mintNFT(0, cid(2), none()), 2, "second id");
        assertEq(defaultCollection.creatorOf(1), other, "creator 1");
        assertEq(defaultCollection.creatorOf(2), artist, "creator 2");
    }

    function test_transferCount_countsEveryTransferInTheSameBlock() public {
        mint(1);
        vm.prank(artist);
        collection.transferFrom(artist, other, 1);
        vm.prank(other);
        collection.transferFrom(other, artist, 1);
        assertEq(collection.transferCountOf(1), 2, "two transfers in one block");
    }

    /// The approved slot is read only when the ownership slot flags one (`_approve`): a token approval must work,
    /// die with any transfer (by its owner, by the approved address, or a market sale), die when revoked or
    /// replaced, and survive the writes that keep the rest of the extra data (a listing void, a block).
    function test_attack_approvalsAreFlaggedAndDieWithEveryTransfer() public {
        address c = address(collection);
        mint(1);
        vm.prank(other);
        vm.expectRevert(ERC721.NotOwnerNorApproved.selector);
        collection.transferFrom(artist, other, 1);

        // Approved, then moved by the approved address: the approval dies with the move, and the count is exact.
        vm.prank(artist);
        collection.approve(other, 1);
        vm.prank(other);
        collection.transferFrom(artist, buyer, 1);
        assertEq(collection.getApproved(1), address(0), "cleared by the transfer");
        assertEq(collection.transferCountOf(1), 1, "one transfer");
        vm.prank(other);
        vm.expectRevert(ERC721.NotOwnerNorApproved.selector);
        collection.transferFrom(buyer, other, 1);

        // Revoked, and replaced: only the current approval moves the token.
        vm.prank(buyer);
        collection.approve(other, 1);
        vm.prank(buyer);
        collection.approve(address(0), 1);
        vm.prank(other);
        vm.expectRevert(ERC721.NotOwnerNorApproved.selector);
        collection.transferFrom(buyer, other, 1);
        vm.prank(buyer);
        collection.approve(other, 1);
        vm.prank(buyer);
        collection.approve(artist, 1);
        vm.prank(other);
        vm.expectRevert(ERC721.NotOwnerNorApproved.selector);
        collection.transferFrom(buyer, other, 1);

        // A listing void and a block on and off keep the approval; it still moves the token.
        vm.prank(buyer);
        marketAdmin.cancelSignedListing(c, 1);
        vm.startPrank(admin);
        marketAdmin.setTokenBlocked(c, 1, true);
        marketAdmin.setTokenBlocked(c, 1, false);
        vm.stopPrank();
        assertEq(collection.getApproved(1), artist, "kept");
        assertEq(collection.transferCountOf(1), 2, "the void counted once");
        vm.prank(artist);
        collection.transferFrom(buyer, artist, 1);
        assertEq(collection.getApproved(1), address(0), "cleared");

        // A sale through the market clears an approval the seller gave: the old approved address cannot take the
        // token back from the buyer.
        vm.startPrank(artist);
        collection.approve(other, 1);
        collection.setApprovalForAll(address(market), true);
        market.setSellOrder(c, 1, 1 ether);
        vm.stopPrank();
        vm.deal(buyer, 1 ether);
        vm.prank(buyer);
        market.buyNow{value: 1 ether}(c, 1);
        assertEq(collection.getApproved(1), address(0), "cleared by the sale");
        vm.prank(other);
        vm.expectRevert(ERC721.NotOwnerNorApproved.selector);
        collection.transferFrom(buyer, other, 1);
        vm.prank(other);
        vm.expectRevert(ERC721.NotOwnerNorApproved.selector);
        collection.burnNFT(1);
        assertEq(collection.transferCountOf(1), 4, "every move counted");
    }

    function test_tokenURI_isCidV1Base32() public {
        // CIDv1 raw of sha256("") -> a well-known value.
        bytes memory emptyRaw = abi.encodePacked(hex"01551220", sha256(""));
        vm.prank(artist);
        collection.mintNFT(0, emptyRaw, none());
        assertEq(
            collection.tokenURI(1), "ipfs://bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku", "raw cid"
        );
        bytes memory dagPb = abi.encodePacked(hex"01701220", sha256(""));
        vm.prank(artist);
        collection.mintNFT(0, dagPb, none());
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
        collection.transferCountOf(99);
    }

    function test_mint_rejectsUnverifiedArtist() public {
        vm.prank(admin);
        marketAdmin.setArtistVerified(artist, false);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.NotVerifiedArtist.selector, artist));
        collection.mintNFT(0, cid(1), none());
    }

    function test_attack_mintRespectsLockBanAndBlock() public {
        vm.prank(admin);
        marketAdmin.setMarketLocked(true);
        _expectPlainMintRevert(abi.encodeWithSelector(MarketCore.MarketIsLocked.selector));
        vm.prank(admin);
        marketAdmin.setMarketLocked(false);

        vm.prank(admin);
        marketAdmin.setBanned(artist, true);
        _expectPlainMintRevert(abi.encodeWithSelector(MarketCore.UserIsBanned.selector, artist));
        vm.prank(admin);
        marketAdmin.setBanned(artist, false);

        vm.prank(admin);
        marketAdmin.setCollectionBlocked(address(collection), true);
        _expectPlainMintRevert(abi.encodeWithSelector(MarketCore.CollectionIsBlocked.selector, address(collection)));
        vm.prank(admin);
        marketAdmin.setCollectionBlocked(address(collection), false);
        mint(1);
    }

    function _expectPlainMintRevert(bytes memory err) private {
        vm.prank(artist);
        vm.expectRevert(err);
        collection.mintNFT(0, cid(1), none());
    }

    function test_mint_onlyOwnerOfStandardCollection() public {
        vm.prank(admin);
        marketAdmin.setArtistVerified(other, true);
        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.NotCollectionOwner.selector, other, artist));
        collection.mintNFT(0, cid(1), none());
    }

    function test_mint_notInLazyCollection() public {
        EaselCollection lazy = createLazy(10);
        vm.prank(artist);
        vm.expectRevert(EaselCollection.LazyCollection.selector);
        lazy.mintNFT(0, cid(1), none());
    }

    function test_defaultCollection_anyVerifiedArtistMints() public {
        vm.prank(admin);
        marketAdmin.setArtistVerified(other, true);
        vm.prank(other);
        defaultCollection.mintNFT(500, cid(1), none());
        assertEq(defaultCollection.owner(), admin, "default owner");
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.NotVerifiedArtist.selector, buyer));
        defaultCollection.mintNFT(500, cid(3), none());
    }

    function test_mint_royaltyCap() public {
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.RoyaltyTooHigh.selector, 2_001, 2_000));
        collection.mintNFT(2_001, cid(1), none());
        vm.prank(artist);
        collection.mintNFT(2_000, cid(1), none());
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
            collection.mintNFT(0, bad[i], none());
        }
    }

    function test_lazyMint_recordUsedOnceEvenAfterBurn() public {
        EaselCollection lazy = createLazy(10);
        LazyMintVoucher memory v = signedVoucher(lazy, 5, 1 ether, buyer);
        vm.prank(buyer);
        lazy.lazyMint{value: 1 ether}(v);
        vm.prank(buyer);
        lazy.burnNFT(5);
        assertTrue(lazy.isRegistered(5), "still registered");
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.RecordAlreadyRegistered.selector, 5));
        lazy.lazyMint{value: 1 ether}(v);
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
        collection.mintNFT(0, cid(1), c);
        (address[] memory accounts, uint256[] memory shares) = collection.collaboratorsOf(1);
        assertEq(accounts.length, 3, "count");
        assertEq(accounts[1], other, "second");
        assertEq(accounts[2], bidder, "third");
        assertEq(shares[0], 50, "share 0");
        assertEq(shares[2], 20, "share 2");

        Collaborator[] memory solo = new Collaborator[](1);
        solo[0] = Collaborator(artist, 100);
        vm.prank(artist);
        collection.mintNFT(0, cid(2), solo);
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
        _expectMintRevert(c, abi.encodeWithSelector(EaselCredits.ZeroAddress.selector));

        c[0] = Collaborator(artist, 50);
        c[1] = Collaborator(other, 45);
        _expectMintRevert(c, abi.encodeWithSelector(EaselCollection.SharesNotHundred.selector, 95));
    }

    function _expectMintRevert(Collaborator[] memory c, bytes memory err) private {
        vm.prank(artist);
        vm.expectRevert(err);
        collection.mintNFT(0, cid(1), c);
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
        (bool ok,) = address(collection).call(abi.encodeCall(EaselCollection.mintNFT, (0, cid(1), c)));
        assertTrue(ok == valid, "validity");
        if (ok) {
            (, uint256[] memory shares) = collection.collaboratorsOf(1);
            for (uint256 i; i < n; ++i) assertEq(shares[i], c[i].share, "share");
        }
    }

    function testFuzz_royalty(uint16 bps, uint128 price) public {
        vm.prank(artist);
        (bool ok,) = address(collection).call(abi.encodeCall(EaselCollection.mintNFT, (bps, cid(1), none())));
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


    function test_erc721CallsRefuseEth() public {
        mint(1);
        vm.deal(artist, 1 ether);
        vm.startPrank(artist);
        vm.expectRevert(EaselCollection.EthNotAccepted.selector);
        collection.transferFrom{value: 1}(artist, other, 1);
        vm.expectRevert(EaselCollection.EthNotAccepted.selector);
        collection.safeTransferFrom{value: 1}(artist, other, 1);
        vm.expectRevert(EaselCollection.EthNotAccepted.selector);
        collection.safeTransferFrom{value: 1}(artist, other, 1, "");
        vm.expectRevert(EaselCollection.EthNotAccepted.selector);
        collection.approve{value: 1}(other, 1);
        collection.safeTransferFrom(artist, other, 1, "");
        vm.stopPrank();
        assertEq(collection.ownerOf(1), other, "moved without ETH");
    }

    function test_deliverPurchase_onlyMarket() public {
        mint(1);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.NotMarket.selector, artist));
        collection.deliverPurchase(other, 1);
    }

    function test_setBlocked_onlyThroughTheMarket() public {
        vm.prank(admin);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.NotMarket.selector, admin));
        collection.setBlocked(true);
        // The operator blocks through the market, which keeps both copies; only Easel collections.
        vm.prank(admin);
        vm.expectRevert(abi.encodeWithSelector(MarketCore.CollectionNotSupported.selector, address(0xdead)));
        marketAdmin.setCollectionBlocked(address(0xdead), true);
        vm.prank(admin);
        marketAdmin.setCollectionBlocked(address(collection), true);
        assertTrue(collection.isBlocked() && marketAdmin.isCollectionBlocked(address(collection)), "both copies");
    }

    // ------------------------------------------------------------ royalty splitter (ERC-2981 for splits)

    function _splitMint() private returns (address[] memory accounts, uint256[] memory shares) {
        Collaborator[] memory c = new Collaborator[](3);
        c[0] = Collaborator(artist, 50);
        c[1] = Collaborator(other, 30);
        c[2] = Collaborator(bidder, 20);
        vm.prank(artist);
        collection.mintNFT(1_000, cid(1), c);
        return collection.collaboratorsOf(1);
    }

    function test_royaltySplitter_paysCollaboratorsOnOtherMarketplaces() public {
        (address[] memory accounts, uint256[] memory shares) = _splitMint();
        (address receiver, uint256 amount) = collection.royaltyInfo(1, 2 ether);
        assertEq(amount, 0.2 ether, "royalty");
        assertEq(receiver, collection.royaltySplitterOf(1), "the split's splitter");
        assertTrue(receiver.code.length == 0, "not created yet");

        // Another marketplace pays the royalty before anyone created the splitter: the ETH waits there.
        vm.deal(address(this), 1 ether);
        (bool sent,) = receiver.call{value: 0.2 ether}("");
        assertTrue(sent, "paid to the address");

        // Anyone creates it; a second call returns the same one.
        assertEq(factory.createRoyaltySplitter(accounts, shares), receiver, "created where predicted");
        assertEq(factory.createRoyaltySplitter(accounts, shares), receiver, "idempotent");
        assertTrue(receiver.code.length == 51 + 32 * 10, "EIP-1167 clone (with its 6-byte receive) and the split as arguments");

        uint256 a = artist.balance;
        uint256 o = other.balance;
        uint256 b = bidder.balance;
        vm.expectEmit();
        emit RoyaltiesDistributed(address(0), 0.2 ether);
        EaselRoyaltySplitter(payable(receiver)).distribute();
        assertEq(artist.balance - a, 0.1 ether, "artist 50%");
        assertEq(other.balance - o, 0.06 ether, "other 30%");
        assertEq(bidder.balance - b, 0.04 ether, "bidder 20%");
        assertEq(receiver.balance, 0, "nothing left");
    }

    function test_royaltySplitter_erc20AndRejectingRecipient() public {
        TestActor rejecting = new TestActor();
        rejecting.setMode(TestActor.Mode.Reject);
        Collaborator[] memory c = new Collaborator[](2);
        c[0] = Collaborator(artist, 55);
        c[1] = Collaborator(address(rejecting), 45);
        vm.prank(artist);
        collection.mintNFT(500, cid(1), c);
        (address[] memory accounts, uint256[] memory shares) = collection.collaboratorsOf(1);
        EaselRoyaltySplitter splitter = EaselRoyaltySplitter(payable(factory.createRoyaltySplitter(accounts, shares)));

        // A recipient that rejects ETH still gets its part, and cannot block the others.
        vm.deal(address(splitter), 1 ether + 1);
        splitter.distribute();
        assertEq(address(rejecting).balance, 0.45 ether, "forced to the rejecting recipient");
        assertEq(address(splitter).balance, 0, "all paid, dust to the creator");

        TestToken weth = new TestToken();
        weth.mint(address(splitter), 100 ether);
        vm.expectEmit();
        emit RoyaltiesDistributed(address(weth), 100 ether);
        splitter.distributeToken(address(weth));
        assertEq(weth.balanceOf(artist), 55 ether, "artist");
        assertEq(weth.balanceOf(address(rejecting)), 45 ether, "other");
    }

    function test_royaltySplitter_existingSplitterIsReturned() public {
        (address[] memory accounts, uint256[] memory shares) = _splitMint();
        address predicted = collection.royaltySplitterOf(1);
        // Created in an earlier transaction (its code is already there): returned without deploying again.
        vm.etch(predicted, hex"00");
        vm.recordLogs();
        assertEq(factory.createRoyaltySplitter(accounts, shares), predicted, "same address");
        assertEq(vm.getRecordedLogs().length, 0, "nothing created");
    }

    function test_royaltySplitter_invalidSplits() public {
        address[] memory one = new address[](1);
        uint256[] memory hundred = new uint256[](1);
        one[0] = artist;
        hundred[0] = 100;
        vm.expectRevert(EaselFactory.InvalidSplit.selector);
        factory.createRoyaltySplitter(one, hundred);
        address[] memory two = new address[](2);
        uint256[] memory bad = new uint256[](2);
        two[0] = artist;
        two[1] = other;
        bad[0] = 50;
        bad[1] = 45;
        vm.expectRevert(EaselFactory.InvalidSplit.selector);
        factory.createRoyaltySplitter(two, bad);
        vm.expectRevert(EaselFactory.InvalidSplit.selector);
        factory.createRoyaltySplitter(two, hundred);
    }

    // ------------------------------------------------------------ lazy mint

    function test_lazyMint_paysLikePrimarySale() public {
        EaselCollection lazy = createLazy(50);
        LazyMintVoucher memory v = signedVoucher(lazy, 42, 1 ether, buyer);
        uint256 before = artist.balance;
        vm.expectEmit();
        emit LazyMinted(42, artist, buyer, cid(42), 500, none(), 1 ether, 0.1 ether);
        vm.prank(buyer);
        lazy.lazyMint{value: 1 ether}(v);
        assertEq(lazy.ownerOf(42), buyer, "owner");
        assertEq(lazy.creatorOf(42), artist, "creator");
        assertEq(artist.balance - before, 0.9 ether, "proceeds");
        assertEq(address(lazy).balance, 0.1 ether, "fee held");
        (,, uint256 minted,) = lazy.collectionInfo();
        assertEq(minted, 0, "lazy collections do not count mints");
        assertTrue(lazy.saleInfo(42).primarySold, "the lazy mint was the primary sale");

        uint256 marketBefore = address(market).balance;
        lazy.sweepFees();
        assertEq(address(market).balance - marketBefore, 0.1 ether, "swept");
        assertEq(marketAdmin.feesAvailable(), 0.1 ether, "market fees");
    }

    function test_lazyMint_splitsAmongCollaborators() public {
        EaselCollection lazy = createLazy(10);
        LazyMintVoucher memory v = mintVoucher(lazy, 1, 1 ether);
        v.collaborators = new Collaborator[](2);
        v.collaborators[0] = Collaborator(artist, 75);
        v.collaborators[1] = Collaborator(other, 25);
        v = signMintVoucher(v, SIGNER_KEY, address(lazy), buyer);
        uint256 a = artist.balance;
        uint256 o = other.balance;
        vm.prank(buyer);
        lazy.lazyMint{value: 1 ether}(v);
        assertEq(artist.balance - a, 0.675 ether, "artist");
        assertEq(other.balance - o, 0.225 ether, "other");
    }

    function test_lazyMint_rules() public {
        EaselCollection lazy = createLazy(1);
        LazyMintVoucher memory v = signedVoucher(lazy, 1, 1 ether, buyer);

        // Another account than the one it was signed for.
        vm.prank(other);
        vm.expectRevert(EaselCollection.InvalidSignature.selector);
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

        // Max supply: lazy ids are 1..maxSupply, so no id beyond it (nor 0) can be minted.
        LazyMintVoucher memory v2 = signedVoucher(lazy, 2, 1 ether, buyer);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.TokenIdOutOfRange.selector, 2, 1));
        lazy.lazyMint{value: 1 ether}(v2);
        LazyMintVoucher memory v0 = signedVoucher(lazy, 0, 1 ether, buyer);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.TokenIdOutOfRange.selector, 0, 1));
        lazy.lazyMint{value: 1 ether}(v0);
        (,, uint256 minted,) = lazy.collectionInfo();
        assertEq(minted, 0, "lazy collections do not count");
    }

    function test_lazyMint_buyerCannotBeOwner() public {
        EaselCollection lazy = createLazy(10);
        vm.deal(artist, 10 ether);
        LazyMintVoucher memory v = signedVoucher(lazy, 1, 1 ether, artist);
        vm.prank(artist);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.BuyerIsCollectionOwner.selector, artist));
        lazy.lazyMint{value: 1 ether}(v);
    }

    function test_attack_lazyMintPriceBounds() public {
        EaselCollection lazy = createLazy(10);
        uint256 max = type(uint80).max;
        uint256[3] memory bad = [uint256(0), 0.05 ether - 1, max + 1];
        vm.deal(buyer, max + 1);
        for (uint256 i; i < bad.length; ++i) {
            LazyMintVoucher memory v = signedVoucher(lazy, 1, bad[i], buyer);
            vm.prank(buyer);
            vm.expectRevert(abi.encodeWithSelector(EaselCollection.PriceOutOfRange.selector, bad[i], 0.05 ether, max));
            lazy.lazyMint{value: bad[i]}(v);
        }
        // Exactly the minimum works.
        LazyMintVoucher memory least = signedVoucher(lazy, 1, 0.05 ether, buyer);
        vm.prank(buyer);
        lazy.lazyMint{value: 0.05 ether}(least);
    }

    function test_attack_lazyMintRespectsLockBansAndBlock() public {
        EaselCollection lazy = createLazy(10);
        LazyMintVoucher memory v = signedVoucher(lazy, 1, 1 ether, buyer);

        vm.prank(admin);
        marketAdmin.setMarketLocked(true);
        _expectLazyRevert(lazy, v, abi.encodeWithSelector(MarketCore.MarketIsLocked.selector));
        vm.prank(admin);
        marketAdmin.setMarketLocked(false);

        vm.prank(admin);
        marketAdmin.setCollectionBlocked(address(lazy), true);
        _expectLazyRevert(lazy, v, abi.encodeWithSelector(MarketCore.CollectionIsBlocked.selector, address(lazy)));
        vm.prank(admin);
        marketAdmin.setCollectionBlocked(address(lazy), false);

        vm.prank(admin);
        marketAdmin.setBanned(buyer, true);
        _expectLazyRevert(lazy, v, abi.encodeWithSelector(MarketCore.UserIsBanned.selector, buyer));
        vm.prank(admin);
        marketAdmin.setBanned(buyer, false);

        vm.prank(admin);
        marketAdmin.setBanned(artist, true);
        _expectLazyRevert(lazy, v, abi.encodeWithSelector(MarketCore.UserIsBanned.selector, artist));
        vm.prank(admin);
        marketAdmin.setBanned(artist, false);

        vm.prank(buyer);
        lazy.lazyMint{value: 1 ether}(v);
    }

    function _expectLazyRevert(EaselCollection lazy, LazyMintVoucher memory v, bytes memory err) private {
        vm.prank(buyer);
        vm.expectRevert(err);
        lazy.lazyMint{value: v.price}(v);
    }

    function test_attack_revokedVouchersAreVoid() public {
        EaselCollection lazy = createLazy(10);
        LazyMintVoucher memory v = signedVoucher(lazy, 1, 1 ether, buyer);

        // Only the collection owner or the platform signer may revoke.
        vm.prank(other);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.NotCollectionOwner.selector, other, artist));
        lazy.revokeVouchers();

        vm.expectEmit();
        emit VouchersRevoked(1);
        vm.prank(artist);
        lazy.revokeVouchers();
        _expectLazyRevert(lazy, v, abi.encodeWithSelector(EaselCollection.VoucherRevoked.selector, 0, 1));

        // A voucher that names the new nonce but was signed for the old one is not valid either.
        LazyMintVoucher memory relabelled = v;
        relabelled.nonce = 1;
        _expectLazyRevert(lazy, relabelled, abi.encodeWithSelector(EaselCollection.InvalidSignature.selector));

        vm.prank(signer);
        lazy.revokeVouchers();
        LazyMintVoucher memory fresh = signedVoucher(lazy, 1, 1 ether, buyer);
        assertEq(fresh.nonce, 2, "new nonce");
        vm.prank(buyer);
        lazy.lazyMint{value: 1 ether}(fresh);
    }

    function test_lazyMint_voucherAttacks() public {
        EaselCollection lazy = createLazy(10);
        EaselCollection lazy2 = createLazy(10);

        // Expired.
        LazyMintVoucher memory v = signedVoucher(lazy, 1, 1 ether, buyer);
        vm.warp(v.deadline + 1);
        vm.prank(buyer);
        vm.expectRevert(abi.encodeWithSelector(EaselCollection.VoucherExpired.selector, v.deadline));
        lazy.lazyMint{value: 1 ether}(v);
        vm.warp(v.deadline - 10);

        // Signed by someone else.
        LazyMintVoucher memory forged = signMintVoucher(mintVoucher(lazy, 1, 1 ether), 0xBAD, address(lazy), buyer);
        vm.prank(buyer);
        vm.expectRevert(EaselCollection.InvalidSignature.selector);
        lazy.lazyMint{value: 1 ether}(forged);

        // Tampered price.
        LazyMintVoucher memory tampered = signedVoucher(lazy, 1, 1 ether, buyer);
        tampered.price = 0.5 ether;
        vm.prank(buyer);
        vm.expectRevert(EaselCollection.InvalidSignature.selector);
        lazy.lazyMint{value: 0.5 ether}(tampered);

        // Another collection: the collection is part of what was signed.
        vm.prank(buyer);
        vm.expectRevert(EaselCollection.InvalidSignature.selector);
        lazy2.lazyMint{value: 1 ether}(v);

        // Another chain.
        vm.chainId(11155111);
        vm.prank(buyer);
        vm.expectRevert(EaselCollection.InvalidSignature.selector);
        lazy.lazyMint{value: 1 ether}(v);
        vm.chainId(31337);

        vm.prank(buyer);
        lazy.lazyMint{value: 1 ether}(v);
    }

    function test_lazyMint_rejectingCreatorIsCredited() public {
        // The creator's push fails -> credited, the sale still succeeds.
        EaselCollection lazy = createLazy(10);
        LazyMintVoucher memory v = signedVoucher(lazy, 1, 1 ether, buyer);
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
