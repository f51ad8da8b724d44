// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {Base} from "./Base.sol";
import {Vm} from "./Vm.sol";
import {TestActor} from "../../contracts/test/TestActor.sol";
import {EaselMarket} from "../../contracts/EaselMarket.sol";
import {EaselMarketAdmin} from "../../contracts/EaselMarketAdmin.sol";
import {MarketCore} from "../../contracts/market/MarketCore.sol";
import {EaselCollection} from "../../contracts/EaselCollection.sol";
import {Collaborator, LazyMintVoucher} from "../../contracts/interfaces/IEaselTypes.sol";

interface IVoucherSigner {
    function signedVoucherFor(EaselCollection lazy, uint256 tokenId, uint256 price, address buyer_)
        external
        view
        returns (LazyMintVoucher memory);
}

/// @dev Drives the market with random trades among a few accounts (one of which rejects ETH) across three
/// collections (a standard one with a split token, the default one with two creators, a lazy one), with a
/// nonzero secondary fee, bans, blocks, locks, operator cancels, lazy mints and fee sweeps. It computes the
/// platform fees independently and records every sale whose payout did not add up to its price.
contract MarketHandler {
    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));

    struct Token {
        address collection;
        uint256 id;
    }

    EaselMarket public market;
    /// @dev The market's address with `EaselMarketAdmin`'s functions.
    EaselMarketAdmin internal marketAdmin;
    EaselCollection public lazy;
    address public admin;
    IVoucherSigner internal voucherSigner;
    address[5] public actors;
    Token[] internal _tokens;
    mapping(address collection => mapping(uint256 id => bool)) public ghostPrimaryDone;
    uint256 internal _nextLazyId = 100;
    bool internal _setUpClosed;

    /// Platform fees the market should hold, computed independently of the contract.
    uint256 public ghostFees;
    /// Fees lazy mints left in the lazy collection, not yet swept.
    uint256 public ghostLazyFees;
    /// Sales whose payout (to everyone, fees included) did not equal the price.
    uint256 public ghostPayoutMismatches;
    uint256 public ghostSales;

    constructor(EaselMarket market_, address admin_, address[5] memory actors_, EaselCollection lazy_) {
        market = market_;
        marketAdmin = EaselMarketAdmin(address(market_));
        admin = admin_;
        actors = actors_;
        lazy = lazy_;
        voucherSigner = IVoucherSigner(msg.sender);
    }

    /// @dev Set-up only: once `closeSetUp` is called, the fuzzer's calls add nothing.
    function addToken(address collection, uint256 id) external {
        if (_setUpClosed) return;
        _tokens.push(Token(collection, id));
    }

    function closeSetUp() external {
        _setUpClosed = true;
    }

    function tokenCount() external view returns (uint256) {
        return _tokens.length;
    }

    function tokenAt(uint256 i) external view returns (address, uint256) {
        return (_tokens[i].collection, _tokens[i].id);
    }

    function _token(uint256 seed) internal view returns (address, uint256) {
        Token memory t = _tokens[seed % _tokens.length];
        return (t.collection, t.id);
    }

    function _actor(uint256 seed) internal view returns (address) {
        return actors[seed % actors.length];
    }

    function _approve(address collection, address owner) internal {
        if (!EaselCollection(collection).isApprovedForAll(owner, address(market))) {
            vm.prank(owner);
            EaselCollection(collection).setApprovalForAll(address(market), true);
        }
    }

    /// @dev Everything the actors hold (balances, credits and payments held while banned) plus the platform fees.
    function _worth() internal view returns (uint256 total) {
        for (uint256 i; i < actors.length; ++i) {
            total += actors[i].balance + marketAdmin.creditOf(actors[i]) + marketAdmin.heldOf(actors[i]);
        }
        total += marketAdmin.feesAvailable();
    }

    function _fee(address collection, uint256 id, uint256 price) internal returns (uint256) {
        bool primary = !ghostPrimaryDone[collection][id];
        ghostPrimaryDone[collection][id] = true;
        return (price * (primary ? 1_000 : 250)) / 10_000;
    }

    /// @dev A sale paid from escrow must add exactly `price` to what the actors and the platform hold; a
    /// buy-now (paid by an actor) must leave the total unchanged.
    function _recordSale(uint256 worthBefore, uint256 fromEscrow) internal {
        ghostSales++;
        if (_worth() != worthBefore + fromEscrow) ghostPayoutMismatches++;
    }

    // ------------------------------------------------------------ time and moderation

    function warp(uint256 seconds_) external {
        vm.warp(block.timestamp + (seconds_ % 4 days));
    }

    function ban(uint256 actorSeed, bool banned) external {
        vm.prank(admin);
        marketAdmin.setBanned(_actor(actorSeed), banned);
    }

    function blockToken(uint256 tokenSeed, bool blocked) external {
        (address c, uint256 id) = _token(tokenSeed);
        vm.prank(admin);
        marketAdmin.setTokenBlocked(c, id, blocked);
    }

    function blockCollection(uint256 tokenSeed, bool blocked) external {
        (address c,) = _token(tokenSeed);
        vm.prank(admin);
        marketAdmin.setCollectionBlocked(c, blocked);
    }

    function lock(bool locked) external {
        vm.prank(admin);
        marketAdmin.setMarketLocked(locked);
    }

    // ------------------------------------------------------------ trades

    function list(uint256 tokenSeed, uint256 price) external {
        (address c, uint256 id) = _token(tokenSeed);
        address owner = EaselCollection(c).ownerOf(id);
        if (owner == address(market)) return;
        _approve(c, owner);
        vm.prank(owner);
        try market.setSellOrder(c, id, 0.05 ether + (price % 5 ether)) {} catch {}
    }

    function transfer(uint256 tokenSeed, uint256 actorSeed) external {
        (address c, uint256 id) = _token(tokenSeed);
        address owner = EaselCollection(c).ownerOf(id);
        if (owner == address(market)) return;
        vm.prank(owner);
        EaselCollection(c).transferFrom(owner, _actor(actorSeed), id);
    }

    /// A single-token approval by the owner; for a token the market holds, by the market (always refused).
    function approveToken(uint256 tokenSeed, uint256 actorSeed) external {
        (address c, uint256 id) = _token(tokenSeed);
        address owner = EaselCollection(c).ownerOf(id);
        vm.prank(owner);
        try EaselCollection(c).approve(_actor(actorSeed), id) {} catch {}
    }

    function buy(uint256 tokenSeed, uint256 actorSeed) external {
        (address c, uint256 id) = _token(tokenSeed);
        (address seller, uint256 price,) = marketAdmin.getSellOrder(c, id);
        address buyer = _actor(actorSeed);
        if (price == 0 || buyer == seller) return;
        vm.deal(buyer, buyer.balance + price);
        uint256 before = _worth();
        vm.prank(buyer);
        try market.buyNow{value: price}(c, id) {
            ghostFees += _fee(c, id, price);
            _recordSale(before, 0);
        } catch {}
    }

    function auction(uint256 tokenSeed, uint256 price, bool reserve) external {
        (address c, uint256 id) = _token(tokenSeed);
        address owner = EaselCollection(c).ownerOf(id);
        if (owner == address(market)) return;
        _approve(c, owner);
        vm.prank(owner);
        if (reserve) {
            try market.setReserveAuction(c, id, 0.1 ether + (price % 2 ether)) {} catch {}
        } else {
            try market.setStandardAuction(c, id, 1 ether + (price % 2 ether), 0, 1 hours) {} catch {}
        }
    }

    function bid(uint256 tokenSeed, uint256 actorSeed, uint256 extra) external {
        (address c, uint256 id) = _token(tokenSeed);
        MarketCore.Auction memory a = marketAdmin.getAuction(c, id);
        address bidder = _actor(actorSeed);
        if (a.kind == 0 || bidder == a.seller) return;
        uint256 total = marketAdmin.minimumBid(c, id) + (extra % 1 ether);
        uint256 value = bidder == a.bidder ? total - a.amount : total;
        vm.deal(bidder, bidder.balance + value);
        vm.prank(bidder);
        try market.placeBid{value: value}(c, id, total) {} catch {}
    }

    function complete(uint256 tokenSeed) external {
        (address c, uint256 id) = _token(tokenSeed);
        MarketCore.Auction memory a = marketAdmin.getAuction(c, id);
        uint256 before = _worth();
        try market.completeAuction(c, id) {
            ghostFees += _fee(c, id, a.amount);
            _recordSale(before, a.amount);
        } catch {}
    }

    function cancelAuction(uint256 tokenSeed, bool asOperator) external {
        (address c, uint256 id) = _token(tokenSeed);
        MarketCore.Auction memory a = marketAdmin.getAuction(c, id);
        vm.prank(asOperator ? admin : a.seller);
        try marketAdmin.invalidateAuction(c, id) {} catch {}
    }

    function offer(uint256 tokenSeed, uint256 actorSeed, uint256 amount) external {
        (address c, uint256 id) = _token(tokenSeed);
        address buyer = _actor(actorSeed);
        EaselMarketAdmin.OfferView memory current = marketAdmin.getOffer(c, id);
        uint256 total = 0.05 ether + (amount % 3 ether);
        uint256 value = current.buyer == buyer && total > current.amount ? total - current.amount : total;
        vm.deal(buyer, buyer.balance + value);
        vm.prank(buyer);
        try market.makeOffer{value: value}(c, id, total, block.timestamp + 7 days) {} catch {}
    }

    function cancelOffer(uint256 tokenSeed) external {
        (address c, uint256 id) = _token(tokenSeed);
        address buyer = marketAdmin.getOffer(c, id).buyer;
        vm.prank(buyer);
        try market.cancelOffer(c, id) {} catch {}
    }

    function acceptOffer(uint256 tokenSeed) external {
        (address c, uint256 id) = _token(tokenSeed);
        address owner = EaselCollection(c).ownerOf(id);
        uint256 amount = marketAdmin.getOffer(c, id).amount;
        if (owner == address(market)) return;
        _approve(c, owner);
        uint256 before = _worth();
        vm.prank(owner);
        try market.acceptOffer(c, id, 0) {
            ghostFees += _fee(c, id, amount);
            _recordSale(before, amount);
        } catch {}
    }

    // ------------------------------------------------------------ signed listings

    /// @dev Actors with a key sign listings (the others are contracts or keyless test addresses).
    mapping(address actor => uint256 key) public keyOf;
    MarketCore.SignedListing[] internal _signed;
    bytes[] internal _signatures;
    mapping(bytes32 digest => bool) internal _filled;
    /// Signed listings filled a second time (must stay 0).
    uint256 public ghostDoubleFills;
    uint256 public ghostSignedFills;

    function setKey(address actor, uint256 key) external {
        if (_setUpClosed) return;
        keyOf[actor] = key;
    }

    /// The owner signs a listing of a token (kept to be filled, maybe after it went stale).
    function signListing(uint256 tokenSeed, uint256 price, uint256 daysAhead) external {
        (address c, uint256 id) = _token(tokenSeed);
        address owner = EaselCollection(c).ownerOf(id);
        uint256 key = keyOf[owner];
        if (key == 0) return;
        _approve(c, owner);
        MarketCore.SignedListing memory o = MarketCore.SignedListing({
            collection: c,
            tokenId: id,
            price: 0.05 ether + (price % 5 ether),
            seller: owner,
            transferCount: EaselCollection(c).transferCountOf(id),
            counter: marketAdmin.listingCounterOf(owner),
            expiresAt: block.timestamp + 1 hours + (daysAhead % 100 days),
            // Some accept every fee, some only the secondary fee (their primary sales are refused).
            maxFeeBps: daysAhead % 3 == 0 ? 250 : 2_000
        });
        (uint8 v, bytes32 r, bytes32 s_) = vm.sign(key, marketAdmin.hashSignedListing(o));
        _signed.push(o);
        _signatures.push(abi.encodePacked(r, s_, v));
    }

    /// Anyone fills a kept signed listing, live or stale (filled, cancelled, bumped, moved, expired, blocked).
    function fillSigned(uint256 orderSeed, uint256 actorSeed) external {
        if (_signed.length == 0) return;
        uint256 i = orderSeed % _signed.length;
        MarketCore.SignedListing memory o = _signed[i];
        address buyer = _actor(actorSeed);
        vm.deal(buyer, buyer.balance + o.price);
        bytes32 digest = marketAdmin.hashSignedListing(o);
        uint256 before = _worth();
        vm.prank(buyer);
        try market.fillSignedListing{value: o.price}(o, _signatures[i]) {
            if (_filled[digest]) ghostDoubleFills++;
            _filled[digest] = true;
            ghostSignedFills++;
            ghostFees += _fee(o.collection, o.tokenId, o.price);
            _recordSale(before, 0);
        } catch {}
    }

    function cancelSigned(uint256 tokenSeed) external {
        (address c, uint256 id) = _token(tokenSeed);
        address owner = EaselCollection(c).ownerOf(id);
        vm.prank(owner);
        try marketAdmin.cancelSignedListing(c, id) {} catch {}
    }

    function incrementCounter(uint256 actorSeed) external {
        vm.prank(_actor(actorSeed));
        marketAdmin.incrementListingCounter();
    }

    /// An operator releases or forfeits what is held for a banned payee.
    function settleHeld(uint256 actorSeed, bool release) external {
        address account = _actor(actorSeed);
        uint256 amount = marketAdmin.heldOf(account);
        vm.prank(admin);
        if (release) {
            try marketAdmin.releaseHeld(account) {} catch {}
        } else {
            try marketAdmin.forfeitHeld(account) {
                ghostFees += amount;
            } catch {}
        }
    }

    function lazyMint(uint256 actorSeed, uint256 price) external {
        address buyer = _actor(actorSeed);
        uint256 id = _nextLazyId;
        uint256 p = 0.05 ether + (price % 2 ether);
        LazyMintVoucher memory v = voucherSigner.signedVoucherFor(lazy, id, p, buyer);
        vm.deal(buyer, buyer.balance + p);
        vm.prank(buyer);
        try lazy.lazyMint{value: p}(v) {
            _nextLazyId++;
            _tokens.push(Token(address(lazy), id));
            ghostPrimaryDone[address(lazy)][id] = true;
            ghostLazyFees += (p * 1_000) / 10_000;
        } catch {}
    }

    function sweepLazyFees() external {
        lazy.sweepFees();
        ghostFees += ghostLazyFees;
        ghostLazyFees = 0;
    }

    function withdraw(uint256 actorSeed) external {
        address account = _actor(actorSeed);
        vm.prank(account);
        try marketAdmin.withdrawTo(address(0xFEE)) {} catch {}
    }
}

contract EaselMarketInvariantTest is Base {
    MarketHandler internal handler;
    address internal artist2 = address(0xA2);

    function setUp() public override {
        super.setUp();
        vm.startPrank(admin);
        marketAdmin.setFees(1_000, 250);
        marketAdmin.setArtistVerified(artist2, true);
        vm.stopPrank();
        TestActor rejecter = new TestActor();
        rejecter.setMode(TestActor.Mode.Reject);
        EaselCollection lazy = createLazy(1_000);
        address keyed1 = vm.addr(0xC1);
        address keyed2 = vm.addr(0xC2);
        handler = new MarketHandler(market, admin, [artist, artist2, keyed1, keyed2, address(rejecter)], lazy);
        handler.setKey(keyed1, 0xC1);
        handler.setKey(keyed2, 0xC2);
        // The keyed actors start with the plain tokens, so that they sign listings from the first call.
        mint(1);
        mint(2);
        vm.startPrank(artist);
        collection.transferFrom(artist, keyed1, 1);
        collection.transferFrom(artist, keyed2, 2);
        vm.stopPrank();

        // Standard collection: two plain tokens (above) and one split with the ETH-rejecting actor.
        Collaborator[] memory split = new Collaborator[](2);
        split[0] = Collaborator(artist, 60);
        split[1] = Collaborator(address(rejecter), 40);
        vm.prank(artist);
        collection.mintNFT(1_500, cid(3), split);
        for (uint256 id = 1; id <= 3; ++id) handler.addToken(address(collection), id);
        // Default collection: one token each from two artists.
        vm.prank(artist);
        defaultCollection.mintNFT(500, cid(11), none());
        vm.prank(artist2);
        defaultCollection.mintNFT(500, cid(12), none());
        handler.addToken(address(defaultCollection), 1);
        handler.addToken(address(defaultCollection), 2);
        handler.closeSetUp();
    }

    function signedVoucherFor(EaselCollection lazy, uint256 tokenId, uint256 price, address buyer_)
        external
        view
        returns (LazyMintVoucher memory)
    {
        return signedVoucher(lazy, tokenId, price, buyer_);
    }

    function targetContracts() public view returns (address[] memory targets) {
        targets = new address[](1);
        targets[0] = address(handler);
    }

    /// The market's ETH is exactly the live bids and offers, the credited withdrawals and the platform fees,
    /// and the fees are what an independent computation says.
    function invariant_ethIsConserved() public view {
        uint256 escrow;
        for (uint256 i; i < handler.tokenCount(); ++i) {
            (address c, uint256 id) = handler.tokenAt(i);
            escrow += marketAdmin.getOffer(c, id).amount;
            MarketCore.Auction memory a = marketAdmin.getAuction(c, id);
            if (a.bidder != address(0)) escrow += a.amount;
        }
        assertEq(
            address(market).balance,
            escrow + marketAdmin.totalCredits() + marketAdmin.totalHeld() + handler.ghostFees(),
            "market balance"
        );
        assertEq(marketAdmin.feesAvailable(), handler.ghostFees(), "fees");
        assertEq(address(handler.lazy()).balance, handler.ghostLazyFees() + handler.lazy().totalCredits(), "lazy");
    }

    /// Every sale paid out exactly its price: what the parties and the platform gained equals what was paid.
    function invariant_everySalePaysExactlyItsPrice() public view {
        assertEq(handler.ghostPayoutMismatches(), 0, "sales whose payout differs from the price");
    }

    /// A signed listing is filled at most once.
    function invariant_signedListingsFillOnce() public view {
        assertEq(handler.ghostDoubleFills(), 0, "signed listings filled twice");
    }

    /// A token the market holds has no approved address: an auction's settlement neither reads nor clears it.
    function invariant_escrowedTokensHaveNoApproval() public view {
        for (uint256 i; i < handler.tokenCount(); ++i) {
            (address c, uint256 id) = handler.tokenAt(i);
            if (EaselCollection(c).ownerOf(id) == address(market)) {
                assertEq(EaselCollection(c).getApproved(id), address(0), "approval on an escrowed token");
            }
        }
    }

    /// A live listing always belongs to the token's current owner; a token in an auction is held by the market
    /// and has no live listing.
    function invariant_listingsBelongToOwners() public view {
        for (uint256 i; i < handler.tokenCount(); ++i) {
            (address c, uint256 id) = handler.tokenAt(i);
            (address seller,,) = marketAdmin.getSellOrder(c, id);
            if (marketAdmin.getAuction(c, id).kind != 0) {
                assertEq(EaselCollection(c).ownerOf(id), address(market), "escrowed");
                assertEq(seller, address(0), "listed while in auction");
            } else if (seller != address(0)) {
                assertEq(seller, EaselCollection(c).ownerOf(id), "listing of a past owner");
            }
        }
    }
}
